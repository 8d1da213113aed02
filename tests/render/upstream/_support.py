"""The rows, the adapter registry and the helpers the adapters share.

The rows are reference data, not part of the project: ``../shared/reference/dynamo/upstream-render-tests/``
holds, per upstream test file, ``{"source", "cases": [{"test", "row", "data"}]}`` (a row's input and the
expected fields as the Go table states them; ``*_manual.json``: tests without a table, transcribed) and
``INDEX.json`` (every test function of the files in scope with its row names). Without ../shared both are
empty and the tests that read them are skipped (``pytest.mark.shared``).

An adapter makes the assertions of its Go test's loop body against our counterpart of the Go function
under test. ``@adapter`` registers one for rows held in the shared data; ``@hand_ported`` one for a test
function whose rows the shared data does not hold: its inputs are built in the adapter (the Go test's
setup, restated), one row per upstream subtest.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from dynamo_schema._render import _backends as B
from dynamo_schema._render._options import RenderOptions
from dynamo_schema._render._podrequest import PodRequest

from ..conftest import SHARED

ROWS_DIR: Path = SHARED / "reference" / "dynamo" / "upstream-render-tests"
GPU = "nvidia.com/gpu"
PROBES = ("livenessProbe", "readinessProbe", "startupProbe")


def load_index() -> dict[str, dict[str, dict[str, Any]]]:
    """``INDEX.json``: Go test file → function → ``{"rows", "upstream_rows"?, "unit"?}`` (its other keys
    are a snapshot of the project's state when the data moved; ``state.py`` is the project's record)."""
    path = ROWS_DIR / "INDEX.json"
    if not path.is_file():
        return {}
    data: dict[str, dict[str, dict[str, Any]]] = json.loads(path.read_text(encoding="utf-8"))
    return data


def load_cases() -> list[tuple[str, str, dict[str, Any]]]:
    """(test function, row, data) of every case file, in file order."""
    out: list[tuple[str, str, dict[str, Any]]] = []
    for path in sorted(ROWS_DIR.glob("*.json")) if ROWS_DIR.is_dir() else []:
        if path.name == "INDEX.json":
            continue
        for case in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            out.append((case["test"], case["row"], case["data"]))
    return out


# ------------------------------------------------------------------------------------------ registry

Adapter = Callable[[dict[str, Any], pytest.MonkeyPatch], None]
ADAPTERS: dict[str, Adapter] = {}
#: rows of the hand-ported functions: name → [(row, data)]
LOCAL_ROWS: dict[str, list[tuple[str, dict[str, Any]]]] = {}


def adapter(*names: str) -> Callable[[Adapter], Adapter]:
    def wrap(fn: Adapter) -> Adapter:
        for n in names:
            assert n not in ADAPTERS, f"two adapters for {n}"
            ADAPTERS[n] = fn
        return fn

    return wrap


def hand_ported(name: str, rows: Iterable[tuple[str, dict[str, Any]]] = (("", {}),)) -> Callable[[Adapter], Adapter]:
    """An adapter whose rows are given here: one ``("", {})`` row for a test without subtests, else one
    per upstream subtest (named as upstream names it; ``data`` carries what differs between them)."""

    def wrap(fn: Adapter) -> Adapter:
        adapter(name)(fn)
        LOCAL_ROWS[name] = [(row, dict(data)) for row, data in rows]
        return fn

    return wrap


# ------------------------------------------------------------------------------------------ helpers


class MockSimpleDeployer(B.Deployer):
    """The fixed-hostname test deployer of ``backend_sglang_test.go`` (no shell needed)."""

    def __init__(self) -> None:
        super().__init__("mock")

    def leader_hostname(self, service: str) -> str:
        return "leader.example.com"

    def node_rank(self) -> tuple[str, bool]:
        return "1", False

    def needs_dns_wait(self) -> bool:
        return False

    def host_names(self, service: str, nodes: int) -> list[str]:
        return [self.leader_hostname(service)] + [f"worker{i}.example.com" for i in range(1, nodes)]


class MockShellDeployer(B.Deployer):
    """The shell-variable test deployer of ``backend_sglang_test.go`` (rank needs a shell)."""

    def __init__(self) -> None:
        super().__init__("mock")

    def leader_hostname(self, service: str) -> str:
        return "$(LEADER_HOST)"

    def node_rank(self) -> tuple[str, bool]:
        return "$(WORKER_INDEX)", True

    def needs_dns_wait(self) -> bool:
        return True

    def host_names(self, service: str, nodes: int) -> list[str]:
        return [self.leader_hostname(service)] + [f"$(WORKER_{i}_HOST)" for i in range(1, nodes)]


def deployer(spec: Any) -> B.Deployer:
    kind = (spec or {}).get("$type", "GroveMultinodeDeployer")
    value = (spec or {}).get("$value") or {}
    if kind == "GroveMultinodeDeployer":
        return B.Deployer("grove", bool(value.get("IsInterPodGMS")), int(value.get("Rank") or 0))
    if kind == "LWSMultinodeDeployer":
        return B.Deployer("lws")
    if kind == "MockSimpleDeployer":
        return MockSimpleDeployer()
    if kind == "MockShellDeployer":
        return MockShellDeployer()
    raise AssertionError(f"unknown deployer {kind}")


def beta_component(alpha: dict[str, Any] | None) -> dict[str, Any]:
    """The tests' ``betaComponent``: a v1alpha1 shared spec converted to the v1beta1 component (our
    converter), then the alpha annotations and labels copied onto the pod template."""
    from dynamo_schema._convert._v1alpha1 import to_v1beta1

    spec = copy.deepcopy(alpha or {})
    spec.setdefault("componentType", "worker")
    dcd = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoComponentDeployment",
           "metadata": {"name": "test"}, "spec": spec}
    beta = to_v1beta1(dcd)["spec"]
    beta.pop("name", None)
    for key in ("annotations", "labels"):
        if (alpha or {}).get(key):
            meta = beta.setdefault("podTemplate", {}).setdefault("metadata", {})
            meta.setdefault(key, {}).update((alpha or {})[key])
    return beta


def with_gpus(component: dict[str, Any], gpus: int) -> dict[str, Any]:
    """The tests' ``staticContainerGPUCount(n)``: the container's GPU count as our code reads it."""
    pt = component.setdefault("podTemplate", {})
    containers = pt.setdefault("spec", {}).setdefault("containers", [])
    main = next((c for c in containers if c.get("name") == "main"), None)
    if main is None:
        main = {"name": "main"}
        containers.append(main)
    res = main.setdefault("resources", {})
    for section in ("limits", "requests"):
        (res.get(section) or {}).pop(GPU, None)
    res.setdefault("limits", {})[GPU] = str(gpus)
    return component


def request(backend: str, role: str, nodes: int, component: dict[str, Any], dgd: str = "test-dgd",
            service: str = "test-service") -> PodRequest:
    return PodRequest(component=component, component_type=str(component.get("type") or "worker"), backend=backend,
                      dgd_name=dgd, namespace="default", role=role, nodes=nodes, deployer="grove",
                      service_name=service, options=RenderOptions())


def update_container(monkeypatch: pytest.MonkeyPatch, backend: str, container: dict[str, Any], nodes: int, role: str,
                     component: dict[str, Any], dep: Any, service: str = "test-service") -> None:
    d = deployer(dep)
    monkeypatch.setattr(B, "deployer_for", lambda _req: d)
    B.update_container(container, request(backend, role, nodes, component, service=service))


def k8s(obj: Any) -> Any:
    """Drop Go's zero values that encode as empty (``name: ""``, ``resources: {}``) from a dumped container."""
    if isinstance(obj, dict):
        return {k: k8s(v) for k, v in obj.items() if not (k in ("name", "resources") and v in ("", {}))}
    return obj


