"""The command line's argparse parsers: every subcommand's options, and ``validate``'s fast path."""

from __future__ import annotations

import argparse
import sys

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any, NoReturn, Sequence

DESCRIPTION = ("Typed checks, rendering and conversion of NVIDIA Dynamo deployments and InferCrane "
               "DeploymentSpecs, offline. Exit codes: 0 success, 1 invalid input, 2 usage or I/O error.")


PROG = "python -m dynamo_schema"


def program_name(argv_given: bool) -> str:
    """The name usage lines show: how the program was invoked. The console script's own name
    (``dynamo-schema``, the pre-commit hook's entry) when it runs with the process's arguments; ``python -m
    dynamo_schema`` for ``__main__`` and for a ``main(argv)`` call from Python."""
    import os

    if argv_given or not sys.argv or not sys.argv[0]:
        return PROG
    base = os.path.basename(sys.argv[0])
    base = base[:-4] if base.lower().endswith(".exe") else base
    return PROG if base.endswith(".py") or base in ("-c", "-m", "") else base


def subparser(parser: argparse.ArgumentParser, command: str) -> argparse.ArgumentParser | None:
    """The parser of one subcommand (for its own usage line in an error)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found: argparse.ArgumentParser | None = action.choices.get(command)
            return found
    return None


def parse_command_line(argv: Sequence[str] | None, prog: str = PROG) -> argparse.Namespace:
    """The full parser's result. An option a subcommand does not know is reported with that subcommand's
    usage (``usage: dynamo-schema validate [...]``), not the top level's as argparse does; exit 2."""
    parser = build_parser(prog=prog)
    ns, extras = parser.parse_known_args(argv)
    if extras:
        sub = subparser(parser, getattr(ns, "command", "") or "")
        (sub or parser).error("unrecognized arguments: " + " ".join(extras))
    return ns


