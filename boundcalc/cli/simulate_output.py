"""`simulate` output: the JSON entry of each algorithm, the table(s), the figure and the --save paths."""

from __future__ import annotations

from . import common

def shown_rows(n: int, want: int) -> list[int]:
    """Indices of at most ``want`` of ``n`` log-spaced checkpoints, evenly spread (so still log-spaced)."""
    if n <= want:
        return list(range(n))
    import numpy as np

    return sorted({int(round(x)) for x in np.linspace(0, n - 1, want)})


def result_entry(alg, res, budget, gran: str) -> dict:
    """One algorithm's entry of the JSON ``results`` list."""
    from .. import algorithms as registry

    fin = res.final()
    return {"algo": alg.name, "notion": alg.notion, "budget": common.budget_inputs(budget),
            "guarantee": registry.guarantee(alg), "params": registry.params_of(alg), "simulation": gran,
            "regret_mean": fin["mean"], "regret_std": fin["std"], "regret_ci": [fin["ci_low"], fin["ci_high"]],
            "checkpoints": res.table(), "pulls_mean": res.pulls_mean().tolist(), "episodes_mean": res.episodes_mean(),
            "algorithm": res.algorithm, "distribution": distribution(res)}


def distribution(res) -> dict:
    """Median, p90, p99 and the fraction of runs still growing linearly at T, beside mean ± CI
    (boundcalc.montecarlo.distribution)."""
    from ..montecarlo.distribution import of_results

    return of_results(res)


def distribution_line(name: str, d: dict) -> str:
    lin = "—" if d["linear_fraction"] is None else f"{100 * d['linear_fraction']:.3g}%"
    return (f"{name}: regret at T — mean {common.fmt(d['mean'])} [{common.fmt(d['ci'][0])}, {common.fmt(d['ci'][1])}], "
            f"median {common.fmt(d['median'])}, p90 {common.fmt(d['p90'])}, p99 {common.fmt(d['p99'])}; still linear "
            f"at T: {lin}")


def draw_dist(path: str, algs, results, environment, T: int, log_y: bool = True, budgets: dict | None = None) -> None:
    """--plot-dist: the regret at T over runs, one empirical CCDF per algorithm (figures.ccdf_figure)."""
    from .. import figures

    fig = figures.ccdf_figure({a.name: r.regret[:, -1] for a, r in zip(algs, results)},
                              title_text=figures.title("Regret at T over runs (CCDF)", environment.name, "; ".join(
                                  sorted({b.describe() for b in (budgets or {}).values() if b is not None})), T,
                                  results[0].runs), log_y=log_y)
    figures.save(fig, path, "--plot-dist")


def draw(path: str, algs, results, environment, budgets: dict, T: int, runs: int,
         log_y: bool | None = False) -> tuple[list[str], list[str]]:
    """One figure: every algorithm's mean regret with its 95% ribbon, its registered upper bounds (its colour;
    dotted when the instance is outside the theorem's assumptions) and one lower bound per privacy notion.
    Returns (labels of the bounds drawn, notes)."""
    from .. import figures
    from ..verify import overlay

    curves = [figures.curve_from_results(r, a.name) for a, r in zip(algs, results)]
    t = results[0].checkpoints.astype(float)
    lines, notes, labels = [], [], []
    lowers_done = set()
    for i, a in enumerate(algs):
        b = budgets.get(a.name)
        up, n1 = overlay.upper_curves(a, environment, t, b)
        lines += [figures.bound_line(x, figures.colour(i) if len(algs) > 1 else None) for x in up]
        labels += [x.label for x in up]
        notes += n1
        if a.notion not in lowers_done:
            lowers_done.add(a.notion)
            lo, n2 = overlay.lower_curve(a, environment, t, b)
            for x in lo:
                ln = figures.bound_line(x)
                ln.style["ls"] = figures.LINESTYLES[1 + len(lowers_done) % 3]  # --, -., : for successive lower bounds
                lines.append(ln)
            labels += [x.label for x in lo]
            notes += n2
    used = []
    for a in algs:
        b = budgets.get(a.name)
        if b is not None and b.describe() not in used:
            used.append(b.describe())
    what = ", ".join(a.name for a in algs) + " — pseudo-regret, mean and 95% interval"
    fig = figures.regret_figure(curves, lines, title_text=figures.title(what, environment.name, "; ".join(used), T,
                                                                         runs), log_y=log_y)
    figures.save(fig, path)
    return labels, notes


