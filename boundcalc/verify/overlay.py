"""Bounds drawn beside a simulation: the registered bounds of the instance an algorithm was simulated on.

``bound_curves(alg, env, t, budget)`` evaluates, against the times ``t``, each upper bound registered for the
algorithm and one lower bound of its setting and privacy notion, in the bound context that describes the
algorithm and its environment (``adapters.context_for``, the inverse of the ``regret --check`` adapters).
A bound is drawn only where its own ``conditions`` hold (else a note says why not). An upper bound whose theorem's
assumptions the simulated environment does not meet (the adapter's assumption check, as in ``regret --check``) is
drawn marked "outside its assumptions" (``inside=False``; figures draw it dotted) with the reason in the notes:
the picture then shows the paper's bound beside the simulation without presenting it as a check.
Finite-armed minimax bounds are left out (the problem-dependent ones describe the instance).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass
class BoundCurve:
    """One bound evaluated against t (``kind``: upper or lower)."""

    bound_id: str
    label: str
    kind: str
    t: Any
    values: Any
    algorithm: str | None = None
    inside: bool = True  # the simulated instance meets the theorem's assumptions


def _label(b) -> str:
    if b.is_upper:
        return f"{b.id} (upper)"
    return f"{b.id} (" + ("minimax lower: worst case over the class" if b.kind.endswith("minimax") else "lower") + ")"


def _evaluate(b, ctx, t) -> tuple[Any, str]:
    """(values, "") or (None, reason not drawn)."""
    try:
        cond = b.conditions(ctx)
        if cond:
            return None, f"{b.id} not drawn: {cond[0]}"
        vals = np.asarray(b.evaluate(np.asarray(t, dtype=float), ctx).value, dtype=float)
    except Exception as exc:  # noqa: BLE001 - a bound that cannot be evaluated here is not drawn, with the reason
        return None, f"{b.id} not drawn: {exc}"
    if not np.isfinite(vals).any():
        return None, f"{b.id} not drawn: no finite value at these t"
    return vals, ""


def context_of(alg, env, budget):
    """(registry Context describing ``alg`` on ``env``, "") or (None, reason)."""
    from ..bounds import registry
    from .adapters import context_for

    over, why = context_for(alg, env, budget)
    if over is None:
        return None, why
    return registry.make_context(alg.setting, over, budget), ""


def upper_curves(alg, env, t, budget) -> tuple[list[BoundCurve], list[str]]:
    """The algorithm's registered upper bounds against ``t``, inside their assumptions."""
    from ..bounds import registry
    from .adapters import _adapters, bound_adapters

    ctx, why = context_of(alg, env, budget)
    if ctx is None:
        return [], [f"bounds of {alg.name} not drawn: {why}"]
    known = {x.id for x in registry.all_bounds()}
    ids = [i for i in getattr(alg, "bound_ids", ()) if i in known] or [
        b.id for b in registry.select(alg.setting, kind="upper") if b.algorithm == alg.name]
    # a plugin's bound for this algorithm (--bounds-file, entry points) is drawn beside the registered ones
    ids += [b.id for b in registry.plugin_bounds() if b.is_upper and b.setting == alg.setting
            and b.algorithm == alg.name and b.id not in ids]
    if not ids:
        return [], [f"no upper bound registered for {alg.name}"]
    ad0, own = _adapters()[alg.name], bound_adapters()
    out, notes = [], []
    for b in (registry.get(i) for i in ids):
        if alg.setting == "finite" and b.kind.endswith("minimax"):
            continue
        ad = own.get(b.id, ad0)  # a bound whose algorithm runs with an option of its own (seed 004 Cor. 1)
        met, note = ad.assumptions(ctx, env, {"algorithm": b.algorithm, "title": b.title,
                                              "assumptions": list(b.assumptions)})
        vals, why = _evaluate(b, ctx, t)
        if vals is None:
            notes.append(why)
            continue
        label = _label(b)
        if not met:
            label = f"{b.id} (upper, outside its assumptions)"
            notes.append(f"{b.id} is outside its assumptions on {env.name} (drawn dotted, not a check): {note}")
        out.append(BoundCurve(b.id, label, "upper", np.asarray(t, dtype=float), vals, alg.name, inside=met))
    return out, notes


