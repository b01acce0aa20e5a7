"""Shared helpers of the worksheets: print registry bounds, schedules and claim verdicts with rich.

Run a worksheet from the repository root: ``python worksheets/001_eps_global_dp.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

import numpy as np  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from boundcalc.bounds import registry  # noqa: E402
from boundcalc.cli.common import fmt  # noqa: E402
from boundcalc.verify import claims  # noqa: E402

console = Console(width=160, highlight=False)


def heading(text: str) -> None:
    console.rule(f"[bold]{text}")


def bounds_table(seed: str, setting: str, budget, Ts, overrides: dict | None = None, title: str = "") -> None:
    """Every registry bound of ``seed`` in ``setting`` at horizons Ts: value (non-private + privacy cost)."""
    ctx = registry.make_context(setting, overrides, budget=budget)
    t = Table(title=title or f"seed {seed} bounds ({setting}) — {ctx.instance_name}; budget: "
              f"{budget.describe() if budget else 'none'}", header_style="bold")
    t.add_column("bound", style="cyan", no_wrap=True)
    t.add_column("kind / form")
    for T in Ts:
        t.add_column(f"T = {T:.0e}", justify="right")
    t.add_column("notes")
    for b in registry.select(setting=setting):
        if b.seed != seed:
            continue
        why = b.conditions(ctx)
        try:
            vals = b.evaluate(np.asarray(Ts, float), ctx)
            cells = [f"{fmt(v, 4)} (priv {fmt(p, 3)})" for v, p in zip(vals.value, vals.privacy_cost)]
            note = "; ".join(why)[:70] if why else (b.caveats[0][:70] if b.caveats else "")
        except (ValueError, KeyError) as exc:
            cells = ["—"] * len(Ts)
            note = str(exc)[:70]
        t.add_row(b.id, f"{b.kind} / {b.form}", *cells, note)
    console.print(t)


def claims_table(paper: str) -> int:
    """Run the paper's claim checks and print verdict + key evidence; returns how many ran."""
    vs = claims.run(claims.select(paper=paper))
    t = Table(title=f"seed {paper}: claims checked (boundcalc verify --paper {paper})", header_style="bold")
    t.add_column("claim", style="cyan", no_wrap=True)
    t.add_column("verdict", no_wrap=True)
    t.add_column("measured")
    for v in vs:
        t.add_row(v.claim_id, v.verdict, v.measured)
    console.print(t)
    return len(vs)


def schedule_table(sched, title: str, rows: int = 8) -> None:
    t = Table(title=title, header_style="bold")
    for c in ("episode", "length", "ends at t", "noise scale"):
        t.add_column(c, justify="right")
    n = len(sched.length)
    idx = list(range(min(rows, n))) + ([n - 1] if n > rows else [])
    for i in idx:
        t.add_row(str(int(sched.index[i])), fmt(sched.length[i]), fmt(sched.t_end[i]), fmt(sched.noise_scale[i], 4))
    console.print(t)
    console.print(f"{n} episodes up to T; paper: {sched.paper_count_label} = {fmt(sched.paper_count)}")
