"""The one render error: raised by the render stages and by the render orchestration (``_pipeline``)."""

from __future__ import annotations

from collections.abc import Sequence

from .._core._diagnostics import Diagnostic, DynamoSchemaError


class RenderError(DynamoSchemaError):
    """Rendering failed: the operator itself would fail to render the object, or ``render`` refuses it.

    ``RenderError(message, diagnostics)`` carries the given diagnostics (none: the orchestration words
    the failure from the message); :meth:`at` is the render stages' form, one diagnostic at ``path``.
    """

    @classmethod
    def at(cls, message: str, path: Sequence[str | int] = (), rule: str = "render.error") -> RenderError:
        return cls(message, [Diagnostic(rule, tuple(path), message)])
