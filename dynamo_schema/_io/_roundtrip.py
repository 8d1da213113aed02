"""Comment-keeping output for ``convert``: the converted data written over the source's comments.

The source is read a second time with ruamel.yaml's round-trip loader (lazy import: only ``convert``
pays for it) for its comments and their lines. Every comment is tied to a source node: a full-line
comment (or blank line) to the next mapping key / sequence item that starts after it, an end-of-line
comment to the innermost node that starts on its line. The output tree is then built from the
*converted* data (the only source of values), and each output node takes the comments of the source
node it came from: same key in the same place, or the moved subtree's origin (v1alpha1
``spec.services.<name>`` <-> v1beta1 ``spec.components[name=<name>]``, ``extraPodSpec`` <->
``podTemplate.spec``, ``extraPodSpec.mainContainer`` (+ the flat ``envs``...) <-> container ``main``,
``extraPodMetadata`` <-> ``podTemplate.metadata``, ``envs`` <-> ``env``; a DGDSA's ``dgdRef.serviceName``
<-> ``componentName``). Keys that survive keep their
source order; new keys follow their nearest preceding sibling of the converted order (first when there
is none). Strings some Kubernetes decoder could misread are single-quoted (``_emit.needs_quotes``).

The text is handled one YAML document at a time (its span runs from its ``---`` marker to the next
document's): a document whose data does not change (already at the target version, not a Dynamo
object) is copied byte for byte; a changed one is rebuilt from its own span only (comments are never
taken from a neighbour), in the direction its own ``apiVersion`` and its converted one give. Source
lists are indexed by item name once, so long lists cost linear time.

The caller checks that the text decodes back to exactly the converted data, type for type
(:func:`same_data`), and falls back to the plain ``_emit.dump_all`` when not
(:func:`dump_with_comments` returns ``None`` when it cannot align).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["dump_with_comments", "same_data"]

_Anchor = tuple[int, Any]  # (id of the source container, key or index)
_MAP_IND, _SEQ_IND, _SEQ_OFF = 2, 4, 2


class _Comments:
    """Comments of one source document, by anchor."""

    def __init__(self) -> None:
        self.before: dict[_Anchor, list[str]] = {}
        #: end-of-line comments: the source's spaces before the ``#``, then the comment text
        self.eol: dict[_Anchor, str] = {}
        self.footer: list[str] = []


def _walk(node: Any, out: list[tuple[int, int, _Anchor]], seen: list[Any]) -> None:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if isinstance(node, CommentedMap):
        seen.append(node)
        for k in node:
            try:
                line, col = node.lc.key(k)
            except (KeyError, TypeError, AttributeError):
                continue
            out.append((line, len(out), (id(node), k)))
            _walk(node[k], out, seen)
    elif isinstance(node, CommentedSeq):
        seen.append(node)
        for i, v in enumerate(node):
            try:
                line, col = node.lc.item(i)
            except (KeyError, TypeError, AttributeError, IndexError):
                continue
            out.append((line, len(out), (id(node), i)))
            _walk(v, out, seen)


def _tokens(containers: list[Any]) -> list[Any]:
    found: dict[int, Any] = {}

    def add(x: Any) -> None:
        if x is None:
            return
        if isinstance(x, list):
            for y in x:
                add(y)
        elif hasattr(x, "value") and hasattr(x, "start_mark"):
            found[id(x)] = x

    for c in containers:
        ca = c.ca
        add(ca.comment)
        for v in ca.items.values():
            add(v)
        add(getattr(ca, "end", None))
    return list(found.values())


def _collect(doc: Any, lines: list[str], head: int) -> _Comments:
    """Comments of ``doc``, whose own text is ``lines`` (one document's span of the file, nothing
    else: a comment is never taken from a neighbouring document). ``head``: first line after the
    document's ``---`` marker (0 when it has none); lines before it are written out verbatim."""
    import bisect

    nodes: list[tuple[int, int, _Anchor]] = []
    containers: list[Any] = []
    _walk(doc, nodes, containers)
    full: dict[int, str] = {}
    eol: dict[int, str] = {}
    texts: set[str] = set()
    for tok in _tokens(containers):
        value = str(tok.value)
        segs = value.split("\n")
        texts.update(seg.strip() for seg in segs if seg.strip().startswith("#"))
        if segs and segs[0].strip().startswith("#"):
            ln = tok.start_mark.line
            text = segs[0].strip()
            line = lines[ln].rstrip() if head <= ln < len(lines) else ""
            if line and not line.lstrip().startswith("#") and line.endswith(text):
                body = line[:-len(text)]
                eol[ln] = body[len(body.rstrip()):] + text  # the gap before the comment is kept
    hi = len(lines)
    lo = min((n[0] for n in nodes), default=hi)
    node_lines = {n[0] for n in nodes}
    for ln in range(max(head, lo), hi):
        stripped = lines[ln].strip()
        if stripped.startswith("#") and stripped in texts:
            full[ln] = stripped
    for ln in range(head, min(lo, hi)):  # before the first node only comments, directives and blank lines
        stripped = lines[ln].strip()
        if stripped.startswith("#"):
            full[ln] = stripped
        elif not stripped and full.get(ln - 1):
            full[ln] = ""
    for ln in range(lo, hi):  # blank lines that separate nodes or comments (not those inside scalars)
        if lines[ln].strip():
            continue
        nxt = ln + 1
        while nxt < hi and not lines[nxt].strip():
            nxt += 1
        if nxt < hi and (nxt in full or nxt in node_lines) and ln - 1 >= 0 and lines[ln - 1].strip():
            full[ln] = ""
    out = _Comments()
    nodes.sort()
    starts = [n[0] for n in nodes]
    for ln in sorted(full):
        j = bisect.bisect_right(starts, ln)
        if j < len(nodes):
            out.before.setdefault(nodes[j][2], []).append(full[ln])
        else:
            out.footer.append(full[ln])
    for ln, text in eol.items():
        j = bisect.bisect_right(starts, ln) - 1
        if j >= 0:
            out.eol.setdefault(nodes[j][2], text)
    return out


