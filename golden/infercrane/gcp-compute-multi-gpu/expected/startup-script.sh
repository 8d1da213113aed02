#!/bin/sh
set -eu
infercrane_stage() { printf 'infercrane_startup stage=%s at=%s\n' "$1" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >/dev/console; }
infercrane_stage identity_start
token_json=$(curl -fsS -H 'Metadata-Flavor: Google' 'http://metadata.google.internal/computeMetadata/v1/instance/service-accounts/default/token')
access_token=$(printf '%s' "$token_json" | sed -n 's/.*"access_token"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p')
[ -n "$access_token" ] || { echo 'workload identity token unavailable' >&2; exit 1; }
secret_json=$(curl -fsS -H "Authorization: Bearer $access_token" 'https://secretmanager.googleapis.com/v1/projects/project/secrets/infercrane-worker/versions/latest:access')
secret_data=$(printf '%s' "$secret_json" | sed -n 's/.*"data"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p')
[ -n "$secret_data" ] || { echo 'worker secret payload unavailable' >&2; exit 1; }
worker_key=$(printf '%s' "$secret_data" | base64 -d)
unset token_json access_token secret_json secret_data
infercrane_stage identity_ready
infercrane_stage gpu_driver_start
gpu_run_args='--gpus all'
if command -v cos-extensions >/dev/null 2>&1; then
  systemctl is-active --quiet docker.socket || systemctl start docker.socket
  systemctl is-active --quiet gcr-online.target || systemctl start gcr-online.target
  cos-extensions install gpu
  [ -e /dev/nvidia0 ] && [ -e /dev/nvidia-uvm ] && [ -e /dev/nvidiactl ]
  gpu_run_args='--volume /var/lib/nvidia/lib64:/usr/local/nvidia/lib64:ro --volume /var/lib/nvidia/bin:/usr/local/nvidia/bin:ro --device /dev/nvidia-uvm:/dev/nvidia-uvm --device /dev/nvidiactl:/dev/nvidiactl --env LD_LIBRARY_PATH=/usr/local/nvidia/lib64'
  device_index=0; while [ "$device_index" -lt 4 ]; do [ -e "/dev/nvidia${device_index}" ] || { echo 'allocated GPU count does not match immutable revision intent' >&2; exit 1; }; gpu_run_args="$gpu_run_args --device /dev/nvidia${device_index}:/dev/nvidia${device_index}"; device_index=$((device_index + 1)); done
else
  actual_gpu_count=$(nvidia-smi --list-gpus | wc -l | tr -d ' ')
  [ "$actual_gpu_count" -eq 4 ] || { echo 'allocated GPU count does not match immutable revision intent' >&2; exit 1; }
fi
infercrane_stage gpu_driver_ready
infercrane_stage image_check
if docker image inspect 'vllm/vllm-openai@sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' >/dev/null 2>&1; then
  infercrane_stage image_cache_hit
else
  infercrane_stage image_pull_start
  docker pull 'vllm/vllm-openai@sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'
  infercrane_stage image_pull_complete
fi
infercrane_stage artifact_check
infercrane_stage artifact_cache_unconfigured
infercrane_stage runtime_start
docker run -d --restart=unless-stopped $gpu_run_args -e INFERCRANE_WORKER_API_KEY="$worker_key" -e VLLM_API_KEY="$worker_key" -p 8000:8000 'vllm/vllm-openai@sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' 'Qwen/Qwen3-8B' '--port' '8000' '--revision' '0123456789abcdef0123456789abcdef01234567' '--enable-prefix-caching'
infercrane_stage runtime_container_started
