"""Rendered-object name checks quote the bad value as apimachinery's ``field.Invalid`` does: a string value
is printed after the error type in Go's quoted form, ``strconv.Quote`` (``field.Error.ErrorBody``)."""

from __future__ import annotations

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
