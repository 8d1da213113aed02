"""Restore preserved leaves where the live object has nothing (this module's earlier saves)."""

from __future__ import annotations

import json

from ._json import JSONArray, JSONObject, dc

_LIST_KEYS = (("name",), ("name", "mountPath"), ("mountPath",), ("containerPort", "protocol"))


def _list_key(*lists: JSONArray) -> tuple[str, ...] | None:
    """The first key tuple that identifies every item of every list uniquely (None: atomic)."""
    for fields in _LIST_KEYS:
        ok = True
        for lst in lists:
            if not all(isinstance(x, dict) and all(f in x for f in fields) for x in lst):
                ok = False
                break
            keys = [tuple(json.dumps(x[f], sort_keys=True) for f in fields) for x in lst]
            if len(set(keys)) != len(keys):
                ok = False
                break
        if ok:
            return fields
    return None


def _kv(item: JSONObject, fields: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(json.dumps(item[f], sort_keys=True) for f in fields)


def fill(live: JSONObject, rem: JSONObject) -> None:
    """Restore preserved leaves only where the live object has nothing (live always wins)."""
    for k, v in rem.items():
        if k not in live:
            live[k] = dc(v)
        elif isinstance(live[k], dict) and isinstance(v, dict):
            fill(live[k], v)
        elif isinstance(live[k], list) and isinstance(v, list) and v:
            fields = _list_key(live[k], v)
            if fields is None:
                continue
            by_key = {_kv(x, fields): x for x in live[k]}
            for item in v:
                target = by_key.get(_kv(item, fields))
                if target is not None:
                    fill(target, item)
            # restore a preserved relative order of the keys still present
            preserved = [_kv(x, fields) for x in v]
            if len(preserved) == len(live[k]) and set(preserved) == set(by_key):
                live[k] = [by_key[n] for n in preserved]
