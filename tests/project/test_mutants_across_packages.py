"""Mistakes the suite used to let through (issue 17 §4), each pinned by a test that fails on it.

Every test below checks a value against an independent computation (a direct library call, scipy, a closed form
or the documentation) and carries the *mutant* it kills: a one-line change of the real source, compiled from the
module's own text by :func:`mutate` and monkeypatched in, so the test shows that its check rejects the mistake.

- ERRATA 15 (claim ``001-thm31-vs-eq7``) evaluated on its stated ε range, not a narrower one;
- ``simulate --executor dask-local|processes --workers N`` and ``--executor dask --scheduler`` reach the executor;
- ``budget --delta`` reaches the (ε, δ) equivalents;
- ``audit --delta`` reaches the audited claim and the estimator (not the scenario's default δ);
- the 95% interval of the mean regret (ribbons, worksheet and --check intervals) uses the documented Student t;
- a worksheet's simulation cache is keyed with the seed.
"""

from __future__ import annotations

import json
import math
from types import SimpleNamespace

import numpy as np
import pytest

from clirun import app, json_of, runner
from mutation import mutate


# -- mutants: one-line edits of the real source ---------------------------------------------------------------------
def _json(args):
    return json_of(*args)


# =====================================================================================================================
# ERRATA 15: Thm 3.1 >= Eq. 7 (c = 1, 6), equal once ε >= max_a ε_a, claim 001-thm31-vs-eq7
# =====================================================================================================================
CLAIM15 = "001-thm31-vs-eq7"


def _claim(cid):
    from boundcalc.verify import claims

    return claims.CLAIMS[cid]


def _max_eps_a(means) -> float:
    """max_a ε_a, ε_a = logit(μ*) − logit(μ_a) (docs/formulas/eps-global-dp-bernoulli.md §3.1), from the means."""
    m = np.asarray(means, dtype=float)
    ms = m.max()
    sub = m[m < ms]
    return float(np.max(np.log(ms / (1 - ms)) - np.log(sub / (1 - sub))))


def _grid_epsilons(monkeypatch, cid=CLAIM15):
    """The ε at which the grid evaluator of ERRATA 15 evaluates Thm 3.1 and Eq. 7 (c = 1, 6): recorded at the
    registry bounds' evaluate, the last step before the formulas."""
    from boundcalc.bounds import registry

    seen = []
    for bid in ("001-thm3.1", "001-eq7-c1", "001-eq7-c6"):
        b = registry.get(bid)
        real = b.evaluate

        def spy(T, ctx, budget=None, *a, _real=real, **k):
            if budget is not None:
                seen.append(float(budget.epsilon))
            return _real(T, ctx, budget, *a, **k)

        monkeypatch.setattr(b, "evaluate", spy)
    return seen


def _check_grid_range(monkeypatch, evaluator=None):
    """The grid evaluator's ε values span exactly the claim's stated range; returns the problem or None."""
    c = _claim(CLAIM15)
    seen = _grid_epsilons(monkeypatch)
    dom = c.domain()
    (evaluator or c.evaluators["grid"])(dom)
    lo, hi = c.params[0].default
    if not seen:
        return "no ε evaluated"
    if not (math.isclose(min(seen), lo, rel_tol=1e-12) and math.isclose(max(seen), hi, rel_tol=1e-12)):
        return f"evaluated ε in [{min(seen):g}, {max(seen):g}], stated [{lo:g}, {hi:g}]"
    return None


def test_errata15_grid_evaluates_the_stated_range(monkeypatch):
    """Kills: `eps = dom.axis("epsilon", 81)` -> `... [:60]` (the grid stops below the stated top of the range)."""
    assert _check_grid_range(monkeypatch) is None


def test_errata15_grid_range_mutant_is_caught(monkeypatch):
    from boundcalc.verify.claims import lower_bounds

    bad = mutate(lower_bounds._thm31_vs_eq7, 'eps = dom.axis("epsilon", 81)', 'eps = dom.axis("epsilon", 81)[:60]')
    assert _check_grid_range(monkeypatch, bad) is not None


def _proof_boxes(evaluator, dom):
    from boundcalc.verify.claims import proofs

    with proofs.limits(max_seconds=0.5, max_boxes=200):  # the box is recorded whatever the effort
        r = evaluator(dom)
    return [p["box"] for p in r.evidence["parts"]]


def _check_proof_range(evaluator=None):
    c = _claim(CLAIM15)
    dom = c.domain()
    lo, hi = c.params[0].default
    boxes = _proof_boxes(evaluator or c.evaluators["proof"], dom)
    assert len(boxes) == 4
    bad = [b["epsilon"] for b in boxes if tuple(b["epsilon"]) != (lo, hi)]
    return bad or None


def test_errata15_proof_covers_the_stated_range():
    """Every part of the proof (c = 1, c = 6, the two equality steps) is proved on ε ∈ the stated range.
    Kills: `"epsilon": dom.range("epsilon")` -> `(dom.range("epsilon")[0], 2.0)` in _thm31_parts."""
    assert _check_proof_range() is None


def test_errata15_proof_range_mutant_is_caught():
    from boundcalc.verify.claims import lower_bounds, proofs

    bad_parts = mutate(lower_bounds._thm31_parts, '"epsilon": dom.range("epsilon")}',
                       '"epsilon": (dom.range("epsilon")[0], 2.0)}')
    ev = proofs.proof_evaluator(bad_parts, grid=lower_bounds._thm31_vs_eq7)
    assert _check_proof_range(ev) is not None


