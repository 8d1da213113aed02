"""``validate --old OLD NEW``: the update rules, modelled as ``kubectl apply`` of NEW over OLD."""

from __future__ import annotations

import io
import json
from pathlib import Path

from dynamo_schema._cli._main import main

OLD = """\
apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: upd
spec:
  components:
    - name: worker
      type: worker
      replicas: 2
      podTemplate:
        spec:
          containers:
            - name: main
              image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.5.0
"""


def run(tmp_path: Path, old: str, new: str) -> tuple[int, list[dict]]:
    (tmp_path / "old.yaml").write_text(old)
    (tmp_path / "new.yaml").write_text(new)
    out, err = io.StringIO(), io.StringIO()
    rc = main(["validate", "-o", "json", "--old", str(tmp_path / "old.yaml"), str(tmp_path / "new.yaml")],
              stdout=out, stderr=err)
    assert "Traceback" not in err.getvalue()
    return rc, [e for r in json.loads(out.getvalue())["resources"] for e in r["errors"]]


def test_unchanged_object_is_a_valid_update(tmp_path: Path) -> None:
    rc, errors = run(tmp_path, OLD, OLD)
    assert rc == 0, errors


def test_replica_change_is_a_valid_update(tmp_path: Path) -> None:
    rc, errors = run(tmp_path, OLD, OLD.replace("replicas: 2", "replicas: 3"))
    assert rc == 0, errors


def test_type_change_is_refused(tmp_path: Path) -> None:
    rc, errors = run(tmp_path, OLD, OLD.replace("type: worker", "type: prefill"))
    assert rc == 1
    hit = [e for e in errors if e["rule"] == "cel.type-immutable"]
    assert hit and hit[0]["message"] == 'Invalid value: type is immutable after it is set'
    assert hit[0]["path"] == "spec.components[0]"
    assert (hit[0]["line"], hit[0]["column"]) == (7, 7)


def test_min_available_is_immutable(tmp_path: Path) -> None:
    old = OLD.replace("      replicas: 2\n", "      replicas: 2\n      minAvailable: 1\n")
    rc, errors = run(tmp_path, old, old.replace("minAvailable: 1", "minAvailable: 2"))
    assert rc == 1
    assert any(e["message"].endswith("minAvailable is immutable after creation") for e in errors), errors


def test_restart_id_may_be_set_after_creation(tmp_path: Path) -> None:
    new = OLD.replace("spec:\n  components:", "spec:\n  restart:\n    id: r1\n  components:", 1)
    rc, errors = run(tmp_path, OLD, new)
    assert rc == 0, errors
    # ... but not on create
    out = io.StringIO()
    (tmp_path / "create.yaml").write_text(new)
    assert main(["validate", str(tmp_path / "create.yaml")], stdout=out, stderr=io.StringIO()) == 1
    assert "spec.restart must be unset on create" in out.getvalue()
