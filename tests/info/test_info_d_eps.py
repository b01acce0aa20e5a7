"""d_eps (seed 001 Eqs. 6, 8, 9, 30-32): closed form vs the defining optimisation, sheet §2.6 vectors,
capped-Chernoff dual (sheet §2.4), general-distribution form, float vs mpmath, hypothesis properties."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize_scalar

from boundcalc.errors import InputError
from boundcalc.info import (
    d_epsilon,
    d_epsilon_by_optimisation,
    d_epsilon_dual,
    d_epsilon_general,
    d_epsilon_minimiser,
    d_epsilon_mp,
    d_epsilon_regime,
    epsilon_threshold,
    kl_bernoulli,
)

# Sheet §2.6 table (mpmath, 30 digits): x, y, eps, d_eps, regime
SHEET = [
    (0.25, 0.75, 0.1, 0.0490469825230445, "high"),
    (0.25, 0.75, 1.0, 0.392625980491211, "high"),
    (0.25, 0.75, 2.0, 0.545541407206759, "high"),
    (0.25, 0.75, 5.0, 0.549306144334055, "low"),
    (0.70, 0.75, 0.1, 0.00404698252304449, "high"),
    (0.70, 0.75, 0.5, 0.00640145699732038, "low"),
    (0.50, 0.75, 0.5, 0.0997021748871944, "high"),
    (0.00, 0.50, 1.0, 0.379885493041722, "high"),
    (0.30, 1.00, 0.7, 0.49, "high"),
    (0.90, 0.60, 0.5, 0.121248374730593, "high"),
    (0.90, 0.60, 3.0, 0.226289161185359, "low"),
    (0.10, 0.80, 0.3, 0.202367742981726, "high"),
]


@pytest.mark.parametrize("x,y,eps,val,regime", SHEET)
def test_sheet_vectors(x, y, eps, val, regime):
    assert d_epsilon(x, y, eps) == pytest.approx(val, rel=1e-13, abs=1e-16)
    assert d_epsilon_regime(x, y, eps) == regime
    with mpmath.workdps(30):
        assert float(d_epsilon_mp(mpmath.mpf(str(x)), mpmath.mpf(str(y)), mpmath.mpf(str(eps)))) == pytest.approx(
            val, rel=1e-13
        )


GRID = [0.0, 0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 0.99, 1.0]
EPS = [1e-3, 0.01, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0]


def test_closed_form_vs_optimisation_grid():
    X, Y, E = np.meshgrid(GRID, GRID, EPS, indexing="ij")
    closed = d_epsilon(X, Y, E)
    opt = d_epsilon_by_optimisation(X, Y, E)
    assert np.isfinite(closed).all()
    err = np.abs(closed - opt) / np.maximum(np.abs(opt), 1e-300)
    mask = opt > 0
    assert err[mask].max() < 1e-9
    assert (closed[~mask] == 0).all()


def test_closed_form_vs_optimisation_random():
    rng = np.random.default_rng(1)
    x, y = rng.uniform(size=(2, 400))
    e = 10 ** rng.uniform(-3, 1.5, size=400)
    closed, opt = d_epsilon(x, y, e), d_epsilon_by_optimisation(x, y, e)
    assert np.max(np.abs(closed - opt) / opt) < 1e-9


def test_dual_representation_independent():
    X, Y, E = np.meshgrid(GRID, GRID, [0.01, 0.3, 1.0, 4.0], indexing="ij")
    closed, dual = d_epsilon(X, Y, E), d_epsilon_dual(X, Y, E)
    assert np.allclose(closed, dual, rtol=1e-9, atol=1e-14)


def test_exact_edges_and_huge_eps():
    assert d_epsilon(1.0, 0.0, 3.0) == 3.0
    for e in [1.0, 1e3, 1e10, 1e300]:
        assert d_epsilon(1.0, 0.0, e) == e
        assert d_epsilon(0.0, 1.0, e) == e
        assert np.isfinite(d_epsilon(0.3, 1.0, e))
    # x = 1 > y: eps - ln(1 - y + y e^eps) -> -ln y = kl(1, y) for huge eps, no overflow/cancellation
    assert d_epsilon(1.0, 0.5, 1e308) == pytest.approx(math.log(2), rel=1e-15)
    # 1 - y is not representable: value from mpmath at 50 digits
    with mpmath.workdps(50):
        y = mpmath.mpf("1e-300")
        ref = 800 - mpmath.log(1 - y + y * mpmath.exp(800))
    assert d_epsilon(1.0, 1e-300, 800.0) == pytest.approx(float(ref), rel=1e-14)
    assert d_epsilon(0.3, 0.3, 2.0) == 0.0
    assert d_epsilon(0.3, 0.6, np.inf) == kl_bernoulli(0.3, 0.6)
    assert d_epsilon(0.3, 1.0, np.inf) == np.inf
    # edge-case formulas from sheet §2.3
    e = 0.7
    assert d_epsilon(0.0, 0.4, e) == pytest.approx(-math.log(1 - 0.4 + 0.4 * math.exp(-e)), rel=1e-14)
    assert d_epsilon(0.45, 0.0, e) == pytest.approx(e * 0.45, rel=1e-15)
    assert d_epsilon(1.0, 0.4, e) == pytest.approx(e - math.log(1 - 0.4 + 0.4 * math.exp(e)), rel=1e-14)


def test_threshold_minimiser_regime():
    assert epsilon_threshold(0.25, 0.75) == pytest.approx(math.log(9), rel=1e-15)
    assert epsilon_threshold(0.0, 0.5) == np.inf
    assert epsilon_threshold(0.4, 0.4) == 0.0
    # z* attains the value and lies in the segment
    rng = np.random.default_rng(2)
    x, y = rng.uniform(size=(2, 200))
    e = 10 ** rng.uniform(-2, 1, size=200)
    z = d_epsilon_minimiser(x, y, e)
    assert ((z >= np.minimum(x, y)) & (z <= np.maximum(x, y))).all()
    assert np.allclose(e * np.abs(z - x) + kl_bernoulli(z, y), d_epsilon(x, y, e), rtol=1e-12, atol=1e-15)
    assert d_epsilon_regime(0.4, 0.4, 1.0) == "equal"
    regimes = d_epsilon_regime(np.array([0.25, 0.25]), 0.75, np.array([2.0, 2.2]))
    assert list(regimes) == ["high", "low"]


def test_float_vs_mpmath_50_digits():
    rng = np.random.default_rng(3)
    xs, ys = rng.uniform(size=(2, 100))
    es = 10 ** rng.uniform(-3, 2, size=100)
    with mpmath.workdps(50):
        for x, y, e in zip(xs, ys, es):
            ref = d_epsilon_mp(x, y, e)  # exact binary inputs
            assert float(d_epsilon(x, y, e)) == pytest.approx(float(ref), rel=1e-12, abs=1e-300)


def _general_by_optimisation(p, q, eps):
    """Independent: SLSQP over the simplex with the TV term split as r - p = u - v, u, v >= 0."""
    from scipy.optimize import minimize

    n = len(p)

    def obj(z):
        r, u, v = z[:n], z[n : 2 * n], z[2 * n :]
        rr = np.maximum(r, 1e-300)
        return eps * 0.5 * (u + v).sum() + np.sum(rr * np.log(rr / q))

    cons = [
        {"type": "eq", "fun": lambda z: z[:n].sum() - 1.0},
        {"type": "eq", "fun": lambda z: z[:n] - p - z[n : 2 * n] + z[2 * n :]},
    ]
    best = np.inf
    for r0 in (p, q, 0.5 * (p + q)):
        z0 = np.concatenate([r0, np.maximum(r0 - p, 0), np.maximum(p - r0, 0)])
        res = minimize(obj, z0, method="SLSQP", bounds=[(1e-12, 1)] * n + [(0, 1)] * (2 * n), constraints=cons,
                       options={"ftol": 1e-14, "maxiter": 500})
        best = min(best, res.fun)
    return best


def test_general_vs_optimisation_and_bernoulli():
    rng = np.random.default_rng(4)
    for _ in range(15):
        n = int(rng.integers(2, 6))
        p, q = rng.dirichlet(np.ones(n)), rng.dirichlet(np.ones(n))
        eps = float(10 ** rng.uniform(-1, 0.7))
        val = d_epsilon_general(np.linspace(0, 1, n), p, q, eps)
        ref = _general_by_optimisation(p, q, eps)
        assert val <= ref + 1e-9
        assert val == pytest.approx(ref, rel=1e-5, abs=1e-8)
        assert val <= min(eps * 0.5 * np.abs(p - q).sum(), np.sum(p * np.log(p / q))) + 1e-12
    for x, y, e, v, _ in SHEET:
        assert d_epsilon_general([0, 1], [1 - x, x], [1 - y, y], e) == pytest.approx(v, rel=1e-10, abs=1e-15)



def test_general_matches_bernoulli_closed_form_at_extreme_eps():
    # two-point supports reduce to the Bernoulli d_eps (independent closed form); large eps used to break the
    # bisection on ln c in [-eps/2, eps/2] (d_eps_general(.., 1e300) returned ~2e299 instead of kl)
    rng = np.random.default_rng(11)
    for e in (1e-5, 1.0, 100.0, 1e5, 1e15, 1e300):
        for _ in range(40):
            x, y = rng.uniform(0.01, 0.99, size=2)
            v = d_epsilon_general([0, 1], [1 - x, x], [1 - y, y], e)
            assert v == pytest.approx(d_epsilon(x, y, e), rel=1e-6, abs=1e-14)
    # P with mass outside supp Q: the mass must move (TV 1/2), and R = Q is then free of KL cost
    assert d_epsilon_general([0, 0.5, 1], [0.2, 0.3, 0.5], [0.5, 0.5, 0.0], 1e300) == pytest.approx(5e299)

def test_validation():
    for bad in [(1.5, 0.5, 1.0), (0.5, -0.1, 1.0), (float("nan"), 0.5, 1.0), (0.3, 0.5, -1.0), (0.3, 0.5, 0.0),
                (0.3, 0.5, float("nan"))]:
        with pytest.raises(InputError):
            d_epsilon(*bad)
    with pytest.raises(InputError, match="epsilon"):
        d_epsilon(0.3, 0.5, -1.0)
    with pytest.raises(InputError):
        d_epsilon_general([0, 1], [0.5, 0.6], [0.5, 0.5], 1.0)


probs = st.floats(0.0, 1.0)
interior = st.floats(1e-6, 1 - 1e-6)
epss = st.floats(1e-4, 50.0)


@settings(max_examples=300, deadline=None)
@given(probs, probs, epss)
def test_sandwich(x, y, e):
    d = d_epsilon(x, y, e)
    assert 0.0 <= d
    assert d <= kl_bernoulli(x, y) * (1 + 1e-12) + 1e-15
    assert d <= e * abs(x - y) * (1 + 1e-12) + 1e-15
    if x == y:
        assert d == 0
    elif abs(x - y) > 1e-6:  # below that the true value may underflow
        assert d > 0


@settings(max_examples=200, deadline=None)
@given(probs, probs, epss, st.floats(1e-3, 10.0))
def test_nondecreasing_in_eps(x, y, e, de):
    assert d_epsilon(x, y, e + de) >= d_epsilon(x, y, e) * (1 - 1e-12) - 1e-15


@settings(max_examples=200, deadline=None)
@given(interior, interior)
def test_equals_kl_past_threshold(x, y):
    e0 = float(epsilon_threshold(x, y))
    kl = float(kl_bernoulli(x, y))
    for e in (e0 * (1 + 1e-9) + 1e-12, e0 + 1.0, 10 * e0 + 5):
        assert d_epsilon(x, y, e) == pytest.approx(kl, rel=1e-11, abs=1e-15)
    if e0 > 1e-3:
        assert d_epsilon(x, y, 0.5 * e0) < kl


@settings(max_examples=200, deadline=None)
@given(probs, probs)
def test_small_eps_limit_is_tv(x, y):
    e = 1e-7
    # d/e = |y - x| - (e/2) y(1 - y) + O(e^2)   (sheet §2.5)
    assert d_epsilon(x, y, e) / e == pytest.approx(abs(x - y), abs=1e-7)


def test_mp_views_keep_tiny_arguments():
    """kl and d_ε in mpmath at 50 digits keep a y (or ε) below the working precision: forming 1 − y first gave
    kl(0, 4e-54) = 0 and d_ε(0, 4e-54, 1) = 0 (found by a hypothesis test of the interval enclosures). Reference:
    kl(0, y) = −ln(1 − y) = y + y²/2 + …, d_ε(0, y, 1) = −ln(1 − y(1 − e^{−1})) (high-privacy branch of Eq. 8)."""
    import mpmath

    from boundcalc.info import d_epsilon_mp, kl_bernoulli_mp

    with mpmath.workdps(50):
        y = mpmath.mpf("3.781736185170064e-54")
        assert mpmath.almosteq(kl_bernoulli_mp(0, y), y + y**2 / 2, rel_eps=mpmath.mpf(10) ** -45)
        want = y * (1 - mpmath.exp(-1))  # first order; the next term is O(y^2)
        assert mpmath.almosteq(d_epsilon_mp(0, y, 1), want, rel_eps=mpmath.mpf(10) ** -45)
        # ε below the precision: d_ε(0.9, 0.2, ε) = ε (1 − 0.9)·… ≈ 0.7 ε − O(ε²) in the high-privacy branch
        e = mpmath.mpf("1e-60")
        assert mpmath.almosteq(d_epsilon_mp(mpmath.mpf("0.9"), mpmath.mpf("0.2"), e), (mpmath.mpf("0.9") - mpmath.mpf("0.2")) * e,
                               rel_eps=mpmath.mpf(10) ** -40)
