"""What the API server stores: Kubernetes built-in defaults, the LeaderWorkerSet webhook, Grove defaulting.

Used when ``RenderOptions.apiserver_defaults`` is on (and by the golden tests, whose expected
objects are read back from a cluster). Defaults from ``k8s.io/kubernetes/pkg/apis/{apps,core}/v1``
defaults and the LWS webhook, as they show in the upstream goldens; PodCliqueSets through Grove's CRD
defaults and defaulting webhook (``_grove_webhook.grove_defaults``). Values the API server allocates
rather than defaults (a Service's ``clusterIP``/``ipFamilies``, ``uid``, timestamps) are not simulated.
"""

from __future__ import annotations

from typing import Any

from .._core._datacopy import deepcopy


def _probe(p: dict[str, Any]) -> None:
    p.setdefault("timeoutSeconds", 1)
    p.setdefault("periodSeconds", 10)
    p.setdefault("successThreshold", 1)
    p.setdefault("failureThreshold", 3)
    if isinstance(p.get("httpGet"), dict):
        p["httpGet"].setdefault("scheme", "HTTP")


def _image_pull_policy(image: str | None) -> str:
    if not image:
        return "IfNotPresent"
    ref = image.split("@", 1)
    if len(ref) == 2:
        return "IfNotPresent"
    name = ref[0]
    colon = name.rfind(":")
    if colon <= name.rfind("/"):
        return "Always"
    return "Always" if name[colon + 1 :] == "latest" else "IfNotPresent"


def _container(c: dict[str, Any]) -> None:
    c.setdefault("imagePullPolicy", _image_pull_policy(c.get("image")))
    c.setdefault("terminationMessagePath", "/dev/termination-log")
    c.setdefault("terminationMessagePolicy", "File")
    c.setdefault("resources", {})
    for port in c.get("ports") or []:
        port.setdefault("protocol", "TCP")
    for env in c.get("env") or []:
        ref = (env.get("valueFrom") or {}).get("fieldRef")
        if isinstance(ref, dict):
            ref.setdefault("apiVersion", "v1")
    for key in ("livenessProbe", "readinessProbe", "startupProbe"):
        if isinstance(c.get(key), dict):
            _probe(c[key])


def pod_spec_defaults(spec: dict[str, Any]) -> None:
    spec.setdefault("dnsPolicy", "ClusterFirst")
    spec.setdefault("restartPolicy", "Always")
    spec.setdefault("schedulerName", "default-scheduler")
    spec.setdefault("securityContext", {})
    spec.setdefault("terminationGracePeriodSeconds", 30)
    if spec.get("serviceAccountName"):
        spec.setdefault("serviceAccount", spec["serviceAccountName"])
    for c in (spec.get("containers") or []) + (spec.get("initContainers") or []):
        _container(c)
    for v in spec.get("volumes") or []:
        for key in ("configMap", "secret", "downwardAPI"):
            if isinstance(v.get(key), dict):
                v[key].setdefault("defaultMode", 420)
        if isinstance(v.get("downwardAPI"), dict):
            for item in v["downwardAPI"].get("items") or []:
                if isinstance(item.get("fieldRef"), dict):
                    item["fieldRef"].setdefault("apiVersion", "v1")


def apply_server_defaults(obj: dict[str, Any]) -> dict[str, Any]:
    obj = deepcopy(obj)
    kind = obj.get("kind")
    spec = obj.get("spec")
    if not isinstance(spec, dict):
        return obj
    if kind == "Deployment":
        spec.setdefault("progressDeadlineSeconds", 600)
        spec.setdefault("revisionHistoryLimit", 10)
        spec.setdefault("replicas", 1)
        strategy = spec.setdefault("strategy", {"type": "RollingUpdate"})
        if strategy.get("type") == "RollingUpdate":
            ru = strategy.setdefault("rollingUpdate", {})
            ru.setdefault("maxSurge", "25%")
            ru.setdefault("maxUnavailable", "25%")
        pod_spec_defaults(spec.setdefault("template", {}).setdefault("spec", {}))
    elif kind == "LeaderWorkerSet":
        spec.setdefault("replicas", 1)
        spec.setdefault("startupPolicy", "LeaderCreated")
        spec.setdefault("rolloutStrategy", {
            "type": "RollingUpdate",
            "rollingUpdateConfiguration": {"maxSurge": 0, "maxUnavailable": 1, "partition": 0},
        })
        spec.setdefault("networkConfig", {"subdomainPolicy": "Shared"})
        lwt = spec.setdefault("leaderWorkerTemplate", {})
        lwt.setdefault("restartPolicy", "RecreateGroupOnPodRestart")
        lwt.setdefault("size", 1)
    elif kind == "PodCliqueSet":
        # Grove's CRD defaults and defaulting webhook (the same step its validating webhook sees)
        from .._grove._defaults import grove_defaults

        return grove_defaults(obj)
    elif kind == "Service":
        spec.setdefault("type", "ClusterIP")
        spec.setdefault("sessionAffinity", "None")
        if spec["type"] != "ExternalName":
            spec.setdefault("internalTrafficPolicy", "Cluster")
        for p in spec.get("ports") or []:
            p.setdefault("protocol", "TCP")
            p.setdefault("targetPort", p.get("port"))
    return obj
