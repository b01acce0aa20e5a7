"""Choosing a privacy budget: the inverse of ``regret`` (what budget keeps regret within a target).

For every bound of a setting that applies to the user's notion, the bound is read as a function of the
user's budget ``b`` (ρ, ε, …; :class:`~boundcalc.budget.notions.UserNotion`), through the same
direction-aware conversion ``regret`` uses (``Context.budget_for``). The target is one of

- ``regret``: the bound's value at T is at most R;
- ``overhead``: the privacy cost is at most x times the non-private part (x = 0.1: 10% overhead);
- ``ratio``: an upper bound is within a factor X of the largest lower bound of the same kind (minimax with
  minimax, problem-dependent with problem-dependent or asymptotic) at the same budget.

An **upper** bound answers "the strongest privacy (smallest b) at which this algorithm's guarantee meets the
target": ``b* = inf{b : q(b) ≤ target}``. A **lower** bound answers the mirror question "the largest b below
which *every* algorithm misses the target": ``b* = sup{b : q(b) ≥ target}`` (for a regret target, L(b) ≥ R;
for an overhead target, the lower bound's own privacy part is at least x times its non-private part).

Method, like scipy.stats' generic ``ppf`` (root finding on ``cdf``): evaluate q on a log grid of b over
``BUDGET_RANGE`` (one point per decade); the grid's met set must be an up-set for an upper bound (every
larger budget meets the target too) and a down-set for a lower bound, else the bound is reported
"non-monotone" and not solved; inside the grid interval that brackets the crossing, q must be non-increasing
on a finer grid (else "non-monotone" again); then bisect in log b, keeping the side that meets the target,
to a relative width of 1e-12. Statuses: ``met``;
``any budget`` (the target holds already at the smallest budget searched, 1e-30, hence at every budget of
the range); ``unreachable`` (even the largest budget searched, 1e30, which is the non-private limit to
within rounding, misses the target); ``not applicable`` (with the reason); ``non-monotone``; ``undefined``.

The recommendation comes from rigorous bounds only: exact, explicit or corrected forms, non-asymptotic, and
none whose caveats say "statement violated", "vacuous" or "proof gap (constant)" (a printed
constant its proof does not support). Paper forms (O(·) constants set to 1) are shown as
indicative, and the spread between the forms of one algorithm is reported with where it comes from.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

import numpy as np

from ..errors import InputError, ParamName
from ..bounds.report import caveat_tags, quiet_floats
from .notions import UserNotion, equivalents, scalar_of

BUDGET_RANGE = (1e-30, 1e30)
GRID_PER_DECADE = 1
REL_TOL = 1e-12
TARGET_KINDS = ("overhead", "regret", "ratio")
_NOT_RIGOROUS_CAVEATS = ("statement violated", "vacuous", "proof gap (constant)")


@dataclass(frozen=True)
class Target:
    """What the budget must achieve: ``overhead`` x > 0, ``regret`` R > 0, or ``ratio`` X ≥ 1 (to lower)."""

    kind: str
    value: float

    def __post_init__(self):
        from .. import validate as v

        flag = {"overhead": ParamName("max_overhead"), "regret": ParamName("max_regret"),
                "ratio": ParamName("max_ratio_to_lower")}
        if self.kind not in TARGET_KINDS:
            raise InputError("target", "one of " + ", ".join(TARGET_KINDS), self.kind)
        if self.kind == "ratio":
            object.__setattr__(self, "value", v.greater_than(flag["ratio"], self.value, 1.0, inclusive=True))
        else:
            object.__setattr__(self, "value", v.positive(flag[self.kind], self.value))

    def describe(self) -> str:
        if self.kind == "overhead":
            return f"privacy overhead ≤ {100 * self.value:g}% of the non-private part"
        if self.kind == "regret":
            return f"regret bound ≤ {self.value:g}"
        return f"upper bound ≤ {self.value:g} × the largest lower bound of its kind"


@dataclass
class BudgetRow:
    """The answer of one bound. ``budget`` is in the bound's own notion, ``user_budget`` in the user's."""

    id: str
    kind: str
    form: str
    notion: str
    algorithm: str | None
    source: str
    status: str
    rigorous: bool
    indicative: str = ""  # why the bound cannot carry the recommendation ("" for rigorous bounds)
    tags: list[str] = field(default_factory=list)
    reason: str = ""  # why the status is what it is (not applicable, unreachable, range of the assumptions)
    budget: float | None = None
    budget_own: dict | None = None
    user_budget: float | None = None
    conversion: str = ""
    equivalents: dict | None = None
    regret_at_budget: float | None = None
    nonprivate_at_budget: float | None = None
    overhead_at_budget: float | None = None
    nonprivate_limit: float | None = None
    applies_on: list[float] | None = None

    @property
    def is_upper(self) -> bool:
        return self.kind.startswith("upper")

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class BudgetPlan:
    """All answers for one setting, horizon, target and user notion, with the recommendation."""

    setting: str
    T: float
    target: Target
    notion: UserNotion
    instance: str
    rows: list[BudgetRow]
    value: float | None  # recommended user budget (rigorous upper bounds only), None if none
    value_id: str | None
    lower_limit: float | None  # largest budget below which a rigorous lower bound says every algorithm misses
    lower_id: str | None
    spread: list[dict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def row(self, bound_id: str) -> BudgetRow:
        for r in self.rows:
            if r.id == bound_id:
                return r
        raise KeyError(bound_id)

    def as_dict(self) -> dict[str, Any]:
        return {"setting": self.setting, "T": self.T, "target": asdict(self.target),
                "notion": asdict(self.notion), "instance": self.instance, "value": self.value,
                "value_id": self.value_id, "lower_limit": self.lower_limit, "lower_id": self.lower_id,
                "spread": self.spread, "notes": self.notes, "budgets": [r.as_dict() for r in self.rows]}


# -- classification ------------------------------------------------------------------------------------------
def is_rigorous(bound) -> tuple[bool, str]:
    """(True, "") when a bound may carry a recommendation; else (False, why it is indicative only)."""
    if bound.invalid:
        return False, f"not a valid bound: {bound.invalid}"
    if bound.form == "paper":
        return False, "paper form: constants hidden in O(·) set to 1"
    if bound.kind.endswith("asymptotic"):
        return False, "asymptotic: only the limit T → ∞ is claimed"
    for c in bound.caveats:
        for w in _NOT_RIGOROUS_CAVEATS:
            if c.lower().startswith(w):
                return False, c.split(":")[0]
    return True, ""


# -- evaluation as a function of the user's budget -------------------------------------------------------------
@dataclass
class _Eval:
    value: float
    nonprivate: float
    privacy_cost: float
    own: Any
    conversion: str


def _evaluator(bound, ctx, T: float, notion: UserNotion, conversions: dict | None = None
               ) -> Callable[[float], _Eval | str]:
    """b ↦ the bound at the user's budget b (an _Eval), or the reason it does not apply there (a str).

    ``conversions`` caches the budget conversion per (b, notion, direction), shared by the bounds of one solve (the
    tight (ε, δ) calibrations cost milliseconds each)."""
    Tarr = np.array([T], dtype=float)
    cache = {} if conversions is None else conversions

    def at(b: float):
        ctx.budget = notion.budget(b)
        key = (b, bound.notion, bound.is_upper)
        if key not in cache:
            cache[key] = ctx.budget_for(bound)
        own, conv = cache[key]
        if own is None:
            return conv
        try:
            why = bound.conditions(ctx)
            if why:
                return "; ".join(why)
            with np.errstate(over="ignore", divide="ignore"):
                v = bound.evaluate(Tarr, ctx, own)
        except (OverflowError, ZeroDivisionError, FloatingPointError) as exc:
            return f"cannot be evaluated at this budget ({type(exc).__name__}: {exc})"
        return _Eval(float(v.value[0]), float(v.nonprivate[0]), float(v.privacy_cost[0]), own, conv)

    return at


def _overhead(e: _Eval) -> float:
    if e.privacy_cost == 0:
        return 0.0
    return math.inf if e.nonprivate <= 0 else e.privacy_cost / e.nonprivate


def _grid() -> np.ndarray:
    lo, hi = (math.log10(x) for x in BUDGET_RANGE)
    return np.logspace(lo, hi, int(round((hi - lo) * GRID_PER_DECADE)) + 1)


def _nonincreasing(q: np.ndarray) -> int | None:
    """Index i where q[i+1] > q[i] beyond rounding (first violation), or None."""
    for i in range(len(q) - 1):
        a, b = q[i], q[i + 1]
        if math.isinf(a) and a > 0:
            continue
        if b > a * (1 + 1e-9) + 1e-300:
            return i
    return None


def _crossing(q_of: Callable[[float], float | None], grid: np.ndarray, qs: np.ndarray, level: float, upper: bool):
    """Upper: smallest b with q(b) ≤ level. Lower: largest b with q(b) ≥ level. Returns (status, b, reason).

    Well defined only when the grid's met set is an up-set (upper: every larger budget also meets the
    target) or a down-set (lower); otherwise "non-monotone". Inside the bracketing grid interval q must be
    non-increasing on a finer grid (else "non-monotone"); then bisection in log b keeps the side that meets
    the target, to a relative width of REL_TOL.
    """
    meets = (qs <= level) if upper else (qs >= level)
    if upper:
        first = int(np.argmax(meets)) if meets.any() else len(meets)
        if not meets[first:].all():
            j = first + int(np.argmin(meets[first:]))
            return "non-monotone", None, (f"meets the target at {grid[first]:.3g} but not at the larger {grid[j]:.3g}: "
                                          "no smallest budget; not solved")
        if first == 0:
            return "any budget", float(grid[0]), ""
        if first == len(meets):
            return "unreachable", None, ""
        i = first - 1  # q[i] > level >= q[i+1]
    else:
        last = len(meets) - 1 - int(np.argmax(meets[::-1])) if meets.any() else -1
        if not meets[: last + 1].all():
            j = int(np.argmin(meets[: last + 1]))
            return "non-monotone", None, (f"meets the target at {grid[last]:.3g} but not at the smaller {grid[j]:.3g}: "
                                          "no largest budget; not solved")
        if last == len(meets) - 1:
            return "any budget", float(grid[-1]), ""
        if last < 0:
            return "unreachable", None, ""
        i = last  # q[i] >= level > q[i+1]
    lo, hi = math.log(grid[i]), math.log(grid[i + 1])
    fine = np.exp(np.linspace(lo, hi, 17))
    fq = np.array([np.nan if (x := q_of(b)) is None else x for b in fine], dtype=float)
    if np.isnan(fq).any():
        return "undefined", None, f"undefined between {grid[i]:.3g} and {grid[i + 1]:.3g}"
    bad = _nonincreasing(fq)
    if bad is not None:
        return "non-monotone", None, (f"rises from {fq[bad]:.6g} at {fine[bad]:.6g} to {fq[bad + 1]:.6g} at "
                                      f"{fine[bad + 1]:.6g}, inside the bracket of the crossing: not solved")
    while hi - lo > REL_TOL:
        mid = 0.5 * (lo + hi)
        qm = q_of(math.exp(mid))
        if qm is None or math.isnan(qm):
            return "undefined", None, f"undefined at {math.exp(mid):.6g}"
        ok = qm <= level if upper else qm >= level
        if upper:
            lo, hi = (lo, mid) if ok else (mid, hi)
        else:
            lo, hi = (mid, hi) if ok else (lo, mid)
    return "met", math.exp(hi if upper else lo), ""


def _contiguous(mask: np.ndarray) -> bool:
    idx = np.flatnonzero(mask)
    return idx.size > 0 and idx[-1] - idx[0] + 1 == idx.size


# -- the solver -------------------------------------------------------------------------------------------------
@quiet_floats
def solve(setting: str, T: float, target: Target, notion: UserNotion | str = "rho", overrides: dict | None = None,
          delta: float = 1e-6, bounds: list | None = None, by: str | None = None, instance=None, prior=None,
          **simulation):
    """Budget answers of every bound of ``setting`` at horizon ``T`` for ``target`` in the user's ``notion``.

    ``overrides`` are instance parameters as for ``regret`` (registry.make_context); ``delta`` is the privacy δ
    at which equivalents in (ε, δ) are given; ``bounds`` restricts the bounds solved (default: the setting's
    registry). Returns a :class:`BudgetPlan`.

    ``by="simulation"`` (the default when ``instance`` or ``prior`` is given) measures instead, on the instance
    (or on draws of the prior): boundcalc.budget.measured.solve_measured with the keywords ``algos``,
    ``settings`` (a :class:`boundcalc.budget.settings.Search`, or its keywords ``quantile``, ``runs``, ``max_runs``,
    ``seed``, ``block_runs``, ``counterpart`` (a name ``simulate --algo`` accepts, e.g. ``"GOPE"``; with
    ``counterpart_params``, e.g. ``{"schedule": "ls"}``), ``pairing``), ``executor``, ``instances``,
    ``prior_quantile``, ``progress``;
    returns a :class:`~boundcalc.budget.measured.MeasuredPlan`. ``by="bound"`` (the default otherwise) is the
    answer of the bounds described above, unchanged; with ``instance`` (a ``boundcalc.envs.spec.Instance`` of
    ``setting``) the bounds are evaluated on it (its ``context_overrides()``, the ``overrides`` added on top) and
    the plan names it.
    """
    if by is None:
        by = "simulation" if (instance is not None or prior is not None) else "bound"
    if by not in ("bound", "simulation"):
        raise InputError(ParamName("by"), "simulation or bound", by)
    if by == "simulation":
        from .measured import solve_measured
        from .settings import Search

        loose = {k: simulation.pop(k) for k in Search.KEYWORDS if k in simulation}
        if loose:  # the search's settings as keywords: one Search value
            if simulation.get("settings") is not None:
                raise InputError("settings", "a Search or its keywords, not both", sorted(loose))
            simulation["settings"] = Search.of(**loose)
        return solve_measured(setting, T, target, notion, instance=instance, prior=prior, delta=delta, **simulation)
    if simulation or prior is not None:
        raise InputError(ParamName("by"), "simulation when a prior or simulation options are given", "bound")
    from .. import validate as v
    from ..bounds import registry

    if instance is not None:
        if getattr(instance, "setting", None) != setting:
            raise InputError("instance", f"an Instance of the {setting} setting", getattr(instance, "setting", instance))
        overrides = {**instance.context_overrides(), **(overrides or {})}

    T = float(v.horizon(ParamName("T"), T))
    delta = v.open_unit(ParamName("delta"), delta)
    if isinstance(notion, str):
        notion = UserNotion(notion, delta=delta if notion == "approx" else None)
    if not isinstance(target, Target):
        raise InputError("target", "a boundcalc.budget.Target", target)
    ctx = registry.make_context(setting, overrides or {}, None)
    ctx.params["T"] = T
    all_bounds = bounds if bounds is not None else registry.select(setting=setting)
    grid = _grid()
    lowers = [b for b in all_bounds if not b.is_upper]
    conversions: dict = {}
    rows = []
    for b in all_bounds:
        rows.append(_solve_one(b, ctx, T, target, notion, delta, grid, lowers, conversions))
    plan = _plan(setting, T, target, notion, ctx, rows)
    if instance is not None:
        plan.instance = instance.label
    return plan


def _solve_one(bound, ctx, T, target, notion, delta, grid, lowers, conversions=None) -> BudgetRow:
    rig, why_not = is_rigorous(bound)
    row = BudgetRow(id=bound.id, kind=bound.kind, form=bound.form, notion=bound.notion, algorithm=bound.algorithm,
                    source=bound.source, status="not applicable", rigorous=rig, indicative=why_not,
                    tags=caveat_tags(bound))
    if bound.notion == "none":
        row.reason = "non-private: no budget to choose"
        return row
    if target.kind == "ratio" and not bound.is_upper:
        row.reason = "a ratio-to-lower target concerns upper bounds"
        return row
    at = _evaluator(bound, ctx, T, notion, conversions)
    cache: dict[float, Any] = {}

    def ev(b):
        if b not in cache:
            cache[b] = at(b)
        return cache[b]

    ratio_lowers = _matching_lowers(bound, lowers) if target.kind == "ratio" else []
    if target.kind == "ratio" and not ratio_lowers:
        row.reason = f"no lower bound of the same kind as {bound.kind} in the {bound.setting} setting"
        return row

    def q_of(b):
        e = ev(b)
        if isinstance(e, str):
            return None
        if target.kind == "regret":
            return e.value
        if target.kind == "overhead":
            return _overhead(e)
        lv = [x.value for x in (_eval_lower(lb, ctx, T, notion, b, conversions) for lb in ratio_lowers)
              if x is not None]
        return e.value / max(lv) if lv and max(lv) > 0 else None

    qs = np.array([np.nan if (x := q_of(b)) is None else x for b in grid], dtype=float)
    ok = ~np.isnan(qs)
    if not ok.any():
        first = ev(grid[len(grid) // 2])
        if isinstance(first, str):
            row.reason = first
        elif target.kind == "ratio":
            row.reason = (f"no comparable lower bound ({', '.join(lb.id for lb in ratio_lowers)}) applies to "
                          f"{notion.describe()}")
        else:
            row.reason = "undefined at every budget searched"
        return row
    if not _contiguous(ok):
        row.status, row.reason = "non-monotone", "applies on a non-contiguous set of budgets"
        return row
    idx = np.flatnonzero(ok)
    g, q = grid[idx], qs[idx]
    row.applies_on = [float(g[0]), float(g[-1])]
    if idx[0] > 0 or idx[-1] < len(grid) - 1:
        row.reason = (f"applies only for {notion.symbol} in [{g[0]:.3g}, {g[-1]:.3g}] (the theorem's "
                      "assumptions); answers are within that range")
    top = ev(g[-1])
    row.nonprivate_limit = top.nonprivate if not isinstance(top, str) else None
    status, bstar, reason = _crossing(lambda x: q_of(x), g, q, target.value, bound.is_upper)
    row.status = status
    if reason:
        row.reason = reason
    if status == "unreachable":
        what = {"regret": "bound", "overhead": "privacy overhead", "ratio": "ratio to the lower bound"}[target.kind]
        if bound.is_upper:
            row.reason = (f"even at {notion.symbol} = {g[-1]:.3g} (the non-private limit to rounding) the {what} is "
                          f"{q[-1]:.6g} > {target.value:g}")
        else:
            row.reason = f"even at {notion.symbol} = {g[0]:.3g} the lower bound's {what} is {q[0]:.6g} < {target.value:g}"
    if bstar is not None and status in ("met", "any budget"):
        e = ev(bstar)
        if isinstance(e, str):  # pragma: no cover - the bracket was applicable
            row.status, row.reason = "undefined", e
            return row
        row.user_budget = bstar
        row.budget = scalar_of(e.own)
        row.budget_own = e.own.as_dict()
        row.conversion = e.conversion
        # upper: what the algorithm run at its own budget guarantees; lower: what the user's budget implies
        row.equivalents = equivalents(e.own if bound.is_upper else notion.budget(bstar), delta)
        row.regret_at_budget = e.value
        row.nonprivate_at_budget = e.nonprivate
        row.overhead_at_budget = _overhead(e)
    return row


def _matching_lowers(upper, lowers):
    """Lower bounds comparable with an upper bound: minimax with minimax, problem-dependent with
    problem-dependent or asymptotic lower bounds (the latter evaluated as constant·ln T, indicative)."""
    if upper.kind.endswith("minimax"):
        same = [lb for lb in lowers if lb.kind == "lower-minimax"]
    else:
        same = [lb for lb in lowers if lb.kind in ("lower-problem-dependent", "lower-asymptotic")]
    rig = [lb for lb in same if is_rigorous(lb)[0] or lb.kind == "lower-asymptotic"]
    return rig or same


def _eval_lower(lb, ctx, T, notion, b, conversions=None):
    e = _evaluator(lb, ctx, T, notion, conversions)(b)
    return None if isinstance(e, str) else e


def _plan(setting, T, target, notion, ctx, rows) -> BudgetPlan:
    ups = [r for r in rows if r.is_upper and r.rigorous and r.status in ("met", "any budget")]
    best = min(ups, key=lambda r: r.user_budget, default=None)
    lows = [r for r in rows if not r.is_upper and r.rigorous and r.status in ("met", "any budget")]
    low = max(lows, key=lambda r: r.user_budget, default=None)
    notes = []
    if best is None:
        ind = [r for r in rows if r.is_upper and r.status in ("met", "any budget")]
        if not any(r.is_upper and r.status != "not applicable" for r in rows):
            why = next((r.reason for r in rows if r.is_upper and r.notion != "none"), "")
            notes.append(f"no {setting} upper bound applies to {notion.describe()}" + (f" ({why})" if why else ""))
        else:
            notes.append("no rigorous upper bound meets the target here" +
                         (f"; indicative only: {', '.join(r.id for r in ind)}" if ind else ""))
    elif "proof gap" in best.tags:
        notes.append(f"the recommendation rests on {best.id}, whose proof has a gap (see its caveats)")
    if best is not None and low is not None and low.user_budget > best.user_budget:
        notes.append(f"inconsistent: lower bound {low.id} needs {notion.symbol} ≥ {low.user_budget:.6g} but "
                     f"{best.id} meets the target at {best.user_budget:.6g}")
    return BudgetPlan(setting=setting, T=T, target=target, notion=notion, instance=ctx.instance_name, rows=rows,
                      value=None if best is None else best.user_budget, value_id=None if best is None else best.id,
                      lower_limit=None if low is None else low.user_budget, lower_id=None if low is None else low.id,
                      spread=_spread(rows), notes=notes)


def _form_source(row: BudgetRow, bound) -> str:
    from ..bounds import registry

    if any(b is bound for b in registry.plugin_bounds()):  # a user's bound: its own constants, not DERIVED ones
        return f"your bound: constants as declared in plugin {getattr(bound, 'origin', '') or '(entry point)'}"
    if row.form == "paper":
        return "paper form: O(·) constants set to 1"
    for c in bound.caveats:
        if c.startswith("DERIVED") or c.startswith("corrected"):
            return c
    return {"exact": "constants as stated in the paper", "explicit": "constants from the proof (DERIVED)",
            "corrected": "corrected form"}.get(row.form, row.form)


def _spread(rows: list[BudgetRow]) -> list[dict]:
    """For each algorithm answered by several forms: the ratio of their budgets and where each comes from."""
    from ..bounds import registry

    out = []
    by_alg: dict[str, list[BudgetRow]] = {}
    for r in rows:
        if r.is_upper and r.algorithm and r.status == "met":
            by_alg.setdefault(r.algorithm, []).append(r)
    for alg, rs in by_alg.items():
        if len(rs) < 2:
            continue
        bs = [r.user_budget for r in rs]
        out.append({"algorithm": alg, "ratio": max(bs) / min(bs),
                    "forms": [{"id": r.id, "form": r.form, "user_budget": r.user_budget,
                               "from": _form_source(r, registry.get(r.id))} for r in rs]})
    return out
