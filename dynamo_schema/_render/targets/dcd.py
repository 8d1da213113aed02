"""Target ``dcd``: the child DynamoComponentDeployments of a DGD (what the operator creates first)."""

from __future__ import annotations

from typing import Any

from .._options import RenderOptions
from ._common import DGD, check_kind, child_dcds, finish
from ._target import Target


def render_dcd_target(obj: dict[str, Any], options: RenderOptions) -> list[dict[str, Any]]:
    check_kind(obj, frozenset({DGD}), "dcd")
    _, dcds, _, _ = child_dcds(obj, options)
    return finish(dcds, options)


TARGET = Target("dcd", frozenset({DGD}), render_dcd_target, "the child DynamoComponentDeployments of a DGD")
