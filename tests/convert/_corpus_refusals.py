"""What ``convert`` does with each file of ../shared/reference/dynamo/corpus: the files it refuses (exit 1)
with the rule ids of their errors. ``convert`` validates its input first (docs/cli.md); every file not listed
converts (v1alpha1) or comes out byte for byte (v1beta1 to v1beta1). A change to this table is a visible change
of what the operator would admit: the refusals are the admission findings checked against the operator-verified
cases elsewhere (dgd.runtime-version-override-required: the image tag has no runtime version the operator can
read; dgd.main-image-required / dcd.main-image-required: no image; metadata.invalid-namespace: a Helm-style
placeholder namespace; reconcile.dra-unavailable: a DRA claim on a cluster without DRA)."""

from __future__ import annotations

REFUSED_V1BETA1: dict[str, tuple[str, ...]] = {
    'components__src__dynamo__profiler__templates__dgd__sglang__disagg.yaml': ('dgd.runtime-version-override-required',),
    'components__src__dynamo__profiler__templates__dgd__trtllm__agg.yaml': ('dgd.runtime-version-override-required',),
    'components__src__dynamo__profiler__templates__dgd__vllm__agg.yaml': ('dgd.runtime-version-override-required',),
    'components__src__dynamo__profiler__templates__dgd__vllm__disagg.yaml': ('dgd.runtime-version-override-required',),
    'deploy__operator__samples__dgd-gms-failover.yaml': ('reconcile.dra-unavailable',),
    'examples__backends__mocker__deploy__disagg.yaml': ('dgd.runtime-version-override-required',),
    'examples__backends__sglang__deploy__agg.yaml': ('dgd.runtime-version-override-required',),
    'examples__backends__sglang__deploy__agg_gms.yaml': ('dgd.runtime-version-override-required',),
    'examples__backends__sglang__deploy__disagg-multinode.yaml': ('dgd.runtime-version-override-required',),
    'examples__backends__sglang__deploy__disagg_planner.yaml': ('dgd.runtime-version-override-required',),
    'examples__backends__trtllm__deploy__agg.yaml': ('dgd.runtime-version-override-required',),
    'examples__backends__trtllm__deploy__agg_router.yaml': ('dgd.runtime-version-override-required',),
    'examples__backends__trtllm__deploy__disagg-multinode.yaml': ('dgd.runtime-version-override-required',),
    'examples__backends__trtllm__deploy__disagg.yaml': ('dgd.runtime-version-override-required',),
    'examples__backends__trtllm__deploy__disagg_router.yaml': ('dgd.runtime-version-override-required',),
    'examples__backends__trtllm__deploy__snapshot-restore.yaml': ('dgd.checkpoint-disabled', 'dgd.runtime-version-override-required'),
    'examples__backends__vllm__deploy__agg.yaml': ('dgd.runtime-version-override-required',),
    'examples__backends__vllm__deploy__agg_failover.yaml': ('dgd.runtime-version-override-required',),
    'examples__backends__vllm__deploy__agg_gms.yaml': ('dgd.runtime-version-override-required',),
    'examples__backends__vllm__deploy__agg_kvbm.yaml': ('dgd.runtime-version-override-required',),
    'examples__backends__vllm__deploy__agg_router.yaml': ('dgd.runtime-version-override-required',),
    'examples__backends__vllm__deploy__agg_router_kv_approx.yaml': ('dgd.runtime-version-override-required',),
    'examples__backends__vllm__deploy__agg_tracing.yaml': ('dgd.runtime-version-override-required',),
    'examples__backends__vllm__deploy__disagg-multinode.yaml': ('dgd.runtime-version-override-required',),
    'examples__backends__vllm__deploy__disagg.yaml': ('dgd.runtime-version-override-required',),
    'examples__backends__vllm__deploy__disagg_kvbm_2p2d.yaml': ('dgd.runtime-version-override-required',),
    'examples__backends__vllm__deploy__disagg_kvbm_tp2.yaml': ('dgd.runtime-version-override-required',),
    'examples__backends__vllm__deploy__disagg_planner.yaml': ('dgd.runtime-version-override-required',),
    'examples__backends__vllm__deploy__disagg_router.yaml': ('dgd.runtime-version-override-required',),
    'examples__backends__vllm__deploy__disagg_tracing.yaml': ('dgd.runtime-version-override-required',),
    'examples__backends__vllm__deploy__gaie__agg.yaml': ('dgd.runtime-version-override-required',),
    'examples__backends__vllm__deploy__gaie__disagg.yaml': ('dgd.runtime-version-override-required',),
    'examples__backends__vllm__deploy__lora__agg_lora_hf.yaml': ('dgd.runtime-version-override-required',),
    'examples__backends__vllm__deploy__xpu__agg_router_kv_approx_xpu_dra.yaml': ('dgd.runtime-version-override-required',),
    'examples__backends__vllm__deploy__xpu__agg_router_xpu_dra.yaml': ('dgd.runtime-version-override-required',),
    'examples__backends__vllm__deploy__xpu__agg_xpu_dra.yaml': ('dgd.runtime-version-override-required',),
    'examples__backends__vllm__deploy__xpu__disagg_router_xpu_dra.yaml': ('dgd.runtime-version-override-required',),
    'examples__backends__vllm__deploy__xpu__disagg_tracing_xpu_dra.yaml': ('dgd.runtime-version-override-required',),
    'examples__custom_backend__hello_world__deploy__hello_world.yaml': ('dgd.runtime-version-override-required',),
    'examples__deployments__GKE__sglang__disagg.yaml': ('dgd.runtime-version-override-required',),
    'examples__deployments__GKE__vllm__disagg.yaml': ('dgd.runtime-version-override-required',),
    'examples__diffusers__deploy__agg.yaml': ('dgd.runtime-version-override-required',),
    'examples__diffusers__deploy__agg_user_workload.yaml': ('dgd.runtime-version-override-required',),
    'examples__global_planner__global-planner-gpu-budget.yaml': ('dgd.runtime-version-override-required',),
    'examples__global_planner__global-planner-mocker-test.yaml': ('dgd.runtime-version-override-required',),
    'examples__global_planner__global-planner-vllm-test.yaml': ('dgd.runtime-version-override-required',),
    'examples__power-aware-budget__dgd.yaml': ('dgd.main-image-required',),
}

