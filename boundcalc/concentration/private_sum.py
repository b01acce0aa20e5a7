"""Laplace–Chernoff bounds for a private Bernoulli sum S̃_{n,m} = S_n + L_m (seed 001 Lemma D.3, Prop. 4.1).

Setup (seed 001 Prop. 4.1 / Lemma D.3): X_1..X_n iid Ber(μ), Y_1..Y_m iid Lap(1/ε), S̃ = ΣX + ΣY.
Lower tail: P(S̃ ≤ n x), 0 ≤ x ≤ μ.  Upper tail: P(S̃ ≥ n x), μ ≤ x ≤ 1 (mirrored, see _common).

The printed prefactor of Lemma D.3 was lost in the seed text, so the functions below are the rigorous
evaluable replacements, each DERIVED (formula sheet 001 §4.3 C0–C3):

* C0 ``private_tail_c0``: inf_{0≤λ<ε} exp{ n[λx + ln(1−μ+μe^{−λ})] − m ln(1 − λ²/ε²) } (exact coupled
  Chernoff, the tightest; 1-D convex minimisation, solved by vectorised bisection on the derivative).
* C1 ``private_tail_c1``: η^{−m} exp(−n d_{ε(1−η)}(x, μ)) for a given η ∈ (0, 1]; ``private_tail_c1_best``
  minimises over η (convex in η: bisection on the derivative in a proven bracket).
* C2 ``private_tail_c2``: (e·max{1, nε|μ−x|/m})^m · exp(−n d_ε(x, μ)) (closed form).
* C3 ``private_tail_c3``: [1 + n kl(x,μ)(e·max{1, nε|μ−x|/m})^m] · exp(−n d_ε(x, μ)) (the paper's
  convolution route, seed 001 Proof D.4).
* ``private_tail_naive``: the separate treatment of formula sheet 001 §4.5 (DERIVED),
  inf_δ [exp(−n kl(x+δ, μ)) + Chernoff_D.1(nδ)].
* ``prop41_constant`` / ``prop41_bound``: seed 001 Prop. 4.1 / Cor. D.5 with the explicit constant
  A_a = sup_n (2ε/a)^{m_n} e^{−na/2} (DERIVED, formula sheet 001 §4.4, from C1 with η = a/(2ε)).
* ``gaussian_private_tail_chernoff``: the Gaussian-noise analogue (zCDP-style private mean, seed 003
  Lemma 2 setting): inf_{λ≥0} exp(n[λx + ln(1−μ+μe^{−λ})] + m λ²σ²/2), noise Σ_{j≤m} N(0, σ²). DERIVED.

Provable ordering (after clipping at 1): C0 ≤ C1(η) ≤ C2 ≤ C3.  All bounds are computed in log space
and are finite for n up to 1e15.  Every function returns a LogProb(log, value).
"""

from __future__ import annotations

import numpy as np

from .. import validate
from ..errors import InputError
from ..info import d_epsilon, d_epsilon_minimiser, kl_bernoulli
from . import _common as c
from .laplace_sum import laplace_sum_chernoff

_BISECT = 200


def _prep(n, m, epsilon, mu, x, tail):
    n = c.counts("n", n)
    m = c.counts("m", m)
    eps = c.positive("epsilon", epsilon)
    mu = c.prob("mu", mu)
    x = c.prob("x", x)
    mu_l, x_l = c.mirror(tail, mu, x)
    n, m, eps, mu_l, x_l = np.broadcast_arrays(n, m, eps, mu_l, x_l)
    return n, m, eps, mu_l.astype(float), x_l.astype(float)


def _tilted_mean(mu, lam):
    """μ e^{−λ}/(1 − μ + μ e^{−λ}), the Bernoulli mean tilted by −λ."""
    w = mu * np.exp(-lam)  # underflows safely to 0 for large λ
    return w / (w + (1.0 - mu))


