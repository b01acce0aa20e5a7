"""What is audited for each algorithm: two neighbouring inputs D ~ D', a short horizon, and the output event.

A scenario is designed in advance, from the algorithm's definition only (never from the runs it is scored on):

* the neighbouring inputs are *tables* (seed 001 §2 "Table DP", seed 003 Def. 4: user t holds the rewards
  x_t of every arm; neighbours differ in one user's row), or for the contextual algorithms reward sequences
  (seed 004 Sec. 2 Def. 1: neighbours differ in one reward r_t; the contexts are public and identical);
* the changed row is placed where it moves the first private release that decides an action, by the full
  sensitivity, and the rest of the table puts that decision at its median under D (the probability of the
  event is about 1/2 under D, and the change pushes it into the tail under D'), so that a deterministic
  (noise-free) copy flips its decision and a copy with too little noise shows a likelihood ratio above e^ε;
* the event is declared here, before any run, with its direction (D>D': ``P_D(E) <= e^ε P_D'(E) + δ`` is
  the inequality tested).

The finite-armed scenarios use K = 2 arms and the symmetric changed row D: x_0 = (1, 0), D': x_0 = (0, 1), with
every other row equal to (a, 1 − a): whichever arm the algorithm pulls first (random order by default), the
difference of the two arms' first released means is the same, and D favours arm 0 by exactly one unit
(the sensitivity of a sum of rewards in [0, 1]) over D'.
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import InputError, ParamName, flag
from .base import MAX_INSTANCE_CELLS, Probe, Scenario, claimed_epsilon  # noqa: F401  (Probe, claimed_epsilon re-exported)
from .local import LOCAL_SCENARIOS


# ---------------------------------------------------------------------------------------------------------------
# finite-armed algorithms
# ---------------------------------------------------------------------------------------------------------------
def symmetric_tables(T: int, a: float) -> tuple[np.ndarray, np.ndarray]:
    """D and D' (T x 2): row 0 = (1, 0) in D and (0, 1) in D', every other row (a, 1 − a)."""
    base = np.tile([a, 1.0 - a], (T, 1))
    D, Dp = base.copy(), base.copy()
    D[0] = (1.0, 0.0)
    Dp[0] = (0.0, 1.0)
    return D, Dp


class FirstDecision(Scenario):
    """Two arms, m initial pulls each (one private release per arm), then the first decision: T = 2m + 1.

    Rows (a, 1 − a) after the changed row 0 with a = (m − 1)/(2m − 1): under D the two arms' initial means are equal
    whichever arm is pulled first (1 and 1 or 0 and 0 for m = 1), so the first decision is a fair coin; under D'
    arm 0's reward sum is one unit lower. Event: arm 0 is pulled at step 2m + 1 (direction D>D'). The decision
    compares two noisy releases, so even an exact mechanism shows less than its ε here (the difference of two
    noises); a broken one shows more."""

    initial_pulls = 1

    def probes(self, alg):
        m = int(self.fixed.get("n1", self.initial_pulls))
        T = 2 * m + 1
        D, Dp = symmetric_tables(T, (m - 1) / (2 * m - 1))
        return [Probe("first decision", f"arm 0 is pulled at step {T}", "D>D'", D, Dp, T,
                      {"changed_row": 0, "K": 2, "initial_pulls_per_arm": m})]

    def event(self, alg, probe, table, runs, rng):
        from ..envs.table import FiniteTableEnv

        env = FiniteTableEnv(table)
        alg.simulate(env, probe.T, runs, rng, np.array([probe.T]))
        return env.actions()[:, probe.T - 1] == 0

    def check_instance(self, alg, instance) -> None:
        """The two neighbouring tables of :meth:`instance_probe` ((K·m + 1) × K rewards each) fit
        ``MAX_INSTANCE_CELLS``: InputError before any run otherwise (issue 22 §4: K = 20000 asked for 23.8 GiB)."""
        if instance is None or getattr(instance, "setting", None) != "finite" or instance.means is None:
            return
        K = len(instance.means)
        m = int(self.fixed.get("n1", self.initial_pulls))
        if (K * m + 1) * K > MAX_INSTANCE_CELLS:
            kmax = int((-1 + (1 + 4 * m * MAX_INSTANCE_CELLS) ** 0.5) / (2 * m))
            raise InputError(f"{flag('K')} / {flag('means')} / {flag('instance_file')}", f"an instance of at most {kmax} arms for {self.algo}'s "
                             f"probe on the instance (its tables have (K·m + 1) × K rewards, m = {m} initial pulls; at "
                             f"most {MAX_INSTANCE_CELLS:.0e})", K)

    def instance_probe(self, alg, instance, rng):
        """The same first decision on the user's finite instance (``--means``, ``--instance`` …): K = the instance's
        arms, m initial pulls each, T = K m + 1; the table's rows 2..T are drawn once, before any run, from the
        instance (row t, arm a ~ Bernoulli(mean_a), the reward tape a user of that instance would hold; ``rng`` from
        the audit's seed), and row 0 is the changed row of the design, (1, 0, x_2, …) in D and (0, 1, x_2, …) in D'
        (one user's rewards differ: seed 001 §2 Table DP). Event: arm 0 is pulled at step T (direction D>D'). The
        decision is no longer at its median under D, so the bound is weaker than the designed probe's, but it is a
        valid lower bound on the ε achieved on neighbouring inputs of the user's instance."""
        if instance is None or getattr(instance, "setting", None) != "finite" or instance.means is None:
            return None, "the audit of a finite algorithm takes a finite instance with means"
        if (instance.family or "bernoulli") != "bernoulli":
            return None, (f"the instance's rewards are {instance.family}, not in [0, 1]: the table's sensitivity "
                          "(one reward in [0, 1]) would not be that of the algorithm's claim")
        mu = np.asarray(instance.means, dtype=float)
        K = mu.size
        m = int(self.fixed.get("n1", self.initial_pulls))
        T = K * m + 1
        self.check_instance(alg, instance)
        D = (rng.random((T, K)) < mu).astype(float)
        D[0, :2] = (1.0, 0.0)
        Dp = D.copy()
        Dp[0, :2] = (0.0, 1.0)
        return Probe("first decision on the instance", f"arm 0 is pulled at step {T}", "D>D'", D, Dp, T,
                     {"changed_row": 0, "K": K, "initial_pulls_per_arm": m, "rows": "drawn from the instance's means",
                      "instance": instance.label}), ""


class DPSEElimination(Scenario):
    """DP-SE: the elimination at the end of epoch 1 (R_1 pulls of each of two arms, one Laplace release each).

    Arm 2 (index 1) is eliminated when mu~_0 − mu~_1 > 2(h_1 + c_1). The table (rows (a, 1 − a) after the changed
    row 0) puts the true difference of the epoch means under D just above that threshold (elimination is a fair
    coin), D' one unit of reward lower, i.e. 1/R_1 lower in the means, which is ε times the noise scale 1/(ε R_1).
    T = 2 R_1 + R_2 + 1: the eliminated arm is then pulled exactly R_1 times, a surviving one at least R_1 + 1 times.
    Event: arm 1 is pulled exactly R_1 times by T (eliminated after epoch 1), direction D>D'."""

    algo = "DP-SE"
    default_budget = {"epsilon": 1.0}

    def horizon(self, alg) -> tuple[int, int, int, float]:
        """(T, R_1, R_2, threshold 2(h_1 + c_1)) with T = 2 R_1 + R_2 + 1 at beta = 1/T (fixed point)."""
        T = 16
        for _ in range(60):
            R1, h1, c1 = (float(v) for v in alg._consts(2.0, 1, T))
            R2 = float(alg._consts(2.0, 2, T)[0])
            need = int(2 * R1 + R2 + 1)
            if need <= T:
                break
            T = need
        return T, int(R1), int(R2), 2 * (h1 + c1)

    def probes(self, alg):
        T, R1, R2, thr = self.horizon(alg)
        target = thr + 0.01 / R1  # D's difference of epoch means, just above the threshold
        g = (target - 1 / (2 * R1)) / (1 - 1 / (2 * R1))
        a = (1 + g) / 2
        D, Dp = symmetric_tables(T, a)
        return [Probe("epoch-1 elimination", f"arm 1 is pulled exactly R_1 = {R1} times (eliminated after epoch 1)",
                      "D>D'", D, Dp, T, {"R1": R1, "R2": R2, "threshold": thr, "a": a, "changed_row": 0, "K": 2})]

    def event(self, alg, probe, table, runs, rng):
        from ..envs.table import FiniteTableEnv

        env = FiniteTableEnv(table)
        res = alg.simulate(env, probe.T, runs, rng, np.array([probe.T]))
        return res.pulls[:, 1] == probe.details["R1"]


class SaturationExit(Scenario):
    """AdaP-KLUCB with ties = 'lowest': two arms, the index kl_ucb(clip(mu~ + beta ln t_l/(eps n)), beta ln t_l/n)
    is exactly 1 (saturated) for both arms early on, and the tie goes to arm 0, whose episodes double (1, 2, 4, …)
    while arm 1 (rewards 1, one initial release) stays saturated.

    Arm 0's rewards are 1 until its first episode of n >= 2 rewards whose bonus beta ln t_l/(eps n) at the following
    decision is below 1 − 2/n; in that episode they give the mean x_D (D) or x_D − 1/n (D': the changed first row of
    the episode is 1 in D and 0 in D'), x_D the smallest released mean whose index is exactly 1 (found by bisection
    on the algorithm's own index). At the decision after the episode arm 0 is played again iff its index is 1, i.e.
    iff its Laplace noise (scale 1/(eps n)) is >= 0 under D: a fair coin under D, probability e^{-eps}/2 under D'. One
    release decides, with the Laplace mechanism's exact likelihood ratio e^eps. T = that decision step.
    Event: arm 0 pulled at step T (direction D>D')."""

    algo = "AdaP-KLUCB"
    default_budget = {"epsilon": 1.0}
    fixed = {"ties": "lowest"}
    why_fixed = ("ties='lowest': the saturated indices (both exactly 1) then go to arm 0, so the path up to the audited "
                 "release does not depend on the noise (at the first decision both indices are 1 and a random tie "
                 "carries no information)")

    def layout(self, alg):
        t, N0 = 2, 1
        while True:
            n = N0
            tl = t + n + 1
            bonus = alg.beta * math.log(tl) / (alg.epsilon * n)
            if n >= 2 and bonus < 1 - 2.0 / n:
                break
            t, N0 = t + n, N0 + n
            if t > 10**6:
                raise InputError("epsilon", "large enough for an unsaturated AdaP-KLUCB index by T = 1e6", alg.epsilon)
        lo, hi = -1.0, 1.0  # smallest released mean whose index is exactly 1 (the index is nondecreasing in it)
        idx = lambda m: float(alg.index(np.array([[m]]), np.array([[float(n)]]), np.array([[float(tl)]]))[0, 0])
        for _ in range(60):
            mid = 0.5 * (lo + hi)
            if idx(mid) >= 1.0:
                hi = mid
            else:
                lo = mid
        return t, n, tl, bonus, hi

    def probes(self, alg):
        start, n, T, bonus, x_thr = self.layout(alg)
        x_D = x_thr + 0.01 / n  # just above the threshold: a noise-free copy plays arm 0 under D, not under D'
        v = (n * x_D - 1.0) / (n - 1)
        if not 0.0 <= v <= 1.0:
            raise InputError("epsilon", "a budget whose audited episode can be laid out with rewards in [0, 1]",
                             alg.epsilon)
        X = np.ones((T, 2))
        X[start:start + n, 0] = v
        D, Dp = X.copy(), X.copy()
        D[start, 0], Dp[start, 0] = 1.0, 0.0
        return [Probe("saturation exit", f"arm 0 is pulled at step {T}", "D>D'", D, Dp, T,
                      {"K": 2, "changed_row": start, "episode_rows": [start, start + n - 1], "n": n,
                       "bonus": bonus, "x_D": x_D, "index_threshold": x_thr})]

    def event(self, alg, probe, table, runs, rng):
        from ..envs.table import FiniteTableEnv

        env = FiniteTableEnv(table)
        alg.simulate(env, probe.T, runs, rng, np.array([probe.T]))
        return env.actions()[:, probe.T - 1] == 0


class LazyCountAfter(Scenario):
    """Lazy-DP-TS (ties = 'lowest'): two arms, arm 0's rewards 0 and arm 1's 1/2 in every row but the changed row
    ROW (step ROW + 1), which is (1, 0) in D and (0, 1) in D'. Whichever arm pulls at that step, D favours arm 0 by one
    unit of reward in the epoch that consumes the row. Observed: (the arm pulled at step ROW + 1, the number of arm-0
    pulls at the steps after it up to T). No single release decides an action here (docs/audit.md, "Lazy-DP-TS"), so
    the event is not declared but selected on held-out runs (``estimator.held_out``: the likelihood-ratio order of
    the observed pairs on the first 30% of the runs of each input, evaluated once on the others) -- still a valid
    lower bound at the stated level."""

    algo = "Lazy-DP-TS"
    method = "held-out"
    default_budget = {"epsilon": 1.0}
    default_trials = 50000
    fixed = {"ties": "lowest"}
    why_fixed = "ties='lowest' (the initial pulls in the order 0, 1; Thompson samples are never tied)"
    T, ROW = 150, 30

    def probes(self, alg):
        T, t = self.T, self.ROW
        D = np.tile([0.0, 0.5], (T, 1))
        Dp = D.copy()
        D[t], Dp[t] = (1.0, 0.0), (0.0, 1.0)
        return [Probe("pulls after the changed row", f"(the arm pulled at step {t + 1}, the number of arm-0 pulls at "
                      f"steps {t + 2}..{T}) lies in a set selected on held-out runs", "D>D'", D, Dp, T,
                      {"K": 2, "changed_row": t, "row_D": [1.0, 0.0], "row_Dprime": [0.0, 1.0],
                       "other_rows": [0.0, 0.5],
                       "observed": f"(arm pulled at step {t + 1}, number of arm-0 pulls at steps {t + 2}..{T})"})]

    def event(self, alg, probe, table, runs, rng):
        """The observation of each run, (runs, 2) integers (the held-out selection turns them into an event)."""
        from ..envs.table import FiniteTableEnv

        env = FiniteTableEnv(table)
        alg.simulate(env, probe.T, runs, rng, np.array([probe.T]))
        acts = env.actions()[:, :probe.T]
        return np.stack([acts[:, self.ROW], np.count_nonzero(acts[:, self.ROW + 1:] == 0, axis=1)], axis=1)

    def describe(self, probe, rows) -> str:
        rows = np.asarray(rows).reshape(-1, 2)
        parts = []
        for arm in (0, 1):
            vals = sorted(int(v) for v in rows[rows[:, 0] == arm, 1])
            if vals:
                parts.append(f"arm {arm} at step {self.ROW + 1} and {vals} arm-0 pulls after")
        return "; or ".join(parts)


# ---------------------------------------------------------------------------------------------------------------
# linear: phased elimination with G-optimal design (AdaC-GOPE, AdaR-GOPE, AdaR-GOPE-Var)
# ---------------------------------------------------------------------------------------------------------------
class PhaseOneElimination(Scenario):
    """AdaC-GOPE / AdaR-GOPE / AdaR-GOPE-Var with the actions e_1, e_2 (d = 2, ||a|| = 1, Assumption 1; rewards in [−1, 1]).

    The G-optimal design puts weight 1/2 on each, so phase 1 plays e_1 for n rounds (rows 0..n−1) then e_2 for n
    rounds; e_2 is eliminated when theta~_1 − theta~_2 > 2 beta_1 = 1. The changed row 0 (played by e_1 first:
    the support is played in index order) holds r = +1 in D and −1 in D' (the sensitivity 2 of the papers'
    calibration); the other e_1 rows make theta_hat_1 = 1/2 + 0.02/n under D, the e_2 rows give theta_hat_2 = −1/2,
    so elimination is a fair coin under D and theta_hat_1 is 2/n lower under D' (sqrt(2 rho) noise standard
    deviations of the coordinate, the exact zCDP calibration). T = 2n + m_2 + 1, m_2 the phase-2 count of e_1: a
    surviving e_2 is then pulled once more. Event: e_2 is pulled exactly n times by T (eliminated after phase 1),
    direction D>D'. As in the first-decision scenarios, the decision reads two noisy coordinates."""

    default_trials = 20000

    def layout(self, alg):
        from ..algorithms.design import g_optimal_design

        A = np.eye(2)
        des = g_optimal_design(A, tol=alg.design_tol)
        c1 = alg.counts(1, 2, 2, des).astype(int)
        c2 = alg.counts(2, 2, 2, des).astype(int)
        if des.support.tolist() != [0, 1] or c1[0] != c1[1]:
            raise InputError("design", "the uniform design on e_1, e_2 (internal)", des.support.tolist())
        return A, int(c1[0]), int(c2[0])

    def probes(self, alg):
        A, n, m2 = self.layout(alg)
        T = 2 * n + m2 + 1
        th1 = 0.5 + 0.01 * 2 / n
        u = (n * th1 - 1.0) / (n - 1)
        X = np.zeros((T, 2))
        X[:n, 0] = u
        X[n:2 * n, 1] = -0.5
        D, Dp = X.copy(), X.copy()
        D[0, 0], Dp[0, 0] = 1.0, -1.0
        return [Probe("phase-1 elimination", f"e_2 is pulled exactly n = {n} times by T (eliminated after phase 1)",
                      "D>D'", D, Dp, T, {"n": n, "phase2_e1": m2, "d": 2, "K": 2, "changed_row": 0,
                                          "r_D": 1.0, "r_Dprime": -1.0, "theta_hat_2": -0.5})]

    def event(self, alg, probe, table, runs, rng):
        from ..envs.table import LinearTableEnv

        env = LinearTableEnv(np.eye(2), table, theta=[0.5, -0.5])
        res = alg.simulate(env, probe.T, runs, rng, np.array([probe.T]))
        return res.pulls[:, 1] == probe.details["n"]


# ---------------------------------------------------------------------------------------------------------------
# contextual: rarely-switching OFUL with noise (AdaC-OFUL, AdaR-OFUL)
# ---------------------------------------------------------------------------------------------------------------
class _FirstRewardEnv:
    """Fixed decision set {x_0, x_1} (d = 1) at every step, reward r_1 at step 1 and 0 afterwards. RS-OFUL's
    simulation asks rewards for a chunk of steps at once ((runs, steps) from its first step on the first call, later
    calls only for steps >= 2), so step 1 is column 0 of the first call."""

    setting = "contextual"
    family = "table"
    noise = "table"
    sigma = 0.0

    def __init__(self, x0: float, x1: float, r1: float, lambda0: float):
        self.X = np.array([[x0], [x1]])
        self.K, self.d = 2, 1
        self.theta = np.array([1.0])
        self.lambda0 = float(lambda0)
        self.r1 = float(r1)
        self._calls = 0

    def contexts(self, rng, size):
        return np.array(np.broadcast_to(self.X, tuple(int(s) for s in size) + (2, 1)))

    def rewards(self, means, rng):
        out = np.zeros(np.shape(means))
        if self._calls == 0:
            out[..., 0] = self.r1 if out.ndim > 1 else out[..., 0]
            if out.ndim == 1:
                out[0] = self.r1
        self._calls += 1
        return out


class FirstSwitch(Scenario):
    """AdaC-OFUL / AdaR-OFUL, d = 1, decision set {x_0 = c, x_1 = −1} at every step (||x|| <= 1), rewards r_1 = −1
    (D) or +1 (D') and 0 afterwards (|r| <= 1).

    Until the first switch theta~ = 0 and x_1 (the larger ||x||_{V^{-1}}) is played, so b = −r_1 = ±1; the first
    switch comes at step s = floor(lambda) + 2 (det V = lambda + s − 1 > 2 lambda) and sets theta~ = (b + Y_1)/V,
    V = lambda + s − 1, Y_1 ~ N(0, s2): x_0 is played at step s iff b + Y_1 > beta~ sqrt(V) (1 − c)/(1 + c), beta~
    the width after the switch. c is chosen so that this threshold is b_D = 1: x_0 is a fair coin under D and 2 units
    (sqrt(2 rho) noise standard deviations, the exact calibration of sensitivity 2) less likely under D'. One noisy
    release decides. T = s. Event: x_0 is played at step s (read from the pseudo-regret at T), direction D>D'."""

    default_trials = 20000

    def layout(self, alg):
        lam = alg.lam
        s = int(math.floor(lam)) + 2
        while not lam + s - 1 > 2 * lam:
            s += 1
        V = lam + s - 1
        bt = float(alg.beta(s - 1, 1) + alg.gamma_over_sqrt(s - 1, 1, 1, s, 1.0, V))
        k = bt * math.sqrt(V)
        c = (k - 1.0) / (k + 1.0)
        if not 0 < c < 1 or s > 4:
            raise InputError("lambda", "a ridge with its first switch by step 4 and width beta~ sqrt(V) > 1 (internal)",
                             lam)
        return c, bt, s

    def probes(self, alg):
        c, bt, s = self.layout(alg)
        return [Probe("first switch", f"x_0 is played at step {s}", "D>D'", -1.0, 1.0, s,
                      {"d": 1, "K": 2, "x0": c, "x1": -1.0, "r1_D": -1.0, "r1_Dprime": 1.0, "width": bt,
                       "switch_step": s})]

    def event(self, alg, probe, r1, runs, rng):
        env = _FirstRewardEnv(probe.details["x0"], -1.0, r1, lambda0=1.0)
        res = alg.simulate(env, probe.T, runs, rng, np.array([probe.T]))
        gap = probe.details["x0"] + 1.0  # regret of one pull of x_1 (theta* = 1)
        return res.regret[:, -1] < (probe.T - 0.5) * gap


# ---------------------------------------------------------------------------------------------------------------
# contextual: the tree-mechanism LinUCB variants of seed 004
# ---------------------------------------------------------------------------------------------------------------
class TreeSigns(Scenario):
    """LinUCB-DGS and Private-LinUCB on a one-dimensional reward sequence (seed 004 Sec. 2: neighbours differ in one
    reward r_t; the contexts are public and the same in both inputs).

    d = 1, K = 2, every decision set {+1, −1} (||x|| <= L = 1), rewards r_1 = +1 (D) or −1 (D') and r_t = 0 for
    t >= 2, T = 8. Step 1 plays arm 0 (x = +1; theta^p_1 = 0, first maximum), so b_t = r_1 for every later t and the
    arm played at step t + 1 is the sign of the t-th private release: theta^p = A^{-1}(b + eta_t) (Private-LinUCB) or
    A^{-1} b + eta_t (LinUCB-DGS). Event: arm 0 is pulled at every step 2..T (direction D>D').
    For LinUCB-DGS the ridge lambda = 64 keeps A_t = lambda + t − 1 close to lambda, so the change of r_1 moves
    theta_hat_t by 2/(lambda + t − 1), almost the Delta_t = 2L/lambda the noise is calibrated to (t <= T is far below
    the switch 32 ln(1/delta')/lambda0 of the paper's schedule): the calibration is nearly tight here.
    LinUCB-DGS with ``perturb_sigma`` (seed 004 Cor. 1: the algorithm sees x + z, z ~ N(0, sigma^2), projected onto
    |x| <= L) is audited on the same inputs with exploration width alpha = 0: every score is x~ theta^p, so step 1 is a
    tie (theta^p_1 = 0) won by arm 0 and later steps play arm 0 iff theta^p (x~_0 − x~_1) > 0, i.e. iff theta^p > 0
    while x~_0 > x~_1 (for sigma well below 1); b = x~_0 r_1 with |x~_0| <= 1, so the change of r_1 is again within
    the calibrated sensitivity. For the unperturbed algorithm alpha = 0 and alpha = 1 play the same arms (both arms
    have |x| = 1, hence the same width)."""

    T = 8
    default_trials = 100000

    def probes(self, alg):
        T = self.T
        C = np.tile(np.array([[1.0], [-1.0]]), (T, 1, 1))
        r = np.zeros(T)
        rD, rDp = r.copy(), r.copy()
        rD[0], rDp[0] = 1.0, -1.0
        return [Probe("signs", f"arm 0 (x = +1) is pulled at every step 2..{T}", "D>D'", (C, rD), (C, rDp), T,
                      {"d": 1, "K": 2, "changed_reward": 1, "r_D": 1.0, "r_Dprime": -1.0, "other_rewards": 0.0})]

    def event(self, alg, probe, table, runs, rng):
        from ..envs.table import ContextualTableEnv

        C, r = table
        env = ContextualTableEnv(C, r, theta=[1.0], lambda0=1.0, time_axis=0)
        alg.simulate(env, probe.T, runs, rng, np.array([probe.T]))
        acts = env.actions()
        return np.all(acts[:, 1:] == 0, axis=1)


class PrivateLinUCBAudit(TreeSigns):
    algo = "Private-LinUCB"
    mutants = ("noise-halved", "l2-laplace")
    default_budget = {"epsilon": 1.0}
    fixed = {"alpha": 1.0}
    why_fixed = "a constant exploration width alpha = 1 (both arms have the same width; the decision is the sign)"

    def claim(self, alg, budget, delta, mutant, probes):
        T = probes[0].T
        if mutant == "l2-laplace":
            return budget.epsilon, (f"the label ε = {budget.epsilon:g} of Private-LinUCB with the paper calibration "
                                    "(Laplace scaled to the L2 value L, ε/log2 T per node), which it does not satisfy")
        e_true = alg.privacy_epsilon(T, 1)
        if delta == 0:
            return e_true, (f"what Private-LinUCB truly guarantees: pure ε_true-DP with ε_true = {e_true:.4g} at T = {T}, "
                            f"d = 1 (PrivateLinUCB.privacy_epsilon; its label ε = {budget.epsilon:g} is not its guarantee "
                            "with the paper calibration)")
        from ..privacy.conversions import pure_to_approx_tight_epsilon

        e = pure_to_approx_tight_epsilon(e_true, delta)
        return e, (f"what Private-LinUCB truly guarantees: pure ε_true-DP with ε_true = {e_true:.4g} (not its label "
                   f"ε = {budget.epsilon:g}), i.e. (ε = {e:.4g}, δ = {delta:g})-DP")


class LinUCBDGSAudit(TreeSigns):
    algo = "LinUCB-DGS"
    mutants = ("noise-halved", "fresh-tree")
    default_budget = {"epsilon": 1.0, "delta": 1e-3}
    default_trials = 200000  # the fresh-tree violation is small (population ε ≈ 1.35 against 1): 12/12 seeds caught
    fixed = {"alpha": 0.0, "lam": 64.0}
    tunable = ("perturb_sigma",)  # seed 004 Cor. 1's context perturbation (see TreeSigns)
    why_fixed = ("exploration width alpha = 0 (the arm played is the sign of the private estimate; with two arms of "
                 "norm 1 any constant width plays the same arms) and ridge lambda = 64 (so that the calibrated "
                 "sensitivity 2L/lambda is nearly the exact one)")

    def default_delta(self) -> float:
        return float(self.default_budget["delta"])


# The designs an algorithm's card names (``audit_scenario = "first-decision"``; boundcalc.algorithms.base.Algorithm):
# the generic ones take the card's ``audit_budget``, ``audit_fixed``, ``audit_why_fixed``, ``audit_trials``
# (``card_scenario``); the bespoke ones (their own ``algo``) are written for one algorithm each.
DESIGNS: dict[str, type] = {
    "first-decision": FirstDecision, "phase-one-elimination": PhaseOneElimination, "first-switch": FirstSwitch,
    "dp-se-elimination": DPSEElimination, "saturation-exit": SaturationExit, "lazy-count-after": LazyCountAfter,
    "private-linucb-tree": PrivateLinUCBAudit, "linucb-dgs-tree": LinUCBDGSAudit,
    **dict(zip(("ldp-ols-release", "ldp-ols-multi-release", "ldp-sgd-release", "ldp-sgd-multi-release",
                "ldp-ucb-release", "ldp-gloc-release"), (type(s) for s in LOCAL_SCENARIOS))),
}

# Default audit budget of a card that declares none (as the built-in finite scenarios').
_PLUGIN_DEFAULT_BUDGET = {"pure": {"epsilon": 1.0}, "zcdp": {"rho": 1.0}, "rdp": {"alpha": 2.0, "rdp_epsilon": 2.0}}


def card_scenario(cls) -> Scenario:
    """The scenario an algorithm's card declares with a design of DESIGNS by name (built-in and plugin cards alike):
    the design with ``algo``, ``default_budget`` (``audit_budget``, else the notion's default) and, where the card
    sets them, ``fixed`` / ``why_fixed`` / ``default_trials``. The mutants scale the privacy noise, so a class whose
    constructor takes no ``noise_mult`` gets none."""
    from ..algorithms import constructor_params, is_plugin

    design = DESIGNS[cls.audit_scenario]
    if design.algo:  # a bespoke design: for its own algorithm only
        if design.algo != cls.name:
            raise InputError("audit_scenario", f"a design for {cls.name} (design {cls.audit_scenario!r} is for "
                             f"{design.algo})", cls.audit_scenario)
        return design()
    attrs = {"algo": cls.name, "default_budget": dict(getattr(cls, "audit_budget", None) or
                                                      _PLUGIN_DEFAULT_BUDGET[cls.notion])}
    for key, card in (("fixed", "audit_fixed"), ("why_fixed", "audit_why_fixed"), ("default_trials", "audit_trials")):
        if getattr(cls, card, None) is not None:
            attrs[key] = dict(getattr(cls, card)) if key == "fixed" else getattr(cls, card)
    if "noise_mult" not in constructor_params(cls):
        attrs["mutants"] = ()
    if is_plugin(cls):
        from ..algorithms import budget_kwargs

        attrs["fixed"] = dict(attrs.get("fixed") or {})
        attrs["__doc__"] = f"{cls.name} (plugin): " + (design.__doc__ or "")
        # --param reaches the plugin's own constructor parameters (not its budget, not the mutants' noise_mult); the
        # audit checks a plugin's power on its no-noise copy (audit.run.power_check)
        attrs["tunable"] = tuple(p for p in constructor_params(cls) if p not in budget_kwargs(cls) and p != "noise_mult")
        attrs["plugin"] = True
    return type(cls.__name__ + "Audit", (design,), attrs)()


# The built-in scenarios, each from its algorithm's card, in the order of the cards' ``audit_rank`` (the order `audit
# --list` has always shown them), then those of built-in algorithms without a rank in registry order; one registered
# at run time (``algorithms.register``) or a plugin is found from its card by ``all_scenarios`` and ``lookup``.
def _builtin_scenarios() -> dict[str, Scenario]:
    """{name: scenario} of the package's algorithms whose card declares a design, ordered by ``audit_rank``."""
    from ..algorithms import builtin_by_setting

    cards = [cls for algs in builtin_by_setting().values() for cls in algs.values()
             if getattr(cls, "audit_scenario", None) is not None
             and cls.__module__.startswith("boundcalc.")]  # in the package, not registered at run time
    cards.sort(key=lambda c: (c.audit_rank is None, c.audit_rank or 0))  # stable: registry order among equals
    return {cls.name: card_scenario(cls) for cls in cards}


SCENARIOS: dict[str, Scenario] = _builtin_scenarios()


def plugin_scenario(cls) -> Scenario:
    """The scenario of an algorithm class from its card's ``audit_scenario`` (docs/plugins.md): a design of DESIGNS by
    name ("first-decision": :class:`FirstDecision`, finite-armed; with ``audit_budget`` / ``audit_fixed``;
    ``card_scenario``) or a Scenario subclass of its own. A plugin that declares none, or whose declaration does
    not fit, raises a one-line PluginError "cannot audit: …" naming the plugin."""
    from ..errors import PluginError

    origin = f"{getattr(cls, 'plugin_origin', '') or 'plugin'} [algorithm {cls.name!r}]"
    hook = getattr(cls, "audit_scenario", None)
    if cls.notion == "none":
        raise PluginError(origin, "cannot audit: the algorithm is non-private (notion 'none'); there is no claim to audit")
    if hook is None:
        raise PluginError(origin, "cannot audit: the plugin declares no audit_scenario (the neighbouring inputs and "
                                  "the event to count): set audit_scenario = 'first-decision' (finite-armed: two arms, "
                                  "one private release per arm, then the first decision) or a "
                                  "boundcalc.audit.base.Scenario subclass")
    if isinstance(hook, str):
        if hook not in DESIGNS:
            raise PluginError(origin, f"cannot audit: audit_scenario {hook!r} is not one of {', '.join(DESIGNS)}")
        if DESIGNS[hook].algo and DESIGNS[hook].algo != cls.name:
            raise PluginError(origin, f"cannot audit: audit_scenario {hook!r} is written for {DESIGNS[hook].algo}; "
                                      "name a generic design or give a boundcalc.audit.base.Scenario subclass")
        if hook == "first-decision" and cls.setting != "finite":
            raise PluginError(origin, f"cannot audit: audit_scenario 'first-decision' is for finite-armed algorithms "
                                      f"(this one is {cls.setting}); give a boundcalc.audit.base.Scenario subclass")
        return card_scenario(cls)
    sc = hook()
    if not sc.algo:
        sc.algo = cls.name
    if sc.algo != cls.name:
        raise PluginError(origin, f"cannot audit: its audit_scenario audits {sc.algo!r}, not {cls.name!r}")
    return sc


def all_scenarios() -> dict[str, Scenario]:
    """The built-in scenarios, then those of the other algorithms whose card declares one (built-in or plugin)."""
    from ..algorithms import all_algorithms
    from ..errors import PluginError

    out = dict(SCENARIOS)
    for name, cls in all_algorithms().items():
        if name not in out and getattr(cls, "audit_scenario", None) is not None:
            try:
                out[name] = plugin_scenario(cls)
            except PluginError:
                continue  # --list shows what can be audited; `audit --algo` names the problem
    return out


def lookup(name: str) -> Scenario:
    """The scenario of an algorithm (names as in ``boundcalc.algorithms.lookup``)."""
    from ..algorithms import is_plugin
    from ..algorithms import lookup as alg_lookup

    cls = alg_lookup(name)
    if is_plugin(cls) or (cls.name not in SCENARIOS and getattr(cls, "audit_scenario", None) is not None):
        return plugin_scenario(cls)  # the card's audit_scenario (docs/plugins.md)
    if cls.name not in SCENARIOS:
        raise InputError(ParamName("algo"), "an auditable algorithm: " + ", ".join(SCENARIOS), name)
    return SCENARIOS[cls.name]
