"""``--operator-config FILE``: the operator's own configuration file, read for what admission and rendering use.

The operator reads an ``OperatorConfiguration`` (``operator.config.dynamo.nvidia.com/v1alpha1``; its Helm chart
writes one into a ConfigMap) at start-up (reference revision 2a6da14c: ``cmd/main.go``
``LoadAndValidateOperatorConfig``, types and defaults in ``api/config/v1alpha1``). This module reads the fields
that decide what the operator admits and creates, and hands them on as admission settings (the cluster state
``AdmissionSettings`` holds) and as further render options (what only rendering reads: addresses, ingress,
service mesh, schedulers, the Grove termination delay, the MPI SSH secret):

==============================================  ========================================================
``orchestrators.grove.enabled``                 ``grove_enabled`` (absent: auto-detect; ours: installed)
``orchestrators.lws.enabled``                   ``lws_enabled`` (likewise)
``dra.enabled``                                 ``dra_enabled`` (absent: auto-detect; ours: off)
``checkpoint.enabled``                          ``checkpoint_enabled``
``discovery.backend``                           ``discovery_backend`` (``kubernetes`` or ``etcd``)
``gpu.discoveryEnabled``                        ``gpu_discovery_enabled``
``orchestrators.grove.terminationDelay``        render: the PodCliqueSet ``terminationDelay`` (Go duration)
``orchestrators.kaiScheduler.enabled``,         render: the KAI / Volcano scheduler wiring (absent:
``orchestrators.volcanoScheduler.enabled``      auto-detect; ours: not installed)
``infrastructure.*``                            render: ``natsAddress``, ``etcdAddress``, ``modelExpressURL``,
                                                ``prometheusEndpoint``
``ingress.*``                                   render: ``controllerClassName``, ``controllerTLSSecretName``,
                                                ``hostSuffix``, ``virtualServiceGateway``
``serviceMesh``                                 render: as written (the EPP's Istio DestinationRule)
``mpi.sshSecretName``                           render: the MPI SSH secret of multinode pods
==============================================  ========================================================

Other fields (servers, leader election, RBAC, logging…) are not read. Like the operator's decoder (the
scheme's universal decoder: not strict), unknown fields are ignored; a field of the wrong type is refused with
the Go decoder's message, and so are a ``discovery.backend`` outside its two values and an
``apiVersion``/``kind`` of another object. Every refusal is located in the file (a usage error).
"""

from __future__ import annotations

from typing import Any

from .._k8s._gofmt import json_kind as _json_type
from ._config import ConfigFileError, read_mapping_document

API_VERSION = "operator.config.dynamo.nvidia.com/v1alpha1"
KIND = "OperatorConfiguration"

# (path in the file, Go struct that holds it, Go type, admission setting or None, render option or None)
_FIELDS: tuple[tuple[tuple[str, ...], str, str, str | None, str | None], ...] = (
    (("orchestrators", "grove", "enabled"), "GroveConfiguration", "bool", "grove_enabled", None),
    (("orchestrators", "grove", "terminationDelay"), "GroveConfiguration", "duration", None,
     "grove_termination_delay"),
    (("orchestrators", "lws", "enabled"), "LWSConfiguration", "bool", "lws_enabled", None),
    (("orchestrators", "kaiScheduler", "enabled"), "KaiSchedulerConfiguration", "bool", None,
     "kai_scheduler_enabled"),
    (("orchestrators", "volcanoScheduler", "enabled"), "VolcanoSchedulerConfiguration", "bool", None,
     "volcano_scheduler_enabled"),
    (("dra", "enabled"), "DRAConfiguration", "bool", "dra_enabled", None),
    (("checkpoint", "enabled"), "CheckpointConfiguration", "bool", "checkpoint_enabled", None),
    (("discovery", "backend"), "DiscoveryConfiguration", "string", "discovery_backend", None),
    (("gpu", "discoveryEnabled"), "GPUConfiguration", "bool", "gpu_discovery_enabled", None),
    (("infrastructure", "natsAddress"), "InfrastructureConfiguration", "string", None, "nats_address"),
    (("infrastructure", "etcdAddress"), "InfrastructureConfiguration", "string", None, "etcd_address"),
    (("infrastructure", "modelExpressURL"), "InfrastructureConfiguration", "string", None, "model_express_url"),
    (("infrastructure", "prometheusEndpoint"), "InfrastructureConfiguration", "string", None,
     "prometheus_endpoint"),
    (("ingress", "controllerClassName"), "IngressConfiguration", "string", None, "ingress_controller_class_name"),
    (("ingress", "controllerTLSSecretName"), "IngressConfiguration", "string", None, "ingress_tls_secret_name"),
    (("ingress", "hostSuffix"), "IngressConfiguration", "string", None, "ingress_host_suffix"),
    (("ingress", "virtualServiceGateway"), "IngressConfiguration", "string", None, "virtual_service_gateway"),
    (("mpi", "sshSecretName"), "MPIConfiguration", "string", None, "mpi_ssh_secret_name"),
)
# (path of a section, its Go struct): the objects that hold the fields read above (unknown keys are ignored)
_SECTIONS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("orchestrators",), "OrchestratorConfiguration"), (("orchestrators", "grove"), "GroveConfiguration"),
    (("orchestrators", "lws"), "LWSConfiguration"), (("orchestrators", "kaiScheduler"), "KaiSchedulerConfiguration"),
    (("orchestrators", "volcanoScheduler"), "VolcanoSchedulerConfiguration"), (("dra",), "DRAConfiguration"),
    (("checkpoint",), "CheckpointConfiguration"), (("discovery",), "DiscoveryConfiguration"),
    (("gpu",), "GPUConfiguration"), (("infrastructure",), "InfrastructureConfiguration"),
    (("ingress",), "IngressConfiguration"), (("mpi",), "MPIConfiguration"),
    (("serviceMesh",), "ServiceMeshConfiguration"))


