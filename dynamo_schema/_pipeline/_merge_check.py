"""``merge`` validates its result: the effective DGD checked as admission would check it."""

from __future__ import annotations

from typing import Any


def result_errors(dgd: Any) -> list[str]:
    """``FIELD: MESSAGE [RULE]`` of every admission error of the effective DGD (schema, CEL, webhooks;
    documented default settings), the merged object named as ``merged DGD``."""
    from ._validate import ValidateOptions, check_nvidia

    if not isinstance(dgd, dict):
        return []
    diags, _ = check_nvidia(dgd, ValidateOptions())
    return [f"merged DGD: {d.field + ': ' if d.path else ''}{d.message} [{d.rule}]"
            for d in diags if d.severity == "error"]