def env(container: dict[str, Any], name: str) -> list[dict[str, Any]]:
    return [e for e in container.get("env") or [] if e.get("name") == name]


def env_map(container: dict[str, Any]) -> dict[str, str]:
    """The tests' ``envVarsToMap``: name → literal value (``""`` for a ``valueFrom`` entry)."""
    return {e["name"]: e.get("value", "") for e in container.get("env") or []}


def beta_dgd(spec: dict[str, Any], raw: bool = False) -> dict[str, Any]:
    """The tests' ``betaDGD`` (``rawBetaDGD`` with ``raw``): our v1alpha1 -> v1beta1 conversion, then the
    alpha service annotations/labels copied onto each component's pod template; then ``beta_patch``."""
    from dynamo_schema._convert._v1alpha1 import to_v1beta1

    src = spec["alpha"]
    dgd = to_v1beta1(copy.deepcopy(src))
    if not raw:
        for comp in dgd["spec"].get("components") or []:
            svc = (src["spec"].get("services") or {}).get(comp["name"]) or {}
            for key in ("annotations", "labels"):
                if svc.get(key):
                    meta = comp.setdefault("podTemplate", {}).setdefault("metadata", {})
                    meta.setdefault(key, {}).update(svc[key])
    for patch in spec.get("beta_patch") or []:
        node: Any = dgd
        *head, last = patch["path"]
        for key in head:
            node = node.setdefault(key, {}) if isinstance(key, str) else node[key]
        node[last] = copy.deepcopy(patch["value"])
    return dgd


