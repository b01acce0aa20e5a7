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
* ``noise_mult`` (default 1) multiplies every node's Laplace scale; values other than 1 are deliberately
  mis-calibrated and exist only to show that the agreement tests have power.
Per-step updates (the estimate changes every step): ``simulate`` loops over t vectorised across runs (inverse
kept by Sherman-Morrison, level-indexed memo of tree nodes). ``reference`` is a separate plain single run written
from the sheet (dgs-contextual.md 1.3, 2 and §0): scalar loop over t and over the K candidate arms, the explicit
matrix A_t = lambda I + sum x x^T solved directly, the tree kept as a dict of dyadic blocks [s_i, e_i] -> Laplace
vector, its own sensitivity schedule and noise-norm bound. Both return ``extra["theta_err"]`` =
||theta^p_{T+1} - theta*|| (runs,), a statistic driven by the privacy noise.
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
        return out, np.linalg.norm(theta - env.theta, axis=1)

    def simulate(self, env, T, runs, rng, checkpoints) -> BlockResult:
        T = validate.horizon("T", T)
        runs = validate.count("runs", runs)
        cps = _cps(checkpoints, T)
        out, err = self._run(env, T, runs, rng, cps, False)
        return BlockResult(regret=out, pulls=np.zeros((runs, 0)), episodes=np.full(runs, T), extra={"theta_err": err})

    # -- plain reference (independent code path) ----------------------------------------------------------------
    def _ref_privacy(self):
        """(where the tree noise goes: None | "theta" | "b", constant sensitivity or None for the DGS schedule)."""
        return None, None

    def _ref_sensitivity(self, t: int, T: int, lam0: float) -> float:
        """Delta_t of seed 004 Lemma 1 with the schedules of dgs-contextual.md §0 (written again from the sheet)."""
        log2T = math.log2(max(T, 2))
        dp = self.delta / log2T
        if self.schedule == "paper":
            if t > 32 * math.log(1 / dp) / lam0:
                return min(2 * self.L / self.lam, 32 * self.L / (lam0 * t))
            return 2 * self.L / self.lam
        lg = math.log((t + 3) / dp)
        lprime = lam0 * t / 4 - 8 * lg - 2 * math.sqrt(t * lg)
        return 2 * self.L / max(self.lam, self.lam + lprime)

    def reference(self, env, T, rng, checkpoints) -> BlockResult:
        """Plain single run, written from the sheet independently of ``simulate``.

        Step t: width alpha_t (constant or the DERIVED sqrt(lambda + L^2 t) etabar_{t-1} + R sqrt(d log((1 + t L^2
        /lambda)/zeta)) + sqrt(lambda) S), play argmax_k <x_k, theta^p> + alpha_t ||x_k||_{A^{-1}} (first maximum),
        A += x x^T, b += r x, then the tree noise of time t: for each set bit i of t the dyadic block [s, e],
        e = 2^i floor(t/2^i), s = e - 2^i + 1, holds Laplace noise per coordinate with scale
        Delta_{e} (or Delta_{max(1, s-1)}) log2(T)/eps, drawn on first use and kept (or drawn at every use when
        ``memoise=False``); theta^p = A^{-1} b + eta (DGS) or A^{-1}(b + eta) (Private-LinUCB)."""
        T = validate.horizon("T", T)
        cps = _cps(checkpoints, T)
        d, K = env.d, env.K
        where, const = self._ref_privacy()
        lam0 = None
        if where is not None:
            lam0 = env.lambda0 if self.lambda0 is None else self.lambda0
        log2T = math.log2(max(T, 2))
        A = self.lam * np.eye(d)
        b = np.zeros(d)
        theta_p = np.zeros(d)
        blocks: dict[tuple[int, int], tuple[np.ndarray, float]] = {}
        etabar = 0.0
        regret = np.zeros(T + 1)
        for t in range(1, T + 1):
            C = env.contexts(rng, ())
            if self.alpha == "theory":
                width = (math.sqrt(self.lam + self.L**2 * t) * etabar
                         + self.R * math.sqrt(d * math.log((1 + t * self.L**2 / self.lam) / self.zeta))
                         + math.sqrt(self.lam) * self.S)
            else:
                width = float(self.alpha)
            A_inv = np.linalg.inv(A)
            a, best = 0, -math.inf
            for k in range(K):
                x = C[k]
                score = float(x @ theta_p) + width * math.sqrt(max(float(x @ A_inv @ x), 0.0))
                if score > best:
                    a, best = k, score
            means = [float(C[k] @ env.theta) for k in range(K)]
            r = float(env.rewards(np.array(means[a]), rng))
            x = C[a]
            A = A + np.outer(x, x)
            b = b + r * x
            if where is None:
                theta_p = np.linalg.solve(A, b)
            else:
                eta = np.zeros(d)
                scales = []
                i = 0
                while (1 << i) <= t:
                    if (t >> i) & 1:
                        e = (t >> i) << i
                        s = e - (1 << i) + 1
                        if self.memoise and (s, e) in blocks:
                            z, sc = blocks[(s, e)]
                        else:
                            at = e if self.scale_at == "end" else max(1, s - 1)
                            delta_t = const if const is not None else self._ref_sensitivity(at, T, lam0)
                            sc = self.noise_mult * delta_t * log2T / self.eps
                            z = rng.laplace(0.0, sc, d)
                            blocks[(s, e)] = (z, sc)
                        eta = eta + z
                        scales.append(sc)
                    i += 1
                # DERIVED per-vector bound (dgs-contextual.md 1.4): sqrt(d) sqrt(8 ln(2d/zeta)) max(||b||_2, b_max sqrt(ln(2d/zeta)))
                lz = math.log(2 * d / self.zeta)
                bound = math.sqrt(d) * math.sqrt(8 * lz) * max(math.sqrt(sum(v * v for v in scales)),
                                                               max(scales) * math.sqrt(lz))
                if where == "theta":
                    theta_p = np.linalg.solve(A, b) + eta
                    etabar = bound
                else:
                    theta_p = np.linalg.solve(A, b + eta)
                    etabar = bound / self.lam  # ||A^{-1} eta_b|| <= ||eta_b||/lambda
            regret[t] = regret[t - 1] + max(means) - means[a]
        out = np.array([regret[int(math.ceil(c))] for c in cps])[None]
        return BlockResult(regret=out, pulls=np.zeros((1, 0)), episodes=np.array([T]),
                           extra={"theta_err": np.array([np.linalg.norm(theta_p - env.theta)])})


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
                 schedule: str = "paper", scale_at: str = "end", memoise: bool = True, noise_mult: float = 1.0):
        super().__init__(lam, alpha, L, S, R, zeta)
        self.noise_mult = validate.positive("noise_mult", noise_mult)
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
        return (self.noise_mult * self.sensitivity(e if self.scale_at == "end" else max(1, s - 1), T)
                * math.log2(max(T, 2)) / self.eps)

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

    def _ref_privacy(self):
        return "theta", None


