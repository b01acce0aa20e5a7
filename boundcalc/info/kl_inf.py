"""KL-inf: the minimal divergence to a distribution with a larger mean (seed 001 Eq. 3; Honda–Takemura).

KL_inf(P, mu*) = inf { KL(P, Q) : Q supported in [0, 1], mean(Q) > mu* }             (seed 001 Eq. 3)

* Bernoulli class: KL_inf(Ber(mu), mu*) = kl(mu, mu*) for mu < mu*, 0 otherwise (seed 001 §2 after Eq. 3;
  sheet §1.3).
* Distributions with bounded support in [0, 1] (Honda & Takemura 2010, "An asymptotically optimal bandit
  algorithm for bounded support models", COLT; used by IMED in Honda & Takemura 2015, JMLR; sheet §7.4):
      KL_inf(P, mu*) = max_{0 <= lam <= 1/(1 - mu*)} E_P[ ln(1 - lam (X - mu*)) ].
  The objective is concave in lam. With s = lam (1 - mu*) in [0, 1] the problem is bounded; at s = 1 the
  term is ln((1 - X)/(1 - mu*)), which is -inf if P has an atom at 1 (then the maximiser is interior) and
  finite otherwise (then the maximiser may be the boundary s = 1, where the optimal Q puts mass at 1).

Conventions: mean(P) >= mu* gives 0 (the infimum over mean > mu* is approached by perturbing P, and the
closed form mean >= mu* is used at mu* = 1 too); mu* = 1 with mean(P) < 1 gives +inf (no Q on [0,1] has
mean > 1).
"""

from __future__ import annotations

import numpy as np

from ..errors import InputError
from ..validate import probability_array
from .kl import _kl, _kl_mp, _mp_prob, _out


def kl_inf_bernoulli(mu, mu_star):
    """KL_inf for the Bernoulli class: kl(mu, mu*) if mu < mu*, else 0 (seed 001 Eq. 3 context; sheet §1.3).

    mu < mu* = 1 gives +inf (kl(mu, 1) = inf). Vectorised.
    """
    mu = probability_array("mu", mu)
    ms = probability_array("mu_star", mu_star)
    mu, ms = np.broadcast_arrays(mu, ms)
    return _out(np.where(mu < ms, _kl(mu, ms), 0.0))


def kl_inf_bernoulli_mp(mu, mu_star):
    """mpmath view of :func:`kl_inf_bernoulli` (seed 001 Eq. 3)."""
    import mpmath

    mu, ms = _mp_prob("mu", mu), _mp_prob("mu_star", mu_star)
    return _kl_mp(mu, ms) if mu < ms else mpmath.mpf(0)


def kl_inf_bernoulli_sym(mu=None, mu_star=None):
    """sympy Piecewise of the Bernoulli KL_inf (seed 001 Eq. 3)."""
    import sympy

    mu = sympy.Symbol("mu", positive=True) if mu is None else sympy.sympify(mu)
    ms = sympy.Symbol("mu^*", positive=True) if mu_star is None else sympy.sympify(mu_star)
    kl = mu * sympy.log(mu / ms) + (1 - mu) * sympy.log((1 - mu) / (1 - ms))
    return sympy.Piecewise((kl, mu < ms), (0, True))


def kl_inf_dual_sym():
    """sympy form of the Honda–Takemura dual objective E_P[ln(1 - lam (X - mu*))] for a generic atom."""
    import sympy

    lam, x, ms, w = sympy.symbols("lambda x mu^* w", positive=True)
    i = sympy.Idx("i")
    X = sympy.IndexedBase("x")
    W = sympy.IndexedBase("w")
    n = sympy.Symbol("n", integer=True, positive=True)
    return sympy.Sum(W[i] * sympy.log(1 - lam * (X[i] - ms)), (i, 1, n))


def _clean_distribution(support, weights):
    x = probability_array("support", support).ravel()
    w = np.asarray(weights, dtype=float).ravel()
    if x.size == 0:
        raise InputError("support", "a non-empty list of points in [0, 1]", list(x))
    if w.size != x.size:
        raise InputError("weights", f"{x.size} entries (one per support point)", w.size)
    if np.isnan(w).any() or (w < 0).any() or np.isinf(w).any():
        raise InputError("weights", "finite numbers >= 0", float(w[np.isnan(w) | (w < 0) | np.isinf(w)][0]))
    if abs(w.sum() - 1.0) > 1e-9:
        raise InputError("weights", "weights summing to 1", float(w.sum()))
    keep = w > 0
    return x[keep], w[keep] / w[keep].sum()


