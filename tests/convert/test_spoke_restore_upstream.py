"""Round trips v1alpha1 -> v1beta1 -> v1alpha1 of the spoke save (``_convert/_spoke_restore``), each expected
value what upstream's own ``ConvertTo`` then ``ConvertFrom`` (v1alpha1 package at 2a6da14c, built outside the
project, D59) gave for the very input: the mounts' order (``restorePreservedVolumeMountOrigins``,
``restoreSharedPreservedFlatVolumeMounts``), the secondary compilation-cache flags, ``envFromSecret``
(``restoreEnvFromSecretFromPreserved`` before ``restoreMainContainerFieldOrigins``) and the hub save the
v1alpha1 view carries (byte for byte)."""

from __future__ import annotations

from typing import Any

import pytest

from dynamo_schema._convert._v1alpha1 import to_v1alpha1, to_v1beta1

CASES = [
    pytest.param(
        "DynamoGraphDeployment",
        {
            "volumeMounts": [
                {"name": "cache", "mountPoint": "/cache", "useAsCompilationCache": True},
                {"name": "models", "mountPoint": "/models"},
            ],
            "extraPodSpec": {
                "mainContainer": {"image": "nvcr.io/x:1", "volumeMounts": [{"name": "extra", "mountPath": "/extra"}]},
                "volumes": [{"name": "extra", "emptyDir": {}}],
            },
        },
        {
            "volumeMounts": [
                {"name": "models", "mountPoint": "/models"},
                {"name": "cache", "mountPoint": "/cache", "useAsCompilationCache": True},
            ],
            "envFromSecret": None,
            "mainEnvFrom": None,
            "annotations": {
                "nvidia.com/dgd-spec": '{"version":1,"spec":{"components":[{"name":"w","podTemplate":{"metadata":{},"spec":{"containers":[{"name":"main","resources":{},"volumeMounts":[{"name":"extra","mountPath":"/extra"},{"name":"cache","mountPath":"/cache"},{"name":"models","mountPath":"/models"}]}]}}}]}}'
            },
        },
        id="cache-then-plain",
    ),
    pytest.param(
        "DynamoComponentDeployment",
        {
            "volumeMounts": [
                {"name": "cache", "mountPoint": "/cache2", "useAsCompilationCache": True},
                {"name": "extra", "mountPoint": "/extra"},
                {"name": "extra", "mountPoint": "/extra2", "useAsCompilationCache": True},
            ],
            "extraPodSpec": {
                "mainContainer": {"image": "nvcr.io/x:1", "volumeMounts": [{"name": "extra", "mountPath": "/extra"}]}
            },
        },
        {
            "volumeMounts": [
                {"name": "cache", "mountPoint": "/cache2", "useAsCompilationCache": True},
                {"name": "extra", "mountPoint": "/extra2", "useAsCompilationCache": True},
                {"name": "extra", "mountPoint": "/extra"},
            ],
            "envFromSecret": None,
            "mainEnvFrom": None,
            "annotations": {
                "nvidia.com/dcd-spec": '{"version":1,"spec":{"name":"w","podTemplate":{"metadata":{},"spec":{"containers":[{"name":"main","resources":{},"volumeMounts":[{"name":"extra","mountPath":"/extra"},{"name":"cache","mountPath":"/cache2"},{"name":"extra","mountPath":"/extra"},{"name":"extra","mountPath":"/extra2"}]}]}}}}'
            },
        },
        id="two-caches-plain-between",
    ),
    pytest.param(
        "DynamoGraphDeployment",
        {
            "volumeMounts": [
                {"name": "data", "mountPoint": "/data2", "useAsCompilationCache": True},
                {"name": "data", "mountPoint": "/data2", "useAsCompilationCache": True},
                {"name": "cache", "mountPoint": "/cache2"},
            ],
            "extraPodSpec": {
                "mainContainer": {
                    "image": "nvcr.io/x:1",
                    "volumeMounts": [
                        {"name": "extra", "mountPath": "/extra2"},
                        {"name": "cache", "mountPath": "/cache2"},
                    ],
                }
            },
        },
        {
            "volumeMounts": [
                {"name": "data", "mountPoint": "/data2", "useAsCompilationCache": True},
                {"name": "extra", "mountPoint": "/extra2"},
                {"name": "cache", "mountPoint": "/cache2"},
            ],
            "envFromSecret": None,
            "mainEnvFrom": None,
            "annotations": {
                "nvidia.com/dgd-spec": '{"version":1,"spec":{"components":[{"name":"w","podTemplate":{"metadata":{},"spec":{"containers":[{"name":"main","resources":{},"volumeMounts":[{"name":"extra","mountPath":"/extra2"},{"name":"cache","mountPath":"/cache2"},{"name":"data","mountPath":"/data2"},{"name":"data","mountPath":"/data2"},{"name":"cache","mountPath":"/cache2"}]}]}}}]}}'
            },
        },
        id="duplicate-cache-flags",
    ),
    pytest.param(
        "DynamoComponentDeployment",
        {
            "envFromSecret": "s",
            "extraPodSpec": {"mainContainer": {"image": "nvcr.io/x:1", "envFrom": [{"secretRef": {"name": "t"}}]}},
        },
        {
            "volumeMounts": None,
            "envFromSecret": "s",
            "mainEnvFrom": [{"secretRef": {"name": "t"}}],
            "annotations": None,
        },
        id="env-from-secret-other-main-env-from",
    ),
    pytest.param(
        "DynamoComponentDeployment",
        {
            "envFromSecret": "s",
            "extraPodSpec": {"mainContainer": {"image": "nvcr.io/x:1", "envFrom": [{"secretRef": {"name": "s"}}]}},
        },
        {"volumeMounts": None, "envFromSecret": "s", "mainEnvFrom": None, "annotations": None},
        id="env-from-secret-same-main-env-from",
    ),
]


def _doc(kind: str, svc: dict[str, Any]) -> dict[str, Any]:
    meta = {"name": "g", "namespace": "ns"}
    svc = {"componentType": "worker", "replicas": 1, **svc}
    if kind == "DynamoGraphDeployment":
        return {"apiVersion": "nvidia.com/v1alpha1", "kind": kind, "metadata": meta, "spec": {"services": {"w": svc}}}
    return {"apiVersion": "nvidia.com/v1alpha1", "kind": kind, "metadata": meta, "spec": {"serviceName": "w", **svc}}


@pytest.mark.parametrize(("kind", "svc", "want"), CASES)
def test_round_trip_as_upstream(kind: str, svc: dict[str, Any], want: dict[str, Any]) -> None:
    back = to_v1alpha1(to_v1beta1(_doc(kind, svc)))
    spec = back["spec"]
    got = spec["services"]["w"] if kind == "DynamoGraphDeployment" else spec
    main = (got.get("extraPodSpec") or {}).get("mainContainer") or {}
    assert got.get("volumeMounts") == want["volumeMounts"]
    assert got.get("envFromSecret") == want["envFromSecret"]
    assert main.get("envFrom") == want["mainEnvFrom"]
    assert back["metadata"].get("annotations") == want["annotations"]
