"""Backend flag injection against upstream test tables (ai-dynamo/dynamo
deploy/operator/internal/dynamo/backend_{vllm,sglang,trtllm}_test.go) and golden-derived facts."""

from __future__ import annotations

import pytest

from dynamo_schema._render import RenderError, RenderOptions
from dynamo_schema._render._backend_detect import detect_backend, determine_backend
from dynamo_schema._render._backends import shell_quote_bash_c, update_container
from dynamo_schema._render._podrequest import PodRequest

GROVE_LDR = "$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-test-service-ldr-0.$(GROVE_HEADLESS_SERVICE)"


def req(backend: str, role: str, nodes: int, deployer: str, gpus: int = 0, annotations: dict | None = None, gpu_section: str = "limits") -> PodRequest:
    component = {
        "type": "worker",
        "podTemplate": {
            "metadata": {"annotations": annotations or {}},
            "spec": {"containers": [{"name": "main", "resources": {gpu_section: {"nvidia.com/gpu": str(gpus)}}}]},
        },
    }
    return PodRequest(component=component, component_type="worker", backend=backend, dgd_name="dgd", namespace="ns",
                      role=role, nodes=nodes, deployer=deployer, service_name="test-service", options=RenderOptions())


def test_vllm_ray_leader_legacy() -> None:
    c = {"command": ["python3", "-m", "dynamo.vllm"], "args": ["--model", "test", "--tensor-parallel-size", "8"],
         "livenessProbe": {}, "readinessProbe": {}, "startupProbe": {}}
    update_container(c, req("vllm", "leader", 3, "grove", gpus=4))
    assert c["args"] == ["ray start --head --port=6379 && python3 -m dynamo.vllm --model test --tensor-parallel-size 8 --distributed-executor-backend ray"]
    assert c["command"] == ["/bin/sh", "-c"]


def test_vllm_ray_worker_grove() -> None:
    c = {"args": ["python3", "-m", "dynamo.vllm", "--tensor-parallel-size", "16"]}
    update_container(c, req("vllm", "worker", 2, "grove", gpus=8))
    assert c["args"] == [f"ray start --address={GROVE_LDR}:6379 --block"]


def test_vllm_dp_worker_grove() -> None:
    c = {"command": ["python3"], "args": ["-m", "dynamo.vllm", "--data-parallel-size", "16"]}
    update_container(c, req("vllm", "worker", 2, "grove", gpus=8))
    want = (
        f"exec python3 -m dynamo.vllm --data-parallel-size 16 --data-parallel-hybrid-lb --data-parallel-size-local 8 "
        f"--data-parallel-start-rank $(( 8 * $((GROVE_PCLQ_POD_INDEX + 1)) )) --data-parallel-address {GROVE_LDR} --data-parallel-rpc-port 13445"
    )
    assert c["args"] == [want]
    assert c["command"] == ["sh", "-c"]


def test_vllm_single_node_untouched() -> None:
    c = {"command": ["python3"], "args": ["-m", "dynamo.vllm"]}
    update_container(c, req("vllm", "main", 1, "grove"))
    assert c == {"command": ["python3"], "args": ["-m", "dynamo.vllm"]}


def test_vllm_mp_flags_lws() -> None:
    # golden dcd/vllm-multinode-tp-args
    c = {"command": ["python3", "-m", "dynamo.vllm"], "args": ["--model", "test/model", "--tensor-parallel-size", "16"], "env": []}
    update_container(c, req("vllm", "worker", 2, "lws", gpus=8, annotations={"nvidia.com/vllm-distributed-executor-backend": "mp"}))
    assert c["args"][4:] == ["--distributed-executor-backend", "mp", "--nnodes", "2", "--master-addr", "$(LWS_LEADER_ADDRESS)",
                             "--master-port", "29500", "--node-rank", "$(LWS_WORKER_INDEX)", "--headless"]
    assert c["env"][-1] == {"name": "VLLM_NIXL_SIDE_CHANNEL_HOST", "valueFrom": {"fieldRef": {"fieldPath": "status.podIP"}}}


def test_sglang_lws_worker_direct_append() -> None:
    c = {"command": ["python3"], "args": ["-m", "dynamo.sglang", "--model", "llama"]}
    update_container(c, req("sglang", "worker", 2, "lws"))
    assert c["command"] == ["python3"]
    assert c["args"] == ["-m", "dynamo.sglang", "--model", "llama", "--dist-init-addr", "$(LWS_LEADER_ADDRESS):29500", "--nnodes", "2", "--node-rank", "$(LWS_WORKER_INDEX)"]


def test_sglang_leader_lws() -> None:
    c = {"command": ["python3"], "args": ["-m", "dynamo.sglang"]}
    update_container(c, req("sglang", "leader", 2, "lws"))
    assert c["args"] == ["-m", "dynamo.sglang", "--dist-init-addr", "$(LWS_LEADER_ADDRESS):29500", "--nnodes", "2", "--node-rank", "0"]


_SSH = ("mkdir -p $HOME/.ssh && ls -la /ssh-pk/ && cp /ssh-pk/private.key $HOME/.ssh/id_rsa && cp /ssh-pk/private.key.pub $HOME/.ssh/id_rsa.pub && "
        "cp /ssh-pk/private.key.pub $HOME/.ssh/authorized_keys && chmod 600 $HOME/.ssh/id_rsa $HOME/.ssh/authorized_keys && chmod 644 $HOME/.ssh/id_rsa.pub && "
        "printf 'Host *\\nIdentityFile '$HOME'/.ssh/id_rsa\\nStrictHostKeyChecking no\\nPort 2222\\n' > $HOME/.ssh/config && ")
