"""Linear contextual bandit with i.i.d. decision sets (seed 003 Sec. IV-B, seed 000 Sec. 4, seed 004 Sec. 2).

Each step a set of K context vectors x_{t,1..K} in R^d is drawn i.i.d. (public); the reward of the chosen
x is <theta*, x> + eta. Pseudo-regret: sum_t max_k <theta*, x_{t,k}> - <theta*, x_{t,a_t}> (seed 003 Sec.
IV-B1, seed 004 Eq. 1).

Context distributions (``contexts``):
* ``"gaussian"``: each vector ~ N(mean, scale^2 I) (seed 003 Sec. VII: mean (1/sqrt d, ..., 1/sqrt d),
  scale^2 = 1/10). ``project=True`` projects onto the unit ball (zcdp-bandits.md §0: otherwise the run is
  not privacy-guaranteed).
* ``"sphere"``: uniform on the unit sphere (rdp-bandits.md §5: "i.i.d. unit contexts"; lambda0 = 1/d).
* ``"pool"``: K distinct vectors drawn uniformly from a fixed pool (seed 004 Sec. 4: pool of 1000 arms with
  U(0,1) coordinates, normalised to unit norm -- the normalisation is our reading; 10 arms per round).

Noise: ``"gaussian"`` N(0, sigma^2) or ``"rademacher"`` (r in {-1, 1}, mean <theta, x>; bounded).
``lambda0`` = lambda_min(E[x x^T]) (closed form for gaussian/sphere, exact average over the pool).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import validate
from ..errors import InputError
from .base import Env
from .linear import NOISES, _finite_matrix, unit_sphere

CONTEXTS = ("gaussian", "sphere", "pool")


class ContextualLinearEnv(Env):
    setting = "contextual"

    def __init__(self, theta, K: int, contexts: str = "sphere", mean=None, scale: float = 1.0, pool=None,
                 project: bool = False, sigma: float = 1.0, noise: str = "gaussian", name: str = ""):
        super().__init__(name)
        th = _finite_matrix("theta", np.ravel(np.asarray(theta, dtype=float)), 1)
        self.theta = th
        self.d = int(th.size)
        self.K = validate.count("K", K, minimum=1)
        if contexts not in CONTEXTS:
            raise InputError("contexts", "one of " + ", ".join(CONTEXTS), contexts)
        if noise not in NOISES:
            raise InputError("noise", "one of " + ", ".join(NOISES), noise)
        self.contexts_kind = contexts
        self.noise = noise
        self.family = noise
        self.sigma = validate.positive("sigma", sigma) if noise == "gaussian" else 1.0
        self.project = bool(project)
        self.mean = None
        self.scale = None
        self.pool = None
        if contexts == "gaussian":
            m = np.zeros(self.d) if mean is None else _finite_matrix("mean", np.ravel(mean), 1)
            if m.size != self.d:
                raise InputError("mean", f"a vector of length d = {self.d}", m.size)
            self.mean = m
            self.scale = validate.positive("scale", scale)
        elif contexts == "pool":
            P = _finite_matrix("pool", pool, 2)
            if P.shape[1] != self.d:
                raise InputError("pool", f"an N x d array with d = {self.d}", P.shape)
            if P.shape[0] < self.K:
                raise InputError("K", f"at most the pool size {P.shape[0]}", self.K)
            self.pool = P
        if noise == "rademacher" and not self.bounded_contexts:
            raise InputError("noise", "gaussian unless contexts are bounded (sphere, pool or project=True)", noise)

    # -- properties -----------------------------------------------------------------------------------
    @property
    def bounded_contexts(self) -> bool:
        if self.contexts_kind == "sphere" or self.project:
            return True
        if self.contexts_kind == "pool":
            return bool(np.all(np.linalg.norm(self.pool, axis=1) <= 1 + 1e-12))
        return False

    @property
    def privacy_guaranteed(self) -> bool:
        """Assumption 1 of seeds 000/003 (||x|| <= 1, |r| <= 1, ||theta|| <= 1)."""
        return bool(self.noise == "rademacher" and self.bounded_contexts and np.linalg.norm(self.theta) <= 1 + 1e-12)

    @property
    def lambda0(self) -> float:
        """lambda_min(E[x x^T]) of one context vector (for "gaussian" with projection: Monte Carlo, seed 0)."""
        if self.contexts_kind == "sphere":
            return 1.0 / self.d
        if self.contexts_kind == "pool":
            return float(np.linalg.eigvalsh(self.pool.T @ self.pool / self.pool.shape[0])[0])
        if not self.project:
            return float(np.linalg.eigvalsh(np.outer(self.mean, self.mean) + self.scale**2 * np.eye(self.d))[0])
        if getattr(self, "_lambda0_mc", None) is None:
            x = self.contexts(np.random.default_rng(0), (200_000 // self.K + 1,)).reshape(-1, self.d)
            self._lambda0_mc = float(np.linalg.eigvalsh(x.T @ x / x.shape[0])[0])
        return self._lambda0_mc

    def describe(self) -> dict[str, Any]:
        d = super().describe()
        d.update(K=self.K, d=self.d, contexts=self.contexts_kind, noise=self.noise, sigma=self.sigma,
                 project=self.project, privacy_guaranteed=self.privacy_guaranteed)
        return d

    # -- draws ----------------------------------------------------------------------------------------
    def contexts(self, rng: np.random.Generator, size: tuple) -> np.ndarray:
        """Decision sets, shape size + (K, d)."""
        size = tuple(size)
        shape = size + (self.K, self.d)
        if self.contexts_kind == "sphere":
            x = rng.standard_normal(shape)
            return x / np.linalg.norm(x, axis=-1, keepdims=True)
        if self.contexts_kind == "gaussian":
            x = self.mean + self.scale * rng.standard_normal(shape)
            if self.project:
                x /= np.maximum(1.0, np.linalg.norm(x, axis=-1, keepdims=True))
            return x
        n = int(np.prod(size)) if size else 1
        # K distinct pool indices per decision set (uniform without replacement): draw with replacement and
        # redraw the rows that contain a repeat (rejection sampling keeps the law exact)
        N = self.pool.shape[0]
        dt = np.int32 if N < 2**31 else np.int64  # 32-bit indices halve the cost of the draw and the sort
        idx = rng.integers(0, N, (n, self.K), dtype=dt)
        bad = np.arange(n)
        while bad.size:  # only redrawn rows are checked again (rows without a repeat stay as drawn)
            srt = np.sort(idx[bad], axis=1)
            bad = bad[(srt[:, 1:] == srt[:, :-1]).any(axis=1)]
            if bad.size:
                idx[bad] = rng.integers(0, N, (bad.size, self.K), dtype=dt)
        return np.take(self.pool, idx, axis=0).reshape(shape)  # same as pool[idx], about 3x faster

    def rewards(self, means, rng: np.random.Generator) -> np.ndarray:
        """One reward for each entry of ``means`` (= <theta, x> of the chosen vectors)."""
        means = np.asarray(means, dtype=float)
        if self.noise == "gaussian":
            return means + self.sigma * rng.standard_normal(means.shape)
        return np.where(rng.random(means.shape) < (1.0 + np.clip(means, -1, 1)) / 2.0, 1.0, -1.0)

    def __repr__(self) -> str:
        return f"ContextualLinearEnv(K={self.K}, d={self.d}, contexts={self.contexts_kind!r}, name={self.name!r})"


CONTEXTUAL_INSTANCES: dict[str, dict] = {
    "zcdp-contextual": {"source": "seed 003 Sec. VII: K = 10, d = 3, contexts N((1/sqrt d) 1, I/10), theta* uniform "
                                  "on the unit sphere, N(0,1) noise (not privacy-guaranteed)"},
    "zcdp-contextual-bounded": {"source": "seed 003 Sec. VII instance, contexts projected on the unit ball, {-1,1} "
                                          "rewards (Assumption 1 holds; zcdp-bandits.md §0)"},
    "rdp-contextual": {"source": "rdp-bandits.md §5 suggestion: i.i.d. unit contexts, d = 5, K = 10 (lambda0 = 1/d), "
                                 "{-1,1} rewards"},
    "dgs-synthetic": {"source": "seed 004 Sec. 4: pool of 1000 arms, d = 10, U(0,1) coordinates normalised to unit "
                                "norm (also theta*), 10 arms per round, N(0, 0.5^2) noise"},
}


def make_contextual_env(name: str = "zcdp-contextual", seed: int = 3) -> ContextualLinearEnv:
    """A named instance; theta* (and the pool) drawn from ``seed``."""
    if name not in CONTEXTUAL_INSTANCES:
        raise InputError("env", "one of " + ", ".join(CONTEXTUAL_INSTANCES), name)
    rng = np.random.default_rng(validate.count("seed", seed, minimum=0))
    label = f"{name}[seed={seed}]"
    if name.startswith("zcdp-contextual"):
        d = 3
        th = unit_sphere(rng, 1, d)[0]
        bounded = name.endswith("bounded")
        return ContextualLinearEnv(th, 10, contexts="gaussian", mean=np.full(d, 1 / np.sqrt(d)), scale=np.sqrt(0.1),
                                   project=bounded, noise="rademacher" if bounded else "gaussian", name=label)
    if name == "rdp-contextual":
        return ContextualLinearEnv(unit_sphere(rng, 1, 5)[0], 10, contexts="sphere", noise="rademacher", name=label)
    pool = rng.random((1000, 10))
    pool /= np.linalg.norm(pool, axis=1, keepdims=True)
    th = rng.random(10)
    th /= np.linalg.norm(th)
    return ContextualLinearEnv(th, 10, contexts="pool", pool=pool, sigma=0.5, noise="gaussian", name=label)
