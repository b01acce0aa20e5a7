"""`boundcalc regret` (every applicable bound at T) and `boundcalc bounds` (the registry)."""

from __future__ import annotations

from typing import Annotated, List, Optional

import typer

from . import common
from .common import command


def _parse_params(items: list[str] | None) -> dict:
    from .. import validate
    from ..errors import InputError

    out = {}
    for it in items or []:
        if "=" not in it:
            raise InputError("--param", "of the form name=value", it)
        k, v = it.split("=", 1)
        k = k.strip().replace("-", "_")
        if not k:
            raise InputError("--param", "of the form name=value", it)
        v = v.strip()
        try:
            float(v)
        except ValueError:
            out[k] = v  # a named choice, e.g. context=gaussian; the setting's derive() validates it
        else:
            out[k] = validate.finite(f"--param {k}", v)
    return out


def _load_actions(path: str):
    import numpy as np

    from ..errors import InputError

    try:
        arr = np.load(path) if path.endswith(".npy") else np.loadtxt(path, delimiter=",", ndmin=2)
    except (OSError, ValueError) as exc:
        raise InputError("--actions", "a readable CSV or .npy file of a K×d action matrix", f"{path}: {exc}") from None
    arr = np.atleast_2d(np.asarray(arr, dtype=float))
    if arr.size == 0:
        raise InputError("--actions", "a non-empty K×d action matrix", path)
    if not np.isfinite(arr).all():
        raise InputError("--actions", "finite numbers only", path)
    return arr


def trivial_regret_per_step(setting: str, ctx):
    """Largest possible regret per round on the instance (an upper bound above T·this says nothing), or None."""
    import numpy as np

    if setting == "finite":
        return float(ctx["Delta_max"])
    if setting == "linear":
        return float(np.max(ctx["gaps"]))
    if setting == "contextual" and ctx.get("L") is not None and ctx.get("S") is not None:
        return 2.0 * float(ctx["L"]) * float(ctx["S"])  # |<x, θ>| <= L S for ||x|| <= L, ||θ|| <= S
    return None


def rows_for(setting: str, budget, T, overrides: dict):
    """Evaluate every registered bound of ``setting`` at horizons T for the user's budget (pure function)."""
    import numpy as np

    from ..bounds import registry

    ctx = registry.make_context(setting, overrides, budget)
    ctx.params["T"] = float(np.max(T))  # horizon-dependent conditions (burn-ins) are checked at the largest T
    rows = []
    for b in registry.select(setting=setting):
        row = b.metadata()
        row.update(applicable=True, reason="", conversion="", regime="", regime_note=b.regime_note)
        if b.notion == "none":
            own = None
            row["conversion"] = "non-private"
        else:
            own, conv = ctx.budget_for(b)
            row["conversion"] = conv
            if own is None:
                row.update(applicable=False, reason=conv)
        if row["applicable"]:
            why = b.conditions(ctx)
            if why:
                row.update(applicable=False, reason="; ".join(why))
        if row["applicable"]:
            val = b.evaluate(T, ctx, own)
            row["budget_used"] = own.as_dict() if own is not None else None
            row["values"] = [
                {"T": float(t), "value": float(v), "nonprivate": float(n), "privacy_cost": float(p)}
                for t, v, n, p in zip(val.T, val.value, val.nonprivate, val.privacy_cost)
            ]
            last = row["values"][-1]
            row.update(value=last["value"], nonprivate=last["nonprivate"], privacy_cost=last["privacy_cost"])
            per_step = trivial_regret_per_step(setting, ctx)
            row["trivial_bound"] = None if per_step is None else per_step * last["T"]
            row["informative"] = not (b.is_upper and per_step is not None and last["value"] >= per_step * last["T"])
            if b.notion == "none":
                row["regime"] = "non-private"
            elif bool(b.privacy_dominates(val.T[-1:], ctx, own)[-1]):
                row["regime"] = "privacy matters (the privacy term dominates)"
            else:
                row["regime"] = "privacy is lower order (the non-private term dominates)"
        else:
            row.update(value=None, nonprivate=None, privacy_cost=None, values=[])
        rows.append(row)
    return ctx, rows


