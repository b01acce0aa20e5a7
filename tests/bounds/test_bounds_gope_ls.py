"""GOPE's own bounds (boundcalc/bounds/baselines.py): Lattimore & Szepesvári 2020, Bandit Algorithms, Thm 22.1 (the
O-form with C = 1) and its explicit form DERIVED from the proof for the schedule boundcalc's GOPE runs.

* The closed form against the phase-by-phase sum computed here from the schedule (mpmath, 50 digits): phases of the
  minimal length c_ℓ = 2d 4^ℓ log(Kℓ(ℓ+1)/δ) counted until they fill n, phase 1 weighted by Δ̄, phase ℓ ≥ 2 by 2^{3−ℓ},
  each phase at most c_ℓ + min(K, d(d+1)/2) long, plus δ n Δ̄. The closed form must dominate it everywhere; mutants
  (logarithms halved, the design-support / ceiling term dropped) fall below it somewhere.
* The phase lengths of the code (GOPE.counts on the solver's G-optimal designs) lie in [c_ℓ, c_ℓ + min(K, d(d+1)/2)],
  the two facts the derivation uses; a GOPE with a halved schedule is rejected.
* Monte Carlo inside the assumptions (±1 rewards; N(0, 1) noise), one-sided 99% margin: the mean regret stays below
  the bound; on a one-dimensional instance whose first phase plays only the bad action the regret is close to the
  bound's phase-1 term, and the log-halved mutant is exceeded.
* `regret --setting linear --check` judges the bounds ("held" for the explicit form), the GOPE adapter's assumption
  check (1-sub-Gaussian noise) and `algorithms` listing GOPE's bounds; worksheet 003 draws them (mutant: not drawn).
"""

from __future__ import annotations

import copy
import json
import math

import mpmath
import numpy as np
import pytest
from typer.testing import CliRunner

from boundcalc.algorithms.design import g_optimal_design
from boundcalc.algorithms.linear import GOPE
from boundcalc.bounds import registry
from boundcalc.cli.app import app
from boundcalc.envs.linear import LinearEnv

pytestmark = pytest.mark.xdist_group("worksheet-bounds")  # shares run_tiny's worksheet caches

EXPLICIT = "gope-lattimore-szepesvari2020-thm22-1-explicit"
PAPER = "gope-lattimore-szepesvari2020-thm22-1-paper"
Z99 = 2.3263478740408408  # one-sided 99% normal quantile


# -- the phase sum, computed from the schedule (independent of the closed form) ---------------------------------------
def phase_sum(n, d, K, delta, Db):
    """Σ over the phases that can start by n of (phase weight) × (longest phase length) + δ n Δ̄, mpmath 50 digits:
    phase ℓ has length in [c_ℓ, c_ℓ + min(K, d(d+1)/2)], c_ℓ = 2 d 4^ℓ log(Kℓ(ℓ+1)/δ) (Lattimore–Szepesvári Alg. 12 with
    ε_ℓ = 2^-ℓ); at most the phases whose minimal lengths sum below n start; phase 1 plays gaps ≤ Δ̄, phase ℓ ≥ 2 gaps
    ≤ 4 ε_{ℓ-1} = 2^{3-ℓ} on the good event (probability ≥ 1 − δ)."""
    with mpmath.workdps(50):
        n, d, K, delta, Db = map(mpmath.mpf, (n, d, K, delta, Db))
        s = min(K, d * (d + 1) / 2)
        t, total, ell = mpmath.mpf(0), mpmath.mpf(0), 0
        while t < n:
            ell += 1
            c = 2 * d * mpmath.mpf(4) ** ell * mpmath.log(K * ell * (ell + 1) / delta)
            total += (Db if ell == 1 else mpmath.mpf(2) ** (3 - ell)) * (s + c)
            t += c
        return total + delta * n * Db


GRID = [(d, K, delta) for d in (1, 3, 10) for K in (2, 100, 1000) for delta in (0.1, 1e-8)]
NS = (10.0, 100.0, 1e3, 1e4, 1e5, 1e6, 1e8, 1e12)


def _dominates(bound) -> bool:
    """Is ``bound`` ≥ the phase sum (to 1e-12 relative) at every (d, K, δ) of GRID, n of NS and two ‖θ*‖?"""
    for d, K, delta in GRID:
        for th in (1.0, 0.25):
            ctx = registry.make_context("linear", {"d": d, "K": K, "delta": delta, "theta": [th] + [0.0] * (d - 1)})
            Db = 2 * ctx["max_action_norm"] * ctx["theta_norm"]
            got = bound.evaluate(np.array(NS), ctx).value
            want = [float(phase_sum(n, d, K, delta, Db)) for n in NS]
            if np.any(got < np.array(want) * (1 - 1e-12)):
                return False
    return True


