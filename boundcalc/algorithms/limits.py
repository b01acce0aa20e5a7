"""How large a simulation the bulk-draw paths may run: limits on T and on T x runs, checked before any work.

The per-step and chunked paths are limited by T x runs (their cost is one vectorised step per round; the limits
live beside the commands: cli/simulate_cmd.py PER_STEP_LIMIT / CHUNK_LIMIT, verify/regret_check.py
PER_STEP_BUDGET). The two exact bulk-draw paths of the finite setting were not (issue 17 §3: ``simulate --algo
UCB --T 1e18 --runs 5`` grew to 22 GiB):

* ``stretch`` (finite/_stretch.py, UCB / KL-UCB / IMED on Bernoulli arms): a stretch is laid out in blocks of at
  most ``_stretch.SPLIT_MAX`` = 2**29 steps (numpy's hypergeometric draws need populations below 1e9), so a
  stretch of length L holds ~log2(2**29) + L / 2**29 blocks per run: 1.9e9 blocks per run at T = 1e18 (the
  22 GiB), and past T ~ 1e10 the work grows linearly in T. Measured on the project's 2-core machine (shared):
  UCB T = 1e9, 50 runs: 68 s; T = 1e10, 50 runs: over 120 s; T = 1e11, 2 runs: over 120 s; IMED T = 1e10,
  50 runs: 97 s.
* ``thinning`` (finite/_thinned_ts.py, Lazy-DP-TS on Bernoulli arms when ε T >= MIN_EPS_T; below, the per-step
  loop, limited like every per-step path): measured Lazy-DP-TS ε = 1, 5 runs: T = 1e9 59 s, T = 1e11 89 s,
  T = 1e13 over 120 s.

``path(alg, env, T)`` is the path a run really takes (the card's switch ``uses_thinning``: Lazy-DP-TS below
ε T = MIN_EPS_T loops over every step).
"""

from __future__ import annotations

from ..errors import InputError, flag

# the parameters a limit names (errors.flag placeholders: the CLI names its flags, "--T x --runs")
T_PARAM, PRODUCT = flag("T"), f"{flag('T')} x {flag('runs')}"

# (largest T, largest T x runs) of each bulk-draw path
STRETCH_MAX_T, STRETCH_MAX_RUN_STEPS = 1e10, 1e11
THINNING_MAX_T, THINNING_MAX_RUN_STEPS = 1e11, 1e12
LIMITS = {"stretch": (STRETCH_MAX_T, STRETCH_MAX_RUN_STEPS), "thinning": (THINNING_MAX_T, THINNING_MAX_RUN_STEPS)}


def path(alg, env, T) -> str:
    """``granularity(alg, env)``, except ``step`` where a thinning algorithm takes its per-step loop at this T."""
    from . import granularity

    g = granularity(alg, env)
    uses = getattr(alg, "uses_thinning", None)  # the card's switch (Lazy-DP-TS: epsilon T >= _thinned_ts.MIN_EPS_T)
    if g == "thinning" and not isinstance(alg, type) and uses is not None and not uses(env, float(T)):
        return "step"
    return g


def check(alg, env, T, runs, T_name: str = T_PARAM, product_name: str = PRODUCT) -> None:
    """InputError (naming ``T_name`` or ``product_name`` and the allowed range) when a stretch or thinning run of
    ``alg`` at T with ``runs`` runs is beyond its limits; nothing for the other paths."""
    g = path(alg, env, T)
    if g not in LIMITS:
        return
    max_T, max_steps = LIMITS[g]
    what = {"stretch": "the leader-stretch engine's", "thinning": "the thinned simulation's"}[g]
    if T > max_T:
        raise InputError(T_name, f"an integer in [1, {max_T:g}] for {alg.name} ({what} work and memory grow "
                         "linearly in T beyond)", float(T))
    if float(T) * float(runs) > max_steps:
        raise InputError(product_name, f"at most {max_steps:g} for {alg.name} ({what} work grows with T and the "
                         f"runs); lower {T_PARAM} or {product_name.split(' x ')[-1]}", float(T) * float(runs))


# largest T x runs of the per-step loop (by setting) and of the chunked scoring path: the values of `simulate`
# (cli/simulate_cmd.py PER_STEP_LIMIT, CHUNK_LIMIT; tests/budget/test_budget_size_limit.py keeps them equal)
PER_STEP_RUN_STEPS = {"finite": 5e8, "linear": 5e7, "contextual": 5e7, "glm": 5e7}
CHUNK_RUN_STEPS = 5e7


def check_run_steps(alg, env, T, runs, setting: str, T_name: str = T_PARAM, product_name: str = PRODUCT) -> None:
    """``check`` and, for the per-step and chunked paths, T x runs within PER_STEP_RUN_STEPS / CHUNK_RUN_STEPS (the
    limits of ``simulate``): InputError naming ``product_name`` otherwise. For a command that simulates ``runs`` runs
    of ``alg`` at T (``budget --by simulation``: its most runs at one budget, --max-runs)."""
    check(alg, env, T, runs, T_name, product_name)
    g = path(alg, env, T)
    name = getattr(alg, "name", str(alg))
    work = float(T) * float(runs)
    if g == "step" and work > PER_STEP_RUN_STEPS.get(setting, 5e7):
        raise InputError(product_name, f"at most {PER_STEP_RUN_STEPS.get(setting, 5e7):g} for {name}, which updates "
                         f"every step (a loop over t); lower {T_PARAM} or the runs", work)
    if g == "chunk" and work > CHUNK_RUN_STEPS:
        raise InputError(product_name, f"at most {CHUNK_RUN_STEPS:g} for {name}, which scores every step; lower {T_PARAM} "
                         "or the runs", work)


def reason(alg, env, T, runs) -> str:
    """The message of ``check`` ('' when within the limits), for callers that report instead of failing."""
    try:
        check(alg, env, T, runs)
    except InputError as exc:
        return str(exc)
    return ""
