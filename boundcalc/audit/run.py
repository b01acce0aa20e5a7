"""Run an audit: N runs on D and N on D' per probe (vectorised blocks of at most BLOCK runs), then the estimator.

Seeding: ``SeedSequence(seed).spawn(2 m)`` for the m probes' two inputs, each spawned again into one stream per
block of at most ``BLOCK`` runs (a fixed size, so the same seed gives the same numbers wherever it runs); every block
is one call of the algorithm's ``simulate`` (episode-level where it has one) on a table environment, all its runs
at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from .. import validate
from ..errors import InputError, ParamName, flag, render
from . import estimator, mutants as mut
from .scenarios import lookup

MAX_TRIALS = 1_000_000
BLOCK = 20_000  # runs per simulate() call (memory; progress)
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
    instance_audit: dict | None = None  # the probe on the user's instance (run_audit's ``instance``), or why not
    power: dict | None = None  # a plugin's audit: would the design catch a copy without noise? (``power_check``)

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
                "statement": self.statement, "instance_audit": self.instance_audit, "power": self.power}


def budget_of(notion: str, values: dict):
    """A Budget from the scenario's default values."""
    from ..privacy import RDP, ZCDP, ApproxDP, LocalDP, PureDP

    if notion == "pure":
        return PureDP(values["epsilon"])
    if notion == "ldp":
        return LocalDP(values["epsilon"], values.get("delta", 0.0))
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
    if budget.notion in ("pure", "approx", "ldp") and not lo <= budget.epsilon <= hi:
        raise InputError(ParamName("epsilon"), f"in [{lo:g}, {hi:g}] for an audit (it resolves ε only up to about ln(trials))",
                         budget.epsilon)
    if budget.notion == "rdp" and not lo <= budget.epsilon <= 2 * hi:
        raise InputError(ParamName("rdp_epsilon"), f"in [{lo:g}, {2 * hi:g}] for an audit", budget.epsilon)
    if budget.notion == "rdp" and not budget.alpha <= 1e3:
        raise InputError(ParamName("alpha"), "in (1, 1000] for an audit", budget.alpha)
    lo, hi = RHO_RANGE
    if budget.notion == "zcdp" and not lo <= budget.rho <= hi:
        raise InputError(ParamName("rho"), f"in [{lo:g}, {hi:g}] for an audit", budget.rho)


def budget_for(algo: str, epsilon=None, rho=None, alpha=None, rdp_epsilon=None, delta=None):
    """(Budget or None for the scenario's default, audit δ or None) from CLI-style options for ``algo``.

    ``delta`` is the δ of the claimed (ε, δ) budget for an (ε, δ)-DP algorithm (LinUCB-DGS), and otherwise the δ at
    which the audit is done (ε-DP implies (ε', δ)-DP, ρ-zCDP and RDP imply (ε(δ), δ)-DP)."""
    sc = lookup(algo)
    if sc.notion == "ldp":
        return _local_budget(sc, epsilon, rho, alpha, rdp_epsilon, delta)
    if sc.notion == "approx":
        if epsilon is None and delta is None and rho is None and alpha is None and rdp_epsilon is None:
            return None, None
        if epsilon is None and (rho is not None or alpha is not None or rdp_epsilon is not None):
            return _budget(None, rho, alpha, rdp_epsilon, None), None  # the wrong notion: build() names the flags
        eps = sc.default_budget["epsilon"] if epsilon is None else epsilon
        dlt = sc.default_budget["delta"] if delta is None else delta
        return _budget(eps, rho, alpha, rdp_epsilon, dlt), None
    return _budget(epsilon, rho, alpha, rdp_epsilon, None), delta


def _local_budget(sc, epsilon, rho, alpha, rdp_epsilon, delta):
    """Local DP: --epsilon [--delta]. For an (ε, δ)-LDP algorithm --delta is the δ of its claim; for a pure ε-LDP
    one (LDP-SGD) it is the δ at which the audit is done."""
    from ..algorithms import budget_kwargs
    from ..privacy import LocalDP

    other = [ParamName(n) for n, v in (("rho", rho), ("alpha", alpha), ("rdp_epsilon", rdp_epsilon)) if v is not None]
    if other:
        raise InputError(other[0], f"omitted for {sc.algo} (local DP: {flag('epsilon')} [{flag('delta')}])",
                         rho if rho is not None else alpha if alpha is not None else rdp_epsilon)
    if "delta" in budget_kwargs(sc.cls):
        if epsilon is None and delta is None:
            return None, None
        eps = sc.default_budget["epsilon"] if epsilon is None else epsilon
        dlt = sc.default_budget["delta"] if delta is None else delta
        return LocalDP(eps, validate.open_unit(ParamName("delta"), dlt)), None
    return (None if epsilon is None else LocalDP(epsilon)), delta


