"""Options shared by the parsers (``validate``'s: kubeconform-compatible names where kubeconform has the
control; admission settings; render's) and the reading of their values (settings, namespace, version)."""

from __future__ import annotations

import argparse
import os

from ._common import UsageError

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any

    from .._admission import AdmissionSettings


def _jobs(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {value!r}") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"must be 0 (all cores) or more, got {n}")
    return n


def jobs_count(n: int) -> int:
    """``-j 0``: every core this process may use."""
    if n == 0:
        try:
            return max(1, len(os.sched_getaffinity(0)))
        except (AttributeError, OSError):  # pragma: no cover - not Linux
            return max(1, os.cpu_count() or 1)
    return n


def version_text() -> str:
    from .._core._version import __version__

    return f"dynamo-schema {__version__}"


def add_settings_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--operator-config", metavar="FILE",
                   help="the operator's OperatorConfiguration file (operator.config.dynamo.nvidia.com/v1alpha1): its "
                        "orchestrator, DRA, checkpoint, discovery and GPU settings, and for render its addresses, "
                        "ingress, service mesh, schedulers (--settings and --set win)")
    p.add_argument("--settings", metavar="FILE", help="YAML mapping of admission settings (cluster/operator state)")
    p.add_argument("--set", dest="set_", metavar="KEY=VALUE", action="append", default=[],
                   help="one admission setting (repeatable; wins over --settings)")


def add_render_options(p: argparse.ArgumentParser) -> None:
    """The options ``render`` and ``diff`` share: where and as which operator release objects are rendered."""
    p.add_argument("--target", default=None, help="render target: kubernetes, grove or dcd (default: from the nvidia.com/enable-grove annotation)")
    p.add_argument("--namespace", default="default", help="namespace the objects are rendered into (default default)")
    add_operator_version(p, "the version stamped on created objects; rendering stays the reference revision's "
                            "(a note says so for an earlier release)")


def add_operator_version(p: argparse.ArgumentParser, what: str) -> None:
    """``--operator-version X.Y[.Z]``: an operator release of docs/releases.md (default: the reference revision)."""
    p.add_argument("--operator-version", default=None, metavar="X.Y",
                   help=f"operator release (0.8 ... 1.4, or 1.5 = the reference revision, the default): {what}")


def add_validate_options(p: argparse.ArgumentParser) -> None:
    from .._report import FORMATS

    p.add_argument("--output", "-o", choices=list(FORMATS), default="text",
                   help="output format (default text; sarif = SARIF 2.1.0 for code scanning; tap = TAP 13)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--strict", dest="strict", action="store_true", default=True,
                   help="unknown fields and duplicate keys are errors (default)")
    g.add_argument("--no-strict", dest="strict", action="store_false",
                   help="unknown fields are warnings; duplicate keys keep the last value")
    p.add_argument("--summary", action="store_true",
                   help="add the kubeconform summary (counts of valid/invalid/errors/skipped/waived) in every format")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="also list valid and skipped resources and waived diagnostics")
    p.add_argument("-j", "--jobs", type=_jobs, default=1, metavar="N",
                   help="files validated in parallel (default 1; 0 = all cores)")
    p.add_argument("--skip", action="append", default=[], metavar="KINDS",
                   help="comma-separated kinds or GROUP/VERSION/KIND (v1/KIND for core) to skip (repeatable)")
    p.add_argument("--reject", action="append", default=[], metavar="KINDS",
                   help="comma-separated kinds or GROUP/VERSION/KIND to refuse as errors (repeatable)")
    p.add_argument("--ignore-missing-schemas", action="store_true",
                   help="skip unknown kinds and versions even in the nvidia.com group (kinds without a schema "
                        "are skipped by default)")
    p.add_argument("--ignore-filename-pattern", action="append", default=[], metavar="REGEX",
                   help="skip files whose path matches this regular expression (repeatable)")
    p.add_argument("--schema-location", action="append", default=[], metavar="LOCATION",
                   help="local schema location for kinds we do not model, tried in order: a kubeconform template "
                        "({{.Group}}, {{.ResourceKind}}, {{.ResourceAPIVersion}}, {{.KindSuffix}}, "
                        "{{.StrictSuffix}}, {{.NormalizedKubernetesVersion}}) ending in .json (JSON Schema) or "
                        ".yaml (CRD), a CRD YAML file, a directory in kubeconform's layout, or 'default' "
                        "(the bundled Kubernetes schemas, always tried last)")
    p.add_argument("--ignore-rule", action="append", default=[], metavar="RULE-ID",
                   help="waive a rule everywhere (repeatable; a trailing * waives a family, e.g. 'schema.*')")
    p.add_argument("--version", action="version", version=version_text(), help="print the version and exit")
    p.add_argument("--old", metavar="OLD", help="validate PATH as an update of the object(s) in OLD")
    p.add_argument("--namespace", default="default", metavar="NS",
                   help="namespace a Dynamo object without metadata.namespace is admitted in, as kubectl apply -n "
                        "NS (default default; the manifest's namespace wins)")
    p.add_argument("--kubernetes-version", default=None, metavar="X.Y.Z",
                   help="Kubernetes release whose schemas check built-in kinds (default 1.32.0)")
    add_operator_version(p, "whose CRDs, served versions and webhook rules judge Dynamo objects")
    add_settings_options(p)
    p.add_argument("--patch", dest="patches", action="append", default=[], metavar="FILE",
                   help="check FILE as a kustomize patch (partial DGD/DCD: no required fields; repeatable)")
    p.add_argument("--kustomize", dest="kustomize", action="append", default=[], metavar="DIR",
                   help="build DIR with `kubectl kustomize` (else `kustomize build`) and validate the result "
                        "(repeatable)")
    p.add_argument("--helm", dest="helm", action="append", default=[], metavar="CHART",
                   help="render the chart folder CHART with `helm template` and validate the result (repeatable)")
    p.add_argument("-f", "--values", dest="helm_values", action="append", default=[], metavar="FILE",
                   help="a values file for --helm (helm's --values; repeatable)")
    p.add_argument("--helm-set", dest="helm_set", action="append", default=[], metavar="KEY=VALUE",
                   help="a value for --helm (helm's --set; repeatable; --set is validate's admission setting)")
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="file, directory (walked for *.yaml, *.yml, *.json) or - for standard input")


