"""``budget --by simulation``: the measured answer on the user's instance, rendered beside the bound-based one.

A thin renderer of boundcalc.budget.measured (the search) and boundcalc.budget.decision (``--report``). Only
typer/rich/stdlib at import.
"""

from __future__ import annotations

import shlex
import sys

from . import common


class CtxInstance:
    """The instance that the bounds' context describes (``--means``, ``--K``, ``--d``, ``--actions``, ``--theta``,
    ``--param``): the environment the adapters of ``regret --check`` build from it (boundcalc.verify.adapters), so
    that the measured and the bound-based answers are about the same instance. Has the ``Instance`` interface the
    search needs (``setting``, ``make_env()``, ``to_dict()``, ``context_overrides()``)."""

    def __init__(self, setting: str, overrides: dict):
        from ..bounds import registry
        from ..verify import adapters as ad

        self.setting = setting
        self.overrides = dict(overrides)
        ctx = registry.make_context(setting, self.overrides, None)
        self._ctx = ctx
        self._env_fn = {"finite": ad._finite_env, "linear": ad._linear_env, "contextual": ad._contextual_env,
                        "glm": ad._glm_env}[setting]
        self._env = self._env_fn(ctx)

    def make_env(self):
        return self._env

    def context_overrides(self) -> dict:
        return dict(self.overrides)

    def to_dict(self) -> dict:
        d = self._env.describe() if hasattr(self._env, "describe") else {}
        return {"setting": self.setting, **{k: (v.tolist() if hasattr(v, "tolist") else v) for k, v in d.items()}}


class Drawn:
    """The instances ``--prior`` drew (instance_options.prior_from_options: prior, instances, quantile, seed), as the
    prior the measured search asks for (``sample`` gives them back)."""

    def __init__(self, prior, instances, quantile, seed):
        self.prior, self.instances, self.quantile, self.seed = prior, list(instances), quantile, seed

    def sample(self, n, seed):
        return self.instances[:n]

    def to_dict(self) -> dict:
        d = self.prior.to_dict() if hasattr(self.prior, "to_dict") else {"name": str(self.prior)}
        return {"prior": d, "seed": self.seed, "instances": len(self.instances), "quantile": self.quantile}


def _pct(x) -> str:
    return "—" if x is None else f"{100 * x:.3g}%"


def _secs(x) -> str:
    """Seconds as a reader takes them: 42 s, 3.5 min, 1.2 h."""
    if x is None:
        return "?"
    return f"{x:.0f} s" if x < 120 else (f"{x / 60:.1f} min" if x < 7200 else f"{x / 3600:.1f} h")


def _progress_printer(enabled: bool):
    """Progress lines on stderr (each search's estimate after its first decision, then every decision with the
    updated total), on a terminal only (like a progress bar: piped or captured stderr keeps errors on one line)."""
    if not enabled or not sys.stderr.isatty():
        return None
    con = common.console(stderr=True)
    said = {"estimate": False}

    def cb(ev: dict):
        rng = ev.get("estimate_range") or [None, None]
        if (ev.get("decision") == 1 or not said["estimate"]) and ev.get("estimate_seconds") is not None:
            con.print(f"[dim]{ev['algorithm']}: estimated search time {_secs(rng[0])}–{_secs(rng[1])} (likely "
                      f"{_secs(ev['estimate_seconds'])}; the most if every decision left needs --max-runs runs), from "
                      f"the first decision ({ev['elapsed']:.1f} s); updated below after each decision[/dim]")
            said["estimate"] = True
        lo, hi = ev["ci"]
        left = (f"; total ≈ {_secs(rng[0])}–{_secs(rng[1])}, likely {_secs(ev['estimate_seconds'])}"
                if rng[0] is not None else "")
        con.print(f"[dim]  {ev['algorithm']} {ev['stage']:7s} b = {ev['budget']:.4g}: {ev['status']:9s} "
                  f"{ev['estimate']:.4g} [{lo:.4g}, {hi:.4g}] ({ev['runs']} runs, {ev['elapsed']:.1f} s{left})[/dim]")

    return cb


