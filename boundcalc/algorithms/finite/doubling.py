"""Per-arm doubling with forgetting: AdaP-UCB, AdaP-KLUCB (pure DP, Laplace), AdaC-UCB (rho-zCDP, Gaussian),
AdaR-UCB ((alpha, eps)-RDP, Gaussian).

Common skeleton (Azize & Basu 2022 Algorithm 1; seed 003 Algorithm 4; seed 000 Algorithm 2):
initialise by pulling each arm once (t = K); then episodes l = 1, 2, …: t_l = t + 1,
a_l = argmax_a I_a(t_l), play a_l for N_{a_l}(t_l - 1) more rounds (its count doubles), truncated at T.
Each arm keeps only the rewards of its *last* episode (forgetting); their mean is released once, with
fresh noise, when the episode ends, and reused at every later index computation (sheets 003 §2.1 and
000 §2.2 note 2: redrawing would break the privacy accounting). Only the bonus changes with t_l.

Initial sample size (UNC in sheets 003 §0 / 000 §2.2 note 1): right after initialisation the papers'
n_a = N_a/2 = 1/2. ``init_n="half"`` (default, the sheets' reading "literally 1/2 in the noise variance and
bonus, the mean is the actual sample mean") or ``init_n="one"`` (the true count).

Initial pulls in a random order and random tie-breaking of the index by default (``ties``, see ``_common``;
ties are frequent for AdaP-KLUCB, whose index is clipped at 1).
Episode-level simulation: one Binomial and one noise draw per episode for all runs at once.
``record_noise=True`` adds ``noise_draws``/``noise_n`` (every noise draw and the n of its scale, 1-D),
``noise_last`` (the noise in each arm's current released mean) and ``n_last`` to ``BlockResult.extra``.

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
from ._common import FiniteAlgorithm, RefRun, Runs, argbest, check_ties, init_order, kl_ucb, with_noise_mult

INIT_N = ("half", "one")


class _Doubling(FiniteAlgorithm):
    init_n_default = "one"

    def _setup(self, beta: float, init_n: str | None, record_noise: bool, ties: str = "random",
               noise_mult: float = 1.0):
        self.noise_mult = validate.nonnegative("noise_mult", noise_mult)
        self.beta = validate.positive("beta", beta)
        self.ties = check_ties(ties)
        init_n = init_n or self.init_n_default
        if init_n not in INIT_N:
            raise InputError("init_n", "one of " + ", ".join(INIT_N), init_n)
        self.init_n = init_n
        self.record_noise = bool(record_noise)

    @abstractmethod
    def noise(self, n, rng, size):
        """Noise added to a released mean of n rewards (n may be 1/2 after initialisation)."""

    @abstractmethod
    def index(self, mu_noisy, n, t_l):
        ...

    def simulate(self, env, T, runs, rng, checkpoints):
        self._check_env(env)
        K = env.K
        st = Runs(env, T, runs, checkpoints)
        rows = st.rows
        n0 = 0.5 if self.init_n == "half" else 1.0
        released = np.zeros((runs, K))
        noise_last = np.zeros((runs, K))
        n = np.full((runs, K), n0)
        N = np.zeros((runs, K))
        draws: list[np.ndarray] = []
        draw_n: list[np.ndarray] = []
        order = init_order(rng, K, runs, self.ties)
        for j in range(K):
            k = order[:, j]
            L, x = st.play(k, 1, rng, count_episode=False)
            z = self.noise(np.full(runs, n0), rng, runs)
            released[rows, k] = x / np.maximum(L, 1) + z
            noise_last[rows, k] = z
            N[rows, k] += L
            if self.record_noise:
                draws.append(z[L > 0])
                draw_n.append(np.full(int((L > 0).sum()), n0))
        while not st.done():
            t_l = (st.t + 1).astype(float)
            a = argbest(self.index(released, n, t_l[:, None]), rng, self.ties)
            L, x = st.play(a, N[rows, a].astype(np.int64), rng)
            act = L > 0
            Lf = np.maximum(L, 1).astype(float)
            z = self.noise(Lf, rng, runs)
            released[rows, a] = np.where(act, x / Lf + z, released[rows, a])
            noise_last[rows, a] = np.where(act, z, noise_last[rows, a])
            n[rows, a] = np.where(act, Lf, n[rows, a])
            N[rows, a] += L
            if self.record_noise:
                draws.append(z[act])
                draw_n.append(Lf[act])
        extra = {}
        if self.record_noise:  # inspection hook: every noise draw with the episode size n of its scale
            extra = {"noise_last": noise_last, "n_last": n, "noise_draws": np.concatenate(draws),
                     "noise_n": np.concatenate(draw_n)}
        return st.result(**extra)

    def reference(self, env, T, rng, checkpoints):
        self._check_env(env)
        K = env.K
        st = RefRun(env, T, checkpoints)
        n0 = 0.5 if self.init_n == "half" else 1.0
        released = [0.0] * K
        n = [n0] * K
        N = [0] * K
        for k in init_order(rng, K, 1, self.ties)[0]:
            if st.left == 0:
                break
            k = int(k)
            x = st.step(k, rng)
            released[k] = x + float(self.noise(np.array([n0]), rng, 1)[0])
            N[k] = 1
        while st.left > 0:
            idx = self.index(np.array([released]), np.array([n]), np.array([[float(st.t + 1)]]))
            a = int(argbest(idx, rng, self.ties)[0])
            L = min(N[a], st.left)
            s = 0.0
            for _ in range(L):
                s += st.step(a, rng)
            released[a] = s / L + float(self.noise(np.array([float(L)]), rng, 1)[0])
            n[a] = float(L)
            N[a] += L
            st.episodes += 1
        return st.result()


class AdaPUCB(_Doubling):
    """AdaP-UCB (Azize & Basu 2022, NeurIPS, §4 Eq. (7); pure eps-DP):
    I_a = mu~_a + sqrt(beta ln(2 t_l) / (2 n_a)) + beta ln(t_l) / (eps n_a),
    mu~_a = last-episode mean + Lap(1/(eps n_a)), n_a = N_a(t_l - 1)/2 = size of arm a's last episode.

    Eq. (7) as printed in the paper's text (checked against a public copy of the paper): note ln(2 t_l) in
    the exploration term but ln(t_l) in the privacy term. The noise is the paper's Lap(2/(eps N_a(t_l - 1))).
    The sheets give only its regret bound (sheet 001 §6, the paper's Thm 7:
    sum_a 16 beta ln T / min(Delta_a, eps) + beta/(beta - 3)). beta > 3 for the theory; default 3.1.
    """

    name = "AdaP-UCB"
    check_assumptions = "finite"  # card: regret --check's assumption check (verify.adapters.ASSUMPTION_CHECKS)
    context_params = {"beta": "alpha_adap"}  # card: constructor keyword -> bound context key (regret --check, overlay)
    audit_scenario = "first-decision"  # card: audit design (boundcalc.audit.scenarios.DESIGNS)
    audit_rank = 4  # card: its place in `audit --list`
    audit_budget = {"epsilon": 1.0}
    counterpart = ("UCB", "UCB")  # card: non-private counterpart (budget --by simulation)
    source = "Azize & Basu 2022 (AdaP-UCB), cited in seed 001 §6"
    notion = "pure"
    budget_params = ("epsilon",)
    # 003-table2-*: seed 003 Table II's conversions to rho-zCDP (AdaP-UCB at eps = sqrt(2 rho))
    bound_ids = ("001-adap-ucb", "003-table2-azize-basu-thm7", "003-table2-azize-basu-thm12")

    @classmethod
    def from_context(cls, ctx, budget):
        """Card: the instance regret --check simulates for a bound's context ``ctx`` at ``budget``."""
        # a rho-zCDP budget (seed 003 Table II's converted bounds): eps = sqrt(2 rho), which is rho-zCDP (an eps-DP
        # mechanism is eps^2/2-zCDP, Bun & Steinke 2016 Prop. 3.3)
        eps = math.sqrt(2.0 * float(budget.rho)) if getattr(budget, "notion", None) == "zcdp" else budget.epsilon
        return cls(eps, beta=ctx["alpha_adap"])

    def __init__(self, epsilon: float, beta: float = 3.1, init_n: str | None = None, ties: str = "random",
                 record_noise: bool = False, noise_mult: float = 1.0):
        self.epsilon = validate.positive("epsilon", epsilon)
        self._setup(beta, init_n, record_noise, ties, noise_mult)

    def params(self):
        return with_noise_mult({"epsilon": self.epsilon, "beta": self.beta, "init_n": self.init_n, "ties": self.ties},
                               self.noise_mult)

    def noise(self, n, rng, size):
        return self.noise_mult * rng.laplace(0.0, 1.0 / (self.epsilon * np.asarray(n, float)), size)

    def index(self, mu_noisy, n, t_l):
        lt = np.log(t_l)
        return mu_noisy + np.sqrt(self.beta * np.log(2 * t_l) / (2 * n)) + self.beta * lt / (self.epsilon * n)