class PrivateLinUCB(LinUCBDGS):
    """Private LinUCB (Neel & Roth 2018) baseline of seed 004 Sec. 4, calibrated as in dgs-contextual.md §0:
    the tree releases b_t (not theta), eps' = eps/log2 T; theta^p = A^{-1}(b + eta).

    ``b_sensitivity``: ``"paper"`` (default) = L, as seed 004 §3.1 states ("global sensitivity of b_t ... is a
    constant L ... |r| <= 1") and sheet §0 prescribes; ``"exact"`` = 2L, the true L2 sensitivity of b_t when one
    reward moves across [-1, 1] (|r - r'| <= 2) — a labelled correction, not the paper's calibration.
    """

    name = "Private-LinUCB"
    source = "seed 004 Sec. 4 baseline (Neel & Roth 2018)"
    notion = "pure"
    bound_ids = ()

    def __init__(self, *args, b_sensitivity: str = "paper", **kwargs):
        super().__init__(*args, **kwargs)
        if b_sensitivity not in ("paper", "exact"):
            raise InputError("b_sensitivity", "one of paper, exact", b_sensitivity)
        self.b_sensitivity = b_sensitivity

    def _b_sens(self) -> float:
        return self.L if self.b_sensitivity == "paper" else 2 * self.L

    def sensitivity(self, t, T):
        return self._b_sens()

    def _ref_privacy(self):
        return "b", self._b_sens()  # constant L2 sensitivity of b_t (seed 004 §3.1; dgs-contextual.md §0 / 1.4)

    def _noise(self, tree, t, runs, d, T, rng):
        eta_b, _, etabar_b = super()._noise(tree, t, runs, d, T, rng)
        return 0.0, eta_b, etabar_b / self.lam  # ||A^{-1} eta_b|| <= ||eta_b|| / lambda
