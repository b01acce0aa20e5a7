"""Generalised linear contextual bandits of seed 002: single parameter (Sec. 2, Figure 2.1) and multi-parameter
(Sec. 4, Algorithm 2).

Each round K context vectors x_{t,1..K} in R^d are drawn i.i.d.; the reward of arm a is
r = mu(x_{t,a}^T theta*) + noise. Regret: sum_t mu(x_{t,a*}^T theta*) - mu(x_{t,a_t}^T theta*) (seed 002 Sec. 2).

* ``link="linear"``: mu(z) = z, Gaussian noise N(0, sigma^2) (sigma = 0.1 by default: the paper does not state
  it; the sheet's sigma_r default), or ``noise="uniform"``: U(-sqrt(3) sigma, sqrt(3) sigma), bounded and
  sigma-sub-Gaussian (the uniform law is strictly sub-Gaussian: its variance proxy equals its variance a^2/3), so
  |r| <= |x^T theta*| + sqrt(3) sigma and the standing assumption |r| <= c_r of seed 002 §2 can hold (the regret
  checks use it);
* ``link="logistic"``: mu(z) = 1/(1 + e^-z), Bernoulli rewards in {0, 1} (c_r = 1).
Contexts: ``"sphere"`` Unif(S^{d-1}) per arm (seed 002 Sec. 5, synthetic data) or ``"gaussian"`` N(0, I_d/d)
(Thm 3.2's lower-bound instance; unbounded).

``MultiGLMEnv`` (seed 002 Sec. 4): one context X_t in R^d per round, shared by the K arms, and one parameter
theta*_i per arm; the reward of arm a is mu(X_t^T theta*_a) + noise; regret
sum_t mu(X_t^T theta*_{a*_t}) - mu(X_t^T theta*_{a_t}) (sheet 2.1).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import validate
from ..errors import InputError
from .base import Env
from .linear import _finite_matrix, unit_sphere

LINKS = ("linear", "logistic")


class GLMEnv(Env):
    setting = "glm"

    def __init__(self, theta, K: int, link: str = "linear", contexts: str = "sphere", sigma: float = 0.1, name: str = "",
                 noise: str = "gaussian"):
        super().__init__(name)
        self.theta = _finite_matrix("theta", np.ravel(np.asarray(theta, dtype=float)), 1)
        self.d = int(self.theta.size)
        self.K = validate.count("K", K, minimum=2)
        if link not in LINKS:
            raise InputError("link", "one of " + ", ".join(LINKS), link)
        if contexts not in ("sphere", "gaussian"):
            raise InputError("contexts", "one of sphere, gaussian", contexts)
        self.link, self.contexts_kind = link, contexts
        self.family = "gaussian" if link == "linear" else "bernoulli"
        self.sigma = validate.positive("sigma", sigma)
        if noise not in ("gaussian", "uniform"):
            raise InputError("noise", "one of gaussian, uniform", noise)
        self.noise = noise
        self.C_B = 1.0 if contexts == "sphere" else float("inf")

    @property
    def max_abs_reward(self) -> float:
        """sup |r| (inf unless the contexts and the noise are bounded)."""
        if self.link == "logistic":
            return 1.0
        if self.noise != "uniform" or not math.isfinite(self.C_B):
            return math.inf
        return self.C_B * float(np.linalg.norm(self.theta)) + math.sqrt(3.0) * self.sigma

    def mu(self, z):
        z = np.asarray(z, dtype=float)
        if self.link == "linear":
            return z
        from scipy.special import expit

        return expit(z)

    @property
    def zeta(self) -> float:
        """inf_{|z| <= C_B} mu'(z) (seed 002 Assumption A1)."""
        if self.link == "linear":
            return 1.0
        e = np.exp(-min(self.C_B, 50.0))
        return float(e / (1 + e) ** 2)

    def contexts(self, rng: np.random.Generator, size: tuple) -> np.ndarray:
        shape = tuple(size) + (self.K, self.d)
        x = rng.standard_normal(shape)
        if self.contexts_kind == "sphere":
            return x / np.linalg.norm(x, axis=-1, keepdims=True)
        return x / np.sqrt(self.d)

    def rewards(self, z, rng: np.random.Generator) -> np.ndarray:
        """Rewards for linear scores z = x^T theta* of the chosen arms."""
        m = self.mu(z)
        if self.link == "linear":
            if self.noise == "uniform":
                a = math.sqrt(3.0) * self.sigma
                return m + rng.uniform(-a, a, m.shape)
            return m + self.sigma * rng.standard_normal(m.shape)
        return (rng.random(m.shape) < m).astype(float)

    def describe(self) -> dict[str, Any]:
        d = super().describe()
        d.update(K=self.K, d=self.d, link=self.link, contexts=self.contexts_kind, sigma=self.sigma, noise=self.noise)
        return d