# --------------------------------------------------------------------------------------------------
# where a converted node comes from

_Src = list[tuple[Any, dict[str, str]]]  # candidate source containers, each with out-key -> src-key renames


def _get(c: Any, k: Any) -> Any:
    return c.get(k) if hasattr(c, "get") and hasattr(c, "lc") else None


def _child_src(key: str, src: _Src) -> tuple[_Src, _Anchor | None]:
    """The source candidates of the value under ``key`` (same key, or renamed) and the anchor of ``key``."""
    anchor: _Anchor | None = None
    child: _Src = []
    for cont, ren in src:
        sk = ren.get(key, key)
        if _is_map(cont) and sk in cont:
            if anchor is None:
                anchor = (id(cont), sk)
            child.append((cont[sk], {}))
    return child, anchor


def _is_map(c: Any) -> bool:
    return hasattr(c, "lc") and hasattr(c, "keys")


def _is_seq(c: Any) -> bool:
    return hasattr(c, "lc") and isinstance(c, list)


def _anchor(cont: Any, key: Any) -> _Anchor | None:
    return (id(cont), key) if _is_map(cont) and key in cont else None


def _main_of(pod_spec: Any) -> Any:
    for c in _get(pod_spec, "containers") or []:
        if hasattr(c, "get") and c.get("name") == "main":
            return c
    return None


# --------------------------------------------------------------------------------------------------
# building the output tree

