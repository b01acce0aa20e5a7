"""``budget --check``: what the chosen budget really costs, measured against what the bound promised.

The recommending bound's algorithm is simulated twice on the bound's own instance and parameters (the
adapters of boundcalc.verify.regret_check, which also say whether the instance meets the theorem's
assumptions), with the same seed: at the chosen budget, and at its non-private limit — the same algorithm at
a budget of ``NONPRIVATE_LIMIT`` in its own notion (noise scales of order 1e-6 to 1e-12 of the rewards, so its
regret is that of the non-private baseline — AdaC-GOPE's is GOPE's — up to Monte Carlo error; the noise draws
still consume the random stream, so the runs are not identical). The measured privacy overhead is

    r̂ = mean(regret at the budget) / mean(regret at the limit) − 1,

with a 95% interval from the delta method on the runs paired by seed index (run i of both simulations comes
from the same SeedSequence child, so the pairs are independent of each other): z_i = (p_i − (1 + r̂) n_i)/n̄,
half-width t_{0.975, R−1} · sd(z)/√R, each end widened by the unseen tail (the rule of three up to the span T·Δ_max:
both intervals are budget.measured.assess, the one interval of a measured mean; docs/budget.md "Means and heavy
tails").

The bound promised two things at that budget: its value (an upper bound on the expected regret) and its own
overhead (privacy cost ÷ non-private part of the *bound*). Only the first is a guarantee about the algorithm; the
second is a statement about the bound's terms, which the measured overhead may exceed without contradicting the
theorem — the output says so.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

NONPRIVATE_LIMIT = 1e12


@dataclass
class BudgetCheck:
    bound_id: str
    algorithm: str | None
    T: int
    runs: int
    seed: int
    status: str = "simulated"  # or the reason it was not simulated
    budget: dict | None = None
    limit_budget: dict | None = None
    assumptions_met: bool | None = None
    assumptions_note: str = ""
    regret: dict = field(default_factory=dict)  # mean and 95% interval at the budget
    regret_limit: dict = field(default_factory=dict)  # at the non-private limit
    overhead: dict = field(default_factory=dict)  # measured r̂ and its 95% interval
    promised_regret: float | None = None
    promised_overhead: float | None = None
    verdict_regret: str = ""
    verdict_overhead: str = ""
    note: str = ("the bound's overhead is about its own terms, not a guarantee on the algorithm's overhead; only "
                 "its value bounds the regret")

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _at_limit(budget):
    """The same budget type at the non-private limit (ε or ρ = NONPRIVATE_LIMIT, other fields kept)."""
    import dataclasses

    field_name = "rho" if budget.notion == "zcdp" else "epsilon"
    return dataclasses.replace(budget, **{field_name: NONPRIVATE_LIMIT})


def paired_overhead(private: np.ndarray, limit: np.ndarray, level: float = 0.95, span: float | None = None) -> dict:
    """r̂ = mean(private)/mean(limit) − 1 and its interval on runs paired by index: the one interval of a measured
    mean overhead, budget.measured.assess (delta method for the ratio of means, each run its own unit; with ``span``,
    the largest regret a run can have, each end widened by the unseen tail: docs/budget.md "Means and heavy tails")."""
    from .measured import assess

    p, n = np.asarray(private, dtype=float), np.asarray(limit, dtype=float)
    if not n.mean() > 0:
        return {"value": math.inf if p.mean() > 0 else 0.0, "ci": [None, None], "method": "undefined (zero regret "
                "at the non-private limit)"}
    a = assess(p, n, "overhead", math.inf, level=level, span=span, pairing="common")
    out = {"value": a["estimate"], "ci": a["ci"], "method": f"{int(level * 100)}% " + a["method"]}
    if "tail" in a:
        out.update(ci_sample=a["ci_sample"], tail=a["tail"])
    return out


def _mean_ci(x: np.ndarray, span: float | None = None, level: float = 0.95) -> dict:
    """The mean regret and its interval: budget.measured.assess (Student t; with ``span``, the upper end widened by the
    unseen tail, the rule of three up to T·Δ_max)."""
    from .measured import assess

    x = np.asarray(x, dtype=float)
    a = assess(x, x, "regret", math.inf, level=level, span=span)
    out = {"mean": a["estimate"], "ci": a["ci"], "method": a["method"]}
    if "tail" in a:
        out.update(ci_sample=a["ci_sample"], tail=a["tail"])
    return out


def _three_way(lo, hi, promised, what):
    if promised is None or lo is None:
        return ""
    if hi <= promised:
        return f"{what} within the promise"
    if lo > promised:
        return f"{what} above the promise (significant)"
    return "inconclusive"


def check_plan(plan, overrides: dict | None = None, runs: int = 100, seed: int = 0, bound_id: str | None = None,
               progress: bool = False) -> BudgetCheck:
    """Simulate the recommending bound's algorithm (or ``bound_id``'s) at its budget and at the non-private limit."""
    from .. import montecarlo  # noqa: F401  (imported for the engine's registration side effects)
    from ..bounds import registry
    from ..errors import InputError
    from ..verify import regret_check as rc

    bid = bound_id or plan.value_id
    T = int(plan.T)
    if bid is None:
        return BudgetCheck(bound_id="", algorithm=None, T=T, runs=runs, seed=seed,
                           status="nothing to simulate: no rigorous upper bound meets the target")
    row = plan.row(bid)
    out = BudgetCheck(bound_id=bid, algorithm=row.algorithm, T=T, runs=runs, seed=seed)
    if row.status not in ("met", "any budget") or row.budget_own is None:
        out.status = f"nothing to simulate: {bid} has status {row.status}"
        return out
    ad = rc._adapters().get(row.algorithm)
    if ad is None:
        out.status = f"no simulation adapter for {row.algorithm}"
        return out
    ctx = registry.make_context(plan.setting, overrides or {}, plan.notion.budget(row.user_budget))
    ctx.params["T"] = float(T)
    own = rc._budget_from_dict(row.budget_own)
    limit = _at_limit(own)
    out.budget, out.limit_budget = own.as_dict(), limit.as_dict()
    try:
        alg, alg_limit, env = ad.build(ctx, own), ad.build(ctx, limit), ad.env(ctx)
    except InputError as exc:
        out.status = f"cannot simulate {row.algorithm} here: {exc}"
        return out
    why = (rc._too_big(plan.setting, alg, env, T, runs) or rc._too_big(plan.setting, alg_limit, env, T, runs)
           or rc._too_extreme(own))  # both runs within the limits of their paths (issue 17 §3)
    if why:
        out.status = why
        return out
    met, note = ad.assumptions(ctx, env, {"id": bid, "kind": row.kind, "form": row.form})
    out.assumptions_met, out.assumptions_note = bool(met), note
    res = rc._simulate_quietly(montecarlo, alg, env, T, runs, seed, progress)
    res_lim = rc._simulate_quietly(montecarlo, alg_limit, env, T, runs, seed, progress)
    p, n = res.regret[:, -1], res_lim.regret[:, -1]
    from .measured import regret_span

    span = regret_span(env, T)  # a run's regret lies in [0, T Δ_max]: the unseen tail's room (measured.assess)
    out.regret, out.regret_limit = _mean_ci(p, span), _mean_ci(n, span)
    out.overhead = paired_overhead(p, n, span=span)
    out.promised_regret = row.regret_at_budget
    out.promised_overhead = row.overhead_at_budget
    if not met:
        out.verdict_regret = f"outside the assumptions: {note}"
    else:
        out.verdict_regret = _three_way(out.regret["ci"][0], out.regret["ci"][1], out.promised_regret, "regret")
    out.verdict_overhead = _three_way(out.overhead["ci"][0], out.overhead["ci"][1], out.promised_overhead,
                                      "measured overhead")
    return out
