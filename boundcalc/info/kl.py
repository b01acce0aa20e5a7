"""Bernoulli relative entropy, Gaussian KL, total variation and the kl-UCB / kl-LCB inverses.

Sources
-------
* kl(x, y) = x ln(x/y) + (1-x) ln((1-x)/(1-y)): seed 001 §2 ("Bernoulli bandits", singularities by
  taking limits) and formula sheet eps-global-dp-bernoulli §1.1. Conventions 0 ln 0 = 0, 0 ln(0/0) = 0,
  a ln(a/0) = +inf for a > 0, so kl(x, 0) = +inf for x > 0 and kl(x, 1) = +inf for x < 1.
* TV(Ber(x), Ber(y)) = |x - y|: seed 001 Eq. 3 context / Def. 3.2 (sheet §1.3, §1.5).
* kl-UCB index max{q in [x, 1] : kl(x, q) <= level}: Cappé, Garivier, Maillard, Munos, Stoltz (2013),
  "Kullback-Leibler upper confidence bounds for optimal sequential allocation" (sheet §7.5).

Every public function validates its input (NaN / out of range -> boundcalc.errors.InputError).
numpy views are vectorised; ``*_mp`` views evaluate at the current ``mpmath.mp.dps``; ``*_sym`` views
return sympy expressions (sympy imported lazily).
"""

from __future__ import annotations

import numpy as np
from ._special import expit, xlogy

from ..errors import InputError
from ..validate import positive_array, probability_array


def _out(a):
    a = np.asarray(a)
    return a[()] if a.ndim == 0 else a


def _finite_array(name, arr):
    a = np.asarray(arr, dtype=float)
    if a.size and not np.isfinite(a).all():
        raise InputError(name, "a finite number", float(a[~np.isfinite(a)].ravel()[0]))
    return a


def _level_array(name, arr):
    """A confidence level >= 0 (may be +inf)."""
    a = np.asarray(arr, dtype=float)
    bad = np.isnan(a) | (a < 0)
    if a.size and bad.any():
        raise InputError(name, "a number >= 0", float(a[bad].ravel()[0]))
    return a


# ----------------------------------------------------------------------------------------------------
# kl(x, y)
# ----------------------------------------------------------------------------------------------------


def _kl(x, y):
    """Unvalidated kl on float arrays in [0, 1] (broadcast)."""
    x, y = np.broadcast_arrays(np.asarray(x, dtype=float), np.asarray(y, dtype=float))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        # Boundary-safe form (exact limits): xlogy handles 0 ln 0 = 0 and a ln 0 = -inf.
        base = xlogy(x, x) - xlogy(x, y) + xlogy(1 - x, 1 - x) - xlogy(1 - x, 1 - y)
        # Interior form: log1p(x/y - 1) where x/y is near 1 (accurate when x ~ y), plain logs otherwise.
        d = x - y
        u, v = d / y, -d / (1 - y)
        t1 = np.where(np.abs(u) <= 0.5, x * np.log1p(u), x * (np.log(x) - np.log(y)))
        t2 = np.where(np.abs(v) <= 0.5, (1 - x) * np.log1p(v), (1 - x) * (np.log1p(-x) - np.log1p(-y)))
        inner = t1 + t2
    interior = (y > 0) & (y < 1) & (x > 0) & (x < 1)
    out = np.where(interior, inner, base)
    out = np.where(np.isnan(out), np.inf, out)  # only a ln(a/0) with a > 0 can produce nan here
    out = np.where(x == y, 0.0, out)
    return np.maximum(out, 0.0)


def kl_bernoulli(x, y):
    """Bernoulli relative entropy kl(x, y) = KL(Ber(x), Ber(y)), vectorised.

    Source: seed 001 §2 (definition, limits at the boundary); sheet §1.1. Exact +inf for x > 0 = y and
    x < 1 = y; kl(0, y) = -ln(1 - y), kl(1, y) = -ln y, kl(0, 0) = kl(1, 1) = 0.
    """
    x = probability_array("x", x)
    y = probability_array("y", y)
    return _out(_kl(x, y))


