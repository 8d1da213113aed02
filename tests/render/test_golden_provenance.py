"""Every project golden states its provenance, and the upstream facts it rests on hold.

golden/<case>/provenance.yaml (format: golden/README.md "Provenance files"):

* ``provenance``: ``operator-verified`` (``operator_case`` names the operator's outputs for this input in
  ``../shared/reference/dynamo/operator-cases/project-goldens``; tests/render/test_project_goldens.py
  checks expected.yaml against them, so the file lists no facts), ``upstream-golden`` (an upstream golden
  input/output pair under ``../shared/reference/dynamo/golden`` covers the case), ``upstream-test`` (the
  case's values are asserted by an upstream Go test at the reference revision) or ``code-citation``
  (only upstream code was read; no upstream test asserts the values);
* ``facts`` (not for operator-verified goldens): values that must hold in expected.yaml, each with its
  upstream source. A fact is a ``needle`` (text of expected.yaml), an ``absent`` text (must not occur in
  expected.yaml), or an ``object`` + ``path`` with ``equals`` (the node, exactly), ``includes`` (a
  contiguous run of a sequence / a sub-mapping / a substring) or ``lacks`` (keys the mapping must not
  have). A fact whose source is an upstream golden (``source.golden``) is a needle that must occur in
  that upstream file as well; a code source names the file and symbol and states the fact in our words
  (``fact``), never quoting upstream code;
* ``upstream_golden`` (upstream-golden, optionally operator-verified): the upstream folder whose
  ``output.yaml`` must match this golden's expected.yaml document for document (kinds the upstream file
  lists, after the API-server defaults the upstream cluster test adds);
* ``unverified`` (not for operator-verified goldens): expected values the case shows that no upstream
  test or golden asserts (said honestly, and still pinned to expected.yaml so the list cannot go stale).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from .matcher import gvk, load_expected, load_yaml12_documents, match_manifests

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
CLASSES = ("operator-verified", "upstream-golden", "upstream-test", "code-citation")
REFERENCE_REVISION = "2a6da14c"
NEWER = "newer"  # upstream code newer than the reference revision (search corpus), not in the fork
TOP_KEYS = {"provenance", "facts", "upstream_golden", "unverified", "note", "operator_case"}
FACT_KEYS = {"needle", "absent", "object", "path", "equals", "includes", "lacks", "source", "note"}
SOURCE_KEYS = {"golden", "file", "symbol", "revision", "fact"}


def _cases() -> list[Path]:
    out = []
    for opt in sorted(GOLDEN.glob("*/options.yaml")):
        data = yaml.load(opt.read_text(), Loader=yaml.CSafeLoader) or {}
        if data.get("target") in {"kubernetes", "grove", "dcd"}:
            out.append(opt.parent)
    return out


CASES = _cases()
IDS = [c.name for c in CASES]


def _provenance(folder: Path) -> dict[str, Any]:
    path = folder / "provenance.yaml"
    assert path.is_file(), f"{folder.name}: provenance.yaml is missing"
    data = load_yaml12_documents(path.read_text(encoding="utf-8"))
    assert len(data) == 1 and isinstance(data[0], dict), f"{path}: one mapping expected"
    return data[0]


def _expected(folder: Path) -> tuple[str, list[dict[str, Any]]]:
    """expected.yaml's text and documents (a refusal golden has none: empty)."""
    path = folder / "expected.yaml"
    if not path.is_file():
        return "", []
    text = path.read_text(encoding="utf-8")
    return text, load_yaml12_documents(text)


def _select(docs: list[dict[str, Any]], ref: dict[str, Any]) -> dict[str, Any]:
    hits = [d for d in docs if d.get("kind") == ref["kind"] and (d.get("metadata") or {}).get("name") == ref["name"]]
    assert len(hits) == 1, f"object {ref}: {len(hits)} documents"
    return hits[0]


def _walk(node: Any, path: list[Any]) -> Any:
    for step in path:
        if isinstance(step, dict):
            ((key, want),) = step.items()
            assert isinstance(node, list), f"{step}: not a sequence"
            hits = [e for e in node if isinstance(e, dict) and e.get(key) == want]
            assert len(hits) == 1, f"{step}: {len(hits)} elements"
            node = hits[0]
        elif isinstance(step, int):
            assert isinstance(node, list) and step < len(node), f"[{step}]: no such element"
            node = node[step]
        else:
            assert isinstance(node, dict) and step in node, f"{step!r}: missing"
            node = node[step]
    return node


