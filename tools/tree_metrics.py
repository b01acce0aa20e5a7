"""The tree's shape at a git revision (issue 23's before/after numbers): lines of Python per package of boundcalc,
imports inside functions against all imports, and test files per folder.

Usage: python tools/tree_metrics.py [REV ...]   (default: HEAD; e.g. 78ee0a9 HEAD prints both side by side)
"""

import ast
import collections
import subprocess
import sys


def _files(rev: str) -> list[str]:
    out = subprocess.run(["git", "ls-tree", "-r", "--name-only", rev], capture_output=True, text=True, check=True)
    return [f for f in out.stdout.split() if f.endswith(".py")]


def _text(rev: str, path: str) -> str:
    return subprocess.run(["git", "show", f"{rev}:{path}"], capture_output=True, text=True, check=True).stdout


def _package(path: str) -> str:
    parts = path.split("/")
    return parts[1] if len(parts) > 2 else "(top-level modules)"


def measure(rev: str) -> dict:
    lines = collections.Counter()
    imports = function_imports = 0
    test_folders = collections.Counter()
    for f in _files(rev):
        if f.startswith("tests/") and f.rsplit("/", 1)[-1].startswith("test_"):
            test_folders["/".join(f.split("/")[:-1]) or "tests"] += 1
        if not f.startswith("boundcalc/"):
            continue
        src = _text(rev, f)
        lines[_package(f)] += src.count("\n")
        tree = ast.parse(src)
        inner = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                inner |= {id(n) for n in ast.walk(node) if isinstance(n, (ast.Import, ast.ImportFrom))}
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                imports += 1
                function_imports += id(node) in inner
    return {"lines": dict(lines), "total": sum(lines.values()), "imports": imports,
            "function_imports": function_imports, "test_folders": dict(test_folders)}


def main(revs: list[str]) -> None:
    ms = {r: measure(r) for r in revs}
    pkgs = sorted({p for m in ms.values() for p in m["lines"]})
    print("| package | " + " | ".join(revs) + " |\n|---|" + "---|" * len(revs))
    for p in pkgs:
        print(f"| {p} | " + " | ".join(f"{ms[r]['lines'].get(p, 0):,}" for r in revs) + " |")
    print("| **total** | " + " | ".join(f"{ms[r]['total']:,}" for r in revs) + " |")
    for r in revs:
        m = ms[r]
        print(f"{r}: imports inside functions {m['function_imports']:,} of {m['imports']:,}; "
              f"test files per folder: {m['test_folders']}")


if __name__ == "__main__":
    main(sys.argv[1:] or ["HEAD"])
