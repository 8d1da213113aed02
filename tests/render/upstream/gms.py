"""Adapters for the GPU Memory Service tests: ``internal/gms/gms_test.go`` and the intra-pod GMS tests of
``internal/dynamo/graph_test.go``.

Upstream ``GenerateBasePodSpec`` wires an intra-pod GMS component's pod with ``gms.EnsureServerSidecar``
(main container) and ``gms.EnsureClient`` (each extra client container); our counterpart is the pod spec
``_pod.generate_pod_spec`` builds for a worker with ``experimental.gpuMemoryService`` (intra-pod), so each
``gms_test.go`` pod spec below is the podTemplate of such a worker.
"""

from __future__ import annotations

from typing import Any

import pytest

from dynamo_schema._render._options import RenderOptions
from dynamo_schema._render._podrequest import PodRequest

from ._support import base_pod, env_map, hand_ported

SERVER = "gms-server"  # gms.go ServerContainerName
SERVER_MODULE = "gpu_memory_service.cli.server"  # gms.go ServerModule
SOCKET_VOLUME = "gms-intrapod-control"  # gms.go SharedVolumeName
SOCKET_PATH = "/gms-intrapod-control"  # gms.go SharedMountPath
SOCKET_ENV = "GMS_SOCKET_DIR"  # gms.go EnvSocketDir
CLAIM = "intrapod-shared-gpu"  # dra.go ClaimName


def gms_pod(pod_template_spec: dict[str, Any]) -> dict[str, Any]:
    """The pod spec of an intra-pod GMS vLLM worker (one GPU) whose podTemplate spec is given."""
    from dynamo_schema._render._pod import generate_pod_spec

    component = {"type": "worker", "experimental": {"gpuMemoryService": {"mode": "IntraPod"}},
                 "podTemplate": {"spec": pod_template_spec}}
    for c in pod_template_spec.get("containers") or []:
        if c.get("name") == "main":
            c.setdefault("resources", {}).setdefault("limits", {})["nvidia.com/gpu"] = "1"
    return generate_pod_spec(PodRequest(
        component=component, component_type="worker", backend="vllm", dgd_name="test-dgd", namespace="default",
        role="main", nodes=1, deployer="grove", service_name="worker", options=RenderOptions(discovery_backend="")))


def servers(pod: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for c in pod.get("initContainers") or [] if c.get("name") == SERVER]