def command_line(ctx) -> str:
    """The command as given: ``boundcalc`` + the command path + every option set on the command line."""
    parts = ctx.command_path.split()
    parts[0] = "boundcalc"
    for p in ctx.command.params:
        src = ctx.get_parameter_source(p.name)
        if src is None or getattr(src, "name", "") in ("DEFAULT", "DEFAULT_MAP"):
            continue
        v = ctx.params.get(p.name)
        if getattr(p, "is_flag", False):
            if v:
                parts.append(p.opts[0])
            continue
        for x in (v if isinstance(v, (list, tuple)) else [v]):
            parts += [p.opts[0], str(x)]
    return " ".join(shlex.quote(x) for x in parts)


def rows_of(plan) -> list[dict]:
    """JSON rows: one ``by: simulation`` row per algorithm (and instance), then one ``by: bound`` row per algorithm."""
    rows = []
    for i, answers in enumerate(plan.answers):
        for a in answers:
            d = a.as_dict()
            rows.append({"by": "simulation", "instance": i, "algorithm": a.algorithm, "counterpart": a.counterpart,
                         "status": a.status, "budget": a.budget, "interval": a.interval, "overhead": a.overhead,
                         "measure": a.measure, "runs": a.runs_used, "seconds": a.seconds,
                         "estimate_seconds": a.estimate_seconds, "estimate_range": a.estimate_range,
                         "estimates": d["estimates"], "regret": a.regret,
                         "regret_nonprivate": a.regret_nonprivate, "own_budget": a.own_budget,
                         "conversion": a.conversion, "confidence": a.confidence, "notes": a.notes, "reason": a.reason,
                         "evaluations": d["evaluations"]})
    for b in plan.bound:
        rows.append(dict(b))
    return rows


def run(setting, T, target, notion, overrides, search, *, algos, delta, json_out, plot, plot_dist, report, inputs,
        values_used, instance=None, prior=None, click_ctx=None, instance_path=None):
    """``budget --by simulation``: the measured search (``search``: a budget.settings.Search, its simulation's
    executor plan made here) on ``instance`` (default: the bounds' context, ``CtxInstance``) or on the instances
    ``prior`` drew (a ``Drawn``), then its JSON or its table, report and figures."""
    from ..budget.measured import solve_measured
    from ..errors import InputError
    from . import executor_options

    inst = instance if (instance is not None or prior is not None) else CtxInstance(setting, overrides)
    with executor_options.make_executor(search.simulation.executor) as ex:
        plan = solve_measured(setting, T, target, notion, instance=inst if prior is None else None, prior=prior,
                              instances=1 if prior is None else len(prior.instances),
                              prior_quantile=0.9 if prior is None else (prior.quantile or 0.9), algos=algos, settings=search,
                              executor=ex, delta=delta, progress=_progress_printer(not json_out))
    every = [a for row in plan.answers for a in row]
    if plan.value is None and every and all(a.status == "unreachable" for a in every):
        flag = "--max-overhead" if target.kind == "overhead" else "--max-regret"
        raise InputError(flag, "a target some budget in [1e-4, 1e4] reaches on this instance (measured: "
                         + "; ".join(f"{a.algorithm}: {a.reason}" for a in every[:3]) + ")", target.value)
    cmd = command_line(click_ctx) if click_ctx is not None else "boundcalc " + " ".join(shlex.quote(x)
                                                                                          for x in sys.argv[1:])
    if report:
        from ..budget import decision

        decision.write(plan, report, cmd, delta)
    if plot_dist:
        _plot_dist(plot_dist, plan)
    if plot:
        _plot_overhead(plot, plan)
    if json_out:
        common.emit_json("budget", dict(inputs, by="simulation", quantile=search.quantile, runs=search.runs,
                                        max_runs=search.max_runs, seed=search.seed, algos=algos,
                                        executor=search.simulation.executor.as_dict(), block_runs=search.block_runs,
                                        counterpart=search.counterpart, counterpart_params=search.counterpart_params,
                                        pairing=search.pairing),
                         value=plan.value, value_algorithm=plan.value_algorithm,
                         value_label=("smallest user budget at which the measured target holds with 95% confidence on "
                                      "this instance (confirmed on fresh seeds), the best over the algorithms; the "
                                      "worst over the instances of a prior"),
                         reason=plan.reason or None, by="simulation", instance=plan.instances[0] if
                         len(plan.instances) == 1 else None, instances=plan.instances, rows=rows_of(plan),
                         lower_limit=plan.lower_limit, lower_id=plan.lower_id, prior_summary=plan.prior,
                         prior=prior.to_dict() if hasattr(prior, "to_dict") else None, notes=plan.notes,
                         report=report, plot=plot, plot_dist=plot_dist, command=cmd)
        return plan
    _render(plan, values_used, instance_path)
    for what, path in (("report", report), ("plot", plot), ("distribution plot", plot_dist)):
        if path:
            common.console().print(f"{what} written to {path}")
    return plan


