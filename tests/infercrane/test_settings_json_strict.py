"""JSON-valued provider settings are decoded the way upstream's strict Go decoder decodes them.

``go_json_decoder.json`` holds the answers of the real Go ``encoding/json`` decoder (see its ``source``)
for each input: our ``_parse_json`` must refuse exactly what Go refuses, with upstream's prefix
(``KEY must be a JSON array of SkyPilot provider manifests: `` / ``KEY must be a JSON object of string
keys and values: `` followed by the decoder's error, ``internal/config/config.go`` ``envSkyPilotProviders``
/ ``envStringMap``), and accept what Go accepts.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dynamo_schema._infercrane._settings import SettingsError, _parse_json

DATA = json.loads((Path(__file__).parent / "go_json_decoder.json").read_text(encoding="utf-8"))["rows"]
KEY = "INFERCRANE_SKYPILOT_PROVIDERS_JSON"
PREFIX = {list: f"{KEY} must be a JSON array of SkyPilot provider manifests: ",
          dict: f"{KEY} must be a JSON object of string keys and values: "}


def _cases() -> list:
    out = []
    for row in DATA:
        for kind, answer in ((list, row["providers"]), (dict, row["string_map"])):
            # syntax errors are worded by the loader's port of Go's scanner (``_jsonscan``), literals included
            out.append(pytest.param(row["input"], kind, answer, id=f"{kind.__name__}:{row['input']}"))
    return out


@pytest.mark.parametrize("raw,kind,answer", _cases())
def test_strict_decoding_matches_go(raw: str, kind: type, answer: str) -> None:
    if not answer.startswith("ERR"):
        value = _parse_json(KEY, raw, kind)
        go_value = json.loads(answer)
        if kind is list:
            # Go marshals zero values; compare the fields that were set
            assert [{k: v for k, v in p.items() if v} for p in value] == \
                [{k: v for k, v in p.items() if v} for p in go_value or []]
        else:
            assert (value or {}) == (go_value or {})
        return
    with pytest.raises(SettingsError) as exc:
        _parse_json(KEY, raw, kind)
    text = answer[len("ERR "):]
    if text == "exactly one":
        assert str(exc.value) == f"{KEY} must contain exactly one JSON {'array' if kind is list else 'object'}"
    else:
        assert str(exc.value) == PREFIX[kind] + text


def test_unknown_manifest_field_through_settings() -> None:
    from dynamo_schema._infercrane._settings import ProviderSettings

    raw = '[{"cloud":"lambda","runtimes":["vllm"],"credential_env":["LAMBDA_API_KEY"],"region":"us"}]'
    with pytest.raises(SettingsError) as exc:
        ProviderSettings.resolve({}, {KEY: raw})
    assert str(exc.value) == PREFIX[list] + 'json: unknown field "region"'
    assert exc.value.diagnostics[0].path == (KEY,)
