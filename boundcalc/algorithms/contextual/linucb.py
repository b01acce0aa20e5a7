"""LinUCB (Li et al. 2010), LinUCB with the dynamic-global-sensitivity tree mechanism (seed 004 Algorithms 1-2)
and the Private-LinUCB baseline of seed 004 Sec. 4 (Neel & Roth 2018: tree mechanism on b_t, constant sensitivity).

LinUCB-DGS (seed 004 Alg. 2): A_1 = lambda I, b_1 = 0, theta^p_1 = 0; at step t play
argmax_x <x, theta^p_t> + alpha_t ||x||_{A_t^{-1}} (first maximum); A_{t+1} = A_t + x x^T, b_{t+1} = b_t + x r;
theta^p_{t+1} = A_{t+1}^{-1} b_{t+1} + eta_t, eta_t the tree noise of prefix t (Alg. 1): for every set bit i of t,
the dyadic node [e_i - 2^i + 1, e_i], e_i = 2^i floor(t/2^i), contributes i.i.d. Laplace noise per coordinate.
Private-LinUCB: the same tree on b_t, theta^p_{t+1} = A_{t+1}^{-1} (b_{t+1} + eta_t) (docs/formulas/dgs-contextual.md §0, 1.4).

Options (docs/formulas/dgs-contextual.md §0; each labelled, defaults first):
* ``tree="memo"``: each node's noise is drawn once and reused whenever the node is part of a released prefix (the
  binary-tree mechanism); ``"fresh"``: every node of t's decomposition is redrawn at every t -- a deliberately
  kept variant (the reading of Alg. 1 under which ERRATA 7 finds the (eps, delta) claim false), for audits.
* ``sensitivity="paper"``: the calibration seed 004 prints -- Laplace per coordinate with the L2 sensitivity
  (Lemma 1's Delta_t for DGS; the constant L of seed 004 §3.1 for Private-LinUCB) and eps' = eps/log2 T;
  ``"strict"`` (sheet §0 correction, "strict" mode): the L1 sensitivity (sqrt(d) Delta_t for DGS, 2 sqrt(d) L for
  Private-LinUCB) and eps/(ceil(log2 T) + 1) for the ceil(log2 T) + 1 tree levels of Alg. 1 line 3.
  See ``PrivateLinUCB.privacy_epsilon`` for the exact guarantee of each mode.
* DGS only: node scale at the block's *end* e_i (``scale_at="end"``; ``"start"`` = the labelled variant);
  Delta_t schedule ``"paper"``: 2L/lambda, then min(2L/lambda, 32L/(lambda0 t)) once t > 32 ln(1/delta')/lambda0;
  ``"safe"``: 2L/(lambda + max(0, lambda'(t))), lambda'(t) = lambda0 t/4 - 8 ln((t+3)/delta') - 2 sqrt(t ln((t+3)/delta'));
  delta' = delta/log2 T in both sensitivity modes (sheet §0 prescribes it; the strict mode changes eps' only).
* exploration width ``alpha="theory"``: the consistent version of Lemma 2 (docs/formulas/dgs-contextual.md 2),
  alpha_t = sqrt(lambda + L^2 t) etabar_{t-1} + R sqrt(d log((1 + t L^2/lambda)/zeta)) + sqrt(lambda) S with etabar the
  DERIVED high-probability bound on the theta-noise norm of 1.4; or a constant (the paper's experiments tune one).
* LinUCB-DGS only, ``perturb_sigma`` (default 0: off): seed 004 Cor. 1 -- every context the algorithm sees is
  x + z, z ~ N(0, perturb_sigma^2 I), then projected onto the ball ||x|| <= L (our reading: Lemma 1's sensitivity
  2L/lambda needs ||x|| <= L, and a Gaussian perturbation is unbounded; the paper does not say). The algorithm scores,
  plays and regresses on the perturbed vectors; the reward is the environment's, of the true context, and the regret
  is measured on the true means. Without a given ``lambda0`` the Delta_t schedule uses lambda0 = perturb_sigma^2
  (Cor. 1: lambda0 >= Omega(sigma^2), Kannan et al. 2018 Lemma 3.7, the constant taken as 1).
* ``noise_mult`` (default 1) multiplies every node's scale; values other than 1 are deliberately mis-calibrated
  and exist only to show that tests have power.

Random streams: ``simulate`` and ``reference`` split the Generator they are given the same way (4 words ->
SeedSequence -> spawn(4); child i of a SeedSequence does not depend on how many are spawned, so the first three are
those of spawn(3)) into a context stream, a reward stream, a privacy-noise stream and a context-perturbation stream
(used only with ``perturb_sigma`` > 0: per step one (runs, K, d) standard normal draw), and draw from each
in the same order: per step, the (runs, K, d) decision sets, one reward per run, and the Laplace nodes of
``boundcalc.privacy.mechanisms.TreeNoise`` (memo: one (runs, d) node per step; fresh: popcount(t) nodes in
ascending level). So lane j of a ``simulate`` block equals ``reference(..., lane=j, lanes=runs)`` draw for draw
(for context distributions whose draws do not depend on the batch shape: "sphere", "gaussian"; the pool
sampler's rejection step does, so there only the distributions agree).

``simulate`` (vectorised across runs, no Python work per run): contexts, true means and tree noise are drawn a
chunk of steps at a time; per step one batched matmul scores all K arms of all runs, the inverse Gram matrices
are updated by batched Sherman-Morrison rank-1 updates. ``reference`` is a separate plain single run written from
the sheet: scalar loops over t and the K candidates, A_t kept explicitly and solved directly, the tree as a dict of
dyadic blocks, its own sensitivity schedules and noise-norm bound. Both return ``extra["theta_err"]`` =
||theta^p_{T+1} - theta*|| and, for the private variants, ``extra["tree_noise"]`` = eta_t at the checkpoints.
An environment with a ``record_arms(a)`` method (boundcalc.envs.tape.ChangedRewardEnv) is told the chosen arm's index
per run ((runs,) integers; ``reference``: (lanes,), every entry the lane's arm) at every step, before its reward is
asked: the replay of seed 004 Fig. 2(c) tells arms apart by index where their means coincide.
"""

