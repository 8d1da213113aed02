"""``ValidateObjectMetaAccessor`` of kube-apiserver for a custom resource's ``metadata``.

The API server checks the root ``metadata`` of every custom resource besides its schema: the name (a
DNS-1123 subdomain, or ``generateName``), the namespace (a DNS-1123 label), label keys and values,
annotation keys and total size, finalizer names. Messages are apimachinery's
(``k8s.io/apimachinery/pkg/util/validation``, ``pkg/api/validation/objectmeta.go``), found by
kubectl-validate (tests/oracles). Owner references and managed fields are not checked here.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ._diagnostics import Diagnostic, Path

_DNS1123_LABEL = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_DNS1123_SUBDOMAIN = _DNS1123_LABEL + r"(\." + _DNS1123_LABEL + r")*"
_QUALIFIED_NAME = r"([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
_LABEL_VALUE = r"(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?"
_QUALIFIED_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
_ANNOTATIONS_MAX = 256 * 1024


def _regex_error(msg: str, fmt: str, *examples: str) -> str:
    out = msg + " (e.g. "
    for i, ex in enumerate(examples):
        if i > 0:
            out += " or "
        out += f"'{ex}', "
    return out + f"regex used for validation is '{fmt}')"


def _max_len(n: int) -> str:
    return f"must be no more than {n} characters"


def dns1123_label(value: str) -> list[str]:
    errs = []
    if len(value) > 63:
        errs.append(_max_len(63))
    if not re.fullmatch(_DNS1123_LABEL, value):
        if re.fullmatch(_DNS1123_SUBDOMAIN, value):
            errs.append("must not contain dots")
        else:
            errs.append(_regex_error("a lowercase RFC 1123 label must consist of lower case alphanumeric "
                                     "characters or '-', and must start and end with an alphanumeric character",
                                     _DNS1123_LABEL, "my-name", "123-abc"))
    return errs


def dns1123_subdomain(value: str) -> list[str]:
    errs = []
    if len(value) > 253:
        errs.append(_max_len(253))
    if not re.fullmatch(_DNS1123_SUBDOMAIN, value):
        errs.append(_regex_error("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
                                 "characters, '-' or '.', and must start and end with an alphanumeric character",
                                 _DNS1123_SUBDOMAIN, "example.com"))
    return errs


def qualified_name(value: str) -> list[str]:
    """``IsQualifiedName``: ``[prefix/]name``."""
    errs: list[str] = []
    parts = value.split("/")
    if len(parts) == 1:
        name = parts[0]
    elif len(parts) == 2:
        prefix, name = parts
        if not prefix:
            errs.append("prefix part must be non-empty")
        else:
            errs += ["prefix part " + m for m in dns1123_subdomain(prefix)]
    else:
        return ["a qualified name " + _regex_error(_QUALIFIED_MSG, _QUALIFIED_NAME, "MyName", "my.name", "123-abc")
                + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]
    if not name:
        errs.append("name part must be non-empty")
    elif len(name) > 63:
        errs.append("name part " + _max_len(63))
    if not re.fullmatch(_QUALIFIED_NAME, name):
        errs.append("name part " + _regex_error(_QUALIFIED_MSG, _QUALIFIED_NAME, "MyName", "my.name", "123-abc"))
    return errs


def label_value(value: str) -> list[str]:
    errs = []
    if len(value) > 63:
        errs.append(_max_len(63))
    if not re.fullmatch(_LABEL_VALUE, value):
        errs.append(_regex_error("a valid label must be an empty string or consist of alphanumeric characters, "
                                 "'-', '_' or '.', and must start and end with an alphanumeric character",
                                 _LABEL_VALUE, "MyValue", "my_value", "12345"))
    return errs


def _invalid(rule: str, path: Path, value: Any, msg: str) -> Diagnostic:
    return Diagnostic(rule, path, f"Invalid value: {json.dumps(value, ensure_ascii=False)}: {msg}")


def validate_object_meta(meta: Any, path: Path = ("metadata",)) -> list[Diagnostic]:
    """Errors of a resource root's ``metadata`` (a mapping; type errors are the schema's)."""
    if not isinstance(meta, dict):
        meta = {}
    out: list[Diagnostic] = []
    name, gen = meta.get("name"), meta.get("generateName")
    if isinstance(gen, str) and gen:
        # the server masks one trailing dash of the prefix before checking it
        masked = gen[:-1] + "a" if gen.endswith("-") else gen
        out += [_invalid("meta.generate-name", path + ("generateName",), gen, m) for m in dns1123_subdomain(masked)]
    if not isinstance(name, str) or not name:
        if not (isinstance(gen, str) and gen):  # otherwise the server generates the name
            out.append(Diagnostic("meta.name", path + ("name",), "Required value: name or generateName is required"))
    else:
        out += [_invalid("meta.name", path + ("name",), name, m) for m in dns1123_subdomain(name)]
    ns = meta.get("namespace")
    if isinstance(ns, str) and ns:
        out += [_invalid("meta.namespace", path + ("namespace",), ns, m) for m in dns1123_label(ns)]
    labels = meta.get("labels")
    if isinstance(labels, dict):
        for k, v in labels.items():
            out += [_invalid("meta.labels", path + ("labels",), k, m) for m in qualified_name(str(k))]
            if isinstance(v, str):
                out += [_invalid("meta.labels", path + ("labels",), v, m) for m in label_value(v)]
    annotations = meta.get("annotations")
    if isinstance(annotations, dict):
        size = 0
        for k, v in annotations.items():
            out += [_invalid("meta.annotations", path + ("annotations",), k, m) for m in qualified_name(str(k).lower())]
            size += len(str(k)) + (len(v) if isinstance(v, str) else 0)
        if size > _ANNOTATIONS_MAX:
            out.append(Diagnostic("meta.annotations", path + ("annotations",),
                                  f"Too long: may not be more than {_ANNOTATIONS_MAX} bytes"))
    finalizers = meta.get("finalizers")
    if isinstance(finalizers, list):
        for f in finalizers:
            if isinstance(f, str):
                out += [_invalid("meta.finalizers", path + ("finalizers",), f, m) for m in qualified_name(f)]
    return out
