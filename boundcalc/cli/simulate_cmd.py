"""`boundcalc simulate` (Monte Carlo regret of an implemented algorithm) and `boundcalc algorithms`."""

from __future__ import annotations

from typing import Annotated, List, Optional

import typer

from . import common
from .common import command

# Largest T x runs for an algorithm that updates every step: finite per-step loops are cheap (~1e-7 s per
# run-step); the linear-contextual and GLM ones cost ~1e-5 s per run-step (matrix updates every step).
PER_STEP_LIMIT = {"finite": 5e8, "linear": 5e7, "contextual": 5e7, "glm": 5e7}
# The rarely-switching OFUL family scores every step in vectorised chunks: ~1e-6 s per run-step (measured:
# AdaC-OFUL, T = 1e7, 4 runs, 45 s), so 5e7 run-steps is about a minute.
CHUNK_LIMIT = 5e7


def _parse_params(items) -> dict:
    """``--param name=value`` (repeatable): numbers, true/false, none, inf, or a named choice."""
    from .. import validate
    from ..errors import InputError

    out: dict = {}
    for it in items or []:
        if "=" not in it:
            raise InputError("--param", "of the form name=value", it)
        k, v = (x.strip() for x in it.split("=", 1))
        if not k or not v:
            raise InputError("--param", "of the form name=value", it)
        low = v.lower()
        if low in ("true", "false"):
            out[k] = low == "true"
        elif low == "none":
            out[k] = None
        elif low in ("inf", "+inf", "infinity"):
            out[k] = float("inf")
        else:
            try:
                f = float(v)
            except ValueError:
                out[k] = v  # a named choice (schedule=safe, alpha=theory); the constructor validates it
            else:
                f = validate.finite(f"--param {k}", f)
                out[k] = int(f) if f.is_integer() and "." not in v and "e" not in low else f
    return out


# Real numbers reaching an algorithm (budgets, --beta, --batch-ratio, numeric --param values) must lie in
# [SIM_MIN, SIM_MAX] (or be exactly 0 / inf where the parameter allows it): beyond, products such as
# ρ n² or β log t overflow the algorithms' float arithmetic (ρ = 1e308, β = 1e308, ε = 1e-320), and no
# simulation needs such values (ε = 1e-30 is already noise with scale 1e30).
SIM_MIN, SIM_MAX = 1e-30, 1e30


def simulable(name: str, x):
    """``x`` unchanged when it is 0, ±inf, not a number, or in [SIM_MIN, SIM_MAX] in magnitude; else InputError."""
    import math

    from ..errors import InputError

    if isinstance(x, bool) or not isinstance(x, (int, float)) or x == 0 or math.isinf(x) or math.isnan(x):
        return x
    if not SIM_MIN <= abs(x) <= SIM_MAX:
        raise InputError(name, f"of magnitude in [{SIM_MIN:g}, {SIM_MAX:g}] for a simulation (or 0 or inf where "
                         "the parameter allows it); more extreme values overflow the algorithms' float arithmetic",
                         x)
    return x


def finite_option_users(cls) -> dict[str, str | None]:
    """For a finite-armed class: the constructor keyword that --beta / --batch-ratio / --n1 set (None: unused)."""
    from .. import algorithms as registry

    if cls.setting != "finite":
        return {"--beta": None, "--batch-ratio": None, "--n1": None}
    accepted = registry.tunable_params(cls)
    return {"--beta": "beta" if "beta" in accepted else None,
            "--batch-ratio": "alpha" if "alpha" in accepted and "epsilon" in registry.budget_kwargs(cls) else None,
            "--n1": "n1" if "n1" in accepted else None}


def _build(algo: str, budget, beta, batch_ratio, n1, extra: dict):
    """The algorithm from the unified registry (boundcalc.algorithms), its budget and parameters.

    --beta, --batch-ratio and --n1 are validated whatever the algorithm; where the algorithm has no such
    parameter they are dropped and ``unused`` lists them (the caller notes "--X has no effect on ALGO")."""
    from .. import algorithms as registry
    from .. import validate

    cls = registry.lookup(algo)
    values = {"--beta": None if beta is None else simulable("--beta", validate.positive("--beta", beta)),
              "--batch-ratio": None if batch_ratio is None else simulable(
                  "--batch-ratio", validate.greater_than("--batch-ratio", batch_ratio, 1.0)),
              "--n1": None if n1 is None else validate.count("--n1", n1, maximum=1e15)}
    for k, v in extra.items():
        simulable(f"--param {k}", v)
    params = dict(extra)
    unused = []
    for opt, kw in finite_option_users(cls).items():
        if values[opt] is None:
            continue
        if kw is None:
            unused.append(opt)
        else:
            params[kw] = values[opt]
    return registry.build(cls, budget, params), unused


