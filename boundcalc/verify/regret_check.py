"""Bound against reality: simulate each bound's algorithm on the bound's own instance and budget.

For every applicable upper bound with an algorithm, ``check_rows`` runs the algorithm (boundcalc.montecarlo)
at the bound's horizon, with the budget the bound was evaluated at, and attaches the empirical mean regret,
its 95% interval and a verdict:

- ``held``: the upper end of the interval is below the bound;
- ``violated (significant)``: the lower end is above the bound — for a bound in its exact/explicit form
  and non-asymptotic kind this is a computed counterexample; for a ``paper`` form (constants set to 1) or an
  ``upper-asymptotic`` bound (only a limit as T → ∞ is claimed) it is *not* a refutation of the theorem and
  is labelled so;
- ``inconclusive``: the interval contains the bound.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

# Largest T x runs simulated for an algorithm that updates every step (the others are episode-level).
PER_STEP_BUDGET = 2e7


@dataclass
class Adapter:
    """How to build an algorithm and its environment from a bound's context and budget."""

    build: Callable[[Any, Any], Any]  # (ctx, budget) -> Algorithm
    env: Callable[[Any], Any]  # ctx -> environment


def _finite_env(ctx):
    from ..envs import BernoulliEnv

    return BernoulliEnv(ctx["means"], name=ctx.get("name", "instance"))


def _linear_env(ctx):
    from ..envs.linear import LinearEnv

    return LinearEnv(ctx["actions"], ctx["theta"], sigma=float(ctx.get("sigma", 1.0)))


def _contextual_env(ctx):
    from ..envs.contextual import ContextualLinearEnv

    d, K = int(ctx["d"]), int(ctx["K"])
    if ctx.get("actions") is not None:
        return ContextualLinearEnv(ctx["theta"], K, contexts="pool", pool=ctx["actions"])
    # seed 003 Sec. VII: K fresh contexts per round ~ N((1/sqrt d) 1, I/10)
    return ContextualLinearEnv(ctx["theta"], K, contexts="gaussian", mean=np.full(d, 1 / np.sqrt(d)), scale=np.sqrt(0.1))


def _glm_env(ctx):
    """The GLM DEFAULT_INSTANCE (bounds/glm.py): K arms with contexts Unif(S^{d-1}) ("sphere") or N(0, I_d/d)
    ("gaussian"), linear link (zeta = L = 1), N(0, sigma_r^2) reward noise; theta* (not fixed by the instance, the
    bounds do not depend on it) is ctx["theta"] if given, else uniform on the unit sphere from recipe seed 3
    (as envs.glm.make_glm_env)."""
    from ..envs.glm import GLMEnv
    from ..envs.linear import unit_sphere

    d, K = int(ctx["d"]), int(ctx["K"])
    th = ctx.get("theta")
    if th is None:
        th = unit_sphere(np.random.default_rng(int(ctx.get("theta_seed", 3))), 1, d)[0]
    sigma = max(float(ctx.get("sigma_r", 0.1)), 1e-300)  # sigma_r = 0: noiseless rewards
    return GLMEnv(th, K, link="linear", contexts=ctx.get("context", "sphere"), sigma=sigma,
                  name="glm default instance")


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

    return {
        "DP-KLUCB": Adapter(lambda c, b: fa.DPKLUCB(b.epsilon, alpha=c["alpha_batch"]), _finite_env),
        "DP-IMED": Adapter(lambda c, b: fa.DPIMED(b.epsilon, alpha=c["alpha_batch"]), _finite_env),
        "AdaP-UCB": Adapter(lambda c, b: fa.AdaPUCB(b.epsilon, beta=c["alpha_adap"]), _finite_env),
        "AdaP-KLUCB": Adapter(lambda c, b: fa.AdaPKLUCB(b.epsilon, beta=c["alpha_adap"]), _finite_env),
        "DP-SE": Adapter(lambda c, b: fa.DPSE(b.epsilon, beta=_dpse_beta(c)), _finite_env),
        "AdaC-UCB": Adapter(lambda c, b: fa.AdaCUCB(b.rho, beta=c["beta_adac"]), _finite_env),
        "AdaR-UCB": Adapter(lambda c, b: fa.AdaRUCB(b.alpha, b.epsilon, beta=c["beta_adar"]), _finite_env),
        "GOPE": Adapter(lambda c, b: gope.GOPE(delta=c["delta"]), _linear_env),
        "AdaC-GOPE": Adapter(lambda c, b: gope.AdaCGOPE(b.rho, delta=c["delta"]), _linear_env),
        "AdaR-GOPE": Adapter(lambda c, b: gope.AdaRGOPE(b.alpha, b.epsilon, delta=c["delta"]), _linear_env),
        "RS-OFUL": Adapter(lambda c, b: oful.RSOFUL(lam=c["lam"], C=c["C"], delta=c["delta"]), _contextual_env),
        "OFUL": Adapter(lambda c, b: oful.OFUL(lam=c["lam"], delta=c["delta"]), _contextual_env),
        "AdaC-OFUL": Adapter(lambda c, b: oful.AdaCOFUL(b.rho, lam=c["lam"], C=c["C"], delta=c["delta"]), _contextual_env),
        "AdaR-OFUL": Adapter(lambda c, b: oful.AdaROFUL(b.alpha, b.epsilon, lam=c["lam"], C=c["C"], delta=c["delta"]),
                             _contextual_env),
        "LinUCB-DGS": Adapter(_dgs, _contextual_env),
        "LDP-OLS": Adapter(_ldp_ols, _glm_env),
        "LDP-SGD": Adapter(_ldp_sgd, _glm_env),
    }


