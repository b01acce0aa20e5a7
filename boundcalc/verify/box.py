"""Parameter domains ("boxes") of claims and of ``boundcalc check``: parsing, validation and grids.

A box assigns each parameter a closed range ``lo:hi`` (or one value). ``--box mu=0.01:0.99,epsilon=1e-3:10``
is parsed by :func:`parse_box`; unknown names, reversed or empty ranges, values outside a parameter's allowed
range, NaN and inf are one-line :class:`~boundcalc.errors.InputError` s. :meth:`Domain.grid` lays a grid on
the box: log spacing on an axis whose positive range spans two decades or more, integers on integer axes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable, Mapping

import numpy as np

from ..domains import OPEN_UNIT, POSITIVE, UNIT
from ..errors import InputError, ParamName, flag

LOG_RATIO = 100.0  # an axis with lo > 0 and hi/lo >= LOG_RATIO gets log spacing


@dataclass(frozen=True)
class Param:
    """One parameter of a claim: its default range (``lo == hi``: a fixed value) and its allowed range.

    ``allowed`` is (low, high, low_open, high_open); ``integer`` axes get integer grid values.
    """

    name: str
    lo: float
    hi: float | None = None
    allowed: tuple[float, float, bool, bool] = (-math.inf, math.inf, True, True)
    integer: bool = False
    doc: str = ""

    @property
    def default(self) -> tuple[float, float]:
        return (float(self.lo), float(self.lo if self.hi is None else self.hi))

    def allowed_text(self) -> str:
        a, b, ao, bo = self.allowed
        kind = "an integer" if self.integer else "a number"
        if a == -math.inf and b == math.inf:
            return f"{kind}"
        if b == math.inf:
            return f"{kind} {'>' if ao else '>='} {a:g}"
        if a == -math.inf:
            return f"{kind} {'<' if bo else '<='} {b:g}"
        return f"{kind} in {'(' if ao else '['}{a:g}, {b:g}{')' if bo else ']'}"

    def admits(self, x: float) -> bool:
        a, b, ao, bo = self.allowed
        if not math.isfinite(x):
            return False
        if self.integer and x != int(x):
            return False
        return (x > a if ao else x >= a) and (x < b if bo else x <= b)


def unit(name: str, lo: float, hi: float | None = None, open_ends: bool = False, doc: str = "") -> Param:
    """A parameter in [0, 1] (a mean, a probability), or (0, 1) with ``open_ends`` (boundcalc.domains)."""
    return Param(name, lo, hi, _allowed(OPEN_UNIT if open_ends else UNIT), doc=doc)


def positive(name: str, lo: float, hi: float | None = None, doc: str = "") -> Param:
    return Param(name, lo, hi, _allowed(POSITIVE), doc=doc)


def _allowed(r) -> tuple[float, float, bool, bool]:
    """A Param's allowed range from a declared Range of boundcalc.domains."""
    return (r.lo, r.hi, r.lo_open, r.hi_open)


def integer(name: str, lo: float, hi: float | None = None, minimum: float = 1, doc: str = "") -> Param:
    return Param(name, lo, hi, (minimum, math.inf, False, True), integer=True, doc=doc)


def above(name: str, lo: float, hi: float | None, bound: float, doc: str = "") -> Param:
    return Param(name, lo, hi, (bound, math.inf, True, True), doc=doc)


def exact_number(v) -> str:
    """A double as text that reads back as the same double: the short form ("0.1", "1e-08") when it does, else
    Python's shortest round-trip repr ("0.10000000000000002"). A counterexample printed so is one."""
    v = float(v)
    short = f"{v:g}"
    return short if float(short) == v else repr(v)


