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

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
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


def _import_targets(node, here: str, modules) -> list[str]:
    """The modules an import statement names (``from P import name``: P.name when that is a module, else P); [] for a
    node that is no import. ``here``: the package relative imports start from."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level:
        parts = here.split(".")
        parts = parts[:len(parts) - (node.level - 1)]
        src = ".".join(parts + ([node.module] if node.module else []))
    else:
        src = node.module or ""
    return [f"{src}.{a.name}" if f"{src}.{a.name}" in modules else src for a in node.names]


def import_graph(modules: dict[str, str], pkg: str = PKG) -> dict[str, set[str]]:
    """{module: set of package modules it imports at load time}."""
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for mod, path in modules.items():
        is_pkg = os.path.basename(path) == "__init__.py"
        here = mod if is_pkg else mod.rpartition(".")[0]  # the package relative imports start from
        with open(path, encoding="utf-8") as fh:
            tree = ast.parse(fh.read(), filename=path)
        for node in _load_time_statements(tree.body):
            for t in _import_targets(node, here, modules):
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


# -- issue 23 item 5: layers that hold for every import, lazy ones included -------------------------------------------
# The package layers, lowest first (README "Design"; DEVELOPERS.md). A module may import its own package and any
# package of a lower or the same layer, never one above it; counting imports inside functions too (a lazy import is a
# dependency all the same), and no two packages may import each other.
LAYERS = (("boundcalc", "errors"), ("domains", "expressions"), ("validate", "textformat", "progress"), ("figures",),
          ("info", "privacy", "schedules", "intervals"), ("concentration", "envs"), ("data",),
          ("bounds", "algorithms", "lower"), ("montecarlo",), ("rigorous", "audit"), ("verify",),
          ("budget", "experiments"), ("cli",), ("__main__",))
LAYER = {p: i for i, ps in enumerate(LAYERS) for p in ps}


def package_of(module: str) -> str:
    """``boundcalc.bounds.registry`` -> ``bounds``; ``boundcalc`` -> ``boundcalc``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def all_imports(modules: dict[str, str], pkg: str = PKG) -> list[tuple[str, str, bool, int]]:
    """Every import of a package module by a package module: (importer, imported, inside a function, line)."""
    out = []
    for mod, path in modules.items():
        is_pkg = os.path.basename(path) == "__init__.py"
        here = mod if is_pkg else mod.rpartition(".")[0]
        with open(path, encoding="utf-8") as fh:
            tree = ast.parse(fh.read(), filename=path)
        in_function = set()
        for f in ast.walk(tree):
            if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)):
                in_function.update(id(n) for n in ast.walk(f) if n is not f)
        for node in ast.walk(tree):
            for t in _import_targets(node, here, modules):
                while t and t not in modules:
                    t = t.rpartition(".")[0]
                if t and (t == pkg or t.startswith(pkg + ".")) and t != mod:
                    out.append((mod, t, id(node) in in_function, node.lineno))
    return out


def package_graph(imports) -> dict[str, set[str]]:
    g: dict[str, set[str]] = {}
    for a, b, _lazy, _line in imports:
        pa, pb = package_of(a), package_of(b)
        g.setdefault(pa, set())
        g.setdefault(pb, set())
        if pa != pb:
            g[pa].add(pb)
    return g


def layer_violations(imports) -> list[str]:
    """Imports that point up the layers (or into a package no layer names), as readable lines."""
    bad = []
    for a, b, lazy, line in imports:
        pa, pb = package_of(a), package_of(b)
        if pa == pb:
            continue
        if pa not in LAYER or pb not in LAYER:
            bad.append(f"{a}:{line} -> {b}: package not in LAYERS")
        elif LAYER[pb] > LAYER[pa]:
            bad.append(f"{a}:{line} -> {b} ({'inside a function' if lazy else 'module level'}): {pa} is below {pb}")
    return bad


@pytest.fixture(scope="module")
def imports():
    return all_imports(package_modules())


def test_no_package_cycle_counting_lazy_imports(imports):
    cycle = find_cycle(package_graph(imports))
    assert cycle is None, "package cycle (imports inside functions counted): " + " -> ".join(cycle)


def test_imports_point_down_the_layers(imports):
    bad = layer_violations(imports)
    assert not bad, "imports against the layer order:\n" + "\n".join(bad[:20])


def test_function_level_imports_are_counted(imports):
    """The walk counts imports inside functions (they are most of the package's internal imports); a mutant that
    lazily imports the CLI from a library module is an upward edge and a package cycle, both reported."""
    lazy = [i for i in imports if i[2]]
    assert len(lazy) > 100 and len(imports) > len(lazy)
    mutant = imports + [("boundcalc.bounds.registry", "boundcalc.cli.app", True, 1)]
    assert any("boundcalc.cli.app" in b for b in layer_violations(mutant))
    assert find_cycle(package_graph(mutant)) is not None


def test_the_function_walk_reads_source(tmp_path):
    """On disk: an import inside a function is an edge of all_imports (not of import_graph)."""
    pkg = tmp_path / "mutpkg"
    (pkg / "low").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "low" / "__init__.py").write_text("def f():\n    from ..high import g\n")
    (pkg / "high.py").write_text("from .low import f\n")
    mods = package_modules(str(tmp_path), "mutpkg")
    edges = {(a, b, lazy) for a, b, lazy, _ in all_imports(mods, "mutpkg")}
    assert ("mutpkg.low", "mutpkg.high", True) in edges and ("mutpkg.high", "mutpkg.low", False) in edges
    assert find_cycle(import_graph(mods, "mutpkg")) is None  # load time: no cycle
    assert find_cycle(package_graph(all_imports(mods, "mutpkg"))) is not None  # every import: low <-> high


