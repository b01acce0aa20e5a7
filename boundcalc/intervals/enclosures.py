"""Interval enclosures of the information quantities of seed 001: kl, TV, d_eps, and the margins of its
inequalities.

An enclosure ``f_range(X, Y, ...)`` returns an Interval that contains f(x, y, ...) for every x in X, y in Y,
… . Point values come from the formulas evaluated in balls (``interval.point_eval``); ranges over a box
come from properties of the functions, each stated where it is used:

* kl(x, y) (seed 001 §2; sheet §1.1) is jointly convex and kl(x, y) >= 0 with equality iff x = y (Gibbs).
  Hence its maximum over a box is at a vertex, and its minimum is 0 if X and Y overlap, else at the
  vertex nearest the diagonal (kl(·, y) decreases on [0, y] and increases on [y, 1]; same in y).
* d_eps(x, y) = inf_{z} { eps |z - x| + kl(z, y) } (seed 001 Eq. 6) is jointly convex in (x, y) (partial
  minimisation over z of a jointly convex function), >= 0, = 0 on x = y, and nondecreasing in eps
  (an infimum of nondecreasing functions). Same vertex argument; the point values use the closed form
  (seed 001 Eq. 8 / Lemma F.1), whose agreement with Eq. 6 is itself proven by ``provers.prove_d_eps_closed_form``.
  Near the threshold eps = eps_0 the regime of a point is decided with a ball; where the ball cannot
  decide, the hull of both branches is returned (they agree at the threshold, and one of them is right).

Margins of the inequalities that hold with equality on a set (d_eps = kl in the whole low-privacy regime,
d_eps = eps |x - y| on y in {0, 1}) cannot be certified by subtracting two enclosures (the difference of
two enclosures of the same number is an interval around 0, never >= 0). They are enclosed through exact
identities, each tested at 50 digits in tests/intervals/test_proofs_enclosures.py:

* kl(x, y) - d_eps(x, y) = kl(x, z*), z* the minimiser of Eq. 6 (seed 001 Eq. 30: z* = max(x, sigma(logit y
  - eps)) for x <= y, the mirror image for x >= y). Derivation: in the high-privacy regime d_eps =
  eps (z* - x) + kl(z*, y) and kl(x, y) - kl(x, z*) = x ln(z*/y) + (1-x) ln((1-z*)/(1-y)) = -eps x +
  ln((1-z*)/(1-y)), which equals d_eps because logit z* = logit y - eps; in the low regime z* = x.
* eps |x - y| - d_eps(x, y) = (eps - lam*) |x - y| + psi(y~, lam*), lam* = min(eps, eps_0), where
  psi(y, lam) = lam y + ln(1 - y + y e^{-lam}) >= 0 (Jensen: ln E e^{-lam B} >= -lam E B) and y~ = y for
  x <= y, 1 - y for x >= y. Derivation: the capped Chernoff dual d_eps = phi(lam*) with phi(lam) =
  -lam x - ln(1 - y + y e^{-lam}) = lam (y - x) - psi(y, lam) (sheet §2.4; phi is concave with maximiser
  eps_0).
"""

from __future__ import annotations

import math

from .. import domains as _dom
from .interval import (
    INF,
    DomainError,
    Interval,
    abs_,
    backend,
    clip_below,
    expm1,
    imax,
    imin,
    inside,
    log1p,
    point_eval,
)

UNIT = Interval(0.0, 1.0)


def _unit(name, X: Interval) -> Interval:
    """X, a Bernoulli mean's interval, within [0, 1] (boundcalc.domains.UNIT): reaching outside it is a DomainError,
    except inside ``where_defined`` (the part in [0, 1]; ``check`` then reports the rest of the box)."""
    return inside(name, X, _dom.UNIT.lo, _dom.UNIT.hi)


def _eps(E: Interval) -> Interval:
    """d_eps's eps within [0, inf] (eps > 0 declared, boundcalc.domains; d_eps -> 0 as eps -> 0, so the closed end
    encloses the limit): as ``_unit``."""
    return inside("epsilon", E, _dom.POSITIVE.lo, _dom.POSITIVE.hi)


# ----------------------------------------------------------------------------------------------------
# point formulas in balls (B = backend; x, y, e are balls of exact floats)
# ----------------------------------------------------------------------------------------------------
def _kl_ball(B, x, y, xf, yf):
    """kl(x, y) for 0 < y < 1 (xf, yf: the float values, to pick the exact boundary forms)."""
    if xf == 0.0:
        return -B.log1p(-y)  # kl(0, y) = -ln(1 - y)
    if xf == 1.0:
        return -B.log(y)  # kl(1, y) = -ln y
    return x * B.log(x / y) + (1 - x) * B.log((1 - x) / (1 - y))


