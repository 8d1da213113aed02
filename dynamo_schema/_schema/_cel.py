"""The CRDs' ``x-kubernetes-validations`` (CEL) rules, evaluated offline.

Any rule is evaluated by a real CEL engine (``_cel_engine``: cel-cpp with the Kubernetes CEL
libraries as a shim), imported only when a document reaches a rule without a fast path. The distinct
rule strings of the DGD / DCD CRDs (v1beta1 and v1alpha1) also have a hand-written Python translation
(``_cel_rules.py``), keyed by the exact rule text: a fast path that keeps the engine out of the one-file
``validate`` run, proven equal to the engine (results and error texts) by a Hypothesis test
(tests/schema/test_cel_engine.py). Without the engine (Python 3.10: no wheels) only the fast path
runs and any other rule is reported as ``cel.untranslated``. The walk follows the schema alongside the
data (``$ref`` included) the way ``apiextensions-apiserver``'s CEL validator does
(``schema/cel/validation.go``):

* schema defaults are applied first (the API server defaults before it validates: ``_defaulting.py``);
* a null value is not validated; rules run on every node that has them;
* transition rules (using ``oldSelf``) run only when a correlatable old value exists (object
  properties, map values, items of ``x-kubernetes-list-type: map`` lists matched by key); a rule with
  ``optionalOldSelf: true`` also runs on create, with ``oldSelf`` = ``optional.none()``;
* a failed rule is the field error ``Invalid value: <message>`` (Kubernetes 1.36; ``Forbidden`` /
  ``Required value`` / ``Duplicate value`` for ``reason``), on the node's path plus ``fieldPath`` (read
  as ``ValidFieldPath`` reads it; on the node's path alone when that finds it invalid);
  the message is ``messageExpression``'s value when it evaluates to a usable string, else
  ``message``, else ``failed rule: <rule>``; a runtime error (e.g. a missing key) is
  ``Invalid value: no such key: <k> evaluating rule: <message or rule>``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .._core._diagnostics import Diagnostic, Path
from .._k8s._gofmt import OMIT, field_error
from ._cel_rules import BY_NORM as _BY_NORM
from ._cel_rules import NONE, RULES, CelError, rule_id
from ._cel_rules import norm as _norm
from ._cel_rules import uses_old_self as _uses_old_self
from ._defaulting import apply_schema_defaults, defaulted_view
from ._nodes import Node, compile_schema, has_below

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

    from ._cel_rules import Rule

__all__ = [
    "BLOCKED_MESSAGE",
    "NONE",
    "RULES",
    "CelError",
    "apply_schema_defaults",
    "has_blocking_errors",
    "rule_id",
    "validate_cel",
]


# --- evaluation ----------------------------------------------------------------------------------

fast_path_hook: Callable[[dict[str, Any], Node, Path, Rule], Rule] | None = None
"""None in normal runs. The test session's shadow check (tests/_cel_shadow.py, docs/decisions.md D40)
sets it to wrap each fast-path function ``(rule, node, path, fn) -> fn`` before it decides a rule."""

_REASONS = {"FieldValueForbidden", "FieldValueRequired", "FieldValueDuplicate", "FieldValueInvalid"}


_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", "'": "'", "\\": "\\"}
_ESCAPE = re.compile(r"\\.")  # like Go's regexp: "." does not match a newline


def _unescape_single_quote(s: str) -> str | None:
    """The inside of a ``['...']`` key as ``unescapeSingleQuote`` (apiextensions-apiserver
    ``pkg/apiserver/schema/cel/validation.go``) reads it: ``\\a \\b \\f \\n \\r \\t \\v \\' \\\\`` are the
    control character, quote or backslash; any other escaped character is an error (None). A backslash
    before a newline or at the very end is not an escape and stays."""
    bad = False

    def one(m: re.Match[str]) -> str:
        nonlocal bad
        out = _ESCAPES.get(m.group()[1])
        if out is None:
            bad = True
            return ""
        return out

    out = _ESCAPE.sub(one, s)
    return None if bad else out


def _field_path_tokens(fp: str) -> list[str]:
    """``ValidFieldPath``'s scanner: ``.``, ``[`` and ``]`` are one-character tokens, the text between them
    is a token, and a token that starts with ``'`` runs to the next ``'`` not right after a backslash
    (delimiters inside it included), or to the end of the path when there is none."""
    out: list[str] = []
    i, n = 0, len(fp)
    while i < n:
        if fp[i] == "'":
            j = i + 1
            while j < n and not (fp[j] == "'" and fp[j - 1] != "\\"):
                j += 1
            j = min(j + 1, n)
        elif fp[i] in ".[]":
            j = i + 1
        else:
            j = i
            while j < n and fp[j] not in ".[]":
                j += 1
        out.append(fp[i:j])
        i = j
    return out


def _field_path(fp: str, node: Node | None) -> Path | None:
    """``fieldPath`` relative to the rule's node (``ValidFieldPath``): ``.name`` and ``['key']`` steps, each
    a property of the schema it reaches (when it has ``properties``) or a key of its
    ``additionalProperties``. None where Kubernetes finds the path invalid (a syntax error, a bad escape,
    an unknown property, a step below a schema with neither): the CRD would be refused, and at run time
    ``compileRule`` leaves ``NormalizedRuleFieldPath`` empty, so the error lands on the rule's node."""
    out: list[str | int] = []
    toks = _field_path_tokens(fp)
    i = 0
    while i < len(toks):
        tok = toks[i]
        if tok == "[":
            if i + 1 >= len(toks):
                return None
            quoted = toks[i + 1]
            if len(quoted) < 2 or quoted[0] != "'" or quoted[-1] != "'":
                return None
            name = _unescape_single_quote(quoted[1:-1])
            if name is None:
                return None
            if i + 2 >= len(toks) or toks[i + 2] != "]":
                return None
            step = 3
        elif tok == ".":
            if i + 1 >= len(toks):
                return None
            name, step = toks[i + 1], 2
        else:
            return None
        if node is None:
            return None
        if node.props_raw is not None:
            node = node.prop(name)
            if node is None:
                return None
        elif node.addl is not None:
            node = node.additional()
        else:
            return None
        out.append(name)
        i += step
    return tuple(out)