def _mutant(bound, edit):
    m = copy.copy(bound)
    original = bound.expression
    m.expression = lambda: tuple(edit(e) for e in original())
    m.id = bound.id + "-mutant"  # no generated numpy for it: lambdified from the edited expression
    return m


def _halve_logs(e):
    """The logarithms of the phase lengths halved (Λ_1, Λ), the phase count L left as it is."""
    import sympy

    keep = {f: sympy.Dummy() for f in e.atoms(sympy.floor)}
    return e.xreplace(keep).replace(sympy.log, lambda x: sympy.log(x) / 2).xreplace({v: k for k, v in keep.items()})


def _drop_support(e):
    import sympy

    return e.replace(sympy.Min, lambda *a: sympy.Integer(0))


def test_explicit_dominates_the_phase_sum_and_mutants_do_not():
    b = registry.get(EXPLICIT)
    assert _dominates(b)
    # not absurdly loose either: within a factor 3 of the phase sum on the default instance at n = 1e6
    ctx = registry.make_context("linear", {})
    v = float(b.evaluate(np.array([1e6]), ctx).value[0])
    ref = float(phase_sum(1e6, 3, 10, 1e-3, 2 * ctx["max_action_norm"] * ctx["theta_norm"]))
    assert ref <= v <= 3 * ref
    for edit in (_halve_logs, _drop_support):
        m = _mutant(b, edit)
        assert m.expression() != b.expression()
        assert not _dominates(m), edit.__name__


def test_explicit_is_of_the_theorems_order():
    """Thm 22.1's rate: the explicit form (δ = 1/n) over sqrt(n d log(K n)) stays bounded as n grows (below 60 here;
    it oscillates by up to 2x with the floor in the phase count, without a trend), while its paper form is that rate
    with C = 1."""
    for d, K in ((2, 10), (5, 1000)):
        ns = np.geomspace(1e4, 1e14, 11)
        ratios = []
        for n in ns:
            ctx = registry.make_context("linear", {"d": d, "K": K, "delta": 1.0 / n})
            ratios.append(float(registry.get(EXPLICIT).evaluate(np.array([n]), ctx).value[0])
                          / math.sqrt(n * d * math.log(K * n)))
            p = float(registry.get(PAPER).evaluate(np.array([n]), ctx).value[0])
            assert math.isclose(p, math.sqrt(n * d * math.log(K * n)), rel_tol=1e-12)
        assert max(ratios) < 60 and max(ratios[5:]) <= 1.2 * max(ratios[:6]), ratios


