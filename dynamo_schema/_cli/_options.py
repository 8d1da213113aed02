"""``validate``'s options (kubeconform-compatible names where kubeconform has the control)."""

from __future__ import annotations

import argparse
import os


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


def add_validate_options(p: argparse.ArgumentParser) -> None:
    from .._core._version import __version__
    from ._reporters import FORMATS

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
    p.add_argument("--version", action="version", version=f"dynamo-schema {__version__}", help="print the version and exit")
    p.add_argument("--old", metavar="OLD", help="validate PATH as an update of the object(s) in OLD")
    p.add_argument("--kubernetes-version", default=None, metavar="X.Y.Z",
                   help="Kubernetes release whose schemas check built-in kinds (default 1.32.0)")
    p.add_argument("--settings", metavar="FILE", help="YAML mapping of admission settings (cluster/operator state)")
    p.add_argument("--set", dest="set_", metavar="KEY=VALUE", action="append", default=[],
                   help="one admission setting (repeatable; wins over --settings)")
    p.add_argument("--patch", dest="patches", action="append", default=[], metavar="FILE",
                   help="check FILE as a kustomize patch (partial DGD/DCD: no required fields; repeatable)")
    p.add_argument("--kustomize", dest="kustomize", action="append", default=[], metavar="DIR",
                   help="build DIR with `kubectl kustomize` and validate the result (repeatable)")
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="file, directory (walked for *.yaml, *.yml, *.json) or - for standard input")
