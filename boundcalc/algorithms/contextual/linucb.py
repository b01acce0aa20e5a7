"""LinUCB (Li et al. 2010), LinUCB with the dynamic-global-sensitivity tree mechanism (seed 004 Algorithms 1-2)
and the Private-LinUCB baseline (Neel & Roth 2018: tree mechanism on b_t with constant sensitivity).

LinUCB-DGS (seed 004 Alg. 2): A_1 = lambda I, b_1 = 0, theta^p_1 = 0; at step t play
argmax_x <x, theta^p_t> + alpha_t ||x||_{A_t^{-1}}; A_{t+1} = A_t + x x^T, b_{t+1} = b_t + x r;
theta^p_{t+1} = A_{t+1}^{-1} b_{t+1} + eta_t, eta_t from the tree (Alg. 1): for every set bit i of t, the
node of the dyadic block [e_i - 2^i + 1, e_i], e_i = 2^i floor(t/2^i), contributes i.i.d. Laplace noise per
coordinate with scale Delta_{e_i} log2(T)/eps (eps' = eps/log2 T).

Choices (dgs-contextual.md §0, documented):
* node noise scale at the block's *end* e_i (``scale_at="end"``; ``"start"`` = the labelled variant);
* each node's noise is drawn once and reused (memoised tree; ``memoise=False`` = fresh noise per call);
* sensitivity schedule ``"paper"``: 2L/lambda, then min(2L/lambda, 32L/(lambda0 t)) once
  t > 32 ln(1/delta')/lambda0, delta' = delta/log2 T; ``"safe"``: 2L/(lambda + max(0, lambda'(t))) with
  lambda'(t) = lambda0 t/4 - 8 ln((t+3)/delta') - 2 sqrt(t ln((t+3)/delta'));
* exploration width ``alpha="theory"``: the consistent version of Lemma 2 (dgs-contextual.md 2),
  alpha_t = sqrt(lambda + L^2 t) etabar_{t-1} + R sqrt(d log((1 + t L^2/lambda)/zeta)) + sqrt(lambda) S with
  etabar the DERIVED high-probability bound on ||eta|| of 1.4; or a constant (the paper's experiments tune
  one constant for all methods).
Per-step updates (the estimate changes every step): the loop over t is vectorised across runs.
"""

from __future__ import annotations

import math

import numpy as np

from ... import validate
from ...errors import InputError
from ..base import Algorithm, BlockResult
from .oful import _cps


class LinUCB(Algorithm):
    """Non-private LinUCB (Li et al. 2010), the non-private baseline of seed 004 Sec. 4."""

    name = "LinUCB"
    source = "seed 004 Sec. 4 baseline (Li et al. 2010)"
    setting = "contextual"
    notion = "none"
    bound_ids: tuple[str, ...] = ()

    def __init__(self, lam: float = 1.0, alpha="theory", L: float = 1.0, S: float = 1.0, R: float = 1.0,
                 zeta: float = 0.05):
        self.lam = validate.positive("lambda", lam)
        self.alpha = alpha if alpha == "theory" else validate.nonnegative("alpha", alpha)
        self.L = validate.positive("L", L)
        self.S = validate.nonnegative("S", S)
        self.R = validate.nonnegative("R", R)
        self.zeta = validate.open_unit("zeta", zeta)

    # -- privacy hooks (none here) ------------------------------------------------------------------------------
    def _init_noise(self, runs, d, T, env, rng):
        return None

    def _noise(self, state, t, runs, d, T, rng):
        """(noise added to theta_hat, noise added to b, high-probability bound on the theta-noise norm)."""
        return 0.0, 0.0, 0.0

    def width(self, t: int, d: int, etabar: float) -> float:
        if self.alpha != "theory":
            return float(self.alpha)
        return (math.sqrt(self.lam + self.L**2 * t) * etabar
                + self.R * math.sqrt(d * math.log((1 + t * self.L**2 / self.lam) / self.zeta)) + math.sqrt(self.lam) * self.S)

    def _run(self, env, T, runs, rng, checkpoints, one_context_at_a_time: bool):
        d = env.d
        A_inv = np.broadcast_to(np.eye(d) / self.lam, (runs, d, d)).copy()
        b = np.zeros((runs, d))
        theta = np.zeros((runs, d))
        state = self._init_noise(runs, d, T, env, rng)
        cum = np.zeros(runs)
        cps_int = np.ceil(checkpoints).astype(np.int64)
        out = np.zeros((runs, cps_int.size))
        etabar = 0.0
        ridx = np.arange(runs)
        for t in range(1, T + 1):
            X = env.contexts(rng, (runs,)) if not one_context_at_a_time else env.contexts(rng, ())[None]
            al = self.width(t, d, etabar)
            quad = ((X @ A_inv) * X).sum(axis=-1)
            score = (X @ theta[:, :, None])[..., 0] + al * np.sqrt(np.maximum(quad, 0))
            a = np.argmax(score, axis=1)
            x = X[ridx, a]
            m = X @ env.theta
            r = env.rewards(m[ridx, a], rng)
            Ax = np.einsum("nij,nj->ni", A_inv, x)
            A_inv -= Ax[:, :, None] * Ax[:, None, :] / (1.0 + np.einsum("ni,ni->n", x, Ax))[:, None, None]
            b += x * r[..., None] if np.ndim(r) else x * r
            eta, eta_b, etabar = self._noise(state, t, runs, d, T, rng)
            theta = np.einsum("nij,nj->ni", A_inv, b + eta_b) + eta
            cum += m.max(axis=1) - m[ridx, a]
            out[:, cps_int == t] = cum[:, None]
        return out

    def simulate(self, env, T, runs, rng, checkpoints) -> BlockResult:
        T = validate.horizon("T", T)
        runs = validate.count("runs", runs)
        cps = _cps(checkpoints, T)
        out = self._run(env, T, runs, rng, cps, False)
        return BlockResult(regret=out, pulls=np.zeros((runs, 0)), episodes=np.full(runs, T), extra={})

    def reference(self, env, T, rng, checkpoints) -> BlockResult:
        """Plain single run (runs = 1); the algorithm updates every step, so it is the same loop with one run."""
        T = validate.horizon("T", T)
        cps = _cps(checkpoints, T)
        out = self._run(env, T, 1, rng, cps, True)
        return BlockResult(regret=out, pulls=np.zeros((1, 0)), episodes=np.array([T]), extra={})


