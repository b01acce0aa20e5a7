"""`boundcalc budget`: the strongest privacy that keeps regret within a target (a thin renderer of boundcalc.budget).

For every bound of a setting: the budget at which it meets the target (upper bounds: sufficient for their
algorithm; lower bounds: below it every algorithm misses), in the bound's notion and the user's, with equivalents;
the recommendation from rigorous bounds only; the spread between forms; ``--min-T`` for the horizons from which
bounds say something; ``--check`` to measure the chosen budget's real overhead; ``--plot`` regret against budget.
"""

from __future__ import annotations

import typer

from . import common, instance_options, options, plot_options, plugin_options, problem
from .common import command
from .regret_cmd import SETTINGS, _parse_params, horizons_option, selected_bounds

_STATUS_STYLE = {"met": "green", "any budget": "green", "unreachable": "red", "non-monotone": "red",
                 "undefined": "red", "not applicable": "dim", "never": "red"}


def _short_source(f: dict) -> str:
    """Where a form's constants come from, in a few words (a user's bound: its plugin, never "DERIVED")."""
    from .regret_cmd import plugin_origin

    origin = plugin_origin({"id": f["id"]})
    if origin is not None:
        return f"{f['id']}: your bound, constants as declared in plugin {origin}"
    if f["form"] == "paper":
        return "paper forms set the O(·) constants to 1"
    if f["form"] == "explicit":
        return "explicit forms carry the constants of the proof (DERIVED)"
    if f["form"] == "corrected":
        return "corrected forms follow the errata"
    return "exact forms: constants as stated"


def _fmt_budget(x, symbol):
    return "—" if x is None else f"{symbol} = {common.fmt(x, 4)}"


def _equiv_text(eq: dict | None) -> str:
    if not eq:
        return "—"
    parts = []
    if eq.get("rho") is not None:
        parts.append(f"ρ = {common.fmt(eq['rho'], 4)}")
    if eq.get("epsilon") is not None:
        parts.append(f"ε = {common.fmt(eq['epsilon'], 4)}")
    if eq.get("approx_tight") is not None:
        e, d = eq["approx_tight"]
        s = eq["approx_simple"][0] if eq.get("approx_simple") else None
        parts.append(f"(ε, δ = {d:g}): {common.fmt(e, 4)} tight" + (f" / {common.fmt(s, 4)} simple" if s is not None
                                                                      and s != e else ""))
    return "; ".join(parts) or "—"


_EDGE_NOTE = ("met at every budget searched, down to the edge of the search range (1e-30): there is no smallest "
              "budget to recommend, so value is null; any budget does")


def _json_value(plan):
    """The JSON ``value`` of a plan: its recommended budget, or None where the recommendation is met at the search
    range's edge (status "any budget": the edge 1e-30 is the solver's limit, not an answer)."""
    if plan.value_id is None or plan.row(plan.value_id).status == "any budget":
        return None
    return plan.value


ANY_BUDGET_TEXT = "any"  # "any budget": met at the smallest budget searched; no number is the answer


def _row_cells(r, sym):
    """The cells of one bound's row: numbers whole (a row met only at the search range's edge shows no number)."""
    st = _STATUS_STYLE.get(r.status, "")
    own = "—"
    if r.budget_own and r.status != "any budget":
        own = ", ".join(f"{k} = {common.fmt(v, 4)}" for k, v in r.budget_own.items() if k != "notion")
        own = f"{r.budget_own['notion']}: {own}"
    from .regret_cmd import algorithm_label, plugin_origin

    edge = r.status == "any budget"
    tags = list(r.tags) + ([] if r.rigorous else ["indicative"])
    if plugin_origin({"id": r.id}) is not None:
        tags.insert(0, "your bound (plugin)")
    return dict(id=r.id, algorithm=algorithm_label({"id": r.id, "algorithm": r.algorithm}), kind=r.kind.replace("problem-dependent", "instance"),
                form=r.form, status=f"[{st}]{r.status}[/{st}]" if st else r.status,
                user=ANY_BUDGET_TEXT if edge else common.fmt(r.user_budget, 5), own=own,
                regret="—" if edge else common.fmt(r.regret_at_budget),
                overhead="—" if edge or r.overhead_at_budget is None else f"{100 * r.overhead_at_budget:.3g}%",
                caveats=", ".join(tags) or "—")


def _fits(con, table) -> bool:
    """Whether rich can lay the table out in the console's width without cutting a no-wrap cell (numbers) or
    squeezing the caveats below 24 columns (one word per line): common.table_fits."""
    return common.table_fits(con, table, floors={"caveats": 24, "bound's own budget": 12})


SELECTED: tuple = ()  # the --bound ids of the command being rendered (marked ★ in the tables and the figure)


def _set_selected(ids, show_all: bool = False) -> None:
    global SELECTED, SHOW_ALL
    SELECTED = tuple(ids)
    SHOW_ALL = bool(show_all)


def _id_cell(rid: str) -> str:
    return f"[bold cyan]★ {rid}[/bold cyan]" if rid in SELECTED else f"[cyan]{rid}[/cyan]"


SHOW_ALL = False  # --all of the command being rendered: every applicable bound in the tables