def _mp_prob(name, v):
    import mpmath

    try:
        v = mpmath.mpf(v)
    except (TypeError, ValueError):
        raise InputError(name, "in [0, 1]", v) from None
    if mpmath.isnan(v) or not (0 <= v <= 1):
        raise InputError(name, "in [0, 1]", str(v))
    return v


def _mp_pos(name, v, allow_inf=False):
    import mpmath

    try:
        v = mpmath.mpf(v)
    except (TypeError, ValueError):
        raise InputError(name, "a number > 0", v) from None
    if mpmath.isnan(v) or not v > 0 or (mpmath.isinf(v) and not allow_inf):
        raise InputError(name, "a number > 0" + ("" if allow_inf else " and finite"), str(v))
    return v


def _mp_xlogy(a, b):
    import mpmath

    if a == 0:
        return mpmath.mpf(0)
    if b == 0:
        return mpmath.mpf("-inf")
    return a * mpmath.log(b)


def _kl_mp(x, y):
    """x ln(x/y) + (1 − x) ln((1 − x)/(1 − y)) with the second logarithm as log1p(−x) − log1p(−y): forming 1 − y
    first loses every digit of a y below the working precision (y = 4e-54 at 50 digits gave kl(0, y) = 0)."""
    import mpmath

    if x == y:
        return mpmath.mpf(0)
    if (y == 0 and x > 0) or (y == 1 and x < 1):
        return mpmath.inf
    t1 = mpmath.mpf(0) if x == 0 else x * (mpmath.log(x) - mpmath.log(y))
    t2 = mpmath.mpf(0) if x == 1 else (1 - x) * (mpmath.log1p(-x) - mpmath.log1p(-y))
    return t1 + t2


def kl_bernoulli_mp(x, y):
    """kl(x, y) in mpmath at the current precision (seed 001 §2; sheet §1.1). Exact +inf at the boundary."""
    return _kl_mp(_mp_prob("x", x), _mp_prob("y", y))


def kl_bernoulli_sym(x=None, y=None):
    """sympy expression of kl(x, y) (seed 001 §2; sheet §1.1). Symbols x, y by default."""
    import sympy

    x = sympy.Symbol("x", positive=True) if x is None else sympy.sympify(x)
    y = sympy.Symbol("y", positive=True) if y is None else sympy.sympify(y)
    return x * sympy.log(x / y) + (1 - x) * sympy.log((1 - x) / (1 - y))


# ----------------------------------------------------------------------------------------------------
# Gaussian KL and TV
# ----------------------------------------------------------------------------------------------------


def kl_gaussian(mu1, mu2, sigma1=1.0, sigma2=None):
    """KL(N(mu1, sigma1^2), N(mu2, sigma2^2)) = ln(s2/s1) + (s1^2 + (mu1-mu2)^2)/(2 s2^2) - 1/2.

    sigma2 defaults to sigma1 (equal variances: (mu1-mu2)^2 / (2 sigma^2)). Standard Gaussian relative
    entropy (e.g. Cover & Thomas, Elements of Information Theory, Ch. 8); used for Gaussian arms/noise in
    the companion sheets (seeds 000/003). Vectorised.
    """
    mu1 = _finite_array("mu1", mu1)
    mu2 = _finite_array("mu2", mu2)
    s1 = positive_array("sigma1", sigma1)
    s2 = s1 if sigma2 is None else positive_array("sigma2", sigma2)
    with np.errstate(over="ignore", under="ignore"):
        r = s1 / s2  # s2 = 1e-320: r = inf and KL = +inf, the value (≈ 1e640) beyond the float range
        # ln(s2/s1) as a difference of logs: the ratio itself under/overflows for s1 = 1e-300, s2 = 1e300
        out = (np.log(s2) - np.log(s1)) + 0.5 * (r * r - 1.0) + 0.5 * ((mu1 - mu2) / s2) ** 2
    out = np.where((mu1 == mu2) & (s1 == s2), 0.0, np.maximum(out, 0.0))
    return _out(out)