def _budget(epsilon, rho, alpha, rdp_epsilon, delta):
    """The one budget given (None if none): --epsilon [with δ], --rho, or --alpha with --rdp-epsilon."""
    from ..privacy import RDP, ZCDP, ApproxDP, PureDP

    rdp = f"{flag('alpha')}/{flag('rdp_epsilon')}"
    given = [n for n, on in ((flag("epsilon"), epsilon is not None), (flag("rho"), rho is not None),
                             (rdp, alpha is not None or rdp_epsilon is not None)) if on]
    if len(given) > 1:
        raise InputError("budget", f"exactly one of {flag('epsilon')}, {flag('rho')}, {rdp}", ", ".join(given))
    if epsilon is not None:
        return PureDP(epsilon) if delta is None else ApproxDP(epsilon, delta)
    if rho is not None:
        return ZCDP(rho)
    if alpha is not None or rdp_epsilon is not None:
        if alpha is None or rdp_epsilon is None:
            raise InputError(rdp, "given together (an (α, ε)-RDP budget)",
                             alpha if alpha is not None else rdp_epsilon)
        return RDP(alpha, rdp_epsilon)
    return None


def check_params(sc, params: dict | None) -> dict:
    """``params`` (constructor parameters set by the user) restricted to the scenario's ``tunable`` ones."""
    params = dict(params or {})
    for k in params:
        if k not in sc.tunable:
            allowed = ", ".join(sc.tunable) or "none"
            raise InputError(ParamName("param"), f"one of {allowed} for the audit of {sc.algo} (mutants: {flag('mutant')})", k)
    return params


def prepare(algo: str, budget=None, trials: int | None = None, mutant: str = "none", seed: int = 0,
            delta: float | None = None, confidence: float = 0.95, params: dict | None = None, instance=None) -> dict:
    """Every check of ``run_audit``'s inputs, before any run: the scenario, the built algorithms, probes and claim,
    and the size of the probe on ``instance``."""
    sc = lookup(algo)
    mutant = mut.check(sc, mutant)
    params = check_params(sc, params)
    trials = sc.default_trials if trials is None else int(validate.count(ParamName("trials"), trials))
    if not MIN_TRIALS <= trials <= MAX_TRIALS:
        raise InputError(ParamName("trials"), f"an integer in [{MIN_TRIALS}, {MAX_TRIALS:.0e}]", trials)
    confidence = validate.open_unit(ParamName("confidence"), confidence)
    if not 0.5 <= confidence <= 1 - 1e-9:
        raise InputError(ParamName("confidence"), "in [0.5, 1 − 1e-9]", confidence)
    seed = int(validate.count(ParamName("seed"), seed, minimum=0))
    if budget is None:
        budget = budget_of(sc.notion, sc.default_budget)
    check_budget(budget)
    if budget.notion == "ldp" and budget.delta:
        from ..algorithms import budget_kwargs

        if "delta" not in budget_kwargs(sc.cls):
            raise InputError("budget", f"a pure local ε budget (δ = 0) for {sc.algo} (its claim is ε-LDP; the audit's "
                             "δ is the delta argument)", budget.describe())
    if budget.notion == "approx" or (budget.notion == "ldp" and budget.delta):  # audit at the claimed (ε, δ)
        if delta is not None and delta != budget.delta:
            raise InputError(ParamName("delta"), f"the δ of the audited (ε, δ) budget ({budget.delta:g})", delta)
        delta = budget.delta
    elif delta is None:
        delta = sc.default_delta()
    else:
        delta = validate.probability(ParamName("delta"), delta)
        if delta >= 1:
            raise InputError(ParamName("delta"), "in [0, 1)", delta)
    correct = sc.build(budget, "none", params)
    alg = sc.build(budget, mutant, params)
    probes = sc.probes(correct)
    sc.check_instance(correct, instance)
    eps_claimed, claim_text = sc.claim(correct, budget, delta, mutant, probes)
    return dict(sc=sc, mutant=mutant, trials=trials, confidence=confidence, seed=seed, budget=budget, delta=delta,
                correct=correct, alg=alg, probes=probes, eps_claimed=eps_claimed, claim_text=claim_text, params=params)


