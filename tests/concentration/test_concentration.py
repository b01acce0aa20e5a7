"""Tests of boundcalc.concentration against independent computations (sheet 001 §4, §9.8–9.11)."""

from __future__ import annotations

import itertools
import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import integrate, optimize, stats

from boundcalc.errors import InputError
from boundcalc import concentration as C
from boundcalc.concentration.mp import d_epsilon_mp, private_tail_c2_mp

REL = 1e-9  # slack for "bound >= exact" comparisons (rounding only)


# ---------------------------------------------------------------- Laplace sum tail (Lemma D.1, sheet 4.1)
@pytest.mark.parametrize("eps", [0.1, 1.0, 5.0])
@pytest.mark.parametrize("x", [-3.0, 0.0, 0.4, 2.0, 10.0])
def test_laplace_m1_closed_form(eps, x):
    expected = 0.5 * math.exp(-eps * x) if x >= 0 else 1 - 0.5 * math.exp(eps * x)
    assert C.laplace_sum_tail(x, 1, eps).value == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("x", [0.0, 0.5, 1.0, 5.0, 30.0, 200.0])
def test_laplace_m2_eps1_closed_form(x):
    expected_log = math.log(2 + x) - x - math.log(4)
    assert C.laplace_sum_tail(x, 2, 1.0).log == pytest.approx(expected_log, rel=1e-12, abs=1e-13)


def test_laplace_sheet_check_values():
    # sheet 001 §4.1: (m=2, eps=1, x=5): exact 0.0117914, Chernoff 0.11546, closed form 0.31117
    assert C.laplace_sum_tail(5, 2, 1).value == pytest.approx(0.0117914, rel=1e-5)
    assert C.laplace_sum_chernoff(5, 2, 1).value == pytest.approx(0.11546, rel=1e-4)
    assert C.laplace_sum_closed(5, 2, 1).value == pytest.approx(0.31117, rel=1e-4)


@pytest.mark.parametrize("m", [1, 3, 7, 20])
@pytest.mark.parametrize("eps", [0.3, 2.0])
@pytest.mark.parametrize("x", [-4.0, 0.7, 3.0, 15.0])
def test_laplace_finite_sum_matches_integration(m, eps, x):
    # independent: mpmath quadrature of the Gamma-difference integral P(G1 >= x + g) f_{G2}(g)
    with mpmath.workdps(30):
        e, xm = mpmath.mpf(eps), mpmath.mpf(x)
        sf = lambda t: mpmath.gammainc(m, e * t, mpmath.inf, regularized=True)  # noqa: E731
        pdf = lambda t: e**m * t ** (m - 1) * mpmath.exp(-e * t) / mpmath.factorial(m - 1)  # noqa: E731
        lo = max(mpmath.mpf(0), -xm)
        val = mpmath.quad(lambda t: sf(xm + t) * pdf(t), [lo, lo + 1, lo + 10, mpmath.inf])
        if x < 0:
            val += mpmath.gammainc(m, 0, e * lo, regularized=True)
    assert C.laplace_sum_tail(x, m, eps).value == pytest.approx(float(val), rel=1e-9, abs=1e-300)
    # the scipy-quad route shipped in the package agrees to its own (looser) accuracy
    assert C.laplace_sum_tail_quad(x, m, eps) == pytest.approx(float(val), rel=1e-4, abs=1e-14)


def test_laplace_vs_monte_carlo():
    rng = np.random.default_rng(11)
    for m, eps, x in [(3, 1.0, 2.0), (10, 0.5, 5.0)]:
        r = C.mc_laplace_sum_tail(rng, x, m, eps, 400_000, alpha=1e-4)
        assert r.lower <= C.laplace_sum_tail(x, m, eps).value <= r.upper


@pytest.mark.parametrize("m,eps", list(itertools.product([1, 2, 3, 5, 10, 20], [0.1, 1.0, 5.0])))
def test_laplace_bounds_dominate_exact(m, eps):
    xs = np.array([0.1, 0.5, 1, 2, 5, 10, 30, 100]) * m / eps
    exact = C.laplace_sum_tail(xs, m, eps).log
    assert np.all(C.laplace_sum_chernoff(xs, m, eps).log >= exact - 1e-9)
    assert np.all(C.laplace_sum_closed(xs, m, eps).log >= exact - 1e-9)


@pytest.mark.parametrize("m,eps,x", [(1, 1.0, 3.0), (4, 0.5, 20.0), (30, 2.0, 25.0)])
def test_laplace_chernoff_lambda_star_is_the_optimum(m, eps, x):
    f = lambda lam: -lam * x - m * math.log(1 - (lam / eps) ** 2)  # noqa: E731
    res = optimize.minimize_scalar(f, bounds=(0, eps * (1 - 1e-12)), method="bounded", options={"xatol": 1e-13})
    assert C.laplace_sum_chernoff(x, m, eps).log == pytest.approx(res.fun, rel=1e-8, abs=1e-10)