def _field_error(value_type: str, detail: str, reason: str | None) -> str:
    """The field error a failed rule becomes (``reason`` picks the constructor). Kubernetes 1.36 omits
    the value of an ``Invalid value`` CEL error (``Invalid value: <message>``; older releases printed
    the schema type, ``Invalid value: "object": <message>``: the operator cases, e.g.
    ``0099-dgd-grove-kvtransfer-preferred-no-weig-denied``); a duplicate still names the type."""
    if reason == "FieldValueForbidden":
        return field_error("Forbidden", OMIT, detail)
    if reason == "FieldValueRequired":
        return field_error("Required value", OMIT, detail)
    if reason == "FieldValueDuplicate":
        return field_error("Duplicate value", value_type)
    return field_error("Invalid value", OMIT, detail)


def _error_string(rule: dict[str, Any]) -> str:
    msg = rule.get("message")
    if isinstance(msg, str) and msg:
        return msg.strip()
    return str(rule.get("rule", "")).strip()


def _message(rule: dict[str, Any]) -> str:
    msg = rule.get("message")
    if isinstance(msg, str) and msg:
        return msg.strip()
    return f"failed rule: {_error_string(rule)}"


class _Walk:
    def __init__(self) -> None:
        self.diags: list[Diagnostic] = []


def _value_type(node: Node, value: Any) -> str:
    t = node.schema_type
    if t:
        return t
    return ""


#: Per list of rules (a schema node's ``x-kubernetes-validations``, kept alive here): each rule with its text,
#: normalised text, ``optionalOldSelf`` and whether it reads ``oldSelf`` (pure functions of the rule, made once;
#: the translation itself is looked up at every evaluation, so a patched ``BY_NORM`` is seen).
_RULE_PLANS: dict[int, tuple[Any, list[tuple[dict[str, Any], str, str, bool, bool]]]] = {}


def _rule_plan(validations: Any) -> list[tuple[dict[str, Any], str, str, bool, bool]]:
    hit = _RULE_PLANS.get(id(validations))
    if hit is not None and hit[0] is validations:
        return hit[1]
    plan = []
    for rule in validations:
        text = rule.get("rule")
        if not isinstance(text, str) or not text.strip():
            continue
        plan.append((rule, text, _norm(text), bool(rule.get("optionalOldSelf")), _uses_old_self(text)))
    _RULE_PLANS[id(validations)] = (validations, plan)
    return plan


