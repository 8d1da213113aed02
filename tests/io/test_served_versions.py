"""Which ``apiVersion``/``kind`` pairs are served Dynamo kinds (``_core/_kinds.served``).

A CRD serves ``<spec.group>/<version>`` for each entry of ``spec.versions`` with ``served: true``; the API
server routes a request by the exact group (apimachinery ``schema.ParseGroupVersion`` splits at the last
``/``): a different group, even one that sorts before or contains ``nvidia.com``, is another API entirely.
"""

from __future__ import annotations

import pytest

from dynamo_schema._core._kinds import served


@pytest.mark.parametrize("api", ["nvidia.com/v1beta1", "nvidia.com/v1alpha1"])
def test_both_versions_of_the_graph_deployment_are_served(api: str) -> None:
    """The DynamoGraphDeployment CRD serves v1beta1 and v1alpha1 of group nvidia.com."""
    assert served(api, "DynamoGraphDeployment")


@pytest.mark.parametrize("api", ["apps.nvidia.com/v1beta1", "example.com/v1beta1", "v1beta1", "/v1beta1",
                                 "grove.io/v1alpha1", "nvidia.co/v1alpha1", "nvidia.com.evil/v1beta1"])
def test_another_group_is_not_served(api: str) -> None:
    """Only the exact group ``nvidia.com`` is the CRD's: any other group (or the core group) is not served."""
    assert not served(api, "DynamoGraphDeployment")


def test_a_version_the_kind_does_not_serve() -> None:
    """DynamoModel's CRD serves only v1alpha1."""
    assert served("nvidia.com/v1alpha1", "DynamoModel")
    assert not served("nvidia.com/v1beta1", "DynamoModel")
    assert not served("nvidia.com/v1beta1", "Widget")
