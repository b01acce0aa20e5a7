"""The other question users ask: from which horizon T does a bound say something, and from which T is its
privacy overhead under a target, at a given budget?

- ``informative``: an upper bound is informative at T when it is below the trivial bound T × (largest possible
  regret per round) of the instance (boundcalc.bounds.report.trivial_regret_per_step);
- ``overhead``: the bound's privacy cost is at most ``max_overhead`` × its non-private part.

The answer is the smallest T *from which on* the condition holds, searched over integer horizons 1 ≤ T ≤ ``T_MAX``
on a log grid (two points per decade; tiny T where ln T ≈ 0 makes many bounds degenerate are thus not mistaken
for the answer); inside the grid interval where the condition starts to hold for good, the met pattern must be
monotone on a finer grid (else "non-monotone", not solved); then an integer bisection finds the boundary. The bound's
conditions (burn-ins, T ≥ K − 1, …) are checked at every T evaluated, like ``regret`` does.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

import numpy as np

from ..bounds.report import caveat_tags, quiet_floats, trivial_regret_per_step

T_MAX = 10**18


@dataclass
class HorizonRow:
    """Smallest horizons of one bound: where it becomes informative, and where its overhead meets the target."""

    id: str
    kind: str
    form: str
    algorithm: str | None
    tags: list[str] = field(default_factory=list)
    informative_status: str = "not applicable"
    T_informative: int | None = None
    overhead_status: str = "not applicable"
    T_overhead: int | None = None
    reason: str = ""

    def as_dict(self):
        return asdict(self)


def _search(meets, label: str):
    """Smallest integer T in [1, T_MAX] from which on meets(T) holds (on the grid: every larger grid horizon meets
    it). Returns (status, T, reason); meets returns None where the bound is not defined (counted as not met).

    Inside the grid interval where the condition starts to hold for good, the met pattern must be monotone on a
    finer grid (else "non-monotone": not solved); then an integer bisection finds the boundary."""
    grid = np.unique(np.round(np.logspace(0, math.log10(T_MAX), 37)).astype(np.int64))
    vals = [meets(int(t)) for t in grid]
    if all(v is None for v in vals):
        return "not applicable", None, f"{label}: not defined at any horizon searched"
    ok = np.array([bool(v) for v in vals])
    if not ok[-1]:
        return "never", None, f"{label}: not met at T = {T_MAX:.0e}"
    bad = np.flatnonzero(~ok)
    if bad.size == 0:
        return "met", 1, ""
    lo, hi = int(grid[bad[-1]]), int(grid[bad[-1] + 1])  # not met at lo, met at hi and beyond (on the grid)
    fine = np.unique(np.round(np.geomspace(lo, hi, 17)).astype(np.int64))
    fok = np.array([bool(meets(int(t))) for t in fine])
    if not fok[0] and fok[-1] and np.any(np.diff(fok.astype(int)) < 0):
        return "non-monotone", None, f"{label}: switches more than once between T = {lo} and T = {hi}: not solved"
    k = int(np.argmax(fok))
    lo, hi = int(fine[k - 1]), int(fine[k])
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if meets(mid):
            hi = mid
        else:
            lo = mid
    return "met", hi, ""


@quiet_floats
def min_horizon(setting: str, budget, max_overhead: float | None = None, overrides: dict | None = None,
                bounds=None) -> list[HorizonRow]:
    """For every applicable bound of ``setting`` at the user's ``budget``: the smallest T at which an upper bound is
    below the trivial bound, and (with ``max_overhead``) the smallest T from which the privacy overhead is at most
    ``max_overhead`` (a fraction: 0.1 is 10%)."""
    from ..bounds import registry

    ctx = registry.make_context(setting, overrides or {}, budget)
    per_step = trivial_regret_per_step(setting, ctx.params).per_step
    rows = []
    for b in bounds if bounds is not None else registry.select(setting=setting):
        row = HorizonRow(id=b.id, kind=b.kind, form=b.form, algorithm=b.algorithm, tags=caveat_tags(b))
        if b.notion == "none" and budget is not None:
            own, why = None, ""
        else:
            own, why = ctx.budget_for(b) if b.notion != "none" else (None, "")
            if b.notion != "none" and own is None:
                row.reason = why
                rows.append(row)
                continue

        why_not: list[str] = []

        def at(T, b=b, own=own, why_not=why_not):
            ctx.params["T"] = float(T)
            try:
                cond = b.conditions(ctx)
                if cond:
                    why_not[:] = cond
                    return None
                with np.errstate(all="ignore"):
                    v = b.evaluate(np.array([float(T)]), ctx, own)
            except (ArithmeticError, ValueError) as exc:
                why_not[:] = [f"cannot be evaluated ({exc})"]
                return None
            val, n, p = float(v.value[0]), float(v.nonprivate[0]), float(v.privacy_cost[0])
            if math.isnan(val):
                why_not[:] = ["the formula has no real value there"]
                return None
            return val, n, p

        if b.is_upper:
            def informative(T, at=at):
                e = at(T)
                return None if e is None else e[0] < per_step * T

            row.informative_status, row.T_informative, r1 = _search(informative, "informative")
            row.reason = r1
        if max_overhead is not None and b.notion != "none":
            def under(T, at=at):
                e = at(T)
                if e is None:
                    return None
                _, n, p = e
                return p <= max_overhead * n

            row.overhead_status, row.T_overhead, r2 = _search(under, "overhead")
            row.reason = "; ".join(x for x in (row.reason, r2) if x)
        if "not defined at any horizon" in row.reason and why_not:
            row.reason = "not applicable at any horizon: " + "; ".join(why_not)
        rows.append(row)
    return rows
