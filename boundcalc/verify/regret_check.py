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
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

# Largest T x runs simulated for an algorithm that updates every step (the others are episode-level).
PER_STEP_BUDGET = 2e7
# Largest runs x K x d context entries drawn at once (contextual / GLM): what fits in memory.
CONTEXT_BUDGET = 2e7
# Blocks of runs: the engine's default (per-step algorithms vectorise across the runs of a block: 20-run blocks
# took twice as long); progress is shown per algorithm and per block.
CHECK_BLOCK_RUNS = 50
# Default horizon of `regret --check` per setting: answers in seconds on one core (benchmarks/RESULTS_regret_check.md).
DEFAULT_CHECK_T = {"finite": 10**6, "linear": 10**6, "contextual": 10**4, "glm": 10**4}


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


def _oful_assumptions(ctx, env, row):
    probs = _contextual_common(ctx, env, 1.0, 1.0, "Assumption 1 (seeds 000/003)")
    if row.get("algorithm") in ("AdaC-OFUL", "AdaR-OFUL"):
        probs.insert(0, "Assumption 2 of seeds 000/003 (||A|| = 1 and Var[(z^T A)^2] <= lambda0^2/(8 log 4k)) cannot "
                        "hold for d >= 2 (ERRATA 1: vacuous) and does not hold for these contexts")
    return _join(probs, f"Assumption 1 holds (sup ||x|| = {env.max_context_norm:.4g}, ||theta*|| = "
                        f"{np.linalg.norm(env.theta):.4g}, +-1 rewards); lambda0 = {ctx['lam0']:.4g} <= "
                        f"lambda_min(E xx^T) = {env.lambda0:.4g}")


def _dgs_assumptions(ctx, env, row):
    probs = _contextual_common(ctx, env, float(ctx["L"]), float(ctx["S"]), "Assumption 1 (seed 004)")
    return _join(probs, f"Assumption 1 of seed 004 holds: i.i.d. contexts with sup ||x|| = "
                        f"{env.max_context_norm:.4g} <= L = {ctx['L']:g}, ||theta*|| <= S = {ctx['S']:g}, "
                        f"|r| <= 1, lambda0 = {ctx['lam0']:.4g} <= lambda_min(E xx^T) = {env.lambda0:.4g}")


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
def _dgs(c, b):
    """LinUCB-DGS (seed 004 Algs. 1-2) with the contextual instance's lam, L, S, zeta and lam0."""
    from ..algorithms.contextual import linucb

    return linucb.LinUCBDGS(b.epsilon, b.delta, lam=c["lam"], L=c["L"], S=c["S"], zeta=c["zeta"], lambda0=c["lam0"])


def _ldp_ols(c, b):
    from ..algorithms.glm import ldp

    return ldp.LDPOLS(b.epsilon, b.delta, alpha=c["delta"], C_B=c["C_B"], c_r=c["c_r"])


def _ldp_sgd(c, b):
    from ..algorithms.glm import ldp

    return ldp.LDPSGD(b.epsilon, C_B=c["C_B"], c_r=c["c_r"], kappa_l=c["kappa_l"], p_star=c["p_star"], zeta=c["zeta"])


def _dpse_beta(ctx):
    b = ctx.get("dpse_beta", "1/T")
    return None if b == "1/T" else float(b)


