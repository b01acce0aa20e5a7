"""DP-SE (Sajed & Sheffet 2019): private successive elimination with forgetting (sheet 001 §7.1).

Epoch e = 1, 2, …: Delta_e = 2^-e, S = active set,
R_e = floor(max{32 ln(8|S|e^2/beta)/Delta_e^2, 8 ln(4|S|e^2/beta)/(eps Delta_e)} + 1) pulls per active arm,
statistics reset each epoch; mu~_i = epoch mean + Lap(1/(eps R_e)); h_e = sqrt(ln(8|S|e^2/beta)/(2 R_e)),
c_e = ln(4|S|e^2/beta)/(R_e eps); eliminate j if max_i mu~_i - mu~_j > 2(h_e + c_e). With one arm left,
play it until T. Regret experiments: beta = 1/T (default).

Choices: inside an epoch the active arms are pulled one after the other, R_e times each; the order is a
fresh uniformly random permutation of the active arms in every epoch (``ties="random"``, default: the arms
are exchangeable inside an epoch, so the order is a tie) or index order (``ties="lowest"``, under which a
truncated epoch and every checkpoint inside an epoch favour low indices). The run stops mid-epoch at T.
[UNC sheet 001 §7.1: max vs sum inside R_e; we use max as in the public implementation the sheet cites
(achraf-azize/DP-BAI, algorithms/dp_se.py: ``Re = max(Re1, Re2) + 1``); the original paper's text could not be
consulted here.]
Episode-level simulation: one Binomial and one Laplace draw per (epoch, arm), all runs at once.
``episodes`` counts epochs started (plus one for the final survivor phase).

``record_noise=True`` adds to ``BlockResult.extra`` one entry per released epoch mean: ``noise_draws`` (the
released mean minus the epoch's empirical mean, i.e. the noise actually added), ``noise_epoch`` (e) and
``noise_active`` (|S| at the start of the epoch), from which R_e, hence the scale 1/(eps R_e), follows.

``noise_mult`` (default 1, >= 0) multiplies every privacy-noise draw; other values are deliberately
mis-calibrated copies (0.5: noise halved, 0: no noise) that exist only for audits and tests of power
(boundcalc.audit.mutants): they are not private at the stated budget.
"""

from __future__ import annotations

import math

import numpy as np

from ... import validate
from ._common import FiniteAlgorithm, RefRun, Runs, check_ties, with_noise_mult


class DPSE(FiniteAlgorithm):
    name = "DP-SE"
    audit_scenario = "dp-se-elimination"  # card: audit design (boundcalc.audit.scenarios.DESIGNS)
    audit_rank = 1  # card: its place in `audit --list`
    check_assumptions = "finite"  # card: regret --check's assumption check (verify.adapters.ASSUMPTION_CHECKS)
    context_params = {"beta": "dpse_beta"}  # card: constructor keyword -> bound context key (regret --check, overlay)
    source = "Sajed & Sheffet 2019 (DP-SE), baseline of seed 001 §5 (sheet §7.1)"
    notion = "pure"
    budget_params = ("epsilon",)
    bound_ids = ("001-dp-se-paper", "001-dp-se-explicit")

    @classmethod
    def episode_schedule(cls, T, *, epsilon, K, beta):
        """Card: the schedule `boundcalc episodes` prints (elimination epochs, Sajed & Sheffet 2019)."""
        from ... import schedules

        return schedules.dp_se(T, K, epsilon, beta)

    @classmethod
    def from_context(cls, ctx, budget):
        """Card: the instance regret --check simulates for a bound's context ``ctx`` at ``budget``."""
        b = ctx.get("dpse_beta", "1/T")
        return cls(budget.epsilon, beta=None if b == "1/T" else float(b))

    def __init__(self, epsilon: float, beta: float | None = None, ties: str = "random", record_noise: bool = False,
                 noise_mult: float = 1.0):
        self.epsilon = validate.positive("epsilon", epsilon)
        self.noise_mult = validate.nonnegative("noise_mult", noise_mult)
        self.beta = None if beta is None else validate.open_unit("beta", beta)
        self.ties = check_ties(ties)
        self.record_noise = bool(record_noise)

    def params(self):
        return with_noise_mult({"epsilon": self.epsilon, "beta": "1/T" if self.beta is None else self.beta,
                                "ties": self.ties}, self.noise_mult)

    def sum_noise(self, rng, size):
        """Lap(1/eps) on an epoch's reward sum (sensitivity 1), i.e. Lap(1/(eps R_e)) on its mean (sheet 001 §7.1)."""
        return self.noise_mult * rng.laplace(0.0, 1.0 / self.epsilon, size)

    def _order(self, rng, active_row_list):
        """Order in which the active arms of one run are pulled in an epoch."""
        if self.ties == "random":
            return [active_row_list[i] for i in rng.permutation(len(active_row_list))]
        return list(active_row_list)

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
        rows = st.rows
        active = np.ones((runs, K), dtype=bool)
        draws: list[np.ndarray] = []
        d_e: list[np.ndarray] = []
        d_s: list[np.ndarray] = []
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
            live = (~single) & (st.t < T)  # runs that start this epoch
            st.episodes += live
            sums = np.zeros((runs, K))
            if self.ties == "random":  # a fresh random order of the arms in every epoch (inactive arms play 0)
                order = rng.permuted(np.broadcast_to(np.arange(K), (runs, K)), axis=1)
            else:
                order = np.broadcast_to(np.arange(K), (runs, K))
            for j in range(K):
                arm = order[:, j]
                _, sums[rows, arm] = st.play(arm, np.where(active[rows, arm], R_int, 0), rng, count_episode=False)
            y = self.sum_noise(rng, (runs, K)) / R[:, None]
            mu = np.where(active, sums / R[:, None] + y, -np.inf)
            if self.record_noise:
                rel = active & live[:, None]
                draws.append((mu - sums / R[:, None])[rel])
                d_e.append(np.full(int(rel.sum()), e))
                d_s.append(np.broadcast_to(nS[:, None], (runs, K))[rel])
            best = mu.max(axis=1, keepdims=True)
            elim = active & (best - mu > 2 * (h + c)[:, None]) & ~single[:, None]
            active &= ~elim
        extra = {}
        if self.record_noise:
            extra = {"noise_draws": np.concatenate(draws), "noise_epoch": np.concatenate(d_e),
                     "noise_active": np.concatenate(d_s)}
        return st.result(**extra)

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
            for k in self._order(rng, active):
                s = 0.0
                for _ in range(int(min(R, st.left))):
                    s += st.step(k, rng)
                mu[k] = s / R + float(self.sum_noise(rng, 1)[0]) / R
            if st.left == 0:
                break
            best = max(mu.values())
            active = [k for k in active if not best - mu[k] > 2 * (h + c)]
        return st.result()