@hand_ported("TestEnsureServerSidecar")
def _server_sidecar(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    pod = gms_pod({"containers": [{"name": "main", "image": "test-image:latest",
                                   "resources": {"claims": [{"name": CLAIM}]}}]})
    assert len(pod.get("initContainers") or []) == 1
    server = pod["initContainers"][0]
    assert server["name"] == SERVER
    assert server.get("command") == ["python3", "-m", SERVER_MODULE]
    assert server.get("restartPolicy") == "Always"
    assert server.get("startupProbe") is None, "clients drive readiness by retrying the connection"
    assert [c["name"] for c in (server.get("resources") or {}).get("claims") or []] == [CLAIM]
    assert env_map(pod["containers"][0]).get(SOCKET_ENV) == SOCKET_PATH
    assert any(v["name"] == SOCKET_VOLUME for v in pod.get("volumes") or [])


@hand_ported("TestEnsureServerSidecarIdempotent")
def _server_sidecar_idempotent(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """Ensuring twice adds one server: a pod that already has the server sidecar keeps exactly one (and
    is wired: the function under test ran)."""
    pod = gms_pod({"containers": [{"name": "main", "image": "test:latest"}],
                   "initContainers": [{"name": SERVER, "image": "test:latest", "restartPolicy": "Always",
                                       "command": ["python3", "-m", SERVER_MODULE]}]})
    assert env_map(pod["containers"][0]).get(SOCKET_ENV) == SOCKET_PATH
    assert len(servers(pod)) == 1
    assert len(pod.get("initContainers") or []) == 1


@hand_ported("TestEnsureServerSidecarDoesNotAddCheckpointControl")
def _server_sidecar_no_checkpoint_control(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """The server sidecar (the function under test ran: it is there) brings no checkpoint control volume."""
    pod = gms_pod({"containers": [{"name": "main", "image": "test:latest"}]})
    assert len(servers(pod)) == 1
    assert all(v["name"] != "gms-control" for v in pod.get("volumes") or [])


@hand_ported("TestEnsureClientOverridesOperatorOwnedSocketFields")
def _client_owns_socket_fields(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """A client whose socket volume, mount and env the user set wrongly: the operator's values replace
    them (an emptyDir, the shared path, a literal env value) and the client gets the shared DRA claim."""
    pod = gms_pod({"volumes": [{"name": SOCKET_VOLUME, "hostPath": {"path": "/wrong"}}],
                   "containers": [{"name": "main", "env": [{"name": SOCKET_ENV, "valueFrom": {}}],
                                   "volumeMounts": [{"name": SOCKET_VOLUME, "mountPath": "/wrong"}]}]})
    volume = next(v for v in pod.get("volumes") or [] if v["name"] == SOCKET_VOLUME)
    assert volume.get("emptyDir") is not None
    main = pod["containers"][0]
    mount = next(m for m in main.get("volumeMounts") or [] if m["name"] == SOCKET_VOLUME)
    assert mount["mountPath"] == SOCKET_PATH
    socket_env = next(e for e in main.get("env") or [] if e["name"] == SOCKET_ENV)
    assert socket_env.get("value") == SOCKET_PATH
    assert socket_env.get("valueFrom") is None
    assert [c["name"] for c in (main.get("resources") or {}).get("claims") or []] == [CLAIM]


def _intra_pod_gms(extra_clients: list[str], sidecars: list[dict[str, Any]] | None) -> dict[str, Any]:
    """An intra-pod GMS v1alpha1 worker with one GPU on main, naming ``extra_clients``."""
    extra: dict[str, Any] = {"mainContainer": {"resources": {"limits": {"nvidia.com/gpu": "1"}}}}
    if sidecars is not None:  # v1alpha1 ExtraPodSpec embeds the PodSpec inline (`json:",inline"`)
        extra["containers"] = sidecars
    return {"componentType": "worker", "extraPodSpec": extra,
            "gpuMemoryService": {"enabled": True, "mode": "intraPod", "extraClientContainers": extra_clients}}


@hand_ported("TestGenerateBasePodSpec_GPUMemoryServiceExtraClientContainers")
def _pod_gms_extra_clients(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """Two declared extra clients: the server sidecar is there, and main and both clients are wired as
    GMS clients (socket env and mount, the shared claim)."""
    pod = base_pod(_intra_pod_gms(["gms-loader", "metrics-client"], [
        {"name": "gms-loader", "image": "loader:latest"}, {"name": "metrics-client", "image": "metrics:latest"}]),
        "vllm", RenderOptions(discovery_backend=""), service="worker")
    assert servers(pod)
    by_name = {c["name"]: c for c in pod["containers"]}
    for name in ("main", "gms-loader", "metrics-client"):
        container = by_name[name]
        assert env_map(container).get(SOCKET_ENV) == SOCKET_PATH, name
        assert {m["name"]: m["mountPath"] for m in container.get("volumeMounts") or []}.get(SOCKET_VOLUME) == SOCKET_PATH, name
        assert [c["name"] for c in (container.get("resources") or {}).get("claims") or []] == [CLAIM], name


@hand_ported("TestGenerateBasePodSpec_GPUMemoryServiceRejectsMissingExtraClientContainers")
def _pod_gms_missing_clients(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """Two declared extra clients that name no container: rendering fails and names both."""
    from dynamo_schema._render import RenderError

    with pytest.raises(RenderError) as exc:
        base_pod(_intra_pod_gms(["missing-b", "missing-a"], None), "vllm", RenderOptions(discovery_backend=""),
                 service="worker")
    message = str(exc.value)
    for part in ("gpuMemoryService.extraClientContainers", "missing-a", "missing-b"):
        assert part in message, part
