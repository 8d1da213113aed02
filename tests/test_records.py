"""The value classes written out for a cold start (``_core._record``, docs/decisions.md D32) behave as the
dataclasses they replaced: constructor (positional, keyword, defaults), equality, hash, repr, immutability,
``dataclasses.replace``/``fields``/``asdict``, copying and pickling. Each is compared with a reference
dataclass built here with the same fields and options as the old definition."""

from __future__ import annotations

import copy
import dataclasses
import importlib
import inspect
import pickle
from typing import Any

import pytest

REQ = object()  # a field without a default


class Factory:
    def __init__(self, make: Any) -> None:
        self.make = make


#: "module:Class" -> (frozen, [(field, default | REQ | Factory, compare, hash)]); from the old definitions
SPECS: dict[str, tuple[bool, list[tuple[Any, ...]]]] = {
    "dynamo_schema._core._diagnostics:Diagnostic": (True, [
        ("rule", REQ), ("path", REQ), ("message", REQ), ("severity", "error"), ("file", None), ("line", None),
        ("column", None)]),
    "dynamo_schema._core._document:Document": (False, [
        ("data", REQ), ("file", "<stdin>"), ("index", 0), ("positions", Factory(dict)), ("start", (1, 1))]),
    "dynamo_schema._io._load:LoadedDocument": (False, [
        ("data", REQ), ("file", "<stdin>"), ("index", 0), ("positions", Factory(dict)), ("start", (1, 1)),
        ("value_positions", Factory(dict)), ("list_start", None)]),
    "dynamo_schema._io._load:LoadResult": (False, [
        ("documents", Factory(list)), ("document_diagnostics", Factory(list)), ("errors", Factory(list))]),
    "dynamo_schema._report._result:ResourceResult": (False, [
        ("filename", REQ), ("kind", REQ), ("name", REQ), ("version", REQ), ("status", REQ),
        ("diagnostics", Factory(list)), ("api_version", ""), ("waived", Factory(list)), ("namespace", ""),
        ("index", None), ("reason", "")]),
    "dynamo_schema._pipeline._validate:ValidateOptions": (True, [
        ("strict", True), ("kubernetes_version", "1.32.0"), ("settings", None), ("old", None),
        ("namespace", "default")]),
    "dynamo_schema._pipeline._validate:ResourceOutcome": (False, [
        ("filename", REQ), ("kind", REQ), ("name", REQ), ("version", REQ), ("status", REQ),
        ("diagnostics", Factory(list)), ("reason", "")]),
    "dynamo_schema._pipeline._kindpolicy:KindPolicy": (True, [
        ("skip", frozenset()), ("reject", frozenset()), ("ignore_missing", False), ("locations", ()),
        ("kubernetes_version", "1.32.0"), ("strict", True), ("extra_crds", (), False)]),
    "dynamo_schema._pipeline._kustomize:PatchTarget": (True, [("api_version", ""), ("kind", ""), ("name", "")]),
    "dynamo_schema._pipeline._waivers:Waiver": (False, [
        ("line", REQ), ("column", REQ), ("rules", REQ), ("document_wide", False), ("used", Factory(set))]),
    "dynamo_schema._admission._settings:AdmissionSettings": (True, [
        ("grove_enabled", True), ("lws_enabled", True), ("lpx_enabled", False), ("grove_tas_enabled", False),
        ("checkpoint_enabled", False), ("gpu_discovery_enabled", True), ("inference_pool_available", True),
        ("dra_enabled", False),
        ("discovery_backend", "kubernetes"), ("operator_version", "1.5.0"), ("dgdr_default_image", ""),
        ("operator_principal", ""), ("request_username", None), ("cluster_topologies", None, True, False),
        ("operator_release", "")]),
    "dynamo_schema._admission.rules._shared:Ctx": (False, [
        ("prefix", REQ), ("settings", REQ), ("grove_pathway", False), ("validate_inference_pool", False),
        ("provider_overrides_supported", False), ("workload_provider", ""), ("check_runtime_version", True),
        ("allow_missing_override", False)]),
    "dynamo_schema._render._options:RenderOptions": (True, [
        ("namespace", "default"), ("operator_version", None), ("discovery_backend", "kubernetes"),
        ("grove_enabled", True), ("lws_enabled", True), ("grove_termination_delay", "15m0s"), ("nats_address", ""),
        ("etcd_address", ""), ("model_express_url", ""), ("prometheus_endpoint", ""),
        ("mpi_ssh_secret_name", "mpi-run-ssh-secret"), ("ingress_controller_class_name", ""),
        ("ingress_tls_secret_name", ""), ("ingress_host_suffix", ""), ("virtual_service_gateway", ""),
        ("kai_scheduler_enabled", False), ("volcano_scheduler_enabled", False), ("apiserver_defaults", False),
        ("worker_hash_algorithm", None), ("cluster_topology_domains", None), ("dra_enabled", False),
        ("dra_device_classes", ("gpu.nvidia.com",)), ("checkpoint_enabled", False), ("admitted", False),
        ("service_mesh", None)]),
    "dynamo_schema._render._podrequest:PodRequest": (False, [
        ("component", REQ), ("component_type", REQ), ("backend", REQ), ("dgd_name", REQ), ("namespace", REQ),
        ("role", REQ), ("nodes", REQ), ("deployer", REQ), ("service_name", REQ), ("options", REQ),
        ("path", Factory(tuple)), ("gms_rank", None)]),
    "dynamo_schema._render._checkpoint:CheckpointInfo": (False, [
        ("name", REQ), ("checkpoint_id", REQ), ("startup_policy", "Immediate"), ("targets", Factory(tuple)),
        ("ready", False)]),
    "dynamo_schema._render._pod:Ctx": (False, [
        ("dynamo_namespace", REQ), ("component_type", REQ), ("dgd_name", REQ), ("namespace", REQ),
        ("discovery_backend", REQ), ("discovery_mode", REQ), ("worker_hash", REQ),
        ("eppconfig", None)]),
}


