"""ObjectMeta checks of a custom resource's root ``metadata``: expected texts are kube-apiserver's, as
kubectl-validate v0.0.4 printed them for the same input (tests/oracles compares the rest), except the label-key and
label-value texts that changed in Kubernetes 1.35 (``api/validate/content``: "a valid label key", lengths "bytes"):
those are apimachinery v0.36.2's (the reference's Kubernetes 1.36 libraries, operator-cases README), as its own
validators answered for the same strings (run outside the project, D59)."""

from __future__ import annotations

from dynamo_schema._k8s._objectmeta import validate_object_meta

QUALIFIED = ("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
             "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
             "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')")
SUBDOMAIN = ("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and "
             "must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
             "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")


def msgs(meta: dict) -> list[tuple[str, str]]:
    return [(d.field, d.message) for d in validate_object_meta(meta)]


def test_name() -> None:
    assert msgs({}) == [("metadata.name", "Required value: name or generateName is required")]
    assert msgs({"name": "Bad_Name"}) == [("metadata.name", f'Invalid value: "Bad_Name": {SUBDOMAIN}')]
    assert msgs({"name": "a" * 254}) == [("metadata.name", f'Invalid value: "{"a" * 254}": must be no more than 253 characters')]
    assert msgs({"name": "ok.name-1"}) == []


def test_namespace() -> None:
    assert msgs({"name": "x", "namespace": "a.b"}) == [("metadata.namespace", 'Invalid value: "a.b": must not contain dots')]
    assert msgs({"name": "x", "namespace": "a" * 64}) == [
        ("metadata.namespace", f'Invalid value: "{"a" * 64}": must be no more than 63 characters')]


def test_labels_annotations_finalizers() -> None:
    got = msgs({"name": "x", "labels": {"bad key!": "v", "ok": "bad value!", "a/b/c": "x", "UPPER.com/x": "y"}})
    assert got == [
        ("metadata.labels", f'Invalid value: "bad key!": name part {QUALIFIED}'),
        ("metadata.labels", 'Invalid value: "bad value!": a valid label must be an empty string or consist of '
                            "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
                            "character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is "
                            "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"),
        ("metadata.labels", f'Invalid value: "a/b/c": a valid label key {QUALIFIED} with an optional DNS subdomain '
                            "prefix and '/' (e.g. 'example.com/MyName')"),
        ("metadata.labels", f'Invalid value: "UPPER.com/x": prefix part {SUBDOMAIN}'),
    ]
    assert msgs({"name": "x", "annotations": {"bad key!": "v", "Ok/x": "y"}}) == [
        ("metadata.annotations", f'Invalid value: "bad key!": name part {QUALIFIED}')]
    assert msgs({"name": "x", "finalizers": ["bad finalizer"]}) == [
        ("metadata.finalizers", f'Invalid value: "bad finalizer": name part {QUALIFIED}')]


def test_a_label_key_name_part_over_63_characters() -> None:  # mutant c4139150167a
    """apimachinery validation.IsQualifiedName (content.IsLabelKey at v0.36): a name part longer than 63 bytes is
    ``"name part " + MaxLenError(63)``, in bytes; 63 are still valid."""
    assert msgs({"name": "x", "labels": {"example.com/" + "n" * 63: "v"}}) == []
    assert msgs({"name": "x", "labels": {"example.com/" + "n" * 64: "v"}}) == [
        ("metadata.labels", f'Invalid value: "example.com/{"n" * 64}": name part must be no more than 63 bytes')]


def test_lengths_are_bytes_and_label_texts_are_kubernetes_1_36() -> None:
    """Go's ``len`` counts UTF-8 bytes: 32 two-byte characters are 64 (apimachinery v0.36.2's answers for these
    strings); a label value's and a label key prefix's length errors say bytes, a name's or namespace's
    characters (``util/validation.MaxLenError``)."""
    e64 = "\u00e9" * 32
    assert msgs({"name": "x", "labels": {"ok": e64}})[0] == (
        "metadata.labels", f'Invalid value: "{e64}": must be no more than 63 bytes')
    assert msgs({"name": "x", "namespace": e64})[0] == (
        "metadata.namespace", f'Invalid value: "{e64}": must be no more than 63 characters')
    long_prefix = "a" * 254 + "/x"
    assert msgs({"name": "x", "labels": {long_prefix: "v"}}) == [
        ("metadata.labels", f'Invalid value: "{long_prefix}": prefix part must be no more than 253 bytes')]