@settings(max_examples=40, deadline=None)
@given(m=st.integers(1, 30), eps=st.floats(0.05, 5), x1=st.floats(0, 50), dx=st.floats(0.01, 20))
def test_laplace_monotone_in_x_and_m(m, eps, x1, dx):
    a, b = C.laplace_sum_tail(x1, m, eps).log, C.laplace_sum_tail(x1 + dx, m, eps).log
    assert b <= a + 1e-12
    assert C.laplace_sum_tail(x1, m + 1, eps).log >= a - 1e-10  # Anderson: more noise, heavier tail
    assert C.laplace_sum_chernoff(x1 + dx, m, eps).log <= C.laplace_sum_chernoff(x1, m, eps).log + 1e-12
    assert C.laplace_sum_chernoff(x1, m + 1, eps).log >= C.laplace_sum_chernoff(x1, m, eps).log - 1e-12


# ---------------------------------------------------------------- Gaussian sums
@pytest.mark.parametrize("m,sigma,x", [(1, 1.0, 2.0), (9, 0.3, 1.5), (50, 2.0, 40.0)])
def test_gaussian_sum_tail_and_chernoff(m, sigma, x):
    s = sigma * math.sqrt(m)
    exact = 0.5 * math.erfc(x / (s * math.sqrt(2)))
    assert C.gaussian_sum_tail(x, m, sigma).value == pytest.approx(exact, rel=1e-10)
    assert C.gaussian_sum_chernoff(x, m, sigma).value == pytest.approx(math.exp(-x * x / (2 * s * s)), rel=1e-12)
    assert C.gaussian_sum_chernoff(x, m, sigma).value >= exact
    r = C.mc_gaussian_sum_tail(np.random.default_rng(5), x, m, sigma, 200_000, alpha=1e-4)
    assert r.lower <= exact <= r.upper


# ---------------------------------------------------------------- private sums (Lemma D.3, sheet 4.3, 9.9)
SHEET_CASES = [  # (n, m, eps, mu, x, exact, C0) from sheet 001 §9.9
    (400, 9, 1.0, 0.5, 0.42, 1.626e-3, 1.324e-2),
    (1000, 10, 0.2, 0.6, 0.5, 2.333e-4, 2.618e-3),
    (200, 2, 0.5, 0.7, 0.5, 1.426e-6, 2.855e-5),
]


@pytest.mark.parametrize("case", SHEET_CASES)
def test_sheet_reference_cases(case):
    n, m, eps, mu, x, exact, c0 = case
    ex = C.private_tail_exact(n, m, eps, mu, x).value
    assert ex == pytest.approx(exact, rel=1e-3)
    assert C.private_tail_c0(n, m, eps, mu, x).value == pytest.approx(c0, rel=1e-3)
    for f in (C.private_tail_c0, C.private_tail_c1_best, C.private_tail_c2, C.private_tail_c3, C.private_tail_naive):
        assert f(n, m, eps, mu, x).value >= ex


def test_exact_private_tail_by_direct_sum_m1():
    # independent: m = 1 so P(L >= y) = ½e^{-εy} (y >= 0), 1 − ½e^{εy} (y < 0); plain loop
    n, eps, mu, x = 60, 0.7, 0.4, 0.3
    tot = 0.0
    for k in range(n + 1):
        y = k - n * x
        tail = 0.5 * math.exp(-eps * y) if y >= 0 else 1 - 0.5 * math.exp(eps * y)
        tot += math.comb(n, k) * mu**k * (1 - mu) ** (n - k) * tail
    assert C.private_tail_exact(n, 1, eps, mu, x).value == pytest.approx(tot, rel=1e-10)
    # upper tail, mirrored by hand
    tot_u = 0.0
    xu = 0.55
    for k in range(n + 1):
        y = n * xu - k
        tail = 0.5 * math.exp(-eps * y) if y >= 0 else 1 - 0.5 * math.exp(eps * y)
        tot_u += math.comb(n, k) * mu**k * (1 - mu) ** (n - k) * tail
    assert C.private_tail_exact(n, 1, eps, mu, xu, tail="upper").value == pytest.approx(tot_u, rel=1e-10)


GRID = [
    (n, m, eps, mu)
    for n in (20, 100, 400)
    for m in (1, 3, 10)
    for eps in (0.2, 1.0, 3.0)
    for mu in (0.3, 0.6, 0.9)
]


