"""`boundcalc regret`: every applicable bound at T (a thin renderer of boundcalc.bounds.report)."""

from __future__ import annotations

import typer

from .. import textformat
from . import common, instance_options, options, plot_options, plugin_options, problem
from .common import command

SETTINGS = ("finite", "linear", "contextual", "glm")
# options of `regret` that describe the instance, with the text used when a setting has no such parameter
INSTANCE_OPTIONS = ("--means", "--K", "--d", "--actions", "--theta", "--confidence", "--lambda0")


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

    from .. import validate
    from ..errors import InputError

    validate.input_file("--actions", path, "actions", "CSV or .npy file")
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


def _instance_options(setting, means, K, d, actions, theta, confidence, lambda0):
    """Validate every instance option (whatever the setting) and map it to the setting's parameter.

    Returns (overrides for the registry, {option: key or None}, {option: validated value}); an option whose key
    is None has no such parameter in this setting (it is validated and then reported as without effect)."""
    from .. import validate
    from ..bounds import registry

    mod = registry.setting_module(setting)
    keys, limits = getattr(mod, "OPTION_KEYS", {}), getattr(mod, "LIMITS", {})
    vals = {}
    if means is not None:
        vals["--means"] = validate.means("--means", means)
        if len(vals["--means"]) < 2:  # as every other command (issue 22 §4: one arm was accepted, no bound applied)
            from ..errors import InputError as _IE

            raise _IE("--means", "a list of at least 2 arm means", means)
    if K is not None:
        kmin = 2 if setting in ("finite", "glm") else 1
        vals["--K"] = validate.count("--K", K, minimum=kmin, maximum=limits.get("K", 10**6))
    if d is not None:
        vals["--d"] = validate.count("--d", d, maximum=limits.get("d", 1000))
    if "--K" in vals and "--d" in vals and "Kd" in limits and vals["--K"] * vals["--d"] > limits["Kd"]:
        from ..errors import InputError

        raise InputError("--K", f"an integer with K·d ≤ {limits['Kd']:g} (the K×d action matrix must fit in memory; "
                         f"d = {vals['--d']})", K)
    if actions is not None:
        vals["--actions"] = _load_actions(actions)
    if theta is not None:
        vals["--theta"] = validate.float_list("--theta", theta)
    from ..errors import InputError

    if "--K" in vals and "--means" in vals and setting == "finite" and vals["--K"] != len(vals["--means"]):
        raise InputError("--K", f"equal to the number of --means values ({len(vals['--means'])}), or left out", K)
    if "--actions" in vals and setting in ("linear", "contextual"):
        shape = vals["--actions"].shape
        for opt, n, what in (("--K", shape[0], "rows"), ("--d", shape[1], "columns")):
            if opt in vals and vals[opt] != n:
                raise InputError(opt, f"equal to the number of {what} of --actions ({n}), or left out",
                                 K if opt == "--K" else d)
    if confidence is not None:
        vals["--confidence"] = validate.open_unit("--confidence", confidence)
    if lambda0 is not None:
        vals["--lambda0"] = validate.positive("--lambda0", lambda0)
    overrides, given = {}, {}
    for opt, val in vals.items():
        key = keys.get(opt[2:])  # OPTION_KEYS is keyed by the option's parameter (its flag less "--")
        given[opt] = key
        if key is not None:
            overrides[key] = val
    return overrides, given, vals


def _fmt_pct(x):
    import math

    if x is None:
        return "—"
    if math.isinf(x):
        return "∞"
    if x == 0:
        return "0%"
    if x < 0.1:
        return "<0.1%"
    if x < 999.5:
        return f"{x:.3g}%"
    if x < 1e5:
        return f"{x:.0f}%"
    return f"{x:.2e}%".replace("e+0", "e").replace("e+", "e")


_KIND_SHORT = {"upper-problem-dependent": "upper, instance", "upper-minimax": "upper, minimax",
               "upper-asymptotic": "upper, asympt.", "lower-problem-dependent": "lower, instance",
               "lower-minimax": "lower, minimax", "lower-asymptotic": "lower, asympt."}


def _caption_values(vals: dict) -> str:
    from ..cli.common import fmt

    names = {"lam": "λ", "lam0": "λ0", "lam0_instance": "λ0 of the contexts", "delta": "δ", "theta_norm": "‖θ*‖",
             "max_action_norm": "max‖x‖", "mu_star": "μ*", "Delta_min": "Δmin", "Delta_max": "Δmax", "zeta": "ζ",
             "max_gap": "max gap", "kappa_l": "κ_l", "kappa_u": "κ_u", "p_star": "p_*", "sigma_r": "σ_r",
             "gamma": "γ", "beta": "β", "p_prime": "p'", "h_sub": "h_sub"}
    parts = []
    for k, v in vals.items():
        if isinstance(v, list):
            if len(v) > 10:
                continue
            v = "(" + ", ".join(fmt(x, 4) for x in v) + ")"
        elif not isinstance(v, str):
            v = fmt(v, 4)
        parts.append(f"{names.get(k, k)} = {v}")
    return ", ".join(parts)


_WEAK_TAGS = ("not a valid bound", "statement violated", "proof gap", "typo", "UNCERTAIN")


def plugin_origin(row: dict) -> str | None:
    """The file (or entry point) a user's bound came from; None for a built-in bound."""
    if row.get("plugin"):
        return str(row["plugin"])
    from ..bounds import registry

    for b in registry.plugin_bounds():
        if b.id == row["id"]:
            return str(getattr(b, "origin", "") or "plugin")
    return None


