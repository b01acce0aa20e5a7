"""The user's privacy notion as a one-parameter family of budgets, and what an algorithm's budget guarantees.

A budget question ("the strongest privacy that keeps regret within my target") is a root-finding problem
in one scalar ``b``: ρ for zCDP, ε for pure DP, the RDP level ε at a fixed order α, ε at a fixed δ for
(ε, δ)-DP, or the local ε at a fixed local δ. :class:`UserNotion` maps ``b`` to a typed Budget; the
bounds then see it only through ``Context.budget_for`` (boundcalc.bounds.base), which applies the
direction-aware conversion (an upper bound's algorithm must imply the user's guarantee; a lower bound
applies when the user's guarantee implies the bound's notion).

:func:`equivalents` lists what an algorithm run at a budget of its own notion guarantees in the other
notions (ρ, pure ε, (ε, δ) simple and tight at a given δ, and points of its RDP curve), each through a
conversion valid in that direction: Bun & Steinke 2016 (Prop. 1.3, 1.4, 3.3, Def. 1.1), Mironov 2017
(Prop. 3), Canonne, Kamath & Steinke 2020 (Prop. 12, Cor. 13); see boundcalc.privacy.conversions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..errors import InputError, ParamName, flag

USER_NOTIONS = ("rho", "epsilon", "rdp", "approx", "ldp")
_BOUND_NOTION = {"rho": "zcdp", "epsilon": "pure", "rdp": "rdp", "approx": "approx", "ldp": "ldp"}
_SYMBOL = {"rho": "ρ", "epsilon": "ε", "rdp": "ε (RDP)", "approx": "ε", "ldp": "local ε"}
RDP_ORDERS = (1.5, 2.0, 3.0, 5.0, 10.0, 20.0, 50.0)


@dataclass(frozen=True)
class UserNotion:
    """A one-parameter family of budgets: ``budget(b)``, ``value(budget)`` (the inverse) and a label.

    ``alpha`` is the Rényi order of ``rdp``; ``delta`` the δ of ``approx`` (required, in (0, 1)) and of
    ``ldp`` (0 for pure local DP).
    """

    name: str
    alpha: float | None = None
    delta: float | None = None

    def __post_init__(self):
        from .. import validate as v

        if self.name not in USER_NOTIONS:
            raise InputError(ParamName("notion"), "one of " + ", ".join(USER_NOTIONS), self.name)
        if self.name == "rdp":
            if self.alpha is None:
                raise InputError(ParamName("alpha"), f"given with {flag('notion')} rdp (the Rényi order, > 1)", None)
            object.__setattr__(self, "alpha", v.greater_than(ParamName("alpha"), self.alpha, 1.0))
        if self.name == "approx":
            if self.delta is None:
                raise InputError(ParamName("delta"), f"given with {flag('notion')} approx (the privacy δ, in (0, 1))", None)
            object.__setattr__(self, "delta", v.open_unit(ParamName("delta"), self.delta))
        if self.name == "ldp":
            d = 0.0 if self.delta is None else float(self.delta)
            object.__setattr__(self, "delta", 0.0 if d == 0 else v.open_unit(ParamName("ldp_delta"), d))

    @property
    def notion(self) -> str:
        """The registry notion (boundcalc.bounds.base.NOTIONS) of these budgets."""
        return _BOUND_NOTION[self.name]

    @property
    def symbol(self) -> str:
        return _SYMBOL[self.name]

    def budget(self, b: float):
        """The typed budget with scalar ``b``."""
        from ..privacy import RDP, ZCDP, ApproxDP, LocalDP, PureDP

        if self.name == "rho":
            return ZCDP(b)
        if self.name == "epsilon":
            return PureDP(b)
        if self.name == "rdp":
            return RDP(self.alpha, b)
        if self.name == "approx":
            return ApproxDP(b, self.delta)
        return LocalDP(b, self.delta)

    def describe(self) -> str:
        if self.name == "rdp":
            return f"(α, ε)-RDP at α = {self.alpha:g}"
        if self.name == "approx":
            return f"(ε, δ)-DP at δ = {self.delta:g}"
        if self.name == "ldp":
            return "local ε-DP" + (f" at δ = {self.delta:g}" if self.delta else "")
        return {"rho": "ρ-zCDP", "epsilon": "pure ε-DP"}[self.name]


def scalar_of(budget) -> float:
    """The scalar a budget is parametrised by in its own notion (ρ, or ε)."""
    return float(budget.rho) if budget.notion == "zcdp" else float(budget.epsilon)


def equivalents(budget, delta: float) -> dict[str, Any]:
    """What an algorithm run at ``budget`` (its own notion) guarantees, in every notion a valid conversion
    reaches. Keys: ``rho`` (zCDP), ``epsilon`` (pure), ``approx_simple`` / ``approx_tight`` ([ε, δ] at
    ``delta``), ``rdp`` (list of [α, ε(α)]); a notion the guarantee does not imply is None.

    Sources: pure ε ⇒ ε²/2-zCDP (Bun–Steinke Prop. 1.4), ⇒ (α, D_α(randomised response))-RDP (Prop. 3.3),
    ⇒ (ε', δ) with ε' = ln(e^ε − δ(1 + e^ε)) (tight profile of ε-DP); ρ-zCDP ⇒ (α, αρ)-RDP (Def. 1.1),
    ⇒ (ρ + 2√(ρ ln 1/δ), δ) (Prop. 1.3) and the Canonne–Kamath–Steinke Cor. 13 ε; (α, ε)-RDP ⇒ (ε +
    ln(1/δ)/(α − 1), δ) (Mironov Prop. 3) and CKS Prop. 12. A local budget is first the same central one.
    """
    from ..privacy import conversions as cv

    out: dict[str, Any] = {"own": budget.as_dict(), "delta": delta, "rho": None, "epsilon": None,
                           "approx_simple": None, "approx_tight": None, "rdp": None}
    notion = budget.notion
    eps_local_delta = None
    if notion == "ldp":  # local (ε, δ) is central (ε, δ) (post-processing of the local randomisers)
        if budget.delta:
            notion, eps_local_delta = "approx", (budget.epsilon, budget.delta)
        else:
            notion = "pure"
    if notion == "pure":
        e = float(budget.epsilon)
        out["epsilon"] = e
        out["rho"] = float(cv.pure_to_zcdp(e))
        out["approx_simple"] = [e, delta]
        out["approx_tight"] = [float(cv.pure_to_approx_tight_epsilon(e, delta)), delta]
        out["rdp"] = [[a, float(cv.pure_to_rdp_exact(e, a))] for a in RDP_ORDERS]
    elif notion == "zcdp":
        r = float(budget.rho)
        out["rho"] = r
        out["approx_simple"] = [float(cv.zcdp_to_approx_simple(r, delta)), delta]
        out["approx_tight"] = [float(cv.zcdp_to_approx_tight(r, delta)), delta]
        out["rdp"] = [[a, a * r] for a in RDP_ORDERS]
    elif notion == "rdp":
        a, e = float(budget.alpha), float(budget.epsilon)
        out["approx_simple"] = [float(cv.rdp_to_approx_simple(a, e, delta)), delta]
        out["approx_tight"] = [float(cv.rdp_to_approx_tight(a, e, delta)), delta]
        out["rdp"] = [[a, e]]
    elif notion == "approx":
        e, d = eps_local_delta or (float(budget.epsilon), float(budget.delta))
        out["approx_simple"] = out["approx_tight"] = [e, d]
        if not math.isclose(d, delta):
            out["note"] = f"(ε, δ)-DP at δ = {d:g} only; no conversion to another δ"
    return out
