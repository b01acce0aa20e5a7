"""A researcher's plugin: a bound and an algorithm from one (fictional) paper, "Doe 2027", in one file.

docs/plugins.md walks through it; the tests run it (tests/algorithms/test_plugin_algorithms.py). The same file is the module of
the installable example package examples/boundcalc_example_plugin (entry points ``boundcalc.bounds`` and
``boundcalc.algorithms``).

* ``DoeUCB`` (Doe 2027, Algorithm 1): a private UCB for K arms with rewards in [0, 1], pure ε-DP. Each arm is played
  in batches of doubling length (1, 2, 4, ... pulls); at the end of a batch its reward sum, over that batch's fresh
  rewards only, is released with Laplace(1/ε) noise (sensitivity 1) and the arm's estimate is that noisy batch mean.
  Every reward enters exactly one release and the choices are post-processing of the releases, so the algorithm is
  ε-DP for tables of users (parallel composition). Index of an arm whose last batch had n pulls, before round t:
  mean + sqrt(2 log t / n) + 2 log t / (ε n). Initialisation: one pull of each arm, in index order.
* ``BOUNDS``: its regret bound (Doe 2027, Thm 1), declared once as data (issue 15): for ε ≤ 1,
  E[Reg_T] ≤ (K − 1)(32 log T / Δ_min + 3 Δ_max) + (K − 1) · 24 log T / ε.

Nothing here is a result of the five papers boundcalc implements: the paper, the theorem and its constants are made
up for the example.
"""

from __future__ import annotations

import numpy as np

from boundcalc.algorithms.base import Algorithm, BlockResult
from boundcalc.bounds.declared import DeclaredBound

BOUNDS = [
    DeclaredBound(
        id="doe2027-thm1",
        title="Doe-UCB: a pure-DP UCB with doubling batches (problem-dependent)",
        source="Doe 2027, Thm 1",
        setting="finite",
        notion="pure",
        kind="upper-problem-dependent",
        form="explicit",
        algorithm="Doe-UCB",
        nonprivate="(K - 1)*(32*log(T)/Delta_min + 3*Delta_max)",
        privacy_cost="(K - 1)*24*log(T)/epsilon",
        assumptions=["epsilon > 0", "epsilon <= 1", "Delta_min > 0", "T >= 2"],
    )
]


class DoeUCB(Algorithm):
    """Doe 2027, Algorithm 1 (see the module docstring): doubling batches, Laplace(1/ε) noise on each batch sum."""

    name = "Doe-UCB"
    source = "Doe 2027, Algorithm 1"
    setting = "finite"
    notion = "pure"
    budget_params = ("epsilon",)  # the constructor keyword of its budget (finite-armed algorithms)
    bound_ids = ("doe2027-thm1",)
    granularity = "episode"  # decisions fixed inside a batch: T x runs limits of the per-step loops do not apply
    audit_scenario = "first-decision"  # what `boundcalc audit` runs (two arms, one release each, the first decision)
    audit_budget = {"epsilon": 1.0}

    def __init__(self, epsilon: float, noise_mult: float = 1.0):
        if not (isinstance(epsilon, (int, float)) and epsilon > 0):
            raise ValueError(f"epsilon must be > 0 (got {epsilon!r})")
        self.epsilon = float(epsilon)
        self.noise_mult = float(noise_mult)  # 1: as published; the audit's mutants halve or remove the noise

    def params(self) -> dict:
        return {"noise_mult": self.noise_mult} if self.noise_mult != 1.0 else {}

    def _index(self, mean, n, t):
        log_t = np.log(np.maximum(t, 2.0))
        return mean + np.sqrt(2.0 * log_t / n) + 2.0 * log_t / (self.epsilon * n)

    def simulate(self, env, T, runs, rng, checkpoints):
        """Every run in lockstep over its decisions (one batch each), vectorised across runs; the reward sum of a
        batch is drawn exactly (env.sum_rewards), the regret at checkpoints inside a batch interpolated (exact:
        one arm is played)."""
        K, T = int(env.K), int(T)
        gaps = np.asarray(env.gaps, dtype=float)
        cps = np.asarray(checkpoints, dtype=np.int64)
        t = np.zeros(runs, dtype=np.int64)
        R = np.zeros(runs)
        reg = np.zeros((runs, cps.size))
        pulls = np.zeros((runs, K), dtype=np.int64)
        episodes = np.zeros(runs, dtype=np.int64)
        mean = np.zeros((runs, K))
        n = np.ones((runs, K))
        rows = np.arange(runs)
        scale = self.noise_mult / self.epsilon

        def play(arm, L):
            L = np.maximum(np.minimum(L, T - t), 0)
            S = env.sum_rewards(arm, L, rng)
            t0, t1 = t.copy(), t + L
            inside = (cps[None, :] > t0[:, None]) & (cps[None, :] <= t1[:, None])
            vals = R[:, None] + (cps[None, :] - t0[:, None]) * gaps[arm][:, None]
            reg[inside] = vals[inside]
            R[:] += L * gaps[arm]
            pulls[rows, arm] += L
            t[:] = t1
            return S, L

        for a in range(K):  # one pull of each arm, in index order; its release: the reward + Laplace(1/eps)
            arm = np.full(runs, a)
            S, L = play(arm, np.ones(runs, dtype=np.int64))
            mean[:, a] = np.where(L > 0, S + rng.laplace(0.0, scale, runs), 0.0)
        while (t < T).any():
            arm = np.argmax(self._index(mean, n, (t + 1.0)[:, None]), axis=1)
            L = 2 * n[rows, arm].astype(np.int64)
            S, L = play(arm, L)
            episodes += L > 0
            done = L > 0
            noisy = (S + rng.laplace(0.0, scale, runs)) / np.maximum(L, 1)
            mean[rows[done], arm[done]] = noisy[done]
            n[rows[done], arm[done]] = L[done]
        return BlockResult(regret=reg, pulls=pulls, episodes=episodes)

    def reference(self, env, T, rng, checkpoints):
        """One run, step by step (env.draw per round): the same algorithm for distributional tests."""
        K, T = int(env.K), int(T)
        gaps = [float(g) for g in env.gaps]
        cps = [int(c) for c in checkpoints]
        scale = self.noise_mult / self.epsilon
        t, R, reg, pulls, episodes = 0, 0.0, [0.0] * len(cps), [0] * K, 0
        mean, n = [0.0] * K, [1] * K

        def pull(a):
            nonlocal t, R
            x = env.draw(a, rng)
            t += 1
            R += gaps[a]
            pulls[a] += 1
            for j, c in enumerate(cps):
                if c == t:
                    reg[j] = R
            return x

        for a in range(min(K, T)):
            mean[a] = pull(a) + rng.laplace(0.0, scale)
        while t < T:
            a = int(np.argmax(self._index(np.array(mean), np.array(n, dtype=float), t + 1.0)))
            L = min(2 * n[a], T - t)
            S = sum(pull(a) for _ in range(L))
            episodes += 1
            mean[a] = (S + rng.laplace(0.0, scale)) / L
            n[a] = L
        return BlockResult(regret=np.array([reg]), pulls=np.array([pulls]), episodes=np.array([episodes]))


ALGORITHMS = [DoeUCB]