def _stated_range_reaches_every_threshold(claim) -> str | None:
    """ERRATA 15: 'equal once ε passes every arm's threshold' — the stated range must reach past max_a ε_a of every
    sheet instance (recomputed here from the means), else the equality half is never evaluated."""
    from boundcalc.envs.instances import INSTANCES

    lo, hi = claim.params[0].default
    for env in ("mu1", "mu2", "mu3", "mu4"):
        t = _max_eps_a(INSTANCES[env]["means"])
        if not lo < t < hi:
            return f"{env}: max ε_a = {t:.4g} outside the stated ε range [{lo:g}, {hi:g}]"
    return None


def test_errata15_stated_range_covers_both_regimes():
    """Kills: `positive("epsilon", 1e-3, 20.0)` -> `positive("epsilon", 1e-3, 2.0)` (the claim's own range narrowed:
    below every threshold of mu2..mu4 the equality part of ERRATA 15 would never be checked)."""
    c = _claim(CLAIM15)
    assert _stated_range_reaches_every_threshold(c) is None
    assert "ERRATA 15" in " ".join(c.sources) and 15 in c.errata
    # the mutant: the stated range narrowed to [1e-3, 2]
    from boundcalc.verify.box import positive

    narrow = type(c)(**{**c.__dict__, "params": (positive("epsilon", 1e-3, 2.0),)})
    assert _stated_range_reaches_every_threshold(narrow) is not None


def test_errata15_verify_reports_the_stated_range():
    """`verify --claim 001-thm31-vs-eq7 --method grid` reports its domain and measured range as stated (1e-3:20)."""
    d = _json(["verify", "--claim", CLAIM15, "--method", "grid"])
    v = d["claims"][0]
    assert v["domain"] == "epsilon=0.001:20"
    assert "ε in [0.001, 20]" in v["measured"]


# =====================================================================================================================
# simulate --executor / --workers / --scheduler reach the executor
# =====================================================================================================================
# 8 blocks of a fast algorithm
SIM = ["simulate", "--algo", "DP-SE", "--epsilon", "1", "--T", "300", "--runs", "8", "--block-runs", "1"]


@pytest.fixture
def fake_executors(monkeypatch):
    """Every executor class replaced by an in-process one that records how it was built (no process, no dask);
    16 CPUs so that no --workers value below is capped by the machine."""
    import os

    from boundcalc.montecarlo import executors

    made = []

    class Rec(executors.InProcess):
        def __init__(self, arg=None, **kw):
            made.append((self.kind, arg))
            self._n = arg if isinstance(arg, int) else 3

        @property
        def workers(self):
            return self._n

    kinds = {}
    for name, kind in (("LocalProcesses", "processes"), ("DaskLocal", "dask-local"), ("Dask", "dask")):
        kinds[name] = type(name, (Rec,), {"kind": kind})
        monkeypatch.setattr(executors, name, kinds[name])
    monkeypatch.setattr(executors, "dask_available", lambda: True)
    monkeypatch.setattr(os, "cpu_count", lambda: 16)
    return made


EXECUTOR_CASES = [
    (["--executor", "dask-local", "--workers", "5"], ("dask-local", 5)),
    (["--executor", "dask-local", "--workers", "1"], ("dask-local", 1)),
    (["--executor", "processes", "--workers", "3"], ("processes", 3)),
    (["--executor", "processes", "--processes", "4"], ("processes", 4)),
    (["--processes", "6"], ("processes", 6)),
    (["--executor", "dask", "--scheduler", "tcp://10.1.2.3:8786"], ("dask", "tcp://10.1.2.3:8786")),
]


_REF = {}


def _check_executor(args, expect, made):
    made.clear()
    d = _json([*SIM, *args])
    if "ref" not in _REF:
        _REF["ref"] = _json(SIM)  # in-process: the numbers must not depend on where the blocks ran
    ref = _REF["ref"]
    problems = []
    if made != [expect]:
        problems.append(f"built {made}, expected {expect}")
    if d["checkpoints"] != ref["checkpoints"]:
        problems.append("numbers differ from the in-process run")
    return problems


@pytest.mark.parametrize("args,expect", EXECUTOR_CASES, ids=[" ".join(a) for a, _ in EXECUTOR_CASES])
def test_executor_options_reach_the_executor(fake_executors, args, expect):
    """Kills the mutants of test_executor_option_mutants_are_caught (workers or scheduler dropped on the way)."""
    assert _check_executor(args, expect, fake_executors) == []


