"""mpmath versions (any precision) of the closed forms of boundcalc.concentration.

* ``d_epsilon_mp``: re-exported from boundcalc.info (seed 001 Eq. 8 / Lemma F.1, Eqs. 30–32).
* ``private_tail_c2_mp``: (C2) (e·max{1, nε|μ−x|/m})^m · exp(−n d_ε(x, μ)), DERIVED (formula sheet 001
  §4.3 C0–C3; replaces the lost prefactor of seed 001 Lemma D.3).
Arguments may be strings ('0.3', '1e15') so no binary rounding is introduced.
"""

from __future__ import annotations

import mpmath

from ..info import d_epsilon_mp
from . import _common as c


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
