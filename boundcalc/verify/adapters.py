"""Algorithm and environment from a bound's context, and back: the adapters of ``regret --check``.

``_adapters()`` maps each simulable algorithm to an :class:`Adapter`: how to build the algorithm and its environment
from a bound's context (the same λ, λ0, S, L, C, δ, … the bound was evaluated with) and whether the theorem's
assumptions hold on that environment. ``context_for(alg, env, budget)`` is the inverse (the context of the registry
that describes an algorithm simulated on an environment, e.g. for ``simulate --plot``'s bound overlay), checked by
the adapters themselves; ``instance_for(env, setting)`` is its instance part. Used by ``verify.regret_check``,
``verify.overlay`` and ``budget.check``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np


@dataclass
class Adapter:
    """How to build an algorithm and its environment from a bound's context, and whether the theorem's
    assumptions hold on that environment."""

    build: Callable[[Any, Any], Any]  # (ctx, budget) -> Algorithm
    env: Callable[[Any], Any]  # ctx -> environment
    assumptions: Callable[[Any, Any, dict], tuple[bool, str]]  # (ctx, env, row) -> (met, note)


# -- environments built from a bound's context -----------------------------------------------------------------
def _finite_env(ctx):
    from ..envs import BernoulliEnv

    return BernoulliEnv(ctx["means"], name=ctx.get("name", "instance"))


def _linear_env(ctx):
    """The linear instance with +-1 rewards of mean <a, theta*> (bounded: Assumption 1's |r| <= 1) when
    |<a, theta*>| <= 1, else N(0, 1) noise (outside Assumption 1)."""
    from ..envs.linear import LinearEnv

    A, th = np.asarray(ctx["actions"]), np.asarray(ctx["theta"])
    bounded = bool(np.all(np.abs(A @ th) <= 1 + 1e-12))
    return LinearEnv(A, th, noise="rademacher" if bounded else "gaussian", sigma=float(ctx.get("sigma", 1.0)))


def _contextual_env(ctx):
    """The contextual instance of the bounds' context: seed 003 Sec. VII recipe (projected onto the unit ball by
    default) or the given action set, with the context's reward noise (+-1 rewards, or N(0, 1))."""
    from ..envs.contextual import ContextualLinearEnv

    d, K = int(ctx["d"]), int(ctx["K"])
    noise = ctx.get("reward_noise", "gaussian")
    if ctx.get("actions") is not None:
        return ContextualLinearEnv(ctx["theta"], K, contexts="pool", pool=ctx["actions"], noise=noise,
                                   name="fixed action set")
    project = ctx.get("context_distribution") == "gaussian-003-projected"
    return ContextualLinearEnv(ctx["theta"], K, contexts="gaussian", mean=np.full(d, 1 / np.sqrt(d)),
                               scale=np.sqrt(0.1), project=project, noise=noise,
                               name="seed 003 Sec. VII contexts" + (", projected" if project else ""))


def glm_check_theta(ctx) -> np.ndarray:
    """θ* of the GLM check: ctx["theta"] if given; else a unit vector from ``theta_seed`` (as envs.glm.make_glm_env),
    shrunk to norm min(1, (c_r − √3 σ_r)/C_B) so that |r| ≤ C_B‖θ*‖ + √3 σ_r ≤ c_r with uniform noise (the bounds
    hold for every ‖θ*‖ ≤ 1)."""
    from ..envs.linear import unit_sphere

    th = ctx.get("theta")
    if th is not None:
        return np.asarray(th, dtype=float)
    u = unit_sphere(np.random.default_rng(int(ctx.get("theta_seed", 3))), 1, int(ctx["d"]))[0]
    scale = min(1.0, (float(ctx["c_r"]) - math.sqrt(3.0) * float(ctx["sigma_r"])) / float(ctx["C_B"]))
    return u * max(scale, 0.0)


