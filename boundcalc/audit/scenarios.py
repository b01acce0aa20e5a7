"""What is audited for each algorithm: two neighbouring inputs D ~ D', a short horizon, and the output event.

A scenario is designed in advance, from the algorithm's definition only (never from the runs it is scored on):

* the neighbouring inputs are *tables* (seed 001 §2 "Table DP", seed 003 Def. 4: user t holds the rewards
  x_t of every arm; neighbours differ in one user's row), or for the contextual algorithms reward sequences
  (seed 004 Sec. 2 Def. 1: neighbours differ in one reward r_t; the contexts are public and identical);
* the changed row is placed where it moves the first private release that decides an action, by the full
  sensitivity, and the rest of the table puts that decision at its median under D (the probability of the
  event is about 1/2 under D, and the change pushes it into the tail under D'), so that a deterministic
  (noise-free) copy flips its decision and a copy with too little noise shows a likelihood ratio above e^ε;
* the event is declared here, before any run, with its direction (D>D': ``P_D(E) <= e^ε P_D'(E) + δ`` is
  the inequality tested).

The finite-armed scenarios use K = 2 arms and the symmetric changed row D: x_0 = (1, 0), D': x_0 = (0, 1), with
every other row equal to (a, 1 − a): whichever arm the algorithm pulls first (random order by default), the
difference of the two arms' first released means is the same, and D favours arm 0 by exactly one unit
(the sensitivity of a sum of rewards in [0, 1]) over D'.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from ..errors import InputError


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
    default_trials: int = 5000
    fixed: dict = {}  # constructor parameters the scenario fixes (documented in ``why_fixed``)
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

    def build(self, budget, mutant: str = "none"):
        from ..algorithms import build
        from . import mutants

        return build(self.cls, budget, {**self.fixed, **mutants.params(mutant)})

    def probes(self, alg) -> list[Probe]:  # pragma: no cover - abstract
        raise NotImplementedError

    def event(self, alg, probe: Probe, table, runs: int, rng) -> np.ndarray:  # pragma: no cover - abstract
        """Boolean (runs,) indicator of the probe's event in ``runs`` independent runs on ``table``."""
        raise NotImplementedError

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
        raise InputError("--delta", f"in (0, 1) for a {budget.notion} budget (it implies (ε, δ)-DP only for δ > 0)",
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


# ---------------------------------------------------------------------------------------------------------------
# finite-armed algorithms
# ---------------------------------------------------------------------------------------------------------------
def symmetric_tables(T: int, a: float) -> tuple[np.ndarray, np.ndarray]:
    """D and D' (T x 2): row 0 = (1, 0) in D and (0, 1) in D', every other row (a, 1 − a)."""
    base = np.tile([a, 1.0 - a], (T, 1))
    D, Dp = base.copy(), base.copy()
    D[0] = (1.0, 0.0)
    Dp[0] = (0.0, 1.0)
    return D, Dp


class FirstDecision(Scenario):
    """Two arms, T = 3: the two initial pulls (one private release each, rows 0 and 1) and the first decision.

    Rows (0, 1) after the changed row: under D both arms' first rewards are equal (1 and 1, or 0 and 0, by the
    order of the initial pulls), so the first decision is a fair coin; under D' arm 0's reward is one unit lower.
    Event: arm 0 is pulled at step 3 (direction D>D'). The decision compares two noisy releases, so even an exact
    mechanism shows less than its ε here (the difference of two noises); a broken one shows more."""

    def probes(self, alg):
        D, Dp = symmetric_tables(3, 0.0)
        return [Probe("first decision", "arm 0 is pulled at step 3", "D>D'", D, Dp, 3,
                      {"changed_row": 0, "K": 2})]

    def event(self, alg, probe, table, runs, rng):
        from ..envs.table import FiniteTableEnv

        env = FiniteTableEnv(table)
        alg.simulate(env, probe.T, runs, rng, np.array([probe.T]))
        return env.actions()[:, probe.T - 1] == 0


class DPSEElimination(Scenario):
    """DP-SE: the elimination at the end of epoch 1 (R_1 pulls of each of two arms, one Laplace release each).

    Arm 2 (index 1) is eliminated when mu~_0 − mu~_1 > 2(h_1 + c_1). The table (rows (a, 1 − a) after the changed
    row 0) puts the true difference of the epoch means under D just above that threshold (elimination is a fair
    coin), D' one unit of reward lower, i.e. 1/R_1 lower in the means, which is ε times the noise scale 1/(ε R_1).
    T = 2 R_1 + R_2 + 1: the eliminated arm is then pulled exactly R_1 times, a surviving one at least R_1 + 1 times.
    Event: arm 1 is pulled exactly R_1 times by T (eliminated after epoch 1), direction D>D'."""

    algo = "DP-SE"
    default_budget = {"epsilon": 1.0}

    def horizon(self, alg) -> tuple[int, int, int, float]:
        """(T, R_1, R_2, threshold 2(h_1 + c_1)) with T = 2 R_1 + R_2 + 1 at beta = 1/T (fixed point)."""
        T = 16
        for _ in range(60):
            R1, h1, c1 = (float(v) for v in alg._consts(2.0, 1, T))
            R2 = float(alg._consts(2.0, 2, T)[0])
            need = int(2 * R1 + R2 + 1)
            if need <= T:
                break
            T = need
        return T, int(R1), int(R2), 2 * (h1 + c1)

    def probes(self, alg):
        T, R1, R2, thr = self.horizon(alg)
        target = thr + 0.01 / R1  # D's difference of epoch means, just above the threshold
        g = (target - 1 / (2 * R1)) / (1 - 1 / (2 * R1))
        a = (1 + g) / 2
        D, Dp = symmetric_tables(T, a)
        return [Probe("epoch-1 elimination", f"arm 1 is pulled exactly R_1 = {R1} times (eliminated after epoch 1)",
                      "D>D'", D, Dp, T, {"R1": R1, "R2": R2, "threshold": thr, "a": a, "changed_row": 0, "K": 2})]

    def event(self, alg, probe, table, runs, rng):
        from ..envs.table import FiniteTableEnv

        env = FiniteTableEnv(table)
        res = alg.simulate(env, probe.T, runs, rng, np.array([probe.T]))
        return res.pulls[:, 1] == probe.details["R1"]


def _first_decision(name: str, budget: dict, fixed: dict | None = None, why: str = "", trials: int = 5000):
    return type(name.replace("-", "") + "Audit", (FirstDecision,),
                {"algo": name, "default_budget": budget, "fixed": fixed or {}, "why_fixed": why,
                 "default_trials": trials})


_INIT_ONE = ("init_n='one': the initial release then carries the noise of one reward (sensitivity 1); with the "
             "default 'half' it carries twice that noise and the first decision says little about the rest")

SCENARIOS: dict[str, Scenario] = {}
for _s in (DPSEElimination(),
           _first_decision("DP-KLUCB", {"epsilon": 1.0})(),
           _first_decision("DP-IMED", {"epsilon": 1.0})(),
           _first_decision("AdaP-UCB", {"epsilon": 1.0})(),
           _first_decision("AdaP-KLUCB", {"epsilon": 1.0})(),
           _first_decision("Lazy-DP-TS", {"epsilon": 1.0})(),
           _first_decision("AdaC-UCB", {"rho": 1.0}, {"init_n": "one"}, _INIT_ONE, 10000)(),
           _first_decision("AdaR-UCB", {"alpha": 2.0, "rdp_epsilon": 2.0}, {"init_n": "one"}, _INIT_ONE, 10000)()):
    SCENARIOS[_s.algo] = _s


def lookup(name: str) -> Scenario:
    """The scenario of an algorithm (names as in ``boundcalc.algorithms.lookup``)."""
    from ..algorithms import lookup as alg_lookup

    cls = alg_lookup(name)
    if cls.name not in SCENARIOS:
        raise InputError("--algo", "an auditable algorithm: " + ", ".join(SCENARIOS), name)
    return SCENARIOS[cls.name]
