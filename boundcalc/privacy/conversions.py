"""Conversions between privacy notions, each a pure function citing its source.

Notation: ρ-zCDP (Bun & Steinke 2016, Def. 1.1: D_α ≤ αρ for every α > 1); (α, ε)-RDP (Mironov 2017,
Def. 4); (ε, δ)-DP; pure ε-DP. "simple" conversions are the classical closed forms; "tight" ones are the
Canonne–Kamath–Steinke 2020 ("The Discrete Gaussian for Differential Privacy", arXiv:2004.00010)
Proposition 12 / Corollary 13 forms (the same formula as Asoodeh et al. 2020 Eq. 20), which Google's
``dp_accounting`` also uses (``rdp_privacy_accountant.compute_epsilon``/``compute_delta``):

    (α, τ)-RDP  ⇒  (ε, δ)-DP  with  δ = exp((α−1)(τ−ε)) / (α−1) · (1 − 1/α)^α        (CKS Prop. 12)
    equivalently ε = τ + ln(1/δ)/(α−1) + ln(1 − 1/α) − ln(α)/(α−1),
    ρ-zCDP ⇒ (ε, δ)-DP with δ = inf_{α>1} exp((α−1)(αρ−ε)) / (α−1) · (1 − 1/α)^α         (CKS Cor. 13).

Two directions matter for bounds (see boundcalc.bounds.base):
- ``calibrate_upper(user, notion)``: the largest budget of ``notion`` whose guarantee implies the user's
  (an algorithm of that notion, run at it, satisfies what the user asked);
- ``implied_lower(user, notion)``: the budget of ``notion`` implied by the user's guarantee
  (a lower bound for that notion then covers the user's algorithms).
Both return ``(budget or None, text naming the conversion or why none exists)``.

Scalar functions validate their inputs (InputError); the closed forms accept numpy arrays as well.
"""

from __future__ import annotations

import math

import numpy as np

from .. import validate as v
from ..errors import InputError
from .budgets import RDP, ZCDP, ApproxDP, Budget, LocalDP, PureDP

__all__ = [
    "pure_to_zcdp",
    "pure_to_rdp",
    "pure_to_rdp_exact",
    "pure_to_approx",
    "pure_to_approx_delta",
    "pure_to_approx_tight_epsilon",
    "zcdp_to_rdp",
    "zcdp_to_approx_simple",
    "zcdp_to_approx_tight",
    "zcdp_delta_tight",
    "zcdp_delta_simple",
    "rdp_to_approx_simple",
    "rdp_to_approx_tight",
    "rdp_delta_tight",
    "approx_to_zcdp_calibration",
    "approx_to_zcdp_calibration_tight",
    "approx_to_rdp_calibration_tight",
    "approx_to_rdp_epsilon",
    "rdp_to_pure_calibration",
    "calibrate_upper",
    "implied_lower",
]


# --------------------------------------------------------------------------------------------------
# validation helpers (scalars or arrays)


def _pos(name, x):
    if np.ndim(x) == 0:
        return v.positive(name, x)
    return v.positive_array(name, x)


def _unit(name, x):
    if np.ndim(x) == 0:
        return v.open_unit(name, x)
    a = np.asarray(x, dtype=float)
    bad = np.isnan(a) | (a <= 0) | (a >= 1)
    if a.size and bad.any():
        raise InputError(name, "in (0, 1)", float(a[bad].ravel()[0]))
    return a


def _alpha(name, x):
    if np.ndim(x) == 0:
        return v.greater_than(name, x, 1.0)
    a = np.asarray(x, dtype=float)
    bad = np.isnan(a) | (a <= 1) | np.isinf(a)
    if a.size and bad.any():
        raise InputError(name, "a finite number > 1", float(a[bad].ravel()[0]))
    return a


def _nonneg(name, x):
    return v.nonnegative(name, x)


# --------------------------------------------------------------------------------------------------
# pure ε-DP ⇒ others


def pure_to_zcdp(epsilon):
    """ε-DP implies (ε²/2)-zCDP (Bun & Steinke 2016, Prop. 1.4). Vectorised."""
    e = _pos("epsilon", epsilon)
    return 0.5 * np.square(e) if np.ndim(e) else 0.5 * e * e


