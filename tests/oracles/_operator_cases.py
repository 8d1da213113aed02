"""The operator-verified cases (``../shared/reference/dynamo/operator-cases``) run through the library.

Each case is one CREATE of a DGD, DCD or DGDR with what the operator's own admission and reconcilers
produce at the reference revision (its README gives the format). :func:`run` puts the case's input through
the public API with the case's settings and returns, per aspect, whether we agree:

* ``verdict``   admitted or refused (admission: our diagnostics without the ``reconcile.*`` findings,
  which say what happens after admission);
* ``causes``    refused: the set of (field, message) causes (for a refusal by the mutating webhook's
  decoder, which has no field causes, the set of messages);
* ``defaulted`` admitted: the stored object;
* ``objects``   admitted DGD / DCD: the created objects after the README's normalisation, or, where the
  operator's reconcile failed (``renderError``), that our render is refused for the same reason;
* ``reconcile`` admitted DGD / DCD: ``validate``'s reconcile check reports an error exactly when the
  operator's reconcile failed, and then with the operator's reason.

Used by tests/oracles/test_operator_cases.py and by ``python tools/operator_cases.py`` (counts, diffs).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

SHARED = (Path(__file__).resolve().parents[2] / ".." / "shared").resolve()
CASES_DIR = SHARED / "reference" / "dynamo" / "operator-cases" / "cases"
GOLDENS_DIR = SHARED / "reference" / "dynamo" / "operator-cases" / "project-goldens"
ASPECTS = ("verdict", "causes", "defaulted", "objects", "reconcile")
RENDERED_KINDS = ("DynamoGraphDeployment", "DynamoComponentDeployment")


def case_files(folder: Path = CASES_DIR) -> list[Path]:
    return sorted(folder.glob("*.yaml")) if folder.is_dir() else []


def load_case(path: Path) -> dict[str, Any]:
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    assert isinstance(data, dict), path
    return data


def admission_settings(settings: dict[str, Any]) -> Any:
    """The README's ``settings`` keys as ``AdmissionSettings`` (an empty cluster: no topology bindings)."""
    from dynamo_schema._admission import AdmissionSettings

    return AdmissionSettings(
        grove_enabled=bool(settings.get("grove", True)),
        lws_enabled=bool(settings.get("lws", True)),
        checkpoint_enabled=bool(settings.get("checkpoint", False)),
        gpu_discovery_enabled=bool(settings.get("gpuDiscovery", True)),
        inference_pool_available=bool(settings.get("inferencePool", True)),
        dra_enabled=bool(settings.get("dra", False)),
        operator_version=str(settings.get("operatorVersion", "1.5.0")),
        cluster_topologies={},
    )


def namespace_of(settings: dict[str, Any]) -> str:
    return str(settings.get("namespace", "default"))


# --- the README's normalisation of ``objects`` -----------------------------------------------------------

_CLUSTER_RBAC = {("ServiceAccount", "planner-serviceaccount"), ("RoleBinding", "planner-serviceaccount-binding"),
                 ("ServiceAccount", "epp-serviceaccount"), ("RoleBinding", "epp-serviceaccount-binding")}


def _drop_empty_env_values(node: Any, in_dcd: bool) -> None:
    if isinstance(node, dict):
        env = node.get("env")
        if isinstance(env, list):
            for entry in env:
                if isinstance(entry, dict) and entry.get("value") == "" and "valueFrom" not in entry:
                    del entry["value"]
        if in_dcd and node.get("resources") == {}:
            del node["resources"]
        for value in node.values():
            _drop_empty_env_values(value, in_dcd)
    elif isinstance(node, list):
        for value in node:
            _drop_empty_env_values(value, in_dcd)


