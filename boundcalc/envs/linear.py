"""Linear bandit with a fixed finite action set (seed 003 Eq. 3, seed 000 Eq. 7).

r_t = <theta*, a_t> + eta_t, actions the K rows of ``actions`` (K x d). Pseudo-regret of pull counts N is
sum_a Delta_a N_a with Delta_a = max_b <b - a, theta*> (seed 003 Eq. 3).

Reward families (``noise``):

* ``"gaussian"``: eta ~ N(0, sigma^2) (the experiments of seed 003 Sec. VII use sigma = 1). Unbounded, so
  the privacy guarantees (Assumption 1, |r| <= 1) do not apply: ``privacy_guaranteed`` is False
  (docs/formulas/zcdp-bandits.md §0, "label the run as not privacy-guaranteed"). Exact batch draw: the sum of n rewards
  of action a is one Normal(n <a, theta*>, n sigma^2).
* ``"rademacher"``: bounded rewards r in {-1, +1} with E r = <a, theta*> (needs |<a, theta*>| <= 1); the
  noise is 1-sub-Gaussian and Assumption 1 holds when ||a|| <= 1, ||theta*|| <= 1. Exact batch draw:
  2 Binomial(n, (1 + <a, theta*>)/2) - n.

Every draw takes a ``numpy.random.Generator``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import validate
from ..errors import InputError
from .base import ArmMeans, Env

NOISES = ("gaussian", "rademacher")


def _finite_matrix(name: str, x, ndim: int) -> np.ndarray:
    a = np.asarray(x, dtype=float)
    if a.ndim != ndim:
        raise InputError(name, f"a {ndim}-dimensional array", getattr(a, "shape", None))
    if a.size == 0:
        raise InputError(name, "non-empty", a.shape)
    if not np.all(np.isfinite(a)):
        raise InputError(name, "finite numbers (no NaN/inf)", "non-finite entry")
    return a


def unit_sphere(rng: np.random.Generator, n: int, d: int) -> np.ndarray:
    """n points uniform on the unit sphere of R^d."""
    x = rng.standard_normal((n, d))
    return x / np.linalg.norm(x, axis=1, keepdims=True)


class LinearEnv(ArmMeans, Env):
    """Linear bandit: fixed action set (K, d), parameter theta (d,), reward noise family."""

    setting = "linear"

    def __init__(self, actions, theta, sigma: float = 1.0, noise: str = "gaussian", name: str = ""):
        super().__init__(name)
        A = np.asarray(actions, dtype=float)
        if A.ndim == 2 and A.shape[1] < 1:
            raise InputError("d", "an integer >= 1", 0)
        if A.ndim == 2 and A.shape[0] < 1:
            raise InputError("actions", "a non-empty action set (K >= 1 rows)", A.shape)
        A = _finite_matrix("actions", A, 2)
        th = _finite_matrix("theta", np.ravel(theta), 1)
        if th.size != A.shape[1]:
            raise InputError("theta", f"a vector of length d = {A.shape[1]}", th.size)
        if noise not in NOISES:
            raise InputError("noise", "one of " + ", ".join(NOISES), noise)
        self.noise = noise
        self.family = noise
        self.sigma = validate.positive("sigma", sigma) if noise == "gaussian" else 1.0
        self.actions = A
        self.theta = th
        self.actions.setflags(write=False)
        self.theta.setflags(write=False)
        self.means = A @ th
        if noise == "rademacher":
            if np.any(np.abs(self.means) > 1 + 1e-12):
                raise InputError("theta", "such that |<a, theta>| <= 1 for rademacher rewards", float(np.abs(self.means).max()))
            self.reward_range = (-1.0, 1.0)

    # -- derived quantities -------------------------------------------------------------------------------
    @property
    def d(self) -> int:
        return int(self.actions.shape[1])

    @property
    def privacy_guaranteed(self) -> bool:
        """Assumption 1 of seeds 000/003: ||a|| <= 1, |r| <= 1, ||theta*|| <= 1."""
        return bool(
            self.noise == "rademacher"
            and np.all(np.linalg.norm(self.actions, axis=1) <= 1 + 1e-12)
            and np.linalg.norm(self.theta) <= 1 + 1e-12
        )

    def describe(self) -> dict[str, Any]:
        d = super().describe()
        d.update(K=self.K, d=self.d, noise=self.noise, sigma=self.sigma, gaps=self.gaps.tolist(),
                 best_arm=self.best_arm, privacy_guaranteed=self.privacy_guaranteed)
        return d

    # -- draws ------------------------------------------------------------------------------------------
    def sum_rewards(self, arm_idx, n, rng: np.random.Generator) -> np.ndarray:
        """Exact sum of n rewards of action ``arm_idx`` (elementwise over arrays of equal shape)."""
        arm_idx = np.asarray(arm_idx)
        m = self.means[arm_idx]
        if self.noise == "gaussian":
            n = np.asarray(n, dtype=float)
            return n * m + self.sigma * np.sqrt(n) * rng.standard_normal(np.shape(n))
        n = np.asarray(n, dtype=np.int64)
        return 2.0 * rng.binomial(n, np.clip((1.0 + m) / 2.0, 0.0, 1.0)) - n

    def draw(self, arm: int, rng: np.random.Generator) -> float:
        """One reward of action ``arm``."""
        m = self.means[arm]
        if self.noise == "gaussian":
            return float(m + self.sigma * rng.standard_normal())
        return 1.0 if rng.random() < (1.0 + m) / 2.0 else -1.0

    def __repr__(self) -> str:
        return f"LinearEnv(K={self.K}, d={self.d}, noise={self.noise!r}, name={self.name!r})"


LINEAR_INSTANCES: dict[str, dict] = {
    "zcdp-linear": {"K": 10, "d": 3, "noise": "gaussian", "sigma": 1.0,
                    "source": "seed 003 Sec. VII / App. H: K = 10 actions and theta* uniform on the unit sphere of "
                              "R^3, N(0,1) reward noise (drawn from the instance seed)"},
    "zcdp-linear-bounded": {"K": 10, "d": 3, "noise": "rademacher",
                            "source": "seed 003 Sec. VII instance with bounded {-1,1} rewards (Assumption 1 holds)"},
    "rdp-linear": {"K": 50, "d": 5, "noise": "rademacher",
                   "source": "docs/formulas/rdp-bandits.md 3.2 example (d = 5, K = 50; actions and theta on the unit sphere; "
                             "seed 000 has no experiments)"},
}


def make_linear_env(name: str = "zcdp-linear", seed: int = 3, actions=None, theta=None, sigma: float | None = None,
                    noise: str | None = None) -> LinearEnv:
    """A named instance (actions and theta drawn uniformly on the unit sphere from ``seed``) or explicit ones."""
    if actions is not None or theta is not None:
        if actions is None or theta is None:
            raise InputError("actions/theta", "both given for an explicit instance", None)
        return LinearEnv(actions, theta, sigma=1.0 if sigma is None else sigma, noise=noise or "gaussian",
                         name=name or "custom")
    if name not in LINEAR_INSTANCES:
        raise InputError("env", "one of " + ", ".join(LINEAR_INSTANCES), name)
    spec = LINEAR_INSTANCES[name]
    rng = np.random.default_rng(validate.count("seed", seed, minimum=0))
    A = unit_sphere(rng, spec["K"], spec["d"])
    th = unit_sphere(rng, 1, spec["d"])[0]
    return LinearEnv(A, th, sigma=spec.get("sigma", 1.0) if sigma is None else sigma,
                     noise=noise or spec["noise"], name=f"{name}[seed={seed}]")