# -- issue 23 item 5: deferred imports only where start-up needs them ------------------------------------------------
# In these packages a function-level import of another boundcalc module is either of a HEAVY one (below: what it would
# cost at load) or says why it is deferred with a "# deferred: ..." comment on its line or the line above (the start-up
# of `simulate`, `regret`, `--help` or `worksheet list` would import it; benchmarks/bench_regret_cli.py measures the
# first three, tests/cli/test_startup_imports.py checks what they import). Every other import sits at module level.
HOISTED_PACKAGES = ("info", "concentration", "intervals", "montecarlo", "privacy", "schedules", "lower", "experiments",
                    "figures", "textformat", "progress", "data")
HEAVY = {"boundcalc.bounds": "the bound registry and every bound module (about 300 kB of source)",
         "boundcalc.verify": "the verifier (regret_check, adapters, claims: sympy)",
         "boundcalc.data": "the loaders of the papers' real data sets",
         "boundcalc.algorithms.": "an algorithm's own module (the registry imports one on first lookup)"}
DEFERRED = "# deferred:"


def _heavy(target: str) -> bool:
    return any(target.startswith(h) if h.endswith(".") else target == h or target.startswith(h + ".") for h in HEAVY)


def deferred_imports(modules: dict[str, str], packages=HOISTED_PACKAGES, pkg: str = PKG):
    """Function-level imports of package modules by modules of ``packages``: (module, line, target, says why)."""
    out = []
    for mod, path in modules.items():
        if package_of(mod) not in packages:
            continue
        is_pkg = os.path.basename(path) == "__init__.py"
        here = mod if is_pkg else mod.rpartition(".")[0]
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        lines = text.splitlines()
        tree = ast.parse(text, filename=path)
        for f in ast.walk(tree):
            if not isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(f):
                if node is f or not isinstance(node, (ast.Import, ast.ImportFrom)):
                    continue
                above = lines[node.lineno - 2].strip() if node.lineno > 1 else ""
                said = any(DEFERRED in lines[k - 1] for k in range(node.lineno, node.end_lineno + 1)) or \
                    (above.startswith("#") and DEFERRED in above)  # on its lines, or a comment line just above
                for t in _import_targets(node, here, modules):
                    while t and t not in modules:
                        t = t.rpartition(".")[0]
                    if t and t.startswith(pkg + ".") and t != mod:
                        out.append((mod, node.lineno, t, said))
    return out


def unexplained(deferred) -> list[str]:
    return [f"{m}:{line} imports {t} inside a function: hoist it to module level, or say why "
            f"('{DEFERRED} ...') if start-up needs it deferred" for m, line, t, said in deferred
            if not said and not _heavy(t)]


def test_deferred_imports_are_heavy_or_say_why():
    deferred = deferred_imports(package_modules())
    assert deferred, "the walk found no function-level import"  # not vacuous: the worksheets defer many
    bad = unexplained(deferred)
    assert not bad, "\n".join(bad[:20])


def test_an_unexplained_deferred_import_is_reported(tmp_path):
    """Mutants: the reason removed from a real deferred import (engine's progress bar) is reported; on disk, a lazy
    import of a light module is reported unless it says why, and a HEAVY one never is."""
    modules = package_modules()
    src = open(modules["boundcalc.montecarlo.engine"], encoding="utf-8").read()
    anchor = "from ..progress import on_terminal  " + DEFERRED
    assert src.count(anchor) == 1
    copy = tmp_path / "engine.py"
    copy.write_text(src.replace(anchor, "from ..progress import on_terminal  # "), encoding="utf-8")
    bad = unexplained(deferred_imports({**modules, "boundcalc.montecarlo.engine": str(copy)}))
    assert len(bad) == 1 and "boundcalc.montecarlo.engine" in bad[0] and "boundcalc.progress" in bad[0]

    pkg = tmp_path / "mutpkg"
    (pkg / "low").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "light.py").write_text("X = 1\n")
    (pkg / "heavy.py").write_text("Y = 2\n")
    body = "def f():\n    from ..light import X{}\n    from ..heavy import Y\n    return X, Y\n"
    (pkg / "low" / "__init__.py").write_text(body.format(""))
    mods = package_modules(str(tmp_path), "mutpkg")
    found = deferred_imports(mods, ("low",), "mutpkg")
    assert {(t, said) for _, _, t, said in found} == {("mutpkg.light", False), ("mutpkg.heavy", False)}
    (pkg / "low" / "__init__.py").write_text(body.format("  " + DEFERRED + " start-up"))
    found = deferred_imports(mods, ("low",), "mutpkg")
    assert {(t, said) for _, _, t, said in found} == {("mutpkg.light", True), ("mutpkg.heavy", False)}
    assert _heavy("boundcalc.algorithms.finite.nonprivate") and _heavy("boundcalc.bounds")
    assert not _heavy("boundcalc.algorithms") and not _heavy("boundcalc.boundsx")
