"""Comment-keeping ``convert`` output (``_io._roundtrip``): blank lines and list-item comments of the source.

Expected values: the converted data is ``_convert.to_v1beta1`` of the input (the converter has its own
upstream-evidenced tests); the comments and blank lines are the ones written in the inputs below and must
reappear next to the node they annotate (docs/cli.md: ``convert`` keeps comments and order)."""

from __future__ import annotations

from dynamo_schema._convert._v1alpha1 import to_v1beta1
from dynamo_schema._io._load import load_text
from dynamo_schema._io._roundtrip import dump_with_comments, same_data

SRC = """\
apiVersion: nvidia.com/v1alpha1
kind: DynamoGraphDeployment
metadata:
  name: demo


spec:
  backendFramework: vllm
  services:
    Frontend:
      componentType: frontend
      envs:
        # env comment
        - name: LOG_LEVEL
          value: debug
      extraPodSpec:
        mainContainer:
          args:
            # first argument
            - --port
            - "8000"
"""


def _beta() -> list[str]:
    docs = load_text(SRC)
    new = [to_v1beta1(d.data) for d in docs]
    out = dump_with_comments(SRC, docs, new)
    assert out is not None
    assert same_data([d.data for d in load_text(out)], new)
    return out.splitlines()


def test_a_run_of_blank_lines_between_keys_is_kept_as_one_blank_line() -> None:
    """Two blank lines between ``metadata`` and ``spec`` (YAML ignores them) come out as one separating blank line."""
    lines = _beta()
    i = lines.index("spec:")
    assert lines[i - 1] == ""
    assert lines[i - 2].strip() != ""


def test_comments_above_list_items_follow_the_items_to_v1beta1() -> None:
    """A comment above an ``envs`` item / an ``args`` item stays above that item in the v1beta1 container."""
    lines = [line.strip() for line in _beta()]
    env = lines.index("# env comment")
    assert lines[env + 1] == "- name: LOG_LEVEL"
    arg = lines.index("# first argument")
    assert lines[arg + 1] == "- --port"


def test_same_data_tells_different_data_apart() -> None:
    """YAML data equality as Kubernetes sees it: a changed value or a bool for an int is different data."""
    assert same_data({"a": 1, "b": [1, "x"]}, {"b": [1, "x"], "a": 1})
    assert not same_data({"a": 1}, {"a": 2})
    assert not same_data({"a": True}, {"a": 1})
    assert not same_data([{"name": "x"}], [{"name": "x"}, {"name": "y"}])


def _convert(text: str, fn: object = to_v1beta1) -> list[str]:
    docs = load_text(text)
    new = [fn(d.data) for d in docs]  # type: ignore[operator]
    out = dump_with_comments(text, docs, new)
    assert out is not None
    assert same_data([d.data for d in load_text(out)], new)
    return out.splitlines()


ONE = """\
apiVersion: nvidia.com/v1alpha1
kind: DynamoGraphDeployment
metadata:
  name: demo
spec:
  services:
    # TODO tune
    Frontend:
      componentType: frontend
      replicas: 1  # one replica
      envs:
        - name: A
          value: "plain"  # quoted
      extraPodSpec:
        mainContainer:
          image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.5.0
          resources:
            limits:
              cpu: "2"  # the cpu
              memory: 1Gi  # the memory
"""


def test_a_blank_line_after_the_header_comment_is_kept() -> None:
    """Comments and blank lines before the first node are the document's header, written as they were
    (mutant 9667c9f7b324)."""
    assert _convert("# header\n\n" + ONE)[:3] == ["# header", "", "apiVersion: nvidia.com/v1beta1"]


def test_a_quoted_string_keeps_its_quotes() -> None:
    """A value written in double quotes that needs none keeps them (mutant 6ddd6dd493d3)."""
    lines = [line.strip() for line in _convert(ONE)]
    assert 'value: "plain"  # quoted' in lines


def test_content_after_the_document_marker_is_not_copied() -> None:
    """A ``--- !!map`` marker line: the tag is data (dropped by the round trip), the marker is written as
    ``---`` and the comments are still kept (mutant 530f82dac512)."""
    lines = _convert("--- !!map\n" + ONE)
    assert lines[:2] == ["---", "apiVersion: nvidia.com/v1beta1"]
    assert "    # TODO tune" in lines


def test_back_to_v1alpha1_component_field_comments_stay_on_their_field() -> None:
    """``replicas`` keeps its end-of-line comment on the way back; it does not move to
    ``extraPodMetadata``'s place (mutant 61c154e6384d)."""
    from dynamo_schema._convert._v1alpha1 import to_v1alpha1

    back = [line.strip() for line in _convert("\n".join(_convert(ONE)) + "\n", to_v1alpha1)]
    assert "replicas: 1  # one replica" in back


def test_back_to_v1alpha1_main_container_limit_comments_stay_on_their_key() -> None:
    """Only the v1alpha1 ``gpu`` limit is renamed (to ``nvidia.com/gpu``); ``cpu`` and ``memory`` of the
    main container keep their own comments, in their order (mutants 135aa52d9827 a2ef053adde1 32c6ccc2f016)."""
    from dynamo_schema._convert._v1alpha1 import to_v1alpha1

    back = [line.strip() for line in _convert("\n".join(_convert(ONE)) + "\n", to_v1alpha1)]
    i = back.index("limits:")
    assert back[i + 1] == 'cpu: "2"  # the cpu'
    assert back[i + 2].startswith("memory: 1Gi") and back[i + 2].endswith("# the memory")