@pytest.mark.parametrize("n,m,eps,mu", GRID)
def test_all_bounds_dominate_exact_and_are_ordered(n, m, eps, mu):
    # the bounds are vectorised: one call per tail over the six thresholds (the exact tail is scalar-only)
    for tail, xs in (("lower", np.linspace(0, mu, 6)), ("upper", np.linspace(mu, 1, 6))):
        ex = np.array([C.private_tail_exact(n, m, eps, mu, x, tail=tail).log for x in xs])
        c0 = C.private_tail_c0(n, m, eps, mu, xs, tail=tail).log
        c1 = C.private_tail_c1(n, m, eps, mu, xs, 0.5, tail=tail).log
        c1b = C.private_tail_c1_best(n, m, eps, mu, xs, tail=tail).log
        c2 = C.private_tail_c2(n, m, eps, mu, xs, tail=tail).log
        c3 = C.private_tail_c3(n, m, eps, mu, xs, tail=tail).log
        nv = C.private_tail_naive(n, m, eps, mu, xs, tail=tail).log
        p41 = C.prop41_bound(n, m, eps, mu, xs, 0.5 * eps, tail=tail).log
        for b in (c0, c1, c1b, c2, c3, nv, p41):
            assert np.shape(b) == xs.shape and np.all(b >= ex - 1e-9)
        assert np.all(c0 <= c1 + 1e-9) and np.all(c0 <= c1b + 1e-9) and np.all(c0 <= p41 + 1e-9)
        assert np.all(c1b <= c2 + 1e-9) and np.all(c2 + 1e-9 <= c3 + 2e-9)


@pytest.mark.parametrize("n,m,eps,mu,x", [(50, 3, 1.0, 0.5, 0.3), (1000, 10, 0.2, 0.6, 0.45), (10**6, 20, 0.05, 0.3, 0.299)])
def test_c0_is_the_infimum(n, m, eps, mu, x):
    # independent brute-force grid minimisation of the C0 exponent over λ ∈ [0, ε)
    lam = np.linspace(0, eps, 200_001)[:-1]
    f = n * (lam * x + np.log(1 - mu + mu * np.exp(-lam))) - m * np.log(1 - (lam / eps) ** 2)
    c0 = C.private_tail_c0(n, m, eps, mu, x).log
    assert c0 <= f.min() + 1e-9 * max(1, abs(f.min()))
    assert c0 >= f.min() - 1e-4 * max(1, abs(f.min()))


def test_mirror_upper_equals_explicit_upper_formula():
    # sheet 001 §4.3 C0 upper form written out directly
    n, m, eps, mu, x = 300, 4, 0.8, 0.3, 0.45
    lam = np.linspace(0, eps, 400_001)[:-1]
    f = n * (-lam * x + np.log(1 - mu + mu * np.exp(lam))) - m * np.log(1 - (lam / eps) ** 2)
    assert C.private_tail_c0(n, m, eps, mu, x, tail="upper").log == pytest.approx(f.min(), rel=1e-6)


@pytest.mark.parametrize("tail", ["lower", "upper"])
def test_large_n_finite(tail):
    x = 0.29 if tail == "lower" else 0.31
    for f in (C.private_tail_c0, C.private_tail_c1_best, C.private_tail_c2, C.private_tail_c3, C.private_tail_naive):
        r = f(1e15, 50, 0.5, 0.3, x, tail=tail)
        assert np.isfinite(r.log) and r.log < -1e9 and r.value == 0.0
    r = C.private_tail_c0(1e15, 50, 0.5, 0.3, x, tail=tail)
    # rate must be the private one, d_eps (not kl), up to the o(1) term
    from boundcalc.info import d_epsilon

    xl, mul = (x, 0.3) if tail == "lower" else (1 - x, 0.7)
    assert -r.log / 1e15 == pytest.approx(float(d_epsilon(xl, mul, 0.5)), rel=1e-6)
    g = C.gaussian_private_tail_chernoff(1e15, 50, 2.0, 0.3, x, tail=tail)
    assert np.isfinite(g.log)
    assert np.isfinite(C.chernoff_kl(1e15, 0.3, x, tail=tail).log)


def test_edge_means_never_nan():
    for mu, x in [(0, 0), (1, 1), (1, 0), (0.5, 0), (1, 0.5), (0.5, 0.5)]:
        for tail in ("lower", "upper"):
            for f in (C.private_tail_c0, C.private_tail_c2, C.private_tail_c3, C.private_tail_naive):
                r = f(100, 3, 1.0, mu, x, tail=tail)
                assert not np.isnan(r.log) and r.log <= 0


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 10**9), m=st.integers(1, 100), eps=st.floats(0.01, 10), mu=st.floats(0.01, 0.99),
       t1=st.floats(0, 1), t2=st.floats(0, 1))