def pure_to_rdp(epsilon, alpha):
    """ε-DP implies (α, min(ε, αε²/2))-RDP. Vectorised.

    The ε part: ε-DP is (∞, ε)-RDP (Mironov 2017, §III, "ε-DP is (∞, ε)-RDP") and D_α is nondecreasing in α
    (van Erven & Harremoës 2014, Thm 3). The αε²/2 part: ε-DP ⇒ ε²/2-zCDP (Bun & Steinke 2016, Prop. 1.4),
    which is (α, αε²/2)-RDP at every order α (Bun & Steinke 2016, Def. 1.1)."""
    e = _pos("epsilon", epsilon)
    a = _alpha("alpha", alpha)
    with np.errstate(over="ignore"):  # αε²/2 = inf for ε ~ 1e300: the min is then ε
        return np.minimum(e, 0.5 * a * np.square(e))


def pure_to_rdp_exact(epsilon, alpha):
    """Exact (worst-case) Rényi divergence of an ε-DP mechanism: that of randomised response,

        D_α = ln( (e^{αε} + e^{(1−α)ε}) / (1 + e^ε) ) / (α − 1)
            = ln( (sinh(αε) − sinh((α−1)ε)) / sinh(ε) ) / (α − 1)

    (Bun & Steinke 2016, Prop. 3.3; randomised response row of Mironov 2017, Table II; every ε-DP pair is
    a post-processing of randomised response, Kairouz, Oh & Viswanath 2015, Thm 2.1). Always ≤
    ``pure_to_rdp``. Vectorised.

    Evaluated as [ln cosh((α − ½)ε) − ln cosh(ε/2)] / (α − 1) (the same expression: both numerator and
    denominator above are 2e^{ε/2} cosh(·)), with ln cosh x = log1p(2 sinh²(x/2)) for x < 20, so that small
    ε keeps its relative accuracy (≈ αε²/2; the log-sum-exp difference cancels to 0 below ε ≈ 1e-8, which
    made ``rdp_to_pure_calibration`` return ε₀ ≈ 3e-17 for an RDP level of 1e-300), and the large-x form
    x − ln 2 + log1p(e^{−2x}) with the leading terms combined analytically (no overflow at αε ~ 1e300).
    """
    e = np.asarray(_pos("epsilon", epsilon), dtype=float)
    a = np.asarray(_alpha("alpha", alpha), dtype=float)
    e, a = np.broadcast_arrays(e, a)
    B = 0.5 * e  # ln cosh(B)
    with np.errstate(over="ignore", invalid="ignore"):
        A = (a - 0.5) * e  # ln cosh(A), A > B
        am1 = a - 1.0

        def small(x):
            return np.log1p(2.0 * np.sinh(0.5 * np.minimum(x, 20.0)) ** 2)

        def tail(x):  # ln cosh x − (x − ln 2)
            return np.log1p(np.exp(-2.0 * x))

        both_small = A < 20.0
        d_small = (small(A) - small(B)) / am1
        # A ≥ 20 > B:  [A − ln 2 + tail(A) − lncosh(B)]/(α−1), with A/(α−1) = ε(1 + 1/(2(α−1)))
        d_mixed = e + 0.5 * e / am1 + (tail(A) - math.log(2.0) - small(B)) / am1
        # A, B ≥ 20:   (A − B)/(α−1) = ε
        d_big = e + (tail(A) - tail(B)) / am1
        out = np.where(both_small, d_small, np.where(B < 20.0, d_mixed, d_big))
    out = np.maximum(out, 0.0)
    return float(out) if out.ndim == 0 else out


def pure_to_approx(epsilon, delta=None):
    """ε-DP is (ε, δ)-DP for every δ ≥ 0 (definition; Dwork & Roth 2014, Def. 2.4 with δ = 0)."""
    e = _pos("epsilon", epsilon)
    if delta is not None:
        _unit("delta", delta)
    return e


def pure_to_approx_delta(epsilon, epsilon_prime):
    """Tight privacy profile of ε-DP: for 0 ≤ ε' ≤ ε it is (ε', (e^ε − e^{ε'})/(1 + e^ε))-DP, the
    hockey-stick divergence of randomised response (Kairouz, Oh & Viswanath 2015, Thm 2.1; Murtagh &
    Vadhan 2016, Lemma 3.2). Returns 0 for ε' ≥ ε."""
    e = _pos("epsilon", epsilon)
    ep = _nonneg("epsilon-prime", epsilon_prime)
    if ep >= e:
        return 0.0
    # (e^e − e^ep)/(1 + e^e) = e^{e}(1 − e^{ep−e})/(1+e^e)
    return float(-math.expm1(ep - e) / (1.0 + math.exp(-e)))


