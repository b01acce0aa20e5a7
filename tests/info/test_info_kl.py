"""kl, TV, Gaussian KL, kl-UCB/LCB, KL-inf and the DP indexes (seed 001 §2, Eqs. 3, 12, 13; sheet §1, §5)."""

from __future__ import annotations

import math
import warnings

import mpmath

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boundcalc.errors import InputError
from boundcalc.info import (
    d_epsilon,
    d_epsilon_by_optimisation,
    dp_imed_index,
    dp_imed_index_mp,
    dp_klucb_index,
    dp_klucb_index_mp,
    kl_bernoulli,
    kl_bernoulli_mp,
    kl_bernoulli_sym,
    kl_gaussian,
    kl_inf_bernoulli,
    kl_inf_finite,
    kl_inf_finite_mp,
    kl_lcb,
    kl_lcb_mp,
    kl_ucb,
    kl_ucb_mp,
    tv_bernoulli,
)

# ---------------------------------------------------------------------------------------------- kl


def test_kl_boundary_conventions():
    assert kl_bernoulli(0.0, 0.0) == 0.0 and kl_bernoulli(1.0, 1.0) == 0.0
    assert kl_bernoulli(0.3, 0.0) == np.inf and kl_bernoulli(0.3, 1.0) == np.inf
    assert kl_bernoulli(1.0, 0.0) == np.inf and kl_bernoulli(0.0, 1.0) == np.inf
    assert kl_bernoulli(0.0, 0.4) == pytest.approx(-math.log(0.6), rel=1e-15)
    assert kl_bernoulli(1.0, 0.4) == pytest.approx(-math.log(0.4), rel=1e-15)
    assert kl_bernoulli(1e-300, 0.3) == pytest.approx(-math.log(0.7), rel=1e-12)
    assert kl_bernoulli(0.3, 0.5) == pytest.approx(0.3 * math.log(0.6) + 0.7 * math.log(1.4), rel=1e-14)
    assert tv_bernoulli(0.2, 0.7) == pytest.approx(0.5)


def test_kl_float_vs_mpmath_50():
    rng = np.random.default_rng(10)
    x = np.concatenate([rng.uniform(size=200), rng.uniform(size=50) ** 8])
    y = np.concatenate([rng.uniform(size=200), x[200:] * (1 + rng.uniform(-1e-3, 1e-3, size=50))])
    y = np.clip(y, 0, 1)
    f = kl_bernoulli(x, y)
    with mpmath.workdps(50):
        ref = np.array([float(kl_bernoulli_mp(a, b)) for a, b in zip(x, y)])
    # relative accuracy; near-equal pairs lose about eps/|x - y|
    tol = 1e-12 + 1e-15 / np.maximum(np.abs(x - y) / np.maximum(y, 1e-300), 1e-300)
    assert np.all(np.abs(f - ref) <= tol * ref + 1e-300)


def test_kl_sympy_matches_numeric():
    import sympy

    x, y = sympy.symbols("x y", positive=True)
    e = kl_bernoulli_sym(x, y)
    assert float(e.subs({x: sympy.Rational(3, 10), y: sympy.Rational(1, 2)})) == pytest.approx(kl_bernoulli(0.3, 0.5))


def test_gaussian_kl():
    # equal variances: (mu1 - mu2)^2 / (2 sigma^2); general: by numerical integration
    assert kl_gaussian(0.3, 0.5, 2.0) == pytest.approx(0.04 / 8, rel=1e-14)
    from scipy.integrate import quad
    from scipy.stats import norm

    m1, m2, s1, s2 = 0.2, -0.4, 0.7, 1.3
    ref = quad(lambda u: norm.pdf(u, m1, s1) * (norm.logpdf(u, m1, s1) - norm.logpdf(u, m2, s2)), -15, 15)[0]
    assert kl_gaussian(m1, m2, s1, s2) == pytest.approx(ref, rel=1e-9)
    with pytest.raises(InputError):
        kl_gaussian(0, 1, -1.0)
    # ratio s1/s2 underflows: ln(s2/s1) + (s1²/s2² − 1)/2 = 600 ln 10 − 1/2, no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert kl_gaussian(0.0, 0.0, 1e-300, 1e300) == pytest.approx(600 * np.log(10) - 0.5, rel=1e-14)