def test_c0_monotone_in_x_and_m(n, m, eps, mu, t1, t2):
    x1, x2 = sorted((t1 * mu, t2 * mu))
    assert C.private_tail_c0(n, m, eps, mu, x1).log <= C.private_tail_c0(n, m, eps, mu, x2).log + 1e-9
    assert C.private_tail_c0(n, m, eps, mu, x1).log <= C.private_tail_c0(n, m + 1, eps, mu, x1).log + 1e-9
    assert C.private_tail_c2(n, m, eps, mu, x1).log <= C.private_tail_c2(n, m, eps, mu, x2).log + 1e-9


def test_vectorised_matches_scalar():
    xs = np.array([0.1, 0.2, 0.33])
    v = C.private_tail_c0(500, 5, 0.7, 0.4, xs).log
    for i, x in enumerate(xs):
        assert v[i] == C.private_tail_c0(500, 5, 0.7, 0.4, x).log


# ---------------------------------------------------------------- Monte Carlo
MC_GRID = [(n, m, eps, mu) for n in (30, 200) for m in (1, 5) for eps in (0.3, 2.0) for mu in (0.2, 0.7)]


@pytest.mark.parametrize("n,m,eps,mu", MC_GRID)
def test_bounds_dominate_monte_carlo(n, m, eps, mu):
    rng = np.random.default_rng(1000 * n + 10 * m + int(10 * eps))
    for tail, x in (("lower", mu - 0.1), ("upper", mu + 0.1)):
        r = C.mc_private_tail(rng, n, m, mu, x, 20_000, epsilon=eps, tail=tail, alpha=1e-4)
        for f in (C.private_tail_c0, C.private_tail_c2, C.private_tail_c3, C.private_tail_naive):
            assert f(n, m, eps, mu, x, tail=tail).value >= r.lower
        ex = C.private_tail_exact(n, m, eps, mu, x, tail=tail).value
        assert r.lower <= ex <= r.upper


@pytest.mark.parametrize("n,m,sigma,mu", [(50, 2, 1.0, 0.4), (300, 8, 3.0, 0.6), (100, 1, 0.2, 0.2)])
def test_gaussian_private_tail(n, m, sigma, mu):
    rng = np.random.default_rng(n + m)
    for tail, x in (("lower", mu - 0.08), ("upper", mu + 0.08)):
        b = C.gaussian_private_tail_chernoff(n, m, sigma, mu, x, tail=tail)
        ex = C.gaussian_private_tail_exact(n, m, sigma, mu, x, tail=tail)
        assert b.log >= ex.log
        r = C.mc_private_tail(rng, n, m, mu, x, 50_000, sigma=sigma, tail=tail, alpha=1e-4)
        assert r.lower <= ex.value <= r.upper
        assert b.value >= r.lower
    # brute-force infimum of the Gaussian coupled Chernoff exponent
    x = mu - 0.08
    lam = np.linspace(0, 20, 400_001)
    f = n * (lam * x + np.log(1 - mu + mu * np.exp(-lam))) + m * lam**2 * sigma**2 / 2
    assert C.gaussian_private_tail_chernoff(n, m, sigma, mu, x).log == pytest.approx(min(f.min(), 0), rel=1e-6, abs=1e-9)


def test_clopper_pearson_known_values():
    # k = 0: upper = 1 − (α/2)^{1/N}; k = N: lower = (α/2)^{1/N}
    lo, hi = C.clopper_pearson(0, 100, 0.05)
    assert lo == 0 and hi == pytest.approx(1 - 0.025 ** (1 / 100), rel=1e-10)
    lo, hi = C.clopper_pearson(100, 100, 0.05)
    assert hi == 1 and lo == pytest.approx(0.025 ** (1 / 100), rel=1e-10)


def test_mc_requires_generator_and_is_reproducible():
    with pytest.raises(InputError):
        C.mc_private_tail(123, 10, 1, 0.5, 0.4, 100, epsilon=1.0)
    a = C.mc_private_tail(np.random.default_rng(3), 10, 2, 0.5, 0.4, 1000, epsilon=1.0)
    b = C.mc_private_tail(np.random.default_rng(3), 10, 2, 0.5, 0.4, 1000, epsilon=1.0)
    assert a == b