class _Builder:
    def __init__(self, root: Any, comments: _Comments, beta: bool, kind: str) -> None:
        self.root = root
        self.c = comments
        self.beta = beta
        self.kind = kind

    def value(self, new: Any, src: _Src, path: tuple[Any, ...], indent: int) -> Any:
        if isinstance(new, dict):
            return self.mapping(new, src, path, indent)
        if isinstance(new, list):
            return self.sequence(new, src, path, indent)
        return _scalar(new, src)

    def mapping(self, new: dict[str, Any], src: _Src, path: tuple[Any, ...], indent: int) -> Any:
        from ruamel.yaml.comments import CommentedMap

        out = CommentedMap()
        parts: dict[Any, tuple[_Src, _Anchor | None]] = {}
        for k in new:
            moved = self._moved(path, k, src)
            parts[k] = moved if moved is not None else _child_src(k, src)
            if moved is None:
                self._merge(k, src)
        order = _order(list(new), {k: a for k, (_s, a) in parts.items()}, src)
        for k in order:
            child_src, anchor = parts[k]
            child_indent = indent + _MAP_IND if isinstance(new[k], dict) else indent + _SEQ_OFF
            out[_key(k)] = self.value(new[k], child_src, (*path, k), child_indent)
            if anchor is not None:
                self._attach(out, _key(k), anchor, indent)
        return out

    def _merge(self, key: Any, src: _Src) -> None:
        """Comments of ``key`` in every candidate source, gathered on the first one."""
        anchors = [(id(c), r.get(key, key)) for c, r in src if _is_map(c) and r.get(key, key) in c]
        for extra in anchors[1:]:
            before = self.c.before.pop(extra, None)
            if before:
                self.c.before.setdefault(anchors[0], []).extend(before)
            eol = self.c.eol.pop(extra, None)
            if eol:
                if anchors[0] in self.c.eol:
                    self.c.before.setdefault(anchors[0], []).append(eol.lstrip())
                else:
                    self.c.eol[anchors[0]] = eol

    def _svc(self, path: tuple[Any, ...]) -> Any:
        """The source service / component of the component / service at ``path`` (DGD) or the DCD spec."""
        spec = _get(self.root, "spec")
        if self.kind == "DynamoComponentDeployment":
            return spec
        if len(path) < 3 or path[0] != "spec":
            return None
        if self.beta:
            return _get(_get(spec, "services"), path[2])
        for c in _get(spec, "components") or []:
            if _get(c, "name") == path[2]:
                return c
        return None

    def _comp_path(self, path: tuple[Any, ...]) -> int:
        """Length of the component prefix of ``path`` (0 when ``path`` is not inside one)."""
        if self.kind == "DynamoComponentDeployment":
            return 1 if path[:1] == ("spec",) else 0
        if len(path) >= 3 and path[0] == "spec" and path[1] in ("components", "services"):
            return 3
        return 0

    def _moved(self, path: tuple[Any, ...], key: Any, src: _Src) -> tuple[_Src, _Anchor | None] | None:
        """Sources of a subtree that moved between versions (``None``: same place, same key)."""
        spec = _get(self.root, "spec")
        if path == ("spec", "services") and not self.beta and self.kind == "DynamoGraphDeployment":
            comps = _get(spec, "components")
            for j, c in enumerate(comps if _is_seq(comps) else []):
                if _get(c, "name") == key:
                    return [(c, {})], (id(comps), j)
            return [], None
        if path == ("spec",) and self.kind == "DynamoGraphDeployment":
            if self.beta and key == "components":
                services = _get(spec, "services")
                return ([(services, {})] if services is not None else []), _anchor(spec, "services")
            if not self.beta and key == "services":
                comps = _get(spec, "components")
                return ([(comps, {})] if comps is not None else []), _anchor(spec, "components")
            if self.beta and key == "env":
                return _child_src("envs", src)
            if not self.beta and key == "envs":
                return _child_src("env", src)
        if len(path) >= 2 and path[-2] == "resources" and path[-1] in ("limits", "requests"):
            if self.beta:  # native list <- the alpha item (gpu, custom.*)
                cands: _Src = []
                for cont, _r in src:
                    # a dedicated alpha resources field spells the GPU ``gpu``; a native one
                    # (extraPodSpec.mainContainer.resources) keeps ``nvidia.com/gpu``
                    cands.append((cont, {"nvidia.com/gpu": "gpu"} if _is_map(cont) and "gpu" in cont else {}))
                    if _is_map(_get(cont, "custom")):
                        cands.append((cont["custom"], {}))
                return _child_src(key, cands)
            if key == "custom":
                return list(src), None
            if key == "gpu":
                return _child_src("nvidia.com/gpu", src)
            return None
        if path == ("spec", "dgdRef") and self.kind == "DynamoGraphDeploymentScalingAdapter":
            if self.beta and key == "componentName":  # the DGDSA's one renamed field (_convert/_dgdsa.py)
                return _child_src("serviceName", src)
            if not self.beta and key == "serviceName":
                return _child_src("componentName", src)
        n = self._comp_path(path)
        if not n:
            return None
        svc = self._svc(path)
        rest = path[n:]
        if svc is None:
            return None
        if self.beta:
            if rest == () and key in ("type", "sharedMemorySize"):
                return _child_src({"type": "componentType", "sharedMemorySize": "sharedMemory"}[key], [(svc, {})])
            if rest == () and key == "podTemplate":
                return [(svc, {"spec": "extraPodSpec", "metadata": "extraPodMetadata"})], None
        else:
            pt = _get(svc, "podTemplate")
            main = _main_of(_get(pt, "spec"))
            if rest == () and key == "componentType":
                return _child_src("type", [(svc, {})])
            if rest == () and key == "sharedMemory":
                return _child_src("sharedMemorySize", [(svc, {})])
            if rest == () and key == "extraPodSpec":
                return ([(_get(pt, "spec"), {})] if pt is not None else []), _anchor(pt, "spec")
            if rest == () and key == "extraPodMetadata":
                return ([(_get(pt, "metadata"), {})] if pt is not None else []), _anchor(pt, "metadata")
            if rest == () and key == "envs" and main is not None:
                return _child_src("env", [(main, {})])
            if rest == ("extraPodSpec",) and key == "mainContainer" and main is not None:
                return [(main, {})], None
        return None

    def sequence(self, new: list[Any], src: _Src, path: tuple[Any, ...], indent: int) -> Any:
        from ruamel.yaml.comments import CommentedSeq

        out = CommentedSeq()
        seqs = [c for c, _r in src if isinstance(c, list) and hasattr(c, "lc")]
        maps_by_name = [c for c, _r in src if hasattr(c, "keys") and hasattr(c, "lc")]  # services map
        used: set[tuple[int, Any]] = set()
        # each source list indexed once (name -> item positions, scalar -> positions): no rescans
        named: list[tuple[Any, dict[Any, list[int]]]] = []
        for s in seqs:
            index: dict[Any, list[int]] = {}
            for j, x in enumerate(s):
                if hasattr(x, "get") and isinstance(x.get("name"), str):
                    index.setdefault(x.get("name"), []).append(j)
            named.append((s, index))
        plain: dict[Any, list[int]] = {}
        if seqs:
            for j, x in enumerate(seqs[0]):
                if not isinstance(x, (dict, list)):
                    plain.setdefault(x, []).append(j)
        for i, item in enumerate(new):
            child: _Src = []
            anchor: _Anchor | None = None
            name = item.get("name") if isinstance(item, dict) else None
            if (self.beta and name == "main" and path[-3:] == ("podTemplate", "spec", "containers")
                    and self._svc(path) is not None):
                svc = self._svc(path)
                eps = _get(svc, "extraPodSpec")
                mc = _get(eps, "mainContainer")
                child = ([(mc, {})] if mc is not None else []) + [(svc, {"env": "envs"})]
                anchor = _anchor(eps, "mainContainer")
            elif isinstance(name, str):
                for m in maps_by_name:
                    if name in m:
                        child, anchor = [(m[name], {})], (id(m), name)
                        break
                if anchor is None:
                    for s, index in named:
                        hit = next((j for j in index.get(name, ()) if (id(s), j) not in used), None)
                        if hit is not None:
                            child, anchor = [(s[hit], {})], (id(s), hit)
                            break
            elif seqs:
                s = seqs[0]
                if len(s) == len(new) and (not isinstance(item, (dict, list)) or isinstance(s[i], (dict, list))):
                    child, anchor = [(s[i], {})], (id(s), i)
                elif not isinstance(item, (dict, list)):
                    try:
                        hits = plain.get(item, [])
                    except TypeError:  # pragma: no cover - scalars are hashable
                        hits = []
                    hit = next((j for j in hits if (id(s), j) not in used), None)
                    if hit is not None:
                        child, anchor = [(s[hit], {})], (id(s), hit)
            if anchor is not None:
                used.add(anchor)
            ipath = (*path, name if isinstance(name, str) else i)
            out.append(self.value(item, child, ipath, indent + _SEQ_IND - _SEQ_OFF))
            if anchor is not None:
                self._attach_item(out, i, anchor, indent, isinstance(item, (dict, list)))
        return out

    def _attach(self, out: Any, key: Any, anchor: _Anchor, indent: int) -> None:
        from ruamel.yaml.error import CommentMark
        from ruamel.yaml.tokens import CommentToken

        before = self.c.before.pop(anchor, None)
        eol = self.c.eol.pop(anchor, None)
        if before:
            slot = out.ca.items.setdefault(key, [None, None, None, None])
            slot[1] = [CommentToken((t or "") + "\n", CommentMark(indent if t else 0)) for t in before]
        if eol:
            _add_eol(out, key, eol)

    def _attach_item(self, out: Any, i: int, anchor: _Anchor, indent: int, compound: bool) -> None:
        from ruamel.yaml.error import CommentMark
        from ruamel.yaml.tokens import CommentToken

        before: list[str] = list(self.c.before.pop(anchor, []))
        eol = self.c.eol.pop(anchor, None)
        item = out[i]
        if compound and eol:  # e.g. "Frontend:  # note" -> a line above the component
            before.append(eol.lstrip())
            eol = None
        if isinstance(item, dict) and item and hasattr(item, "ca"):  # comments of the first key go above the "- " line
            first = next(iter(item))
            slot = item.ca.items.get(first)
            if slot and slot[1]:
                before.extend(str(t.value).rstrip("\n").strip() for t in slot[1])
                slot[1] = None
        if before:
            slot = out.ca.items.setdefault(i, [None, None, None, None])
            slot[1] = [CommentToken((t or "") + "\n", CommentMark(indent if t else 0)) for t in before]
        if eol:
            _add_eol(out, i, eol)


