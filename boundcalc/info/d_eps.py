"""The interpolating DP quantity d_eps of seed 001 (Eq. 6 definition, Eq. 8 / Lemma F.1 closed form).

d_eps(x, y) = inf_{z between x and y} { eps |z - x| + kl(z, y) }.
Closed form (Eqs. 30-32): for x < y, with threshold eps_0 = logit(y) - logit(x),
  d_eps = kl(x, y)                          if eps >= eps_0      (low privacy)
  d_eps = -eps x - ln(1 - y + y e^{-eps})   otherwise            (high privacy)
and the mirror image for x > y: d_eps = eps x - ln(1 - y + y e^{eps}) below eps_0' = logit(x) - logit(y).
"""

from __future__ import annotations

import numpy as np

from .kl import kl_bernoulli


def _log1p_exp_term(y, s):
    """ln(1 - y + y e^{s}) computed stably for s of either sign (s may be large)."""
    # = ln(1 + y (e^s - 1)); for large s use s + ln(y + (1-y) e^{-s}).
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        small = np.log1p(y * np.expm1(np.minimum(s, 50.0)))
        big = s + np.log(y + (1 - y) * np.exp(-np.maximum(s, 50.0)))
    return np.where(s <= 50.0, small, big)


def d_epsilon(x, y, epsilon):
    """d_eps(x, y) by the closed form of seed 001 Eq. 8 / Lemma F.1 (Eqs. 30-32); vectorised.

    Finite for every x, y in [0, 1] and eps > 0 (0 <= d_eps <= min(kl, eps |x - y|)).
    """
    x, y, e = np.broadcast_arrays(*(np.asarray(a, dtype=float) for a in (x, y, epsilon)))
    kl = kl_bernoulli(x, y)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        high_lo = -e * x - _log1p_exp_term(y, -e)  # x < y branch
        high_hi = e * x - _log1p_exp_term(y, e)  # x > y branch
    # Regime (Eq. 8): low privacy iff eps >= eps_0 = |logit(y) - logit(x)|, where the minimiser is z* = x.
    high = np.where(x < y, high_lo, high_hi)
    out = np.where(x == y, 0.0, np.where(e >= epsilon_threshold(x, y), kl, high))
    out = np.maximum(out, 0.0)
    return out[()] if out.ndim == 0 else out


def epsilon_threshold(x, y):
    """eps_0(x, y) = |logit(y) - logit(x)|: d_eps = kl iff eps >= eps_0 (seed 001 Eq. 8; +inf at 0/1)."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        lx = np.log(x) - np.log1p(-x)
        ly = np.log(y) - np.log1p(-y)
        out = np.abs(ly - lx)
    out = np.where(x == y, 0.0, np.where(np.isnan(out), np.inf, out))
    return out[()] if out.ndim == 0 else out
