"""Every operator-verified case (``../shared/reference/dynamo/operator-cases``) through the library.

The expected values are what the operator's own admission and reconcilers produce at the reference
revision 2a6da14c (see that folder's README), so they outrank every other source of expectations. A case
passes when every aspect agrees (``_operator_cases.ASPECTS``: verdict, causes, defaulted, objects). An
aspect that differs is a failure unless ``operator_cases_allowed.yaml`` lists it for that case with the
reason the operator's value cannot be reproduced offline; a listed aspect that agrees fails too (the list
only shrinks). ``python tools/operator_cases.py`` prints the counts per aspect and the differences.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from tests import _yaml as k8s_yaml

from . import _operator_cases as oc

pytestmark = pytest.mark.shared

ALLOWED_FILE = Path(__file__).with_name("operator_cases_allowed.yaml")
CASES = oc.case_files()
GOLDEN_CASES = oc.case_files(oc.GOLDENS_DIR)


def allowed() -> dict[str, dict[str, str]]:
    data = yaml.safe_load(ALLOWED_FILE.read_text(encoding="utf-8")) or {}
    assert isinstance(data, dict)
    return data


def _brief(value: Any, limit: int = 4000) -> str:
    text = k8s_yaml.dump(value) if not isinstance(value, str) else value
    return text if len(text) <= limit else text[:limit] + "\n…"


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_operator_case(path: Path) -> None:
    case = oc.load_case(path)
    outcome = oc.run(case)
    listed = allowed().get(path.name, {})
    unexpected = [a for a in outcome.differing if a not in listed]
    stale = [a for a in listed if outcome.agree.get(a) is not False]
    lines = []
    for aspect in unexpected:
        want, got = outcome.detail[aspect]
        lines.append(f"{aspect} differs from the operator:\n--- operator\n{_brief(want)}\n--- ours\n{_brief(got)}")
    for aspect in stale:
        lines.append(f"{aspect} is allow-listed but agrees now (or no longer applies): remove it from "
                     f"{ALLOWED_FILE.name}")
    assert not lines, f"{path.name} ({case.get('about', {}).get('knownDifferences')}):\n" + "\n".join(lines)


def test_case_set_is_the_published_one() -> None:
    """The README's counts: a changed reference set is a visible change here."""
    kinds = {"allowed": 0, "refused": 0}
    for path in CASES:
        kinds["allowed" if "-ok." in path.name else "refused"] += 1
    assert len(CASES) == 1200
    assert kinds == {"allowed": 720, "refused": 480}


def test_allow_list_entries_name_cases_and_reasons() -> None:
    names = {p.name for p in CASES}
    for name, aspects in allowed().items():
        assert name in names, f"{name}: no such case"
        assert isinstance(aspects, dict) and aspects, name
        for aspect, reason in aspects.items():
            assert aspect in oc.ASPECTS, f"{name}: unknown aspect {aspect!r}"
            assert isinstance(reason, str) and len(reason) >= 20 and "UNEXPLAINED" not in reason, (
                f"{name} {aspect}: an allow-listed difference needs the reason the operator's value cannot be "
                "reproduced offline")
