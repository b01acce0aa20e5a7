"""Linear contextual bandit with i.i.d. decision sets (seed 003 Sec. IV-B, seed 000 Sec. 4, seed 004 Sec. 2).

Each step a set of K context vectors x_{t,1..K} in R^d is drawn i.i.d. (public); the reward of the chosen
x is <theta*, x> + eta. Pseudo-regret: sum_t max_k <theta*, x_{t,k}> - <theta*, x_{t,a_t}> (seed 003 Sec.
IV-B1, seed 004 Eq. 1).

Context distributions (``contexts``):
* ``"gaussian"``: each vector ~ N(mean, scale^2 I) (seed 003 Sec. VII: mean (1/sqrt d, ..., 1/sqrt d),
  scale^2 = 1/10). ``project=True`` projects onto the unit ball (docs/formulas/zcdp-bandits.md §0: otherwise the run is
  not privacy-guaranteed).
* ``"sphere"``: uniform on the unit sphere (docs/formulas/rdp-bandits.md §5: "i.i.d. unit contexts"; lambda0 = 1/d).
* ``"pool"``: K distinct vectors drawn uniformly from a fixed pool (seed 004 Sec. 4: pool of 1000 arms with
  U(0,1) coordinates, normalised to unit norm -- the normalisation is our reading; 10 arms per round).

Noise: ``"gaussian"`` N(0, sigma^2) or ``"rademacher"`` (r in {-1, 1}, mean <theta, x>; bounded).
``lambda0`` = lambda_min(E[x x^T]) (closed form for gaussian/sphere, exact average over the pool).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np

from .. import validate
from ..errors import InputError
from .base import Env
from .linear import NOISES, _finite_matrix, unit_sphere

CONTEXTS = ("gaussian", "sphere", "pool")


@lru_cache(maxsize=64)
def projected_gaussian_moments(mean_norm: float, scale: float, d: int, nodes: int = 80) -> tuple[float, float]:
    """Eigenvalues of E[x x^T] for x = y / max(1, ||y||), y ~ N(m, scale^2 I_d), ||m|| = ``mean_norm``.

    By rotational symmetry about u = m/||m||, E[x x^T] = a u u^T + b (I - u u^T). Write y = s u + w with
    s ~ N(||m||, scale^2) and r = ||w|| ~ scale * chi_{d-1}; with c = max(0, 1 - s^2) (no projection for r^2 <= c):
        a = E_s[ s^2 (F(c) + J(s)) ],   b = E_s[ v k F_{k+2}(c) + 1 - F(c) - s^2 J(s) ] / k,
        J(s) = int_{sqrt c}^inf p_chi(r) / (s^2 + r^2) dr,   k = d - 1, v = scale^2,
    F, F_{k+2}: CDFs of v chi^2_k, v chi^2_{k+2} (regularised gamma). Gauss-Legendre in s on pieces split at
    s = +-1 (the kinks) and in r on [sqrt c, r_max] (smooth integrand); 12 standard deviations cover the tails
    (DERIVED here; agrees with adaptive quadrature to 1e-9 and with Monte Carlo, tests/test_envs_contextual_lambda0.py).
    Without the projection a = ||m||^2 + v and b = v (the closed form of the unprojected recipe). Returns (a, b);
    b is nan for d = 1.
    """
    from scipy import special

    sd = float(scale)
    xs, ws = np.polynomial.legendre.leggauss(nodes)
    lo, hi = mean_norm - 12 * sd, mean_norm + 12 * sd
    cuts = [lo] + [p for p in (-1.0, 1.0) if lo < p < hi] + [hi]
    s = np.concatenate([(b - a) / 2 * xs + (a + b) / 2 for a, b in zip(cuts[:-1], cuts[1:])])
    w = np.concatenate([(b - a) / 2 * ws for a, b in zip(cuts[:-1], cuts[1:])])
    w = w * np.exp(-0.5 * ((s - mean_norm) / sd) ** 2) / (sd * math.sqrt(2 * math.pi))
    s2 = s * s
    if d == 1:
        return float(np.sum(w * s2 / np.maximum(1.0, s2))), float("nan")
    k, v = d - 1, sd * sd
    c = np.maximum(0.0, 1.0 - s2)
    Fc = special.gammainc(k / 2, c / (2 * v))
    Fc2 = special.gammainc(k / 2 + 1, c / (2 * v))
    rmax = math.sqrt(v) * (math.sqrt(k) + 12.0)
    r0 = np.minimum(np.sqrt(c), rmax)
    xr, wr = np.polynomial.legendre.leggauss(nodes)
    r = r0[:, None] + (rmax - r0[:, None]) * (xr[None, :] + 1) / 2
    logp = (math.log(2) + (k - 1) * np.log(np.maximum(r, 1e-300)) - r * r / (2 * v) - (k / 2) * math.log(2 * v)
            - math.lgamma(k / 2))
    J = (rmax - r0) / 2 * np.sum(wr[None, :] * np.exp(logp) / (s2[:, None] + r * r), axis=1)
    a_in = s2 * (Fc + J)
    b_in = v * k * Fc2 + (1 - Fc) - s2 * J
    return float(np.sum(w * a_in)), float(np.sum(w * b_in) / k)


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
        """lambda_min(E[x x^T]) of one context vector (exact: closed form, pool average, or the quadrature of
        ``projected_gaussian_moments`` for projected Gaussian contexts)."""
        if self.contexts_kind == "sphere":
            return 1.0 / self.d
        if self.contexts_kind == "pool":
            return float(np.linalg.eigvalsh(self.pool.T @ self.pool / self.pool.shape[0])[0])
        if not self.project:
            return float(np.linalg.eigvalsh(np.outer(self.mean, self.mean) + self.scale**2 * np.eye(self.d))[0])
        along, across = projected_gaussian_moments(float(np.linalg.norm(self.mean)), float(self.scale), self.d)
        return along if self.d == 1 else min(along, across)

    @property
    def max_context_norm(self) -> float:
        """sup ||x|| over the context distribution (inf for unprojected Gaussian contexts)."""
        if self.contexts_kind == "sphere":
            return 1.0
        if self.contexts_kind == "pool":
            return float(np.linalg.norm(self.pool, axis=1).max())
        return 1.0 if self.project else math.inf

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
                                          "rewards (Assumption 1 holds; docs/formulas/zcdp-bandits.md §0)"},
    "rdp-contextual": {"source": "docs/formulas/rdp-bandits.md §5 suggestion: i.i.d. unit contexts, d = 5, K = 10 (lambda0 = 1/d), "
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
