"""apimachinery ``ValidateAnnotations``: the total size of keys and values is at most
``TotalAnnotationSizeLimitB`` (256 KiB = 262144 bytes); over it, one ``TooLong`` error at
``metadata.annotations`` (``field.TooLong(fldPath, "", TotalAnnotationSizeLimitB)``)."""

from __future__ import annotations

from dynamo_schema._k8s._objectmeta import object_meta_errors

LIMIT = 256 * 1024


def _obj(size: int) -> dict[str, object]:
    key = "example.com/blob"
    return {"metadata": {"name": "x", "annotations": {key: "a" * (size - len(key))}}}


def test_annotations_at_the_limit_are_accepted() -> None:
    assert object_meta_errors(_obj(LIMIT)) == []


def test_annotations_over_the_limit_are_too_long() -> None:
    [d] = object_meta_errors(_obj(LIMIT + 1))
    assert (d.rule, d.path, d.message) == ("metadata.annotations-too-long", ("metadata", "annotations"),
                                           f"Too long: may not be more than {LIMIT} bytes")
