"""The package has no import cycles (issue 17 §8: audit/local.py and audit/scenarios.py imported each other).

The graph is built from the source with ``ast``, independently of the import machinery: a node per module of
``boundcalc``, an edge A -> B when A imports B while A itself is being imported, i.e. by an import statement at
module level or in a class body (function bodies run later; ``if TYPE_CHECKING:`` blocks never run).
``from P import name`` is an edge to the module P.name when that is a module of the package, else to P.
A cycle is reported with its modules in order, so a new one is easy to find.
"""

from __future__ import annotations

import ast
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PKG = "boundcalc"


def package_modules(root: str = ROOT, pkg: str = PKG) -> dict[str, str]:
    """{dotted module name: file path} of every .py file of the package (a package is its __init__)."""
    out = {}
    base = os.path.join(root, pkg)
    for folder, dirs, files in os.walk(base):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__pycache__")))
        for f in sorted(files):
            if not f.endswith(".py"):
                continue
            rel = os.path.relpath(os.path.join(folder, f), root)[:-3].split(os.sep)
            if rel[-1] == "__init__":
                rel = rel[:-1]
            out[".".join(rel)] = os.path.join(folder, f)
    return out


def _load_time_statements(body):
    """Statements run when the module is imported: the module body, the bodies of if/try/with/for/while at that
    level and of classes; not function bodies, not ``if TYPE_CHECKING:``."""
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if isinstance(node, ast.If):
            test = ast.unparse(node.test)
            if test in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
                yield from _load_time_statements(node.orelse)
                continue
        yield node
        for field in ("body", "orelse", "finalbody", "handlers"):
            sub = getattr(node, field, None)
            if isinstance(sub, list) and not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield from _load_time_statements(sub)


def import_graph(modules: dict[str, str], pkg: str = PKG) -> dict[str, set[str]]:
    """{module: set of package modules it imports at load time}."""
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for mod, path in modules.items():
        is_pkg = os.path.basename(path) == "__init__.py"
        here = mod if is_pkg else mod.rpartition(".")[0]  # the package relative imports start from
        with open(path, encoding="utf-8") as fh:
            tree = ast.parse(fh.read(), filename=path)
        for node in _load_time_statements(tree.body):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    parts = here.split(".")
                    parts = parts[:len(parts) - (node.level - 1)]
                    src = ".".join(parts + ([node.module] if node.module else []))
                else:
                    src = node.module or ""
                for a in node.names:
                    sub = f"{src}.{a.name}"
                    targets.append(sub if sub in modules else src)
            for t in targets:
                while t and t not in modules:  # `import boundcalc.x.y as z` of a name inside a module
                    t = t.rpartition(".")[0]
                if t and (t == pkg or t.startswith(pkg + ".")) and t != mod:
                    graph[mod].add(t)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle as [m0, m1, ..., m0], or None when the graph is acyclic (iterative depth-first search)."""
    WHITE, GREY, BLACK = 0, 1, 2
    colour = {m: WHITE for m in graph}
    for start in sorted(graph):
        if colour[start] != WHITE:
            continue
        stack = [(start, iter(sorted(graph[start])))]
        path = [start]
        colour[start] = GREY
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                colour[node] = BLACK
                stack.pop()
                path.pop()
                continue
            if colour.get(nxt, BLACK) == GREY:
                return path[path.index(nxt):] + [nxt]
            if colour.get(nxt) == WHITE:
                colour[nxt] = GREY
                stack.append((nxt, iter(sorted(graph[nxt]))))
                path.append(nxt)
    return None


@pytest.fixture(scope="module")
def graph():
    return import_graph(package_modules())


def test_the_graph_sees_the_package(graph):
    """The walk is not vacuous: it finds the modules and edges known to exist."""
    assert len(graph) > 50
    assert "boundcalc.audit.scenarios" in graph and "boundcalc.audit.base" in graph
    assert "boundcalc.audit.base" in graph["boundcalc.audit.local"]
    assert "boundcalc.audit.local" in graph["boundcalc.audit.scenarios"]
    assert "boundcalc.errors" in graph["boundcalc.audit.base"]  # `from ..errors import InputError`
    # a lazy import inside a function is not a load-time edge (cli modules import numpy-heavy code lazily)
    assert "boundcalc.montecarlo" not in graph["boundcalc.cli.simulate_cmd"]


def test_no_import_cycles(graph):
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_a_cycle_is_detected(graph):
    """Mutant: the edge local -> scenarios (the cycle of issue 17 §8) injected back is found and named."""
    g = {k: set(v) for k, v in graph.items()}
    g["boundcalc.audit.local"].add("boundcalc.audit.scenarios")
    cycle = find_cycle(g)
    assert cycle is not None
    assert {"boundcalc.audit.local", "boundcalc.audit.scenarios"} <= set(cycle)
    # and from source text: the old import line, parsed as the walk parses it, gives that edge
    src = "from .scenarios import Probe, Scenario\n"
    tree = ast.parse(src)
    node = next(iter(_load_time_statements(tree.body)))
    assert isinstance(node, ast.ImportFrom) and node.level == 1 and node.module == "scenarios"


def test_the_walk_reads_source(tmp_path):
    """Mutant package on disk: a <-> b at module level is a cycle; the same import inside a function or under
    TYPE_CHECKING is not."""
    pkg = tmp_path / "mutpkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from . import b\n")
    (pkg / "b.py").write_text("import os\nclass C:\n    from .a import x\n")
    g = import_graph(package_modules(str(tmp_path), "mutpkg"), "mutpkg")
    assert find_cycle(g) is not None
    (pkg / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import x\n"
                              "def f():\n    from .a import x\n")
    g = import_graph(package_modules(str(tmp_path), "mutpkg"), "mutpkg")
    assert find_cycle(g) is None