def _same(a: Any, b: Any) -> bool:
    """Type-exact equality (the string '8' is not the integer 8), as the golden matcher compares."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def _includes(node: Any, part: Any) -> bool:
    if isinstance(part, str):
        return isinstance(node, str) and part in node
    if isinstance(part, dict):
        return isinstance(node, dict) and all(k in node and _same(node[k], v) for k, v in part.items())
    if isinstance(part, list):
        if not isinstance(node, list):
            return False
        n = len(part)
        return any(_same(node[i:i + n], part) for i in range(len(node) - n + 1))
    return False


def _holds(fact: dict[str, Any], text: str, docs: list[dict[str, Any]]) -> str | None:
    """None when the fact holds in expected.yaml, else why not."""
    if "needle" in fact:
        return None if fact["needle"] in text else f"needle {fact['needle']!r} not in expected.yaml"
    if "absent" in fact:
        return None if fact["absent"] not in text else f"{fact['absent']!r} is in expected.yaml"
    try:
        node = _walk(_select(docs, fact["object"]), fact["path"])
    except AssertionError as exc:
        return f"{fact['object']} {fact['path']}: {exc}"
    if "equals" in fact and not _same(node, fact["equals"]):
        return f"{fact['object']} {fact['path']}: {node!r} != {fact['equals']!r}"
    if "includes" in fact and not _includes(node, fact["includes"]):
        return f"{fact['object']} {fact['path']}: {node!r} does not include {fact['includes']!r}"
    if "lacks" in fact and (not isinstance(node, dict) or set(fact["lacks"]) & set(node)):
        return f"{fact['object']} {fact['path']}: has {sorted(set(fact['lacks']) & set(node))}"
    return None


def _check_shape(case: str, fact: dict[str, Any], *, sourced: bool) -> None:
    assert isinstance(fact, dict), f"{case}: fact {fact!r} is not a mapping"
    assert set(fact) <= FACT_KEYS | {"reason"}, f"{case}: unknown keys {set(fact) - FACT_KEYS}"
    text_keys = {"needle", "absent"} & set(fact)
    if text_keys:
        assert len(text_keys) == 1, f"{case}: needle and absent in one fact: {fact}"
        value = fact[text_keys.pop()]
        assert isinstance(value, str) and value.strip(), f"{case}: empty needle"
        assert not {"object", "path", "equals", "includes", "lacks"} & set(fact), f"{case}: needle mixed with a path fact"
    else:
        assert isinstance(fact.get("object"), dict) and {"kind", "name"} <= set(fact["object"]), f"{case}: {fact}"
        assert isinstance(fact.get("path"), list) and fact["path"], f"{case}: path fact without a path: {fact}"
        assert len({"equals", "includes", "lacks"} & set(fact)) == 1, (
            f"{case}: a path fact needs one of equals / includes / lacks: {fact}")
        assert "lacks" not in fact or isinstance(fact["lacks"], list) and fact["lacks"], f"{case}: {fact}"
    if not sourced:
        assert isinstance(fact.get("reason"), str) and fact["reason"].strip(), f"{case}: unverified without reason"
        return
    assert "reason" not in fact
    src = fact.get("source")
    assert isinstance(src, dict) and set(src) <= SOURCE_KEYS, f"{case}: bad source {src!r}"
    if "golden" in src:
        assert set(src) == {"golden"}, f"{case}: a golden source names only the upstream file: {src}"
        assert "needle" in fact, f"{case}: upstream-golden facts are needles (checked in both files)"
    else:
        assert {"file", "symbol", "revision"} <= set(src), f"{case}: source needs file, symbol, revision: {src}"
        assert "fact" not in src or (isinstance(src["fact"], str) and src["fact"].strip()), f"{case}: empty fact"
        assert src["file"].startswith("deploy/") or src["file"].startswith("../shared/"), f"{case}: {src['file']}"
        assert src["revision"] in (REFERENCE_REVISION, NEWER), f"{case}: revision {src['revision']!r}"


@pytest.mark.parametrize("folder", CASES, ids=IDS)
def test_provenance_well_formed(folder: Path) -> None:
    prov = _provenance(folder)
    case = folder.name
    assert set(prov) <= TOP_KEYS, f"{case}: unknown keys {set(prov) - TOP_KEYS}"
    assert prov.get("provenance") in CLASSES, f"{case}: provenance {prov.get('provenance')!r}"
    kind = prov["provenance"]
    if kind == "operator-verified":
        assert isinstance(prov.get("operator_case"), str) and prov["operator_case"].endswith(".yaml"), (
            f"{case}: operator-verified needs operator_case (a file of operator-cases/project-goldens)")
        assert "facts" not in prov and "unverified" not in prov, (
            f"{case}: the operator's outputs supersede facts and unverified lists")
        assert isinstance(prov.get("upstream_golden", ""), str)
        return
    assert "operator_case" not in prov, f"{case}: operator_case belongs to operator-verified goldens"
    facts = prov.get("facts")
    assert isinstance(facts, list) and facts, f"{case}: no facts"
    for fact in facts:
        _check_shape(case, fact, sourced=True)
    for fact in prov.get("unverified") or []:
        _check_shape(case, fact, sourced=False)
    sources = [f["source"] for f in facts]
    if kind == "upstream-golden":
        assert isinstance(prov.get("upstream_golden"), str), f"{case}: upstream-golden needs upstream_golden"
        assert any("golden" in s for s in sources), f"{case}: no fact cites the upstream golden"
        for s in sources:
            if "golden" in s:
                assert s["golden"].startswith(prov["upstream_golden"] + "/"), f"{case}: {s['golden']}"
    else:
        assert "upstream_golden" not in prov and not any("golden" in s for s in sources), (
            f"{case}: cites an upstream golden but is classed {kind}")
    tests_at_reference = [s for s in sources if s.get("revision") == REFERENCE_REVISION
                          and s["file"].endswith("_test.go")]
    if kind == "upstream-test":
        assert tests_at_reference, f"{case}: upstream-test without a fact from a Go test at {REFERENCE_REVISION}"


@pytest.mark.parametrize("folder", CASES, ids=IDS)
def test_operator_case_exists(shared: Path, folder: Path) -> None:
    prov = _provenance(folder)
    if prov.get("provenance") != "operator-verified":
        return
    path = shared / "reference" / "dynamo" / "operator-cases" / "project-goldens" / prov["operator_case"]
    assert path.is_file(), f"{folder.name}: {path} is missing"


@pytest.mark.parametrize("folder", CASES, ids=IDS)
def test_facts_hold_in_expected(folder: Path) -> None:
    prov = _provenance(folder)
    text, docs = _expected(folder)
    failures = [why for f in (prov.get("facts") or []) + (prov.get("unverified") or [])
                if (why := _holds(f, text, docs)) is not None]
    assert failures == []


@pytest.mark.parametrize("folder", CASES, ids=IDS)
def test_golden_facts_hold_upstream(shared: Path, folder: Path) -> None:
    """A fact cited from an upstream golden occurs in that upstream file too."""
    prov = _provenance(folder)
    root = shared / "reference" / "dynamo" / "golden"
    failures = []
    for fact in prov.get("facts") or []:
        golden = fact["source"].get("golden")
        if golden is None:
            continue
        upstream = (root / golden).read_text(encoding="utf-8")
        if fact["needle"] not in upstream:
            failures.append(f"{fact['needle']!r} not in {golden}")
    assert failures == []


def _live(objs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What the upstream cluster test reads back: API-server defaults, and a status written by the DCD
    and Deployment controllers (test_upstream_goldens.py describes the same step)."""
    from dynamo_schema._render._serverdefaults import apply_server_defaults

    out = []
    for obj in objs:
        obj = apply_server_defaults(copy.deepcopy(obj))
        if obj["kind"] in ("DynamoComponentDeployment", "Deployment"):
            obj.setdefault("status", {})
        out.append(obj)
    return out


