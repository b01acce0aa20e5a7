"""DP-SE (Sajed & Sheffet 2019): private successive elimination with forgetting (sheet 001 §7.1).

Epoch e = 1, 2, …: Delta_e = 2^-e, S = active set,
R_e = floor(max{32 ln(8|S|e^2/beta)/Delta_e^2, 8 ln(4|S|e^2/beta)/(eps Delta_e)} + 1) pulls per active arm,
statistics reset each epoch; mu~_i = epoch mean + Lap(1/(eps R_e)); h_e = sqrt(ln(8|S|e^2/beta)/(2 R_e)),
c_e = ln(4|S|e^2/beta)/(R_e eps); eliminate j if max_i mu~_i - mu~_j > 2(h_e + c_e). With one arm left,
play it until T. Regret experiments: beta = 1/T (default).

Choices: inside an epoch the active arms are pulled one after the other, R_e times each, in index order
(``order="sequential"``); the run stops mid-epoch at T (so a truncated last epoch favours low indices).
[UNC sheet 001 §7.1: max vs sum inside R_e; we use max as in the authors' public implementation.]
Episode-level simulation: one Binomial and one Laplace draw per (epoch, arm), all runs at once.
``episodes`` counts epochs started (plus one for the final survivor phase).
"""

from __future__ import annotations

import math

import numpy as np

from ... import validate
from ._common import FiniteAlgorithm, RefRun, Runs


class DPSE(FiniteAlgorithm):
    name = "DP-SE"
    source = "Sajed & Sheffet 2019 (DP-SE), baseline of seed 001 §5 (sheet §7.1)"
    notion = "pure"
    budget_params = ("epsilon",)
    bound_ids = ("001-dp-se-paper", "001-dp-se-explicit")

    def __init__(self, epsilon: float, beta: float | None = None):
        self.epsilon = validate.positive("epsilon", epsilon)
        self.beta = None if beta is None else validate.open_unit("beta", beta)

    def params(self):
        return {"epsilon": self.epsilon, "beta": "1/T" if self.beta is None else self.beta}

    def _consts(self, nS, e, T):
        beta = self.beta if self.beta is not None else 1.0 / T
        d = 2.0 ** (-e)
        l8 = np.log(8 * nS * e * e / beta)
        l4 = np.log(4 * nS * e * e / beta)
        R = np.floor(np.maximum(32 * l8 / d**2, 8 * l4 / (self.epsilon * d)) + 1)
        h = np.sqrt(l8 / (2 * R))
        c = l4 / (R * self.epsilon)
        return R, h, c

    def simulate(self, env, T, runs, rng, checkpoints):
        self._check_env(env)
        K = env.K
        st = Runs(env, T, runs, checkpoints)
        active = np.ones((runs, K), dtype=bool)
        e = 0
        while not st.done():
            e += 1
            nS = active.sum(axis=1)
            single = nS == 1
            if single.any():
                L, _ = st.play(np.argmax(active, axis=1), np.where(single, T - st.t, 0), rng, count_episode=False)
                st.episodes += L > 0
            R, h, c = self._consts(np.maximum(nS, 1).astype(float), e, T)
            R_int = np.where(single, 0, R).astype(np.int64)
            st.episodes += (~single) & (st.t < T)
            sums = np.zeros((runs, K))
            for k in range(K):
                _, sums[:, k] = st.play(k, np.where(active[:, k], R_int, 0), rng, count_episode=False)
            y = rng.laplace(0.0, 1.0, (runs, K)) / (self.epsilon * R[:, None])
            mu = np.where(active, sums / R[:, None] + y, -np.inf)
            best = mu.max(axis=1, keepdims=True)
            elim = active & (best - mu > 2 * (h + c)[:, None]) & ~single[:, None]
            active &= ~elim
        return st.result()

    def reference(self, env, T, rng, checkpoints):
        self._check_env(env)
        K = env.K
        st = RefRun(env, T, checkpoints)
        active = list(range(K))
        e = 0
        while st.left > 0:
            e += 1
            if len(active) == 1:
                st.episodes += 1
                while st.left > 0:
                    st.step(active[0], rng)
                break
            R, h, c = (float(v) for v in self._consts(float(len(active)), e, T))
            st.episodes += 1
            mu = {}
            for k in active:
                s = 0.0
                for _ in range(int(min(R, st.left))):
                    s += st.step(k, rng)
                mu[k] = s / R + rng.laplace(0.0, 1.0) / (self.epsilon * R)
            if st.left == 0:
                break
            best = max(mu.values())
            active = [k for k in active if not best - mu[k] > 2 * (h + c)]
        return st.result()
