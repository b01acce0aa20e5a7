"""The five worksheets run once per test process in fast mode through the CLI (``boundcalc worksheet run NAME --fast
--out DIR --json``, in-process with typer's CliRunner), shared by tests/experiments/test_worksheets.py (report, figures, numbers
against direct library calls, the scripts' numbers) and tests/experiments/test_worksheet_bounds.py (every simulated curve has its
bound or a reason, read from each run's results.json). Both modules mark the tests that use it
``xdist_group("worksheets")``, so under pytest-xdist the five runs happen once, on one worker (tests/conftest.py).

The paper's claims that each run judges (``Session.claims``: ``claims.run(claims.select(paper=NAME))``) are read from the
one run of every claim that tests/verify/test_verify_claims.py and test_claim_ranges.py share (tests/_every_claim.py:
``claims.run([id])`` once per claim and process; :func:`claims_from_the_shared_run`): the five worksheets judge every
claim of the verifier again otherwise (about a third of their CPU). The two verify modules join the xdist group
"worksheets", so under pytest-xdist every claim is run once, on one worker. Which claims a run judges, in which
order, and how the report and the JSON show them is still the worksheet's own code. The runs also keep each
simulation's Results under its content key, for the scripts' runs of the same worksheets in test_worksheets.py
(:func:`simulations_from_the_cli_runs`).

Not a test module (no ``test_`` prefix): a helper imported by the two."""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path

NAMES = ["000", "001", "002", "003", "004"]
TIMES: dict[str, float] = {}  # "cli NNN": seconds of each CLI run (test_fast_set_time_is_measured prints them)
_RUNS: dict[str, tuple[dict, Path]] = {}


def cli_fast_runs(tmp_path_factory) -> dict[str, tuple[dict, Path]]:
    """{name: (the command's JSON object, its output directory)} for the five worksheets, built on first use in this
    process (``tmp_path_factory`` is session-wide, so the directories live as long as the cache)."""
    if not _RUNS:
        from typer.testing import CliRunner

        from boundcalc.cli.app import app

        out = {}
        with claims_from_the_shared_run():
            for n in NAMES:
                d = tmp_path_factory.mktemp(f"cli{n}")
                t0 = time.perf_counter()
                with _simulations_recorded(n):
                    r = CliRunner().invoke(app, ["worksheet", "run", n, "--fast", "--out", str(d), "--json"])
                TIMES[f"cli {n}"] = time.perf_counter() - t0
                assert r.exit_code == 0, r.output
                out[n] = (json.loads(r.stdout), d)
        _RUNS.update(out)
    return dict(_RUNS)


@contextlib.contextmanager
def claims_from_the_shared_run():
    """Inside: ``boundcalc.verify.claims.run(ids)`` (what a worksheet's ``Session.claims`` calls, on the default
    domains and methods) returns each claim's verdict from the shared run of every claim (tests/_every_claim.py, the
    same call per claim, once per process); any other call (all claims, a method) runs as usual. The verdicts that
    tests/verify/test_verify_claims.py checks against docs/errata.md are these very objects."""
    from boundcalc.verify import claims

    from _every_claim import claim_run

    real = claims.run

    def run(ids=None, method=None):
        if ids is None or method is not None:
            return real(ids, method)
        out = []
        for cid in ids:
            claims.run = real  # the shared run itself calls claims.run([cid])
            try:
                out.append(claim_run(cid)[0])
            finally:
                claims.run = run
        return out

    claims.run = run
    try:
        yield
    finally:
        claims.run = real


# -- the simulations of the CLI runs, for the scripts' runs of the same worksheets -------------------------------------
_SIMULATIONS: dict = {}  # content key of a montecarlo.run call -> its Results, as the CLI runs computed it
_KEYS_OF: dict[str, list] = {}  # worksheet name -> the keys its CLI run recorded


def _simulation_key(alg, env, T, runs, kw):
    """A montecarlo.run call by content: the pickled algorithm and environment (their classes and every attribute),
    T, runs and every keyword but the executor (the numbers are the same wherever the blocks run: the engine's seeding
    contract, tests/montecarlo/test_executors.py) and the progress display; None when something does not pickle."""
    import pickle

    import numpy as np

    try:
        objs = pickle.dumps((alg, env), protocol=4)
    except Exception:  # noqa: BLE001 - no key, no sharing: the call simply runs
        return None
    rest = tuple((k, np.asarray(v).tobytes() + str(np.asarray(v).dtype).encode() if k == "checkpoints" and v is not None
                  else repr(v)) for k, v in sorted(kw.items()) if k not in ("executor", "progress"))
    return objs, int(T), int(runs), rest