@pytest.mark.parametrize("func,old,new,case", [
    ("make_executor", 'executors.DaskLocal(plan["workers"])', "executors.DaskLocal()", 0),
    ("make_executor", 'executors.LocalProcesses(plan["workers"])', "executors.LocalProcesses()", 2),
    ("make_executor", 'executors.Dask(plan["scheduler"])', "executors.Dask()", 5),
    ("plan_executor", "want = W if W is not None else (os.cpu_count() or 1)", "want = os.cpu_count() or 1", 0),
    ("plan_executor", 'want = W if W is not None else (P if p_given or P > 1 else (os.cpu_count() or 1))',
     "want = P if p_given or P > 1 else (os.cpu_count() or 1)", 2),
    ("plan_executor", 'plan["scheduler"] = addr or executors._config_scheduler()',
     'plan["scheduler"] = executors._config_scheduler() or "tcp://127.0.0.1:8786"', 5),
])
def test_executor_option_mutants_are_caught(fake_executors, monkeypatch, func, old, new, case):
    from boundcalc.cli import executor_options

    monkeypatch.setattr(executor_options, func, mutate(getattr(executor_options, func), old, new))
    args, expect = EXECUTOR_CASES[case]
    assert _check_executor(args, expect, fake_executors) != []


# =====================================================================================================================
# budget --delta reaches the (ε, δ) equivalents
# =====================================================================================================================
def _zcdp_to_approx_simple(rho, delta):
    """ρ-zCDP => (ρ + 2√(ρ ln 1/δ), δ)-DP (Bun & Steinke 2016 Prop. 1.3), written out here."""
    return rho + 2 * math.sqrt(rho * math.log(1 / delta))


def _check_budget_delta(delta: float) -> list[str]:
    from boundcalc import budget as B
    from boundcalc.privacy.budgets import NOTIONS

    d = _json(["budget", "--setting", "linear", "--max-overhead", "0.1", "--delta", repr(delta)])
    problems = []
    rows = [r for r in d["budgets"] if r.get("equivalents")]
    assert rows, "no row with equivalents"
    for r in rows:
        eq = r["equivalents"]
        own = eq["own"]
        direct = B.equivalents(NOTIONS[own["notion"]](**{k: v for k, v in own.items() if k != "notion"}), delta)
        if eq["approx_tight"] != direct["approx_tight"] or eq["approx_simple"] != direct["approx_simple"]:
            problems.append(f"{r['id']}: {eq['approx_tight']} != library {direct['approx_tight']} at δ = {delta:g}")
        if own["notion"] == "zcdp":
            want = _zcdp_to_approx_simple(own["rho"], delta)
            if not math.isclose(eq["approx_simple"][0], want, rel_tol=1e-12) or eq["approx_simple"][1] != delta:
                problems.append(f"{r['id']}: simple ε {eq['approx_simple']} != {want} at δ = {delta:g}")
    return problems


def test_budget_delta_reaches_the_equivalents():
    """Kills: `solve(..., delta=d_priv)` -> `solve(...)` in the budget command (δ dropped: the equivalents at 1e-6),
    and `equivalents(..., delta)` -> `equivalents(..., 1e-6)` in budget/solve.py."""
    assert _check_budget_delta(1e-3) == []


@pytest.mark.parametrize("where", ["cli drops delta", "solve ignores delta"])
def test_budget_delta_mutants_are_caught(monkeypatch, where):
    import sys

    import boundcalc.budget as B

    S = sys.modules["boundcalc.budget.solve"]  # the module (boundcalc.budget.solve is also the function's name)
    if where == "cli drops delta":
        real = B.solve
        monkeypatch.setattr(B, "solve", lambda *a, delta=None, **k: real(*a, **k))
    else:
        monkeypatch.setattr(S, "_solve_one", mutate(S._solve_one, "notion.budget(bstar), delta)",
                                                    "notion.budget(bstar), 1e-6)"))
    assert _check_budget_delta(1e-3) != []


# =====================================================================================================================
# audit --delta: the audited (ε, δ) is the user's, not the scenario's default
# =====================================================================================================================
def _eps_lower_event(k_D, n_D, k_Dp, n_Dp, delta, gamma):
    """ε lower bound of one declared event: ln((p_lo − δ)/q_hi) with one-sided Clopper–Pearson bounds at level γ
    (P_D(E) <= e^ε P_D'(E) + δ; Jagielski et al. 2020, Nasr et al. 2021 — written out here with scipy)."""
    from scipy.stats import beta

    p_lo = 0.0 if k_D == 0 else float(beta.ppf(gamma, k_D, n_D - k_D + 1))
    q_hi = 1.0 if k_Dp == n_Dp else float(beta.isf(gamma, k_Dp + 1, n_Dp - k_Dp))
    if p_lo - delta <= 0:
        return 0.0
    return max(0.0, math.log((p_lo - delta) / q_hi))


@pytest.fixture
def estimator_deltas(monkeypatch):
    from boundcalc.audit import estimator

    seen = []
    for name in ("declared", "held_out"):
        real = getattr(estimator, name)

        def spy(*a, _real=real, _name=name, **k):
            seen.append(a[3] if _name == "declared" else a[2])
            return _real(*a, **k)

        monkeypatch.setattr(estimator, name, spy)
    return seen


AUDIT_DELTA_CASES = [  # (argv, the user's δ, the scenario default it must not fall back to)
    (["--algo", "LinUCB-DGS", "--epsilon", "1", "--delta", "0.05", "--trials", "200"], 0.05, 1e-3),
    (["--algo", "LDP-OLS", "--epsilon", "1", "--delta", "0.2", "--trials", "200"], 0.2, 0.01),
    (["--algo", "AdaC-UCB", "--rho", "1", "--delta", "0.3", "--trials", "200", "--mutant", "no-noise"], 0.3, 0.2),
]