def _render_rows(ctx, rows, T, budget):
    from rich.table import Table

    con = common.console()
    title = f"Regret bounds — {rows[0]['setting'] if rows else ''} — T = {common.fmt(T[-1])}"
    cap = f"instance: {ctx.instance_name}; budget: {budget.describe() if budget else 'none (non-private)'}"
    t = Table(title=title, caption=cap, header_style="bold", show_lines=False)
    for col, kw in (("id", {"style": "cyan", "no_wrap": True}), ("algorithm", {"no_wrap": True}),
                    ("kind", {"no_wrap": True}), ("form", {"no_wrap": True}),
                    ("value", {"justify": "right", "no_wrap": True}), ("non-private", {"justify": "right", "no_wrap": True}),
                    ("privacy cost", {"justify": "right", "no_wrap": True}), ("regime", {})):
        t.add_column(col, **kw)
    for r in rows:
        if r["applicable"]:
            regime = r["regime"].split(" (")[0] + ("" if r.get("informative", True) else "; uninformative ≥ T·max gap")
            t.add_row(r["id"], r["algorithm"] or "(any)", r["kind"], r["form"], common.fmt(r["value"]),
                      common.fmt(r["nonprivate"]), common.fmt(r["privacy_cost"]), regime)
    con.print(t)
    checked = [r for r in rows if "empirical" in r]
    if checked:
        ct = Table(title=f"Bounds against simulation at T = {common.fmt(T[-1])}", header_style="bold")
        for col in ("id", "algorithm", "bound", "empirical mean", "95% interval", "verdict"):
            ct.add_column(col, style="cyan" if col == "id" else None, no_wrap=col != "verdict",
                          justify="right" if col in ("bound", "empirical mean") else "left")
        for r in checked:
            e = r["empirical"]
            if "mean" in e:
                ct.add_row(r["id"], r["algorithm"], common.fmt(r["value"]), common.fmt(e["mean"]),
                           f"[{common.fmt(e['ci'][0])}, {common.fmt(e['ci'][1])}]", e["verdict"])
            else:
                ct.add_row(r["id"], r["algorithm"], common.fmt(r["value"]), "—", "—", e["status"])
        con.print(ct)
    if len(T) > 1:
        tt = Table(title="Value against T", header_style="bold")
        tt.add_column("id", style="cyan", no_wrap=True)
        for x in T:
            tt.add_column(f"T={common.fmt(x, 3)}", justify="right")
        for r in rows:
            if r["applicable"]:
                tt.add_row(r["id"], *[common.fmt(v["value"]) for v in r["values"]])
        con.print(tt)
    for r in rows:
        if r["applicable"]:
            extra = f" — {r['regime_note']}" if r["regime_note"] else ""
            conv = "" if r["conversion"] in ("same notion", "non-private") else f" [via: {r['conversion']}]"
            con.print(f"[cyan]{r['id']}[/cyan] ({r['source']}): {r['regime']}{extra}{conv}")
            for c in r["caveats"]:
                con.print(f"    [yellow]caveat[/yellow] {c}")
    na = [r for r in rows if not r["applicable"]]
    if na:
        con.print("[bold]Not applicable:[/bold]")
        for r in na:
            con.print(f"  [dim]{r['id']}[/dim] ({r['source']}): {r['reason']}")


def _plot(path, rows, setting, budget):
    """Bounds against T on log axes: upper bounds solid, lower bounds dashed, one distinct colour each."""
    import numpy as np

    plt = common.pyplot()
    shown = [r for r in rows if r["applicable"]]
    colours = plt.cm.tab20(np.linspace(0, 1, max(len(shown), 1), endpoint=False))
    fig, ax = plt.subplots(figsize=(10, 5.5))
    for r, c in zip(shown, colours):
        ts = np.array([v["T"] for v in r["values"]])
        vs = np.array([v["value"] for v in r["values"]])
        style = "-" if r["kind"].startswith("upper") else "--"
        ax.plot(ts, vs, style, color=c, label=f"{r['id']} ({r['form']})")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("T")
    ax.set_ylabel("regret bound")
    ax.set_title(f"boundcalc regret — {setting} — {budget.describe() if budget else 'non-private'}")
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    common.save_figure(fig, path)