def read_operator_config(path: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(admission settings, render options) of the ``OperatorConfiguration`` in ``path``; only the fields the
    file sets (an absent or null field keeps our default). Raises :class:`ConfigFileError`."""
    doc = read_mapping_document(path, "operator config")
    if doc is None:
        return {}, {}
    data: dict[str, Any] = doc.data

    def fail(where: tuple[Any, ...], message: str) -> ConfigFileError:
        line, col = doc.locate(where)
        return ConfigFileError(f"{doc.file}:{line}:{col}: {message}")

    api, kind = data.get("apiVersion"), data.get("kind")
    if (api, kind) != (API_VERSION, KIND):
        raise fail(("kind",) if "kind" in data else (), f"operator config must be apiVersion: {API_VERSION}, "
                   f"kind: {KIND} (found apiVersion {api!r}, kind {kind!r})")
    settings: dict[str, Any] = {}
    render: dict[str, Any] = {}
    for spot, struct in _SECTIONS:  # a section that is not an object: the Go decoder's refusal
        owner: Any = data
        for p in spot[:-1]:
            owner = owner.get(p) if isinstance(owner, dict) else None
        found = owner.get(spot[-1]) if isinstance(owner, dict) else None
        if found is not None and not isinstance(found, dict):
            parent = "OperatorConfiguration" if len(spot) == 1 else "OrchestratorConfiguration"
            raise fail(spot, f"json: cannot unmarshal {_json_type(found)} into Go struct field "
                             f"{parent}.{'.'.join(spot)} of type v1alpha1.{struct}")
    for where, struct, gotype, setting, option in _FIELDS:
        node: Any = data
        for p in where:
            node = node.get(p) if isinstance(node, dict) else None
        if node is None:
            continue
        want = {"bool": bool, "string": str, "duration": str}[gotype]
        if not isinstance(node, want):
            shown = "v1.Duration" if gotype == "duration" else gotype
            raise fail(where, f"json: cannot unmarshal {_json_type(node)} into Go struct field "
                              f"{struct}.{'.'.join(where)} of type {shown}")
        value: Any = node
        if gotype == "duration":
            from .._grove._create import _go_duration_string, parse_go_duration

            ns = parse_go_duration(str(node))
            if ns is None:
                raise fail(where, f'time: invalid duration "{node}"')
            if ns < 0:
                raise fail(where, f"orchestrators.grove.terminationDelay: Invalid value: {_go_duration_string(ns)}: "
                                  "must not be negative")
            if ns == 0:  # the operator's defaulting: a zero delay becomes 15m
                continue
            value = _go_duration_string(ns)
        if where == ("discovery", "backend"):
            if value == "":
                continue  # defaulted to kubernetes
            if value not in ("kubernetes", "etcd"):
                raise fail(where, f'discovery.backend: Unsupported value: "{value}": supported values: '
                                  '"kubernetes", "etcd"')
        if where == ("mpi", "sshSecretName") and value == "":
            continue
        if setting is not None:
            settings[setting] = value
        if option is not None:
            render[option] = value
    mesh = data.get("serviceMesh")
    if isinstance(mesh, dict) and mesh:
        render["service_mesh"] = dict(mesh)
    return settings, render


__all__ = ["API_VERSION", "KIND", "ConfigFileError", "read_operator_config"]