def settings_mapping(ns: argparse.Namespace) -> dict[str, Any]:
    """The ``--settings`` file (read with located errors) overlaid with every ``--set``."""
    from .._pipeline._config import ConfigFileError, read_mapping_file

    mapping: dict[str, Any] = dict(operator_config(ns)[0])
    if getattr(ns, "settings", None):
        try:
            mapping.update(read_mapping_file(ns.settings, "settings file"))
        except ConfigFileError as exc:
            raise UsageError(str(exc)) from exc
    for item in getattr(ns, "set_", []) or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--set expects KEY=VALUE, got {item!r}")
        mapping[key.strip()] = _set_value(key.strip(), value)
    return mapping


def operator_config(ns: argparse.Namespace) -> tuple[dict[str, Any], dict[str, Any]]:
    """(admission settings, render options) of ``--operator-config FILE`` (empty without it); read once."""
    cached = getattr(ns, "_operator_config", None)
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    path = getattr(ns, "operator_config", None)
    result: tuple[dict[str, Any], dict[str, Any]] = ({}, {})
    if path:
        from .._pipeline._config import ConfigFileError
        from .._pipeline._operatorconfig import read_operator_config

        try:
            result = read_operator_config(path)
        except ConfigFileError as exc:
            raise UsageError(str(exc)) from exc
    ns._operator_config = result
    return result


def _set_value(key: str, value: str) -> Any:
    """A ``--set`` value read as one YAML scalar or flow collection (``true``, ``3``, ``{a: [b]}``)."""
    if not value:
        return ""
    import yaml

    try:
        return yaml.load(value, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (column {mark.column + 1})" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise UsageError(f"--set {key}: cannot read value {value!r} as YAML{where}: {problem}") from exc
    except (ValueError, RecursionError) as exc:  # e.g. an integer past CPython's 4,300-digit limit
        shown = value if len(value) <= 40 else value[:40] + "..."
        raise UsageError(f"--set {key}: cannot read value {shown!r}: {exc}") from exc


def admission_settings(ns: argparse.Namespace, mapping: dict[str, Any] | None = None, *,
                       release: bool = True) -> AdmissionSettings:
    """The settings of ``--settings``/``--set`` with ``--operator-version`` (the stamped version and, unless
    ``release`` is False (render and diff emulate the reference revision), the release profile)."""
    from .._admission import AdmissionSettings

    if mapping is None:
        mapping = settings_mapping(ns)
    version = getattr(ns, "operator_version", None)
    if version:
        check_operator_version(ns)
        version = ns.operator_version
        drop = ("operator_version", "operator_release")
        mapping = {k: v for k, v in mapping.items() if str(k).replace("-", "_") not in drop}
        mapping["operator_version"] = version  # one knob: --operator-version wins
        if release:
            mapping["operator_release"] = version
    elif not release:
        mapping = {k: v for k, v in mapping.items() if str(k).replace("-", "_") != "operator_release"}
    try:
        return AdmissionSettings.from_mapping(mapping)
    except (ValueError, TypeError) as exc:
        raise UsageError(f"invalid admission settings: {exc}") from exc


def _go_quote(value: str) -> str:
    from .._k8s._gofmt import go_quote

    return go_quote(value)


def check_namespace(ns: argparse.Namespace) -> None:
    from .._k8s._names import dns1123_label_errors

    value = getattr(ns, "namespace", None)
    if value is None:
        return
    errs = dns1123_label_errors(value)
    if errs:
        raise UsageError(f"--namespace: Invalid value: {_go_quote(value)}: {'; '.join(errs)}")


def check_operator_version(ns: argparse.Namespace) -> str:
    """``--operator-version``'s release profile (``""``: the reference revision); a value that names no release of
    docs/releases.md is a usage error listing the known ones. ``X.Y`` is written back as ``X.Y.0``."""
    value = getattr(ns, "operator_version", None)
    if value is None:
        return ""
    from .._schema._releases import UnknownRelease, release_of

    try:
        release = release_of(value)
    except UnknownRelease as exc:
        raise UsageError(f"--operator-version: {exc}") from exc
    if value.lstrip("v").count(".") == 1:
        ns.operator_version = value.lstrip("v") + ".0"
    return release


def release_note(ns: argparse.Namespace, command: str, stderr: Any) -> None:
    """One note when ``render``/``diff`` get an earlier release: they keep emulating the reference revision."""
    from .._schema._releases import REFERENCE, REFERENCE_COMMIT

    release = check_operator_version(ns)
    if release:
        stderr.write(f"note: {command} emulates the operator at the reference revision {REFERENCE_COMMIT[:8]} "
                     f"({REFERENCE}); operator {release}'s {command} behaviour is not modelled, --operator-version only "
                     f"sets the version stamped ({ns.operator_version})\n")