# -- bound overlay -------------------------------------------------------------------------------------------
def _close(a, b, tol=1e-9) -> bool:
    import numpy as np

    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return a.shape == b.shape and bool(np.allclose(a, b, rtol=tol, atol=tol))


def _context_overrides(alg, env):
    """Overrides of the setting's registry DEFAULT_INSTANCE that describe (env, alg), or (None, reason) when the
    environment is not an instance of the family the default instance describes."""
    import math

    import numpy as np

    s = alg.setting
    g = lambda name: getattr(alg, name, None)  # noqa: E731
    if s == "finite":
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
        return over, None
    if s == "linear":
        if not (env.noise == "rademacher" or env.sigma <= 1.0):
            return None, (f"{env.name}: reward noise N(0, {env.sigma:g}^2) is not 1-sub-Gaussian as in the linear "
                          "default instance")
        return {"actions": env.actions, "theta": env.theta, "delta": g("delta")}, None
    if s == "contextual":
        d = env.d
        recipe = (env.contexts_kind == "gaussian" and not env.project and env.noise == "gaussian"
                  and _close(env.mean, np.full(d, 1 / math.sqrt(d))) and _close(env.scale**2, 0.1))
        if not recipe:
            return None, (f"{env.name}: contexts are not the contextual default instance's K i.i.d. "
                          "N((1/sqrt d) 1, I/10) per round (seed 003 Sec. VII)")
        over = {"d": d, "K": env.K, "theta": env.theta, "lam": g("lam"), "delta": g("delta"), "S": g("S")}
        if hasattr(alg, "C"):
            over["C"] = g("C")
        if hasattr(alg, "L"):
            over.update(L=g("L"), zeta=g("zeta"))
        lam0 = g("lambda0")
        over["lam0"] = lam0 if lam0 is not None else env.lambda0
        return over, None
    if s == "glm":
        if not (env.link == "linear" and env.contexts_kind == "sphere" and env.d == 2 and env.K == 10):
            return None, (f"{env.name}: the GLM default instance is the linear-link one with d = 2, K = 10, "
                          "Unif(S^1) contexts (kappa_l, p_* derived for it)")
        over = {"sigma_r": env.sigma, "C_B": g("C_B"), "c_r": g("c_r")}
        if hasattr(alg, "kappa_l"):
            over.update(kappa_l=g("kappa_l"), p_star=g("p_star"), zeta=g("zeta"))
        if alg.name == "LDP-OLS":
            over["delta"] = g("alpha")  # the failure probability alpha of LDP-OLS is the bounds' delta
        return over, None
    return None, f"no bound context for the {s} setting"


def _bound_curves(alg, env, T_grid, budget):
    """([(label, values)], [notes]): the algorithm's registered upper bounds and one matching lower bound."""
    notes: list[str] = []
    out: list = []
    from ..bounds import registry

    over, why = _context_overrides(alg, env)
    if over is None:
        return out, [f"bound overlay skipped: {why}"]
    try:
        ctx = registry.make_context(alg.setting, over, budget)
    except Exception as exc:  # noqa: BLE001 - a bound that cannot be set up is simply not drawn
        return out, [f"bound overlay skipped: the registry context could not be built ({exc})"]
    known = {x.id for x in registry.all_bounds()}
    ids = [i for i in alg.bound_ids if i in known] or [
        b.id for b in registry.select(alg.setting, kind="upper") if b.algorithm == alg.name]
    finite = alg.setting == "finite"
    uppers = [registry.get(i) for i in ids]
    lowers = sorted(registry.select(alg.setting, notion=alg.notion, kind="lower"), key=lambda b: b.kind.endswith("minimax"))
    if not uppers:
        notes.append(f"no upper bound registered for {alg.name}")
    if not lowers:
        notes.append(f"no lower bound registered for the {alg.setting} setting and notion {alg.notion}")
    n_lower = 0
    for b in uppers + lowers:
        if not b.is_upper and n_lower:
            break
        try:
            cond = b.conditions(ctx)
            if cond:
                notes.append(f"{b.id} not drawn: {cond[0]}")
                continue
            if finite and b.kind.endswith("minimax"):  # finite: problem-dependent bounds only (as before)
                continue
            vals = b.evaluate(T_grid, ctx).value
        except Exception as exc:  # noqa: BLE001
            notes.append(f"{b.id} not drawn: {exc}")
            continue
        kind = "upper" if b.is_upper else ("minimax lower: worst case over the class" if b.kind.endswith("minimax")
                                           else "lower")
        out.append((f"{b.id} ({kind})", vals))
        n_lower += not b.is_upper
    return out, notes