def run_audit(algo: str, budget=None, trials: int | None = None, mutant: str = "none", seed: int = 0,
              delta: float | None = None, confidence: float = 0.95,
              progress: Callable[[int, int], None] | None = None, params: dict | None = None,
              instance=None) -> AuditResult:
    """Audit ``algo`` (a name) at ``budget`` (a boundcalc.privacy Budget of its notion; None: the scenario's default)
    with ``trials`` runs on each neighbouring input of each probe, ``mutant`` one of the applicable ``MUTANTS``.

    ``delta``: the δ of the audited (ε, δ) guarantee (default: 0 for ε-DP, 0.2 for zCDP/RDP; see
    ``Scenario.default_delta``). ``confidence``: 1 − α of the lower bound (one-sided Clopper–Pearson bounds,
    Bonferroni over the declared events). ``progress(done, total)`` is called after every block of runs.
    ``params``: constructor parameters of the audited algorithm among the scenario's ``tunable`` ones (e.g.
    ``{"C_B": 8}`` for LDP-OLS); the scenario's design follows them. ``instance`` (boundcalc.envs.spec.Instance):
    the scenario's probe on neighbouring inputs built from it (``Scenario.instance_probe``) is run as well, with its
    own estimate at the same confidence (``AuditResult.instance_audit``; the designed probes' ε lower bound and
    verdict are unchanged by it), or the reason it cannot be is recorded."""
    from ..algorithms import plugin_errors  # a plugin's own error in its runs names the plugin

    p = prepare(algo, budget, trials, mutant, seed, delta, confidence, params, instance)
    sc, mutant, trials, confidence, seed, budget, delta = (p[k] for k in ("sc", "mutant", "trials", "confidence", "seed",
                                                                         "budget", "delta"))
    alg, probes, eps_claimed, claim_text = p["alg"], p["probes"], p["eps_claimed"], p["claim_text"]
    alpha = 1.0 - confidence
    streams = np.random.SeedSequence(seed).spawn(2 * len(probes))
    sizes = [min(BLOCK, trials - s) for s in range(0, trials, BLOCK)]
    counts, observed = [], []
    total = 2 * len(probes) * trials
    done = 0
    held_out = getattr(sc, "method", "declared") == "held-out"
    for i, pr in enumerate(probes):
        k, obs = [], []
        for j, table in enumerate((pr.D, pr.Dp)):
            hits, parts = 0, []
            for size, ss in zip(sizes, streams[2 * i + j].spawn(len(sizes))):
                with plugin_errors(alg, "simulate"):
                    out = sc.event(alg, pr, table, size, np.random.default_rng(ss))
                if held_out:
                    parts.append(np.asarray(out))
                else:
                    hits += int(np.count_nonzero(out))
                done += size
                if progress is not None:
                    progress(done, total)
            k.append(hits)
            obs.append(np.concatenate(parts) if held_out else None)
        counts.append((f"{pr.name}: {pr.event}", pr.direction, k[0], k[1]))
        observed.append(obs)
    if held_out:  # one probe; its event is selected on the first runs and evaluated on the others (estimator)
        pr = probes[0]
        oD, oDp = observed[0]
        est = estimator.held_out(oD.reshape(trials, -1), oDp.reshape(trials, -1), delta, alpha,
                                 describe=lambda rows: sc.describe(pr, rows))
    else:
        est = estimator.declared(counts, trials, trials, delta, alpha)
    events = []
    for pr, ev in zip(probes, est.events):
        d = ev.as_dict()
        d.update(probe=pr.name, horizon=pr.T, design={k: v for k, v in pr.details.items()})
        events.append(d)
    eps_lower = float(est.epsilon_lower)
    passed = not eps_lower > eps_claimed
    from ..algorithms import params_of

    inst_audit = None
    if instance is not None:
        ipr, why = sc.instance_probe(p["correct"], instance, np.random.default_rng(np.random.SeedSequence([seed, 1])))
        inst_audit = {"instance": instance.label, "used": ipr is not None, "reason": why or None}
        if ipr is not None:
            k = []
            for j, table in enumerate((ipr.D, ipr.Dp)):
                hits = 0
                streams_i = np.random.SeedSequence([seed, 2, j]).spawn(len(sizes))
                for size, ss in zip(sizes, streams_i):
                    with plugin_errors(alg, "simulate"):
                        hits += int(np.count_nonzero(sc.event(alg, ipr, table, size, np.random.default_rng(ss))))
                k.append(hits)
            est_i = estimator.declared([(f"{ipr.name}: {ipr.event}", ipr.direction, k[0], k[1])], trials, trials,
                                       delta, alpha)
            ev = est_i.events[0].as_dict()
            ev.update(probe=ipr.name, horizon=ipr.T, design=dict(ipr.details))
            inst_audit.update(epsilon_lower=float(est_i.epsilon_lower),
                              passed=bool(not est_i.epsilon_lower > eps_claimed), event=ev,
                              statement=est_i.confidence)
    note = ("An audit can only give a lower bound on the ε an algorithm achieves: it can detect a violation "
            "(ε_lower > claimed ε), never prove privacy.")
    if sc.why_fixed:
        note += f" Audited with {sc.why_fixed}."
    power = None
    if getattr(sc, "plugin", False) and mutant == "none":
        power = power_check(sc, p, trials, seed, delta, alpha, eps_claimed)
        if power["caught"] is False:
            note += render(f" Little power: this design does not catch a copy of {sc.algo} without any privacy noise either "
                     f"(its ε lower bound {power['epsilon_lower']:.3g} ≤ claimed {eps_claimed:.3g}, same trials), so "
                     "\"no violation detected\" says little here; set audit_fixed (constructor parameters under which "
                     f"the first decision depends on the released data, e.g. no forced exploration; or {flag('param')}) or give "
                     "the plugin an audit_scenario of its own (docs/plugins.md).")
        elif power["caught"] is None:
            note += f" Power unknown: {power['reason']}."
    return AuditResult(algorithm=sc.algo, mutant=mutant, budget=budget.as_dict(), epsilon_claimed=float(eps_claimed),
                       delta=float(delta), epsilon_lower=eps_lower, passed=bool(passed), confidence=confidence,
                       trials=trials, events=events, claim=claim_text, note=note, params=params_of(alg),
                       statement=est.confidence, instance_audit=inst_audit, power=power)


