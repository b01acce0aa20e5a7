"""Conversions between privacy notions, each citing its source.

Two directions matter for bounds (see boundcalc.bounds.base):
- ``calibrate_upper(user, notion)``: the largest budget of ``notion`` whose guarantee implies the user's
  (an algorithm of that notion, run at it, satisfies what the user asked);
- ``implied_lower(user, notion)``: the smallest budget of ``notion`` implied by the user's guarantee
  (a lower bound for that notion covers the user's algorithms).
Both return ``(budget or None, text naming the conversion or why none exists)``.
"""

from __future__ import annotations

import math

from .budgets import RDP, ZCDP, ApproxDP, Budget, LocalDP, PureDP


def pure_to_zcdp(epsilon: float) -> float:
    """eps-DP implies (eps^2/2)-zCDP (Bun & Steinke 2016, Prop. 1.4)."""
    return 0.5 * epsilon * epsilon


def zcdp_to_rdp(rho: float, alpha: float) -> float:
    """rho-zCDP is (alpha, alpha*rho)-RDP for every alpha > 1 (Bun & Steinke 2016, Def. 1.1)."""
    return alpha * rho


def zcdp_to_approx_simple(rho: float, delta: float) -> float:
    """rho-zCDP implies (rho + 2 sqrt(rho ln(1/delta)), delta)-DP (Bun & Steinke 2016, Prop. 1.3)."""
    return rho + 2.0 * math.sqrt(rho * math.log(1.0 / delta))


def rdp_to_approx_simple(alpha: float, epsilon: float, delta: float) -> float:
    """(alpha, eps)-RDP implies (eps + ln(1/delta)/(alpha-1), delta)-DP (Mironov 2017, Prop. 3)."""
    return epsilon + math.log(1.0 / delta) / (alpha - 1.0)


def approx_to_zcdp_calibration(epsilon: float, delta: float) -> float:
    """Largest rho with rho + 2 sqrt(rho ln(1/delta)) <= eps (inverse of Bun & Steinke Prop. 1.3)."""
    L = math.log(1.0 / delta)
    s = -math.sqrt(L) + math.sqrt(L + epsilon)  # sqrt(rho) solves s^2 + 2 s sqrt(L) = eps
    return s * s


def calibrate_upper(user: Budget, notion: str):
    """Budget of ``notion`` at which an algorithm of that notion satisfies the user's guarantee."""
    if user.notion == notion:
        return user, "same notion"
    if isinstance(user, ZCDP) and notion == "pure":
        eps = math.sqrt(2.0 * user.rho)
        return PureDP(eps), f"ε-DP ⇒ ε²/2-zCDP (Bun–Steinke Prop. 1.4): run at ε = √(2ρ) = {eps:.6g}"
    if isinstance(user, RDP) and notion == "zcdp":
        rho = user.epsilon / user.alpha
        return ZCDP(rho), f"ρ-zCDP ⇒ (α, αρ)-RDP (Bun–Steinke Def. 1.1): run at ρ = ε/α = {rho:.6g}"
    if isinstance(user, RDP) and notion == "pure":
        # eps-DP gives (alpha, min(eps, alpha eps^2/2))-RDP; take the largest eps meeting the user's level.
        e = max(user.epsilon, math.sqrt(2.0 * user.epsilon / user.alpha))
        return PureDP(e), f"ε-DP ⇒ (α, min(ε, αε²/2))-RDP (Mironov 2017 Prop. 3, Bun–Steinke Prop. 1.4): run at ε = {e:.6g}"
    if isinstance(user, ApproxDP) and notion == "pure":
        return PureDP(user.epsilon), f"ε-DP ⇒ (ε, δ)-DP for every δ: run at ε = {user.epsilon:.6g}"
    if isinstance(user, ApproxDP) and notion == "zcdp":
        rho = approx_to_zcdp_calibration(user.epsilon, user.delta)
        return ZCDP(rho), f"ρ-zCDP ⇒ (ρ + 2√(ρ ln(1/δ)), δ)-DP (Bun–Steinke Prop. 1.3): run at ρ = {rho:.6g}"
    if isinstance(user, ApproxDP) and notion == "rdp":
        return None, "an RDP algorithm needs its order α: give --alpha with --rdp-epsilon"
    if isinstance(user, LocalDP) and notion in ("pure", "approx"):
        return None, "central-model algorithms are not locally private"
    if notion == "ldp":
        return None, "local-DP algorithms need a local budget: give --ldp-epsilon (and --ldp-delta)"
    return None, f"no conversion makes a {notion} algorithm satisfy {user.describe()}"


def implied_lower(user: Budget, notion: str):
    """Budget of ``notion`` implied by the user's guarantee, so a lower bound for ``notion`` applies."""
    if user.notion == notion:
        return user, "same notion"
    if isinstance(user, PureDP) and notion == "zcdp":
        rho = pure_to_zcdp(user.epsilon)
        return ZCDP(rho), f"ε-DP ⇒ ε²/2-zCDP (Bun–Steinke Prop. 1.4): ρ = {rho:.6g}"
    if isinstance(user, PureDP) and notion == "approx":
        return None, "use the ε-DP bound directly"
    if isinstance(user, ZCDP) and notion == "rdp":
        return None, "an RDP lower bound needs its order α"
    if isinstance(user, LocalDP) and notion == "pure" and user.delta == 0:
        return PureDP(user.epsilon), "local ε-DP ⇒ central ε-DP (post-processing)"
    return None, f"{user.describe()} does not imply a {notion} guarantee"