def kl_gaussian_mp(mu1, mu2, sigma1=1, sigma2=None):
    """mpmath view of :func:`kl_gaussian` (standard Gaussian KL)."""
    import mpmath

    mu1, mu2 = mpmath.mpf(mu1), mpmath.mpf(mu2)
    for name, v in (("mu1", mu1), ("mu2", mu2)):
        if not mpmath.isfinite(v):
            raise InputError(name, "a finite number", str(v))
    s1 = _mp_pos("sigma1", sigma1)
    s2 = s1 if sigma2 is None else _mp_pos("sigma2", sigma2)
    r = s1 / s2
    return -mpmath.log(r) + (r * r - 1) / 2 + ((mu1 - mu2) / s2) ** 2 / 2


def kl_gaussian_sym(mu1=None, mu2=None, sigma1=None, sigma2=None):
    """sympy expression of the Gaussian KL (standard formula)."""
    import sympy

    mu1 = sympy.Symbol("mu_1", real=True) if mu1 is None else sympy.sympify(mu1)
    mu2 = sympy.Symbol("mu_2", real=True) if mu2 is None else sympy.sympify(mu2)
    s1 = sympy.Symbol("sigma_1", positive=True) if sigma1 is None else sympy.sympify(sigma1)
    s2 = sympy.Symbol("sigma_2", positive=True) if sigma2 is None else sympy.sympify(sigma2)
    return sympy.log(s2 / s1) + (s1**2 + (mu1 - mu2) ** 2) / (2 * s2**2) - sympy.Rational(1, 2)


def tv_bernoulli(x, y):
    """Total variation TV(Ber(x), Ber(y)) = |x - y| (seed 001 Eq. 3 context / Def. 3.2; sheet §1.3)."""
    x = probability_array("x", x)
    y = probability_array("y", y)
    return _out(np.abs(x - y))


def tv_bernoulli_mp(x, y):
    """mpmath view of TV(Ber(x), Ber(y)) = |x - y| (sheet §1.3)."""
    import mpmath

    return mpmath.fabs(_mp_prob("x", x) - _mp_prob("y", y))


def tv_bernoulli_sym(x=None, y=None):
    """sympy expression |x - y| (sheet §1.3)."""
    import sympy

    x = sympy.Symbol("x", positive=True) if x is None else sympy.sympify(x)
    y = sympy.Symbol("y", positive=True) if y is None else sympy.sympify(y)
    return sympy.Abs(x - y)


# ----------------------------------------------------------------------------------------------------
# kl-UCB / kl-LCB: vectorised monotone Newton in the logit variable
# ----------------------------------------------------------------------------------------------------
#
# With theta = logit(q):  kl(x, sigmoid(theta)) = softplus(theta) - x*theta - H(x),  H = binary entropy
# (evaluated in the cancellation-free log1p form). f(theta) = kl - level is convex in theta, with f' = sigmoid(theta) - x, and asymptotically linear, so
# Newton started at any theta > logit(x) lands to the right of the root after one step and then
# decreases monotonically to it (no overshoot for a convex increasing function). The lower root uses
# phi = -theta: kl(x, sigmoid(-phi)) = softplus(-phi) + x*phi - H(x), derivative x - sigmoid(-phi).


def _neg_entropy(x):
    return xlogy(x, x) + xlogy(1 - x, 1 - x)


def _expit_pair(th):
    """(expit(th), expit(-th)) with one exponential: both are 1/(1 + e) or e/(1 + e), e = exp(-|th|) (the same
    numbers as two calls of ``_special.expit``; the Newton loops below evaluate both every step)."""
    e = np.exp(-np.abs(th))
    den = 1.0 + e
    a, b = 1.0 / den, e / den
    return np.where(th >= 0, a, b), np.where(-th >= 0, a, b)