class AdaPKLUCB(AdaPUCB):
    """AdaP-KLUCB (Azize & Basu 2022 Algorithm 1; sheet 001 §7.2).

    I_a = max{q in [0,1] : kl(mu_breve_a, q) <= beta ln t_l / n_a}, mu_breve_a = [mu~_a + beta ln t_l/(eps n_a)]_0^1,
    mu~_a = last-episode mean + Lap(1/(eps n_a)); beta = 3.1 by default (sheet: presumed, > 3 for the theory).
    """

    name = "AdaP-KLUCB"
    audit_scenario = "saturation-exit"  # card: audit design (boundcalc.audit.scenarios.DESIGNS)
    audit_rank = 5  # card: its place in `audit --list`
    check_assumptions = "finite"  # card: regret --check's assumption check (verify.adapters.ASSUMPTION_CHECKS)
    context_params = {"beta": "alpha_adap"}  # card: constructor keyword -> bound context key (regret --check, overlay)
    counterpart = ("KL-UCB", "KL-UCB")  # card: non-private counterpart (budget --by simulation)
    source = "Azize & Basu 2022 Algorithm 1 (sheet 001 §7.2)"
    bound_ids = ("001-adap-klucb-paper",)

    @classmethod
    def episode_schedule(cls, T, *, epsilon):
        """Card: the schedule `boundcalc episodes` prints (per-arm doubling, Azize & Basu 2022 Alg. 1)."""
        from ... import schedules

        return schedules.adap_klucb(T, epsilon)

    @classmethod
    def from_context(cls, ctx, budget):
        """Card: the instance regret --check simulates for a bound's context ``ctx`` at ``budget``."""
        return cls(budget.epsilon, beta=ctx["alpha_adap"])

    def index(self, mu_noisy, n, t_l):
        lt = np.log(t_l)
        mu_b = np.clip(mu_noisy + self.beta * lt / (self.epsilon * n), 0.0, 1.0)
        return kl_ucb(mu_b, np.broadcast_to(self.beta * lt / n, mu_b.shape))


