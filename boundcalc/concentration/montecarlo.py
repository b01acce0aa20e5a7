"""Monte Carlo estimators of the tail probabilities of boundcalc.concentration, with Clopper–Pearson
intervals (scipy.stats.beta).  The independent statistical check of seed 001 Lemma D.1, Lemma D.3,
Prop. 4.1 and Lemma H.7 (formula sheet 001 §9.8, §9.9, §9.11).

Draws are exact: S_n ~ Binomial(n, μ); L_m = G_1 − G_2 with G_i ~ Gamma(m, scale 1/ε) (the sum of m iid
Lap(1/ε), no loop over m); Gaussian noise Σ_{j≤m} N(0, σ²) = N(0, mσ²).  Every function takes a
``numpy.random.Generator`` and draws in blocks (``block`` runs at a time); ``progress(done)`` is called
after each block.
"""

from __future__ import annotations

from typing import Callable, NamedTuple, Optional

import numpy as np
from scipy import stats

from ..errors import InputError
from .. import validate
from . import _common as c


class MCResult(NamedTuple):
    """Frequency hits/runs with its two-sided Clopper–Pearson interval at level 1 − alpha."""

    frequency: float
    lower: float
    upper: float
    hits: int
    runs: int
    alpha: float


def clopper_pearson(hits: int, runs: int, alpha: float = 0.05) -> tuple[float, float]:
    """Exact two-sided (1 − alpha) Clopper–Pearson interval for a binomial proportion."""
    lo = 0.0 if hits == 0 else float(stats.beta.ppf(alpha / 2, hits, runs - hits + 1))
    hi = 1.0 if hits == runs else float(stats.beta.ppf(1 - alpha / 2, hits + 1, runs - hits))
    return lo, hi


def _result(hits: int, runs: int, alpha: float) -> MCResult:
    lo, hi = clopper_pearson(hits, runs, alpha)
    return MCResult(hits / runs, lo, hi, int(hits), int(runs), alpha)


def _check_rng(rng):
    if not isinstance(rng, np.random.Generator):
        raise InputError("rng", "a numpy.random.Generator", type(rng).__name__)
    return rng


def _blocks(runs: int, block: int):
    done = 0
    while done < runs:
        b = min(block, runs - done)
        yield b
        done += b


def laplace_sum_sample(rng: np.random.Generator, m: int, epsilon: float, size: int) -> np.ndarray:
    """size draws of L_m = Σ_{j≤m} Lap(1/ε) as a Gamma(m, 1/ε) difference (seed 001 Lemma D.1 setting).

    ε so small that 1/ε overflows (ε = 1e-320): the draws are ±inf with the sign of a unit-scale Gamma difference
    (the same random stream), not inf − inf = NaN."""
    with np.errstate(over="ignore", divide="ignore"):
        scale = 1.0 / epsilon
    if np.isfinite(scale):
        return rng.gamma(m, scale, size) - rng.gamma(m, scale, size)
    diff = rng.gamma(m, 1.0, size) - rng.gamma(m, 1.0, size)
    return np.where(diff > 0, np.inf, np.where(diff < 0, -np.inf, 0.0))


def mc_private_tail(rng: np.random.Generator, n, m, mu, x, runs, *, epsilon=None, sigma=None,
                    tail: str = "lower", alpha: float = 0.05, block: int = 200_000,
                    progress: Optional[Callable[[int], None]] = None) -> MCResult:
    """Monte Carlo frequency of {S_n + noise ≤ n x} ('lower') or {≥ n x} ('upper').

    Noise: Laplace L_m (``epsilon``; seed 001 Lemma D.3) or Gaussian Σ_{j≤m} N(0,σ²) (``sigma``).
    """
    _check_rng(rng)
    n = validate.count("n", n)
    m = validate.count("m", m)
    runs = validate.count("runs", runs)
    mu = validate.probability("mu", mu)
    x = validate.probability("x", x)
    alpha = validate.open_unit("alpha", alpha)
    c.check_tail(tail)
    if (epsilon is None) == (sigma is None):
        raise InputError("epsilon/sigma", "exactly one of epsilon (Laplace) or sigma (Gaussian)", None)
    if epsilon is not None:
        epsilon = validate.positive("epsilon", epsilon)
    else:
        sigma = validate.positive("sigma", sigma)
    hits = 0
    done = 0
    thr = n * x
    for b in _blocks(runs, block):
        s = rng.binomial(n, mu, b).astype(float)
        noise = laplace_sum_sample(rng, m, epsilon, b) if epsilon is not None else rng.normal(0.0, sigma * np.sqrt(m), b)
        dev = (s - thr) + noise
        hits += int(np.count_nonzero(dev <= 0 if tail == "lower" else dev >= 0))
        done += b
        if progress is not None:
            progress(done)
    return _result(hits, runs, alpha)


def mc_laplace_sum_tail(rng: np.random.Generator, x, m, epsilon, runs, alpha: float = 0.05,
                        block: int = 500_000) -> MCResult:
    """Monte Carlo frequency of {L_m ≥ x} (seed 001 Lemma D.1)."""
    _check_rng(rng)
    m = validate.count("m", m)
    runs = validate.count("runs", runs)
    epsilon = validate.positive("epsilon", epsilon)
    x = validate.finite("x", x)
    hits = sum(int(np.count_nonzero(laplace_sum_sample(rng, m, epsilon, b) >= x)) for b in _blocks(runs, block))
    return _result(hits, runs, alpha)


def mc_gaussian_sum_tail(rng: np.random.Generator, x, m, sigma, runs, alpha: float = 0.05,
                         block: int = 500_000) -> MCResult:
    """Monte Carlo frequency of {Σ_{j≤m} N(0,σ²) ≥ x} (seed 003 Thm 18 noise)."""
    _check_rng(rng)
    m = validate.count("m", m)
    runs = validate.count("runs", runs)
    sigma = validate.positive("sigma", sigma)
    x = validate.finite("x", x)
    hits = sum(int(np.count_nonzero(rng.normal(0.0, sigma * np.sqrt(m), b) >= x)) for b in _blocks(runs, block))
    return _result(hits, runs, alpha)


def mc_maximal_sum(rng: np.random.Generator, n, mu, delta, runs, alpha: float = 0.05,
                   block: int = 20_000) -> MCResult:
    """Monte Carlo frequency of {max_{k≤n} S_k ≥ n(μ+δ)} for Bernoulli(μ) steps (seed 001 Lemma H.7)."""
    _check_rng(rng)
    n = validate.count("n", n, maximum=10**5)
    runs = validate.count("runs", runs)
    mu = validate.probability("mu", mu)
    delta = validate.positive("delta", delta)
    hits = 0
    for b in _blocks(runs, max(1, min(block, 10**7 // n))):
        paths = np.cumsum(rng.random((b, n)) < mu, axis=1)
        hits += int(np.count_nonzero(paths.max(axis=1) >= n * (mu + delta)))
    return _result(hits, runs, alpha)