def _eval_rules(w: _Walk, node: Node, obj: Any, old: Any, path: Path) -> None:
    for rule, text, normed, optional_old, transition in _rule_plan(node.validations):
        hit = _BY_NORM.get(normed)
        if transition and old is None and not optional_old:
            continue  # transition rules need a comparable old value
        vt = _value_type(node, obj)
        old_arg: Any = old
        if optional_old and old is None:
            old_arg = NONE
        if hit is not None:
            short, fn = hit
            rid = f"cel.{short}"
            if fast_path_hook is not None:
                fn = fast_path_hook(rule, node, path, fn)
        else:
            from . import _cel_engine

            if not _cel_engine.available():
                w.diags.append(Diagnostic("cel.untranslated", path,
                                          f"rule not evaluated offline (no CEL engine installed): {text.strip()}",
                                          "warning"))
                continue
            rid = "cel.rule"
            fn = _engine_rule(text, optional_old, node)
        try:
            ok = fn(obj, old_arg)
        except CelError as e:
            err = str(e)
            if err.startswith("no such overload"):
                detail = (
                    f"'{err}': call arguments did not match a supported operator, function or macro signature "
                    f"for rule: {_error_string(rule)}"
                )
            else:
                detail = f"{err} evaluating rule: {_error_string(rule)}"
            w.diags.append(Diagnostic(rid, path, field_error("Invalid value", OMIT, detail)))
            continue
        except _compile_error() as e:
            w.diags.append(Diagnostic("cel.untranslated", path,
                                      f"rule not evaluated offline (does not compile: {e}): {text.strip()}",
                                      "warning"))
            continue
        if ok is True:
            continue
        fp = rule.get("fieldPath")
        rel = _field_path(fp, node) if isinstance(fp, str) and fp else None
        p = path + rel if rel is not None else path
        reason = rule.get("reason")
        reason = reason if isinstance(reason, str) and reason in _REASONS else None
        msg = _message_expression(rule, node, obj, old_arg)
        w.diags.append(Diagnostic(rid, p, _field_error(vt, msg if msg is not None else _message(rule), reason)))


def _compile_error() -> type[Exception]:
    from ._cel_engine import CelCompileError

    return CelCompileError


def _engine_rule(text: str, optional_old: bool, node: Node) -> Rule:
    """The engine's evaluation of ``text`` as a rule function (``self`` typed by ``node``)."""
    from . import _cel_engine

    def run(s: Any, old: Any) -> bool:
        o = old if old is NONE or old is None else to_cel(old, node)
        return _cel_engine.evaluate(text, to_cel(s, node), o, optional_old_self=optional_old) is True

    return run


_MAX_MESSAGE_EXPRESSION = 5 * 1024  # celconfig.MaxEvaluatedMessageExpressionSizeBytes


def _message_expression(rule: dict[str, Any], node: Node, obj: Any, old: Any) -> str | None:
    """The value of the rule's ``messageExpression``, or None when it is absent or unusable: like the
    API server, an evaluation error, a non-string, an empty or multi-line string, or one over 5 KiB
    falls back to ``message`` / ``failed rule: <rule>`` (without a CEL engine, likewise)."""
    expr = rule.get("messageExpression")
    if not isinstance(expr, str) or not expr.strip():
        return None
    from . import _cel_engine

    if not _cel_engine.available():
        return None
    # the API server binds oldSelf plainly here (not as an optional), when there is an old value
    o = None if old is NONE or old is None else to_cel(old, node)
    try:
        val = _cel_engine.evaluate(expr, to_cel(obj, node), o)
    except (CelError, _cel_engine.CelCompileError):
        return None
    if not isinstance(val, str):
        return None
    val = val.strip()
    if not val or "\n" in val or len(val.encode()) > _MAX_MESSAGE_EXPRESSION:
        return None
    return val


