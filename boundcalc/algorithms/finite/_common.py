"""Shared machinery of the finite-armed algorithms: run bookkeeping, checkpoint recording, index helpers.

Conventions used by every finite algorithm (documented choices where the sheets list ambiguities):

* **Rounds.** t counts rounds already played; the index computed before an episode starting at round
  t + 1 uses ``t_l = t + 1`` where the paper writes t_l, and ``t`` where it writes "ln t" for the current time.
* **Tie-breaking.** Uniformly at random among the tied arms by default (``ties="random"``), drawn from the
  run's own Generator and only when there is a tie; the initial round-robin pulls are in a uniformly random
  order (the unpulled arms are tied). ``ties="lowest"`` gives the lowest arm index and index-order
  initialisation (the reading "tie-break by lowest index" of sheet 001 §5 / 003 §0), whose early regret
  depends on the order in which the arms are listed (issue 7 §3). Both in ``simulate`` and ``reference``.
* **Truncation at T.** Every episode/batch/epoch is cut so that a run stops exactly at T (sheet 001 §5,
  003 §0). The noise of a truncated last episode is still drawn (it is never used).
* **Episodes.** ``BlockResult.episodes`` counts the episodes (batches, epochs) after initialisation,
  including a truncated last one; initial pulls are not counted.
* **Regret** is the pseudo-regret sum_a Delta_a N_a(t) (seed 001 Eq. 2), exact at every checkpoint because
  it grows linearly inside an episode (one arm is played).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import validate
from ...errors import InputError
from ..base import Algorithm, BlockResult

try:  # vectorised indexes written concurrently in boundcalc.info; fall back to ours when absent
    from ...info import kl_ucb as _info_kl_ucb  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the other engineer's progress
    _info_kl_ucb = None
try:
    from ...info import dp_klucb_index as _info_dp_klucb  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover
    _info_dp_klucb = None
try:
    from ...info import dp_imed_index as _info_dp_imed  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover
    _info_dp_imed = None

from ...info import d_epsilon, kl_bernoulli


# ------------------------------------------------------------------------------------------------------
# index helpers (vectorised; the info versions are used when present)
# ------------------------------------------------------------------------------------------------------
def kl_ucb_fallback(x, level, iters: int = 50):
    """max{q in [x, 1] : kl(x, q) <= level}, by bisection (KL-UCB, Cappé et al. 2013; sheet 001 §7.5)."""
    x = np.clip(np.asarray(x, dtype=float), 0.0, 1.0)
    level = np.maximum(np.asarray(level, dtype=float), 0.0)
    x, level = np.broadcast_arrays(x, level)
    lo = x.copy()
    hi = np.ones_like(x)
    for _ in range(iters):
        mid = 0.5 * (lo + hi)
        ok = kl_bernoulli(x, mid) <= level
        lo = np.where(ok, mid, lo)
        hi = np.where(ok, hi, mid)
    return lo


def kl_ucb(x, level):
    if _info_kl_ucb is not None:
        return np.asarray(_info_kl_ucb(x, level), dtype=float)
    return kl_ucb_fallback(x, level)


def dp_klucb_fallback(x, N, t, eps):
    """U = max{q in [0,1] : N d_eps(x, q) <= ln t}, x already clipped to [0,1] (seed 001 Eq. 12).

    Closed form of sheet 001 §5 "Computing U_i": 1 if N eps (1 - x) <= ln t; else with
    q0 = x e^eps / (1 - x + x e^eps) and L = ln t / N: the KL-UCB root if kl(x, q0) >= L, otherwise the
    inverse of the high-privacy branch (1 - e^{-(L + eps x)}) / (1 - e^{-eps}).
    """
    x, N, t = np.broadcast_arrays(np.asarray(x, float), np.asarray(N, float), np.asarray(t, float))
    L = np.log(t) / N
    ee = np.exp(eps)
    q0 = x * ee / (1 - x + x * ee)
    low = kl_bernoulli(x, q0) >= L
    with np.errstate(over="ignore"):
        high = -np.expm1(-(L + eps * x)) / (-np.expm1(-eps))
    out = np.where(low, kl_ucb(x, L), np.minimum(high, 1.0))
    return np.where(N * eps * (1 - x) <= np.log(t), 1.0, out)


def dp_klucb(x, N, t, eps):
    if _info_dp_klucb is not None:
        return np.asarray(_info_dp_klucb(x, N, t, eps), dtype=float)
    return dp_klucb_fallback(x, N, t, eps)


def dp_imed_fallback(means, N, eps):
    """I_i = N_i d_eps(mu_i, max_j mu_j) + ln N_i over the last axis, means already clipped (seed 001 Eq. 13)."""
    means = np.asarray(means, float)
    top = means.max(axis=-1, keepdims=True)
    return N * d_epsilon(means, top, eps) + np.log(N)


def dp_imed(means, N, eps):
    if _info_dp_imed is not None:
        return np.asarray(_info_dp_imed(means, N, eps), dtype=float)
    return dp_imed_fallback(means, N, eps)


# ------------------------------------------------------------------------------------------------------
# bookkeeping
# ------------------------------------------------------------------------------------------------------
class Runs:
    """State of a block of runs for an episode-level simulation: time, pulls, pseudo-regret, checkpoints.

    ``play(arm, L, rng)`` plays arm ``arm[r]`` for ``L[r]`` rounds in every run r (truncated at T), draws the
    exact reward sums from the environment and records the regret at every checkpoint inside the episode
    by linear interpolation (exact for pseudo-regret). Memory is O(runs x (K + checkpoints)).
    """

    def __init__(self, env, T: int, runs: int, checkpoints: np.ndarray):
        self.env, self.T, self.n = env, int(T), int(runs)
        self.gaps = np.asarray(env.gaps, dtype=float)
        self.cps = np.asarray(checkpoints, dtype=np.int64)
        self.t = np.zeros(runs, dtype=np.int64)
        self.pulls = np.zeros((runs, env.K), dtype=np.int64)
        self.R = np.zeros(runs)
        self.reg = np.zeros((runs, self.cps.size))
        self.episodes = np.zeros(runs, dtype=np.int64)
        self.rows = np.arange(runs)

    @property
    def active(self) -> np.ndarray:
        return self.t < self.T

    def done(self) -> bool:
        return bool((self.t >= self.T).all())

    def play(self, arm, L, rng: np.random.Generator, count_episode: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """Play ``arm`` for ``L`` rounds (clipped to [0, T - t]); returns (L_eff, reward sums)."""
        arm = np.broadcast_to(np.asarray(arm, dtype=np.int64), (self.n,))
        L = np.minimum(np.broadcast_to(np.asarray(L, dtype=np.int64), (self.n,)), self.T - self.t)
        L = np.maximum(L, 0)
        S = self.env.sum_rewards(arm, L, rng)
        slope = self.gaps[arm]
        t0, t1 = self.t, self.t + L
        inside = (self.cps[None, :] > t0[:, None]) & (self.cps[None, :] <= t1[:, None])
        if inside.any():
            vals = self.R[:, None] + (self.cps[None, :] - t0[:, None]) * slope[:, None]
            self.reg[inside] = vals[inside]
        self.R = self.R + L * slope
        self.pulls[self.rows, arm] += L
        self.t = t1
        if count_episode:
            self.episodes += L > 0
        return L, S

    def credit(self, rows, arm, L) -> None:
        """Runs ``rows`` play ``arm`` for ``L`` rounds whose rewards were drawn elsewhere (t + L <= T): time,
        pulls, pseudo-regret and the checkpoints inside the stretch (linear interpolation, exact)."""
        rows = np.asarray(rows, dtype=np.int64)
        if rows.size == 0:
            return
        arm = np.asarray(arm, dtype=np.int64)
        L = np.asarray(L, dtype=np.int64)
        slope = self.gaps[arm]
        t0 = self.t[rows]
        t1 = t0 + L
        R0 = self.R[rows]
        lo = np.searchsorted(self.cps, t0, side="right")  # first checkpoint > t0
        hi = np.searchsorted(self.cps, t1, side="right")  # first checkpoint > t1
        for i in np.nonzero(hi > lo)[0]:
            j = np.arange(lo[i], hi[i])
            self.reg[rows[i], j] = R0[i] + (self.cps[j] - t0[i]) * slope[i]
        self.R[rows] = R0 + L * slope
        self.pulls[rows, arm] += L
        self.t[rows] = t1

    def step(self, arm, rng: np.random.Generator) -> np.ndarray:
        """Per-step fast path: every run plays one round of ``arm[r]`` (runs in lockstep, t < T)."""
        arm = np.asarray(arm, dtype=np.int64)
        x = self.env.sum_rewards(arm, np.ones(self.n, dtype=np.int64), rng)
        self.R = self.R + self.gaps[arm]
        self.pulls[self.rows, arm] += 1
        self.t = self.t + 1
        tt = int(self.t[0])
        j = int(np.searchsorted(self.cps, tt))
        if j < self.cps.size and self.cps[j] == tt:
            self.reg[:, j] = self.R
        return x

    def result(self, **extra) -> BlockResult:
        return BlockResult(regret=self.reg, pulls=self.pulls, episodes=self.episodes, extra=extra)


class RefRun:
    """Step-by-step bookkeeping of one run (for the reference implementations)."""

    def __init__(self, env, T: int, checkpoints: np.ndarray):
        self.env, self.T = env, int(T)
        self.gaps = [float(g) for g in env.gaps]
        self.cps = [int(c) for c in checkpoints]
        self.t = 0
        self.R = 0.0
        self.pulls = [0] * env.K
        self.reg = [0.0] * len(self.cps)
        self.p = 0
        self.episodes = 0

    def step(self, arm: int, rng: np.random.Generator) -> float:
        """Pull ``arm`` once: one reward drawn from the environment."""
        r = self.env.draw(arm, rng)
        self.t += 1
        self.R += self.gaps[arm]
        self.pulls[arm] += 1
        while self.p < len(self.cps) and self.cps[self.p] == self.t:
            self.reg[self.p] = self.R
            self.p += 1
        return r

    @property
    def left(self) -> int:
        return self.T - self.t

    def result(self, **extra) -> BlockResult:
        return BlockResult(regret=np.array([self.reg]), pulls=np.array([self.pulls]),
                           episodes=np.array([self.episodes]), extra=extra)


# ------------------------------------------------------------------------------------------------------
# base class
# ------------------------------------------------------------------------------------------------------
class FiniteAlgorithm(Algorithm):
    """Base of the finite-armed algorithms: parameters, budget handling, metadata."""

    setting = "finite"
    # "episode" (exact batch draws), "stretch"/"thinning" (exact bulk draws between possible switches of the
    # pulled arm, Bernoulli arms; per-step loop otherwise) or "step" (per-step loop vectorised across runs)
    granularity = "episode"
    budget_params: tuple[str, ...] = ()  # which of epsilon / rho / (alpha, rdp_epsilon) it needs
    rewards = "[0,1]"  # reward assumption of its privacy proof

    def params(self) -> dict[str, Any]:
        return {}

    def describe(self) -> dict[str, Any]:
        d = super().describe()
        d.update(source=self.source, bound_ids=list(self.bound_ids), granularity=self.granularity,
                 params=self.params())
        return d

    @classmethod
    def from_options(cls, epsilon=None, rho=None, alpha=None, rdp_epsilon=None, **params):
        """Build from CLI-style budget options; missing or superfluous budgets raise InputError."""
        kw = {}
        given = {"epsilon": epsilon, "rho": rho, "alpha": alpha, "rdp_epsilon": rdp_epsilon}
        for k in cls.budget_params:
            if given[k] is None:
                flag = "--" + k.replace("_", "-")
                raise InputError(flag, f"given for {cls.name} ({cls.notion} privacy)", None)
            kw[k] = given[k]
        return cls(**kw, **{k: v for k, v in params.items() if v is not None})

    def _check_env(self, env):
        if getattr(env, "setting", None) != "finite":
            raise InputError("env", "a finite-armed environment", type(env).__name__)


TIES = ("random", "lowest")


def check_ties(ties: str) -> str:
    if ties not in TIES:
        raise InputError("ties", "one of " + ", ".join(TIES), ties)
    return ties


def argbest(scores, rng: np.random.Generator, ties: str = "random", minimize: bool = False) -> np.ndarray:
    """Row-wise argmax (argmin if ``minimize``) of an (n, K) score array.

    ``ties="random"``: uniformly among the exactly equal best scores, one ``rng.integers`` draw for the rows
    that have a tie (rows without a tie consume nothing); ``ties="lowest"``: the lowest index.
    """
    s = np.asarray(scores, dtype=float)
    if minimize:
        s = -s
    if ties == "lowest":  # numpy's argmax is exactly this: the first maximum, the first NaN in a row with one
        return np.argmax(s, axis=1)
    if s.ndim == 2 and s.shape[0] == 1:  # one run (the step-by-step references): the same choice and draws
        row = s[0].tolist()
        if not any(v != v for v in row):  # no NaN (NaN rows: numpy's convention below)
            best = max(row)
            hits = [k for k, v in enumerate(row) if v == best]
            if len(hits) > 1:
                return np.array([hits[int(rng.integers(0, np.array([len(hits)]))[0])]])
            return np.array([hits[0]])
    best = s.max(axis=1, keepdims=True)
    is_best = s == best
    out = np.argmax(is_best, axis=1)
    nan_rows = np.isnan(best[:, 0])
    if nan_rows.any():  # numpy's convention: the first NaN wins
        out[nan_rows] = np.argmax(np.isnan(s[nan_rows]), axis=1)
    if ties == "random":
        count = is_best.sum(axis=1)
        tied = np.nonzero(count > 1)[0]
        if tied.size:
            pick = rng.integers(0, count[tied])
            out[tied] = np.argmax(np.cumsum(is_best[tied], axis=1) > pick[:, None], axis=1)
    return out


def init_order(rng: np.random.Generator, K: int, runs: int, ties: str = "random") -> np.ndarray:
    """(runs, K) order of the initial pulls: a uniform random permutation per run (``ties="random"``, the
    unpulled arms being tied) or 0, 1, ..., K-1."""
    base = np.broadcast_to(np.arange(K), (runs, K))
    if ties == "random":
        return rng.permuted(base, axis=1)
    return np.array(base)


def with_noise_mult(params: dict, noise_mult: float) -> dict:
    """``params`` plus ``noise_mult`` when it is not 1 (a deliberately mis-calibrated copy, shown in the output)."""
    if noise_mult != 1.0:
        params = dict(params, noise_mult=noise_mult)
    return params


def positive_eps(name, x):
    return validate.positive(name, x)


def laplace(rng: np.random.Generator, scale, size):
    return rng.laplace(0.0, scale, size)
