"""Phased elimination with G-optimal design: GOPE, AdaC-GOPE (seed 003 Algorithm 2), AdaR-GOPE (seed 000 Alg. 3),
AdaR-GOPE-Var (seed 003 App. H / App. E-C2: AdaC-GOPE with the noise on the per-action reward sums).

Common skeleton (seed 003 Alg. 2 / seed 000 Alg. 3), phase l = 1, 2, ...:
1. beta_l = 2^-l; G-optimal design pi_l on the surviving actions A_l (boundcalc.algorithms.design).
2. play each support action a exactly T_l(a) times (algorithm-specific T_l(a)).
3. least squares on this phase only (forgetting): theta_hat = V_l^{-1} sum a_t r_t, V_l = sum T_l(a) a a^T.
4. privatise (algorithm-specific), 5. eliminate a if max_b <theta_tilde, b - a> > 2 beta_l.

Choices (docs/formulas/zcdp-bandits.md §0 and docs/formulas/rdp-bandits.md §0, documented here):
* Phase l has T_l = sum_a T_l(a) rewards (the papers' "+1" is an off-by-one); the last phase is truncated
  at T. Inside a phase the support actions are played in increasing index order, each in one block (the
  papers leave the order free; only regret at checkpoints inside a phase depends on it).
* Survivors not spanning R^d: the design and the estimate live in their span (pseudo-inverse); d (not the
  rank) stays in the schedule and in the noise level; delta_{K,l} keeps the original K. One survivor:
  it is played until T and this is not counted as a phase.
* Approximate design (g(pi) > d): g(pi) replaces d in the schedule and the noise (AdaR: 2|support|
  replaces d(d+1)). The solver stops at g <= d(1 + 1e-6).
* Elimination ties: an action is kept when its empirical gap is exactly 2 beta_l.
* ``episodes`` in the BlockResult = number of phases started by T.

The simulation draws, per phase and run, one exact reward *sum* per support action
(``env.sum_rewards``: Normal(n <a, theta>, n sigma^2) or the Rademacher/Binomial analogue) plus the phase's
privacy noise, vectorised across all runs that share the surviving set. ``reference`` is the plain
step-by-step version (one reward at a time) used to test that both have the same distribution.

``noise_mult`` (AdaC-GOPE, AdaR-GOPE, AdaR-GOPE-Var; default 1, >= 0) multiplies the privacy noise; other values are deliberately
mis-calibrated copies (0.5: noise halved, 0: no noise) that exist only for audits and tests of power
(boundcalc.audit.mutants): they are not private at the stated budget.
"""

from __future__ import annotations

from abc import abstractmethod

import math

import numpy as np

from ... import validate
from ...schedules.linear import c_ell_zcdp
from ...errors import InputError
from ..base import Algorithm, BlockResult, interpolate_regret
from ..design import Design, g_optimal_design
from ..process_cache import ProcessCache


def _checkpoints(checkpoints, T: int) -> np.ndarray:
    c = np.asarray(checkpoints, dtype=float).ravel()
    if c.size == 0 or np.any(~np.isfinite(c)) or np.any(c < 0) or np.any(c > T):
        raise InputError("checkpoints", f"non-empty values in [0, T = {T}]", c.tolist()[:5])
    return c


# Designs by content, per process (``_PhasedElimination.design``): the surviving action vectors and the tolerance
# determine the design. Bounded: the oldest entry goes when full. A ProcessCache: the worker processes of one
# executor share the designs they compute (boundcalc.algorithms.process_cache; issue 24 item 9).
DESIGN_CACHE_SIZE = 4096


def design_key(actions: np.ndarray, tol: float) -> tuple:
    """The cache key of a design: the action vectors' exact bytes (with their shape) and the tolerance."""
    a = np.ascontiguousarray(actions, dtype=float)
    return (a.shape, a.tobytes(), float(tol))


def _frozen(des: Design) -> Design:
    """``des`` with read-only arrays: a cached design is shared by every algorithm object of the process."""
    for arr in (des.weights, des.support, des.basis):
        arr.setflags(write=False)
    return des


_DESIGNS = ProcessCache("linear.designs", prepare=_frozen, limit=DESIGN_CACHE_SIZE)


