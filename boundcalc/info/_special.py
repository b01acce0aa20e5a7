"""Two special functions in plain numpy (scipy.special costs ~0.2-0.4 s of CLI start-up for just these).

Used by the kl of seed 001 §2 (xlogy: the limit conventions 0 ln 0 = 0) and by the logit-space searches of
the kl-UCB and DP-KLUCB indexes (seed 001 Eq. 12; expit = inverse logit).

Tested against scipy.special and mpmath in tests/info/test_info_kl.py.
"""

from __future__ import annotations

import numpy as np


def xlogy(x, y):
    """x·ln(y) with 0·ln(y) = 0 for every y (so 0·ln 0 = 0) and x·ln 0 = -inf for x > 0."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = x * np.log(y)
    return np.where(x == 0, 0.0, r)


def expit(z):
    """Logistic function 1/(1 + e^{-z}), without overflow for any z."""
    z = np.asarray(z, dtype=float)
    e = np.exp(-np.abs(z))
    return np.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def golden_section_mp(f, a, b, iterations: int, rel_tol=None):
    """Golden-section search for the minimum of a convex (unimodal) ``f`` on [a, b] in mpmath: ``iterations`` steps
    at most, stopping early once the bracket is below ``rel_tol``·max(1, |a|) when given; returns (fc, fd), the
    values at the last two interior points (callers also compare the ends). Shared by d_ε's definition
    (info.d_eps.d_eps_definition_mp) and d_ε,inf's τ search (info.d_eps_inf)."""
    import mpmath

    g = (mpmath.sqrt(5) - 1) / 2
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(iterations):
        if fc <= fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = f(d)
        if rel_tol is not None and b - a <= rel_tol * max(1, abs(a)):
            break
    return fc, fd
