"""Table environments: the fixed data of the privacy definitions, served to an algorithm step by step.

The papers define privacy on a *table* of users (seed 001 §2 "Table DP", seed 003 Sec. III Def. 4): user t holds
the vector x_t of its potential rewards for every arm, the policy observes x_{t, a_t}, and two tables are
neighbouring when they differ in one user (one row). Seed 004 (Sec. 2, Def. 1) uses the reward sequence r_{1:T}
(neighbours differ in one reward); its contexts are public and identical in both inputs. These environments hold
such a table and hand it to an algorithm through the ordinary environment interface, so that the only randomness
left in a run is the algorithm's own (privacy noise, tie-breaking, Thompson samples): every draw ignores the
Generator it is given. Each environment records what the algorithm played (the output of the mechanism),
``actions()``, and is single-use: build a new one (or ``reset()``) for every block of runs.

* :class:`FiniteTableEnv` — rewards X[t, a] (T x K) for finite-armed bandits. ``draw(arm)`` (the step-by-step
  references) returns X[t, arm] at the run's own step t; ``sum_rewards(arm, n)`` (the episode-level simulations,
  one entry per run) returns sum_{s=t+1}^{t+n} X[s, arm] from per-run clocks (prefix sums, exact).
* :class:`LinearTableEnv` — a fixed action set (K x d) and rewards X[t, a] for the linear bandits. ``draw`` (the
  step-by-step reference) and ``sum_rewards`` for runs in lockstep: the phased-elimination simulation draws one sum
  per support action, in order, for the runs that complete a phase; a shared clock follows them as long as every
  call covers the same runs with the same counts (phase 1, all that an audit's horizon reaches), else InputError.
* :class:`ContextualTableEnv` — decision sets C_t (T x K x d) and rewards r_t (T,) (seed 004's reward sequence;
  the reward does not depend on the arm). ``contexts`` serves C_t, ``rewards`` serves r_t; the chosen arm is read
  back from the mean <x, theta> the algorithm asks a reward for (``theta`` is chosen so that the arms of every
  decision set have distinct means).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import InputError
from .base import ArmMeans, Env


def _matrix(name: str, x, ndim: int) -> np.ndarray:
    a = np.asarray(x, dtype=float)
    if a.ndim != ndim or a.size == 0:
        raise InputError(name, f"a non-empty {ndim}-dimensional array", getattr(a, "shape", None))
    if not np.all(np.isfinite(a)):
        raise InputError(name, "finite numbers", "non-finite entry")
    return a


class _TableRows:
    """``draw`` for a step-by-step run over a reward table X[t, a] (``self.table``, ``self._t``, ``self._draws``)."""

    @property
    def horizon(self) -> int:
        return int(self.table.shape[0])

    def draw(self, arm: int, rng=None) -> float:
        """X[t, arm] at the next step t of the (single) step-by-step run."""
        if self._t >= self.horizon:
            raise InputError("T", f"at most the table's {self.horizon} rows", self._t + 1)
        r = float(self.table[self._t, int(arm)])
        self._t += 1
        self._draws.append(int(arm))
        return r


class FiniteTableEnv(_TableRows, ArmMeans, Env):
    """Finite-armed table X[t, a], t = 1..T (row t − 1 of ``table``). Means (for the regret bookkeeping of the
    algorithms, irrelevant to privacy) are the column means."""

    setting = "finite"
    family = "table"  # not "bernoulli": the Bernoulli-only fast paths must not replace the table's rewards

    def __init__(self, table, name: str = "table"):
        super().__init__(name)
        X = _matrix("table", table, 2)
        if X.shape[1] < 2:
            raise InputError("table", "a T x K array with K >= 2 arms", X.shape)
        self.table = X
        self.table.setflags(write=False)
        self.means = X.mean(axis=0)
        self.reward_range = (float(X.min()), float(X.max()))
        self._cum = np.vstack([np.zeros((1, X.shape[1])), np.cumsum(X, axis=0)])
        self.reset()

    def reset(self) -> None:
        self._t = 0  # steps served by draw()
        self._draws: list[int] = []
        self._clock = None  # per-run steps served by sum_rewards()
        self._calls: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []

    # -- the environment interface: draw() from _TableRows ------------------------------------------------------

    def sum_rewards(self, arm_idx, n, rng=None) -> np.ndarray:
        """sum of X[s, arm] over the next n steps s of each run (arrays of one entry per run)."""
        arm = np.asarray(arm_idx, dtype=np.int64)
        n = np.asarray(n, dtype=np.int64)
        arm, n = np.broadcast_arrays(arm, n)
        if self._clock is None:
            self._clock = np.zeros(arm.shape, dtype=np.int64)
        if arm.shape != self._clock.shape:
            raise InputError("runs", f"the same number of runs in every call ({self._clock.shape})", arm.shape)
        t0 = self._clock
        t1 = t0 + n
        if np.any(t1 > self.horizon):
            raise InputError("T", f"at most the table's {self.horizon} rows", int(t1.max()))
        s = self._cum[t1, arm] - self._cum[t0, arm]
        self._calls.append((t0.copy(), arm.copy(), n.copy()))
        self._clock = t1
        return s

    # -- what was played -----------------------------------------------------------------------------------------
    def actions(self) -> np.ndarray:
        """(runs, T) arm played at every step (−1 where the run did not reach the step)."""
        T = self.horizon
        if self._clock is None:  # step-by-step run
            out = np.full((1, T), -1, dtype=np.int64)
            out[0, : len(self._draws)] = self._draws
            return out
        runs = self._clock.shape[0]
        out = np.full((runs, T), -1, dtype=np.int64)
        rows = np.arange(runs)
        for t0, arm, n in self._calls:  # steps t0 .. t0 + n − 1 of each run, one offset j at a time: O(runs · max n)
            if n.size == 0:  # per call, not O(runs · T) (a mask over every step)
                continue
            lo = max(int(n.min()), 0)
            for j in range(lo):  # every run's episode reaches offset j
                out[rows, t0 + j] = arm
            for j in range(lo, int(n.max())):
                sel = n > j
                out[rows[sel], t0[sel] + j] = arm[sel]
        return out

    def describe(self) -> dict[str, Any]:
        d = super().describe()
        d.update(K=self.K, T=self.horizon)
        return d


class LinearTableEnv(_TableRows, ArmMeans, Env):
    """Linear bandit table: fixed actions (K x d), rewards X[t, a] (T x K, or a length-T sequence used for every
    action). ``theta`` only sets the means for the regret bookkeeping."""

    setting = "linear"
    family = "table"

    def __init__(self, actions, rewards, theta=None, name: str = "table"):
        super().__init__(name)
        A = _matrix("actions", actions, 2)
        R = np.asarray(rewards, dtype=float)
        if R.ndim == 1:
            R = np.repeat(R[:, None], A.shape[0], axis=1)
        R = _matrix("rewards", R, 2)
        if R.shape[1] != A.shape[0]:
            raise InputError("rewards", f"a T x K array with K = {A.shape[0]}", R.shape)
        self.actions = A
        self.table = R
        self.d = int(A.shape[1])
        self.theta = np.zeros(self.d) if theta is None else _matrix("theta", np.ravel(theta), 1)
        self.means = A @ self.theta
        self.noise = "table"
        self.sigma = 0.0
        self.reward_range = (float(R.min()), float(R.max()))
        self.reset()

    def reset(self) -> None:
        self._t = 0
        self._draws: list[int] = []
        self._lanes = None


    def sum_rewards(self, arm_idx, n, rng=None):
        """(runs, m) sums of X[s, a_j] over consecutive blocks of n_j rows, j = 1..m, from a clock shared by every run
        (all rows of ``arm_idx`` and of ``n`` must be equal: runs in lockstep)."""
        a = np.atleast_2d(np.asarray(arm_idx, dtype=np.int64))
        n = np.atleast_2d(np.asarray(n, dtype=np.int64))
        a, n = np.broadcast_arrays(a, n)
        if self._lanes is None:
            self._lanes = a.shape[0]
        if a.shape[0] != self._lanes or np.any(a != a[:1]) or np.any(n != n[:1]):
            raise InputError("runs", "in lockstep (the same actions and counts for the same runs at every call)",
                             a.shape)
        out = np.empty(a.shape[1])
        for j, (arm, cnt) in enumerate(zip(a[0], n[0])):
            if self._t + cnt > self.horizon:
                raise InputError("T", f"at most the table's {self.horizon} rows", int(self._t + cnt))
            out[j] = self.table[self._t: self._t + cnt, arm].sum()
            self._t += int(cnt)
            self._draws.extend([int(arm)] * int(cnt))
        return np.broadcast_to(out, a.shape).copy()

    def actions_played(self) -> np.ndarray:
        out = np.full((1, self.horizon), -1, dtype=np.int64)
        out[0, : len(self._draws)] = self._draws
        return out


class ContextualTableEnv(Env):
    """Contextual table: decision sets C_t (T x K x d) and rewards r_t (T,), identical for every arm.

    ``contexts(rng, size)`` returns the next decision set(s) broadcast to ``size``: with ``time_axis=None`` every
    call is one step (the references: ``size`` = () or (lanes,)); with ``time_axis=0`` a call of size (c, runs)
    serves steps t+1..t+c (LinUCB's chunked simulation). ``rewards(means, rng)`` is one step per call and returns
    r_t for every entry. ``lambda0`` is declared by the caller (the λ_min(E[x xᵀ]) of the process the decision
    sets are a realisation of); ``theta`` decodes the chosen arm from the requested mean."""

    setting = "contextual"
    family = "table"

    def __init__(self, contexts, rewards, theta, lambda0: float, time_axis: int | None = None, name: str = "table"):
        super().__init__(name)
        C = _matrix("contexts", contexts, 3)
        r = _matrix("rewards", np.ravel(rewards), 1)
        if r.size != C.shape[0]:
            raise InputError("rewards", f"one reward per step ({C.shape[0]})", r.size)
        th = _matrix("theta", np.ravel(theta), 1)
        if th.size != C.shape[2]:
            raise InputError("theta", f"a vector of length d = {C.shape[2]}", th.size)
        self.C, self.r, self.theta = C, r, th
        self.K, self.d = int(C.shape[1]), int(C.shape[2])
        self.lambda0 = float(lambda0)
        self.time_axis = time_axis
        self.noise = "table"
        self.sigma = 0.0
        M = C @ th  # (T, K) means
        for t in range(M.shape[0]):
            same = np.allclose(C[t], C[t][0])
            gaps = np.abs(M[t][:, None] - M[t][None, :])[~np.eye(self.K, dtype=bool)]
            if not same and gaps.min() < 1e-9:
                raise InputError("theta", "distinct means <x, theta> within every decision set (or identical vectors)", t)
        self._means = M
        self.reset()

    @property
    def horizon(self) -> int:
        return int(self.C.shape[0])

    @property
    def max_context_norm(self) -> float:
        return float(np.linalg.norm(self.C, axis=-1).max())

    @property
    def bounded_contexts(self) -> bool:
        return self.max_context_norm <= 1 + 1e-12

    @property
    def privacy_guaranteed(self) -> bool:
        return self.bounded_contexts and bool(np.all(np.abs(self.r) <= 1))

    def reset(self) -> None:
        self._tc = 0  # steps of contexts served
        self._tr = 0  # steps of rewards served
        self._asked: list[np.ndarray] = []

    def contexts(self, rng, size: tuple) -> np.ndarray:
        size = tuple(int(s) for s in size)
        if self.time_axis == 0 and len(size) == 2:
            c, rest = size[0], size[1:]
            if self._tc + c > self.horizon:
                raise InputError("T", f"at most the table's {self.horizon} steps", self._tc + c)
            out = np.broadcast_to(self.C[self._tc: self._tc + c][:, None], (c,) + rest + (self.K, self.d))
            self._tc += c
            return np.array(out)
        if self._tc >= self.horizon:
            raise InputError("T", f"at most the table's {self.horizon} steps", self._tc + 1)
        out = np.broadcast_to(self.C[self._tc], size + (self.K, self.d))
        self._tc += 1
        return np.array(out)

    def rewards(self, means, rng) -> np.ndarray:
        means = np.asarray(means, dtype=float)
        if self._tr >= self.horizon:
            raise InputError("T", f"at most the table's {self.horizon} steps", self._tr + 1)
        self._asked.append(np.array(means, copy=True).reshape(-1))
        out = np.full(means.shape, self.r[self._tr])
        self._tr += 1
        return out

    def actions(self) -> np.ndarray:
        """(runs, steps) arm index chosen at every step served, read back from the requested means (the first arm
        with that mean; a decision set of identical vectors gives arm 0)."""
        steps = len(self._asked)
        runs = self._asked[0].size if steps else 0
        out = np.zeros((runs, steps), dtype=np.int64)
        for t, m in enumerate(self._asked):
            out[:, t] = np.argmin(np.abs(m[:, None] - self._means[t][None, :]), axis=1)
        return out

    def describe(self) -> dict[str, Any]:
        d = super().describe()
        d.update(K=self.K, d=self.d, T=self.horizon, lambda0=self.lambda0)
        return d