class _PhasedElimination(Algorithm):
    """Shared machinery. Subclasses implement ``counts`` (T_l(a) on the support) and ``privatise``."""

    granularity = "episode"  # card: decisions fixed inside a phase (boundcalc.algorithms.granularity)
    context_params = {"delta": "delta"}  # card: constructor keyword -> bound context key (regret --check, overlay)

    setting = "linear"

    def __init__(self, delta: float = 1e-3, design_tol: float = 1e-6):
        self.delta = validate.open_unit("delta", delta)
        self.design_tol = validate.positive("design_tol", design_tol)

    # -- pieces ---------------------------------------------------------------------------------------------
    def design(self, env, active: np.ndarray) -> Design:
        """The G-optimal design on the surviving actions ``env.actions[active]`` (``design_key``: cached by content).

        The cache is per process and shared by every algorithm object (``_DESIGNS``): a design depends only on the
        surviving action vectors and the tolerance, so an algorithm unpickled in a worker process (one per block under
        ``--executor processes``), a copy at another budget, or another env object with the same actions reuses it;
        the workers of one executor also hand each other the designs they compute (``ProcessCache``).
        (Keyed by ``id(env)`` it was empty in every unpickled copy: 66 ms per 2-run block against 3.9 ms, issue 24.)"""
        sub = np.ascontiguousarray(env.actions[active], dtype=float)
        key = design_key(sub, self.design_tol)
        hit = _DESIGNS.get(key)
        if hit is None:
            _DESIGNS.obtain([(key, sub)], self._compute_design)
            hit = _DESIGNS[key]
        return hit

    def _compute_design(self, sub: np.ndarray) -> Design:
        return _frozen(g_optimal_design(sub, tol=self.design_tol))

    def designs_ahead(self, env, active: np.ndarray, live: np.ndarray, inv: np.ndarray) -> None:
        """The designs of one phase's groups (the runs ``live[inv == g]`` share the surviving set ``active[run]``)
        into the cache before the phase uses them one by one, only with live sharing between worker processes
        (``ProcessCache.obtain``): two workers needing the same designs at once then split them. Computing a design
        draws no random number, so the order is free."""
        from .. import process_cache

        if process_cache.SHARED_DIR is None:
            return
        items = []
        for gi in range(inv.max() + 1):
            act = np.flatnonzero(active[live[np.argmax(inv == gi)]])  # the surviving set of a run of group gi
            if act.size > 1:
                sub = np.ascontiguousarray(env.actions[act], dtype=float)
                items.append((design_key(sub, self.design_tol), sub))
        _DESIGNS.obtain(items, self._compute_design)

    warm_modules = ("scipy.linalg",)  # imported lazily by g_optimal_design (montecarlo.engine.warm)

    def warm(self, env) -> None:
        """The design every run's first phase needs (all actions survive: ``simulate``), into the process's cache
        (montecarlo.engine.warm: computed once by one worker ahead of the blocks, not by every worker at once)."""
        self.design(env, np.arange(env.K))

    def d_eff(self, d: int, design: Design) -> float:
        """d, or g(pi) when the design is only approximate (g > d)."""
        return max(float(d), design.g)

    @abstractmethod
    def counts(self, ell: int, d: int, K: int, design: Design) -> np.ndarray:
        """T_l(a) for the support actions (int array, same order as design.support)."""

    def privatise(self, ell, d, K, design, Y, n, V, sums, rng) -> np.ndarray:
        """theta_tilde (runs, r) from per-support-action reward sums ``sums`` (runs, m)."""
        b = sums @ Y  # (runs, r)
        return np.linalg.solve(V, b.T).T

    def noise_variance(self, ell: int, d: int, K: int, design: Design) -> float:
        """Variance of the privacy noise of phase l (0 for the non-private baseline)."""
        return 0.0

    # -- vectorised simulation --------------------------------------------------------------------------------
    def simulate(self, env, T, runs, rng, checkpoints) -> BlockResult:
        T = validate.horizon("T", T)
        runs = validate.count("runs", runs)
        cps = _checkpoints(checkpoints, T)
        K, d = env.K, env.d
        A = env.actions
        gaps = env.gaps
        active = np.ones((runs, K), dtype=bool)
        t = np.zeros(runs, dtype=np.int64)
        pulls = np.zeros((runs, K), dtype=np.int64)
        phases = np.zeros(runs, dtype=np.int64)
        reg = np.zeros(runs)
        seg_t: list[np.ndarray] = []  # per segment: (runs,) arrays of end times / cumulative regrets
        seg_r: list[np.ndarray] = []
        ell = 0
        while np.any(t < T):
            ell += 1
            live = np.flatnonzero(t < T)
            keys = np.packbits(active[live], axis=1)
            _, inv = np.unique(keys, axis=0, return_inverse=True)
            inv = np.ravel(inv)
            self.designs_ahead(env, active, live, inv)
            for gi in range(inv.max() + 1):
                idx = live[inv == gi]
                act = np.flatnonzero(active[idx[0]])
                if act.size == 1:  # one survivor: play it to T
                    n = T - t[idx]
                    pulls[idx, act[0]] += n
                    reg[idx] += n * gaps[act[0]]
                    t[idx] = T
                    self._record(seg_t, seg_r, idx, t, reg, runs)
                    continue
                des = self.design(env, act)
                supp = act[des.support]
                cnt = self.counts(ell, d, K, des).astype(np.int64)
                phases[idx] += 1
                cum = np.concatenate(([0], np.cumsum(cnt)))
                room = (T - t[idx])[:, None]
                n_eff = np.clip(room - cum[None, :-1], 0, cnt[None, :])  # (g, m) truncated at T
                for j, a in enumerate(supp):
                    pulls[idx, a] += n_eff[:, j]
                    reg[idx] += n_eff[:, j] * gaps[a]
                    t[idx] += n_eff[:, j]
                    self._record(seg_t, seg_r, idx, t, reg, runs)
                full = idx[(room[:, 0] >= cum[-1])]
                if full.size == 0:
                    continue
                sums = env.sum_rewards(np.broadcast_to(supp, (full.size, supp.size)),
                                       np.broadcast_to(cnt, (full.size, supp.size)), rng)
                active[full] = self._eliminate(ell, d, K, des, A, act, cnt, sums, rng, active[full])
        regret = interpolate_regret(np.stack(seg_t, axis=1), np.stack(seg_r, axis=1), cps)
        return BlockResult(regret=regret, pulls=pulls, episodes=phases,
                           extra={"survivors": active.sum(axis=1)})

    @staticmethod
    def _record(seg_t, seg_r, idx, t, reg, runs):
        # segment ends for every run: runs outside idx repeat their current (t, reg) (zero-length segment)
        seg_t.append(t.astype(float).copy())
        seg_r.append(reg.copy())

    def _eliminate(self, ell, d, K, des, A, act, cnt, sums, rng, active_rows):
        U = des.basis
        supp = act[des.support]
        Y = A[supp] @ U  # (m, r)
        V = (Y * cnt[:, None]).T @ Y
        theta = self.privatise(ell, d, K, des, Y, cnt, V, sums, rng)  # (g, r)
        est = theta @ (A[act] @ U).T  # (g, |act|)
        beta = 2.0 ** (-ell)
        keep = est.max(axis=1, keepdims=True) - est <= 2.0 * beta
        out = np.zeros_like(active_rows)
        out[:, act] = keep
        return out

    # -- step-by-step reference -------------------------------------------------------------------------------
    def reference(self, env, T, rng, checkpoints) -> BlockResult:
        T = validate.horizon("T", T)
        cps = _checkpoints(checkpoints, T)
        K, d = env.K, env.d
        A = env.actions
        gaps = env.gaps
        active = np.ones(K, dtype=bool)
        pulls = np.zeros(K, dtype=np.int64)
        cum_reg = np.zeros(T + 1)
        t = 0
        reg = 0.0
        phases = 0
        ell = 0
        while t < T:
            ell += 1
            act = np.flatnonzero(active)
            if act.size == 1:
                while t < T:
                    t += 1
                    pulls[act[0]] += 1
                    _ = env.draw(int(act[0]), rng)
                    reg += gaps[act[0]]
                    cum_reg[t] = reg
                break
            des = self.design(env, act)
            supp = act[des.support]
            cnt = self.counts(ell, d, K, des).astype(np.int64)
            phases += 1
            sums = np.zeros(supp.size)
            played = 0
            for j, a in enumerate(supp):
                for _ in range(int(cnt[j])):
                    if t >= T:
                        break
                    r = env.draw(int(a), rng)
                    sums[j] += r
                    t += 1
                    played += 1
                    pulls[a] += 1
                    reg += gaps[a]
                    cum_reg[t] = reg
            if played < cnt.sum():  # phase truncated at T: no elimination (as in ``simulate``)
                break
            active = self._eliminate(ell, d, K, des, A, act, cnt, sums[None, :], rng, active[None, :])[0]
        regret = np.interp(cps, np.arange(T + 1), cum_reg)[None, :]
        return BlockResult(regret=regret, pulls=pulls[None, :], episodes=np.array([phases]),
                           extra={"survivors": np.array([active.sum()])})