from __future__ import annotations

import math

import numpy as np

from ... import validate
from ...errors import InputError
from ...privacy.mechanisms import TREE_MODES, TreeNoise
from ..base import Algorithm, BlockResult
from .oful import _cps

SENSITIVITY_MODES = ("paper", "strict")
_CHUNK_ENTRIES = 2**21  # decision-set entries drawn per chunk (16 MiB of float64)


def split_streams(rng: np.random.Generator, n: int = 3):
    """(contexts, rewards, privacy noise[, context perturbation]) Generators from ``rng``: 4 words -> SeedSequence ->
    spawn(n) (the first three children are the same for n = 3 and n = 4)."""
    words = rng.integers(0, 2**32, size=4, dtype=np.uint64)
    return [np.random.default_rng(c) for c in np.random.SeedSequence([int(w) for w in words]).spawn(n)]


def perturb_contexts(X: np.ndarray, Z: np.ndarray, sigma: float, L: float) -> np.ndarray:
    """x + sigma z projected onto the ball of radius L, for the last axis (seed 004 Cor. 1; the projection is our
    reading, see the module docstring). ``Z``: standard normal draws of the shape of ``X``."""
    Y = X + sigma * Z
    n = np.linalg.norm(Y, axis=-1, keepdims=True)
    return Y / np.maximum(1.0, n / L)


def tree_level_count(T: int, sensitivity: str) -> float:
    """The divisor of eps per tree node: log2 T (seed 004 Alg. 1 line 2, eps' = eps/log2 T; T >= 2, 1 for T = 1)
    in ``"paper"`` mode, ceil(log2 T) + 1 (the bit count of Alg. 1 line 3; docs/formulas/dgs-contextual.md §0 "strict") in
    ``"strict"`` mode. The memoised tree over 1..T has floor(log2 T) + 1 <= ceil(log2 T) + 1 levels."""
    T = int(T)
    if sensitivity == "paper":
        return math.log2(max(T, 2))
    return float((T - 1).bit_length() + 1)  # ceil(log2 T) + 1 for T >= 1


def noise_norm_bound(scales: np.ndarray, d: int, zeta: float) -> np.ndarray:
    """DERIVED (docs/formulas/dgs-contextual.md 1.4; Chan, Shi & Song 2011 Cor. 2.9, union over d coordinates): w.p. >= 1 - zeta,
    ||sum_i Lap(b_i)^d||_2 <= sqrt(d) sqrt(8 ln(2d/zeta)) max(sqrt(sum b_i^2), max_i b_i sqrt(ln(2d/zeta))).
    ``scales`` (..., levels) with 0 for absent nodes."""
    lz = math.log(2 * d / zeta)
    return math.sqrt(d) * math.sqrt(8 * lz) * np.maximum(np.sqrt((scales**2).sum(-1)), scales.max(-1) * math.sqrt(lz))