def _check_audit_delta(argv, delta, seen):
    seen.clear()
    d = _json(["audit", *argv])
    problems = []
    if seen != [delta]:
        problems.append(f"estimator ran at δ = {seen}, not {delta}")
    if d["delta"] != delta:
        problems.append(f"result δ {d['delta']} != {delta}")
    if d["budget"]["notion"] in ("approx", "ldp") and d["budget"].get("delta") != delta:
        problems.append(f"audited budget {d['budget']} has not δ = {delta}")
    m = len(d["events"])
    for ev in d["events"]:
        want = _eps_lower_event(ev["count_D"], ev["trials_D"], ev["count_Dprime"], ev["trials_Dprime"], delta,
                                (1 - d["confidence"]) / (2 * m))
        if not math.isclose(ev["epsilon_lower"], want, rel_tol=1e-9, abs_tol=1e-12):
            problems.append(f"event ε_lower {ev['epsilon_lower']} != {want} at δ = {delta}")
    return problems, d


@pytest.mark.parametrize("argv,delta,default", AUDIT_DELTA_CASES, ids=lambda x: x[1] if isinstance(x, list) else None)
def test_audit_delta_reaches_claim_and_estimator(estimator_deltas, argv, delta, default):
    """Kills: `dlt = sc.default_budget["delta"] if delta is None else delta` -> `dlt = sc.default_budget["delta"]` in
    audit/run.py budget_for / _local_budget (the (ε, δ) claim audited at the scenario's δ), and `delta = budget.delta`
    -> `delta = sc.default_delta()` in prepare."""
    problems, d = _check_audit_delta(argv, delta, estimator_deltas)
    assert problems == []
    if "no-noise" in argv:  # the no-noise mutant is caught, and its ε lower bound depends on δ
        assert d["epsilon_lower"] > 0 and not d["passed"]
        ev = max(d["events"], key=lambda e: e["epsilon_lower"])
        g = (1 - d["confidence"]) / (2 * len(d["events"]))
        assert _eps_lower_event(ev["count_D"], ev["trials_D"], ev["count_Dprime"], ev["trials_Dprime"], default, g) \
            != ev["epsilon_lower"]


_DLT = 'dlt = sc.default_budget["delta"] if delta is None else delta'


@pytest.mark.parametrize("func,old,new,case", [
    ("budget_for", _DLT, 'dlt = sc.default_budget["delta"]', 0),
    ("_local_budget", _DLT, 'dlt = sc.default_budget["delta"]', 1),
    ("prepare", "        delta = budget.delta\n", "        delta = sc.default_delta()\n", 0),
    ("prepare", "        delta = validate.probability(ParamName(\"delta\"), delta)", "        delta = sc.default_delta()", 2),
])
def test_audit_delta_mutants_are_caught(estimator_deltas, monkeypatch, func, old, new, case):
    from boundcalc.audit import run as audit_run

    monkeypatch.setattr(audit_run, func, mutate(getattr(audit_run, func), old, new))
    argv, delta, _ = AUDIT_DELTA_CASES[case]
    try:
        problems, _ = _check_audit_delta(argv, delta, estimator_deltas)
    except AssertionError as exc:  # a mutant may also make the command fail: caught too
        problems = [str(exc)]
    assert problems != []


# =====================================================================================================================
# the 95% interval of the mean regret: Student t with n − 1 degrees of freedom (documented), not the normal quantile
# =====================================================================================================================
def _results(runs=5, seed=1):
    """A small Results by hand: `runs` runs, 3 checkpoints, spread-out regrets (n = 5: t(4) 2.776 vs z 1.960)."""
    from boundcalc.montecarlo import Results

    rng = np.random.default_rng(seed)
    reg = np.cumsum(rng.uniform(0, 10, size=(runs, 3)), axis=1)
    return Results(algorithm={"name": "X"}, env={"name": "e"}, T=100, seed=0, block_runs=runs,
                   checkpoints=np.array([10, 50, 100]), regret=reg, pulls=np.ones((runs, 2)), episodes=np.ones(runs))


def _t_interval(reg):
    """mean ± t_{0.975, n−1} s/√n per column, computed here with scipy.stats.t."""
    from scipy.stats import t

    n = reg.shape[0]
    m, s = reg.mean(axis=0), reg.std(axis=0, ddof=1)
    h = t.ppf(0.975, n - 1) * s / math.sqrt(n)
    return m - h, m + h


def _interval_sites():
    """Every place that computes the documented 95% Student-t interval of the mean regret, as f(Results) -> (lo, hi)
    at the last checkpoint (ribbon / worksheet / --check)."""
    from boundcalc import figures
    from boundcalc.experiments import common

    def ribbon(res):
        c = figures.curve_from_results(res)
        return c.lo[-1], c.hi[-1]

    def ws_final(res):
        return common.final(res)[1:]

    def ws_at(res):
        return common.at(res, 100)[1:]

    return {"figures.curve_from_results": ribbon, "experiments.common.final": ws_final,
            "experiments.common.at": ws_at}


@pytest.mark.parametrize("site", sorted(_interval_sites()))
def test_regret_interval_is_student_t(site):
    """Kills: `method="t"` -> `method="normal"` at each site (figures.curve_from_results, experiments.common.final
    and .at; the worksheet runner and --check are covered by the two tests below)."""
    res = _results()
    lo, hi = _interval_sites()[site](res)
    tlo, thi = _t_interval(res.regret)
    assert lo == pytest.approx(tlo[-1], rel=1e-12) and hi == pytest.approx(thi[-1], rel=1e-12)