def _c0_log_lower(n, m, eps, mu, x):
    """C0 for the lower tail on broadcast arrays (x ≤ μ assumed where it matters).

    The exponent is convex in λ with derivative g(λ) = n(x − μ_λ) + (2m/ε) r/(1 − r²), r = λ/ε, μ_λ the
    tilted mean; the noise term only adds to g, so the minimiser is at most the non-private Chernoff tilt
    λ_0 = logit μ − logit x, and below ε. Bisection on ln λ over [hi·e^{−750}, hi], hi = min(ε, λ_0), keeps a
    relative precision at every scale (ε = 1e308 puts λ* near 0.2; ε = 1e-320 puts it below 1e-320). The sign
    of g is taken from ε·g when ε < 1 (no 1/ε overflow) and from g otherwise (no nε overflow)."""
    active = x < mu
    with np.errstate(divide="ignore", invalid="ignore"):
        lam0 = (np.log(mu) - np.log1p(-mu)) - (np.log(x) - np.log1p(-x))
    hi = np.where(active & np.isfinite(lam0) & (lam0 > 0), np.minimum(eps, np.where(np.isfinite(lam0), lam0, 1.0)),
                  eps)
    hi = np.where(active, hi, 1.0)
    log_hi = np.log(hi)
    lo_t, hi_t = log_hi - 750.0, log_hi
    small = eps < 1.0
    for _ in range(_BISECT):
        t = 0.5 * (lo_t + hi_t)
        lam = np.exp(t)
        with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):
            r = lam / eps  # inactive entries (x ≥ μ) may overflow; they are discarded below
            noise = 2.0 * m * r / ((1.0 - r) * (1.0 + r))  # +inf at r = 1, the limit
            data = x - _tilted_mean(mu, lam)
            g = np.where(small, n * eps * data + noise, n * data + noise / eps)
        pos = g > 0
        hi_t = np.where(pos, t, hi_t)
        lo_t = np.where(pos, lo_t, t)
    lam = np.where(active, np.exp(lo_t), 0.0)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        val = n * (lam * x + c.log1p_mu_expm1(mu, -lam)) - m * c.log1m_sq(lam, eps)
    val = np.where(np.isnan(val), 0.0, val)
    return np.where(active, np.minimum(val, 0.0), 0.0), lam


def private_tail_c0(n, m, epsilon, mu, x, tail: str = "lower") -> c.LogProb:
    """(C0) exact coupled Chernoff bound on P(S̃_{n,m} ≤ n x) (lower) or P(S̃_{n,m} ≥ n x) (upper).

    DERIVED (formula sheet 001 §4.3 C0–C3), replacing the lost prefactor of seed 001 Lemma D.3:
    inf_{0≤λ<ε} exp{ n[λx + ln(1−μ+μe^{−λ})] − m ln(1 − λ²/ε²) }; the exponent is convex in λ and its
    minimiser is found by bisection on the derivative.  Trivial bound 1 on the wrong side of μ.
    """
    args = _prep(n, m, epsilon, mu, x, tail)
    return c.as_result(c.out(_c0_log_lower(*args)[0]))


def c0_argmin(n, m, epsilon, mu, x, tail: str = "lower"):
    """The optimal tilt λ ∈ [0, ε) of C0 (formula sheet 001 §4.3 C0; for tests and display)."""
    args = _prep(n, m, epsilon, mu, x, tail)
    return c.out(_c0_log_lower(*args)[1])


def _side_mask(mu_l, x_l):
    return x_l <= mu_l


