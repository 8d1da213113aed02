"""``convert``'s orchestration: every Dynamo document validated first (as ``validate`` does), then
converted; other documents pass through. Documents that do not change (already at the target version,
not Dynamo objects, a Dynamo kind whose CRD does not serve the target version: kept with a
``convert.not-served`` warning) are written byte for byte; converted ones keep key order and comments
(``_io/_roundtrip.py``). The output always decodes to exactly the converted data, type for type (else it
is written without comments)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from .._core._diagnostics import Diagnostic
    from .._core._document import Document
    from .._io._load import LoadResult

#: comments are kept for files up to this many characters (the comment-preserving round trip is slow
#: pure Python); a larger file is converted without them
CONVERT_COMMENTS_MAX = 200_000

Report = Callable[["Document", "list[Diagnostic]", str], None]


def _not_served(data: dict[str, Any], to: str) -> Diagnostic | None:
    """The warning for a Dynamo kind whose CRD does not serve ``to`` (DynamoModel, DynamoCheckpoint,
    DynamoWorkerMetadata: v1alpha1 only); None when it converts (or is at ``to`` already)."""
    from .._core._diagnostics import Diagnostic
    from .._core._kinds import CONVERTIBLE_KINDS, DYNAMO_KINDS, unserved_version

    kind, api = data.get("kind"), data.get("apiVersion")
    if not isinstance(kind, str) or kind not in DYNAMO_KINDS or kind in CONVERTIBLE_KINDS or api == to:
        return None
    return Diagnostic("convert.not-served", ("apiVersion",), f"{unserved_version(kind, to)}: kept as {api}",
                      "warning")


def convert_files(per_file: list[tuple[str, LoadResult]], to: str, report: Report) -> str | None:
    """The converted stream of ``per_file`` ((text, loaded documents) per input file, in order), or
    ``None`` when a document is refused or cannot be converted. ``report(doc, diagnostics, status)``
    receives, as they are found, the refusals and failures (status ``invalid``/``error``) and the
    warnings about converted values."""
    from .._convert._v1alpha1 import to_v1alpha1, to_v1beta1
    from .._core._diagnostics import Diagnostic
    from .._io._emit import dump_all
    from .._io._load import load_text
    from .._io._roundtrip import dump_with_comments, same_data
    from ._validate import ValidateOptions, validate_document

    fn = to_v1beta1 if to == "nvidia.com/v1beta1" else to_v1alpha1
    texts: list[str] = []
    everything: list[Any] = []
    status = 0
    for text, r in per_file:
        out = []
        for doc in r.documents:
            data = doc.data
            if not (isinstance(data, dict) and isinstance(data.get("apiVersion"), str)
                    and data["apiVersion"].startswith("nvidia.com/")):
                out.append(data)
                continue
            result = validate_document(doc, ValidateOptions())
            if result.status in ("invalid", "error"):
                report(doc, result.diagnostics, result.status)
                status = 1
                continue
            unserved = _not_served(data, to)
            if unserved is not None:  # a Dynamo kind served in one version only: kept at it, with a warning
                report(doc, [unserved], "valid")
                out.append(data)
                continue
            try:
                converted = fn(data)
                if to == "nvidia.com/v1beta1" and data.get("apiVersion") == "nvidia.com/v1alpha1":
                    from ._convert_check import legacy_value_warnings

                    report(doc, legacy_value_warnings(data, converted), "invalid")
                out.append(converted)
            except Exception as exc:  # noqa: BLE001 - the converter refuses a valid object: reported
                report(doc, [Diagnostic("convert.failed", (), str(exc))], "invalid")
                status = 1
        everything.extend(out)
        if status == 0 and out:
            kept = dump_with_comments(text, r.documents, out) if len(text) <= CONVERT_COMMENTS_MAX else None
            texts.append(kept if kept is not None else dump_all(out))
    if status != 0:
        return None
    result_text = ""
    for t in texts:  # files one after another: each starts a new document
        if result_text:
            result_text += ("" if result_text.endswith("\n") else "\n") + "---\n"
        result_text += t
    try:  # the contract: the output decodes to exactly the converted data, type for type
        ok = same_data([d.data for d in load_text(result_text)], everything)
    except Exception:  # noqa: BLE001 - any doubt: the plain, comment-less output
        ok = False
    return result_text if ok else dump_all(everything)
