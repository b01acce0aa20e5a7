"""d_{ε,inf} of seed 001 Eq. 9 (Thm 3.1 implication (c)) for finitely supported arms on [0, 1].

Definitions (seed 001 Eq. 9; docs/formulas/eps-global-dp-bernoulli.md §2.2):
    d_ε(P, Q)            = inf_R { ε·TV(P, R) + KL(R, Q) }
    d_{ε,inf}(P, μ*, M)  = inf { d_ε(P, Q) : Q ∈ M, mean(Q) > μ* }
    liminf Reg_T / ln T ≥ Σ_{a: Δ_a > 0} Δ_a / d_{ε,inf}(ν_a, μ*, M_a)                    (Eq. 9)
with M = all distributions on [0, 1] (the unstructured class of the sheet; the closure mean(Q) ≥ μ* gives the same
infimum). Exchanging the two infima, d_{ε,inf}(P, μ*) = inf_R { ε·TV(P, R) + KL_inf(R, μ*) } with the KL_inf of
Honda & Takemura (seed 001 Eq. 3). DERIVED (this module): for every λ of the dual KL_inf(R, μ*) =
max_λ E_R ln(1 − λ(X − μ*)) the integrand decreases in x, so among the R at TV distance τ from P the smallest
KL_inf is reached by moving mass τ from the lowest atoms of P to the point 1 (R_τ). Hence

    d_{ε,inf}(P, μ*) = min_{0 ≤ τ ≤ τ_max} { ε τ + KL_inf(R_τ, μ*) },

a convex one-dimensional problem (each dual objective is piecewise linear convex in τ: the slopes g(1) − g(x_i)
grow as the removed atoms rise), τ_max the smallest τ with mean(R_τ) ≥ μ*. For a Bernoulli P = Ber(x) this is
inf_τ ετ + kl(x + τ, μ*) = d_ε(x, μ*) (seed 001 Eq. 6, closed form Eq. 8). tests/info/test_d_eps_inf.py checks the
value against a direct optimisation over Q of d_ε(P, Q) (info.d_epsilon_general) and the mpmath version at 50 digits.
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import InputError
from ._special import golden_section_mp
from .kl_inf import _clean_distribution, _kl_inf_one, kl_inf_finite_mp


def _sorted(x, w):
    o = np.argsort(x, kind="stable")
    return x[o], w[o]


def _shift(x, w, tau):
    """R_τ: mass τ removed from the lowest atoms of (x, w) (ascending) and put on the point 1."""
    w = w.copy()
    left = tau
    for i in range(x.size):
        if left <= 0:
            break
        take = min(w[i], left)
        w[i] -= take
        left -= take
    xs = np.append(x, 1.0)
    ws = np.append(w, tau)
    keep = ws > 0
    return xs[keep], ws[keep]


def _tau_max(x, w, ms):
    """Smallest τ with mean(R_τ) ≥ μ* (moving mass m from atom x_i raises the mean by m(1 − x_i))."""
    need = ms - float(np.dot(w, x))
    if need <= 0:
        return 0.0
    tau = 0.0
    for xi, wi in zip(x, w):
        gain = wi * (1 - xi)
        if gain >= need:
            return tau + need / (1 - xi)
        need -= gain
        tau += wi
    return tau  # all mass moved (μ* = 1)


def d_eps_inf_finite(support, weights, mu_star, epsilon, return_tau=False):
    """d_{ε,inf}(P, μ*) for P = Σ w_i δ_{x_i} on [0, 1] and the class of all distributions on [0, 1] (seed 001 Eq. 9).

    Minimises ε τ + KL_inf(R_τ, μ*) over τ ∈ [0, τ_max] (module docstring): bounded Brent on the convex function,
    the endpoints compared. 0 when mean(P) ≥ μ*; ε τ_max when μ* = 1. With return_tau also the minimiser τ*.
    """
    from scipy.optimize import minimize_scalar

    x, w = _clean_distribution(support, weights)
    x, w = _sorted(x, w)
    ms = float(np.asarray(mu_star, dtype=float))
    if not (0 <= ms <= 1):
        raise InputError("mu_star", "a number in [0, 1]", mu_star)
    e = float(epsilon)
    if not (e > 0):
        raise InputError("epsilon", "a number > 0", epsilon)
    tmax = _tau_max(x, w, ms)
    if tmax == 0:
        return (0.0, 0.0) if return_tau else 0.0

    def f(tau):
        xs, ws = _shift(x, w, tau)
        return e * tau + _kl_inf_one(xs, ws, ms)[0]

    cands = [(e * tmax, tmax)]
    if math.isfinite(e) and ms < 1:
        f0 = f(0.0)
        cands.append((f0, 0.0))
        res = minimize_scalar(f, bounds=(0.0, tmax), method="bounded", options={"xatol": 1e-14 * max(tmax, 1e-300)})
        cands.append((float(res.fun), float(res.x)))
    val, tau = min(cands)
    val = max(0.0, val)
    return (val, tau) if return_tau else val


def d_eps_inf_finite_mp(support, weights, mu_star, epsilon):
    """mpmath version of :func:`d_eps_inf_finite` (seed 001 Eq. 9): golden-section search on the convex function
    ε τ + KL_inf(R_τ, μ*) (KL_inf by :func:`info.kl_inf.kl_inf_finite_mp`) to the working precision."""
    import mpmath

    x = [mpmath.mpf(v) for v in support]
    w = [mpmath.mpf(v) for v in weights]
    pairs = sorted((xi, wi) for xi, wi in zip(x, w) if wi > 0)
    ms, e = mpmath.mpf(mu_star), mpmath.mpf(epsilon)
    mean = mpmath.fsum(xi * wi for xi, wi in pairs)
    if mean >= ms:
        return mpmath.mpf(0)
    need, tmax = ms - mean, mpmath.mpf(0)
    for xi, wi in pairs:
        gain = wi * (1 - xi)
        if gain >= need:
            tmax += need / (1 - xi)
            break
        need -= gain
        tmax += wi

    def f(tau):
        left, ws = tau, []
        for xi, wi in pairs:
            take = min(wi, left)
            left -= take
            ws.append(wi - take)
        xs = [xi for xi, _ in pairs] + [mpmath.mpf(1)]
        ws.append(tau)
        keep = [(a, b) for a, b in zip(xs, ws) if b > 0]
        tot = mpmath.fsum(b for _, b in keep)
        return e * tau + kl_inf_finite_mp([a for a, _ in keep], [b / tot for _, b in keep], ms)

    if ms == 1:
        return e * tmax
    # τ to 2^{-prec/2}: the value to the working precision
    fc, fd = golden_section_mp(f, mpmath.mpf(0), tmax, int(mpmath.mp.prec * 0.75) + 20)
    return max(mpmath.mpf(0), min(fc, fd, f(mpmath.mpf(0)), e * tmax))
