"""docs/coverage.md (issue 16, "What must show it works"): one row per paper item; every id the table names exists.

The table's tokens: `bound:ID`, `alg:NAME`, `claim:ID`, `ws:NNN/EXP`, `cmd:NAME`, `py:MODULE.NAME`. Each is looked up
in the registry it names (built-in bounds, algorithms, claims, worksheet experiments, the Typer app, importable
functions). A row whose status is not `runs` must give a reason; only the rows in MISSING may say `missing`.
The mutants (a misspelled id of each kind, a reason dropped, a `missing` row not in the list) must fail. Every count
the page states (the count line, the per-paper line, each Reconciliation paragraph's rows by status and by kind) is
recomputed from the rows (issue 22 §3), with mutants of each.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "coverage.md"
TOKEN = re.compile(r"`(bound|alg|claim|ws|cmd|py):([^`]+)`")
STATUS = re.compile(r"^(runs|partial|missing|not runnable)(?:\s+—\s+(.+))?$")

# Ids added by other issue-16 branches, named in the table before they are merged: allowed to be absent (they are
# checked like every other id as soon as they exist). The lead empties this list when the branches are merged.
PENDING: dict[str, str] = {}  # ids of branches not merged yet (none: every named id must exist)

# The only rows allowed to say "missing" (item -> the branch adding it).
MISSING: dict[str, str] = {}  # every item is now named by this branch or by a pending one


def rows(text: str) -> list[dict]:
    """The table rows of the paper sections: item, statement, runs-in tokens, status, reason."""
    out = []
    section = None
    for line in text.splitlines():
        if line.startswith("## "):
            section = line
            continue
        if section is None or not line.startswith("| ") or line.startswith("| Item") or line.startswith("|---"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        assert len(cells) == 4, f"a coverage row needs 4 cells: {line}"
        item, statement, runs_in, status = cells
        m = STATUS.match(status)
        assert m, f"{item}: status must be runs / partial — reason / missing — reason / not runnable — reason: {status!r}"
        out.append({"item": item, "statement": statement, "tokens": TOKEN.findall(runs_in), "runs_in": runs_in,
                    "status": m.group(1), "reason": m.group(2)})
    return out


def _registries():
    from typer.main import get_command

    from boundcalc.algorithms import all_algorithms
    from boundcalc.bounds.registry import all_bounds
    from boundcalc.cli.app import app
    from boundcalc.verify.claims import CLAIMS

    return {
        "bound": {b.id for b in all_bounds()},
        "alg": set(all_algorithms()),
        "claim": set(CLAIMS),
        "cmd": set(get_command(app).commands),
    }


def exists(kind: str, name: str, reg: dict) -> bool:
    if kind in reg:
        return name in reg[kind]
    if kind == "ws":
        from boundcalc.errors import InputError
        from boundcalc.experiments import get

        ws_name, _, exp = name.partition("/")
        try:
            get(ws_name).experiment(exp)
        except InputError:
            return False
        return True
    if kind == "py":
        mod, _, attr = name.rpartition(".")
        try:
            return callable(getattr(importlib.import_module(mod), attr))
        except (ImportError, AttributeError):
            return False
    raise AssertionError(f"unknown token kind {kind}")


def problems(text: str, reg: dict, pending=PENDING, missing=MISSING) -> list[str]:
    """Every defect of the table: unknown ids, rows without a reason, missing rows not in the allowed list."""
    errs = []
    rs = rows(text)
    if not rs:
        errs.append("no rows")
    seen = set()
    for r in rs:
        if r["item"] in seen:
            errs.append(f"{r['item']}: row twice")
        seen.add(r["item"])
        for kind, name in r["tokens"]:
            tok = f"{kind}:{name}"
            if not exists(kind, name, reg) and tok not in pending:
                errs.append(f"{r['item']}: {tok} does not exist")
        if r["status"] == "runs":
            if not r["tokens"]:
                errs.append(f"{r['item']}: 'runs' but names nothing that runs it")
        elif not r["reason"] or len(r["reason"]) < 15:
            errs.append(f"{r['item']}: status {r['status']} without a reason")
        if r["status"] == "missing" and r["item"] not in missing:
            errs.append(f"{r['item']}: 'missing' but not in the allowed list")
    body = text[text.index("\n## "):] if "\n## " in text else text
    for line in body.splitlines():  # tokens in the prose under the tables (the legend above them is exempt)
        if line.startswith("| "):
            continue
        for kind, name in TOKEN.findall(line):
            if not exists(kind, name, reg) and f"{kind}:{name}" not in pending:
                errs.append(f"prose: {kind}:{name} does not exist")
    for item in missing:
        if item not in seen:
            errs.append(f"{item}: in the allowed missing list but no row")
    return errs


@pytest.fixture(scope="module")
def text():
    return DOC.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def reg():
    return _registries()


def test_every_named_id_exists_and_every_gap_has_a_reason(text, reg):
    assert problems(text, reg) == []


def test_table_covers_every_paper(text):
    papers = {r["item"].split()[0] for r in rows(text)}
    assert papers == {"000", "001", "002", "003", "004"}
    # every numbered regret theorem of the papers has a row (independent list, read from the papers)
    for item in ["000 Thm 5", "000 Cor 6", "000 Thm 8", "000 Thm 10", "001 Thm 3.1", "001 Thm 4.3", "002 Thm 3.1",
                 "002 Thm 3.2", "002 Thm 3.3", "002 Thm 4.1", "003 Thm 4", "003 Thm 5", "003 Thm 9", "003 Thm 10",
                 "003 Thm 11", "003 Thm 17", "004 Thm 3", "004 Cor 1", "002 Fig. F.1", "004 Fig. 1(b)",
                 "004 Fig. 2(c)"]:
        assert item in {r["item"] for r in rows(text)}, item


STATUSES = ("runs", "partial", "not runnable", "missing")
# the kind of an item, from the first word after the paper number (the word the "By kind" sentences use)
KINDS = {"Table": "table", "Algorithm": "algorithm", "Assumption": "assumption", "Thm": "theorem", "Cor": "corollary",
         "Lemma": "lemma", "Prop": "proposition", "Eq.": "equation", "Fig.": "figure", "App.": "appendix section",
         "Claim": "numbered claim"}
PLURAL = {"table": "tables", "algorithm": "algorithms", "assumption": "assumptions", "theorem": "theorems",
          "corollary": "corollaries", "lemma": "lemmas", "proposition": "propositions", "equation": "equations",
          "figure": "figures", "appendix section": "appendix sections", "numbered claim": "numbered claims",
          "text item": "text items"}


def kind(item: str) -> str:
    word = item.split()[1]
    return "text item" if word.startswith("§") else KINDS[word]


def stated_counts(text: str) -> dict:
    """Every count docs/coverage.md states: the count line, the per-paper line, and per paper (its Reconciliation
    paragraph) the rows by status and by kind. Raises AssertionError when a statement is missing."""
    out = {}
    m = re.search(r"\*\*Count\*\*: (\d+) rows — (\d+) runs, (\d+) partial, (\d+) not runnable, (\d+) missing", text)
    assert m, "the count line"
    out["total"] = [int(g) for g in m.groups()]
    m = re.search(r"\*\*Per paper\*\*: ((?:\d{3} \d+, ){4}\d{3} \d+)", text)
    assert m, "the per-paper line"
    out["per_paper"] = {p: int(n) for p, n in (x.split() for x in m.group(1).split(", "))}
    for paper in ("000", "001", "002", "003", "004"):
        m = re.search(rf"\*\*Reconciliation \(seed {paper}\)\.\*\* (\d+) rows: (\d+) runs, (\d+) partial, "
                      rf"(\d+) not runnable, (\d+) missing\. By kind: ([^.]+)\.", text)
        assert m, f"the Reconciliation counts of seed {paper}"
        kinds = {}
        for part in re.sub(r"\s+", " ", m.group(6)).split(", "):
            n, _, word = part.strip().partition(" ")
            singular = {v: k for k, v in PLURAL.items()}.get(word, word)
            assert singular in PLURAL, f"seed {paper}: unknown kind {word!r}"
            kinds[singular] = int(n)
        out[paper] = {"status": [int(g) for g in m.groups()[:5]], "kinds": kinds}
    return out


def count_problems(text: str) -> list[str]:
    """Every stated count that disagrees with the rows."""
    rs = rows(text)
    st = stated_counts(text)
    errs = []

    def by_status(rr):
        return [len(rr)] + [sum(r["status"] == k for r in rr) for k in STATUSES]

    if st["total"] != by_status(rs):
        errs.append(f"count line {st['total']} != rows {by_status(rs)}")
    for paper in ("000", "001", "002", "003", "004"):
        pr = [r for r in rs if r["item"].split()[0] == paper]
        if st["per_paper"].get(paper) != len(pr):
            errs.append(f"per-paper line: {paper} {st['per_paper'].get(paper)} != {len(pr)} rows")
        if st[paper]["status"] != by_status(pr):
            errs.append(f"seed {paper} Reconciliation {st[paper]['status']} != rows {by_status(pr)}")
        kinds: dict[str, int] = {}
        for r in pr:
            kinds[kind(r["item"])] = kinds.get(kind(r["item"]), 0) + 1
        if st[paper]["kinds"] != kinds:
            errs.append(f"seed {paper} by kind {st[paper]['kinds']} != rows {kinds}")
    return errs


def test_stated_counts_match_the_rows(text):
    """The count line, the per-paper line and every Reconciliation paragraph's counts are recomputed from the rows."""
    assert count_problems(text) == []
    assert stated_counts(text)["total"][0] == 217  # issue 22's independent re-read counted 217 items


