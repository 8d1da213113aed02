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
