"""Rarely-switching OFUL family: RS-OFUL / OFUL (non-private), AdaC-OFUL (seed 003 Algorithm 3), AdaR-OFUL
(seed 000 Algorithm 4).

V_0 = lambda I, theta_tilde = 0, tau = 0. Step t: if det V_{t-1} > (1 + C) det V_tau (log-determinants),
draw Y_l ~ N(0, s2 I) (s2 = 2/rho for AdaC, 2 alpha/eps for AdaR, 0 non-private), set
theta_tilde = V_{t-1}^{-1} (sum_{s<t} x_s r_s + sum_{m<=l} Y_m), tau = t - 1; play
argmax_x <theta_tilde, x> + beta_tilde_tau ||x||_{V_tau^{-1}} (lowest index on ties).

Width (seed 003 Thm 14 / seed 000 Thm 17 with docs/formulas/zcdp-bandits.md §0):
  beta_t = sqrt(2 log(1/delta) + d log(1 + t/(lambda d))) + sqrt(lambda) S,
  gamma_t / sqrt(t) = sqrt( s2 * l * f_F(d, delta/T) / (lambda + max(0, g(t))) ),
  f_F(d, x) = d + 2 sqrt(d log(1/x)) + 2 log(1/x), g(t) = lambda0 t/4 - 8 log((t+3) d/delta) - 2 sqrt(t log((t+3)d/delta)),
  l = number of noise vectors actually summed (not the bound d log(1+t/(lambda d))/log(1+C));
  beta_tilde_0 = beta_0 = sqrt(2 log(1/delta)) + sqrt(lambda) S before the first update (S = ||theta*|| bound).
Choices: ``denominator="gentile"`` (above, with the max(0, .) safeguard) or ``"eigen"`` (lambda_min(V_tau),
data-free at run time, docs/formulas/zcdp-bandits.md 4.2); lambda0 defaults to ``env.lambda0``. OFUL = RS-OFUL with C = 0
(update at every step). Non-private baselines are the rho -> inf limits (no noise, gamma = 0).

Simulation: inside an episode the parameters are fixed, so a whole chunk of steps is scored at once for
all runs (one GEMM per run against [V_tau^{-1} | theta_tilde | theta*]); log det V_t is nondecreasing, so
only the chunk end is tested, and for the runs that pass the threshold the first such step is found by
bisection (log det of V plus a masked Gram product per probe); the runs that switch are
updated and the rest of their chunk re-scored. Chunks grow with t (switches become rarer, ~t log(1+C)/d
apart) up to a memory cap. Per-step Python loops appear only in ``reference``.

``noise_mult`` (AdaC-OFUL, AdaR-OFUL; default 1, >= 0) multiplies every noise vector Y_l (not the width, which keeps
the stated s2); other values are deliberately mis-calibrated copies (0.5: noise halved, 0: no noise) that exist only
for audits and tests of power (boundcalc.audit.mutants): they are not private at the stated budget.
"""

from __future__ import annotations

import math

import numpy as np

from ... import validate
from ...errors import InputError
from ..base import Algorithm, BlockResult


def _cps(checkpoints, T):
    c = np.asarray(checkpoints, dtype=float).ravel()
    if c.size == 0 or np.any(~np.isfinite(c)) or np.any(c < 0) or np.any(c > T):
        raise InputError("checkpoints", f"non-empty values in [0, T = {T}]", c.tolist()[:5])
    return c


def f_F(d, x):
    L = math.log(1.0 / x)
    return d + 2.0 * math.sqrt(d * L) + 2.0 * L


def _oful_context(ctx) -> dict:
    """The OFUL family's constructor keywords from a bound's context: lam, C, delta, lambda0 (lam0) and the bound S on
    ||theta*|| (theta_norm, used in beta_t)."""
    return {"lam": ctx["lam"], "C": ctx["C"], "delta": ctx["delta"], "lambda0": ctx["lam0"], "S": ctx["theta_norm"]}


