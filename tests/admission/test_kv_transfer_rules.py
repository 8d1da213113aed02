"""kvTransferPolicy admission rules: the policy is immutable on update (rule 53) and its
clusterTopologyName must be a valid RFC 1123 subdomain of at most 253 characters (rule 26).

Expected messages and paths come from the upstream tables at the reference revision
(ai-dynamo/dynamo@2a6da14c, ``deploy/operator/internal/webhook/validation/*_test.go``); where a table
has no case, they are built from the Go format strings named in each test (the name messages are
``k8s.io/apimachinery/pkg/util/validation``'s MaxLenError and RegexError).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from dynamo_schema._admission import AdmissionSettings
from tests.admission._admission_helpers import (
    beta_dgd,
    errors,
    run,
    run_update,
)

Mutator = Callable[[dict[str, Any]], Any]
KV_IMMUTABLE = (
    "is immutable and cannot be added, removed, or changed after creation; delete and recreate the "
    "DynamoGraphDeployment to change the KV transfer policy"
)
# k8s.io/apimachinery/pkg/util/validation: MaxLenError(253) and RegexError(dns1123SubdomainErrorMsg, ...).
MAX_LEN_253 = "must be no more than 253 characters"
DNS1123_SUBDOMAIN = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
    "start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
    r"'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
)


# ----------------------------------------------------------------------------- rule 53


def _kv_policy(d: dict[str, Any]) -> None:
    d["spec"]["experimental"] = {"kvTransferPolicy": {"labelKey": "topology.kubernetes.io/zone", "domain": "zone"}}


def test_unchanged_kv_transfer_policy_is_allowed() -> None:
    # "unchanged kv transfer policy is allowed": the explicit default enforcement equals the old one.
    diags = run_update(
        beta_dgd(_kv_policy),
        lambda d: d["spec"]["experimental"]["kvTransferPolicy"].__setitem__("enforcement", "required"),
    )
    assert errors(diags) == []


@pytest.mark.parametrize(
    "remove",
    [
        lambda d: d["spec"].pop("experimental"),
        lambda d: d["spec"]["experimental"].pop("kvTransferPolicy"),
    ],
    ids=["experimental", "kvTransferPolicy"],
)
def test_kv_transfer_policy_removal_is_immutable(remove: Mutator) -> None:
    diags = run_update(beta_dgd(_kv_policy), remove)
    assert errors(diags) == [f"spec.experimental.kvTransferPolicy: Invalid value: null: {KV_IMMUTABLE}"]
    assert {d.rule for d in diags} == {"dgd.kv-transfer-immutable"}


def test_kv_transfer_policy_addition_is_immutable() -> None:
    assert errors(run_update(beta_dgd(), _kv_policy)) == [
        'spec.experimental.kvTransferPolicy: Invalid value: {"labelKey":"topology.kubernetes.io/zone",'
        f'"domain":"zone","enforcement":"required"}}: {KV_IMMUTABLE}'
    ]


# ----------------------------------------------------------------------------- rule 26


def _kv_name(name: str) -> Mutator:
    return lambda d: d["spec"].__setitem__(
        "experimental", {"kvTransferPolicy": {"clusterTopologyName": name, "domain": "zone"}}
    )


def test_kv_transfer_topology_name_253_characters_accepted() -> None:
    name = "a" * 253
    settings = AdmissionSettings(cluster_topologies={name: ("zone", "rack")})
    assert errors(run(beta_dgd(_kv_name(name)), settings)) == []


def test_kv_transfer_topology_name_254_characters_rejected() -> None:
    name = "a" * 254
    # No binding exists: the lookup must not run once the name is invalid.
    diags = run(beta_dgd(_kv_name(name)), AdmissionSettings(cluster_topologies={}))
    assert errors(diags) == [
        f'spec.experimental.kvTransferPolicy.clusterTopologyName: Invalid value: "{name}": {MAX_LEN_253}'
    ]
    assert {d.rule for d in diags} == {"dgd.kv-transfer-topology-name"}


def test_kv_transfer_topology_name_too_long_and_malformed_joined() -> None:
    name = "A" + "a" * 253
    diags = run(beta_dgd(_kv_name(name)), AdmissionSettings(cluster_topologies={}))
    assert errors(diags) == [
        f'spec.experimental.kvTransferPolicy.clusterTopologyName: Invalid value: "{name}": '
        f"{MAX_LEN_253}; {DNS1123_SUBDOMAIN}"
    ]
