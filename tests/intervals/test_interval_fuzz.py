"""The interval arithmetic of boundcalc.intervals.interval against mpmath at 320 bits over the whole float range
(issue 17 §1: an underflowed product was taken as exact, and mpmath's iv exp returned [1, 1] for exp(1.31e-43)).

Every operation (+ − × ÷, reciprocal, integer and real powers, sqrt, exp, expm1, log, log1p, abs, min, max,
floor, ceil, constants, point_eval) is run on random operands — log-uniform magnitudes from 1e-320 to 1e308
(subnormals included), both signs, zeros, the extreme floats, infinite endpoints where meaningful, point
intervals, narrow and wide ones — on both backends ("flint", "mpmath-iv"). The reference is computed
independently: mpmath at 320 bits from the exact float endpoints (a float is exact in mpmath), at the endpoints
of the operands and, for products and quotients, at every combination of endpoints. Since the enclosure's ends
are floats and rounding to nearest is monotone, a 320-bit reference of a contained value stays contained.

Mutants (each must be caught by the same checks): the old product rounding (no outward step when a product
rounds to 0), the old mpmath backend (mpmath's iv exp/log as they are), the mpmath backend without its Taylor
enclosures (widening only: sound but useless for tiny arguments; caught by the tightness check), float
conversions of the ball ends without the exact-comparison correction. The five commands of the issue, through the
CLI on both backends: tests/verify/test_check_arithmetic.py.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boundcalc.intervals import interval as ivm
from boundcalc.intervals.interval import Interval

INF = math.inf
MAX = 1.7976931348623157e308
TINY = 5e-324
MIN_NORMAL = 2.2250738585072014e-308
REF_BITS = 320
SPECIALS = [0.0, -0.0, TINY, -TINY, 3 * TINY, MIN_NORMAL, -MIN_NORMAL, math.nextafter(MIN_NORMAL, 0), MAX, -MAX,
            1.0, -1.0, 2.0, 0.5, -0.5, math.nextafter(1.0, 2), math.nextafter(1.0, 0), 1e-200, 1e200, 0.1, 3.0]


def _backends():
    out = []
    for name in ("flint", "mpmath-iv"):
        marks = () if name in ivm.available_backends() else (pytest.mark.skip(reason="python-flint missing"),)
        out.append(pytest.param(name, marks=marks))
    return out


@pytest.fixture(params=_backends())
def backend(request):
    with ivm.using_backend(request.param):
        yield request.param


# ----------------------------------------------------------------------------------------------------
# random operands (numpy Generator, seeded)
# ----------------------------------------------------------------------------------------------------
def rand_float(rng, lo_exp=-320.0, hi_exp=308.0, signed=True) -> float:
    if rng.random() < 0.08:  # an extreme or exact float within the range asked for
        cands = [x for x in SPECIALS if abs(x) <= 1.8 * 10.0 ** hi_exp]
        x = cands[rng.integers(len(cands))]
        return x if signed else abs(x)
    x = math.pow(10.0, rng.uniform(lo_exp, hi_exp)) * rng.uniform(1.0, 1.8)
    if math.isinf(x):
        x = MAX
    return -x if signed and rng.random() < 0.5 else x


def rand_interval(rng, allow_inf=True, **kw) -> Interval:
    k = rng.random()
    x = rand_float(rng, **kw)
    if k < 0.35:
        return Interval(x)
    if k < 0.5:  # narrow: a few ulps or a relative 1e-9
        y = x
        for _ in range(int(rng.integers(1, 4))):
            y = math.nextafter(y, INF)
        if rng.random() < 0.5 and math.isfinite(x * (1 + 1e-9)):
            y = max(y, x * (1 + 1e-9), x * (1 - 1e-9))
        return Interval(*sorted((x, y))) if math.isfinite(y) else Interval(x)
    if k < 0.92 or not allow_inf:
        return Interval(*sorted((x, rand_float(rng, **kw))))
    r = rng.random()
    if r < 0.4:
        return Interval(x, INF)
    if r < 0.8:
        return Interval(-INF, x)
    return Interval.entire()


def points(iv: Interval) -> list[float]:
    """Finite points of the interval: its finite ends, ±MAX for infinite ones, and 0 when inside."""
    pts = {iv.lo if math.isfinite(iv.lo) else -MAX, iv.hi if math.isfinite(iv.hi) else MAX}
    if iv.lo < 0 < iv.hi:
        pts.add(0.0)
    return sorted(p for p in pts if iv.lo <= p <= iv.hi)


def inside(iv: Interval, v) -> bool:
    if mpmath.isnan(v):
        return False
    return mpmath.mpf(iv.lo) <= v <= mpmath.mpf(iv.hi)


def M(x: float):
    return mpmath.mpf(x)  # exact: a double has 53 bits


# ----------------------------------------------------------------------------------------------------
# the sweeps (each returns the list of violations)
# ----------------------------------------------------------------------------------------------------
def arithmetic_violations(seed: int, n: int) -> list:
    rng = np.random.default_rng(seed)
    bad = []
    with mpmath.workprec(REF_BITS):
        for _ in range(n):
            A, C = rand_interval(rng), rand_interval(rng)
            ops = {"+": A + C, "-": A - C, "*": A * C, "neg": -A}
            nonzero_c = [c for c in points(C) if c != 0.0]
            if C.lo > 0 or C.hi < 0 or nonzero_c:
                ops["/"] = A / C
                ops["recip"] = C.reciprocal()
            for a in points(A):
                for c in points(C):
                    ma, mc = M(a), M(c)
                    ref = {"+": ma + mc, "-": ma - mc, "*": ma * mc, "neg": -ma}
                    if c != 0.0:
                        ref["/"] = ma / mc
                        ref["recip"] = 1 / mc
                    for op, v in ref.items():
                        if op in ops and not inside(ops[op], v):
                            bad.append((op, A, C, a, c, ops[op]))
    return bad


def function_violations(seed: int, n: int) -> list:
    """exp, expm1, log, log1p, sqrt at random intervals: f at both ends inside f(interval)."""
    rng = np.random.default_rng(seed)
    bad = []
    fns = {
        "exp": (ivm.exp, mpmath.exp, lambda x: True),
        "expm1": (ivm.expm1, mpmath.expm1, lambda x: True),
        "log": (ivm.log, mpmath.log, lambda x: x > 0),
        "log1p": (ivm.log1p, mpmath.log1p, lambda x: x > -1),
        "sqrt": (ivm.sqrt, mpmath.sqrt, lambda x: x >= 0),
    }
    with mpmath.workprec(REF_BITS):
        for i in range(n):
            r = rng.random()
            # exp / expm1: arguments where the result is interesting (|x| <= 800) most of the time
            if r < 0.3:
                A = rand_interval(rng, allow_inf=False, lo_exp=-320, hi_exp=2.9)
            elif r < 0.45:  # log / log1p near their delicate points: 1 + tiny and tiny
                d = rand_float(rng, lo_exp=-320, hi_exp=-2)
                A = Interval(*sorted((1.0 + d, math.nextafter(1.0 + d, INF))))
                if rng.random() < 0.5:
                    A = Interval(d)
            else:
                A = rand_interval(rng)
            for name, (f, ref, dom) in fns.items():
                if A.hi < 0 and name in ("log", "sqrt") or A.hi < -1 and name == "log1p":
                    continue
                try:
                    out = f(A)
                except ivm.DomainError:
                    bad.append((name, A, "DomainError"))
                    continue
                for x in (A.lo, A.hi):
                    if math.isfinite(x) and dom(x):
                        v = ref(M(x))
                        if not inside(out, v):
                            bad.append((name, A, x, out, mpmath.nstr(v, 20)))
    return bad


def power_violations(seed: int, n: int) -> list:
    rng = np.random.default_rng(seed)
    bad = []
    with mpmath.workprec(REF_BITS):
        for _ in range(n):
            A = rand_interval(rng, allow_inf=False, lo_exp=-60, hi_exp=60)
            k = int(rng.choice([rng.integers(-70, 71), rng.integers(64, 5000), -int(rng.integers(64, 5000))]))
            out = A ** k
            for x in points(A) + [0.0] * (A.lo <= 0 <= A.hi):
                if x == 0.0 and k < 0:
                    continue
                v = M(x) ** k
                if not inside(out, v):
                    bad.append(("pow_int", A, k, x, out))
            # real powers of positive bases (monotone in each argument: corners)
            B = Interval(*sorted((abs(rand_float(rng, lo_exp=-30, hi_exp=30)),
                                  abs(rand_float(rng, lo_exp=-30, hi_exp=30)))))
            if B.lo == 0.0:
                continue
            P = rand_interval(rng, allow_inf=False, lo_exp=-5, hi_exp=2.5)
            out = ivm.pow_real(B, P)
            for b in (B.lo, B.hi):
                for p in (P.lo, P.hi):
                    v = M(b) ** M(p)
                    if not inside(out, v):
                        bad.append(("pow_real", B, P, b, p, out))
    return bad


def other_violations(seed: int, n: int) -> list:
    """abs, min, max, floor, ceil, hull, mid (exact operations) at random intervals."""
    rng = np.random.default_rng(seed)
    bad = []
    for _ in range(n):
        A, C = rand_interval(rng), rand_interval(rng)
        for a in points(A):
            if not inside(ivm.abs_(A), M(abs(a))):
                bad.append(("abs", A, a))
            if not inside(ivm.floor(A), M(math.floor(a))) or not inside(ivm.ceil(A), M(math.ceil(a))):
                bad.append(("floor/ceil", A, a))
            for c in points(C):
                if not inside(ivm.imin(A, C), M(min(a, c))) or not inside(ivm.imax(A, C), M(max(a, c))):
                    bad.append(("min/max", A, C, a, c))
        if not (A.lo <= A.mid <= A.hi):
            bad.append(("mid", A, A.mid))
    return bad


def point_eval_violations(seed: int, n: int) -> list:
    """point_eval of composite ball formulas (kl, tilted log-moment, expm1 through exp) at random points."""
    rng = np.random.default_rng(seed)
    bad = []
    formulas = [
        ("kl", lambda B, x, y: x * B.log(x / y) + (1 - x) * B.log((1 - x) / (1 - y)),
         lambda x, y: x * mpmath.log(x / y) + (1 - x) * mpmath.log((1 - x) / (1 - y)), "unit"),
        ("psi", lambda B, y, lam: lam * y + B.log1p(y * B.expm1(-lam)),
         lambda y, lam: lam * y + mpmath.log1p(y * mpmath.expm1(-lam)), "unit_pos"),
        ("exp-1", lambda B, x, y: B.exp(x) - 1 + B.sqrt(y) * B.exp(-y),
         lambda x, y: mpmath.exp(x) - 1 + mpmath.sqrt(y) * mpmath.exp(-y), "tiny_pos"),
        ("exp-tiny", lambda B, x, y: (B.exp(x) - 1) * y, lambda x, y: mpmath.expm1(x) * y, "tiny_one"),
        ("log-near-1", lambda B, x, y: B.log(1 + x) - B.log1p(y),
         lambda x, y: mpmath.log(1 + x) - mpmath.log1p(y), "tiny_tiny"),
    ]
    with mpmath.workprec(REF_BITS):
        for _ in range(n):
            for name, ball, ref, kind in formulas:
                if kind == "unit":
                    x, y = (min(max(math.pow(10.0, rng.uniform(-300, 0)), 1e-300), 1 - 1e-16) for _ in range(2))
                elif kind == "unit_pos":
                    x, y = math.pow(10.0, rng.uniform(-300, 0)), math.pow(10.0, rng.uniform(-300, 2.8))
                elif kind == "tiny_one":
                    # half of them where mpmath 1.3.0's iv exp at 128 bits truncates the argument to 0 (2^-143 <= x
                    # < 2^-142; the 142 = 128 + 14 guard bits of its fixed point)
                    x = rand_float(rng, -320, -10) if rng.random() < 0.5 else rng.uniform(2.0 ** -143, 2.0 ** -142)
                    y = rng.uniform(1.0, 2.0)
                elif kind == "tiny_pos":
                    x, y = rand_float(rng, -320, 2.5), abs(rand_float(rng, -320, 2.5))
                else:
                    x, y = rand_float(rng, -320, -1), rand_float(rng, -320, -1)
                out = ivm.point_eval(ball, x, y)
                v = ref(M(x), M(y))
                if not inside(out, v):
                    bad.append((name, x, y, out, mpmath.nstr(v, 20)))
    return bad


def tightness_failures(seed: int, n: int) -> list:
    """Tiny arguments keep their accuracy: expm1(x), log1p(x) for |x| in [1e-320, 1e-3] and log(1 + d) within
    4 ulps of the result (subnormals included)."""
    rng = np.random.default_rng(seed)
    bad = []
    for _ in range(n):
        x = rand_float(rng, -320, -3)
        if x == 0.0 or abs(x) >= 1e-3:
            continue
        for name, out in (("expm1", ivm.expm1(Interval(x))), ("log1p", ivm.log1p(Interval(x))),
                          ("log", ivm.log(Interval(1.0 + x)) if 1.0 + x != 1.0 else None)):
            if out is None:
                continue
            scale = max(abs(out.lo), abs(out.hi))
            if not (out.width <= 4 * math.ulp(scale)):
                bad.append((name, x, out))
    return bad


# ----------------------------------------------------------------------------------------------------
# the tests
# ----------------------------------------------------------------------------------------------------
def test_arithmetic_over_the_whole_float_range(backend):
    bad = arithmetic_violations(seed=17, n=1500)
    assert not bad, bad[:5]


def test_elementary_functions_over_the_whole_float_range(backend):
    bad = function_violations(seed=1717, n=500)
    assert not bad, bad[:5]


def test_powers(backend):
    bad = power_violations(seed=171717, n=400)
    assert not bad, bad[:5]


def test_exact_operations(backend):
    bad = other_violations(seed=7, n=600)
    assert not bad, bad[:5]


def test_point_eval(backend):
    bad = point_eval_violations(seed=71, n=150)
    assert not bad, bad[:5]


def test_tiny_arguments_keep_their_relative_accuracy(backend):
    bad = tightness_failures(seed=77, n=200)
    assert not bad, bad[:5]


def test_constants(backend):
    with mpmath.workprec(REF_BITS):
        for name, v in (("pi", mpmath.pi), ("e", mpmath.e), ("ln2", mpmath.log(2))):
            c = ivm.const(name)
            assert inside(c, +v) and c.width <= 2 * math.ulp(float(v)), (name, c)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.floats(allow_nan=False, allow_infinity=False, allow_subnormal=True),
       st.floats(allow_nan=False, allow_infinity=False, allow_subnormal=True))
def test_point_products_and_quotients_hypothesis(a, b):
    """hypothesis's own float strategy (biased to the edges: subnormals, the largest floats, ±0)."""
    with mpmath.workprec(REF_BITS):
        assert inside(Interval(a) * Interval(b), M(a) * M(b))
        assert inside(Interval(a) + Interval(b), M(a) + M(b))
        if b != 0.0:
            assert inside(Interval(a) / Interval(b), M(a) / M(b))


