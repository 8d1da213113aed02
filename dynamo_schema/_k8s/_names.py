"""Kubernetes name and label rules the bundled schemas do not check (k8s.io/apimachinery/pkg/util/validation),
with apimachinery's exact messages; and the check of rendered objects against them.

Moved from ``_compile`` (which re-exports every name) so that the validation stage can use them too.
"""

from __future__ import annotations

import re

from .._core._diagnostics import Diagnostic
from ._gofmt import go_quote

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

_DNS1123_LABEL = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_DNS1123_SUBDOMAIN = _DNS1123_LABEL + r"(\." + _DNS1123_LABEL + r")*"
_DNS1035_LABEL = r"[a-z]([-a-z0-9]*[a-z0-9])?"
_LABEL_VALUE = r"(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?"
_ENV_VAR_NAME = r"[-._a-zA-Z][-._a-zA-Z0-9]*"


def _regex_error(msg: str, fmt: str, *examples: str) -> str:
    """apimachinery's ``RegexError`` text (its odd ``',  or '`` spacing included)."""
    if not examples:
        return f"{msg} (regex used for validation is '{fmt}')"
    out = msg + " (e.g. "
    for i, ex in enumerate(examples):
        if i > 0:
            out += " or "
        out += f"'{ex}', "
    return out + f"regex used for validation is '{fmt}')"


def _max_len(n: int) -> str:
    """``util/validation.MaxLenError`` (the DNS name rules)."""
    return f"must be no more than {n} characters"


def _max_bytes(n: int) -> str:
    """``api/validate/content.MaxLenError`` (label keys and values, Kubernetes 1.35 on: the reference's 1.36)."""
    return f"must be no more than {n} bytes"


def before_1_35(messages: list[str]) -> list[str]:
    """The label-key and label-value texts of apimachinery before v0.35 (Kubernetes 1.34 and earlier, e.g. Grove's
    webhook at the reference, built with v0.34): "a qualified name", lengths in "characters" (the lengths themselves
    were bytes all along: Go's ``len``)."""
    out = []
    for m in messages:
        if m.endswith(" bytes") and "must be no more than " in m:
            m = m[: -len(" bytes")] + " characters"
        elif m.startswith("a valid label key "):
            m = "a qualified name " + m[len("a valid label key "):]
        out.append(m)
    return out


def _go_len(value: str) -> int:
    """Go's ``len`` of a string: its UTF-8 bytes (every length rule here counts bytes)."""
    return len(value) if value.isascii() else len(value.encode("utf-8", "surrogatepass"))


#: Strings each rule below has accepted: a rendered object repeats its few names and label values in
#: every label map and pod template, and a bulk run repeats the system label keys in every object.
#: Cleared when full; an accepted string is a fresh empty list again, as a first check gives it.
_VALID_LIMIT = 4096


def memo_valid(check: Callable[[str], list[str]]) -> Callable[[str], list[str]]:
    valid: set[str] = set()

    def memo(value: str) -> list[str]:
        if value in valid:
            return []
        errs = check(value)
        if not errs and type(value) is str:
            if len(valid) >= _VALID_LIMIT:
                valid.clear()
            valid.add(value)
        return errs

    memo.__name__ = memo.__qualname__ = check.__name__
    memo.__doc__ = check.__doc__
    memo.__wrapped__ = check  # type: ignore[attr-defined]
    return memo


@memo_valid
def dns1123_label_errors(value: str) -> list[str]:
    """``IsDNS1123Label``: the rule of namespace names."""
    errs = []
    if _go_len(value) > 63:
        errs.append(_max_len(63))
    if not re.fullmatch(_DNS1123_LABEL, value):
        if re.fullmatch(_DNS1123_SUBDOMAIN, value):
            errs.append("must not contain dots")
        else:
            errs.append(_regex_error("a lowercase RFC 1123 label must consist of lower case alphanumeric "
                                     "characters or '-', and must start and end with an alphanumeric character",
                                     _DNS1123_LABEL, "my-name", "123-abc"))
    return errs


@memo_valid
def dns1123_subdomain_errors(value: str) -> list[str]:
    errs = []
    if _go_len(value) > 253:
        errs.append(_max_len(253))
    if not re.fullmatch(_DNS1123_SUBDOMAIN, value):
        errs.append(_regex_error("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
                                 "characters, '-' or '.', and must start and end with an alphanumeric character",
                                 _DNS1123_SUBDOMAIN, "example.com"))
    return errs


@memo_valid
def dns1035_label_errors(value: str) -> list[str]:
    errs = []
    if _go_len(value) > 63:
        errs.append(_max_len(63))
    if not re.fullmatch(_DNS1035_LABEL, value):
        errs.append(_regex_error("a DNS-1035 label must consist of lower case alphanumeric characters or '-', "
                                 "start with an alphabetic character, and end with an alphanumeric character",
                                 _DNS1035_LABEL, "my-name", "abc-123"))
    return errs