def algorithm_label(row: dict) -> str:
    """The algorithm cell: "(any algorithm)" for a lower bound; a user's bound without an algorithm of its own
    (DeclaredBound names it "ID (declared algorithm)") is labelled by its plugin, not by its id a second time."""
    alg = row.get("algorithm")
    if alg is None:
        return "(any algorithm)"
    if plugin_origin(row) is not None and alg == f"{row['id']} (declared algorithm)":
        return "(plugin)"
    return alg


def _is_comparison(row: dict) -> bool:
    from ..bounds import registry

    try:
        return bool(getattr(registry.get(row["id"]), "comparison", False))
    except Exception:  # noqa: BLE001 - an id the registry no longer has (a test's plugin): not a comparison
        return False


def _best_upper(rows: list[dict]) -> dict:
    """The row a headline would take among ``rows`` (explicit constants, not vacuous, not invalid), else the smallest."""
    from ..bounds.report import HEADLINE_FORMS

    def key(r):
        ok = r["form"] in HEADLINE_FORMS and not r.get("invalid") and not r.get("vacuous")
        v = r["value"] if r["value"] is not None else float("inf")
        return (not ok, v)

    return min(rows, key=key)


def shown_rows(rows: list[dict], headline_id: str | None, selected=(), show_all: bool = False) -> list[dict]:
    """The applicable rows the default table shows, in display order: the headline's algorithm (every form), one
    row per other algorithm of the papers (the bound a headline would take), the largest lower bound of each kind,
    every user's bound (plugin) and every ``--bound`` selected. ``show_all``: every applicable row. The order: upper
    bounds (the headline's algorithm first, then private, then non-private), then lower bounds; the comparison
    bounds of other papers (``Bound.comparison``) after the papers' own within each group."""
    app = [r for r in rows if r["applicable"]]
    head = next((r for r in app if r["id"] == headline_id), None)
    head_alg = head["algorithm"] if head is not None else None
    keep = {r["id"] for r in app if r["id"] in selected or plugin_origin(r) is not None}
    if head is not None:
        keep.update(r["id"] for r in app if r["algorithm"] == head_alg)
    by_alg: dict[str, list[dict]] = {}
    by_kind: dict[str, list[dict]] = {}
    for r in app:
        if r["kind"].startswith("upper"):
            if not _is_comparison(r):
                by_alg.setdefault(r["algorithm"], []).append(r)
        else:
            by_kind.setdefault(r["kind"], []).append(r)
    keep.update(_best_upper(rs)["id"] for rs in by_alg.values())
    for rs in by_kind.values():
        weak = lambda r: sum(t in _WEAK_TAGS for t in r["tags"])  # noqa: E731 - ties: the better-founded bound
        keep.add(max(rs, key=lambda r: (r["form"] != "paper", (r["value"] if r["value"] is not None else -1.0),
                                        -weak(r)))["id"])
    out = [r for r in app if show_all or r["id"] in keep]

    def order(r):
        upper = r["kind"].startswith("upper")
        return (not upper, not (upper and r["algorithm"] == head_alg), r["notion"] == "none", _is_comparison(r))

    return sorted(out, key=order)  # stable: the registry's order within each group