def _adapters() -> dict[str, Adapter]:
    from ..algorithms import finite as fa
    from ..algorithms.contextual import oful
    from ..algorithms.linear import gope

    F, Lin, Ctx = _finite_assumptions, _linear_assumptions, _oful_assumptions
    # OFUL family: the bound's lam, C, delta, lambda0 (lam0) and ||theta*|| bound S (theta_norm, used in beta_t)
    def _of(c):
        return {"lam": c["lam"], "C": c["C"], "delta": c["delta"], "lambda0": c["lam0"], "S": c["theta_norm"]}

    return {
        "DP-KLUCB": Adapter(lambda c, b: fa.DPKLUCB(b.epsilon, alpha=c["alpha_batch"]), _finite_env, F),
        "DP-IMED": Adapter(lambda c, b: fa.DPIMED(b.epsilon, alpha=c["alpha_batch"]), _finite_env, F),
        "AdaP-UCB": Adapter(lambda c, b: fa.AdaPUCB(b.epsilon, beta=c["alpha_adap"]), _finite_env, F),
        "AdaP-KLUCB": Adapter(lambda c, b: fa.AdaPKLUCB(b.epsilon, beta=c["alpha_adap"]), _finite_env, F),
        "DP-SE": Adapter(lambda c, b: fa.DPSE(b.epsilon, beta=_dpse_beta(c)), _finite_env, F),
        "AdaC-UCB": Adapter(lambda c, b: fa.AdaCUCB(b.rho, beta=c["beta_adac"]), _finite_env, F),
        "AdaR-UCB": Adapter(lambda c, b: fa.AdaRUCB(b.alpha, b.epsilon, beta=c["beta_adar"]), _finite_env, F),
        "GOPE": Adapter(lambda c, b: gope.GOPE(delta=c["delta"]), _linear_env, Lin),
        "AdaC-GOPE": Adapter(lambda c, b: gope.AdaCGOPE(b.rho, delta=c["delta"]), _linear_env, Lin),
        "AdaR-GOPE": Adapter(lambda c, b: gope.AdaRGOPE(b.alpha, b.epsilon, delta=c["delta"]), _linear_env, Lin),
        "RS-OFUL": Adapter(lambda c, b: oful.RSOFUL(**_of(c)), _contextual_env, Ctx),
        "OFUL": Adapter(lambda c, b: oful.OFUL(lam=c["lam"], delta=c["delta"], S=c["theta_norm"]), _contextual_env, Ctx),
        "AdaC-OFUL": Adapter(lambda c, b: oful.AdaCOFUL(b.rho, **_of(c)), _contextual_env, Ctx),
        "AdaR-OFUL": Adapter(lambda c, b: oful.AdaROFUL(b.alpha, b.epsilon, **_of(c)), _contextual_env, Ctx),
        "LinUCB-DGS": Adapter(_dgs, _contextual_env, _dgs_assumptions),
        "LDP-OLS": Adapter(_ldp_ols, _glm_env, _glm_assumptions),
        "LDP-SGD": Adapter(_ldp_sgd, _glm_env, _glm_assumptions),
    }


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
    replaced by the environment's value, which the simulation uses."""
    from ..algorithms import params_of

    p = dict(params_of(alg))
    for k, attr in (("lambda0", "lambda0"), ("zeta", "zeta")):
        if k in p and p[k] is None and hasattr(env, attr):
            p[k] = float(getattr(env, attr))
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
        return None, f"no bound context is mapped for {name} (no adapter in verify/regret_check.py)"
    if alg.notion != "none" and getattr(budget, "notion", None) != alg.notion:
        return None, f"{name} needs a {alg.notion} budget to be described by a bound context"
    over, why = instance_for(env, s)
    if over is None:
        return None, why
    p = _effective_params(alg, env)
    if s == "finite":
        key = {"DP-KLUCB": ("alpha_batch", "alpha"), "DP-IMED": ("alpha_batch", "alpha"),
               "AdaP-UCB": ("alpha_adap", "beta"), "AdaP-KLUCB": ("alpha_adap", "beta"),
               "AdaC-UCB": ("beta_adac", "beta"), "AdaR-UCB": ("beta_adar", "beta"), "DP-SE": ("dpse_beta", "beta")}
        if name in key:
            over[key[name][0]] = p[key[name][1]]
    elif s == "linear":
        over["delta"] = p["delta"]
    elif s == "contextual":
        over.update(lam=p["lam"], lam0=p.get("lambda0", "instance"))
        if "C" in p:
            over["C"] = p["C"]
        if name == "LinUCB-DGS":  # its delta is the privacy delta (the budget's); zeta is its failure probability
            over.update(L=p["L"], S=p["S"], zeta=p["zeta"])
        else:
            over["delta"] = p["delta"]  # the OFUL family's confidence (seeds 003 / 000)
    elif s == "glm":
        over.update(C_B=p["C_B"], c_r=p["c_r"])
        if name == "LDP-OLS":
            over["delta"] = p["alpha"]  # the failure probability alpha of LDP-OLS is the bounds' delta
        if name == "LDP-SGD":
            over.update(kappa_l=p["kappa_l"], p_star=p["p_star"], zeta=p["zeta"])
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
    from ..algorithms import granularity

    if granularity(alg) == "step" and T * runs > PER_STEP_BUDGET:
        return f"per-step algorithm: T × runs = {T * runs:.3g} above {PER_STEP_BUDGET:g}; lower --T or --runs"
    if setting in ("contextual", "glm"):
        n = min(runs, CHECK_BLOCK_RUNS) * int(env.K) * int(env.d)
        if n > CONTEXT_BUDGET:
            return (f"runs per block × K × d = {n:.3g} context entries per round, above {CONTEXT_BUDGET:g} (memory); "
                    "lower --K or --d")
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


def curve_checkpoints(T: int, n: int | None = None) -> np.ndarray:
    """Log-spaced checkpoints up to T for a figure of the simulated regret (at least figures.MIN_PLOT_CHECKPOINTS)."""
    from ..figures import MIN_PLOT_CHECKPOINTS
    from ..montecarlo import log_checkpoints

    return log_checkpoints(int(T), max(int(n or 0), MIN_PLOT_CHECKPOINTS))


def check_rows(setting, ctx, rows, user_budget, T: int, runs: int, seed: int = 0, progress: bool = False,
               checkpoints=None) -> dict:
    """Add ``empirical`` to each applicable upper-bound row with a simulable algorithm (see the module docstring).

    Each algorithm is simulated once per budget (shared by its several bound forms). Rows without a simulable
    algorithm get ``empirical = {"status": reason, "assumptions_met": None, …}``. With ``checkpoints`` (ending at
    T, e.g. ``curve_checkpoints(T)``) the regret is also recorded along the way: ``empirical["curve"]`` holds
    t, mean and the 95% Student-t interval at each checkpoint (for a figure); the values at T are unchanged.
    Returns timing {"seconds": total, "per_algorithm": {name: seconds}, "T": T, "runs": runs}.
    """
    from .. import montecarlo
    from ..errors import InputError

    adapters = _adapters()
    cache: dict[tuple, Any] = {}
    timing: dict[str, float] = {}
    todo = [r for r in rows if r["applicable"] and r["kind"].startswith("upper") and r.get("algorithm")]
    names = sorted({r["algorithm"] for r in todo if r["algorithm"] in adapters})
    for r in todo:
        ad = adapters.get(r["algorithm"])
        if ad is None:
            r["empirical"] = {"status": f"no simulation adapter for {r['algorithm']} in the {setting} setting yet",
                              "assumptions_met": None, "assumptions_note": "not simulated"}
            continue
        budget = _budget_from_dict(r.get("budget_used"))
        key = (r["algorithm"], repr(budget))
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
                    if progress:
                        from rich.console import Console

                        i = names.index(r["algorithm"]) + 1 if r["algorithm"] in names else 0
                        Console(stderr=True, highlight=False).print(
                            f"[dim]--check {i}/{len(names)}: {r['algorithm']} at T = {T:g}, {runs} runs[/dim]")
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
