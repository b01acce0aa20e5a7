"""`boundcalc worksheet list` and `boundcalc worksheet run NAME [--fast|--full] [--out DIR]`: the papers' experiments.

A worksheet (boundcalc.experiments) reproduces one paper's experimental figures on its own instances, budgets and
horizons, with the registered bounds on the same axes, and judges the paper's claims; ``run`` writes report.md,
results.json and the figures into --out. The notebooks in worksheets/ run the same code.
"""

from __future__ import annotations

from typing import Annotated

import typer

from . import common, options, problem
from .common import command


def register(app: typer.Typer) -> None:
    ws_app = typer.Typer(help="The papers' experiments: list the worksheets, or run one (figures + report).",
                         no_args_is_help=False)

    @ws_app.callback(invoke_without_command=True)
    @command
    def worksheet(ctx: typer.Context, json_out: options.JsonOpt = False):
        """The papers' experiments: 'worksheet list' (also what 'worksheet' alone shows) and 'worksheet run NAME'."""
        if ctx.invoked_subcommand is None:
            _list(json_out)

    @ws_app.command("list")
    @command
    def list_(json_out: options.JsonOpt = False):
        """List the worksheets (one per paper) and the paper figures each reproduces."""
        _list(json_out)

    def _list(json_out: bool) -> None:
        from ..experiments import all_worksheets

        items = [{"name": w.name, "slug": w.slug, "script": f"worksheets/{w.script}", "title": w.title,
                  "experiments": [{"id": e.id, "title": e.title, "reproduces": e.reproduces} for e in w.experiments],
                  "not_reproduced": w.not_reproduced} for w in all_worksheets()]
        if json_out:
            common.emit_json("worksheet list", {}, worksheets=items)
            return
        from rich.table import Table

        t = Table(title="Worksheets (boundcalc worksheet run NAME --fast|--full --out DIR)", header_style="bold")
        for c in ("name", "paper", "experiments (id: what it reproduces)"):
            t.add_column(c, overflow="fold")
        for it in items:
            t.add_row(f"{it['name']} ({it['slug']})", it["title"],
                      "\n".join(f"{e['id']}: {e['reproduces']}" for e in it["experiments"]))
        common.console().print(t)

    @ws_app.command("run")
    @command
    def run(
        click_ctx: typer.Context,
        name: Annotated[str, typer.Argument(help="Worksheet: 000 … 004 (or its slug, e.g. eps_global_dp).")],
        full: options.FullOpt = False,
        out: options.OutOpt = None,
        seed: options.SeedOpt = "0",
        step_cap: options.StepCapOpt = None,
        data: options.DataOpt = None,
        only: options.OnlyOpt = None,
        no_claims: options.NoClaimsOpt = False,
        x_scale: options.XScaleOpt = None,
        y_scale: options.YScaleOpt = None,
        log_y: options.LogYOpt = False,
        executor: options.ExecutorOpt = None,
        workers: options.WorkersOpt = None,
        scheduler: options.SchedulerOpt = None,
        json_out: options.JsonOpt = False,
    ):
        """Run one paper's worksheet: simulate its experiments, draw its figures with the registered bounds on the same axes, judge the paper's claims, and write report.md, results.json and the figures into --out.

        Bad NAME, --only naming no experiment of it, or an --out that cannot be written: one line on stderr, exit
        code 2, before any work.
        """
        from .. import validate
        from ..experiments import get
        from ..experiments.session import Session

        ws = get(name)
        mode = "full" if full else "fast"
        # the seed and where the blocks run (the runs are each experiment's own: Simulation.runs None)
        sim, ex_notes = problem.simulation_of(click_ctx, None, seed, None, executor, workers, "1", scheduler,
                                              seed_max=1e18, n_tasks=10**6)
        seed_v = sim.seed
        cap = None if step_cap is None else validate.count("--step-cap", step_cap, minimum=0)
        from ..progress import on_terminal

        from ..errors import InputError

        files = {}
        for item in data or []:
            key, sep, path = str(item).partition("=")
            if not sep:
                raise InputError("--data", "NAME=PATH (autoloan=FILE.csv, lastfm=DIR)", item)
            files[key.strip()] = path.strip()
        from ..experiments.base import check_data
        from ..experiments.session import select
        files = check_data(files, ws)
        selected = select(ws, only)
        from ..figures import scale_options

        scales = scale_options(x_scale, y_scale, log_y)  # applied by the runner to each experiment's figures
        plan = sim.executor.as_dict()
        session = Session(ws, mode=mode, out=out, seed=seed_v, step_cap=cap, echo=False,
                          progress=on_terminal(), data=files, only=selected, claims=not no_claims, scales=scales,
                          executor=plan)
        rep = session.run_all()
        inputs = {"name": ws.name, "mode": mode, "out": out, "seed": seed_v, "step_cap": session.runner.step_cap,
                  "data": files, "only": selected, "claims": not no_claims,
                  "scales": {"x": scales[0], "y": scales[1]}, "executor": plan}
        if ex_notes and not json_out:
            for n in ex_notes:
                common.console().print(f"note: {n}")
        if json_out:
            common.emit_json("worksheet run", inputs, **rep.summary(), executor_notes=ex_notes)
            return
        _print_summary(rep)

    app.add_typer(ws_app, name="worksheet")


def _print_summary(rep) -> None:
    from rich.table import Table

    con = common.console()
    t = Table(title=f"Worksheet {rep.worksheet}: {rep.title} ({rep.mode} mode)", header_style="bold")
    for c in ("experiment", "reproduces", "figures", "simulations", "seconds"):
        t.add_column(c, overflow="fold")
    for e in rep.experiments:
        t.add_row(e.id, e.reproduces, ", ".join(e.figures), str(len(e.simulations)), f"{e.seconds:.1f}")
    con.print(t)
    if rep.figure_claims:
        c = Table(title="Claims read off the paper's figures, judged on these simulations", header_style="bold")
        for col in ("claim", "source", "verdict"):
            c.add_column(col, overflow="fold")
        for fc in rep.figure_claims:
            c.add_row(fc["claim"], fc["source"], fc["verdict"])
        con.print(c)
    n_ok = sum(v.verdict == v.expected for v in rep.claims)
    if rep.run.get("claims_skipped"):
        con.print(f"verifier: claims of seed {rep.worksheet} skipped (--no-claims)")
    else:
        con.print(f"verifier: {len(rep.claims)} claims of seed {rep.worksheet}, {n_ok} with the verdict ERRATA and "
                  f"the sheet lead one to expect")
    n_cmp = sum(len(e.comparisons) for e in rep.experiments)
    con.print(f"{n_cmp} measured-vs-bound comparisons; total {rep.timings['total']:.1f} s")
    con.print(f"report: {rep.report_path}")