def _glm_env(ctx):
    """The GLM default instance (bounds/glm.py): K arms with contexts Unif(S^{d-1}) ("sphere") or N(0, I_d/d)
    ("gaussian"), linear link, uniform reward noise with the instance's σ_r (bounded, σ_r-sub-Gaussian), θ* of
    ``glm_check_theta``."""
    from ..envs.glm import GLMEnv

    sigma = max(float(ctx.get("sigma_r", 0.1)), 1e-300)  # sigma_r = 0: noiseless rewards
    return GLMEnv(glm_check_theta(ctx), int(ctx["K"]), link="linear", contexts=ctx.get("context", "sphere"),
                  sigma=sigma, noise="uniform", name="glm default instance")


# -- the theorems' assumptions on the simulated instance --------------------------------------------------------
def _join(problems: list[str], ok: str) -> tuple[bool, str]:
    return (False, "; ".join(problems)) if problems else (True, ok)


def _finite_assumptions(ctx, env, row):
    if getattr(env, "family", "bernoulli") != "bernoulli":
        return False, (f"the finite-armed theorems (seeds 000, 001, 003) assume rewards in [0, 1]; these are "
                       f"{env.family} (unbounded)")
    return True, "Bernoulli rewards in [0, 1]; the bound's own conditions hold on these means"


def _linear_assumptions(ctx, env, row):
    probs = []
    if ctx["max_action_norm"] > 1 + 1e-9:
        probs.append(f"Assumption 1 needs ||a|| <= 1 (max ||a|| = {ctx['max_action_norm']:.4g})")
    if ctx["theta_norm"] > 1 + 1e-9:
        probs.append(f"Assumption 1 needs ||theta*|| <= 1 (got {ctx['theta_norm']:.4g})")
    if env.noise != "rademacher":
        probs.append("Assumption 1 needs |r_t| <= 1; the rewards are N(<a, theta*>, 1)")
    return _join(probs, f"Assumption 1 holds (max ||a|| = {ctx['max_action_norm']:.4g}, ||theta*|| = "
                        f"{ctx['theta_norm']:.4g}, +-1 rewards, 1-sub-Gaussian); the actions span R^d")


def _gope_ls_assumptions(ctx, env, row):
    """GOPE's bounds (Lattimore & Szepesvári 2020 Thm 22.1 and its explicit form, bounds/baselines.py): conditionally
    1-sub-Gaussian noise (±1 rewards: Hoeffding's lemma; N(0, σ²) with σ ≤ 1); mean rewards in [−1, 1] are the
    paper form's ``requires`` (the explicit form has Δ_max ≤ 2 max‖a‖ ‖θ*‖ in its constants)."""
    probs = []
    sigma = float(getattr(env, "sigma", 1.0))
    if env.noise == "gaussian" and sigma > 1 + 1e-12:
        probs.append(f"Lattimore & Szepesvári Ch. 22 needs 1-sub-Gaussian noise; the rewards are N(<a, theta*>, "
                     f"{sigma:g}^2)")
    noise = "+-1 rewards" if env.noise == "rademacher" else f"N(0, {sigma:g}^2) noise"
    return _join(probs, f"1-sub-Gaussian reward noise ({noise}); max ||a|| ||theta*|| = "
                        f"{ctx['max_action_norm'] * ctx['theta_norm']:.4g}")


def _contextual_common(ctx, env, L: float, S: float, who: str) -> list[str]:
    probs = []
    xmax = env.max_context_norm
    if xmax > L + 1e-9:
        probs.append(f"{who} needs ||x|| <= {L:g}; the contexts have sup ||x|| = {xmax:.4g} (unprojected Gaussian)")
    th = float(np.linalg.norm(env.theta))
    if th > S + 1e-9:
        probs.append(f"{who} needs ||theta*|| <= {S:g} (got {th:.4g})")
    if env.noise != "rademacher":
        probs.append(f"{who} needs |r| <= 1; the rewards are N(<theta*, x>, {env.sigma:g}^2)")
    lam0_env = env.lambda0
    if ctx["lam0"] > lam0_env * (1 + 1e-9):
        probs.append(f"the bound uses lambda0 = {ctx['lam0']:.4g} > lambda_min(E xx^T) = {lam0_env:.4g} of these "
                     "contexts (a lambda0 at most the instance's is needed)")
    return probs


