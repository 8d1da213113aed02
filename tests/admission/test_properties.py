"""Property tests: defaulting is idempotent and pure; validation never raises."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dynamo_schema._admission import AdmissionSettings, default, validate

_scalar = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 5),
    st.sampled_from(
        [
            "",
            "1",
            "2Gi",
            "-1Gi",
            "x",
            "IntraPod",
            "InterPod",
            "grove",
            "component",
            "vllm",
            "1.5.0",
            "false",
            "ray",
        ]
    ),
)
_json = st.recursive(
    _scalar,
    lambda c: st.one_of(
        st.lists(c, max_size=3),
        st.dictionaries(st.sampled_from(["a", "topologyConstraint", "spec", "template"]), c, max_size=3),
    ),
    max_leaves=6,
)


def _maybe(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(st.none(), strategy, _scalar)


_container = st.fixed_dictionaries(
    {
        "name": st.sampled_from(["main", "side", "loader", ""]),
        "image": st.sampled_from(["r/x:1.5.0", "r/x:latest", "", "r/x:v1.2.3-rc", "r:5000/x"]),
        "command": st.lists(st.sampled_from(["python3", "--enable-elastic-ep"]), max_size=2),
        "args": st.lists(
            st.sampled_from(["--enable-elastic-ep", "--data-parallel-backend", "ray", "-dpb=ray"]), max_size=4
        ),
        "resources": st.fixed_dictionaries(
            {
                "limits": st.dictionaries(
                    st.sampled_from(["nvidia.com/gpu", "cpu", "gpu.x"]), _scalar, max_size=2
                ),
                "claims": st.lists(st.fixed_dictionaries({"name": st.just("gpu")}), max_size=1),
            }
        ),
        "ports": st.lists(st.fixed_dictionaries({"containerPort": st.integers(1, 9000)}), max_size=2),
    }
)

_override = st.fixed_dictionaries(
    {
        "apiVersion": st.sampled_from(["grove.io/v1alpha1", "x", ""]),
        "target": st.sampled_from(
            ["PodCliqueSet", "PodCliqueTemplateSpec", "PodCliqueScalingGroupConfig", ""]
        ),
        "value": _json,
    }
)

_component = st.fixed_dictionaries(
    {
        "name": st.sampled_from(["frontend", "worker", "Worker", "prefill", "x" * 40, ""]),
        "type": st.sampled_from(["frontend", "worker", "prefill", "decode", "planner", "epp", ""]),
        "replicas": _maybe(st.integers(-1, 4)),
        "minAvailable": _maybe(st.integers(0, 3)),
        "runtimeVersionOverride": st.sampled_from(["", "1.4.0", "bad"]),
        "sharedMemorySize": _scalar,
        "frontendSidecar": _scalar,
        "scalingAdapter": st.one_of(st.none(), st.just({})),
        "eppConfig": _maybe(
            st.fixed_dictionaries({"configMapRef": _maybe(st.fixed_dictionaries({"name": _scalar}))})
        ),
        "multinode": _maybe(
            st.fixed_dictionaries(
                {
                    "nodeCount": _maybe(st.integers(0, 4)),
                    "leader": _maybe(st.fixed_dictionaries({"providerOverride": _maybe(_override)})),
                }
            )
        ),
        "providerOverride": _maybe(_override),
        "topologyConstraint": _maybe(st.fixed_dictionaries({"packDomain": _scalar})),
        "experimental": _maybe(
            st.fixed_dictionaries(
                {
                    "gpuMemoryService": _maybe(
                        st.fixed_dictionaries(
                            {"mode": _scalar, "extraClientContainers": _maybe(st.lists(_scalar, max_size=3))}
                        )
                    ),
                    "failover": _maybe(st.fixed_dictionaries({"mode": _scalar, "numShadows": _scalar})),
                    "grove": _maybe(st.fixed_dictionaries({"forceScalingGroup": _scalar})),
                    "checkpoint": _maybe(
                        st.fixed_dictionaries(
                            {
                                "enabled": _scalar,
                                "job": _maybe(
                                    st.fixed_dictionaries(
                                        {"gmsClientContainers": _maybe(st.lists(_scalar, max_size=2))}
                                    )
                                ),
                                "identity": _maybe(st.just({})),
                            }
                        )
                    ),
                }
            )
        ),
        "podTemplate": _maybe(
            st.fixed_dictionaries(
                {
                    "metadata": _maybe(
                        st.fixed_dictionaries(
                            {
                                "annotations": _maybe(
                                    st.dictionaries(st.just("dynamo.nvidia.com/gpu-power-limit"), _scalar)
                                )
                            }
                        )
                    ),
                    "spec": _maybe(
                        st.fixed_dictionaries(
                            {
                                "containers": _maybe(st.lists(_container, max_size=3)),
                                "initContainers": _maybe(st.lists(_container, max_size=1)),
                            }
                        )
                    ),
                }
            )
        ),
    }
)

ANNOTATION_KEYS = [
    "nvidia.com/workload-provider",
    "nvidia.com/enable-grove",
    "nvidia.com/dynamo-operator-origin-version",
    "nvidia.com/vllm-distributed-executor-backend",
    "nvidia.com/grove-update-strategy",
    "nvidia.com/dynamo-kube-discovery-mode",
]

_annotations = st.dictionaries(
    st.sampled_from(ANNOTATION_KEYS),
    _scalar,
    max_size=4,
)

dgd_like = st.fixed_dictionaries(
    {
        "apiVersion": st.just("nvidia.com/v1beta1"),
        "kind": st.sampled_from(
            ["DynamoGraphDeployment", "DynamoComponentDeployment", "DynamoGraphDeploymentRequest"]
        ),
        "spec": st.one_of(
            st.fixed_dictionaries(
                {
                    "components": st.one_of(
                        st.lists(
                            st.one_of(_component, _component, _component, _scalar), min_size=1, max_size=3
                        ),
                        _scalar,
                    ),
                    "backendFramework": st.sampled_from(["vllm", "sglang", ""]),
                    "providerOverride": _maybe(_override),
                    "priorityClassName": _scalar,
                    "topologyConstraint": _maybe(
                        st.fixed_dictionaries({"clusterTopologyName": _scalar, "packDomain": _scalar})
                    ),
                    "restart": _maybe(
                        st.fixed_dictionaries(
                            {
                                "id": _scalar,
                                "strategy": _maybe(
                                    st.fixed_dictionaries(
                                        {"type": _scalar, "order": _maybe(st.lists(_scalar, max_size=3))}
                                    )
                                ),
                            }
                        )
                    ),
                    "experimental": _maybe(
                        st.fixed_dictionaries(
                            {
                                "kvTransferPolicy": _maybe(
                                    st.fixed_dictionaries({"clusterTopologyName": _scalar, "domain": _scalar})
                                )
                            }
                        )
                    ),
                    "name": _scalar,
                    "type": _scalar,
                    "replicas": _scalar,
                    "podTemplate": _maybe(st.just({"spec": {"containers": [{"name": "main"}]}})),
                    "image": _scalar,
                    "hardware": _maybe(st.dictionaries(st.sampled_from(["gpuSku", "vramMb"]), _scalar)),
                    "searchStrategy": _scalar,
                    "backend": _scalar,
                    "autoApply": _scalar,
                    "workload": _maybe(st.just({})),
                }
            ),
            _scalar,
        ),
        "metadata": _maybe(
            st.fixed_dictionaries(
                {
                    "name": st.sampled_from(["g", "graph-" + "y" * 40]),
                    "annotations": _maybe(_annotations),
                    "generation": _scalar,
                    "deletionTimestamp": _scalar,
                }
            )
        ),
        "status": _maybe(
            st.fixed_dictionaries(
                {"phase": _scalar, "rollingUpdate": _maybe(st.fixed_dictionaries({"phase": _scalar}))}
            )
        ),
    }
)

_SCALARS = [
    None,
    True,
    False,
    0,
    1,
    2,
    -1,
    "",
    "1",
    "x",
    "-1Gi",
    "IntraPod",
    "InterPod",
    "grove",
    "component",
    "1.5.0",
]


def _rand_obj(seed: int) -> dict[str, Any]:
    """A rich DGD/DCD/DGDR-like object built from ``seed`` (cheap for Hypothesis to generate)."""
    import random

    r = random.Random(seed)

    def pick(*options: Any) -> Any:
        return r.choice(options)

    def maybe(value: Any) -> Any:
        return pick(value, value, value, None, r.choice(_SCALARS))

    def container() -> dict[str, Any]:
        c: dict[str, Any] = {"name": pick("main", "main", "side", "loader")}
        if r.random() < 0.8:
            c["image"] = pick("r/x:1.5.0", "r/x:latest", "", "r/x:v1.2.3-rc", "r:5000/x")
        if r.random() < 0.3:
            c["args"] = r.sample(
                ["--enable-elastic-ep", "--data-parallel-backend", "ray", "-dpb=ray", "--x"], r.randint(0, 4)
            )
        if r.random() < 0.3:
            c["command"] = pick([], ["python3"], "python3")
        if r.random() < 0.5:
            c["resources"] = {
                "limits": {pick("nvidia.com/gpu", "gpu.x", "cpu"): pick("1", 2, "1500m", "x", 0, None)}
            }
            if r.random() < 0.2:
                c["resources"]["claims"] = [{"name": "gpu"}]
        return c

    def override() -> dict[str, Any]:
        return {
            "apiVersion": pick("grove.io/v1alpha1", "grove.io/v1alpha1", "x", ""),
            "target": pick(None, "", "PodCliqueSet", "PodCliqueTemplateSpec", "PodCliqueScalingGroupConfig"),
            "value": pick(
                {"topologyConstraint": {}},
                {"spec": {"template": {"topologyConstraint": {}}}},
                {"spec": {"replicas": 1}},
                [],
                "s",
                None,
                {"x": 1},
            ),
        }

    def component() -> dict[str, Any]:
        c: dict[str, Any] = {"name": pick("frontend", "worker", "Worker", "prefill", "x" * 40)}
        opts = {
            "type": lambda: pick("frontend", "worker", "prefill", "decode", "planner", "epp", ""),
            "replicas": lambda: maybe(r.randint(-1, 4)),
            "minAvailable": lambda: maybe(r.randint(0, 3)),
            "runtimeVersionOverride": lambda: pick("", "1.4.0", "bad"),
            "sharedMemorySize": lambda: pick("1Gi", "-1Gi", -5, "x"),
            "frontendSidecar": lambda: pick("", "side", "nope", None),
            "scalingAdapter": lambda: pick({}, None),
            "eppConfig": lambda: maybe({"configMapRef": maybe({"name": pick("", "cm")})}),
            "multinode": lambda: maybe(
                {
                    "nodeCount": maybe(r.randint(0, 4)),
                    "leader": maybe({"providerOverride": override()}),
                    "worker": maybe({"providerOverride": override()}),
                }
            ),
            "providerOverride": lambda: maybe(override()),
            "topologyConstraint": lambda: maybe({"packDomain": pick("rack", "zone", "host", "")}),
            "experimental": lambda: maybe(
                {
                    "gpuMemoryService": maybe(
                        {
                            "mode": pick("IntraPod", "InterPod", "", None),
                            "extraClientContainers": maybe(
                                r.sample(["side", "loader", "zz", "side"], r.randint(0, 3))
                            ),
                        }
                    ),
                    "failover": maybe(
                        {"mode": pick("IntraPod", "InterPod", None), "numShadows": maybe(r.randint(0, 3))}
                    ),
                    "grove": maybe({"forceScalingGroup": pick(True, False, None)}),
                    "checkpoint": maybe(
                        {
                            "enabled": pick(True, False),
                            "job": maybe({"gmsClientContainers": pick([], ["main"])}),
                        }
                    ),
                }
            ),
            "podTemplate": lambda: maybe(
                {
                    "metadata": maybe(
                        {"annotations": {"dynamo.nvidia.com/gpu-power-limit": pick("300", "0", "x", "-1")}}
                    ),
                    "spec": maybe(
                        {
                            "containers": [container() for _ in range(r.randint(0, 3))],
                            "initContainers": [container() for _ in range(r.randint(0, 1))],
                        }
                    ),
                }
            ),
        }
        for key, make in opts.items():
            if r.random() < 0.6:
                c[key] = make()
        return c

    kind = pick(
        "DynamoGraphDeployment",
        "DynamoGraphDeployment",
        "DynamoComponentDeployment",
        "DynamoGraphDeploymentRequest",
    )
    obj: dict[str, Any] = {
        "apiVersion": "nvidia.com/v1beta1",
        "kind": kind,
        "metadata": {
            "name": pick("g", "graph-" + "y" * 40),
            "annotations": {
                k: pick("grove", "component", "false", "1.5.0", "mp", "x", "container", "OnDelete")
                for k in r.sample(ANNOTATION_KEYS, r.randint(0, 4))
            },
            "generation": pick(0, 1, 2),
        },
    }
    if kind == "DynamoGraphDeployment":
        obj["spec"] = {
            "backendFramework": pick("vllm", "sglang", ""),
            "components": [component() for _ in range(r.randint(0, 3))],
        }
        for key, make in {
            "providerOverride": override,
            "priorityClassName": lambda: pick("", "high"),
            "topologyConstraint": lambda: {
                "clusterTopologyName": pick("t", "missing", ""),
                "packDomain": pick("rack", "zone", ""),
            },
            "restart": lambda: {
                "id": pick("a", "b"),
                "strategy": maybe(
                    {
                        "type": pick("Parallel", "Sequential"),
                        "order": r.sample(["frontend", "worker", "ghost", "worker"], r.randint(0, 4)),
                    }
                ),
            },
            "experimental": lambda: {
                "kvTransferPolicy": maybe(
                    {
                        "clusterTopologyName": pick("t", "Bad_Name", ""),
                        "domain": pick("rack", "x"),
                        "labelKey": pick(None, "k"),
                    }
                )
            },
        }.items():
            if r.random() < 0.4:
                obj["spec"][key] = make()
        if r.random() < 0.3:
            obj["status"] = {"rollingUpdate": {"phase": pick("Pending", "InProgress", "Completed")}}
    elif kind == "DynamoComponentDeployment":
        obj["spec"] = dict(component(), backendFramework=pick("vllm", "sglang"))
    else:
        obj["spec"] = {
            "model": "m",
            "image": pick("", "r/p:1.5.0", "r/p:latest"),
            "runtimeVersionOverride": pick("", "1.4.0"),
            "autoApply": pick(True, False, None),
            "searchStrategy": pick("rapid", "thorough"),
            "backend": pick("auto", "vllm"),
            "hardware": maybe({"gpuSku": pick("", "h100")}),
        }
        obj["status"] = {"phase": pick("Pending", "Profiling", "Ready", "Deployed")}
    return obj


dgd_like = st.one_of(st.integers(0, 2**32 - 1).map(_rand_obj), dgd_like)

_settings = st.builds(
    AdmissionSettings,
    grove_enabled=st.booleans(),
    checkpoint_enabled=st.booleans(),
    gpu_discovery_enabled=st.booleans(),
    inference_pool_available=st.booleans(),
    operator_principal=st.sampled_from(["", "system:serviceaccount:d:op"]),
    request_username=st.sampled_from([None, "alice", "system:serviceaccount:d:op"]),
    cluster_topologies=st.sampled_from([None, {"t": ("zone", "rack")}]),
)

PROFILE = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@PROFILE
@given(dgd_like, _settings, st.sampled_from(["CREATE", "UPDATE"]))
def test_default_is_idempotent_and_pure(obj: dict[str, Any], s: AdmissionSettings, op: str) -> None:
    before = copy.deepcopy(obj)
    once = default(obj, s, operation=op)
    assert obj == before
    assert default(once, s, operation=op) == once


@PROFILE
@given(dgd_like, dgd_like, _settings)
def test_validate_never_raises(new: dict[str, Any], old: dict[str, Any], s: AdmissionSettings) -> None:
    d_new = default(new, s)
    for diag in (
        validate(d_new, s)
        + validate(new, s)
        + validate(default(new, s, operation="UPDATE"), s, old=default(old, s))
        + validate(d_new, s, source_version="v1alpha1")
        + validate(d_new, s, old=default(old, s), source_version="v1alpha1")
    ):
        assert diag.severity in ("error", "warning")
        assert isinstance(diag.message, str) and diag.rule.split(".")[0] in ("dgd", "dcd", "dgdr")