def kl_point(x: float, y: float) -> Interval:
    """Enclosure of kl(x, y) at a point (seed 001 §2; sheet §1.1): +inf at x != y = 0 or 1, clipped at 0."""
    if x == y:
        return Interval(0.0)
    if (y == 0.0 and x > 0) or (y == 1.0 and x < 1):
        return Interval(INF)
    r = point_eval(lambda B, xb, yb: _kl_ball(B, xb, yb, x, y), x, y)
    return clip_below(r, 0.0)


def kl_range(X: Interval, Y: Interval) -> Interval:
    """Range of kl over X x Y (subsets of [0, 1]): vertex maximum, 0 or the nearest vertex as minimum."""
    X, Y = _unit("x", X), _unit("y", Y)
    corners = [kl_point(a, b) for a in (X.lo, X.hi) for b in (Y.lo, Y.hi)]
    hi = max(c.hi for c in corners)
    if X.overlaps(Y):
        lo = 0.0
    elif X.hi < Y.lo:
        lo = kl_point(X.hi, Y.lo).lo
    else:
        lo = kl_point(X.lo, Y.hi).lo
    return Interval(lo, hi)


def tv_range(X: Interval, Y: Interval) -> Interval:
    """TV(Ber(x), Ber(y)) = |x - y| (seed 001 Def. 3.2 context; sheet §1.3): exact range of |X - Y|."""
    return abs_(_unit("x", X) - _unit("y", Y))


def _sigma_shift_ball(B, y, s, yf):
    """sigma(logit y + s) = y e^s / (1 - y + y e^s) for 0 <= y <= 1 (s a ball)."""
    if yf == 0.0:
        return B.num(0.0)
    if yf == 1.0:
        return B.num(1.0)
    es = B.exp(s)
    return y * es / ((1 - y) + y * es)


def sigma_shift_point(y: float, s: float) -> Interval:
    """Enclosure of sigma(logit(y) + s) (the tilted mean; s = -eps gives z* of seed 001 Eq. 30)."""
    r = point_eval(lambda B, yb, sb: _sigma_shift_ball(B, yb, sb, y), y, s)
    return Interval(max(r.lo, 0.0), min(r.hi, 1.0))


def _d_eps_high_ball(B, a, b, bc, e):
    """High-privacy branch -eps a - ln(bc + b e^{-eps}) (seed 001 Eq. 31; x < y: a = x, b = y, bc = 1 - y)."""
    return -e * a - B.log(bc + b * B.exp(-e))


def _threshold_ball(B, a, b, bc, af, bcf):
    """eps_0 = logit(b) - logit(a) (seed 001 Eq. 8) as a ball; None when it is +inf (a = 0 or bc = 0)."""
    if af == 0.0 or bcf == 0.0:
        return None
    return B.log(b) - B.log(bc) - B.log(a) + B.log(1 - a)


def d_eps_point(x: float, y: float, e: float) -> Interval:
    """Enclosure of d_eps(x, y) at a point by the closed form (seed 001 Eq. 8 / Lemma F.1, Eqs. 30-32).

    x > y uses the symmetry d_eps(x, y) = d_eps(1 - x, 1 - y) (in balls, so 1 - x is exact). The regime
    (eps >= eps_0: d_eps = kl) is decided with a ball; if the ball cannot decide, the hull of both branches.
    """
    if x == y or e == 0.0:
        return Interval(0.0)
    if math.isinf(e):
        return kl_point(x, y)
    lo_side = x < y

    def branches(B, xb, yb, eb):
        if lo_side:
            a, b, bc, af, bcf = xb, yb, 1 - yb, x, 1.0 - y if y != 1.0 else 0.0
        else:
            a, b, bc, af, bcf = 1 - xb, 1 - yb, yb, (0.0 if x == 1.0 else 1.0 - x), y
        high = _d_eps_high_ball(B, a, b, bc, eb)
        th = _threshold_ball(B, a, b, bc, af, bcf)
        return high, th

    B = backend()
    with B.prec():
        xb, yb, eb = B.num(x), B.num(y), B.num(e)
        high, th = branches(B, xb, yb, eb)
        high_iv = Interval(max(B.lower(high), 0.0), max(B.upper(high), 0.0))
        if th is None:
            return high_iv
        th_lo, th_hi = B.lower(th), B.upper(th)
    if th_hi <= e:
        return kl_point(x, y)
    if th_lo > e:
        return high_iv
    return Interval.hull(high_iv, kl_point(x, y))