def _report_row(r) -> dict:
    """A budget row in the shape regret_cmd.shown_rows reads: its value is the user budget where the bound meets the
    target (the smallest is the best upper bound, the largest the most telling lower bound, as the recommendation and
    the lower limit are chosen from the rigorous rows: budget.solve._plan); an indicative bound counts as regret's
    invalid ones (never the row an algorithm is shown by while a rigorous one is there) and an indicative lower bound
    has no value (the lower limit's bound is shown, not a larger indicative one)."""
    met = r.status in ("met", "any budget") and (r.is_upper or r.rigorous)
    return {"id": r.id, "algorithm": r.algorithm, "kind": r.kind, "form": r.form, "notion": r.notion,
            "applicable": r.status != "not applicable", "value": r.user_budget if met else None,
            "invalid": not r.rigorous, "vacuous": False, "tags": list(r.tags)}


def _shown(plan, explain: bool) -> list:
    """The rows of one horizon's table, in display order: regret's compaction (regret_cmd.shown_rows: the
    recommendation's algorithm in every form, one row per other algorithm, the largest lower bound of each kind, your
    bounds, the ``--bound`` ones; ``--all``/``--explain``: every applicable bound), then the not applicable ones
    selected by ``--bound`` (every one with ``--explain``)."""
    from .regret_cmd import shown_rows

    ids = [d["id"] for d in shown_rows([_report_row(r) for r in plan.rows], plan.value_id, SELECTED,
                                       SHOW_ALL or explain)]
    ids += [r.id for r in plan.rows if r.status == "not applicable" and (explain or r.id in SELECTED)]
    return [plan.row(i) for i in ids]


# columns of the budget table left out, the least needed first, where the console is too narrow to show every number
# and header whole (common.fit_columns); the user budget, the status and the id stay
BUDGET_DROP = ("bound's own budget", "kind", "form", "overhead", "regret there", "caveats")
BUDGET_FLOORS = {"caveats": 24, "bound's own budget": 12}


def _plan_table(plan, explain: bool, values_used: str, con):
    """The table of one horizon, columns left out (BUDGET_DROP) where the console is too narrow; None when even then
    it cannot be laid out without cutting a number or a header."""
    from rich import box
    from rich.table import Table

    sym = plan.notion.symbol
    t = Table(title=f"Privacy budget for {plan.target.describe()} — {plan.setting} — T = {plan.T:g}",
              caption=f"instance: {common.esc(plan.instance)}\nvalues used: {values_used}\n"
                      f"user notion: {plan.notion.describe()}; upper bounds: the smallest "
                      f"budget at which the bound meets the target; lower bounds: below this budget every algorithm "
                      f"misses it; '{ANY_BUDGET_TEXT}': every budget searched, down to the range's edge (1e-30), meets it",
              header_style="bold", box=box.SIMPLE_HEAD, caption_justify="left", pad_edge=False)
    for col, kw in (("id / algorithm", {"no_wrap": True}), ("kind", {"no_wrap": True}), ("form", {"no_wrap": True}),
                    ("status", {"no_wrap": True}), (f"user {sym}", {"justify": "right", "no_wrap": True}),
                    ("bound's own budget", {}), ("regret there", {"justify": "right", "no_wrap": True}),
                    ("overhead", {"justify": "right", "no_wrap": True}), ("caveats", {"ratio": 1})):
        t.add_column(col, **kw)
    for r in _shown(plan, explain):
        c = _row_cells(r, sym)
        t.add_row(f"{_id_cell(c['id'])}\n[dim]{c['algorithm']}[/dim]", c["kind"].replace("-", "\n"), c["form"],
                  c["status"], c["user"], c["own"], c["regret"], c["overhead"], c["caveats"])
    common.fit_columns(con, t, BUDGET_DROP, floors=BUDGET_FLOORS)
    return t if _fits(con, t) else None


def _plan_list(plan, explain: bool, values_used: str, con):
    """The same content as ``_plan_table``, one block per bound, for a console too narrow for the table."""
    sym = plan.notion.symbol
    con.print(f"[bold]Privacy budget for {plan.target.describe()} — {plan.setting} — T = {plan.T:g}[/bold]")
    for r in _shown(plan, explain):
        c = _row_cells(r, sym)
        con.print(f"{_id_cell(c['id'])} ({c['algorithm']}; {c['kind']}, {c['form']}): {c['status']}")
        con.print(f"    user {sym} = {c['user']}; bound's own budget {c['own']}; regret there {c['regret']}; "
                  f"overhead {c['overhead']}")
        con.print(f"    caveats: {c['caveats']}")
    con.print(f"instance: {common.esc(plan.instance)}\nvalues used: {values_used}\nuser notion: {plan.notion.describe()}; upper "
              "bounds: the smallest budget at which the bound meets the target; lower bounds: below this budget every "
              f"algorithm misses it; '{ANY_BUDGET_TEXT}': every budget searched, down to the range's edge (1e-30), meets it")