@pytest.mark.parametrize("module,func", [("boundcalc.figures", "curve_from_results"),
                                         ("boundcalc.experiments.common", "final"),
                                         ("boundcalc.experiments.common", "at")])
def test_regret_interval_normal_mutant_is_caught(monkeypatch, module, func):
    import importlib

    mod = importlib.import_module(module)
    monkeypatch.setattr(mod, func, mutate(getattr(mod, func), 'method="t"', 'method="normal"'))
    res = _results()
    site = {"curve_from_results": "figures.curve_from_results", "final": "experiments.common.final",
            "at": "experiments.common.at"}[func]
    lo, hi = _interval_sites()[site](res)
    tlo, thi = _t_interval(res.regret)
    assert not (lo == pytest.approx(tlo[-1], rel=1e-6) and hi == pytest.approx(thi[-1], rel=1e-6))


def _regret_check_interval(monkeypatch, runs=5):
    """`regret --check --runs 5`: the reported interval against scipy's t(4) on the very runs simulated."""
    from boundcalc import montecarlo

    got = []
    real = montecarlo.run

    def spy(*a, **k):
        r = real(*a, **k)
        got.append(r)
        return r

    monkeypatch.setattr(montecarlo, "run", spy)
    d = _json(["regret", "--setting", "finite", "--epsilon", "1", "--T", "1e3", "--check", "--runs", str(runs)])
    rows = [b for b in d["bounds"] if isinstance(b.get("empirical"), dict) and "ci" in b["empirical"]]
    assert rows and got
    bad = []
    for b in rows:
        emp = b["empirical"]
        res = [r for r in got if r.algorithm.get("name") == b["algorithm"]]
        assert res, b["algorithm"]
        lo, hi = _t_interval(res[0].regret)
        if not (emp["ci"][0] == pytest.approx(lo[-1], rel=1e-9) and emp["ci"][1] == pytest.approx(hi[-1], rel=1e-9)):
            bad.append((b["id"], emp["ci"], [lo[-1], hi[-1]]))
    return bad


def test_regret_check_interval_is_student_t(monkeypatch):
    """Kills: `res.ci(level=0.95, method="t")` -> `method="normal"` in verify/regret_check.py check_rows."""
    assert _regret_check_interval(monkeypatch) == []


def test_regret_check_interval_mutant_is_caught(monkeypatch):
    from boundcalc.verify import regret_check

    monkeypatch.setattr(regret_check, "check_rows", mutate(regret_check.check_rows, 'method="t"', 'method="normal"'))
    assert _regret_check_interval(monkeypatch) != []


# =====================================================================================================================
# worksheet runner: the simulation cache is keyed with the seed; intervals are Student t
# =====================================================================================================================
def _runner(seed=0):
    from boundcalc.experiments import get
    from boundcalc.experiments.base import Runner

    return Runner(get("001"), mode="fast", seed=seed)


def _check_runner():
    """Two simulations of the same algorithm, env, T and runs under different labels (so different derived seeds)
    must differ and each equal montecarlo.run at its own seed; the same label twice is the cached object."""
    from boundcalc import montecarlo
    from boundcalc.algorithms.finite import UCB
    from boundcalc.envs import make_env
    from boundcalc.experiments.base import derived_seed

    r = _runner(seed=7)
    env = make_env("mu2")
    problems = []
    a = r.simulate("a", UCB(), env, 200, 5)
    b = r.simulate("b", UCB(), env, 200, 5)
    a2 = r.simulate("a", UCB(), env, 200, 5)
    for label, res in (("a", a), ("b", b)):
        direct = montecarlo.run(UCB(), env, 200, 5, seed=derived_seed(7, "001", label), checkpoints=res.checkpoints)
        if not np.array_equal(res.regret, direct.regret):
            problems.append(f"label {label}: not the run at its own seed")
    if np.array_equal(a.regret, b.regret):
        problems.append("two seeds share one cached result")
    if a2 is not a:
        problems.append("the same simulation is not reused")
    return problems


def test_worksheet_cache_keyed_with_the_seed():
    """Kills: the cache key of Runner.simulate without `seed` (two labels/seeds would share one result)."""
    assert _check_runner() == []


def test_worksheet_cache_without_seed_mutant_is_caught(monkeypatch):
    from boundcalc.experiments.base import Runner

    monkeypatch.setattr(Runner, "simulate", mutate(Runner.simulate, "T, runs_eff, seed,\n", "T, runs_eff,\n"))
    assert _check_runner() != []


def test_worksheet_recorded_interval_is_student_t(monkeypatch):
    """The interval a worksheet records for a simulation (final_ci) is the Student-t one.
    Kills: `res.ci(level=0.95, method="t")` -> `method="normal"` in Runner.simulate."""
    from boundcalc.algorithms.finite import UCB
    from boundcalc.envs import make_env
    from boundcalc.experiments.base import ExperimentResult, Runner

    def final_ci(sim_method):
        r = _runner()
        r.current = ExperimentResult(id="x", title="x", reproduces="", description="", scale={})
        res = sim_method(r, "a", UCB(), make_env("mu2"), 200, 5)
        lo, hi = _t_interval(res.regret)
        got = r.current.simulations[-1].final_ci
        return got == pytest.approx([lo[-1], hi[-1]], rel=1e-12)

    assert final_ci(Runner.simulate)
    assert not final_ci(mutate(Runner.simulate, 'res.ci(level=0.95, method="t")',
                               'res.ci(level=0.95, method="normal")'))


