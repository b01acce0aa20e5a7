"""Claims that make seed 002's Assumptions 1-3 and the sum step of (C.4) run (coverage table, issue 16).

Each claim is checked against an independent computation (closed forms, mpmath, a plain loop, a Monte Carlo with a
fresh generator), and each test keeps a deliberately broken copy (a mutant) that its check must reject.
"""

from __future__ import annotations

import inspect
import math

import mpmath
import numpy as np
import pytest

from boundcalc.bounds import glm as glm_bounds
from boundcalc.envs.glm import GLMEnv
from boundcalc.verify import claims
from boundcalc.verify.claims import glm_assumptions as ga


# -- Assumption 1 -----------------------------------------------------------------------------------------------
def test_assumption1_zeta_matches_mpmath_and_the_claim_passes():
    for C_B in (0.1, 1.0, 3.0, 10.0):
        env = GLMEnv([1.0, 0.0], 2, link="logistic")
        env.C_B = C_B
        with mpmath.workdps(30):  # inf of μ′ on [−C_B, C_B] is at the end point (μ′ is even, decreasing on z ≥ 0)
            want = float(mpmath.diff(lambda z: 1 / (1 + mpmath.exp(-z)), C_B))
            lip = float(mpmath.diff(lambda z: 1 / (1 + mpmath.exp(-z)), 0))
        assert math.isclose(env.zeta, want, rel_tol=1e-12)
        assert math.isclose(lip, ga.LINK_LIPSCHITZ["logistic"], rel_tol=1e-12)
    v = claims.evaluate("002-assumption1-link")
    assert v.verdict == "no counterexample" == v.expected


def test_assumption1_mutant_zeta_at_zero_is_rejected(monkeypatch):
    # mutant: ζ read at z = 0 (the supremum of μ′, not its infimum over [−C_B, C_B])
    monkeypatch.setattr(GLMEnv, "zeta", property(lambda self: 1.0 if self.link == "linear" else 0.25))
    v = claims.evaluate("002-assumption1-link")
    assert v.verdict == "statement violated" and v.counterexample["link"] == "logistic"


def test_assumption1_mutant_lipschitz_constant_is_rejected(monkeypatch):
    monkeypatch.setitem(ga.LINK_LIPSCHITZ, "logistic", 0.2)  # mutant: a Lipschitz constant below sup μ′ = 1/4
    assert claims.evaluate("002-assumption1-link").verdict == "statement violated"


# -- Assumption 2 -----------------------------------------------------------------------------------------------
def _mutant_log_mgf(d, lam, nodes=200):
    """Broken copy: density exponent (d − 1)/2 instead of (d − 3)/2."""
    from scipy.special import roots_jacobi

    s, w = roots_jacobi(nodes, (d - 1) / 2, (d - 1) / 2)
    w = w / w.sum()
    return float(np.sum(w * s**2)), np.log(np.sum(w * np.exp(np.asarray(lam)[..., None] * s), axis=-1))


def _closed_forms_agree(fn) -> bool:
    lam = np.array([0.5, 2.0, 7.0])
    var2, lm2 = fn(2, lam)  # d = 2: vᵀx = cos φ, E e^{λ cos φ} = I_0(λ), Var = 1/2
    var3, lm3 = fn(3, lam)  # d = 3: vᵀx ~ U[−1, 1] (Archimedes), E e^{λ s} = sinh(λ)/λ, Var = 1/3
    i0 = np.array([float(mpmath.log(mpmath.besseli(0, x))) for x in lam])
    sh = np.array([float(mpmath.log(mpmath.sinh(x) / x)) for x in lam])
    return (np.allclose(lm2, i0, rtol=1e-10, atol=1e-12) and np.allclose(lm3, sh, rtol=1e-10, atol=1e-12)
            and math.isclose(var2, 0.5, rel_tol=1e-12) and math.isclose(var3, 1 / 3, rel_tol=1e-12))


def test_assumption2_quadrature_against_closed_forms_and_a_sample():
    assert _closed_forms_agree(ga.sphere_marginal_log_mgf)
    assert not _closed_forms_agree(_mutant_log_mgf)  # the broken density is caught
    rng = np.random.default_rng(11)
    x = GLMEnv(np.ones(5) / math.sqrt(5), 3).contexts(rng, (40_000,)).reshape(-1, 5)
    lam_max = float(np.linalg.eigvalsh(np.cov(x.T))[-1])
    var, _ = ga.sphere_marginal_log_mgf(5, np.array([1.0]))
    assert abs(lam_max - var) < 0.01  # 120000 draws: the sample covariance of GLMEnv's contexts is I/d