def test_kl_ucb_lcb_extreme_inputs_give_no_warning():
    # subnormal x or huge levels make the Newton slope underflow. The true roots lie beyond double range:
    # kl(x, q) >= x ln(x/q) - x forces q <= x e^{1 - level/x} (< 1e-308 here) for the LCB, and
    # kl(x, q) >= (1-x) ln((1-x)/(1-q)) - (1-x) forces 1 - q <= (1-x) e^{1 - level/(1-x)} for the UCB.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for x, level in [(1e-320, 1.0), (1e-17, 1e300), (1e-200, 1e300)]:
            assert x * math.exp(1 - level / x) == 0.0 and kl_lcb(x, level) == 0.0
        x = 1 - 1e-10
        assert kl_ucb(x, 1e300) == 1.0

def test_validation_rejects_nan_and_range():
    for f, args in [(kl_bernoulli, (1.5, 0.5)), (kl_bernoulli, (np.nan, 0.5)), (kl_ucb, (0.3, -1.0)),
                    (kl_ucb, (0.3, np.nan)), (kl_lcb, (-0.1, 1.0)), (kl_inf_bernoulli, (0.3, 1.2)),
                    (dp_klucb_index, (0.3, 0, 10, 1.0)), (dp_klucb_index, (0.3, 5, 10, -1.0)),
                    (dp_klucb_index, (np.nan, 5, 10, 1.0)), (dp_klucb_index, (0.3, 5, 0.5, 1.0))]:
        with pytest.raises(InputError):
            f(*args)
    with pytest.raises(InputError, match="x must be in"):
        kl_bernoulli([0.2, np.nan], 0.5)
    with pytest.raises(InputError):
        kl_bernoulli_mp("0.5", "1.5")


# ------------------------------------------------------------------------------------- kl-UCB / LCB


def test_kl_ucb_edges():
    assert kl_ucb(0.3, 0.0) == 0.3 and kl_lcb(0.3, 0.0) == 0.3
    assert kl_ucb(1.0, 2.0) == 1.0 and kl_lcb(0.0, 2.0) == 0.0
    assert kl_ucb(0.3, np.inf) == 1.0 and kl_lcb(0.3, np.inf) == 0.0
    assert kl_ucb(0.0, 0.5) == pytest.approx(1 - math.exp(-0.5), rel=1e-15)
    assert kl_lcb(1.0, 0.5) == pytest.approx(math.exp(-0.5), rel=1e-15)


def test_kl_ucb_vs_mpmath_50():
    rng = np.random.default_rng(11)
    x = np.concatenate([rng.uniform(size=60), rng.uniform(size=20) ** 10, 1 - rng.uniform(size=20) ** 10])
    lev = 10 ** rng.uniform(-12, 1.5, size=x.size)
    u, l = kl_ucb(x, lev), kl_lcb(x, lev)
    with mpmath.workdps(50):
        for xi, li, ui, lo in zip(x, lev, u, l):
            r = kl_ucb_mp(xi, li)  # one 50-digit root per point, for both checks below
            assert abs(ui - float(r)) < 1e-12
            assert abs(lo - float(kl_lcb_mp(xi, li))) < 1e-12
            # the 50-digit root really solves kl = level (independent check of the mp bisection)
            if 1 - r > mpmath.mpf(10) ** -40:  # conditioning: d kl / dq = (q - x)/(q(1 - q))
                assert abs(kl_bernoulli_mp(xi, r) - li) < mpmath.mpf(10) ** -45 * (1 + li) / (1 - r)


