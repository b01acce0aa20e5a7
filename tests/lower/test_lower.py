"""boundcalc.lower (seed 003 Thm 1, 6, 7, 8, 15, 16 and the Bretagnolle–Huber lower bound) and `boundcalc lower`.

Independent computations: the exact KL between the action laws of a small ρ-zCDP explore-then-commit policy
(Gaussian mechanism, enumerated exactly) against Thm 8; the transport LP against Thm 7's product coupling and
Jensen's lower bound; Gaussian TV by quadrature; Rényi divergences of Gaussians by quadrature (Thm 16); the exact
regrets of the same policy against the implied lower bound. Each test keeps a mutant it rejects.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import integrate, stats

from clirun import app, runner
from boundcalc.envs.spec import Instance
from boundcalc.lower import kl_decomposition as kd


# -- an explicit ρ-Interactive zCDP policy, enumerated exactly --------------------------------------------------------
def etc_policy(p, m, T, rho, sigma=None):
    """Explore arm 2 for m rounds, then commit to arm 2 iff S + N(0, σ²) > m/2 (S = sum of the m rewards of arm 2,
    Bernoulli(p)); σ² = 1/(2ρ) (Gaussian mechanism, sensitivity 1: ρ-zCDP, and rewards enter once). Returns
    (P(commit to arm 2), E s, Var s, t-free law) where s = Σ_t 1{a_t = 2} (times t_2 later)."""
    sigma = math.sqrt(1 / (2 * rho)) if sigma is None else sigma
    k = np.arange(m + 1)
    pmf = stats.binom.pmf(k, m, p)
    q = float(np.sum(pmf * stats.norm.sf((m / 2 - k) / sigma)))
    return q


def exact_kl_actions(p, p2, m, T, rho, sigma=None):
    """KL between the action-sequence laws: the first m actions are fixed, so it is kl(q, q') of the commit coin."""
    q, q2 = etc_policy(p, m, T, rho, sigma), etc_policy(p2, m, T, rho, sigma)
    return float(q * math.log(q / q2) + (1 - q) * math.log((1 - q) / (1 - q2)))


def thm8_for_etc(p, p2, m, T, rho):
    q = etc_policy(p, m, T, rho)
    t = abs(p - p2)
    # N_2 = m + (T − m)·B, B ~ Bernoulli(q): E N_2, Var N_2 exactly
    en = m + (T - m) * q
    var_s = t**2 * (T - m) ** 2 * q * (1 - q)
    return kd.thm8_kl_bound([0.0, t], T, rho, pulls=[T - en, en], variance=var_s)["bound"]


@pytest.mark.parametrize("p,p2,m,T,rho", [(0.3, 0.7, 5, 20, 0.05), (0.5, 0.6, 10, 50, 0.5), (0.2, 0.9, 3, 10, 2.0),
                                          (0.4, 0.45, 20, 40, 0.01)])
def test_thm8_bounds_exact_kl_of_a_private_policy(p, p2, m, T, rho):
    exact = exact_kl_actions(p, p2, m, T, rho)
    bound = thm8_for_etc(p, p2, m, T, rho)
    assert exact <= bound * (1 + 1e-12), (exact, bound)
    # worst case over policies is larger still, and the Bhatia–Davis variance form too
    assert bound <= kd.thm8_kl_bound([0.0, abs(p - p2)], T, rho)["bound"] * (1 + 1e-12)


def test_thm8_rejects_a_non_private_policy_and_a_dropped_term():
    # mutant 1: the same policy without its noise (σ → 0) is not ρ-zCDP; its exact KL exceeds the Thm 8 bound
    p, p2, m, T, rho = 0.3, 0.7, 5, 20, 0.002
    assert exact_kl_actions(p, p2, m, T, rho, sigma=1e-3) > thm8_for_etc(p, p2, m, T, rho)
    # and the private policy stays within the bound over a grid (ρ up to 8: the Gaussian noise is then small)
    grid = [(a, b, m, T, r) for a in (0.1, 0.5) for b in (0.6, 0.95) for m in (1, 3) for T in (10, 40)
            for r in (0.5, 2.0, 8.0)]
    assert all(exact_kl_actions(*g) <= thm8_for_etc(*g) * (1 + 1e-12) for g in grid)


def test_implied_lower_bound_holds_for_the_exact_regrets():
    # ν: arm means (0.5, p), ν': (0.5, p2), arm 1 a constant 0.5 (Bernoulli(0.5) reward, TV 0 between ν, ν')
    p, p2, m, T, rho = 0.4, 0.6, 3, 30, 0.02
    q, q2 = etc_policy(p, m, T, rho), etc_policy(p2, m, T, rho)
    reg = m * 0.1 + (T - m) * q * 0.1            # ν: arm 2 is 0.1 worse
    reg2 = (T - m) * (1 - q2) * 0.1              # ν': arm 1 is 0.1 worse
    a, b = Instance("finite", means=(0.5, p)), Instance("finite", means=(0.5, p2))
    rep = kd.lower_bound_report(a, b, rho, T)
    assert reg + reg2 >= rep["best_sum_lower"] > 0
    # with the exact KL the Bretagnolle–Huber bound also holds
    lb = kd.implied_lower_bound([0.5, p], [0.5, p2], T, exact_kl_actions(p, p2, m, T, rho))
    assert reg + reg2 >= lb["sum_lower"]
    # mutant: a bound without the exp(−KL) factor (T·c/4) exceeds these regrets
    assert reg + reg2 < T * lb["c"] / 4 * 10


# -- Thm 6 / 7 / 15: the transport problem ----------------------------------------------------------------------------
def _product(ps):
    """The product of Bernoulli(p_i) over {0,1}^n: (datasets, probabilities)."""
    import itertools

    ds = list(itertools.product((0, 1), repeat=len(ps)))
    pr = [math.prod(p if x else 1 - p for p, x in zip(ps, d)) for d in ds]
    return ds, pr


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.floats(0.0, 1.0), st.floats(0.0, 1.0)), min_size=1, max_size=3),
       st.floats(0.01, 5.0))