def pow2_violations() -> list:
    """Products by the powers of two 2^k near both ends of the float range (k in -1074..-990, -60..60, 960..1023)
    of factors whose product may round onto a power of two (the edge of "a product by 2^k is exact":
    (2 - 2^-52) * 2^-1023 rounds up to 2^-1022)."""
    bad = []
    factors = [1.5, math.nextafter(2.0, 0), math.nextafter(1.0, 2), 1.2345678901234567, 3 * TINY, MAX]
    with mpmath.workprec(REF_BITS):
        for k in [*range(-1074, -989), *range(-60, 61), *range(960, 1024)]:
            t = math.ldexp(1.0, k)
            for a in factors:
                for x, y in ((a, t), (-a, t), (t, a)):
                    if not inside(Interval(x) * Interval(y), M(x) * M(y)):
                        bad.append((x, y, Interval(x) * Interval(y)))
                if not inside(Interval(a) / Interval(t), M(a) / M(t)):
                    bad.append(("/", a, t))
    return bad


def test_products_by_powers_of_two(backend):
    bad = pow2_violations()
    assert not bad, bad[:5]


def test_mutant_pow2_exact_at_the_smallest_normal_is_caught(monkeypatch):
    """Taking a product by 2^k as exact when it rounded (up) to the smallest normal."""
    monkeypatch.setattr(ivm, "_MIN_NORMAL", math.nextafter(MIN_NORMAL, 0))
    assert pow2_violations()


