"""mpmath versions (any precision) of the closed forms of boundcalc.concentration.

* ``d_epsilon_mp``: seed 001 Eq. 8 / Lemma F.1 closed form (Eqs. 30–32) of d_ε, local mpmath copy.
* ``private_tail_c2_mp``: (C2) (e·max{1, nε|μ−x|/m})^m · exp(−n d_ε(x, μ)), DERIVED (formula sheet 001
  §4.3 C0–C3; replaces the lost prefactor of seed 001 Lemma D.3).
Arguments may be strings ('0.3', '1e15') so no binary rounding is introduced.
"""

from __future__ import annotations

import mpmath

from . import _common as c


def _kl_mp(x, y):
    def xlog(a, b):
        if a == 0:
            return mpmath.mpf(0)
        if b == 0:
            return mpmath.inf
        return a * mpmath.log(a / b)

    return xlog(x, y) + xlog(1 - x, 1 - y)


def d_epsilon_mp(x, y, eps):
    """d_ε(x, y) by seed 001 Eq. 8 / Lemma F.1 (Eqs. 30–32), in mpmath at the current precision."""
    x, y, eps = mpmath.mpf(x), mpmath.mpf(y), mpmath.mpf(eps)
    if x == y:
        return mpmath.mpf(0)
    if 0 < x < 1 and 0 < y < 1:
        eps0 = abs(mpmath.log(y / (1 - y)) - mpmath.log(x / (1 - x)))
        if eps >= eps0:
            return _kl_mp(x, y)
    if x < y:
        val = -eps * x - mpmath.log(1 - y + y * mpmath.exp(-eps))
    else:
        val = eps * x - mpmath.log(1 - y + y * mpmath.exp(eps))
    return max(mpmath.mpf(0), val)


def private_tail_c2_mp(n, m, epsilon, mu, x, tail: str = "lower", dps: int = 50):
    """(C2) at ``dps`` digits; returns (log_bound, bound) as mpmath numbers (clipped to bound ≤ 1)."""
    c.check_tail(tail)
    with mpmath.workdps(dps):
        n, m, eps, mu, x = (mpmath.mpf(v) for v in (n, m, epsilon, mu, x))
        if tail == "upper":
            mu, x = 1 - mu, 1 - x
        if x > mu:
            return mpmath.mpf(0), mpmath.mpf(1)
        d = d_epsilon_mp(x, mu, eps)
        log = m * (1 + mpmath.log(max(mpmath.mpf(1), n * eps * (mu - x) / m))) - n * d
        log = min(log, mpmath.mpf(0))
        return +log, mpmath.exp(log)
