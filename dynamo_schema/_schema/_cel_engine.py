"""A real CEL engine behind a small interface, with the Kubernetes CEL libraries the CRDs use.

The engine is Google's CEL C++ runtime (``cel-expr-python``, see docs/decisions.md D17). It is
imported on first use only: a document whose rules all have a fast path in ``_cel.py`` never loads it.

* :func:`compile_rule` compiles a rule once (cached per rule text and ``optionalOldSelf`` flag);
* :func:`evaluate` runs it with ``self`` (and ``oldSelf``) bound to JSON-like values and returns the
  result, or raises :class:`CelRuntimeError` with cel-go's error text (``no such key: x``,
  ``no such overload`` ...), or :class:`CelCompileError`.

CEL semantics are the engine's: commutative error absorption of ``||`` / ``&&``, heterogeneous
equality, ``has()`` on maps. The Kubernetes libraries (``k8s.io/apiserver/pkg/cel/library``) that
cel-cpp lacks are added here in Python: ``quantity`` (a quantity is a map with one reserved key, its
exact decimal value, so ``==`` compares values as ``Quantity.Equal`` does), ``lists`` (``isSorted``,
``sum``, ``min``, ``max``, ``indexOf``, ``lastIndexOf``) and the cel-go ``strings`` extension (v2:
``charAt``, ``indexOf``, ``lastIndexOf``, ``lowerAscii``, ``upperAscii``, ``replace``, ``split``,
``substring``, ``trim``, ``join``, ``strings.quote``) and ``sets`` (``sets.contains``,
``sets.equivalent``, ``sets.intersects``). ``optional`` (``?.``, ``[?]``, ``orValue``,
``hasValue``, ``optional.of/none``) and ``cel.bind`` come from the engine's own extensions.
Not shimmed (a rule using them is a compile error, reported as not evaluated): ``url``, ``ip``,
``cidr``, ``format``, ``regex`` (``find``), ``authz``, two-variable comprehensions.
"""

from __future__ import annotations

from decimal import Decimal
from functools import cache

from .._core._lazyre import lazy

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "ABSENT",
    "CelCompileError",
    "CelRuntimeError",
    "available",
    "compile_rule",
    "evaluate",
]


class CelRuntimeError(Exception):
    """A CEL evaluation error; ``str()`` is cel-go's text (``no such key: name`` ...)."""


class CelCompileError(Exception):
    """The rule does not compile here (syntax, or a function this shim does not provide)."""


class _Absent:
    def __repr__(self) -> str:
        return "optional.none()"


ABSENT = _Absent()
"""``oldSelf`` of an ``optionalOldSelf`` rule on create (``optional.none()``)."""


@cache
def available() -> bool:
    """Whether the engine can be imported (it has no wheels for Python 3.10)."""
    try:
        import cel_expr_python.cel  # noqa: F401
    except ImportError:
        return False
    return True


# --- errors --------------------------------------------------------------------------------------

_STATUS = lazy(r"^[A-Z_]+: ")
_NOT_FOUND = lazy(r'^Key not found in map : "?(.*?)"?$')
_INDEX = lazy(r"^Index error: index=(-?\d+) size=(\d+)$")


def _go_text(err: str) -> str:
    """cel-cpp's error text as cel-go words it (the API server reports cel-go's)."""
    err = err.strip()
    if err.endswith("]") and " [" in err:  # absl status payload tag
        err = err[: err.rindex(" [")]
    err = _STATUS.sub("", err, count=1)
    m = _NOT_FOUND.match(err)
    if m:
        return f"no such key: {m.group(1)}"
    m = _INDEX.match(err)
    if m:
        return f"index '{m.group(1)}' out of range in list size '{m.group(2)}'"
    if err.startswith("No matching overloads found") or err.startswith("No such overload"):
        return "no such overload"
    if err in ("divide by zero", "division by zero"):
        return "division by zero"
    if err in ("modulus by zero", "modulo by zero"):
        return "modulus by zero"
    return err


