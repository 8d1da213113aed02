"""Grove scheduler options: the volcano and kai-scheduler integrations (scheduler name, queue annotation or
label, user schedulers kept, mutual exclusion and its precedence after the update-strategy check) and the
priority class.

Expected values come from upstream code and tests at the reference revision (ai-dynamo/dynamo
2a6da14c, ``deploy/operator/`` prefix omitted); each test names its source.
"""

from __future__ import annotations

from typing import Any

import pytest

from dynamo_schema._render import RenderError

from ._grove_fixtures import _dgd, _grove

# ---------------------------------------------------------------- Grove scheduler options
# grove.go injectKaiSchedulerIfEnabled / injectVolcanoSchedulerIfEnabled / injectVolcanoQueueAnnotation /
# resolveKaiSchedulerQueueName; graph.go resolveGroveSchedulerQueue; graph_test.go
# TestGenerateGrovePodCliqueSet_{MetadataVolcanoQueuePropagation,VolcanoSchedulerInjection,
# SchedulerIntegrationMutualExclusion,PriorityClassName}; grove_test.go TestResolveKaiSchedulerQueueName,
# TestInjectKaiSchedulerIfEnabled, TestInjectVolcanoSchedulerIfEnabled.

WORKER = {"name": "worker", "type": "worker", "replicas": 1}
VOLCANO_ANN = "nvidia.com/volcano-queue"
GROVE_VOLCANO_ANN = "scheduling.grove.io/volcano-queue"

VOLCANO_QUEUE_CASES = [
    ("metadata annotation maps to grove annotation", {VOLCANO_ANN: "qa-volcano-e2e"}, None, True, "qa-volcano-e2e"),
    ("metadata annotation trimmed, wins over spec", {VOLCANO_ANN: " metadata-queue "}, {GROVE_VOLCANO_ANN: "spec-queue"}, True, "metadata-queue"),
    ("whitespace metadata does not override spec", {VOLCANO_ANN: " \t "}, {GROVE_VOLCANO_ANN: "spec-queue"}, True, "spec-queue"),
    ("whitespace metadata ignored", {VOLCANO_ANN: " \t "}, None, True, None),
    ("spec annotation is a pass-through", None, {GROVE_VOLCANO_ANN: "spec-queue"}, True, "spec-queue"),
    ("ignored when volcano integration is off", {VOLCANO_ANN: "qa-volcano-e2e"}, None, False, None),
]


@pytest.mark.parametrize(("meta_ann", "spec_ann", "volcano", "want"), [c[1:] for c in VOLCANO_QUEUE_CASES],
                         ids=[c[0] for c in VOLCANO_QUEUE_CASES])
def test_volcano_queue_annotation(meta_ann: Any, spec_ann: Any, volcano: bool, want: Any) -> None:
    spec = {"annotations": spec_ann} if spec_ann else {}
    pcs = _grove(_dgd([dict(WORKER)], meta_annotations=meta_ann, **spec), volcano_scheduler_enabled=volcano)
    assert (pcs["metadata"].get("annotations") or {}).get(GROVE_VOLCANO_ANN) == want


def test_volcano_scheduler_injection() -> None:
    pcs = _grove(_dgd([dict(WORKER)], meta_annotations={VOLCANO_ANN: "gpu-training"}), volcano_scheduler_enabled=True)
    assert pcs["metadata"]["annotations"][GROVE_VOLCANO_ANN] == "gpu-training"
    assert pcs["spec"]["template"]["cliques"][0]["spec"]["podSpec"]["schedulerName"] == "volcano"
    assert "kai.scheduler/queue" not in pcs["spec"]["template"]["cliques"][0]["labels"]


def _with_scheduler(name: str) -> dict[str, Any]:
    return dict(WORKER, podTemplate={"spec": {"schedulerName": name, "containers": [{"name": "main", "image": "img"}]}})


@pytest.mark.parametrize(("initial", "want"), [("manual-scheduler", "manual-scheduler"), ("volcano", "volcano")])
def test_volcano_respects_user_scheduler(initial: str, want: str) -> None:
    pcs = _grove(_dgd([_with_scheduler(initial)]), volcano_scheduler_enabled=True)
    assert pcs["spec"]["template"]["cliques"][0]["spec"]["podSpec"]["schedulerName"] == want


@pytest.mark.parametrize(("annotation", "queue"), [(None, "dynamo"), ("", "dynamo"), ("custom-queue", "custom-queue"),
                                                   ("  custom-queue  ", "custom-queue")])
def test_kai_scheduler_queue(annotation: Any, queue: str) -> None:
    ann = None if annotation is None else {"nvidia.com/kai-scheduler-queue": annotation}
    clique = _grove(_dgd([dict(WORKER)], meta_annotations=ann), kai_scheduler_enabled=True)["spec"]["template"]["cliques"][0]
    assert clique["spec"]["podSpec"]["schedulerName"] == "kai-scheduler"
    assert clique["labels"]["kai.scheduler/queue"] == queue


def test_kai_respects_manual_scheduler() -> None:
    clique = _grove(_dgd([_with_scheduler("manual-scheduler")]), kai_scheduler_enabled=True)["spec"]["template"]["cliques"][0]
    assert clique["spec"]["podSpec"]["schedulerName"] == "manual-scheduler"
    assert "kai.scheduler/queue" not in clique["labels"]


def test_no_scheduler_injection_by_default() -> None:
    pcs = _grove(_dgd([dict(WORKER)], meta_annotations={VOLCANO_ANN: "q"}))
    assert "schedulerName" not in pcs["spec"]["template"]["cliques"][0]["spec"]["podSpec"]
    assert GROVE_VOLCANO_ANN not in (pcs["metadata"].get("annotations") or {})


def test_scheduler_integrations_mutually_exclusive() -> None:
    with pytest.raises(RenderError) as exc:
        _grove(_dgd([dict(WORKER)]), kai_scheduler_enabled=True, volcano_scheduler_enabled=True)
    assert "kai-scheduler and volcano scheduler integrations cannot both be enabled" in str(exc.value)


def test_update_strategy_error_precedes_scheduler_error() -> None:
    # GenerateGrovePodCliqueSet checks groveUpdateStrategyFromAnnotations before resolveGroveSchedulerQueue.
    dgd = _dgd([dict(WORKER)], meta_annotations={"nvidia.com/grove-update-strategy": "Bogus"})
    with pytest.raises(RenderError) as exc:
        _grove(dgd, kai_scheduler_enabled=True, volcano_scheduler_enabled=True)
    assert "unsupported Grove update strategy annotation" in str(exc.value)


def test_priority_class_name() -> None:
    pcs = _grove(_dgd([dict(WORKER)], priorityClassName="high-priority"))
    assert pcs["spec"]["template"]["priorityClassName"] == "high-priority"
    assert "priorityClassName" not in _grove(_dgd([dict(WORKER)]))["spec"]["template"]
