"""Registered bounds on a worksheet's axes, and measured regret judged against them.

``bound_lines`` evaluates registry bounds (boundcalc.bounds.report.rows_for: the budget conversion each bound needs,
its conditions, undefined points) on the t-grid of a figure. ``compare`` puts a simulated mean regret at T (95%
Student-t interval) beside every applicable registered bound of the algorithm at T, with the verdict of
boundcalc.verify.regret_check.verdict — "outside the assumptions" when the simulated instance does not meet the
theorem's assumptions (checked by the same adapters as ``regret --check``), "vacuous at this T" at or above the
trivial bound, otherwise held / inconclusive / violated or "exceeded" for paper-form and asymptotic bounds.
Lower bounds are reported beside the measurement with what they do and do not claim.
"""

from __future__ import annotations

import math

import numpy as np

from ..figures import Line
from .base import Comparison


# Bounds are drawn in black and dark neutrals (the palette's colours are the simulated curves'); upper solid, lower
# dashed (figures.regret_figure).
BOUND_COLOURS = ("#000000", "#6F6F6F", "#882255", "#332288", "#117733")


def bound_rows(setting: str, budget, T, overrides: dict | None = None):
    """(ctx, {bound id: row}) for every registered bound of ``setting`` at horizons T (rows_for's rows)."""
    from ..bounds.report import rows_for

    ctx, rows = rows_for(setting, budget, np.atleast_1d(np.asarray(T, dtype=float)), overrides or {})
    return ctx, {r["id"]: r for r in rows}


def row_values(row: dict) -> tuple[np.ndarray, np.ndarray]:
    """(T, value) of a row, NaN where the bound is undefined or inapplicable at that T."""
    ents = row.get("values") or []
    t = np.array([e["T"] for e in ents], dtype=float)
    v = np.array([np.nan if e.get("value") is None else float(e["value"]) for e in ents], dtype=float)
    return t, v


