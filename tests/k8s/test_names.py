"""Rendered-object name checks quote the bad value as apimachinery's ``field.Invalid`` does: a string value
is printed after the error type in Go's quoted form, ``strconv.Quote`` (``field.Error.ErrorBody``)."""

from __future__ import annotations

from pathlib import Path

from dynamo_schema._k8s._names import check_names


def _messages(obj: dict[str, object]) -> list[str]:
    return [d.message for d in check_names([obj])]


def test_invalid_name_is_quoted_like_go() -> None:
    msgs = _messages({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a\x07\u200bb"}})
    assert msgs and all(m.startswith('rendered ConfigMap/a\x07\u200bb: metadata.name: Invalid value: "a\\a\\u200bb": ')
                        for m in msgs)


def test_invalid_namespace_and_label_value_are_quoted_like_go() -> None:
    obj = {"apiVersion": "v1", "kind": "ConfigMap",
           "metadata": {"name": "ok", "namespace": "ns\x00", "labels": {"k": "v\x7f"}}}
    msgs = _messages(obj)
    assert any('metadata.namespace: Invalid value: "ns\\x00": ' in m for m in msgs), msgs
    assert any('(label k): metadata.labels: Invalid value: "v\\x7f": ' in m for m in msgs), msgs


def test_dns1035_label_length_limit() -> None:  # mutant c783ace7c1da
    """apimachinery validation.IsDNS1035Label (a Service name): ``len(value) > 63`` is ``MaxLenError(63)``,
    so 63 characters are still valid."""
    from dynamo_schema._k8s._names import dns1035_label_errors

    assert dns1035_label_errors("a" * 63) == []
    assert dns1035_label_errors("a" * 64) == ["must be no more than 63 characters"]
    assert _messages({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s" * 63}}) == []


def test_label_values_inside_lists_are_checked() -> None:  # mutant 6695f68f61df
    """A label selector inside a list (pod affinity terms) is validated like any other (apimachinery
    ValidateLabelSelector → ValidateLabels on matchLabels: IsValidLabelValue)."""
    term = {"labelSelector": {"matchLabels": {"app": "-bad"}}, "topologyKey": "kubernetes.io/hostname"}
    obj = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"},
           "spec": {"template": {"spec": {"affinity": {"podAffinity": {
               "requiredDuringSchedulingIgnoredDuringExecution": [term]}}}}}}
    msgs = _messages(obj)
    assert len(msgs) == 1 and '(label app): ' in msgs[0] and 'Invalid value: "-bad": ' in msgs[0], msgs


def test_env_var_name_chdir_prefix_rules() -> None:  # mutant e6394cd12e39
    """apimachinery validation.IsEnvVarName: the regex error, then hasChDirPrefix: exactly ``.`` / ``..``
    or a ``..`` prefix; any other valid name has no error."""
    from dynamo_schema._k8s._names import env_var_name_errors

    assert env_var_name_errors("MY_ENV.NAME") == []
    assert env_var_name_errors("a..b") == []
    assert env_var_name_errors(".") == ["must not be '.'"]
    assert env_var_name_errors("..") == ["must not be '..'"]
    assert env_var_name_errors("..x") == ["must not start with '..'"]


def _every_label_map(node: object, path: tuple[object, ...], service: bool) -> list[tuple[tuple[object, ...], object]]:
    """The label maps of an object by a walk of everything (containers included): the reference."""
    out: list[tuple[tuple[object, ...], object]] = []
    if isinstance(node, dict):
        for k, v in node.items():
            p = path + (k,)
            if isinstance(v, dict) and ((k == "labels" and path[-1:] == ("metadata",)) or k == "matchLabels"
                                        or (service and p == ("spec", "selector"))):
                out.append((p, v))
            else:
                out += _every_label_map(v, p, service)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _every_label_map(v, path + (i,), service)
    return out


def test_label_maps_skip_only_containers(shared: Path) -> None:
    """The label-map walk skips a pod's container lists (a Container has no ObjectMeta and no selector): on
    every object rendered from the corpus, for both pathways, it finds what a walk of everything finds, and
    a container list is all it skips."""
    import yaml

    from dynamo_schema._k8s._names import _label_maps
    from dynamo_schema._render import RenderError, RenderOptions, render

    options = RenderOptions(namespace="corpus", dra_enabled=True, checkpoint_enabled=True)
    checked = 0
    for path in sorted((shared / "reference" / "dynamo" / "corpus" / "v1beta1").glob("*.yaml")):
        for doc in yaml.load_all(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader):
            if not (isinstance(doc, dict) and doc.get("kind") == "DynamoGraphDeployment"):
                continue
            for target in ("grove", "kubernetes"):
                try:
                    objs = render(doc, target, options)
                except RenderError:
                    continue
                for obj in objs:
                    kind = str(obj.get("kind", ""))
                    assert _label_maps(obj, (), kind) == _every_label_map(obj, (), kind == "Service"), path.name
                    checked += 1
    assert checked > 1000
    # a label map inside a container list is not one the API server checks, and is not looked for
    pod = {"metadata": {"labels": {"a": "b"}},
           "spec": {"containers": [{"name": "c", "x": {"matchLabels": {"k": "v"}}}],
                    "affinity": {"podAffinity": {"required": [{"labelSelector": {"matchLabels": {"app": "x"}}}]}}}}
    assert [p for p, _ in _label_maps(pod, (), "Pod")] == [
        ("metadata", "labels"), ("spec", "affinity", "podAffinity", "required", 0, "labelSelector", "matchLabels")]
