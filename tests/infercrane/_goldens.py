"""Render a golden directory (``golden/infercrane/<adapter>-<single|multi>-gpu``): spec + settings in,
artifacts (or the refusal) out. Used by ``test_goldens.py``; run as a module to (re)write a golden
after reviewing the change: ``python -m tests.infercrane._goldens <dir>``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml

from dynamo_schema._infercrane import AdapterError, ProviderSettings, SpecError, compile_spec

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "infercrane"


def render(directory: Path) -> dict[str, str]:
    spec = yaml.safe_load((directory / "spec.yaml").read_text())
    settings = ProviderSettings.from_mapping(yaml.safe_load((directory / "settings.yaml").read_text()))
    adapter = directory.name.rsplit("-", 2)[0]
    out: dict[str, str] = {}
    try:
        artifacts = compile_spec(spec, settings, adapter)
    except (SpecError, AdapterError) as exc:
        body = [{"rule": d.rule, "path": list(d.path), "message": d.message} for d in exc.diagnostics]
        out["error.json"] = json.dumps(body, indent=2, sort_keys=True) + "\n"
        return out
    for item in artifacts:
        filename = item.name.replace("/", "_")
        if item.kind == "object":
            out[filename + ".json"] = json.dumps(item.content, indent=2, sort_keys=True) + "\n"
        else:
            out[filename] = str(item.content)
    return out


def write(directory: Path) -> None:
    expected = directory / "expected"
    expected.mkdir(exist_ok=True)
    for old in expected.iterdir():
        old.unlink()
    for name, text in render(directory).items():
        (expected / name).write_text(text)


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        write(GOLDEN / arg if not Path(arg).is_dir() else Path(arg))