_XS = ("-x CPATH -x CUDA_VISIBLE_DEVICES -x HF_DATASETS_CACHE -x HF_ENDPOINT -x HF_HOME -x HF_TOKEN -x HOME -x HUGGING_FACE_HUB_TOKEN -x LD_LIBRARY_PATH "
       "-x MODEL_PATH -x NCCL_DEBUG -x NCCL_IB_DISABLE -x NCCL_P2P_DISABLE -x OMPI_MCA_orte_keep_fqdn_hostnames -x PATH -x PYTHONPATH -x TENSORRT_LLM_CACHE_DIR "
       "-x TOKENIZERS_PARALLELISM -x TRANSFORMERS_CACHE -x TRITON_PTXAS_PATH -x TRTLLM_USE_UCX_KVCACHE -x USER")


def test_trtllm_leader_grove() -> None:
    c = {"args": ["python3", "--model", "test"]}
    r = req("trtllm", "leader", 3, "grove", gpus=2, gpu_section="requests")
    update_container(c, r)
    hosts = ",".join([GROVE_LDR] + [f"$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-test-service-wkr-{i}.$(GROVE_HEADLESS_SERVICE)" for i in (0, 1)])
    assert c["command"] == ["/bin/sh", "-c"]
    assert c["args"] == [
        _SSH + f'mpirun $([ "$(id -u)" = "0" ] && echo --allow-run-as-root) --oversubscribe -n 6 -H {hosts} --mca pml ob1 '
        f'--mca plm_rsh_args "-p 2222 -o StrictHostKeyChecking=no -i $HOME/.ssh/id_rsa" {_XS} bash -c \'trtllm-llmapi-launch python3 --model test\''
    ]
    assert c["volumeMounts"] == [{"name": "mpi-run-ssh-secret", "mountPath": "/ssh-pk", "readOnly": True}]


def test_trtllm_leader_lws_dns_wait() -> None:
    c = {"args": ["python3", "--model", "test"]}
    update_container(c, req("trtllm", "leader", 2, "lws", gpus=1))
    worker = '$(echo "$LWS_LEADER_ADDRESS" | sed \'s/\\./-1\\./\')'
    dns = (f'TIMEOUT=300; START_TIME=$(date +%s); for worker in {worker}; do echo "Waiting for DNS: $worker"; until getent hosts $worker >/dev/null 2>&1; '
           f'do CURRENT_TIME=$(date +%s); if [ $((CURRENT_TIME - START_TIME)) -gt $TIMEOUT ]; then echo "ERROR: Timeout waiting for DNS: $worker"; exit 1; fi; '
           f'echo "DNS not ready for $worker, retrying..."; sleep 2; done; echo "\u2713 DNS resolved: $worker"; done; echo "All workers DNS ready"')
    assert c["args"] == [
        _SSH + dns + f' && mpirun $([ "$(id -u)" = "0" ] && echo --allow-run-as-root) --oversubscribe -n 2 -H $(LWS_LEADER_ADDRESS),{worker} --mca pml ob1 '
        f'--mca plm_rsh_args "-p 2222 -o StrictHostKeyChecking=no -i $HOME/.ssh/id_rsa" {_XS} bash -c \'trtllm-llmapi-launch python3 --model test\''
    ]


def test_trtllm_worker_probes() -> None:
    c = {"args": ["x"], "livenessProbe": {"a": 1}, "startupProbe": {"a": 1}, "readinessProbe": {"a": 1}}
    update_container(c, req("trtllm", "worker", 2, "grove", gpus=1))
    assert "livenessProbe" not in c and "startupProbe" not in c
    assert c["readinessProbe"] == {"tcpSocket": {"port": 2222}, "initialDelaySeconds": 20, "periodSeconds": 20, "timeoutSeconds": 5, "failureThreshold": 10}


def test_inject_into_shell_arg() -> None:
    # backend_sglang_test.go "multinode shell command with complex pipeline"
    c = {"command": ["sh", "-c"], "args": ["echo blah | wc -l && python -m dynamo.sglang && ls -al"]}
    update_container(c, req("sglang", "leader", 2, "grove"))
    assert c["args"] == [f"echo blah | wc -l && python -m dynamo.sglang --dist-init-addr {GROVE_LDR}:29500 --nnodes 2 --node-rank 0 && ls -al"]


def test_shell_quote() -> None:
    assert shell_quote_bash_c("plain") == "plain"
    assert shell_quote_bash_c('{"a": 1}') == '"{\\"a\\": 1}"'
    assert shell_quote_bash_c("it's") == "\"it'\"'\"'s\""


def test_backend_detection() -> None:
    assert detect_backend(["python3", "-m", "dynamo.vllm"], []) == "vllm"
    assert detect_backend(["sh", "-c"], ["python3 -m dynamo.sglang --x"]) == "sglang"
    assert detect_backend(["/bin/sh"], []) == "noop"
    assert determine_backend("frontend", ["python3", "-m", "dynamo.vllm"], [], "trtllm") == "noop"
    assert determine_backend("worker", [], [], "trtllm") == "trtllm"
    with pytest.raises(RenderError, match='backend framework mismatch: detected "vllm" from command but explicitly configured as "sglang"'):
        determine_backend("worker", ["python3", "-m", "dynamo.vllm"], [], "sglang")