def lower_curve(alg, env, t, budget) -> tuple[list[BoundCurve], list[str]]:
    """One lower bound of the algorithm's setting and notion (problem-dependent first) against ``t``, in the
    context of the instance alone (a lower bound holds for every algorithm of the class)."""
    from ..bounds import registry
    from ..errors import InputError
    from .adapters import instance_for

    over, why = instance_for(env, alg.setting)
    if over is None:
        return [], [f"lower bound not drawn: {why}"]
    try:
        ctx = registry.make_context(alg.setting, over, budget)
    except (InputError, ValueError) as exc:
        return [], [f"lower bound not drawn: the bounds' context of {env.name} could not be built ({exc})"]
    lowers = sorted(registry.select(alg.setting, notion=alg.notion, kind="lower"),
                    key=lambda b: b.kind.endswith("minimax"))
    if not lowers:
        return [], [f"no lower bound registered for the {alg.setting} setting and notion {alg.notion}"]
    notes = []
    for b in lowers:
        if alg.setting == "finite" and b.kind.endswith("minimax"):
            continue
        vals, why = _evaluate(b, ctx, t)
        if vals is None:
            notes.append(why)
            continue
        return [BoundCurve(b.id, _label(b), "lower", np.asarray(t, dtype=float), vals, None)], notes
    return [], notes


def bound_curves(alg, env, t, budget) -> tuple[list[BoundCurve], list[str]]:
    """The algorithm's upper bounds and one lower bound against ``t`` (see the module docstring)."""
    up, n1 = upper_curves(alg, env, t, budget)
    lo, n2 = lower_curve(alg, env, t, budget)
    return up + lo, n1 + n2


# -- regret --check: each checked algorithm's simulated curve beside the bound forms it was checked against ----------
@dataclass
class CheckPanel:
    """One algorithm of ``regret --check``: its simulated regret curve (t, mean, 95% interval) and the bound
    forms checked against it, each labelled with its verdict at T."""

    algorithm: str
    curve: dict
    bounds: list
    runs: int


def short_verdict(v: str) -> str:
    """The verdict in a few words for a legend: 'held', 'violated (significant)', 'inconclusive', 'outside the
    assumptions', 'vacuous at this T', 'exceeded, not a refutation' (paper form or asymptotic bound)."""
    if v.startswith("violated"):
        return v.split(":")[0]
    if v.startswith("exceeded"):
        return "exceeded, not a refutation"
    return v.split(":")[0].split(" (")[0]


def check_panels(rows, ctx) -> list[CheckPanel]:
    """Panels for a ``regret --check`` figure from rows that went through ``check_rows(..., checkpoints=...)``:
    per algorithm its curve and every checked bound form evaluated against the curve's t (with the budget the
    row was evaluated at, in the report's context, so the value at T is the row's value)."""
    import warnings

    from ..bounds import registry
    from .regret_check import _budget_from_dict

    panels: dict[str, CheckPanel] = {}
    for r in rows:
        e = r.get("empirical") or {}
        if "curve" not in e:
            continue
        p = panels.get(r["algorithm"])
        if p is None:
            p = panels[r["algorithm"]] = CheckPanel(r["algorithm"], e["curve"], [], int(e.get("runs", 0)))
        t = np.asarray(e["curve"]["t"], dtype=float)
        b = registry.get(r["id"])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            with np.errstate(all="ignore"):
                try:
                    vals = np.asarray(b.evaluate(t, ctx, _budget_from_dict(r.get("budget_used"))).value, dtype=float)
                except (ArithmeticError, ValueError):
                    continue
        verdict = short_verdict(e.get("verdict", "not checked"))
        inside = bool(e.get("assumptions_met"))
        p.bounds.append(BoundCurve(r["id"], f"{r['id']} ({r['form']}): {verdict}", "upper", t, vals, r["algorithm"],
                                   inside=inside))
    return list(panels.values())