@dataclass
class Domain:
    """The ranges a claim is evaluated on: the claim's defaults with the user's box applied."""

    params: tuple[Param, ...]
    ranges: dict[str, tuple[float, float]] = field(default_factory=dict)
    user: dict[str, tuple[float, float]] = field(default_factory=dict)  # what --box changed

    @classmethod
    def of(cls, params: Iterable[Param], box: Mapping[str, tuple[float, float]] | None = None) -> "Domain":
        ps = tuple(params)
        ranges = {p.name: p.default for p in ps}
        user = dict(box or {})
        ranges.update(user)
        return cls(ps, ranges, user)

    # -- access ------------------------------------------------------------------------------------------
    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)

    def range(self, name: str) -> tuple[float, float]:
        return self.ranges[name]

    def value(self, name: str) -> float:
        """The parameter's value when its range is a single point (else its lower end, for scalar uses)."""
        return self.ranges[name][0]

    def is_point(self, name: str) -> bool:
        lo, hi = self.ranges[name]
        return lo == hi

    def changed(self) -> bool:
        return bool(self.user)

    def describe(self, exact: bool = False) -> str:
        """``name=lo:hi,...``; ``exact``: every end as text that reads back as the same double (0.09999999999999999,
        not 0.1; the short form where it is exact)."""
        texts = getattr(self, "texts", None) or {}

        def num(v, name=None, side=0):
            if name in texts:  # an end whose double is not the number written: the number as written
                w = written_end(texts[name][0 if side < 0 else 1], v, side)
                if w is not None:
                    return w
            if exact and name in texts:
                t = texts[name][0 if side < 0 else 1]
                try:
                    if v == outward_double(t, float(t), side) != float(t):
                        v = float(t)
                except ValueError:
                    pass
            return exact_number(v) if exact else f"{v:g}"

        parts = []
        for p in self.params:
            lo, hi = self.ranges[p.name]
            parts.append(f"{p.name}={num(lo)}" if lo == hi else
                         f"{p.name}={num(lo, p.name, -1)}:{num(hi, p.name, +1)}")
        return ",".join(parts)

    # -- grids -------------------------------------------------------------------------------------------
    def axis(self, name: str, n: int) -> np.ndarray:
        """``n`` values on the parameter's range: log spacing when lo > 0 and hi/lo >= 100."""
        p = self.param(name)
        lo, hi = self.ranges[name]
        if lo == hi:
            return np.array([lo])
        n = max(2, int(n))
        if lo > 0 and hi / lo >= LOG_RATIO:
            vals = np.geomspace(lo, hi, n)
        elif abs(hi - lo) < 1e300:  # (numpy's linspace overflows near the largest double: 0:1.7976931348623157e308)
            vals = np.linspace(lo, hi, n)
        else:  # hi - lo overflows (-1e308:1e308): interpolate without the difference
            t = np.linspace(0.0, 1.0, n)
            vals = lo * (1.0 - t) + hi * t
        vals[0], vals[-1] = lo, hi
        if p.integer:
            vals = np.unique(np.round(vals))
        return vals

    def grid(self, names: Iterable[str] | None = None, points: int = 4096) -> dict[str, np.ndarray]:
        """A full grid over ``names`` (default: every parameter) with about ``points`` points in total,
        flattened to 1-D arrays of equal length."""
        names = list(names) if names is not None else [p.name for p in self.params]
        free = [n for n in names if not self.is_point(n)]
        per_axis = max(2, int(math.floor(points ** (1.0 / len(free))))) if free else 1
        axes = [self.axis(n, per_axis) if n in free else np.array([self.value(n)]) for n in names]
        mesh = np.meshgrid(*axes, indexing="ij")
        return {n: m.ravel() for n, m in zip(names, mesh)}


def _number(text: str, where: str, outward: int = 0) -> float:
    """The double of a box end. ``outward`` -1 (a lower end) or +1 (an upper end): where the decimal as written is not a
    double, the next double outside it, so that the box of doubles contains the box as written (the prover then covers
    every point the user named; ``x=0.09999999999999999999:1`` must not start at 0.1, where ``x >= 0.1`` holds)."""
    try:
        x = float(text)
    except ValueError:
        raise InputError(ParamName("box"), "name=lo:hi or name=value with finite numbers", where) from None
    if not math.isfinite(x):
        raise InputError(ParamName("box"), "finite numbers (no nan or inf)", where)
    return outward_double(text, x, outward) if outward else x


