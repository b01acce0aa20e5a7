"""Interval arithmetic and enclosures of boundcalc.rigorous against independent 50-digit values.

Containment: every enclosure must contain the value at every point of its box, computed independently
(mpmath at 50 digits; d_eps from its definition, seed 001 Eq. 6, by golden-section minimisation; exact
rationals for + - x /). Mutants (an add without outward rounding, a shrunken d_eps enclosure, a d_eps
enclosure taking the wrong corner) must be caught by the same containment checks.
"""

from __future__ import annotations

import random
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boundcalc.info import kl_bernoulli_mp
from boundcalc.intervals import enclosures as en
from boundcalc.intervals import interval as ivm
from boundcalc.rigorous.claims import d_eps_definition_mp
from boundcalc.intervals.interval import Interval

BACKENDS = ivm.available_backends()


@pytest.fixture(params=BACKENDS)
def backend(request):
    with ivm.using_backend(request.param):
        yield request.param


def _contains(iv: Interval, v) -> bool:
    return mpmath.mpf(iv.lo) <= v <= mpmath.mpf(iv.hi)


# ----------------------------------------------------------------------------------------------------
# arithmetic
# ----------------------------------------------------------------------------------------------------
def _arith_failures(rng, n=400):
    bad = 0
    for _ in range(n):
        a, b = sorted(rng.uniform(-10, 10) for _ in range(2))
        c, d = sorted(rng.uniform(0.1, 10) for _ in range(2))
        A, C = Interval(a, b), Interval(c, d)
        xa, xc = Fraction(rng.choice([a, b])), Fraction(rng.choice([c, d]))
        for iv, exact in ((A + C, xa + xc), (A - C, xa - xc), (A * C, xa * xc), (A / C, xa / xc)):
            if not (Fraction(iv.lo) <= exact <= Fraction(iv.hi)):
                bad += 1
    # a classic rounding case: 0.1 + 0.2 rounds up in floating point
    s = Interval(0.1) + Interval(0.2)
    if not (Fraction(s.lo) <= Fraction(0.1) + Fraction(0.2) <= Fraction(s.hi)):
        bad += 1
    return bad


def test_basic_arithmetic_contains_exact_rational_results():
    assert _arith_failures(random.Random(1)) == 0


def test_mutant_add_without_outward_rounding_is_caught(monkeypatch):
    monkeypatch.setattr(ivm, "_add_lo", lambda a, b: a + b)
    monkeypatch.setattr(ivm, "_add_hi", lambda a, b: a + b)
    assert _arith_failures(random.Random(1)) > 0


@settings(max_examples=60, deadline=None)
@given(st.floats(1e-12, 1e6), st.floats(1e-12, 1e6), st.floats(0, 1))
def test_elementary_functions_contain_50_digit_values(a, b, t):
    lo, hi = min(a, b), max(a, b)
    x = lo + t * (hi - lo)
    X = Interval(lo, hi)
    with mpmath.workdps(50):
        xm = mpmath.mpf(x)
        for name, f in (("log", mpmath.log), ("sqrt", mpmath.sqrt)):
            assert _contains(getattr(ivm, name)(X), f(xm)), name
        small = Interval(min(lo, 50.0), min(hi, 50.0))
        xs = mpmath.mpf(min(x, 50.0))
        assert _contains(ivm.exp(small), mpmath.exp(xs))
        assert _contains(ivm.expm1(-small), mpmath.expm1(-xs))
        assert _contains(ivm.log1p(X), mpmath.log1p(xm))


def test_both_backends_agree_on_a_point(backend):
    r = ivm.log(Interval(0.3))
    with mpmath.workdps(50):
        assert _contains(r, mpmath.log(mpmath.mpf(0.3)))
    assert r.width < 1e-15 and ivm.backend_name() == backend


# ----------------------------------------------------------------------------------------------------
# enclosures of the quantities: containment over random boxes and points
# ----------------------------------------------------------------------------------------------------
def _box(u):
    x = sorted(u[0:2])
    y = sorted(u[2:4])
    e = sorted(10 ** (4 * v - 3) for v in u[4:6])  # eps in [1e-3, 10], log-uniform
    return Interval(*x), Interval(*y), Interval(*e)


