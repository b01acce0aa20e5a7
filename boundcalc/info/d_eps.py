"""The interpolating DP quantity d_eps of seed 001 (Eq. 6 definition, Eq. 8 / Lemma F.1 closed form, Eq. 9).

d_eps(x, y) = inf_{z in [min(x,y), max(x,y)]} { eps |z - x| + kl(z, y) }                   (seed 001 Eq. 6)

Closed form (seed 001 Eq. 8, Lemma F.1, Eqs. 30-32; sheet §2.3). For x < y, threshold
eps_0 = logit(y) - logit(x):
  d_eps = kl(x, y)                          if eps >= eps_0      (low privacy, z* = x)
  d_eps = -eps x - ln(1 - y + y e^{-eps})   otherwise            (high privacy, z* = y/(y + (1-y) e^eps))
and the mirror image for x > y: d_eps = eps x - ln(1 - y + y e^{eps}) below eps_0' = logit(x) - logit(y).
By the symmetry kl(z, y) = kl(1-z, 1-y), d_eps(x, y) = d_eps(1-x, 1-y); the x > y branch is evaluated as
-eps (1-x) - ln(y + (1-y) e^{-eps}), which never overflows and never cancels two huge numbers.

General distributions (seed 001 Eq. 9, Thm 3.1 implication (c); sheet §2.2):
d_eps(P, Q) = inf_R { eps TV(P, R) + KL(R, Q) }.
"""

from __future__ import annotations

import math

import numpy as np
from ._special import expit, golden_section_mp

from ..errors import InputError
from ..validate import positive_array, probability_array
from .kl import _kl, _kl_mp, _kl_ucb, _kl_ucb_mp, _mp_pos, _mp_prob, _out, kl_bernoulli_mp


# ----------------------------------------------------------------------------------------------------
# helpers
# ----------------------------------------------------------------------------------------------------