def register(app: typer.Typer) -> None:
    @app.command("regret")
    @command
    def regret(
        setting: Annotated[str, typer.Option("--setting", help="finite | linear | contextual | glm")],
        T: Annotated[str, typer.Option("--T", help="Horizon(s), e.g. 1e6 or 1e4,1e5,1e6.")] = "1e6",
        epsilon: common.EpsilonOpt = None,
        rho: common.RhoOpt = None,
        alpha: common.AlphaOpt = None,
        rdp_epsilon: common.RdpEpsilonOpt = None,
        delta: common.DeltaOpt = None,
        ldp_epsilon: common.LdpEpsilonOpt = None,
        ldp_delta: common.LdpDeltaOpt = None,
        means: Annotated[Optional[str], typer.Option("--means", help="Arm means, e.g. 0.75,0.5 (finite).")] = None,
        K: Annotated[Optional[str], typer.Option("--K", help="Number of arms/actions.")] = None,
        d: Annotated[Optional[str], typer.Option("--d", help="Dimension.")] = None,
        actions: Annotated[Optional[str], typer.Option("--actions", help="Action set: CSV or .npy, K×d.")] = None,
        theta: Annotated[Optional[str], typer.Option("--theta", help="Parameter θ, comma-separated.")] = None,
        confidence: Annotated[Optional[float], typer.Option("--confidence", help="Confidence level δ of high-probability bounds, in (0,1).")] = None,
        lambda0: Annotated[Optional[float], typer.Option("--lambda0", help="Minimum eigenvalue λ0 of the context covariance.")] = None,
        param: Annotated[Optional[List[str]], typer.Option("--param", help="Algorithm/instance parameter name=value (repeatable).")] = None,
        symbolic: common.SymbolicOpt = False,
        plot: common.PlotOpt = None,
        check: Annotated[bool, typer.Option("--check", help="Add the empirical regret of each algorithm (Monte Carlo).")] = False,
        runs: Annotated[str, typer.Option("--runs", help="Monte Carlo runs for --check.")] = "100",
        seed: Annotated[int, typer.Option("--seed", help="Seed for --check.")] = 0,
        json_out: common.JsonOpt = False,
    ):
        """Every regret bound that applies to a setting, budget and horizon."""
        from .. import validate
        from ..errors import InputError

        common.check_plot_path(plot)
        settings = ("finite", "linear", "contextual", "glm")
        if setting not in settings:
            raise InputError("--setting", "one of " + ", ".join(settings), setting)
        Ts = validate.horizons("--T", T)
        budget = common.budget_from_options(epsilon, rho, alpha, rdp_epsilon, delta, ldp_epsilon, ldp_delta)
        overrides = dict(_parse_params(param))
        if means is not None:
            overrides["means"] = validate.means("--means", means)
        if K is not None:
            overrides["K"] = validate.count("--K", K)
        if d is not None:
            overrides["d"] = validate.count("--d", d)
        if actions is not None:
            overrides["actions"] = _load_actions(actions)
        if theta is not None:
            overrides["theta"] = validate.float_list("--theta", theta)
        if confidence is not None:
            overrides["delta"] = validate.open_unit("--confidence", confidence)
        if lambda0 is not None:
            overrides["lambda0"] = validate.positive("--lambda0", lambda0)
        import numpy as np

        Tarr = np.array(Ts, dtype=float)
        ctx, rows = rows_for(setting, budget, Tarr, overrides)
        if check:
            from ..verify.regret_check import check_rows

            check_rows(setting, ctx, rows, budget, int(Ts[-1]), validate.count("--runs", runs, minimum=2), seed,
                       progress=not json_out)
        if plot:
            plotT = Tarr if len(Tarr) > 2 else np.logspace(2, np.log10(max(Tarr[-1], 1e3)), 30)
            _, prow = rows_for(setting, budget, plotT, overrides) if len(Tarr) <= 2 else (ctx, rows)
            _plot(plot, prow, setting, budget)
        if json_out:
            best = min((r for r in rows if r["applicable"] and r["kind"] in ("upper-problem-dependent", "upper-minimax")
                        and r["form"] != "paper" and r.get("informative", True)),
                       key=lambda r: r["value"], default=None)
            common.emit_json(
                "regret",
                {"setting": setting, "T": Ts, "budget": common.budget_inputs(budget), "instance": ctx.instance_name,
                 "overrides": overrides},
                value=None if best is None else best["value"],
                value_label="smallest applicable finite-T upper bound at the largest T with explicit constants "
                            "(paper forms with O-constants set to 1, asymptotic bounds and bounds above the "
                            "trivial T·max-gap excluded)",
                value_id=None if best is None else best["id"],
                bounds=rows,
            )
            return
        _render_rows(ctx, rows, Tarr, budget)
        if symbolic:
            from ..bounds import registry

            pairs = []
            for r in rows:
                b = registry.get(r["id"])
                npx, pvx = b.expression()
                pairs.append((f"{b.id}  ({b.source}) — total = non-private + privacy cost", npx + pvx))
            common.print_symbolic(pairs)
        if plot:
            common.console().print(f"plot written to {plot}")

    bounds_app = typer.Typer(help="List the bound registry, or show one bound.", no_args_is_help=False)

    @bounds_app.callback(invoke_without_command=True)
    @command
    def bounds_list(
        ctx: typer.Context,
        setting: Annotated[Optional[str], typer.Option("--setting", help="finite | linear | contextual | glm")] = None,
        notion: Annotated[Optional[str], typer.Option("--notion", help="none | pure | zcdp | rdp | approx | ldp")] = None,
        kind: Annotated[Optional[str], typer.Option("--kind", help="upper | lower | upper-minimax | …")] = None,
        json_out: common.JsonOpt = False,
    ):
        """List the registered bounds (filter by setting, notion, kind)."""
        if ctx.invoked_subcommand is not None:
            return
        from rich.table import Table

        from ..bounds import registry
        from ..bounds.base import NOTIONS
        from ..errors import InputError

        if notion is not None and notion not in NOTIONS:
            raise InputError("--notion", "one of " + ", ".join(NOTIONS), notion)
        if kind is not None and not any(k.startswith(kind) for k in ("upper-problem-dependent", "upper-minimax", "upper-asymptotic", "lower-problem-dependent", "lower-minimax", "lower-asymptotic")):
            raise InputError("--kind", "upper, lower or a full kind such as upper-minimax", kind)
        bs = registry.select(setting, notion, kind)
        if json_out:
            common.emit_json("bounds", {"setting": setting, "notion": notion, "kind": kind}, value=len(bs),
                             bounds=[b.metadata() for b in bs])
            return
        t = Table(title=f"boundcalc bound registry ({len(bs)} bounds)", header_style="bold")
        for c in ("id", "algorithm", "setting", "notion", "kind", "form", "source"):
            t.add_column(c, style="cyan" if c == "id" else None, no_wrap=c == "id")
        for b in bs:
            t.add_row(b.id, b.algorithm or "(any)", b.setting, b.notion, b.kind, b.form, b.source)
        common.console().print(t)

    @bounds_app.command("show")
    @command
    def bounds_show(
        bound_id: Annotated[str, typer.Argument(metavar="ID", help="Bound id, see 'boundcalc bounds'.")],
        json_out: common.JsonOpt = False,
    ):
        """Formula, assumptions, source, form and caveats of one bound."""
        import sympy

        from ..bounds import registry
        from ..bounds.base import FORM_LABELS

        b = registry.get(bound_id)
        npx, pvx = b.expression()
        if json_out:
            common.emit_json("bounds show", {"id": bound_id}, value=None, bound=b.metadata(),
                             formula={"nonprivate": str(npx), "privacy_cost": str(pvx),
                                      "latex": sympy.latex(npx + pvx)}, regime_note=b.regime_note)
            return
        con = common.console()
        con.print(f"[bold cyan]{b.id}[/bold cyan] — {b.title}")
        con.print(f"source: {b.source}   setting: {b.setting}   notion: {b.notion}   kind: {b.kind}")
        con.print(f"form: {b.form} — {FORM_LABELS.get(b.form, '')}")
        con.print(f"algorithm: {b.algorithm or '(every algorithm of the class)'}")
        con.print(f"parameters: {', '.join(b.params) or '—'}")
        for a in b.assumptions:
            con.print(f"  assumption: {a}")
        if b.regime_note:
            con.print(f"regime: {b.regime_note}")
        for c in b.caveats:
            con.print(f"  [yellow]caveat[/yellow]: {c}")
        common.print_symbolic([("non-private part", npx), ("privacy cost", pvx), ("total", npx + pvx)])

    app.add_typer(bounds_app, name="bounds")