def written_end(text: str, v: float, side: int = 0) -> str | None:
    """The box end ``text`` as written, when ``v`` is its double (nearest, or moved outward by parse_box) and that
    double's shortest text is another number (``1e-400`` underflows to 0, ``3.00000000000000000001`` is the double 3,
    ``0.09999999999999999999`` the double 0.1): the point the 50-digit re-checks evaluate, and the only true name of
    it. None when the double's text is the number written (``0.1``: its double reads back as 0.1)."""
    from fractions import Fraction

    try:
        near = float(text)
        exact = Fraction(text.strip().replace("_", ""))
    except (ValueError, ZeroDivisionError, TypeError):
        return None
    if v not in (near, outward_double(text, near, side) if side else near):
        return None
    return None if Fraction(exact_number(near)) == exact else text.strip()


def underflows(text: str) -> bool:
    """A non-zero decimal whose double is 0 or subnormal (it keeps fewer than 53 bits): ``1e-400``, ``3e-320``."""
    try:
        v = float(text)
    except (ValueError, TypeError):
        return False
    return abs(v) < 2.2250738585072014e-308 and text.strip().lstrip("+-").replace("0", "").replace(".", "").lower() \
        .split("e")[0] != ""


def outward_double(text: str, x: float, side: int) -> float:
    """``x`` = float(text) moved one ulp outward (``side`` -1: down, +1: up) when the decimal ``text`` lies beyond it on
    that side; else ``x``."""
    from fractions import Fraction

    try:
        exact = Fraction(text.strip().replace("_", ""))
    except (ValueError, ZeroDivisionError):
        return x
    if side < 0 and Fraction(x) > exact:
        return math.nextafter(x, -math.inf)
    if side > 0 and Fraction(x) < exact:
        return math.nextafter(x, math.inf)
    return x


def parse_box(text: str | None, params: Iterable[Param], owner: str = "the claim") -> dict[str, tuple[float, float]]:
    """Parse ``name=lo:hi,name=value,...`` against ``params``; every error is a one-line InputError."""
    if text is None:
        return {}
    ps = {p.name: p for p in params}
    out: dict[str, tuple[float, float]] = {}
    items = [s.strip() for s in str(text).split(",")]
    if not any(items):
        raise InputError(ParamName("box"), "name=lo:hi[,name=lo:hi...]", text)
    for item in items:
        if not item:
            raise InputError(ParamName("box"), "name=lo:hi items separated by single commas", text)
        name, eq, rng = item.partition("=")
        name = name.strip()
        if not eq or not name:
            raise InputError(ParamName("box"), "name=lo:hi or name=value", item)
        if name not in ps:
            known = ", ".join(ps) if ps else "none"
            raise InputError(ParamName("box"), f"a parameter of {owner} ({known})", name)
        if name in out:
            raise InputError(ParamName("box"), "each parameter once", name)
        rng = rng.strip()
        if not rng:
            raise InputError(ParamName("box"), "a non-empty range lo:hi or a value", item)
        if ":" in rng:
            a, _, b = rng.partition(":")
            lo, hi = _number(a.strip(), item, -1), _number(b.strip(), item, +1)
            if not lo < hi:
                raise InputError(f"{flag('box')} {name}", "a range lo:hi with lo < hi (not reversed, not empty)", rng)
        else:
            lo = hi = _number(rng, item)
        p = ps[name]
        texts = (a.strip(), b.strip()) if ":" in rng else (rng, rng)
        for x, t in zip((lo, hi), texts):
            if not p.admits(x) and not admits_written(p, t):  # the number as written decides (3.00000000000000000001 > 3)
                raise InputError(f"{flag('box')} {name}", p.allowed_text(), x)
        out[name] = (lo, hi)
    return out


def admits_written(p: Param, text: str) -> bool:
    """Whether the decimal ``text`` as written (an exact rational) lies in ``p``'s allowed range: a box end with more
    digits than a double holds (``beta=3.00000000000000000001`` for β > 3) is valid although its double (3) is not;
    the box of doubles keeps the end rounded outward for the interval proof (parse_box) and the 50-digit re-checks
    read it as written."""
    from fractions import Fraction

    try:
        x = Fraction(text.strip().replace("_", ""))
    except (ValueError, ZeroDivisionError):
        return False
    a, b, ao, bo = p.allowed
    if p.integer and x.denominator != 1:
        return False
    lo_ok = a == -math.inf or (x > Fraction(a) if ao else x >= Fraction(a))
    hi_ok = b == math.inf or (x < Fraction(b) if bo else x <= Fraction(b))
    return lo_ok and hi_ok
