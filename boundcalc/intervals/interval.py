"""Closed intervals [lo, hi] with float endpoints rounded outward: the arithmetic of the rigorous prover.

Every operation returns an interval that contains the exact result for every choice of the operands in
their intervals (an *enclosure*), over the whole float range (subnormals, underflow, overflow):

* + − × ÷ and sqrt: IEEE 754 rounds these correctly to nearest, so the exact result of two finite floats
  lies between the float neighbours of the float result (``math.nextafter``, which also covers a result
  that underflowed to 0 or to a subnormal, and one that overflowed to ±inf: below +inf lies the largest
  float). The endpoints are moved outward by one ulp unless the float result is provably exact: a zero
  operand, a TwoSum error of 0 (sums never lose bits to underflow), a factor ±1, a factor ±2^k with a
  *normal* finite product. A product of two non-zero factors that rounds to 0 is never exact: it gives
  [0, 5e-324] or [-5e-324, 0] by the sign of the factors (issue 17 §1: the old code took it as exact).
* log, log1p, exp, expm1 (monotone): each endpoint is evaluated as a ball by the backend and the ball's
  lower / upper end is converted to a float rounded down / up (checked by exact comparisons, with a
  fallback to ±inf); arguments whose result certainly over/underflows the doubles (exp beyond ±746) are
  answered without the backend.
* integer powers: x**n by repeated squaring of the endpoints (x**n is monotone on [0, inf), odd powers on
  the whole line), so any n is exact in the number of operations (about 2 log2 n products).

Point formulas (kl at a corner of a box, the d_eps closed form at a corner …) are evaluated entirely in
the backend's balls at ``POINT_PREC`` bits (``point_eval``) and only the final ball becomes an Interval.

Backends: ``backend_name()`` is "flint" when ``python-flint`` is importable (about 10x faster per
operation, see benchmarks/RESULTS_proofs.md), else "mpmath-iv"; ``use_backend(name)`` switches (the tests
run both); the environment variable ``BOUNDCALC_INTERVAL_BACKEND`` chooses the default. Install the fast
one with the ``proofs`` extra.

* "flint": arb balls (python-flint) carry proven error bounds for every operation and function.
* "mpmath-iv": mpmath's interval +, −, ×, ÷ and sqrt round outward exactly (integer arithmetic), but its
  exp / log are *not* rigorous: the argument is truncated to fixed point, so mpmath 1.3.0 returns
  exp([1.31e-43]) = [1, 1] (issue 17 §1). The backend therefore computes exp, expm1, log, log1p itself:
  for small arguments (|x| <= 2^-8, and log on |x - 1| <= 2^-8) by their Taylor series with the Lagrange /
  geometric remainder bound, in mpmath's (rigorous) interval +, × and ÷; elsewhere mpmath's value at 40
  bits above the working precision, widened by a relative 2^-prec (2^40 times mpmath's own design error;
  these ranges stay away from the functions' zeros, where a relative bound would mean nothing). The
  constants pi, e, ln 2 likewise.

tests/intervals/test_interval_fuzz.py checks every operation of both backends against mpmath at 320 bits on random
operands over the whole float range, with mutants of the old rounding and of the old mpmath backend.
"""

from __future__ import annotations

import math
import os
from contextlib import contextmanager

from ..errors import InputError

INF = math.inf
_MAX = 1.7976931348623157e308  # the largest float
_TINY = 5e-324  # the smallest positive (subnormal) float
_MIN_NORMAL = 2.2250738585072014e-308
POINT_PREC = 128  # bits of the backends' ball evaluations at points

_nextafter = math.nextafter


def _down(x: float) -> float:
    return _nextafter(x, -INF)


def _up(x: float) -> float:
    return _nextafter(x, INF)


class DomainError(ValueError):
    """An enclosure was asked for on a box lying entirely outside the function's domain."""