@pytest.mark.parametrize("where", [
    r"\*\*Count\*\*: \d+ rows — (\d+) runs",  # the count line
    r"\*\*Per paper\*\*: 000 \d+, 001 (\d+)",  # the per-paper line
    r"\*\*Reconciliation \(seed 002\)\.\*\* \d+ rows: \d+ runs, (\d+) partial",  # a section's statuses
    r"\*\*Reconciliation \(seed 003\)\.\*\*[^*]*?By kind:[^.]*?(\d+) theorems",  # a section's kinds
])
def test_mutant_stated_count_disagrees(text, where):
    """Each stated count, one more than it says, must be reported."""
    m = re.search(where, text)
    assert m, where
    mutated = text[: m.start(1)] + str(int(m.group(1)) + 1) + text[m.end(1):]
    assert count_problems(mutated) != []


def test_mutant_row_rejudged_without_its_counts(text):
    """A row whose status changes (runs -> partial) while no count is updated must fail the count check."""
    line = next(ln for ln in text.splitlines() if ln.startswith("| 003 Thm 19 "))
    assert line.endswith("| runs |")
    mutated = line[: -len("runs |")] + "partial — a consequence only |"
    assert count_problems(text.replace(line, mutated)) != []


def test_pending_ids_are_those_of_other_branches(reg):
    # a pending id that is not in the table is a stale entry
    text = DOC.read_text(encoding="utf-8")
    named = {f"{k}:{n}" for r in rows(text) for k, n in r["tokens"]}
    assert set(PENDING) <= named