@contextlib.contextmanager
def _simulations_recorded(name: str):
    """Inside: every ``boundcalc.montecarlo.run`` call (the worksheets' Runner.simulate) runs and its Results is kept
    under its content key (:func:`simulations_from_the_cli_runs` hands it to the scripts' identical calls), listed
    under the worksheet ``name``."""
    from boundcalc import montecarlo

    real = montecarlo.run

    def run(alg, env, T, runs, **kw):
        key = _simulation_key(alg, env, T, runs, kw)
        res = real(alg, env, T, runs, **kw)
        if key is not None:
            _SIMULATIONS[key] = res
            _KEYS_OF.setdefault(name, []).append(key)
        return res

    montecarlo.run = run
    try:
        yield
    finally:
        montecarlo.run = real


@contextlib.contextmanager
def simulations_from_the_cli_runs():
    """Inside: a ``boundcalc.montecarlo.run`` call identical by content to one of the CLI runs' (the same algorithm
    class and parameters, environment, T, runs, seed and checkpoints: :func:`_simulation_key`) returns a copy of that
    run's Results instead of simulating it again; any other call runs. A script that asked for another simulation
    (another seed, algorithm parameter, horizon or instance) gets its own numbers, so a comparison with the CLI runs
    still sees it; that one call with the same inputs gives the same numbers is checked where it is computed again
    (test_reported_regret_equals_a_direct_library_call, the executors' and the engine's reproducibility tests)."""
    import copy

    from boundcalc import montecarlo

    real = montecarlo.run

    def run(alg, env, T, runs, **kw):
        key = _simulation_key(alg, env, T, runs, kw)
        if key is not None and key in _SIMULATIONS:
            return copy.deepcopy(_SIMULATIONS[key])
        return real(alg, env, T, runs, **kw)

    montecarlo.run = run
    try:
        yield
    finally:
        montecarlo.run = real


def save_for_another_process(path: str | Path, name: str) -> None:
    """Pickle what the CLI run of worksheet ``name`` computed (its simulations by content key, its paper's claim
    verdicts) for :func:`serve_in_this_process` in another process (the notebook test's Jupyter kernel)."""
    import pickle

    from boundcalc.verify import claims

    from _every_claim import claim_run

    sims = {k: _SIMULATIONS[k] for k in _KEYS_OF.get(name, [])}
    verdicts = {cid: claim_run(cid)[0] for cid in claims.select(paper=name)}  # computed by the CLI runs already
    Path(path).write_bytes(pickle.dumps((sims, verdicts)))


def serve_in_this_process(path: str | Path) -> None:
    """For the rest of this process (a Jupyter kernel, from an IPython startup file): ``montecarlo.run`` and
    ``claims.run(ids)`` as inside :func:`simulations_from_the_cli_runs` and :func:`claims_from_the_shared_run`,
    reading what :func:`save_for_another_process` saved; any other call runs."""
    import pickle

    from boundcalc.verify import claims

    sims, verdicts = pickle.loads(Path(path).read_bytes())
    _SIMULATIONS.update(sims)
    simulations_from_the_cli_runs().__enter__()  # never left: the kernel's whole life
    real = claims.run

    def run(ids=None, method=None):
        if ids is None or method is not None or any(cid not in verdicts for cid in ids):
            return real(ids, method)
        return [verdicts[cid] for cid in ids]

    claims.run = run


def experiment_results(results_json: str | Path) -> dict:
    """{experiment id: ExperimentResult} rebuilt from a worksheet's results.json (the runner's records as written:
    ``ExperimentResult.as_dict`` is ``dataclasses.asdict``, so every field is there)."""
    from boundcalc.experiments.base import (Comparison, CurveBounds, ExperimentResult, FigureClaim, Simulation,
                                            Table)

    data = json.loads(Path(results_json).read_text())
    out = {}
    for e in data["experiments"]:
        e = dict(e)
        e["simulations"] = [Simulation(**s) for s in e["simulations"]]
        e["comparisons"] = [Comparison(**c) for c in e["comparisons"]]
        e["curve_bounds"] = [CurveBounds(**c) for c in e["curve_bounds"]]
        e["figure_claims"] = [FigureClaim(**c) for c in e["figure_claims"]]
        e["tables"] = [Table(**t) for t in e["tables"]]
        out[e["id"]] = ExperimentResult(**e)
    return out