class GOPE(_PhasedElimination):
    """Non-private G-optimal phased elimination as seed 003's experiments name it (Sec. VII baseline, Fig. 4(b)):
    Lattimore–Szepesvári Alg. 12, T_l(a) = ceil(2 d pi(a) / eps_l^2 log(K l (l+1) / delta)) with eps_l = 2^-l
    (docs/formulas/zcdp-bandits.md, experiments table: "AdaC-GOPE vs GOPE (LS Alg. 12)"; worksheet ws003 fig4b).

    ``schedule="limit"`` selects instead the rho -> infinity limit of AdaC-GOPE (docs/formulas/zcdp-bandits.md §0,
    "non-private baselines"): T_l(a) = ceil(pi(a) (8 d / beta_l^2) log(4 / delta_{K,l})), no noise; the class
    ``GOPELimit`` ("GOPE-limit") is that algorithm under its own name. Until issue 17 "GOPE" meant the limit, so a
    one-command reproduction of Fig. 4(b) compared AdaC-GOPE with its own limit and found privacy nearly free.
    """

    name = "GOPE"
    check_assumptions = "gope-ls"  # card: regret --check's assumption check (verify.adapters.ASSUMPTION_CHECKS)
    source = "seed 003 Sec. VII baseline (Lattimore–Szepesvári Alg. 12)"
    notion = "none"
    # Lattimore–Szepesvári Thm 22.1 (O-form, C = 1) and its explicit form DERIVED for this schedule (schedule="ls";
    # boundcalc.bounds.baselines); GOPE(schedule="limit") is GOPE-limit's algorithm, whose bounds are GOPELimit's
    bound_ids = ("gope-lattimore-szepesvari2020-thm22-1-explicit", "gope-lattimore-szepesvari2020-thm22-1-paper")

    @classmethod
    def from_context(cls, ctx, budget):
        """Card: the instance regret --check simulates for a bound's context ``ctx`` at ``budget``."""
        # schedule "ls" (Lattimore–Szepesvári Alg. 12) at the instance's delta: the schedule its explicit bound is for
        return cls(delta=ctx["delta"], schedule="ls")

    def __init__(self, delta: float = 1e-3, schedule: str = "ls", design_tol: float = 1e-6):
        super().__init__(delta, design_tol)
        if schedule not in ("limit", "ls"):
            raise InputError("schedule", "one of limit, ls", schedule)
        self.schedule = schedule

    def c_ell(self, ell, d, K):
        beta = 2.0 ** (-ell)
        if self.schedule == "ls":
            return 2.0 * d / beta**2 * math.log(K * ell * (ell + 1) / self.delta)
        return float(c_ell_zcdp(ell, d, K, math.inf, self.delta))  # c_ℓ without its privacy term (ρ → ∞)

    def counts(self, ell, d, K, design):
        return np.ceil(self.c_ell(ell, self.d_eff(d, design), K) * design.weights[design.support])