def _log_mix(b, bc, e):
    """ln(bc + b e^{-e}) for b in [0,1], bc = 1 - b (given separately for accuracy), e in (0, inf)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        u = b * np.expm1(-e)  # in [-b, 0]
        small = np.log1p(u)  # accurate when |u| <= 1/2
        big = np.logaddexp(np.log(bc), np.log(b) - e)  # accurate when bc + b e^{-e} is not close to 1
    return np.where(u >= -0.5, small, big)


def _high(a, b, bc, e):
    """High-privacy branch -e a - ln(bc + b e^{-e}) (Eq. 31 with x -> a, y -> b)."""
    with np.errstate(invalid="ignore", over="ignore"):
        ea = np.where(a == 0, 0.0, e * a)
        return -ea - _log_mix(b, bc, e)


def _threshold(x, y):
    with np.errstate(divide="ignore", invalid="ignore"):
        lx = np.log(x) - np.log1p(-x)
        ly = np.log(y) - np.log1p(-y)
        out = np.abs(ly - lx)
    return np.where(x == y, 0.0, np.where(np.isnan(out), np.inf, out))


def _d_eps(x, y, e):
    """Unvalidated closed form (broadcast float arrays; e may be +inf)."""
    x, y, e = np.broadcast_arrays(*(np.asarray(a, dtype=float) for a in (x, y, e)))
    kl = _kl(x, y)
    lo = x < y
    # x < y: a = x, b = y, bc = 1 - y.   x > y: a = 1 - x, b = 1 - y, bc = y  (symmetry z -> 1 - z)
    a = np.where(lo, x, 1.0 - x)
    b = np.where(lo, y, 1.0 - y)
    bc = np.where(lo, 1.0 - y, y)
    ef = np.where(np.isinf(e), 1.0, e)
    high = _high(a, b, bc, ef)
    # x > y with moderate eps: the direct Eq. 32 form eps x - log1p(y (e^eps - 1)) avoids the rounding of
    # a = 1 - x (which costs eps * 1e-16 absolute when x is tiny)
    with np.errstate(over="ignore", invalid="ignore"):
        direct = ef * x - np.log1p(y * np.expm1(np.minimum(ef, 700.0)))
    high = np.where(~lo & (ef <= 700.0), direct, high)
    # exact edges: y = 1 > x gives eps (1 - x); y = 0 < x gives eps x  (bc = 0 exactly)
    with np.errstate(invalid="ignore", over="ignore"):
        high = np.where(bc == 0.0, e * np.abs(x - y), high)
    low = e >= _threshold(x, y)
    out = np.where(x == y, 0.0, np.where(low | np.isinf(e), kl, high))
    return np.maximum(out, 0.0)


def _check_eps(epsilon, allow_inf=True):
    return positive_array("epsilon", epsilon, allow_inf=allow_inf)


# ----------------------------------------------------------------------------------------------------
# public float API
# ----------------------------------------------------------------------------------------------------


def d_epsilon(x, y, epsilon):
    """d_eps(x, y) by the closed form of seed 001 Eq. 8 / Lemma F.1 (Eqs. 30-32); vectorised.

    Finite for every x, y in [0, 1] and finite eps > 0: 0 <= d_eps <= min(kl(x,y), eps |x - y|) <= eps.
    Exact edge values: d_eps(x, 1) = eps (1 - x), d_eps(x, 0) = eps x (so d_eps(1, 0, eps) = eps),
    d_eps(0, y) = -ln(1 - y + y e^{-eps}), d_eps(1, y) = eps - ln(1 - y + y e^{eps}); eps = +inf gives kl.
    """
    x = probability_array("x", x)
    y = probability_array("y", y)
    e = _check_eps(epsilon)
    return _out(_d_eps(x, y, e))


def epsilon_threshold(x, y):
    """eps_0(x, y) = |logit(y) - logit(x)|: d_eps = kl iff eps >= eps_0 (seed 001 Eq. 8, eps_a; sheet §2.3).

    +inf when exactly one of x, y is at {0, 1} or they sit at opposite ends; 0 when x = y.
    """
    x = probability_array("x", x)
    y = probability_array("y", y)
    return _out(_threshold(x, y))


def d_epsilon_minimiser(x, y, epsilon):
    """The minimiser z* of eps |z - x| + kl(z, y) over the segment (seed 001 Eq. 30 / Lemma F.1).

    x < y: z* = max(x, y / (y + (1-y) e^eps));  x > y: z* = min(x, y e^eps / (1 - y + y e^eps));  x = y: x.
    """
    x = probability_array("x", x)
    y = probability_array("y", y)
    e = _check_eps(epsilon)
    x, y, e = np.broadcast_arrays(x, y, e)
    with np.errstate(divide="ignore", invalid="ignore"):
        ly = np.log(y) - np.log1p(-y)
        zl = expit(ly - e)
        zh = expit(ly + e)
    z = np.where(x < y, np.maximum(x, zl), np.where(x > y, np.minimum(x, zh), x))
    z = np.where(np.isnan(z), x, z)  # eps = inf with y in {0,1}: the value is kl = inf at every z
    return _out(z)


def d_epsilon_regime(x, y, epsilon):
    """'low' (eps >= eps_0, d_eps = kl), 'high' (eps < eps_0) or 'equal' (x = y, d_eps = 0); seed 001 Eq. 8."""
    x = probability_array("x", x)
    y = probability_array("y", y)
    e = _check_eps(epsilon)
    x, y, e = np.broadcast_arrays(x, y, e)
    out = np.where(x == y, "equal", np.where(e >= _threshold(x, y), "low", "high"))
    return str(out[()]) if out.ndim == 0 else out


def d_epsilon_by_optimisation(x, y, epsilon):
    """d_eps(x, y) from its definition (seed 001 Eq. 6) by bounded scalar minimisation over z.

    Independent of the closed form: a 2001-point grid over the segment [min(x,y), max(x,y)], then bounded
    Brent refinements (in z and in logit z) on the two grid cells around the best point, then the minimum
    with the two endpoints. Uses only kl. Scalar loop over the broadcast inputs (slow; for tests).
    """
    from scipy.optimize import minimize_scalar

    x = probability_array("x", x)
    y = probability_array("y", y)
    e = _check_eps(epsilon, allow_inf=False)
    xb, yb, eb = np.broadcast_arrays(x, y, e)
    out = np.empty(xb.shape, dtype=float)
    for idx in np.ndindex(xb.shape):
        xi, yi, ei = float(xb[idx]), float(yb[idx]), float(eb[idx])
        lo, hi = min(xi, yi), max(xi, yi)

        def obj(z, xi=xi, yi=yi, ei=ei):
            return ei * abs(z - xi) + float(_kl(z, yi))

        best = min(obj(lo), obj(hi))
        if hi > lo:
            grid = np.linspace(lo, hi, 2001)
            vals = ei * np.abs(grid - xi) + _kl(grid, yi)
            k = int(np.argmin(vals))
            best = min(best, float(vals[k]))
            a, b = grid[max(k - 1, 0)], grid[min(k + 1, grid.size - 1)]
            if b > a and np.isfinite(vals[max(k - 1, 0)]) and np.isfinite(vals[min(k + 1, grid.size - 1)]):
                res = minimize_scalar(obj, bounds=(a, b), method="bounded", options={"xatol": 1e-15})
                if np.isfinite(res.fun):
                    best = min(best, float(res.fun))
                # again in logit(z): Brent's relative tolerance is then fine near 0 and 1
                a2, b2 = max(a, 1e-300), min(b, 1.0 - 2.0**-53)
                if a2 < b2:
                    la, lb = math.log(a2) - math.log1p(-a2), math.log(b2) - math.log1p(-b2)
                    if lb > la:
                        res = minimize_scalar(lambda u: obj(1.0 / (1.0 + math.exp(-u))), bounds=(la, lb),
                                              method="bounded", options={"xatol": 1e-15})
                        if np.isfinite(res.fun):
                            best = min(best, float(res.fun))
        out[idx] = best
    return _out(out)


def d_epsilon_dual(x, y, epsilon):
    """Capped-Chernoff dual: sup_{0 <= lam <= eps} -lam x - ln(1 - y + y e^{-lam}) for x <= y (sheet §2.4).

    Mirror (x >= y): sup_{0<=lam<=eps} lam x - ln(1 - y + y e^{lam}). The objective is concave in lam with
    unconstrained maximiser |logit(y) - logit(x)|; evaluated here by bounded scalar maximisation
    (independent of the closed form; scalar loop, for tests).
    """
    from scipy.optimize import minimize_scalar

    x = probability_array("x", x)
    y = probability_array("y", y)
    e = _check_eps(epsilon, allow_inf=False)
    xb, yb, eb = np.broadcast_arrays(x, y, e)
    out = np.empty(xb.shape, dtype=float)
    for idx in np.ndindex(xb.shape):
        xi, yi, ei = float(xb[idx]), float(yb[idx]), float(eb[idx])
        if xi > yi:
            xi, yi = 1.0 - xi, 1.0 - yi

        def neg(lam, xi=xi, yi=yi):
            return lam * xi + math.log((1.0 - yi) + yi * math.exp(-lam))

        res = minimize_scalar(neg, bounds=(0.0, ei), method="bounded", options={"xatol": 1e-14})
        out[idx] = max(0.0, -min(res.fun, neg(0.0), neg(ei)))
    return _out(out)


def d_epsilon_general(p_support, p_weights, q_weights, epsilon, return_minimiser=False):
    """d_eps(P, Q) = inf_R { eps TV(P, R) + KL(R, Q) } on a common finite support (seed 001 Eq. 9).

    R ranges over all distributions on the support (sheet §2.2 [UNC]: whether R is restricted to M_a is
    not recoverable; here it is not). The KKT conditions of this convex problem give
    r_i = clip(p_i, c q_i e^{-eps/2}, c q_i e^{eps/2}) with the scalar c fixed by sum r = 1; w = ln c - eps/2
    is found by bisection in [-eps, 0] and then solved exactly on the identified active set.
    The value depends on the weights only (TV and KL do not see the support points). For a two-point
    support this reduces to the Bernoulli d_eps. Returns the value (and R if return_minimiser).
    """
    sup = np.asarray(p_support, dtype=float).ravel()
    if sup.size == 0 or np.isnan(sup).any():
        raise InputError("support", "a non-empty list of finite numbers", p_support)
    p = probability_array("p_weights", p_weights).ravel()
    q = probability_array("q_weights", q_weights).ravel()
    if not (p.size == q.size == sup.size):
        raise InputError("weights", f"{sup.size} entries (one per support point)", (p.size, q.size))
    for name, w in (("p_weights", p), ("q_weights", q)):
        if abs(w.sum() - 1.0) > 1e-9:
            raise InputError(name, "weights summing to 1", float(w.sum()))
    p, q = p / p.sum(), q / q.sum()
    e = float(_check_eps(epsilon, allow_inf=False))
    pos = q > 0

    # r_i = clip(p_i, q_i e^w, q_i e^{w + eps}) with w = ln c - eps/2 the lower end of the window. Bisection
    # on w (not on ln c): the answer w is O(ln(p/q)) even when eps is huge, so w and the active sets stay
    # exact in floating point (centering at ln c loses every digit of ln c next to eps/2 = 5e299).
    def r_of(w):
        with np.errstate(over="ignore", invalid="ignore"):  # q = 0 times e^{w+eps} = inf: masked by where
            lo_ = np.where(pos, q * np.exp(w), 0.0)
            hi_ = np.where(pos, q * np.exp(w + e), 0.0)
        return np.clip(p, lo_, hi_), lo_, hi_

    a, b = -e, 0.0  # sum r <= sum q e^{w + eps} = 1 at w = -eps;  sum r >= sum q e^w = 1 at w = 0
    for _ in range(2200):  # to float convergence (from width 1e300 to one ulp takes ~2100 halvings)
        m = 0.5 * (a + b)
        if m == a or m == b:
            break
        tot = r_of(m)[0].sum()
        if abs(tot - 1.0) <= 8e-16 * p.size:  # inside the flat stretch where sum r = 1: stop there (for large
            a = b = m  # eps the stretch is [max ln(p/q) - eps, min ln(p/q)]; its ends lose w's digits)
            break
        if tot < 1.0:
            a = m
        else:
            b = m
    w = 0.5 * (a + b)
    r, lo_, hi_ = r_of(w)
    # exact solve on the active set: e^w (sum_low q + e^eps sum_high q) = 1 - sum_free p
    low = pos & (p < lo_)
    high = pos & (p > hi_)
    free = pos & ~low & ~high
    den_terms = []
    if low.any():
        den_terms.append(np.log(q[low].sum()))
    if high.any():
        den_terms.append(np.log(q[high].sum()) + e)
    rest = 1.0 - p[free].sum()
    if den_terms and rest > 0:
        w2 = np.log(rest) - np.logaddexp.reduce(den_terms)
        r2, lo2, hi2 = r_of(w2)
        if np.array_equal(low, pos & (p < lo2)) and np.array_equal(high, pos & (p > hi2)):
            r = r2
    r = r / r.sum()
    tv = 0.5 * np.abs(p - r).sum()
    with np.errstate(divide="ignore", invalid="ignore"):
        kl = float(np.sum(np.where(r > 0, r * np.log(r / np.where(pos, q, 1.0)), 0.0)))
    val = max(0.0, e * tv + kl)
    return (val, r) if return_minimiser else val


# ----------------------------------------------------------------------------------------------------
# mpmath and sympy views
# ----------------------------------------------------------------------------------------------------


def _threshold_mp(x, y):
    import mpmath

    if x == y:
        return mpmath.mpf(0)
    if x in (0, 1) or y in (0, 1):
        return mpmath.inf
    return abs(mpmath.log(y / (1 - y)) - mpmath.log(x / (1 - x)))


def _d_eps_mp(x, y, e):
    import mpmath

    if x == y:
        return mpmath.mpf(0)
    if mpmath.isinf(e):
        return _kl_mp(x, y)
    if e >= _threshold_mp(x, y):
        return _kl_mp(x, y)
    if x < y:
        a, b = x, y
    else:  # symmetry z -> 1 - z
        a, b = 1 - x, 1 - y
    # ln(1 − b + b e^{−ε}) as log1p(b expm1(−ε)): the sum 1 − b + … loses every digit of a b (or ε) below the
    # working precision (x = 0, y = 4e-54 at 50 digits gave 0 instead of 2.4e-54)
    return -e * a - mpmath.log1p(b * mpmath.expm1(-e))


def d_epsilon_mp(x, y, epsilon):
    """d_eps(x, y) in mpmath at the current precision (closed form, seed 001 Eq. 8 / Lemma F.1, Eqs. 30-32)."""
    return _d_eps_mp(_mp_prob("x", x), _mp_prob("y", y), _mp_pos("epsilon", epsilon, allow_inf=True))


def epsilon_threshold_mp(x, y):
    """eps_0(x, y) = |logit y - logit x| in mpmath (seed 001 Eq. 8)."""
    return _threshold_mp(_mp_prob("x", x), _mp_prob("y", y))


def d_epsilon_minimiser_mp(x, y, epsilon):
    """z* in mpmath (seed 001 Eq. 30 / Lemma F.1)."""
    import mpmath

    x, y, e = _mp_prob("x", x), _mp_prob("y", y), _mp_pos("epsilon", epsilon, allow_inf=True)
    if x == y or mpmath.isinf(e):
        return x
    if x < y:
        return max(x, y / (y + (1 - y) * mpmath.exp(e)))
    return min(x, y * mpmath.exp(e) / (1 - y + y * mpmath.exp(e)))


def d_epsilon_sym(x=None, y=None, epsilon=None):
    """sympy Piecewise of the closed form for x < y (seed 001 Eq. 8 / Eq. 31), symbols x, y, epsilon."""
    import sympy

    x = sympy.Symbol("x", positive=True) if x is None else sympy.sympify(x)
    y = sympy.Symbol("y", positive=True) if y is None else sympy.sympify(y)
    e = sympy.Symbol("epsilon", positive=True) if epsilon is None else sympy.sympify(epsilon)
    kl = x * sympy.log(x / y) + (1 - x) * sympy.log((1 - x) / (1 - y))
    high = -e * x - sympy.log(1 - y + y * sympy.exp(-e))
    eps0 = sympy.log(y * (1 - x) / (x * (1 - y)))
    return sympy.Piecewise((kl, e >= eps0), (high, True))


def d_epsilon_definition_sym(x=None, y=None, epsilon=None):
    """sympy form of the definition (seed 001 Eq. 6): eps |z - x| + kl(z, y), to be minimised over z."""
    import sympy

    x = sympy.Symbol("x", positive=True) if x is None else sympy.sympify(x)
    y = sympy.Symbol("y", positive=True) if y is None else sympy.sympify(y)
    e = sympy.Symbol("epsilon", positive=True) if epsilon is None else sympy.sympify(epsilon)
    z = sympy.Symbol("z", positive=True)
    return e * sympy.Abs(z - x) + z * sympy.log(z / y) + (1 - z) * sympy.log((1 - z) / (1 - y))


def d_eps_definition_mp(x, y, eps):
    """d_ε from its definition at any precision, independent of the closed form (the 50-digit re-checks' reference):
    inf_{z in [min(x,y), max(x,y)]} eps |z - x| + kl(z, y) (seed 001 Eq. 6) by golden-section search at the
    current mpmath precision (the objective is convex in z), plus both ends of the segment."""
    import mpmath

    x, y, eps = mpmath.mpf(x), mpmath.mpf(y), mpmath.mpf(eps)
    if x == y:
        return mpmath.mpf(0)
    lo, hi = min(x, y), max(x, y)

    def G(z):
        return eps * abs(z - x) + kl_bernoulli_mp(z, y)

    best = min(G(lo), G(hi))
    fc, fd = golden_section_mp(G, lo, hi, int(mpmath.mp.prec * 1.5) + 20, mpmath.mpf(2) ** (-mpmath.mp.prec))
    return min(best, fc, fd)