def _plot(path: str, res, curves, title: str) -> None:
    plt = common.pyplot()

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
    common.save_figure(fig, path)


def _env_for(alg, env_name, means, family, env_seed):
    """The environment: a named instance of the algorithm's setting (its default when omitted) or, for
    finite-armed algorithms, explicit means."""
    from .. import validate
    from ..envs import DEFAULT_ENV, instances_by_setting, make_env, make_named_env, setting_of
    from ..errors import InputError

    if family not in ("bernoulli", "gaussian"):
        raise InputError("--family", "bernoulli or gaussian", family)
    if alg.setting != "finite":
        if means is not None:
            raise InputError("--means", f"used only with finite-armed algorithms ({alg.name} is {alg.setting})", means)
        if family != "bernoulli":
            raise InputError("--family", f"used only with finite-armed algorithms ({alg.name} is {alg.setting})", family)
    if env_name is not None:
        s = setting_of(env_name)
        if s != alg.setting:
            raise InputError("--env", f"an instance of the {alg.setting} setting for {alg.name} ({env_name} is {s})",
                             env_name)
    if alg.setting == "finite":
        mv = validate.float_list("--means", means) if means is not None else None
        if mv is not None and family == "bernoulli":
            mv = validate.means("--means", means)
        return make_env(None if means is not None else (env_name or DEFAULT_ENV["finite"]), means=mv, family=family)
    if alg.setting == "glm":
        # single- and multi-parameter GLM algorithms take different instances (seed 002 Sec. 3 vs Sec. 4); the
        # wrong one reached the algorithm as an einsum ValueError (LDP-SGD on ldp-multi, issue 7 §4)
        wants_multi = type(alg).__module__.endswith(".glm.multi")
        glm_envs = instances_by_setting()["glm"]
        name = env_name or ("ldp-multi" if wants_multi else DEFAULT_ENV["glm"])
        environment = make_named_env(name, seed=env_seed)
        if bool(getattr(environment, "multi", False)) != wants_multi:
            kind = "multi" if wants_multi else "single"
            fits = [n for n in glm_envs if bool(getattr(make_named_env(n, seed=env_seed), "multi", False)) == wants_multi]
            from .. import algorithms as registry

            other = f"{alg.name} (multi-parameter)" if not wants_multi else alg.name.replace(" (multi-parameter)", "")
            hint = ""
            if other in registry.all_algorithms():
                hint = f"; on a {'multi' if not wants_multi else 'single'}-parameter instance use '{other}'"
            raise InputError("--env", f"a {kind}-parameter GLM instance ({', '.join(fits)}) for {alg.name}{hint}",
                             env_name)
        return environment
    return make_named_env(env_name or DEFAULT_ENV[alg.setting], seed=env_seed)