def _render(rep, budget, explain: bool, check_info: dict | None, show_all: bool = False, selected=(),
            instance_line: str | None = None):
    from rich import box
    from rich.table import Table

    con = common.console()
    rows, T = rep.rows, rep.T
    title = f"Regret bounds — {rep.setting} — T = {common.fmt(T[-1])}"
    cap = (f"instance: {common.esc(instance_line or rep.ctx.instance_name)}\nvalues used: {_caption_values(rep.instance_values)}\n"
           f"budget: {budget.describe() if budget else 'none (non-private)'}; trivial bound {rep.trivial.label} = "
           f"{common.fmt(rep.trivial.per_step * T[-1])}")
    shown = shown_rows(rows, rep.headline.bound_id, selected, show_all or explain)
    t = Table(title=title, caption=cap, header_style="bold", show_lines=False, caption_justify="left",
              box=box.SIMPLE_HEAD, pad_edge=False)
    for col, kw in (("id", {"no_wrap": True}), ("algorithm", {"no_wrap": True}), ("kind", {"no_wrap": True}),
                    ("form", {"no_wrap": True}), ("value", {"justify": "right", "no_wrap": True}),
                    ("privacy cost", {"justify": "right", "no_wrap": True}),
                    ("overhead", {"justify": "right", "no_wrap": True}), ("regime", {"no_wrap": True}),
                    ("caveats", {"ratio": 1})):
        t.add_column(col, **kw)
    for r in shown:
        tags = [x for x in r["tags"] if x != "vacuous at this T"]
        if plugin_origin(r) is not None:
            tags.insert(0, "your bound (plugin)")
        if r.get("vacuous"):
            tags.insert(0, "[red]vacuous at this T[/red]")
        mark = "★ " if r["id"] in selected else ""
        t.add_row(f"[bold cyan]{mark}{r['id']}[/bold cyan]" if mark else f"[cyan]{r['id']}[/cyan]",
                  algorithm_label(r), _KIND_SHORT.get(r["kind"], r["kind"]), r["form"], common.fmt(r["value"]),
                  common.fmt(r["privacy_cost"]), _fmt_pct(r["overhead_pct"]), r["regime"], ", ".join(tags) or "—")
    common.fit_columns(con, t, ("privacy cost", "regime", "kind"), floors={"caveats": 24})
    con.print(t)
    checked = [r for r in rows if "empirical" in r]
    if checked:
        ct = Table(title=f"Bounds against simulation at T = {common.fmt(T[-1])}", header_style="bold")
        for col in ("id", "algorithm", "bound", "empirical mean", "95% interval", "median · p90 · p99", "verdict"):
            ct.add_column(col, style="cyan" if col == "id" else None,
                          no_wrap=col in ("id", "bound", "empirical mean"),
                          justify="right" if col in ("bound", "empirical mean") else "left")
        for r in checked:
            e = r["empirical"]
            if "mean" in e:
                v = e["verdict"]
                if not explain and v.startswith("outside"):
                    v = "outside the assumptions (see --explain)"
                elif not explain and v.startswith("vacuous"):
                    v = "vacuous at this T (bound ≥ trivial bound)"
                dist = e.get("distribution")
                dtxt = "—" if not dist else " · ".join(common.fmt(dist[k], 4) for k in ("median", "p90", "p99"))
                ct.add_row(r["id"], algorithm_label(r), common.fmt(r["value"]), common.fmt(e["mean"]),
                           f"[{common.fmt(e['ci'][0])}, {common.fmt(e['ci'][1])}]", dtxt, v)
            else:
                ct.add_row(r["id"], algorithm_label(r), common.fmt(r["value"]), "—", "—", "—", e["status"])
        common.fit_columns(con, ct, ("median · p90 · p99", "algorithm"), floors={"verdict": 22})
        con.print(ct)
    if len(T) > 1:
        _render_against_T(con, shown, T, rep.headline.bound_id, selected)
    if explain:
        for r in rows:
            if r["applicable"]:
                extra = f" — {r['regime_note']}" if r["regime_note"] else ""
                conv = "" if r["conversion"] in ("same notion", "non-private") else f" [via: {r['conversion']}]"
                origin = plugin_origin(r)
                src = common.esc(r["source"] + (f"; your bound, plugin {origin}" if origin is not None else ""))
                con.print(f"[cyan]{common.esc(r['id'])}[/cyan] ({src}): overhead {_fmt_pct(r['overhead_pct'])}, "
                          f"{r['regime']}{extra}{conv}")
                if r.get("invalid"):
                    con.print(f"    [red]not a valid bound[/red] {r['invalid']}")
                for c in r["caveats"]:
                    con.print(f"    [yellow]caveat[/yellow] {common.esc(c)}")
                for v in r["values"]:
                    if not v["defined"] or v.get("reason"):
                        con.print(f"    [dim]T = {common.fmt(v['T'])}: {v['reason']}[/dim]")
                if "empirical" in r and r["empirical"].get("assumptions_note"):
                    e = r["empirical"]
                    con.print(f"    check: assumptions {'met' if e['assumptions_met'] else 'NOT met'}: "
                              f"{e['assumptions_note']}")
    na = [r for r in rows if not r["applicable"]]
    hidden = sum(r["applicable"] for r in rows) - len(shown)
    if na and explain:
        con.print("[bold]Not applicable:[/bold]")
        for r in na:
            con.print(f"  [dim]{r['id']}[/dim] ({r['source']}): {r['reason']}")
    elif na or hidden:
        parts = ([f"{hidden} more applicable bound{'s' if hidden != 1 else ''} (other forms, other papers' bounds, "
                  f"weaker lower bounds: --all)"] if hidden else [])
        if na:
            parts.append(f"{len(na)} not applicable here")
        con.print(f"[dim]Not shown: {' and '.join(parts)}; --explain gives the reasons and every caveat's full "
                  "text.[/dim]")
    for n in rep.notes:
        con.print(f"[yellow]note[/yellow]: {n}")
    if check_info:
        con.print(f"[dim]{_check_cost_line(check_info, rep.setting)}[/dim]")
    h = rep.headline
    if h.value is None:
        con.print(f"[bold]Headline[/bold]: none — {h.reason}.")
    else:
        r = next(x for x in rows if x["id"] == h.bound_id)
        con.print(f"[bold]Headline[/bold]: regret ≤ [bold]{common.fmt(h.value)}[/bold] at T = {common.fmt(h.T)}"
                  f"{headline_probability(h)} — {h.bound_id} ({_headline_who(r)}), the smallest applicable "
                  f"{'private ' if budget is not None else ''}upper bound with explicit constants below the trivial "
                  f"bound {common.fmt(rep.trivial.per_step * h.T)}.")
    for bid in selected:
        r = next(x for x in rows if x["id"] == bid)
        if not r["applicable"]:
            con.print(f"[bold]★ {bid}[/bold] ({_headline_who(r)}): not applicable here — {r['reason']}")
            continue
        word = "regret ≤" if r["kind"].startswith("upper") else "regret ≥"
        con.print(f"[bold]★ {bid}[/bold] ({_headline_who(r)}): {word} {common.fmt(r['value'])} at T = "
                  f"{common.fmt(T[-1])}" + (f", {r['regime']}" if r["regime"] else ""))


def _headline_who(r: dict) -> str:
    """"AdaC-GOPE, explicit" for a paper's bound; "your bound from plugin FILE, explicit" for a plugin without an
    algorithm of its own (its id is not repeated); "plugin FILE, ALG, explicit" for a plugin naming its algorithm."""
    origin = plugin_origin(r)
    lab = algorithm_label(r)
    if origin is None:
        return f"{lab}, {r['form']}"
    if lab == "(plugin)":
        return f"your bound from plugin {origin}, {r['form']}"
    return f"your bound for {lab} from plugin {origin}, {r['form']}"


