"""Shared test fixtures, the xdist grouping and the slow marker.

The tests live in folders mirroring boundcalc's packages (tests/bounds/ tests boundcalc/bounds, …; tests/project/ the
whole tree: imports, docs, README, extras). The shared helpers sit in tests/ itself (clirun: the CLI runner;
mutation: one-line mutants; _every_claim, worksheet_fast_runs: the expensive runs done once). tests/ and every test
folder are put on sys.path here, so a helper or another test module is imported by its name from any folder (test
file names are unique across folders: tests/project/test_xdist_groups.py checks it)."""

import os
import signal
import sys
from pathlib import Path

import pytest

_TESTS = Path(__file__).resolve().parent

# The bytecode caches (issue 23 item 6): with PYTHONDONTWRITEBYTECODE=1 in the environment (this machine's shells set
# it) nothing is cached, so every pytest process rewrote the asserts of all ~150 test modules again (~9 CPU s per
# xdist worker: most of the collection) and compiled boundcalc's ~50,000 lines again (~0.7 CPU s per process that
# imports the CLI, subprocesses included). Python and pytest read a cache that exists whatever that setting says, and
# both check the source's mtime and size, so a changed file is compiled afresh; __pycache__/ is in .gitignore. The
# environment is left as it is (the tests' subprocesses still do not write, they read what this process wrote).
# BOUNDCALC_TESTS_NO_PYC=1 keeps the setting (nothing written; to measure the uncached cost, remove __pycache__/ too).
if sys.dont_write_bytecode and not os.environ.get("BOUNDCALC_TESTS_NO_PYC"):
    sys.dont_write_bytecode = False

for _d in [_TESTS, *sorted(p for p in _TESTS.iterdir() if p.is_dir() and p.name[0] not in "._" and p.name != "data")]:
    if str(_d) not in sys.path:
        sys.path.insert(0, str(_d))


def _one_click_command_per_app():
    """typer's ``CliRunner.invoke`` converts the Typer app into its click command on every call (~0.08 s of CPU; the
    suite makes a few thousand calls). The conversion is a pure function of the app, so each app object is converted
    once per process and the same command object is invoked every time (the app is kept alive, so its id stays its
    own); a callback replaced after that (a test's mutant) builds it again. Nothing changes if typer renames its private helper."""
    import typer.testing

    build = getattr(typer.testing, "_get_command", None)
    if build is None or getattr(build, "boundcalc_cached", False):
        return
    cache: dict = {}

    def cached(app):
        from boundcalc.cli import app as main_app

        if app is main_app.app:  # the library's own once-per-process command (rebuilt if a command is added)
            return main_app.command()
        key = (id(app), main_app._registration_key(app))  # a replaced callback (a test's mutant) is a new key
        hit = cache.get(key)
        if hit is None or hit[0] is not app:
            hit = cache[key] = (app, build(app))
        return hit[1]

    cached.boundcalc_cached = True
    typer.testing._get_command = cached


def pytest_configure(config):
    """Under pytest-xdist (``-n 2``, ``-n auto``) send the tests of one ``xdist_group`` to one worker: plain ``-n N``
    hands out test by test ("load"), so a module whose tests share an expensive module-scoped fixture (the five
    worksheets run twice, every claim of the verifier, local process pools and Dask clusters) would build it once per
    worker, twice the work and twice the processes on a 2-core machine. Without xdist nothing changes."""
    _one_click_command_per_app()
    # the tables' width when not on a terminal is COLUMNS (rich's convention; boundcalc.cli.common.pipe_width), and
    # pytest-xdist's workers run with COLUMNS=80 in their environment: every test sees the unset default (140), as
    # under -n 0 and in a pipe; a test of the width sets COLUMNS itself (CliRunner's env=)
    os.environ.pop("COLUMNS", None)
    if getattr(config.option, "dist", None) == "load":
        config.option.dist = "loadgroup"


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """Tell each xdist worker the controller's mode: a worker reads ``loadgroup`` from the options before
    pytest_configure above turned "load" into "loadgroup", so it would not mark the groups (``_group_ids``)."""
    node.workerinput["boundcalc_loadgroup"] = node.config.getvalue("dist") == "loadgroup"


# the longest group (the worksheets: ~4 minutes on one worker) first, so the other worker runs the rest meanwhile
# instead of idling at the end; the order is the same in every worker (xdist needs that). Under loadgroup xdist itself
# hands out the groups with the most tests first (--loadscope-reorder, its default): each worker starts on a group.
FIRST = ("test_worksheets.py",)


@pytest.hookimpl(trylast=True)  # after xdist's own hook (in each worker)
def pytest_collection_modifyitems(config, items):
    items.sort(key=lambda it: it.path.name not in FIRST)  # stable: the order within each part is kept
    _group_ids(config, items)