def register(app: typer.Typer) -> None:
    @app.command("simulate")
    @command
    def simulate(
        ctx: typer.Context,
        algo: Annotated[str, typer.Option("--algo", help="Algorithm name, any setting (see 'boundcalc algorithms').")],
        env: Annotated[Optional[str], typer.Option("--env", help="Named instance of the algorithm's setting: mu1..mu4, "
                       "zcdp-finite, rdp-2arm | zcdp-linear, zcdp-linear-bounded, rdp-linear | zcdp-contextual, "
                       "zcdp-contextual-bounded, rdp-contextual, dgs-synthetic | ldp-single, ldp-logistic. "
                       "Default: mu2 / zcdp-linear / zcdp-contextual / ldp-single.")] = None,
        env_seed: Annotated[str, typer.Option("--env-seed", help="Seed drawing theta*/actions of the linear, "
                            "contextual and GLM instances.")] = "3",
        means: Annotated[Optional[str], typer.Option("--means", help="Arm means, e.g. 0.75,0.5 (finite; overrides --env).")] = None,
        family: Annotated[str, typer.Option("--family", help="bernoulli or gaussian rewards (finite).")] = "bernoulli",
        epsilon: common.EpsilonOpt = None,
        rho: common.RhoOpt = None,
        alpha: common.AlphaOpt = None,
        rdp_epsilon: common.RdpEpsilonOpt = None,
        delta: common.DeltaOpt = None,
        ldp_epsilon: common.LdpEpsilonOpt = None,
        ldp_delta: common.LdpDeltaOpt = None,
        beta: Annotated[Optional[float], typer.Option("--beta", help="Optimism parameter (AdaP/AdaC/AdaR-UCB).")] = None,
        batch_ratio: Annotated[Optional[float], typer.Option("--batch-ratio", help="DP-KLUCB/DP-IMED batch ratio.")] = None,
        n1: Annotated[Optional[str], typer.Option("--n1", help="DP-KLUCB/DP-IMED initial pulls per arm.")] = None,
        param: Annotated[Optional[List[str]], typer.Option("--param", help="Algorithm parameter name=value "
                         "(repeatable), e.g. lam=1, C=0.5, schedule=safe, alpha=0.5.")] = None,
        T: Annotated[str, typer.Option("--T", help="Horizon (accepts 1e6).")] = "1e4",
        runs: Annotated[str, typer.Option("--runs", help="Independent runs (accepts 1e2).")] = "100",
        seed: Annotated[str, typer.Option("--seed", help="Seed of the SeedSequence.")] = "0",
        processes: Annotated[str, typer.Option("--processes", help="Worker processes (capped at the number of "
                             "blocks and of CPUs; the numbers do not depend on it).")] = "1",
        block_runs: Annotated[str, typer.Option("--block-runs", help="Runs per block (fixes the numbers).")] = "50",
        n_checkpoints: Annotated[str, typer.Option("--checkpoints", help="Number of log-spaced checkpoints.")] = "12",
        save: Annotated[Optional[str], typer.Option("--save", help="Write the results to FILE.npz or FILE.json "
                        "(checked before the run; written atomically).")] = None,
        progress: Annotated[Optional[bool], typer.Option("--progress/--no-progress", help="Progress bar on stderr (default: on when stderr is a terminal and --json is not given).")] = None,
        plot: common.PlotOpt = None,
        json_out: common.JsonOpt = False,
    ):
        """Monte Carlo pseudo-regret of an algorithm (finite, linear, contextual or GLM): table at log-spaced
        checkpoints with 95% intervals."""
        from .. import algorithms as registry
        from .. import validate
        from ..errors import InputError
        from ..montecarlo import engine
        from ..montecarlo import log_checkpoints, run

        Tn = validate.horizon("--T", T)
        R = validate.count("--runs", runs, maximum=1e9)
        sd = validate.count("--seed", seed, minimum=0, maximum=2**63 - 1)
        es = validate.count("--env-seed", env_seed, minimum=0, maximum=2**63 - 1)
        P = validate.count("--processes", processes, maximum=engine.MAX_PROCESSES)
        B = validate.count("--block-runs", block_runs, maximum=1e9)
        C = validate.count("--checkpoints", n_checkpoints, minimum=2, maximum=1000)
        common.check_plot_path(plot)
        common.check_output_path("--save", save, (".npz", ".json"))
        for name, val in (("--epsilon", epsilon), ("--rho", rho), ("--alpha", alpha), ("--rdp-epsilon", rdp_epsilon),
                          ("--ldp-epsilon", ldp_epsilon)):
            if val is not None:
                simulable(name, val)
        budget = common.budget_from_options(epsilon, rho, alpha, rdp_epsilon, delta, ldp_epsilon, ldp_delta)
        alg, unused = _build(algo, budget, beta, batch_ratio, n1, _parse_params(param))
        environment = _env_for(alg, env, means, family, es)
        notes = [f"{o} has no effect on {alg.name}" for o in unused]
        if alg.setting == "finite" and common.option_given(ctx, "--env-seed"):
            notes.append(f"--env-seed has no effect on {alg.name} (finite-armed instances are fixed)")
        gran = registry.granularity(alg)
        limit = PER_STEP_LIMIT.get(alg.setting, 5e7)
        if gran == "step" and Tn * R > limit:
            raise InputError("--T x --runs", f"at most {limit:g} for {alg.name}, which updates every step (a loop "
                             "over t); lower --T or --runs", f"{Tn * R:g}")
        if gran == "chunk" and Tn * R > CHUNK_LIMIT:
            raise InputError("--T x --runs", f"at most {CHUNK_LIMIT:g} for {alg.name}, which scores every step "
                             "(about a minute at the limit); lower --T or --runs", f"{Tn * R:g}")
        cps = log_checkpoints(Tn, C)
        engine.check_memory(R, cps.size, getattr(environment, "K", 1) or 1, name="--runs")
        n_blocks = len(engine.block_sizes(R, B))
        P_used, p_note = engine.plan_processes(P, n_blocks)
        if p_note:
            notes.append(p_note)
        if progress is None:
            import sys

            progress = sys.stderr.isatty() and not json_out
        res = run(alg, environment, Tn, R, seed=sd, checkpoints=cps, block_runs=B, processes=P_used,
                  progress=progress)
        if save:
            try:
                res.save(save)
            except OSError as exc:
                raise InputError("--save", "a writable FILE.npz or FILE.json path",
                                 f"{save}: {exc.strerror or exc}") from None
        fin = res.final()
        curves, overlay_notes = [], []
        if plot:
            curves, overlay_notes = _bound_curves(alg, environment, res.checkpoints.astype(float), budget)
            _plot(plot, res, curves, f"{alg.name} on {environment.name}, T={Tn:g}")
        env_means = getattr(environment, "means", None)
        env_means = env_means.tolist() if env_means is not None and alg.setting == "finite" else None
        inputs = {"algo": alg.name, "setting": alg.setting, "env": environment.name, "env_seed": es,
                  "means": env_means, "family": family if alg.setting == "finite" else environment.family,
                  "budget": common.budget_inputs(budget), "params": registry.params_of(alg), "T": Tn, "runs": R,
                  "seed": sd, "block_runs": B, "checkpoints": C, "processes": P, "processes_used": P_used}
        if json_out:
            common.emit_json("simulate", inputs, value=fin["mean"], regret_mean=fin["mean"],
                             regret_std=fin["std"], regret_ci=[fin["ci_low"], fin["ci_high"]],
                             checkpoints=res.table(), pulls_mean=res.pulls_mean().tolist(),
                             episodes_mean=res.episodes_mean(), algorithm=res.algorithm,
                             environment=res.env, simulation=gran, plot=plot,
                             bound_overlay={"curves": [c[0] for c in curves], "notes": overlay_notes} if plot else None,
                             saved=save, notes=notes)
            return
        from rich.table import Table

        where = str(env_means) if env_means is not None else "[" + ", ".join(
            f"{k}={v}" for k, v in environment.describe().items()
            if k not in ("name", "setting", "family") and isinstance(v, (str, int, float, bool))) + "]"
        from rich.markup import escape

        t = Table(title=escape(f"{alg.name} ({alg.source}) on {environment.name} {where}"),
                  caption=f"{R} runs, seed {sd}; 95% CI = mean ± 1.96 s/√n; pseudo-regret "
                          + ("Σ Δ_a N_a(t)" if alg.setting in ("finite", "linear") else "Σ_t (best mean − chosen mean)"))
        for col in ("t", "mean regret", "std", "95% CI low", "95% CI high"):
            t.add_column(col, justify="right")
        for row in res.table():
            t.add_row(str(row["t"]), common.fmt(row["mean"]), common.fmt(row["std"]), common.fmt(row["ci_low"]),
                      common.fmt(row["ci_high"]))
        con = common.console()
        con.print(t)
        pm = res.pulls_mean()
        con.print((("mean pulls per arm: " + ", ".join(common.fmt(x, 5) for x in pm) + "; ") if pm.size else "")
                  + f"mean episodes: {common.fmt(res.episodes_mean(), 5)}")
        if plot:
            con.print(f"plot written to {plot}" + (f" (with {', '.join(c[0] for c in curves)})" if curves else ""))
            for n in overlay_notes:
                con.print(n)
        if save:
            con.print(f"results written to {save}")
        for n in notes:
            con.print(f"note: {n}")

    @app.command("algorithms")
    @command
    def algorithms(json_out: common.JsonOpt = False):
        """List the implemented algorithms of every setting with their source, privacy notion and bounds."""
        from .. import algorithms as registry

        rows = []
        for setting, algs in registry.by_setting().items():
            for n, c in algs.items():
                rows.append({"name": n, "setting": setting, "source": c.source, "notion": c.notion,
                             "budget": registry.NOTION_FLAGS.get(c.notion, ""), "simulation": registry.granularity(c),
                             "params": registry.tunable_params(c), "bound_ids": list(c.bound_ids)})
        if json_out:
            common.emit_json("algorithms", {}, value=len(rows), algorithms=rows)
            return
        from rich.table import Table

        t = Table(title="Implemented algorithms (boundcalc simulate --algo NAME; --param name=value for parameters)")
        for col in ("name", "setting", "source", "notion", "budget", "simulation", "bounds"):
            t.add_column(col)
        for r in rows:
            t.add_row(r["name"], r["setting"], r["source"], r["notion"], r["budget"], r["simulation"],
                      ", ".join(r["bound_ids"]))
        common.console().print(t)