def _ours(key: str) -> type:
    module, name = key.split(":")
    return getattr(importlib.import_module(module), name)  # type: ignore[no-any-return]


def _reference(key: str) -> type:
    frozen, spec = SPECS[key]
    cls = _ours(key)
    fields = []
    for name, default, *opts in spec:
        compare = opts[0] if opts else True
        hash_ = opts[1] if len(opts) > 1 else None
        if default is REQ:
            f = dataclasses.field(compare=compare, hash=hash_)
        elif isinstance(default, Factory):
            f = dataclasses.field(default_factory=default.make, compare=compare, hash=hash_)
        else:
            f = dataclasses.field(default=default, compare=compare, hash=hash_)
        fields.append((name, Any, f))
    ref = dataclasses.make_dataclass(cls.__name__, fields, frozen=frozen)
    ref.__qualname__ = cls.__qualname__
    return ref


def _value(name: str, variant: int) -> Any:
    # hashable, picklable, distinct per field and variant; a mapping for the non-hashed field
    if name == "cluster_topologies":
        return {f"t{variant}": ("zone", "rack")}
    return (name, variant)


def _kwargs(key: str, variant: int, *, all_fields: bool) -> dict[str, Any]:
    _, spec = SPECS[key]
    return {s[0]: _value(s[0], variant) for s in spec if all_fields or s[1] is REQ}