def _group_ids(config, items):
    """xdist's ``loadgroup`` groups by an ``@group`` suffix its worker hook appends to each node id by setting
    ``item._nodeid``; pytest 9 keeps the id in ``item._id`` (a ``NodeId``), so that assignment is lost and every group
    was split over both workers: each module-scoped fixture (the worksheets' fast runs, every claim of the verifier)
    was built once per worker, twice the work. Append the suffix here where xdist's did not reach the id (nothing
    happens where it did: on pytest < 9)."""
    worker = getattr(config, "workerinput", {})
    if not (getattr(config.option, "loadgroup", False) or worker.get("boundcalc_loadgroup")):
        return
    for it in items:
        names = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                        for m in it.iter_markers("xdist_group")})
        if not names or it.nodeid.rfind("@") > it.nodeid.rfind("]"):
            continue
        new = f"{it.nodeid}@{'_'.join(names)}"
        if hasattr(it, "_id"):
            from _pytest.nodeid import NodeId

            it._id = NodeId.parse(new)
        else:
            it._nodeid = new
        assert it.nodeid == new, "pytest stores node ids elsewhere: tests/conftest.py must follow"


def pytest_itemcollected(item):
    """A test that uses a module-scoped fixture defined in its own module joins that module's ``xdist_group`` (unless
    it has one): under ``loadgroup`` the fixture is then built once, on one worker, instead of once per worker that
    happens to receive one of its tests (test_budget_report's decision report, ~20 s, was built twice). The module's
    other tests are still spread over both workers. (Marked here, at collection, before xdist's worker reads the
    marks into the node ids in its collection hook.) The slow marker is set here too (_mark_slow, below)."""
    _mark_slow(item)
    if item.get_closest_marker("xdist_group") is not None or getattr(item, "_fixtureinfo", None) is None:
        return
    mod = getattr(getattr(item, "module", None), "__name__", None)
    for defs in item._fixtureinfo.name2fixturedefs.values():
        fd = defs[-1]
        if fd.scope == "module" and getattr(fd.func, "__module__", None) == mod:
            item.add_marker(pytest.mark.xdist_group(f"module-fixture:{item.path.name}"))
            return


def _as_from_a_shell():
    """In a child process: SIGINT at its default and no blocked signals, as a shell starts a command (an exec'd child
    keeps an inherited "ignore", and the test process may have one)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])


@pytest.fixture
def shell_like():
    """``preexec_fn`` for subprocesses that must react to Ctrl-C as a command typed in a terminal does."""
    return _as_from_a_shell


# -- the slow marker, from committed durations (issue 23 item 6) ------------------------------------------------------
# tests/durations.json holds each test's measured seconds (setup, call, teardown) on this 2-core machine, recorded by
# `BOUNDCALC_RECORD_DURATIONS=tests/durations.json python -m pytest -q -n 2` (the whole suite). A test is marked
# ``slow`` when its call took more than SLOW_CALL seconds, and every test of a module is when one of its tests' setup
# took more than SLOW_SETUP (a module-scoped fixture, e.g. the worksheets' runs or every claim of the verifier, is paid
# by the first test that asks for it: selecting the module's other tests would pay it again). ``pytest -m "not slow"``
# is then the fast run (70% of the tests in about 129 CPU s on 2 cores; SLOW_CALL chosen for that); an explicit ``@pytest.mark.slow`` counts too. A test missing from the file is not slow.
import json as _json  # noqa: E402
import os as _os  # noqa: E402
from pathlib import Path as _Path  # noqa: E402

DURATIONS = _Path(__file__).with_name("durations.json")
SLOW_CALL = 0.04
SLOW_SETUP = 0.5


def _slow_ids() -> set[str]:
    try:
        rec = _json.loads(DURATIONS.read_text())
    except (OSError, ValueError):
        return set()
    slow_modules = {nid.split("::")[0] for nid, (setup, _call, _down) in rec.items() if setup > SLOW_SETUP}
    return {nid for nid, (_setup, call, _down) in rec.items()
            if call > SLOW_CALL or nid.split("::")[0] in slow_modules} | {f"module:{m}" for m in slow_modules}


_SLOW: set[str] | None = None


def _base_id(nodeid: str) -> str:
    """The node id without the ``@group`` suffix that this conftest appends for xdist's loadgroup."""
    at, bracket = nodeid.rfind("@"), nodeid.rfind("]")
    return nodeid[:at] if at > bracket else nodeid


def _mark_slow(item) -> None:
    """Called from pytest_itemcollected (before ``-m`` deselects): the slow marker from the committed durations."""
    global _SLOW
    if _SLOW is None:
        _SLOW = _slow_ids()
    nid = _base_id(item.nodeid)
    if nid in _SLOW or f"module:{nid.split('::')[0]}" in _SLOW:
        item.add_marker(pytest.mark.slow)


_RECORD = _os.environ.get("BOUNDCALC_RECORD_DURATIONS")
_TIMES: dict[str, list[float]] = {}


def pytest_runtest_logreport(report):
    if _RECORD:
        t = _TIMES.setdefault(_base_id(report.nodeid), [0.0, 0.0, 0.0])
        t[("setup", "call", "teardown").index(report.when)] += float(report.duration)


def pytest_sessionfinish(session):
    if _RECORD and _TIMES and not hasattr(session.config, "workerinput"):  # the controller writes it, once
        rows = [f"{_json.dumps(k)}: {_json.dumps([round(x, 3) for x in v])}" for k, v in sorted(_TIMES.items())]
        _Path(_RECORD).write_text("{\n" + ",\n".join(rows) + "\n}\n")