def _render(plans, explain: bool, values_used: str = ""):
    """Every horizon's table (--T 1e6,1e7: one per T), the budget against T, then notes and one recommendation per T.
    A console too narrow for a table gets the same content as one block per bound (numbers are never cut)."""
    from rich.table import Table

    con = common.console()
    last = plans[-1]
    sym = last.notion.symbol
    for plan in (plans if len(plans) <= MAX_T_TABLES else plans[-1:]):  # a range of T: the largest T's table
        t = _plan_table(plan, explain, values_used, con)
        if t is not None:
            con.print(t)
        else:
            _plan_list(plan, explain, values_used, con)
    if len(plans) > MAX_T_TABLES:
        _render_against_T(con, plans, sym, explain)
    elif len(plans) > 1:
        tt = Table(title=f"User {sym} against T", header_style="bold")
        tt.add_column("id", style="cyan", no_wrap=True)
        for p in plans:
            tt.add_column(f"T={common.fmt(p.T, 3)}", justify="right", no_wrap=True)
        for r in _shown(last, explain):
            cells = []
            for p in plans:
                x = p.row(r.id)
                cells.append(common.fmt(x.user_budget, 4) if x.status == "met" else
                             ANY_BUDGET_TEXT if x.status == "any budget" else x.status)
            tt.add_row(r.id, *cells)
        tt.add_row("[bold]recommended[/bold]", *[_recommended_cell(p) for p in plans])
        con.print(tt)
    na = [r for r in last.rows if r.status == "not applicable"]
    hidden = sum(r.status != "not applicable" for r in last.rows) - sum(
        r.status != "not applicable" for r in _shown(last, explain))
    if explain:
        for r in last.rows:
            if r.reason or r.indicative or r.equivalents:
                con.print(f"[cyan]{r.id}[/cyan]: {r.status}" + (f" — {r.reason}" if r.reason else "")
                          + (f" — indicative only: {r.indicative}" if r.indicative else ""))
                if r.equivalents:
                    con.print(f"    equivalents: {_equiv_text(r.equivalents)}")
                if r.conversion and r.conversion not in ("same notion",):
                    con.print(f"    [dim]conversion: {r.conversion}[/dim]")
    elif na or hidden:  # as regret's table says what it leaves out
        parts = ([f"{hidden} more applicable bound{'s' if hidden != 1 else ''} (other forms, other papers' bounds, "
                  f"weaker lower bounds: --all)"] if hidden else [])
        if na:
            parts.append(f"{len(na)} not applicable to {last.notion.describe()}")
        con.print(f"[dim]Not shown: {' and '.join(parts)}; --explain gives the reasons.[/dim]")
    for s in last.spread:
        forms = ", ".join(f"{f['id']} {sym} = {common.fmt(f['user_budget'], 4)}" for f in s["forms"])
        why = sorted({_short_source(f) for f in s["forms"]})
        con.print(f"[yellow]spread[/yellow] {s['algorithm']}: its forms differ {s['ratio']:.3g}× ({forms}) — "
                  + "; ".join(why) + ("" if explain else " (--explain: the constants)"))
        if explain:
            for f in s["forms"]:
                con.print(f"    {f['id']}: {f['from']}")
    for n in last.notes:
        con.print(f"[yellow]note[/yellow]: {n}")
    if last.lower_limit is not None:
        x = common.fmt(last.lower_limit, 5)
        low = last.row(last.lower_id)
        scope = ("worst-case regret over the theorem's class of instances" if low.kind.endswith("minimax")
                 else "regret on this instance")
        if last.target.kind == "regret":
            what = f"every algorithm's {scope} is at least {common.fmt(last.target.value)}"
        else:
            what = (f"the lower bound's own privacy term is at least {100 * last.target.value:g}% of its non-private "
                    "term: no algorithm avoids that overhead")
        con.print(f"[bold]No algorithm can do better[/bold]: below {sym} = {x} {what} ({last.lower_id}).")
    for plan in (plans if len(plans) <= MAX_T_TABLES else plans[-1:]):
        _print_recommendation(con, plan, f" at T = {plan.T:g}" if len(plans) > 1 else "")
    for bid in SELECTED:
        r = last.row(bid)
        c = _row_cells(r, sym)
        what = (f"{sym} = {c['user']}, regret there {c['regret']}, overhead {c['overhead']}" if r.status == "met"
                else r.status + (f" — {r.reason}" if r.reason else ""))
        from .regret_cmd import _headline_who

        con.print(f"[bold]★ {bid}[/bold] ({_headline_who({'id': bid, 'algorithm': r.algorithm, 'form': r.form})} "
                  f"form): {what}")


MAX_T_TABLES = 6  # more horizons (a range such as 1e3:1e7:20): the largest T's table and one row per T


def _render_against_T(con, plans, sym, explain: bool) -> None:
    """The user budget against T for a range of horizons: one row per T; columns: the recommendation, the selected
    bounds, then the other applicable bounds while the width allows (--json has every value)."""
    from rich.table import Table

    last = plans[-1]
    ids = [r.id for r in last.rows if r.id in SELECTED]
    ids += [r.id for r in _shown(last, explain) if r.id not in ids]
    tt = Table(title=f"User {sym} against T", header_style="bold")
    tt.add_column("T", justify="right", no_wrap=True)
    tt.add_column("recommended", justify="right", no_wrap=True)
    for i in ids:
        tt.add_column(i, justify="right", no_wrap=True)
    for p in plans:
        cells = []
        for i in ids:
            x = p.row(i)
            cells.append(common.fmt(x.user_budget, 4) if x.status == "met" else
                         ANY_BUDGET_TEXT if x.status == "any budget" else x.status)
        tt.add_row(f"{p.T:g}", _recommended_cell(p), *cells)
    dropped = common.fit_columns(con, tt, [i for i in reversed(ids) if i not in SELECTED])
    if dropped:
        tt.caption = f"{len(dropped)} more bounds do not fit this width (--json has every value)"
    con.print(tt)