class GOPELimit(GOPE):
    """AdaC-GOPE at rho -> infinity (same phases, no noise; docs/formulas/zcdp-bandits.md §0 "non-private
    baselines", seed 003 Algorithm 2 without its privacy term): T_l(a) = ceil(pi(a) (8 d / beta_l^2)
    log(4 / delta_{K,l})). The algorithm the explicit non-private bound 003-gope-explicit is derived for."""

    name = "GOPE-limit"
    check_assumptions = "linear"  # card: regret --check's assumption check (verify.adapters.ASSUMPTION_CHECKS)
    source = "rho -> infinity limit of seed 003 Algorithm 2 (AdaC-GOPE without noise; sheet §0)"
    bound_ids = ("003-gope-explicit", "003-gope-paper")

    @classmethod
    def from_context(cls, ctx, budget):
        """Card: the instance regret --check simulates for a bound's context ``ctx`` at ``budget``."""
        return cls(delta=ctx["delta"])

    def __init__(self, delta: float = 1e-3, schedule: str = "limit", design_tol: float = 1e-6):
        super().__init__(delta, schedule, design_tol)


class AdaCGOPE(_PhasedElimination):
    """AdaC-GOPE (seed 003 Algorithm 2, Sec. IV-A): rho-Interactive zCDP (Theorem 3, under Assumption 1).

    c_l (Eq. 4) = (8d/beta_l^2) log(4/delta_{K,l}) + (2d/beta_l) sqrt((2/rho) f(d, delta_{K,l})),
    delta_{K,l} = delta/(K l (l+1)), T_l(a) = ceil(c_l pi_l(a)); Line 12: theta_tilde = theta_hat + V_l^{-1/2} N_l,
    N_l ~ N(0, (2d/(rho c_l)) I) (variance 2 g(pi)/(rho c_l) if g(pi) > d, docs/formulas/zcdp-bandits.md §0).
    ``c_variant="scalar"`` uses the sharpened c_l' = (8d/beta^2) log(4/delta_{K,l}) + (2d/beta) sqrt((4/rho)
    log(4/delta_{K,l})) of docs/formulas/zcdp-bandits.md 3.6 (DERIVED, not the paper's). The multipliers d become g(pi)
    for an approximate design; f keeps the dimension d of the noise vector.
    """

    name = "AdaC-GOPE"
    check_assumptions = "linear"  # card: regret --check's assumption check (verify.adapters.ASSUMPTION_CHECKS)
    audit_scenario = "phase-one-elimination"  # card: audit design (boundcalc.audit.scenarios.DESIGNS)
    audit_rank = 9  # card: its place in `audit --list`
    audit_budget = {"rho": 1.0}
    # card: non-private counterpart (budget --by simulation)
    counterpart = ("GOPE-limit",
                   "GOPE with AdaC-GOPE's own schedule without noise (the ρ → ∞ limit of seed 003 Algorithm 2; "
                   "docs/formulas/zcdp-bandits.md §0, non-private baselines)")
    source = "seed 003 Algorithm 2"
    notion = "zcdp"
    bound_ids = ("003-thm4-paper", "003-thm4-paper-hp", "003-thm4-explicit", "003-thm4-explicit-hp")

    @classmethod
    def episode_schedule(cls, T, *, rho, d, K, delta):
        """Card: the schedule `boundcalc episodes` prints (phases, seed 003 Algorithm 2)."""
        from ... import schedules

        return schedules.adac_gope(T, d, K, rho, delta)

    @classmethod
    def from_context(cls, ctx, budget):
        """Card: the instance regret --check simulates for a bound's context ``ctx`` at ``budget``."""
        return cls(budget.rho, delta=ctx["delta"])

    def __init__(self, rho: float, delta: float = 1e-3, c_variant: str = "paper", design_tol: float = 1e-6,
                 noise_mult: float = 1.0):
        super().__init__(delta, design_tol)
        self.rho = validate.positive("rho", rho)
        self.noise_mult = validate.nonnegative("noise_mult", noise_mult)
        if c_variant not in ("paper", "scalar"):
            raise InputError("c_variant", "one of paper, scalar", c_variant)
        self.c_variant = c_variant

    def c_ell(self, ell: int, d: float, K: int, d_noise: int | None = None) -> float:
        """c_l of seed 003 Eq. 4 (or the scalar variant): boundcalc.schedules.linear.c_ell_zcdp, the one definition."""
        return float(c_ell_zcdp(ell, d, K, self.rho, self.delta, d_noise=d_noise, variant=self.c_variant))

    def counts(self, ell, d, K, design):
        return np.ceil(self.c_ell(ell, self.d_eff(d, design), K, d) * design.weights[design.support])

    def noise_variance(self, ell, d, K, design):
        """2 d/(rho c_l) (seed 003 Alg. 2 Line 12), d -> g(pi) for an approximate design."""
        de = self.d_eff(d, design)
        return 2.0 * de / (self.rho * self.c_ell(ell, de, K, d))

    def privatise(self, ell, d, K, design, Y, n, V, sums, rng):
        theta_hat = super().privatise(ell, d, K, design, Y, n, V, sums, rng)
        w, Q = np.linalg.eigh(V)
        V_mhalf = (Q / np.sqrt(w)) @ Q.T
        N = self.noise_mult * math.sqrt(self.noise_variance(ell, d, K, design)) * rng.standard_normal(theta_hat.shape)
        return theta_hat + N @ V_mhalf