def _render(plan, values_used: str, instance_path=None):
    from rich import box
    from rich.table import Table

    from .instance_options import instance_text

    from ..budget.notions import UserNotion

    con = common.console()
    un = UserNotion(plan.notion["name"], alpha=plan.notion.get("alpha"), delta=plan.notion.get("delta"))
    sym = un.symbol
    tk, tv = plan.target["kind"], plan.target["value"]
    q = plan.quantile
    what = ("mean" if q is None else f"q = {q:g} quantile of the") + (" privacy overhead" if tk == "overhead" else
                                                                      " regret")
    goal = f"{what} ≤ " + (f"{100 * tv:g}%" if tk == "overhead" else f"{tv:g}")
    bound_of = {b["algorithm"]: b for b in plan.bound}
    for i, answers in enumerate(plan.answers):
        t = Table(title=f"Privacy budget, measured — {goal} — {plan.setting} — T = {common.fmt(plan.T)}"
                  + (f" — instance {i + 1} of {len(plan.answers)}" if len(plan.answers) > 1 else ""),
                  caption=f"instance: {common.esc(instance_text(plan.instances[i], instance_path))}\n"
                  + (f"values used: {values_used}\n" if values_used else "")
                  + f"user notion: {un.describe()}; measured: 95% intervals, the counterpart's runs "
                  + ("on their own seeds (independent pairing)" if all(a.counterpart.get("pairing") != "common"
                                                                       for a in answers) else
                     "paired with the private runs by seed (common pairing)") + "; bound-based: the smallest budget at which a rigorous upper bound of the algorithm meets the "
                  "target", header_style="bold", box=box.SIMPLE_HEAD, caption_justify="left", pad_edge=False)
        every = f"every instance of the class ({sym})"
        for col in ("algorithm", "counterpart", f"on your instance ({sym})", "interval \\[missed, met]",
                    "overhead (95%)", "runs", every):  # "\\[": not a rich markup tag (rich would swallow it)
            t.add_column(col, no_wrap=col not in ("counterpart", every, "interval \\[missed, met]", "overhead (95%)"),
                         justify="right" if col == "runs" else "left")
        for a in answers:
            ov = a.overhead or {}
            oc = ov.get("ci") or [None, None]
            iv = a.interval or [None, None]
            b = bound_of.get(a.algorithm) if i == 0 else None
            btxt = "—"
            if b:
                btxt = common.fmt(b["budget"], 4) if b.get("budget") is not None else b.get("note") or "—"
                if b.get("loose_by"):
                    btxt += (f"\nloose by {b['loose_by']:.3g}× on yours ({b['loose_bound_id']}"
                             + ("" if b.get("loose_bound_rigorous") else ", indicative form") + ")")
            cp = a.counterpart["name"] + "".join(f" --param {k}={v}" for k, v in a.counterpart["params"].items())
            meas = (f"[bold green]{common.fmt(a.budget, 4)}[/bold green]" if a.status in ("met", "any budget")
                    else f"[red]{a.status}[/red]")
            t.add_row(a.algorithm, cp, meas, f"[{common.fmt(iv[0], 4)}, {common.fmt(iv[1], 4)}]" if a.interval else "—",
                      f"{_pct(ov.get('value'))} [{_pct(oc[0])}, {_pct(oc[1])}]" if ov else "—", str(a.runs_used), btxt)
        common.fit_columns(con, t, ("runs", "counterpart", every), floors={every: 24, "counterpart": 10})
        con.print(t)
        for a in answers:
            if a.regret:
                r, n = a.regret, a.regret_nonprivate
                lin = "—" if r["linear_fraction"] is None else f"{100 * r['linear_fraction']:.3g}%"
                con.print(f"  {a.algorithm} at {sym} = {common.fmt(a.budget, 4)}: regret mean {common.fmt(r['mean'])} "
                          f"[{common.fmt(r['ci'][0])}, {common.fmt(r['ci'][1])}], median {common.fmt(r['median'])}, "
                          f"p90 {common.fmt(r['p90'])}, p99 {common.fmt(r['p99'])}, still linear at T {lin}; "
                          f"{a.counterpart['name']}: mean {common.fmt(n['mean'])}, median {common.fmt(n['median'])}, "
                          f"p90 {common.fmt(n['p90'])}")
            if a.estimate_range:
                con.print(f"  {a.algorithm}: search {_secs(a.seconds)}, {a.runs_used} runs (estimated after the first "
                          f"decision: {_secs(a.estimate_range[0])}–{_secs(a.estimate_range[1])}, likely "
                          f"{_secs(a.estimate_seconds)})")
            for note in a.notes:
                con.print(f"  [yellow]note[/yellow] {a.algorithm}: {note}")
            if a.reason and a.status not in ("met",):
                con.print(f"  {a.algorithm}: {a.reason}")
    if plan.prior:
        for k, v in plan.prior.items():
            con.print(f"Over {v['instances']} instances of the prior, {k}: met on {v['met']}; worst {sym} = "
                      f"{common.fmt(v['worst'], 4)}, q = {v['quantile']:g} quantile {common.fmt(v['at_quantile'], 4)}")
    if plan.lower_limit is not None:
        con.print(f"[bold]No algorithm can do better[/bold]: below {sym} = {common.fmt(plan.lower_limit, 5)} every "
                  f"algorithm misses the target ({plan.lower_id}; a bound, about the class of instances).")
    for n in plan.notes:
        con.print(f"[yellow]note[/yellow]: {n}")
    if plan.value is None:
        con.print(f"[bold]Measured answer[/bold]: none — {plan.reason}. No budget is recommended.")
    else:
        where = (f"worst over the {len(plan.answers)} instances drawn from the prior" if len(plan.answers) > 1
                 else "on your instance")
        con.print(f"[bold]Measured answer ({where})[/bold]: {sym} = [bold]{common.fmt(plan.value, 5)}"
                  f"[/bold] with {plan.value_algorithm} — the target holds there with 95% confidence (confirmed on "
                  "fresh seeds).")