# ---------------------------------------------------------------- Lemma H.6, H.7
@pytest.mark.parametrize("n", [10, 50, 200, 1000])
@pytest.mark.parametrize("p", [0.1, 0.3, 0.5, 0.8])
def test_h6_never_exceeded(n, p):
    for x in np.linspace(0, 1, 50):
        k_lo, k_hi = math.floor(n * x + 1e-9), math.ceil(n * x - 1e-9)
        assert C.chernoff_kl(n, p, x, "lower").value >= stats.binom.cdf(k_lo, n, p) * (1 - 1e-12) if x <= p else True
        assert C.chernoff_kl(n, p, x, "upper").value >= stats.binom.sf(k_hi - 1, n, p) * (1 - 1e-12) if x >= p else True
        assert C.binomial_tail_exact(n, p, x, "lower").value == pytest.approx(stats.binom.cdf(k_lo, n, p), rel=1e-10, abs=1e-300)


def test_h6_heterogeneous_means():
    ps = np.array([0.1, 0.5, 0.9, 0.3, 0.7, 0.2] * 5)
    pmf = np.array([1.0])
    for p in ps:  # Poisson-binomial by convolution
        pmf = np.convolve(pmf, [1 - p, p])
    n = len(ps)
    for x in np.linspace(0, 1, 31):
        if x >= ps.mean():
            assert C.chernoff_kl(n, ps.mean(), x, "upper").value >= pmf[math.ceil(n * x - 1e-9):].sum() * (1 - 1e-12)


def test_maximal_hoeffding_sheet_case():
    # sheet 001 §4.6: n=100, mu=.3, delta=.1: MC about 0.022 against a bound of exp(-2) = 0.135
    b = C.maximal_hoeffding(100, 0.1)
    assert b.value == pytest.approx(math.exp(-2), rel=1e-12)
    r = C.mc_maximal_sum(np.random.default_rng(7), 100, 0.3, 0.1, 20_000, alpha=1e-4)
    assert r.upper < b.value and 0.01 < r.frequency < 0.04


# ---------------------------------------------------------------- Prop 4.1
def test_prop41_constant():
    eps, a = 0.5, 0.1
    # schedule m_n = floor(log2 n) + 2 <= log_2(n) + 2: certified geometric value >= the discrete sup
    disc = C.prop41_constant(a, eps, schedule=lambda n: np.floor(np.log2(n)) + 2, n_max=10**5)
    geo = C.prop41_constant(a, eps, alpha=2.0)
    ns = np.arange(1, 10**5 + 1)
    brute = np.max((2 * eps / a) ** (np.floor(np.log2(ns)) + 2) * np.exp(-ns * a / 2))
    assert disc == pytest.approx(brute, rel=1e-9)
    assert geo >= disc
    assert C.prop41_constant(1.0, 0.5, alpha=2.0) == 1.0
    # A_a e^{-n(d - a)} dominates the exact tail along the schedule
    from boundcalc.info import d_epsilon

    for n in (50, 200, 800):
        m = int(np.floor(np.log2(n))) + 2
        ex = C.private_tail_exact(n, m, eps, 0.6, 0.45).value
        assert geo * math.exp(-n * (float(d_epsilon(0.45, 0.6, eps)) - a)) >= ex


# ---------------------------------------------------------------- mpmath
D_EPS_TABLE = [  # sheet 001 §2.6 test vectors
    (0.25, 0.75, 0.1, "0.0490469825230445"), (0.25, 0.75, 2.0, "0.545541407206759"),
    (0.70, 0.75, 0.5, "0.00640145699732038"), (0.00, 0.50, 1.0, "0.379885493041722"),
    (0.30, 1.00, 0.7, "0.49"), (0.90, 0.60, 0.5, "0.121248374730593"), (0.90, 0.60, 3.0, "0.226289161185359"),
]


@pytest.mark.parametrize("x,y,eps,val", D_EPS_TABLE)
def test_d_epsilon_mp_table(x, y, eps, val):
    with mpmath.workdps(30):
        got = d_epsilon_mp(mpmath.mpf(str(x)), mpmath.mpf(str(y)), mpmath.mpf(str(eps)))
    assert abs(got - mpmath.mpf(val)) < 1e-14


@pytest.mark.parametrize("args", [(200, 2, 0.5, 0.7, 0.5), (10**6, 5, 0.1, 0.4, 0.39), (1e15, 40, 0.5, 0.3, 0.29)])
def test_c2_float_vs_mpmath(args):
    log_mp, _ = private_tail_c2_mp(*(str(a) for a in args), dps=50)
    fl = C.private_tail_c2(*args).log
    assert float(log_mp) == pytest.approx(fl, rel=1e-9, abs=1e-12)