def pure_to_approx_tight_epsilon(epsilon, delta):
    """Smallest ε' with ε-DP ⇒ (ε', δ)-DP: ε' = ln(e^ε − δ(1 + e^ε)), clamped at 0 (inverse of
    ``pure_to_approx_delta``; Kairouz, Oh & Viswanath 2015, Thm 2.1)."""
    e = _pos("epsilon", epsilon)
    d = _unit("delta", delta)
    # e^e − d(1 + e^e) = e^e (1 − d(1 + e^{−e}))
    inner = 1.0 - d * (1.0 + math.exp(-e))
    if inner <= math.exp(-e):
        return 0.0
    return float(e + math.log(inner))


# --------------------------------------------------------------------------------------------------
# zCDP / RDP ⇒ (ε, δ)


def zcdp_to_rdp(rho, alpha):
    """ρ-zCDP is (α, αρ)-RDP for every α > 1 (Bun & Steinke 2016, Def. 1.1). Vectorised."""
    r = _pos("rho", rho)
    a = _alpha("alpha", alpha)
    return a * r


def zcdp_to_approx_simple(rho, delta):
    """ρ-zCDP implies (ρ + 2√(ρ ln(1/δ)), δ)-DP (Bun & Steinke 2016, Prop. 1.3). Vectorised."""
    r = _pos("rho", rho)
    d = _unit("delta", delta)
    return r + 2.0 * np.sqrt(r) * np.sqrt(-np.log(d))  # √ρ·√ln(1/δ): no overflow of ρ ln(1/δ) at ρ = 1e308


def zcdp_delta_simple(rho, epsilon):
    """δ of the simple conversion for a target ε: inverse of Bun & Steinke Prop. 1.3,
    δ = exp(−(ε − ρ)²/(4ρ)) for ε ≥ ρ, else 1 (Bun & Steinke 2016, Prop. 1.3 proof, optimal α)."""
    r = _pos("rho", rho)
    e = _nonneg("epsilon", epsilon)
    if e <= r:
        return 1.0
    return float(math.exp(-((e - r) ** 2) / (4.0 * r)))


def rdp_to_approx_simple(alpha, epsilon, delta):
    """(α, ε)-RDP implies (ε + ln(1/δ)/(α−1), δ)-DP (Mironov 2017, Prop. 3). Vectorised."""
    a = _alpha("alpha", alpha)
    e = _pos("rdp-epsilon", epsilon)
    d = _unit("delta", delta)
    return e + np.log(1.0 / d) / (a - 1.0)


def _cks_eps(alpha: float, tau: float, log_inv_delta: float) -> float:
    """ε of CKS 2020 Prop. 12 at one order (may be negative; callers clamp at 0)."""
    am1 = alpha - 1.0
    return tau + log_inv_delta / am1 + math.log1p(-1.0 / alpha) - math.log(alpha) / am1


def _cks_log_delta(alpha: float, tau: float, epsilon: float) -> float:
    """ln δ of CKS 2020 Prop. 12 at one order: (α−1)(τ−ε) − ln(α−1) + α ln(1 − 1/α)."""
    am1 = alpha - 1.0
    return am1 * (tau - epsilon) - math.log(am1) + alpha * math.log1p(-1.0 / alpha)


def _kl_tv_bound(kl: float) -> float:
    """TV ≤ √(1 − e^{−KL}) (Bretagnolle–Huber inequality; Canonne 2022 note), so (0, δ)-DP for δ ≥ it.
    For ρ-zCDP, KL = D_1 ≤ ρ (limit α → 1 of Bun & Steinke Def. 1.1). Same guard as dp_accounting."""
    return math.sqrt(-math.expm1(-kl))


def rdp_to_approx_tight(alpha, epsilon, delta):
    """(α, ε)-RDP implies (ε', δ)-DP with ε' = ε + ln(1/δ)/(α−1) + ln(1 − 1/α) − ln(α)/(α−1), clamped at 0
    (Canonne, Kamath & Steinke 2020, Prop. 12). Always ≤ ``rdp_to_approx_simple``."""
    a = _alpha("alpha", alpha)
    e = _pos("rdp-epsilon", epsilon)
    d = _unit("delta", delta)
    return max(0.0, _cks_eps(a, e, math.log(1.0 / d)))


