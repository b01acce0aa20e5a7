"""DP-KLUCB and DP-IMED (seed 001 Algorithm 1; sheet docs/formulas/eps-global-dp-bernoulli.md §5).

Per arm: a noisy cumulative sum S~_i (one fresh Lap(1/eps) per batch, past rewards never discarded),
cumulative pulls N_i and batch index m_i. Initialisation: every arm n_1 times (one noise each). Then, while
t < T: private means mu~_i = S~_i / N_i clipped to [0, 1]; pick the arm by the index and pull it for the
next batch of the geometric schedule (ratio alpha), truncated at T.

Episode-level simulation: one Binomial draw and one Laplace draw per batch, for all runs at once.

Choices where the sheet lists ambiguities (all exposed as parameters):
* schedule (Eq. 14, UNC): ``"cumulative"`` (default; n_m = ceil(n_1 alpha^{m-1}), b_m = n_m - n_{m-1},
  so alpha = 2, n_1 = 1 gives 1, 2, 4, 8, … cumulative) or ``"geometric"`` (b_m = ceil(n_1 alpha^{m-1}));
  b_m >= 1 enforced;
* tie-breaking: uniformly at random by default, lowest index with ``ties="lowest"`` (see ``_common``; ties are
  frequent here: the DP-KLUCB index is 1 for every arm with N eps (1 - mu~) <= ln t); initial batches in a
  random order of the arms by default; truncation of the last batch at T;
* DP-KLUCB exploration ln t with t = rounds played so far (no ln ln t term), DP-IMED with ln N_i.

``record_noise=True`` adds ``noise_sum`` (runs, K: S~ minus the true sum) and ``n_noises`` (runs, K: number
of Laplace draws) to ``BlockResult.extra``: the inspection hook of the privacy tests (the noise of N_i
batches has variance n_noises * 2 / eps^2), plus ``noise_draws`` (every Laplace draw, 1-D).

``noise_mult`` (default 1, >= 0) multiplies every privacy-noise draw; other values are deliberately
mis-calibrated copies (0.5: noise halved, 0: no noise) that exist only for audits and tests of power
(boundcalc.audit.mutants): they are not private at the stated budget.
"""

from __future__ import annotations

from abc import abstractmethod

import math

import numpy as np

from ... import validate
from ...errors import InputError
from ._common import (FiniteAlgorithm, RefRun, Runs, argbest, check_ties, dp_imed, dp_klucb, init_order,
                      with_noise_mult)

SCHEDULES = ("cumulative", "geometric")


def batch_size(m, n1: int, alpha: float, schedule: str = "cumulative"):
    """Size of batch m >= 1 (vectorised over m); b_1 = n_1. Seed 001 Eq. 14 (reading of sheet §5)."""
    m = np.asarray(m, dtype=float)
    if schedule == "geometric":
        b = np.ceil(n1 * alpha ** (m - 1) - 1e-9)
    else:
        b = np.where(m <= 1, n1, np.ceil(n1 * alpha ** (m - 1) - 1e-9) - np.ceil(n1 * alpha ** (m - 2) - 1e-9))
    return np.maximum(b, 1).astype(np.int64)


