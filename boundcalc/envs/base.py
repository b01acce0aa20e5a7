"""Bandit environments: a generic base plus finite-armed instances with exact batch draws.

``Env`` is the generic base (setting, name, describe, ``regret_of`` hooks) that linear, contextual and GLM
environments can extend. ``FiniteArmedEnv`` adds means, gaps, the optimal arm and two ways of drawing:

* ``sum_rewards(arm_idx, n, rng)``: the *sum* of ``n`` rewards of arm ``arm_idx``, vectorised over runs
  (``arm_idx`` and ``n`` are arrays of the same shape, one entry per run). Bernoulli arms give an exact
  Binomial(n, mu) draw, Gaussian arms an exact Normal(n mu, n sigma^2) draw. This is the sufficient
  statistic an episode-level simulation needs (one draw per episode, whatever its length).
* ``draw(arm, rng)``: one reward of one arm (for the step-by-step reference implementations).

Every draw takes a ``numpy.random.Generator``; nothing touches global random state.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from typing import Any

import numpy as np

from .. import validate
from ..errors import InputError


class Env(ABC):
    """Generic bandit environment. Subclasses set ``setting`` and implement their own draws."""

    setting: str = ""  # finite | linear | contextual | glm
    family: str = ""  # reward family, e.g. bernoulli, gaussian
    reward_range: tuple[float, float] = (-np.inf, np.inf)

    def __init__(self, name: str = ""):
        self.name = name

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "setting": self.setting, "family": self.family}


class ArmMeans:
    """Quantities of a fixed set of arms with mean rewards ``self.means`` (finite-armed and linear bandits)."""

    means: np.ndarray

    @property
    def K(self) -> int:
        return int(self.means.size)

    @property
    def mu_star(self) -> float:
        return float(self.means.max())

    @property
    def best_arm(self) -> int:
        """Lowest index among the optimal arms."""
        return int(np.argmax(self.means))

    @property
    def gaps(self) -> np.ndarray:
        """Delta_a = mu* - mu_a (0 for optimal arms); for linear bandits max_b <b - a, theta*> (seed 003 Eq. 3)."""
        return self.mu_star - self.means

    def pseudo_regret(self, pulls) -> np.ndarray:
        """sum_a Delta_a N_a for pull counts of shape (..., K) (seed 001 Eq. 2)."""
        return np.asarray(pulls, dtype=float) @ self.gaps


class FiniteArmedEnv(ArmMeans, Env):
    """K arms with fixed means. Pseudo-regret of a pull vector N is sum_a Delta_a N_a."""

    setting = "finite"

    def __init__(self, means, name: str = ""):
        super().__init__(name)
        m = np.asarray(means, dtype=float).ravel()
        if m.size < 2:
            raise InputError("means", "a list of at least 2 arm means", list(m))
        if not np.all(np.isfinite(m)):
            raise InputError("means", "finite numbers", list(m))
        self.means = m
        self.means.setflags(write=False)

    def describe(self) -> dict[str, Any]:
        d = super().describe()
        d.update(K=self.K, means=self.means.tolist(), gaps=self.gaps.tolist(), best_arm=self.best_arm)
        return d

    # -- draws ------------------------------------------------------------------------------------------
    @abstractmethod
    def sum_rewards(self, arm_idx, n, rng: np.random.Generator) -> np.ndarray:
        ...

    @abstractmethod
    def draw(self, arm: int, rng: np.random.Generator) -> float:
        ...

    def __repr__(self) -> str:
        return f"{type(self).__name__}(means={self.means.tolist()}, name={self.name!r})"


class BernoulliEnv(FiniteArmedEnv):
    """Bernoulli arms, means in [0, 1]; rewards in {0, 1}."""

    family = "bernoulli"
    reward_range = (0.0, 1.0)

    def __init__(self, means, name: str = ""):
        m = validate.probability_array("means", np.asarray(means, dtype=float).ravel())
        super().__init__(m, name)

    def sum_rewards(self, arm_idx, n, rng: np.random.Generator) -> np.ndarray:
        """Exact Binomial(n, mu_arm) sums, elementwise over runs (float array)."""
        arm_idx = np.asarray(arm_idx)
        n = np.asarray(n, dtype=np.int64)
        return rng.binomial(n, self.means[arm_idx]).astype(float)

    def draw(self, arm: int, rng: np.random.Generator) -> float:
        return float(rng.random() < self.means[arm])


class GaussianEnv(FiniteArmedEnv):
    """Gaussian arms N(mu_a, sigma^2) (unbounded rewards: the [0,1] privacy guarantees do not apply)."""

    family = "gaussian"

    def __init__(self, means, sigma: float = 1.0, name: str = ""):
        super().__init__(validate.float_list("means", list(np.asarray(means, dtype=float).ravel())), name)
        self.sigma = validate.positive("sigma", sigma)

    def sum_rewards(self, arm_idx, n, rng: np.random.Generator) -> np.ndarray:
        """Exact Normal(n mu, n sigma^2) sums (0 where n = 0)."""
        arm_idx = np.asarray(arm_idx)
        n = np.asarray(n, dtype=float)
        return n * self.means[arm_idx] + self.sigma * np.sqrt(n) * rng.standard_normal(np.shape(n))

    def draw(self, arm: int, rng: np.random.Generator) -> float:
        return float(self.means[arm] + self.sigma * rng.standard_normal())

    def describe(self) -> dict[str, Any]:
        d = super().describe()
        d["sigma"] = self.sigma
        return d
