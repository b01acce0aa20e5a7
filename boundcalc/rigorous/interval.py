"""Closed intervals [lo, hi] with float endpoints rounded outward: the arithmetic of the rigorous prover.

Every operation returns an interval that contains the exact result for every choice of the operands in
their intervals (an *enclosure*):

* + − × ÷ and sqrt: IEEE 754 rounds these correctly to nearest, so the exact result lies within one ulp of
  the float result; the endpoints are moved outward by one ulp (``math.nextafter``) unless the float
  result is provably exact (a zero operand, a TwoSum error of 0, a factor ±1).
* log, log1p, exp, expm1 (monotone): each endpoint is evaluated as a ball by the backend (python-flint's
  ``arb`` balls, or mpmath's ``iv`` intervals where python-flint is missing) and the ball's lower / upper
  end is converted to a float rounded down / up (the conversion is checked by an exact comparison).

Point formulas (kl at a corner of a box, the d_eps closed form at a corner …) are evaluated entirely in
the backend's balls at ``POINT_PREC`` bits (``point_eval``) and only the final ball becomes an Interval.

Backends: ``backend_name()`` is "flint" when ``python-flint`` is importable (about 10x faster per
operation, see benchmarks/RESULTS_proofs.md), else "mpmath-iv"; ``use_backend(name)`` switches (the tests
run both). Install the fast one with the ``proofs`` extra.
"""

from __future__ import annotations

import math
from contextlib import contextmanager

INF = math.inf
POINT_PREC = 128  # bits of the backends' ball evaluations at points

_nextafter = math.nextafter


def _down(x: float) -> float:
    return _nextafter(x, -INF)


def _up(x: float) -> float:
    return _nextafter(x, INF)


class DomainError(ValueError):
    """An enclosure was asked for on a box lying entirely outside the function's domain."""


# ----------------------------------------------------------------------------------------------------
# backends: ball evaluation at points with conversion to outward-rounded floats
# ----------------------------------------------------------------------------------------------------
class _FlintBackend:
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
        """A float <= every point of the ball b (a nan or infinite ball gives -inf)."""
        if not b.is_finite():
            return -INF
        lo = b.lower()
        f = float(lo)
        if f != f:
            return -INF
        if self.arb(f) > lo:
            f = _down(f)
        return f

    def upper(self, b) -> float:
        if not b.is_finite():
            return INF
        hi = b.upper()
        f = float(hi)
        if f != f:
            return INF
        if self.arb(f) < hi:
            f = _up(f)
        return f


class _MpmathBackend:
    name = "mpmath-iv"

    def __init__(self):
        import mpmath

        self.mpmath = mpmath
        self.iv = mpmath.iv

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

    def const(self, name: str):
        if name == "pi":
            return self.iv.pi
        if name == "e":
            return self.iv.e
        if name == "ln2":
            return self.iv.log(self.iv.mpf(2))
        raise KeyError(name)

    # log1p / expm1 from the rigorous primitives (iv's add, log and exp are outward rounded)
    def log(self, b):
        return self.iv.log(b)

    def log1p(self, b):
        return self.iv.log(1 + b)

    def exp(self, b):
        return self.iv.exp(b)

    def expm1(self, b):
        return self.iv.exp(b) - 1

    def sqrt(self, b):
        return self.iv.sqrt(b)

    def lower(self, b) -> float:
        a = b.a
        mp = self.mpmath
        if mp.isnan(a):
            return -INF
        f = float(a)
        if f != f:
            return -INF
        if mp.mpf(f) > a:
            f = _down(f)
        return f

    def upper(self, b) -> float:
        a = b.b
        mp = self.mpmath
        if mp.isnan(a):
            return INF
        f = float(a)
        if f != f:
            return INF
        if mp.mpf(f) < a:
            f = _up(f)
        return f


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
    """Select the ball backend ("flint", "mpmath-iv", or None for the fastest available); returns it."""
    global _CURRENT
    if name is None:
        name = available_backends()[0]
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
    """Knuth's TwoSum: the exact a + b - s (s = fl(a + b), no overflow)."""
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
    return s if _two_sum_err(a, b, s) >= 0 else _down(s)


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
    return s if _two_sum_err(a, b, s) <= 0 else _up(s)


def _mul(a: float, b: float) -> float:
    if a == 0.0 or b == 0.0:
        return 0.0  # 0 * inf = 0: the interval convention (an infinite endpoint bounds finite values)
    return a * b


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
        return 0.5 * self.lo + 0.5 * self.hi

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
        ps = (_mul(self.lo, o.lo), _mul(self.lo, o.hi), _mul(self.hi, o.lo), _mul(self.hi, o.hi))
        lo, hi = min(ps), max(ps)
        exact = (self.is_point() and self.lo in (0.0, 1.0, -1.0)) or (o.is_point() and o.lo in (0.0, 1.0, -1.0))
        if not exact:
            lo = lo if (lo == 0.0 or lo == -INF) else _down(lo)
            hi = hi if (hi == 0.0 or hi == INF) else _up(hi)
        return Interval(lo, hi)

    __rmul__ = __mul__

    def reciprocal(self) -> "Interval":
        lo, hi = self.lo, self.hi

        def rd(x):  # 1/x rounded down
            if math.isinf(x):
                return 0.0
            r = 1.0 / x
            return _down(r)

        def ru(x):
            if math.isinf(x):
                return 0.0
            r = 1.0 / x
            return _up(r)

        if lo > 0 or hi < 0:
            return Interval(rd(hi), ru(lo))
        if lo == 0.0 and hi > 0:
            return Interval(rd(hi), INF)
        if hi == 0.0 and lo < 0:
            return Interval(-INF, ru(lo))
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
            if n.is_point() and float(n.lo).is_integer() and abs(n.lo) < 64:
                n = int(n.lo)
            else:
                return pow_real(self, n)
        if isinstance(n, float) and n.is_integer() and abs(n) < 64:
            n = int(n)
        if isinstance(n, int):
            if n == 0:
                return Interval(1.0)
            if n < 0:
                return (self ** (-n)).reciprocal()
            if n == 1:
                return self
            if n % 2 == 0:
                a = abs_(self)
                r = a
                for _ in range(n - 1):
                    r = r * a
                return Interval(max(0.0, r.lo), r.hi)
            r = self
            for _ in range(n - 1):
                r = r * self
            return r
        return pow_real(self, Interval(float(n)))


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


def exp(a: Interval) -> Interval:
    lo = 0.0 if a.lo == -INF else (_down(INF) if a.lo == INF else max(_mono("exp", a.lo, True), 0.0))
    hi = 0.0 if a.hi == -INF else (INF if a.hi == INF else _mono("exp", a.hi, False))
    return Interval(lo, hi)


def expm1(a: Interval) -> Interval:
    lo = -1.0 if a.lo == -INF else (_down(INF) if a.lo == INF else max(_mono("expm1", a.lo, True), -1.0))
    hi = -1.0 if a.hi == -INF else (INF if a.hi == INF else _mono("expm1", a.hi, False))
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