def _render_against_T(con, shown, T, headline_id, selected) -> None:
    """Value against T of the shown bounds: one column per T for a few horizons; one row per T for a range (columns:
    the headline, the selected bounds, then the others while they fit the width)."""
    from rich.table import Table

    def cell(v):
        if not v["defined"]:
            return "not defined"
        return common.fmt(v["value"]) + (" (vacuous)" if v.get("vacuous") else "")

    rows = [r for r in shown if r["values"]]
    if len(T) <= 6:
        tt = Table(title="Value against T", header_style="bold")
        tt.add_column("id", style="cyan", no_wrap=True)
        for x in T:
            tt.add_column(f"T={common.fmt(x, 3)}", justify="right", no_wrap=True)
        for r in rows:
            tt.add_row(r["id"], *[cell(v) for v in r["values"]])
        con.print(tt)
        return
    first = [r for r in rows if r["id"] == headline_id or r["id"] in selected]
    rows = first + [r for r in rows if r not in first]
    tt = Table(title="Value against T", header_style="bold")
    tt.add_column("T", justify="right", no_wrap=True)
    for r in rows:
        tt.add_column(r["id"], justify="right", no_wrap=True)
    for i, x in enumerate(T):
        tt.add_row(f"{x:g}", *[cell(r["values"][i]) for r in rows])
    dropped = common.fit_columns(con, tt, [r["id"] for r in reversed(rows[len(first):])])
    if dropped:
        tt.caption = f"{len(dropped)} more bounds do not fit this width (--json has every value)"
    con.print(tt)


def headline_probability(h) -> str:
    """", with probability ≥ 1 − δ (δ = …)" for a high-probability headline (bounds/report.headline_delta); "" for
    a bound on the expected regret."""
    if not getattr(h, "high_probability", False):
        return ""
    return ", with probability ≥ 1 − δ" + (f" (δ = {common.fmt(h.delta)})" if h.delta is not None else "")


def _check_cost_line(info: dict, setting: str) -> str:
    s, T, runs = info["seconds"], info["T"], info["runs"]
    if s <= 0:
        return f"--check: nothing simulated at T = {T:g}"
    per = s / max(T * runs, 1)
    bigger = [x for x in (1e5, 1e6, 1e7) if x > T][:2]
    est = ", ".join(f"T = {common.fmt(x, 2)}: ≈ {_dur(per * x * runs)}" for x in bigger)
    return (f"--check took {_dur(s)} at T = {common.fmt(T)} × {runs} runs; the time grows about linearly in T × runs"
            + (f" ({est})" if est else ""))


_dur = textformat.duration


def _budget_text(budget) -> str:
    return budget.describe() if budget is not None else ""


SELECTED_STYLE = {"lw": 3.2, "zorder": 5}  # a --bound selected line: thicker, drawn on top


def _plot(path, rows, setting, budget, instance: str = "", selected=()) -> None:
    """Bounds against T (boundcalc.figures): upper bounds solid, lower bounds dashed, one palette colour each; the
    ``--bound`` selected ones thicker, on top, marked ★ in the legend."""
    from .. import figures

    lines = []
    for r in rows:
        if not r["applicable"]:
            continue
        pts = [(v["T"], v["value"]) for v in r["values"] if v["defined"] and v["value"] is not None]
        if pts:
            ts, vs = zip(*pts)
            sel = r["id"] in selected
            lines.append(figures.Line(f"{'★ ' if sel else ''}{r['id']} ({r['form']})", ts, vs,
                                      kind="upper" if r["kind"].startswith("upper") else "lower",
                                      style=dict(SELECTED_STYLE) if sel else {}))
    fig = figures.lines_figure(lines, title_text=figures.title(f"Regret bounds, {setting} setting", instance,
                                                               _budget_text(budget)),
                               xlabel="T", ylabel="regret bound")
    figures.save(fig, path)


def _selected_line(line):
    """``line`` (a figures.Line) marked as ``_plot`` marks a ``--bound`` selected bound: ★ in the legend, thicker, on
    top."""
    line.label = f"★ {line.label}"
    line.style = {**line.style, **SELECTED_STYLE}
    return line


def _plot_check(path, rep, budget, T: int, runs: int, selected=(), overrides=None) -> bool:
    """``regret --check --plot``: one panel per simulated algorithm, its mean regret with the 95% interval against t
    and every bound form it was checked against (labelled with the verdict at T; dotted when the instance is
    outside the theorem's assumptions). The ``--bound`` selected bounds are marked as ``regret --plot`` marks them
    (★, thicker, on top); one that no panel checks (a lower bound, a bound of an algorithm not simulated, a user's
    bound) is drawn on every panel against its t. False when nothing was simulated (the caller draws the bounds
    instead)."""
    import numpy as np

    from .. import figures
    from ..bounds.report import rows_for
    from ..verify.overlay import check_panels

    panels = check_panels(rep.rows, rep.ctx)
    if not panels:
        return False
    checked = {b.bound_id for p in panels for b in p.bounds}
    extra = [b for b in selected if b not in checked]
    fig, axes = figures.panels(len(panels))
    for ax, p in zip(axes, panels):
        c = p.curve
        curve = figures.Curve(f"{p.algorithm}: mean regret and 95% interval", c["t"], c["mean"], c["ci_low"],
                              c["ci_high"])
        lines = [_selected_line(figures.bound_line(b)) if b.bound_id in selected else figures.bound_line(b)
                 for b in p.bounds]
        if extra:
            _, rows = rows_for(rep.setting, budget, np.asarray(c["t"], dtype=float), overrides)
            for r in rows:
                pts = [(v["T"], v["value"]) for v in r["values"] if v["defined"] and v["value"] is not None]
                if r["id"] in extra and r["applicable"] and pts:
                    ts, vs = zip(*pts)
                    lines.append(_selected_line(figures.Line(
                        f"{r['id']} ({r['form']})", ts, vs, kind="upper" if r["kind"].startswith("upper") else "lower",
                        style={"color": figures.LOWER_COLOUR} if not r["kind"].startswith("upper") else {})))
        figures.regret_figure([curve], lines, title_text=p.algorithm, ax=ax)
    fig.suptitle(figures.title("regret --check: simulation beside the bounds it checks", rep.ctx.instance_name,
                               _budget_text(budget), T, runs), fontsize=10)
    figures.save(fig, path)
    return True