class RSOFUL(Algorithm):
    """Rarely-switching OFUL (Abbasi-Yadkori et al. 2011, switching rule of seed 003 Alg. 3), non-private."""

    name = "RS-OFUL"
    context_params = {"delta": "delta"}  # card: constructor keyword -> bound context key (regret --check, overlay)
    check_assumptions = "oful"  # card: regret --check's assumption check (verify.adapters.ASSUMPTION_CHECKS)
    granularity = "chunk"  # card: every step scored, in vectorised chunks between switches
    source = "seed 003 Sec. VII baseline (rho -> inf limit of Algorithm 3)"
    setting = "contextual"
    notion = "none"
    bound_ids: tuple[str, ...] = ("003-rsoful-explicit", "003-oful-paper")

    @classmethod
    def from_context(cls, ctx, budget):
        """Card: the instance regret --check simulates for a bound's context ``ctx`` at ``budget``."""
        return cls(**_oful_context(ctx))

    def __init__(self, lam: float = 0.1, C: float = 1.0, delta: float = 1e-3, S: float = 1.0, lambda0: float | None = None,
                 denominator: str = "gentile"):
        self.lam = validate.positive("lambda", lam)
        self.C = validate.nonnegative("C", C)
        self.delta = validate.open_unit("delta", delta)
        self.S = validate.nonnegative("S", S)
        self.lambda0 = None if lambda0 is None else validate.positive("lambda0", lambda0)
        if denominator not in ("gentile", "eigen"):
            raise InputError("denominator", "one of gentile, eigen", denominator)
        self.denominator = denominator

    noise_var = 0.0  # s2 of the per-update Gaussian vector
    noise_mult = 1.0  # multiplies the drawn noise only (audits: deliberately broken copies)

    # -- widths -----------------------------------------------------------------------------------------------
    def beta(self, tau: np.ndarray, d: int) -> np.ndarray:
        tau = np.asarray(tau, dtype=float)
        return np.sqrt(2 * math.log(1 / self.delta) + d * np.log1p(tau / (self.lam * d))) + math.sqrt(self.lam) * self.S

    def gamma_over_sqrt(self, tau, n_noise, d, T, lambda0, lam_min_V=None) -> np.ndarray:
        if self.noise_var == 0.0:
            return np.zeros(np.shape(tau))
        tau = np.asarray(tau, dtype=float)
        if self.denominator == "eigen":
            den = np.asarray(lam_min_V, dtype=float)
        else:
            Lg = np.log((tau + 3) * d / self.delta)
            den = self.lam + np.maximum(0.0, lambda0 * tau / 4 - 8 * Lg - 2 * np.sqrt(tau * Lg))
        return np.sqrt(self.noise_var * n_noise * f_F(d, self.delta / T) / den)

    # -- simulation -----------------------------------------------------------------------------------------
    def simulate(self, env, T, runs, rng, checkpoints) -> BlockResult:
        T = validate.horizon("T", T)
        runs = validate.count("runs", runs)
        cps = _cps(checkpoints, T)
        d, K = env.d, env.K
        lam0 = env.lambda0 if self.lambda0 is None else self.lambda0
        V = np.broadcast_to(self.lam * np.eye(d), (runs, d, d)).copy()
        b = np.zeros((runs, d))
        Nsum = np.zeros((runs, d))
        theta = np.zeros((runs, d))
        Vinv_tau = np.broadcast_to(np.eye(d) / self.lam, (runs, d, d)).copy()
        logdet_tau = np.full(runs, d * math.log(self.lam))
        bt = np.full(runs, float(self.beta(0, d)))  # beta_tilde_0 = sqrt(2 log(1/delta)) + sqrt(lambda) S
        n_upd = np.zeros(runs, dtype=np.int64)
        thr = math.log1p(self.C)
        cum = np.zeros(runs)
        cps_int = np.ceil(cps).astype(np.int64)
        out = np.zeros((runs, cps.size))
        # chunk length: bounded by memory (~B * runs * K * d context entries) and by the expected time to the
        # next switch (log det V_t grows like d log t, so switches come every ~t log(1+C)/d steps): short
        # chunks early (frequent switches, little re-scoring), long ones later (little Python overhead)
        B_max = int(max(4, min(1024, 400_000 // max(1, runs * K * d))))
        if self.C == 0.0:
            B_max = min(B_max, 8)
        every = np.arange(runs)
        t0 = 0
        while t0 < T:
            Bc = min(B_max, max(4, t0 // 8), T - t0)
            X = env.contexts(rng, (runs, Bc))  # (runs, Bc, K, d)
            M = None  # true means <theta*, x>, (runs, Bc, K): from the first scoring GEMM of the chunk
            chosen_mean = np.zeros((runs, Bc))
            pos = np.zeros(runs, dtype=np.int64)
            live = every
            while live.size:
                ix = slice(None) if live.size == runs else live  # views (no copies) while every run is live
                # switching test at the start of step pos (V = V_{t-1})
                _, ld = np.linalg.slogdet(V[ix])
                sw = live[ld > logdet_tau[ix] + thr]
                if sw.size:
                    n_upd[sw] += 1
                    if self.noise_var > 0:
                        Nsum[sw] += self.noise_mult * math.sqrt(self.noise_var) * rng.standard_normal((sw.size, d))
                    Vi = np.linalg.inv(V[sw])
                    theta[sw] = np.einsum("nij,nj->ni", Vi, b[sw] + Nsum[sw])
                    Vinv_tau[sw] = Vi
                    logdet_tau[sw] = np.linalg.slogdet(V[sw])[1]
                    tau = t0 + pos[sw]  # number of steps observed
                    lmin = np.linalg.eigvalsh(V[sw])[:, 0] if self.denominator == "eigen" else None
                    bt[sw] = self.beta(tau, d) + self.gamma_over_sqrt(tau, n_upd[sw], d, T, lam0, lmin)
                # score the rest of the chunk (steps p0..Bc-1) with fixed parameters: one GEMM per run
                p0 = int(pos[ix].min())
                Xl = X[ix, p0:]  # (n, Bp, K, d)
                n, Bp = Xl.shape[0], Xl.shape[1]
                Xf = Xl.reshape(n, Bp * K, d)
                # ||x||^2_{V_tau^{-1}} from one GEMM per run, estimates (and theta* on the chunk's first pass)
                # from a second, thin one: separate contiguous outputs are ~2x faster than slicing one wide GEMM
                quad = np.einsum("nkd,nkd->nk", Xf, Xf @ Vinv_tau[ix])
                cols = [theta[ix][:, :, None]]
                if M is None:  # first pass of the chunk: every run, every step
                    cols.append(np.broadcast_to(env.theta[:, None], (n, d, 1)))
                E = Xf @ np.concatenate(cols, axis=2)
                if M is None:
                    M = E[:, :, 1].reshape(runs, Bc, K)
                np.maximum(quad, 0.0, out=quad)
                np.sqrt(quad, out=quad)
                quad *= bt[ix][:, None]
                quad += E[:, :, 0]
                score = quad  # theta_tilde^T x + beta_t ||x||_{V_tau^{-1}}
                a = np.argmax(score.reshape(n, Bp, K), axis=2)  # (n, Bp), lowest index on ties
                flat = np.arange(0, n * Bp * K, K).reshape(n, Bp) + a  # chosen vector's row in Xf
                xa = Xf.reshape(n * Bp * K, d)[flat]  # (n, Bp, d)
                steps = np.arange(p0, Bc)
                lim = logdet_tau[ix] + thr
                mask = None
                if live.size < runs or p0 > 0 or np.any(pos[ix] > p0):
                    mask = steps[None, :] >= pos[ix][:, None]
                    xa *= mask[:, :, None]
                # log det is nondecreasing along the chunk: test the chunk end, and locate the first step
                # whose V_t passes the threshold (the next step switches) only for the runs that pass it
                dV = np.matmul(xa.transpose(0, 2, 1), xa)
                V_end = V[ix] + dV
                hit = np.flatnonzero(np.linalg.slogdet(V_end)[1] > lim)
                j = np.full(n, Bc - 1)
                if hit.size:
                    # bisection for the first step whose V_t (after the step) passes the threshold; V_t from a
                    # masked GEMM per probe (steps before pos add nothing: their rows of xa are zero)
                    xh = xa[hit]
                    Vh = V[live[hit]]
                    limh = lim[hit]
                    lo = np.zeros(hit.size, dtype=np.int64)
                    hi = np.full(hit.size, Bp - 1)
                    loc = np.arange(Bp)
                    while np.any(lo < hi):
                        mid = (lo + hi) // 2
                        w = xh * (loc[None, :] <= mid[:, None])[:, :, None]
                        up = np.linalg.slogdet(Vh + np.matmul(w.transpose(0, 2, 1), xh))[1] > limh
                        hi = np.where(up, mid, hi)
                        lo = np.where(up, lo, mid + 1)
                    first = hi  # = Bp - 1 also when rounding makes the end test disagree (no switch in chunk)
                    j[hit] = first + p0
                ma = M[ix, p0:].reshape(n * Bp * K)[flat]
                r = env.rewards(ma, rng)
                if hit.size == 0 and mask is None:  # every step of the chunk accepted for every run
                    chosen_mean[ix, p0:] = ma
                    b[ix] += np.einsum("nbd,nb->nd", xa, r)
                    V[ix] = V_end
                else:
                    acc = steps[None, :] <= j[:, None]
                    if mask is not None:
                        acc &= mask
                    chosen_mean[ix, p0:] = np.where(acc, ma, chosen_mean[ix, p0:])
                    xr = xa * acc[:, :, None]
                    b[ix] += np.einsum("nbd,nb->nd", xr, r)
                    V[ix] += np.matmul(xr.transpose(0, 2, 1), xr)
                pos[ix] = j + 1
                live = live[pos[live] < Bc]
            reg_steps = M.max(axis=2) - chosen_mean
            creg = cum[:, None] + np.cumsum(reg_steps, axis=1)
            inside = (cps_int > t0) & (cps_int <= t0 + Bc)
            if inside.any():
                out[:, inside] = creg[:, cps_int[inside] - t0 - 1]
            cum = creg[:, -1]
            t0 += Bc
        out[:, cps_int == 0] = 0.0
        return BlockResult(regret=out, pulls=np.zeros((runs, 0)), episodes=n_upd, extra={"noise_sum": Nsum})

    # -- step-by-step reference --------------------------------------------------------------------------------
    def reference(self, env, T, rng, checkpoints) -> BlockResult:
        T = validate.horizon("T", T)
        cps = _cps(checkpoints, T)
        d = env.d
        lam0 = env.lambda0 if self.lambda0 is None else self.lambda0
        V = self.lam * np.eye(d)
        b = np.zeros(d)
        Nsum = np.zeros(d)
        theta = np.zeros(d)
        Vinv_tau = np.eye(d) / self.lam
        ld_tau = d * math.log(self.lam)
        bt = float(self.beta(0, d))  # beta_tilde_0 = sqrt(2 log(1/delta)) + sqrt(lambda) S (docs/formulas/zcdp-bandits.md §0)
        n_upd = 0
        cum = np.zeros(T + 1)
        for t in range(1, T + 1):
            x = env.contexts(rng, ())  # (K, d)
            if np.linalg.slogdet(V)[1] > ld_tau + math.log1p(self.C):
                n_upd += 1
                if self.noise_var > 0:
                    Nsum += self.noise_mult * math.sqrt(self.noise_var) * rng.standard_normal(d)
                Vinv_tau = np.linalg.inv(V)
                theta = Vinv_tau @ (b + Nsum)
                ld_tau = np.linalg.slogdet(V)[1]
                lmin = np.linalg.eigvalsh(V)[0] if self.denominator == "eigen" else None
                bt = float(self.beta(t - 1, d) + self.gamma_over_sqrt(t - 1, n_upd, d, T, lam0, lmin))
            score = x @ theta + bt * np.sqrt(np.einsum("kd,de,ke->k", x, Vinv_tau, x))
            a = int(np.argmax(score))
            m = x @ env.theta
            r = float(env.rewards(m[a], rng))
            V += np.outer(x[a], x[a])
            b += x[a] * r
            cum[t] = cum[t - 1] + m.max() - m[a]
        return BlockResult(regret=np.interp(cps, np.arange(T + 1), cum)[None, :], pulls=np.zeros((1, 0)),
                           episodes=np.array([n_upd]), extra={})


class OFUL(RSOFUL):
    """OFUL (Abbasi-Yadkori et al. 2011): RS-OFUL with C = 0, i.e. the estimate is refreshed every step."""

    name = "OFUL"
    check_assumptions = "oful"  # card: regret --check's assumption check (verify.adapters.ASSUMPTION_CHECKS)
    granularity = "step"  # card: C = 0 refreshes every step (chunks degenerate to a slower per-step loop)
    source = "Abbasi-Yadkori et al. 2011 (OFUL); C = 0 case of seed 003 Algorithm 3 without noise"
    # Abbasi-Yadkori et al. 2011 Thm 3 (RS-OFUL's bounds are registered for RS-OFUL: the explicit one needs C > 0)
    bound_ids: tuple[str, ...] = ("oful-abbasi-yadkori2011-thm3",)

    @classmethod
    def from_context(cls, ctx, budget):
        """Card: the instance regret --check simulates for a bound's context ``ctx`` at ``budget``."""
        return cls(lam=ctx["lam"], delta=ctx["delta"], S=ctx["theta_norm"])

    def __init__(self, lam: float = 0.1, delta: float = 1e-3, S: float = 1.0):
        super().__init__(lam=lam, C=0.0, delta=delta, S=S)


class AdaCOFUL(RSOFUL):
    """AdaC-OFUL (seed 003 Algorithm 3): rho-Interactive zCDP (Thm 3); per-update noise Y ~ N(0, (2/rho) I)."""

    name = "AdaC-OFUL"
    check_assumptions = "oful-assumption2"  # card: regret --check's assumption check (Assumptions 1 and 2)
    audit_scenario = "first-switch"  # card: audit design (boundcalc.audit.scenarios.DESIGNS)
    audit_rank = 12  # card: its place in `audit --list`
    audit_budget = {"rho": 1.0}
    # card: non-private counterpart (budget --by simulation)
    counterpart = ("OFUL",
                   "OFUL (seed 003 Sec. VII baseline)")
    source = "seed 003 Algorithm 3"
    notion = "zcdp"
    bound_ids = ("003-thm5-paper", "003-thm5-explicit", "003-thm5-corrected")

    @classmethod
    def episode_schedule(cls, T, *, rho, d, lam, C, lam0):
        """Card: the schedule `boundcalc episodes` prints (switching epochs, seed 003 Algorithm 3)."""
        from ... import schedules

        return schedules.adac_oful(T, d, rho, lam, C, lam0)

    @classmethod
    def from_context(cls, ctx, budget):
        """Card: the instance regret --check simulates for a bound's context ``ctx`` at ``budget``."""
        return cls(budget.rho, **_oful_context(ctx))

    def __init__(self, rho: float, lam: float = 0.1, C: float = 1.0, delta: float = 1e-3, S: float = 1.0,
                 lambda0: float | None = None, denominator: str = "gentile", noise_mult: float = 1.0):
        super().__init__(lam, C, delta, S, lambda0, denominator)
        self.rho = validate.positive("rho", rho)
        self.noise_mult = validate.nonnegative("noise_mult", noise_mult)
        self.noise_var = 2.0 / self.rho


class AdaROFUL(RSOFUL):
    """AdaR-OFUL (seed 000 Algorithm 4): (alpha, eps)-global RDP (Thm 9); Y ~ N(0, (2 alpha/eps) I)."""

    name = "AdaR-OFUL"
    check_assumptions = "oful-assumption2"  # card: regret --check's assumption check (Assumptions 1 and 2)
    audit_scenario = "first-switch"  # card: audit design (boundcalc.audit.scenarios.DESIGNS)
    audit_rank = 13  # card: its place in `audit --list`
    audit_budget = {"alpha": 2.0, "rdp_epsilon": 2.0}
    counterpart = ("OFUL", "OFUL")  # card: non-private counterpart (budget --by simulation)
    source = "seed 000 Algorithm 4"
    notion = "rdp"
    bound_ids = ("000-thm10-paper", "000-thm10-explicit", "000-thm10-corrected")

    @classmethod
    def episode_schedule(cls, T, *, alpha, rdp_epsilon, d, lam, C, lam0):
        """Card: the schedule `boundcalc episodes` prints (switching epochs, seed 000 Algorithm 4)."""
        from ... import schedules

        return schedules.adar_oful(T, d, alpha, rdp_epsilon, lam, C, lam0)

    @classmethod
    def from_context(cls, ctx, budget):
        """Card: the instance regret --check simulates for a bound's context ``ctx`` at ``budget``."""
        return cls(budget.alpha, budget.epsilon, **_oful_context(ctx))

    def __init__(self, alpha: float, eps: float, lam: float = 1.0, C: float = 1.0, delta: float = 1e-3, S: float = 1.0,
                 lambda0: float | None = None, denominator: str = "gentile", noise_mult: float = 1.0):
        super().__init__(lam, C, delta, S, lambda0, denominator)
        self.alpha = validate.greater_than("alpha", alpha, 1.0)
        self.noise_mult = validate.nonnegative("noise_mult", noise_mult)
        self.eps = validate.positive("eps", eps)
        self.noise_var = 2.0 * self.alpha / self.eps
