"""DGDR materialization: the DynamoGraphDeployment a DynamoGraphDeploymentRequest produces.

Public entry points (imported lazily):

* :func:`materialize` ``(dgdr, topology=None) -> MaterializedDGD``
* :class:`MaterializedDGD` (``.dgd``, ``.warnings``, ``.notes``, ``.resources``, ``.steps``)
* :class:`DgdrError` (a :class:`dynamo_schema._core._diagnostics.DynamoSchemaError`)
* :func:`load_blueprint` ``(backend, mode) -> dict`` and ``SUPPORTED_BLUEPRINTS``
* :func:`compute_dgd_name` ``(dgdr) -> str``
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the real types for checkers; at run time they are imported on first use
    from dynamo_schema._dgdr._blueprints import SUPPORTED as SUPPORTED_BLUEPRINTS
    from dynamo_schema._dgdr._blueprints import load_blueprint
    from dynamo_schema._dgdr._materialize import DgdrError, MaterializedDGD, compute_dgd_name, materialize

__all__ = [
    "SUPPORTED_BLUEPRINTS",
    "DgdrError",
    "MaterializedDGD",
    "compute_dgd_name",
    "load_blueprint",
    "materialize",
]


def __getattr__(name: str) -> Any:
    if name in ("materialize", "MaterializedDGD", "DgdrError", "compute_dgd_name"):
        from dynamo_schema._dgdr import _materialize

        return getattr(_materialize, name)
    if name == "load_blueprint":
        from dynamo_schema._dgdr._blueprints import load_blueprint

        return load_blueprint
    if name == "SUPPORTED_BLUEPRINTS":
        from dynamo_schema._dgdr._blueprints import SUPPORTED

        return SUPPORTED
    raise AttributeError(name)