def _points(rng, X, Y, E, k):
    for _ in range(k):
        yield (mpmath.mpf(rng.uniform(X.lo, X.hi)), mpmath.mpf(rng.uniform(Y.lo, Y.hi)),
               mpmath.mpf(rng.uniform(E.lo, E.hi)))


def _enclosure_failures(d_eps_range, seed, n_boxes=25, k=3):
    """Count points where an enclosure misses the 50-digit value (kl, TV, d_eps and the identity margins)."""
    rng = random.Random(seed)
    bad = 0
    for _ in range(n_boxes):
        X, Y, E = _box([rng.random() for _ in range(6)])
        K, TV, D = en.kl_range(X, Y), en.tv_range(X, Y), d_eps_range(X, Y, E)
        M1, M2 = en.margin_kl_minus_d_eps(X, Y, E), en.margin_eps_tv_minus_d_eps(X, Y, E)
        with mpmath.workdps(50):
            for x, y, e in _points(rng, X, Y, E, k):
                kl, d = kl_bernoulli_mp(x, y), d_eps_definition_mp(x, y, e)
                for iv, v in ((K, kl), (TV, abs(x - y)), (D, d), (M1, kl - d), (M2, e * abs(x - y) - d)):
                    bad += not _contains(iv, v)
    return bad


@pytest.mark.parametrize("seed", [0, 1])
def test_enclosures_contain_independent_50_digit_values(backend, seed):
    assert _enclosure_failures(en.d_eps_range, seed) == 0


def _shrunk(d_eps_range):
    def f(X, Y, E):
        r = d_eps_range(X, Y, E)
        w = 0.2 * r.width
        return Interval(r.lo + w, r.hi - w) if w > 0 else r
    return f


def _wrong_corner(X, Y, E):
    """Mutant: the maximum taken at eps_lo (d_eps increases with eps, so this misses the top)."""
    return en.d_eps_range(X, Y, Interval(E.lo))


@pytest.mark.parametrize("mutant", [_shrunk(en.d_eps_range), _wrong_corner], ids=["shrunk", "wrong-corner"])
def test_mutant_enclosures_are_caught_by_containment(mutant):
    assert _enclosure_failures(mutant, 0) > 0


@settings(max_examples=30, deadline=None)
@given(st.floats(0.0, 1.0), st.floats(0.0, 1.0), st.floats(1e-3, 10.0))
def test_point_enclosures_at_edges_and_inside(x, y, e):
    with mpmath.workdps(50):
        xm, ym, em = mpmath.mpf(x), mpmath.mpf(y), mpmath.mpf(e)
        kl = kl_bernoulli_mp(xm, ym)
        k = en.kl_point(x, y)
        assert (k.lo == k.hi == float("inf")) if mpmath.isinf(kl) else _contains(k, kl)
        assert _contains(en.d_eps_point(x, y, e), d_eps_definition_mp(xm, ym, em))


def test_d_eps_point_exact_edges():
    # d_eps(x, 1) = eps (1 - x), d_eps(x, 0) = eps x (seed 001 Eq. 6: kl(z, y) = inf off z = y)
    for x, y, e in ((0.3, 1.0, 2.0), (0.7, 0.0, 0.5), (0.0, 1.0, 3.0)):
        want = e * abs(x - y)
        assert en.d_eps_point(x, y, e).contains(want)
        assert en.d_eps_point(x, y, e).width < 1e-14


def test_gap_ratio_ranges_contain_values():
    rng = random.Random(5)
    for _ in range(15):
        xs = sorted(rng.uniform(0.01, 0.45) for _ in range(2))
        ys = sorted(rng.uniform(0.5, 0.99) for _ in range(2))
        es = sorted(rng.uniform(0.01, 10) for _ in range(2))
        X, Y, E = Interval(*xs), Interval(*ys), Interval(*es)
        R1, R2 = en.gap_over_kl_range(X, Y), en.gap_over_d_eps_range(X, Y, E)
        with mpmath.workdps(50):
            for x, y, e in _points(rng, X, Y, E, 3):
                assert _contains(R1, (y - x) / kl_bernoulli_mp(x, y))
                assert _contains(R2, (y - x) / d_eps_definition_mp(x, y, e))


