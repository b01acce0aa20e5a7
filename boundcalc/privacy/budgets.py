"""Typed privacy budgets: one frozen dataclass per notion, validated on construction.

Notions: pure eps-DP (Dwork et al. 2006), rho-zCDP (Bun & Steinke 2016, Def. 1.1), (alpha, eps)-RDP
(Mironov 2017, Def. 4), (eps, delta)-DP, and local DP (eps or (eps, delta), seed 002 Def. 2.1).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from .. import validate as v


@dataclass(frozen=True)
class Budget:
    notion: ClassVar[str] = ""

    def describe(self) -> str:  # pragma: no cover - overridden
        return self.notion

    def as_dict(self) -> dict:
        d = {"notion": self.notion}
        d.update({k: getattr(self, k) for k in self.__dataclass_fields__})
        return d


@dataclass(frozen=True)
class PureDP(Budget):
    """epsilon-DP (central / global)."""

    epsilon: float
    notion: ClassVar[str] = "pure"

    def __post_init__(self):
        object.__setattr__(self, "epsilon", v.positive("epsilon", self.epsilon, allow_inf=True))

    def describe(self) -> str:
        return f"ε-DP, ε = {self.epsilon:g}"


@dataclass(frozen=True)
class ZCDP(Budget):
    """rho-zero-concentrated DP (Bun & Steinke 2016, Def. 1.1)."""

    rho: float
    notion: ClassVar[str] = "zcdp"

    def __post_init__(self):
        object.__setattr__(self, "rho", v.positive("rho", self.rho, allow_inf=True))

    def describe(self) -> str:
        return f"ρ-zCDP, ρ = {self.rho:g}"


@dataclass(frozen=True)
class RDP(Budget):
    """(alpha, epsilon)-Renyi DP (Mironov 2017, Def. 4), alpha > 1."""

    alpha: float
    epsilon: float
    notion: ClassVar[str] = "rdp"

    def __post_init__(self):
        a = v.greater_than("alpha", self.alpha, 1.0)
        object.__setattr__(self, "alpha", a)
        object.__setattr__(self, "epsilon", v.positive("rdp-epsilon", self.epsilon, allow_inf=True))

    def describe(self) -> str:
        return f"(α, ε)-RDP, α = {self.alpha:g}, ε = {self.epsilon:g}"


@dataclass(frozen=True)
class ApproxDP(Budget):
    """(epsilon, delta)-DP with delta in (0, 1)."""

    epsilon: float
    delta: float
    notion: ClassVar[str] = "approx"

    def __post_init__(self):
        object.__setattr__(self, "epsilon", v.positive("epsilon", self.epsilon, allow_inf=True))
        object.__setattr__(self, "delta", v.open_unit("delta", self.delta))

    def describe(self) -> str:
        return f"(ε, δ)-DP, ε = {self.epsilon:g}, δ = {self.delta:g}"


@dataclass(frozen=True)
class LocalDP(Budget):
    """Local (epsilon, delta)-DP; delta = 0 is pure local DP (seed 002, Def. 2.1)."""

    epsilon: float
    delta: float = 0.0
    notion: ClassVar[str] = "ldp"

    def __post_init__(self):
        object.__setattr__(self, "epsilon", v.positive("ldp-epsilon", self.epsilon))
        d = float(self.delta) if self.delta is not None else 0.0
        if d != 0.0:
            d = v.open_unit("ldp-delta", d)
        object.__setattr__(self, "delta", d)

    def describe(self) -> str:
        return f"local ε-DP, ε = {self.epsilon:g}" + (f", δ = {self.delta:g}" if self.delta else "")


NOTIONS = {cls.notion: cls for cls in (PureDP, ZCDP, RDP, ApproxDP, LocalDP)}


def is_nonprivate(b: Budget) -> bool:
    """True for an infinite budget (privacy imposes nothing)."""
    return any(isinstance(getattr(b, f), float) and math.isinf(getattr(b, f)) for f in ("epsilon", "rho") if hasattr(b, f))
