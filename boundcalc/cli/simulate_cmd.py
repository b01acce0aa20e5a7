"""`boundcalc simulate` (Monte Carlo regret of an implemented algorithm) and `boundcalc algorithms`."""

from __future__ import annotations

import typer

from . import common, executor_options, instance_options, options, plot_options, plugin_options, problem
from . import simulate_output
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
    option_of = {k: f"--param {k}" for k in extra}  # a constructor's error names the option that set the value
    for opt, kw in finite_option_users(cls).items():
        if values[opt] is None:
            continue
        if kw is None:
            unused.append(opt)
        else:
            params[kw] = values[opt]
            option_of[kw] = opt
    from ..errors import InputError

    try:
        return registry.build(cls, budget, params), unused
    except InputError as exc:
        if type(exc) is InputError and exc.parameter in option_of:  # "beta must be ..." -> "--param beta must be ..."
            raise InputError(option_of[exc.parameter], exc.allowed, exc.got) from None
        raise


# -- several algorithms in one call -------------------------------------------------------------------------------
def parse_algos(text: str) -> list[type]:
    """``--algo A,B,C``: the classes, each once, all of one setting (InputError otherwise)."""
    from .. import algorithms as registry
    from ..errors import InputError

    names = [x.strip() for x in str(text).split(",")]
    if not names or any(not n for n in names):
        raise InputError("--algo", "one algorithm name or several separated by commas (see 'boundcalc algorithms')",
                         text)
    classes = [registry.lookup(n) for n in names]
    seen = [c.name for c in classes]
    dup = sorted({n for n in seen if seen.count(n) > 1})
    if dup:
        raise InputError("--algo", f"each algorithm once ({', '.join(dup)} repeated)", text)
    settings = {c.setting for c in classes}
    if len(settings) > 1:
        raise InputError("--algo", "algorithms of one setting (same instance): " + ", ".join(
            f"{c.name} is {c.setting}" for c in classes), text)
    return classes


def budgets_for(classes, flags: dict) -> tuple[dict, list[str]]:
    """{algorithm name: its Budget or None} from the budget flags, and notes.

    One algorithm: exactly the one budget of its notion (as before; a budget for a non-private one is an error).
    Several: one budget per notion among them (e.g. --epsilon for DP-KLUCB and --rho for AdaC-UCB); a non-private
    algorithm ignores the budget with a note (a non-private baseline, as the papers' figures show one); a budget
    no algorithm uses is noted as without effect."""
    from ..errors import InputError

    if len(classes) == 1:
        return {classes[0].name: problem.budget_of(**flags)}, []
    given = problem.budgets_by_notion(**flags)
    notes, out = [], {}
    from .. import algorithms as registry

    for c in classes:
        if c.notion == "none":
            out[c.name] = None
            if given:
                notes.append(f"{c.name} is non-private: the budget does not apply to it (a non-private baseline)")
            continue
        b = given.get(c.notion)
        if b is None:
            other = {"pure": "approx", "approx": "pure"}.get(c.notion)
            if other in given:
                raise InputError("budget", f"one run per notion for {c.name} ({c.notion}) beside a(n) {other} "
                                 "algorithm (--epsilon alone is pure, with --delta (ε, δ)-DP): run them in separate "
                                 "calls", given[other].describe())
            raise InputError(registry.NOTION_PARAMS.get(c.notion, c.notion), f"given for {c.name} ({c.notion} privacy; "
                             "several algorithms take one budget per notion)", None)
        out[c.name] = b
    used = {c.notion for c in classes}
    flag_of = {"pure": "--epsilon", "approx": "--epsilon/--delta", "zcdp": "--rho", "rdp": "--alpha/--rdp-epsilon",
               "ldp": "--ldp-epsilon"}
    for notion in given:
        if notion not in used:
            notes.append(f"{flag_of.get(notion, notion)} has no effect on {', '.join(c.name for c in classes)}")
    return out, notes