# ---------------------------------------------------------------- validation
@pytest.mark.parametrize("kw,param", [
    (dict(n=0), "n"), (dict(n=2.5), "n"), (dict(m=0), "m"), (dict(epsilon=0), "epsilon"),
    (dict(epsilon=-1), "epsilon"), (dict(mu=1.5), "mu"), (dict(x=-0.1), "x"), (dict(x=float("nan")), "x"),
])
def test_bad_input(kw, param):
    base = dict(n=100, m=2, epsilon=1.0, mu=0.5, x=0.4)
    base.update(kw)
    for f in (C.private_tail_c0, C.private_tail_c2, C.private_tail_c3):
        with pytest.raises(InputError) as e:
            f(**base)
        assert e.value.parameter == param
    with pytest.raises(InputError):
        C.private_tail_c0(100, 2, 1.0, 0.5, 0.4, tail="middle")
    assert C.private_tail_c0("1e3", "2", 1.0, 0.5, 0.4).log == C.private_tail_c0(1000, 2, 1.0, 0.5, 0.4).log


# ---------------------------------------------------------------- C1 at its minimising η (issue 7 §3)
def _c1_log_mp(n, m, eps, mu, x, eta):
    """ln C1(η) = −m ln η − n d_{ε(1−η)}(x, μ) at 50 digits (lower tail), d_ε by its mpmath closed form."""
    with mpmath.workdps(50):
        e_eff = mpmath.mpf(eps) * (1 - mpmath.mpf(eta))
        d = d_epsilon_mp(x, mu, e_eff) if e_eff > 0 else mpmath.mpf(0)
        return -m * mpmath.log(eta) - n * d


def _brute_min_c1_log(n, m, eps, mu, x):
    """Independent minimisation over η ∈ (0, 1]: a dense grid (log- and linearly spaced, 40 001 points) of the
    closed form, then bounded Brent on f(η) at 50 digits in the best grid cell."""
    from boundcalc.info import d_epsilon

    etas = np.unique(np.concatenate([np.logspace(-14, 0, 20001), np.linspace(1e-6, 1.0, 20001)]))
    ee = eps * (1.0 - etas)
    d = np.where(ee > 0, d_epsilon(x, mu, np.where(ee > 0, ee, 1.0)), 0.0)
    f = -m * np.log(etas) - n * d
    i = int(np.argmin(f))
    lo, hi = etas[max(i - 1, 0)], etas[min(i + 1, etas.size - 1)]
    res = optimize.minimize_scalar(lambda e: float(_c1_log_mp(n, m, eps, mu, x, e)), bounds=(lo, hi),
                                   method="bounded", options={"xatol": 1e-14})
    return min(float(f[i]), float(res.fun), 0.0)


def _old_grid_c1_log(n, m, eps, mu, x):
    """MUTANT kept for the test: the former 'best η' (min over 500 fixed grid points), 2% above the minimum."""
    from boundcalc.info import d_epsilon

    etas = np.concatenate([np.logspace(-12, 0, 400), 1.0 - np.logspace(-12, -0.5, 100)])
    ee = eps * (1.0 - etas)
    d = np.where(ee > 0, d_epsilon(x, mu, np.where(ee > 0, ee, 1.0)), 0.0)
    return min(float(np.min(-m * np.log(etas) - n * d)), 0.0)


def _c1_is_minimal(value_log, brute_log):
    # ln-scale tolerance: 1e-9 relative (rounding of the closed form), never above the brute-force minimum
    return value_log <= brute_log + 1e-9 * max(1.0, abs(brute_log))


def test_c1_best_is_the_minimiser_issue_example():
    n, m, eps, mu, x = 400, 9, 1.0, 0.5, 0.42
    res = C.private_tail_c1_best(n, m, eps, mu, x)
    brute = _brute_min_c1_log(n, m, eps, mu, x)
    assert math.exp(brute) == pytest.approx(0.0909015, abs=1e-7)  # the issue's 0.0909
    assert _c1_is_minimal(res.log, brute) and res.log >= brute - 1e-9
    assert not _c1_is_minimal(_old_grid_c1_log(n, m, eps, mu, x), brute)  # the old grid (0.0929) fails
    eta = C.private_tail_c1_argmin(n, m, eps, mu, x)
    assert float(_c1_log_mp(n, m, eps, mu, x, eta)) == pytest.approx(res.log, rel=1e-12)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 10**6), m=st.integers(1, 40), eps=st.floats(0.01, 20.0),
       mu=st.floats(0.0, 1.0), x=st.floats(0.0, 1.0), tail=st.sampled_from(["lower", "upper"]))