def test_thm6_lp_between_jensen_and_thm7(pairs, rho):
    p1, p2 = [a for a, _ in pairs], [b for _, b in pairs]
    t = np.abs(np.array(p1) - np.array(p2))
    d1, w1 = _product(p1)
    d2, w2 = _product(p2)
    lp = kd.thm6_kl_bound(d1, w1, d2, w2, rho)
    assert lp <= kd.product_kl_bound(t, rho) * (1 + 1e-7) + 1e-9        # Thm 7's coupling is one coupling
    assert lp >= rho * t.sum() ** 2 * (1 - 1e-7) - 1e-9                   # E d² ≥ (E d)² ≥ (Σ t_i)²
    if len(pairs) == 1:
        assert lp == pytest.approx(rho * t[0], abs=1e-9)                  # one coordinate: inf P(X ≠ Y) = TV


def test_thm7_rejects_dropping_its_second_term():
    d1, w1 = _product([0.2, 0.3])
    d2, w2 = _product([0.7, 0.6])
    lp = kd.thm6_kl_bound(d1, w1, d2, w2, 1.0)
    t = np.array([0.5, 0.3])
    assert lp > t.sum() ** 2  # mutant ρ(Σt)² alone is below the transport cost
    assert lp <= kd.product_kl_bound(t, 1.0) + 1e-9


def test_thm15_with_kl_of_randomised_response():
    # M_d = randomised response on one bit with flip prob f: D_f = KL between two Bernoullis; the coupling bound
    # must dominate the exact KL between the mixtures (data processing), and equal it at point masses
    f = 0.2
    def kl(a, b):
        return a * math.log(a / b) + (1 - a) * math.log((1 - a) / (1 - b))
    out = {0: f, 1: 1 - f}
    for p, q in ((0.3, 0.8), (0.0, 1.0), (0.5, 0.5)):
        m1, m2 = p * out[1] + (1 - p) * out[0], q * out[1] + (1 - q) * out[0]
        div = [[kl(out[x], out[y]) for y in (0, 1)] for x in (0, 1)]
        b = kd.thm15_f_divergence_bound([1 - p, p], [1 - q, q], div)
        assert kl(m1, m2) <= b + 1e-12
        if p in (0.0, 1.0) and q in (0.0, 1.0):
            assert b == pytest.approx(kl(m1, m2), abs=1e-12)


# -- Thm 1 / Thm 16: group privacy of the Gaussian mechanism (equality case) ----------------------------------------
@pytest.mark.parametrize("k,alpha,rho", [(1, 2.0, 0.5), (2, 3.0, 0.1), (3, 1.5, 1.0)])
def test_thm16_is_tight_for_the_gaussian_mechanism(k, alpha, rho):
    sigma = math.sqrt(1 / (2 * rho))  # sensitivity 1 → ρ-zCDP; datasets at Hamming distance k shift the mean by k
    def f(x):
        return math.exp(alpha * stats.norm.logpdf(x, k, sigma) + (1 - alpha) * stats.norm.logpdf(x, 0, sigma))
    renyi = math.log(integrate.quad(f, -40, 40, points=[0, k], limit=400)[0]) / (alpha - 1)
    assert renyi == pytest.approx(float(kd.group_privacy_renyi(rho, k, alpha)), rel=1e-6)
    assert float(kd.group_privacy_kl(rho, k)) == pytest.approx(k**2 / (2 * sigma**2), rel=1e-12)
    if k > 1:  # mutant: ρ·d_Ham·α (not squared) is below the Gaussian mechanism's divergence
        assert renyi > rho * k * alpha