def rdp_delta_tight(alpha, epsilon, epsilon_dp):
    """δ for a target ε of (α, ε)-RDP: δ = exp((α−1)(ε−ε_dp))/(α−1) · (1 − 1/α)^α, capped at 1
    (Canonne, Kamath & Steinke 2020, Prop. 12)."""
    a = _alpha("alpha", alpha)
    e = _pos("rdp-epsilon", epsilon)
    t = _nonneg("epsilon", epsilon_dp)
    return float(min(1.0, math.exp(_cks_log_delta(a, e, t))))


def _cks_eps_grid(alpha: np.ndarray, log_inv_delta: float) -> np.ndarray:
    """``_cks_eps(α, 0, L)`` on an array of orders (the grid stage of the calibrations, one numpy pass)."""
    am1 = alpha - 1.0
    return log_inv_delta / am1 + np.log1p(-1.0 / alpha) - np.log(alpha) / am1


def _minimise_over_alpha(f, lo_u: float = -14.0, hi_u: float = 30.0, n: int = 441, f_grid=None):
    """min over α > 1 of f(α), with α = 1 + e^u: coarse grid in u, then bounded Brent around the best.
    ``f_grid`` (optional) evaluates f on the whole array of grid orders at once; it must equal f pointwise."""
    from scipy.optimize import minimize_scalar

    us = np.linspace(lo_u, hi_u, n)
    if f_grid is not None:
        with np.errstate(all="ignore"):
            vals = np.asarray(f_grid(1.0 + np.exp(us)), dtype=float)
    else:
        vals = np.array([f(1.0 + math.exp(u)) for u in us])
    i = int(np.nanargmin(vals))
    a_lo, a_hi = us[max(i - 1, 0)], us[min(i + 1, n - 1)]
    res = minimize_scalar(lambda u: f(1.0 + math.exp(u)), bounds=(a_lo, a_hi), method="bounded",
                          options={"xatol": 1e-12})
    if res.fun <= vals[i]:
        return float(res.fun), 1.0 + math.exp(float(res.x))
    return float(vals[i]), 1.0 + math.exp(float(us[i]))


def zcdp_to_approx_tight(rho, delta, return_alpha: bool = False):
    """ρ-zCDP implies (ε, δ)-DP with ε = inf_{α>1} [αρ + ln(1/δ)/(α−1) + ln(1 − 1/α) − ln(α)/(α−1)]
    (Canonne, Kamath & Steinke 2020, Cor. 13 solved for ε), and ε = 0 when δ ≥ √(1 − e^{−ρ})
    (KL ≤ ρ and Bretagnolle–Huber). Always ≤ ``zcdp_to_approx_simple`` (the extra terms are ≤ 0).
    The infimum is found numerically (grid in ln(α−1), then Brent)."""
    r = _pos("rho", rho)
    d = _unit("delta", delta)
    if d >= _kl_tv_bound(r):
        return (0.0, float("nan")) if return_alpha else 0.0
    L = math.log(1.0 / d)

    def eps_of(am1):  # _cks_eps written in α − 1, exact when α − 1 is far below the float spacing at 1
        return r + am1 * r + L / am1 + (math.log(am1) - math.log1p(am1)) - math.log1p(am1) / am1

    # the minimiser has α − 1 ≈ √(L/ρ): the grid in ln(α − 1) reaches below it (ρ = 1e19 put it at e^{−20.5},
    # under the former grid's floor e^{−14}, and returned 1.0000008 ρ, above the simple conversion)
    lo_u = min(-14.0, 0.5 * (math.log(L) - math.log(r)) - 10.0)
    val, am1 = _minimise_over_am1(eps_of, lo_u, 30.0)
    val = max(0.0, val)
    return (val, 1.0 + am1) if return_alpha else val


def _minimise_over_am1(f, lo_u: float, hi_u: float, step: float = 0.1):
    """min over a = α − 1 > 0 of f(a), a = e^u: grid in u with the given step, then bounded Brent."""
    from scipy.optimize import minimize_scalar

    us = np.arange(lo_u, hi_u + step / 2, step)
    vals = np.array([f(math.exp(u)) for u in us])
    i = int(np.nanargmin(vals))
    a_lo, a_hi = us[max(i - 1, 0)], us[min(i + 1, us.size - 1)]
    res = minimize_scalar(lambda u: f(math.exp(u)), bounds=(a_lo, a_hi), method="bounded", options={"xatol": 1e-12})
    if res.fun <= vals[i]:
        return float(res.fun), math.exp(float(res.x))
    return float(vals[i]), math.exp(float(us[i]))