def test_c1_best_equals_brute_force_minimum(n, m, eps, mu, x, tail):
    res = C.private_tail_c1_best(n, m, eps, mu, x, tail=tail)
    mu_l, x_l = (mu, x) if tail == "lower" else (1 - mu, 1 - x)
    if x_l >= mu_l:
        assert res.log == 0.0
        return
    brute = _brute_min_c1_log(n, m, eps, mu_l, x_l)
    assert _c1_is_minimal(res.log, brute), (res.log, brute)
    eta = C.private_tail_c1_argmin(n, m, eps, mu, x, tail=tail)
    assert 0 < eta <= 1
    # the value is f at the returned η (so it is a valid bound, not below the true minimum)
    assert min(float(_c1_log_mp(n, m, eps, mu_l, x_l, eta)), 0.0) == pytest.approx(res.log, rel=1e-9, abs=1e-12)
    assert res.log >= C.private_tail_c0(n, m, eps, mu, x, tail=tail).log - 1e-9  # C0 <= C1 (sheet §4.3)


def test_c1_best_extremes_finite_without_warnings():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for args in [(1e15, 3, 1.0, 0.5, 0.4), (10, 1, 1e-300, 0.5, 0.4), (10, 1, 1e300, 0.5, 0.0),
                     (1, 10**6, 1.0, 1.0, 0.0), (1e18, 1, 1e308, 0.5, 0.4)]:
            r = C.private_tail_c1_best(*args)
            assert math.isfinite(r.log) and 0.0 <= r.value <= 1.0


# ---------------------------------------------------------------- extreme budgets: correct limits, no warning
@pytest.fixture
def no_warnings():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


def test_extreme_epsilon_limits(no_warnings):
    n, m, mu, x = 100, 3, 0.5, 0.405
    chern = C.chernoff_kl(n, mu, x).log
    # ε → ∞: the noise vanishes, C0 → the non-private Chernoff bound exp(−n kl) (sheet 001 §4.3, λ < ε free)
    assert C.private_tail_c0(n, m, 1e308, mu, x).log == pytest.approx(chern, rel=1e-9)
    # C1's minimiser sits at 1 − η ≈ ε_0/ε ≈ 1e-309 (it returned the trivial 1 when searched in η)
    assert C.private_tail_c1_best(n, m, 1e308, mu, x).log == pytest.approx(chern, rel=1e-9)
    assert C.private_tail_c2(n, m, 1e308, mu, x).log == 0.0  # m(1 + ln(nε gap/m)) ≫ n d: trivial, no overflow
    # ε → 0: the noise is infinite, every bound is the trivial 1 and the exact tail is 1/2
    for f in (C.private_tail_c0, C.private_tail_c1_best, C.private_tail_c2, C.private_tail_c3, C.private_tail_naive):
        assert f(n, m, 1e-320, mu, x).log == 0.0
    assert C.private_tail_exact(n, m, 1e-320, mu, x).value == pytest.approx(0.5, rel=1e-9)
    # exact at ε = 1e308 is the binomial tail (the noise is below any gap between k and n x)
    assert C.private_tail_exact(n, m, 1e308, mu, x).log == pytest.approx(C.binomial_tail_exact(n, mu, x).log, rel=1e-12)


def test_extreme_sigma_limits(no_warnings):
    n, m, mu, x = 100, 3, 0.5, 0.405
    assert C.gaussian_private_tail_chernoff(n, m, 1e-320, mu, x).log == pytest.approx(C.chernoff_kl(n, mu, x).log,
                                                                                      rel=1e-9)
    assert C.gaussian_private_tail_chernoff(n, m, 1e308, mu, x).log == 0.0
    assert C.gaussian_private_tail_exact(n, m, 1e-320, mu, x).log == pytest.approx(
        C.binomial_tail_exact(n, mu, x).log, rel=1e-12)
    assert C.gaussian_private_tail_exact(n, m, 1e308, mu, x).value == pytest.approx(0.5, rel=1e-9)


def test_laplace_chernoff_when_r_rounds_to_one(no_warnings):
    # ε x = 4e20: λ*/ε = 1 − O(1e-21) rounds to 1; ln(1 − r) must come from the cancellation-free form
    x, m, eps = 40.0, 3, 1e19
    with mpmath.workdps(60):
        X, M, E = mpmath.mpf(x), mpmath.mpf(m), mpmath.mpf(eps)
        lam = (mpmath.sqrt(M**2 + E**2 * X**2) - M) / X
        expect = -lam * X - M * mpmath.log(1 - lam**2 / E**2)
    got = C.laplace_sum_chernoff(x, m, eps).log
    assert got == pytest.approx(float(expect), rel=1e-12)


def test_laplace_sample_at_tiny_epsilon_is_infinite_not_nan(no_warnings):
    from boundcalc.concentration.montecarlo import laplace_sum_sample

    s = laplace_sum_sample(np.random.default_rng(0), 3, 1e-320, 1000)
    assert not np.isnan(s).any() and np.isinf(s).mean() > 0.99
    assert 0.4 < (s > 0).mean() < 0.6


