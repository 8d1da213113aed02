"""The adapter registry: every registered adapter module is an ``Adapter`` and every member of every adapter
is called here (issue 9; ``render_part`` used to raise ``AttributeError`` for four adapters)."""

from __future__ import annotations

import inspect
import pkgutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from dynamo_schema._infercrane import AdapterError, ProviderSettings, Replica, compile_spec, load_spec, render_part
from dynamo_schema._infercrane import adapters as adapters_pkg
from dynamo_schema._infercrane._compile import ADAPTER_CLOUDS
from dynamo_schema._infercrane.adapters import DEFERRED, MODULES, Adapter, load

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "infercrane"
#: The parts upstream builds and tests on their own (skypilot.go ``run``, gcp_compute.go startup script,
#: aws_ec2.go user data); the other adapters build their whole request or manifest at once.
PARTS = {"skypilot": {"run-command"}, "gcp-compute": {"startup-script"}, "aws-ec2": {"user-data"}}


def _inputs(name: str) -> tuple[dict[str, Any], ProviderSettings, Replica]:
    directory = GOLDEN / f"{name}-single-gpu"
    data = yaml.safe_load((directory / "spec.yaml").read_text())
    settings = ProviderSettings.from_mapping(yaml.safe_load((directory / "settings.yaml").read_text()))
    spec = load_spec(data)
    replica = Replica.from_spec(spec.data, {"external_key": f"{spec.name}-r0", "request_id": "", "port": 0})
    return data, settings, replica


def test_every_adapter_module_is_registered_once() -> None:
    modules = {m.name for m in pkgutil.iter_modules(adapters_pkg.__path__)} - {"_protocol"}
    assert modules == set(MODULES.values()) and len(set(MODULES.values())) == len(MODULES)
    assert set(ADAPTER_CLOUDS) == set(MODULES) and not set(DEFERRED) & set(MODULES)


@pytest.mark.parametrize("name", list(MODULES))
def test_adapter_satisfies_the_protocol(name: str) -> None:
    adapter = load(name)
    assert isinstance(adapter, Adapter)
    assert adapter.name == name and adapter.cloud == ADAPTER_CLOUDS[name][0]
    assert len(inspect.signature(adapter.check).parameters) == 2
    assert len(inspect.signature(adapter.render).parameters) == 3
    assert set(adapter.PARTS) == PARTS.get(name, set())


@pytest.mark.parametrize("name", list(MODULES))
def test_every_member_of_every_adapter(name: str) -> None:
    adapter = load(name)
    data, settings, replica = _inputs(name)
    own = settings.adapter_settings(name)
    adapter.check(own, None)
    artifacts = adapter.render(replica, own, None)
    assert artifacts == compile_spec(data, settings, name)
    texts = [str(a.content) for a in artifacts if a.kind == "text"]
    for part, renderer in adapter.PARTS.items():
        text = renderer(replica, own)
        assert text and text == render_part(part, replica, settings, name)
        assert any(text in t for t in texts), part  # the piece is the one inside the full output
    with pytest.raises(AdapterError) as info:
        render_part("no-such-part", replica, settings, name)
    assert [d.rule for d in info.value.diagnostics] == ["infercrane.adapter.part"]
    known = ", ".join(sorted(PARTS[name])) if name in PARTS else "none (compile the replica for its artifacts)"
    assert str(info.value) == f'provider adapter "{name}" renders no part "no-such-part" on its own; its parts: {known}'


def test_render_part_of_an_unregistered_adapter() -> None:
    _, settings, replica = _inputs("skypilot")
    with pytest.raises(AdapterError, match='provider adapter "aws-eks" is not registered'):
        render_part("user-data", replica, settings, "aws-eks")
