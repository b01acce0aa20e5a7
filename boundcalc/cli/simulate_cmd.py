"""`boundcalc simulate` (Monte Carlo regret of an implemented algorithm) and `boundcalc algorithms`."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from . import common
from .common import command

NOTION_FLAGS = {"pure": "--epsilon", "zcdp": "--rho", "rdp": "--alpha and --rdp-epsilon", "none": "none"}


def _budget(notion: str, epsilon, rho, alpha, rdp_epsilon):
    """The algorithm's budget as a boundcalc.privacy Budget (for the bound registry), or None."""
    from ..privacy import budgets

    if notion == "pure":
        return budgets.PureDP(epsilon)
    if notion == "zcdp":
        return budgets.ZCDP(rho)
    if notion == "rdp":
        return budgets.RDP(alpha, rdp_epsilon)
    return None


def _build(algo: str, epsilon, rho, alpha, rdp_epsilon, beta, batch_ratio, n1):
    import inspect

    from .. import validate
    from ..algorithms.finite import lookup

    cls = lookup(algo)
    eps = None if epsilon is None else validate.positive("--epsilon", epsilon)
    rh = None if rho is None else validate.positive("--rho", rho)
    al = None if alpha is None else validate.greater_than("--alpha", alpha, 1.0)
    re = None if rdp_epsilon is None else validate.positive("--rdp-epsilon", rdp_epsilon)
    accepted = inspect.signature(cls.__init__).parameters
    params = {}
    if beta is not None and "beta" in accepted:
        params["beta"] = validate.positive("--beta", beta)
    if batch_ratio is not None and "alpha" in accepted and "epsilon" in accepted:
        params["alpha"] = validate.greater_than("--batch-ratio", batch_ratio, 1.0)
    if n1 is not None and "n1" in accepted:
        params["n1"] = validate.count("--n1", n1)
    return cls.from_options(epsilon=eps, rho=rh, alpha=al, rdp_epsilon=re, **params)


def _bound_curves(alg, env, T_grid, budget):
    """(label, values) for the algorithm's registered upper bounds and the matching lower bound (if any)."""
    out = []
    try:
        from ..bounds import registry
    except ImportError:  # pragma: no cover
        return out
    over = {"means": env.means.tolist()}
    p = alg.params()
    if alg.name in ("DP-KLUCB", "DP-IMED"):
        over["alpha_batch"] = p.get("alpha")
    if alg.name in ("AdaP-UCB", "AdaP-KLUCB"):
        over["alpha_adap"] = p.get("beta")
    if alg.name == "AdaC-UCB":
        over["beta_adac"] = p.get("beta")
    if alg.name == "AdaR-UCB":
        over["beta_adar"] = p.get("beta")
    try:
        ctx = registry.make_context("finite", over, budget)
    except Exception:  # noqa: BLE001 - a bound that cannot be set up is simply not drawn
        return out
    ids = list(alg.bound_ids) or [b.id for b in registry.select("finite", kind="upper") if b.algorithm == alg.name]
    lowers = [b for b in registry.select("finite", notion=alg.notion, kind="lower")]
    for b in [registry.get(i) for i in ids if i in {x.id for x in registry.all_bounds()}] + lowers[:1]:
        try:
            if b.conditions(ctx) or b.kind.endswith("minimax"):
                continue
            out.append((f"{b.id} ({'upper' if b.is_upper else 'lower'})", b.evaluate(T_grid, ctx).value))
        except Exception:  # noqa: BLE001
            continue
    return out