def bound_lines(setting: str, budget, t_grid, ids_labels: dict[str, str], overrides: dict | None = None, draw=None):
    """figures.Line objects for the bound ids of ``ids_labels`` (label per id; ``draw``: the subset to draw, colours
    staying those of the full list so that one bound has one colour in every panel) on ``t_grid``; inapplicable
    bounds are left out and returned with their reason as the second element: (lines, {id: reason})."""
    _, rows = bound_rows(setting, budget, t_grid, overrides)
    lines, missing = [], {}
    for j, (bid, label) in enumerate(ids_labels.items()):
        if draw is not None and bid not in draw:
            continue
        r = rows[bid]
        if not r["applicable"]:
            missing[bid] = r.get("reason", "not applicable")
            continue
        t, v = row_values(r)
        kind = "lower" if r["kind"].startswith("lower") else "upper"
        style = {"color": BOUND_COLOURS[j % len(BOUND_COLOURS)]}
        if j >= len(BOUND_COLOURS) and kind == "upper":  # more bounds than colours (seed 001's panels): upper bounds
            style["ls"] = (":", "-.")[(j // len(BOUND_COLOURS) - 1) % 2]  # of the next round dotted / dash-dotted
        lines.append(Line(label, t, v, kind=kind, style=style))
    return lines, missing


def drawn_ids(ids_labels, missing: dict, draw=None) -> list[str]:
    """The ids of ``ids_labels`` that ``bound_lines`` drew (in ``draw`` when given, not among the ``missing``)."""
    return [b for b in ids_labels if (draw is None or b in draw) and b not in missing]


def judged_ids(comps: list[Comparison], algorithm: str) -> list[str]:
    """The upper-bound ids judged against ``algorithm`` in ``comps`` (with a value, applicable)."""
    return list(dict.fromkeys(c.bound_id for c in comps if c.algorithm == algorithm and c.kind.startswith("upper")
                              and not c.verdict.startswith("not applicable")))


NO_BOUND = "no bound drawn and judged"


def record_curves(runner, algos, ids_labels, missing: dict, comps: list[Comparison], lines=(), draw=None,
                  where: str = "", extra_reason: dict | None = None) -> None:
    """Record, for each simulated algorithm of ``algos`` (its name as the Simulation records it), the registered upper
    bounds of that algorithm drawn on its panel (``ids_labels`` minus ``missing``, within ``draw``) and judged in
    ``comps`` (runner.curve_bounds). A curve whose judged bounds are all "outside the assumptions" gets that as its
    reason, and the drawn lines' labels (``lines``) say so on the figure; a curve without a drawn and judged bound
    gets the reason (the missing bounds' reasons, or ``extra_reason[algo]``)."""
    from ..bounds import registry

    drawn = drawn_ids(ids_labels, missing, draw)
    by_label = {ln.label: ln for ln in lines}
    for a in algos:
        own = [b for b in ids_labels if registry.get(b).algorithm == a]
        d = [b for b in drawn if b in own]
        j = judged_ids(comps, a)
        outside = [c.verdict for c in comps if c.algorithm == a and c.bound_id in j
                   and c.verdict.startswith("outside the assumptions")]
        if d and set(d) & set(j):
            reason = outside[0] if outside and len(outside) == len([c for c in comps if c.algorithm == a
                                                                     and c.bound_id in j]) else ""
            if reason:
                for b in d:
                    ln = by_label.get(ids_labels[b])
                    if ln is not None and "outside the assumptions" not in ln.label:
                        ln.label += " — outside the assumptions (see report)"
        else:
            at = f" ({where})" if where else ""
            if (extra_reason or {}).get(a):
                reason = extra_reason[a]
            elif own and all(b in missing for b in own):
                reason = f"not applicable{at}: " + "; ".join(f"{b}: {missing[b]}" for b in own)
            else:  # a bound dropped without a reason: the worksheet tests reject this entry
                reason = (f"{NO_BOUND}{at}: " + (f"no registered bound of {a} among the figure's lines" if not own
                                                 else f"drawn {d or 'none'}, judged {j or 'none'}"))
        runner.curve_bounds(a, d, j, reason)


def _adapter(algorithm: str):
    from ..verify import regret_check

    return regret_check._adapters().get(algorithm)  # the same assumption checks as `regret --check`


def lower_verdict(kind: str, value: float, lo: float, hi: float) -> str:
    if hi < value:
        if kind == "lower-asymptotic":
            return "measured below it at this T (the bound constrains only the limit T → ∞: not a contradiction)"
        return "measured below it (a minimax lower bound concerns the worst instance, not this one)"
    if lo > value:
        return "measured above it"
    return "interval contains it"


def compare(runner, config: str, setting: str, budget, algorithm: str, res, env, overrides: dict | None = None,
            bound_ids=None, lower_ids=(), assumptions=None) -> list[Comparison]:
    """Measured regret of ``res`` at its horizon against the registered upper bounds of ``algorithm`` (or the given
    ``bound_ids``) and the given lower bounds, recorded on the runner. ``assumptions`` overrides the adapter's check:
    a (met, note) pair."""
    from ..verify.regret_check import verdict

    T = int(res.T)
    ctx, rows = bound_rows(setting, budget, [T], overrides)
    lo_, hi_ = res.ci(level=0.95, method="t")
    mean, lo, hi = float(res.mean()[-1]), float(lo_[-1]), float(hi_[-1])
    ids = list(bound_ids) if bound_ids is not None else [
        i for i, r in rows.items() if r.get("algorithm") == algorithm and r["kind"].startswith("upper")]
    out = []
    ad = _adapter(algorithm) if assumptions is None else None
    for bid in list(ids) + list(lower_ids):
        r = rows[bid]
        label = f"{r['source']}" + ("" if r["form"] == "exact" else f" [{r['form']} form]")
        if not r["applicable"]:
            v, word = None, f"not applicable: {r.get('reason', '')}"
        elif r["kind"].startswith("lower"):
            v = r["value"]
            word = lower_verdict(r["kind"], v, lo, hi) if v is not None else "undefined at this T"
        else:
            v = r["value"]
            if assumptions is not None:
                met, note = assumptions
            elif ad is not None:
                met, note = ad.assumptions(ctx, env, r)
            else:
                met, note = None, ""
            if r.get("invalid"):
                word = f"not a valid bound ({r['invalid']}): no verdict"
            elif met is None:
                word = f"assumptions not checked for {algorithm} (no adapter): no verdict"
            elif v is None or not math.isfinite(v):
                word = "the bound is infinite or undefined at this T"
            else:
                word = verdict(v, lo, hi, r["form"], r["kind"], assumptions_met=bool(met), assumptions_note=note,
                               trivial_bound=r.get("trivial_bound"))
        out.append(Comparison(experiment=runner.current.id if runner.current else "", config=config,
                              algorithm=algorithm, bound_id=bid, bound=label, kind=r["kind"], form=r["form"], T=T,
                              bound_value=None if v is None else float(v), mean=mean, ci=[lo, hi], verdict=word))
    if runner.current is not None:
        runner.add_comparisons(out)
    return out


def comparison_table(runner, comps: list[Comparison], title: str):
    """Record the comparisons as a report table."""
    rows = [[c.config, c.algorithm, c.bound_id, c.kind.replace("-problem-dependent", "").replace("upper-", "upper ")
             .replace("lower-", "lower "), c.T, c.bound_value, f"{c.mean:.4g} [{c.ci[0]:.4g}, {c.ci[1]:.4g}]",
             c.verdict] for c in comps]
    return runner.table(title, ["configuration", "algorithm", "bound", "kind", "T", "bound at T",
                                "measured mean [95% CI]", "verdict"], rows)


# -- statistics of two independent samples ------------------------------------------------------------------------
def difference(priv, nonpriv, z: float = 1.96):
    """Mean of Reg_priv − Reg_nonpriv at every checkpoint with a normal 95% interval (independent runs:
    var = s_p²/n_p + s_n²/n_n). Returns (mean, lo, hi) arrays."""
    d = priv.mean() - nonpriv.mean()
    se = np.sqrt(priv.std() ** 2 / priv.runs + nonpriv.std() ** 2 / nonpriv.runs)
    return d, d - z * se, d + z * se


def price_of_privacy(priv, nonpriv, z: float = 1.96):
    """PoP = (Reg_priv − Reg_nonpriv) / Reg_nonpriv (seed 003 Sec. VII) at every checkpoint, with a delta-method
    95% interval for the ratio of two independent means. Returns (pop, lo, hi); NaN where Reg_nonpriv is 0."""
    mp, mn = priv.mean(), nonpriv.mean()
    with np.errstate(all="ignore"):
        r = mp / mn
        rel = np.sqrt((priv.std() ** 2 / priv.runs) / mp**2 + (nonpriv.std() ** 2 / nonpriv.runs) / mn**2)
        se = np.abs(r) * rel
        pop = np.where(mn > 0, r - 1, np.nan)
    return pop, pop - z * se, pop + z * se