# -- the phase lengths of the code ---------------------------------------------------------------------------------
def _phase_lengths_ok(alg, cases) -> bool:
    for A, delta in cases:
        K, d = A.shape
        des = g_optimal_design(A)
        de = max(float(d), des.g)
        assert de <= d * (1 + 1e-6) + 1e-12 and des.support_size <= min(K, d * (d + 1) // 2)
        for ell in range(1, 8):
            T_l = int(alg.counts(ell, d, K, des).sum())
            c = 2 * de * 4.0 ** ell * math.log(K * ell * (ell + 1) / delta)
            if not (c - 1e-9 <= T_l <= c + min(K, d * (d + 1) / 2) + 1e-9):
                return False
    return True


class _HalvedSchedule(GOPE):
    def c_ell(self, ell, d, K):
        return 0.5 * super().c_ell(ell, d, K)


def test_code_phase_lengths_within_the_derivations_range():
    rng = np.random.default_rng(20261126)
    cases = []
    for K, d in ((3, 1), (10, 3), (40, 4), (6, 5), (25, 2)):
        A = rng.standard_normal((K, d))
        cases.append((A / np.linalg.norm(A, axis=1, keepdims=True), 1e-3))
    assert _phase_lengths_ok(GOPE(delta=1e-3, schedule="ls"), cases)
    assert not _phase_lengths_ok(_HalvedSchedule(delta=1e-3, schedule="ls"), cases)


# -- Monte Carlo inside the assumptions -----------------------------------------------------------------------------
def _mc(env, T, runs, seed):
    res = GOPE(delta=1e-3, schedule="ls").simulate(env, T, runs, np.random.default_rng(seed), np.array([float(T)]))
    x = res.regret[:, -1]
    se = float(x.std(ddof=1)) / math.sqrt(runs)
    return float(x.mean()) - Z99 * se, float(x.mean()) + Z99 * se


def _value(bound, ctx, T):
    return float(bound.evaluate(np.array([float(T)]), ctx).value[0])


def test_monte_carlo_bound_holds_and_log_halved_mutant_is_exceeded():
    b = registry.get(EXPLICIT)
    # one dimension, actions -1 and 1/2, theta* = 1: the G-optimal design puts all its mass on -1 (gap 3/2), so the
    # first phase (67 rounds at delta = 1e-3) plays only the bad action — the bound's phase-1 term is nearly attained
    over = {"actions": [[-1.0], [0.5]], "theta": [1.0]}
    ctx = registry.make_context("linear", over)
    env = LinearEnv(np.array(over["actions"]), np.array(over["theta"]), noise="rademacher")
    lo, hi = _mc(env, 60, 20, 1)
    assert hi <= _value(b, ctx, 60)
    assert lo > _value(_mutant(b, _halve_logs), ctx, 60)
    # the default instance (K = 10, d = 3, ±1 rewards) and a random one with N(0, 1) noise, where the bound is below
    # the trivial T·Δ_max (not vacuous)
    for over, noise, T in (({}, "rademacher", 20000), ({"d": 2, "K": 6, "action_seed": 7}, "gaussian", 30000)):
        ctx = registry.make_context("linear", over)
        env = LinearEnv(ctx["actions"], ctx["theta"], noise=noise, sigma=1.0)
        lo, hi = _mc(env, T, 20, 2)
        v = _value(b, ctx, T)
        assert hi <= v < T * float(np.max(ctx["gaps"])), (over, hi, v)


# -- the commands ------------------------------------------------------------------------------------------------------
def test_regret_check_judges_gope_and_adapter_assumptions():
    r = CliRunner().invoke(app, ["regret", "--setting", "linear", "--T", "2e4", "--check", "--runs", "6", "--json"])
    assert r.exit_code == 0, r.output
    rows = {b["id"]: b for b in json.loads(r.output)["bounds"]}
    e = rows[EXPLICIT]["empirical"]
    assert rows[EXPLICIT]["algorithm"] == "GOPE" and e["assumptions_met"] is True and e["verdict"] == "held", e
    assert rows[PAPER]["empirical"]["verdict"], rows[PAPER]
    from boundcalc.verify import adapters as A

    ad = A._adapters()["GOPE"]
    ctx = registry.make_context("linear", {})
    assert ad.build(ctx, None).schedule == "ls"
    for sigma, ok in ((1.0, True), (2.0, False)):
        env = LinearEnv(ctx["actions"], ctx["theta"], noise="gaussian", sigma=sigma)
        assert ad.assumptions(ctx, env, {"algorithm": "GOPE"})[0] is ok


def test_algorithms_lists_gope_bounds():
    r = CliRunner().invoke(app, ["algorithms", "--json"])
    assert r.exit_code == 0, r.output
    rows = {a["name"]: a["bound_ids"] for a in json.loads(r.output)["algorithms"]}
    assert set(rows["GOPE"]) == {EXPLICIT, PAPER}
    assert "003-gope-paper" in rows["GOPE-limit"]
    for bid in (EXPLICIT, PAPER):
        assert registry.get(bid).algorithm == "GOPE" and registry.get(bid) in registry.select("linear")
    # simulate --plot's overlay draws them beside a GOPE curve (verify/overlay.py)
    from boundcalc import algorithms as algs
    from boundcalc.envs import make_named_env
    from boundcalc.verify import overlay

    curves, _ = overlay.bound_curves(algs.build("GOPE"), make_named_env("zcdp-linear-bounded"), np.geomspace(10, 1e4, 4),
                                     None)
    assert {c.bound_id for c in curves if c.kind == "upper"} == {EXPLICIT, PAPER}


def test_worksheet_mutant_gope_bounds_not_drawn_is_rejected(tmp_path, monkeypatch):
    """tests/experiments/test_worksheet_bounds.py::test_baselines_drawn_and_judged checks GOPE's bounds drawn and judged on 003's
    fig4b-bounds; here the same check (its ``problems``) rejects a worksheet whose GOPE panel draws none of them."""
    from test_worksheet_bounds import problems, run_tiny

    from boundcalc.experiments import ws003

    panel = ws003.bounds_panel

    def undrawn(r, key, *a, **k):  # the mutant: GOPE's panel draws none of its bounds
        if key.endswith("GOPE-LS"):
            k = dict(k, draw=[])
        return panel(r, key, *a, **k)

    monkeypatch.setattr(ws003, "bounds_panel", undrawn)
    bad = problems(run_tiny("003", tmp_path / "mutant", only={"fig4b-bounds"})["fig4b-bounds"])
    assert any(p.startswith("fig4b-bounds: GOPE:") for p in bad), bad