def private_tail_c1(n, m, epsilon, mu, x, eta, tail: str = "lower") -> c.LogProb:
    """(C1) η^{−m} exp(−n d_{ε(1−η)}(x, μ)) for η ∈ (0, 1].

    DERIVED (formula sheet 001 §4.3 C0–C3): C0 restricted to λ ≤ ε(1−η), 1 − λ²/ε² ≥ η, and the dual
    form of d_ε (sheet §2.4).  Replaces the lost prefactor of seed 001 Lemma D.3.
    """
    n, m, eps, mu_l, x_l = _prep(n, m, epsilon, mu, x, tail)
    eta = np.asarray(eta, dtype=float)
    if np.isnan(eta).any() or (eta <= 0).any() or (eta > 1).any():
        raise InputError("eta", "in (0, 1]", float(eta[(np.isnan(eta)) | (eta <= 0) | (eta > 1)].ravel()[0]))
    n, m, eps, mu_l, x_l, eta = np.broadcast_arrays(n, m, eps, mu_l, x_l, eta)
    eps_eff = eps * (1.0 - eta)
    d = np.where(eps_eff > 0, d_epsilon(x_l, mu_l, np.where(eps_eff > 0, eps_eff, 1.0)), 0.0)
    log = -m * np.log(eta) - n * d
    return c.as_result(c.out(np.where(_side_mask(mu_l, x_l), log, 0.0)))


def _c1_argmin_lower(n, m, eps, mu, x):
    """u* = 1 − η*, η* minimising f(η) = −m ln η − n d_{ε(1−η)}(x, μ) over (0, 1], lower tail, vectorised.

    Shape (proof): d_{ε'}(x, μ) = inf_z ε'|z − x| + kl(z, μ) is an infimum of affine functions of ε', hence
    concave in ε', and ε' = ε(1 − η) is affine in η; so −n d is convex in η, −m ln η is convex, and f is
    convex on (0, 1]. By the envelope theorem ∂d_{ε'}/∂ε' = |z* − x| (z* = d_epsilon_minimiser), so
    f'(η) = −m/η + nε |z*(ε(1−η)) − x|, nondecreasing in η.
    Bracket (proof): |z* − x| ≤ μ − x, so f'(η) ≤ 0 for η ≤ η_lo = m/(nε(μ − x)); at η = 1 (ε' = 0,
    z* = μ) f'(1) = −m + nε(μ − x). If f'(1) ≤ 0, η* = 1 (C1 = 1, trivial); else η* ∈ [η_lo, 1).
    The search runs on ln u, u = 1 − η ∈ (0, 1 − η_lo], 800 natural-log units deep: at ε = 1e308 the minimiser
    sits at u ≈ ε_0/ε ≈ 1e-309, which η itself cannot resolve next to 1 (the former search returned 1).
    """
    gap = mu - x
    active = gap > 0
    with np.errstate(over="ignore", invalid="ignore"):  # nε = +inf (n = 1e18, ε = 1e308) is right; inf·0 only
        ne = n * eps                                      # where gap = 0, which is inactive
        slope1 = ne * gap - m  # f'(1)
    interior = active & (slope1 > 0)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        eta_lo = np.where(interior, np.minimum(m / (ne * gap), 1.0), 1.0)
    eta_lo = np.where(np.isfinite(eta_lo), eta_lo, 0.0)
    u_top = np.where(interior, 1.0 - eta_lo, 1.0)
    with np.errstate(divide="ignore"):
        hi_t = np.log(np.where(u_top > 0, u_top, 1.0))
    lo_t = hi_t - 800.0
    xs = np.where(interior, x, 0.0)
    mus = np.where(interior, mu, 0.5)
    for _ in range(_BISECT):
        t = 0.5 * (lo_t + hi_t)
        u = np.exp(t)
        with np.errstate(over="ignore", under="ignore"):
            e_eff = np.where(interior, eps * u, 1.0)
        z = d_epsilon_minimiser(xs, mus, np.maximum(e_eff, np.finfo(float).tiny))
        with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
            g = ne * np.abs(z - xs) - m / (1.0 - u)
        # NaN only from inf·0 (z* = x: the ε' term has zero slope) or inf − inf (η = 0): f' < 0 in both
        g = np.where(np.isnan(g), -np.inf, g)
        pos = g > 0  # f'(η) > 0: η too large, u too small
        lo_t = np.where(interior & pos, t, lo_t)
        hi_t = np.where(interior & ~pos, t, hi_t)
    return np.where(interior, np.exp(lo_t), 0.0)


