"""Exact tail probabilities of the private sum S̃_{n,m} = S_n + noise (the independent check of
seed 001 Lemma D.3 / Prop. 4.1; formula sheet 001 §9.9).

Laplace noise (L_m, m iid Lap(1/ε)):
    P(S̃ ≤ n x) = Σ_k Binom(k; n, μ) · P(L_m ≥ k − n x)         (lower tail, by symmetry of L_m)
    P(S̃ ≥ n x) = Σ_k Binom(k; n, μ) · P(L_m ≥ n x − k)         (upper tail)
Gaussian noise (Σ_{j≤m} N(0, σ²)) likewise with Φ.  Computed directly (no mirroring), in log space,
over all k = 0..n; for moderate n only (n·m ≤ 5e7, n ≤ 1e6).
"""

from __future__ import annotations

import numpy as np
from scipy import stats
from scipy.special import logsumexp

from ..errors import InputError
from . import _common as c
from .laplace_sum import laplace_sum_logsf

MAX_N = 10**6
MAX_NM = 5 * 10**7


def _scalars(n, m, mu, x, tail):
    n = int(c.counts("n", n))
    m = int(c.counts("m", m))
    mu = float(c.prob("mu", mu))
    x = float(c.prob("x", x))
    c.check_tail(tail)
    if n > MAX_N or n * m > MAX_NM:
        raise InputError("n", f"at most {MAX_N} with n*m <= {MAX_NM:g} for the exact tail", n)
    return n, m, mu, x


def private_tail_exact(n, m, epsilon, mu, x, tail: str = "lower") -> c.LogProb:
    """Exact P(S̃_{n,m} ≤ n x) ('lower') or P(S̃_{n,m} ≥ n x) ('upper') with Laplace noise; scalars.

    Source: formula sheet 001 §9.9 (exact reference for seed 001 Lemma D.3); P(L_m ≥ ·) from
    ``laplace_sum_logsf`` (seed 001 Lemma D.1 setting).
    """
    n, m, mu, x = _scalars(n, m, mu, x, tail)
    eps = float(c.positive("epsilon", epsilon))
    k = np.arange(n + 1, dtype=float)
    logpmf = stats.binom.logpmf(k, n, mu)
    shift = (k - n * x) if tail == "lower" else (n * x - k)
    total = -np.inf
    step = max(1, MAX_NM // (10 * m))
    for s in range(0, n + 1, step):
        sl = slice(s, s + step)
        total = np.logaddexp(total, logsumexp(logpmf[sl] + laplace_sum_logsf(shift[sl], m, eps)))
    return c.as_result(total)


def gaussian_private_tail_exact(n, m, sigma, mu, x, tail: str = "lower") -> c.LogProb:
    """Exact P(S_n + Z ≤ n x) or P(S_n + Z ≥ n x), Z ~ N(0, m σ²) (seed 003 Lemma 2 setting); scalars."""
    n, m, mu, x = _scalars(n, m, mu, x, tail)
    sig = float(c.positive("sigma", sigma)) * np.sqrt(m)  # Python float: inf on overflow, no warning
    k = np.arange(n + 1, dtype=float)
    logpmf = stats.binom.logpmf(k, n, mu)
    shift = (k - n * x) if tail == "lower" else (n * x - k)
    with np.errstate(over="ignore", divide="ignore"):  # σ subnormal: shift/σ = ±inf, the non-private limit
        z = shift / sig
    return c.as_result(logsumexp(logpmf + stats.norm.logsf(z)))


def binomial_tail_exact(n, mu, x, tail: str = "lower") -> c.LogProb:
    """Exact P(S_n ≤ n x) or P(S_n ≥ n x) for S_n ~ Bin(n, μ) (scipy.stats.binom; the check of Lemma H.6)."""
    n = int(c.counts("n", n))
    mu = float(c.prob("mu", mu))
    x = float(c.prob("x", x))
    c.check_tail(tail)
    if tail == "lower":
        log = stats.binom.logcdf(np.floor(n * x + 1e-9 * max(1.0, n * x)), n, mu)
    else:
        log = stats.binom.logsf(np.ceil(n * x - 1e-9 * max(1.0, n * x)) - 1, n, mu)
    return c.as_result(log)