def _add_eol(out: Any, key: Any, eol: str) -> None:
    """An end-of-line comment after ``out[key]`` with the source's gap before its ``#``: ruamel's
    ``yaml_add_eol_comment`` aligns a comment on its sibling's column instead, which turns the second of two
    commented lines ``a: 1  # x`` into ``a: 1 # x``. The emitter writes one space before a column-0 comment."""
    from ruamel.yaml.error import CommentMark
    from ruamel.yaml.tokens import CommentToken

    text = eol.lstrip()
    gap = max(len(eol) - len(text), 1)
    out._yaml_add_eol_comment([CommentToken(" " * (gap - 1) + text, CommentMark(0)), None], key)


def _order(keys: list[Any], anchors: dict[Any, _Anchor | None], src: _Src) -> list[Any]:
    """Surviving keys in source order; others after their nearest preceding sibling (first if none)."""
    pos: dict[Any, tuple[int, int]] = {}
    for k in keys:
        a = anchors.get(k)
        if a is None:
            continue
        for ci, (cont, _r) in enumerate(src):
            if id(cont) == a[0] and hasattr(cont, "keys"):
                pos[k] = (ci, list(cont.keys()).index(a[1]))
                break
    out = sorted((k for k in keys if k in pos), key=lambda k: pos[k])
    for idx, k in enumerate(keys):
        if k in pos:
            continue
        prev = next((keys[j] for j in range(idx - 1, -1, -1) if keys[j] in out), None)
        out.insert(out.index(prev) + 1 if prev is not None else 0, k)
    return out


