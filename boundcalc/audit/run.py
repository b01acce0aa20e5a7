"""Run an audit: N runs on D and N on D' per probe (one vectorised block each), then the estimator.

Seeding: ``SeedSequence(seed).spawn(2 m)`` for the m probes' two inputs (the same seed gives the same numbers);
every block is one call of the algorithm's episode-level ``simulate`` on a table environment, all runs at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from .. import validate
from ..errors import InputError
from . import estimator, mutants as mut
from .scenarios import lookup

MAX_TRIALS = 1_000_000
MIN_TRIALS = 100
# An audit with N trials certifies at most about ln(N); budgets far above that cannot be audited meaningfully,
# and budgets near 0 need more trials than any default. Allowed ranges of the audited budget:
EPS_RANGE = (0.05, 10.0)
RHO_RANGE = (0.01, 20.0)


@dataclass
class AuditResult:
    """The outcome of one audit (what the CLI prints and ``--json`` emits)."""

    algorithm: str
    mutant: str
    budget: dict
    epsilon_claimed: float
    delta: float
    epsilon_lower: float
    passed: bool
    confidence: float
    trials: int
    events: list[dict]
    claim: str
    note: str
    params: dict = field(default_factory=dict)
    statement: str = ""

    @property
    def verdict(self) -> str:
        if self.passed:
            return "no violation detected"
        return f"VIOLATION: ε ≥ {self.epsilon_lower:.3g} > claimed {self.epsilon_claimed:.3g}"

    def as_dict(self) -> dict[str, Any]:
        return {"algorithm": self.algorithm, "mutant": self.mutant, "budget": self.budget,
                "epsilon_lower": self.epsilon_lower, "epsilon_claimed": self.epsilon_claimed, "delta": self.delta,
                "passed": self.passed, "verdict": self.verdict, "confidence": self.confidence, "trials": self.trials,
                "events": self.events, "claim": self.claim, "params": self.params, "note": self.note,
                "statement": self.statement}


def budget_of(notion: str, values: dict):
    """A Budget from the scenario's default values."""
    from ..privacy import RDP, ZCDP, ApproxDP, PureDP

    if notion == "pure":
        return PureDP(values["epsilon"])
    if notion == "zcdp":
        return ZCDP(values["rho"])
    if notion == "rdp":
        return RDP(values["alpha"], values["rdp_epsilon"])
    if notion == "approx":
        return ApproxDP(values["epsilon"], values["delta"])
    raise InputError("budget", "a pure, zCDP or RDP budget", notion)


def check_budget(budget) -> None:
    """Audited budgets must lie where an audit can say something (see EPS_RANGE, RHO_RANGE)."""
    lo, hi = EPS_RANGE
    if budget.notion in ("pure", "approx") and not lo <= budget.epsilon <= hi:
        raise InputError("--epsilon", f"in [{lo:g}, {hi:g}] for an audit (it resolves ε only up to about ln(trials))",
                         budget.epsilon)
    if budget.notion == "rdp" and not lo <= budget.epsilon <= 2 * hi:
        raise InputError("--rdp-epsilon", f"in [{lo:g}, {2 * hi:g}] for an audit", budget.epsilon)
    if budget.notion == "rdp" and not budget.alpha <= 1e3:
        raise InputError("--alpha", "in (1, 1000] for an audit", budget.alpha)
    lo, hi = RHO_RANGE
    if budget.notion == "zcdp" and not lo <= budget.rho <= hi:
        raise InputError("--rho", f"in [{lo:g}, {hi:g}] for an audit", budget.rho)


def run_audit(algo: str, budget=None, trials: int | None = None, mutant: str = "none", seed: int = 0,
              delta: float | None = None, confidence: float = 0.95,
              progress: Callable[[int, int], None] | None = None) -> AuditResult:
    """Audit ``algo`` (a name) at ``budget`` (a boundcalc.privacy Budget of its notion; None: the scenario's default)
    with ``trials`` runs on each neighbouring input of each probe, ``mutant`` one of the applicable ``MUTANTS``.

    ``delta``: the δ of the audited (ε, δ) guarantee (default: 0 for ε-DP, 0.2 for zCDP/RDP; see
    ``Scenario.default_delta``). ``confidence``: 1 − α of the lower bound (one-sided Clopper–Pearson bounds,
    Bonferroni over the declared events). ``progress(done, total)`` is called after every block of runs."""
    sc = lookup(algo)
    mutant = mut.check(sc, mutant)
    trials = sc.default_trials if trials is None else int(validate.count("--trials", trials))
    if not MIN_TRIALS <= trials <= MAX_TRIALS:
        raise InputError("--trials", f"an integer in [{MIN_TRIALS}, {MAX_TRIALS:.0e}]", trials)
    confidence = validate.open_unit("--confidence", confidence)
    if not 0.5 <= confidence <= 1 - 1e-9:
        raise InputError("--confidence", "in [0.5, 1)", confidence)
    seed = int(validate.count("--seed", seed, minimum=0))
    if budget is None:
        budget = budget_of(sc.notion, sc.default_budget)
    check_budget(budget)
    if budget.notion == "approx":  # the audit is at the δ of the claimed (ε, δ)
        if delta is not None and delta != budget.delta:
            raise InputError("--delta", f"the δ of the audited (ε, δ) budget ({budget.delta:g})", delta)
        delta = budget.delta
    elif delta is None:
        delta = sc.default_delta()
    else:
        delta = validate.probability("--delta", delta)
        if delta >= 1:
            raise InputError("--delta", "in [0, 1)", delta)
    correct = sc.build(budget, "none")
    alg = sc.build(budget, mutant)
    probes = sc.probes(correct)
    eps_claimed, claim_text = sc.claim(correct, budget, delta, mutant, probes)
    alpha = 1.0 - confidence
    streams = np.random.SeedSequence(seed).spawn(2 * len(probes))
    counts = []
    total = 2 * len(probes)
    done = 0
    for i, pr in enumerate(probes):
        k = []
        for j, table in enumerate((pr.D, pr.Dp)):
            hit = sc.event(alg, pr, table, trials, np.random.default_rng(streams[2 * i + j]))
            k.append(int(np.count_nonzero(hit)))
            done += 1
            if progress is not None:
                progress(done, total)
        counts.append((f"{pr.name}: {pr.event}", pr.direction, k[0], k[1]))
    est = estimator.declared(counts, trials, trials, delta, alpha)
    events = []
    for pr, ev in zip(probes, est.events):
        d = ev.as_dict()
        d.update(probe=pr.name, horizon=pr.T, design={k: v for k, v in pr.details.items()})
        events.append(d)
    eps_lower = float(est.epsilon_lower)
    passed = not eps_lower > eps_claimed
    from ..algorithms import params_of

    note = ("An audit can only give a lower bound on the ε an algorithm achieves: it can detect a violation "
            "(ε_lower > claimed ε), never prove privacy.")
    if sc.why_fixed:
        note += f" Audited with {sc.why_fixed}."
    return AuditResult(algorithm=sc.algo, mutant=mutant, budget=budget.as_dict(), epsilon_claimed=float(eps_claimed),
                       delta=float(delta), epsilon_lower=eps_lower, passed=bool(passed), confidence=confidence,
                       trials=trials, events=events, claim=claim_text, note=note, params=params_of(alg),
                       statement=est.confidence)