@settings(max_examples=300, deadline=None)
@given(st.floats(0.0, 1.0), st.floats(1e-8, 20.0))
def test_kl_ucb_inverts_kl(x, level):
    q = float(kl_ucb(x, level))
    assert x <= q <= 1
    if q < 1 - 1e-9:
        assert kl_bernoulli(x, q) == pytest.approx(level, rel=1e-8, abs=1e-14)
        # maximality: slightly above q violates the constraint
        assert kl_bernoulli(x, min(1.0, q + 1e-6)) > level
    qq = float(kl_lcb(x, level))
    assert 0 <= qq <= x
    if qq > 1e-9:
        assert kl_bernoulli(x, qq) == pytest.approx(level, rel=1e-8, abs=1e-14)


# ------------------------------------------------------------------------------------------- KL-inf


def _kl_inf_primal(x, w, ms):
    """Independent: min KL(P, Q) over Q on support ∪ {1} with mean(Q) >= mu* (SLSQP, several starts)."""
    from scipy.optimize import minimize

    pts = np.append(x, 1.0)
    p = np.append(w, 0.0)
    pos = p > 0

    def obj(qv):
        qv = np.maximum(qv, 1e-300)
        return float(np.sum(p[pos] * np.log(p[pos] / qv[pos])))

    cons = [{"type": "eq", "fun": lambda qv: qv.sum() - 1.0}, {"type": "ineq", "fun": lambda qv: qv @ pts - ms}]
    best = np.inf
    for mix in (0.3, 0.6, 0.9):
        q0 = (1 - mix) * p + mix * np.eye(len(pts))[-1]
        res = minimize(obj, q0, method="SLSQP", bounds=[(1e-15, 1)] * len(pts), constraints=cons,
                       options={"ftol": 1e-15, "maxiter": 1000})
        if res.success and abs(res.x.sum() - 1) < 1e-8 and res.x @ pts >= ms - 1e-8:
            best = min(best, res.fun)
    return best


def test_kl_inf_dual_vs_primal_random():
    rng = np.random.default_rng(12)
    checked = 0
    for k in range(25):
        n = int(rng.integers(2, 6))
        x = np.sort(rng.uniform(size=n))
        if k % 3 == 0:
            x[-1] = 1.0  # atom at 1: interior dual maximiser
        w = rng.dirichlet(np.ones(n))
        mean = float(w @ x)
        ms = float(rng.uniform(mean, min(1.0, mean + 0.4)))
        if ms >= 0.999:
            continue
        val = kl_inf_finite(x, w, ms)
        ref = _kl_inf_primal(x, w, ms)
        assert val == pytest.approx(ref, rel=1e-6, abs=1e-9)
        checked += 1
    assert checked >= 15


def test_kl_inf_boundary_and_bernoulli():
    # boundary maximiser lam = 1/(1 - mu*) (no atom at 1, derivative still >= 0 there)
    val, lam = kl_inf_finite([0.0, 0.5], [0.2, 0.8], 0.6, return_lambda=True)
    assert lam == pytest.approx(1 / 0.4)
    assert val == pytest.approx(_kl_inf_primal(np.array([0.0, 0.5]), np.array([0.2, 0.8]), 0.6), rel=1e-6)
    # Bernoulli on {0,1}: dual = kl(mu, mu*)
    for mu, ms in [(0.3, 0.6), (0.05, 0.9), (0.7, 0.75)]:
        assert kl_inf_finite([0, 1], [1 - mu, mu], ms) == pytest.approx(kl_bernoulli(mu, ms), rel=1e-10)
        assert kl_inf_bernoulli(mu, ms) == kl_bernoulli(mu, ms)
    assert kl_inf_bernoulli(0.7, 0.6) == 0.0 and kl_inf_bernoulli(0.3, 1.0) == np.inf
    assert kl_inf_finite([0, 0.5, 1], [0.2, 0.5, 0.3], 0.5) == 0.0  # mean 0.55 >= mu*
    assert kl_inf_finite([0, 0.5], [0.5, 0.5], 1.0) == np.inf
    assert kl_inf_finite([1.0], [1.0], 1.0) == 0.0
    with pytest.raises(InputError):
        kl_inf_finite([0, 0.5], [0.5, 0.6], 0.7)
    with pytest.raises(InputError):
        kl_inf_finite([0, 1.5], [0.5, 0.5], 0.7)