def _key(k: Any) -> Any:
    from ._emit import needs_quotes

    if isinstance(k, str) and needs_quotes(k):
        from ruamel.yaml.scalarstring import SingleQuotedScalarString

        return SingleQuotedScalarString(k)
    return k


def _scalar(v: Any, src: _Src) -> Any:
    if isinstance(v, str):
        from ruamel.yaml.scalarstring import (
            DoubleQuotedScalarString,
            LiteralScalarString,
            SingleQuotedScalarString,
        )

        from ._emit import needs_quotes

        old = src[0][0] if src else None
        if isinstance(old, (DoubleQuotedScalarString, SingleQuotedScalarString)) and str(old) == v:
            return type(old)(v)
        if needs_quotes(v):
            return SingleQuotedScalarString(v)
        if isinstance(old, LiteralScalarString) and str(old) == v:
            return LiteralScalarString(v)
        return str(v)
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, int):
        return int(v)
    if isinstance(v, float):
        return float(v)
    return v


# --------------------------------------------------------------------------------------------------

_ALPHA, _BETA = "nvidia.com/v1alpha1", "nvidia.com/v1beta1"


def same_data(a: Any, b: Any) -> bool:
    """``a`` and ``b`` hold the same data, type for type (``True``, ``1`` and ``1.0`` differ; mapping
    key order does not matter)."""
    return _fingerprint(a) == _fingerprint(b)