def _kl_inf_one(x, w, ms):
    """Float KL_inf and the maximising lam for one mu* (x, w cleaned)."""
    mean = float(np.dot(w, x))
    if mean >= ms:
        return 0.0, 0.0
    if ms == 1.0:
        return np.inf, np.inf
    c = 1.0 - ms
    dev = (x - ms) / c  # 1 - lam (X - mu*) = 1 - s dev

    def dh(s):  # derivative in s of E[ln(1 - s dev)]
        return -float(np.dot(w, dev / (1.0 - s * dev)))

    def h(s):
        with np.errstate(divide="ignore"):
            return float(np.dot(w, np.log1p(-s * dev)))

    atom_at_one = bool((x == 1.0).any())
    if not atom_at_one and dh(1.0) >= 0:
        s_star = 1.0  # boundary maximiser: optimal Q puts mass at 1
    else:
        lo, hi = 0.0, 1.0  # dh(0) = (mu* - mean)/c > 0, dh -> -inf (atom at 1) or dh(1) < 0
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            if mid == lo or mid == hi:
                break
            if dh(mid) > 0:
                lo = mid
            else:
                hi = mid
        s_star = lo if h(lo) >= h(hi) else hi
    return max(0.0, h(s_star)), s_star / c


def kl_inf_finite(support, weights, mu_star, return_lambda=False):
    """KL_inf(P, mu*) for P = sum_i w_i delta_{x_i} on [0, 1], by the Honda–Takemura (2010) dual.

    KL_inf = max_{0 <= lam <= 1/(1-mu*)} sum_i w_i ln(1 - lam (x_i - mu*))   (seed 001 Eq. 3 model M = all
    distributions on [0,1]; Honda & Takemura 2010/2015). Concave 1-D maximisation solved by bisection on
    the derivative in s = lam (1 - mu*) in [0, 1]; the boundary s = 1 is taken when P has no atom at 1 and
    the derivative is still >= 0 there. mean(P) >= mu* -> 0; mu* = 1 > mean(P) -> +inf.
    mu_star may be an array (loop over its entries). With return_lambda, also returns the maximiser lam*.
    """
    x, w = _clean_distribution(support, weights)
    ms = probability_array("mu_star", mu_star)
    vals = np.empty(ms.shape)
    lams = np.empty(ms.shape)
    for idx in np.ndindex(ms.shape):
        vals[idx], lams[idx] = _kl_inf_one(x, w, float(ms[idx]))
    return (_out(vals), _out(lams)) if return_lambda else _out(vals)


def kl_inf_finite_mp(support, weights, mu_star):
    """mpmath view of :func:`kl_inf_finite` (Honda–Takemura dual; bisection to the working precision)."""
    import mpmath

    x = [_mp_prob("support", v) for v in support]
    w = [mpmath.mpf(v) for v in weights]
    if len(x) != len(w) or not x:
        raise InputError("weights", f"{len(x)} entries (one per support point)", len(w))
    if any(mpmath.isnan(v) or v < 0 for v in w):
        raise InputError("weights", "finite numbers >= 0", [str(v) for v in w])
    tot = mpmath.fsum(w)
    if abs(tot - 1) > mpmath.mpf("1e-9"):
        raise InputError("weights", "weights summing to 1", str(tot))
    pairs = [(xi, wi / tot) for xi, wi in zip(x, w) if wi > 0]
    ms = _mp_prob("mu_star", mu_star)
    mean = mpmath.fsum(wi * xi for xi, wi in pairs)
    if mean >= ms:
        return mpmath.mpf(0)
    if ms == 1:
        return mpmath.inf
    c = 1 - ms
    dev = [((xi - ms) / c, wi) for xi, wi in pairs]

    def dh(s):
        return -mpmath.fsum(wi * d / (1 - s * d) for d, wi in dev)

    def h(s):
        tot = mpmath.mpf(0)
        for d, wi in dev:
            a = 1 - s * d
            if a == 0:
                return mpmath.mpf("-inf")
            tot += wi * mpmath.log(a)
        return tot

    atom_at_one = any(xi == 1 for xi, _ in pairs)
    if not atom_at_one and dh(mpmath.mpf(1)) >= 0:
        return max(mpmath.mpf(0), h(mpmath.mpf(1)))
    lo, hi = mpmath.mpf(0), mpmath.mpf(1)
    for _ in range(int(mpmath.mp.prec) + 20):
        mid = (lo + hi) / 2
        if mid == lo or mid == hi:
            break
        if dh(mid) > 0:
            lo = mid
        else:
            hi = mid
    return max(mpmath.mpf(0), h(lo), h(hi))
