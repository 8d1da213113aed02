"""Stage "emit": Kubernetes-safe YAML (and JSON) output.

A string is written so that every YAML reader a Kubernetes user meets reads it back as the same
string: kubectl / sigs.k8s.io/yaml (go-yaml v2: YAML-1.1 booleans ``y``/``n``/``yes``/``no``/``on``/
``off``, Go base-0 integers with ``_`` ignored such as ``0o10``, ``0x1F``, ``09``, ``1_000``, floats
such as ``1e3``), kustomize / yaml.v3, and PyYAML (YAML 1.1: sexagesimal numbers, timestamps, ``=``,
``<<``). Any string one of them could read as a boolean, null, number or timestamp is single-quoted,
keys included; strings PyYAML's emitter cannot write plain (flow indicators such as ``["generate"]``,
``: ``, leading spaces …) are quoted by the emitter itself. Multi-line strings are written as literal
blocks (``|``) when the emitter allows it. Key order is kept; output is deterministic.
"""

from __future__ import annotations

from typing import Any

__all__ = ["dump", "dump_all", "dump_json", "needs_quotes"]

_WIDTH = 1 << 30  # never fold long strings
_DUMPER: Any = None
_RX: Any = None

# Lower-cased words some Kubernetes-facing decoder reads as bool / null / special float.
_WORDS = frozenset({
    "y", "n", "yes", "no", "true", "false", "on", "off",  # YAML 1.1 booleans (go-yaml v2, PyYAML)
    "null", "~", "nil", "none",  # nulls (nil/none: over-quoting is harmless)
    ".inf", "+.inf", "-.inf", ".nan", "inf", "+inf", "-inf", "nan", "infinity", "+infinity",
    "-infinity", "<<", "=",
})
_NUMERIC_START = frozenset("+-.0123456789")


def _rx() -> Any:
    global _RX
    if _RX is None:
        import re

        class _R:
            # Go strconv.ParseInt(s, 0, 64) / ParseUint syntax (after removing "_"), YAML 1.1 forms
            go_int = re.compile(r"[-+]?(?:0[xX][0-9a-fA-F]*|0[oO][0-7]*|0[bB][01]*|[0-9]+)\Z")
            # go-yaml yamlStyleFloat, and PyYAML/YAML-1.1 floats (also with "_" and sexagesimal)
            go_float = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
            sexagesimal = re.compile(r"[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?\Z")
            timestamp = re.compile(r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}")

        _RX = _R
    return _RX


def needs_quotes(s: str) -> bool:
    """True when some Kubernetes-facing YAML decoder would not read plain ``s`` as this string."""
    if not s:
        return True
    if len(s) <= 9 and s.lower() in _WORDS:
        return True
    if s[0] in _NUMERIC_START:
        rx = _rx()
        plain = s.replace("_", "")
        if plain and (rx.go_int.match(plain) or rx.go_float.match(plain)):
            return True
        if rx.sexagesimal.match(s) or rx.timestamp.match(s):
            return True
    return False


def _dumper() -> Any:
    global _DUMPER
    if _DUMPER is None:
        import yaml

        base = getattr(yaml, "CSafeDumper", None) or yaml.SafeDumper

        class KubernetesSafeDumper(base):  # type: ignore[misc, valid-type]
            """PyYAML dumper whose strings survive kubectl, kustomize and go-yaml unchanged."""

            def ignore_aliases(self, data: Any) -> bool:  # shared sub-objects are written out in full
                return True

        def represent_str(dumper: Any, data: str) -> Any:
            style: str | None = None
            if needs_quotes(data):
                style = "'"
            elif "\n" in data:
                style = "|"
            return dumper.represent_scalar("tag:yaml.org,2002:str", str(data), style=style)

        def represent_int(dumper: Any, data: int) -> Any:
            return dumper.represent_scalar("tag:yaml.org,2002:int", str(int(data)))

        def represent_float(dumper: Any, data: float) -> Any:
            return dumper.represent_float(float(data))

        def represent_list(dumper: Any, data: Any) -> Any:
            return dumper.represent_list(list(data))

        def represent_dict(dumper: Any, data: Any) -> Any:
            return dumper.represent_dict(dict(data))

        KubernetesSafeDumper.add_representer(str, represent_str)
        KubernetesSafeDumper.add_multi_representer(str, represent_str)
        KubernetesSafeDumper.add_representer(tuple, represent_list)
        KubernetesSafeDumper.add_multi_representer(int, _bool_or(represent_int))
        KubernetesSafeDumper.add_multi_representer(float, represent_float)
        import collections.abc

        KubernetesSafeDumper.add_multi_representer(collections.abc.Mapping, represent_dict)
        _DUMPER = _fast_dumper(KubernetesSafeDumper, represent_str)
    return _DUMPER