def _oful_assumptions(ctx, env, row, assumption2: bool = False):
    """Assumption 1 of seeds 000/003 on the contexts (OFUL, RS-OFUL); with ``assumption2`` also their Assumption 2,
    which the private OFULs' theorems add (check "oful-assumption2" of AdaC-OFUL's and AdaR-OFUL's cards)."""
    probs = _contextual_common(ctx, env, 1.0, 1.0, "Assumption 1 (seeds 000/003)")
    if assumption2:
        probs.insert(0, "Assumption 2 of seeds 000/003 (||A|| = 1 and Var[(z^T A)^2] <= lambda0^2/(8 log 4k)) cannot "
                        "hold for d >= 2 (ERRATA 1: vacuous) and does not hold for these contexts")
    return _join(probs, f"Assumption 1 holds (sup ||x|| = {env.max_context_norm:.4g}, ||theta*|| = "
                        f"{np.linalg.norm(env.theta):.4g}, +-1 rewards); lambda0 = {ctx['lam0']:.4g} <= "
                        f"lambda_min(E xx^T) = {env.lambda0:.4g}")


def _private_oful_assumptions(ctx, env, row):
    """AdaC-OFUL (seed 003 Thm 3) and AdaR-OFUL (seed 000 Thm 9): Assumptions 1 and 2 of seeds 000/003."""
    return _oful_assumptions(ctx, env, row, assumption2=True)


def _dgs_assumptions(ctx, env, row):
    probs = _contextual_common(ctx, env, float(ctx["L"]), float(ctx["S"]), "Assumption 1 (seed 004)")
    return _join(probs, f"Assumption 1 of seed 004 holds: i.i.d. contexts with sup ||x|| = "
                        f"{env.max_context_norm:.4g} <= L = {ctx['L']:g}, ||theta*|| <= S = {ctx['S']:g}, "
                        f"|r| <= 1, lambda0 = {ctx['lam0']:.4g} <= lambda_min(E xx^T) = {env.lambda0:.4g}")