class _KeyMark:
    __slots__ = ("key",)

    def __init__(self, key: Any) -> None:
        self.key = key


def _fingerprint(x: Any) -> list[str]:
    """A type-tagged serialisation of ``x``; iterative (documents may nest 10,000 levels deep)."""
    out: list[str] = []
    stack: list[Any] = [x]
    while stack:
        v = stack.pop()
        if isinstance(v, _KeyMark):
            out.append(f"k{type(v.key).__name__}:{v.key!r}")
        elif isinstance(v, dict):
            keys = sorted(v, key=lambda k: (type(k).__name__, repr(k)))
            out.append(f"d{len(keys)}")
            for k in reversed(keys):
                stack.append(v[k])
                stack.append(_KeyMark(k))
        elif isinstance(v, list):
            out.append(f"l{len(v)}")
            stack.extend(reversed(v))
        else:
            out.append(f"{type(v).__name__}:{v!r}")
    return out


def dump_with_comments(text: str, sources: Sequence[Any], new_docs: Sequence[Any]) -> str | None:
    """``text`` with every document replaced by its converted data, comments kept.

    ``sources``: the loaded documents of ``text`` (``_load`` documents: ``.data``, ``.start``), in
    order; ``new_docs``: their converted data, same order. The text is cut into one span per YAML
    document (from its ``---`` marker to the next one; comments are only ever taken from their own
    span). A span whose documents did not change (already at the target version, not a Dynamo object)
    is written byte for byte; a changed one is rebuilt over its comments, the direction of each
    document read from its own ``apiVersion`` and its converted one. ``None`` when the text cannot be
    cut or anything else goes wrong (the caller then writes the comment-less output)."""
    try:
        return _dump_with_comments(text, sources, new_docs)
    except Exception:  # noqa: BLE001 - comments are best effort; the values never depend on this
        return None


def _spans(text: str, lines: list[str]) -> list[tuple[int, int | None, int | None]] | None:
    """``(first line, line of its --- marker, line of its ... marker)`` of every YAML document."""
    import yaml

    loader_class = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    spans: list[list[Any]] = []
    after_end: int | None = None
    loader = loader_class(text)
    try:
        while loader.check_event():
            ev = loader.get_event()
            start: Any = ev.start_mark
            if isinstance(ev, yaml.DocumentStartEvent):
                marker: int | None = None
                if ev.explicit:
                    marker = next((ln for ln in range(start.line, len(lines))
                                   if lines[ln].startswith("---")), None)
                    if marker is None:
                        return None
                if not spans:
                    spans.append([0, marker, None])
                elif marker is not None:
                    spans.append([marker, marker, None])
                elif after_end is not None:
                    spans.append([after_end, None, None])
                else:
                    return None
            elif isinstance(ev, yaml.DocumentEndEvent):
                after_end = None
                if ev.explicit and spans:
                    stop: Any = ev.end_mark
                    spans[-1][2] = start.line
                    after_end = stop.line + (1 if stop.column else 0)
    finally:
        loader.dispose()
    return [(a, b, c) for a, b, c in spans] or [(0, None, None)]


