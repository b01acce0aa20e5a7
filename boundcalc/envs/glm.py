"""Generalised linear contextual bandit, single parameter (seed 002 Sec. 2, Figure 2.1).

Each round K context vectors x_{t,1..K} in R^d are drawn i.i.d.; the reward of arm a is
r = mu(x_{t,a}^T theta*) + noise. Regret: sum_t mu(x_{t,a*}^T theta*) - mu(x_{t,a_t}^T theta*) (seed 002 Sec. 2).

* ``link="linear"``: mu(z) = z, Gaussian noise N(0, sigma^2) (sigma = 0.1 by default: the paper does not state
  it; the sheet's sigma_r default);
* ``link="logistic"``: mu(z) = 1/(1 + e^-z), Bernoulli rewards in {0, 1} (c_r = 1).
Contexts: ``"sphere"`` Unif(S^{d-1}) per arm (seed 002 Sec. 5, synthetic data) or ``"gaussian"`` N(0, I_d/d)
(Thm 3.2's lower-bound instance; unbounded).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import validate
from ..errors import InputError
from .base import Env
from .linear import _finite_matrix, unit_sphere

LINKS = ("linear", "logistic")


class GLMEnv(Env):
    setting = "glm"

    def __init__(self, theta, K: int, link: str = "linear", contexts: str = "sphere", sigma: float = 0.1, name: str = ""):
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
        self.C_B = 1.0 if contexts == "sphere" else float("inf")

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
            return m + self.sigma * rng.standard_normal(m.shape)
        return (rng.random(m.shape) < m).astype(float)

    def describe(self) -> dict[str, Any]:
        d = super().describe()
        d.update(K=self.K, d=self.d, link=self.link, contexts=self.contexts_kind, sigma=self.sigma)
        return d


GLM_INSTANCES = {
    "ldp-single": "seed 002 Sec. 5 / authors' code: d = 2, K = 10, linear link, Unif(S^1) contexts, theta* on the "
                  "unit sphere (from the seed), N(0, 0.1^2) noise",
    "ldp-logistic": "logistic single-parameter instance: d = 2, K = 10, Unif(S^1) contexts, Bernoulli rewards",
}


def make_glm_env(name: str = "ldp-single", seed: int = 3) -> GLMEnv:
    if name not in GLM_INSTANCES:
        raise InputError("env", "one of " + ", ".join(GLM_INSTANCES), name)
    rng = np.random.default_rng(validate.count("seed", seed, minimum=0))
    th = unit_sphere(rng, 1, 2)[0]
    return GLMEnv(th, 10, link="linear" if name == "ldp-single" else "logistic", name=f"{name}[seed={seed}]")