def _plot(path: str, res, curves, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    t = res.checkpoints
    lo, hi = res.ci()
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.plot(t, res.mean(), label=f"{res.algorithm.get('name')} mean regret ({res.runs} runs)")
    ax.fill_between(t, lo, hi, alpha=0.3, label="95% CI")
    for label, vals in curves:
        ax.plot(t, vals, "--", label=label)
    ax.set_xscale("log")
    ax.set_xlabel("t")
    ax.set_ylabel("pseudo-regret")
    ax.set_title(title)
    ax.set_ylim(bottom=0, top=max(hi.max() * 3, 1.0))
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def register(app: typer.Typer) -> None:
    @app.command("simulate")
    @command
    def simulate(
        algo: Annotated[str, typer.Option("--algo", help="Algorithm name (see 'boundcalc algorithms').")],
        env: Annotated[str, typer.Option("--env", help="Named instance: mu1..mu4, zcdp-finite, rdp-2arm.")] = "mu2",
        means: Annotated[Optional[str], typer.Option("--means", help="Arm means, e.g. 0.75,0.5 (overrides --env).")] = None,
        family: Annotated[str, typer.Option("--family", help="bernoulli or gaussian rewards.")] = "bernoulli",
        epsilon: Annotated[Optional[float], typer.Option("--epsilon", help="Pure eps-DP budget.")] = None,
        rho: Annotated[Optional[float], typer.Option("--rho", help="rho-zCDP budget.")] = None,
        alpha: Annotated[Optional[float], typer.Option("--alpha", help="RDP order alpha > 1.")] = None,
        rdp_epsilon: Annotated[Optional[float], typer.Option("--rdp-epsilon", help="RDP epsilon.")] = None,
        beta: Annotated[Optional[float], typer.Option("--beta", help="Optimism parameter (AdaP/AdaC/AdaR).")] = None,
        batch_ratio: Annotated[Optional[float], typer.Option("--batch-ratio", help="DP-KLUCB/DP-IMED batch ratio.")] = None,
        n1: Annotated[Optional[str], typer.Option("--n1", help="DP-KLUCB/DP-IMED initial pulls per arm.")] = None,
        T: Annotated[str, typer.Option("--T", help="Horizon (accepts 1e6).")] = "1e4",
        runs: Annotated[str, typer.Option("--runs", help="Independent runs (accepts 1e2).")] = "100",
        seed: Annotated[str, typer.Option("--seed", help="Seed of the SeedSequence.")] = "0",
        processes: Annotated[str, typer.Option("--processes", help="Worker processes.")] = "1",
        block_runs: Annotated[str, typer.Option("--block-runs", help="Runs per block (fixes the numbers).")] = "50",
        n_checkpoints: Annotated[str, typer.Option("--checkpoints", help="Number of log-spaced checkpoints.")] = "12",
        save: Annotated[Optional[str], typer.Option("--save", help="Write the results to FILE.npz or FILE.json.")] = None,
        progress: Annotated[bool, typer.Option("--progress/--no-progress", help="Progress bar on stderr.")] = False,
        plot: common.PlotOpt = None,
        json_out: common.JsonOpt = False,
    ):
        """Monte Carlo pseudo-regret of an algorithm: table at log-spaced checkpoints with 95% intervals."""
        from .. import validate
        from ..envs import make_env
        from ..errors import InputError
        from ..montecarlo import log_checkpoints, run

        Tn = validate.horizon("--T", T)
        R = validate.count("--runs", runs)
        sd = validate.count("--seed", seed, minimum=0)
        P = validate.count("--processes", processes)
        B = validate.count("--block-runs", block_runs)
        C = validate.count("--checkpoints", n_checkpoints, minimum=2, maximum=1000)
        mv = validate.float_list("--means", means) if means is not None else None
        if mv is not None and family == "bernoulli":
            mv = validate.means("--means", means)
        if family not in ("bernoulli", "gaussian"):
            raise InputError("--family", "bernoulli or gaussian", family)
        environment = make_env(None if means is not None else env, means=mv, family=family)
        alg = _build(algo, epsilon, rho, alpha, rdp_epsilon, beta, batch_ratio, n1)
        if alg.granularity == "step" and Tn * R > 5e8:
            raise InputError("--T x --runs", f"at most 5e8 for per-step algorithm {alg.name}", Tn * R)
        if plot is not None and not plot.endswith(".png"):
            raise InputError("--plot", "a file name ending in .png", plot)
        res = run(alg, environment, Tn, R, seed=sd, checkpoints=log_checkpoints(Tn, C), block_runs=B, processes=P,
                  progress=progress)
        if save:
            res.save(save)
        fin = res.final()
        budget = _budget(alg.notion, alg.params().get("epsilon"), getattr(alg, "rho", None),
                         getattr(alg, "rdp_alpha", None), getattr(alg, "rdp_epsilon", None))
        curves = []
        if plot:
            curves = _bound_curves(alg, environment, res.checkpoints.astype(float), budget)
            _plot(plot, res, curves, f"{alg.name} on {environment.name}, T={Tn:g}")
        inputs = {"algo": alg.name, "env": environment.name, "means": environment.means.tolist(),
                  "family": family, "params": alg.params(), "T": Tn, "runs": R, "seed": sd, "block_runs": B}
        if json_out:
            common.emit_json("simulate", inputs, value=fin["mean"], regret_mean=fin["mean"],
                             regret_std=fin["std"], regret_ci=[fin["ci_low"], fin["ci_high"]],
                             checkpoints=res.table(), pulls_mean=res.pulls_mean().tolist(),
                             episodes_mean=res.episodes_mean(), algorithm=res.algorithm,
                             plot=plot, saved=save)
            return
        from rich.table import Table

        t = Table(title=f"{alg.name} ({alg.source}) on {environment.name} {environment.means.tolist()}",
                  caption=f"{R} runs, seed {sd}; 95% CI = mean ± 1.96 s/√n; pseudo-regret Σ Δ_a N_a(t)")
        for col in ("t", "mean regret", "std", "95% CI low", "95% CI high"):
            t.add_column(col, justify="right")
        for row in res.table():
            t.add_row(str(row["t"]), common.fmt(row["mean"]), common.fmt(row["std"]), common.fmt(row["ci_low"]),
                      common.fmt(row["ci_high"]))
        con = common.console()
        con.print(t)
        con.print("mean pulls per arm: " + ", ".join(common.fmt(x, 5) for x in res.pulls_mean())
                  + f"; mean episodes: {common.fmt(res.episodes_mean(), 5)}")
        if plot:
            con.print(f"plot written to {plot}" + (f" (with {', '.join(c[0] for c in curves)})" if curves else ""))

    @app.command("algorithms")
    @command
    def algorithms(json_out: common.JsonOpt = False):
        """List the implemented algorithms with their source, privacy notion and registered bounds."""
        from ..algorithms.finite import ALGORITHMS

        rows = [{"name": n, "setting": c.setting, "source": c.source, "notion": c.notion,
                 "budget": NOTION_FLAGS.get(c.notion, ""), "simulation": c.granularity,
                 "bound_ids": list(c.bound_ids)} for n, c in ALGORITHMS.items()]
        try:  # other settings, when their packages exist
            from ..algorithms import linear as _lin  # noqa: F401

            for n, c in getattr(_lin, "ALGORITHMS", {}).items():
                rows.append({"name": n, "setting": getattr(c, "setting", "linear"), "source": getattr(c, "source", ""),
                             "notion": getattr(c, "notion", ""), "budget": NOTION_FLAGS.get(getattr(c, "notion", ""), ""),
                             "simulation": getattr(c, "granularity", "episode"),
                             "bound_ids": list(getattr(c, "bound_ids", ()))})
        except ImportError:
            pass
        if json_out:
            common.emit_json("algorithms", {}, value=len(rows), algorithms=rows)
            return
        from rich.table import Table

        t = Table(title="Implemented algorithms")
        for col in ("name", "setting", "source", "notion", "budget", "simulation", "bounds"):
            t.add_column(col)
        for r in rows:
            t.add_row(r["name"], r["setting"], r["source"], r["notion"], r["budget"], r["simulation"],
                      ", ".join(r["bound_ids"]))
        common.console().print(t)