def _budget_scalar(b) -> float:
    return float(b.rho) if b.notion == "zcdp" else float(b.epsilon)


def _render_sweep(reps, budgets, selected=(), show_all: bool = False):
    """One table: the bounds (rows) at every budget of the list (columns), at the largest T; headlines last. The rows
    are those the one-budget table shows at some budget of the list (``shown_rows``; ``--all``: every applicable
    one); a budget's cells wrap ("(w.p. ≥ 1 − δ)") so that no number or header is cut at any width."""
    from rich import box
    from rich.table import Table

    con = common.console()
    T = reps[0].T[-1]
    sym = {"zcdp": "ρ", "rdp": "ε (RDP)", "ldp": "local ε"}.get(budgets[0].notion, "ε")
    t = Table(title=f"Regret bounds against the budget — {reps[0].setting} — T = {common.fmt(T)}",
              caption=f"instance: {common.esc(reps[0].ctx.instance_name)}\nbudgets: "
                      + "; ".join(b.describe() for b in budgets) + "\ncell: bound value (privacy overhead); "
                      "— = not applicable at that budget", header_style="bold", box=box.SIMPLE_HEAD,
              caption_justify="left", pad_edge=False)
    t.add_column("id / algorithm", no_wrap=True)
    t.add_column("form", no_wrap=True)
    for b in budgets:
        t.add_column(f"{sym} = {common.fmt(_budget_scalar(b), 4)}", justify="right")
    t.add_column("caveats", ratio=1)
    shown = {r["id"] for rep in reps for r in shown_rows(rep.rows, rep.headline.bound_id, selected, show_all)}
    hidden = 0
    for i, r0 in enumerate(reps[0].rows):
        rows = [rep.rows[i] for rep in reps]
        if not any(r["applicable"] for r in rows):
            continue
        if r0["id"] not in shown:
            hidden += 1
            continue
        cells = []
        for r in rows:
            if not r["applicable"]:
                cells.append("—")
                continue
            pct = _fmt_pct(r["overhead_pct"])
            cells.append(common.fmt(r["value"]) + (f"\n({pct})" if r["notion"] != "none" else "")
                         + ("\n[red]vacuous[/red]" if r.get("vacuous") else ""))
        tags = sorted({x for r in rows for x in r["tags"] if x != "vacuous at this T"})
        idc = f"[bold cyan]★ {r0['id']}[/bold cyan]" if r0["id"] in selected else f"[cyan]{r0['id']}[/cyan]"
        t.add_row(f"{idc}\n[dim]{algorithm_label(r0)}[/dim]", r0["form"], *cells,
                  ", ".join(tags) or "—")
    t.add_row("[bold]headline[/bold]", "", *[common.fmt(rep.headline.value) + ("\n(w.p. ≥ 1 − δ)" if
                                            rep.headline.high_probability else "") if rep.headline.value is not None
                                            else "none" for rep in reps],
              headline_probability(next(r.headline for r in reps if r.headline.high_probability))[2:]
              if any(r.headline.high_probability for r in reps) else "")
    common.fit_columns(con, t, ("form", "caveats"), floors={"caveats": 16})  # numbers never cut
    con.print(t)
    if hidden:
        con.print(f"[dim]Not shown: {hidden} more bound{'s' if hidden != 1 else ''} applicable at some budget (other "
                  "forms, other papers' bounds, weaker lower bounds): --all.[/dim]")
    for n in reps[0].notes:
        con.print(f"[yellow]note[/yellow]: {n}")


def _plot_sweep(path, setting, budgets, overrides, T, instance):
    """Regret against the budget (log x) at T: every bound applicable somewhere on the sweep, the non-private bounds
    as horizontal lines, the listed budgets marked (as seed 001's Figure 8 draws regret against ε)."""
    import dataclasses

    import numpy as np

    from .. import figures as F
    from ..bounds.report import rows_for

    xs = [_budget_scalar(b) for b in budgets]
    grid = np.geomspace(min(xs) / 10, max(xs) * 10, 60)
    field = "rho" if budgets[0].notion == "zcdp" else "epsilon"
    per_x = [rows_for(setting, dataclasses.replace(budgets[0], **{field: float(x)}), np.array([T]), overrides)[1]
             for x in grid]
    lines = []
    for i, r0 in enumerate(per_x[0]):
        ys = np.array([rows[i]["value"] if rows[i]["applicable"] and rows[i]["value"] is not None else np.nan
                       for rows in per_x], dtype=float)
        if not np.isfinite(ys).any():
            continue
        kind = "other" if r0["notion"] == "none" else ("upper" if r0["kind"].startswith("upper") else "lower")
        label = f"{r0['id']} ({'non-private' if r0['notion'] == 'none' else r0['form']})"
        lines.append(F.Line(label, grid, ys, kind=kind))
    sym = {"zcdp": "ρ", "rdp": "ε (RDP)", "ldp": "local ε"}.get(budgets[0].notion, "ε")
    markers = [(f"listed {sym}" if k == 0 else "", x) for k, x in enumerate(xs)]
    fig = F.lines_figure(lines, xlabel=f"{sym} ({budgets[0].describe().split(',')[0]})", ylabel=f"regret bound at T",
                         title_text=F.title(f"Regret bounds against the budget — {setting}", instance,
                                            f"{sym} from {min(xs):g} to {max(xs):g}", T), markers=markers)
    F.save(fig, path)