def _c1_log_at_u(n, m, eps, mu_l, x_l, u):
    """ln C1 at η = 1 − u: −m ln(1 − u) − n d_{εu}(x, μ) (log1p keeps u ≈ 1e-309 exact)."""
    with np.errstate(over="ignore", under="ignore"):
        eps_eff = eps * u
    d = np.where(eps_eff > 0, d_epsilon(x_l, mu_l, np.where(eps_eff > 0, eps_eff, 1.0)), 0.0)
    with np.errstate(divide="ignore", over="ignore"):  # n·d = inf: the bound is e^{−inf} = 0, stated as log −inf
        return -m * np.log1p(-u) - n * d


def private_tail_c1_argmin(n, m, epsilon, mu, x, tail: str = "lower"):
    """The η ∈ (0, 1] at which C1 is smallest (formula sheet 001 §4.3 C1; f convex, see _c1_argmin_lower).
    At extreme ε the minimiser may round to 1 in double precision; the bound itself is computed from 1 − η."""
    args = _prep(n, m, epsilon, mu, x, tail)
    return c.out(1.0 - _c1_argmin_lower(*args))


def private_tail_c1_best(n, m, epsilon, mu, x, tail: str = "lower") -> c.LogProb:
    """(C1, best η) min over η ∈ (0, 1] of C1 = η^{−m} exp(−n d_{ε(1−η)}(x, μ)).

    DERIVED (formula sheet 001 §4.3 C0–C3), seed 001 Lemma D.3 replacement. The exponent is convex in η
    (proof in ``_c1_argmin_lower``); the minimiser is found by bisection on the derivative inside a proven
    bracket (it replaced a 500-point grid that missed the minimum by 2%: issue 7 §3).
    """
    n_, m_, eps, mu_l, x_l = _prep(n, m, epsilon, mu, x, tail)
    u = _c1_argmin_lower(n_, m_, eps, mu_l, x_l)
    best = np.minimum(_c1_log_at_u(n_, m_, eps, mu_l, x_l, u), 0.0)
    best = np.where(_side_mask(mu_l, x_l), best, 0.0)
    return c.as_result(c.out(best))


def _log_max1_ratio(n, m, eps, gap):
    """ln max{1, nε·gap/m} in log space (nε·gap overflowed at ε = 1e308; gap = 0 gives 0)."""
    g = np.where(gap > 0, gap, 1.0)
    return np.where(gap > 0, np.maximum(0.0, np.log(n) + np.log(eps) + np.log(g) - np.log(m)), 0.0)


def _c2_log(n, m, eps, mu_l, x_l):
    d = d_epsilon(x_l, mu_l, eps)
    gap = np.abs(mu_l - x_l)
    with np.errstate(over="ignore"):  # n·d = inf (d = ε(1 − x) at μ = 1, ε = 1e308): log −inf, bound 0
        return m * (1.0 + _log_max1_ratio(n, m, eps, gap)) - n * d


def private_tail_c2(n, m, epsilon, mu, x, tail: str = "lower") -> c.LogProb:
    """(C2) closed form (e·max{1, nε|μ−x|/m})^m · exp(−n d_ε(x, μ)).

    DERIVED (formula sheet 001 §4.3 C0–C3): C1 with η = m/(nε|μ−x|) and d_ε − d_{ε'} ≤ (ε−ε')|μ−x|;
    replaces the lost prefactor of seed 001 Lemma D.3.  d_ε from seed 001 Eq. 8 (boundcalc.info).
    """
    n, m, eps, mu_l, x_l = _prep(n, m, epsilon, mu, x, tail)
    log = _c2_log(n, m, eps, mu_l, x_l)
    return c.as_result(c.out(np.where(_side_mask(mu_l, x_l), log, 0.0)))