def perturbed_lambda0(env, sigma: float, L: float, vectors: int = 40000, seed: int = 12345) -> float:
    """Monte Carlo estimate of lambda_min(E[x~ x~^T]) for x~ = x + sigma z projected onto ||x~|| <= L, x a context of
    ``env`` (every vector of ``vectors // K`` decision sets; seeded): the lambda0 seed 004 Cor. 1 needs >= sigma^2."""
    from ..algorithms.contextual.linucb import perturb_contexts

    rng = np.random.default_rng(seed)
    n = max(1, vectors // int(env.K))
    X = np.asarray(env.contexts(rng, (n,)), dtype=float).reshape(-1, int(env.d))
    Y = perturb_contexts(X, rng.standard_normal(X.shape), float(sigma), float(L))
    return float(np.linalg.eigvalsh(Y.T @ Y / Y.shape[0])[0])


def _cor1_assumptions(ctx, env, row):
    """seed 004 Cor. 1: ||x|| <= L, ||theta*|| <= S, |r| <= 1 for the contexts before perturbation (no distributional
    assumption), and lambda_min of the perturbed (projected) contexts' second moment >= sigma^2 (the corollary's
    lambda0 >= Omega(sigma^2) with constant 1; estimated by Monte Carlo)."""
    L, S, sig = float(ctx["L"]), float(ctx["S"]), float(ctx["perturb_sigma"])
    probs = []
    if env.max_context_norm > L + 1e-9:
        probs.append(f"Cor. 1 (seed 004) needs ||x|| <= {L:g}; the contexts have sup ||x|| = {env.max_context_norm:.4g}")
    th = float(np.linalg.norm(env.theta))
    if th > S + 1e-9:
        probs.append(f"Cor. 1 (seed 004) needs ||theta*|| <= {S:g} (got {th:.4g})")
    if env.noise != "rademacher":
        probs.append(f"Cor. 1 (seed 004) needs |r| <= 1; the rewards are N(<theta*, x>, {env.sigma:g}^2)")
    lam0 = perturbed_lambda0(env, sig, L) if env.max_context_norm <= L + 1e-9 else float("nan")
    if not lam0 >= sig**2:
        probs.append(f"the perturbed contexts' lambda_min(E x~x~^T) ≈ {lam0:.4g} (Monte Carlo) is below sigma^2 = "
                     f"{sig**2:.4g}, the lambda0 Cor. 1 uses")
    return _join(probs, f"Cor. 1 of seed 004 applies: sup ||x|| = {env.max_context_norm:.4g} <= L = {L:g}, ||theta*|| "
                        f"<= S = {S:g}, |r| <= 1; contexts perturbed by N(0, {sig:g}^2 I) and projected, lambda_min(E "
                        f"x~x~^T) ≈ {lam0:.4g} >= sigma^2 = {sig**2:.4g} (Monte Carlo)")


def _margin_refuted(ctx, env, n: int = 20000, seed: int = 12345) -> str:
    """Monte Carlo test of A4 ((γ, β)-margin, seed 002): P(Δ ≤ h) ≤ γ h^β on a grid of h; returns the refuting
    evidence (empty if not refuted). Δ = gap between the best and second-best mean reward of a decision set; the
    DKW band (level 1e-3) makes a refutation significant."""
    rng = np.random.default_rng(seed)
    x = env.contexts(rng, (n,))
    m = np.sort(env.mu(x @ env.theta), axis=-1)
    gap = m[:, -1] - m[:, -2]
    band = math.sqrt(math.log(2 / 1e-3) / (2 * n))
    g, b = float(ctx["gamma"]), float(ctx["beta"])
    for h in (1e-3, 1e-2, 0.05, 0.1, 0.2, 0.5):
        F = float(np.mean(gap <= h))
        if F - band > g * h**b:
            return (f"A4 ((gamma, beta) = ({g:g}, {b:g})-margin) fails on this instance: P(gap <= {h:g}) = {F:.3g} > "
                    f"gamma h^beta = {g * h ** b:.3g} (Monte Carlo, {n} decision sets)")
    return ""


def _glm_assumptions(ctx, env, row):
    probs = []
    if env.max_abs_reward > float(ctx["c_r"]) + 1e-12:
        probs.append(f"|r| <= c_r = {ctx['c_r']:g} fails (sup |r| = {env.max_abs_reward:.4g})")
    if env.C_B > float(ctx["C_B"]) + 1e-12:
        probs.append(f"||x|| <= C_B = {ctx['C_B']:g} fails (contexts {env.contexts_kind})")
    if float(np.linalg.norm(env.theta)) > 1 + 1e-12:
        probs.append("||theta*|| <= 1 fails")
    a3_default = (env.contexts_kind == "sphere" and env.d == 2 and env.K == 10 and float(ctx["kappa_l"]) <= 0.085
                  and float(ctx["p_star"]) <= 0.5)
    if not a3_default:
        probs.append("A3 (kappa_l, p_*) is verified only for Unif(S^1) contexts, d = 2, K = 10, kappa_l <= 0.085, "
                     "p_* <= 0.5 (Monte Carlo, bounds/glm.py); not for this instance")
    if "margin" in row.get("title", "") or "A4" in " ".join(row.get("assumptions", [])):
        why = _margin_refuted(ctx, env)
        if why:
            probs.append(why)
    return _join(probs, f"|r| <= c_r (uniform noise, sup |r| = {env.max_abs_reward:.4g}), ||x|| <= C_B, "
                        "||theta*|| <= 1, A2 (Sigma = I/d), A3 with the Monte Carlo constants"
                        + ("; A4 not refuted by Monte Carlo" if "A4" in " ".join(row.get("assumptions", [])) else ""))


# -- algorithms built from a bound's context ---------------------------------------------------------------------
def _option_build(cls, option: str):
    """The builder of a card's bound option: ``from_context(ctx, budget, option=ctx[option])``."""
    return lambda c, b: cls.from_context(c, b, **{option: c[option]})


def bound_adapters() -> dict[str, Adapter]:
    """Adapters of single bounds whose algorithm runs with an option its other bounds do not assume (checked before
    the algorithm's adapter), from the cards' ``bound_options`` ({bound id: (constructor option, assumption check)};
    e.g. seed 004 Cor. 1 runs LinUCB-DGS with perturbed contexts): built by the card's ``from_context`` with the
    option's value from the bound's context, judged by the named check of ASSUMPTION_CHECKS."""
    from ..algorithms import all_algorithms

    return {bid: Adapter(_option_build(cls, opt), _SETTING_ENVS[cls.setting], ASSUMPTION_CHECKS[check])
            for cls in all_algorithms().values()
            for bid, (opt, check) in (getattr(cls, "bound_options", None) or {}).items()}


def _private_linucb_assumptions(ctx, env, row):
    """Neel & Roth's bound is for an eps-DP algorithm; the simulated calibration (seed 004's 'paper', the adapter's)
    is pure eps_true-DP with eps_true = 2 sqrt(d) (floor(log2 T) + 1)/log2 T * eps > eps
    (linucb.PrivateLinUCB.privacy_epsilon): always outside the assumptions, with the other problems named."""
    met, note = _linucb_assumptions(ctx, env, row)
    probs = ["the bound is for an eps-DP algorithm; Private-LinUCB's paper calibration (seed 004's runs) is pure "
             "eps_true-DP with eps_true = 2 sqrt(d) (floor(log2 T)+1)/log2 T * eps > eps, not eps-DP"]
    return _join(probs + ([] if met else [note]), note)


def _linucb_assumptions(ctx, env, row):
    probs = _contextual_common(ctx, env, float(ctx["L"]), float(ctx["S"]), "LinUCB's bound")
    probs = [p for p in probs if "lambda0" not in p]  # lambda0 enters LinUCB-DGS only
    return _join(probs, f"||x|| <= L (sup ||x|| = {env.max_context_norm:.4g}), ||theta*|| <= S, +-1 rewards")


def _zheng_assumptions(ctx, env, row):
    probs = []
    if env.max_abs_reward > float(ctx["c_r"]) + 1e-12:
        probs.append(f"|r| <= c_r = {ctx['c_r']:g} fails (sup |r| = {env.max_abs_reward:.4g})")
    if env.C_B > 1 + 1e-12:
        probs.append(f"Zheng et al. 2020 need ||x|| <= 1 (contexts {env.contexts_kind}, C_B = {env.C_B:.4g})")
    if float(np.linalg.norm(env.theta)) > 1 + 1e-12:
        probs.append("||theta*|| <= 1 fails")
    return _join(probs, f"bounded rewards (sup |r| = {env.max_abs_reward:.4g}), ||x|| <= 1, ||theta*|| <= 1")


_SETTING_ENVS = {"finite": _finite_env, "linear": _linear_env, "contextual": _contextual_env, "glm": _glm_env}

# The theorems' assumption checks an algorithm's card names (``check_assumptions = "finite"``; docs/plugins.md).
ASSUMPTION_CHECKS = {"finite": _finite_assumptions, "linear": _linear_assumptions, "gope-ls": _gope_ls_assumptions,
                     "oful": _oful_assumptions, "oful-assumption2": _private_oful_assumptions,
                     "dgs": _dgs_assumptions, "dgs-cor1": _cor1_assumptions, "linucb": _linucb_assumptions,
                     "private-linucb": _private_linucb_assumptions, "glm": _glm_assumptions,
                     "zheng": _zheng_assumptions}


def card_adapter(cls) -> Adapter:
    """The adapter of an algorithm class from its card (docs/plugins.md; built-in and plugin alike): built by its
    ``from_context(ctx, budget)`` when it defines one, else (a plugin) with the budget and its default parameters; the
    environment of the setting's bound context; the assumptions: the card's ``check_assumptions`` (a name of
    ASSUMPTION_CHECKS, or a method (ctx, env) -> (met, note)) when declared (else rewards in [0, 1] for a
    finite-armed one), and the bound's own declared assumptions (``conditions``), whichever fails first named."""
    from .. import algorithms as registry

    def build(ctx, budget):
        hook = getattr(cls, "from_context", None)
        if callable(hook):
            return hook(ctx, budget)
        return registry.build(cls, budget)

    check = getattr(cls, "check_assumptions", None)
    if isinstance(check, str) and check not in ASSUMPTION_CHECKS:
        from ..errors import PluginError

        raise PluginError(f"{getattr(cls, 'plugin_origin', '') or cls.__module__} [algorithm {cls.name!r}]",
                          f"check_assumptions {check!r} is not one of {', '.join(ASSUMPTION_CHECKS)}")
    named = ASSUMPTION_CHECKS.get(check) if isinstance(check, str) else None

    def assumptions(ctx, env, row):
        probs = [f"the bound's assumption {c}" for c in row.get("conditions_failed", ())]
        hook = getattr(cls, "check_assumptions", None)
        if named is not None:
            met, note = named(ctx, env, row)
        elif callable(hook):
            met, note = hook(ctx, env)
        elif cls.setting == "finite":
            met, note = _finite_assumptions(ctx, env, row)
        else:
            met, note = True, f"{cls.name} (plugin) declares no assumption check on the environment"
        if not met:
            probs.append(note)
        return _join(probs, note)

    return Adapter(build, _SETTING_ENVS[cls.setting], assumptions)


plugin_adapter = card_adapter  # the name of issue 15


def _adapters() -> dict[str, Adapter]:
    """{name: Adapter} of every algorithm ``regret --check`` can build from a bound's context: the built-in ones
    whose card defines ``from_context``, and every plugin (docs/plugins.md)."""
    from ..algorithms import all_algorithms, is_plugin

    return {name: card_adapter(cls) for name, cls in all_algorithms().items()
            if is_plugin(cls) or callable(getattr(cls, "from_context", None))}


# -- the inverse: the bound context that describes a given algorithm and environment ----------------------------
def _same(a, b, tol: float = 1e-9) -> bool:
    """Equal values: strings, None and booleans exactly, numbers and arrays to a relative 1e-9."""
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, (str, bool)) or isinstance(b, (str, bool)):
        return type(a) is type(b) and a == b
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return a.shape == b.shape and bool(np.allclose(a, b, rtol=tol, atol=tol))


