"""The project's record of the upstream render test rows (ours, not upstream data).

``OUT_OF_SCOPE``: test functions not ported, with the reason (they test controller state, cluster reads
or Go plumbing, not what rendering produces). Every other function of ``INDEX.json`` has an adapter.

``XFAIL``: ported rows that fail against our render code, ``"<function>/<row>"`` → the operator behaviour
we lack (``"<function>/"`` for a test without subtests). They run as ``xfail(strict=True)``: a row that
starts passing fails the run until its line here is deleted. ``"pending: <id>"`` marks a row that waits
on another change in flight.
"""

from __future__ import annotations

_CHECKPOINT = ("checkpoint/restore: needs DynamoCheckpoint objects and their status from the cluster; render has no "
               "checkpoint input")
_TEST_HELPER = ("exercises a helper defined in the test files (test_beta_helpers_test.go) on v1alpha1 DCD objects, not "
                "operator render code")
_GO_TYPES = "Go type/enum plumbing (constants, struct fields), no rendered output"
_PULL_SECRETS = ("image pull secrets are discovered from the namespace's docker-registry Secrets (SecretsRetriever, a "
                 "cluster read); render has no such input")
_RESTART = "restart orchestration state derived from the DGD status and live objects (controller state machine), not rendering"
_ROLLING = "rolling-update progress derived from live status (controller state), not rendering"
_QUEUES = "reads or creates scheduler Queue objects in the cluster (client calls), not rendering"
_READINESS = "controller status: readiness of live Grove objects (PodClique/PCSG status, revisions), not rendering"
_SORT_ENV = "exercises sortEnvVars, a helper defined only in the test files (no operator code uses it)"
_RECONCILER = ("reconciler behaviour against a fake client (create/update/delete, status conditions, replica "
               "reconciliation, readiness), not rendering")
_RECONCILER_RESTORE = ("reconciler behaviour against a fake client (create/update/delete, status conditions, replica "
                       "reconciliation), not rendering")

OUT_OF_SCOPE: dict[str, str] = {
    **dict.fromkeys([
        "TestGenerateGrovePodCliqueSet_InjectsReadyCheckpointRestore",
        "TestGenerateLabels_RemovesStaleRestoreLabelsWhenCheckpointNotReady",
        "TestGenerateLabels_OverwritesStaleRestoreLabelsWhenCheckpointReady",
        "TestGenerateLabels_ReassertsRestoreIdentityLabelsAfterMetadataMerge",
        "TestGenerateGrovePodCliqueSet_GMSPodsAreNotCheckpointTargets",
        "TestGenerateGrovePodCliqueSet_IntraPodFailoverCheckpointTargets",
        "TestGenerateGrovePodCliqueSet_WaitForCheckpointGatesPodCliqueScalingGroup",
    ], _CHECKPOINT),
    **dict.fromkeys(["Test_updateDynDeploymentConfig", "Test_overrideWithDynDeploymentConfig"], _TEST_HELPER),
    **dict.fromkeys(["TestRoleEnum", "TestBackendFrameworkEnum", "TestServiceRoleStruct"], _GO_TYPES),
    "TestGenerateBasePodSpec_DisableImagePullSecretDiscovery": _PULL_SECRETS,
    **dict.fromkeys(["TestDetermineGroveRestartState", "TestGroveRestartStateShouldAnnotateComponent",
                     "TestGenerateGrovePodCliqueSet_RestartAnnotations"], _RESTART),
    "TestRollingUpdateContext_InProgress": _ROLLING,
    **dict.fromkeys(["TestResolveKaiSchedulerQueueName", "TestResolveKaiSchedulerQueue", "TestEnsureQueueExists"], _QUEUES),
    **dict.fromkeys([
        "TestCheckPodCliqueReady", "TestCheckPCSGReady", "TestEvaluateGroveReadiness",
        "TestEvaluateGroveReadinessPublishesWorkerRuntimeNamespaceAfterCutover",
        "TestEvaluateGroveReadinessSwitchesWorkersAtomically",
        "TestEvaluateGroveReadinessPreservesPreviousWorkerNamespaceWithoutPodCliqueSet",
        "TestEvaluateGroveReadinessRejectsInvalidAcceptedWorkerPodCliqueSet",
        "TestEvaluateGroveReadinessPublishesAcceptedNamespaceForZeroReplicaWorkers",
        "TestEvaluateGroveReadinessReadsEachGroveChildOnce",
        "TestGroveComponentRevisionStateHasCompletedAcceptedPCSRevision",
        "TestCheckPodCliqueReadyClassification", "TestCheckPCSGReadyClassification",
        "TestGroveReadinessTransientErrorsPropagate",
    ], _READINESS),
    "TestSortEnvVars": _SORT_ENV,
    **dict.fromkeys([
        "TestDynamoComponentDeploymentReconcileRejectsStoredCheckpointIncompatibilityBeforeSideEffects",
        "TestDynamoComponentDeploymentReconcileFinalizesDeletingStoredCheckpointIncompatibility",
        "TestIsDeploymentReady", "TestDynamoComponentDeploymentReconciler_createOrUpdateOrDeleteDeployments_ReplicaReconciliation",
        "Test_createOrUpdateOrDeleteDeployments_K8sAPIDefaults", "Test_reconcileLeaderWorkerSetResources",
        "Test_reconcileLeaderWorkerSetResources_UpgradesLegacyIndexedLWSReplicas", "Test_reconcileDeploymentResources",
        "Test_reconcileDeploymentResources_DoesNotRecycleFailedRestorePods", "Test_setStatusConditionAndServiceReplicaStatus",
    ], _RECONCILER),
    **dict.fromkeys(["TestDynamoComponentDeploymentReconciler_generatePodTemplateSpec_RestoreLabels",
                     "TestDynamoComponentDeploymentReconciler_generateDeployment_RestoreStrategy"], _RECONCILER_RESTORE),
}