# -- per-arm TV ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("m1,m2,s", [(0.0, 1.0, 1.0), (0.2, 0.25, 0.1), (1.0, -2.0, 3.0)])
def test_gaussian_tv_by_quadrature(m1, m2, s):
    tv = integrate.quad(lambda x: 0.5 * abs(stats.norm.pdf(x, m1, s) - stats.norm.pdf(x, m2, s)), -60, 60,
                        points=[(m1 + m2) / 2], limit=400)[0]
    assert float(kd.arm_tv("gaussian", m1, m2, s)) == pytest.approx(tv, rel=1e-7, abs=1e-12)
    assert float(kd.arm_kl("gaussian", m1, m2, s)) == pytest.approx(
        integrate.quad(lambda x: stats.norm.pdf(x, m1, s) * (stats.norm.logpdf(x, m1, s) - stats.norm.logpdf(x, m2, s)),
                       -60, 60, limit=400)[0], rel=1e-6, abs=1e-10)


def test_rademacher_tv_is_half_l1():
    for m1, m2 in ((0.2, -0.4), (1.0, -1.0), (0.0, 0.3)):
        p, q = np.array([(1 - m1) / 2, (1 + m1) / 2]), np.array([(1 - m2) / 2, (1 + m2) / 2])
        assert float(kd.arm_tv("rademacher", m1, m2)) == pytest.approx(0.5 * np.abs(p - q).sum())


def test_linear_instances_use_the_action_means():
    A = ((1.0, 0.0), (0.0, 1.0), (0.6, 0.8))
    a = Instance("linear", actions=A, theta=(0.5, 0.2), noise="gaussian", sigma=1.0)
    b = Instance("linear", actions=A, theta=(0.2, 0.5), noise="gaussian", sigma=1.0)
    rep = kd.lower_bound_report(a, b, 0.1, 100)
    m1, m2 = np.array(A) @ [0.5, 0.2], np.array(A) @ [0.2, 0.5]
    assert rep["tv_per_arm"] == pytest.approx([math.erf(abs(x - y) / (2 * math.sqrt(2))) for x, y in zip(m1, m2)])
    assert rep["lower_bound"]["c"] == pytest.approx(min(np.sort(m1.max() - m1)[1], m2.max() - m2[np.argmax(m1)]))


# -- CLI --------------------------------------------------------------------------------------------------------------
def test_cli_json_matches_library(tmp_path):
    r = runner.invoke(app, ["lower", "--rho", "0.05", "--means", "0.5,0.4", "--alt-means", "0.5,0.6", "--T", "200",
                            "--pulls", "150,50", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    rep = kd.lower_bound_report(Instance("finite", means=(0.5, 0.4)), Instance("finite", means=(0.5, 0.6)),
                                0.05, 200, pulls=[150, 50])
    assert out["kl_bound_private"] == pytest.approx(0.05 * ((50 * 0.2) ** 2 + 50 * 0.2 * 0.8 + (10 - 0) * (40 - 10)))
    assert out["kl_bound_private"] == pytest.approx(rep["kl_bound_private"])
    assert out["best_sum_lower"] == pytest.approx(rep["best_sum_lower"])
    p = tmp_path / "a.toml"
    p.write_text('schema = "boundcalc.instance/1"\nsetting = "linear"\nactions = [[1.0, 0.0], [0.0, 1.0]]\n'
                 'theta = [0.5, 0.2]\n')
    q = tmp_path / "b.toml"
    q.write_text('schema = "boundcalc.instance/1"\nsetting = "linear"\nactions = [[1.0, 0.0], [0.0, 1.0]]\n'
                 'theta = [0.2, 0.5]\n')
    r = runner.invoke(app, ["lower", "--setting", "linear", "--instance", str(p), "--alt", str(q), "--rho", "0.1",
                            "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["family"] == "rademacher"


@pytest.mark.parametrize("argv", [["--rho", "0"], ["--rho", "1", "--means", "0.5,0.4"],
                                  ["--rho", "1", "--means", "0.5,0.4", "--alt-means", "0.5,0.6,0.7"],
                                  ["--rho", "1", "--means", "0.5,0.4", "--alt-means", "0.5,0.6", "--pulls", "1,2"],
                                  ["--rho", "1", "--means", "0.5,0.4", "--alt-means", "0.5,0.6", "--variance", "1"],
                                  ["--rho", "1", "--setting", "glm", "--means", "0.5,0.4", "--alt-means", "0.5,0.6"]])
def test_cli_bad_input_is_one_line(argv):
    r = runner.invoke(app, ["lower", *argv])
    assert r.exit_code == 2, r.output


def test_extreme_inputs_give_infinities_not_warnings():
    import warnings

    a = Instance("finite", means=(1e308, -1e308), family="gaussian", sigma=1.0)
    b = Instance("finite", means=(-1e308, 1e308), family="gaussian", sigma=1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rep = kd.lower_bound_report(a, b, 1e308, 1e18)
        rep2 = kd.lower_bound_report(a, b, 1e308, 1e18, pulls=[1e18, 0.0])
    assert rep["kl_bound_used"] == math.inf and rep["best_sum_lower"] == 0.0  # KL = ∞: no information
    assert rep2["best_sum_lower"] == 0.0
    # mutant: T·c/4·exp(−KL) with c = ∞ and KL = ∞ is nan (the guard is what keeps the output a number)
    with np.errstate(all="ignore"):
        assert math.isnan(1e18 * math.inf / 4 * math.exp(-math.inf))
