"""d_{ε,inf} of seed 001 Eq. 9 (boundcalc.info.d_eps_inf) and the bound 001-eq9.

Independent computations: the Bernoulli closed form d_ε (seed 001 Eq. 8); a direct optimisation over Q (scipy SLSQP)
of d_ε(P, Q) = inf_R ε TV(P, R) + KL(R, Q) (info.d_epsilon_general, a different algorithm: KKT clipping) subject to
mean(Q) ≥ μ*; the mpmath version at 50 digits; the orderings d_{ε,inf} ≤ KL_inf and d_{ε,inf} ≤ ε·τ_max
(hypothesis). Mutants: moving mass from the highest atoms instead of the lowest; the bound 001-eq9 summing over
optimal arms too.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy.optimize import minimize

from boundcalc import info
from boundcalc.bounds import registry
from boundcalc.info import d_eps_inf as D
from boundcalc.privacy import PureDP


def direct(support, weights, ms, eps, extra=()):
    """min over Q on support ∪ {1} ∪ extra with mean(Q) ≥ μ* of d_ε(P, Q) (info.d_epsilon_general), SLSQP from
    several starts; Q parametrised by softmax (Q > 0)."""
    pts = np.unique(np.concatenate([np.asarray(support, float), [1.0], np.asarray(extra, float)]))
    p = np.zeros(pts.size)
    for x, w in zip(support, weights):
        p[np.searchsorted(pts, x)] += w

    def q_of(z):
        e = np.exp(z - z.max())
        return e / e.sum()

    def obj(z):
        return float(info.d_epsilon_general(pts, p, q_of(z), eps))

    cons = [{"type": "ineq", "fun": lambda z: float(q_of(z) @ pts) - ms}]
    best = math.inf
    rng = np.random.default_rng(0)
    for k in range(3):
        z0 = rng.normal(size=pts.size)
        z0[-1] += 3.0  # start with a mean above μ*
        r = minimize(obj, z0, constraints=cons, method="SLSQP", options={"maxiter": 500, "ftol": 1e-13})
        if float(q_of(r.x) @ pts) >= ms - 1e-9:
            best = min(best, r.fun)
    return best


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.floats(0.0, 1.0), st.floats(0.0, 1.0), st.floats(1e-3, 20.0))
def test_bernoulli_equals_closed_form(x, ms, eps):
    v = D.d_eps_inf_finite([0.0, 1.0], [1 - x, x], ms, eps)
    want = float(info.d_epsilon(x, ms, eps)) if x < ms else 0.0
    assert v == pytest.approx(want, rel=1e-8, abs=1e-12)


CASES = [([0.0, 0.5, 0.8], [0.3, 0.4, 0.3], 0.7, 0.5), ([0.1, 0.4, 0.6], [0.2, 0.5, 0.3], 0.55, 2.0),
         ([0.0, 0.3], [0.5, 0.5], 0.6, 0.2)]


@pytest.mark.parametrize("support,weights,ms,eps", CASES)
def test_matches_direct_optimisation_over_Q(support, weights, ms, eps):
    v = D.d_eps_inf_finite(support, weights, ms, eps)
    d = direct(support, weights, ms, eps, extra=[0.25, 0.95])
    assert v == pytest.approx(d, rel=2e-5, abs=1e-8)


def test_rejects_moving_mass_from_the_top():
    # mutant: R_τ takes mass from the HIGHEST atoms (a plausible slip in _shift); its value misses the optimum
    orig = D._shift

    def shift_top(x, w, tau):
        return orig(x[::-1], w[::-1], tau)
    support, weights, ms, eps = CASES[0]
    d = direct(support, weights, ms, eps)
    try:
        D._shift = shift_top
        bad = D.d_eps_inf_finite(support, weights, ms, eps)
    finally:
        D._shift = orig
    assert abs(bad - d) > 1e-4 * d
    assert D.d_eps_inf_finite(support, weights, ms, eps) == pytest.approx(d, rel=2e-5)


def test_float_against_50_digit_mpmath():
    with mpmath.workdps(50):
        ref = D.d_eps_inf_finite_mp(["0", "0.5", "0.8"], ["0.3", "0.4", "0.3"], "0.7", "0.5")
    assert D.d_eps_inf_finite([0, 0.5, 0.8], [0.3, 0.4, 0.3], 0.7, 0.5) == pytest.approx(float(ref), rel=1e-10)


@settings(max_examples=30, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.floats(0, 1), st.floats(0.01, 1)), min_size=1, max_size=4), st.floats(0.01, 0.999),
       st.floats(1e-2, 10.0))
def test_orderings(atoms, ms, eps):
    xs = [a for a, _ in atoms]
    ws = np.array([b for _, b in atoms])
    ws = ws / ws.sum()
    v, tau = D.d_eps_inf_finite(xs, ws, ms, eps, return_tau=True)
    klinf = float(info.kl_inf_finite(xs, ws, ms))
    x_, w_ = D._sorted(np.asarray(xs, float), ws)
    tmax = D._tau_max(x_, w_, ms)
    assert 0 <= v <= klinf * (1 + 1e-9) + 1e-12          # τ = 0 (d_ε ≤ kl: seed 001 after Eq. 6)
    assert v <= eps * tmax * (1 + 1e-9) + 1e-12           # τ = τ_max (d_ε ≤ ε·TV)
    assert 0 <= tau <= tmax + 1e-12
    # monotone in ε (each term ε τ is)
    assert D.d_eps_inf_finite(xs, ws, ms, eps * 2) >= v * (1 - 1e-9) - 1e-12


# -- the bound 001-eq9 -----------------------------------------------------------------------------------------------
def test_eq9_equals_thm31_for_bernoulli_arms():
    ctx = registry.make_context("finite")
    for e in (0.05, 0.5, 5.0):
        a = registry.get("001-eq9").evaluate([1e3, 1e6], ctx, PureDP(e))
        b = registry.get("001-thm3.1").evaluate([1e3, 1e6], ctx, PureDP(e))
        assert a.value == pytest.approx(b.value, rel=1e-8)
        assert a.nonprivate == pytest.approx(b.nonprivate, rel=1e-10)


def test_eq9_with_finite_support_arms_recomputed_here():
    arms = [([0, 0.5, 1], [0.1, 0.3, 0.6]), ([0, 0.5, 1], [0.3, 0.4, 0.3]), ([0.2, 0.9], [0.5, 0.5])]
    ctx = registry.make_context("finite")
    ctx.params["arms"] = arms
    eps, T = 0.5, 1e4
    means = [float(np.dot(s, w)) for s, w in arms]
    ms = max(means)
    # independent: the direct optimisation over Q per arm
    want = sum((ms - m) / direct(s, w, ms, eps) for (s, w), m in zip(arms, means) if m < ms) * math.log(T)
    got = float(registry.get("001-eq9").evaluate([T], ctx, PureDP(eps)).value[0])
    assert got == pytest.approx(want, rel=1e-4)
    # mutant: summing over the optimal arm too (gap 0 / d = 0/0) is not a number; the bound's per-arm sum skips it
    with np.errstate(all="ignore"):
        bad = sum(np.float64(ms - m) / np.float64(D.d_eps_inf_finite(s, w, ms, eps)) for (s, w), m in zip(arms, means))
    assert not np.isfinite(bad)


# -- through `boundcalc kl-inf --epsilon` ------------------------------------------------------------------------------
def test_kl_inf_command_epsilon():
    import json

    from typer.testing import CliRunner

    from boundcalc.cli.app import app

    r = CliRunner().invoke(app, ["kl-inf", "--mu-star", "0.7", "--support", "0,0.5,0.8", "--weights", "0.3,0.4,0.3",
                                 "--epsilon", "0.5", "--json"])
    assert r.exit_code == 0, r.output
    got = json.loads(r.stdout)["d_eps_inf"]
    assert got == pytest.approx(direct([0, 0.5, 0.8], [0.3, 0.4, 0.3], 0.7, 0.5), rel=2e-5)
    r = CliRunner().invoke(app, ["kl-inf", "--mu-star", "0.7", "--mu", "0.3", "--epsilon", "0.1", "--json"])
    assert json.loads(r.stdout)["d_eps_inf"] == pytest.approx(float(info.d_epsilon(0.3, 0.7, 0.1)), rel=1e-12)
    r = CliRunner().invoke(app, ["kl-inf", "--mu-star", "0.7", "--support", "0,1", "--weights", "0.5,0.5",
                                 "--epsilon", "0.5", "--digits", "51"])
    assert r.exit_code == 2
