"""Non-private per-step baselines: UCB, KL-UCB, IMED (decisions change every round).

Initialisation: each arm once (rounds 1..K), in a uniformly random order (``ties="random"``, default) or in
index order (``ties="lowest"``); later ties are broken the same way (see ``_common``).
``simulate_steps`` is the per-step loop vectorised across runs (one reward draw per run and round);
``reference`` is the plain step-by-step single run.
"""

from __future__ import annotations

from abc import abstractmethod

import numpy as np

from ... import validate
from ._common import FiniteAlgorithm, RefRun, Runs, argbest, check_ties, init_order, kl_bernoulli, kl_ucb


class _PerStep(FiniteAlgorithm):
    granularity = "step"
    ties = "random"

    @abstractmethod
    def index(self, S, N, t):
        """Scores (runs, K) at round t (the round about to be played); the argmax is pulled."""

    def simulate(self, env, T, runs, rng, checkpoints):
        return self.simulate_steps(env, T, runs, rng, checkpoints)

    def simulate_steps(self, env, T, runs, rng, checkpoints):
        """Per-step loop over t, vectorised across runs (any reward family)."""
        self._check_env(env)
        st = Runs(env, T, runs, checkpoints)
        K = env.K
        S = np.zeros((runs, K))
        N = np.zeros((runs, K))
        rows = st.rows
        order = init_order(rng, K, runs, self.ties)
        for j in range(min(K, T)):
            a = order[:, j]
            x = st.step(a, rng)
            S[rows, a] += x
            N[rows, a] += 1
        for t in range(K + 1, T + 1):
            a = argbest(self.index(S, N, t), rng, self.ties)
            x = st.step(a, rng)
            S[rows, a] += x
            N[rows, a] += 1
        return st.result()

    def reference(self, env, T, rng, checkpoints):
        self._check_env(env)
        st = RefRun(env, T, checkpoints)
        K = env.K
        S = [0.0] * K
        N = [0] * K
        for k in init_order(rng, K, 1, self.ties)[0][: min(K, T)]:
            S[k] += st.step(int(k), rng)
            N[k] += 1
        for t in range(K + 1, T + 1):
            scores = self.index(np.array([S]), np.array([N], dtype=float), t)
            a = int(argbest(scores, rng, self.ties)[0])
            S[a] += st.step(a, rng)
            N[a] += 1
        return st.result()


class UCB(_PerStep):
    """UCB1 (Auer, Cesa-Bianchi & Fischer 2002): argmax mu_hat_a + sqrt(c ln t / N_a), c = 2 by default.

    Not one of the five seeds; the non-private reference point. ``c`` is exposed (c = 1/2 gives the
    Hoeffding-tight width sqrt(ln t / (2 N))).
    """

    name = "UCB"
    source = "Auer et al. 2002 (UCB1); non-private baseline"
    notion = "none"

    def __init__(self, c: float = 2.0, ties: str = "random"):
        self.c = validate.positive("c", c)
        self.ties = check_ties(ties)

    def params(self):
        return {"c": self.c, "ties": self.ties}

    def index(self, S, N, t):
        return S / N + np.sqrt(self.c * np.log(t) / N)


class KLUCB(_PerStep):
    """KL-UCB (Cappé et al. 2013; sheet 001 §7.5): U_a = max{q : N_a kl(mu_hat_a, q) <= ln t + c ln ln t}.

    c = 0 (practice) by default; the theory uses c = 3. ln ln t is taken as max(0, ln ln t) for t < e^e.
    """

    name = "KL-UCB"
    source = "Cappé et al. 2013 (sheet 001 §7.5); template of DP-KLUCB"
    notion = "none"

    def __init__(self, c: float = 0.0, ties: str = "random"):
        self.c = validate.nonnegative("c", c)
        self.ties = check_ties(ties)

    def params(self):
        return {"c": self.c, "ties": self.ties}

    def index(self, S, N, t):
        lt = np.log(t)
        level = (lt + self.c * max(0.0, np.log(lt) if lt > 0 else 0.0)) / N
        return kl_ucb(np.clip(S / N, 0.0, 1.0), level)


class IMED(_PerStep):
    """IMED (Honda & Takemura 2015; sheet 001 §7.4): argmin_a N_a kl(mu_hat_a, mu_hat*) + ln N_a.

    Bernoulli (kl) form; on Gaussian arms use it only as a heuristic.
    """

    name = "IMED"
    source = "Honda & Takemura 2015 (sheet 001 §7.4); non-private benchmark of seed 001 §5"
    notion = "none"

    def __init__(self, ties: str = "random"):
        self.ties = check_ties(ties)

    def params(self):
        return {"ties": self.ties}

    def index(self, S, N, t):
        mu = np.clip(S / N, 0.0, 1.0)
        top = mu.max(axis=1, keepdims=True)
        return -(N * kl_bernoulli(mu, top) + np.log(N))