def _instance_title(plan) -> str:
    from .instance_options import instance_text

    return instance_text(plan.instances[0])[:80] if plan.instances else ""


def _plot_dist(path, plan):
    from .. import figures as F

    samples = {}
    for a in plan.answers[0]:
        if a.final_regrets:
            samples[f"{a.algorithm} ({common.fmt(a.budget, 4)})"] = a.final_regrets["private"]
            samples.setdefault(a.counterpart["name"], a.final_regrets["nonprivate"])
    marks = [("regret cap", plan.target["value"])] if plan.target["kind"] == "regret" else []
    fig = F.ccdf_figure(samples, title_text=F.title("Regret at T over runs (CCDF) at the measured answers",
                                                    _instance_title(plan), "", plan.T), markers=marks)
    F.save(fig, path, "--plot-dist")


def _plot_overhead(path, plan):
    from .. import figures as F

    series = {f"{a.algorithm} vs {a.counterpart['name']}": [(e["budget"], e["estimate"], e["ci"][0], e["ci"][1])
                                                           for e in a.evaluations] for a in plan.answers[0]}
    fig = F.interval_figure(series, target=plan.target["value"], xlabel="user budget",
                            ylabel="measured " + plan.target["kind"],
                            markers=[("measured answer", plan.value)] if plan.value else [])
    F.save(fig, path)
