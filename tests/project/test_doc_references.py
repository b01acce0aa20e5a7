"""Every reference the code prints or documents resolves inside the repository.

boundcalc's caveats, claims and docstrings cite the errata as "ERRATA n" (row n of docs/errata.md) and the
formula sheets as "docs/formulas/<sheet>.md §N" or "§N.M" (heading N.M, or item M of the numbered list of
section N). A reference to a row or section that does not exist, or to a file outside the repository (the
sheets' original location), is a broken citation for a user who has only the clone.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted(
    p for d in ("boundcalc", "worksheets", "benchmarks") for p in (ROOT / d).rglob("*.py")
) + sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md", ROOT / "DEVELOPERS.md"]

SHEET_REF = re.compile(r"docs/formulas/([\w-]+)\.md(?:\s*(?:§|section\s+)(\d+)(?:\.(\d+))?)?")
ERRATA_REF = re.compile(r"ERRATA\s+(?:items?\s+)?((?:\d+(?:\s*(?:,|and|/|&)\s*)?)+)")


def _errata_rows() -> set[int]:
    rows = set()
    for line in (ROOT / "docs" / "errata.md").read_text().splitlines():
        m = re.match(r"\|\s*(\d+)\s*\|", line)
        if m:
            rows.add(int(m.group(1)))
    return rows


def _sheet_sections(path: Path) -> set[tuple[int, int | None]]:
    """(N, None) for every '## N.' heading, (N, M) for every '### N.M' heading, every bold paragraph '**N.M …**'
    (the sheets' numbered subsections) and every item 'M.' of the
    numbered lists of section N."""
    found: set[tuple[int, int | None]] = set()
    section = None
    for line in path.read_text().splitlines():
        h2 = re.match(r"##\s+(\d+)\.", line)
        h3 = re.match(r"###\s+(\d+)\.(\d+)", line) or re.match(r"\*\*(\d+)\.(\d+)\s", line)  # or a bold '**N.M title**'
        item = re.match(r"(\d+)\.\s", line)
        if h2:
            section = int(h2.group(1))
            found.add((section, None))
        elif h3:
            found.add((int(h3.group(1)), int(h3.group(2))))
        elif item and section is not None:
            found.add((section, int(item.group(1))))
    return found


def _references(pattern):
    for path in SOURCES:
        text = path.read_text()
        for m in pattern.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            yield f"{path.relative_to(ROOT)}:{line}", m


def test_the_scan_finds_references():
    """The scan is not empty (a broken pattern would make the tests below pass vacuously)."""
    assert sum(1 for _ in _references(SHEET_REF)) > 100
    assert sum(1 for _ in _references(ERRATA_REF)) > 30


def test_every_errata_number_is_a_row_of_docs_errata():
    rows = _errata_rows()
    assert rows == set(range(1, max(rows) + 1)), "docs/errata.md rows are numbered 1..n"
    bad = []
    for where, m in _references(ERRATA_REF):
        for n in re.findall(r"\d+", m.group(1)):
            if int(n) not in rows:
                bad.append(f"{where}: ERRATA {n}")
    assert not bad, "references to rows that docs/errata.md does not have:\n" + "\n".join(bad)


def test_every_sheet_reference_resolves():
    bad = []
    cache: dict[str, set] = {}
    for where, m in _references(SHEET_REF):
        name, sec, sub = m.group(1), m.group(2), m.group(3)
        path = ROOT / "docs" / "formulas" / f"{name}.md"
        if not path.exists():
            bad.append(f"{where}: no file docs/formulas/{name}.md")
            continue
        if sec is None:
            continue
        sections = cache.setdefault(name, _sheet_sections(path))
        key = (int(sec), int(sub) if sub is not None else None)
        if key not in sections:
            bad.append(f"{where}: docs/formulas/{name}.md has no §{sec}{'.' + sub if sub else ''}")
    assert not bad, "sheet references that do not resolve:\n" + "\n".join(bad)


def test_nothing_points_outside_the_repository():
    """A clone has no ../shared: no path to the original sheets or seeds, and no machine-specific path."""
    bad = []
    for path in SOURCES + sorted((ROOT / "tests").rglob("*.py")):
        if path == Path(__file__).resolve():
            continue
        for i, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r"\.\./shared|/work/|shared/reference|shared/seeds", line):
                bad.append(f"{path.relative_to(ROOT)}:{i}: {line.strip()[:100]}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("text, ok", [("ERRATA 3", True), ("ERRATA 99", False)])
def test_errata_check_rejects_a_missing_row(text, ok):
    """Mutant: the row check fails on a number the table does not have."""
    rows = _errata_rows()
    nums = [int(n) for m in ERRATA_REF.finditer(text) for n in re.findall(r"\d+", m.group(1))]
    assert nums and all(n in rows for n in nums) == ok


@pytest.mark.parametrize("ref, ok", [("docs/formulas/zcdp-bandits.md §3.6", True),
                                     ("docs/formulas/zcdp-bandits.md §8.10", True),
                                     ("docs/formulas/zcdp-bandits.md §3.60", False),
                                     ("docs/formulas/zcdp-bandits.md §42", False)])
def test_section_check_rejects_a_missing_section(ref, ok):
    m = SHEET_REF.search(ref)
    sections = _sheet_sections(ROOT / "docs" / "formulas" / f"{m.group(1)}.md")
    key = (int(m.group(2)), int(m.group(3)) if m.group(3) else None)
    assert (key in sections) == ok


def test_docs_index_lists_every_page():
    """docs/index.md links every page of docs/ (and the formula sheets' folder); every link it has resolves
    (issue 23 item 7). Mutant: a page added to docs/ without a line in the index fails the first assertion."""
    docs = ROOT / "docs"
    text = (docs / "index.md").read_text(encoding="utf-8")
    links = set(re.findall(r"\]\(([^)#]+)\)", text))
    pages = {p.name for p in docs.glob("*.md") if p.name != "index.md"}
    assert pages <= links, f"docs/index.md does not list: {sorted(pages - links)}"
    assert "formulas/" in links
    missing = [link for link in links if not (docs / link).exists()]
    assert not missing, f"docs/index.md links to missing files: {missing}"