def test_issue_cases_directly(backend):
    """The three products of issue 17 §1 and the two tiny-argument exp/expm1 cases, by hand."""
    p = Interval(1e-200, 1e-199) * Interval(1e-200, 1e-199)
    assert p.hi > 0 and p.lo >= 0  # the exact product is 1e-400 .. 1e-398 > 0
    n = Interval(-900.0, -800.0)
    lhs, rhs = ivm.exp(n) * Interval(0.4), ivm.exp(n) * Interval(0.1)
    assert not ((lhs - rhs).hi <= 0)  # "exp(-n)*0.4 <= exp(-n)*0.1" must not be certified
    assert ivm.exp(Interval(1.31e-43)).hi > 1.0
    e = ivm.expm1(Interval(1e-45, 1e-43))
    assert M(e.lo) <= mpmath.mpf(1e-45) and M(e.hi) >= mpmath.expm1(mpmath.mpf(1e-43))
    assert Interval(TINY) * Interval(0.5) == Interval(0.0, TINY)
    assert Interval(-TINY) * Interval(0.5) == Interval(-TINY, 0.0)
    assert Interval(1e300) * Interval(1e300) == Interval(MAX, INF)


# ----------------------------------------------------------------------------------------------------
# mutants: each must be caught by the sweeps above
# ----------------------------------------------------------------------------------------------------
def _old_mul_bounds(a, b):
    """The product rounding before issue 17: no outward step when the product rounds to 0 (or is ±inf)."""
    if a == 0.0 or b == 0.0:
        return 0.0, 0.0
    p = a * b
    if a in (1.0, -1.0) or b in (1.0, -1.0):
        return p, p
    lo = p if (p == 0.0 or p == -INF) else math.nextafter(p, -INF)
    hi = p if (p == 0.0 or p == INF) else math.nextafter(p, INF)
    return lo, hi


