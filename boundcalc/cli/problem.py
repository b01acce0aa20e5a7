"""The values of a command's option groups (issue 23 §1: the CLI's option resolution lives in cli/, the library takes
values): one builder per group, which every command taking the group calls —

* the instance: ``instance_from_options`` (a :class:`boundcalc.envs.spec.Instance`, below);
* the budget: ``budget_of`` (a privacy.budgets Budget), ``budget_list_of`` (regret's comma lists),
  ``budgets_by_notion`` (simulate's several algorithms);
* the target and the notion of `budget`: ``target_of`` (budget.Target), ``notion_of`` (budget.UserNotion);
* the simulation settings: ``simulation_of`` (montecarlo.settings.Simulation: runs, seed, block runs, executor plan)
  and, for `budget --by simulation`, ``search_of`` (budget.settings.Search).

The values check their own fields (errors naming their parameters, printed with the flags: cli/flags.py); a builder
adds what only the options can say (which combine, which conflict, a command's own ranges).

``instance_from_options(setting, **options)`` is the one function every command calls with its instance options
(through ``instance_options.resolve`` / ``for_bounds``, or directly); it checks how the options combine (which
conflict, which belong to which setting), draws what the options leave out (the recipes of docs/instances.md) and
returns the Instance, or None when no instance option is given. Errors name the flags. Module level: stdlib only
(numpy and envs.spec are imported by the functions).
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING

from ..errors import InputError

if TYPE_CHECKING:
    from ..envs.spec import Instance


def instance_from_options(setting: str, **options) -> Instance | None:
    """The one instance of a command's options, or None when no instance option is given (see ``_from_options``);
    an instance without a name is named by its description. A problem of the means given by --means names --means."""
    try:
        inst = _from_options(setting, **options)
    except InputError as exc:
        if exc.parameter == "instance means" and options.get("means") is not None:
            raise InputError("--means", exc.allowed, exc.got) from None
        if exc.parameter in ("instance theta", "instance actions/theta") and options.get("theta") is not None:
            raise InputError("--theta", exc.allowed, exc.got) from None
        if exc.parameter == "instance means" and options.get("gaps") is not None:
            raise InputError("--gaps / --best-mean", f"gaps giving means {exc.allowed}", exc.got) from None
        raise
    if inst is not None and not inst.name:
        import dataclasses

        inst = dataclasses.replace(inst, name=inst.describe())
    return inst


def _from_options(setting: str, *, means=None, K=None, gaps=None, best_mean=None, d=None, theta=None,
                  actions=None, actions_file=None, env_seed=None, env=None, instance_file=None,
                  instance: Instance | None = None, family=None, sigma=None, noise=None, contexts=None,
                  link=None) -> Instance | None:
    """The one instance of a command's options, or None when no instance option is given (the command keeps its
    default instance then). InputError on conflicting or bad options.

    * ``instance_file`` (or ``instance``): the instance of the file; every other defining option conflicts with it;
    * ``env`` (a named instance of envs.instances_by_setting, drawn with ``env_seed``): its instance;
    * finite: ``means``; or ``gaps`` (one gap for all K − 1 other arms with ``K``, or one gap per arm: K − 1
      values, or K values one of which is 0) below ``best_mean`` (default 0.5 + largest gap / 2, so that the means
      are centred on 1/2); or ``K`` alone: the μ2 pattern with K arms (as ``regret --K``); ``family``/``sigma``;
    * linear: ``actions`` (array) or ``actions_file`` (CSV or .npy, K x d), and ``theta``; missing parts drawn
      uniformly on the unit sphere from ``env_seed`` (default 3): actions first (``K`` x ``d``, defaults 10 x 3),
      then theta* -- the recipe of the registry's linear instance (seed 003 Sec. VII / App. H); ``noise``;
    * contextual: ``K`` (10), ``d`` (3), ``theta`` (else drawn on the unit sphere from ``env_seed``), ``contexts``
      (gaussian: the seed 003 Sec. VII recipe, projected; sphere); ``actions``/``actions_file``: a fixed action set;
    * glm: ``K`` (10), ``d`` (2), ``theta`` (else a unit vector from ``env_seed`` scaled by ``glm_default_scale``
      for uniform noise), ``link``, ``contexts``, ``noise`` (uniform by default: bounded rewards), ``sigma`` (0.1).
    """
    import os

    import numpy as np

    from ..envs.spec import (LIMITS, SETTINGS, Instance, _choice, _floats, _jsonable, _limited, _matrix, _pos, _seed,
                             _vector, glm_default_scale, load_actions, load_instance, unit_sphere)

    s = _choice("--setting", setting, SETTINGS)
    defining = {"--means": means, "--K": K, "--gaps": gaps, "--best-mean": best_mean, "--d": d, "--theta": theta,
                "--actions": actions if actions is not None else actions_file, "--family": family, "--sigma": sigma,
                "--noise": noise, "--contexts": contexts, "--link": link}
    given = [k for k, v in defining.items() if v is not None]
    if instance_file is not None or instance is not None:
        if instance_file is not None and instance is not None:
            raise InputError("--instance", "one instance (a file or an Instance, not both)", instance_file)
        others = given + (["--env"] if env is not None else []) + (["--env-seed"] if env_seed is not None else [])
        if others:
            raise InputError("--instance", "given alone (it defines the whole instance; it conflicts with "
                             + ", ".join(others) + ")", instance_file or instance.label)
        inst = load_instance(instance_file) if instance_file is not None else instance
        if inst.setting != s:
            raise InputError("--instance", f"an instance of the {s} setting", f"{inst.setting} ({inst.label})")
        return inst
    if env is not None:
        if given:
            raise InputError("--env", "given alone or with --env-seed (a named instance conflicts with "
                             + ", ".join(given) + ")", env)
        from ..envs import make_named_env, setting_of

        es = 3 if env_seed is None else _seed(env_seed)
        if setting_of(env) != s:
            raise InputError("--env", f"an instance of the {s} setting", f"{env} ({setting_of(env)})")
        e = make_named_env(env, seed=es)
        return Instance.from_env(e, source={"env": env, "env_seed": es, "drawn": s != "finite"})
    if not given and env_seed is None:
        return None
    src: dict = {"options": {k: _jsonable(v) if not isinstance(v, str) else v for k, v in defining.items()
                             if v is not None and k != "--actions"}}
    if actions_file is not None:
        src["actions_file"] = os.path.basename(str(actions_file))
    A = None
    if actions is not None or actions_file is not None:
        if actions is not None and actions_file is not None:
            raise InputError("--actions", "one action set (an array or a file)", actions_file)
        A = np.asarray(_matrix("--actions", actions if actions is not None else load_actions(actions_file)))
    th = None if theta is None else np.asarray(_vector("--theta", _floats("--theta", theta)))
    Kn = None if K is None else _limited("--K", K, LIMITS["K_finite" if s == "finite" else "K"])
    dn = None if d is None else _limited("--d", d, LIMITS["d"])
    if (Kn or 10) * (dn or 3) > LIMITS["Kd"]:
        raise InputError("--K", f"an integer with K·d ≤ {LIMITS['Kd']:g} (the K×d action matrix must fit in memory)", K)
    if s == "finite":
        return _finite_from_options(means, Kn, gaps, best_mean, family, sigma, env_seed, dn, th, A, noise, contexts,
                                    link, src)
    for opt, v in (("--means", means), ("--gaps", gaps), ("--best-mean", best_mean), ("--family", family)):
        if v is not None:
            raise InputError(opt, f"used only with finite instances (this is a {s} instance)", v)
    if A is not None:
        for opt, n, what in (("--K", Kn, 0), ("--d", dn, 1)):
            if n is not None and n != A.shape[what]:
                raise InputError(opt, f"equal to the {'rows' if what == 0 else 'columns'} of --actions "
                                 f"({A.shape[what]}), or left out", n)
    if th is not None:
        dd = A.shape[1] if A is not None else dn
        if dd is not None and th.size != dd:
            raise InputError("--theta", f"a vector of length d = {dd}", th.size)
    es = 3 if env_seed is None else _seed(env_seed)
    rng = np.random.default_rng(es)
    if s == "linear":
        for opt, v in (("--contexts", contexts), ("--link", link)):
            if v is not None:
                raise InputError(opt, "used only with contextual or GLM instances", v)
        if A is None:
            dd = dn if dn is not None else (th.size if th is not None else 3)
            A = unit_sphere(rng, 10 if Kn is None else Kn, dd)
        if th is None:
            th = unit_sphere(rng, 1, A.shape[1])[0]
        src.update(env_seed=es, drawn=actions is None and actions_file is None or theta is None)
        return Instance("linear", actions=A.tolist(), theta=th.tolist(), noise=noise, sigma=sigma,
                        source=src)
    if s == "contextual":
        if link is not None:
            raise InputError("--link", "used only with GLM instances", link)
        dd = A.shape[1] if A is not None else (dn if dn is not None else (th.size if th is not None else 3))
        if th is None:
            th = unit_sphere(rng, 1, dd)[0]
        src.update(env_seed=es, drawn=theta is None)
        if A is not None:
            if contexts not in (None, "pool"):
                raise InputError("--contexts", "pool (or left out) with --actions (a fixed action set)", contexts)
            inst = Instance("contextual", theta=th.tolist(), K=A.shape[0], contexts="pool", actions=A.tolist(),
                            noise=noise, sigma=sigma, source=src)
        else:
            kind = contexts or "gaussian"
            inst = Instance("contextual", theta=th.tolist(), K=10 if Kn is None else Kn, contexts=kind, noise=noise,
                            sigma=sigma, source=src)
        return inst
    # glm
    if A is not None:
        raise InputError("--actions", "used only with linear or contextual instances (GLM contexts are drawn)",
                         "--actions")
    dd = dn if dn is not None else (th.size if th is not None else 2)
    nz = noise or "uniform"
    sg = 0.1 if sigma is None else _pos("--sigma", sigma)
    if th is None:
        u = unit_sphere(rng, 1, dd)[0]
        th = u * (glm_default_scale(sg) if nz == "uniform" and (link or "linear") == "linear" else 1.0)
    src.update(env_seed=es, drawn=theta is None)
    return Instance("glm", theta=th.tolist(), K=10 if Kn is None else Kn, link=link, contexts=contexts, noise=nz,
                    sigma=sg, source=src)


instance_from_options.__signature__ = inspect.signature(_from_options)  # the keywords of _from_options
instance_from_options.__doc__ = _from_options.__doc__


def _finite_from_options(means, K, gaps, best_mean, family, sigma, env_seed, d, th, A, noise, contexts, link, src):
    import math

    from ..envs.spec import Instance, _floats, _mu2_pattern, _pos, _vector
    for opt, v in (("--d", d), ("--theta", th), ("--actions", A), ("--noise", noise), ("--contexts", contexts),
                   ("--link", link)):
        if v is not None:
            raise InputError(opt, "used only with linear, contextual or GLM instances (this is a finite instance)",
                             "given")
    if env_seed is not None:
        raise InputError("--env-seed", "used only with linear, contextual or GLM instances (finite instances are "
                         "fixed by their means)", env_seed)
    if means is not None:
        if gaps is not None or best_mean is not None:
            raise InputError("--means", "given without --gaps/--best-mean (both define the means)", means)
        m = _vector("--means", _floats("--means", means))
        if (family or "bernoulli") == "bernoulli":
            from .. import validate

            m = tuple(validate.means("--means", list(m)))
        if K is not None and K != len(m):
            raise InputError("--K", f"equal to the number of --means values ({len(m)}), or left out", K)
        name = ""
    elif gaps is not None:
        g = _floats("--gaps", gaps)
        if any(x < 0 or not math.isfinite(x) for x in g):
            raise InputError("--gaps", "non-negative finite numbers", list(g))
        if len(g) == 1:
            if K is None:
                raise InputError("--K", "given with a single --gaps value (K − 1 arms at that gap below the best)",
                                 None)
            g = [0.0] + [g[0]] * (K - 1)
        elif 0.0 not in g:
            g = [0.0] + list(g)
        if K is not None and K != len(g):
            raise InputError("--K", f"equal to the number of arms --gaps describes ({len(g)}), or left out", K)
        if len(g) < 2:
            raise InputError("--gaps", "the gaps of at least 2 arms", list(g))
        top = 0.5 + max(g) / 2 if best_mean is None else float(best_mean)
        m = tuple(top - x for x in g)
        name = f"finite, K = {len(m)}, best mean {top:.4g}, gaps " + (
            ", ".join(f"{x:.3g}" for x in g[1:]) if len(g) <= 6 else f"{min(g[1:]):.3g}…{max(g[1:]):.3g}")
    elif K is not None:
        if best_mean is not None:
            raise InputError("--best-mean", "given with --gaps", best_mean)
        if K < 2:
            raise InputError("--K", "an integer >= 2 (arms of a finite instance)", K)
        m = _mu2_pattern(K)
        name = (f"μ2 pattern with K = {K} arms: means evenly spaced from 0.75 to 0.25" if K != 5 else
                "seed 001 App. G / Sajed–Sheffet μ2")
    else:
        if best_mean is not None:
            raise InputError("--best-mean", "given with --gaps", best_mean)
        m = (0.75, 0.625, 0.5, 0.375, 0.25)  # the default finite instance (μ2), family/sigma changed
        name = "seed 001 App. G / Sajed–Sheffet μ2"
    return Instance("finite", name=name, means=m, family=family,
                    sigma=None if sigma is None else _pos("--sigma", sigma), source=src)


# -- the budget (boundcalc.privacy.budgets), one group of options: --epsilon [--delta], --rho, --alpha with
# --rdp-epsilon, --ldp-epsilon [--ldp-delta] --------------------------------------------------------------------------
def budget_of(epsilon=None, rho=None, alpha=None, rdp_epsilon=None, delta=None, ldp_epsilon=None, ldp_delta=None):
    """The one budget the user gave (a privacy.budgets Budget, or None). Conflicting or incomplete options raise
    InputError naming the flags (--epsilon, not the budget class's "epsilon": common.option_names)."""
    from .common import option_names

    with option_names():
        return _budget_of(epsilon, rho, alpha, rdp_epsilon, delta, ldp_epsilon, ldp_delta)


def _budget_of(epsilon=None, rho=None, alpha=None, rdp_epsilon=None, delta=None, ldp_epsilon=None, ldp_delta=None):
    from ..privacy import RDP, ZCDP, ApproxDP, LocalDP, PureDP

    given = {
        "pure/approx": epsilon is not None,
        "zcdp": rho is not None,
        "rdp": alpha is not None or rdp_epsilon is not None,
        "ldp": ldp_epsilon is not None or ldp_delta is not None,
    }
    if sum(given.values()) > 1:
        raise InputError("budget", "exactly one of --epsilon [--delta], --rho, --alpha/--rdp-epsilon, --ldp-epsilon [--ldp-delta]", ", ".join(k for k, v in given.items() if v))
    if delta is not None and epsilon is None:
        raise InputError("--delta", "given together with --epsilon (an (ε, δ)-DP budget)", delta)
    if given["pure/approx"]:
        return ApproxDP(epsilon, delta) if delta is not None else PureDP(epsilon)
    if given["zcdp"]:
        return ZCDP(rho)
    if given["rdp"]:
        if alpha is None or rdp_epsilon is None:
            raise InputError("--alpha/--rdp-epsilon", "given together (an (α, ε)-RDP budget)", alpha if alpha is not None else rdp_epsilon)
        return RDP(alpha, rdp_epsilon)
    if given["ldp"]:
        if ldp_epsilon is None:
            raise InputError("--ldp-epsilon", "given with --ldp-delta (a local (ε, δ)-DP budget)", None)
        return LocalDP(ldp_epsilon, ldp_delta or 0.0)
    return None


def budgets_by_notion(epsilon=None, rho=None, alpha=None, rdp_epsilon=None, delta=None, ldp_epsilon=None,
                      ldp_delta=None) -> dict:
    """One budget per privacy notion given, {notion: Budget}, for several algorithms of different notions in one
    call (``simulate --algo DP-KLUCB,AdaC-UCB --epsilon 1 --rho 0.5``). Each group of flags (--epsilon [--delta];
    --rho; --alpha with --rdp-epsilon; --ldp-epsilon [--ldp-delta]) is checked as ``budget_of`` checks the one budget
    of a single algorithm."""
    out = {}
    for group in ({"epsilon": epsilon, "delta": delta}, {"rho": rho}, {"alpha": alpha, "rdp_epsilon": rdp_epsilon},
                  {"ldp_epsilon": ldp_epsilon, "ldp_delta": ldp_delta}):
        b = budget_of(**group)
        if b is not None:
            out[b.notion] = b
    return out


def budget_list_of(epsilon=None, rho=None, alpha=None, rdp_epsilon=None, delta=None, ldp_epsilon=None,
                   ldp_delta=None) -> list:
    """Like ``budget_of``, but --epsilon, --rho, --rdp-epsilon and --ldp-epsilon may be comma lists (one of them at
    most; regret --rho 0.001,0.01,0.1): one budget per value, in the order given ([None] when no budget is given)."""
    from .. import validate

    lists = {}
    for flag, text in (("--epsilon", epsilon), ("--rho", rho), ("--rdp-epsilon", rdp_epsilon),
                       ("--ldp-epsilon", ldp_epsilon)):
        if text is not None:
            lists[flag] = validate.float_list(flag, text, validate.finite)
    long = [f for f, v in lists.items() if len(v) > 1]
    if len(long) > 1:
        raise InputError(long[1], f"a single value when {long[0]} is a list (one budget sweep at a time)",
                         ",".join(map(str, lists[long[1]])))
    n = max((len(v) for v in lists.values()), default=1)
    out = []
    for i in range(n):
        pick = {f: (v[i] if len(v) > 1 else v[0]) for f, v in lists.items()}
        out.append(budget_of(pick.get("--epsilon"), pick.get("--rho"), alpha, pick.get("--rdp-epsilon"), delta,
                             pick.get("--ldp-epsilon"), ldp_delta))
    return out


# -- the target of `budget` (boundcalc.budget.Target): --max-overhead, --max-regret, --max-ratio-to-lower ------------
def target_of(max_overhead=None, max_regret=None, max_ratio_to_lower=None):
    """The one target the user gave (exactly one of the three options)."""
    from ..budget import Target

    given = [(k, v) for k, v in (("overhead", max_overhead), ("regret", max_regret), ("ratio", max_ratio_to_lower))
             if v is not None]
    if len(given) != 1:
        raise InputError("target", "exactly one of --max-overhead, --max-regret, --max-ratio-to-lower",
                         ", ".join(k for k, _ in given) or None)
    return Target(*given[0])


# -- the user's notion of `budget` (boundcalc.budget.UserNotion): --notion, --alpha, --delta, --ldp-delta -------------
def notion_of(setting: str, notion=None, alpha=None, delta=1e-6, ldp_delta=None):
    """The notion the budget is answered in (default: the setting's, ``budget.measured.DEFAULT_NOTION``): its Rényi order (--alpha,
    with --notion rdp only), its privacy δ (``delta``: --delta, already validated, for approx) or its local δ
    (--ldp-delta, for ldp)."""
    from ..budget import UserNotion
    from ..budget.measured import DEFAULT_NOTION

    name = notion or DEFAULT_NOTION[setting]
    un = UserNotion(name, alpha=alpha, delta=delta if name == "approx" else (ldp_delta if name == "ldp" else None))
    if name not in ("rdp",) and alpha is not None:
        raise InputError("--alpha", "used only with --notion rdp", alpha)
    return un


# -- the simulation settings (boundcalc.montecarlo.settings.Simulation): --runs, --seed, --block-runs, --executor,
# --workers, --processes, --scheduler --------------------------------------------------------------------------------
def simulation_of(ctx=None, runs=None, seed="0", block_runs=None, executor=None, workers=None, processes="1",
                  scheduler=None, *, runs_range=(1, 10**9), runs_default=None, seed_max=2**63 - 1, n_tasks=None,
                  algorithms: int = 1, plan: bool = True):
    """The Simulation of a command's simulation options and the notes on options an executor does not read.

    ``runs_range``: the command's [min, max] of --runs (simulate 1..1e9, budget and regret --check 2..1e6);
    ``runs_default``: the runs when --runs is not given (None with no --runs: the caller's own counts, a worksheet's);
    ``n_tasks``: the blocks the executor gets (default: the blocks of ``algorithms`` simulations of --runs runs in
    blocks of --block-runs), which caps the workers started; ``plan``: False for a command that runs no executor
    (regret --check: in-process)."""
    from .. import validate
    from ..errors import ParamName
    from ..montecarlo.settings import ExecutorPlan, Simulation

    text = runs if runs is not None else runs_default
    R = None if text is None else validate.count(ParamName("runs"), text, minimum=runs_range[0],
                                                   maximum=runs_range[1])
    sd = validate.count(ParamName("seed"), seed, minimum=0, maximum=seed_max)
    B = None if block_runs is None else validate.count(ParamName("block_runs"), block_runs, minimum=1,
                                                         maximum=runs_range[1])
    if not plan:
        return Simulation(runs=R, seed=sd, block_runs=B), []
    if n_tasks is None:  # the number of engine.block_sizes(R, B), not the list (1e9 runs: 2e7 blocks)
        import math

        from ..montecarlo import engine

        n_tasks = math.ceil(R / (B if B is not None else engine.DEFAULT_BLOCK_RUNS)) * algorithms
    from . import executor_options

    p, notes = executor_options.plan_executor(ctx, executor, workers, processes, scheduler, n_tasks)
    return Simulation(runs=R, seed=sd, block_runs=B, executor=ExecutorPlan(**p)), notes


# -- the measured search of `budget --by simulation` (boundcalc.budget.settings.Search) ------------------------------
def search_of(simulation, quantile=None, max_runs=None, counterpart=None, counterpart_param=None, pairing=None):
    """The Search of `budget --by simulation`'s options, around its ``simulation`` (``simulation_of``: the first
    batch's --runs, --seed, --block-runs, the executor): --quantile, --max-runs, --counterpart with
    --counterpart-param NAME=VALUE, --pairing. The value checks the quantile's range and the pairing (errors naming
    its parameters, printed with the flags); here what only the options can say: a quantile the --max-runs runs can
    estimate, --counterpart-param without --counterpart."""
    from .. import validate
    from ..budget.measured import DEFAULT_MAX_RUNS
    from ..budget.settings import MAX_RUNS, Search
    from ..errors import ParamName

    rmax = validate.count(ParamName("max_runs"), max_runs if max_runs is not None else str(DEFAULT_MAX_RUNS),
                          minimum=2, maximum=MAX_RUNS)
    n = max(rmax, simulation.runs)
    if quantile is not None and 0 < quantile < 1 and not 1 / n <= quantile <= 1 - 1 / n:
        raise InputError("--quantile", f"in [1/{n}, 1 − 1/{n}] (a quantile the --max-runs runs can estimate)",
                         quantile)
    from .simulate_cmd import _parse_params

    params = _parse_params(counterpart_param) if counterpart_param else None
    if params and counterpart is None:
        raise InputError("--counterpart-param", "used with --counterpart NAME", counterpart_param[0])
    return Search(simulation, quantile=quantile, max_runs=n, counterpart=counterpart, counterpart_params=params,
                  pairing=pairing)