def _instance_used(setting, ctx, inst, old_given: bool, more_ctxs=()):
    """The Instance the bounds (and --check) use, with notes; names the context after it when an instance option
    was given (the table title, caption and figure title then name the instance actually used)."""
    used, notes = instance_options.context_instance(setting, ctx, inst)
    if used is not None and (inst is not None or old_given):
        import dataclasses

        if inst is None:  # --means/--K/--d/--theta/--actions: the registry drew what they left out from its seed
            key = {"linear": "action_seed", "contextual": "context_seed", "glm": "theta_seed"}.get(setting)
            src = {"options": "--means/--K/--d/--theta/--actions"}
            if key is not None and ctx.get(key) is not None:
                src.update(env_seed=ctx[key], drawn=True)
            used = dataclasses.replace(used, source=src)
            used = dataclasses.replace(used, name=used.describe())
        for c in (ctx, *more_ctxs):
            c.instance_name = used.label
    return used, notes


def _prior_regret(setting, budget, Tarr, overrides, given, pri, check, plot, json_out, options, Ts, selected=()):
    """`regret --prior`: the headline bound on each instance drawn from the prior; the worst and a quantile. The
    ``--bound`` selected bounds: their value on each instance (a column each, marked ★; JSON ``per_instance[i]
    ["selected"]``) and, over the instances, their largest value, the quantile and the median (JSON ``selected``);
    None where a bound does not apply to an instance."""
    from ..bounds.report import regret_report
    from ..errors import InputError

    for flag, used in (("--check", check), ("--plot", plot)):
        if used:
            raise InputError(flag, "used without --prior (it shows one instance: save one with --save-instance)",
                             flag)
    prior, insts, q, seed = pri
    rows, sel_rows = [], {}
    for inst in common.track(insts, "instances", enabled=not json_out):
        rep = regret_report(setting, budget, Tarr, {**overrides, **inst.context_overrides()}, given)
        h = rep.headline
        rows.append({"index": inst.source.get("index"), "instance": inst.describe(), "value": h.value,
                     "value_id": h.bound_id, "value_reason": h.reason})
        if selected:
            got = {r["id"]: r for r in rep.rows if r["id"] in selected}
            sel_rows.update(got)
            rows[-1]["selected"] = {b: got[b]["value"] if got[b]["applicable"] else None for b in selected}
    summ = instance_options.quantile_summary([r["value"] for r in rows], q)
    sel = [{"id": b, "kind": sel_rows[b]["kind"], "plugin": plugin_origin(sel_rows[b]),
            "summary": instance_options.quantile_summary([r["selected"][b] for r in rows], q)} for b in selected]
    if json_out:
        common.emit_json("regret", {"setting": setting, "T": Ts, "budget": common.budget_inputs(budget),
                                    "options": options},
                         value=summ["worst"], value_label=f"largest headline bound at T over {len(insts)} instances "
                         f"drawn from {prior.describe()} (None if one has no headline)",
                         prior=prior.to_dict(), prior_seed=seed, prior_summary=summ, instance=None,
                         instances=[i.to_dict() for i in insts], per_instance=rows,
                         **({"selected": sel} if selected else {}))
        return
    from rich import box
    from rich.table import Table

    t = Table(title=f"Regret bounds over {len(insts)} instances of {prior.describe()} — T = {common.fmt(Tarr[-1])}",
              caption=f"budget: {budget.describe() if budget else 'none (non-private)'}; prior seed {seed}",
              box=box.SIMPLE_HEAD, header_style="bold", caption_justify="left")
    for c in ("#", "instance", "headline", "bound"):
        t.add_column(c, justify="right" if c in ("#", "headline") else "left",
                     no_wrap=bool(selected) and c in ("#", "headline"))
    for b in selected:
        t.add_column(f"★ {b}", justify="right", no_wrap=True)
    for r in rows:
        t.add_row(str(r["index"]), r["instance"], common.fmt(r["value"]) if r["value"] is not None else "none",
                  r["value_id"] or r["value_reason"] or "—",
                  *[common.fmt(r["selected"][b]) if r["selected"][b] is not None else "n/a" for b in selected])
    con = common.console()
    if selected:  # numbers never cut: the headline's id, then the last selected columns (the ★ lines below)
        common.fit_columns(con, t, ("bound", *[f"★ {b}" for b in reversed(selected[1:])]), floors={"instance": 16})
    con.print(t)
    w = "none (an instance has no headline bound)" if summ["worst"] is None else common.fmt(summ["worst"])
    con.print(f"[bold]Worst instance[/bold]: regret ≤ {w}; {100 * q:g}% quantile over the instances: "
              f"{common.fmt(summ['at_quantile']) if summ['at_quantile'] is not None else '—'}; median "
              f"{common.fmt(summ['median']) if summ['median'] is not None else '—'}.")
    for x in sel:
        sm, r0 = x["summary"], sel_rows[x["id"]]
        word = "regret ≤" if r0["kind"].startswith("upper") else "regret ≥"
        na = sm["without_answer"]
        if na == len(rows):
            con.print(f"[bold]★ {x['id']}[/bold] ({_headline_who(r0)}): not applicable on any instance.")
            continue
        con.print(f"[bold]★ {x['id']}[/bold] ({_headline_who(r0)}): {word} {common.fmt(sm['worst_with_answer'])} on "
                  f"the instance where it is largest; {100 * q:g}% quantile {common.fmt(sm['at_quantile'])}; median "
                  f"{common.fmt(sm['median'])}" + (f" (not applicable on {na} of {len(rows)})" if na else "") + ".")


