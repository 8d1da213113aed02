"""Merge helpers that reproduce how the operator combines user input with its defaults."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .._core._datacopy import deepcopy

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

_SCALARS = frozenset((str, int, float, bool, type(None)))


def is_empty(value: Any) -> bool:
    """mergo's notion of an empty source value (zero scalars do not override)."""
    if value is None:
        return True
    if isinstance(value, bool):
        return value is False
    if isinstance(value, (int, float)):
        return value == 0
    if isinstance(value, (str, list, dict)):
        return len(value) == 0
    return False


def mergo_override(dst: dict[str, Any], src: Mapping[str, Any]) -> dict[str, Any]:
    """``mergo.Merge(&dst, src, mergo.WithOverride)`` on JSON-like data (in place, returns dst).

    Non-empty source values win; nested mappings merge key by key; lists and scalars replace.
    """
    for key, value in src.items():
        if value is None:
            continue
        cur = dst.get(key)
        if isinstance(value, Mapping) and isinstance(cur, dict):
            mergo_override(cur, value)
            continue
        if key not in dst or cur is None:
            dst[key] = deepcopy(value)
            continue
        if is_empty(value):
            continue
        dst[key] = deepcopy(value)
    return dst


def merge_envs(common: Iterable[Mapping[str, Any]] | None, specific: Iterable[Mapping[str, Any]] | None) -> list[dict[str, Any]]:
    """``MergeEnvs``: dedupe by name, ``specific`` wins, result sorted by name (byte order)."""
    by_name: dict[str, Mapping[str, Any]] = {}
    for env in common or []:
        by_name[str(env.get("name", ""))] = env
    for env in specific or []:
        by_name[str(env.get("name", ""))] = env
    # only the winners are copied
    return [_env_copy(by_name[k]) for k in sorted(by_name, key=lambda s: s.encode("utf-8"))]


def _env_copy(env: Mapping[str, Any]) -> dict[str, Any]:
    """``deepcopy(dict(env))``: a ``name``/``value`` pair by one C copy, anything nested by ``deepcopy``."""
    if type(env) is dict:
        for v in env.values():
            if type(v) not in _SCALARS:
                return deepcopy(env)  # type: ignore[no-any-return]
        return dict(env)
    return deepcopy(dict(env))  # type: ignore[no-any-return]


def merge_low_priority(dst: dict[str, str] | None, src: Mapping[str, str] | None) -> dict[str, str] | None:
    """Copy keys of ``src`` that ``dst`` lacks."""
    if not src:
        return dst
    if dst is None:
        dst = {}
    for k, v in src.items():
        if k not in dst:
            dst[k] = v
    return dst


def sort_keys_deep(value: Any) -> Any:
    """Alphabetical mapping keys at every level (kubectl-style output order)."""
    t = type(value)
    if t in _SCALARS:
        return value
    if t is dict:  # plain data: no ABC check, no call per scalar
        out: dict[Any, Any] = {}
        for k in sorted(value):
            v = value[k]
            out[k] = v if type(v) in _SCALARS else sort_keys_deep(v)
        return out
    if t is list:
        return [v if type(v) in _SCALARS else sort_keys_deep(v) for v in value]
    if isinstance(value, Mapping):
        return {k: sort_keys_deep(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [sort_keys_deep(v) for v in value]
    return value
