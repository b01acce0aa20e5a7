"""Lazy-DP-TS (Hu & Hegde, UAI 2022; sheet 001 §7.3): Thompson sampling on a lazily updated private mean.

Pull each arm once: mu~_j = x + Lap(1/eps), O_j = 1, r_j = 0, empty buffer. Each round t:
mu_j = [mu~_j + 3 ln t/(eps O_j)]_0^1, theta_j ~ Beta(mu_j O_j + 1, (1 - mu_j) O_j + 1), pull argmax theta.
The reward goes to the buffer of the pulled arm; when it holds 2^(r_j + 1) rewards:
mu~_j = (sum + Lap(1/eps))/|buffer|, O_j = |buffer|, r_j += 1, buffer emptied (old data discarded).
The arm choice is made every round (only the statistics are lazy). On Bernoulli arms ``simulate`` is exact
thinning (``_thinned_ts``): the rounds the current leader wins are drawn in bulk and only the rounds where
another arm may win are looked at; ``simulate_steps`` is the per-step loop vectorised across runs (any
reward family) and ``reference`` the plain step-by-step run.
``offset`` (3 by default; sheet 001 §7.3: moderate confidence, from a secondary summary of the paper) is
exposed. [UNC: the offset 3 ln t/(eps O_j), the Lap(1/eps) noise per epoch of 2^r rewards and the clipping to
[0, 1] agree with a second, independent secondary summary of Hu & Hegde 2022; the paper's own text could not
be consulted here.] ``episodes`` counts statistic updates.
Initial pulls in a random order and random tie-breaking by default (``ties``, see ``_common``).

``record_noise=True`` adds to ``BlockResult.extra``: ``noise_draws`` (every released private mean minus the
mean of the rewards it summarises, i.e. the noise actually in the statistic, 1-D) and ``noise_O`` (the
number O of rewards behind each, so that noise * eps * O ~ Lap(1)).

``noise_mult`` (default 1, >= 0) multiplies every privacy-noise draw; other values are deliberately
mis-calibrated copies (0.5: noise halved, 0: no noise) that exist only for audits and tests of power
(boundcalc.audit.mutants): they are not private at the stated budget.
"""

from __future__ import annotations

import numpy as np

from ... import validate
from . import _stretch, _thinned_ts
from ._common import FiniteAlgorithm, RefRun, Runs, argbest, check_ties, init_order, with_noise_mult  # noqa: F401


class LazyDPTS(FiniteAlgorithm):
    name = "Lazy-DP-TS"
    audit_scenario = "lazy-count-after"  # card: audit design (boundcalc.audit.scenarios.DESIGNS)
    audit_rank = 6  # card: its place in `audit --list`
    check_assumptions = "finite"  # card: regret --check's assumption check (verify.adapters.ASSUMPTION_CHECKS)
    source = "Hu & Hegde 2022 (Lazy-DP-TS), baseline of seed 001 §5 (sheet §7.3)"
    notion = "pure"
    bound_ids: tuple[str, ...] = ("lazy-dp-ts-hu-hegde2022-paper",)
    # "thinning": on Bernoulli arms only the rounds another arm may win are looked at; on other reward
    # families ``simulate`` falls back to the per-step loop
    granularity = "thinning"
    budget_params = ("epsilon",)

    @classmethod
    def from_context(cls, ctx, budget):
        """Card: the instance regret --check simulates for a bound's context ``ctx`` at ``budget``."""
        return cls(budget.epsilon)

    def __init__(self, epsilon: float, offset: float = 3.0, ties: str = "random", record_noise: bool = False,
                 noise_mult: float = 1.0):
        self.epsilon = validate.positive("epsilon", epsilon)
        self.noise_mult = validate.nonnegative("noise_mult", noise_mult)
        self.offset = validate.nonnegative("offset", offset)
        self.ties = check_ties(ties)
        self.record_noise = bool(record_noise)

    def params(self):
        return with_noise_mult({"epsilon": self.epsilon, "offset": self.offset, "ties": self.ties}, self.noise_mult)

    def sum_noise(self, rng, size):
        """Laplace noise Lap(1/eps) added to the sum of an epoch's rewards (sensitivity 1; sheet 001 §7.3)."""
        return self.noise_mult * rng.laplace(0.0, 1.0 / self.epsilon, size)

    def uses_thinning(self, env, T) -> bool:
        """Whether ``simulate`` thins: Bernoulli rewards and epsilon * T >= ``_thinned_ts.MIN_EPS_T``."""
        return _stretch.step_rewards_env(env) and self.epsilon * T >= _thinned_ts.MIN_EPS_T

    def simulate(self, env, T, runs, rng, checkpoints):
        """Thinned simulation on Bernoulli arms when epsilon * T >= ``_thinned_ts.MIN_EPS_T`` (exact; faster there);
        the per-step loop otherwise."""
        self._check_env(env)
        if self.uses_thinning(env, T):
            return _thinned_ts.simulate(self, env.means, T, runs, rng, checkpoints)
        return self.simulate_steps(env, T, runs, rng, checkpoints)

    def simulate_steps(self, env, T, runs, rng, checkpoints):
        """Per-step loop over t, vectorised across runs (any reward family)."""
        self._check_env(env)
        st = Runs(env, T, runs, checkpoints)
        ts = _thinned_ts.TSState(self, runs, env.K, rng)
        _thinned_ts.init_rounds(self, st, ts, rng, env.K, T)
        _thinned_ts.step_rounds(self, st, ts, rng, env.K + 1, T)
        return st.result(**ts.extra())

    def reference(self, env, T, rng, checkpoints):
        self._check_env(env)
        K, eps = env.K, self.epsilon
        st = RefRun(env, T, checkpoints)
        mut, O, r, bs, bn = [0.0] * K, [1.0] * K, [0] * K, [0.0] * K, [0] * K
        for k in init_order(rng, K, 1, self.ties)[0][: min(K, T)]:
            mut[k] = st.step(int(k), rng) + float(self.sum_noise(rng, 1)[0])
        for t in range(K + 1, T + 1):
            mu = np.clip(np.array(mut) + self.offset * np.log(t) / (eps * np.array(O)), 0.0, 1.0)
            Oa = np.array(O)
            a = int(argbest(rng.beta(mu * Oa + 1, (1 - mu) * Oa + 1)[None], rng, self.ties)[0])
            bs[a] += st.step(a, rng)
            bn[a] += 1
            if bn[a] == 2 ** (r[a] + 1):
                mut[a] = (bs[a] + float(self.sum_noise(rng, 1)[0])) / bn[a]
                O[a] = float(bn[a])
                r[a] += 1
                bs[a], bn[a] = 0.0, 0
                st.episodes += 1
        return st.result()