BoundOpt = options.BoundOpt  # declared in options.py


def selected_bounds(ids, setting: str) -> tuple[str, ...]:
    """The ``--bound`` ids, each a registered bound of ``setting`` (built-in or loaded plugin), in the order given."""
    from ..bounds import registry
    from ..errors import InputError

    if not ids:
        return ()
    known = [b.id for b in registry.select(setting=setting)]
    out = []
    for i in ids:
        i = str(i).strip()
        if i not in known:
            raise InputError("--bound", f"the id of a bound of the {setting} setting (`boundcalc bounds --setting "
                                        f"{setting}` lists them; yours need --bounds-file)", i)
        if i not in out:
            out.append(i)
    return tuple(out)


def horizons_option(text: str, max_points: int = 200) -> list[int]:
    """--T: one horizon, a list 1e4,1e5,1e6 or a range lo:hi:n (the quantity commands' syntax, cli/sweep.py: log-spaced
    across decades), each an integer >= 1, sorted, without repeats (a range's points are rounded to integers); a range
    has at most ``max_points`` points (each horizon is a full evaluation: regret 200, budget 50)."""
    from .. import validate
    from ..errors import InputError

    if ":" in str(text):
        from .sweep import parse

        pts = parse("--T", text, integer=True).texts
        if len(pts) > max_points:
            raise InputError("--T", f"a range lo:hi:n of at most {max_points} horizons", text)
        return sorted(set(validate.horizons("--T", ",".join(pts))))
    return validate.horizons("--T", text)


