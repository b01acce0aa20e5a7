"""``boundcalc episodes``: the episode / batch / phase schedule of a phased private bandit algorithm.

Module-level imports: typer/rich/stdlib only; the schedules (numpy) are imported inside the command.
"""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from . import common, options
from .common import check_plot_path, command, console, emit_json, fmt

def _plot(sched, path: str) -> None:
    plt = common.pyplot()
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.step(sched.t_end, sched.index, where="post", label=f"{sched.algo}: episodes started")
    ax.set_xscale("log")
    ax.set_xlabel("t")
    ax.set_ylabel("episode index")
    ax.set_title(f"{sched.algo} schedule, T = {sched.T:g}")
    ax.legend()
    common.save_figure(fig, path)


# The option of each parameter a schedule may read (algorithms.episodes.PARAMS); which ones an algorithm's schedule
# reads is on its card (``episode_schedule``). The other schedule options are still validated, and when given they
# get a note "--X has no effect on ALGO".
SCHEDULE_FLAGS = {"epsilon": "--epsilon", "rho": "--rho", "alpha": "--alpha", "rdp_epsilon": "--rdp-epsilon",
                  "d": "--d", "K": "--K", "delta": "--confidence", "beta": "--beta", "n1": "--n1",
                  "ratio": "--batch-ratio", "lam": "--lambda", "C": "--C", "lam0": "--lambda0"}
SCHEDULE_OPTIONS = tuple(SCHEDULE_FLAGS.values())


def uses(cls) -> tuple[str, ...]:
    """The options the card's schedule reads (besides --algo, --T and the display options)."""
    from ..algorithms import episodes as phased

    return tuple(SCHEDULE_FLAGS[p] for p in phased.reads(cls))


ALIASES = {"--delta": "--confidence", "--lam0": "--lambda0"}  # deprecated spellings (common.DEPRECATED_ALIASES)


def episodes(
    ctx: typer.Context,
    algo: Annotated[str, typer.Option("--algo", help="A phased algorithm, case-insensitive: one whose card has an "
                                      "episode schedule (column 'episodes' of 'boundcalc algorithms').")],
    T: options.TOpt = "1e6",
    epsilon: options.EpsilonOpt = None,
    rho: options.RhoOpt = None,
    alpha: options.AlphaOpt = None,
    rdp_epsilon: options.RdpEpsilonOpt = None,
    d: options.DOpt = "10",
    K: options.KOpt = "10",
    confidence: options.ConfidenceOpt = 1e-3,
    delta_old: Annotated[Optional[float], common.alias_option("episodes", "--delta")] = None,
    beta: options.BetaOpt = None,
    n1: options.N1Opt = "1",
    batch_ratio: options.BatchRatioOpt = 2.0,
    lam: options.LambdaOpt = 1.0,
    switch_c: options.COpt = 1.0,
    lambda0: options.Lambda0Opt = None,
    lam0_old: Annotated[Optional[float], common.alias_option("episodes", "--lam0")] = None,
    max_rows: options.RowsOpt = 60,
    json_out: options.JsonOpt = False,
    plot: options.PlotOpt = None,
):
    """Episode schedule of a phased algorithm: lengths, cumulative t, noise scale, count vs the paper's O(log T)."""
    from .. import validate as v
    from ..algorithms import episodes as phased
    from ..errors import InputError

    delta = common.alias(ctx, "episodes", "--delta", delta_old, confidence)
    lam0 = common.alias(ctx, "episodes", "--lam0", lam0_old, lambda0)
    flag = {"--confidence": "--delta" if delta_old is not None else "--confidence",
            "--lambda0": "--lam0" if lam0_old is not None else "--lambda0"}  # errors name what the user typed
    cls = phased.lookup(algo)  # the algorithms whose card has an episode schedule
    key = cls.name.lower()
    # every option is validated, whether or not this algorithm reads it
    Tn = v.horizon("--T", T)
    dn = v.count("--d", d)
    Kn = v.count("--K", K)
    n1n = v.count("--n1", n1)
    if epsilon is not None:
        v.positive("--epsilon", epsilon, allow_inf=True)
    if rho is not None:
        v.positive("--rho", rho, allow_inf=True)
    if alpha is not None:
        v.greater_than("--alpha", alpha, 1.0)
    if rdp_epsilon is not None:
        v.positive("--rdp-epsilon", rdp_epsilon, allow_inf=True)
    v.open_unit(flag["--confidence"], delta)
    if beta is not None:
        v.open_unit("--beta", beta)
    v.greater_than("--batch-ratio", batch_ratio, 1.0)
    v.positive("--lambda", lam)
    v.positive("--C", switch_c)
    if lam0 is not None:
        v.positive(flag["--lambda0"], lam0)
    if max_rows < 2:
        raise InputError("--rows", "an integer >= 2", max_rows)
    check_plot_path(plot)
    used = uses(cls)
    unused = [o for o in SCHEDULE_OPTIONS if o not in used]
    opt_notes = common.unused_option_notes(ctx, unused + [a for a, o in ALIASES.items() if o in unused], key)
    with common.option_names({"C": "--C"} if common.option_given(ctx, "--C") else {}):  # the C the user gave
        sched = phased.build(cls, Tn, epsilon=epsilon, rho=rho, alpha=alpha, rdp_epsilon=rdp_epsilon, d=dn, K=Kn,
                                delta=delta, n1=n1n, ratio=batch_ratio, beta=beta, lam=lam, C=switch_c, lam0=lam0)
    inputs = {"algo": key, "T": Tn, "epsilon": epsilon, "rho": rho, "alpha": alpha, "rdp_epsilon": rdp_epsilon,
              "d": dn, "K": Kn, "confidence": delta, "beta": beta, "n1": n1n, "batch_ratio": batch_ratio,
              "lambda": lam, "C": switch_c, "lambda0": lam0,
              "used": ["--T", *used]}
    notes = opt_notes + list(sched.notes)
    if plot:
        _plot(sched, plot)
    if json_out:
        emit_json("episodes", inputs, value=sched.count, episodes=sched.rows(), paper_count=sched.paper_count,
                  paper_count_label=sched.paper_count_label, noise=sched.noise, source=sched.source,
                  per_arm=sched.per_arm, notes=notes, plot=plot)
        return
    from rich.table import Table

    what = "one arm's own episodes (per-arm schedule)" if sched.per_arm else "episodes of the whole run"
    tbl = Table(title=f"{key}: {what}, T = {Tn:,}", caption=sched.source, header_style="bold")
    for col in ("index", "length", "cumulative t", "noise scale"):
        tbl.add_column(col, justify="right")
    rows = sched.rows()
    n = len(rows)
    show = list(range(n)) if n <= max_rows else list(range(max_rows // 2)) + [-1] + list(range(n - max_rows // 2, n))
    for i in show:
        if i < 0:
            tbl.add_row("…", "…", "…", "…")
            continue
        r = rows[i]
        tbl.add_row(str(r["index"]), f"{r['length']:,}", f"{r['t_end']:,}", fmt(r["noise_scale"]))
    con = console()
    con.print(tbl)
    con.print(f"episodes up to T: [bold]{sched.count}[/bold]   paper's O(log T) count: {fmt(sched.paper_count)} "
              f"({sched.paper_count_label})")
    con.print(f"noise scale: {sched.noise}")
    for note in notes:
        con.print(f"note: {note}")
    if plot:
        con.print(f"plot written to {plot}")


def register(app: typer.Typer) -> None:
    app.command("episodes")(command(episodes))