def test_kl_inf_float_vs_mpmath_50():
    rng = np.random.default_rng(13)
    for _ in range(8):
        n = int(rng.integers(2, 5))
        x = rng.uniform(size=n)
        w = rng.dirichlet(np.ones(n))
        ms = float(min(0.99, w @ x + 0.2))
        with mpmath.workdps(50):
            ref = kl_inf_finite_mp(list(x), list(w), ms)
        assert kl_inf_finite(x, w, ms) == pytest.approx(float(ref), rel=1e-10, abs=1e-15)


# ---------------------------------------------------------------------------------- DP indexes (§5)

KLUCB_SHEET = [
    (0.3, 100, 1000, 0.5, 0.500015),
    (0.3, 10, 1000, 0.5, 1.0),
    (0.7, 1000, 1e6, 1.0, 0.772043),
    (0.7, 1000, 1e6, 0.1, 0.844860),
    (0.0, 50, 500, 0.2, 0.644777),
]


@pytest.mark.parametrize("x,N,t,eps,U", KLUCB_SHEET)
def test_dp_klucb_sheet_vectors(x, N, t, eps, U):
    assert dp_klucb_index(x, N, t, eps) == pytest.approx(U, abs=6e-7)
    with mpmath.workdps(50):
        assert float(dp_klucb_index_mp(x, N, t, eps)) == pytest.approx(U, abs=6e-7)


def test_dp_klucb_clips_private_mean():
    assert dp_klucb_index(-0.2, 50, 500, 0.2) == dp_klucb_index(0.0, 50, 500, 0.2)
    assert dp_klucb_index(1.3, 50, 500, 0.2) == 1.0


def test_dp_klucb_by_bisection_on_optimisation_definition():
    """Independent: bisection on q of N * d_eps_by_optimisation(x, q) - ln t (definition Eq. 6 + Eq. 12)."""
    for x, N, t, eps in [(0.3, 100, 1000, 0.5), (0.7, 1000, 1e6, 1.0), (0.2, 30, 200, 2.0)]:
        lo, hi = x, 1.0
        for _ in range(45):
            mid = 0.5 * (lo + hi)
            if N * d_epsilon_by_optimisation(x, mid, eps) <= math.log(t):
                lo = mid
            else:
                hi = mid
        assert dp_klucb_index(x, N, t, eps) == pytest.approx(lo, abs=1e-9)


@settings(max_examples=300, deadline=None)
@given(st.floats(-0.5, 1.5), st.floats(1.0, 1e5), st.floats(1.0, 1e8), st.floats(1e-3, 20.0))
def test_dp_klucb_inverts(x, N, t, eps):
    U = float(dp_klucb_index(x, N, t, eps))
    xc = min(max(x, 0.0), 1.0)
    L = math.log(t)
    assert xc <= U <= 1
    if U < 1 - 1e-9 and L > 1e-12:
        assert N * d_epsilon(xc, U, eps) == pytest.approx(L, rel=1e-7, abs=1e-10)
        assert N * d_epsilon(xc, min(1.0, U + 1e-6), eps) > L
    else:
        assert N * d_epsilon(xc, U, eps) <= L * (1 + 1e-9) + 1e-12