def register(app: typer.Typer) -> None:
    @app.command("regret")
    @command
    def regret(
        setting: options.SettingOpt = None,
        T: options.TListOpt = None,
        epsilon: options.EpsilonListOpt = None,
        rho: options.RhoListOpt = None,
        alpha: options.AlphaOpt = None,
        rdp_epsilon: options.RdpEpsilonListOpt = None,
        delta: options.DeltaOpt = None,
        ldp_epsilon: options.LdpEpsilonListOpt = None,
        ldp_delta: options.LdpDeltaOpt = None,
        means: options.MeansOpt = None,
        K: options.KOpt = None,
        d: options.DOpt = None,
        actions: options.ActionsOpt = None,
        theta: options.ThetaOpt = None,
        confidence: options.ConfidenceOpt = None,
        lambda0: options.Lambda0Opt = None,
        param: options.ParamOpt = None,
        symbolic: options.SymbolicOpt = False,
        plot: options.PlotOpt = None,
        x_scale: options.XScaleOpt = None,
        y_scale: options.YScaleOpt = None,
        log_y: options.LogYOpt = False,
        check: options.CheckOpt = False,
        runs: options.RunsOpt = "100",
        seed: options.SeedIntOpt = 0,
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
        algorithms_file: options.AlgorithmsFileOpt = None,
        json_out: options.JsonOpt = False,
    ):
        """Every regret bound that applies to a setting, budget and horizon."""
        from .. import validate
        from ..errors import InputError

        common.check_plot_path(plot)
        plot_options.apply(x_scale, y_scale, log_y)  # every figure of this command: --x-scale/--y-scale/--log-y
        setting = instance_options.setting_of(setting, instance_file, SETTINGS)
        plugin_options.load(bounds_file)
        plugin_options.load_algorithms(algorithms_file)  # --check simulates a user's algorithm against its bounds
        selected = selected_bounds(bound, setting)
        if T is None and check:
            from ..verify.regret_check import DEFAULT_CHECK_T  # here: verify is not imported without --check

            T_text = str(DEFAULT_CHECK_T[setting])
        else:
            T_text = T if T is not None else "1e6"
        Ts = horizons_option(T_text)
        budgets = problem.budget_list_of(epsilon, rho, alpha, rdp_epsilon, delta, ldp_epsilon, ldp_delta)
        budget = budgets[0]
        sim, _ = problem.simulation_of(None, runs, seed, runs_range=(2, 10**6), plan=False)  # --check's runs
        io_ = instance_options
        pri, inst, old_given, means, K, d, actions, theta = io_.for_bounds(
            setting, prior=prior, instances=instances, prior_quantile=prior_quantile, prior_param=prior_param,
            prior_seed=prior_seed, means=means, K=K, d=d, theta=theta, actions=actions, instance_file=instance_file,
            env=env, env_seed=env_seed, gaps=gaps, best_mean=best_mean, noise=noise, save_instance=save_instance)
        overrides, given, vals = _instance_options(setting, means, K, d, actions, theta, confidence, lambda0)
        if inst is not None:
            overrides.update(inst.context_overrides())
        # an instance error blamed on "theta" / "actions" / "means" names the option when the user gave it
        given_names = {k: f"--{k}" for k, v in (("theta", theta), ("actions", actions), ("means", means))
                       if v is not None}
        params = _parse_params(param)
        options = {k: (v.tolist() if hasattr(v, "tolist") else v) for k, v in vals.items()}
        options.update({f"--param {k}": v for k, v in params.items()})
        from ..bounds import registry

        aliases = getattr(registry.setting_module(setting), "ALIASES", {})
        for k, v in params.items():
            overrides[k] = v
            given[f"--param {k}"] = aliases.get(k, k)
        import numpy as np

        from ..bounds.report import regret_report

        Tarr = np.array(Ts, dtype=float)
        if len(budgets) > 1:
            if check:
                raise InputError("--check", "used with a single budget (not a budget list)", "--check")
            if pri is not None:
                raise InputError("--prior", "used with a single budget (not a budget list)", prior)
            with common.option_names(given_names):
                reps = [regret_report(setting, b, Tarr, overrides, given) for b in budgets]
            used, i_notes = _instance_used(setting, reps[0].ctx, inst, old_given, [r.ctx for r in reps[1:]])
            for r in reps:
                r.notes.extend(i_notes)
            instance_options.save(used, save_instance)
            if plot:
                _plot_sweep(plot, setting, budgets, overrides, float(Tarr[-1]), reps[0].ctx.instance_name)
            if json_out:
                common.emit_json(
                    "regret",
                    {"setting": setting, "T": Ts, "budgets": [common.budget_inputs(b) for b in budgets],
                     "instance": reps[0].ctx.instance_name, "instance_values": reps[0].instance_values,
                     "options": options},
                    instance=used.to_dict() if used is not None else None, saved_instance=save_instance,
                    value=[r.headline.value for r in reps], value_id=[r.headline.bound_id for r in reps],
                    value_label="headline of each budget, in the order given: " + reps[0].headline.label,
                    notes=reps[0].notes, plot=plot,
                    sweep=[{"budget": common.budget_inputs(b), "value": r.headline.value,
                            "value_id": r.headline.bound_id, "value_reason": r.headline.reason, "bounds": r.rows}
                           for b, r in zip(budgets, reps)])
                return
            _render_sweep(reps, budgets, selected, show_all or explain)
            if plot:
                common.console().print(f"plot written to {plot}")
            return
        if pri is not None:
            return _prior_regret(setting, budget, Tarr, overrides, given, pri, check, plot, json_out, options, Ts,
                                 selected)
        with common.option_names(given_names):
            rep = regret_report(setting, budget, Tarr, overrides, given)
        used, i_notes = _instance_used(setting, rep.ctx, inst, old_given)
        rep.notes.extend(i_notes)
        instance_options.save(used, save_instance)
        check_info = None
        if check:
            from ..verify.regret_check import check_rows, curve_checkpoints

            check_info = check_rows(setting, rep.ctx, rep.rows, budget, int(Ts[-1]), sim,
                                    progress=not json_out,
                                    checkpoints=curve_checkpoints(int(Ts[-1])) if plot else None)
        drawn = None
        if plot:
            if check and _plot_check(plot, rep, budget, int(Ts[-1]), sim.runs, selected, overrides):
                drawn = "check"
            else:
                prow = rep.rows
                if len(Tarr) <= 2:
                    from ..bounds.report import rows_for
                    from ..figures import MIN_PLOT_CHECKPOINTS

                    _, prow = rows_for(setting, budget, np.logspace(2, np.log10(max(Tarr[-1], 1e3)),
                                                                    MIN_PLOT_CHECKPOINTS), overrides)
                _plot(plot, prow, setting, budget, rep.ctx.instance_name, selected)
                drawn = "bounds"
        if json_out:
            h = rep.headline
            common.emit_json(
                "regret",
                {"setting": setting, "T": Ts, "budget": common.budget_inputs(budget), "instance": rep.ctx.instance_name,
                 "instance_values": rep.instance_values, "options": options},
                instance=used.to_dict() if used is not None else None, saved_instance=save_instance,
                value=h.value, value_label=h.label, value_id=h.bound_id, value_reason=h.reason,
                value_high_probability=h.high_probability, value_delta=h.delta,
                trivial_bound={"per_step": rep.trivial.per_step, "label": rep.trivial.label,
                               "at_T": [rep.trivial.per_step * float(t) for t in Tarr]},
                notes=rep.notes, check=check_info, bounds=rep.rows,
                selected=[{"id": r["id"], "value": r["value"], "applicable": r["applicable"], "kind": r["kind"],
                           "plugin": plugin_origin(r)} for b in selected for r in rep.rows if r["id"] == b],
                plot={"path": plot, "figure": "simulated regret beside the checked bounds" if drawn == "check"
                      else "bounds against T"} if plot else None,
            )
            return
        _render(rep, budget, explain, check_info, show_all, selected,
                instance_options.instance_text(used, instance_file) if used is not None and instance_file else None)
        if symbolic:
            pairs = []
            for r in rep.rows:
                b = registry.get(r["id"])
                npx, pvx = b.expression()
                pairs.append((f"{b.id}  ({b.source}) — total = non-private + privacy cost", npx + pvx))
            common.print_symbolic(pairs)
        if plot:
            what = "the simulated regret beside each checked bound" if drawn == "check" else "the bounds against T"
            common.console().print(f"plot written to {plot} ({what})")
