"""Tail of a sum L_m of m iid Lap(1/ε) noises (seed 001 Lemma D.1; formula sheet 001 §4.1).

* ``laplace_sum_chernoff``: P(L_m ≥ x) ≤ inf_{0<λ<ε} e^{−λx}(1 − λ²/ε²)^{−m}, attained at
  λ* = (√(m² + ε²x²) − m)/x.  Source: seed 001 Lemma D.1 / Proof D.2 (Chernoff with the Laplace MGF);
  the printed constants were stripped, this evaluable form is DERIVED (formula sheet 001 §4.1).
* ``laplace_sum_closed``: P(L_m ≥ x) ≤ (e ε x/m)^m e^{−εx} for x ≥ m/ε (1 below), from
  1 − λ²/ε² ≥ 1 − λ/ε and λ = ε − m/x.  DERIVED (formula sheet 001 §4.1), the closed form of Lemma D.1.
* ``laplace_sum_tail``: the exact P(L_m ≥ x).  L_m = G_1 − G_2 with G_i ~ Gamma(m, scale 1/ε).
  Conditioning on G_2 and integrating the Gamma(m) survival function (a finite Poisson sum) gives
  the finite positive sum (DERIVED here; checked against numerical integration in the tests)

      P(L_m ≥ x) = Σ_{j=0}^{m−1} C(m−1+j, j) 2^{−(m+j)} · P(Poisson(εx) ≤ m−1−j),   x ≥ 0,

  and P(L_m ≥ x) = 1 − P(L_m ≥ −x) for x < 0.  m = 1 gives ½e^{−εx}; m = 2, ε = 1 gives (2+x)e^{−x}/4.
"""

from __future__ import annotations

import numpy as np
from scipy.special import gammaln, logsumexp, xlogy

from ..errors import InputError
from . import _common as c


def _log_sf_nonneg(z, m: int):
    """log P(L_m ≥ z/ε) for z = εx ≥ 0 (array), m a Python int, all in log space."""
    z = np.asarray(z, dtype=float)[..., None]
    i = np.arange(m, dtype=float)
    terms = xlogy(i, z) - gammaln(i + 1)  # ln(z^i/i!), 0·ln 0 = 0
    cum = np.logaddexp.accumulate(terms, axis=-1)  # ln Σ_{i≤r} z^i/i!
    j = np.arange(m, dtype=float)
    logw = gammaln(m + j) - gammaln(j + 1) - gammaln(m) - (m + j) * np.log(2.0)
    # Poisson cdf: e^{−z} Σ_{i ≤ m−1−j} z^i/i!  -> index r = m−1−j
    return -z[..., 0] + logsumexp(logw + cum[..., ::-1], axis=-1)


def laplace_sum_logsf(x, m, epsilon):
    """log P(L_m ≥ x), exact (finite sum above), vectorised in x and ε; m a single count.

    Source: seed 001 Lemma D.1 setting; exact reference of formula sheet 001 §4.1 (DERIVED finite sum).
    """
    m = int(c.counts("m", m))
    eps = c.positive("epsilon", epsilon)
    x = np.asarray(x, dtype=float)
    if np.isnan(x).any():
        raise InputError("x", "a number (not NaN)", "nan")
    x, eps = np.broadcast_arrays(x, eps)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):  # εx = inf: the tail is 0, log −inf
        z = np.abs(eps * x)
        z = np.where(np.isinf(z), np.finfo(float).max, z)
        ls = _log_sf_nonneg(z, m)
        neg = np.log1p(-np.exp(ls))  # P(L ≥ −|x|) = 1 − P(L ≥ |x|)
    out = np.where(x >= 0, ls, neg)
    return c.out(np.minimum(out, 0.0))


def laplace_sum_tail(x, m, epsilon) -> c.LogProb:
    """Exact P(L_m ≥ x) as (log, value).  Source: seed 001 Lemma D.1 setting, formula sheet 001 §4.1."""
    return c.as_result(laplace_sum_logsf(x, m, epsilon))


def laplace_sum_tail_quad(x, m, epsilon) -> float:
    """Exact P(L_m ≥ x) by numerical integration of P(G_1 ≥ x + g) against the Gamma(m) density of G_2.

    A second, independent exact route (formula sheet 001 §4.1 "Gamma-difference integral"); scalar.
    """
    from scipy import integrate, stats

    m = int(c.counts("m", m))
    eps = float(c.positive("epsilon", epsilon))
    g = stats.gamma(m, scale=1.0 / eps)
    lo = max(0.0, -float(x))
    f = lambda t: g.sf(float(x) + t) * g.pdf(t)  # noqa: E731
    val, _ = integrate.quad(f, lo, np.inf, epsabs=0, epsrel=1e-12, limit=400)
    if x < 0:
        val += g.cdf(lo)  # for g < −x, P(G_1 ≥ x + g) = 1
    return float(val)


def laplace_sum_chernoff(x, m, epsilon) -> c.LogProb:
    """Chernoff bound of seed 001 Lemma D.1: e^{−λ* x}(1 − λ*²/ε²)^{−m}, λ* = (√(m²+ε²x²) − m)/x.

    Source: seed 001 Lemma D.1 / Proof D.2 (Laplace MGF 1/(1 − λ²/ε²), product, Chernoff); the
    evaluable form is DERIVED (formula sheet 001 §4.1).  Bound 1 for x ≤ 0.  Vectorised.
    """
    m = c.counts("m", m)
    eps = c.positive("epsilon", epsilon)
    x = np.asarray(x, dtype=float)
    x, m, eps = np.broadcast_arrays(x, m, eps)
    xp = np.where(x > 0, x, 1.0)
    with np.errstate(over="ignore"):
        # the bound decreases in εx, so capping εx at 1e300 keeps it valid (its value e^{−1e300} is 0 anyway)
        ex = np.minimum(eps * xp, 1e300)
    # λ*/ε = (√(m² + (εx)²) − m)/(εx) = εx/(√(m² + (εx)²) + m)   (no cancellation)
    h = np.hypot(m, ex)
    r = ex / (h + m)
    # 1 − r = (h − εx + m)/(h + m) with h − εx = m²/(h + εx): no cancellation when r rounds to 1 (ε = 1e19)
    log1m_r = np.log(m + m * m / (h + ex)) - np.log(h + m)
    log = -r * ex - m * (log1m_r + np.log1p(r))
    return c.as_result(np.where(x > 0, log, 0.0))


def laplace_sum_closed(x, m, epsilon) -> c.LogProb:
    """Closed form of seed 001 Lemma D.1: (e ε x/m)^m e^{−εx} for x ≥ m/ε, else the trivial 1.

    DERIVED (formula sheet 001 §4.1: 1 − λ²/ε² ≥ 1 − λ/ε, λ = ε − m/x).  Vectorised.
    """
    m = c.counts("m", m)
    eps = c.positive("epsilon", epsilon)
    x = np.asarray(x, dtype=float)
    x, m, eps = np.broadcast_arrays(x, m, eps)
    t = eps * np.where(x > 0, x, 0.0)
    with np.errstate(divide="ignore"):
        log = m * (1.0 + np.log(np.maximum(t / m, 1.0))) - t
    return c.as_result(np.where(t >= m, log, 0.0))