def test_worksheet_session_passes_its_options_to_the_runner(tmp_path):
    """`worksheet run --seed/--full/--step-cap/--out` reach the Session (tests/cli/test_option_reach.py); the Session
    passes them on to the Runner that simulates. Kills: `Runner(..., seed=self.simulation.seed, ...)` -> `seed=0` in
    Session."""
    from boundcalc.experiments import session as S
    from boundcalc.montecarlo.settings import Simulation

    def runner_of(cls):
        s = cls("001", mode="full", out=str(tmp_path / "o"), simulation=Simulation(seed=12), step_cap=500, echo=False)
        return s.runner

    def ok(r):
        return r.seed == 12 and r.mode == "full" and r.step_cap == 500 and str(r.out).startswith(str(tmp_path))

    assert ok(runner_of(S.Session))
    bad_init = mutate(S.Session.__init__, "seed=self.simulation.seed, step_cap", "seed=0, step_cap")
    Bad = type("Bad", (S.Session,), {"__init__": bad_init})
    assert not ok(runner_of(Bad))


# =====================================================================================================================
# the other documented intervals: simulate's table (normal, 1.96, stated in its caption) and budget --check's
# (Student t; delta method for the overhead)
# =====================================================================================================================
def test_simulate_table_interval_is_the_documented_normal_one():
    """`simulate` documents "95% CI = mean ± 1.96 s/√n": its JSON checkpoints against that formula on the very runs
    (a direct library call). Kills: Results.ci's default `method="normal"` -> `method="t"`."""
    from statistics import NormalDist

    from boundcalc import algorithms as registry
    from boundcalc.envs import make_env
    from boundcalc.montecarlo import Results, log_checkpoints, run

    d = _json(["simulate", "--algo", "UCB", "--T", "300", "--runs", "5"])
    res = run(registry.build("UCB", None, {}), make_env("mu2"), 300, 5, seed=0, checkpoints=log_checkpoints(300, 12))
    z = NormalDist().inv_cdf(0.975)

    def matches(table):
        for row, col in zip(table, res.regret.T):
            h = z * col.std(ddof=1) / math.sqrt(col.size)
            if not (math.isclose(row["ci_low"], col.mean() - h, rel_tol=1e-12, abs_tol=1e-12)
                    and math.isclose(row["ci_high"], col.mean() + h, rel_tol=1e-12, abs_tol=1e-12)):
                return False
        return True

    assert matches(d["checkpoints"])
    res.ci = mutate(Results.ci, 'method: str = "normal"', 'method: str = "t"').__get__(res)
    table = Results.table(res)
    assert not matches(table)


def _paired_by_hand(p, n, level=0.95):
    """r̂ = mean(p)/mean(n) − 1 ± t_{(1+level)/2, R−1} sd(z)/√R with z_i = (p_i − (r̂+1) n_i)/mean(n) (delta method
    for a ratio of paired means), written out with scipy.stats.t."""
    from scipy.stats import t

    R = len(p)
    ratio = np.mean(p) / np.mean(n)
    z = (np.asarray(p) - ratio * np.asarray(n)) / np.mean(n)
    h = t.ppf(0.5 + level / 2, R - 1) * np.std(z, ddof=1) / math.sqrt(R)
    return ratio - 1, ratio - 1 - h, ratio - 1 + h


def test_budget_check_intervals_are_student_t(monkeypatch):
    """budget --check: the overhead interval (delta method) and the regret intervals use Student t with R − 1 df.
    Kills: `_t_quantile(...)` (the Student-t quantile) -> 1.96 in budget/measured.py cluster_overhead and _mean_ci
    (budget --check's intervals)."""
    import importlib

    from scipy.stats import t

    C = importlib.import_module("boundcalc.budget.check")
    rng = np.random.default_rng(3)
    n = rng.uniform(50, 100, 5)
    p = n * 1.3 + rng.normal(0, 10, 5)
    v, lo, hi = _paired_by_hand(p, n)

    def ok(paired, mean_ci):
        o = paired(p, n)
        m = mean_ci(p)
        h = t.ppf(0.975, 4) * p.std(ddof=1) / math.sqrt(5)
        return (math.isclose(o["value"], v, rel_tol=1e-12) and math.isclose(o["ci"][0], lo, rel_tol=1e-12)
                and math.isclose(o["ci"][1], hi, rel_tol=1e-12) and math.isclose(m["ci"][0], p.mean() - h, rel_tol=1e-12)
                and math.isclose(m["ci"][1], p.mean() + h, rel_tol=1e-12))

    assert ok(C.paired_overhead, C._mean_ci)
    # both are budget.measured.assess (the one interval of a measured mean): its Student-t quantiles mutated there
    M = importlib.import_module("boundcalc.budget.measured")
    with monkeypatch.context() as mp:
        mp.setattr(M, "cluster_overhead", mutate(M.cluster_overhead, "_t_quantile(0.5 + level / 2, B - 1)",
                                                 "1.959963984540054"))
        assert not ok(C.paired_overhead, C._mean_ci)
    with monkeypatch.context() as mp:
        mp.setattr(M, "_mean_ci", mutate(M._mean_ci, "_t_quantile(0.5 + level / 2, R - 1)", "1.959963984540054"))
        assert not ok(C.paired_overhead, C._mean_ci)


