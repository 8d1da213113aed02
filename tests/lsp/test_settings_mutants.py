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


def test_operator_config_gives_the_admission_settings(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # the editor reads the same OperatorConfiguration as --operator-config; `settings` wins over it
    f = tmp_path / "operator-config.yaml"
    f.write_text("apiVersion: operator.config.dynamo.nvidia.com/v1alpha1\nkind: OperatorConfiguration\n"
                 "orchestrators:\n  grove:\n    enabled: false\ndra:\n  enabled: true\n")
    s = read_settings({"dynamo-schema": {"operatorConfig": str(f)}}).options.settings
    assert (s.grove_enabled, s.dra_enabled) == (False, True)
    s = read_settings({"operatorConfig": str(f), "settings": {"grove_enabled": True}}).options.settings
    assert (s.grove_enabled, s.dra_enabled) == (True, True)
    f.write_text("apiVersion: v1\nkind: ConfigMap\n")
    with pytest.raises(SettingsError, match="operator config must be apiVersion"):
        read_settings({"operatorConfig": str(f)})
    with pytest.raises(SettingsError, match="must be the path"):
        read_settings({"operatorConfig": 3})