def test_assumption2_claim_and_its_mutant(monkeypatch):
    v = claims.evaluate("002-assumption2-kappa-u")
    assert v.verdict == "no counterexample" == v.expected
    monkeypatch.setitem(glm_bounds.DEFAULT_INSTANCE, "kappa_u", 0.9)  # mutant: κ_u below the variance d·(1/d) = 1
    bad = claims.evaluate("002-assumption2-kappa-u")
    assert bad.verdict == "statement violated" and bad.counterexample["d"] == 2


# -- Assumption 3 -----------------------------------------------------------------------------------------------
def test_assumption3_exact_probability_against_closed_form_and_monte_carlo():
    K, c = 10, 0.085 / 2
    a = math.asin(math.sqrt(c))  # v ⟂ u: (x_a*ᵀv)² = sin²φ > c ⇔ |φ| ∈ (a, π − a); |φ| = min of K U[0, π]
    closed = (1 - a / math.pi) ** K - (a / math.pi) ** K
    assert abs(ga.greedy_direction_probability(K, c, [math.pi / 2])[0] - closed) < 1e-12
    # Monte Carlo with a fresh generator, v at 60° from u
    rng = np.random.default_rng(7)
    ang = rng.uniform(-math.pi, math.pi, (200_000, K))
    best = ang[np.arange(ang.shape[0]), np.argmax(np.cos(ang), axis=1)]
    mc = float(np.mean(np.cos(best - math.pi / 3) ** 2 > c))
    assert abs(ga.greedy_direction_probability(K, c, [math.pi / 3])[0] - mc) < 5 * math.sqrt(0.25 / 200_000)
    # mutant: |φ| the minimum of K − 1 draws (an off-by-one in the CDF's exponent); both checks reject it
    src = inspect.getsource(ga.greedy_direction_probability).replace("/ math.pi) ** K", "/ math.pi) ** (K - 1)")
    assert src != inspect.getsource(ga.greedy_direction_probability)
    ns = dict(vars(ga))
    exec(compile(src, "<mutant>", "exec"), ns)
    mutant = ns["greedy_direction_probability"]
    assert abs(mutant(K, c, [math.pi / 2])[0] - closed) > 1e-3
    assert abs(mutant(K, c, [math.pi / 3])[0] - mc) > 5 * math.sqrt(0.25 / 200_000)


def test_assumption3_claim_and_its_mutant(monkeypatch):
    v = claims.evaluate("002-assumption3-greedy")
    assert v.verdict == "no counterexample" == v.expected
    assert abs(v.evidence["min_probability"] - v.evidence["monte_carlo"]) < 5 * math.sqrt(0.25 / 100_000)
    monkeypatch.setitem(glm_bounds.DEFAULT_INSTANCE, "kappa_l", 0.09)  # mutant: κ_l above the ≈ 0.087 A3 allows
    assert claims.evaluate("002-assumption3-greedy").verdict == "statement violated"


# -- (C.4) ---------------------------------------------------------------------------------------------------------
def test_c4_sum_step_against_a_plain_loop_and_its_mutant(monkeypatch):
    for T in (4, 9, 10, 1000):
        s = sum(t**-0.5 for t in range(3, T + 1))
        assert math.isclose(ga.partial_sums(np.array([T]))[0], s, rel_tol=1e-12)
        assert (s > math.sqrt(T)) == (T >= 10)
    v = claims.evaluate("002-c4-sum-step")
    assert v.verdict == "typo" == v.expected and v.counterexample["first_failing_T"] == 10
    assert 1.9 < v.counterexample["sum_over_sqrt_T"] < 2
    # mutant: the sum with exponent −1 (Σ 1/t ≤ √T holds), so the check finds nothing and the test rejects it
    harmonic = np.concatenate([[0.0, 0.0, 0.0], np.cumsum(1 / np.arange(3, 1_000_001))])

    monkeypatch.setattr(ga._C4, "margin", lambda T: np.sqrt(np.asarray(T, float)) - harmonic[np.asarray(T, int)])
    monkeypatch.setattr(ga._C4, "margin_mp", None)
    assert claims.evaluate("002-c4-sum-step").verdict != "typo"


@pytest.mark.parametrize("cid", ["002-assumption1-link", "002-assumption2-kappa-u", "002-c4-sum-step"])
def test_stated_ranges_are_evaluated(cid):
    from test_claim_ranges import range_problems

    assert range_problems(claims.CLAIMS[cid]) == []