class LinUCB(Algorithm):
    """Non-private LinUCB (Li et al. 2010), the non-private baseline of seed 004 Sec. 4."""

    name = "LinUCB"
    # card: the parameter map, constructor keyword -> bound context key (regret --check, overlay)
    context_params = {"L": "L", "S": "S", "zeta": "zeta"}
    check_assumptions = "linucb"  # card: regret --check's assumption check (verify.adapters.ASSUMPTION_CHECKS)
    granularity = "step"  # card: the estimate changes every step
    source = "seed 004 Sec. 4 baseline (Li et al. 2010)"
    setting = "contextual"
    notion = "none"
    guarantee = "none (non-private)"
    bound_ids: tuple[str, ...] = ("linucb-seed004-thm3-nonprivate",)

    @classmethod
    def from_context(cls, ctx, budget):
        """Non-private LinUCB (seed 004 Sec. 4 baseline) with the contextual instance's lam, L, S, zeta."""
        return cls(lam=ctx["lam"], L=ctx["L"], S=ctx["S"], zeta=ctx["zeta"])

    def __init__(self, lam: float = 1.0, alpha="theory", L: float = 1.0, S: float = 1.0, R: float = 1.0,
                 zeta: float = 0.05):
        self.lam = validate.positive("lambda", lam)
        self.alpha = alpha if alpha == "theory" else validate.nonnegative("alpha", alpha)
        self.L = validate.positive("L", L)
        self.S = validate.nonnegative("S", S)
        self.R = validate.nonnegative("R", R)
        self.zeta = validate.open_unit("zeta", zeta)

    def describe(self):
        out = super().describe()
        out["guarantee"] = self.guarantee_text()
        return out

    def guarantee_text(self) -> str:
        return self.guarantee

    # -- hooks of the private variants ------------------------------------------------------------------------
    perturb_sigma: float = 0.0  # seed 004 Cor. 1 context perturbation (LinUCB-DGS's option; 0 = off)

    def _noise_source(self, env, T, runs, d, rng):
        """The TreeNoise of the privacy noise (None: non-private)."""
        return None

    def _etabar(self, scales, d):
        """High-probability bound on the norm of the noise in theta^p (per step of a chunk)."""
        return np.zeros(scales.shape[0])

    def _estimate(self, A_inv, b, eta):
        return np.einsum("nij,nj->ni", A_inv, b)

    def widths(self, t, d: int, etabar_prev):
        """alpha_t for steps t (array) given etabar_{t-1} (array): a constant, or the DERIVED Lemma 2 width."""
        t = np.asarray(t, dtype=float)
        if self.alpha != "theory":
            return np.full(t.shape, float(self.alpha))
        return (np.sqrt(self.lam + self.L**2 * t) * np.asarray(etabar_prev, dtype=float)
                + self.R * np.sqrt(d * np.log((1 + t * self.L**2 / self.lam) / self.zeta)) + math.sqrt(self.lam) * self.S)

    def width(self, t: int, d: int, etabar: float) -> float:
        return float(self.widths(np.array([t]), d, np.array([etabar]))[0])

    # -- vectorised simulation ---------------------------------------------------------------------------------
    def simulate(self, env, T, runs, rng, checkpoints) -> BlockResult:
        T = validate.horizon("T", T)
        runs = validate.count("runs", runs)
        cps = _cps(checkpoints, T)
        d, K = env.d, env.K
        g_ctx, g_rew, g_priv, g_pert = split_streams(rng, 4)
        src = self._noise_source(env, T, runs, d, g_priv)
        sig = float(self.perturb_sigma)
        A_inv = np.empty((runs, d, d))
        A_inv[:] = np.eye(d) / self.lam
        b = np.zeros((runs, d))
        theta = np.zeros((runs, d))
        cps_int = np.ceil(cps).astype(np.int64)
        out = np.zeros((runs, cps.size))
        eta_cp = np.zeros((runs, cps.size, d)) if src is not None else None
        cum = np.zeros(runs)
        ridx = np.arange(runs)
        etabar_last = 0.0
        step = max(1, min(512, _CHUNK_ENTRIES // (runs * K * d)))
        record = getattr(env, "record_arms", None)  # a replay tape's hook (envs.tape: seed 004 Fig. 2(c))
        XA = np.empty((runs, K, d))
        outer = np.empty((runs, d, d))
        for t0 in range(0, T, step):
            c = min(step, T - t0)
            Xc = env.contexts(g_ctx, (c, runs))  # (c, runs, K, d)
            Mc = Xc @ env.theta  # true means (c, runs, K)
            if sig > 0:  # seed 004 Cor. 1: the algorithm sees (and learns from) perturbed contexts
                Xc = perturb_contexts(Xc, g_pert.standard_normal(Xc.shape), sig, self.L)
            if src is not None:
                eta_c, sc = src.next(c)
                ebar = self._etabar(sc, d)
            else:
                eta_c, ebar = None, np.zeros(c)
            w = self.widths(np.arange(t0 + 1, t0 + c + 1), d, np.concatenate(([etabar_last], ebar[:-1])))
            etabar_last = float(ebar[-1])
            chosen = np.empty((c, runs))
            for s in range(c):
                X = Xc[s]
                np.matmul(X, A_inv, out=XA)  # rows x_k^T A^{-1} = (A^{-1} x_k)^T (A^{-1} symmetric)
                q = np.einsum("nkd,nkd->nk", XA, X)
                np.maximum(q, 0.0, out=q)
                np.sqrt(q, out=q)
                q *= w[s]
                q += np.matmul(X, theta[:, :, None])[..., 0]
                a = q.argmax(axis=1)
                x = X[ridx, a]
                Ax = XA[ridx, a]
                m = Mc[s, ridx, a]
                chosen[s] = m
                if record is not None:
                    record(a)
                r = env.rewards(m, g_rew)
                Ax /= np.sqrt(1.0 + np.einsum("ni,ni->n", x, Ax))[:, None]
                A_inv -= np.einsum("ni,nj->nij", Ax, Ax, out=outer)  # Sherman-Morrison rank-1 update
                x *= r[:, None]
                b += x
                theta = self._estimate(A_inv, b, None if eta_c is None else eta_c[s])
            cumc = cum + np.cumsum(Mc.max(axis=-1) - chosen, axis=0)
            sel = (cps_int > t0) & (cps_int <= t0 + c)
            if sel.any():
                out[:, sel] = cumc[cps_int[sel] - t0 - 1].T
                if eta_cp is not None:
                    eta_cp[:, sel] = np.swapaxes(eta_c[cps_int[sel] - t0 - 1], 0, 1)
            cum = cumc[-1]
        extra = {"theta_err": np.linalg.norm(theta - env.theta, axis=1)}
        if eta_cp is not None:
            extra["tree_noise"] = eta_cp
        return BlockResult(regret=out, pulls=np.zeros((runs, 0)), episodes=np.full(runs, T), extra=extra)

    # -- plain reference (independent code path) ----------------------------------------------------------------
    def _ref_privacy(self):
        """Where the tree noise goes: None (non-private) | "theta" (LinUCB-DGS) | "b" (Private-LinUCB)."""
        return None

    def _ref_node_scale(self, s: int, e: int, T: int, d: int) -> float:
        raise NotImplementedError

    def reference(self, env, T, rng, checkpoints, lane: int = 0, lanes: int = 1) -> BlockResult:
        """Plain single run, written from the sheet independently of ``simulate``.

        Step t: width alpha_t (constant, or the DERIVED sqrt(lambda + L^2 t) etabar_{t-1} + R sqrt(d log((1 + t L^2
        /lambda)/zeta)) + sqrt(lambda) S), play argmax_k <x_k, theta^p> + alpha_t ||x_k||_{A^{-1}} (first maximum),
        A += x x^T, b += r x; then the tree noise of prefix t: its dyadic blocks [s, e] (one per set bit i of t,
        e = 2^i floor(t/2^i), s = e - 2^i + 1, ascending i), each a Laplace vector drawn on the block's first use and
        kept (tree="memo") or drawn at every use (tree="fresh"); theta^p = A^{-1} b + eta (DGS) or A^{-1}(b + eta)
        (Private-LinUCB).

        ``lane``/``lanes``: the run is lane ``lane`` of a batch of ``lanes`` runs sharing one stream -- every draw
        is made for the whole batch (decision sets (lanes, K, d), rewards (lanes,), noise (lanes, d)) and the
        lane's slot is used; ``lanes=1`` is an ordinary single run."""
        T = validate.horizon("T", T)
        lanes = validate.count("lanes", lanes)
        lane = int(validate.count("lane", lane, minimum=0))
        if lane >= lanes:
            raise InputError("lane", f"in [0, lanes - 1 = {lanes - 1}]", lane)
        cps = _cps(checkpoints, T)
        d, K = env.d, env.K
        words = rng.integers(0, 2**32, size=4, dtype=np.uint64)
        kids = np.random.SeedSequence([int(w) for w in words]).spawn(4)
        g_ctx, g_rew, g_priv, g_pert = (np.random.default_rng(k) for k in kids)
        sig = float(self.perturb_sigma)
        record = getattr(env, "record_arms", None)
        where = self._ref_privacy()
        A = self.lam * np.eye(d)
        b = np.zeros(d)
        theta_p = np.zeros(d)
        blocks: dict[tuple[int, int], np.ndarray] = {}
        etabar = 0.0
        eta = np.zeros(d)
        regret = [0.0]
        eta_hist = [np.zeros(d)]
        for t in range(1, T + 1):
            C_true = env.contexts(g_ctx, (lanes,))[lane]
            C = C_true
            if sig > 0:  # seed 004 Cor. 1: x + sigma z, then x / max(1, ||x||/L), one vector at a time
                Z = g_pert.standard_normal((lanes, K, d))[lane]
                C = []
                for k in range(K):
                    y = C_true[k] + sig * Z[k]
                    C.append(y / max(1.0, math.sqrt(float(y @ y)) / self.L))
                C = np.array(C)
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
            means = [float(C_true[k] @ env.theta) for k in range(K)]
            if record is not None:
                record(np.full(lanes, a))
            r = float(env.rewards(np.full(lanes, means[a]), g_rew)[lane])
            x = C[a]
            A = A + np.outer(x, x)
            b = b + r * x
            if where is None:
                theta_p = np.linalg.solve(A, b)
            else:
                eta = np.zeros(d)
                scales = []
                for i in range(t.bit_length()):
                    if not (t >> i) & 1:
                        continue
                    e = (t >> i) << i
                    s = e - (1 << i) + 1
                    sc = self._ref_node_scale(s, e, T, d)
                    if self.tree == "fresh" or (s, e) not in blocks:
                        blocks[(s, e)] = g_priv.laplace(0.0, sc, (lanes, d))[lane]
                    eta = eta + blocks[(s, e)]
                    scales.append(sc)
                lz = math.log(2 * d / self.zeta)  # DERIVED bound of docs/formulas/dgs-contextual.md 1.4
                bound = math.sqrt(d) * math.sqrt(8 * lz) * max(math.sqrt(sum(v * v for v in scales)),
                                                               max(scales) * math.sqrt(lz))
                if where == "theta":
                    theta_p = np.linalg.solve(A, b) + eta
                    etabar = bound
                else:
                    theta_p = np.linalg.solve(A, b + eta)
                    etabar = bound / self.lam  # ||A^{-1} eta_b|| <= ||eta_b|| / lambda
            regret.append(regret[-1] + max(means) - means[a])
            eta_hist.append(eta)
        idx = [int(math.ceil(c)) for c in cps]
        extra = {"theta_err": np.array([np.linalg.norm(theta_p - env.theta)])}
        if where is not None:
            extra["tree_noise"] = np.array([[eta_hist[i] for i in idx]])
        return BlockResult(regret=np.array([[regret[i] for i in idx]]), pulls=np.zeros((1, 0)), episodes=np.array([T]),
                           extra=extra)


class _TreeLinUCB(LinUCB):
    """LinUCB with binary-tree Laplace noise (shared machinery of LinUCB-DGS and Private-LinUCB)."""

    def _tree_options(self, eps, tree, sensitivity, noise_mult):
        self.eps = validate.positive("eps", eps)
        if tree not in TREE_MODES:
            raise InputError("tree", "one of " + ", ".join(TREE_MODES), tree)
        if sensitivity not in SENSITIVITY_MODES:
            raise InputError("sensitivity", "one of " + ", ".join(SENSITIVITY_MODES), sensitivity)
        self.tree, self.sensitivity = tree, sensitivity
        self.noise_mult = validate.positive("noise_mult", noise_mult)

    def level_count(self, T: int) -> float:
        """Divisor of eps per node: log2 T ("paper") or ceil(log2 T) + 1 ("strict"); see ``tree_level_count``."""
        return tree_level_count(T, self.sensitivity)

    def node_sensitivity(self, t, T: int, d: int):
        """The sensitivity each node's Laplace noise is calibrated to, at time t (vectorised)."""
        raise NotImplementedError

    def _scale_time(self, levels, ends):
        return ends

    def node_scales(self, levels, ends, T: int, d: int):
        """Laplace scale per coordinate of the node (level, end), vectorised:
        noise_mult * node_sensitivity(end, or start - 1) * level_count(T) / eps."""
        at = self._scale_time(np.asarray(levels, dtype=np.int64), np.asarray(ends, dtype=np.int64))
        return self.noise_mult * np.asarray(self.node_sensitivity(at, T, d), dtype=float) * self.level_count(T) / self.eps

    def node_scale(self, i: int, t: int, T: int, d: int) -> float:
        """Scale of the level-i node of prefix t's decomposition (block end e = 2^i floor(t/2^i))."""
        e = (t >> i) << i
        return float(self.node_scales(np.array([i]), np.array([e]), T, d)[0])

    def _prepare(self, env, T, d):
        pass

    def _noise_source(self, env, T, runs, d, rng):
        self._prepare(env, T, d)
        return TreeNoise(T, (runs, d), lambda lv, e: self.node_scales(lv, e, T, d), rng, tree=self.tree)

    def _etabar(self, scales, d):
        return noise_norm_bound(scales, d, self.zeta)

    def describe(self):
        out = super().describe()
        out.update(tree=self.tree, sensitivity=self.sensitivity)
        return out


class LinUCBDGS(_TreeLinUCB):
    """Private LinUCB with dynamic global sensitivity (seed 004 Algorithms 1-2), (eps, delta)-DP claimed (Thm 1).

    The claim is not established (ERRATA 6: proof gap -- a change of r_j moves every later tree node, not only the
    ~log T nodes containing j); ERRATA 7: not shown to fail for the memoised tree, fails for ``tree="fresh"`` with
    exact sensitivities. ``sensitivity="paper"`` also calibrates Laplace noise per coordinate to the L2
    sensitivity of Lemma 1 with eps/log2 T per node (a pure-DP worst case sqrt(d) larger per node, and
    ceil(log2 T) + 1 levels; docs/formulas/dgs-contextual.md 7.4); ``"strict"`` uses sqrt(d) Delta_t (||v||_1 <= sqrt(d) ||v||_2)
    and eps/(ceil(log2 T) + 1) -- it removes those two accounting errors, not ERRATA 6's. delta' = delta/log2 T in
    both modes, as sheet §0 prescribes (composition over ceil(log2 T) + 1 levels would call for delta/(ceil(log2 T) + 1);
    delta here also absorbs the failure of a bound over contexts, not a DP delta in the usual sense).
    """

    name = "LinUCB-DGS"
    audit_scenario = "linucb-dgs-tree"  # card: audit design (boundcalc.audit.scenarios.DESIGNS)
    audit_rank = 15  # card: its place in `audit --list`
    check_assumptions = "dgs"  # card: regret --check's assumption check (verify.adapters.ASSUMPTION_CHECKS)
    # card: non-private counterpart (budget --by simulation)
    counterpart = ("LinUCB",
                   "LinUCB (seed 004's non-private baseline)")
    source = "seed 004 Algorithms 1-2"
    notion = "approx"
    guarantee = ("(eps, delta)-DP claimed (seed 004 Thm 1), not established: proof gap (ERRATA 6); fails for the "
                 "fresh-noise tree (ERRATA 7); sensitivity='paper' calibrates Laplace to L2 with eps/log2 T "
                 "(docs/formulas/dgs-contextual.md 7.4), 'strict' to L1 with eps/(ceil(log2 T)+1)")
    bound_ids = ("004-thm3", "004-thm3-corrected", "004-cor1")
    # card: seed 004 Cor. 1 runs it with perturbed contexts (the option perturb_sigma), judged by its own check
    bound_options = {"004-cor1": ("perturb_sigma", "dgs-cor1")}

    @classmethod
    def from_context(cls, ctx, budget, perturb_sigma: float = 0.0):
        """LinUCB-DGS (seed 004 Algs. 1-2) with the contextual instance's lam, L, S, zeta and lam0; with
        ``perturb_sigma`` > 0 (bound 004-cor1, seed 004 Cor. 1) contexts perturbed by N(0, sigma^2 I) and lambda0
        left to the algorithm, which then uses sigma^2 (Cor. 1)."""
        lam0 = None if perturb_sigma else ctx["lam0"]
        return cls(budget.epsilon, budget.delta, lam=ctx["lam"], L=ctx["L"], S=ctx["S"], zeta=ctx["zeta"],
                   lambda0=lam0, perturb_sigma=perturb_sigma)

    def bound_option_conflict(self, option: str) -> str:
        """With perturb_sigma, a lambda0 other than sigma^2 is not the algorithm of seed 004 Cor. 1."""
        if option == "perturb_sigma" and self.lambda0 is not None and not math.isclose(
                self.lambda0, self.perturb_sigma**2, rel_tol=1e-9, abs_tol=1e-9):
            return (f"LinUCB-DGS's lambda0 = {self.lambda0!r} with perturbed contexts: seed 004 Cor. 1 uses sigma^2")
        return ""

    def __init__(self, eps: float = 2.0, delta: float = 0.1, lam: float = 1.0, alpha="theory", L: float = 1.0,
                 S: float = 1.0, R: float = 1.0, zeta: float = 0.05, lambda0: float | None = None,
                 schedule: str = "paper", scale_at: str = "end", tree: str = "memo", sensitivity: str = "paper",
                 noise_mult: float = 1.0, perturb_sigma: float = 0.0):
        super().__init__(lam, alpha, L, S, R, zeta)
        self._tree_options(eps, tree, sensitivity, noise_mult)
        self.perturb_sigma = validate.nonnegative("perturb_sigma", perturb_sigma)
        # this instance's bounds: Thm 3 without perturbation, Cor. 1 with it (the class lists all three)
        self.bound_ids = ("004-cor1",) if self.perturb_sigma > 0 else ("004-thm3", "004-thm3-corrected")
        self.delta = validate.open_unit("delta", delta)
        self.lambda0 = None if lambda0 is None else validate.positive("lambda0", lambda0)
        if schedule not in ("paper", "safe"):
            raise InputError("schedule", "one of paper, safe", schedule)
        if scale_at not in ("end", "start"):
            raise InputError("scale_at", "one of end, start", scale_at)
        self.schedule, self.scale_at = schedule, scale_at
        self._lam0 = self.lambda0

    def guarantee_text(self) -> str:
        mode = ("L2 sensitivity with eps/log2 T per node (paper calibration)" if self.sensitivity == "paper"
                else "L1 sensitivity sqrt(d) Delta_t with eps/(ceil(log2 T)+1) per node (strict calibration)")
        tree = ("memoised tree" if self.tree == "memo"
                else "FRESH noise per call: the (eps, delta) claim fails (ERRATA 7) -- audit variant")
        pert = ("" if not self.perturb_sigma else
                f"; contexts perturbed by N(0, {self.perturb_sigma:g}^2 I) and projected onto ||x|| <= L (seed 004 "
                "Cor. 1: the same claim, through Thm 1)")
        return (f"(eps, delta)-DP claimed (seed 004 Thm 1), not established (proof gap, ERRATA 6); {tree}; {mode}; "
                f"rewards must satisfy |r| <= 1{pert}")

    def delta_prime(self, T: int) -> float:
        """delta' = delta/log2 T (seed 004 Alg. 1 line 2; docs/formulas/dgs-contextual.md §0), in both sensitivity modes."""
        return self.delta / math.log2(max(int(T), 2))

    def sensitivity_l2(self, t, T: int):
        """Delta_t, the L2 sensitivity of theta_hat (seed 004 Lemma 1) with the schedules of docs/formulas/dgs-contextual.md §0
        (vectorised in t). ``lambda0`` must be known (set, or taken from the environment at simulation)."""
        lam0 = self._lam0
        if lam0 is None:
            raise InputError("lambda0", "given (or an environment with lambda0) for the Delta_t schedule", None)
        t = np.asarray(t, dtype=float)
        dp = self.delta_prime(T)
        base = 2 * self.L / self.lam
        if self.schedule == "paper":
            late = t > 32 * math.log(1 / dp) / lam0
            return np.where(late, np.minimum(base, 32 * self.L / (lam0 * np.maximum(t, 1.0))), base)
        lg = np.log((t + 3) / dp)
        lp = lam0 * t / 4 - 8 * lg - 2 * np.sqrt(t * lg)
        return 2 * self.L / (self.lam + np.maximum(0.0, lp))

    def node_sensitivity(self, t, T, d):
        """Delta_t ("paper": L2, as seed 004 Alg. 1 uses it) or sqrt(d) Delta_t ("strict": an L1 bound)."""
        s = self.sensitivity_l2(t, T)
        return s if self.sensitivity == "paper" else math.sqrt(d) * s

    def _scale_time(self, levels, ends):
        if self.scale_at == "end":
            return ends
        return np.maximum(1, ends - (np.int64(1) << levels))  # s - 1 with s = e - 2^i + 1

    def lambda0_used(self, env) -> float:
        """The lambda0 of the Delta_t schedule: the given one, else perturb_sigma^2 with the context perturbation
        (seed 004 Cor. 1: lambda0 >= Omega(sigma^2), constant 1), else the environment's."""
        if self.lambda0 is not None:
            return self.lambda0
        return self.perturb_sigma**2 if self.perturb_sigma > 0 else env.lambda0

    def _prepare(self, env, T, d):
        self._lam0 = self.lambda0_used(env)

    def _estimate(self, A_inv, b, eta):
        return np.einsum("nij,nj->ni", A_inv, b) + eta

    # reference: the sheet's formulas written again, scalar
    def _ref_privacy(self):
        return "theta"

    def _ref_node_scale(self, s, e, T, d):
        lam0 = self._lam0
        at = e if self.scale_at == "end" else max(1, s - 1)
        levels = math.log2(max(T, 2)) if self.sensitivity == "paper" else math.ceil(math.log2(T)) + 1
        dp = self.delta / math.log2(max(T, 2))
        if self.schedule == "paper":
            delta_t = 2 * self.L / self.lam
            if at > 32 * math.log(1 / dp) / lam0:
                delta_t = min(delta_t, 32 * self.L / (lam0 * at))
        else:
            lg = math.log((at + 3) / dp)
            lprime = lam0 * at / 4 - 8 * lg - 2 * math.sqrt(at * lg)
            delta_t = 2 * self.L / max(self.lam, self.lam + lprime)
        if self.sensitivity == "strict":
            delta_t *= math.sqrt(d)
        return self.noise_mult * delta_t * levels / self.eps

    def reference(self, env, T, rng, checkpoints, lane: int = 0, lanes: int = 1) -> BlockResult:
        if self.lambda0 is not None:
            self._lam0 = self.lambda0
        elif self.perturb_sigma > 0:  # seed 004 Cor. 1 (written again: sigma^2 stands for lambda0)
            self._lam0 = self.perturb_sigma * self.perturb_sigma
        else:
            self._lam0 = env.lambda0
        return super().reference(env, T, rng, checkpoints, lane=lane, lanes=lanes)


class PrivateLinUCB(_TreeLinUCB):
    """Private LinUCB (Neel & Roth 2018), the baseline of seed 004 Sec. 4, calibrated as in docs/formulas/dgs-contextual.md §0:
    the tree releases noisy prefix sums of b_t = sum_s x_s r_s, theta^p = A^{-1}(b + eta).

    ``sensitivity="paper"`` (default): Laplace per coordinate with scale L log2(T)/eps -- the constant sensitivity
    L that seed 004 §3.1 states ("global sensitivity of b_t ... is a constant L ... |r| <= 1") and eps' = eps/log2 T.
    That is NOT eps-DP: see ``privacy_epsilon`` (2 sqrt(d) (floor(log2 T) + 1)/log2 T times eps).
    ``sensitivity="strict"`` (docs/formulas/dgs-contextual.md §0): scale 2 sqrt(d) L (ceil(log2 T) + 1)/eps, the L1 sensitivity
    of b_t over the tree's levels: pure eps-DP.
    """

    name = "Private-LinUCB"
    audit_scenario = "private-linucb-tree"  # card: audit design (boundcalc.audit.scenarios.DESIGNS)
    audit_rank = 14  # card: its place in `audit --list`
    check_assumptions = "private-linucb"  # card: regret --check's assumption check (verify.adapters.ASSUMPTION_CHECKS)
    counterpart = ("LinUCB", "LinUCB")  # card: non-private counterpart (budget --by simulation)
    source = "seed 004 Sec. 4 baseline (Neel & Roth 2018)"
    notion = "pure"
    guarantee = ("pure DP; eps-DP only with sensitivity='strict'; the paper calibration (default) is "
                 "pure (2 sqrt(d) (floor(log2 T)+1)/log2 T * eps)-DP for |r| <= 1, ||x|| <= L")
    bound_ids = ("private-linucb-neel-roth2018-paper",)

    @classmethod
    def from_context(cls, ctx, budget):
        """Private LinUCB (Neel & Roth 2018) as seed 004 runs it (the default 'paper' calibration, so that the figures'
        curves get the bound drawn); that calibration is not eps-DP (verify.adapters._private_linucb_assumptions)."""
        return cls(budget.epsilon, lam=ctx["lam"], L=ctx["L"], S=ctx["S"], zeta=ctx["zeta"])

    def __init__(self, eps: float = 2.0, lam: float = 1.0, alpha="theory", L: float = 1.0, S: float = 1.0,
                 R: float = 1.0, zeta: float = 0.05, tree: str = "memo", sensitivity: str = "paper",
                 noise_mult: float = 1.0):
        super().__init__(lam, alpha, L, S, R, zeta)
        self._tree_options(eps, tree, sensitivity, noise_mult)

    def node_sensitivity(self, t, T, d):
        """L ("paper": seed 004 §3.1's constant, used as an L2 value) or 2 sqrt(d) L ("strict": the L1
        sensitivity of b_t, max ||x (r - r')||_1 = 2 ||x||_1 <= 2 sqrt(d) L for ||x||_2 <= L, |r| <= 1)."""
        c = self.L if self.sensitivity == "paper" else 2 * math.sqrt(d) * self.L
        return np.full(np.shape(t), c)

    def privacy_epsilon(self, T: int, d: int, reward_range: float = 2.0) -> float:
        """The exact pure-DP parameter of the released stream (b_t + eta_t)_{t <= T} (hence of theta^p and of
        the arms, post-processing), worst case over contexts with ||x||_2 <= L and rewards in an interval of
        length ``reward_range`` (2 for |r| <= 1, seed 004's premise):

            eps_true = reward_range * sqrt(d) * L * (floor(log2 T) + 1) / b,   b = the node scale (``node_scale``).

        Derivation. Neighbouring reward sequences differ in r_j. Given the same past outputs, the contexts played
        are the same, so only the released tree nodes containing j change, each by x_j (r_j - r'_j), whose L1 norm
        is <= reward_range * ||x_j||_1 <= reward_range * sqrt(d) * L (equality for x_j with equal-magnitude
        coordinates). The memoised tree releases, among the nodes containing j, one per level i with
        ceil(j/2^i) odd and ceil(j/2^i) 2^i <= T: at most floor(log2 T) + 1 of them, exactly that many for j = 1.
        Laplace noise of scale b per coordinate turns an L1 shift D into a pure-DP loss D/b (Dwork & Roth 2014,
        Thm 3.6), summed over nodes (adaptive composition), and the loss attains the sum on a set of positive
        probability -- so the bound is exact. With the paper calibration b = L log2(T)/eps:
            eps_true = 2 sqrt(d) (floor(log2 T) + 1)/log2(T) * eps  (e.g. 6.66 eps at d = 10, T = 1e4);
        with the strict one b = 2 sqrt(d) L (ceil(log2 T) + 1)/eps: eps_true = (floor(log2 T) + 1)/(ceil(log2 T) + 1)
        * eps <= eps (equality when T is a power of 2). ``noise_mult`` m divides eps_true by m. (log2 T is read as 1
        at T = 1, as in the node scale.)
        Unbounded rewards (Gaussian noise, as in seed 004's synthetic experiment) give no finite eps."""
        T = validate.horizon("T", T)
        d = validate.count("d", d)
        rr = validate.positive("reward_range", reward_range)
        return rr * math.sqrt(d) * self.L * T.bit_length() / self.node_scale(0, 1, T, d)

    def guarantee_text(self) -> str:
        if self.sensitivity == "strict":
            g = ("pure eps-DP (strict calibration: L1 sensitivity 2 sqrt(d) L, ceil(log2 T)+1 levels) for |r| <= 1, "
                 "||x|| <= L")
        else:
            g = ("pure eps_true-DP with eps_true = 2 sqrt(d) (floor(log2 T)+1)/log2 T * eps, NOT eps-DP (paper "
                 "calibration: Laplace scaled to the L2 value L, eps/log2 T per node) for |r| <= 1, ||x|| <= L")
        if self.noise_mult != 1.0:
            g += f"; noise_mult = {self.noise_mult:g} divides eps_true by it"
        return g + ("" if self.tree == "memo" else "; FRESH noise per call: not the tree mechanism (audit variant)")

    def _estimate(self, A_inv, b, eta):
        return np.einsum("nij,nj->ni", A_inv, b + eta)

    def _etabar(self, scales, d):
        return noise_norm_bound(scales, d, self.zeta) / self.lam  # ||A^{-1} eta_b|| <= ||eta_b|| / lambda

    def _ref_privacy(self):
        return "b"

    def _ref_node_scale(self, s, e, T, d):
        if self.sensitivity == "paper":  # constant L (seed 004 §3.1), eps' = eps/log2 T
            return self.noise_mult * self.L * math.log2(max(T, 2)) / self.eps
        return self.noise_mult * 2 * math.sqrt(d) * self.L * (math.ceil(math.log2(T)) + 1) / self.eps