@memo_valid
def label_value_errors(value: str) -> list[str]:
    errs = []
    if _go_len(value) > 63:
        errs.append(_max_bytes(63))
    if not re.fullmatch(_LABEL_VALUE, value):
        errs.append(_regex_error("a valid label must be an empty string or consist of alphanumeric characters, "
                                 "'-', '_' or '.', and must start and end with an alphanumeric character",
                                 _LABEL_VALUE, "MyValue", "my_value", "12345"))
    return errs


@memo_valid
def env_var_name_errors(value: str) -> list[str]:
    """``IsEnvVarName``."""
    errs: list[str] = []
    if not re.fullmatch(_ENV_VAR_NAME, value):
        errs.append(_regex_error("a valid environment variable name must consist of alphabetic characters, digits, "
                                 "'_', '-', or '.', and must not start with a digit",
                                 _ENV_VAR_NAME, "my.env-name", "MY_ENV.NAME", "MyEnvName1"))
    if value == ".":
        errs.append("must not be '.'")
    elif value == "..":
        errs.append("must not be '..'")
    elif value.startswith(".."):
        errs.append("must not start with '..'")
    return errs


def _label_maps(node: Any, path: tuple[Any, ...], kind: str) -> list[tuple[tuple[Any, ...], dict[str, Any]]]:
    """Every label map of a rendered object: ``metadata.labels`` (also of pod templates),
    ``matchLabels`` of selectors and a Service's ``spec.selector``."""
    out: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    _collect_label_maps(node, path, kind == "Service", out)
    return out


#: Lists that hold no label map in any object the API server admits: a pod's containers (a Container has
#: no ObjectMeta and no label selector). Most of a rendered pod is its containers (env, args, mounts).
_NO_LABEL_MAPS = frozenset(("containers", "initContainers", "ephemeralContainers"))


def _collect_label_maps(node: Any, path: tuple[Any, ...], service: bool,
                        out: list[tuple[tuple[Any, ...], dict[str, Any]]]) -> None:
    # scalars hold no label map: only mappings and lists are walked (most of a rendered object is scalars)
    if isinstance(node, dict):
        in_metadata = path[-1:] == ("metadata",)
        for k, v in node.items():
            if isinstance(v, dict):
                p = path + (k,)
                if (k == "labels" and in_metadata) or k == "matchLabels" or (service and p == ("spec", "selector")):
                    out.append((p, v))
                else:
                    _collect_label_maps(v, p, service, out)
            elif isinstance(v, list):
                if k in _NO_LABEL_MAPS:
                    continue
                _collect_label_maps(v, path + (k,), service, out)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            if isinstance(v, (dict, list)):
                _collect_label_maps(v, path + (i,), service, out)


def check_names(objs: list[dict[str, Any]]) -> list[Diagnostic]:
    """Name rules the API server applies and the bundled schemas do not: ``metadata.name`` (a DNS-1123
    subdomain, a DNS-1035 label for a Service), ``metadata.namespace`` (a DNS-1123 label), label values
    (at most 63 characters, the label-value pattern). Each diagnostic names the object in its message."""
    out: list[Diagnostic] = []
    for obj in objs:
        if not isinstance(obj, dict):
            continue
        kind = str(obj.get("kind", ""))
        api = str(obj.get("apiVersion", ""))
        raw_meta = obj.get("metadata")
        meta: dict[str, Any] = raw_meta if isinstance(raw_meta, dict) else {}
        name = meta.get("name")
        who = f"rendered {kind}/{name}"
        if isinstance(name, str):
            if api.startswith("rbac.authorization.k8s.io/"):
                errs = [] if name not in (".", "..") and "/" not in name and "%" not in name else \
                    ["may not contain '/' or '%' and may not be '.' or '..'"]
            elif kind == "Service":
                errs = dns1035_label_errors(name)
            else:
                errs = dns1123_subdomain_errors(name)
            for e in errs:
                out.append(Diagnostic("render.invalid-name", (),
                                      f"{who}: metadata.name: Invalid value: {go_quote(name)}: {e}"))
        namespace = meta.get("namespace")
        if isinstance(namespace, str) and namespace:
            for e in dns1123_label_errors(namespace):
                out.append(Diagnostic("render.invalid-namespace", (),
                                      f"{who}: metadata.namespace: Invalid value: {go_quote(namespace)}: {e}"))
        for path, labels in _label_maps(obj, (), kind):
            for key, value in labels.items():
                if not isinstance(value, str):
                    continue
                for e in label_value_errors(value):
                    field = ".".join(str(p) for p in path)  # (only a refused value's message names it)
                    out.append(Diagnostic("render.invalid-label-value", (),
                                          f"{who} (label {key}): {field}: Invalid value: {go_quote(value)}: {e}"))
    return out
