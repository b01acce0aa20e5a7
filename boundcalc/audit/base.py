"""The base of the audit scenarios, shared by boundcalc.audit.scenarios (central DP) and boundcalc.audit.local
(local DP): ``Probe`` (a pair of neighbouring inputs and its declared event), ``Scenario`` and ``claimed_epsilon``.
Its own module so that scenarios.py and local.py both build on it without importing each other."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

# Most rewards in one neighbouring table of a probe built from a user's instance (two such tables, 32 MB each):
# checked before any run (issue 22 §4: audit --K 20000 asked for 23.8 GiB)
MAX_INSTANCE_CELLS = 4_000_000

from ..errors import InputError, ParamName


@dataclass
class Probe:
    """One pair of neighbouring inputs and its declared event."""

    name: str
    event: str  # the event in words
    direction: str  # "D>D'" or "D'>D"
    D: Any
    Dp: Any
    T: int
    details: dict = field(default_factory=dict)


class Scenario:
    """Base of the audit scenarios. Subclasses set the class attributes and implement ``probes`` and ``event``."""

    algo: str = ""
    mutants: tuple[str, ...] = ("noise-halved", "no-noise")
    default_budget: dict = {}
    default_trials: int = 10000
    fixed: dict = {}  # constructor parameters the scenario fixes (documented in ``why_fixed``)
    # why the scenario's neighbouring inputs cannot be built from a user's instance (``instance_probe`` returns
    # (None, reason) then); scenarios that can take one override ``instance_probe``
    why_no_instance: str = ("its neighbouring inputs are placed where the algorithm's schedule makes a decision "
                            "(a threshold, an epoch end, a tree node) with the rest of the input chosen to put that "
                            "decision at its median; an instance's rewards would move the decision away from the "
                            "threshold, and no event of this scenario is defined on them")
    tunable: tuple[str, ...] = ()  # constructor parameters a user may set (``--param``; the design follows them)
    why_fixed: str = ""
    description: str = ""

    @property
    def cls(self):
        from ..algorithms import lookup

        return lookup(self.algo)

    @property
    def notion(self) -> str:
        return self.cls.notion

    def default_delta(self) -> float:
        """The δ at which the audit is done when the user gives none: 0 for pure ε-DP; for ρ-zCDP and RDP 0.2,
        where the claimed ε(δ) and the privacy profile of a noise-halved Gaussian release are far enough apart to
        be resolved with ~10^4 trials (at δ = 1e-5 the claimed ε(δ) exceeds what such an audit can certify)."""
        return 0.0 if self.notion == "pure" else 0.2

    def build(self, budget, mutant: str = "none", params: dict | None = None):
        from ..algorithms import build
        from . import mutants

        return build(self.cls, budget, {**self.fixed, **(params or {}), **mutants.params(mutant)})

    def probes(self, alg) -> list[Probe]:  # pragma: no cover - abstract
        raise NotImplementedError

    def event(self, alg, probe: Probe, table, runs: int, rng) -> np.ndarray:  # pragma: no cover - abstract
        """Boolean (runs,) indicator of the probe's event in ``runs`` independent runs on ``table``."""
        raise NotImplementedError

    def check_instance(self, alg, instance) -> None:
        """InputError when the probe on ``instance`` would not fit in memory (checked before any run)."""

    def instance_probe(self, alg, instance, rng) -> tuple["Probe | None", str]:
        """(a probe whose neighbouring inputs are built from the user's ``instance``, ""), or (None, the reason this
        scenario cannot take it: ``why_no_instance``)."""
        return None, self.why_no_instance

    def claim(self, alg, budget, delta: float, mutant: str, probes: list[Probe]) -> tuple[float, str]:
        """(claimed ε at the audit's δ, the text saying what is audited)."""
        return claimed_epsilon(budget, delta)


def claimed_epsilon(budget, delta: float) -> tuple[float, str]:
    """The ε an algorithm with ``budget`` claims at δ, by the conversions of boundcalc.privacy.conversions:
    ε-DP: ε at δ = 0, else the tight ln(e^ε − δ(1 + e^ε)) (Kairouz, Oh & Viswanath 2015, Thm 2.1);
    ρ-zCDP and (α, ε)-RDP: the Canonne–Kamath–Steinke 2020 conversions (Prop. 12 / Cor. 13)."""
    from ..privacy import conversions as cv

    if budget.notion == "pure":
        if delta == 0:
            return budget.epsilon, f"ε-DP with ε = {budget.epsilon:g} (audited at δ = 0)"
        e = cv.pure_to_approx_tight_epsilon(budget.epsilon, delta)
        return e, f"ε-DP with ε = {budget.epsilon:g} implies (ε = {e:.4g}, δ = {delta:g})-DP (tight conversion)"
    if delta <= 0:
        raise InputError(ParamName("delta"), f"in (0, 1) for a {budget.notion} budget (it implies (ε, δ)-DP only for δ > 0)",
                         delta)
    if budget.notion == "zcdp":
        e = cv.zcdp_to_approx_tight(budget.rho, delta)
        return e, f"ρ-zCDP with ρ = {budget.rho:g} implies (ε = {e:.4g}, δ = {delta:g})-DP (Canonne et al. 2020 Cor. 13)"
    if budget.notion == "rdp":
        e = cv.rdp_to_approx_tight(budget.alpha, budget.epsilon, delta)
        return e, (f"(α, ε)-RDP with α = {budget.alpha:g}, ε = {budget.epsilon:g} implies (ε = {e:.4g}, δ = {delta:g})-DP "
                   "(Canonne et al. 2020 Prop. 12)")
    if budget.notion == "approx":
        return budget.epsilon, f"(ε, δ)-DP with ε = {budget.epsilon:g}, δ = {budget.delta:g} as claimed"
    raise InputError("budget", "a pure, zCDP, RDP or (ε, δ) budget", budget.notion)
