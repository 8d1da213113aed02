#!/bin/sh
set -eu
infercrane_stage() { printf 'infercrane_startup stage=%s at=%s\n' "$1" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >/dev/console; }
infercrane_stage identity_start
worker_key=$(aws secretsmanager get-secret-value --region 'eu-central-1' --secret-id 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:worker-key' --query SecretString --output text)
infercrane_stage identity_ready
infercrane_stage accelerator_check
actual_gpu_count=$(nvidia-smi --list-gpus | wc -l | tr -d ' ')
[ "$actual_gpu_count" -eq 1 ] || { echo 'allocated GPU count does not match immutable revision intent' >&2; exit 1; }
infercrane_stage accelerator_ready
infercrane_stage image_check
if docker image inspect 'vllm/vllm-openai@sha256:953d3a06d5e64ab582985cd7401289d3abf2a2c14ef2158e9a84313daeec77d7' >/dev/null 2>&1; then
  infercrane_stage image_cache_hit
else
  infercrane_stage image_pull_start
  docker pull 'vllm/vllm-openai@sha256:953d3a06d5e64ab582985cd7401289d3abf2a2c14ef2158e9a84313daeec77d7'
  infercrane_stage image_pull_complete
fi
infercrane_stage artifact_check
infercrane_stage artifact_cache_unconfigured
infercrane_stage runtime_start
container_id=$(docker run -d --restart=unless-stopped --gpus all -e VLLM_API_KEY="$worker_key" -p 8000:8000 'vllm/vllm-openai@sha256:953d3a06d5e64ab582985cd7401289d3abf2a2c14ef2158e9a84313daeec77d7' 'Qwen/Qwen3-8B' '--port' '8000' '--revision' '0123456789abcdef0123456789abcdef01234567' '--enable-prefix-caching')
infercrane_stage runtime_container_started
docker logs --follow "$container_id" >/dev/console 2>&1 &