def _recommended_cell(p) -> str:
    if p.value is None:
        return "none"
    return ANY_BUDGET_TEXT if p.row(p.value_id).status == "any budget" else common.fmt(p.value, 4)


def _print_recommendation(con, plan, at: str) -> None:
    """One horizon's recommendation; a bound met at the search range's edge says so instead of a number."""
    sym = plan.notion.symbol
    if plan.value is None:
        con.print(f"[bold]Recommendation{at}[/bold]: none — {plan.notes[0] if plan.notes else 'no rigorous bound'}.")
        return
    r = plan.row(plan.value_id)
    if r.status == "any budget":
        con.print(f"[bold]Recommendation{at}[/bold]: no strongest budget in the searched range — {plan.value_id} "
                  f"({r.algorithm}, {r.form} form) meets the target at every {sym} searched, down to "
                  f"{sym} = {common.fmt(plan.value, 2)} (the edge of the range), so any budget does.")
        return
    con.print(f"[bold]Recommendation{at}[/bold]: {sym} = [bold]{common.fmt(plan.value, 5)}[/bold] "
              f"({plan.value_id}, {r.algorithm}, {r.form} form) — guarantees {_equiv_text(r.equivalents)}.")


def _render_horizons(rows, budget, max_overhead):
    from rich import box
    from rich.table import Table

    t = Table(title=f"Horizon from which each bound says something — {budget.describe()}", header_style="bold",
              box=box.SIMPLE_HEAD, pad_edge=False,
              caption="informative: below the trivial bound T × largest per-round regret"
                      + (f"; overhead: privacy cost ≤ {100 * max_overhead:g}% of the non-private part"
                         if max_overhead is not None else ""), caption_justify="left")
    for col in ("id / algorithm", "kind", "form", "informative from T", "overhead under target from T", "caveats"):
        t.add_column(col, no_wrap=col != "caveats")

    def cell(status, T):  # a horizon is a whole number: every digit (a rounded T would not be the horizon found)
        if status != "met":
            return status
        return str(int(T)) if float(T).is_integer() and abs(T) < 1e16 else common.fmt(T)

    for r in rows:
        if r.informative_status == "not applicable" and r.overhead_status == "not applicable":
            continue
        t.add_row(f"{_id_cell(r.id)}\n[dim]{r.algorithm or '(any algorithm)'}[/dim]",
                  r.kind.replace("problem-dependent", "instance").replace("-", "\n"), r.form,
                  cell(r.informative_status, r.T_informative),
                  cell(r.overhead_status, r.T_overhead) if max_overhead is not None else "—", ", ".join(r.tags) or "—")
    con = common.console()
    if _fits(con, t):
        con.print(t)
        return
    con.print(f"[bold]{t.title}[/bold]")  # too narrow for the table: one block per bound, numbers whole
    for r in rows:
        if r.informative_status == "not applicable" and r.overhead_status == "not applicable":
            continue
        con.print(f"[cyan]{r.id}[/cyan] ({r.algorithm or '(any algorithm)'}; {r.kind}, {r.form}): informative from T = "
                  f"{cell(r.informative_status, r.T_informative)}"
                  + (f"; overhead under target from T = {cell(r.overhead_status, r.T_overhead)}"
                     if max_overhead is not None else ""))
        con.print(f"    caveats: {', '.join(r.tags) or '—'}")
    con.print(t.caption)


def _plot(path, plan, overrides):
    """Regret against the user's budget (log x): every applicable bound, the non-private bounds as horizontal lines,
    the recommended budget and the lower limit marked (as seed 001's Figure 8 draws regret against ε)."""
    import math

    import numpy as np

    from .. import figures as F
    from ..bounds import registry

    answers = [r.user_budget for r in plan.rows if r.user_budget is not None]
    centre = plan.value or (float(np.exp(np.mean(np.log(answers)))) if answers else 1.0)
    lo = min([centre / 1e3] + [a / 10 for a in answers])
    hi = max([centre * 1e3] + [a * 10 for a in answers])
    grid = np.geomspace(max(lo, 1e-30), min(hi, 1e30), 60)
    ctx = registry.make_context(plan.setting, overrides or {}, None)
    ctx.params["T"] = plan.T
    lines = []
    for b in registry.select(setting=plan.setting):
        if b.notion == "none":
            if b.conditions(ctx):
                continue
            v = float(b.evaluate([plan.T], ctx, None).value[0])
            lines.append(F.Line(f"{b.id} (non-private)", grid, np.full_like(grid, v), kind="other"))
            continue
        ys = []
        for x in grid:
            ctx.budget = plan.notion.budget(float(x))
            own, _ = ctx.budget_for(b)
            if own is None or b.conditions(ctx):
                ys.append(math.nan)
                continue
            with np.errstate(all="ignore"):
                ys.append(float(b.evaluate([plan.T], ctx, own).value[0]))
        if np.isfinite(ys).any():
            sel = b.id in SELECTED
            lines.append(F.Line(f"{'★ ' if sel else ''}{b.id} ({b.form})", grid, np.array(ys),
                                kind="upper" if b.is_upper else "lower", style={"lw": 3.2, "zorder": 5} if sel else {}))
    sym = plan.notion.symbol
    markers = [(f"recommended {sym} ({plan.value_id})", plan.value)]
    if plan.lower_limit is not None:
        markers.append((f"below this every algorithm misses ({plan.lower_id})", plan.lower_limit))
    fig = F.lines_figure(lines, xlabel=f"user budget {sym} ({plan.notion.describe()})", ylabel=f"regret bound at T",
                         title_text=F.title(f"Regret against the budget — {plan.target.describe()}", plan.instance,
                                            plan.notion.describe(), plan.T), markers=markers)
    F.save(fig, path)