# Inside ``sympy_eval.where_defined()`` (``boundcalc check``'s proof, which reports the part of the box outside every
# domain), an enclosure whose argument reaches outside its domain encloses the function over the part inside;
# elsewhere such an argument is a DomainError (never a silent clip: boundcalc.domains, issue 22 D1).
WHERE_DEFINED = [False]


def inside(name: str, X: "Interval", lo: float, hi: float) -> "Interval":
    """X within [lo, hi]: X itself when it lies inside; its part inside under ``WHERE_DEFINED`` (the caller reports
    the rest of the box); else DomainError (also when no part is inside)."""
    if lo <= X.lo and X.hi <= hi:
        return X
    a, b = max(X.lo, lo), min(X.hi, hi)
    if a > b or not WHERE_DEFINED[0]:
        raise DomainError(f"{name} = {X} reaches outside [{lo:g}, {hi:g}]")
    return Interval(a, b)


# ----------------------------------------------------------------------------------------------------
# backends: ball evaluation at points with conversion to outward-rounded floats
# ----------------------------------------------------------------------------------------------------
def _float_below(f: float, is_below) -> float:
    """A float <= an exact number v, from its float conversion f (off by an ulp at most, ±inf beyond the floats,
    nan unknown) and the exact test is_below(g) = (g <= v); -inf when no candidate is confirmed."""
    if f != f or f == -INF:
        return -INF
    if f == INF:
        f = _MAX  # v lies beyond the floats (or within an ulp of the largest); confirmed below
    for _ in range(3):
        if is_below(f):
            return f
        f = _down(f)
        if f == -INF:
            return f
    return -INF


def _float_above(f: float, is_above) -> float:
    """A float >= an exact number v (the mirror image of ``_float_below``)."""
    if f != f or f == INF:
        return INF
    if f == -INF:
        f = -_MAX
    for _ in range(3):
        if is_above(f):
            return f
        f = _up(f)
        if f == INF:
            return f
    return INF


def _to_float(v) -> float:
    try:
        return float(v)
    except (OverflowError, ValueError):
        return math.nan


class _FlintBackend:
    """python-flint's arb balls: every operation and function carries a proven error bound (Arb's contract)."""

    name = "flint"

    def __init__(self):
        import flint

        self.flint = flint
        self.arb = flint.arb

    @contextmanager
    def prec(self, bits=POINT_PREC):
        ctx = self.flint.ctx
        old = ctx.prec
        ctx.prec = bits
        try:
            yield
        finally:
            ctx.prec = old

    def num(self, x: float):
        return self.arb(x)

    def const(self, name: str):
        if name == "pi":
            return self.arb.pi()
        if name == "e":
            return self.arb.const_e()
        if name == "ln2":
            return self.arb.const_log2()
        raise KeyError(name)

    def log(self, b):
        return b.log()

    def log1p(self, b):
        return b.log1p()

    def exp(self, b):
        return b.exp()

    def expm1(self, b):
        return b.expm1()

    def sqrt(self, b):
        return b.sqrt()

    def lower(self, b) -> float:
        """A float <= every point of the ball b (a nan or infinite ball gives -inf). b.lower() is an exact
        point, so arb's comparisons with it are decided."""
        if not b.is_finite():
            return -INF
        lo, arb = b.lower(), self.arb
        return _float_below(_to_float(lo), lambda g: arb(g) <= lo)

    def upper(self, b) -> float:
        if not b.is_finite():
            return INF
        hi, arb = b.upper(), self.arb
        return _float_above(_to_float(hi), lambda g: arb(g) >= hi)