def d_eps_range(X: Interval, Y: Interval, E: Interval) -> Interval:
    """Range of d_eps over X x Y x E (seed 001 Eq. 6): joint convexity in (x, y), zero on the diagonal,
    monotone in eps (module docstring). E must lie in [0, inf)."""
    X, Y = _unit("x", X), _unit("y", Y)
    E = _eps(E)
    if X.overlaps(Y):
        lo = 0.0
        hi = max(d_eps_point(a, b, E.hi).hi for a in (X.lo, X.hi) for b in (Y.lo, Y.hi))
    elif X.hi < Y.lo:
        lo = d_eps_point(X.hi, Y.lo, E.lo).lo
        hi = d_eps_point(X.lo, Y.hi, E.hi).hi
    else:
        lo = d_eps_point(X.lo, Y.hi, E.lo).lo
        hi = d_eps_point(X.hi, Y.lo, E.hi).hi
    return Interval(lo, hi)


def logit_diff_range(X: Interval, Y: Interval) -> Interval:
    """Range of eps_0(x, y) = |logit y - logit x| (seed 001 Eq. 8) over X x Y (+inf at the boundary)."""
    X, Y = _unit("x", X), _unit("y", Y)

    def lg(v, lower):
        if v == 0.0:
            return -INF
        if v == 1.0:
            return INF
        r = point_eval(lambda B, vb: B.log(vb) - B.log(1 - vb), v)
        return r.lo if lower else r.hi

    if X.overlaps(Y):
        cands = [lg(Y.hi, False) - lg(X.lo, True), lg(X.hi, False) - lg(Y.lo, True)]
        hi = max(c for c in cands if c == c)  # inf - inf does not occur (overlapping, distinct ends)
        return Interval(0.0, hi if hi == hi else INF)
    if X.hi < Y.lo:
        lo = lg(Y.lo, True) - lg(X.hi, False)
        hi = lg(Y.hi, False) - lg(X.lo, True)
    else:
        lo = lg(X.lo, True) - lg(Y.hi, False)
        hi = lg(X.hi, False) - lg(Y.lo, True)
    lo = max(0.0, math.nextafter(lo, -INF)) if lo == lo else 0.0
    hi = math.nextafter(hi, INF) if hi == hi else INF
    return Interval(lo, hi)


def z_star_range(X: Interval, Y: Interval, E: Interval) -> Interval:
    """Range of the minimiser z* of seed 001 Eq. 6 (Eq. 30 / Lemma F.1) over the box:
    z* = max(x, sigma(logit y - eps)) for x <= y, min(x, sigma(logit y + eps)) for x >= y; sigma(logit y + s)
    is increasing in y and in s."""
    X, Y = _unit("x", X), _unit("y", Y)
    parts = []
    if X.lo <= Y.hi:  # some x <= y
        s = Interval(sigma_shift_point(Y.lo, -E.hi).lo, sigma_shift_point(Y.hi, -E.lo).hi)
        parts.append(imax(X, s))
    if X.hi >= Y.lo:  # some x >= y
        s = Interval(sigma_shift_point(Y.lo, E.lo).lo, sigma_shift_point(Y.hi, E.hi).hi)
        parts.append(imin(X, s))
    return Interval.hull(*parts)


def psi_point(y: float, lam: float) -> Interval:
    """psi(y, lam) = lam y + ln(1 - y + y e^{-lam}) at a point, clipped at 0 (Jensen)."""
    if y == 0.0 or lam == 0.0:
        return Interval(0.0)
    if math.isinf(lam):
        return Interval(INF) if y < 1.0 else Interval(0.0)
    r = point_eval(lambda B, yb, lb: lb * yb + B.log1p(yb * B.expm1(-lb)), y, lam)
    return clip_below(r, 0.0)