def alpha_dgd(name: str, namespace: str, services: dict[str, Any], meta_annotations: dict[str, str] | None = None,
              **spec: Any) -> dict[str, Any]:
    """A v1alpha1 DGD in the form ``beta_dgd`` takes."""
    meta: dict[str, Any] = {"name": name, "namespace": namespace}
    if meta_annotations:
        meta["annotations"] = dict(meta_annotations)
    body: dict[str, Any] = {"services": services}
    body.update({k: v for k, v in spec.items() if v is not None})
    return {"alpha": {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment", "metadata": meta,
                      "spec": body}}


def beta_dgd_of(name: str, namespace: str, components: list[dict[str, Any]], **spec: Any) -> dict[str, Any]:
    """A v1beta1 DGD written directly (the tests that build ``v1beta1.DynamoGraphDeployment`` literals)."""
    body: dict[str, Any] = {k: v for k, v in spec.items() if v is not None}
    body["components"] = components
    return {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment",
            "metadata": {"name": name, "namespace": namespace}, "spec": body}


def controller_options(config: dict[str, Any] | None) -> RenderOptions:
    """The operator configuration fields our RenderOptions carry, as the test passes them (an empty,
    not defaulted, discovery backend stays empty)."""
    config = config or {}
    return RenderOptions(discovery_backend=(config.get("discovery") or {}).get("backend") or "")


def full_controller_options(config: dict[str, Any]) -> RenderOptions:
    infra = config.get("infrastructure") or {}
    mpi = config.get("mpi") or {}
    kwargs: dict[str, Any] = {
        "discovery_backend": (config.get("discovery") or {}).get("backend") or "",
        "nats_address": infra.get("natsAddress") or "", "etcd_address": infra.get("etcdAddress") or "",
        "model_express_url": infra.get("modelExpressURL") or "",
        "prometheus_endpoint": infra.get("prometheusEndpoint") or "",
    }
    if mpi.get("sshSecretName"):
        kwargs["mpi_ssh_secret_name"] = mpi["sshSecretName"]
    return RenderOptions(**kwargs)


def base_pod(alpha: dict[str, Any] | None, backend: str, options: RenderOptions | None = None,
             role: str = "main", nodes: int = 1, service: str = "test-service") -> dict[str, Any]:
    """``GenerateBasePodSpec`` as the tests call it: the converted component, DGD test-deployment in
    default, the Grove deployer, no checkpoint, the default deployer, no GPUs counted."""
    from dynamo_schema._render._pod import generate_pod_spec

    comp = beta_component(alpha)
    req = PodRequest(component=comp, component_type=str(comp.get("type") or ""), backend=backend,
                     dgd_name="test-deployment", namespace="default", role=role, nodes=nodes, deployer="grove",
                     service_name=service, options=options or RenderOptions())
    return generate_pod_spec(req)


def pcs(dgd: dict[str, Any], options: RenderOptions | None = None) -> dict[str, Any]:
    """``GenerateGrovePodCliqueSet`` on the DGD with the given configuration and gates; the tests pass no
    rolling-update context, so no worker hash is stamped (the expected objects carry none)."""
    from dynamo_schema._render._podcliqueset import render_pcs

    options = options or controller_options({})
    ns = str(dgd["metadata"].get("namespace") or "default")
    return render_pcs(dgd, "", options, ns)


def cliques_by_name(pcs_obj: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["name"]: c for c in pcs_obj["spec"]["template"]["cliques"]}


def beta_dcd(alpha: dict[str, Any]) -> dict[str, Any]:
    """The ``internal/dynamo`` tests' ``betaDCD``: our conversion, then the alpha annotations/labels onto
    the pod template."""
    from dynamo_schema._convert._v1alpha1 import to_v1beta1

    dcd = to_v1beta1(copy.deepcopy(alpha))
    for key in ("annotations", "labels"):
        if alpha["spec"].get(key):
            meta = dcd["spec"].setdefault("podTemplate", {}).setdefault("metadata", {})
            meta.setdefault(key, {}).update(alpha["spec"][key])
    return dcd


def controller_beta_dcd(alpha: dict[str, Any]) -> dict[str, Any]:
    """The ``internal/controller`` tests' ``betaDCD`` (controller/test_beta_helpers_test.go): as
    ``beta_dcd``, and the object is labelled with the alpha ``serviceName`` as its component, and with the
    graph name, Dynamo namespace and worker hash the alpha ``labels`` carry."""
    dcd = beta_dcd(alpha)
    spec = alpha.get("spec") or {}
    labels = dcd.setdefault("metadata", {}).get("labels") or {}
    if spec.get("serviceName"):
        labels["nvidia.com/dynamo-component"] = spec["serviceName"]
    for key in ("nvidia.com/dynamo-graph-deployment-name", "nvidia.com/dynamo-namespace",
                "nvidia.com/dynamo-worker-hash"):
        value = (spec.get("labels") or {}).get(key)
        if value:
            labels[key] = value
    if labels:
        dcd["metadata"]["labels"] = labels
    return dcd