def _dump_with_comments(text: str, sources: Sequence[Any], new_docs: Sequence[Any]) -> str | None:
    import bisect

    if len(sources) != len(new_docs):
        return None
    lines = text.splitlines(keepends=True)
    spans = _spans(text, lines)
    if spans is None:
        return None
    firsts = [s[0] for s in spans]
    groups: list[list[int]] = [[] for _ in spans]
    for i, doc in enumerate(sources):
        groups[max(0, bisect.bisect_right(firsts, doc.start[0] - 1) - 1)].append(i)
    parts: list[str] = []
    for c, (first, marker, closing) in enumerate(spans):
        end = spans[c + 1][0] if c + 1 < len(spans) else len(lines)
        idx = groups[c]
        if all(same_data(sources[i].data, new_docs[i]) for i in idx):
            parts.append("".join(lines[first:end]))
            continue
        stop = closing if closing is not None and first <= closing < end else end
        body = _rebuild(lines[first:stop], None if marker is None else marker - first,
                        [sources[i].data for i in idx], [new_docs[i] for i in idx])
        if body is None:
            return None
        parts.append(body + "".join(lines[stop:end]))  # "...", directives, comments after it: verbatim
    return "".join(parts)


def _rebuild(chunk: list[str], marker: int | None, olds: list[Any], news: list[Any]) -> str | None:
    """One document's span rebuilt from its converted data over its comments."""
    from ._emit import dump_all

    nl = "\r\n" if chunk and chunk[0].endswith("\r\n") else "\n"
    prefix = ""
    head = 0
    if marker is not None:
        line = chunk[marker]
        rest = line[3:].strip()
        prefix = "".join(chunk[:marker]) + (line if not rest or rest.startswith("#") else "---" + nl)
        head = marker + 1
    beta: bool | None = None
    if len(olds) == 1 and isinstance(olds[0], dict) and isinstance(news[0], dict):
        versions = (olds[0].get("apiVersion"), news[0].get("apiVersion"))
        beta = True if versions == (_ALPHA, _BETA) else False if versions == (_BETA, _ALPHA) else None
    body = _comments_body("".join(chunk), head, news[0], beta) if beta is not None else None
    if body is None:  # several documents (a kind: List) or no known direction: no comments
        body = dump_all(news)
    if nl != "\n":
        body = body.replace("\n", nl)
    return prefix + body


def _comments_body(text: str, head: int, new: Any, to_beta: bool) -> str | None:
    try:
        from ruamel.yaml import YAML
    except ImportError:  # pragma: no cover - ruamel is a declared dependency
        return None
    import io

    yaml = YAML(typ="rt")
    yaml.allow_duplicate_keys = False
    yaml.preserve_quotes = True
    try:
        src_docs = [d for d in yaml.load_all(text) if d is not None]
    except Exception:  # noqa: BLE001 - any ruamel failure: no comments
        return None
    if len(src_docs) != 1:
        return None
    src = src_docs[0]
    if _get(src, "kind") == "List" and isinstance(_get(src, "items"), list):
        return None  # the converted document is an item, not this root: no comments
    comments = _collect(src, text.splitlines(), head)
    kind = new.get("kind") if isinstance(new, dict) else None
    doc = _Builder(src, comments, to_beta, kind if isinstance(kind, str) else "").value(new, [(src, {})], (), 0)
    emitter = YAML(typ="rt")
    emitter.indent(mapping=_MAP_IND, sequence=_SEQ_IND, offset=_SEQ_OFF)
    emitter.width = 1 << 30
    buf = io.StringIO()
    emitter.dump(doc, buf)
    body = buf.getvalue()
    footer = comments.footer
    while footer and not footer[-1]:
        footer = footer[:-1]
    if footer:
        body += "".join((t or "") + "\n" for t in footer)
    return body