def _fast_dumper(base: Any, represent_str: Any) -> Any:
    """``base`` building the same node graph with less dispatch (decisions.md D28).

    ``represent_data`` handles the exact types of plain data (``dict``, ``list``, ``str``, ``int``,
    ``bool``, ``None``) itself, building the nodes ``base``'s representers build for them
    (``ignore_aliases`` is always true, so no alias bookkeeping applies); every other type, and any
    dumper configured otherwise (``default_flow_style`` not ``False``, ``sort_keys``), goes to
    ``base``. ``resolve`` (called twice per scalar by the emitter) is memoized for scalars: without
    path resolvers it is a pure function of the value. ``tests/io/test_emit_fast.py`` compares the
    bytes with ``base`` on the corpus renders and on generated data."""
    from yaml.nodes import MappingNode, ScalarNode, SequenceNode

    str_tag, int_tag = "tag:yaml.org,2002:str", "tag:yaml.org,2002:int"
    bool_tag, null_tag = "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null"
    map_tag, seq_tag = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"
    styles: dict[str, str | None] = {}  # str -> the style represent_str gives it
    resolved: dict[tuple[str, bool, bool], Any] = {}
    base_represent_data = base.represent_data
    base_resolve = base.resolve

    def style_of(dumper: Any, s: str) -> str | None:
        style = styles.get(s, 0)
        if style == 0:
            style = represent_str(dumper, s).style
            if len(styles) > 65536:
                styles.clear()
            styles[s] = style
        return style  # type: ignore[return-value]

    class FastKubernetesSafeDumper(base):  # type: ignore[misc]
        __doc__ = base.__doc__

        def represent_data(self, data: Any) -> Any:
            if self.default_flow_style is not False or self.sort_keys or self.default_style is not None:
                return base_represent_data(self, data)
            return self._node(data)

        def _node(self, data: Any) -> Any:
            t = type(data)
            if t is str:
                return ScalarNode(str_tag, data, style=style_of(self, data))
            if t is dict:
                node = self._node
                return MappingNode(map_tag, [(node(k), node(v)) for k, v in data.items()], flow_style=False)
            if t is list:
                node = self._node
                return SequenceNode(seq_tag, [node(v) for v in data], flow_style=False)
            if t is int:
                return ScalarNode(int_tag, str(data), style=None)
            if t is bool:
                return ScalarNode(bool_tag, "true" if data else "false", style=None)
            if data is None:
                return ScalarNode(null_tag, "null", style=None)
            return base_represent_data(self, data)

        def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
            if kind is ScalarNode and not self.yaml_path_resolvers:
                key = (value, implicit[0], implicit[1])
                tag = resolved.get(key)
                if tag is None:
                    tag = base_resolve(self, kind, value, implicit)
                    if len(resolved) > 65536:
                        resolved.clear()
                    resolved[key] = tag
                return tag
            return base_resolve(self, kind, value, implicit)

    return FastKubernetesSafeDumper


def _reference_dumper() -> Any:
    """The dumper without the fast paths (for the differential test)."""
    return _dumper().__mro__[1]


def _bool_or(fn: Any) -> Any:
    def rep(dumper: Any, data: Any) -> Any:
        if isinstance(data, bool):
            return dumper.represent_bool(bool(data))
        return fn(dumper, data)

    return rep


def dump_all(objs: list[Any]) -> str:
    """Multi-document Kubernetes-safe YAML (documents separated by ``---``)."""
    import yaml

    return yaml.dump_all(list(objs), Dumper=_dumper(), default_flow_style=False, sort_keys=False,
                         allow_unicode=True, width=_WIDTH, explicit_start=False)


def dump(obj: Any) -> str:
    """One Kubernetes-safe YAML document."""
    import yaml

    return yaml.dump(obj, Dumper=_dumper(), default_flow_style=False, sort_keys=False,
                     allow_unicode=True, width=_WIDTH)


def dump_json(obj: Any) -> str:
    """JSON with 2-space indentation, key order kept, UTF-8 characters unescaped, newline-terminated."""
    import json

    return json.dumps(obj, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
