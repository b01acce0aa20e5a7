"""Shared helpers of boundcalc.concentration: input validation, the (log, value) result type, mirroring.

No formulas live here. Conventions (seed 001 Lemma D.3 / Prop. 4.1; formula sheet 001 §4.3): a *lower* tail is
P(S̃ ≤ n x) with 0 ≤ x ≤ μ, an *upper* tail is P(S̃ ≥ n x) with μ ≤ x ≤ 1. The upper tail of
S̃ = S_n + L (L symmetric) equals the lower tail of n − S̃ = (n − S_n) − L, i.e. the lower tail at
(1 − μ, 1 − x); every bound uses this mirror. Points on the wrong side of μ get the trivial bound 1
(log 0), which is always valid.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..errors import InputError
from .. import validate

TAILS = ("lower", "upper")


class LogProb(NamedTuple):
    """A probability (or a bound on one) carried in log space: ``log`` and ``value = exp(log)``."""

    log: np.ndarray | float
    value: np.ndarray | float


def as_result(log) -> LogProb:
    """Wrap a log-probability array (clipped to <= 0, NaN-free) as a :class:`LogProb`."""
    log = np.asarray(log, dtype=float)
    if np.isnan(log).any():  # pragma: no cover - a bug guard: bounds must never be NaN
        raise FloatingPointError("NaN in a concentration bound")
    log = np.minimum(log, 0.0)
    val = np.exp(log)
    if log.ndim == 0:
        return LogProb(float(log), float(val))
    return LogProb(log, val)


def check_tail(tail: str) -> str:
    if tail not in TAILS:
        raise InputError("tail", "'lower' or 'upper'", tail)
    return tail


def counts(name: str, x) -> np.ndarray:
    """Integer counts >= 1 (scalars such as '1e6' or arrays); returned as float arrays (n may be 1e15)."""
    if isinstance(x, str) or np.ndim(x) == 0:
        return np.asarray(float(validate.count(name, x)))
    a = np.asarray(x, dtype=float)
    bad = np.isnan(a) | (a < 1) | (a != np.floor(a)) | np.isinf(a)
    if a.size and bad.any():
        raise InputError(name, "an integer >= 1", a[bad].ravel()[0].item())
    return a


def positive(name: str, x) -> np.ndarray:
    if isinstance(x, str) or np.ndim(x) == 0:
        return np.asarray(validate.positive(name, x))
    return validate.positive_array(name, x)


def prob(name: str, x) -> np.ndarray:
    if isinstance(x, str) or np.ndim(x) == 0:
        return np.asarray(validate.probability(name, x))
    return validate.probability_array(name, x)


def mirror(tail: str, mu, x):
    """(μ, x) for the equivalent lower tail: identity for 'lower', (1 − μ, 1 − x) for 'upper'."""
    if check_tail(tail) == "lower":
        return mu, x
    return 1.0 - mu, 1.0 - x


def log1p_mu_expm1(mu, s):
    """ln(1 − μ + μ e^{s}) for s ≤ 0 (stable; used with s = −λ)."""
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        return np.log1p(mu * np.expm1(s))


def log1m_sq(lam, eps):
    """ln(1 − λ²/ε²) = ln(1 − λ/ε) + ln(1 + λ/ε), stable near λ = ε (−inf at λ = ε)."""
    r = lam / eps
    with np.errstate(divide="ignore"):
        return np.log1p(-r) + np.log1p(r)


def out(arr):
    arr = np.asarray(arr, dtype=float)
    return arr[()] if arr.ndim == 0 else arr