def _newton_upper(x, level, max_iter=100):
    """theta* = logit of max{q >= x : kl(x,q) <= level} for 0 < x < 1, 0 < level < inf (arrays)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):  # once: ~5 us per entry, every step
        return _newton_upper_body(x, level, max_iter)


def _newton_upper_body(x, level, max_iter):
    negh = _neg_entropy(x)
    lx = np.log(x) - np.log1p(-x)
    whole = slice(None)

    def f_and_df(th, i=whole):
        xi, lv = (x, level) if i is whole else (x[i], level[i])
        q, qc = _expit_pair(th)
        d = xi - q
        kl = xi * np.log1p(d / q) + (1 - xi) * np.log1p(-d / qc)  # accurate when q ~ x
        fin = np.isfinite(kl)
        if not fin.all():
            kl = np.where(fin, kl, np.logaddexp(0.0, th) - xi * th + negh[i])
        return kl - lv, q - xi

    # starting point: quadratic approximation kl ~ (q-x)^2 / (2x(1-x)), pushed right of logit(x)
    q0 = np.minimum(x + np.sqrt(level) * np.sqrt(2.0 * x * (1 - x)), 1.0)  # √level·…: no overflow at 1e308
    th = np.maximum(np.log(q0) - np.log1p(-q0), lx + 1e-3)
    # guaranteed upper bound: softplus(th) >= th  =>  f > 0 for th > (level + H)/(1 - x)
    ub = np.minimum((level - negh) / (1 - x), 800.0)  # sigmoid(800) == 1.0 in double precision
    th = np.minimum(th, np.maximum(ub, lx + 1e-3))
    f, df = f_and_df(th)
    th = th - f / df  # now >= root (tangent below a convex function)
    th = np.where(np.isnan(th), np.inf, th)
    th = np.minimum(th, np.maximum(ub, lx))
    idx = np.arange(th.size)
    for _ in range(max_iter):
        if not idx.size:
            break
        t = th[idx]
        f, df = f_and_df(t, idx)
        pos = df > 0  # subnormal slope: an infinite step lands on the clamp below
        step = np.where(pos, f / np.where(pos, df, 1.0), 0.0)
        step = np.maximum(step, 0.0)  # monotone from the right; rounding may make f slightly < 0
        t_new = t - step
        th[idx] = t_new
        done = (step <= 4e-16 * np.maximum(1.0, np.abs(t_new))) | (f <= 0)
        idx = idx[~done]
    return th


def _newton_lower(x, level, max_iter=100):
    """phi* = -logit of min{q <= x : kl(x,q) <= level} for 0 < x < 1, 0 < level < inf (arrays)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return _newton_lower_body(x, level, max_iter)


def _newton_lower_body(x, level, max_iter):
    negh = _neg_entropy(x)
    px = np.log1p(-x) - np.log(x)  # = -logit(x)
    whole = slice(None)

    def f_and_df(ph, i=whole):
        xi, lv = (x, level) if i is whole else (x[i], level[i])
        qc, q = _expit_pair(ph)  # q = expit(-ph), qc = expit(ph)
        d = xi - q
        kl = xi * np.log1p(d / q) + (1 - xi) * np.log1p(-d / qc)
        fin = np.isfinite(kl)
        if not fin.all():
            kl = np.where(fin, kl, np.logaddexp(0.0, -ph) + xi * ph + negh[i])
        return kl - lv, xi - q

    q0 = np.maximum(x - np.sqrt(level) * np.sqrt(2.0 * x * (1 - x)), 0.0)
    ph = np.maximum(np.log1p(-q0) - np.log(q0), px + 1e-3)
    ub = np.minimum((level - negh) / x, 800.0)  # sigmoid(-800) == 0.0 in double precision
    ph = np.minimum(ph, np.maximum(ub, px + 1e-3))
    f, df = f_and_df(ph)
    ph = ph - f / df
    ph = np.where(np.isnan(ph), np.inf, ph)
    ph = np.minimum(ph, np.maximum(ub, px))
    idx = np.arange(ph.size)
    for _ in range(max_iter):
        if not idx.size:
            break
        p = ph[idx]
        f, df = f_and_df(p, idx)
        pos = df > 0  # subnormal slope: an infinite step lands on the clamp below
        step = np.where(pos, f / np.where(pos, df, 1.0), 0.0)
        step = np.maximum(step, 0.0)
        p_new = p - step
        ph[idx] = p_new
        done = (step <= 4e-16 * np.maximum(1.0, np.abs(p_new))) | (f <= 0)
        idx = idx[~done]
    return ph


