"""ObjectMeta as the API server checks it for a custom resource (create).

``k8s.io/apiserver`` validates a custom resource's metadata with ``ValidateObjectMetaAccessor`` and
``NameIsDNSSubdomain`` (k8s.io/apimachinery/pkg/api/validation/objectmeta.go): ``name`` and
``generateName`` (a trailing ``-`` masked) DNS-1123 subdomains, one of them required; ``namespace`` a
DNS-1123 label; label keys qualified names and values label values (``ValidateLabels``); annotation
keys qualified names once lower-cased, and all annotations together at most 256 KiB
(``ValidateAnnotations``). Messages are apimachinery's (``field.Error`` bodies), the text helpers those
of :mod:`dynamo_schema._k8s._names` (apimachinery's exact ``RegexError``).
"""

from __future__ import annotations

import json
import re

from .._core._diagnostics import Diagnostic
from ._names import dns1123_label_errors, dns1123_subdomain_errors, label_value_errors, memo_valid

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

TOTAL_ANNOTATION_SIZE_LIMIT = 256 * (1 << 10)
_QNAME = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
_QNAME_MSG = ("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
              "alphanumeric character")


def _quote(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


@memo_valid
def qualified_name_errors(value: str) -> list[str]:
    """``IsQualifiedName``, which is ``api/validate/content.IsLabelKey`` from Kubernetes 1.35 on (the reference's
    1.36 libraries): a key of three or more parts is "a valid label key", lengths are bytes (its prefix checked by
    the content package's DNS-1123 subdomain rule, whose length error says bytes too)."""
    from ._names import _go_len, _max_bytes, _regex_error, dns1123_subdomain_errors

    errs: list[str] = []
    parts = value.split("/")
    if len(parts) == 1:
        name = parts[0]
    elif len(parts) == 2:
        prefix, name = parts
        if not prefix:
            errs.append("prefix part must be non-empty")
        else:
            errs += ["prefix part " + (_max_bytes(253) if m == "must be no more than 253 characters" else m)
                     for m in dns1123_subdomain_errors(prefix)]
    else:
        return ["a valid label key " + _regex_error(_QNAME_MSG, _QNAME, "MyName", "my.name", "123-abc")
                + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]
    if not name:
        errs.append("name part must be non-empty")
    elif _go_len(name) > 63:
        errs.append("name part " + _max_bytes(63))
    if not re.fullmatch(_QNAME, name):
        errs.append("name part " + _regex_error(_QNAME_MSG, _QNAME, "MyName", "my.name", "123-abc"))
    return errs


def _name_errors(value: str, prefix: bool) -> list[str]:
    """``NameIsDNSSubdomain``: a generateName's trailing ``-`` is masked (``maskTrailingDash``)."""
    if prefix and len(value) > 1 and value.endswith("-"):
        value = value[:-1] + "a"
    return dns1123_subdomain_errors(value)


def _invalid(rule: str, path: tuple[Any, ...], value: str, msg: str) -> Diagnostic:
    return Diagnostic(rule, path, f"Invalid value: {_quote(value)}: {msg}")


def object_meta_errors(data: Any) -> list[Diagnostic]:
    """What the API server refuses in ``metadata`` of a namespaced custom resource at create."""
    if not isinstance(data, dict):
        return []
    return validate_object_meta(data.get("metadata"))


def validate_object_meta(meta: Any, path: tuple[Any, ...] = ("metadata",)) -> list[Diagnostic]:
    """Errors of a resource root's ``metadata`` (a mapping; type errors are the schema's). Field paths are
    the server's: label, annotation and finalizer errors name the map or list (``metadata.labels``), the
    offending key or value is in the message, as kube-apiserver reports them (checked against
    kubectl-validate, tests/k8s/test_objectmeta.py)."""
    if not isinstance(meta, dict):
        meta = {}
    out: list[Diagnostic] = []
    gen = meta.get("generateName")
    if isinstance(gen, str) and gen:
        out += [_invalid("metadata.invalid-name", path + ("generateName",), gen, m) for m in _name_errors(gen, True)]
    name = meta.get("name")
    if not (isinstance(name, str) and name):
        if not (isinstance(gen, str) and gen):
            out.append(Diagnostic("metadata.name-required", path + ("name",),
                                  "Required value: name or generateName is required"))
    else:
        out += [_invalid("metadata.invalid-name", path + ("name",), name, m) for m in _name_errors(name, False)]
    namespace = meta.get("namespace")
    if isinstance(namespace, str) and namespace:
        out += [_invalid("metadata.invalid-namespace", path + ("namespace",), namespace, m)
                for m in dns1123_label_errors(namespace)]
    labels = meta.get("labels")
    if isinstance(labels, dict):
        for k, v in labels.items():
            key = str(k)
            out += [_invalid("metadata.invalid-label-key", path + ("labels",), key, m)
                    for m in qualified_name_errors(key)]
            if isinstance(v, str):
                out += [_invalid("metadata.invalid-label-value", path + ("labels",), v, m)
                        for m in label_value_errors(v)]
    annotations = meta.get("annotations")
    if isinstance(annotations, dict):
        total = 0
        for k, v in annotations.items():
            key = str(k)
            out += [_invalid("metadata.invalid-annotation-key", path + ("annotations",), key, m)
                    for m in qualified_name_errors(key.lower())]
            total += len(key.encode()) + (len(v.encode()) if isinstance(v, str) else 0)
        if total > TOTAL_ANNOTATION_SIZE_LIMIT:
            out.append(Diagnostic("metadata.annotations-too-long", path + ("annotations",),
                                  f"Too long: may not be more than {TOTAL_ANNOTATION_SIZE_LIMIT} bytes"))
    finalizers = meta.get("finalizers")
    if isinstance(finalizers, list):  # ValidateFinalizerName: qualified names (duplicates are admitted)
        for f in finalizers:
            if isinstance(f, str):
                out += [_invalid("metadata.invalid-finalizer", path + ("finalizers",), f, m)
                        for m in qualified_name_errors(f)]
    return out