def power_check(sc, p: dict, trials: int, seed: int, delta: float, alpha: float, eps_claimed: float) -> dict:
    """Does the audit's design have power for this (plugin) algorithm? The same probes and trials on the
    ``no-noise`` mutant (the plugin's ``noise_mult`` = 0; its own seed stream, SeedSequence([seed, 3])): ``caught``
    True when its ε lower bound exceeds the claimed ε (the design would catch a broken copy), False when not (little
    power: a pass says little), None when the plugin has no ``noise_mult`` (power unknown). Built-in scenarios are
    designed per algorithm and their power is tested (tests/audit/test_audit.py); a plugin's design is the generic
    first decision, which an algorithm that explores at random at that step (ε-greedy) makes blind."""
    if "no-noise" not in getattr(sc, "mutants", ()):
        return {"mutant": None, "caught": None, "epsilon_lower": None,
                "reason": f"{sc.algo} takes no noise_mult, so the audit cannot check that it would catch a copy without "
                          "noise"}
    alg = sc.build(p["budget"], "no-noise", p["params"])
    probes = p["probes"]
    sizes = [min(BLOCK, trials - s) for s in range(0, trials, BLOCK)]
    streams = np.random.SeedSequence([seed, 3]).spawn(2 * len(probes))
    counts = []
    for i, pr in enumerate(probes):
        k = []
        for j, table in enumerate((pr.D, pr.Dp)):
            k.append(sum(int(np.count_nonzero(sc.event(alg, pr, table, size, np.random.default_rng(ss))))
                         for size, ss in zip(sizes, streams[2 * i + j].spawn(len(sizes)))))
        counts.append((f"{pr.name}: {pr.event}", pr.direction, k[0], k[1]))
    eps = float(estimator.declared(counts, trials, trials, delta, alpha).epsilon_lower)
    return {"mutant": "no-noise", "epsilon_lower": eps, "caught": bool(eps > eps_claimed), "reason": None}
