"""Non-private Chernoff-type bounds (seed 001 Lemma H.6 and Lemma H.7; formula sheet 001 §4.2, §4.6).

* ``chernoff_kl``: seed 001 Lemma H.6 (Chernoff via KL, Boucheron et al.): for X_i independent
  Ber(p_i), S = Σ_{i≤n} X_i, p̄ = mean of p_i: P(S ≥ n x) ≤ exp(−n kl(x, p̄)) for x ≥ p̄ and
  P(S ≤ n x) ≤ exp(−n kl(x, p̄)) for x ≤ p̄.
* ``maximal_hoeffding``: finite-n version of seed 001 Lemma H.7 (asymptotic maximal Hoeffding), DERIVED
  (formula sheet 001 §4.6; Doob's inequality on exp(λ(S_k − kμ))):
  P(max_{k≤n} S_k ≥ n(μ+δ)) ≤ exp(−n δ²/(2σ²)); σ = 1/2 for [0,1]-valued variables.
"""

from __future__ import annotations

import numpy as np

from ..info import kl_bernoulli
from . import _common as c


def chernoff_kl(n, p, x, tail: str = "lower") -> c.LogProb:
    """Seed 001 Lemma H.6: exp(−n kl(x, p̄)) on the correct side of p̄, the trivial 1 otherwise."""
    n = c.counts("n", n)
    p = c.prob("p", p)
    x = c.prob("x", x)
    c.check_tail(tail)
    n, p, x = np.broadcast_arrays(n, p, x)
    side = (x <= p) if tail == "lower" else (x >= p)
    log = -n * kl_bernoulli(x, p)
    log = np.where(np.isnan(log), -np.inf, log)  # n·inf
    return c.as_result(c.out(np.where(side, log, 0.0)))


def maximal_hoeffding(n, delta, sigma=0.5) -> c.LogProb:
    """Finite seed 001 Lemma H.7: P(max_{k≤n} S_k ≥ n(μ+δ)) ≤ exp(−nδ²/(2σ²)); DERIVED (sheet 001 §4.6)."""
    n = c.counts("n", n)
    delta = c.positive("delta", delta)
    sigma = c.positive("sigma", sigma)
    return c.as_result(c.out(-n * delta**2 / (2.0 * sigma**2)))