def _effective_params(alg, env) -> dict:
    """The algorithm's constructor parameters with the ones left to the environment (lambda0, zeta = None)
    replaced by the environment's value, which the simulation uses (lambda0: the algorithm's ``lambda0_used(env)``
    where it has one)."""
    from ..algorithms import params_of

    p = dict(params_of(alg))
    for k, attr in (("lambda0", "lambda0"), ("zeta", "zeta")):
        if k in p and p[k] is None and hasattr(env, attr):
            p[k] = float(getattr(env, attr))
    if "lambda0" in p and hasattr(alg, "lambda0_used"):  # the lambda0 the run uses (LinUCB-DGS: sigma^2, Cor. 1)
        p["lambda0"] = alg.lambda0_used(env)
    return p


# Environment attributes that make the instance (the reward noise is judged by the assumptions, not here).
_INSTANCE_ATTRS = ("means", "actions", "theta", "K", "d", "contexts_kind", "mean", "scale", "project", "pool", "link")


def _instance_difference(env, env2) -> str:
    for a in _INSTANCE_ATTRS:
        x, y = getattr(env, a, None), getattr(env2, a, None)
        if not _same(x, y):
            return f"its {a} differs from the bounds' instance"
    return ""


def _contextual_instance(env) -> tuple[dict | None, str]:
    """The contextual bounds' instance keys of a contextual environment: seed 003 Sec. VII recipe (projected or
    not), or a fixed action set (a pool offered whole every round)."""
    d = env.d
    if env.contexts_kind == "gaussian":
        recipe = _same(env.mean, np.full(d, 1 / math.sqrt(d))) and _same(env.scale**2, 0.1)
        if not recipe:
            return None, (f"{env.name}: contexts N(m, s^2 I) other than the contextual instance's N((1/sqrt d) 1, I/10) "
                          "(seed 003 Sec. VII)")
        over = {"d": d, "K": env.K, "context_distribution": "gaussian-003-projected" if env.project else "gaussian-003"}
    elif env.contexts_kind == "pool" and env.pool.shape[0] == env.K:
        over = {"actions": env.pool}
    else:
        return None, (f"{env.name}: {env.contexts_kind} contexts" + (f" ({env.K} of a pool of {env.pool.shape[0]} per "
                      "round)" if env.contexts_kind == "pool" else "") + " are not an instance of the contextual bounds "
                      "(seed 003 Sec. VII contexts, projected or not, or a fixed action set)")
    if env.noise == "gaussian" and not _same(env.sigma, 1.0):
        return None, f"{env.name}: reward noise N(0, {env.sigma:g}^2); the contextual bounds' instance has N(0, 1) or +-1"
    over.update(theta=env.theta, reward_noise=env.noise)
    return over, ""


