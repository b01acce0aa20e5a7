"""``boundcalc audit``: empirical privacy audit of an algorithm (issue 10 §4).

Runs the algorithm on two neighbouring inputs, bounds the ε it achieves from below by the frequencies of a declared
output event (one-sided Clopper–Pearson bounds), and prints that lower bound beside the claimed ε. ``--mutant``
runs a deliberately broken copy; ``--list`` shows what can be audited. Module level: typer/rich/stdlib only; the
audit (numpy/scipy) is imported inside the command.
"""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from . import common, instance_options, options, plugin_options, problem
from .common import command, console, emit_json, fmt, kv_table


def _list(json_out: bool) -> None:
    from ..audit import mutants
    from ..audit.scenarios import all_scenarios

    rows = []
    for name, sc in all_scenarios().items():
        rows.append({"algorithm": name, "notion": sc.notion, "mutants": list(mutants.applicable(sc)),
                     "default_budget": dict(sc.default_budget), "default_trials": sc.default_trials,
                     "default_delta": sc.default_delta(), "fixed_params": dict(sc.fixed),
                     "tunable_params": list(sc.tunable),
                     "scenario": " ".join((sc.__doc__ or "").split()[:40])})
    if json_out:
        emit_json("audit", {"list": True}, value=len(rows), algorithms=rows,
                  mutants={k: v for k, v in mutants.DESCRIPTIONS.items()})
        return
    from rich.table import Table

    t = Table(title="auditable algorithms", header_style="bold")
    for c in ("algorithm", "notion", "mutants", "default budget", "trials", "δ", "--param"):
        t.add_column(c)
    for r in rows:
        b = ", ".join(f"{k} = {v:g}" for k, v in r["default_budget"].items())
        t.add_row(r["algorithm"], r["notion"], ", ".join(r["mutants"]), b, f"{r['default_trials']:g}",
                  fmt(r["default_delta"]), ", ".join(r["tunable_params"]) or "—")
    con = console()
    con.print(t)
    for k, v in mutants.DESCRIPTIONS.items():
        con.print(f"  [cyan]{k}[/cyan]: {v}")