def zcdp_delta_tight(rho, epsilon, return_alpha: bool = False):
    """δ(ε) of ρ-zCDP: δ = inf_{α>1} exp((α−1)(αρ−ε))/(α−1) · (1 − 1/α)^α (Canonne, Kamath & Steinke
    2020, Cor. 13), also ≤ √(1 − e^{−ρ}) (KL ≤ ρ, Bretagnolle–Huber), capped at 1."""
    r = _pos("rho", rho)
    e = _nonneg("epsilon", epsilon)
    logd, a = _minimise_over_alpha(lambda al: _cks_log_delta(al, al * r, e))
    d = min(1.0, math.exp(min(logd, 0.0)), _kl_tv_bound(r))  # logd > 709 (ρ ~ 1e300) overflowed math.exp
    return (d, a) if return_alpha else d


# --------------------------------------------------------------------------------------------------
# inverse calibrations


def approx_to_zcdp_calibration(epsilon, delta):
    """Largest ρ with ρ + 2√(ρ ln(1/δ)) ≤ ε: ρ = (√(L + ε) − √L)², L = ln(1/δ)
    (inverse of Bun & Steinke 2016, Prop. 1.3). Vectorised."""
    e = _pos("epsilon", epsilon)
    d = _unit("delta", delta)
    L = np.log(1.0 / d)
    # sqrt(rho) = s solves s^2 + 2 s sqrt(L) = eps: s = sqrt(L + eps) - sqrt(L), in a stable form
    s = e / (np.sqrt(L + e) + np.sqrt(L))
    return s * s


def approx_to_zcdp_calibration_tight(epsilon, delta, rtol: float = 1e-12):
    """Largest ρ such that ρ-zCDP implies (ε, δ)-DP via the tight conversion (Canonne, Kamath &
    Steinke 2020, Cor. 13). ρ-zCDP gives ε(ρ) = inf_{α>1} [αρ + c(α)] with c(α) = ln(1/δ)/(α−1) +
    ln(1 − 1/α) − ln(α)/(α−1) (``zcdp_to_approx_tight``), so ε(ρ) ≤ ε iff αρ + c(α) ≤ ε for some α, i.e.

        ρ* = sup_{α>1} (ε − c(α)) / α,

    one maximisation over α instead of a bisection on ρ around the inner minimisation (30× faster); also ρ
    with δ ≥ √(1 − e^{−ρ}) (Bretagnolle–Huber, ε = 0) qualifies: ρ ≤ −ln(1 − δ²). ``rtol`` is kept for
    compatibility (the maximiser is polished to 1e-12 in ln(α − 1)). Always ≥ ``approx_to_zcdp_calibration``."""
    e = _pos("epsilon", epsilon)
    d = _unit("delta", delta)
    L = math.log(1.0 / d)
    neg, _ = _minimise_over_alpha(lambda al: -(e - _cks_eps(al, 0.0, L)) / al,
                                  f_grid=lambda al: -(e - _cks_eps_grid(al, L)) / al)
    simple = float(approx_to_zcdp_calibration(e, d))
    return max(-neg, -math.log1p(-d * d), simple)


def approx_to_rdp_calibration_tight(epsilon, delta):
    """An (α, ε_R)-RDP budget implying (ε, δ)-DP by Canonne, Kamath & Steinke 2020, Prop. 12, chosen to
    maximise ε_R/α (RDP bounds of seed 000 depend on the budget only through α/ε_R):
    ε_R(α) = ε − ln(1/δ)/(α−1) − ln(1 − 1/α) + ln(α)/(α−1). Returns ``(alpha, eps_R)`` or None when no
    order gives ε_R > 0."""
    e = _pos("epsilon", epsilon)
    d = _unit("delta", delta)
    L = math.log(1.0 / d)

    def neg_ratio(a):
        er = e - (_cks_eps(a, 0.0, L))
        return -er / a

    val, a = _minimise_over_alpha(neg_ratio, f_grid=lambda al: -(e - _cks_eps_grid(al, L)) / al)
    if not val < 0:
        return None
    er = e - _cks_eps(a, 0.0, L)
    return a, er