def _kl_ucb(x, level):
    """Unvalidated vectorised kl-UCB (x in [0,1], level >= 0, both arrays, broadcast)."""
    x, level = np.broadcast_arrays(np.asarray(x, dtype=float), np.asarray(level, dtype=float))
    out = np.array(x, dtype=float, copy=True).ravel()
    xf, lf = x.ravel(), level.ravel()
    # x = 0: kl(0, q) = -ln(1 - q)  =>  q = 1 - e^{-level}. Also used for x < 1e-300, where the exact
    # root differs by O(x ln x) (not representable next to q) and the Newton slope would be subnormal.
    m0 = (xf < 1e-300) & (lf > 0)
    out[m0] = -np.expm1(-lf[m0])
    out[(lf == np.inf) | (xf == 1)] = 1.0
    m = (xf >= 1e-300) & (xf < 1) & (lf > 0) & (lf < np.inf)
    if m.any():
        th = _newton_upper(xf[m], lf[m])
        out[m] = np.maximum(expit(th), xf[m])
    return out.reshape(x.shape)


def _kl_lcb(x, level):
    x, level = np.broadcast_arrays(np.asarray(x, dtype=float), np.asarray(level, dtype=float))
    out = np.array(x, dtype=float, copy=True).ravel()
    xf, lf = x.ravel(), level.ravel()
    m1 = (xf == 1) & (lf > 0)
    out[m1] = np.exp(-lf[m1])  # kl(1, q) = -ln q
    out[(lf == np.inf) | (xf == 0)] = 0.0
    m = (xf > 0) & (xf < 1) & (lf > 0) & (lf < np.inf)
    if m.any():
        ph = _newton_lower(xf[m], lf[m])
        out[m] = np.minimum(expit(-ph), xf[m])
    return out.reshape(x.shape)


def kl_ucb(x, level):
    """kl-UCB index max{q in [x, 1] : kl(x, q) <= level}, vectorised (Cappé et al. 2013; sheet §7.5).

    Vectorised monotone Newton iteration in logit(q) (no Python loop over points); accurate to ~1e-13.
    Exact edges: level = 0 -> x; x = 1 or level = inf -> 1; x = 0 -> 1 - e^{-level}.
    """
    x = probability_array("x", x)
    level = _level_array("level", level)
    return _out(_kl_ucb(x, level))


def kl_lcb(x, level):
    """kl-LCB index min{q in [0, x] : kl(x, q) <= level}, vectorised (Cappé et al. 2013; sheet §7.5).

    Exact edges: level = 0 -> x; x = 0 or level = inf -> 0; x = 1 -> e^{-level}.
    """
    x = probability_array("x", x)
    level = _level_array("level", level)
    return _out(_kl_lcb(x, level))


def _mp_level(name, v):
    import mpmath

    v = mpmath.mpf(v)
    if mpmath.isnan(v) or v < 0:
        raise InputError(name, "a number >= 0", str(v))
    return v


def _mp_bisect(g, lo, hi):
    """Root of an increasing function g on [lo, hi] (g(lo) <= 0 <= g(hi)) to the working precision."""
    import mpmath

    n = int(mpmath.mp.prec) + 20 + int(mpmath.log(abs(hi - lo) + 1, 2))
    for _ in range(n):
        mid = (lo + hi) / 2
        if mid == lo or mid == hi:
            break
        if g(mid) <= 0:
            lo = mid
        else:
            hi = mid
    return lo, hi