class _Tree:
    """Memoised binary-tree noise: node (level i, block k = floor(t/2^i)) drawn once, reused."""

    def __init__(self, runs, d, T, memoise):
        self.levels = int(math.ceil(math.log2(max(T, 2)))) + 1
        self.node = np.zeros((runs, self.levels, d))
        self.key = np.full(self.levels, -1, dtype=np.int64)
        self.scale = np.zeros(self.levels)
        self.memoise = memoise


class LinUCBDGS(LinUCB):
    """Private LinUCB with dynamic global sensitivity (seed 004 Algorithms 1-2), (eps, delta)-DP claimed (Thm 1)."""

    name = "LinUCB-DGS"
    source = "seed 004 Algorithms 1-2"
    notion = "approx"
    bound_ids = ("004-thm3", "004-thm3-corrected")

    def __init__(self, eps: float = 2.0, delta: float = 0.1, lam: float = 1.0, alpha="theory", L: float = 1.0,
                 S: float = 1.0, R: float = 1.0, zeta: float = 0.05, lambda0: float | None = None,
                 schedule: str = "paper", scale_at: str = "end", memoise: bool = True):
        super().__init__(lam, alpha, L, S, R, zeta)
        self.eps = validate.positive("eps", eps)
        self.delta = validate.open_unit("delta", delta)
        self.lambda0 = None if lambda0 is None else validate.positive("lambda0", lambda0)
        if schedule not in ("paper", "safe"):
            raise InputError("schedule", "one of paper, safe", schedule)
        if scale_at not in ("end", "start"):
            raise InputError("scale_at", "one of end, start", scale_at)
        self.schedule, self.scale_at, self.memoise = schedule, scale_at, bool(memoise)

    def sensitivity(self, t: int, T: int) -> float:
        """Delta_t (seed 004 Lemma 1 with dgs-contextual.md §0 schedules)."""
        lam0 = self._lam0
        dprime = self.delta / math.log2(max(T, 2))
        base = 2 * self.L / self.lam
        if self.schedule == "paper":
            if t > 32 * math.log(1 / dprime) / lam0:
                return min(base, 32 * self.L / (lam0 * t))
            return base
        Lg = math.log((t + 3) / dprime)
        lp = lam0 * t / 4 - 8 * Lg - 2 * math.sqrt(t * Lg)
        return 2 * self.L / (self.lam + max(0.0, lp))

    def _init_noise(self, runs, d, T, env, rng):
        self._lam0 = env.lambda0 if self.lambda0 is None else self.lambda0
        return _Tree(runs, d, T, self.memoise)

    def node_scale(self, i: int, t: int, T: int) -> float:
        e = (t >> i) << i
        s = e - (1 << i) + 1
        return self.sensitivity(e if self.scale_at == "end" else max(1, s - 1), T) * math.log2(max(T, 2)) / self.eps

    def _noise(self, tree, t, runs, d, T, rng):
        eta = np.zeros((runs, d))
        scales = []
        for i in range(tree.levels):
            if not (t >> i) & 1:
                continue
            k = t >> i
            if tree.key[i] != k or not tree.memoise:
                tree.key[i] = k
                tree.scale[i] = self.node_scale(i, t, T)
                tree.node[:, i] = rng.laplace(0.0, tree.scale[i], (runs, d))
            eta += tree.node[:, i]
            scales.append(tree.scale[i])
        sc = np.array(scales)
        lz = math.log(2 * d / self.zeta)
        etabar = math.sqrt(d) * math.sqrt(8 * lz) * max(math.sqrt((sc**2).sum()), sc.max() * math.sqrt(lz))
        return eta, 0.0, etabar


class PrivateLinUCB(LinUCBDGS):
    """Private LinUCB (Neel & Roth 2018) baseline of seed 004 Sec. 4 in the "paper" calibration of
    dgs-contextual.md §0: the tree releases b_t (not theta) with constant sensitivity 2L, eps' = eps/log2 T;
    theta^p = A^{-1}(b + eta)."""

    name = "Private-LinUCB"
    source = "seed 004 Sec. 4 baseline (Neel & Roth 2018)"
    notion = "pure"
    bound_ids = ()

    def sensitivity(self, t, T):
        return 2 * self.L

    def _noise(self, tree, t, runs, d, T, rng):
        eta_b, _, etabar_b = super()._noise(tree, t, runs, d, T, rng)
        return 0.0, eta_b, etabar_b / self.lam  # ||A^{-1} eta_b|| <= ||eta_b|| / lambda