def approx_to_rdp_epsilon(epsilon, delta, alpha):
    """Largest ε_R such that (α, ε_R)-RDP implies (ε, δ)-DP by Canonne, Kamath & Steinke 2020, Prop. 12:
    ε_R = ε − ln(1/δ)/(α−1) − ln(1 − 1/α) + ln(α)/(α−1); None when that is ≤ 0."""
    e = _pos("epsilon", epsilon)
    d = _unit("delta", delta)
    a = _alpha("alpha", alpha)
    er = e - _cks_eps(a, 0.0, math.log(1.0 / d))
    return er if er > 0 else None


def rdp_to_pure_calibration(alpha, epsilon, tight: bool = True):
    """Largest pure ε_0 such that ε_0-DP implies (α, ε)-RDP.

    tight: bisection on the exact randomised-response divergence (``pure_to_rdp_exact``, Bun & Steinke
    2016, Prop. 3.3), increasing in ε_0; simple: ε_0 = max(ε, √(2ε/α)) from min(ε_0, αε_0²/2) ≤ ε."""
    a = _alpha("alpha", alpha)
    e = _pos("rdp-epsilon", epsilon)
    simple = max(e, math.sqrt(2.0 * e / a))
    if not tight:
        return simple
    lo, hi = simple, simple * 2.0
    while pure_to_rdp_exact(hi, a) <= e:
        lo, hi = hi, hi * 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if pure_to_rdp_exact(mid, a) <= e:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-13 * hi:
            break
    return lo


# --------------------------------------------------------------------------------------------------
# budget-level conversions used by bounds.base.Context.budget_for

_LOCAL_TO_CENTRAL = (
    "local DP ⇒ central DP with the same (ε, δ): a user's data enters only through its own local "
    "randomiser, everything else is post-processing"
)


def calibrate_upper(user: Budget, notion: str):
    """Budget of ``notion`` at which an algorithm of that notion satisfies the user's guarantee.

    Direction: the algorithm's guarantee (in ``notion``) must imply the user's. Returns
    ``(budget or None, text)``; the text names the conversion and whether it is the tight one.
    """
    if user.notion == notion:
        return user, "same notion"
    # user asks for local DP: only local algorithms qualify
    if isinstance(user, LocalDP):
        return None, "a central-model algorithm is not locally private: only local-DP algorithms meet a local budget"
    if notion == "pure":
        if isinstance(user, ZCDP):
            eps = math.sqrt(2.0 * user.rho)
            return PureDP(eps), f"ε-DP ⇒ ε²/2-zCDP (Bun–Steinke Prop. 1.4): run at ε = √(2ρ) = {eps:.6g}"
        if isinstance(user, RDP):
            e = rdp_to_pure_calibration(user.alpha, user.epsilon, tight=True)
            return PureDP(e), (
                "ε-DP ⇒ (α, D_α(randomised response))-RDP, tight (Bun–Steinke Prop. 3.3): "
                f"run at ε = {e:.6g} (simple min(ε, αε²/2) gives {rdp_to_pure_calibration(user.alpha, user.epsilon, tight=False):.6g})"
            )
        if isinstance(user, ApproxDP):
            return PureDP(user.epsilon), f"ε-DP ⇒ (ε, δ)-DP for every δ: run at ε = {user.epsilon:.6g}"
    if notion == "zcdp":
        if isinstance(user, RDP):
            rho = user.epsilon / user.alpha
            return ZCDP(rho), f"ρ-zCDP ⇒ (α, αρ)-RDP (Bun–Steinke Def. 1.1): run at ρ = ε/α = {rho:.6g}"
        if isinstance(user, ApproxDP):
            rho = approx_to_zcdp_calibration_tight(user.epsilon, user.delta)
            rs = float(approx_to_zcdp_calibration(user.epsilon, user.delta))
            return ZCDP(rho), (
                "ρ-zCDP ⇒ (ε, δ)-DP, tight (Canonne–Kamath–Steinke 2020 Cor. 13): "
                f"run at ρ = {rho:.6g} (simple Bun–Steinke Prop. 1.3 gives {rs:.6g})"
            )
        if isinstance(user, PureDP):
            return None, "ρ-zCDP does not imply pure ε-DP (no ρ > 0 does)"
    if notion == "rdp":
        if isinstance(user, ApproxDP):
            res = approx_to_rdp_calibration_tight(user.epsilon, user.delta)
            if res is None:
                return None, "no Rényi order makes an RDP guarantee imply the requested (ε, δ)"
            a, er = res
            return RDP(a, er), (
                "(α, ε_R)-RDP ⇒ (ε, δ)-DP, tight (Canonne–Kamath–Steinke 2020 Prop. 12), order chosen to "
                f"maximise ε_R/α: run at α = {a:.6g}, ε_R = {er:.6g}"
            )
        if isinstance(user, (ZCDP, PureDP)):
            return None, f"an RDP guarantee at one order does not imply {user.describe()}"
    if notion == "approx":
        return None, f"an (ε, δ)-DP algorithm does not satisfy {user.describe()}"
    if notion == "ldp":
        if isinstance(user, PureDP):
            return LocalDP(user.epsilon), f"{_LOCAL_TO_CENTRAL}: run at local ε = {user.epsilon:.6g}"
        if isinstance(user, ApproxDP):
            return LocalDP(user.epsilon, user.delta), (
                f"{_LOCAL_TO_CENTRAL}: run at local (ε, δ) = ({user.epsilon:.6g}, {user.delta:.6g})"
            )
        if isinstance(user, ZCDP):
            eps = math.sqrt(2.0 * user.rho)
            return LocalDP(eps), (
                f"{_LOCAL_TO_CENTRAL}, and ε-DP ⇒ ε²/2-zCDP (Bun–Steinke Prop. 1.4): run at local ε = {eps:.6g}"
            )
        if isinstance(user, RDP):
            e = rdp_to_pure_calibration(user.alpha, user.epsilon, tight=True)
            return LocalDP(e), (
                f"{_LOCAL_TO_CENTRAL}, and ε-DP ⇒ (α, D_α(RR))-RDP (Bun–Steinke Prop. 3.3): run at local ε = {e:.6g}"
            )
    return None, f"no conversion makes a {notion} algorithm satisfy {user.describe()}"