REFUSED_V1ALPHA1: dict[str, tuple[str, ...]] = {
    'components__src__dynamo__planner__tests__data__profiling_results__H200_TP1P_TP1D__disagg.yaml': ('dgd.runtime-version-override-required',),
    'components__src__dynamo__planner__tests__manual__perf_test_configs__agg_8b.yaml': ('dgd.runtime-version-override-required',),
    'components__src__dynamo__planner__tests__manual__perf_test_configs__disagg_8b_2p2d.yaml': ('dgd.runtime-version-override-required',),
    'components__src__dynamo__planner__tests__manual__perf_test_configs__disagg_8b_tp2.yaml': ('dgd.runtime-version-override-required',),
    'components__src__dynamo__planner__tests__manual__scaling__disagg_planner_load.yaml': ('dgd.runtime-version-override-required',),
    'deploy__operator__config__samples__nvidia.com_v1alpha1_dynamocomponentdeployment.yaml': ('dcd.main-image-required',),
    'deploy__operator__config__samples__nvidia.com_v1alpha1_dynamographdeployment.yaml': ('dgd.components-required',),
    'deploy__utils__tests__fixtures__v1alpha1__agg.yaml': ('dgd.runtime-version-override-required',),
    'deploy__utils__tests__fixtures__v1alpha1__disagg.yaml': ('dgd.runtime-version-override-required',),
    'deploy__utils__tests__fixtures__v1alpha1__disagg_router.yaml': ('dgd.runtime-version-override-required',),
    'recipes__deepseek-v4__deepseek-v4-pro__sglang__agg-gb200__deploy.yaml': ('metadata.invalid-namespace',),
    'recipes__deepseek-v4__deepseek-v4-pro__sglang__disagg-b200__deploy.yaml': ('metadata.invalid-namespace',),
    'recipes__deepseek-v4__deepseek-v4-pro__sglang__disagg-gb200__deploy.yaml': ('metadata.invalid-namespace',),
    'recipes__deepseek-v4__deepseek-v4-pro__vllm__disagg__gb200__deploy.yaml': ('dgd.grove-name-length',),
    'recipes__glm-5-nvfp4__sglang__disagg__deploy.yaml': ('metadata.invalid-namespace',),
    'recipes__glm-5-nvfp4__sglang__disagg__efa__deploy.yaml': ('metadata.invalid-namespace',),
    'recipes__kimi-k2.5__trtllm__agg-eagle-kv-router__deploy.yaml': ('dgd.runtime-version-override-required',),
    'recipes__kimi-k2.5__trtllm__agg-eagle-round-robin__deploy.yaml': ('dgd.runtime-version-override-required',),
    'recipes__kimi-k2.5__trtllm__agg-round-robin__deploy.yaml': ('dgd.runtime-version-override-required',),
    'recipes__kimi-k2.5__trtllm__disagg-eagle-kv-router__deploy.yaml': ('dgd.runtime-version-override-required',),
    'recipes__kustomize__components__aks-ib__patch-dgd.yaml': ('dgd.main-image-required',),
    'recipes__kustomize__components__aws-efa-p8d16__patch-dgd.yaml': ('dgd.main-image-required',),
    'recipes__kustomize__components__aws-efa-p8d8__patch-dgd.yaml': ('dgd.main-image-required',),
    'recipes__kustomize__components__disagg-workers__aws-efa__patch-dgd.yaml': ('dgd.main-image-required',),
    'recipes__kustomize__components__disagg-workers__gke-roce__patch-dgd.yaml': ('dgd.main-image-required',),
    'recipes__kustomize__components__disagg-workers__nebius-ib__patch-dgd.yaml': ('dgd.main-image-required',),
    'recipes__kustomize__components__disagg-workers__nscale-ib__patch-dgd.yaml': ('dgd.main-image-required',),
    'recipes__kustomize__components__disagg-workers__rdma-defaults__patch-dgd.yaml': ('dgd.main-image-required',),
    'recipes__kustomize__components__vllm-disagg__aws-efa__patch-dgd.yaml': ('dgd.main-image-required',),
    'recipes__kustomize__components__vllm-disagg__nebius-ib__patch-dgd.yaml': ('dgd.main-image-required',),
    'recipes__kustomize__components__vllm-disagg__nixl-default__patch-dgd.yaml': ('dgd.main-image-required',),
    'recipes__nemotron-3-nano-omni__vllm__agg__deploy.yaml': ('dgd.runtime-version-override-required',),
    'recipes__qwen3-32b__vllm__cloud-providers__kustomize__components__gke-image-pull-secret__patch-dgd.yaml': ('dgd.main-image-required',),
    'recipes__qwen3.6-35b__deploy__dynamo-fd-ec.yaml': ('schema.type',),
    'tests__fault_tolerance__deploy__templates__vllm__multinode_elastic_ep.yaml': ('dgd.runtime-version-override-required',),
}

#: v1beta1 corpus files holding a document that the conversion to v1beta1 changes: none (the one v1alpha1
#: document among them, agg_lora_hf.yaml's DynamoModel, is of a kind served only as v1alpha1 and is kept
#: as written, docs/decisions.md D50)
CHANGED_BY_TO_V1BETA1: frozenset[str] = frozenset()