class AdaCUCB(_Doubling):
    """AdaC-UCB (seed 003 Algorithm 4, Eq. 14; sheet docs/formulas/zcdp-bandits.md §2): rho-Interactive zCDP.

    I_a = mu_hat_a + N(0, 1/(2 rho n_a^2)) + sqrt((1/(2 n_a) + 1/(rho n_a^2)) beta ln t_l), n_a = size of arm a's
    last episode (1/2 after initialisation by default, sheet 003 §0). ``rho=inf`` gives the non-private
    baseline "UCB with adaptive episodes and forgetting" (no noise, no privacy bonus; sheet 003 §0).
    beta = 3.5 by default (Theorem 10 needs beta > 3; the paper's experiments used beta = 1).
    """

    name = "AdaC-UCB"
    check_assumptions = "finite"  # card: regret --check's assumption check (verify.adapters.ASSUMPTION_CHECKS)
    context_params = {"beta": "beta_adac"}  # card: constructor keyword -> bound context key (regret --check, overlay)
    audit_scenario = "first-decision"  # card: audit design (boundcalc.audit.scenarios.DESIGNS)
    audit_rank = 7  # card: its place in `audit --list`
    audit_budget = {"rho": 1.0}
    audit_fixed = {"init_n": "one"}
    audit_trials = 20000
    audit_why_fixed = ("init_n='one': the initial release then carries the noise of one reward (sensitivity 1); with "
                       "the default 'half' it carries twice that noise and the first decision says little about the rest")
    counterpart = ("UCB", "UCB")  # card: non-private counterpart (budget --by simulation)
    source = "seed 003 Algorithm 4 (Eq. 14)"
    notion = "zcdp"
    budget_params = ("rho",)
    bound_ids = ("003-thm10", "003-thm11-paper", "003-thm11-explicit")
    init_n_default = "half"

    @classmethod
    def episode_schedule(cls, T, *, rho):
        """Card: the schedule `boundcalc episodes` prints (per-arm doubling, seed 003 Algorithm 4)."""
        from ... import schedules

        return schedules.adac_ucb(T, rho)

    @classmethod
    def from_context(cls, ctx, budget):
        """Card: the instance regret --check simulates for a bound's context ``ctx`` at ``budget``."""
        return cls(budget.rho, beta=ctx["beta_adac"])

    def __init__(self, rho: float, beta: float = 3.5, init_n: str | None = None, ties: str = "random",
                 record_noise: bool = False, noise_mult: float = 1.0):
        self.rho = validate.positive("rho", rho, allow_inf=True)
        self._setup(beta, init_n, record_noise, ties, noise_mult)

    def params(self):
        return with_noise_mult({"rho": self.rho, "beta": self.beta, "init_n": self.init_n, "ties": self.ties},
                               self.noise_mult)

    def noise(self, n, rng, size):
        sd = np.sqrt(1.0 / (2 * self.rho)) / np.asarray(n, float)
        return self.noise_mult * sd * rng.standard_normal(size)

    def index(self, mu_noisy, n, t_l):
        return mu_noisy + np.sqrt((1 / (2 * n) + 1 / (self.rho * n * n)) * self.beta * np.log(t_l))


