"""Option declarations per distinct flag under boundcalc/cli (issue 23 §1, target <= 1.15).

Counts the calls ``typer.Option(...)`` and ``budget_option(...)`` (a one-value budget option) in boundcalc/cli/*.py
and the distinct first flag names they declare (a declaration built from a variable, e.g. the hidden deprecated
spellings of ``common.alias_option``, counts as one flag of its own). ``-v`` lists the flags declared more than once.
Usage: python tools/option_declarations.py [boundcalc/cli] [-v]
"""

import ast
import collections
import pathlib
import sys


def count(root="boundcalc/cli"):
    flags = collections.Counter()
    where = collections.defaultdict(list)
    n_typer = n_all = 0
    for p in sorted(pathlib.Path(root).glob("*.py")):
        for node in ast.walk(ast.parse(p.read_text())):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
            is_typer = isinstance(f, ast.Attribute) and f.attr == "Option" and getattr(f.value, "id", "") == "typer"
            if not (is_typer or name == "budget_option"):
                continue
            lits = [a.value for a in node.args
                    if isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value.startswith("-")]
            flag = lits[0].split("/")[0] if lits else f"<dynamic {p.name}:{node.lineno}>"
            n_all += 1
            n_typer += is_typer
            flags[flag] += 1
            where[flag].append(f"{p.name}:{node.lineno}")
    return n_typer, n_all, flags, where


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "-v"]
    n_typer, n_all, flags, where = count(*args)
    print(f"typer.Option( calls: {n_typer}; with budget_option(: {n_all}; distinct first flags: {len(flags)}; "
          f"declarations per flag: {n_all / len(flags):.3f}")
    if "-v" in sys.argv:
        for k, v in flags.most_common():
            if v > 1:
                print(v, k, where[k])