class AdaRGOPE(_PhasedElimination):
    """AdaR-GOPE (seed 000 Algorithm 3, Eq. 8): (alpha, eps)-global RDP (Theorem 7, Assumption 1).

    T_l(a) = ceil( (8 d pi(a)/beta_l^2) L_l + (2 d pi(a)/beta_l) sqrt((2 alpha/eps) d(d+1) L_l) ),
    L_l = log(4 K l (l+1)/delta); privatise: theta_tilde = theta_hat + V_l^{-1} sum_{a in S_l} a N_a,
    N_a ~ N(0, 2 alpha/eps) i.i.d. (= noise on each support action's reward sum; sensitivity 2, docs/formulas/rdp-bandits.md
    1.4). Approximate design (g > d): d -> g(pi), d(d+1) -> 2|support| (docs/formulas/rdp-bandits.md §0).
    """

    name = "AdaR-GOPE"
    check_assumptions = "linear"  # card: regret --check's assumption check (verify.adapters.ASSUMPTION_CHECKS)
    audit_scenario = "phase-one-elimination"  # card: audit design (boundcalc.audit.scenarios.DESIGNS)
    audit_rank = 10  # card: its place in `audit --list`
    audit_budget = {"alpha": 2.0, "rdp_epsilon": 2.0}
    # card: non-private counterpart (budget --by simulation)
    counterpart = ("GOPE-limit",
                   "GOPE with the private algorithm's own schedule without noise "
                   "(docs/formulas/zcdp-bandits.md §0, non-private baselines)")
    source = "seed 000 Algorithm 3"
    notion = "rdp"
    bound_ids = ("000-thm8-paper", "000-thm8-paper-main", "000-thm8-explicit", "000-thm8-explicit-closed")

    @classmethod
    def episode_schedule(cls, T, *, alpha, rdp_epsilon, d, K, delta):
        """Card: the schedule `boundcalc episodes` prints (phases, seed 000 Algorithm 3)."""
        from ... import schedules

        return schedules.adar_gope(T, d, K, alpha, rdp_epsilon, delta)

    @classmethod
    def from_context(cls, ctx, budget):
        """Card: the instance regret --check simulates for a bound's context ``ctx`` at ``budget``."""
        return cls(budget.alpha, budget.epsilon, delta=ctx["delta"])

    def __init__(self, alpha: float, eps: float, delta: float = 1e-3, design_tol: float = 1e-6, noise_mult: float = 1.0):
        super().__init__(delta, design_tol)
        self.alpha = validate.greater_than("alpha", alpha, 1.0)
        self.eps = validate.positive("eps", eps)
        self.noise_mult = validate.nonnegative("noise_mult", noise_mult)

    def counts(self, ell, d, K, design):
        beta = 2.0 ** (-ell)
        L = math.log(4.0 * K * ell * (ell + 1) / self.delta)
        approx = design.g > d
        de = self.d_eff(d, design)
        dd1 = 2.0 * design.support_size if approx else d * (d + 1.0)
        pi = design.weights[design.support]
        return np.ceil(8.0 * de * pi / beta**2 * L + 2.0 * de * pi / beta * math.sqrt(2.0 * self.alpha / self.eps * dd1 * L))

    def noise_variance(self, ell, d, K, design):
        """Variance 2 alpha/eps of the noise on each support action's reward sum (seed 000 Alg. 3)."""
        return 2.0 * self.alpha / self.eps

    def privatise(self, ell, d, K, design, Y, n, V, sums, rng):
        noisy = sums + self.noise_mult * math.sqrt(self.noise_variance(ell, d, K, design)) * rng.standard_normal(sums.shape)
        return super().privatise(ell, d, K, design, Y, n, V, noisy, rng)


