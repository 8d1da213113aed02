"""``_pipeline._default.stored_object``: mutants the suite left alive (issue 24)."""

from __future__ import annotations

import copy

from dynamo_schema._core import _kinds
from dynamo_schema._io._load import load_text
from dynamo_schema._pipeline._default import stored_object
from dynamo_schema._pipeline._validate import ValidateOptions

DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata: {name: a}
spec:
  selector: {matchLabels: {app: a}}
  template:
    metadata: {labels: {app: a}}
    spec:
      containers: [{name: c, image: i}]
"""


def test_an_extra_kind_named_like_a_builtin_does_not_change_the_builtin() -> None:
    """Kubernetes identifies a kind by group and kind: a CRD kind of the ``nvidia.com`` bundle (the registry,
    ``_core/_kinds.py``: "one KindSpec per kind of the nvidia.com CRD bundle") that happens to be called
    ``Deployment`` leaves ``apps/v1`` Deployments to the API server's own defaults."""
    # mutant f74daa887eb3 (group == "nvidia.com" and ... and kind in EXTRA_KINDS -> ... or kind in EXTRA_KINDS)
    from dynamo_schema._schema import _schemas

    schema = copy.deepcopy(_schemas.load("nvidia.com", "DynamoWorkerMetadata", "v1alpha1"))
    schema["properties"]["kind"]["const"] = "Deployment"
    schema.pop("$id", None)
    doc = load_text(DEPLOYMENT, "d.yaml")[0]
    _kinds.register(_kinds.KindSpec("Deployment", ("v1alpha1",), schemas={"v1alpha1": schema}))
    try:
        diags, stored, admitted = stored_object(doc, ValidateOptions())
    finally:
        _kinds.unregister("Deployment")
    assert admitted and diags == []
    # the apps/v1 server defaults (k8s.io/api apps/v1 SetDefaults_Deployment: replicas 1)
    assert stored["spec"]["replicas"] == 1
    assert stored == stored_object(doc, ValidateOptions())[1]
