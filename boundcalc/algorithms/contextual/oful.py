"""Rarely-switching OFUL family: RS-OFUL / OFUL (non-private), AdaC-OFUL (seed 003 Algorithm 3), AdaR-OFUL
(seed 000 Algorithm 4).

V_0 = lambda I, theta_tilde = 0, tau = 0. Step t: if det V_{t-1} > (1 + C) det V_tau (log-determinants),
draw Y_l ~ N(0, s2 I) (s2 = 2/rho for AdaC, 2 alpha/eps for AdaR, 0 non-private), set
theta_tilde = V_{t-1}^{-1} (sum_{s<t} x_s r_s + sum_{m<=l} Y_m), tau = t - 1; play
argmax_x <theta_tilde, x> + beta_tilde_tau ||x||_{V_tau^{-1}} (lowest index on ties).

Width (seed 003 Thm 14 / seed 000 Thm 17 with zcdp-bandits.md §0):
  beta_t = sqrt(2 log(1/delta) + d log(1 + t/(lambda d))) + sqrt(lambda) S,
  gamma_t / sqrt(t) = sqrt( s2 * l * f_F(d, delta/T) / (lambda + max(0, g(t))) ),
  f_F(d, x) = d + 2 sqrt(d log(1/x)) + 2 log(1/x), g(t) = lambda0 t/4 - 8 log((t+3) d/delta) - 2 sqrt(t log((t+3)d/delta)),
  l = number of noise vectors actually summed (not the bound d log(1+t/(lambda d))/log(1+C));
  beta_tilde_0 = sqrt(2 log(1/delta)) + sqrt(lambda) before the first update.
Choices: ``denominator="gentile"`` (above, with the max(0, .) safeguard) or ``"eigen"`` (lambda_min(V_tau),
data-free at run time, zcdp-bandits.md 4.2); lambda0 defaults to ``env.lambda0``. OFUL = RS-OFUL with C = 0
(update at every step). Non-private baselines are the rho -> inf limits (no noise, gamma = 0).

Simulation: inside an episode the parameters are fixed, so a whole chunk of steps is scored at once for
all runs (batched matrix products); the first step whose log det passes the switching threshold is found
from cumulative outer products, the runs that switch are updated and the rest of their chunk re-scored.
Per-step Python loops appear only in ``reference``.
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


class RSOFUL(Algorithm):
    """Rarely-switching OFUL (Abbasi-Yadkori et al. 2011, switching rule of seed 003 Alg. 3), non-private."""

    name = "RS-OFUL"
    source = "seed 003 Sec. VII baseline (rho -> inf limit of Algorithm 3)"
    setting = "contextual"
    notion = "none"
    bound_ids: tuple[str, ...] = ()

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
        bt = np.full(runs, math.sqrt(2 * math.log(1 / self.delta)) + math.sqrt(self.lam))
        n_upd = np.zeros(runs, dtype=np.int64)
        thr = math.log1p(self.C)
        cum = np.zeros(runs)
        cps_int = np.ceil(cps).astype(np.int64)
        out = np.zeros((runs, cps.size))
        B = int(max(4, min(256, 2_000_000 // max(1, runs * K * d))))
        if self.C == 0.0:
            B = min(B, 16)
        t0 = 0
        while t0 < T:
            Bc = min(B, T - t0)
            X = env.contexts(rng, (runs, Bc))  # (runs, Bc, K, d)
            M = X @ env.theta  # (runs, Bc, K)
            best = M.max(axis=2)
            chosen_mean = np.zeros((runs, Bc))
            pos = np.zeros(runs, dtype=np.int64)
            steps = np.arange(Bc)
            while True:
                live = np.flatnonzero(pos < Bc)
                if live.size == 0:
                    break
                # switching test at the start of step pos (V = V_{t-1})
                _, ld = np.linalg.slogdet(V[live])
                sw = live[ld > logdet_tau[live] + thr]
                if sw.size:
                    n_upd[sw] += 1
                    if self.noise_var > 0:
                        Nsum[sw] += math.sqrt(self.noise_var) * rng.standard_normal((sw.size, d))
                    Vi = np.linalg.inv(V[sw])
                    theta[sw] = np.einsum("nij,nj->ni", Vi, b[sw] + Nsum[sw])
                    Vinv_tau[sw] = Vi
                    logdet_tau[sw] = np.linalg.slogdet(V[sw])[1]
                    tau = t0 + pos[sw]  # number of steps observed
                    lmin = np.linalg.eigvalsh(V[sw])[:, 0] if self.denominator == "eigen" else None
                    bt[sw] = self.beta(tau, d) + self.gamma_over_sqrt(tau, n_upd[sw], d, T, lam0, lmin)
                # score the rest of the chunk with fixed parameters
                Xl = X[live]
                score = Xl @ theta[live][:, None, :, None]  # (n, Bc, K, 1)
                score = score[..., 0]
                quad = ((Xl @ Vinv_tau[live][:, None]) * Xl).sum(axis=-1)
                score += bt[live][:, None, None] * np.sqrt(np.maximum(quad, 0.0))
                a = np.argmax(score, axis=2)  # (n, Bc)
                xa = np.take_along_axis(Xl, a[:, :, None, None], axis=2)[:, :, 0, :]  # (n, Bc, d)
                mask = steps[None, :] >= pos[live][:, None]
                xa = xa * mask[:, :, None]
                cumV = V[live][:, None] + np.cumsum(xa[:, :, :, None] * xa[:, :, None, :], axis=1)  # V_{t} after step
                ldc = np.linalg.slogdet(cumV)[1]  # (n, Bc)
                trig = (ldc > logdet_tau[live][:, None] + thr) & mask
                # accepted steps: pos .. j where j is the first triggering step (the next step switches)
                j = np.where(trig.any(axis=1), np.argmax(trig, axis=1), Bc - 1)
                acc = mask & (steps[None, :] <= j[:, None])
                ma = np.take_along_axis(M[live], a[:, :, None], axis=2)[:, :, 0]
                chosen_mean[live] = np.where(acc, ma, chosen_mean[live])
                r = env.rewards(ma, rng)
                xr = xa * acc[:, :, None]
                b[live] += np.einsum("nbd,nb->nd", xr, r)
                V[live] += np.einsum("nbd,nbe->nde", xr, xr)
                pos[live] = j + 1
            reg_steps = best - chosen_mean
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
        bt = math.sqrt(2 * math.log(1 / self.delta)) + math.sqrt(self.lam)
        n_upd = 0
        cum = np.zeros(T + 1)
        for t in range(1, T + 1):
            x = env.contexts(rng, ())  # (K, d)
            if np.linalg.slogdet(V)[1] > ld_tau + math.log1p(self.C):
                n_upd += 1
                if self.noise_var > 0:
                    Nsum += math.sqrt(self.noise_var) * rng.standard_normal(d)
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
    source = "Abbasi-Yadkori et al. 2011 (OFUL); C = 0 case of seed 003 Algorithm 3 without noise"

    def __init__(self, lam: float = 0.1, delta: float = 1e-3, S: float = 1.0):
        super().__init__(lam=lam, C=0.0, delta=delta, S=S)


class AdaCOFUL(RSOFUL):
    """AdaC-OFUL (seed 003 Algorithm 3): rho-Interactive zCDP (Thm 3); per-update noise Y ~ N(0, (2/rho) I)."""

    name = "AdaC-OFUL"
    source = "seed 003 Algorithm 3"
    notion = "zcdp"
    bound_ids = ("003-thm5-paper", "003-thm5-explicit", "003-thm5-corrected")

    def __init__(self, rho: float, lam: float = 0.1, C: float = 1.0, delta: float = 1e-3, S: float = 1.0,
                 lambda0: float | None = None, denominator: str = "gentile"):
        super().__init__(lam, C, delta, S, lambda0, denominator)
        self.rho = validate.positive("rho", rho)
        self.noise_var = 2.0 / self.rho


class AdaROFUL(RSOFUL):
    """AdaR-OFUL (seed 000 Algorithm 4): (alpha, eps)-global RDP (Thm 9); Y ~ N(0, (2 alpha/eps) I)."""

    name = "AdaR-OFUL"
    source = "seed 000 Algorithm 4"
    notion = "rdp"
    bound_ids = ("000-thm10-paper", "000-thm10-explicit", "000-thm10-corrected")

    def __init__(self, alpha: float, eps: float, lam: float = 1.0, C: float = 1.0, delta: float = 1e-3, S: float = 1.0,
                 lambda0: float | None = None, denominator: str = "gentile"):
        super().__init__(lam, C, delta, S, lambda0, denominator)
        self.alpha = validate.greater_than("alpha", alpha, 1.0)
        self.eps = validate.positive("eps", eps)
        self.noise_var = 2.0 * self.alpha / self.eps