def split_params(classes, extra: dict) -> tuple[dict, list[str]]:
    """--param name=value for several algorithms: each algorithm takes the parameters it has; a parameter of
    none of them is an error (as for one algorithm); the others are noted as without effect on the rest."""
    from .. import algorithms as registry

    if len(classes) == 1:
        return {classes[0].name: dict(extra)}, []
    out = {c.name: {k: v for k, v in extra.items() if k in registry.tunable_params(c)} for c in classes}
    notes = []
    for k in extra:
        takers = [c.name for c in classes if k in out[c.name]]
        if not takers:
            from ..errors import InputError

            accepted = sorted({p for c in classes for p in registry.tunable_params(c)})
            raise InputError("--param", f"a parameter of one of {', '.join(c.name for c in classes)} "
                             f"({', '.join(accepted) or 'none'})", k)
        rest = [c.name for c in classes if c.name not in takers]
        if rest:
            notes.append(f"--param {k} has no effect on {', '.join(rest)}")
    return out, notes


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


def _instance_env(alg, inst):
    """The environment of the user's Instance for ``alg`` (one-line error when the setting or the GLM kind differ)."""
    from ..errors import InputError

    if inst.setting != alg.setting:
        raise InputError("--instance", f"an instance of the {alg.setting} setting for {alg.name}",
                         f"{inst.setting} ({inst.label})")
    environment = inst.make_env()
    if alg.setting == "glm":
        wants_multi = type(alg).__module__.endswith(".glm.multi")
        if bool(getattr(environment, "multi", False)) != wants_multi:
            kind = "multi" if wants_multi else "single"
            raise InputError("--instance", f"a {kind}-parameter GLM instance for {alg.name} ("
                             + ("thetas: one row per arm" if wants_multi else "theta: one vector") + ")", inst.label)
    return environment