# ---------------------------------------------------------------- expected failures

_DRA_GPUS = ("DRA: the container GPU count comes from the claimed ResourceClaimTemplate's device requests "
             "(ResolveContainerGPUs reads the template and its DeviceClass from the cluster); render counts only "
             "nvidia.com/gpu resources, so a DRA-only container has 0 GPUs")
_LIVE_WORKLOAD = ("the legacy worker selector is read from the existing Deployment or LeaderWorkerSet "
                  "(hasExistingLegacyWorkerSelector, a cluster read); render has no live objects")
_SERVICE_ACCOUNT = ("a DCD pod without a service account gets the first ServiceAccount of its namespace labelled "
                    "nvidia.com/dynamo-component-pod=true (dynamocomponentdeployment_renderer.go generatePodTemplateSpec, a "
                    "cluster read); render, without cluster state, uses 'default'")
_ROLLING_TARGETS = ("during a rolling update the new worker DCD's replicas come from "
                    "RollingUpdateContext.NewWorkerReplicaTargetsByComponent (derived from the live DCDs); render takes "
                    "no rolling-update state")

XFAIL: dict[str, str] = {
    # DRA: GPUs counted from ResourceClaimTemplates
    "TestGenerateGrovePodCliqueSet_VLLMMultinodeDRA/": _DRA_GPUS,
    "TestGenerateGrovePodCliqueSet_TRTLLMMultinodeDRA/": _DRA_GPUS,
    "TestRenderMultinodePodTemplateSpecs_VLLMMultinodeDRA/": _DRA_GPUS,
    # cluster state render has no input for
    "TestDynamoComponentDeploymentReconciler_generateLeaderWorkerSet/generateLeaderWorkerSet_-_nominal_case": _SERVICE_ACCOUNT,
    "TestDynamoComponentDeploymentReconciler_LegacyAlphaWorkloadComponentType/": _LIVE_WORKLOAD,
    "TestDynamoComponentDeploymentReconciler_LegacyAlphaWorkloadComponentTypeWithoutWorkerHash/": _LIVE_WORKLOAD,
    "TestDynamoComponentDeploymentReconciler_LegacyAlphaWorkloadComponentTypeFromLeaderWorkerSet/": _LIVE_WORKLOAD,
    "TestGenerateSingleDCD_RollingUpdateContext/": _ROLLING_TARGETS,
    "TestGenerateSingleDCD_RollingUpdateZeroReplicas/": _ROLLING_TARGETS,
}