# --- claims/concentration._laplace_exact_mp (issue 17 follow-up: it called mpmath.gammainc with upper=True) ----------
def _laplace_tail_by_sum(x, m, eps):
    """P(G_1 - G_2 >= x), G_i ~ Gamma(m, rate eps), by a finite sum (independent of the code): for x >= 0,
    E[Q(m, eps(x + G_2))] = sum_{k<m} e^{-eps x}/k! sum_{j<=k} C(k, j) (eps x)^{k-j} E[Y^j e^{-Y}], Y = eps G_2 ~ Gamma(m),
    E[Y^j e^{-Y}] = Gamma(j + m) / (Gamma(m) 2^{j+m}); for x < 0 the symmetry of G_1 - G_2."""
    x, eps = mpmath.mpf(x), mpmath.mpf(eps)
    if x < 0:
        return 1 - _laplace_tail_by_sum(-x, m, eps)
    total = mpmath.mpf(0)
    for k in range(m):
        inner = sum(mpmath.binomial(k, j) * (eps * x) ** (k - j) * mpmath.gamma(j + m) / (mpmath.gamma(m) * 2 ** (j + m))
                    for j in range(k + 1))
        total += mpmath.exp(-eps * x) / mpmath.factorial(k) * inner
    return total


def _laplace_tail_scipy(x, m, eps):
    """The same probability by scipy quadrature over G_1's density: P(G_2 <= G_1 - x)."""
    g = stats.gamma(m, scale=1 / eps)
    return integrate.quad(lambda u: g.pdf(u) * g.cdf(u - x), max(0.0, x), np.inf, limit=200)[0]


def _laplace_exact_mp_old(x, m, epsilon):
    """The former body (mutant): mpmath.gammainc has no ``upper`` keyword."""
    m = int(m)
    sf = lambda t: mpmath.gammainc(m, epsilon * t, regularized=True, upper=True) if t > 0 else mpmath.mpf(1)  # noqa
    return mpmath.quad(lambda g: sf(x + g), [0, mpmath.inf])


def _laplace_exact_mp_lower(x, m, epsilon):
    """Mutant: the lower incomplete gamma P(m, eps t) where the survival function Q(m, eps t) belongs."""
    m = int(m)
    x, epsilon = mpmath.mpf(x), mpmath.mpf(epsilon)
    sf = lambda t: mpmath.gammainc(m, 0, epsilon * t, regularized=True) if t > 0 else mpmath.mpf(1)  # noqa
    pdf = lambda g: epsilon**m * g ** (m - 1) * mpmath.exp(-epsilon * g) / mpmath.factorial(m - 1)  # noqa
    lo = max(mpmath.mpf(0), -x)
    return mpmath.quad(lambda g: sf(x + g) * pdf(g), [lo, lo + 10 * m / epsilon, mpmath.inf])


def _exact_mp_agrees(fn) -> bool:
    try:
        for x, m, eps in ((0.5, 1, 1.0), (3.0, 4, 0.7), (-2.0, 3, 1.5), (12.0, 6, 0.4)):
            with mpmath.workdps(50):
                got = fn(mpmath.mpf(x), m, mpmath.mpf(eps))
                ref = _laplace_tail_by_sum(x, m, eps)
            if abs(got / ref - 1) > mpmath.mpf(10) ** -30:
                return False
            if abs(float(got) / _laplace_tail_scipy(x, m, eps) - 1) > 1e-7:
                return False
    except TypeError:
        return False
    return True


def test_laplace_exact_mp_of_the_claims_matches_sum_and_scipy():
    from boundcalc.verify.claims.concentration import _laplace_exact_mp, _laplace_margin_mp

    # the finite sum itself against the m = 1 closed form (1/2) e^{-eps x}
    assert abs(_laplace_tail_by_sum(2.0, 1, 0.5) - mpmath.exp(-1) / 2) < mpmath.mpf(10) ** -40
    assert _exact_mp_agrees(_laplace_exact_mp)
    # the mp margin of the claim runs (it raised TypeError) and is >= 0 (the Chernoff bound dominates the tail)
    with mpmath.workdps(30):
        assert _laplace_margin_mp(3, mpmath.mpf(1), mpmath.mpf(5)) >= 0
    # mutants: the former call (TypeError) and the lower incomplete gamma are rejected
    with pytest.raises(TypeError):
        _laplace_exact_mp_old(mpmath.mpf(1), 2, mpmath.mpf(1))
    assert not _exact_mp_agrees(_laplace_exact_mp_old)
    assert not _exact_mp_agrees(_laplace_exact_mp_lower)