@pytest.mark.parametrize("key", sorted(SPECS))
def test_written_out_class_behaves_as_its_dataclass(key: str) -> None:
    ours, ref = _ours(key), _reference(key)
    frozen, spec = SPECS[key]
    names = [s[0] for s in spec]
    assert ours._FIELDS == tuple(names)  # type: ignore[attr-defined]
    # the constructor: the same parameters, order and (non-factory) defaults
    ours_params = list(inspect.signature(ours).parameters.values())
    ref_params = list(inspect.signature(ref).parameters.values())
    assert [p.name for p in ours_params] == [p.name for p in ref_params] == names
    for name, default, *_ in spec:
        p = inspect.signature(ours).parameters[name]
        if default is REQ:
            assert p.default is inspect.Parameter.empty
        elif not isinstance(default, Factory):
            assert p.default == default
    # defaults and factories (fresh objects each time, as default_factory gives)
    a, b = ours(**_kwargs(key, 0, all_fields=False)), ref(**_kwargs(key, 0, all_fields=False))
    for name, default, *_ in spec:
        assert getattr(a, name) == getattr(b, name)
        if isinstance(default, Factory) and default.make is not tuple:
            assert getattr(a, name) is not getattr(ours(**_kwargs(key, 0, all_fields=False)), name)
    assert repr(a) == repr(b)
    # positional construction, repr, equality
    full = _kwargs(key, 1, all_fields=True)
    x, y = ours(*full.values()), ref(*full.values())
    assert repr(x) == repr(y)
    assert x == ours(**full) and not (x != ours(**full))
    assert x != y  # another class: not equal (NotImplemented both ways), as between two dataclasses
    assert (x == 1) is False
    for name, _default, *opts in spec:
        changed = dict(full, **{name: _value(name, 2)})
        compare = opts[0] if opts else True
        assert (ours(**changed) == x) is (not compare) is (ref(**changed) == y)
    # hash: frozen hashes as the dataclass does; mutable is unhashable
    if frozen:
        assert hash(x) == hash(y)
        with pytest.raises(dataclasses.FrozenInstanceError):
            x.__setattr__(names[0], 3)
        with pytest.raises(dataclasses.FrozenInstanceError):
            x.__delattr__(names[0])
    else:
        with pytest.raises(TypeError):
            hash(x)
        setattr(x, names[0], "changed")
        setattr(y, names[0], "changed")
        assert repr(x) == repr(y)
    # dataclasses' functions and our _replace
    assert dataclasses.is_dataclass(x)
    assert [f.name for f in dataclasses.fields(x)] == [f.name for f in dataclasses.fields(y)]
    assert dataclasses.asdict(x) == dataclasses.asdict(y)
    r1 = dataclasses.replace(x, **{names[-1]: _value(names[-1], 5)})
    r2 = x._replace(**{names[-1]: _value(names[-1], 5)})  # type: ignore[attr-defined]
    r3 = dataclasses.replace(y, **{names[-1]: _value(names[-1], 5)})
    assert type(r1) is type(r2) is ours and r1 == r2 and repr(r1) == repr(r3)
    # copying and pickling (the -j workers pickle results)
    for clone in (copy.copy(x), copy.deepcopy(x), pickle.loads(pickle.dumps(x))):
        assert type(clone) is ours and clone == x and repr(clone) == repr(x)
    # no instance dictionary: a misspelt attribute fails as it would on a frozen dataclass
    with pytest.raises(AttributeError):
        object.__setattr__(x, "no_such_field", 1)


def test_the_public_classes_keep_their_behaviour() -> None:
    from dynamo_schema import Diagnostic, Document

    d = Diagnostic("schema.type", ("spec", 0), "bad", line=3)
    assert repr(d) == ("Diagnostic(rule='schema.type', path=('spec', 0), message='bad', severity='error', "
                       "file=None, line=3, column=None)")
    assert d.located("f.yaml", 4, 5) == Diagnostic("schema.type", ("spec", 0), "bad", "error", "f.yaml", 4, 5)
    assert {d, dataclasses.replace(d)} == {d}
    doc = Document({"kind": "X"}, positions={(): (2, 1)})
    assert doc == Document({"kind": "X"}, "<stdin>", 0, {(): (2, 1)}) and doc.kind == "X"
    assert repr(doc) == "Document(data={'kind': 'X'}, file='<stdin>', index=0, positions={(): (2, 1)}, start=(1, 1))"