class AdaRGOPEVar(AdaCGOPE):
    """AdaR-GOPE-Var (seed 003 App. H, Eq. of Step 4; App. E-C2 "adding noise in the beginning"): AdaC-GOPE (seed 003
    Algorithm 2, the same phases c_l of Eq. 4, T_l(a) = ceil(c_l pi_l(a)), the same elimination) with Step 4 changed to

        theta_tilde_l = theta_hat_l + V_l^{-1} sum_{a in S_l} a N_a,   N_a ~ N(0, 2/rho) i.i.d.,

    i.e. Gaussian noise of variance 2/rho on each support action's reward sum (L2 sensitivity 2 with rewards in
    [-1, 1]; one reward enters one sum, so the vector of noisy sums is rho-zCDP, seed 003 App. E-C2 with Thm 18, and
    the algorithm is rho-Interactive zCDP by forgetting and post-processing under Assumption 1). The noise added to
    theta_hat has covariance (2/rho) V_l^{-1} (sum_{a in S_l} a a^T) V_l^{-1}: it grows with the support size |S_l|
    (up to d(d+1)/2), which is why its privacy cost is quadratic in d where AdaC-GOPE's is linear (seed 003
    App. E-C; Table II, row "linear bandits"). It is AdaR-GOPE's mechanism (seed 000 Alg. 3, variance 2 alpha/eps)
    at the zCDP calibration 2/rho, on AdaC-GOPE's schedule; the paper proves no regret bound for it: the bound
    attached is Hanna et al. 2022 Eq. 17 as seed 003 Table II converts it (boundcalc.bounds.converted, with
    a proof-gap caveat). Approximate designs: the schedule follows AdaC-GOPE (d -> g(pi)); the noise does not
    depend on the design beyond its support.

    ``schedule``: App. H says that only Step 4 changes, so the default ``"adac"`` keeps AdaC-GOPE's phases; the name
    (AdaR-GOPE-Var) also reads as AdaR-GOPE (seed 000 Alg. 3) at the zCDP noise variance 2/rho, whose phases
    (seed 000 Eq. 8, alpha/eps -> 1/rho) carry d(d+1) where AdaC-GOPE's carry f(d, delta): ``"adar"``. The paper
    does not say which ran in its Figure 5; worksheet 003 runs both.
    """

    name = "AdaR-GOPE-Var"
    check_assumptions = "linear"  # card: regret --check's assumption check (verify.adapters.ASSUMPTION_CHECKS)
    audit_scenario = "phase-one-elimination"  # card: audit design (boundcalc.audit.scenarios.DESIGNS)
    audit_rank = 11  # card: its place in `audit --list`
    episode_schedule = None  # card: no `episodes` schedule (AdaC-GOPE's is not its own)
    audit_budget = {"rho": 1.0}
    # card: non-private counterpart (budget --by simulation)
    counterpart = ("GOPE-limit",
                   "GOPE with AdaC-GOPE's own schedule without noise (AdaR-GOPE-Var keeps AdaC-GOPE's phases, "
                   "seed 003 App. H; docs/formulas/zcdp-bandits.md §0, non-private baselines)")
    source = "seed 003 App. H (Step 4 of Algorithm 2 changed; App. E-C2)"
    notion = "zcdp"
    bound_ids = ("003-table2-hanna-eq17",)

    @classmethod
    def from_context(cls, ctx, budget):
        """Card: the instance regret --check simulates for a bound's context ``ctx`` at ``budget``."""
        return cls(budget.rho, delta=ctx["delta"])

    def __init__(self, rho: float, delta: float = 1e-3, schedule: str = "adac", design_tol: float = 1e-6,
                 noise_mult: float = 1.0):
        super().__init__(rho, delta, "paper", design_tol, noise_mult)
        if schedule not in ("adac", "adar"):
            raise InputError("schedule", "one of adac, adar", schedule)
        self.schedule = schedule
        # schedule="adar": the other reading of the name, AdaR-GOPE (seed 000 Alg. 3, Eq. 8) at the zCDP variance,
        # i.e. alpha/eps = 1/rho (its noise 2 alpha/eps is then 2/rho): phases with d(d+1) in the privacy term
        self._adar = AdaRGOPE(alpha=2.0, eps=2.0 * self.rho, delta=self.delta, design_tol=self.design_tol)

    def counts(self, ell, d, K, design):
        """T_l(a): AdaC-GOPE's ceil(c_l pi(a)) (seed 003 Eq. 4; App. H changes Step 4 only), or with
        ``schedule="adar"`` AdaR-GOPE's Eq. 8 (seed 000) with alpha/eps = 1/rho."""
        if self.schedule == "adar":
            return self._adar.counts(ell, d, K, design)
        return super().counts(ell, d, K, design)

    def noise_variance(self, ell, d, K, design):
        """Variance 2/rho of the noise on each support action's reward sum (seed 003 App. H, App. E-C2)."""
        return 2.0 / self.rho

    def privatise(self, ell, d, K, design, Y, n, V, sums, rng):
        sd = self.noise_mult * math.sqrt(self.noise_variance(ell, d, K, design))
        noisy = sums + sd * rng.standard_normal(sums.shape)
        return _PhasedElimination.privatise(self, ell, d, K, design, Y, n, V, noisy, rng)