def test_a_blank_line_after_a_header_comment_is_kept_when_the_file_starts_blank() -> None:
    """The blank line that follows a header comment stays, whatever the file's first line is (the test
    looks at the line before the blank one, not at line 0; mutant cae0f191dc74)."""
    lines = _convert("\n# header\n\n" + ONE)
    i = lines.index("# header")
    assert lines[i + 1:i + 3] == ["", "apiVersion: nvidia.com/v1beta1"]


SA = """\
apiVersion: nvidia.com/v1alpha1
kind: DynamoGraphDeploymentScalingAdapter
metadata:
  name: demo-decode
spec:
  replicas: 2
  dgdRef:
    name: demo  # the DGD
    # the service
    serviceName: VllmDecodeWorker  # its key
"""


def test_a_scaling_adapter_service_name_comment_follows_it_to_component_name() -> None:
    """The DGDSA's one renamed field (``dgdRef.serviceName`` -> ``componentName``, _convert/_dgdsa.py) takes
    its comments along; ``dgdRef.name`` keeps its own, both ways (mutant e691b99f491d)."""
    from dynamo_schema._convert._v1alpha1 import to_v1alpha1

    beta = [line.strip() for line in _convert(SA)]
    i = beta.index("dgdRef:")
    assert beta[i + 1:i + 4] == ["name: demo  # the DGD", "# the service", "componentName: VllmDecodeWorker  # its key"]
    back = _convert("\n".join(_convert(SA)) + "\n", to_v1alpha1)
    assert back == SA.splitlines()


def test_a_component_type_comment_follows_it_to_type() -> None:
    """v1alpha1 ``componentType`` is v1beta1 ``type`` on the component: its end-of-line comment moves with
    it (mutant 7a60f948d876: the component prefix of a DGD path is spec.services.<name>, 3 keys)."""
    lines = [line.strip() for line in _convert(ONE.replace("componentType: frontend", "componentType: frontend  # the role"))]
    assert "type: frontend  # the role" in lines


def test_a_document_of_no_known_direction_is_written_without_comments() -> None:
    """Comments are kept only from v1alpha1 to v1beta1 or back: a changed document whose own apiVersion is
    neither (``to_v1beta1`` still converts it as a DGD) is written plainly, as ``_emit.dump_all`` writes
    it; an apiVersion that is not a string is no direction either (mutant f2fe8208b7cd)."""
    from dynamo_schema._io._emit import dump_all

    for api in ("nvidia.com/v1", "1"):
        text = ONE.replace("apiVersion: nvidia.com/v1alpha1", f"apiVersion: {api}")
        docs = load_text(text)
        new = [to_v1beta1(d.data) for d in docs]
        assert new[0]["apiVersion"] == "nvidia.com/v1beta1"
        assert dump_with_comments(text, docs, new) == dump_all(new)


BETA_ENV = """\
apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: g
spec:
  # graph-wide env
  env:
    # the level
    - name: LOG_LEVEL  # its name
      value: debug
  components:
    - name: W
      type: worker
      podTemplate:
        spec:
          containers:
            - name: main
              image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.5.0
"""


def test_to_v1alpha1_graph_env_comments_follow_it_to_envs() -> None:
    """v1beta1 ``spec.env`` is v1alpha1 ``spec.envs``: the comments above it, above its item and at the end of
    its line come along; only the ``services`` key takes its sources from ``components`` (mutant 666952c69b82:
    ``envs`` sorts before ``services``)."""
    from dynamo_schema._convert._v1alpha1 import to_v1alpha1

    lines = [line.strip() for line in _convert(BETA_ENV, to_v1alpha1)]
    i = lines.index("envs:")
    assert lines[i - 1:i + 4] == ["# graph-wide env", "envs:", "# the level", "- name: LOG_LEVEL  # its name",
                                  "value: debug"]


DCD_SRC = """\
apiVersion: nvidia.com/v1alpha1
kind: DynamoComponentDeployment
metadata:
  name: worker
spec:
  backendFramework: vllm
  # the role
  componentType: worker
  # shm size
  sharedMemory:
    size: 8Gi
  extraPodMetadata:
    # a label
    labels:
      team: a
  extraPodSpec:
    # pod-level
    nodeSelector:
      gpu: "true"
    mainContainer:
      image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.5.0
"""


def test_a_dcds_comments_follow_its_moved_fields_to_v1beta1() -> None:  # mutant 7a60f948d876
    """A DCD's spec is its component: ``componentType`` -> ``type``, ``sharedMemory`` -> ``sharedMemorySize``,
    ``extraPodMetadata`` -> ``podTemplate.metadata``, ``extraPodSpec`` -> ``podTemplate.spec``; each comment
    stays above the field it annotates, and a quoted value keeps its quotes."""
    docs = load_text(DCD_SRC)
    new = [to_v1beta1(d.data) for d in docs]
    out = dump_with_comments(DCD_SRC, docs, new)
    assert out is not None
    assert same_data([d.data for d in load_text(out)], new)
    lines = [line.strip() for line in out.splitlines()]
    after = {c: lines[lines.index(c) + 1] for c in ("# the role", "# shm size", "# a label", "# pod-level")}
    assert after == {"# the role": "type: worker", "# shm size": "sharedMemorySize: 8Gi", "# a label": "labels:",
                     "# pod-level": "nodeSelector:"}
    assert 'gpu: "true"' in lines