def implied_lower(user: Budget, notion: str):
    """Budget of ``notion`` implied by the user's guarantee, so a lower bound for ``notion`` applies.

    Direction: the user's guarantee must imply ``notion`` at the returned budget (the user's algorithms
    then lie in the class the lower bound covers). Returns ``(budget or None, text)``.
    """
    if user.notion == notion:
        return user, "same notion"
    # a local guarantee first becomes the central one
    if isinstance(user, LocalDP):
        central = PureDP(user.epsilon) if user.delta == 0 else ApproxDP(user.epsilon, user.delta)
        if notion == central.notion:
            return central, _LOCAL_TO_CENTRAL
        if isinstance(central, PureDP):
            b, why = implied_lower(central, notion)
            return b, (f"{_LOCAL_TO_CENTRAL}; then {why}" if b is not None else why)
        return None, f"{user.describe()} implies central (ε, δ)-DP only, not a {notion} guarantee"
    if notion == "ldp":
        return None, "a central guarantee does not imply local DP"
    if isinstance(user, PureDP):
        if notion == "zcdp":
            rho = float(pure_to_zcdp(user.epsilon))
            return ZCDP(rho), f"ε-DP ⇒ ε²/2-zCDP (Bun–Steinke Prop. 1.4): ρ = {rho:.6g}"
        if notion == "approx":
            return None, "ε-DP is (ε, δ)-DP for every δ > 0, so no single δ: use the ε-DP bound directly"
        if notion == "rdp":
            return None, "ε-DP is (α, min(ε, αε²/2))-RDP at every order: an RDP lower bound needs its order α"
    if isinstance(user, ZCDP):
        if notion == "rdp":
            return None, "ρ-zCDP is (α, αρ)-RDP at every order: an RDP lower bound needs its order α"
        if notion == "approx":
            return None, "ρ-zCDP gives (ε(δ), δ)-DP for every δ: an (ε, δ) lower bound needs its δ"
        if notion == "pure":
            return None, "ρ-zCDP does not imply pure ε-DP"
    if isinstance(user, RDP):
        if notion == "approx":
            return None, "(α, ε)-RDP gives (ε(δ), δ)-DP for every δ: an (ε, δ) lower bound needs its δ"
        return None, f"(α, ε)-RDP at one order does not imply a {notion} guarantee"
    return None, f"{user.describe()} does not imply a {notion} guarantee"
