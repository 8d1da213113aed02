"""DYN_DEPLOYMENT_CONFIG rendering: the frontend port and ServiceArgs resources written into the generated
DCDs, the renamed-frontend fallback key, and the worker hash.

Expected values come from upstream tests (ai-dynamo/dynamo, ``deploy/operator/`` prefix omitted):
reference revision 2a6da14c ``internal/dynamo/graph_test.go`` (named per test below).
"""

from __future__ import annotations

from typing import Any

from dynamo_schema._render._graph import generate_dcds

from ._dgd_fixtures import WORKER, _by_name, _dgd, _env

# ---------------------------------------------------------------- DYN_DEPLOYMENT_CONFIG


def test_deployment_config_frontend_port_and_resources() -> None:
    # graph_test.go "Test GenerateDynamoComponentsDeployments with config from DYN_DEPLOYMENT_CONFIG env var"
    raw = '{"service1":{"port":8080,"ServiceArgs":{"Workers":2, "Resources":{"CPU":"2", "Memory":"2Gi", "GPU":"2"}}}}'
    dgd = _dgd([{"name": "service1", "type": "frontend", "replicas": 3},
                {"name": "service2", "type": "worker", "replicas": 3}],
               env=[{"name": "DYN_DEPLOYMENT_CONFIG", "value": raw}])
    dcds = _by_name(generate_dcds(dgd, "abc12345", "default"))
    s1 = dcds["service1"]["spec"]
    main = s1["podTemplate"]["spec"]["containers"][0]
    assert _env(main)["DYN_DEPLOYMENT_CONFIG"] == (
        '{"service1":{"ServiceArgs":{"Resources":{"CPU":"2","GPU":"2","Memory":"2Gi"},"Workers":2},"port":8000}}')
    want = {"cpu": "2", "memory": "2Gi", "nvidia.com/gpu": "2"}
    assert main["resources"] == {"requests": want, "limits": want}
    assert s1["replicas"] == 3  # Workers only fills an unset replica count
    s2 = dcds["service2"]["spec"]
    assert _env(s2["podTemplate"]["spec"]["containers"][0])["DYN_DEPLOYMENT_CONFIG"] == raw
    assert not s2["podTemplate"]["spec"]["containers"][0].get("resources")


def test_deployment_config_renamed_frontend_falls_back_to_frontend_key() -> None:
    # TestApplyDynDeploymentConfig_FallsBackToFrontendConfigKeyForRenamedFrontend
    from dynamo_schema._render._depconfig import apply_dyn_deployment_config

    dcd: dict[str, Any] = {"metadata": {"name": "router", "namespace": "default"},
           "spec": {"backendFramework": "vllm", "name": "router", "type": "frontend", "podTemplate": {"spec": {
               "containers": [{"name": "main", "env": [{"name": "DYN_DEPLOYMENT_CONFIG", "value":
                   '{"Frontend":{"ServiceArgs":{"Resources":{"CPU":"2","Memory":"2Gi","GPU":"1"}}}}'}]}]}}}}
    apply_dyn_deployment_config(dcd)
    main = dcd["spec"]["podTemplate"]["spec"]["containers"][0]
    assert main["resources"]["requests"] == {"cpu": "2", "memory": "2Gi", "nvidia.com/gpu": "1"}
    assert main["env"][0]["value"] == '{"Frontend":{"ServiceArgs":{"Resources":{"CPU":"2","GPU":"1","Memory":"2Gi"}},"port":8000}}'


def test_deployment_config_changes_worker_hash() -> None:
    from dynamo_schema._render import worker_hash

    cfg = '{"worker":{"ServiceArgs":{"Resources":{"CPU":"4"}}}}'
    base = _dgd([WORKER], env=[{"name": "DYN_DEPLOYMENT_CONFIG", "value": "{}"}])
    with_resources = _dgd([WORKER], env=[{"name": "DYN_DEPLOYMENT_CONFIG", "value": cfg}])
    assert worker_hash(base) != worker_hash(with_resources)
    worker = _by_name(generate_dcds(with_resources, "x", "default"))["worker"]
    assert worker["spec"]["podTemplate"]["spec"]["containers"][0]["resources"] == {
        "requests": {"cpu": "4"}, "limits": {"cpu": "4"}}