def test_budget_check_runs_and_seed_reach_the_simulation(monkeypatch):
    """`budget --check --runs R --seed S` reach check_plan (tests/cli/test_option_reach.py); check_plan passes them to both
    simulations (at the budget and at the non-private limit). Kills: `_simulate_quietly(..., runs, seed, ...)` ->
    `..., 100, 0, ...` in budget/check.py."""
    import importlib

    from boundcalc.budget import Target, UserNotion, solve

    C = importlib.import_module("boundcalc.budget.check")
    rc = importlib.import_module("boundcalc.verify.regret_check")
    plan = solve("finite", 10**4, Target("overhead", 0.5), UserNotion("epsilon"))
    calls = []

    def spy(montecarlo, alg, env, T, runs, seed, progress, checkpoints=None):
        calls.append((runs, seed))
        return SimpleRes(runs)

    class SimpleRes:
        def __init__(self, runs):
            self.regret = np.arange(1.0, 8.0).reshape(7, 1)  # 7 runs whatever was asked (the check is on the calls)

    monkeypatch.setattr(rc, "_simulate_quietly", spy)

    def ok(fn):
        calls.clear()
        out = fn(plan, None, runs=7, seed=4)
        return out.runs == 7 and out.seed == 4 and calls == [(7, 4), (7, 4)]

    assert ok(C.check_plan)
    bad = mutate(C.check_plan, "res = rc._simulate_quietly(montecarlo, alg, env, T, runs, seed, progress)",
                 "res = rc._simulate_quietly(montecarlo, alg, env, T, 100, 0, progress)")
    assert not ok(bad)


def _check_audit_confidence(level):
    """AdaC-UCB's no-noise mutant at --confidence `level`: every event's bound at γ = (1 − level)/(2m) (Bonferroni over
    the m declared events, two bounds each), recomputed here with scipy from the counts."""
    d = _json(["audit", "--algo", "AdaC-UCB", "--rho", "1", "--trials", "200", "--mutant", "no-noise",
               "--confidence", repr(level)])
    m = len(d["events"])
    problems = []
    for ev in d["events"]:
        want = _eps_lower_event(ev["count_D"], ev["trials_D"], ev["count_Dprime"], ev["trials_Dprime"], d["delta"],
                                (1 - level) / (2 * m))
        if not math.isclose(ev["epsilon_lower"], want, rel_tol=1e-9, abs_tol=1e-12):
            problems.append(f"ε_lower {ev['epsilon_lower']} != {want} at confidence {level}")
    return problems


def test_audit_confidence_reaches_the_estimator(monkeypatch):
    """Kills: `alpha = 1.0 - confidence` -> `alpha = 0.05` in audit/run.py run_audit (the level dropped after the
    CLI, which tests/cli/test_option_reach.py checks up to run_audit)."""
    from boundcalc.audit import run as audit_run

    assert _check_audit_confidence(0.8) == []
    monkeypatch.setattr(audit_run, "run_audit", mutate(audit_run.run_audit, "alpha = 1.0 - confidence",
                                                       "alpha = 0.05"))
    assert _check_audit_confidence(0.8) != []


class _FakeRunner:
    """Just enough of experiments.base.Runner for one experiment function: simulate returns given Results."""

    def __init__(self, make):
        self.make, self.figures, self.claims = make, [], []

    def expect(self, n):
        pass

    def simulate(self, label, alg, env, T, runs, checkpoints=None):
        return self.make(label, T, runs)

    def figure(self, fig, name):
        self.figures.append(fig)

    def note(self, text):
        pass

    def figure_claim(self, *a):
        self.claims.append(a)

    def curve_bounds(self, *a, **kw):
        pass


def _fig1c_curves(run_fig1c, monkeypatch):
    """The curves worksheet 004 Fig. 1(c) draws, from 5 runs of known parameter errors per point."""
    from boundcalc import figures

    drawn = []
    monkeypatch.setattr(figures, "regret_figure", lambda curves, **k: drawn.append(curves) or object())
    errs = {}

    def make(label, T, runs):
        e = np.random.default_rng(len(label) + T).uniform(0.1, 1.0, runs)
        errs[label] = e
        return SimpleResults(e)

    class SimpleResults:
        def __init__(self, e):
            self.extra = {"theta_err": e}

    run_fig1c(_FakeRunner(make), {"horizons": [100, 200], "runs": 5})
    return drawn[0], errs


def test_ws004_parameter_error_ribbon_is_student_t(monkeypatch):
    """Worksheet 004 Fig. 1(c) drew its ribbon with 1.96 (the normal quantile) at 5 runs in fast mode, where every
    other ribbon is Student t (t(4) = 2.776): fixed. Kills: the Student-t quantile -> 1.96 (the old line)."""
    from boundcalc.experiments import ws004

    def ok(fn):
        curves, errs = _fig1c_curves(fn, monkeypatch)
        for c in curves:
            for T, lo, hi in zip((100, 200), c.lo, c.hi):
                e = errs[f"fig1c/{c.label}/T={T}"]
                tlo, thi = _t_interval(e.reshape(-1, 1))
                if not (math.isclose(lo, tlo[0], rel_tol=1e-12) and math.isclose(hi, thi[0], rel_tol=1e-12)):
                    return False
        return True

    assert ok(ws004.run_fig1c)
    assert not ok(mutate(ws004.run_fig1c, "float(student.ppf(0.975, err.size - 1))", "1.96"))