def _upstream_golden_of(folder: Path) -> str | None:
    try:
        value = _provenance(folder).get("upstream_golden")
    except Exception:  # collection must not die on one bad file
        return None
    return value if isinstance(value, str) else None


UPSTREAM_GOLDEN_CASES = [c for c in CASES if _upstream_golden_of(c) is not None]


@pytest.mark.parametrize("folder", UPSTREAM_GOLDEN_CASES, ids=[c.name for c in UPSTREAM_GOLDEN_CASES])
def test_expected_matches_upstream_golden(shared: Path, folder: Path) -> None:
    """The project golden (not our renderer's output) matches the upstream golden output, document for
    document, for every kind that expected.yaml and the upstream file both hold. The upstream file leaves
    the worker hash open (``$var:worker-hash``); the value in expected.yaml fills it, so the hash itself
    is listed under ``unverified`` in the provenance file."""
    prov = _provenance(folder)
    _, docs = _expected(folder)
    pair = shared / "reference" / "dynamo" / "golden" / prov["upstream_golden"]
    ours = yaml.load((folder / "input.yaml").read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    assert ours == yaml.load((pair / "input.yaml").read_text(encoding="utf-8"), Loader=yaml.CSafeLoader), (
        f"{folder.name}: input.yaml is not the upstream input of {prov['upstream_golden']}")
    upstream = load_expected(shared / "reference" / "dynamo" / "golden" / prov["upstream_golden"] / "output.yaml")
    kinds = {gvk(d) for d in docs}
    wanted = [d for d in upstream if gvk(d) in kinds]
    assert wanted, f"{folder.name}: no kind in common with {prov['upstream_golden']}"
    hashes = {str(h) for d in docs
              if (h := ((d.get("metadata") or {}).get("labels") or {}).get("nvidia.com/dynamo-worker-hash"))}
    assert len(hashes) <= 1
    variables = {"worker-hash": hashes.pop()} if hashes else {}
    assert match_manifests(wanted, _live(docs), variables) == []


def test_every_case_has_provenance() -> None:
    assert len(CASES) == 23
    missing = [c.name for c in CASES if not (c / "provenance.yaml").is_file()]
    assert missing == []
    assert len(UPSTREAM_GOLDEN_CASES) >= 4
    classes = [_provenance(c).get("provenance") for c in CASES]
    assert classes.count("operator-verified") >= 20  # every golden with an operator case


def test_fact_checker_rejects_what_does_not_hold() -> None:
    docs = [{"kind": "X", "metadata": {"name": "a"},
             "spec": {"args": ["-m", "x", "--n", "2"], "port": 8, "env": [{"name": "A", "value": "1"}]}}]
    text = "kind: X\nport: 8\n"
    obj = {"kind": "X", "name": "a"}

    def holds(**fact: Any) -> bool:
        return _holds(fact, text, docs) is None

    assert holds(needle="port: 8") and not holds(needle="port: 9")
    assert holds(absent="port: 9") and not holds(absent="port: 8")
    assert holds(object=obj, path=["spec", "port"], equals=8)
    assert not holds(object=obj, path=["spec", "port"], equals="8")  # type-exact, as the matcher
    assert holds(object=obj, path=["spec", "args"], includes=["--n", "2"])
    assert not holds(object=obj, path=["spec", "args"], includes=["x", "2"])  # a contiguous run
    assert holds(object=obj, path=["spec", "env", {"name": "A"}, "value"], equals="1")
    assert not holds(object=obj, path=["spec", "env", {"name": "B"}, "value"], equals="1")
    assert holds(object=obj, path=["spec"], lacks=["probe"]) and not holds(object=obj, path=["spec"], lacks=["port"])
    assert not holds(object={"kind": "X", "name": "b"}, path=["spec"], lacks=["probe"])


def test_the_provenance_counts() -> None:
    # the exact figures (a changed count is a visible change): 20 goldens checked against the operator's
    # own outputs (operator-cases/project-goldens), 3 resting on upstream tests and code with their facts
    provs = [_provenance(c) for c in CASES]
    kinds = sorted(p["provenance"] for p in provs)
    assert kinds.count("operator-verified") == 20 and len(kinds) == 23, kinds
    assert sum(len(p.get("facts") or []) for p in provs) == 21
