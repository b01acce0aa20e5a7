"""Bound against reality: simulate each bound's algorithm on the bound's own instance, parameters and budget.

For every applicable upper bound with an algorithm, ``check_rows`` builds the algorithm from the bound's context
(the same λ, λ0, S, L, C, δ, … the bound was evaluated with) and the environment the context describes, runs it
(boundcalc.montecarlo) at the bound's horizon with the budget the bound was evaluated at, and attaches to the row
an ``empirical`` entry: mean regret, 95% interval, ``assumptions_met`` / ``assumptions_note`` (does the simulated
instance satisfy the theorem's assumptions?) and a verdict:

- ``outside the assumptions: …`` when the instance does not meet the theorem's assumptions (no verdict then);
- ``vacuous at this T …`` when the bound is at or above the trivial bound (it says nothing, so "held" would too);
- ``held``: the upper end of the interval is below the bound;
- ``violated (significant)``: the lower end is above the bound — for a bound in its exact/explicit form and
  non-asymptotic kind this is a computed counterexample; for a ``paper`` form (constants set to 1) or an
  ``upper-asymptotic`` bound (only a limit as T → ∞ is claimed) it is *not* a refutation and is labelled so;
- ``inconclusive``: the interval contains the bound.

The adapters (bound context -> algorithm and environment, and back with ``context_for``) are in verify/adapters.py.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from ..errors import flag, render

# the adapters and their inverse live in verify/adapters.py; re-exported here (check_rows uses them, so do callers)
from .adapters import (  # noqa: F401
    Adapter, _finite_env, _linear_env, _contextual_env, glm_check_theta, _glm_env, _join, _finite_assumptions,
    _linear_assumptions, _contextual_common, _oful_assumptions, _dgs_assumptions, _margin_refuted,
    _glm_assumptions, _adapters, _same, _effective_params,
    _instance_difference, _contextual_instance, instance_for, context_for, bound_adapters,
)

# Largest T x runs simulated for an algorithm that updates every step (the others are episode-level).
PER_STEP_BUDGET = 2e7
# Largest runs x K x d context entries drawn at once (contextual / GLM): what fits in memory.
CONTEXT_BUDGET = 2e7
# Blocks of runs: the engine's default (per-step algorithms vectorise across the runs of a block: 20-run blocks
# took twice as long); progress is shown per algorithm and per block.
CHECK_BLOCK_RUNS = 50
# Default horizon of `regret --check` per setting: answers in seconds on one core (benchmarks/RESULTS_regret_check.md).
DEFAULT_CHECK_T = {"finite": 10**6, "linear": 10**6, "contextual": 10**4, "glm": 10**4}


def _budget_from_dict(d):
    from ..privacy.budgets import NOTIONS

    if not d:
        return None
    cls = NOTIONS[d["notion"]]
    return cls(**{k: v for k, v in d.items() if k != "notion"})


def verdict(bound_value: float, lo: float, hi: float, form: str, kind: str, *, assumptions_met: bool = True,
            assumptions_note: str = "", trivial_bound: float | None = None) -> str:
    """Verdict on E[Reg_T] <= bound from a confidence interval [lo, hi] of E[Reg_T] (see the module docstring)."""
    if not assumptions_met:
        return f"outside the assumptions: {assumptions_note}"
    if trivial_bound is not None and kind.startswith("upper") and bound_value >= trivial_bound:
        return (f"vacuous at this T: the bound is at or above the trivial bound {trivial_bound:.6g}, so any algorithm "
                "meets it")
    if hi <= bound_value:
        return "held"
    if lo > bound_value:
        if form == "paper":
            return "exceeded (paper form with constants set to 1: not a refutation)"
        if kind == "upper-asymptotic":
            return "exceeded at this T (asymptotic bound: only the limit T → ∞ is claimed)"
        return "violated (significant)"
    return "inconclusive"


def _too_big(setting, alg, env, T, runs) -> str:
    from ..algorithms import limits

    big = limits.reason(alg, env, T, runs)  # the stretch and thinning paths (issue 17 §3)
    if big:
        return big
    if limits.path(alg, env, T) == "step" and T * runs > PER_STEP_BUDGET:
        return render(f"per-step algorithm: T × runs = {T * runs:.3g} above {PER_STEP_BUDGET:g}; lower {flag('T')} or "
                      f"{flag('runs')}")
    if setting in ("contextual", "glm"):
        n = min(runs, CHECK_BLOCK_RUNS) * int(env.K) * int(env.d)
        if n > CONTEXT_BUDGET:
            return render(f"runs per block × K × d = {n:.3g} context entries per round, above {CONTEXT_BUDGET:g} "
                          f"(memory); lower {flag('K')} or {flag('d')}")
    return ""


# Smallest ε or ρ simulated: below it the noise (scale about 1/ε, 1/√ρ) swamps every reward by 8+ orders of magnitude,
# the regret is that of uniform play, and some algorithms' epoch lengths leave the exact-integer range of floats
# (DP-SE does not finish at ε = 1e-20).
SMALLEST_SIMULATED_BUDGET = 1e-8


def _too_extreme(budget) -> str:
    """A budget whose noise scale is beyond what the simulation can carry is not simulated (stated as such)."""
    if budget is None:
        return ""
    for name in ("epsilon", "rho"):
        x = getattr(budget, name, None)
        if x is not None and float(x) < SMALLEST_SIMULATED_BUDGET:
            return (f"not simulated: {name} = {float(x):.3g} is below {SMALLEST_SIMULATED_BUDGET:g} (the noise would swamp "
                    "the rewards by 8+ orders of magnitude and leave floating point's exact range)")
    return ""


def _simulate_quietly(montecarlo, alg, env, T, runs, seed, progress, checkpoints=None):
    """Run the engine with floating-point warnings off: an extreme budget (noise of scale 1e300) must not print
    RuntimeWarnings; a non-finite result is reported as such by the caller instead. ``checkpoints`` (ending at T;
    default [T]) only adds the points where the regret is recorded: the draws, and so the regret at T, are the same
    (its interval agrees to rounding)."""
    import warnings

    cps = np.array([T]) if checkpoints is None else np.asarray(checkpoints)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        with np.errstate(all="ignore"):
            return montecarlo.run(alg, env, T, runs, seed=seed, checkpoints=cps, progress=progress,
                                  block_runs=CHECK_BLOCK_RUNS)


def _builtin_names() -> set:
    from ..algorithms import builtin_by_setting

    return {n for algs in builtin_by_setting().values() for n in algs}


def curve_checkpoints(T: int, n: int | None = None) -> np.ndarray:
    """Log-spaced checkpoints up to T for a figure of the simulated regret (at least figures.MIN_PLOT_CHECKPOINTS)."""
    from ..figures import MIN_PLOT_CHECKPOINTS
    from ..montecarlo import log_checkpoints

    return log_checkpoints(int(T), max(int(n or 0), MIN_PLOT_CHECKPOINTS))


def _pair_by_cards(rows) -> None:
    """The bounds an algorithm's card pairs it with (``bound_ids``) that name another algorithm (a variant checked
    against the original's theorem): a copy of each such row, with the card's algorithm, right after it (in place).
    The built-in cards list only bounds that name them, so their rows are unchanged."""
    from ..algorithms import all_algorithms

    extra: dict[str, list[str]] = {}
    for name, cls in all_algorithms().items():
        for bid in getattr(cls, "bound_ids", ()) or ():
            extra.setdefault(bid, []).append(name)
    i = 0
    while i < len(rows):
        r = rows[i]
        add = [] if r.get("paired_by") else [n for n in extra.get(r.get("id"), ()) if n != r.get("algorithm")]
        for k, n in enumerate(add, 1):
            rows.insert(i + k, dict(r, algorithm=n, paired_by=f"bound_ids of {n}"))
        i += 1 + len(add)


def check_rows(setting, ctx, rows, user_budget, T: int, simulation, progress: bool = False,
               checkpoints=None) -> dict:
    """Add ``empirical`` to each applicable upper-bound row with a simulable algorithm (see the module docstring),
    simulated with ``simulation`` (a montecarlo.settings.Simulation: its runs and seed).

    Each algorithm is simulated once per budget (shared by its several bound forms). Rows without a simulable
    algorithm get ``empirical = {"status": reason, "assumptions_met": None, …}``. With ``checkpoints`` (ending at
    T, e.g. ``curve_checkpoints(T)``) the regret is also recorded along the way: ``empirical["curve"]`` holds
    t, mean and the 95% Student-t interval at each checkpoint (for a figure); the values at T are unchanged.
    Returns timing {"seconds": total, "per_algorithm": {name: seconds}, "T": T, "runs": runs}.
    """
    from .. import montecarlo
    from ..errors import InputError

    runs, seed = simulation.runs, simulation.seed
    _pair_by_cards(rows)
    adapters = _adapters()
    own = bound_adapters()  # bounds whose algorithm runs with an option of their own (seed 004 Cor. 1)
    cache: dict[tuple, Any] = {}
    timing: dict[str, float] = {}
    todo = [r for r in rows if r["applicable"] and r["kind"].startswith("upper") and r.get("algorithm")]
    # a plugin's bound (or a bound of a plugin algorithm) outside its declared assumptions here: no simulation, the
    # verdict says which assumption fails (docs/plugins.md); the built-in bounds keep their "not applicable" row
    for r in rows:
        if (not r["applicable"] and r["kind"].startswith("upper") and r.get("algorithm") in adapters
                and (r.get("plugin") or r["algorithm"] not in _builtin_names())):
            why = f"outside the assumptions: {r['reason']}"
            r["empirical"] = {"status": f"{why} (not simulated)", "verdict": why, "assumptions_met": False,
                              "assumptions_note": r["reason"]}
    names = sorted({r["algorithm"] for r in todo if r["algorithm"] in adapters})
    for r in todo:
        ad = own.get(r.get("id")) or adapters.get(r["algorithm"])
        if ad is None:
            r["empirical"] = {"status": f"no simulation adapter for {r['algorithm']} in the {setting} setting yet",
                              "assumptions_met": None, "assumptions_note": "not simulated"}
            continue
        budget = _budget_from_dict(r.get("budget_used"))
        key = (r["algorithm"], repr(budget), r.get("id") if r.get("id") in own else "")
        if key not in cache:
            alg = env = res = None
            try:
                alg = ad.build(ctx, budget)
                env = ad.env(ctx)
            except InputError as exc:  # e.g. a budget the algorithm cannot run at (LDP-OLS needs delta > 0)
                cache[key] = {"status": f"cannot simulate {r['algorithm']} here: {exc}"}
            if alg is not None:
                big = _too_big(setting, alg, env, T, runs) or _too_extreme(budget)
                if big:
                    cache[key] = {"status": big}
                else:
                    from ..progress import on_terminal

                    if progress and on_terminal():  # progress lines only on a terminal (issue 17 §3)
                        from rich.console import Console

                        i = names.index(r["algorithm"]) + 1 if r["algorithm"] in names else 0
                        Console(stderr=True, highlight=False).print(
                            render(f"[dim]{flag('check')} {i}/{len(names)}: {r['algorithm']} at T = {T:g}, {runs} runs[/dim]"))
                    t0 = time.perf_counter()
                    try:
                        res = _simulate_quietly(montecarlo, alg, env, T, runs, seed, progress, checkpoints)
                    except (ArithmeticError, ValueError) as exc:  # InputError included: no traceback, no verdict
                        res = None
                        cache[key] = {"status": f"the simulation of {r['algorithm']} failed at this budget: {exc}"}
                    timing[r["algorithm"]] = timing.get(r["algorithm"], 0.0) + time.perf_counter() - t0
                if res is not None:
                    lo, hi = res.ci(level=0.95, method="t")
                    if not (np.isfinite(res.mean()[-1]) and np.isfinite(lo[-1]) and np.isfinite(hi[-1])):
                        cache[key] = {"status": f"the simulation of {r['algorithm']} gave no finite regret at this "
                                                "budget (its noise overflows floating point): no verdict"}
                    else:
                        cache[key] = {"mean": float(res.mean()[-1]), "ci": [float(lo[-1]), float(hi[-1])],
                                      "runs": runs, "T": T, "seed": seed,
                                      "interval": "95% Student-t interval of the mean regret",
                                      "environment": env.describe() if hasattr(env, "describe") else str(env)}
                        from ..montecarlo.distribution import of_results

                        cache[key]["distribution"] = of_results(res, env)
                        if checkpoints is not None:
                            cache[key]["curve"] = {"t": res.checkpoints.tolist(), "mean": res.mean().tolist(),
                                                   "ci_low": lo.tolist(), "ci_high": hi.tolist()}
            cache[key]["_env"] = env
        emp = {k: v for k, v in cache[key].items() if k != "_env"}
        env = cache[key]["_env"]
        if env is not None:
            met, note = ad.assumptions(ctx, env, r)
        else:
            met, note = None, "not simulated"
        emp["assumptions_met"] = met
        emp["assumptions_note"] = note
        if "mean" in emp:
            emp["verdict"] = verdict(r["value"], emp["ci"][0], emp["ci"][1], r["form"], r["kind"],
                                     assumptions_met=bool(met), assumptions_note=note,
                                     trivial_bound=r.get("trivial_bound"))
        r["empirical"] = emp
    return {"seconds": float(sum(timing.values())), "per_algorithm": timing, "T": T, "runs": runs}