def to_cel(value: Any, node: Node | None) -> Any:
    """``value`` as the API server hands it to CEL: an integer where the schema says ``number`` is a
    double (other values unchanged; containers copied only where something changed)."""
    if node is None:
        return value
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return float(value) if node.schema_type == "number" else value
    if isinstance(value, dict):
        out: dict[str, Any] | None = None
        props = node.props_raw
        for k, v in value.items():
            if not isinstance(v, (dict, list, int)) or isinstance(v, bool):
                continue
            sub = node.prop(k) if props is not None else None
            if sub is None:
                sub = node.additional()
            nv = to_cel(v, sub)
            if nv is not v:
                if out is None:
                    out = dict(value)
                out[k] = nv
        return value if out is None else out
    if isinstance(value, list):
        item = node.items()
        if item is None:
            return value
        conv = [to_cel(v, item) for v in value]
        return value if all(a is b for a, b in zip(conv, value)) else conv
    return value


def _walk(w: _Walk, node: Node | None, obj: Any, old: Any, path: Path) -> None:
    if node is None or obj is None:
        return
    if not has_below(node, "x-kubernetes-validations"):  # no rule here or below
        return
    if node.validations:
        _eval_rules(w, node, obj, old, path)
    for b in node.all_of:
        _walk(w, b, obj, old, path)
    if isinstance(obj, dict):
        old_map = old if isinstance(old, dict) else None
        props = node.props_raw
        for k, v in obj.items():
            sub = node.prop(k) if props is not None else None
            if sub is None:
                sub = node.additional()
            if sub is None:
                continue
            ov = old_map.get(k) if old_map is not None else None
            _walk(w, sub, v, ov, path + (k,))
    elif isinstance(obj, list):
        item = node.items()
        if item is None:
            return
        old_by_key: dict[Any, Any] | None = None
        if node.list_type == "map" and node.map_keys and isinstance(old, list):
            old_by_key = {}
            for o in old:
                if isinstance(o, dict):
                    old_by_key.setdefault(_map_key(o, node.map_keys), o)
        for i, v in enumerate(obj):
            ov = None
            if old_by_key is not None and isinstance(v, dict):
                ov = old_by_key.get(_map_key(v, node.map_keys))
            _walk(w, item, v, ov, path + (i,))


def _map_key(o: dict[str, Any], keys: tuple[str, ...]) -> tuple[Any, ...]:
    return tuple((type(o.get(k)).__name__, repr(o.get(k))) for k in keys)


# Kubernetes 1.36 prints the nil value as ``null`` (unquoted): the operator cases, e.g.
# ``0035-dgd-k8s-backend-enum-denied``
BLOCKED_MESSAGE = (
    "Invalid value: null: some validation rules were not checked because the object was invalid; "
    "correct the existing errors to complete validation"
)

# OpenAPI failures the API server treats as blocking for CEL (strategy.go hasBlockingErr):
# NotSupported (enum), Required, TooLong, TooMany, TypeInvalid.
_BLOCKING_RULES = frozenset(
    {
        "schema.enum",
        "schema.required",
        "schema.max-length",
        "schema.max-items",
        "schema.max-properties",
        "schema.type",
    }
)


def has_blocking_errors(diags: list[Diagnostic]) -> bool:
    """Whether structural errors would stop the API server from running the CEL rules."""
    return any(d.rule in _BLOCKING_RULES and d.severity == "error" for d in diags)


_HAS_RULES: dict[int, tuple[Any, bool]] = {}


def _has_rules(schema: Any) -> bool:
    """Whether any ``x-kubernetes-validations`` occurs in ``schema`` (memoised per schema object)."""
    hit = _HAS_RULES.get(id(schema))
    if hit is not None and hit[0] is schema:
        return hit[1]
    stack, found = [schema], False
    while stack and not found:
        x = stack.pop()
        if isinstance(x, dict):
            found = bool(x.get("x-kubernetes-validations"))
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    _HAS_RULES[id(schema)] = (schema, found)
    return found