def test_dp_imed_sheet_vector():
    I = dp_imed_index([0.74, 0.6, 0.3], [50, 20, 8], 0.5)
    assert I == pytest.approx([3.91202, 3.87845, 3.63253], abs=6e-6)
    assert int(np.argmin(I)) == 2
    with mpmath.workdps(50):
        Imp = dp_imed_index_mp([0.74, 0.6, 0.3], [50, 20, 8], 0.5)
    assert [float(v) for v in Imp] == pytest.approx(list(I), rel=1e-13)
    # leader has I = ln N; clipping of private means; eps = inf is IMED with kl
    I2 = dp_imed_index([1.4, 0.2], [4, 9], np.inf)
    assert I2[0] == pytest.approx(math.log(4)) and I2[1] == np.inf
    I3 = dp_imed_index([[0.5, 0.4], [0.1, 0.3]], [[10, 10], [10, 10]], 1.0)
    assert I3.shape == (2, 2) and I3[1, 1] == pytest.approx(math.log(10))


def test_numpy_special_functions_match_scipy_and_mpmath():
    import mpmath
    from scipy import special

    from boundcalc.info._special import expit, xlogy

    z = np.concatenate([np.linspace(-800, 800, 2001), [-1e300, -745.2, 0.0, 1e-300, 745.2, 1e300]])
    np.testing.assert_allclose(expit(z), special.expit(z), rtol=4e-16, atol=1e-300)  # scipy flushes subnormals
    for zi in (-700.0, -30.0, -1e-3, 0.5, 40.0):
        assert abs(float(expit(zi)) - float(1 / (1 + mpmath.exp(-mpmath.mpf(zi))))) <= 4e-16 * float(expit(zi))
    x = np.array([0.0, 0.0, 0.0, 1e-300, 0.3, 1.0, 2.0])
    y = np.array([0.0, 1.0, 0.5, 0.0, 0.7, 1e-300, 3.0])
    np.testing.assert_array_equal(xlogy(x, y), special.xlogy(x, y))


def test_kl_lcb_mp_huge_levels_against_the_closed_form_at_one_half():
    """kl(1/2, q) = −½ ln(4q(1 − q)), so the kl-LCB at x = 1/2 is q = e^{−2L} / (2(1 + √(1 − e^{−2L}))). The mpmath
    index at huge levels (Newton on ln q, then bisection) matches it to the working precision; level 1e308 used to
    take 87 s by bisection alone."""
    import mpmath

    from boundcalc.info import kl_lcb_mp

    with mpmath.workdps(30):
        for L in ("1e3", "1e7", "1e308"):
            lv = mpmath.mpf(L)
            with mpmath.workdps(60):
                e = mpmath.exp(-2 * lv)
                want = e / (2 * (1 + mpmath.sqrt(1 - e)))
            got = kl_lcb_mp(mpmath.mpf("0.5"), lv)
            assert mpmath.almosteq(got, want, rel_eps=mpmath.mpf(10) ** -25), (L, got, want)


def test_expit_pair_is_two_expits_exactly():
    """The kl-UCB/LCB Newton loops take (expit(θ), expit(−θ)) from one exponential (kl._expit_pair): the same
    doubles as two calls of _special.expit (so the indexes, and the simulations on them, do not move by an ulp).
    Mutant: expit(−θ) as 1 − expit(θ), equal in exact arithmetic only."""
    import inspect
    import textwrap

    from boundcalc.info import kl as klmod
    from boundcalc.info._special import expit

    th = np.concatenate([[0.0, -0.0, np.inf, -np.inf, 1e-300, -1e-300, 36.7, -36.7, 745.0, -745.0, 800.0],
                         np.random.default_rng(4).normal(0, 30, 5000)])

    def same(fn):
        a, b = fn(th)
        return np.array_equal(a, expit(th)) and np.array_equal(b, expit(-th))

    assert same(klmod._expit_pair)
    src = textwrap.dedent(inspect.getsource(klmod._expit_pair))
    old = "np.where(-th >= 0, a, b)"
    assert src.count(old) == 1
    ns = dict(klmod._expit_pair.__globals__)
    exec(compile(src.replace(old, "1.0 - np.where(th >= 0, a, b)"), "mutant", "exec"), ns)  # noqa: S102
    assert not same(ns["_expit_pair"])