class MultiGLMEnv(GLMEnv):
    """Multi-parameter GLM bandit (seed 002 Sec. 4): ``thetas`` (K, d), one context per round.

    ``contexts(rng, size)`` has shape size + (d,); ``rewards(z, rng)`` takes z = X^T theta*_{a_t}.
    ``K_sub``: the arms that are at least ``h_sub`` below the best for every unit context (Assumption 5),
    computed on a fine grid of directions when d = 2 (None otherwise).
    """

    multi = True

    def __init__(self, thetas, link: str = "linear", contexts: str = "sphere", sigma: float = 0.1, name: str = ""):
        th = _finite_matrix("thetas", np.asarray(thetas, dtype=float), 2)
        if th.shape[0] < 2:
            raise InputError("thetas", "a K x d array with K >= 2", th.shape)
        super().__init__(th[0], th.shape[0], link=link, contexts=contexts, sigma=sigma, name=name)
        self.thetas = th
        self.theta = th.T  # (d, K): X @ env.theta gives the K linear scores

    def contexts(self, rng: np.random.Generator, size: tuple) -> np.ndarray:
        shape = tuple(size) + (self.d,)
        x = rng.standard_normal(shape)
        if self.contexts_kind == "sphere":
            return x / np.linalg.norm(x, axis=-1, keepdims=True)
        return x / np.sqrt(self.d)

    def gap_profile(self, n: int = 20000) -> np.ndarray | None:
        """Per arm: min over unit contexts of (best mu - arm's mu) for d = 2 (grid of n directions), else None."""
        if self.d != 2:
            return None
        ang = np.linspace(0, 2 * np.pi, n, endpoint=False)
        X = np.stack([np.cos(ang), np.sin(ang)], axis=1)
        m = self.mu(X @ self.theta)
        return (m.max(axis=1, keepdims=True) - m).min(axis=0)

    def describe(self) -> dict[str, Any]:
        d = super().describe()
        d.update(multi=True, thetas=self.thetas.tolist())
        return d


GLM_INSTANCES = {
    "ldp-single": "seed 002 Sec. 5 / authors' code: d = 2, K = 10, linear link, Unif(S^1) contexts, theta* on the "
                  "unit sphere (from the seed), N(0, 0.1^2) noise",
    "ldp-logistic": "logistic single-parameter instance: d = 2, K = 10, Unif(S^1) contexts, Bernoulli rewards",
    "ldp-multi": "seed 002 Sec. 5 multi-parameter linear bandit (authors' code: d = 2, K = 3): theta*_i i.i.d. on "
                 "the unit sphere (from the seed), one Unif(S^1) context per round, N(0, 0.1^2) noise",
    "ldp-multi-sub": "multi-parameter linear bandit with a surely sub-optimal arm (Assumption 5): d = 2, K = 4, "
                     "theta*_1..3 unit vectors 120 degrees apart (random rotation from the seed), theta*_4 = 0; "
                     "max_i X^T theta*_i >= 1/2 on S^1, so arm 4 is always >= 1/2 below the best (h_sub < 1/2)",
}


def make_glm_env(name: str = "ldp-single", seed: int = 3) -> GLMEnv:
    if name not in GLM_INSTANCES:
        raise InputError("env", "one of " + ", ".join(GLM_INSTANCES), name)
    rng = np.random.default_rng(validate.count("seed", seed, minimum=0))
    if name == "ldp-multi":
        return MultiGLMEnv(unit_sphere(rng, 3, 2), name=f"{name}[seed={seed}]")
    if name == "ldp-multi-sub":
        phi = rng.uniform(0, 2 * np.pi) + np.array([0.0, 2 * np.pi / 3, 4 * np.pi / 3])
        th = np.vstack([np.stack([np.cos(phi), np.sin(phi)], axis=1), np.zeros((1, 2))])
        return MultiGLMEnv(th, name=f"{name}[seed={seed}]")
    th = unit_sphere(rng, 1, 2)[0]
    return GLMEnv(th, 10, link="linear" if name == "ldp-single" else "logistic", name=f"{name}[seed={seed}]")


class StackedMultiGLMEnv(GLMEnv):
    """The single-parameter view of a multi-parameter bandit (``MultiGLMEnv``): dimension K d, parameter
    theta = (theta*_1, ..., theta*_K) stacked, and arm i's context e_i ⊗ X_t (X_t in block i, zeros elsewhere), so that
    x_{t,i}^T theta = X_t^T theta*_i: the same rewards and the same regret. Seed 002 Sec. 1 says the two settings "can
    be shown to be equivalent"; this is the embedding by which the authors' code runs the single-parameter baselines
    LDP-UCB and LDP-GLOC on the multi-parameter experiment of Figure 5.1 (docs/formulas/ldp-glm-bandits.md §5). The
    draws are the multi-parameter instance's (one context X_t per round, then the reward of the chosen arm)."""

    def __init__(self, multi: MultiGLMEnv):
        if not isinstance(multi, MultiGLMEnv):
            raise InputError("env", "a multi-parameter GLM instance (MultiGLMEnv)", type(multi).__name__)
        K, d = multi.thetas.shape
        super().__init__(multi.thetas.ravel(), K, link=multi.link, contexts=multi.contexts_kind, sigma=multi.sigma,
                         name=f"{multi.name} (stacked: single parameter in R^{K * d})", noise=multi.noise)
        self.base = multi
        self.block_d = d
        self.C_B = multi.C_B

    def contexts(self, rng: np.random.Generator, size: tuple) -> np.ndarray:
        X = self.base.contexts(rng, size)  # size + (d,)
        K, d = self.K, self.block_d
        out = np.zeros(tuple(size) + (K, K * d))
        for i in range(K):
            out[..., i, i * d:(i + 1) * d] = X
        return out

    def describe(self) -> dict[str, Any]:
        d = super().describe()
        d.update(stacked_from=self.base.describe())
        return d