def normalise(objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Our rendered objects as the README normalises the operator's (a new list; input untouched)."""
    out = []
    for obj in copy.deepcopy(objects):
        kind = obj.get("kind")
        meta = obj.get("metadata") or {}
        if (kind, meta.get("name")) in _CLUSTER_RBAC:
            continue
        for key in ("ownerReferences", "finalizers"):
            meta.pop(key, None)
        annotations = meta.get("annotations")
        if isinstance(annotations, dict):
            for key in [k for k in annotations if k.startswith("nvidia.com/last-applied")]:
                del annotations[key]
        obj.pop("status", None)
        _drop_empty_env_values(obj, kind == "DynamoComponentDeployment")
        spec = obj.get("spec")
        if kind == "LeaderWorkerSet" and isinstance(spec, dict) and spec.get("rolloutStrategy") == {"type": ""}:
            del spec["rolloutStrategy"]
        if kind == "Service" and isinstance(spec, dict) and spec.get("publishNotReadyAddresses") is False:
            del spec["publishNotReadyAddresses"]
        if kind == "DynamoGraphDeploymentScalingAdapter" and obj.get("apiVersion") == "nvidia.com/v1alpha1":
            obj["apiVersion"] = "nvidia.com/v1beta1"
            ref = (spec or {}).get("dgdRef")
            if isinstance(ref, dict) and "serviceName" in ref:
                ref["componentName"] = ref.pop("serviceName")
        out.append(obj)
    out.sort(key=lambda o: (str(o.get("kind")), str((o.get("metadata") or {}).get("name"))))
    return out


# --- running one case --------------------------------------------------------------------------------

_PREFIX = re.compile(r"^(DynamoGraphDeployment|DynamoComponentDeployment) \S+ pass \d+: ")


def render_reason(render_error: str) -> str:
    """The operator's reconcile failure without its wrappers: the shortest ``": "``-bounded tail that is
    at least 30 characters long (``backend framework mismatch: detected "vllm" from command but …``)."""
    text = _PREFIX.sub("", render_error.strip())
    parts = text.split(": ")
    for i in range(len(parts) - 1, -1, -1):
        tail = ": ".join(parts[i:])
        if len(tail) >= 30:
            return tail
    return text


class Outcome:
    """Per aspect: ``True`` (agrees), ``False`` (differs) or absent (not applicable); ``detail`` per
    differing aspect: (expected, ours)."""

    def __init__(self) -> None:
        self.agree: dict[str, bool] = {}
        self.detail: dict[str, tuple[Any, Any]] = {}

    def set(self, aspect: str, ok: bool, expected: Any = None, ours: Any = None) -> None:
        self.agree[aspect] = ok
        if not ok:
            self.detail[aspect] = (expected, ours)

    @property
    def differing(self) -> list[str]:
        return [a for a in ASPECTS if self.agree.get(a) is False]


def expected_defaulted(expected: dict[str, Any]) -> Any:
    """``expected.defaulted`` in the README's format: ``metadata.generation`` (always 1) left out. The
    project-goldens files (``project-goldens/README.md``: "in the case format of ../README.md") still
    carry it; the cases do not."""
    stored = expected.get("defaulted")
    if isinstance(stored, dict) and (stored.get("metadata") or {}).get("generation") == 1:
        stored = copy.deepcopy(stored)
        del stored["metadata"]["generation"]
    return stored


def expected_objects(expected: dict[str, Any]) -> list[dict[str, Any]]:
    """``expected.objects`` after the README's normalisation. The cases are normalised already
    (:func:`normalise` is idempotent on them); the project-goldens files skip step 5 (a scaling adapter
    is listed as created, ``nvidia.com/v1alpha1`` with ``serviceName``), so it is applied here."""
    return normalise(expected.get("objects") or [])


def expected_causes(expected: dict[str, Any]) -> set[tuple[str, str]]:
    if expected.get("stage") == "mutating-webhook":
        return {("<decode>", str(expected.get("message")))}
    return {(str(c["field"]), str(c["message"])) for c in expected.get("causes") or []}


def our_causes(diagnostics: list[Any], stage: str | None) -> set[tuple[str, str]]:
    errors = [d for d in diagnostics if d.severity == "error"]
    if stage == "mutating-webhook":
        return {("<decode>", d.message) for d in errors}
    return {(d.field or "<nil>", d.message) for d in errors}


def run(case: dict[str, Any]) -> Outcome:
    import dynamo_schema
    from dynamo_schema._pipeline._render_object import render_object
    from dynamo_schema._render._errors import RenderError

    settings = case.get("settings") or {}
    admission = admission_settings(settings)
    namespace = namespace_of(settings)
    document = case["input"]
    expected = case["expected"]
    out = Outcome()
    diagnostics = [d for r in dynamo_schema.validate(copy.deepcopy(document), settings=admission)
                   for d in r.diagnostics]
    reconcile = [d for d in diagnostics if d.severity == "error" and d.rule.startswith("reconcile.")]
    allowed = not any(d.severity == "error" and not d.rule.startswith("reconcile.") for d in diagnostics)
    out.set("verdict", allowed == bool(expected["allowed"]), expected["allowed"], allowed)
    if not expected["allowed"]:
        if not allowed:
            want, got = expected_causes(expected), our_causes(diagnostics, expected.get("stage"))
            out.set("causes", want == got, sorted(want - got), sorted(got - want))
        return out
    if not allowed:
        return out
    stored = dynamo_schema.default(copy.deepcopy(document), admission, namespace=namespace)
    stored.setdefault("metadata", {}).setdefault("namespace", namespace)
    stored.pop("status", None)
    want_stored = expected_defaulted(expected)
    out.set("defaulted", stored == want_stored, want_stored, stored)
    if document.get("kind") not in RENDERED_KINDS or "objects" not in expected:
        return out
    render_error = expected.get("renderError")
    found = [f"{d.field}: {d.message} [{d.rule}]" for d in reconcile]
    if render_error is None:
        out.set("reconcile", not found, [], found)
    else:
        reason = render_reason(str(render_error))
        out.set("reconcile", any(reason in text for text in found), reason, found)
    try:
        objects = normalise(render_object(copy.deepcopy(document), namespace=namespace, settings=admission))
    except RenderError as exc:
        ours = "\n".join([str(exc)] + [d.message for d in getattr(exc, "diagnostics", None) or []])
        if render_error is None:
            out.set("objects", False, expected["objects"], f"refused: {ours}")
        else:
            reason = render_reason(str(render_error))
            out.set("objects", reason in ours, reason, ours)
        return out
    if render_error is not None:
        out.set("objects", False, f"refused: {render_reason(str(render_error))}", objects)
    else:
        want = expected_objects(expected)
        out.set("objects", objects == want, want, objects)
    return out


def iter_outcomes(files: list[Path] | None = None) -> Iterator[tuple[Path, dict[str, Any], Outcome]]:
    for path in files if files is not None else case_files():
        case = load_case(path)
        yield path, case, run(case)
