"""What the v1alpha1 -> v1beta1 conversion saves of ``extraPodSpec`` follows Go's zero values: a set pointer
field of corev1.PodSpec / corev1.Container is not zero whatever it points to (``0``, ``false``, ``""``,
``{}``), a value field is zero at its zero value (``extraPodSpecNeedsPreservation``,
``sharedMainContainerFieldOriginsNeedSave``, ``saveSharedMainContainerOrigins`` at 2a6da14c).

Expected ``nvidia.com/dgd-spec`` bytes: upstream's own ``ConvertTo`` at 2a6da14c (its v1alpha1 package, run
on each input outside the project; None: no annotation)."""

from __future__ import annotations

import copy
import json

import pytest

from dynamo_schema._convert._v1alpha1 import to_v1beta1

BASE = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment",
        "metadata": {"name": "x", "namespace": "ns"},
        "spec": {"services": {"w": {"componentType": "worker", "replicas": 1}}}}
_NAME_ONLY = '{"version":1,"spec":{"services":{"w":{"extraPodSpec":{"mainContainer":{"name":"main","resources":{}}}}}}}'


@pytest.mark.parametrize(("extra_pod_spec", "annotation"), [
    pytest.param({"terminationGracePeriodSeconds": 0, "mainContainer": {"name": "main"}}, _NAME_ONLY,
                 id="pod-spec-pointer-zero-int"),
    pytest.param({"automountServiceAccountToken": False, "mainContainer": {"name": "main"}}, _NAME_ONLY,
                 id="pod-spec-pointer-false"),
    pytest.param({"securityContext": {}, "mainContainer": {"name": "main"}}, _NAME_ONLY,
                 id="pod-spec-pointer-empty-struct"),
    pytest.param({"hostNetwork": False, "mainContainer": {"name": "main"}}, _NAME_ONLY, id="pod-spec-value-false"),
    pytest.param({"mainContainer": {"image": "img:1.0.0", "livenessProbe": {}}},
                 '{"version":1,"spec":{"services":{"w":{"extraPodSpec":{"mainContainer":'
                 '{"name":"","resources":{},"livenessProbe":{}}}}}}}', id="main-probe-empty"),
    pytest.param({"mainContainer": {"image": "img:1.0.0", "readinessProbe": {}}},
                 '{"version":1,"spec":{"services":{"w":{"extraPodSpec":{"mainContainer":'
                 '{"name":"","resources":{},"readinessProbe":{}}}}}}}', id="main-readiness-probe-empty"),
    pytest.param({"mainContainer": {"image": "img:1.0.0", "resources": {"limits": {}}}}, None,
                 id="main-resources-empty-limits"),
    pytest.param({"mainContainer": {"restartPolicy": ""}}, None, id="main-restart-policy-empty"),
    pytest.param({"mainContainer": {"stdin": False}},
                 '{"version":1,"spec":{"services":{"w":{"extraPodSpec":{"mainContainer":{"name":"","resources":{}}}}}}}',
                 id="main-stdin-false"),
])
def test_saved_extra_pod_spec_follows_go_zero_values(extra_pod_spec: dict[str, object], annotation: str | None) -> None:
    dgd = copy.deepcopy(BASE)
    dgd["spec"]["services"]["w"]["extraPodSpec"] = json.loads(json.dumps(extra_pod_spec))
    out = to_v1beta1(dgd)
    assert (out["metadata"].get("annotations") or {}).get("nvidia.com/dgd-spec") == annotation