def _kl_ucb_mp(x, level):
    import mpmath

    if level == 0:
        return x
    if x == 1 or mpmath.isinf(level):
        return mpmath.mpf(1)
    if x == 0:
        return -mpmath.expm1(-level)
    # kl(x, q) = kl(1 − x, 1 − q): the upper root is 1 − the lower root of the mirrored problem
    return 1 - _kl_lcb_mp(1 - x, level)


def _kl_lcb_mp(x, level):
    """min{q ≤ x : kl(x, q) ≤ level} by bisection on ln q (independent of the float Newton).

    Bracket: kl(x, q) ≥ x ln(x/q) + (1 − x) ln(1 − x), so the root is ≥ q_lo = x exp(−(level − (1−x) ln(1−x))/x)
    > 0. Bisecting ln q (not q) keeps every digit when the root is exponentially small (level = 1e308 gives
    q ~ e^{−1e308}, which mpmath represents); the precision is raised by the digits of |ln q_lo|, and by those of
    1/level: near q = x, kl ≈ (q − x)²/(2x(1−x)) is a difference of O(1) terms, so resolving kl = level to the
    working precision needs log10(1/level) more digits (level = 1e-320: 320 more)."""
    import mpmath

    if level == 0:
        return x
    if x == 0 or mpmath.isinf(level):
        return mpmath.mpf(0)
    if x == 1:
        return mpmath.exp(-level)
    dps = mpmath.mp.dps
    log_lo = mpmath.log(x) - (level - (1 - x) * mpmath.log1p(-x)) / x
    extra = int(mpmath.log10(abs(log_lo) + 1)) + max(0, int(-mpmath.log10(level))) + 10
    with mpmath.workdps(dps + extra):
        g = lambda t: level - _kl_mp(x, mpmath.exp(t))  # noqa: E731 - increasing in t on (-inf, ln x]
        lo, hi = log_lo, mpmath.log(x)
        # every level (issue 22 §4: --digits 10000 --level 1 bisected for minutes; before, only |ln q_lo| > 1e6):
        # Newton steps on t = ln q from the bracket's lower end (g is increasing and concave there:
        # g'(t) = x − (1 − x) q/(1 − q)), a few iterations instead of ~3.3 (dps + extra) bisection steps at
        # hundreds of digits (level = 1e308 took 87 s); each step keeps g(lo) <= 0, then bisection polishes
        for _ in range(200):
            q = mpmath.exp(lo)
            step = -g(lo) / (x - (1 - x) * q / (1 - q))
            if not step > 0 or lo + step >= hi:
                break
            nxt = lo + step
            if g(nxt) > 0:
                hi = nxt
                break
            lo = nxt
            if step <= abs(lo) * mpmath.mpf(10) ** (-(dps + extra - 5)):
                break
        # g is concave, so the Newton iterates stay left of the root: close the bracket from the right
        w = abs(lo) * mpmath.mpf(10) ** (-(dps + extra - 8))
        while lo + w < hi and g(lo + w) <= 0:
            lo, w = lo + w, 2 * w
        hi = min(hi, lo + w)
        lo, hi = _mp_bisect(g, lo, hi)
        q = mpmath.exp(hi)
    return +q


def kl_ucb_mp(x, level):
    """kl-UCB index in mpmath (bisection to the working precision; Cappé et al. 2013; sheet §7.5)."""
    return _kl_ucb_mp(_mp_prob("x", x), _mp_level("level", level))


def kl_lcb_mp(x, level):
    """kl-LCB index in mpmath (bisection to the working precision; Cappé et al. 2013; sheet §7.5)."""
    return _kl_lcb_mp(_mp_prob("x", x), _mp_level("level", level))