def register(app: typer.Typer) -> None:
    @app.command("budget")
    @command
    def budget(
        ctx: typer.Context,
        setting: options.SettingOpt = None,
        T: options.TListOpt = "1e6",
        notion: options.NotionOpt = None,
        max_overhead: options.MaxOverheadOpt = None,
        max_regret: options.MaxRegretOpt = None,
        max_ratio_to_lower: options.MaxRatioToLowerOpt = None,
        delta: options.DeltaTextOpt = None,
        alpha: options.AlphaOpt = None,
        ldp_delta: options.LdpDeltaOpt = None,
        means: options.MeansOpt = None,
        K: options.KOpt = None,
        d: options.DOpt = None,
        actions: options.ActionsOpt = None,
        theta: options.ThetaOpt = None,
        confidence: options.ConfidenceOpt = None,
        lambda0: options.Lambda0Opt = None,
        param: options.ParamOpt = None,
        min_T: options.MinTOpt = False,
        epsilon: options.EpsilonOpt = None,
        rho: options.RhoOpt = None,
        rdp_epsilon: options.RdpEpsilonOpt = None,
        ldp_epsilon: options.LdpEpsilonOpt = None,
        plot: options.PlotOpt = None,
        x_scale: options.XScaleOpt = None,
        y_scale: options.YScaleOpt = None,
        log_y: options.LogYOpt = False,
        check: options.CheckOpt = False,
        runs: options.RunsOpt = None,
        seed: options.SeedOpt = "0",
        by: options.ByOpt = None,
        algo: options.AlgoOpt = None,
        quantile: options.QuantileOpt = None,
        max_runs: options.MaxRunsOpt = None,
        block_runs: options.BlockRunsOpt = None,
        counterpart: options.CounterpartOpt = None,
        counterpart_param: options.CounterpartParamOpt = None,
        pairing: options.PairingOpt = None,
        executor: options.ExecutorOpt = None,
        workers: options.WorkersOpt = None,
        scheduler: options.SchedulerOpt = None,
        plot_dist: options.PlotDistOpt = None,
        report: options.ReportOpt = None,
        explain: options.ExplainOpt = False,
        show_all: options.AllOpt = False,
        bound: options.BoundOpt = None,
        instance_file: options.InstanceFileOpt = None,
        save_instance: options.SaveInstanceOpt = None,
        env: options.EnvOpt = None,
        env_seed: options.EnvSeedOpt = None,
        gaps: options.GapsOpt = None,
        best_mean: options.BestMeanOpt = None,
        noise: options.NoiseOpt = None,
        prior: options.PriorOpt = None,
        instances: options.InstancesOpt = None,
        prior_quantile: options.PriorQuantileOpt = None,
        prior_param: options.PriorParamOpt = None,
        prior_seed: options.PriorSeedOpt = None,
        bounds_file: options.BoundsFileOpt = None,
        json_out: options.JsonOpt = False,
    ):
        """The strongest privacy (smallest budget) at which each bound meets a regret or overhead target."""
        from .. import validate
        from ..budget import solve
        from ..errors import InputError

        common.check_plot_path(plot)
        plot_options.apply(x_scale, y_scale, log_y)  # every figure of this command: --x-scale/--y-scale/--log-y
        setting = instance_options.setting_of(setting, instance_file, SETTINGS)
        plugin_options.load(bounds_file)
        selected = selected_bounds(bound, setting)
        _set_selected(selected, show_all)
        Ts = horizons_option(T, max_points=50)
        d_priv = validate.open_unit("--delta", "1e-6" if delta is None else delta)
        sim_range = dict(runs_range=(2, 10**6), runs_default="100")  # --check and the search's first batch
        sim, _ = problem.simulation_of(ctx, runs, seed, plan=False, **sim_range)
        target = problem.target_of(max_overhead, max_regret, max_ratio_to_lower)
        # the instance (issue 14 §1): one Instance from the instance options, or a prior and its draws
        io_ = instance_options
        bi = io_.bound_instance_of(
            setting, prior=prior, instances=instances, prior_quantile=prior_quantile, prior_param=prior_param,
            prior_seed=prior_seed, means=means, K=K, d=d, theta=theta, actions=actions, instance_file=instance_file,
            env=env, env_seed=env_seed, gaps=gaps, best_mean=best_mean, noise=noise, save_instance=save_instance,
            confidence=confidence, lambda0=lambda0)
        pri, inst, old_given, overrides, vals, given_names = (bi.prior, bi.instance, bi.old_given, bi.overrides,
                                                              bi.vals, bi.names)
        overrides.update(_parse_params(param))
        from ..bounds import registry as _registry
        from .regret_cmd import _instance_used

        inst_used = None
        with common.option_names(given_names):
            _registry.make_context(setting, overrides, None)
        if pri is None:
            inst_used, i_notes = _instance_used(setting, _registry.make_context(setting, overrides, None), inst,
                                                old_given)
            io_.save(inst_used, save_instance)
        else:
            i_notes = []
            common.refuse({"--min-T": min_T, "--check": check, "--plot": bool(plot)},
                          "used without --prior (it answers for one instance: save one with --save-instance or give "
                          "--instance)")
        options_used = {k: (v.tolist() if hasattr(v, "tolist") else v) for k, v in vals.items()}
        sim_opts = {"--algo": algo, "--quantile": quantile, "--max-runs": max_runs, "--report": report,
                    "--plot-dist": plot_dist, "--executor": executor, "--workers": workers, "--scheduler": scheduler,
                    "--block-runs": block_runs, "--counterpart": counterpart,
                    "--counterpart-param": counterpart_param or None, "--pairing": pairing}
        if min_T:
            if target.kind != "overhead":
                raise InputError("--min-T", "used with --max-overhead (or no other target)",
                                 "--max-regret" if max_regret is not None else "--max-ratio-to-lower")
            # options --min-T does not read: refused, not ignored (issue 22 §4: --quantile 7 --report no/such/x.html
            # --counterpart nope exited 0)
            common.refuse({"--by": None if by == "bound" else by, "--notion": notion, **sim_opts,
                           "--counterpart-param": counterpart_param[0] if counterpart_param else None,
                           **{o: o for o in ("--T", "--runs", "--seed", "--explain", "--all")
                              if common.option_given(ctx, o)}},
                          "omitted with --min-T (it answers the smallest T at the budget given)")
            bud = problem.budget_of(epsilon, rho, alpha, rdp_epsilon, None if delta is None else d_priv,
                                    ldp_epsilon, ldp_delta)  # --delta was dropped here (issue 17 §4)
            return _min_horizons(setting, target, bud, overrides, plot, check, json_out, vals, inst_used,
                                 save_instance)
        common.refuse({"--epsilon": epsilon, "--rho": rho, "--rdp-epsilon": rdp_epsilon, "--ldp-epsilon": ldp_epsilon},
                      "used only with --min-T (budget answers the budget; choose the notion with --notion)")
        un = problem.notion_of(setting, notion, alpha, d_priv, ldp_delta)
        if by is None:  # simulation when an instance file or a prior (without --bound, which selects a bound of the
            # bounds' answer) or a simulation-only option is given
            by = "simulation" if ((instance_file is not None or pri is not None) and not selected) or any(
                v is not None for k, v in sim_opts.items()
                if k in ("--algo", "--quantile", "--max-runs", "--report", "--plot-dist", "--counterpart",
                         "--counterpart-param", "--pairing")) else "bound"
        if by not in ("simulation", "bound"):
            raise InputError("--by", "simulation or bound", by)
        if by == "bound":
            common.refuse(sim_opts, "used with --by simulation")
        else:
            common.refuse({"--check": check}, "used with --by bound (--by simulation measures already)")
            common.refuse({"--bound": selected[0] if selected else None},
                          "used with --by bound (it selects a bound of the bounds' answer)")
            common.refuse({"--all": show_all}, "used with --by bound (every bound in the bounds' table)")
            if len(Ts) > 1:
                raise InputError("--T", "one horizon with --by simulation", T)
            common.check_output_path("--report", report, (".html", ".md"))
            if plot_dist is not None:
                from .. import figures as F

                F.check_path(plot_dist, "--plot-dist")
            sim, _ = problem.simulation_of(ctx, runs, seed, block_runs, executor, workers, "1", scheduler, n_tasks=64,
                                           **sim_range)
            search = problem.search_of(sim, quantile, max_runs, counterpart, counterpart_param, pairing)
            names = [a.strip() for a in algo.split(",") if a.strip()] if algo else None
            if algo is not None and not names:
                raise InputError("--algo", "a comma-separated list of private algorithms", algo)
            from . import budget_measured

            drawn = None if pri is None else budget_measured.Drawn(*pri)
            budget_measured.run(
                setting, Ts[-1], target, un, overrides, search, algos=names, delta=d_priv, json_out=json_out,
                plot=plot, plot_dist=plot_dist, report=report, values_used="", click_ctx=ctx,
                instance=inst_used if drawn is None else None, prior=drawn, instance_path=instance_file,
                inputs={"setting": setting, "T": Ts, "notion": {"name": un.name, "alpha": un.alpha,
                                                                "delta": un.delta},
                        "target": {"kind": target.kind, "value": target.value}, "delta": d_priv,
                        "options": options_used})
            return
        if pri is not None:
            return _prior_budget(setting, Ts, target, un, overrides, d_priv, pri, json_out)
        plans = [solve(setting, t, target, un, overrides=overrides, delta=d_priv) for t in Ts]
        for p in plans:
            p.instance = inst_used.label if inst_used is not None else p.instance
            p.notes.extend(i_notes)
        last = plans[-1]
        if all(r.status == "not applicable" for r in last.rows):
            if target.kind == "ratio" and any(r.is_upper and "lower bound" in r.reason for r in last.rows):
                raise InputError("--max-ratio-to-lower", f"used where a lower bound of the same kind applies (no "
                                 f"{setting} lower bound covers {un.describe()})", target.value)
            raise InputError("--notion", f"a notion some {setting} bound applies to (none of the {setting} bounds "
                             f"applies to {un.describe()})", un.name)
        chk = None
        if check:
            from ..budget.check import check_plan

            chk = check_plan(last, overrides, runs=sim.runs, seed=sim.seed, progress=not json_out)
        if plot:
            _plot(plot, last, overrides)
        if json_out:
            d = last.as_dict()
            status = None if last.value_id is None else last.row(last.value_id).status
            common.emit_json(
                "budget",
                {"setting": setting, "T": Ts, "notion": {"name": un.name, "alpha": un.alpha, "delta": un.delta},
                 "target": {"kind": target.kind, "value": target.value}, "delta": d_priv,
                 "instance": last.instance, "options": options_used},
                instance=inst_used.to_dict() if inst_used is not None else None, saved_instance=save_instance,
                value=_json_value(last), value_id=last.value_id, value_status=status,
                value_note=_EDGE_NOTE if status == "any budget" else None,
                value_label=("smallest user budget at which a rigorous upper bound (exact, explicit or corrected form; "
                             "not asymptotic, not vacuous, no violated statement) meets the target at the largest T"),
                lower_limit=last.lower_limit, lower_id=last.lower_id, spread=d["spread"], notes=d["notes"],
                budgets=d["budgets"],
                selected=[{"id": b, "status": last.row(b).status, "user_budget": last.row(b).user_budget}
                          for b in selected],
                horizons=[{"T": p.T, "value": _json_value(p), "value_id": p.value_id,
                           "value_status": None if p.value_id is None else p.row(p.value_id).status,
                           "lower_limit": p.lower_limit,
                           "budgets": [{"id": r.id, "status": r.status, "user_budget": r.user_budget,
                                        "budget": r.budget} for r in p.rows]} for p in plans],
                check=None if chk is None else chk.as_dict(), plot=plot,
            )
            return
        from ..bounds import registry
        from ..bounds.report import instance_values
        from .regret_cmd import _caption_values

        ctx = registry.make_context(setting, overrides, None)
        if inst_used is not None and instance_file is not None:  # one line and its file (the JSON has it whole)
            for p in plans:
                p.instance = instance_options.instance_text(inst_used, instance_file)
        _render(plans, explain, _caption_values(instance_values(setting, ctx)))
        if chk is not None:
            _render_check(chk)
        if plot:
            common.console().print(f"plot written to {plot}")


