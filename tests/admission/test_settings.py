from __future__ import annotations

import pytest

from dynamo_schema._admission import BUNDLED_OPERATOR_VERSION, AdmissionSettings


def test_defaults() -> None:
    s = AdmissionSettings()
    assert s.grove_enabled and s.gpu_discovery_enabled and s.inference_pool_available
    assert not s.checkpoint_enabled and not s.lpx_enabled
    assert s.lws_enabled  # multinode without Grove renders LeaderWorkerSets (upstream golden dcd/lws)
    assert s.operator_version == BUNDLED_OPERATOR_VERSION == "1.5.0"
    assert s.discovery_backend == "kubernetes"
    assert s.cluster_topologies is None


def test_from_mapping_coerces_cli_strings() -> None:
    s = AdmissionSettings.from_mapping(
        {
            "grove-enabled": "false",
            "checkpoint_enabled": "yes",
            "operator_version": "1.4.0",
            "cluster_topologies": "grove-topology=zone,rack;other=host",
        }
    )
    assert (s.grove_enabled, s.checkpoint_enabled, s.operator_version) == (False, True, "1.4.0")
    assert s.cluster_topologies == {"grove-topology": ("zone", "rack"), "other": ("host",)}
    assert AdmissionSettings.from_mapping({"cluster_topologies": {"t": ["a", "b"]}}).cluster_topologies == {
        "t": ("a", "b")
    }


def test_from_mapping_rejects_unknown_keys_and_bad_values() -> None:
    with pytest.raises(ValueError, match="unknown admission setting 'grove'"):
        AdmissionSettings.from_mapping({"grove": True})
    with pytest.raises(ValueError, match="must be a boolean"):
        AdmissionSettings.from_mapping({"lws_enabled": "maybe"})