def psi_range(Y: Interval, L: Interval) -> Interval:
    """Range of psi over Y x L (Y in [0,1], L >= 0): increasing in lam (d psi/d lam = y - sigma(logit y - lam)
    >= 0), concave in y with psi(0, .) = psi(1, .) = 0, so the minimum is at (an end of Y, L.lo); the upper
    end is the natural extension at L.hi, capped by Hoeffding's lemma psi <= lam^2/8."""
    Y = _unit("y", Y)
    lo = min(psi_point(Y.lo, L.lo).lo, psi_point(Y.hi, L.lo).lo)
    if math.isinf(L.hi):
        return Interval(lo, INF)
    # natural extension at L.hi over Y: lam y + log1p(y expm1(-lam))

    lh = Interval(L.hi)
    nat = lh * Y + log1p(Y * expm1(-lh))
    cap = (lh * lh / 8).hi
    hi = min(nat.hi, cap)
    return Interval(max(lo, 0.0), max(hi, max(lo, 0.0)))


# ----------------------------------------------------------------------------------------------------
# margins through identities (module docstring)
# ----------------------------------------------------------------------------------------------------
def margin_kl_minus_d_eps(X: Interval, Y: Interval, E: Interval) -> Interval:
    """Enclosure of kl(x, y) - d_eps(x, y) = kl(x, z*) >= 0 over the box (identity in the module docstring)."""
    X, Y, E = _unit("x", X), _unit("y", Y), _eps(E)
    return kl_range(X, z_star_range(X, Y, E))


def margin_eps_tv_minus_d_eps(X: Interval, Y: Interval, E: Interval, c: float = 1.0) -> Interval:
    """Enclosure of c eps |x - y| - d_eps(x, y) for c >= 1 over the box:
    (c - 1) eps |x - y| + (eps - lam*) |x - y| + psi(y~, lam*) (identity in the module docstring)."""
    if c < 1:
        raise ValueError("the identity margin needs c >= 1; use the generic difference for c < 1")
    X, Y = _unit("x", X), _unit("y", Y)
    E = _eps(E)
    e0 = logit_diff_range(X, Y)
    lam = imin(E, e0)
    gap = imax(Interval(0.0), E - e0)  # eps - min(eps, eps_0) = max(0, eps - eps_0)
    tv = tv_range(X, Y)
    parts = []
    if X.lo <= Y.hi:
        parts.append(psi_range(Y, lam))
    if X.hi >= Y.lo:
        parts.append(psi_range(1 - Y, lam))
    out = gap * tv + Interval.hull(*parts)
    if c != 1.0:
        out = out + (Interval(c) - 1) * E * tv
    return clip_below(out, 0.0)


# ----------------------------------------------------------------------------------------------------
# per-arm ratios of the finite-armed bounds (seed 001 Eq. 3, Thm 3.1, Eq. 7)
# ----------------------------------------------------------------------------------------------------
def _ratio_point(x: float, y: float, e: float | None, which: str) -> Interval:
    """(y - x) / q(x, y) at a point, q = kl or d_eps (x < y), in balls."""
    q = kl_point(x, y) if which == "kl" else d_eps_point(x, y, e)
    gap = Interval(y) - Interval(x)
    return gap / q


def gap_over_kl_range(X: Interval, Y: Interval) -> Interval:
    """Range of (y - x)/kl(x, y) over X x Y with X < Y (the Lai-Robbins term of seed 001 Eq. 3).

    For a convex g >= 0 with g = 0 at one end, the secant slope g/|distance| grows with the distance
    (three-chord lemma); kl(., y) and kl(x, .) are convex and vanish at x = y, so (y - x)/kl(x, y) is
    nondecreasing in x and nonincreasing in y: the range is spanned by two corners."""
    X, Y = _unit("x", X), _unit("y", Y)
    if not X.hi < Y.lo:
        raise DomainError(f"gap_over_kl_range needs x < y on the box (got {X}, {Y})")
    return Interval(_ratio_point(X.lo, Y.hi, None, "kl").lo, _ratio_point(X.hi, Y.lo, None, "kl").hi)


def gap_over_d_eps_range(X: Interval, Y: Interval, E: Interval) -> Interval:
    """Range of (y - x)/d_eps(x, y) over the box with X < Y (the term of seed 001 Thm 3.1, Eq. 5): the same
    secant argument (d_eps is convex in x and in y and vanishes at x = y) and d_eps nondecreasing in eps."""
    X, Y, E = _unit("x", X), _unit("y", Y), _eps(E)
    if not X.hi < Y.lo:
        raise DomainError(f"gap_over_d_eps_range needs x < y on the box (got {X}, {Y})")
    return Interval(_ratio_point(X.lo, Y.hi, E.hi, "d").lo, _ratio_point(X.hi, Y.lo, E.lo, "d").hi)