def instance_for(env, setting: str) -> tuple[dict | None, str]:
    """Overrides of the setting's registry DEFAULT_INSTANCE naming the instance of ``env`` (means; actions and
    theta*; contexts, theta* and reward noise; GLM contexts, theta* and noise level), or ``(None, reason)`` when
    ``env`` is not an instance of the family the registry describes."""
    if getattr(env, "setting", setting) != setting:
        return None, f"{env.name}: not an instance of the {setting} setting"
    if setting == "finite":
        return {"means": np.asarray(env.means, dtype=float).tolist()}, ""
    if setting == "linear":
        return {"actions": env.actions, "theta": env.theta}, ""
    if setting == "contextual":
        return _contextual_instance(env)
    if setting == "glm":
        if getattr(env, "multi", False) or getattr(env, "link", None) != "linear":
            return None, f"{env.name}: the GLM bounds' instance is single-parameter with the linear link"
        return {"d": env.d, "K": env.K, "context": env.contexts_kind, "theta": env.theta, "sigma_r": env.sigma}, ""
    return None, f"no bound context for the {setting} setting"


def context_for(alg, env, budget=None) -> tuple[dict | None, str]:
    """Overrides of the setting's registry DEFAULT_INSTANCE that describe ``alg`` run on ``env`` -- the inverse of
    the adapters (``_adapters``: context -> algorithm and environment) -- or ``(None, reason)``.

    The result is checked by the adapters themselves: the context must rebuild the same algorithm (every
    constructor parameter, the ones left to the environment resolved) and the same instance (means, actions,
    contexts, theta*), else the reason says what differs. The reward noise is not part of the instance here:
    whether it meets a theorem's assumptions is the adapter's ``assumptions`` check."""
    from ..bounds import registry
    from ..errors import InputError

    name, s = alg.name, alg.setting
    ad = _adapters().get(name)
    if ad is None:
        return None, f"boundcalc has no registered upper bound for {name}"
    if alg.notion != "none" and getattr(budget, "notion", None) != alg.notion:
        return None, f"{name} needs a {alg.notion} budget to be described by a bound context"
    over, why = instance_for(env, s)
    if over is None:
        return None, why
    p = _effective_params(alg, env)
    if s == "contextual":
        over.update(lam=p["lam"], lam0=p.get("lambda0", "instance"))
        if "C" in p:
            over["C"] = p["C"]
    elif s == "glm":
        over.update(C_B=p["C_B"], c_r=p["c_r"])
    for arg, key in (getattr(type(alg), "context_params", None) or {}).items():  # the card's parameter map
        over[key] = p[arg]
    for bid, (opt, _check) in (getattr(type(alg), "bound_options", None) or {}).items():
        if p.get(opt):  # the card's bound option is set (seed 004 Cor. 1): described by that bound's adapter
            over[opt] = p[opt]
            ad = bound_adapters()[bid]
            why = getattr(alg, "bound_option_conflict", lambda o: "")(opt)
            if why:
                return None, why
    try:
        ctx = registry.make_context(s, over, budget)
        alg2, env2 = ad.build(ctx, budget), ad.env(ctx)
    except (InputError, ValueError) as exc:
        return None, f"the bounds' context of {env.name} could not be built ({exc})"
    p2 = _effective_params(alg2, env2)
    diff = sorted(k for k in set(p) | set(p2) if not _same(p.get(k), p2.get(k)))
    if diff:
        return None, (f"{name}'s " + ", ".join(f"{k} = {p.get(k)!r}" for k in diff) + " differ from what the bounds' "
                      "context describes (" + ", ".join(f"{k} = {p2.get(k)!r}" for k in diff) + ")")
    why = _instance_difference(env, env2)
    if why:
        return None, f"{env.name}: {why}"
    return over, ""
