"""Render options (cluster and operator settings as explicit input)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class RenderOptions:
    """Cluster/operator state rendering needs.

    Defaults follow the operator configuration defaults (``admission.md`` §2.5): discovery backend
    ``kubernetes``, Grove ``terminationDelay`` 15m, MPI SSH secret ``mpi-run-ssh-secret`` (Helm).
    """

    namespace: str = "default"
    operator_version: str | None = None
    discovery_backend: str = "kubernetes"
    grove_enabled: bool = True
    lws_enabled: bool = True
    grove_termination_delay: str = "15m0s"
    nats_address: str = ""
    etcd_address: str = ""
    model_express_url: str = ""
    prometheus_endpoint: str = ""
    mpi_ssh_secret_name: str = "mpi-run-ssh-secret"
    # Operator ``ingress`` configuration: a frontend Ingress is created when a controller class is
    # set, an Istio VirtualService when a gateway is set (``GenerateDefaultIngressSpec``).
    ingress_controller_class_name: str = ""
    ingress_tls_secret_name: str = ""
    ingress_host_suffix: str = ""
    virtual_service_gateway: str = ""
    kai_scheduler_enabled: bool = False
    volcano_scheduler_enabled: bool = False
    # Simulate what the API server stores (Kubernetes built-in defaults for Deployments and pod
    # templates, LeaderWorkerSet webhook defaults). Off by default: rendered objects are what the
    # operator sends, not what it reads back.
    apiserver_defaults: bool = False
    # Worker-hash algorithm override (``_workerhash.ALGORITHMS``); None: the one of
    # ``operator_version`` (``_workerhash.select_algorithm``).
    worker_hash_algorithm: str | None = None
    # Grove ClusterTopologyBinding levels the operator would read from the cluster for
    # ``spec.experimental.kvTransferPolicy.clusterTopologyName``: binding name → ordered level
    # domains (``resolveGroveClusterTopologyDomains``). None: no cluster access (rendering such a
    # DGD on Grove fails with the operator's "requires a Kubernetes client" error).
    cluster_topology_domains: Mapping[str, tuple[str, ...]] | None = None