class _DPBatched(FiniteAlgorithm):
    notion = "pure"
    budget_params = ("epsilon",)
    source = "seed 001 Algorithm 1"

    minimize = False  # the policy pulls argmax of ``scores`` (argmin if True)

    def __init__(self, epsilon: float, alpha: float = 2.0, n1: int = 1, schedule: str = "cumulative",
                 ties: str = "random", record_noise: bool = False, noise_mult: float = 1.0):
        self.epsilon = validate.positive("epsilon", epsilon)
        self.noise_mult = validate.nonnegative("noise_mult", noise_mult)
        self.alpha = validate.greater_than("alpha (batch ratio)", alpha, 1.0)
        self.n1 = validate.count("n1", n1)
        if schedule not in SCHEDULES:
            raise InputError("schedule", "one of " + ", ".join(SCHEDULES), schedule)
        self.schedule = schedule
        self.ties = check_ties(ties)
        self.record_noise = bool(record_noise)

    def params(self):
        return with_noise_mult({"epsilon": self.epsilon, "alpha": self.alpha, "n1": self.n1,
                                "schedule": self.schedule, "ties": self.ties}, self.noise_mult)

    @abstractmethod
    def scores(self, mu, N, t):
        """Index per run and arm from clipped private means mu (runs, K), pulls N, rounds played t (runs,)."""

    def choose(self, mu, N, t, rng):
        """Arm per run: argmax (argmin if ``minimize``) of the scores, ties by ``self.ties``."""
        return argbest(self.scores(mu, N, t), rng, self.ties, minimize=self.minimize)

    def simulate(self, env, T, runs, rng, checkpoints):
        self._check_env(env)
        K, eps = env.K, self.epsilon
        st = Runs(env, T, runs, checkpoints)
        S = np.zeros((runs, K))
        N = np.zeros((runs, K))
        m = np.zeros((runs, K), dtype=np.int64)
        noise = np.zeros((runs, K)) if self.record_noise else None
        draws: list[np.ndarray] = []
        rows = st.rows
        order = init_order(rng, K, runs, self.ties)
        for j in range(K):
            k = order[:, j]
            L, x = st.play(k, self.n1, rng, count_episode=False)
            y = self.noise_mult * rng.laplace(0.0, 1.0 / eps, runs)
            S[rows, k] += x + y
            N[rows, k] += L
            m[rows, k] = 1
            if noise is not None:
                noise[rows, k] += y
                draws.append(y)
        while not st.done():
            t = np.maximum(st.t, 1).astype(float)
            mu = np.clip(S / np.maximum(N, 1), 0.0, 1.0)
            a = self.choose(mu, np.maximum(N, 1), t, rng)
            b = batch_size(m[rows, a] + 1, self.n1, self.alpha, self.schedule)
            L, x = st.play(a, b, rng)
            y = self.noise_mult * rng.laplace(0.0, 1.0 / eps, runs)
            act = L > 0
            S[rows, a] += np.where(act, x + y, 0.0)
            N[rows, a] += L
            m[rows, a] += act
            if noise is not None:
                noise[rows, a] += np.where(act, y, 0.0)
                draws.append(y[act])
        extra = {}
        if noise is not None:
            extra = {"noise_sum": noise, "n_noises": m.astype(float), "true_sum": S - noise,
                     "noise_draws": np.concatenate(draws)}
        return st.result(**extra)

    def reference(self, env, T, rng, checkpoints):
        self._check_env(env)
        K, eps = env.K, self.epsilon
        st = RefRun(env, T, checkpoints)
        S, N, m = [0.0] * K, [0] * K, [0] * K
        for k in init_order(rng, K, 1, self.ties)[0]:
            k = int(k)
            n = min(self.n1, st.left)
            for _ in range(n):
                S[k] += st.step(k, rng)
            S[k] += self.noise_mult * rng.laplace(0.0, 1.0 / eps)
            N[k] += n
            m[k] = 1
        while st.left > 0:
            mu = np.clip(np.array([S]) / np.maximum(np.array([N], dtype=float), 1), 0.0, 1.0)
            a = int(self.choose(mu, np.maximum(np.array([N], dtype=float), 1), np.array([float(max(st.t, 1))]), rng)[0])
            b = int(batch_size(m[a] + 1, self.n1, self.alpha, self.schedule))
            n = min(b, st.left)
            for _ in range(n):
                S[a] += st.step(a, rng)
            S[a] += self.noise_mult * rng.laplace(0.0, 1.0 / eps)
            N[a] += n
            m[a] += 1
            st.episodes += 1
        return st.result()

    @classmethod
    def episode_schedule(cls, T, *, epsilon, n1, ratio):
        """Card: the schedule `boundcalc episodes` prints (batches of one arm, seed 001 Eq. 14)."""
        from ... import schedules

        return schedules.dp_klucb(T, epsilon, n1=n1, ratio=ratio, algo=cls.name.lower())

    @classmethod
    def from_context(cls, ctx, budget):
        """Card: the instance regret --check simulates for a bound's context ``ctx`` at ``budget``."""
        return cls(budget.epsilon, alpha=ctx["alpha_batch"])


class DPKLUCB(_DPBatched):
    """DP-KLUCB (seed 001 Algorithm 1, index Eq. 12): argmax max{q : N_i d_eps(mu~_i, q) <= ln t}.

    Upper bound: seed 001 Thm 4.3 (asymptotic, alpha · LB_eps · ln T + o(ln T)).
    """

    name = "DP-KLUCB"
    check_assumptions = "finite"  # card: regret --check's assumption check (verify.adapters.ASSUMPTION_CHECKS)
    # card: the parameter map, constructor keyword -> bound context key (regret --check, overlay)
    context_params = {"alpha": "alpha_batch"}
    audit_scenario = "first-decision"  # card: audit design (boundcalc.audit.scenarios.DESIGNS)
    audit_rank = 2  # card: its place in `audit --list`
    audit_budget = {"epsilon": 1.0}
    audit_fixed = {"n1": 8}
    audit_why_fixed = ("n1=8 initial pulls per arm: with n1 = 1 the DP-KLUCB index of both arms is 1 (a tie broken at "
                       "random) whenever N ε (1 − x) <= ln t, and the first decision carries almost no information")
    # card: non-private counterpart (budget --by simulation)
    counterpart = ("KL-UCB",
                   "KL-UCB (seed 001's non-private baseline)")
    source = "seed 001 Algorithm 1 (Eq. 12 index)"
    bound_ids = ("001-thm4.3-dp-klucb",)

    def scores(self, mu, N, t):
        return dp_klucb(mu, N, t[:, None], self.epsilon)


class DPIMED(_DPBatched):
    """DP-IMED (seed 001 Algorithm 1, index Eq. 13): argmin N_i d_eps(mu~_i, mu~*) + ln N_i.

    Upper bound: seed 001 Thm 4.3 (asymptotic, alpha · LB_eps · ln T + o(ln T)).
    """

    name = "DP-IMED"
    check_assumptions = "finite"  # card: regret --check's assumption check (verify.adapters.ASSUMPTION_CHECKS)
    # card: the parameter map, constructor keyword -> bound context key (regret --check, overlay)
    context_params = {"alpha": "alpha_batch"}
    audit_scenario = "first-decision"  # card: audit design (boundcalc.audit.scenarios.DESIGNS)
    audit_rank = 3  # card: its place in `audit --list`
    audit_budget = {"epsilon": 1.0}
    # card: non-private counterpart (budget --by simulation)
    counterpart = ("IMED",
                   "IMED (seed 001's non-private baseline)")
    source = "seed 001 Algorithm 1 (Eq. 13 index)"
    bound_ids = ("001-thm4.3-dp-imed",)

    minimize = True

    def scores(self, mu, N, t):
        return dp_imed(mu, N, self.epsilon)
