"""Mechanism noise scales: Rényi divergences by numerical integration, exact Gaussian curve by quadrature,
mpmath and Monte Carlo, tree mechanism by brute-force enumeration and Monte Carlo."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate, stats

from boundcalc.errors import InputError
from boundcalc.privacy import mechanisms as m


def renyi_gauss_numeric(alpha, shift, sigma):
    """D_α(N(shift, σ²) ‖ N(0, σ²)) by quadrature of p^α q^{1−α} (log-space integrand)."""
    def f(x):
        lp = stats.norm.logpdf(x, shift, sigma)
        lq = stats.norm.logpdf(x, 0.0, sigma)
        return math.exp(alpha * lp + (1 - alpha) * lq)

    lo, hi = -40 * sigma - abs(shift) * alpha, 40 * sigma + abs(shift) * alpha
    val, _ = integrate.quad(f, lo, hi, points=[0.0, shift, alpha * shift], limit=400, epsabs=0, epsrel=1e-12)
    return math.log(val) / (alpha - 1)


def renyi_laplace_numeric(alpha, shift, b):
    def f(x):
        lp = stats.laplace.logpdf(x, shift, b)
        lq = stats.laplace.logpdf(x, 0.0, b)
        return math.exp(alpha * lp + (1 - alpha) * lq)

    val = sum(integrate.quad(f, a, c, limit=200, epsrel=1e-12)[0]
              for a, c in [(-80 * b, min(0, shift)), (min(0, shift), max(0, shift)), (max(0, shift), shift + 80 * b)])
    return math.log(val) / (alpha - 1)


@pytest.mark.parametrize("sens,rho", [(1.0, 0.1), (0.25, 1.0), (2.0, 0.01)])
@pytest.mark.parametrize("alpha", [1.5, 2.0, 5.0, 20.0])
def test_gaussian_zcdp_scale_gives_alpha_rho(sens, rho, alpha):
    sigma = m.gaussian_sigma_zcdp(sens, rho)
    assert renyi_gauss_numeric(alpha, sens, sigma) == pytest.approx(alpha * rho, rel=1e-7)


@pytest.mark.parametrize("sens,alpha,eps", [(0.1, 2, 1), (1 / 3, 5, 0.5), (1, 1.5, 2), (0.01, 10, 0.1)])
def test_gaussian_rdp_scale_gives_eps(sens, alpha, eps):  # docs/formulas/rdp-bandits.md check 1 (its parameter sets)
    sigma = m.gaussian_sigma_rdp(sens, alpha, eps)
    assert renyi_gauss_numeric(alpha, sens, sigma) == pytest.approx(eps, rel=1e-7)
    # zCDP reading (docs/formulas/rdp-bandits.md check 2): D_{α'} = α' ε/α at the same calibration
    for a2 in (1.5, 3.0, 7.0):
        assert renyi_gauss_numeric(a2, sens, sigma) == pytest.approx(a2 * eps / alpha, rel=1e-7)
        assert m.gaussian_rdp(a2, sens, sigma) == pytest.approx(a2 * eps / alpha, rel=1e-12)


@pytest.mark.parametrize("alpha,b", [(2, 1), (5, 0.5), (1.5, 3)])  # docs/formulas/rdp-bandits.md §1.5 triples
def test_laplace_rdp_curve_by_quadrature(alpha, b):
    assert m.laplace_rdp(alpha, b) == pytest.approx(renyi_laplace_numeric(alpha, 1.0, b), rel=1e-8)


def test_laplace_privacy_loss_monte_carlo():
    rng = np.random.default_rng(1)
    sens, eps = 0.7, 0.9
    b = m.laplace_scale(sens, eps)
    x = rng.laplace(0.0, b, 200_000)
    loss = (np.abs(x - sens) - np.abs(x)) / b  # ln p0(x)/p1(x), p1 shifted by sens
    assert loss.max() <= eps + 1e-12
    assert loss.max() >= eps * (1 - 1e-3)  # attained (x ≤ 0 has probability 1/2)
    assert np.var(x) == pytest.approx(2 * b * b, rel=0.02)


def hockey_stick_numeric(eps, sens, sigma):
    def f(x):
        return max(0.0, stats.norm.pdf(x, sens, sigma) - math.exp(eps) * stats.norm.pdf(x, 0.0, sigma))

    # P - e^eps Q > 0 iff x > sens/2 + eps sigma^2/sens
    x0 = sens / 2 + eps * sigma * sigma / sens
    return integrate.quad(f, x0, x0 + 60 * sigma, limit=400, epsabs=1e-16, epsrel=1e-11)[0]


@pytest.mark.parametrize("eps,sens,sigma", [(0.5, 1, 1), (1, 1, 3.7), (3, 2, 1.5), (0.0, 1, 2)])
def test_gaussian_delta_matches_quadrature_and_mpmath(eps, sens, sigma):
    d = m.gaussian_delta(eps, sens, sigma)
    assert d == pytest.approx(hockey_stick_numeric(eps, sens, sigma), rel=1e-7, abs=1e-15)
    assert d == pytest.approx(float(m.gaussian_delta_mp(eps, sens / sigma, 50)), rel=1e-9, abs=1e-300)


def test_gaussian_delta_monte_carlo_privacy_loss():
    rng = np.random.default_rng(7)
    sens, sigma, eps = 1.0, 1.2, 0.8
    x = rng.normal(sens, sigma, 400_000)  # samples from P
    L = (sens / sigma**2) * (x - sens / 2)  # ln p(x)/q(x)
    mc = np.mean(np.maximum(0.0, 1 - np.exp(eps - L)))  # δ(ε) = E_P[(1 − e^{ε−L})_+]
    se = np.std(np.maximum(0.0, 1 - np.exp(eps - L))) / math.sqrt(x.size)
    assert abs(mc - m.gaussian_delta(eps, sens, sigma)) < 5 * se


@pytest.mark.parametrize("eps", [0.1, 0.5, 0.9])
@pytest.mark.parametrize("delta", [1e-2, 1e-5, 1e-9])
def test_classic_and_analytic_gaussian(eps, delta):
    sc = m.gaussian_sigma_classic(2.0, eps, delta)
    assert sc == pytest.approx(2.0 * math.sqrt(2 * math.log(1.25 / delta)) / eps)
    assert hockey_stick_numeric(eps, 2.0, sc) <= delta  # Dwork–Roth Thm A.1 holds for ε < 1
    sa = m.gaussian_sigma_analytic(2.0, eps, delta)
    assert sa <= sc
    assert hockey_stick_numeric(eps, 2.0, sa) == pytest.approx(delta, rel=1e-5)


def test_classic_gaussian_limits_from_ldp_sheet():
    # docs/formulas/ldp-glm-bandits.md §1.2: the classical σ meets δ up to ε ≈ 5.74 (δ=0.1), 6.77 (1e-2), 8.42 (1e-5)
    for delta, e_max in [(0.1, 5.74), (1e-2, 6.77), (1e-5, 8.42)]:
        for e, ok in [(e_max - 0.02, True), (e_max + 0.02, False)]:
            s = m.gaussian_sigma_classic(1.0, e, delta)
            assert (m.gaussian_delta(e, 1.0, s) <= delta) == ok, (delta, e)
    with pytest.raises(InputError):
        m.gaussian_sigma_classic(1.0, 1.5, 1e-5, strict=True)


def test_ldp_ols_xi_under_noised_errata_8():
    # ERRATA 8: "u alone: δ(ε/2) = 0.0106 > 0.005 at (1, 0.01)" (C_B = c_r = 1; true sensitivity 2 c_r C_B)
    _, std_xi = m.ldp_ols_noise_stds(1.0, 0.01)
    assert m.gaussian_delta(0.5, 2.0, std_xi) == pytest.approx(0.0106, abs=1e-4)
    # safe calibration (ldp sheet §1.4) meets its (ε/2, δ/2) share for both parts
    sw, sx = m.ldp_ols_noise_stds(1.0, 0.01, C_B=1.0, c_r=1.0, safe=True)
    assert m.gaussian_delta(0.5, 2.0, sx) <= 0.005
    assert m.gaussian_delta(0.5, math.sqrt(2.0), sw) <= 0.005


def test_seed_calibrations_match_renyi_divergence():
    # AdaC-UCB: sensitivity 1/n; AdaC-OFUL: sensitivity 2; AdaR-GOPE/OFUL: sensitivity 2 (zcdp sheet §1.5)
    n, rho = 7, 0.3
    s = math.sqrt(m.adac_ucb_noise_var(n, rho))
    assert renyi_gauss_numeric(3.0, 1 / n, s) == pytest.approx(3.0 * rho, rel=1e-7)
    assert m.adac_ucb_bonus_privacy_term(n, rho) == pytest.approx(1 / (rho * n * n))
    s = math.sqrt(m.adac_oful_noise_var(rho))
    assert renyi_gauss_numeric(2.0, 2.0, s) == pytest.approx(2.0 * rho, rel=1e-7)
    assert m.adac_oful_noise_var(rho, 5) == pytest.approx(5 * 2 / rho)
    a, e = 4.0, 0.8
    assert renyi_gauss_numeric(a, 2.0, math.sqrt(m.adar_gope_noise_var(a, e))) == pytest.approx(e, rel=1e-7)
    assert m.adar_oful_noise_var(a, e, 3) == pytest.approx(3 * 2 * a / e)
    assert renyi_gauss_numeric(a, 1 / n, math.sqrt(m.adar_ucb_noise_var(n, a, e))) == pytest.approx(e, rel=1e-7)
    # AdaC-GOPE: 2d/(rho c_l) ≥ (2/rho) g² whenever g² ≤ d/c_l (Kiefer–Wolfowitz)
    d, c_l = 3, 250.0
    assert m.adac_gope_noise_var(d, rho, c_l) == pytest.approx(2 * d / (rho * c_l))


# ------------------------------------------------------------------------------------------------ tree


@pytest.mark.parametrize("T", list(range(1, 70)) + [127, 128, 129, 1000])
def test_tree_levels_bound_node_membership(T):
    nodes = m.tree_nodes(T)
    counts = np.zeros(T + 1, dtype=int)
    for s, e in nodes:
        counts[s : e + 1] += 1
    L = m.tree_levels(T)
    assert counts[1:].max() == L  # every element in ≤ L nodes, attained
    assert L == math.ceil(math.log2(T + 1))
    for t in range(1, T + 1):
        pn = m.tree_prefix_nodes(t)
        covered = sorted(i for s, e in pn for i in range(s, e + 1))
        assert covered == list(range(1, t + 1))
        assert set(pn) <= set(nodes) and len(pn) <= L


def test_tree_laplace_and_gaussian_budgets():
    T, sens, eps, rho = 100, 1.0, 0.5, 0.2
    b = m.tree_laplace_scale(sens, eps, T)
    sig = m.tree_gaussian_sigma(sens, rho, T)
    nodes = m.tree_nodes(T)
    worst_pure = max(sum(sens / b for s, e in nodes if s <= i <= e) for i in range(1, T + 1))
    worst_rho = max(sum(sens**2 / (2 * sig**2) for s, e in nodes if s <= i <= e) for i in range(1, T + 1))
    assert worst_pure == pytest.approx(eps) and worst_rho == pytest.approx(rho)


def test_tree_prefix_noise_monte_carlo():
    rng = np.random.default_rng(3)
    T, sig = 37, 1.5
    x = m.tree_prefix_noise(T, sig, rng, kind="gaussian", size=40_000)
    var = x.var(axis=0)
    want = np.array([m.tree_prefix_noise_std(t, sig) ** 2 for t in range(1, T + 1)])
    assert want == pytest.approx([bin(t).count("1") * sig * sig for t in range(1, T + 1)])
    # var estimate of a Gaussian: relative sd sqrt(2/n) ≈ 0.7 %; allow 5 sd
    assert np.all(np.abs(var / want - 1) < 5 * math.sqrt(2 / 40_000))
    # memoised nodes: prefix 2 and prefix 3 share the node [1, 2]: cov = sig^2
    assert np.cov(x[:, 1], x[:, 2])[0, 1] == pytest.approx(sig * sig, rel=0.05)
    y = m.tree_prefix_noise(T, 0.8, rng, kind="laplace", size=40_000)
    assert y[:, 6].var() == pytest.approx(3 * 2 * 0.8**2, rel=0.05)
    assert m.tree_max_prefix_noise_std(T, sig) == pytest.approx(max(math.sqrt(w) for w in want))


def test_dgs_node_scale_is_paper_form():
    # seed 004 Alg. 1: Lap(Δ·log2 T/ε); the standard tree uses ⌊log2 T⌋+1 levels (one more for T = 2^k)
    assert m.dgs_node_laplace_scale(2.0, 1.0, 1024) == pytest.approx(20.0)
    assert m.tree_laplace_scale(2.0, 1.0, 1024) == pytest.approx(22.0)


@pytest.mark.parametrize(
    "fn,args,name",
    [
        (m.gaussian_sigma_rdp, (1.0, 1.0, 0.5), "alpha"),
        (m.gaussian_sigma_classic, (1.0, 0.5, 0.0), "delta"),
        (m.gaussian_sigma_analytic, (1.0, 0.5, 1.0), "delta"),
        (m.tree_levels, (0,), "T"),
        (m.tree_gaussian_sigma, (1.0, -0.1, 10), "rho"),
        (m.ldp_sigma, (1.0, 2.0), "ldp-delta"),
    ],
)
def test_mechanism_bad_input(fn, args, name):
    with pytest.raises(InputError) as exc:
        fn(*args)
    assert name in str(exc.value)