def test_worksheet_two_sample_statistics_are_as_documented():
    """experiments.bounds.difference (mean difference, normal 95% interval, var = s_p²/n_p + s_n²/n_n) and
    price_of_privacy (seed 003 Sec. VII PoP = Reg_p/Reg_n − 1, delta-method interval for a ratio of independent means),
    written out here. Kills: the unequal-sample standard error with n_n replaced by n_p, and PoP without its − 1."""
    from boundcalc.experiments import bounds as EB

    p, n = _results(runs=5, seed=1), _results(runs=8, seed=2)
    z = 1.96

    def ok(diff, pop):
        d, lo, hi = diff(p, n)
        mp, mn = p.regret.mean(0), n.regret.mean(0)
        vp, vn = p.regret.var(0, ddof=1) / 5, n.regret.var(0, ddof=1) / 8
        se = np.sqrt(vp + vn)
        r = mp / mn
        se_r = np.abs(r) * np.sqrt(vp / mp**2 + vn / mn**2)
        P, plo, phi = pop(p, n)
        return (np.allclose(d, mp - mn, rtol=1e-12) and np.allclose(lo, mp - mn - z * se, rtol=1e-12)
                and np.allclose(hi, mp - mn + z * se, rtol=1e-12) and np.allclose(P, r - 1, rtol=1e-12)
                and np.allclose(plo, r - 1 - z * se_r, rtol=1e-12) and np.allclose(phi, r - 1 + z * se_r, rtol=1e-12))

    assert ok(EB.difference, EB.price_of_privacy)
    assert not ok(mutate(EB.difference, "nonpriv.std() ** 2 / nonpriv.runs", "nonpriv.std() ** 2 / priv.runs"),
                  EB.price_of_privacy)
    assert not ok(EB.difference, mutate(EB.price_of_privacy, "np.where(mn > 0, r - 1, np.nan)",
                                        "np.where(mn > 0, r, np.nan)"))


def _min_t_rows(argv):
    d = _json(["budget", "--setting", "contextual", "--min-T", "--max-overhead", "0.5", *argv])
    return d["inputs"]["budget"], [(h["id"], h["overhead_status"], h["T_overhead"], h["informative_status"],
                                    h["T_informative"]) for h in d["horizons"]]


def _min_t_lib(budget):
    from boundcalc.budget import min_horizon

    return [(r["id"], r["overhead_status"], r["T_overhead"], r["informative_status"], r["T_informative"])
            for r in (x.as_dict() for x in min_horizon("contextual", budget, 0.5, {}))]


def test_budget_min_t_delta_reaches_the_budget(monkeypatch):
    """`budget --min-T --epsilon 1 --delta 1e-3` evaluates the bounds at (1, 1e-3)-DP: it was evaluated at pure ε = 1
    with --delta silently dropped (LinUCB-DGS's 004-thm3 then 'not applicable'); fixed in cli/budget_cmd.py. Compared
    with min_horizon at ApproxDP(1, 1e-3). Kills: the old call `budget_of(..., None, ...)` (δ dropped)."""
    from boundcalc.cli import problem
    from boundcalc.privacy import ApproxDP

    bud, rows = _min_t_rows(["--epsilon", "1", "--delta", "1e-3"])
    assert bud == {"notion": "approx", "epsilon": 1.0, "delta": 1e-3}
    assert rows == _min_t_lib(ApproxDP(1.0, 1e-3))
    real = problem.budget_of
    monkeypatch.setattr(problem, "budget_of",
                        lambda eps, rho, a, re, delta, le, ld: real(eps, rho, a, re, None, le, ld))
    bud, rows = _min_t_rows(["--epsilon", "1", "--delta", "1e-3"])
    assert rows != _min_t_lib(ApproxDP(1.0, 1e-3))


def test_worksheet_bound_comparison_interval_is_student_t():
    """experiments.bounds.compare (measured regret at T vs a registered bound, in every worksheet's report) uses the
    Student-t interval. Kills: `res.ci(level=0.95, method="t")` -> `method="normal"` in compare."""
    from boundcalc.envs import make_env
    from boundcalc.experiments import bounds as EB
    from boundcalc.privacy import PureDP

    res = _results()
    lo, hi = _t_interval(res.regret)
    runner = SimpleNamespace(current=None)

    def ci(fn):
        out = fn(runner, "c", "finite", PureDP(1.0), "DP-SE", res, make_env("mu2"), bound_ids=["001-dp-se-explicit"],
                 assumptions=(True, ""))
        return out[0].ci

    assert ci(EB.compare) == pytest.approx([lo[-1], hi[-1]], rel=1e-12)
    bad = mutate(EB.compare, 'res.ci(level=0.95, method="t")', 'res.ci(level=0.95, method="normal")')
    assert ci(bad) != pytest.approx([lo[-1], hi[-1]], rel=1e-6)
