"""The tests' layout (tests/conftest.py): one folder per boundcalc package, plus tests/project for the whole tree, and
test file names unique across folders (conftest puts every folder on sys.path, so a module is imported by its name)."""

from collections import Counter
from pathlib import Path

import boundcalc

TESTS = Path(__file__).resolve().parents[1]
PACKAGES = {p.name for p in Path(boundcalc.__file__).parent.iterdir() if p.is_dir() and any(p.glob("*.py"))}


def _folders():
    return [p for p in TESTS.iterdir() if p.is_dir() and p.name[0] not in "._" and p.name != "data"]


def test_every_folder_mirrors_a_package():
    extra = {p.name for p in _folders()} - PACKAGES - {"project"}
    assert not extra, f"test folders that are no package of boundcalc: {sorted(extra)}"


def test_no_test_module_at_the_top_and_names_unique():
    assert not list(TESTS.glob("test_*.py")), "a test module belongs in its package's folder"
    names = Counter(p.name for d in _folders() for p in d.glob("test_*.py"))
    assert names and not [n for n, c in names.items() if c > 1], names.most_common(3)

