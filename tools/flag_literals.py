"""Flag literals below the CLI (issue 23 §1, "CLI below the CLI"): string constants that are exactly a flag
("--rho", "--means") in boundcalc/*.py, counted per package; boundcalc/cli/ is where flags belong and is listed apart.

A library function names its own parameters in its errors (``InputError(ParamName("means"), ...)``,
boundcalc.errors) and the CLI names the flag (boundcalc/cli/flags.py: FLAGS); a literal flag below cli/ is the CLI leaking downwards.
Counted on the syntax tree: a ``str`` constant matching ``--name`` (letters, digits, dashes). Apart, the *mentions*:
string constants and f-string pieces (docstrings aside) that name a flag in their text ("given with --gaps",
f"--data {name}"); text meant for the user names a parameter with ``errors.flag("gaps")`` instead, which the CLI
renders as its flag. tests/project/test_flag_literals.py holds both totals below cli/ to a ceiling.
Usage: python tools/flag_literals.py [boundcalc] [-v]   (-v: every literal and mention with its file and line)
"""

import ast
import collections
import pathlib
import re
import sys

FLAG = re.compile(r"^--[A-Za-z][A-Za-z0-9-]*$")
MENTION = re.compile(r"(?<![\w-])--[A-Za-z][A-Za-z0-9-]*")  # a flag inside text (not "a--b", not a "---" rule)


def literals(root="boundcalc"):
    """[(package, path, line, literal)] for every flag literal under ``root`` (package: the first folder under it,
    or the module's own name for a top-level module)."""
    root = pathlib.Path(root)
    out = []
    for p in sorted(root.rglob("*.py")):
        rel = p.relative_to(root).parts
        pkg = rel[0] if len(rel) > 1 else rel[0][:-3]
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and FLAG.match(node.value):
                out.append((pkg, str(p), node.lineno, node.value))
    return out


def _docstrings(tree) -> set[int]:
    out = set()
    for n in ast.walk(tree):
        if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and n.body:
            first = n.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def mentions(root="boundcalc"):
    """[(package, path, line, text)] for every string constant or f-string piece under ``root`` that names a flag in
    its text without being exactly one (those are :func:`literals`); docstrings are documentation and not counted."""
    root = pathlib.Path(root)
    out = []
    for p in sorted(root.rglob("*.py")):
        rel = p.relative_to(root).parts
        pkg = rel[0] if len(rel) > 1 else rel[0][:-3]
        tree = ast.parse(p.read_text(encoding="utf-8"))
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
                    and not FLAG.match(node.value) and MENTION.search(node.value)):
                out.append((pkg, str(p), node.lineno, node.value))
    return out


def count_mentions(root="boundcalc"):
    """({package: number of flag mentions}, total below cli/)."""
    per = collections.Counter(pkg for pkg, *_ in mentions(root))
    return dict(per), sum(n for pkg, n in per.items() if pkg != "cli")


def count(root="boundcalc"):
    """({package: number of flag literals}, total below cli/)."""
    per = collections.Counter(pkg for pkg, *_ in literals(root))
    return dict(per), sum(n for pkg, n in per.items() if pkg != "cli")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "-v"]
    per, below = count(*args)
    for pkg, n in sorted(per.items(), key=lambda kv: (kv[0] == "cli", -kv[1], kv[0])):
        print(f"{pkg:14s} {n:5d}")
    print(f"{'below cli/':14s} {below:5d}")
    mper, mbelow = count_mentions(*args)
    print("mentions (a flag inside text):")
    for pkg, n in sorted(mper.items(), key=lambda kv: (kv[0] == "cli", -kv[1], kv[0])):
        print(f"{pkg:14s} {n:5d}")
    print(f"{'below cli/':14s} {mbelow:5d}")
    if "-v" in sys.argv:
        for pkg, path, line, lit in literals(*args) + mentions(*args):
            if pkg != "cli":
                print(f"{path}:{line}: {lit[:120]!r}")