def register(app: typer.Typer) -> None:
    @app.command("simulate")
    @command
    def simulate(
        ctx: typer.Context,
        algo: options.AlgoOpt,
        env: options.EnvOpt = None,
        env_seed: options.EnvSeedOpt = "3",
        means: options.MeansOpt = None,
        family: options.FamilyOpt = "bernoulli",
        epsilon: options.EpsilonOpt = None,
        rho: options.RhoOpt = None,
        alpha: options.AlphaOpt = None,
        rdp_epsilon: options.RdpEpsilonOpt = None,
        delta: options.DeltaOpt = None,
        ldp_epsilon: options.LdpEpsilonOpt = None,
        ldp_delta: options.LdpDeltaOpt = None,
        beta: options.BetaOpt = None,
        batch_ratio: options.BatchRatioOpt = None,
        n1: options.N1Opt = None,
        param: options.ParamOpt = None,
        T: options.TOpt = "1e4",
        runs: options.RunsOpt = "100",
        seed: options.SeedOpt = "0",
        processes: options.ProcessesOpt = "1",
        executor: options.ExecutorOpt = None,
        workers: options.WorkersOpt = None,
        scheduler: options.SchedulerOpt = None,
        block_runs: options.BlockRunsOpt = "50",
        n_checkpoints: options.CheckpointsOpt = "12",
        save: options.SaveOpt = None,
        progress: options.ProgressOpt = None,
        plot: options.PlotOpt = None,
        plot_dist: options.PlotDistOpt = None,
        log_y: options.LogYOpt = False,
        x_scale: options.XScaleOpt = None,
        y_scale: options.YScaleOpt = None,
        instance_file: options.InstanceFileOpt = None,
        save_instance: options.SaveInstanceOpt = None,
        K: options.KOpt = None,
        d: options.DOpt = None,
        theta: options.ThetaOpt = None,
        actions: options.ActionsOpt = None,
        gaps: options.GapsOpt = None,
        best_mean: options.BestMeanOpt = None,
        noise: options.NoiseOpt = None,
        prior: options.PriorOpt = None,
        bounds_file: options.BoundsFileOpt = None,
        algorithms_file: options.AlgorithmsFileOpt = None,
        json_out: options.JsonOpt = False,
    ):
        """Monte Carlo pseudo-regret of one or several algorithms (finite, linear, contextual or GLM): table at
        log-spaced checkpoints with 95% intervals; --plot draws every curve with its ribbon and the bounds."""
        from .. import algorithms as registry
        from .. import validate
        from ..errors import InputError
        from ..montecarlo import engine, log_checkpoints

        plugin_options.load(bounds_file)  # a user's bounds: drawn beside the simulation by --plot
        plugin_options.load_algorithms(algorithms_file)  # a user's algorithms (docs/plugins.md)
        Tn = validate.horizon("--T", T)
        es = validate.count("--env-seed", env_seed, minimum=0, maximum=2**63 - 1)
        C = validate.count("--checkpoints", n_checkpoints, minimum=2, maximum=1000)
        if plot and not common.option_given(ctx, "--checkpoints"):
            from ..figures import MIN_PLOT_CHECKPOINTS  # here: figures is not imported without --plot (start-up)

            C = max(C, MIN_PLOT_CHECKPOINTS)
        common.check_plot_path(plot)
        plot_options.apply(x_scale, y_scale, log_y)  # every figure of this command: --x-scale/--y-scale/--log-y
        if plot_dist is not None:
            from .. import figures as _F

            _F.check_path(plot_dist, "--plot-dist")
        common.check_output_path("--save", save, (".npz", ".json"))
        for name, val in (("--epsilon", epsilon), ("--rho", rho), ("--alpha", alpha), ("--rdp-epsilon", rdp_epsilon),
                          ("--ldp-epsilon", ldp_epsilon)):
            if val is not None:
                simulable(name, val)
        instance_options.no_prior("simulate", prior)
        instance_options.check_save_path(save_instance)
        classes = parse_algos(algo)
        # runs, seed, block runs and where the blocks run: one value (the workers capped at the blocks of every run)
        sim, e_notes = problem.simulation_of(ctx, runs, seed, block_runs, executor, workers, processes, scheduler,
                                             algorithms=len(classes))
        R, sd, B = sim.runs, sim.seed, sim.block_runs
        flags = dict(epsilon=epsilon, rho=rho, alpha=alpha, rdp_epsilon=rdp_epsilon, delta=delta,
                     ldp_epsilon=ldp_epsilon, ldp_delta=ldp_delta)
        budgets, notes = budgets_for(classes, flags)
        params, p_notes = split_params(classes, _parse_params(param))
        algs, envs = [], []
        # the instance (issue 14 §1): the shared instance options make one Instance; else the named/default one
        inst = None
        if any(v is not None for v in (instance_file, K, d, theta, actions, gaps, best_mean, noise, means)):
            s0 = classes[0].setting
            if family not in ("bernoulli", "gaussian"):
                raise InputError("--family", "bernoulli or gaussian", family)
            inst = instance_options.resolve(
                s0, means=means, K=K, gaps=gaps, best_mean=best_mean, d=d, theta=theta, actions=actions,
                env=None if means is not None else env,  # --means overrides --env (as before)
                env_seed=env_seed if common.option_given(ctx, "--env-seed") and s0 != "finite" else None,
                instance_file=instance_file, noise=noise,
                family=family if common.option_given(ctx, "--family") else None)
            means = None  # the instance carries them now
        for c in classes:
            alg, unused = _build(c.name, budgets[c.name], beta, batch_ratio, n1, params[c.name])
            algs.append(alg)
            with common.option_names({"means": "--means"} if means is not None else {}):
                envs.append(_env_for(alg, env, means, family, es) if inst is None else _instance_env(alg, inst))
            notes += [f"{o} has no effect on {alg.name}" for o in unused]
        if len({e.name for e in envs}) > 1:
            raise InputError("--env", "one instance for all the algorithms (" + ", ".join(
                f"{a.name} runs on {e.name}" for a, e in zip(algs, envs)) + ")", env)
        notes += p_notes
        environment = envs[0]
        setting = algs[0].setting
        if inst is None:
            from ..envs.spec import Instance

            src = ({"env": env or environment.name} if setting == "finite" else
                   {"env": env or environment.name, "env_seed": es, "drawn": True})
            inst = Instance.from_env(environment, source=src)
            if environment.name == "custom":  # --means: name it by its data
                import dataclasses

                inst = dataclasses.replace(inst, name=inst.describe())
        instance_options.save(inst, save_instance)
        if setting == "finite" and common.option_given(ctx, "--env-seed"):
            notes.append("--env-seed has no effect on " + ", ".join(a.name for a in algs)
                         + " (finite-armed instances are fixed)")
        grans = [registry.granularity(a, e) for a, e in zip(algs, envs)]
        from ..algorithms import limits

        for a, e in zip(algs, envs):
            limits.check(a, e, Tn, R)  # the stretch and thinning paths: T and T x runs (issue 17 §3)
        for a, gran in zip(algs, [limits.path(a, e, Tn) for a, e in zip(algs, envs)]):
            limit = PER_STEP_LIMIT.get(setting, 5e7)
            if gran == "step" and Tn * R > limit:
                raise InputError("--T x --runs", f"at most {limit:g} for {a.name}, which updates every step (a loop "
                                 "over t); lower --T or --runs", f"{Tn * R:g}")
            if gran == "chunk" and Tn * R > CHUNK_LIMIT:
                raise InputError("--T x --runs", f"at most {CHUNK_LIMIT:g} for {a.name}, which scores every step "
                                 "(about a minute at the limit); lower --T or --runs", f"{Tn * R:g}")
        cps = log_checkpoints(Tn, C)
        engine.check_memory(R * len(algs), cps.size, getattr(environment, "K", 1) or 1, name="--runs")
        notes += e_notes
        saves = simulate_output.save_paths(save, algs)
        from ..progress import on_terminal

        if progress is None:  # --progress on a pipe draws nothing either: the engine shows a bar on a terminal only
            progress = on_terminal() and not json_out
        plan = sim.executor.as_dict()
        with executor_options.make_executor(sim.executor) as ex:
            if plan["kind"] == "dask":
                plan["workers"] = ex.workers
            results = sim.run_many(list(zip(algs, envs)), Tn, checkpoints=cps, executor=ex, progress=progress)
        def save_results(pairs=tuple(zip(results, saves))):
            for res, path in pairs:
                try:
                    res.save(path)
                except OSError as exc:
                    raise InputError("--save", "a writable FILE.npz or FILE.json path",
                                     f"{path}: {exc.strerror or exc}") from None

        common.after_success(save_results)  # written when the command ends without an error (as --save-instance)
        labels, overlay_notes = [], []
        if plot:
            labels, overlay_notes = simulate_output.draw(plot, algs, results, environment, budgets, Tn, R,
                                                         log_y=True if log_y else False)
        if plot_dist:
            simulate_output.draw_dist(plot_dist, algs, results, environment, Tn, budgets=budgets)
        env_means = getattr(environment, "means", None)
        env_means = env_means.tolist() if env_means is not None and setting == "finite" else None
        entries = [simulate_output.result_entry(a, r, budgets[a.name], g) for a, r, g in zip(algs, results, grans)]
        inputs = {"algo": algs[0].name if len(algs) == 1 else [a.name for a in algs], "setting": setting,
                  "env": environment.name, "env_seed": es, "means": env_means,
                  "family": family if setting == "finite" else environment.family,
                  "budget": common.budget_inputs(budgets[algs[0].name]) if len(algs) == 1 else
                  {a.name: common.budget_inputs(budgets[a.name]) for a in algs},
                  "params": registry.params_of(algs[0]) if len(algs) == 1 else {a.name: registry.params_of(a)
                                                                                 for a in algs},
                  "T": Tn, "runs": R, "seed": sd, "block_runs": B, "checkpoints": C,
                  "processes": validate.count("--processes", processes, maximum=engine.MAX_PROCESSES),
                  "processes_used": plan["workers"] if plan["kind"] == "processes" else 1,
                  "executor": plan}
        top = {"instance": inst.to_dict(), "saved_instance": save_instance}
        overlay = {"curves": labels, "notes": overlay_notes} if plot else None
        saved = (saves[0] if len(saves) == 1 else saves) if save else None
        if json_out:
            if len(algs) == 1:
                e = entries[0]
                common.emit_json("simulate", inputs, value=e["regret_mean"], regret_mean=e["regret_mean"],
                                 regret_std=e["regret_std"], regret_ci=e["regret_ci"], checkpoints=e["checkpoints"],
                                 pulls_mean=e["pulls_mean"], episodes_mean=e["episodes_mean"],
                                 algorithm=e["algorithm"], environment=results[0].env, simulation=grans[0],
                                 results=entries, plot=plot, bound_overlay=overlay, saved=saved, notes=notes,
                                 distribution=e["distribution"], plot_dist=plot_dist, **top)
            else:
                common.emit_json("simulate", inputs, value={e["algo"]: e["regret_mean"] for e in entries},
                                 results=entries, environment=results[0].env,
                                 plot=plot, bound_overlay=overlay, saved=saved, notes=notes, plot_dist=plot_dist, **top)
            return
        simulate_output.render(algs, results, environment, env_means, R, sd, C, cps.size, plot, labels, overlay_notes,
                               saved, notes, grans)

    @app.command("algorithms")
    @command
    def algorithms(algorithms_file: options.AlgorithmsFileOpt = None, json_out: options.JsonOpt = False):
        """List the implemented algorithms of every setting with their source, privacy notion, the privacy
        guarantee they really have, and their bounds (plugin algorithms too: --algorithms-file, entry points)."""
        from .. import algorithms as registry
        from ..errors import render

        plugin_options.load_algorithms(algorithms_file)
        rows = []
        for setting, algs in registry.by_setting().items():
            for n, c in algs.items():
                rows.append({"name": n, "setting": setting, "source": c.source, "notion": c.notion,
                             "budget": render(registry.NOTION_PARAMS.get(c.notion, "")), "guarantee": registry.guarantee(c),
                             "simulation": registry.granularity(c), "params": registry.tunable_params(c),
                             "bound_ids": list(c.bound_ids), "plugin": getattr(c, "plugin_origin", None) or None,
                             # the rest of the card (docs/plugins.md, "The algorithm card")
                             "counterpart": (getattr(c, "counterpart", None) or (None,))[0],
                             "audit_scenario": getattr(getattr(c, "audit_scenario", None), "__name__",
                                                       getattr(c, "audit_scenario", None)),
                             "episodes": getattr(c, "episode_schedule", None) is not None})
        if json_out:
            common.emit_json("algorithms", {}, value=len(rows), algorithms=rows)
            return
        from rich.table import Table

        t = Table(title="Implemented algorithms (boundcalc simulate --algo NAME[,NAME...]; --param name=value for "
                        "parameters)", show_lines=True)
        for col, kw in (("name", {"no_wrap": True}), ("setting", {}), ("source", {}), ("notion", {}), ("budget", {}),
                        ("guarantee", {"ratio": 3}), ("simulation", {}), ("episodes", {}), ("bounds", {"ratio": 2})):
            t.add_column(col, **kw)
        for r in rows:
            t.add_row(r["name"], r["setting"], r["source"], r["notion"], r["budget"], r["guarantee"], r["simulation"],
                      "yes" if r["episodes"] else "", ", ".join(r["bound_ids"]))
        common.console().print(t)