def build_parser(only: str | None = None, parser_class: type[argparse.ArgumentParser] = argparse.ArgumentParser,
                 prog: str = PROG) -> argparse.ArgumentParser:
    """The command line; ``only="validate"``: the top level and ``validate`` alone (see ``_parse_validate``)."""
    from ._options import (
        add_operator_version,
        add_render_options,
        add_settings_options,
        add_validate_options,
        version_text,
    )

    parser = parser_class(prog=prog, description=DESCRIPTION)
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    parser.add_argument("--version", action="version", version=version_text(), help="print the version and exit")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("validate", help="check manifests as the API server and admission webhooks would",
                       description="Check manifests as the API server and the admission webhooks would.")
    add_validate_options(p)
    if only == "validate":
        return parser

    p = sub.add_parser("render", help="render what the operator (or a cloud adapter) creates")
    add_render_options(p)
    p.add_argument("--provider-config", default=None, metavar="FILE",
                   help="DeploymentSpec provider settings (YAML mapping of INFERCRANE_* names; wins over the environment)")
    p.add_argument("--worker-hash-algorithm", default=None,
                   choices=["dcd-runtime-version", "dcd", "legacy-v1", "rollout-v2"],
                   help="override the worker-hash rule of the emulated operator release")
    p.add_argument("--out", default=None, metavar="DIR", help="write one file per object into DIR (atomically)")
    p.add_argument("-o", dest="out_deprecated", default=None, metavar="DIR", help=argparse.SUPPRESS)
    p.add_argument("--only-dynamo", action="store_true",
                   help="drop the other objects of the input instead of passing them through")
    p.add_argument("--stored", action="store_true",
                   help="every object as the API server stores it (built-in defaults, LWS webhook, Grove defaulting)")
    add_settings_options(p)
    p.add_argument("path", metavar="PATH", help="manifest file or - for standard input")

    p = sub.add_parser("merge", help="apply a DGDR spec.overrides.dgd to a generated DGD")
    p.add_argument("--blueprint", required=True, metavar="BLUEPRINT.yaml", help="the generated DGD")
    p.add_argument("--override", required=True, metavar="OVERRIDE.yaml",
                   help="the spec.overrides.dgd document, or a DGDR manifest")
    p.add_argument("--no-validate", dest="validate", action="store_false",
                   help="print the effective DGD without checking it as admission would")

    p = sub.add_parser("schema", help="write the JSON Schemas generated from the models")
    p.add_argument("--out", default="schemas", metavar="DIR", help="output folder (default schemas)")
    p.add_argument("--with-core-descriptions", action="store_true",
                   help="also describe the Kubernetes core types inside the schemas (podTemplate, containers…), "
                        "read from the installed kubernetes-validate")
    add_operator_version(p, "whose CRD schemas are written (the served kinds and versions of that release)")

    p = sub.add_parser("default", help="print the object as admission would store it")
    add_operator_version(p, "whose CRD defaults, mutating webhooks and storage version apply")
    add_settings_options(p)
    p.add_argument("--namespace", default="default", metavar="NS",
                   help="namespace a Dynamo object without metadata.namespace is stored in, as kubectl apply -n NS "
                        "(default default; the manifest's namespace wins)")
    p.add_argument("path", metavar="PATH", help="manifest file or - for standard input")

    p = sub.add_parser("convert", help="convert nvidia.com/v1alpha1 <-> v1beta1")
    p.add_argument("--to", default="nvidia.com/v1beta1", choices=["nvidia.com/v1beta1", "nvidia.com/v1alpha1"],
                   type=_dynamo_api_version,
                   help="target API version, nvidia.com/VERSION or just VERSION (default nvidia.com/v1beta1)")
    p.add_argument("path", metavar="PATH", help="manifest file, directory or - for standard input")

    p = sub.add_parser("diff", help="what an update changes in the rendered objects and in a running deployment")
    p.add_argument("--output", "-o", choices=["text", "json"], default="text", help="output format (default text)")
    add_render_options(p)
    p.add_argument("-U", "--context", type=int, default=3, metavar="N", help="lines of context in object diffs")
    p.add_argument("--no-diff", dest="show_diff", action="store_false", help="summary only")
    add_settings_options(p)
    p.add_argument("old", metavar="OLD", help="the manifest as deployed")
    p.add_argument("new", metavar="NEW", help="the manifest as it will be")

    p = sub.add_parser("explain", help="field documentation, type, default and constraints")
    p.add_argument("field", metavar="KIND[.FIELD.PATH]",
                   help="a kind (dgd, dcd, dgdr, pcs, lws, deploymentspec or the full kind name) and a field path")
    p.add_argument("--api-version", default=None, metavar="GROUP/VERSION",
                   help="the API version to explain (default: the newest served, e.g. nvidia.com/v1beta1)")
    p.add_argument("--recursive", action="store_true", help="list every nested field, indented")
    add_operator_version(p, "whose CRD schema is explained (its served versions and fields)")

    p = sub.add_parser("lsp", help="the language server for editors (stdio; needs the lsp extra, pygls)")
    p.add_argument("--stdio", action="store_true", help="talk over standard input and output (the default)")
    return parser


class _ParseFailed(Exception):
    pass


class _UnshownFormatter(argparse.HelpFormatter):
    """For parsers that never print (``_QuietParser``): a fixed width, so that argparse does not import
    ``shutil`` (with bz2 and lzma) to ask for the terminal's width."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if len(args) < 4 and kwargs.get("width") is None:  # (prog, indent_increment, max_help_position, width)
            kwargs["width"] = 80
        super().__init__(*args, **kwargs)


class _QuietParser(argparse.ArgumentParser):
    """Raises instead of printing a usage error; never prints help (``_parse_validate`` excludes it)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _UnshownFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise _ParseFailed(message)


def _dynamo_api_version(value: str) -> str:
    """``v1alpha1`` means ``nvidia.com/v1alpha1`` (as ``explain --api-version`` reads it)."""
    return value if "/" in value else "nvidia.com/" + value


def _parse_validate(argv: Sequence[str] | None) -> argparse.Namespace | None:
    """A ``validate`` command line parsed without building the other subcommands (the pre-commit hook's
    path: argparse spends about as long on building them as ``validate`` spends on a small file). None
    when the result could differ from the full parser's: another command, any help option, any error
    (the full parser then prints the usual message)."""
    args = list(sys.argv[1:] if argv is None else argv)
    i = 0
    while i < len(args) and args[i] == "--debug":
        i += 1
    if i >= len(args) or args[i] != "validate" or any(a.startswith(("-h", "--h")) for a in args):
        return None
    try:
        return build_parser(only="validate", parser_class=_QuietParser).parse_args(args)
    except (_ParseFailed, TypeError):  # TypeError: an argparse whose internals differ; the full parser decides
        return None