class AdaRUCB(AdaCUCB):
    """AdaR-UCB (seed 000 Algorithm 2, Eq. 6; sheet docs/formulas/rdp-bandits.md §2.2): (alpha, eps)-RDP.

    Identical to AdaC-UCB with rho = eps/alpha: noise N(0, alpha/(2 eps n^2)), bonus
    sqrt((1/(2n) + alpha/(eps n^2)) beta ln t_l). beta = 3.1 by default (> 3).
    """

    name = "AdaR-UCB"
    check_assumptions = "finite"  # card: regret --check's assumption check (verify.adapters.ASSUMPTION_CHECKS)
    context_params = {"beta": "beta_adar"}  # card: constructor keyword -> bound context key (regret --check, overlay)
    audit_scenario = "first-decision"  # card: audit design (boundcalc.audit.scenarios.DESIGNS)
    audit_rank = 8  # card: its place in `audit --list`
    audit_budget = {"alpha": 2.0, "rdp_epsilon": 2.0}
    audit_fixed = {"init_n": "one"}
    audit_trials = 20000
    audit_why_fixed = ("init_n='one': the initial release then carries the noise of one reward (sensitivity 1); with "
                       "the default 'half' it carries twice that noise and the first decision says little about the rest")
    counterpart = ("UCB", "UCB")  # card: non-private counterpart (budget --by simulation)
    source = "seed 000 Algorithm 2 (Eq. 6)"
    notion = "rdp"
    budget_params = ("alpha", "rdp_epsilon")
    bound_ids = ("000-thm5", "000-cor6-paper", "000-cor6-explicit")

    @classmethod
    def episode_schedule(cls, T, *, alpha, rdp_epsilon):
        """Card: the schedule `boundcalc episodes` prints (per-arm doubling, seed 000 Algorithm 2)."""
        from ... import schedules

        return schedules.adar_ucb(T, alpha, rdp_epsilon)

    @classmethod
    def from_context(cls, ctx, budget):
        """Card: the instance regret --check simulates for a bound's context ``ctx`` at ``budget``."""
        return cls(budget.alpha, budget.epsilon, beta=ctx["beta_adar"])

    def __init__(self, alpha: float, rdp_epsilon: float, beta: float = 3.1, init_n: str | None = None,
                 ties: str = "random", record_noise: bool = False, noise_mult: float = 1.0):
        self.rdp_alpha = validate.greater_than("alpha (RDP order)", alpha, 1.0)
        self.rdp_epsilon = validate.positive("rdp_epsilon", rdp_epsilon)
        super().__init__(rho=self.rdp_epsilon / self.rdp_alpha, beta=beta, init_n=init_n, ties=ties,
                         record_noise=record_noise, noise_mult=noise_mult)

    def params(self):
        return with_noise_mult({"alpha": self.rdp_alpha, "rdp_epsilon": self.rdp_epsilon, "beta": self.beta,
                                "init_n": self.init_n, "ties": self.ties}, self.noise_mult)
