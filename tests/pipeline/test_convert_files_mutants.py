"""``_pipeline._convert_files``: mutants the suite left alive (issue 24)."""

from __future__ import annotations

from dynamo_schema._pipeline._convert_files import _not_served


def test_a_served_only_kind_already_at_the_target_is_not_warned() -> None:
    """docs/cli.md (convert): a kind served in v1alpha1 only (DynamoModel) is kept with a
    ``convert.not-served`` warning when converted to v1beta1; converting it to the version it is already at
    is no conversion (nothing to warn about). Upstream CRD dynamomodels: served v1alpha1 only."""
    # mutant 51d69e7b72a4 (api == to -> api > to)
    obj = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoModel", "metadata": {"name": "m"}}
    assert _not_served(obj, "nvidia.com/v1alpha1") is None
    warned = _not_served(obj, "nvidia.com/v1beta1")
    assert warned is not None and warned.rule == "convert.not-served" and warned.severity == "warning"


def test_invalid_input_exits_1(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """docs/cli.md (convert): "The input is validated first (invalid input: its errors, exit 1)"; exit 2 is
    for usage and I/O errors."""
    import io

    from dynamo_schema._cli._main import main

    f = tmp_path / "bad.yaml"
    f.write_text("apiVersion: nvidia.com/v1alpha1\nkind: DynamoGraphDeployment\nmetadata:\n  name: g\n"
                 "spec:\n  services:\n    Frontend:\n      replicas: -1\n")
    err = io.StringIO()
    assert main(["convert", str(f)], stdout=io.StringIO(), stderr=err) == 1
    assert "replicas" in err.getvalue()