def _min_horizons(setting, target, bud, overrides, plot, check, json_out, vals, inst_used, save_instance):
    """`budget --min-T`: the horizon from which each bound says something at the budget given (budget.min_horizon)."""
    from ..budget import min_horizon
    from ..errors import InputError

    if bud is None:
        raise InputError("--min-T", "given with the budget to evaluate at (--rho, --epsilon, --alpha and "
                         "--rdp-epsilon, or --ldp-epsilon)", None)
    common.refuse({"--plot": bool(plot), "--check": check}, "used without --min-T")
    mo = target.value if target.kind == "overhead" else None
    rows = min_horizon(setting, bud, mo, overrides)
    if json_out:
        common.emit_json("budget", {"setting": setting, "mode": "min-T", "budget": common.budget_inputs(bud),
                                    "max_overhead": mo, "overrides": dict(vals)},
                         value=None, horizons=[r.as_dict() for r in rows],
                         instance=inst_used.to_dict() if inst_used is not None else None, saved_instance=save_instance)
        return
    _render_horizons(rows, bud, mo)


def _prior_budget(setting, Ts, target, un, overrides, d_priv, pri, json_out):
    """`budget --prior`: the bound-based answer on each instance drawn from the prior; the worst (largest budget
    needed) and a quantile over the instances. The ``--bound`` selected bounds (``SELECTED``): their budget on each
    instance (a column each, marked ★; JSON ``per_instance[i]["selected"]`` and ``["selected_status"]``) and, over
    the instances, the largest, the quantile and the median (JSON ``selected``); None where a bound gives no budget
    on an instance (not applicable, not met)."""
    from ..budget import solve

    prior, insts, q, seed = pri
    selected = tuple(SELECTED)
    rows, sel_rows = [], {}
    T = Ts[-1]
    for inst in common.track(insts, "instances", enabled=not json_out):
        plan = solve(setting, T, target, un, overrides={**overrides, **inst.context_overrides()}, delta=d_priv)
        rows.append({"index": inst.source.get("index"), "instance": inst.describe(), "value": plan.value,
                     "value_id": plan.value_id, "lower_limit": plan.lower_limit})
        if selected:
            got = {b: plan.row(b) for b in selected}
            sel_rows.update(got)
            rows[-1]["selected"] = {b: got[b].user_budget for b in selected}
            rows[-1]["selected_status"] = {b: got[b].status for b in selected}
    summ = instance_options.quantile_summary([r["value"] for r in rows], q)
    sel = [{"id": b, "kind": sel_rows[b].kind, "algorithm": sel_rows[b].algorithm,
            "summary": instance_options.quantile_summary([r["selected"][b] for r in rows], q)} for b in selected]
    if json_out:
        common.emit_json("budget", {"setting": setting, "T": Ts, "notion": {"name": un.name, "alpha": un.alpha,
                                                                            "delta": un.delta},
                                    "target": {"kind": target.kind, "value": target.value}, "delta": d_priv},
                         value=summ["worst"], value_label=(f"largest recommended {un.name} budget at T = {T:g} over "
                         f"{len(insts)} instances of {prior.describe()}: it meets the target by the bounds on every "
                         "drawn instance (None if one has no answer)"),
                         prior=prior.to_dict(), prior_seed=seed, prior_summary=summ, instance=None,
                         instances=[i.to_dict() for i in insts], per_instance=rows, by="bound",
                         **({"selected": sel} if selected else {}))
        return
    from rich import box
    from rich.table import Table

    sym = un.symbol
    t = Table(title=f"Privacy budget for {target.describe()} over {len(insts)} instances of {prior.describe()} — "
                    f"T = {common.fmt(T)}", caption=f"user notion: {un.describe()}; prior seed {seed}; bound-based "
                    "answers", box=box.SIMPLE_HEAD, header_style="bold", caption_justify="left")
    for c in ("#", "instance", f"recommended {sym}", "bound"):
        t.add_column(c, justify="right" if c == "#" or c.startswith("rec") else "left",
                     no_wrap=bool(selected) and (c == "#" or c.startswith("rec")))
    for b in selected:
        t.add_column(f"★ {b}", justify="right", no_wrap=True)

    def cell(r, b) -> str:
        v, st = r["selected"][b], r["selected_status"][b]
        if st == "any budget":
            return ANY_BUDGET_TEXT
        return common.fmt(v, 4) if v is not None else st

    for r in rows:
        t.add_row(str(r["index"]), r["instance"], common.fmt(r["value"], 4) if r["value"] is not None else "none",
                  r["value_id"] or "—", *[cell(r, b) for b in selected])
    con = common.console()
    if selected:  # numbers never cut: the recommendation's id, then the last selected columns (the ★ lines below)
        common.fit_columns(con, t, ("bound", *[f"★ {b}" for b in reversed(selected[1:])]), floors={"instance": 16})
    con.print(t)
    w = "none (an instance has no answer)" if summ["worst"] is None else f"{sym} = {common.fmt(summ['worst'], 5)}"
    con.print(f"[bold]Worst instance[/bold]: {w}; {100 * q:g}% quantile over the instances: "
              f"{common.fmt(summ['at_quantile'], 4) if summ['at_quantile'] is not None else '—'}.")
    for x in sel:
        sm, na = x["summary"], x["summary"]["without_answer"]
        upper = x["kind"].startswith("upper")
        who = f"{x['algorithm']}'s upper bound" if upper and x["algorithm"] else f"{x['kind']} bound"
        if na == len(rows):
            con.print(f"[bold]★ {x['id']}[/bold] ({who}): no budget on any instance.")
            continue
        word = "meets the target from" if upper else "no algorithm meets the target below"
        con.print(f"[bold]★ {x['id']}[/bold] ({who}): {word} {sym} = {common.fmt(sm['worst_with_answer'], 5)} on the "
                  f"instance where it is largest; {100 * q:g}% quantile {common.fmt(sm['at_quantile'], 4)}; median "
                  f"{common.fmt(sm['median'], 4)}" + (f" (no budget on {na} of {len(rows)})" if na else "") + ".")


def _render_check(c):
    con = common.console()
    if c.status != "simulated":
        con.print(f"[bold]--check[/bold]: {c.status}")
        return
    pct = lambda x: f"{100 * x:.3g}%"  # noqa: E731
    o = c.overhead
    con.print(f"[bold]--check[/bold] {c.algorithm} ({c.bound_id}) at T = {common.fmt(c.T)}, {c.runs} runs, seed "
              f"{c.seed}: regret {common.fmt(c.regret['mean'])} [{common.fmt(c.regret['ci'][0])}, "
              f"{common.fmt(c.regret['ci'][1])}] at the budget, {common.fmt(c.regret_limit['mean'])} at the non-private "
              f"limit; measured overhead {pct(o['value'])} [{pct(o['ci'][0])}, {pct(o['ci'][1])}] (95%)")
    con.print(f"    the bound promised regret ≤ {common.fmt(c.promised_regret)} ({c.verdict_regret}) and its own "
              f"overhead {pct(c.promised_overhead)} ({c.verdict_overhead}); {c.note}")
    if c.assumptions_note:
        con.print(f"    [dim]assumptions {'met' if c.assumptions_met else 'NOT met'}: {c.assumptions_note}[/dim]")
