"""DeploymentSpec loader rules in upstream order (``internal/spec/spec.go@64491a4``).

``validate_spec`` returns diagnostics (rule id ``infercrane.*``, path tuple, upstream message);
``load_spec`` returns the normalized spec or raises :class:`SpecError` carrying the diagnostics and the
partially normalized spec (upstream ``Load`` returns both).

Upstream stops at the first error, so after strict decoding at most one loader diagnostic is reported;
strict decoding reports every unknown field and type mismatch (yaml.v3 collects them all).

Library decisions beyond the Go loader (``deploymentspec.md`` §8 / README "Known discrepancies"): the
schema's ``name``/``endpoint`` pattern and ``routing.strategy`` enum are enforced, and GCP requires
``provider.region``. They run at the position of the neighbouring loader rule.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any

from .._core._diagnostics import Diagnostic, DynamoSchemaError, Path
from . import _contracts as c

API_VERSION = "infercrane.dev/v1"
KIND = "Deployment"

# ------------------------------------------------------------------------------------- strict decoding
# Go field types (``S`` = string, ``I`` = int, ``B`` = bool, ``L`` = []string) and the Go type names
# that yaml.v3 prints in ``field X not found in type T`` (``reflect.Type.String()``).
_S, _I, _B, _L = "string", "int", "bool", "[]string"

_WORKLOAD = {
    "__type__": "runtimecontract.Workload",
    "image": _S, "command": _L, "protocol": _S, "port": _I, "readiness_path": _S, "models_path": _S,
    "metrics_path": _S, "cancellation": _S, "drain": _S, "shutdown_grace_seconds": _I,
}
_POOL = {"__type__": "servingcontract.Pool", "replicas": _I, "tensor_parallelism": _I}
_SERVING = {
    "__type__": "servingcontract.Topology",
    "schema_version": _S, "backend": _S, "profile": _S, "mode": _S, "routing": _S,
    "worker": _POOL, "prefill": _POOL, "decode": _POOL,
    "autoscaling": {"__type__": "servingcontract.Autoscaling", "owner": _S, "min": _I, "max": _I},
    "cache": {
        "__type__": "servingcontract.Cache",
        "backend": _S, "host_gib": _I, "disk_gib": _I, "memory_gib": _I, "storage_claim": _S,
        "configuration_ref": _S, "metrics": _B,
    },
}


def _anon(*fields: tuple[str, str, str]) -> str:
    inner = "; ".join(f'{go} {typ} "yaml:\\"{tag}\\""' for go, typ, tag in fields)
    return "struct { " + inner + " }"


_SCHEMA: dict[str, Any] = {
    "__type__": "spec.Deployment",
    "apiVersion": _S, "kind": _S, "name": _S, "endpoint": _S,
    "model": {"__type__": _anon(("ID", "string", "id"), ("Revision", "string", "revision")), "id": _S, "revision": _S},
    "runtime": {
        "__type__": _anon(("Engine", "string", "engine"), ("Version", "string", "version"),
                          ("Args", "[]string", "args"), ("Workload", "runtimecontract.Workload", "workload")),
        "engine": _S, "version": _S, "args": _L, "workload": _WORKLOAD,
    },
    "compute": {"__type__": _anon(("Mode", "string", "mode")), "mode": _S},
    "resources": {"__type__": _anon(("GPU", "string", "gpu"), ("GPUCount", "int", "gpu_count,omitempty")),
                  "gpu": _S, "gpu_count": _I},
    "provider": {"__type__": _anon(("Cloud", "string", "cloud"), ("Adapter", "string", "adapter,omitempty"),
                                   ("Region", "string", "region")),
                 "cloud": _S, "adapter": _S, "region": _S},
    "scaling": {"__type__": _anon(("MinReplicas", "int", "min_replicas"), ("MaxReplicas", "int", "max_replicas")),
                "min_replicas": _I, "max_replicas": _I},
    "routing": {"__type__": _anon(("Strategy", "string", "strategy")), "strategy": _S},
    "serving": _SERVING,
}

_PARSE = "parse deployment file: yaml: unmarshal errors: "


def _yaml_tag(value: Any) -> str:
    if value is None:
        return "!!null"
    if isinstance(value, bool):
        return "!!bool"
    if isinstance(value, int):
        return "!!int"
    if isinstance(value, float):
        return "!!float"
    if isinstance(value, str):
        return "!!str"
    if isinstance(value, list):
        return "!!seq"
    return "!!map"


def _scalar_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _cannot(value: Any, gotype: str) -> str:
    tag = _yaml_tag(value)
    if tag in ("!!seq", "!!map"):
        return f"{_PARSE}cannot unmarshal {tag} into {gotype}"
    return f"{_PARSE}cannot unmarshal {tag} `{_scalar_text(value)}` into {gotype}"


def _decode(value: Any, schema: Any, path: Path, errors: list[Diagnostic]) -> Any:
    """Decode JSON-like ``value`` as yaml.v3 would into the Go type ``schema`` (KnownFields(true))."""
    if isinstance(schema, dict):
        if value is None:
            return {}
        if not isinstance(value, dict):
            errors.append(Diagnostic("infercrane.decode.type", path, _cannot(value, schema["__type__"])))
            return {}
        out: dict[str, Any] = {}
        for key, item in value.items():
            if key == "__type__" or key not in schema:
                errors.append(
                    Diagnostic(
                        "infercrane.decode.unknown-field",
                        path + (str(key),),
                        f"{_PARSE}field {key} not found in type {schema['__type__']}",
                    )
                )
                continue
            out[key] = _decode(item, schema[key], path + (key,), errors)
        return out
    if schema == _S:
        if value is None:
            return ""
        if isinstance(value, (list, dict)):
            errors.append(Diagnostic("infercrane.decode.type", path, _cannot(value, "string")))
            return ""
        return _scalar_text(value)  # yaml.v3 decodes any scalar into a string field
    if schema == _I:
        if value is None:
            return 0
        if isinstance(value, bool) or not isinstance(value, int):
            errors.append(Diagnostic("infercrane.decode.type", path, _cannot(value, "int")))
            return 0
        return value
    if schema == _B:
        if value is None:
            return False
        if not isinstance(value, bool):
            errors.append(Diagnostic("infercrane.decode.type", path, _cannot(value, "bool")))
            return False
        return value
    if schema == _L:
        if value is None:
            return []
        if not isinstance(value, list):
            errors.append(Diagnostic("infercrane.decode.type", path, _cannot(value, "[]string")))
            return []
        items = []
        for index, item in enumerate(value):
            items.append(_decode(item, _S, path + (index,), errors))
        return items
    raise AssertionError(schema)  # pragma: no cover


def _zero(decoded: dict[str, Any]) -> dict[str, Any]:
    """Fill Go zero values: the struct ``Load`` works on."""
    get = decoded.get
    model, runtime, compute = get("model", {}), get("runtime", {}), get("compute", {})
    resources, provider, scaling = get("resources", {}), get("provider", {}), get("scaling", {})
    routing = get("routing", {})
    return {
        "apiVersion": get("apiVersion", ""),
        "kind": get("kind", ""),
        "name": get("name", ""),
        "endpoint": get("endpoint", ""),
        "model": {"id": model.get("id", ""), "revision": model.get("revision", "")},
        "runtime": {
            "engine": runtime.get("engine", ""),
            "version": runtime.get("version", ""),
            "args": list(runtime.get("args", [])),
            "workload": c.workload_from(runtime.get("workload")),
        },
        "compute": {"mode": compute.get("mode", "")},
        "resources": {"gpu": resources.get("gpu", ""), "gpu_count": resources.get("gpu_count", 0)},
        "provider": {
            "cloud": provider.get("cloud", ""),
            "adapter": provider.get("adapter", ""),
            "region": provider.get("region", ""),
        },
        "scaling": {"min_replicas": scaling.get("min_replicas", 0), "max_replicas": scaling.get("max_replicas", 0)},
        "routing": {"strategy": routing.get("strategy", "")},
        "serving": c.topology_from(get("serving")),
    }


# ------------------------------------------------------------------------------------------ results
@dataclass(frozen=True)
class NormalizedSpec:
    """The normalized DeploymentSpec (Go ``Deployment`` after ``Load``), as plain JSON-like data."""

    data: dict[str, Any]
    serving_digest: str = ""

    def get(self, dotted: str) -> Any:
        node: Any = self.data
        for part in dotted.split("."):
            node = node[int(part)] if isinstance(node, list) else node[part]
        return node

    @property
    def name(self) -> str:
        return str(self.data["name"])

    @property
    def engine(self) -> str:
        return str(self.data["runtime"]["engine"])

    @property
    def cloud(self) -> str:
        return str(self.data["provider"]["cloud"])

    @property
    def adapter(self) -> str:
        return str(self.data["provider"]["adapter"])

    def to_dict(self, *, compact: bool = True) -> dict[str, Any]:
        """The normalized spec; ``compact`` drops an empty workload/serving and empty optional strings."""
        out = copy.deepcopy(self.data)
        if compact:
            if c.workload_empty(out["runtime"]["workload"]):
                del out["runtime"]["workload"]
            if not out["runtime"]["args"]:
                del out["runtime"]["args"]
            if c.topology_empty(out["serving"]):
                del out["serving"]
            if not out["provider"]["adapter"]:
                del out["provider"]["adapter"]
        return out


class SpecError(DynamoSchemaError):
    """The DeploymentSpec does not load; ``diagnostics`` name the rule, path and upstream message."""

    def __init__(self, message: str, diagnostics: list[Diagnostic], partial: NormalizedSpec | None = None):
        super().__init__(message, diagnostics)
        self.partial = partial


@dataclass
class _Run:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    spec: dict[str, Any] | None = None


_NAME_RE = re.compile(r"^[a-z][a-z0-9-]{0,62}\Z")
_ROUTING = ("round-robin", "consistent-hash", "power-of-two", "cache-aware")


def _run(data: Any) -> _Run:
    run = _Run()
    if not isinstance(data, dict):
        run.diagnostics.append(Diagnostic("infercrane.decode.type", (), _cannot(data, "spec.Deployment")))
        return run
    errors: list[Diagnostic] = []
    decoded = _decode(data, _SCHEMA, (), errors)
    out = _zero(decoded)
    run.spec = out
    if errors:
        run.diagnostics.extend(errors)
        return run

    def fail(rule: str, path: Path, message: str) -> _Run:
        run.diagnostics.append(Diagnostic(rule, path, message))
        return run

    # 2. header
    out["apiVersion"] = out["apiVersion"] or API_VERSION
    out["kind"] = out["kind"] or KIND
    if out["apiVersion"] != API_VERSION or out["kind"] != KIND:
        where: Path = ("apiVersion",) if out["apiVersion"] != API_VERSION else ("kind",)
        return fail("infercrane.header", where, "DeploymentSpec must use apiVersion infercrane.dev/v1 and kind Deployment")
    # 3-4. engine default, built-in SGLang workload
    rt = out["runtime"]
    rt["engine"] = rt["engine"] or "vllm"
    rt["workload"] = c.normalize_workload(rt["engine"], rt["workload"])
    # 5. compute mode
    mode = out["compute"]["mode"] = out["compute"]["mode"] or "elastic"
    if mode not in ("elastic", "serverless"):
        return fail("infercrane.compute.mode", ("compute", "mode"), "compute.mode must be elastic or serverless")
    # 6-8. replica bounds and routing defaults (Go zero value = unset)
    scaling = out["scaling"]
    if mode == "elastic" and scaling["min_replicas"] == 0:
        scaling["min_replicas"] = 1
    if scaling["max_replicas"] == 0:
        scaling["max_replicas"] = 1
    out["routing"]["strategy"] = out["routing"]["strategy"] or "round-robin"
    # 9. required fields
    for value, where in (
        (out["name"], ("name",)),
        (out["model"]["id"], ("model", "id")),
        (out["resources"]["gpu"], ("resources", "gpu")),
        (out["provider"]["cloud"], ("provider", "cloud")),
    ):
        if not value:
            return fail(
                "infercrane.required", where, "name, model.id, resources.gpu, and provider.cloud are required"
            )
    # library: schema pattern / enum (loader does not check them; deploymentspec.md §8 "enforce")
    if not _NAME_RE.match(out["name"]):
        return fail(
            "infercrane.name.pattern",
            ("name",),
            "name must start with a lowercase letter and contain only lowercase letters, digits, and hyphens",
        )
    if out["routing"]["strategy"] not in _ROUTING:
        return fail(
            "infercrane.routing.strategy",
            ("routing", "strategy"),
            "routing.strategy must be round-robin, consistent-hash, power-of-two, or cache-aware",
        )
    # 10-11. gpu_count
    res = out["resources"]
    if res["gpu_count"] == 0:
        res["gpu_count"] = 1
    if res["gpu_count"] < 1 or res["gpu_count"] > 1024:
        return fail(
            "infercrane.resources.gpu-count", ("resources", "gpu_count"), "resources.gpu_count must be between 1 and 1024"
        )
    if mode == "serverless" and res["gpu_count"] != 1:
        return fail(
            "infercrane.serverless.gpu-count",
            ("resources", "gpu_count"),
            "serverless compute currently requires resources.gpu_count 1",
        )
    # 12. endpoint defaults to name
    endpoint_given = bool(out["endpoint"])
    out["endpoint"] = out["endpoint"] or out["name"]
    if endpoint_given and not _NAME_RE.match(out["endpoint"]):
        return fail(
            "infercrane.endpoint.pattern",
            ("endpoint",),
            "endpoint must start with a lowercase letter and contain only lowercase letters, digits, and hyphens",
        )
    # 13. support matrix
    problem = c.support_validate(rt["engine"], out["provider"]["cloud"], mode)
    if problem:
        return fail("infercrane.support-matrix", problem[1], "support policy: " + problem[0])
    # 14. AWS region (+ library: GCP region, docs and gcp-compute adapter agree)
    cloud = out["provider"]["cloud"]
    if cloud == "aws" and not out["provider"]["region"]:
        return fail("infercrane.provider.region", ("provider", "region"), "AWS BYOC requires provider.region")
    if cloud == "gcp" and not out["provider"]["region"]:
        return fail("infercrane.provider.region", ("provider", "region"), "GCP requires provider.region")
    # 15-16. workload contract
    if rt["engine"] == "custom-oci" and c.workload_empty(rt["workload"]):
        return fail("infercrane.workload.required", ("runtime", "workload"), "runtime.workload is required for custom-oci")
    if not c.workload_empty(rt["workload"]):
        problem = c.workload_validate(rt["workload"])
        if problem:
            return fail("infercrane.workload", ("runtime", "workload") + problem[1], "runtime.workload: " + problem[0])
        if mode != "elastic":
            return fail(
                "infercrane.workload.compute-mode", ("compute", "mode"), "custom OCI workloads require compute.mode elastic"
            )
    # 17-18. replica bounds
    if scaling["max_replicas"] < scaling["min_replicas"]:
        return fail(
            "infercrane.scaling.order", ("scaling", "max_replicas"), "scaling.max_replicas must be >= scaling.min_replicas"
        )
    if mode == "serverless" and scaling["min_replicas"] != 0:
        return fail(
            "infercrane.serverless.min-replicas", ("scaling", "min_replicas"), "serverless compute requires scaling.min_replicas 0"
        )
    # 19. serving topology
    out["serving"] = c.topology_normalize(out["serving"])
    problem = c.topology_validate(
        out["serving"], rt["engine"], cloud, out["provider"]["adapter"], scaling["min_replicas"], scaling["max_replicas"]
    )
    if problem:
        where = problem[1]
        if where == ("serving",) and "serving" not in data:
            where = ("provider", "adapter")
        return fail("infercrane.serving", where, "serving: " + problem[0])
    return run


def validate_spec(data: dict[str, Any]) -> list[Diagnostic]:
    """Loader diagnostics for one DeploymentSpec document (empty list = the spec loads)."""
    return _run(data).diagnostics


def load_spec(data: dict[str, Any]) -> NormalizedSpec:
    """Normalize a DeploymentSpec or raise :class:`SpecError` (with the partially normalized spec)."""
    run = _run(data)
    spec = run.spec
    partial = NormalizedSpec(spec, c.topology_digest(spec["serving"])) if spec is not None else None
    if run.diagnostics:
        raise SpecError(run.diagnostics[0].message, run.diagnostics, partial)
    assert partial is not None
    return partial


# --------------------------------------------------------------------------- stand-alone contract checks
def validate_workload(workload: dict[str, Any], base: Path = ("runtime", "workload")) -> list[Diagnostic]:
    """``Workload.Validate`` alone (the ``validate`` stage of workload cases)."""
    problem = c.workload_validate(c.workload_from(workload))
    return [] if problem is None else [Diagnostic("infercrane.workload", base + problem[1], problem[0])]


def validate_serving(
    serving: dict[str, Any], engine: str, cloud: str, adapter: str, min_replicas: int, max_replicas: int
) -> list[Diagnostic]:
    """``Topology.Validate`` alone (the ``validate`` stage of serving cases)."""
    problem = c.topology_validate(serving, engine, cloud, adapter, min_replicas, max_replicas)
    return [] if problem is None else [Diagnostic("infercrane.serving", problem[1], problem[0])]