def _budget_from_dict(d):
    from ..privacy.budgets import NOTIONS

    if not d:
        return None
    cls = NOTIONS[d["notion"]]
    return cls(**{k: v for k, v in d.items() if k != "notion"})


def verdict(bound_value: float, lo: float, hi: float, form: str, kind: str) -> str:
    """Three-valued verdict of E[Reg_T] <= bound from a confidence interval [lo, hi] of E[Reg_T]."""
    if hi <= bound_value:
        return "held"
    if lo > bound_value:
        if form == "paper":
            return "exceeded (paper form with constants set to 1: not a refutation)"
        if kind == "upper-asymptotic":
            return "exceeded at this T (asymptotic bound: only the limit T → ∞ is claimed)"
        return "violated (significant)"
    return "inconclusive"


def check_rows(setting, ctx, rows, user_budget, T: int, runs: int, seed: int = 0, progress: bool = False) -> None:
    """Add ``empirical`` (mean, ci, runs, verdict) to each applicable upper-bound row with a simulable algorithm.

    Each algorithm is simulated once (shared by its several bound forms). Rows without a simulable algorithm get
    ``empirical = {"status": reason}``.
    """
    from .. import montecarlo
    from ..algorithms import granularity
    from ..errors import InputError

    adapters = _adapters()
    cache: dict[tuple, Any] = {}
    for r in rows:
        if not (r["applicable"] and r["kind"].startswith("upper") and r.get("algorithm")):
            continue
        ad = adapters.get(r["algorithm"])
        if ad is None:
            r["empirical"] = {"status": f"no simulation adapter for {r['algorithm']} in the {setting} setting yet"}
            continue
        budget = _budget_from_dict(r.get("budget_used"))
        key = (r["algorithm"], repr(budget))
        if key not in cache:
            try:
                alg = ad.build(ctx, budget)
                env = ad.env(ctx)
            except InputError as exc:  # e.g. a budget the algorithm cannot run at (LDP-OLS needs delta > 0)
                cache[key] = {"status": f"cannot simulate {r['algorithm']} here: {exc}"}
                alg = None
            if alg is None:
                pass
            elif granularity(alg) == "step" and T * runs > PER_STEP_BUDGET:
                cache[key] = {"status": f"per-step algorithm: T × runs above {PER_STEP_BUDGET:g}; lower --T or --runs"}
            else:
                res = montecarlo.run(alg, env, T, runs, seed=seed, checkpoints=np.array([T]), progress=progress)
                lo, hi = res.ci(level=0.95, method="t")
                cache[key] = {"mean": float(res.mean()[-1]), "ci": [float(lo[-1]), float(hi[-1])], "runs": runs,
                              "T": T, "seed": seed, "interval": "95% Student-t interval of the mean regret"}
        emp = dict(cache[key])
        if "mean" in emp:
            emp["verdict"] = verdict(r["value"], emp["ci"][0], emp["ci"][1], r["form"], r["kind"])
        r["empirical"] = emp
