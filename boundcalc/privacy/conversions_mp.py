"""Conversions at any precision (mpmath, at the current ``mpmath.mp.dps``) and as sympy formulas.

The same formulas as boundcalc.privacy.conversions, for ``boundcalc convert --digits N`` / ``--symbolic``:
Bun & Steinke 2016 Prop. 1.3 / 1.4 and Def. 1.1; Mironov 2017 Prop. 3; Canonne, Kamath & Steinke 2020
Prop. 12 / Cor. 13 (the tight conversions, an infimum over the Rényi order α, found here by Newton's method
on the derivative started from the float optimum); Kairouz, Oh & Viswanath 2015 Thm 2.1.
"""

from __future__ import annotations

import mpmath

from .conversions import zcdp_to_approx_tight


def _mp(x):
    """mpmath number; a Python float is read by its shortest decimal repr (0.1 means 1/10, not the binary double)."""
    return mpmath.mpf(repr(x)) if isinstance(x, float) else mpmath.mpf(x)


def pure_to_zcdp_mp(epsilon):
    """ε-DP ⇒ ε²/2-zCDP (Bun & Steinke 2016, Prop. 1.4)."""
    e = _mp(epsilon)
    return e * e / 2


def zcdp_to_approx_simple_mp(rho, delta):
    """ρ-zCDP ⇒ (ρ + 2√(ρ ln(1/δ)), δ)-DP (Bun & Steinke 2016, Prop. 1.3)."""
    r, d = _mp(rho), _mp(delta)
    return r + 2 * mpmath.sqrt(r * mpmath.log(1 / d))


def rdp_to_approx_simple_mp(alpha, epsilon, delta):
    """(α, ε)-RDP ⇒ (ε + ln(1/δ)/(α−1), δ)-DP (Mironov 2017, Prop. 3)."""
    a, e, d = (_mp(v) for v in (alpha, epsilon, delta))
    return e + mpmath.log(1 / d) / (a - 1)


def cks_epsilon_mp(alpha, tau, delta):
    """ε of CKS 2020 Prop. 12 at one order α for RDP level τ: τ + ln(1/δ)/(α−1) + ln(1 − 1/α) − ln(α)/(α−1)."""
    a, t, d = (_mp(v) for v in (alpha, tau, delta))
    return t + mpmath.log(1 / d) / (a - 1) + mpmath.log(1 - 1 / a) - mpmath.log(a) / (a - 1)


def rdp_to_approx_tight_mp(alpha, epsilon, delta):
    """(α, ε)-RDP ⇒ (ε', δ)-DP, ε' = max(0, CKS Prop. 12 at α) (Canonne, Kamath & Steinke 2020)."""
    return max(mpmath.mpf(0), cks_epsilon_mp(alpha, epsilon, delta))


def zcdp_to_approx_tight_mp(rho, delta):
    """ρ-zCDP ⇒ (ε, δ)-DP with ε = inf_{α>1} CKS(α, αρ, δ) (Canonne, Kamath & Steinke 2020, Cor. 13);
    ε = 0 when δ ≥ √(1 − e^{−ρ}) (Bretagnolle–Huber with KL ≤ ρ)."""
    r, d = _mp(rho), _mp(delta)
    if d >= mpmath.sqrt(-mpmath.expm1(-r)):
        return mpmath.mpf(0)
    _, a0 = zcdp_to_approx_tight(float(rho), float(delta), return_alpha=True)
    # optimise in u = ln(α − 1) (the float optimiser's variable); Newton on the derivative from the float optimum
    f = lambda u: cks_epsilon_mp(1 + mpmath.exp(u), (1 + mpmath.exp(u)) * r, d)  # noqa: E731
    u = mpmath.findroot(lambda u: mpmath.diff(f, u), mpmath.log(mpmath.mpf(a0) - 1))
    return max(mpmath.mpf(0), f(u))


def approx_to_zcdp_calibration_mp(epsilon, delta):
    """Largest ρ with ρ + 2√(ρ ln(1/δ)) ≤ ε: (√(ln(1/δ) + ε) − √(ln(1/δ)))² (inverse of Bun–Steinke Prop. 1.3)."""
    e, d = _mp(epsilon), _mp(delta)
    L = mpmath.log(1 / d)
    return (mpmath.sqrt(L + e) - mpmath.sqrt(L)) ** 2


def formulas_sym(notion: str):
    """(name, sympy expression) pairs of the conversions shown for a budget of ``notion``."""
    import sympy

    rho, eps, delta, alpha, epsr = sympy.symbols("rho epsilon delta alpha epsilon_R", positive=True)
    L = sympy.log(1 / delta)
    cks = lambda tau: tau + L / (alpha - 1) + sympy.log(1 - 1 / alpha) - sympy.log(alpha) / (alpha - 1)  # noqa: E731
    if notion == "zcdp":
        return [("(ε, δ) simple, Bun–Steinke Prop. 1.3", rho + 2 * sympy.sqrt(rho * L)),
                ("(ε, δ) tight, CKS 2020 Cor. 13: inf over α > 1 of", cks(alpha * rho)),
                ("RDP at order α, Bun–Steinke Def. 1.1", alpha * rho)]
    if notion == "pure":
        return [("zCDP ρ, Bun–Steinke Prop. 1.4", eps**2 / 2),
                ("RDP at order α", sympy.Min(eps, alpha * eps**2 / 2)),
                ("(ε', δ) tight, Kairouz–Oh–Viswanath 2015 Thm 2.1", sympy.log(sympy.exp(eps) - delta * (1 + sympy.exp(eps))))]
    if notion == "approx":
        return [("largest ρ meeting (ε, δ), inverse of Bun–Steinke Prop. 1.3", (sympy.sqrt(L + eps) - sympy.sqrt(L)) ** 2)]
    return [("(ε, δ) simple, Mironov 2017 Prop. 3", epsr + L / (alpha - 1)),
            ("(ε, δ) tight, CKS 2020 Prop. 12", cks(epsr))]