class _OldMpmathBackend(ivm._MpmathBackend):
    """The mpmath backend before issue 17: mpmath's iv exp / log taken as rigorous."""

    def log(self, b):
        return self.iv.log(b)

    def log1p(self, b):
        return self.iv.log(1 + b)

    def exp(self, b):
        return self.iv.exp(b)

    def expm1(self, b):
        return self.iv.exp(b) - 1


def test_mutant_old_product_rounding_is_caught(monkeypatch):
    monkeypatch.setattr(ivm, "_mul_bounds", _old_mul_bounds)
    bad = arithmetic_violations(seed=17, n=300)
    assert any(op in ("*", "/") for op, *_ in bad)
    assert (Interval(1e-200) * Interval(1e-200)).hi == 0.0  # the issue's false proof, reproduced


def test_mutant_old_mpmath_backend_is_caught(monkeypatch):
    monkeypatch.setattr(ivm, "_CURRENT", _OldMpmathBackend())
    assert function_violations(seed=1717, n=200)
    assert point_eval_violations(seed=71, n=40)


def test_mutant_mpmath_backend_without_taylor_is_caught(monkeypatch):
    """Widening alone keeps exp(1.31e-43) sound but loses every digit of expm1 / log1p of tiny arguments."""
    monkeypatch.setattr(ivm._MpmathBackend, "SMALL_MAG", -10**9)
    with ivm.using_backend("mpmath-iv"):
        assert not function_violations(seed=1717, n=100)  # still sound
        assert tightness_failures(seed=77, n=200)


@pytest.mark.parametrize("which", ["_float_below", "_float_above"])
def test_mutant_unchecked_float_conversion_is_caught(monkeypatch, backend, which):
    monkeypatch.setattr(ivm, which, lambda f, test: f)
    assert function_violations(seed=1717, n=200) or point_eval_violations(seed=71, n=40)