@pytest.mark.parametrize("old,new", [
    ("`bound:003-thm10`", "`bound:003-thm1O`"),
    ("`alg:AdaC-UCB`", "`alg:AdaC-UBC`"),
    ("`claim:003-prop1e`", "`claim:003-prop1f`"),
    ("`ws:001/fig8`", "`ws:001/fig9`"),
    ("`cmd:d-eps`", "`cmd:d-epsilon`"),
    ("`py:boundcalc.algorithms.design.g_optimal_design`", "`py:boundcalc.algorithms.design.g_optimal`"),
])
def test_mutant_misspelled_id_fails(text, reg, old, new):
    assert old in text, old
    assert problems(text.replace(old, new, 1), reg) != []


def test_mutant_reason_dropped_fails(text, reg):
    line = next(ln for ln in text.splitlines() if ln.startswith("| 001 Lemma C.1 "))
    cut = line[: line.index("not runnable — ")] + "not runnable |"
    assert problems(text.replace(line, cut), reg) != []


def test_mutant_unlisted_missing_row_fails(text, reg):
    line = next(ln for ln in text.splitlines() if ln.startswith("| 002 Lemma D.2 "))
    mutated = line[: line.index("partial — ")] + "missing — nothing runs this lemma on its own |"
    assert problems(text.replace(line, mutated), reg) != []
    # and an allowed missing row that disappears is reported too
    assert problems(text, reg, missing={**MISSING, "004 Thm 9": "nowhere"}) != []
    assert problems(text.replace(line, mutated), reg, missing={**MISSING, "002 Lemma D.2": "t16-x"}) == []


def test_mutant_pending_id_not_allowed_once_unlisted(text, reg):
    # an id of another branch that is neither registered nor pending fails (the first pending id not yet merged)
    absent = [k for k in PENDING if not exists(*k.split(":", 1), reg)]
    if absent:
        pend = {k: v for k, v in PENDING.items() if k != absent[0]}
        assert problems(text, reg, pending=pend) != []
