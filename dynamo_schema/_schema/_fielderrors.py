"""How the structural checks word and collect their findings: ``field.Error`` bodies as
apiextensions-apiserver prints them, kube-openapi's field names (``spec.replicas in body …``), the
unknown-field and pruned-null diagnostics, and the run that collects them."""

from __future__ import annotations

from .._core._diagnostics import Diagnostic, Path
from .._k8s._gofmt import field_error, field_value_v033, go_float, go_quote
from ._nodes import Node

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Run", "go_number", "null_note", "openapi_name", "schema_field_error", "unknown_field"]

# --------------------------------------------------------------------------------------------------
# Go formatting helpers (field.Error.ErrorBody prints values with %q / %v / %#v)
# --------------------------------------------------------------------------------------------------


def schema_field_error(type_: str, value: Any, detail: str = "") -> str:
    """``field.Error.ErrorBody`` as the apiextensions-apiserver prints it: values as
    ``field_value_v033`` renders them (nil is the string "null" kube-openapi reports, composites
    ``%#v``)."""
    return field_error(type_, value, detail, render=field_value_v033)


def go_number(v: float) -> str:
    """``%v`` of a schema bound (float64 in kube-openapi) or an integer."""
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, int):
        return str(v)
    return go_float(float(v))


def openapi_name(path: Path) -> str:
    """The field name kube-openapi's validator puts in its messages (``… in body must be …``): every
    key joined with ``.`` — map keys too, even with dots or slashes (``metadata.labels.a/b``) —
    indexes as ``[i]``. Not the Kubernetes field path (``_diagnostics.format_path``: ``labels[a/b]``)."""
    out: list[str] = []
    for e in path:
        if isinstance(e, int):
            out.append(f"[{e}]")
        else:
            if out:
                out.append(".")
            out.append(e)
    return "".join(out)


class Run:
    __slots__ = ("diags", "notes", "root_meta", "root_path", "strict")

    def __init__(self, strict: bool, notes: bool = True) -> None:
        self.diags: list[Diagnostic] = []
        self.strict = strict
        self.notes = notes
        self.root_meta = False
        self.root_path: Path = ()

    def add(self, rule: str, path: Path, message: str, severity: str = "error") -> None:
        self.diags.append(Diagnostic(rule, path, message, severity))  # type: ignore[arg-type]


def unknown_field(run: Run, path: Path, key: str, siblings: Any) -> None:
    """The strict decoder's ``unknown field "PATH"`` (exactly upstream's message), and, when a declared
    field is close, our suggestion as a separate note at the same path (``schema.did-you-mean``)."""
    run.add("schema.unknown-field", path, f"unknown field {go_quote(openapi_name(path))}",
            "error" if run.strict else "warning")
    names = [s for s in siblings if isinstance(s, str)]
    import difflib  # only to explain an unknown field

    close = difflib.get_close_matches(key, names, n=1)
    if close:
        run.add("schema.did-you-mean", path, f"did you mean {go_quote(close[0])}?", "note")


def null_note(run: Run, path: Path, node: Node) -> None:
    if not run.notes:
        return
    if node.has_default:
        run.add(
            "schema.null-pruned",
            path,
            f"null value replaced by the schema default {field_value_v033(node.default)} (field is not nullable)",
            "note",
        )
    else:
        run.add("schema.null-pruned", path, "null value pruned: field is not nullable", "note")
