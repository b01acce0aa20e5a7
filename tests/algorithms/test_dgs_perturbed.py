"""Seed 004 Corollary 1: LinUCB-DGS with perturbed contexts (``perturb_sigma``), bound 004-cor1, its regret check and
its audit.

Independent computations: the vectorised ``simulate`` against the plain ``reference`` (which perturbs and projects one
vector at a time, its own code) draw for draw; the bound against Eq. 6 written here with mpmath at 30 digits and
against Theorem 3 (004-thm3) with lambda0 = sigma^2; the audit's event against the sign argument of its design.
Mutants (each rejected by the check it tests): a fast path that perturbs without projecting, sigma instead of sigma^2
in the bound's burn-in, and the noise-halved algorithm in the audit.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from boundcalc.algorithms.contextual import LinUCBDGS, linucb
from boundcalc.bounds import registry
from boundcalc.envs.contextual import make_contextual_env
from boundcalc.errors import InputError
from boundcalc.montecarlo.settings import Simulation
from boundcalc.privacy import ApproxDP

T_EXACT, LANES = 120, 4
CPS = np.array([0, 1, 2, 7, 64, 100, 120])


def _alg(**k):
    return LinUCBDGS(eps=2.0, delta=0.1, **{"alpha": 1.0, "perturb_sigma": 0.3, **k})


def _agrees(alg, env, seed=3):
    sim = alg.simulate(env, T_EXACT, LANES, np.random.default_rng(seed), CPS)
    for j in range(LANES):
        ref = alg.reference(env, T_EXACT, np.random.default_rng(seed), CPS, lane=j, lanes=LANES)
        if not (np.allclose(sim.regret[j], ref.regret[0], rtol=0, atol=1e-8)
                and np.allclose(sim.extra["tree_noise"][j], ref.extra["tree_noise"][0], rtol=0, atol=1e-10)
                and abs(sim.extra["theta_err"][j] - ref.extra["theta_err"][0]) < 1e-8):
            return False
    return True


# -- the algorithm ----------------------------------------------------------------------------------------------
# Exact agreement needs no exact ties at t = 1 (theta^p = 0, every score alpha ||x~||/sqrt(lambda)): projected
# vectors all have norm L up to rounding, so where the projection binds the width is alpha = 0 (all scores 0, the first
# arm in both paths); with L = 3 it never binds and the theory width is used.
@pytest.mark.parametrize("kw", [{"alpha": 0.0}, {"alpha": 0.0, "lambda0": 0.05, "schedule": "safe", "tree": "fresh"},
                                {"perturb_sigma": 0.05, "alpha": "theory", "L": 3.0}])
def test_perturbed_simulate_equals_reference(kw):
    env = make_contextual_env("zcdp-contextual")  # unprojected N((1/sqrt 3) 1, I/10): the projection binds at L = 1
    assert _agrees(_alg(**kw), env)


def test_mutant_unprojected_fast_path_is_rejected(monkeypatch):
    env = make_contextual_env("zcdp-contextual")
    assert _agrees(_alg(alpha=0.0), env)
    monkeypatch.setattr(linucb, "perturb_contexts", lambda X, Z, s, L: X + s * Z)
    assert not _agrees(_alg(alpha=0.0), env)


def test_perturbation_changes_the_run_and_sigma_squared_is_lambda0():
    env = make_contextual_env("zcdp-contextual")
    a, b = _alg(perturb_sigma=0.0), LinUCBDGS(eps=2.0, delta=0.1, alpha=1.0)
    r0 = a.simulate(env, 60, 3, np.random.default_rng(1), np.array([60]))
    r1 = b.simulate(env, 60, 3, np.random.default_rng(1), np.array([60]))
    r2 = _alg().simulate(env, 60, 3, np.random.default_rng(1), np.array([60]))
    assert np.array_equal(r0.regret, r1.regret)  # sigma = 0 is the unperturbed algorithm, draw for draw
    assert not np.array_equal(r0.regret, r2.regret)
    assert _alg().lambda0_used(env) == pytest.approx(0.09) and _alg(lambda0=0.5).lambda0_used(env) == 0.5
    assert b.lambda0_used(env) == env.lambda0
    with pytest.raises(InputError):
        _alg(perturb_sigma=-1.0)
    assert "Cor. 1" in _alg().guarantee_text() and "Cor. 1" not in b.guarantee_text()


def test_perturb_contexts_projects_onto_the_ball():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((50, 4))
    Y = linucb.perturb_contexts(X, rng.standard_normal(X.shape), 0.5, 2.0)
    assert np.all(np.linalg.norm(Y, axis=1) <= 2.0 + 1e-12)
    small = linucb.perturb_contexts(np.full((1, 2), 0.1), np.zeros((1, 2)), 0.5, 2.0)
    assert np.array_equal(small, np.full((1, 2), 0.1))


# -- the bound --------------------------------------------------------------------------------------------------
def _eq6(T, d, lam, L, S, zeta, sig, eps, delta):
    """seed 004 Cor. 1, Eq. 6, written from the paper (mpmath, 30 digits): (non-private part, privacy cost)."""
    with mpmath.workdps(30):
        T, d, lam, L, S, zeta, sig, eps, delta = (mpmath.mpf(x) for x in (T, d, lam, L, S, zeta, sig, eps, delta))
        root = mpmath.sqrt(d * T * mpmath.log(lam + L * T / d))
        a = 2 * (mpmath.sqrt(d * mpmath.log((1 + T * L**2 * lam) / zeta)) + mpmath.sqrt(lam) * S) / sig**2 * root
        b = (2 * mpmath.mpf(3) ** 1.5 * L / (mpmath.e ** 1.5 * sig**2 * eps) * mpmath.log(1 / zeta) * root
             + 32 * mpmath.log(1 / delta) / sig**2)
        return float(a), float(b)


CASES = [({}, 2.0, 0.1), ({"perturb_sigma": 0.3, "d": 5, "lam": 2.0, "zeta": 0.01}, 0.5, 1e-3),
         ({"perturb_sigma": 0.05, "L": 2.0, "S": 1.5, "d": 10}, 5.0, 0.2)]


@pytest.mark.parametrize("over, eps, delta", CASES)
def test_cor1_against_eq6_and_thm3(over, eps, delta):
    b = registry.get("004-cor1")
    ctx = registry.make_context("contextual", over, ApproxDP(eps, delta))
    T = np.array([1e2, 1e4, 1e7])
    v = b.evaluate(T, ctx)
    p = ctx.params
    for i, t in enumerate(T):
        a, c = _eq6(t, p["d"], p["lam"], p["L"], p["S"], p["zeta"], p["perturb_sigma"], eps, delta)
        assert v.nonprivate[i] == pytest.approx(a, rel=1e-12) and v.privacy_cost[i] == pytest.approx(c, rel=1e-12)
    # Theorem 3 with lam0 = sigma^2 gives the privacy cost; its non-private part divided by sigma^2 the other
    s2 = p["perturb_sigma"] ** 2
    ctx3 = registry.make_context("contextual", {**over, "lam0": s2}, ApproxDP(eps, delta))
    v3 = registry.get("004-thm3").evaluate(T, ctx3)
    assert np.allclose(v.privacy_cost, v3.privacy_cost, rtol=1e-12)
    assert np.allclose(v.nonprivate, v3.nonprivate / s2, rtol=1e-12)


def test_mutant_sigma_in_the_burn_in_is_rejected():
    import copy

    import sympy

    cor1 = registry.get("004-cor1")  # a row of bounds/extra.toml; the mutant is a subclass of its row class

    class Bad(type(cor1)):
        def expression(self):
            a, b = super().expression()
            dl, sig = sympy.Symbol("delta_dp", positive=True), sympy.Symbol("sigma_z", positive=True)
            return a, b - 32 * sympy.log(1 / dl) / sig**2 + 32 * sympy.log(1 / dl) / sig

    bad = copy.copy(cor1)
    bad.__class__ = Bad  # another class: the generated numpy code of the row is not used (bounds/base.py)
    ctx = registry.make_context("contextual", {}, ApproxDP(2.0, 0.1))
    v = bad.evaluate([1e4], ctx)
    a, c = _eq6(1e4, 3, ctx["lam"], 1.0, 1.0, 0.05, 0.1, 2.0, 0.1)
    assert v.privacy_cost[0] != pytest.approx(c, rel=1e-6)


def test_cor1_requirements_and_metadata():
    b = registry.get("004-cor1")
    ok = registry.make_context("contextual", {}, ApproxDP(2.0, 0.1))
    assert b.conditions(ok) == []
    big = registry.make_context("contextual", {"perturb_sigma": 0.6}, ApproxDP(2.0, 0.1))  # 0.36 > 1/3
    assert any("perturb_sigma**2 <= L**2/d" in c for c in b.conditions(big))
    unproj = registry.make_context("contextual", {"context_distribution": "gaussian-003"}, ApproxDP(2.0, 0.1))
    assert any("max_action_norm" in c for c in b.conditions(unproj))
    with pytest.raises(InputError):
        registry.make_context("contextual", {"perturb_sigma": 0.0})
    assert "004-cor1" in LinUCBDGS.bound_ids and b.algorithm == "LinUCB-DGS"
    assert all(c.split(":")[0] in ("proof gap", "typo") for c in b.caveats)


# -- the regret check ------------------------------------------------------------------------------------------
def test_regret_check_runs_the_perturbed_algorithm():
    from boundcalc.bounds.report import regret_report
    from boundcalc.verify import adapters, regret_check

    rep = regret_report("contextual", ApproxDP(2.0, 0.1), [300])
    rows = [r for r in rep.rows if r["id"] in ("004-thm3", "004-cor1")]
    regret_check.check_rows("contextual", rep.ctx, rows, ApproxDP(2.0, 0.1), 300, Simulation(runs=6, seed=2))
    e3, e1 = (next(r for r in rows if r["id"] == i)["empirical"] for i in ("004-thm3", "004-cor1"))
    assert e1["assumptions_met"] and "perturbed by N(0, 0.1^2 I)" in e1["assumptions_note"]
    assert e1["mean"] != e3["mean"]  # another algorithm was simulated
    # the same number from a direct run of the perturbed algorithm
    from boundcalc import montecarlo

    alg = LinUCBDGS(2.0, 0.1, lam=rep.ctx["lam"], perturb_sigma=0.1)
    res = montecarlo.run(alg, adapters._contextual_env(rep.ctx), 300, 6, seed=2, checkpoints=np.array([300]),
                         block_runs=regret_check.CHECK_BLOCK_RUNS)
    assert float(res.mean()[-1]) == pytest.approx(e1["mean"], rel=1e-12)
    # outside the assumptions: unprojected contexts; the perturbed lambda_min estimate is near lambda0 + sigma^2
    env = adapters._contextual_env(rep.ctx)
    lam = adapters.perturbed_lambda0(env, 0.1, 1.0)
    assert 0.01 < lam < env.lambda0 + 0.01 + 0.01
    # the inverse: a perturbed LinUCB-DGS on the instance is described by perturb_sigma
    over, why = adapters.context_for(LinUCBDGS(2.0, 0.1, lam=rep.ctx["lam"], perturb_sigma=0.1), env,
                                     ApproxDP(2.0, 0.1))
    assert why == "" and over["perturb_sigma"] == 0.1
    over, why = adapters.context_for(LinUCBDGS(2.0, 0.1, lam=rep.ctx["lam"], perturb_sigma=0.1, lambda0=0.5), env,
                                     ApproxDP(2.0, 0.1))
    assert over is None and "sigma^2" in why


# -- the audit -------------------------------------------------------------------------------------------------
def test_audit_passes_the_perturbed_algorithm_and_catches_its_noise_halved_copy():
    from boundcalc.audit.run import run_audit

    ok = run_audit("LinUCB-DGS", seed=3, trials=50000, params={"perturb_sigma": 0.1})
    bad = run_audit("LinUCB-DGS", mutant="noise-halved", seed=3, trials=50000, params={"perturb_sigma": 0.1})
    assert ok.passed and ok.params["perturb_sigma"] == 0.1
    assert not bad.passed and bad.epsilon_lower > bad.epsilon_claimed


def test_audit_width_zero_plays_the_same_arms_as_width_one_without_perturbation():
    from boundcalc.audit.scenarios import SCENARIOS

    sc = SCENARIOS["LinUCB-DGS"]
    pr = sc.probes(sc.build(ApproxDP(1.0, 1e-3)))[0]
    out = []
    for alpha in (0.0, 1.0):
        alg = LinUCBDGS(1.0, 1e-3, alpha=alpha, lam=64.0)
        out.append(sc.event(alg, pr, pr.D, 4000, np.random.default_rng(5)))
    assert np.array_equal(out[0], out[1]) and 0.02 < out[0].mean() < 0.98
    # with perturbed contexts a width of 1 lets the perturbation decide step 1: the event loses its signal
    m = []
    for table in (pr.D, pr.Dp):
        alg = LinUCBDGS(1.0, 1e-3, alpha=1.0, lam=64.0, perturb_sigma=0.1)
        m.append(sc.event(alg, pr, table, 4000, np.random.default_rng(6)).mean())
    z = []
    for table in (pr.D, pr.Dp):
        alg = LinUCBDGS(1.0, 1e-3, alpha=0.0, lam=64.0, perturb_sigma=0.1)
        z.append(sc.event(alg, pr, table, 4000, np.random.default_rng(6)).mean())
    assert z[0] - z[1] > 2 * abs(m[0] - m[1]) and math.isfinite(z[0])


def test_overlay_draws_cor1_for_the_perturbed_algorithm_only():
    from boundcalc.verify.adapters import _contextual_env
    from boundcalc.verify.overlay import upper_curves

    ctx = registry.make_context("contextual", {}, ApproxDP(2.0, 0.1))
    env = _contextual_env(ctx)
    drawn = {}
    for s in (0.0, 0.1):
        curves, _ = upper_curves(LinUCBDGS(2.0, 0.1, lam=ctx["lam"], perturb_sigma=s), env, np.array([100, 1000]),
                                 ApproxDP(2.0, 0.1))
        drawn[s] = {c.label.split()[0]: c.inside for c in curves}
    assert drawn[0.0] == {"004-thm3": True, "004-thm3-corrected": True}
    assert drawn[0.1] == {"004-cor1": True}
    assert set(LinUCBDGS.bound_ids) == {"004-thm3", "004-thm3-corrected", "004-cor1"}