class _MpmathBackend:
    """mpmath's ``iv`` intervals. +, −, ×, ÷ and sqrt are mpmath's (exact integer arithmetic rounded outward);
    exp, expm1, log, log1p and the constants are built here (module docstring): Taylor series with a rigorous
    remainder for small arguments (``SMALL_MAG``), elsewhere mpmath's value at ``GUARD`` extra bits widened by a
    relative 2^-prec."""

    name = "mpmath-iv"
    SMALL_MAG = -8  # |x| < 2^SMALL_MAG: Taylor (exp, expm1, log1p; log on |x - 1|)
    GUARD = 40  # extra bits of the mpmath evaluation outside the Taylor range

    def __init__(self):
        import mpmath
        from mpmath import libmp

        self.mpmath = mpmath
        self.iv = mpmath.iv
        self.libmp = libmp

    @contextmanager
    def prec(self, bits=POINT_PREC):
        iv = self.iv
        old = iv.prec
        iv.prec = bits
        try:
            yield
        finally:
            iv.prec = old

    def num(self, x: float):
        return self.iv.mpf(x)

    # -- raw helpers (libmp tuples: exact, independent of any context precision) --------------------------
    def _mk(self, lo, hi=None):
        return self.iv.make_mpf((lo, lo if hi is None else hi))

    def _entire(self):
        lm = self.libmp
        return self._mk(lm.fninf, lm.finf)

    def _widened(self, fn, *args):
        """mpmath's interval value of fn(*args) at GUARD extra bits, times [1 - 2^-prec, 1 + 2^-prec]."""
        iv, lm = self.iv, self.libmp
        prec = iv.prec
        iv.prec = prec + self.GUARD
        try:
            y = fn(*args)
        finally:
            iv.prec = prec
        eps = lm.mpf_shift(lm.fone, -prec)
        return y * self._mk(lm.mpf_sub(lm.fone, eps, prec + 2, lm.round_floor),
                            lm.mpf_add(lm.fone, eps, prec + 2, lm.round_ceiling))

    def _mag(self, x) -> int:
        """m with |x| < 2^m for a finite non-zero raw mpf."""
        _, man, e, bc = x
        return e + bc

    def _taylor(self, X, name: str, m: int):
        """Enclosure of exp / expm1 / log1p on the interval X with |X| < 2^m, m <= SMALL_MAG: the series to
        order N plus [-R, R], R = 2^(m (N+1) + 1) >= the remainder on X:
        exp, expm1: |x|^(N+1)/(N+1)! e^|x| <= 2 |x|^(N+1) (Lagrange; e^|x| < 2);
        log1p: sum_{k>N} |x|^k / k <= |x|^(N+1) / (1 - |x|) <= 2 |x|^(N+1) (geometric tail).
        N makes R at most 2^-(prec+12) relative to the result (|expm1 x|, |log1p x| >= |x|/2, exp x >= 1/2)."""
        iv, lm = self.iv, self.libmp
        prec = iv.prec
        N = max(1, -(-(prec + 14) // (-m)) + 1)
        term = X
        total = X
        for k in range(2, N + 1):
            if name == "log1p":
                term = term * X
                total = total + (term / k if k % 2 else -(term / k))
            else:
                term = term * X / k
                total = total + term
        if name == "exp":
            total = total + 1
        R = lm.mpf_shift(lm.fone, m * (N + 1) + 1)
        return total + self._mk(lm.mpf_neg(R), R)

    def _point(self, name: str, x):
        """Enclosure (an iv interval) of name(x) at a raw mpf point x."""
        iv, lm = self.iv, self.libmp
        X = self._mk(x)
        if x == lm.fnan:
            return self._entire()
        finite = x not in (lm.finf, lm.fninf)
        if name in ("exp", "expm1"):
            if x == lm.fzero:
                return self._mk(lm.fone if name == "exp" else lm.fzero)
            if not finite:
                if x == lm.finf:
                    return self._mk(lm.finf)
                return self._mk(lm.fzero if name == "exp" else lm.fnone)
            m = self._mag(x)
            if m <= self.SMALL_MAG:
                return self._taylor(X, name, m)
            y = self._widened(iv.exp, X)
            return y if name == "exp" else y - 1
        if name == "log":
            if lm.mpf_sign(x) < 0:
                return self._entire()
            if x == lm.fzero:
                return self._mk(lm.fninf)
            if x == lm.finf:
                return self._mk(lm.finf)
            d = lm.mpf_sub(x, lm.fone, iv.prec + 2, lm.round_floor)
            if d == lm.fzero:
                return self._mk(lm.fzero)
            if self._mag(d) <= self.SMALL_MAG:
                Dm = X - 1  # an interval (exact when x - 1 fits; sound either way)
                a, b = Dm._mpi_
                m = max(self._mag(a) if a != lm.fzero else -10**9, self._mag(b) if b != lm.fzero else -10**9)
                return self._taylor(Dm, "log1p", m)
            return self._widened(iv.log, X)
        if name == "log1p":
            if x == lm.fnone:
                return self._mk(lm.fninf)
            if lm.mpf_lt(x, lm.fnone):
                return self._entire()
            if x == lm.fzero:
                return self._mk(lm.fzero)
            if x == lm.finf:
                return self._mk(lm.finf)
            m = self._mag(x)
            if m <= self.SMALL_MAG:
                return self._taylor(X, "log1p", m)
            # 1 + x as an interval at the guarded precision, then log per endpoint (monotone)
            iv.prec += self.GUARD
            try:
                one_plus = X + 1
            finally:
                iv.prec -= self.GUARD
            a, b = one_plus._mpi_
            return self._mk(self._point("log", a)._mpi_[0], self._point("log", b)._mpi_[1])
        if name == "sqrt":
            if lm.mpf_sign(x) < 0:
                return self._entire()
            return iv.sqrt(X)  # mpf_sqrt: integer square root, directed rounding (exact)
        raise KeyError(name)

    def _monotone(self, name: str, b):
        """An increasing function on an interval: the lower end of the enclosure at b's lower end, the upper at
        its upper end."""
        lo, hi = b._mpi_
        L = self._point(name, lo)
        H = L if hi == lo else self._point(name, hi)
        return self._mk(L._mpi_[0], H._mpi_[1])

    def const(self, name: str):
        iv = self.iv
        if name == "pi":
            return self._widened(lambda: +iv.pi)
        if name == "e":
            return self._widened(lambda: +iv.e)
        if name == "ln2":
            return self._widened(lambda: iv.log(iv.mpf(2)))
        raise KeyError(name)

    def log(self, b):
        lo, hi = b._mpi_
        lm = self.libmp
        if lm.mpf_sign(lo) < 0 and lm.mpf_sign(hi) >= 0:  # partly outside the domain: log -> -inf at 0
            return self._mk(lm.fninf, self._point("log", hi)._mpi_[1])
        return self._monotone("log", b)

    def log1p(self, b):
        lo, hi = b._mpi_
        lm = self.libmp
        if lm.mpf_lt(lo, lm.fnone) and not lm.mpf_lt(hi, lm.fnone):
            return self._mk(lm.fninf, self._point("log1p", hi)._mpi_[1])
        return self._monotone("log1p", b)

    def exp(self, b):
        return self._monotone("exp", b)

    def expm1(self, b):
        return self._monotone("expm1", b)

    def sqrt(self, b):
        lo, hi = b._mpi_
        lm = self.libmp
        if lm.mpf_sign(lo) < 0 and lm.mpf_sign(hi) >= 0:
            return self._mk(lm.fzero, self._point("sqrt", hi)._mpi_[1])
        return self._monotone("sqrt", b)

    # -- conversion to floats (raw endpoints compared exactly with the candidate float) ---------------------
    def lower(self, b) -> float:
        lm, a = self.libmp, b._mpi_[0]
        if a == lm.fnan:
            return -INF
        return _float_below(lm.to_float(a), lambda g: lm.mpf_le(lm.from_float(g, 53, lm.round_nearest), a))

    def upper(self, b) -> float:
        lm, a = self.libmp, b._mpi_[1]
        if a == lm.fnan:
            return INF
        return _float_above(lm.to_float(a), lambda g: lm.mpf_le(a, lm.from_float(g, 53, lm.round_nearest)))


_BACKENDS: dict = {}
_CURRENT = None


def available_backends() -> list[str]:
    out = []
    try:
        import flint  # noqa: F401

        out.append("flint")
    except ImportError:
        pass
    out.append("mpmath-iv")
    return out


def use_backend(name: str | None = None):
    """Select the ball backend ("flint", "mpmath-iv", or None: $BOUNDCALC_INTERVAL_BACKEND if set, else the
    fastest available); returns it."""
    global _CURRENT
    if name is None:
        env = os.environ.get("BOUNDCALC_INTERVAL_BACKEND")
        if env and env not in ("flint", "mpmath-iv"):
            raise InputError("BOUNDCALC_INTERVAL_BACKEND", "flint or mpmath-iv", env)
        name = env or available_backends()[0]
    if name not in _BACKENDS:
        if name == "flint":
            try:
                _BACKENDS[name] = _FlintBackend()
            except ImportError:
                raise ImportError(
                    "python-flint is not installed: pip install 'boundcalc[proofs]' (or use the mpmath-iv backend)"
                ) from None
        elif name == "mpmath-iv":
            _BACKENDS[name] = _MpmathBackend()
        else:
            raise ValueError(f"unknown interval backend {name!r}: use 'flint' or 'mpmath-iv'")
    _CURRENT = _BACKENDS[name]
    return _CURRENT


def backend():
    return _CURRENT if _CURRENT is not None else use_backend()


def backend_name() -> str:
    return backend().name


@contextmanager
def using_backend(name: str):
    """Run a block with another backend (restores the previous one)."""
    global _CURRENT
    old = _CURRENT
    use_backend(name)
    try:
        yield
    finally:
        _CURRENT = old


def point_eval(fn, *args: float) -> "Interval":
    """Enclosure of fn(*args) at a point: fn receives (B, balls...) and returns a ball of backend B."""
    B = backend()
    with B.prec():
        r = fn(B, *(B.num(a) for a in args))
        return Interval(B.lower(r), B.upper(r))


# ----------------------------------------------------------------------------------------------------
# outward-rounded float arithmetic
# ----------------------------------------------------------------------------------------------------
def _two_sum_err(a: float, b: float, s: float) -> float:
    """Knuth's TwoSum: the exact a + b - s (s = fl(a + b) finite; exact for every pair of finite floats, subnormal
    or not, as long as no intermediate overflows; an overflow shows as a non-finite result)."""
    bb = s - a
    return (a - (s - bb)) + (b - bb)


def _add_lo(a: float, b: float) -> float:
    """A float <= a + b (exact)."""
    s = a + b
    if s != s:  # inf - inf: nothing is known
        return -INF
    if math.isinf(s):
        if math.isinf(a) or math.isinf(b) or s < 0:
            return s
        return _down(s)  # finite sum that overflowed to +inf: the largest float is below it
    if a == 0.0 or b == 0.0:
        return s
    e = _two_sum_err(a, b, s)
    return s if (e >= 0 and e != INF) else _down(s)  # a non-finite e (intermediate overflow): rounded


def _add_hi(a: float, b: float) -> float:
    """A float >= a + b (exact)."""
    s = a + b
    if s != s:
        return INF
    if math.isinf(s):
        if math.isinf(a) or math.isinf(b) or s > 0:
            return s
        return _up(s)
    if a == 0.0 or b == 0.0:
        return s
    e = _two_sum_err(a, b, s)
    return s if (e <= 0 and e != -INF) else _up(s)


def _pow2(x: float) -> bool:
    """x = ±2^k (a product by it is exact unless it leaves the normal range)."""
    return x != 0.0 and not math.isinf(x) and math.frexp(x)[0] in (0.5, -0.5)


def _mul_bounds(a: float, b: float) -> tuple[float, float]:
    """Floats lo <= a*b <= hi (exact product), with 0 * inf = 0 (an infinite endpoint bounds finite values).

    Exact: a zero factor, a factor ±1, a factor ±2^k with a finite product above the smallest normal. Otherwise fl(a*b) is the
    correctly rounded product, so the exact one lies between its float neighbours; that includes a product
    that overflowed (below +inf: the largest float) and one that underflowed to a subnormal or to 0, where the
    known sign of the exact product (both factors non-zero) keeps the other end at 0."""
    if a == 0.0 or b == 0.0:
        return 0.0, 0.0
    p = a * b
    if math.isinf(a) or math.isinf(b):
        return p, p
    if a in (1.0, -1.0) or b in (1.0, -1.0):
        return p, p
    if p == 0.0:  # underflow of a non-zero product: never exact
        return (0.0, _TINY) if (a > 0) == (b > 0) else (-_TINY, 0.0)
    if (_pow2(a) or _pow2(b)) and _MIN_NORMAL < abs(p) < INF:
        return p, p  # strictly above: (2 - 2^-52) * 2^-1023 = 2^-1022 - 2^-1075 rounds up to exactly 2^-1022
    return _down(p), _up(p)


def _recip_bounds(x: float) -> tuple[float, float]:
    """Floats lo <= 1/x <= hi for x != 0 (1/±inf = 0). 1/x never underflows to 0 for a finite x (1/MAX is a
    subnormal > 0) and overflows to ±inf only for tiny subnormals (then the largest float bounds it)."""
    if math.isinf(x):
        return 0.0, 0.0
    r = 1.0 / x
    if _pow2(x) and _MIN_NORMAL <= abs(r) < INF:
        return r, r
    return _down(r), _up(r)


# ----------------------------------------------------------------------------------------------------
# the interval type
# ----------------------------------------------------------------------------------------------------
class Interval:
    """Closed interval [lo, hi] of extended reals (lo <= hi; endpoints may be ±inf)."""

    __slots__ = ("lo", "hi")

    def __init__(self, lo, hi=None):
        lo = float(lo)
        hi = lo if hi is None else float(hi)
        if lo != lo or hi != hi:
            raise ValueError("interval endpoint is nan")
        if lo > hi:
            raise ValueError(f"empty interval [{lo!r}, {hi!r}]")
        self.lo = lo
        self.hi = hi

    @staticmethod
    def entire() -> "Interval":
        return Interval(-INF, INF)

    @staticmethod
    def hull(*ivs: "Interval") -> "Interval":
        return Interval(min(i.lo for i in ivs), max(i.hi for i in ivs))

    def __repr__(self):
        return f"Interval({self.lo!r}, {self.hi!r})"

    def __eq__(self, other):
        return isinstance(other, Interval) and self.lo == other.lo and self.hi == other.hi

    def __hash__(self):
        return hash((self.lo, self.hi))

    def contains(self, x) -> bool:
        return self.lo <= x <= self.hi

    def overlaps(self, other: "Interval") -> bool:
        return self.lo <= other.hi and other.lo <= self.hi

    @property
    def width(self) -> float:
        return self.hi - self.lo

    @property
    def mid(self) -> float:
        if math.isinf(self.lo) or math.isinf(self.hi):
            if self.lo == -INF and self.hi == INF:
                return 0.0
            return self.hi if math.isinf(self.lo) else self.lo
        m = 0.5 * self.lo + 0.5 * self.hi  # no overflow; may round below lo among subnormals: clamped
        return min(max(m, self.lo), self.hi)

    def is_point(self) -> bool:
        return self.lo == self.hi

    # -- arithmetic ------------------------------------------------------------------------------------
    @staticmethod
    def _coerce(x) -> "Interval":
        return x if isinstance(x, Interval) else Interval(x)

    def __add__(self, other):
        o = Interval._coerce(other)
        return Interval(_add_lo(self.lo, o.lo), _add_hi(self.hi, o.hi))

    __radd__ = __add__

    def __neg__(self):
        return Interval(-self.hi, -self.lo)

    def __sub__(self, other):
        return self + (-Interval._coerce(other))

    def __rsub__(self, other):
        return Interval._coerce(other) + (-self)

    def __mul__(self, other):
        o = Interval._coerce(other)
        lo, hi = INF, -INF
        for a in (self.lo, self.hi):
            for b in (o.lo, o.hi):
                pl, ph = _mul_bounds(a, b)
                lo, hi = min(lo, pl), max(hi, ph)
        return Interval(lo, hi)

    __rmul__ = __mul__

    def reciprocal(self) -> "Interval":
        """1/x over the interval: the hull of 1/x on each side of 0 (1/0 unbounded: an interval containing 0 in
        its interior gives the whole line)."""
        lo, hi = self.lo, self.hi
        if lo > 0 or hi < 0:
            return Interval(_recip_bounds(hi)[0], _recip_bounds(lo)[1])
        if lo == 0.0 and hi > 0:
            return Interval(_recip_bounds(hi)[0], INF)
        if hi == 0.0 and lo < 0:
            return Interval(-INF, _recip_bounds(lo)[1])
        return Interval.entire()

    def __truediv__(self, other):
        o = Interval._coerce(other)
        if o.is_point() and o.lo in (1.0, -1.0):
            return self if o.lo == 1.0 else -self
        return self * o.reciprocal()

    def __rtruediv__(self, other):
        return Interval._coerce(other) * self.reciprocal()

    def __pow__(self, n):
        if isinstance(n, Interval):
            if n.is_point() and not math.isinf(n.lo) and float(n.lo).is_integer():
                n = int(n.lo)
            else:
                return pow_real(self, n)
        if isinstance(n, float) and not math.isinf(n) and n.is_integer():
            n = int(n)
        if isinstance(n, int):
            if n == 0:
                return Interval(1.0)
            if n < 0:
                return (self ** (-n)).reciprocal()
            if n == 1:
                return self
            if n % 2 == 0:  # x^n = |x|^n, increasing on [0, inf)
                a = abs_(self)
                return Interval(max(0.0, _pow_point(a.lo, n).lo), _pow_point(a.hi, n).hi)
            # odd n: increasing on the whole line, (-x)^n = -(x^n)
            lo = _pow_point(self.lo, n).lo if self.lo >= 0 else -_pow_point(-self.lo, n).hi
            hi = _pow_point(self.hi, n).hi if self.hi >= 0 else -_pow_point(-self.hi, n).lo
            return Interval(lo, hi)
        return pow_real(self, Interval(float(n)))


def _pow_point(x: float, n: int) -> "Interval":
    """Enclosure of x^n for x >= 0 and an integer n >= 1: binary powering in outward-rounded products of
    non-negative intervals (about 2 log2 n of them)."""
    result = None
    base = Interval(x)
    while True:
        if n & 1:
            result = base if result is None else result * base
        n >>= 1
        if not n:
            return result
        base = base * base


# ----------------------------------------------------------------------------------------------------
# elementary functions
# ----------------------------------------------------------------------------------------------------
def _mono(fn_name, x: float, lower: bool) -> float:
    B = backend()
    with B.prec():
        b = getattr(B, fn_name)(B.num(x))
        return B.lower(b) if lower else B.upper(b)


def log(a: Interval) -> Interval:
    """Natural log; log 0 = -inf. Partly below 0: the whole line; entirely below 0: DomainError."""
    if a.hi < 0:
        raise DomainError(f"log of {a}")
    if a.lo < 0:
        return Interval.entire()
    lo = -INF if a.lo == 0 else (_down(INF) if math.isinf(a.lo) else _mono("log", a.lo, True))
    hi = -INF if a.hi == 0 else (INF if math.isinf(a.hi) else _mono("log", a.hi, False))
    return Interval(lo, hi)


def log1p(a: Interval) -> Interval:
    if a.hi < -1:
        raise DomainError(f"log1p of {a}")
    if a.lo < -1:
        return Interval.entire()
    lo = -INF if a.lo == -1 else (_down(INF) if math.isinf(a.lo) else _mono("log1p", a.lo, True))
    hi = -INF if a.hi == -1 else (INF if math.isinf(a.hi) else _mono("log1p", a.hi, False))
    return Interval(lo, hi)


# beyond these arguments exp certainly leaves the doubles: exp(710) > 1.8e308 > MAX, exp(-746) < 2.5e-324 < TINY,
# expm1(-40) = -1 + 4.2e-18 < -1 + 1.1e-16 = the float after -1 (answered without the backend)
_EXP_OVER, _EXP_UNDER, _EXPM1_FLOOR = 710.0, -746.0, -40.0


def exp(a: Interval) -> Interval:
    if a.lo == -INF or a.lo <= _EXP_UNDER:
        lo = 0.0
    elif a.lo >= _EXP_OVER:
        lo = _MAX
    else:
        lo = max(_mono("exp", a.lo, True), 0.0)
    if a.hi == -INF:
        hi = 0.0
    elif a.hi <= _EXP_UNDER:
        hi = _TINY
    elif a.hi >= _EXP_OVER:
        hi = INF
    else:
        hi = _mono("exp", a.hi, False)
    return Interval(lo, hi)


def expm1(a: Interval) -> Interval:
    if a.lo <= _EXPM1_FLOOR:
        lo = -1.0
    elif a.lo >= _EXP_OVER:
        lo = _MAX
    else:
        lo = max(_mono("expm1", a.lo, True), -1.0)
    if a.hi == -INF:
        hi = -1.0
    elif a.hi <= _EXPM1_FLOOR:
        hi = _up(-1.0)
    elif a.hi >= _EXP_OVER:
        hi = INF
    else:
        hi = _mono("expm1", a.hi, False)
    return Interval(lo, hi)


def sqrt(a: Interval) -> Interval:
    """Square root (correctly rounded by IEEE 754, widened by one ulp). The part of the interval below 0
    is ignored when it reaches above 0 (sqrt is only defined there); entirely below 0: DomainError."""
    if a.hi < 0:
        raise DomainError(f"sqrt of {a}")

    def out(x, lower):
        if x == 0.0 or x == 1.0:
            return x
        if math.isinf(x):
            return INF if not lower else _down(INF)
        r = math.sqrt(x)
        return _down(r) if lower else _up(r)

    return Interval(max(out(max(a.lo, 0.0), True), 0.0), out(a.hi, False))


def pow_real(a: Interval, p: Interval) -> Interval:
    """a**p = exp(p log a) for a >= 0 (a real exponent); sqrt for p = 1/2."""
    if p.is_point() and p.lo == 0.5:
        return sqrt(a)
    return exp(p * log(a))


def abs_(a: Interval) -> Interval:
    if a.lo >= 0:
        return a
    if a.hi <= 0:
        return -a
    return Interval(0.0, max(-a.lo, a.hi))


def imin(*ivs: Interval) -> Interval:
    return Interval(min(i.lo for i in ivs), min(i.hi for i in ivs))


def imax(*ivs: Interval) -> Interval:
    return Interval(max(i.lo for i in ivs), max(i.hi for i in ivs))


def floor(a: Interval) -> Interval:
    return Interval(math.floor(a.lo) if not math.isinf(a.lo) else a.lo,
                    math.floor(a.hi) if not math.isinf(a.hi) else a.hi)


def ceil(a: Interval) -> Interval:
    return Interval(math.ceil(a.lo) if not math.isinf(a.lo) else a.lo,
                    math.ceil(a.hi) if not math.isinf(a.hi) else a.hi)


def intersect(a: Interval, b: Interval) -> Interval:
    lo, hi = max(a.lo, b.lo), min(a.hi, b.hi)
    if lo > hi:
        raise DomainError(f"empty intersection of {a} and {b}")
    return Interval(lo, hi)


def clip_below(a: Interval, lo: float) -> Interval:
    """a ∩ [lo, inf) for a quantity known by a theorem to be >= lo (the result still encloses it)."""
    return Interval(max(a.lo, lo), max(a.hi, lo))


def const(name: str) -> Interval:
    """Enclosure of pi, e or ln 2."""
    B = backend()
    with B.prec():
        b = B.const(name)
        return Interval(B.lower(b), B.upper(b))