def validate_cel(
    data: Any,
    schema: dict[str, Any],
    *,
    old: Any = None,
    root_path: Path = (),
    structural: list[Diagnostic] | None = None,
    check_blocking: bool = True,
    status_subresource: bool = False,
    defaulted: bool = False,
) -> list[Diagnostic]:
    """Evaluate every ``x-kubernetes-validations`` rule of ``schema`` on ``data`` (create; or update
    when ``old`` is given). ``data`` is defaulted with the schema defaults first (not modified).

    Like the API server, CEL is skipped when the OpenAPI validation has a blocking error (type /
    enum / required / too long / too many): one ``cel.not-checked`` error is returned instead.
    ``structural`` passes the diagnostics of :func:`dynamo_schema._schema._structural.validate` on the same
    data (otherwise they are computed); ``check_blocking=False`` evaluates the rules regardless.
    ``status_subresource``: ``status`` is dropped before validation (see ``_structural.validate``).
    ``defaulted``: ``data`` carries every schema default already (the admission defaulting ran on it last
    and nothing was pruned since), so its defaulted view is ``data`` itself and is not computed again
    (``tests/schema/test_cel_defaulted.py`` checks that identity on the corpus and the operator cases).
    """
    path = tuple(root_path)
    if status_subresource:
        if isinstance(data, dict) and "status" in data:
            data = {k: v for k, v in data.items() if k != "status"}
        if isinstance(old, dict) and "status" in old:
            old = {k: v for k, v in old.items() if k != "status"}
    if check_blocking:
        if structural is None:
            from ._structural import validate as _validate

            structural = _validate(data, schema, strict=False, root_path=path)
        if has_blocking_errors(structural):
            # the server's CEL validator exists only when the schema has rules (no rules, no message)
            return [Diagnostic("cel.not-checked", path, BLOCKED_MESSAGE)] if _has_rules(schema) else []
    node = compile_schema(schema)
    obj = data if defaulted else defaulted_view(data, node)  # the rules only read: copied where a default lands
    old_obj = defaulted_view(old, node) if old is not None else None
    w = _Walk()
    _walk(w, node, obj, old_obj, path)
    return w.diags


TYPE_IMMUTABLE = "type is immutable after it is set"


def newer_transition_rules(new: Any, old: Any, have: list[Diagnostic]) -> list[Diagnostic]:
    """Transition rules that newer upstream CRDs carry but the bundled (reference) schema does not.

    ``!has(oldSelf.type) || (has(self.type) && self.type == oldSelf.type)`` on DGD components and the DCD
    spec (``type is immutable after it is set``; upstream admission tests expect it at
    ``spec.components[i]`` / ``spec``; v1alpha1: ``componentType is immutable after it is set``). Skipped
    when the CEL stage already reported it. List-map items are correlated by ``name``.
    """
    if not isinstance(new, dict) or not isinstance(old, dict):
        return []
    if any("immutable after it is set" in d.message and "ype" in d.message for d in have):
        return []
    alpha = new.get("apiVersion") == "nvidia.com/v1alpha1"
    field = "componentType" if alpha else "type"
    msg = f"Invalid value: {field} is immutable after it is set"
    nspec: dict[str, Any] = new["spec"] if isinstance(new.get("spec"), dict) else {}
    ospec: dict[str, Any] = old["spec"] if isinstance(old.get("spec"), dict) else {}
    if new.get("kind") == "DynamoComponentDeployment":
        if field in ospec and ospec.get(field) != nspec.get(field):
            return [Diagnostic("cel.type-immutable", ("spec",), msg)]
        return []
    if new.get("kind") != "DynamoGraphDeployment":
        return []
    if alpha:
        olds: dict[str, Any] = ospec["services"] if isinstance(ospec.get("services"), dict) else {}
        news: dict[str, Any] = nspec["services"] if isinstance(nspec.get("services"), dict) else {}
        return [Diagnostic("cel.type-immutable", ("spec", "services", name), msg)
                for name, svc in news.items()
                if isinstance(svc, dict) and isinstance(olds.get(name), dict) and field in olds[name]
                and olds[name].get(field) != svc.get(field)]
    # unvalidated input: only lists of mappings with string names take part (the schema check reports
    # anything else)
    ocomps, ncomps = ospec.get("components"), nspec.get("components")
    if not isinstance(ocomps, list) or not isinstance(ncomps, list):
        return []
    olds_by_name = {c["name"]: c for c in ocomps if isinstance(c, dict) and isinstance(c.get("name"), str)}
    out: list[Diagnostic] = []
    for i, c in enumerate(ncomps):
        if not isinstance(c, dict) or not isinstance(c.get("name"), str):
            continue
        oc = olds_by_name.get(c["name"])
        if oc is not None and field in oc and oc.get(field) != c.get(field):
            out.append(Diagnostic("cel.type-immutable", ("spec", "components", i), msg))
    return out