# --- values --------------------------------------------------------------------------------------

_QKEY = "@k8s.io/quantity"


def _is_num(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _cel_eq(a: Any, b: Any) -> bool:
    """CEL ``==`` (heterogeneous: numbers compare by value, other kinds must agree)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if _is_num(a) and _is_num(b):
        return bool(a == b)
    if type(a) is not type(b) and not (isinstance(a, str) and isinstance(b, str)):
        if not (isinstance(a, dict) and isinstance(b, dict)) and not (isinstance(a, list) and isinstance(b, list)):
            return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_cel_eq(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_cel_eq(v, b[k]) for k, v in a.items())
    return bool(a == b)


def _overload() -> CelRuntimeError:
    return CelRuntimeError("no such overload")


# quantity library (k8s.io/apiserver/pkg/cel/library/quantity.go)

_QUANTITY_FORMAT_ERROR = (
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
)


def _q(d: Decimal) -> dict[str, str]:
    d = d.normalize()
    return {_QKEY: format(d, "f") if d == d.to_integral_value() or abs(d.adjusted()) < 40 else str(d)}


def _qv(x: Any) -> Decimal:
    if not isinstance(x, dict) or len(x) != 1 or _QKEY not in x:
        raise _overload()
    return Decimal(x[_QKEY])


def _parse_q(s: str) -> Decimal | None:
    from .._k8s._quantity import parse_quantity

    return parse_quantity(s)


def _quantity(s: str) -> dict[str, str]:
    d = _parse_q(s)
    if d is None:
        raise CelRuntimeError(_QUANTITY_FORMAT_ERROR)
    return _q(d)


def _quantity_int(_: int) -> dict[str, str]:
    # an int-or-string field holding an int: cel-go has no quantity(int) overload (kubectl-validate's text)
    raise CelRuntimeError("no such overload: quantity(int)")


def _is_quantity(s: str) -> bool:
    return _parse_q(s) is not None


def _sign(q: Any) -> int:
    d = _qv(q)
    return 0 if d == 0 else (1 if d > 0 else -1)


def _q_is_integer(q: Any) -> bool:
    d = _qv(q)
    return d == d.to_integral_value() and -(2**63) <= d < 2**63


def _q_as_integer(q: Any) -> int:
    if not _q_is_integer(q):
        raise CelRuntimeError("cannot convert value to integer")
    return int(_qv(q))


def _q_as_float(q: Any) -> float:
    return float(_qv(q))


def _q_cmp(a: Any, b: Any) -> int:
    x, y = _qv(a), _qv(b)
    return (x > y) - (x < y)


def _q_add(a: Any, b: Any) -> dict[str, str]:
    return _q(_qv(a) + (Decimal(b) if isinstance(b, int) else _qv(b)))


def _q_sub(a: Any, b: Any) -> dict[str, str]:
    return _q(_qv(a) - (Decimal(b) if isinstance(b, int) else _qv(b)))


# lists library (k8s.io/apiserver/pkg/cel/library/lists.go)


def _cmp_key(items: list[Any]) -> list[Any]:
    kinds = {("num" if _is_num(x) else type(x).__name__) for x in items}
    if len(kinds) > 1 or kinds & {"dict", "list", "NoneType"}:
        raise _overload()
    return items


def _is_sorted(items: list[Any]) -> bool:
    _cmp_key(items)
    return all(not (items[i + 1] < items[i]) for i in range(len(items) - 1))


def _sum(items: list[Any]) -> Any:
    if not items:
        return 0
    if not all(_is_num(x) for x in items) or len({type(x) for x in items}) > 1:
        raise _overload()
    total = sum(items)
    if isinstance(total, int) and not -(2**63) <= total < 2**63:
        raise CelRuntimeError("integer overflow")
    return total


def _extreme(items: list[Any], name: str) -> Any:
    """``list.min()`` / ``list.max()``: the first smallest / largest element."""
    if not items:
        raise CelRuntimeError(f"{name} called on empty list")
    _cmp_key(items)
    out = items[0]
    for x in items[1:]:
        if (x < out) if name == "min" else (x > out):
            out = x
    return out


def _min(items: list[Any]) -> Any:
    return _extreme(items, "min")


def _max(items: list[Any]) -> Any:
    return _extreme(items, "max")


def _list_index_of(items: list[Any], x: Any) -> int:
    for i, v in enumerate(items):
        if _cel_eq(v, x):
            return i
    return -1


def _list_last_index_of(items: list[Any], x: Any) -> int:
    for i in range(len(items) - 1, -1, -1):
        if _cel_eq(items[i], x):
            return i
    return -1


# sets extension (cel-go ext/sets.go)


def _sets_contains(a: list[Any], b: list[Any]) -> bool:
    return all(any(_cel_eq(x, y) for y in a) for x in b)


def _sets_equivalent(a: list[Any], b: list[Any]) -> bool:
    return _sets_contains(a, b) and _sets_contains(b, a)


def _sets_intersects(a: list[Any], b: list[Any]) -> bool:
    return any(any(_cel_eq(x, y) for y in a) for x in b)


# strings extension (cel-go ext/strings.go, version 2)


def _char_at(s: str, i: int) -> str:
    if i < 0 or i > len(s):
        raise CelRuntimeError(f"index out of range: {i}")
    return s[i : i + 1]


def _index_of(s: str, sub: str, start: int = 0) -> int:
    """cel-go v0.22.0 (Kubernetes 1.32) ``indexOfOffset``: an empty ``sub`` is found at ``start`` (unchecked); a
    negative start is an error, one at or past the end finds nothing."""
    if sub == "":
        return start
    if start < 0:
        raise CelRuntimeError(f"index out of range: {start}")
    if start >= len(s):
        return -1
    return s.find(sub, start)


def _last_index_of(s: str, sub: str, end: int | None = None) -> int:
    """cel-go v0.22.0 ``lastIndexOf`` / ``lastIndexOfOffset``: without an offset the search starts at the last
    character (so ``''.lastIndexOf('a')`` is an error: offset -1); an empty ``sub`` is found at the offset; a
    negative offset is an error, one at or past the end finds nothing."""
    if end is None:
        if sub == "":
            return len(s)
        end = len(s) - 1
    if sub == "":
        return end
    if end < 0:
        raise CelRuntimeError(f"index out of range: {end}")
    if end >= len(s):
        return -1
    return s.rfind(sub, 0, end + len(sub))


def _lower_ascii(s: str) -> str:
    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in s)


def _upper_ascii(s: str) -> str:
    return "".join(chr(ord(c) - 32) if "a" <= c <= "z" else c for c in s)


def _replace(s: str, old: str, new: str, n: int = -1) -> str:
    if n == 0:
        return s
    if old == "":  # Go strings.Replace: insert around every code point
        parts = list(s)
        k = len(parts) + 1 if n < 0 else min(n, len(parts) + 1)
        out = ""
        for i in range(len(parts) + 1):
            out += (new if i < k else "") + (parts[i] if i < len(parts) else "")
        return out
    return s.replace(old, new, n if n > 0 else -1)


def _split(s: str, sep: str, n: int = -1) -> list[str]:
    if n == 0:
        return []
    if sep == "":
        chars = list(s)
        if n > 0 and len(chars) > n:
            return chars[: n - 1] + ["".join(chars[n - 1 :])]
        return chars
    if n == 1:
        return [s]
    return s.split(sep, n - 1 if n > 0 else -1)


def _substring(s: str, start: int, end: int | None = None) -> str:
    if end is None:
        end = len(s)
    if start < 0 or start > len(s):
        raise CelRuntimeError(f"index out of range: {start}")
    if end < 0 or end > len(s):
        raise CelRuntimeError(f"index out of range: {end}")
    if start > end:
        raise CelRuntimeError(f"invalid substring range. start: {start}, end: {end}")
    return s[start:end]


_WS = "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"


def _trim(s: str) -> str:
    return s.strip(_WS)


def _join(items: list[Any], sep: str = "") -> str:
    if not all(isinstance(x, str) for x in items):
        raise _overload()
    return sep.join(items)


def _quote(s: str) -> str:
    out = ['"']
    for c in s:
        out.append({"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v",
                    "\\": "\\\\", '"': '\\"'}.get(c, c))
    out.append('"')
    return "".join(out)


# --- environment ---------------------------------------------------------------------------------

_OLD = "__oldSelfList"


@cache
def _env() -> Any:
    from cel_expr_python import cel
    from cel_expr_python.ext import ext_bindings, ext_optional

    T = cel.Type
    L, M = T.List(T.DYN), T.Map(T.STRING, T.DYN)
    S, Int, B, D = T.STRING, T.INT, T.BOOL, T.DOUBLE
    scalars = {"int": Int, "uint": T.UINT, "double": D, "string": S, "bool": B, "bytes": T.BYTES,
               "null": T.NULL, "list": L, "map": M}

    def fn(name: str, *overloads: tuple[str, Any, list[Any], bool, Any]) -> Any:
        return cel.FunctionDecl(name, [cel.Overload(oid, ret, params, is_member=member, impl=impl)
                                       for oid, ret, params, member, impl in overloads])

    functions = [
        # quantity
        fn("quantity", ("quantity_string", M, [S], False, _quantity), ("quantity_int", M, [Int], False, _quantity_int)),
        fn("isQuantity", ("is_quantity_string", B, [S], False, _is_quantity)),
        fn("sign", ("quantity_sign", Int, [M], True, _sign)),
        fn("isInteger", ("quantity_is_integer", B, [M], True, _q_is_integer)),
        fn("asInteger", ("quantity_as_integer", Int, [M], True, _q_as_integer)),
        fn("asApproximateFloat", ("quantity_as_float", D, [M], True, _q_as_float)),
        fn("isGreaterThan", ("quantity_is_greater_than", B, [M, M], True, lambda a, b: _q_cmp(a, b) > 0)),
        fn("isLessThan", ("quantity_is_less_than", B, [M, M], True, lambda a, b: _q_cmp(a, b) < 0)),
        fn("compareTo", ("quantity_compare_to", Int, [M, M], True, _q_cmp)),
        fn("add", ("quantity_add", M, [M, M], True, _q_add), ("quantity_add_int", M, [M, Int], True, _q_add)),
        fn("sub", ("quantity_sub", M, [M, M], True, _q_sub), ("quantity_sub_int", M, [M, Int], True, _q_sub)),
        # lists
        fn("isSorted", ("list_is_sorted", B, [L], True, _is_sorted)),
        fn("sum", ("list_sum", T.DYN, [L], True, _sum)),
        fn("min", ("list_min", T.DYN, [L], True, _min)),
        fn("max", ("list_max", T.DYN, [L], True, _max)),
        # sets
        fn("sets.contains", ("list_sets_contains_list", B, [L, L], False, _sets_contains)),
        fn("sets.equivalent", ("list_sets_equivalent_list", B, [L, L], False, _sets_equivalent)),
        fn("sets.intersects", ("list_sets_intersects_list", B, [L, L], False, _sets_intersects)),
        # strings (indexOf / lastIndexOf: string and list overloads under one name)
        fn("charAt", ("string_char_at", S, [S, Int], True, _char_at)),
        cel.FunctionDecl("indexOf", [
            cel.Overload("string_index_of", Int, [S, S], is_member=True, impl=_index_of),
            cel.Overload("string_index_of_int", Int, [S, S, Int], is_member=True, impl=_index_of),
            *[cel.Overload(f"list_index_of_{k}", Int, [L, t], is_member=True, impl=_list_index_of)
              for k, t in scalars.items()]]),
        cel.FunctionDecl("lastIndexOf", [
            cel.Overload("string_last_index_of", Int, [S, S], is_member=True, impl=_last_index_of),
            cel.Overload("string_last_index_of_int", Int, [S, S, Int], is_member=True, impl=_last_index_of),
            *[cel.Overload(f"list_last_index_of_{k}", Int, [L, t], is_member=True, impl=_list_last_index_of)
              for k, t in scalars.items()]]),
        fn("lowerAscii", ("string_lower_ascii", S, [S], True, _lower_ascii)),
        fn("upperAscii", ("string_upper_ascii", S, [S], True, _upper_ascii)),
        fn("replace", ("string_replace", S, [S, S, S], True, _replace),
           ("string_replace_n", S, [S, S, S, Int], True, _replace)),
        fn("split", ("string_split", T.List(S), [S, S], True, _split),
           ("string_split_n", T.List(S), [S, S, Int], True, _split)),
        fn("substring", ("string_substring", S, [S, Int], True, _substring),
           ("string_substring_range", S, [S, Int, Int], True, _substring)),
        fn("trim", ("string_trim", S, [S], True, _trim)),
        fn("join", ("list_join", S, [L], True, _join), ("list_join_string", S, [L, S], True, _join)),
        fn("strings.quote", ("strings_quote", S, [S], False, _quote)),
    ]
    return cel.NewEnv(
        variables={"self": T.DYN, "oldSelf": T.DYN, _OLD: T.DYN},
        extensions=[ext_optional.ExtOptional(), ext_bindings.ExtBindings()],
        functions=functions,
    )


def compile_rule(rule: str, optional_old_self: bool = False) -> Any:
    """The compiled program of ``rule`` (cached). With ``optional_old_self`` ``oldSelf`` is an
    optional value (``optionalOldSelf: true``)."""
    return _compile(rule, optional_old_self)


@cache
def _compile(rule: str, optional_old_self: bool) -> Any:
    if not available():
        raise CelCompileError("no CEL engine is installed (cel-expr-python needs Python 3.11 or newer)")
    text = rule
    if optional_old_self:
        text = (f"cel.bind(oldSelf, size({_OLD}) == 0 ? optional.none() : optional.of({_OLD}[0]), "
                f"({rule}\n))")
    try:
        return _env().compile(text)
    except Exception as e:  # noqa: BLE001 - the engine raises RuntimeError with the checker's issues
        raise CelCompileError(_go_text(str(e).splitlines()[0])) from None


def evaluate(rule: str, self_value: Any, old_self: Any = None, *, optional_old_self: bool = False) -> Any:
    """The value of ``rule`` with ``self`` = ``self_value`` and ``oldSelf`` = ``old_self``
    (:data:`ABSENT` for an absent optional old value). Raises :class:`CelRuntimeError` when the
    evaluation ends in an error, :class:`CelCompileError` when the rule does not compile."""
    prog = _compile(rule, optional_old_self)
    data: dict[str, Any] = {"self": self_value}
    if optional_old_self:
        data[_OLD] = [] if old_self is ABSENT or old_self is None else [old_self]
    elif old_self is not None and old_self is not ABSENT:
        data["oldSelf"] = old_self
    try:
        res = prog.eval(data=data)
    except Exception as e:  # noqa: BLE001 - conversion failures of the input (e.g. ints past int64)
        raise CelRuntimeError(_go_text(str(e))) from None
    if res.type() == _error_type():
        raise CelRuntimeError(_go_text(str(res.value())))
    return res.plain_value()


@cache
def _error_type() -> Any:
    from cel_expr_python import cel

    return cel.Type.ERROR