def private_tail_c3(n, m, epsilon, mu, x, tail: str = "lower") -> c.LogProb:
    """(C3) convolution route [1 + n kl(x,μ)(e·max{1, εn|μ−x|/m})^m] · exp(−n d_ε(x, μ)).

    DERIVED (formula sheet 001 §4.3 C0–C3), mirrors seed 001 Proof D.4 of Lemma D.3 (integration by
    parts against the Laplace survival function, Eqs. 20–26).  Looser than C2.
    """
    n, m, eps, mu_l, x_l = _prep(n, m, epsilon, mu, x, tail)
    d = d_epsilon(x_l, mu_l, eps)
    kl = kl_bernoulli(x_l, mu_l)
    gap = np.abs(mu_l - x_l)
    with np.errstate(divide="ignore"):
        inner = np.log(n) + np.log(kl) + m * (1.0 + _log_max1_ratio(n, m, eps, gap))
    inner = np.where(np.isnan(inner), np.inf, inner)  # kl = inf at the boundary -> trivial bound
    with np.errstate(over="ignore", invalid="ignore"):  # n·d = inf; inf − inf (kl = inf too) is the trivial 1
        log = np.logaddexp(0.0, inner) - n * d
    log = np.where(np.isnan(log) | (np.isinf(log) & (log > 0)), 0.0, log)
    return c.as_result(c.out(np.where(_side_mask(mu_l, x_l), log, 0.0)))


def private_tail_naive(n, m, epsilon, mu, x, tail: str = "lower", grid: int = 2001) -> c.LogProb:
    """Separate ("naive") bound of formula sheet 001 §4.5 (DERIVED):

    P(S̃ ≤ nx) ≤ inf_{0≤δ≤μ−x} [ exp(−n kl(x+δ, μ)) + P(L_m ≤ −nδ) ], the last term by the Chernoff
    form of seed 001 Lemma D.1 (sheet §4.1).  Minimised over a grid of δ (every δ is valid).
    """
    n, m, eps, mu_l, x_l = _prep(n, m, epsilon, mu, x, tail)
    t = np.linspace(0.0, 1.0, grid).reshape((-1,) + (1,) * np.ndim(n))
    gap = np.maximum(mu_l - x_l, 0.0)
    delta = t * gap[None, ...]
    lb = -n * kl_bernoulli(np.minimum(x_l + delta, mu_l), mu_l)
    pos = delta > 0
    ll = np.where(pos, laplace_sum_chernoff(np.where(pos, n * delta, 1.0), m, eps).log, 0.0)
    best = np.minimum(np.min(np.logaddexp(lb, ll), axis=0), 0.0)
    return c.as_result(c.out(np.where(_side_mask(mu_l, x_l), best, 0.0)))


def prop41_constant(a, epsilon, schedule=None, *, alpha=None, n1: float = 1.0, n_max: int = 10**6) -> float:
    """A_a of seed 001 Prop. 4.1 / Cor. D.5: A_a = sup_{n≥1} (2ε/a)^{m_n} e^{−na/2} (returned as a float).

    DERIVED (formula sheet 001 §4.4, from C1 with η = a/(2ε)); for a ≥ ε the constant 1 is valid as well
    (d_ε ≤ ε ≤ a), and the smaller of the two is returned.  The schedule is either
    * ``alpha`` (> 1) with ``n1``: geometric batches, m_n ≤ log_α(n/n1) + 2 (sheet §4.4); the sup over
      real n of r^{m_n} e^{−na/2} is then taken in closed form (a certified value), or
    * ``schedule``: a vectorised callable n -> m_n; the sup is taken over n = 1..n_max only.
    """
    a = validate.positive("a", a)
    eps = validate.positive("epsilon", epsilon)
    if a >= eps:
        return 1.0
    r = np.log(2.0 * eps / a)  # > 0 here
    if alpha is not None:
        alpha = validate.greater_than("alpha", alpha, 1.0)
        n1 = validate.positive("n1", n1)
        la = np.log(alpha)
        # ln term(n) = r(2 + ln(n/n1)/ln α) − n a/2 (for n ≥ n1; m_n ≤ 2 below), concave in ln n
        nstar = max(2.0 * r / (a * la), n1)
        logA = r * (2.0 + np.log(nstar / n1) / la) - nstar * a / 2.0
        logA = max(logA, 2.0 * r - a / 2.0)
        return float(np.exp(logA))
    if schedule is None:
        raise InputError("schedule", "a callable n -> m_n or alpha > 1", None)
    best = -np.inf
    for start in range(1, int(n_max) + 1, 10**6):
        ns = np.arange(start, min(start + 10**6, int(n_max) + 1), dtype=float)
        mn = np.asarray(schedule(ns), dtype=float)
        best = max(best, float(np.max(mn * r - ns * a / 2.0)))
    return float(np.exp(best))


