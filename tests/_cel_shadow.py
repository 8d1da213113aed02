"""The CEL shadow check (docs/decisions.md D40): every rule a hand-written fast path decides
(``_schema/_cel_rules.py``) is evaluated again by the CEL engine on the same ``self`` / ``oldSelf``,
and a disagreement is recorded with the rule, the input and both results.

``_schema/_cel.py`` carries the hook only (``fast_path_hook``, None in normal runs); tests/conftest.py
installs a session-wide :class:`Shadow` under ``CI`` (or ``DYNAMO_SCHEMA_CEL_SHADOW=1``) and fails the
test that saw a disagreement, and the session. What is compared is the rule's outcome: true, false, or
the runtime error's text (from which the cause's detail is built). The message of a failed rule is the
same function of the outcome on both sides: ``message`` / ``failed rule: …``, or a ``messageExpression``,
which the engine evaluates whichever side decided the rule, so equal outcomes give equal messages.
"""

from __future__ import annotations

import reprlib
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from dynamo_schema._schema import _cel as C
from dynamo_schema._schema import _cel_engine as E

if TYPE_CHECKING:
    from dynamo_schema._schema._cel_rules import Rule  # a type alias for the checker only (D56)

Outcome = tuple[str, Any]  # ("value", bool) | ("error", text) | ("exception", repr)

_REPR = reprlib.Repr()
_REPR.maxstring = 120
_REPR.maxother = 120
_REPR.maxlist = 8
_REPR.maxdict = 12
_REPR.maxlevel = 6


def _outcome(fn: Callable[[Any, Any], Any], s: Any, old: Any) -> Outcome:
    try:
        return ("value", fn(s, old) is True)
    except C.CelError as e:
        return ("error", str(e))
    except E.CelCompileError as e:
        return ("exception", f"CelCompileError: {e}")


class Shadow:
    """A hook for ``_cel.fast_path_hook`` that counts the fast-path evaluations it checked and keeps
    the disagreements (one text each)."""

    def __init__(self) -> None:
        self.checked = 0
        self.disagreements: list[str] = []
        self.test = ""  # the running test's node id (set by tests/conftest.py)
        self.seconds = 0.0  # time spent in the engine's evaluations (the check's cost)

    def hook(self, rule: dict[str, Any], node: Any, path: tuple[str | int, ...], fast: Rule) -> Rule:
        text = str(rule["rule"])
        optional = bool(rule.get("optionalOldSelf"))

        def run(s: Any, old: Any) -> bool:
            raised: C.CelError | None = None
            try:
                got: Outcome = ("value", fast(s, old) is True)
            except C.CelError as e:
                got, raised = ("error", str(e)), e
            except Exception as e:  # a crash of the translation: report it, then let it propagate
                self._record(text, path, s, old, ("exception", repr(e)), self._engine(text, optional, node, s, old))
                raise
            if not E.available():  # no engine (or a test that takes it away): nothing to compare with
                if raised is not None:
                    raise raised
                return got[1] is True
            t0 = time.perf_counter()
            want = self._engine(text, optional, node, s, old)
            self.seconds += time.perf_counter() - t0
            self.checked += 1
            if got != want:
                self._record(text, path, s, old, got, want)
            if raised is not None:
                raise raised
            return got[1] is True

        return run

    @staticmethod
    def _engine(text: str, optional: bool, node: Any, s: Any, old: Any) -> Outcome:
        return _outcome(C._engine_rule(text, optional, node), s, old)

    def _record(self, text: str, path: tuple[str | int, ...], s: Any, old: Any, got: Outcome, want: Outcome) -> None:
        short = C.rule_id(text) or "?"
        where = ".".join(str(p) for p in path) or "<root>"
        old_text = "optional.none()" if old is C.NONE else _REPR.repr(old)
        self.disagreements.append(
            f"{short} at {where}: fast path {_fmt(got)}, engine {_fmt(want)}\n"
            f"    rule: {text}\n    self: {_REPR.repr(s)}\n    oldSelf: {old_text}"
            + (f"\n    test: {self.test}" if self.test else "")
        )

    @contextmanager
    def installed(self) -> Iterator[Shadow]:
        """This shadow as ``_cel.fast_path_hook`` for the block (the previous hook restored after)."""
        before = C.fast_path_hook
        C.fast_path_hook = self.hook
        try:
            yield self
        finally:
            C.fast_path_hook = before


def _fmt(o: Outcome) -> str:
    kind, v = o
    if kind == "value":
        return "true" if v else "false"
    return f"{kind} {v!r}"
