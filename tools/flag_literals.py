"""Flag literals below the CLI (issue 23 §1, "CLI below the CLI"): string constants that are exactly a flag
("--rho", "--means") in boundcalc/*.py, counted per package; boundcalc/cli/ is where flags belong and is listed apart.

A library function names its own parameters in its errors (``InputError(ParamName("means"), ...)``,
boundcalc.errors) and the CLI names the flag (boundcalc/cli/flags.py: FLAGS); a literal flag below cli/ is the CLI leaking downwards.
Counted on the syntax tree: a ``str`` constant matching ``--name`` (letters, digits, dashes; an f-string's pieces and
text that merely mentions a flag, "given with --gaps", do not count). tests/project/test_flag_literals.py holds the
total below cli/ to a ceiling.
Usage: python tools/flag_literals.py [boundcalc] [-v]   (-v: every literal with its file and line)
"""

import ast
import collections
import pathlib
import re
import sys

FLAG = re.compile(r"^--[A-Za-z][A-Za-z0-9-]*$")


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
    if "-v" in sys.argv:
        for pkg, path, line, lit in literals(*args):
            if pkg != "cli":
                print(f"{path}:{line}: {lit}")
