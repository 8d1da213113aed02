"""``_core._lazyre.lazy``: the compiled pattern's behaviour, compiled on first use only."""

from __future__ import annotations

import re
import subprocess
import sys

from dynamo_schema._core._lazyre import lazy


def test_a_lazy_pattern_is_the_compiled_pattern_once_used() -> None:
    text, flags = r"^(.*/)?(python\d*(\.\d+)*)\Z", re.ASCII
    rx, real = lazy(text, flags), re.compile(text, flags)
    assert rx._compiled is None  # type: ignore[attr-defined]
    for s in ("python3", "/usr/bin/python3.11", "python\u0663", "sh", "", "a/python3.x"):
        m, n = rx.match(s), real.match(s)
        assert (m is None) is (n is None), s
        assert m is None or n is None or m.groups() == n.groups(), s
    assert rx._compiled is not None  # type: ignore[attr-defined]
    assert (rx.pattern, rx.flags) == (real.pattern, real.flags)
    assert lazy(r"\$\((\w+)\)").sub(r"<\1>", "a $(B) c $(D)") == "a <B> c <D>"
    assert repr(lazy("x+", 0)) == "lazy('x+', 0)"


def test_the_lazy_patterns_of_a_package_module_are_not_compiled_by_importing_it() -> None:
    code = ("import dynamo_schema._render._backends as b, dynamo_schema._io._load as l\n"
            "print(b._PYTHON_CMD._compiled, b._K8S_VAR._compiled, l._STRUCTURE._compiled)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["None", "None", "None"]
