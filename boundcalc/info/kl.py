"""Bernoulli relative entropy and total variation (seed 001, Section 2, Eq. 3 and formula sheet §1.1/1.3).

kl(x, y) = x ln(x/y) + (1-x) ln((1-x)/(1-y)), with the limit conventions 0 ln 0 = 0 and
a ln(a/0) = +inf for a > 0 (so kl(x,0) = inf for x > 0, kl(x,1) = inf for x < 1).
"""

from __future__ import annotations

import numpy as np
from scipy.special import xlogy


def kl_bernoulli(x, y):
    """Bernoulli KL divergence kl(x, y), vectorised; exact +inf where the mathematics gives it.

    Source: seed 001 §2 (Definition of kl, "singularities by taking limits"); Eq. 3 for KL_inf.
    """
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = xlogy(x, x) - xlogy(x, y) + xlogy(1 - x, 1 - x) - xlogy(1 - x, 1 - y)
    # xlogy(a, 0) = -inf only when a > 0; 0*log(0) terms are already 0. Clean rounding below 0.
    out = np.where(np.isnan(out), np.inf, out)
    out = np.maximum(out, 0.0)
    return out[()] if out.ndim == 0 else out


def tv_bernoulli(x, y):
    """Total variation TV(Ber(x), Ber(y)) = |x - y| (seed 001, Eq. 3 context / Def. 3.2)."""
    out = np.abs(np.asarray(x, dtype=float) - np.asarray(y, dtype=float))
    return out[()] if out.ndim == 0 else out