def prop41_bound(n, m, epsilon, mu, x, a, tail: str = "lower") -> c.LogProb:
    """The n-wise quantity behind seed 001 Prop. 4.1: (2ε/a)^{m} e^{−na/2} · exp(−n(d_ε(x,μ) − a)).

    Its sup over n of the prefactor is A_a (``prop41_constant``).  DERIVED (formula sheet 001 §4.4).
    Equals C1 with η = a/(2ε) after the relaxation d_{ε(1−η)} ≥ d_ε − a/2, so it is ≥ C0.
    """
    n, m, eps, mu_l, x_l = _prep(n, m, epsilon, mu, x, tail)
    a = np.asarray(a, dtype=float)
    d = d_epsilon(x_l, mu_l, eps)
    log = np.where(a < 2 * eps, m * np.log(np.maximum(2 * eps / a, 1.0)), 0.0) - n * a / 2 - n * (d - a)
    return c.as_result(c.out(np.where(_side_mask(mu_l, x_l), log, 0.0)))


def gaussian_private_tail_chernoff(n, m, sigma, mu, x, tail: str = "lower") -> c.LogProb:
    """Coupled Chernoff bound for S_n + Σ_{j≤m} N(0, σ²) (the zCDP private sum; seed 003 Lemma 2 setting).

    inf_{λ≥0} exp(n[λx + ln(1−μ+μe^{−λ})] + m λ² σ²/2).  DERIVED (the Gaussian MGF e^{λ²σ²/2} in place
    of the Laplace one of formula sheet 001 §4.3 C0); minimiser bracketed in [0, n(μ−x)/(mσ²)].
    """
    n = c.counts("n", n)
    m = c.counts("m", m)
    sig = c.positive("sigma", sigma)
    mu = c.prob("mu", mu)
    x = c.prob("x", x)
    mu_l, x_l = c.mirror(tail, mu, x)
    n, m, sig, mu_l, x_l = np.broadcast_arrays(n, m, sig, mu_l, x_l)
    with np.errstate(over="ignore", under="ignore"):
        v = m * sig**2  # may be inf (σ = 1e308: trivial bound) or 0 (σ = 1e-320: the non-private limit)
    lo = np.zeros(np.shape(n))
    # the minimiser is at most n(μ−x)/v (the derivative is ≥ −n(μ−x) + vλ) and at most the non-private
    # Chernoff tilt; 1e4 caps it where that is infinite (x = 0, v = 0): e^{−1e4} is 0 in double precision
    with np.errstate(divide="ignore", invalid="ignore"):
        hi = np.where(v > 0, n * (mu_l - x_l) / np.where(v > 0, v, 1.0), np.inf)
    hi = np.clip(np.where(np.isnan(hi), 0.0, hi), 0.0, 1e4)
    active = (x_l < mu_l) & np.isfinite(v)
    for _ in range(_BISECT):
        mid = 0.5 * (lo + hi)
        with np.errstate(invalid="ignore"):  # v = inf (inactive entries): inf·0
            g = n * (x_l - _tilted_mean(mu_l, mid)) + v * mid
        pos = g > 0
        hi = np.where(pos, mid, hi)
        lo = np.where(pos, lo, mid)
    lam = np.where(active, lo, 0.0)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        val = n * (lam * x_l + c.log1p_mu_expm1(mu_l, -lam)) + np.where(lam > 0, v * lam**2 / 2, 0.0)
    val = np.where(np.isnan(val), 0.0, val)
    return c.as_result(c.out(np.where(active, np.minimum(val, 0.0), 0.0)))
