"""Tail of a sum of m iid N(0, σ²) noises (the Gaussian mechanism of seed 003 Thm 18 / Lemma 2;
seed 003 App. I Lemma 8 sub-Gaussian tail; formula sheet docs/formulas/zcdp-bandits.md §2.2 and §5).

* ``gaussian_sum_tail``: exact P(Σ_{j≤m} Z_j ≥ x) = Φ̄(x/(σ√m)) (scipy.stats.norm.logsf).
* ``gaussian_sum_chernoff``: exp(−x²/(2mσ²)) for x ≥ 0 (seed 003 Lemma 8 with variance mσ²), 1 for x < 0.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from . import _common as c


def gaussian_sum_tail(x, m, sigma) -> c.LogProb:
    """Exact P(Σ_{j≤m} N(0,σ²) ≥ x) in log space (seed 003 Thm 18 noise; norm.logsf)."""
    m = c.counts("m", m)
    sig = c.positive("sigma", sigma)
    x = np.asarray(x, dtype=float)
    return c.as_result(c.out(stats.norm.logsf(x / (sig * np.sqrt(m)))))


def gaussian_sum_chernoff(x, m, sigma) -> c.LogProb:
    """Chernoff/sub-Gaussian bound exp(−x²/(2mσ²)) for x ≥ 0 (seed 003 App. I Lemma 8)."""
    m = c.counts("m", m)
    sig = c.positive("sigma", sigma)
    x = np.asarray(x, dtype=float)
    log = np.where(x > 0, -(x**2) / (2.0 * m * sig**2), 0.0)
    return c.as_result(c.out(log))