# ----------------------------------------------------------------------------------------------------
# the identities behind the tight margins, at 50 digits and in sympy
# ----------------------------------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(st.floats(0.001, 0.999), st.floats(0.001, 0.999), st.floats(1e-3, 10.0))
def test_margin_identities_at_50_digits(x, y, e):
    with mpmath.workdps(50):
        xm, ym, em = mpmath.mpf(x), mpmath.mpf(y), mpmath.mpf(e)
        d = d_eps_definition_mp(xm, ym, em)
        kl = kl_bernoulli_mp(xm, ym)
        # kl - d_eps = kl(x, z*), z* the minimiser of Eq. 6 (Eq. 30)
        if xm <= ym:
            zs = max(xm, ym / (ym + (1 - ym) * mpmath.exp(em)))
            yt = ym
        else:
            zs = min(xm, ym * mpmath.exp(em) / (1 - ym + ym * mpmath.exp(em)))
            yt = 1 - ym
        assert abs((kl - d) - kl_bernoulli_mp(xm, zs)) < mpmath.mpf(10) ** -30
        # eps |x - y| - d_eps = (eps - lam*) |x - y| + psi(y~, lam*)
        e0 = abs(mpmath.log(ym / (1 - ym)) - mpmath.log(xm / (1 - xm)))
        lam = min(em, e0)
        psi = lam * yt + mpmath.log(1 - yt + yt * mpmath.exp(-lam))
        assert abs((em * abs(xm - ym) - d) - ((em - lam) * abs(xm - ym) + psi)) < mpmath.mpf(10) ** -30


def test_identities_in_sympy():
    """kl(x,y) - H = kl(x, sigma(logit y - eps)) (H the high-privacy branch, Eq. 31), symbolically."""
    import sympy as sp

    p, q, e = sp.symbols("p q epsilon", positive=True)
    x, y = p / (1 + p), q / (1 + q)
    z = y / (y + (1 - y) * sp.exp(e))

    def kl(a, b):
        return a * sp.log(a / b) + (1 - a) * sp.log((1 - a) / (1 - b))

    H = -e * x - sp.log(1 - y + y * sp.exp(-e))
    expr = sp.expand_log(sp.simplify(kl(x, y) - H - kl(x, z)), force=True)
    assert sp.simplify(expr) == 0


@settings(max_examples=40, deadline=None)
@given(st.floats(3.0, 9.0), st.floats(0.0, 2.0), st.floats(0.0, 10.0), st.floats(0.0, 10.0),
       st.sampled_from([(2, 5), (3, 10), (5, 50)]))
def test_r_phases_enclosure_contains_interior_points(logT, width, r1, r2, dk):
    """000 Thm 8 explicit (rdp sheet §3.2): the box enclosure of R_phases, built on monotonicity in T and r, contains
    the scalar reference at interior points (a wrong monotonicity claim would miss some)."""
    import numpy as np

    from boundcalc.bounds.linear import _phase_min_reference
    from boundcalc.intervals.interval import Interval
    from boundcalc.bounds.quantities_linear import r_phases_interval as _r_phases

    d, K = dk
    T0, T1 = 10**logT, 10 ** (logT + width)
    r0, r1 = sorted((r1, r2))
    enc = _r_phases(Interval(T0, T1), Interval(d), Interval(K), Interval(r0, r1))
    rng = np.random.default_rng(int(logT * 1000 + r1 * 7))
    for t, r in zip(np.exp(rng.uniform(np.log(T0), np.log(T1), 6)), rng.uniform(r0, r1, 6)):
        v = _phase_min_reference(t, d, K, r)
        assert enc.lo <= v * (1 + 1e-12) and v <= enc.hi * (1 + 1e-12), (t, r, v, enc)