def save_paths(save, algs) -> list[str]:
    """--save FILE.ext: that file for one algorithm; FILE-ALGO.ext for each of several (checked before the run)."""
    import os
    import re

    if not save:
        return []
    if len(algs) == 1:
        return [save]
    stem, ext = os.path.splitext(save)
    paths = [f"{stem}-{re.sub(r'[^A-Za-z0-9]+', '-', a.name).strip('-')}{ext}" for a in algs]
    for p in paths:
        common.check_output_path("--save", p, (".npz", ".json"))
    return paths


EPISODIC = ("episode", "chunk")  # simulation paths whose algorithms have episodes/phases/batches (granularity)


def half_width(hi: float, lo: float, ref: float, digits: int = 2) -> str:
    """The half-width (hi − lo)/2 for a table cell: "0" when it is float rounding noise (below 1e-12 of the
    mean's magnitude, e.g. the 2.2e-16 of identical runs), else ``common.fmt`` at ``digits`` significant digits."""
    import math

    w = (hi - lo) / 2
    if abs(w) <= 1e-12 * max(abs(ref), 1.0):
        return "0"
    if abs(w) >= 1:  # every integer digit (never 1.2e+02 for 118)
        digits = max(digits, int(math.floor(math.log10(abs(w)))) + 1)
    return common.fmt(w, digits)


def render(algs, results, environment, env_means, R, sd, C, n_cps, plot, labels, overlay_notes, saved, notes,
           grans=None):
    """The rich table(s): one algorithm as before (mean, std, interval); several: one column group each. The mean
    episode count is shown only for algorithms with episodes (``grans``: each one's simulation path)."""
    from rich.markup import escape
    from rich.table import Table

    setting = algs[0].setting
    where = str(env_means) if env_means is not None else "[" + ", ".join(
        f"{k}={v}" for k, v in environment.describe().items()
        if k not in ("name", "setting", "family") and isinstance(v, (str, int, float, bool))) + "]"
    rows = shown_rows(n_cps, 12 if C > 12 and n_cps > 12 else n_cps)
    shown = "" if len(rows) == n_cps else f"; {len(rows)} of {n_cps} checkpoints shown (all in --json)"
    regret = "Σ Δ_a N_a(t)" if setting in ("finite", "linear") else "Σ_t (best mean − chosen mean)"
    con = common.console()
    if len(algs) == 1:
        alg, res = algs[0], results[0]
        t = Table(title=escape(f"{alg.name} ({alg.source}) on {environment.name} {where}"),
                  caption=f"{R} runs, seed {sd}; 95% CI = mean ± 1.96 s/√n; pseudo-regret {regret}{shown}")
        for col in ("t", "mean regret", "std", "95% CI low", "95% CI high"):
            t.add_column(col, justify="right")
        tab = res.table()
        for i in rows:
            row = tab[i]
            t.add_row(str(row["t"]), common.fmt(row["mean"]), half_width(2 * row["std"], 0.0, row["mean"], 6),
                      common.fmt(row["ci_low"]),
                      common.fmt(row["ci_high"]))
    else:
        t = Table(title=escape(f"{', '.join(a.name for a in algs)} on {environment.name} {where}"),
                  caption=f"{R} runs each, the same seeds (seed {sd}); mean ± half-width of the 95% interval "
                          f"(1.96 s/√n); pseudo-regret {regret}{shown}")
        t.add_column("t", justify="right")
        for a in algs:
            t.add_column(escape(f"{a.name}\nmean ± 95%"), justify="right")
        tabs = [r.table() for r in results]
        for i in rows:
            cells = [str(tabs[0][i]["t"])]
            for tab in tabs:
                m, lo, hi = tab[i]["mean"], tab[i]["ci_low"], tab[i]["ci_high"]
                cells.append(f"{common.fmt(m, 4)} ± {half_width(hi, lo, m)}")
            t.add_row(*cells)
    con.print(t)
    for i, (a, res) in enumerate(zip(algs, results)):
        pm = res.pulls_mean()
        lead = f"{a.name}: " if len(algs) > 1 else ""
        parts = (["mean pulls per arm: " + ", ".join(common.fmt(x, 5) for x in pm)] if pm.size else []) + (
            [f"mean episodes: {common.fmt(res.episodes_mean(), 5)}"] if grans is None or grans[i] in EPISODIC else [])
        if parts:
            con.print(lead + "; ".join(parts))
        con.print(distribution_line(a.name, distribution(res)))
    if plot:
        con.print(f"plot written to {plot}" + (f" (with {', '.join(labels)})" if labels else ""))
        for n in overlay_notes:
            con.print(n)
    if saved:
        con.print(f"results written to {saved if isinstance(saved, str) else ', '.join(saved)}")
    for n in notes:
        con.print(f"note: {n}")
