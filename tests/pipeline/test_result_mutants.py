"""Why a document is skipped (``_pipeline._result.skip_reason``; the ``policy.no-schema`` note, docs/cli.md:
``no schema for GROUP/VERSION/KIND in Kubernetes X``, ``…: not a Dynamo kind``; docs/decisions.md: ``operator
release R does not serve it`` under a release profile)."""

from __future__ import annotations

import dynamo_schema
from dynamo_schema import AdmissionSettings

WIDGET = {"apiVersion": "nvidia.com/v1alpha1", "kind": "Widget", "metadata": {"name": "w"}}


def _reason(settings: AdmissionSettings | None = None) -> tuple[str, str | None]:
    (r,) = dynamo_schema.validate(WIDGET, settings=settings)
    return r.status, r.reason


def test_an_unknown_nvidia_kind_is_skipped_with_the_release_that_does_not_serve_it() -> None:
    # mutant 54fc5ea98b3c
    assert _reason() == ("skipped", "no schema for nvidia.com/v1alpha1/Widget: not a Dynamo kind")
    assert _reason(settings=AdmissionSettings(operator_release="1.2")) == (
        "skipped", "no schema for nvidia.com/v1alpha1/Widget: operator release 1.2 does not serve it")