def register(app: typer.Typer) -> None:
    @app.command("audit")
    @command
    def audit(
        ctx: typer.Context,
        algo: options.AlgoOpt = None,
        epsilon: options.EpsilonOpt = None,
        rho: options.RhoOpt = None,
        alpha: options.AlphaOpt = None,
        rdp_epsilon: options.RdpEpsilonOpt = None,
        delta: options.DeltaOpt = None,
        trials: options.TrialsOpt = None,
        mutant: options.MutantOpt = "none",
        seed: options.SeedIntOpt = 0,
        param: options.ParamOpt = None,
        level: options.AuditLevelOpt = 0.95,
        confidence_old: Annotated[Optional[float], common.alias_option("audit", "--confidence")] = None,
        list_: options.ListOpt = False,
        instance_file: options.InstanceFileOpt = None,
        save_instance: options.SaveInstanceOpt = None,
        means: options.MeansOpt = None,
        K: options.KOpt = None,
        d: options.DOpt = None,
        theta: options.ThetaOpt = None,
        actions: options.ActionsOpt = None,
        env: options.EnvOpt = None,
        env_seed: options.EnvSeedOpt = None,
        gaps: options.GapsOpt = None,
        best_mean: options.BestMeanOpt = None,
        noise: options.NoiseOpt = None,
        prior: options.PriorOpt = None,
        algorithms_file: options.AlgorithmsFileOpt = None,
        json_out: options.JsonOpt = False,
    ):
        """Empirical privacy audit: a lower bound on the ε an algorithm achieves, beside the claimed ε."""
        from ..errors import InputError

        plugin_options.load_algorithms(algorithms_file)  # a user's algorithm with its audit_scenario (docs/plugins.md)
        confidence = common.alias(ctx, "audit", "--confidence", confidence_old, level)
        if list_:
            return _list(json_out)
        if algo is None:
            raise InputError("--algo", "given (an auditable algorithm, see --list)", None)
        from .. import validate
        from ..audit import run as audit_run

        from .simulate_cmd import _parse_params

        level_flag = "--confidence" if confidence_old is not None else "--level"  # errors name what the user typed
        if not 0.5 <= validate.open_unit(level_flag, confidence) <= 1 - 1e-9:
            raise InputError(level_flag, "in [0.5, 1 − 1e-9]", confidence)
        # the simulation settings (one builder for every command): --trials are the runs on each input, --seed
        with common.option_names({"runs": "--trials"}):
            sim, _ = problem.simulation_of(None, trials, seed, runs_range=(audit_run.MIN_TRIALS, audit_run.MAX_TRIALS),
                                           plan=False)
        n = sim.runs
        # an instance (issue 14 §1): accepted as by every command, checked against the audited algorithm's setting;
        # where the scenario can build neighbouring inputs from it (the first-decision scenarios of the finite
        # algorithms: tables drawn from the instance's means) that probe runs too, with its own estimate; elsewhere
        # the output says why the scenario's designed inputs cannot take it. The designed probes' verdict is unchanged.
        instance_options.no_prior("audit", prior)
        instance_options.check_save_path(save_instance)
        inst = None
        inst_opts = dict(means=means, K=K, gaps=gaps, best_mean=best_mean, d=d, theta=theta, actions=actions, env=env,
                         env_seed=env_seed, instance_file=instance_file, noise=noise)
        if any(v is not None for v in inst_opts.values()):
            from ..algorithms import lookup

            inst = instance_options.resolve(lookup(algo).setting, **inst_opts)
            instance_options.save(inst, save_instance)
        elif save_instance is not None:
            raise InputError("--save-instance", "used with an instance option (--instance, --means, --K, --env, …); the "
                             "audit's own inputs are neighbouring tables, not an instance", save_instance)
        params = _parse_params(param)
        # audit's options: --epsilon [--delta] is also the local ε (δ) of a local-DP algorithm (not --ldp-epsilon)
        names = {**common.BUDGET_FLAGS, "ldp-epsilon": "--epsilon", "ldp_epsilon": "--epsilon", "ldp-delta": "--delta",
                 "ldp_delta": "--delta"}
        with common.option_names(names):
            budget, adelta = audit_run.budget_for(algo, epsilon=epsilon, rho=rho, alpha=alpha,
                                                  rdp_epsilon=rdp_epsilon, delta=delta)
            kwargs = dict(budget=budget, trials=n, mutant=mutant, seed=sim.seed, delta=adelta, confidence=confidence,
                          params=params)
            audit_run.prepare(algo, instance=inst, **kwargs)  # every check before any run (bad input: one line, no progress bar)
        from ..progress import on_terminal

        if on_terminal() and not json_out:
            from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

            with Progress(TextColumn("audit"), BarColumn(), TextColumn("{task.completed}/{task.total} runs"),
                          TimeRemainingColumn(), console=console(stderr=True), transient=True) as prog:
                task = prog.add_task("audit", total=None)
                res = audit_run.run_audit(algo, progress=lambda d, t: prog.update(task, completed=d, total=t),
                                          instance=inst, **kwargs)
        else:
            res = audit_run.run_audit(algo, instance=inst, **kwargs)
        inputs = {"algo": algo, "epsilon": epsilon, "rho": rho, "alpha": alpha, "rdp_epsilon": rdp_epsilon,
                  "delta": delta, "trials": res.trials, "mutant": res.mutant, "seed": seed, "level": confidence,
                  "param": params}
        ia = res.instance_audit
        inst_note = None if inst is None else (
            (f"instance {common.esc(inst.label)}: audited as well on neighbouring tables drawn from it "
             f"({ia['event']['event']}, {ia['event']['count_D']}/{ia['event']['trials_D']} runs on D, "
             f"{ia['event']['count_Dprime']}/{ia['event']['trials_Dprime']} on D'): ε lower bound "
             f"{fmt(ia['epsilon_lower'])}, " + ("no violation detected" if ia["passed"] else "VIOLATION")
             + "; the verdict above is the designed probes' (their inputs put the decision at its median)")
            if ia and ia["used"] else
            f"instance {common.esc(inst.label)}: not simulated by this audit — {res.algorithm}'s scenario cannot take it: "
            f"{ia['reason'] if ia else 'no instance probe'}")
        if json_out:
            out = res.as_dict()
            out.setdefault("instance", None if inst is None else inst.to_dict())
            emit_json("audit", inputs, value=res.epsilon_lower, saved_instance=save_instance,
                      instance_note=inst_note, **out)
            return
        rows = [("algorithm", res.algorithm + ("" if res.mutant == "none" else f" (mutant: {res.mutant})")),
                ("budget", ", ".join(f"{k} = {fmt(v)}" for k, v in res.budget.items() if k != "notion")
                 + f" ({res.budget['notion']})"),
                ("claimed ε", fmt(res.epsilon_claimed)), ("δ", fmt(res.delta)),
                ("ε lower bound", fmt(res.epsilon_lower)), ("level", f"{100 * res.confidence:g}%"),
                ("trials", f"{res.trials} on each input"),
                ("verdict", ("[green]" if res.passed else "[red]") + res.verdict + ("[/green]" if res.passed else "[/red]")
                 + (" [yellow](little power: a copy without noise is not caught either)[/yellow]"
                    if res.passed and (res.power or {}).get("caught") is False else ""))]
        con = console()
        con.print(kv_table(f"privacy audit of {res.algorithm}", rows))
        for ev in res.events:
            con.print(f"Event ({ev['direction']}, {ev['selected_on']}): {ev['event']}: {ev['count_D']}/{ev['trials_D']} "
                      f"runs on D, {ev['count_Dprime']}/{ev['trials_Dprime']} on D'.")
        con.print(f"Audited: {res.claim}.")
        con.print(res.note)
        if inst_note:
            con.print(f"[yellow]note[/yellow]: {inst_note}")
