"""``debounceMs`` as read by the server's settings (``_lsp/_settings.read_settings``)."""

from __future__ import annotations

import pytest

from dynamo_schema._lsp._settings import SettingsError, read_settings


def test_debounce_defaults_to_50_ms() -> None:
    """docs/editors.md: ``debounceMs`` defaults to 50; docs/decisions.md (Debounce): 50 ms."""  # mutant 68c42756ad0c
    assert read_settings({}).debounce == 0.05
    assert read_settings({"dynamo-schema": {}}).debounce == 0.05


def test_debounce_of_zero_checks_at_once_and_negative_is_refused() -> None:
    """docs/editors.md: ``debounceMs`` is how long after the last change the buffer is checked, a number of
    milliseconds: 0 is a duration (check at once), a negative one is none."""  # mutant 69388d8fb3a3
    assert read_settings({"dynamo-schema": {"debounceMs": 0}}).debounce == 0
    with pytest.raises(SettingsError, match="debounceMs"):
        read_settings({"dynamo-schema": {"debounceMs": -1}})
