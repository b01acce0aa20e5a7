"""Locally private multi-parameter GLM bandit (seed 002 Algorithm 2): warm-up, elimination, greedy steps and
synthetic updates, with the OLS (Eq. 3.3-3.4) or SGD (Eq. 3.5-3.6) mechanism and estimator per arm.

Setting (seed 002 Sec. 4, ``boundcalc.envs.glm.MultiGLMEnv``): one context X_t in R^d per round, one parameter
theta*_i per arm, reward mu(X_t^T theta*_{a_t}) + noise.

Algorithm 2 as implemented (sheet docs/formulas/ldp-glm-bandits.md 2.4 with the §0 corrections, which override the body):

1. Warm-up, t = 1..K s0: pull a_t = (t mod K) + 1 (1-based; arm index t mod K here), independent of the context.
   Only the pulled arm receives a message Z_{t,a_t} = psi(X_t, r_t; theta_hat_{t-1,a_t}) (Algorithm 2 line 6).
2. Main phase, t = K s0 + 1..T:
   * elimination (Eq. 4.1) with the FROZEN warm-up estimates theta_hat_{K s0, .}:
     K_hat_t = {a : s_a > max_a' s_a' - h/2}, s_a = mu(X_t^T theta_hat_{K s0, a}) (``elim_scale="mu"``, the
     scale of Lemma D.1 and of the sheet) or s_a = X_t^T theta_hat_{K s0, a} (``elim_scale="linear"``, the scale
     printed in (4.1)); identical for the linear link;
   * greedy: a_t = argmax_{a in K_hat_t} mu(X_t^T theta_hat_{t-1, a}); mu is strictly increasing, so the argmax is
     taken on the linear scores (no ties from floating-point saturation of mu); ties -> lowest index;
   * every arm i gets a message: psi(X_t, r_t; theta_hat_{t-1,i}) if i = a_t, else the SYNTHETIC update
     psi(0, 0; theta_hat_{t-1,i}); each message uses the (eps/2, delta/2) mechanism (Props 4.1/4.2, sheet 1.6);
     the noise is drawn independently for every round AND every arm (sheet §0);
   * the server updates every arm's estimator from that arm's own message stream.
3. Privacy: the (eps/2, delta/2) mechanisms are used in the warm-up too (sheet §0).

LDP-OLS (multi-parameter), class ``LDPOLSMulti``:
  message (M, u) = (x x^T + W, r x + xi), synthetic (W, xi); W symmetric, i.i.d. N(0, s_W^2) entries for i <= j,
  xi ~ N(0, s_xi^2 I). ``calibration="paper"``: s_W = 2 C_B sigma_{eps/2,delta/2}, s_xi = C_B c_r sigma_{eps/2,delta/2},
  sigma_{e,d} = 2 sqrt(2 ln(1.25/d))/e (Eq. 3.3 at the halved budget); ``"safe"``: each part (eps/4, delta/4)-LDP
  with the audited sensitivities sqrt(2) C_B^2 and 2 c_r C_B (sheet 1.4 applied to the (eps/2, delta/2) message).
  Estimator (proof of Lemma D.9, sheet 2.4 item 3): theta_hat_{t,i} = U_{t,i}^{-1} sum_s (messages u of arm i),
  U_{t,i} = sum_s (messages M of arm i) + c~ sqrt(t) I, with the GLOBAL round t and
  c~ = s_W (4 sqrt(d) + 2 ln(2 T K/alpha)) (sheet §0: 2TK in the multi-parameter case; = 2 sigma_{eps/2,delta/2}(...)
  of Thm 4.1 at C_B = 1). ``shift=False`` drops the c~ sqrt(t) I term (the authors' code; cheap alternative).
LDP-SGD (multi-parameter), class ``LDPSGDMulti``:
  message Psi_{eps/2,R}(g), g = (mu(x^T theta_hat_{t-1,i}) - r) x clipped to norm R = 2 c_r C_B (post-processing,
  sheet 1.5); synthetic message Psi_{eps/2,R}(0) = a uniform point on the radius-r_{eps/2,d} sphere (sheet 1.3
  reading of Psi(0)). Update theta_hat_{t,i} = theta_hat_{t-1,i} - eta_t Z_{t,i} with the step of sheet §0:
  eta = c'/(zeta kappa_l p' n), n = ceil(t/K) (the arm's own warm-up count) in the warm-up, then
  eta_t = c' F/(zeta kappa_l p' (t - (K-1) s0)) with F = 2K (``step_factor=None``); ``step_factor`` = K_opt gives
  the sheet-2.4 "recommended" reading (proof of Lemma D.4). ``project=True`` projects every theta_hat on the unit
  ball (off by default, sheet §0).

Ambiguity choices (all inputs; defaults in brackets):
* s0 [None -> ceil(3000/K): the authors' code uses a total warm-up K s0 = 3000, sheet §0]; Thm 4.1's s0 has an
  unspecified constant C, so it is an input;
* h [inf: no elimination, the authors' code and sheet §0]; elimination scale [mu, Lemma D.1];
* kappa_l [0.085], p' [0.5], zeta [env's inf mu'], c' [1]: step-size constants the paper leaves open;
* rewards are clipped to [-c_r, c_r] before release (|r| <= c_r is assumed by the privacy proofs);
* eps = inf gives the non-private limit (no noise, Psi = identity).
If T <= K s0 the whole horizon is warm-up. The baselines LDP-UCB / LDP-GLOC (Zheng et al. 2020) are named but not
specified in the sheet or the seed, and are not implemented.

``simulate`` loops over t and vectorises across runs and arms; ``reference`` is a separate plain single-run loop
(scalar Python over t and arms, explicit d x d matrices, its own L2-ball mechanism written from sheet 1.3),
drawing the same kinds of random variables in a different order, for distributional-agreement tests.
"""

from __future__ import annotations

import math

import numpy as np

from ... import validate
from ...errors import InputError
from ..base import Algorithm, BlockResult
from .ldp import LDPOLS, l2_ball_mechanism, l2_ball_radius


class _Multi(Algorithm):
    setting = "glm"
    granularity = "step"  # ``simulate`` loops over every t (was taken for "episode": no T x runs limit, issue 17 §3)
    notion = "ldp"

    def _common(self, s0, h, elim_scale, C_B, c_r):
        self.s0 = None if s0 is None else validate.count("s0", s0, minimum=0)
        self.h = validate.positive("h", h, allow_inf=True)
        if elim_scale not in ("mu", "linear"):
            raise InputError("elim_scale", "one of mu, linear", elim_scale)
        self.elim_scale = elim_scale
        self.C_B = validate.positive("C_B", C_B)
        self.c_r = validate.positive("c_r", c_r)

    def warmup_length(self, K: int) -> int:
        """s0 (per arm); the warm-up lasts K s0 rounds."""
        return int(math.ceil(3000 / K)) if self.s0 is None else self.s0

    @staticmethod
    def _env(env):
        if not getattr(env, "multi", False):
            raise InputError("env", "a multi-parameter GLM environment (MultiGLMEnv)", type(env).__name__)
        return env

    def _check(self, T, checkpoints):
        T = validate.horizon("T", T)
        c = np.asarray(checkpoints, dtype=float).ravel()
        if c.size == 0 or np.any(~np.isfinite(c)) or np.any(c < 0) or np.any(c > T):
            raise InputError("checkpoints", f"non-empty values in [0, T = {T}]", c.tolist()[:5])
        return T, c

    def _eliminate(self, env, Xw):
        """Boolean (runs, K) mask of K_hat_t from the warm-up scores Xw = X^T theta_hat_{K s0, .} (Eq. 4.1)."""
        s = env.mu(Xw) if self.elim_scale == "mu" else Xw
        return s > s.max(axis=-1, keepdims=True) - self.h / 2

    # -- vectorised simulation -----------------------------------------------------------------------------
    def simulate(self, env, T, runs, rng, checkpoints) -> BlockResult:
        env = self._env(env)
        T, cps = self._check(T, checkpoints)
        runs = validate.count("runs", runs)
        K, d = env.K, env.d
        s0 = self.warmup_length(K)
        Tw = K * s0
        st = self._init(env, T, runs)
        cps_int = np.ceil(cps).astype(np.int64)
        out = np.zeros((runs, cps.size))
        cum = np.zeros(runs)
        pulls = np.zeros((runs, K), dtype=np.int64)
        ridx = np.arange(runs)
        theta_w = np.zeros((runs, K, d))
        for t in range(1, T + 1):
            X = env.contexts(rng, (runs,))
            theta = st["theta"]
            if t <= Tw:
                a = np.full(runs, t % K)
            else:
                score = np.einsum("nkd,nd->nk", theta, X)
                keep = self._eliminate(env, np.einsum("nkd,nd->nk", theta_w, X))
                a = np.argmax(np.where(keep, score, -np.inf), axis=1)
            z = X @ env.theta  # (runs, K) true linear scores
            r = env.rewards(z[ridx, a], rng)
            self._update(st, t, X, a, r, t <= Tw, env, T, s0, rng)
            if t == Tw:
                theta_w = st["theta"].copy()
            mz = env.mu(z)
            cum += mz.max(axis=1) - mz[ridx, a]
            pulls[ridx, a] += 1
            out[:, cps_int == t] = cum[:, None]
        err = np.linalg.norm(st["theta"] - env.thetas[None], axis=2)
        return BlockResult(regret=out, pulls=pulls, episodes=np.full(runs, T),
                           extra={"theta_err": err, "warmup_rounds": min(Tw, T)})

    # -- plain reference -----------------------------------------------------------------------------------
    def reference(self, env, T, rng, checkpoints) -> BlockResult:
        """One run, plain loop over t and arms (no vectorisation; independent of ``simulate``'s code)."""
        env = self._env(env)
        T, cps = self._check(T, checkpoints)
        K, d = env.K, env.d
        s0 = self.warmup_length(K)
        st = self._ref_init(env, T)
        theta_w = [np.zeros(d) for _ in range(K)]
        regret, cum = [], 0.0
        pulls = [0] * K
        for t in range(1, T + 1):
            X = env.contexts(rng, ())
            if t <= K * s0:
                a = t % K  # (t mod K) + 1 in 1-based numbering
            else:
                ws = [float(X @ theta_w[i]) for i in range(K)]
                if self.elim_scale == "mu":
                    ws = [float(env.mu(w)) for w in ws]
                top = max(ws)
                a, best = -1, -math.inf
                for i in range(K):
                    if ws[i] > top - self.h / 2:
                        sc = float(X @ st["theta"][i])
                        if sc > best:
                            a, best = i, sc
            means = [float(env.mu(X @ env.thetas[i])) for i in range(K)]
            r = float(env.rewards(np.array(X @ env.thetas[a]), rng))
            self._ref_update(st, t, X, a, r, t <= K * s0, env, T, s0, rng)
            if t == K * s0:
                theta_w = [th.copy() for th in st["theta"]]
            cum += max(means) - means[a]
            pulls[a] += 1
            regret.append(cum)
        reg = np.asarray(regret)
        out = np.array([reg[int(math.ceil(c)) - 1] if c >= 1 else 0.0 for c in cps])
        err = np.array([[np.linalg.norm(st["theta"][i] - env.thetas[i]) for i in range(K)]])
        return BlockResult(regret=out[None], pulls=np.array([pulls]), episodes=np.array([T]),
                           extra={"theta_err": err, "warmup_rounds": min(K * s0, T)})


class LDPOLSMulti(_Multi):
    """LDP-OLS in seed 002 Algorithm 2 (multi-parameter), (eps, delta)-LDP claimed (Prop. 4.1), linear link."""

    name = "LDP-OLS (multi-parameter)"
    audit_scenario = "ldp-ols-multi-release"  # card: audit design (boundcalc.audit.scenarios.DESIGNS)
    audit_rank = 17  # card: its place in `audit --list`
    source = "seed 002 Algorithm 2 with the OLS mechanism/estimator (Eq. 3.3-3.4, Lemma D.9)"
    bound_ids = ("002-thm4.1-ols", "002-thm4.1-ols-corrected")

    def __init__(self, eps: float = 1.0, delta: float = 0.01, alpha: float = 0.05, s0: int | None = None,
                 h: float = math.inf, elim_scale: str = "mu", C_B: float = 1.0, c_r: float = 1.0,
                 calibration: str = "paper", shift: bool = True, noise_mult: float = 1.0):
        self.eps = validate.positive("eps", eps, allow_inf=True)
        self.delta = validate.open_unit("delta", delta)
        self.alpha = validate.open_unit("alpha", alpha)
        self._common(s0, h, elim_scale, C_B, c_r)
        if calibration not in ("paper", "safe"):
            raise InputError("calibration", "one of paper, safe", calibration)
        self.calibration = calibration
        self.shift = bool(shift)
        self.noise_mult = validate.nonnegative("noise_mult", noise_mult)  # 1 = as specified (tests of power)

    def noise_stds(self) -> tuple[float, float]:
        """(std of a W entry, std of a xi entry) of one per-arm message: the (eps/2, delta/2) mechanism (Prop 4.1)."""
        half = LDPOLS(eps=self.eps / 2, delta=self.delta / 2, C_B=self.C_B, c_r=self.c_r, calibration=self.calibration)
        sW, sx = half.noise_stds()
        return self.noise_mult * sW, self.noise_mult * sx

    def ctilde(self, T: int, K: int, d: int) -> float:
        """c~ = s_W (4 sqrt(d) + 2 ln(2TK/alpha)) (seed 002 Thm 4.1; sheet §0), 0 with ``shift=False``."""
        if not self.shift:
            return 0.0
        return self.noise_stds()[0] * (4 * math.sqrt(d) + 2 * math.log(2 * T * K / self.alpha))

    def release_all(self, X, a, r, warm: bool, K: int, rng):
        """All K messages of the users in rows X (n, d), pulled arms a (n,), rewards r (n,).

        Returns (M (n, K, d, d), u (n, K, d), sent (n, K) bool); in the warm-up only the pulled arm's message
        is sent (the others are zero), afterwards non-pulled arms get the synthetic message psi(0, 0)."""
        n, d = X.shape
        sW, sx = self.noise_stds()
        r = np.clip(r, -self.c_r, self.c_r)
        sent = np.zeros((n, K), dtype=bool)
        sent[np.arange(n), a] = True
        if not warm:
            sent[:] = True
        W = np.triu(sW * rng.standard_normal((n, K, d, d)))
        W = W + np.swapaxes(np.triu(W, 1), -1, -2)
        xi = sx * rng.standard_normal((n, K, d))
        own = np.zeros((n, K), dtype=bool)
        own[np.arange(n), a] = True
        M = np.where(own[..., None, None], X[:, None, :, None] * X[:, None, None, :], 0.0) + W
        u = np.where(own[..., None], (r[:, None] * X)[:, None, :], 0.0) + xi
        return M * sent[..., None, None], u * sent[..., None], sent

    def _init(self, env, T, runs):
        K, d = env.K, env.d
        return {"M": np.zeros((runs, K, d, d)), "u": np.zeros((runs, K, d)), "theta": np.zeros((runs, K, d)),
                "ctil": self.ctilde(T, K, d)}

    def _update(self, st, t, X, a, r, warm, env, T, s0, rng):
        M, u, _ = self.release_all(X, a, r, warm, env.K, rng)
        st["M"] += M
        st["u"] += u
        A = st["M"] + (st["ctil"] * math.sqrt(t) + 1e-12) * np.eye(env.d)
        try:
            st["theta"] = np.linalg.solve(A, st["u"][..., None])[..., 0]
        except np.linalg.LinAlgError:
            st["theta"] = np.einsum("nkij,nkj->nki", np.linalg.pinv(A), st["u"])

    # reference ---------------------------------------------------------------------------------------------
    def _ref_init(self, env, T):
        K, d = env.K, env.d
        sig = 2 * math.sqrt(2 * math.log(1.25 / (self.delta / 2))) / (self.eps / 2)  # sigma_{eps/2, delta/2}
        if math.isinf(self.eps):
            sW = sx = 0.0
        elif self.calibration == "paper":
            sW, sx = 2 * self.C_B * sig, self.C_B * self.c_r * sig
        else:  # each part (eps/4, delta/4), audited sensitivities sqrt(2) C_B^2 and 2 c_r C_B (sheet 1.4)
            g = math.sqrt(2 * math.log(1.25 / (self.delta / 4))) / (self.eps / 4)
            sW, sx = math.sqrt(2) * self.C_B**2 * g, 2 * self.c_r * self.C_B * g
        sW, sx = self.noise_mult * sW, self.noise_mult * sx
        ct = sW * (4 * math.sqrt(d) + 2 * math.log(2 * T * K / self.alpha)) if self.shift else 0.0
        return {"U": [np.zeros((d, d)) for _ in range(K)], "v": [np.zeros(d) for _ in range(K)],
                "theta": [np.zeros(d) for _ in range(K)], "sW": sW, "sx": sx, "ct": ct}

    def _ref_update(self, st, t, X, a, r, warm, env, T, s0, rng):
        d, K = env.d, env.K
        r = min(max(r, -self.c_r), self.c_r)
        for i in range(K):
            if warm and i != a:
                continue
            W = np.zeros((d, d))
            for p in range(d):
                for q in range(p, d):
                    W[p, q] = W[q, p] = st["sW"] * rng.standard_normal()
            xi = st["sx"] * rng.standard_normal(d)
            if i == a:
                st["U"][i] = st["U"][i] + np.outer(X, X) + W
                st["v"][i] = st["v"][i] + r * X + xi
            else:  # synthetic update psi(0, 0) = (W, xi)
                st["U"][i] = st["U"][i] + W
                st["v"][i] = st["v"][i] + xi
        for i in range(K):
            A = st["U"][i] + (st["ct"] * math.sqrt(t) + 1e-12) * np.eye(d)
            st["theta"][i] = np.linalg.lstsq(A, st["v"][i], rcond=None)[0]


def _psi_scalar(x, eps, R, rng):
    """Psi_{eps,R}(x) for one vector, written from sheet 1.3 (steps 1-3, Psi(0) uniform on the sphere)."""
    d = x.size
    # radius, first printed form of Lemma 2.2: R sqrt(pi)/2 (e^eps+1)/(e^eps-1) d Gamma((d+1)/2)/Gamma(d/2+1)
    r = R * math.sqrt(math.pi) / 2 * (math.exp(eps) + 1) / math.expm1(eps) * d * math.exp(
        math.lgamma((d + 1) / 2) - math.lgamma(d / 2 + 1)) if eps < 700 else \
        R * math.sqrt(math.pi) / 2 * d * math.exp(math.lgamma((d + 1) / 2) - math.lgamma(d / 2 + 1))
    v = rng.standard_normal(d)
    v = v / math.sqrt(float(v @ v))
    nx = math.sqrt(float(x @ x))
    b = rng.random() < 0.5 + nx / (2 * R)
    xt = x if b else -x
    if nx == 0:
        return r * v
    same_side = rng.random() < math.exp(eps) / (1 + math.exp(eps)) if eps < 700 else True
    side = float(v @ xt)
    if (side > 0) != same_side:  # reflect onto the wanted hemisphere (uniform there by symmetry)
        v = -v
    return r * v


class LDPSGDMulti(_Multi):
    """LDP-SGD in seed 002 Algorithm 2 (multi-parameter), eps-LDP claimed (Prop. 4.2), any link."""

    name = "LDP-SGD (multi-parameter)"
    audit_scenario = "ldp-sgd-multi-release"  # card: audit design (boundcalc.audit.scenarios.DESIGNS)
    audit_rank = 19  # card: its place in `audit --list`
    source = "seed 002 Algorithm 2 with the SGD mechanism/estimator (Eq. 3.5-3.6, Lemmas D.4, D.12)"
    bound_ids = ("002-thm4.1-sgd", "002-thm4.1-sgd-corrected")

    def __init__(self, eps: float = 1.0, s0: int | None = None, h: float = math.inf, elim_scale: str = "mu",
                 C_B: float = 1.0, c_r: float = 1.0, kappa_l: float = 0.085, p_prime: float = 0.5,
                 zeta: float | None = None, c_prime: float = 1.0, step_factor: float | None = None,
                 project: bool = False, noise_mult: float = 1.0):
        self.eps = validate.positive("eps", eps, allow_inf=True)
        self._common(s0, h, elim_scale, C_B, c_r)
        self.kappa_l = validate.positive("kappa_l", kappa_l)
        self.p_prime = validate.probability("p_prime", p_prime)
        if self.p_prime == 0:
            raise InputError("p_prime", "in (0, 1]", p_prime)
        self.zeta = None if zeta is None else validate.positive("zeta", zeta)
        self.c_prime = validate.positive("c_prime", c_prime)
        self.step_factor = None if step_factor is None else validate.positive("step_factor", step_factor)
        self.project = bool(project)
        self.noise_mult = validate.positive("noise_mult", noise_mult)  # scales the ball radius (tests of power)

    @property
    def R(self) -> float:
        return 2 * self.c_r * self.C_B

    def radius(self, d: int) -> float:
        """Norm of every message: r_{eps/2,d} of Psi_{eps/2,R} (Prop 4.2, sheet 1.6)."""
        return self.noise_mult * l2_ball_radius(self.eps / 2, d, self.R)

    def step(self, t: int, K: int, s0: int, zeta: float) -> float:
        """eta_t of sheet §0: c'/(zeta kappa_l p' ceil(t/K)) in the warm-up, c' F/(zeta kappa_l p' (t-(K-1)s0))
        after (F = 2K unless ``step_factor``)."""
        base = self.c_prime / (zeta * self.kappa_l * self.p_prime)
        if t <= K * s0:
            return base / math.ceil(t / K)
        F = 2 * K if self.step_factor is None else self.step_factor
        return base * F / (t - (K - 1) * s0)

    def release_all(self, X, a, g, warm: bool, K: int, rng):
        """Messages Z (n, K, d): Psi_{eps/2,R}(g) for the pulled arm (g (n, d) its clipped gradient), Psi(0) for
        the others after the warm-up, 0 (nothing sent) for the others during the warm-up."""
        n, d = X.shape
        G = np.zeros((n, K, d))
        G[np.arange(n), a] = g
        if math.isinf(self.eps):
            Z = G
        else:
            Z = l2_ball_mechanism(G.reshape(n * K, d), self.eps / 2, self.R, rng).reshape(n, K, d) * self.noise_mult
        if warm:
            own = np.zeros((n, K, 1))
            own[np.arange(n), a] = 1.0
            Z = Z * own
        return Z

    def _grad(self, env, X, th, r):
        g = (env.mu(np.einsum("nd,nd->n", X, th)) - r)[:, None] * X
        nrm = np.linalg.norm(g, axis=1, keepdims=True)
        return g * np.minimum(1.0, self.R / np.maximum(nrm, 1e-300))

    def _init(self, env, T, runs):
        return {"theta": np.zeros((runs, env.K, env.d)), "zeta": env.zeta if self.zeta is None else self.zeta}

    def _update(self, st, t, X, a, r, warm, env, T, s0, rng):
        th = st["theta"]
        n = X.shape[0]
        r = np.clip(r, -self.c_r, self.c_r)
        g = self._grad(env, X, th[np.arange(n), a], r)
        Z = self.release_all(X, a, g, warm, env.K, rng)
        th = th - self.step(t, env.K, s0, st["zeta"]) * Z
        if self.project:
            th = th / np.maximum(1.0, np.linalg.norm(th, axis=2, keepdims=True))
        st["theta"] = th

    # reference ---------------------------------------------------------------------------------------------
    def _ref_init(self, env, T):
        return {"theta": [np.zeros(env.d) for _ in range(env.K)], "zeta": env.zeta if self.zeta is None else self.zeta}

    def _ref_update(self, st, t, X, a, r, warm, env, T, s0, rng):
        K = env.K
        r = min(max(r, -self.c_r), self.c_r)
        kz = st["zeta"] * self.kappa_l * self.p_prime
        if warm:
            eta = self.c_prime / (kz * math.ceil(t / K))
        else:
            eta = self.c_prime * (2 * K if self.step_factor is None else self.step_factor) / (kz * (t - (K - 1) * s0))
        for i in range(K):
            if warm and i != a:
                continue
            if i == a:
                g = (float(env.mu(X @ st["theta"][i])) - r) * X
                ng = math.sqrt(float(g @ g))
                if ng > self.R:
                    g = g * (self.R / ng)
            else:
                g = np.zeros(env.d)  # synthetic update psi(0, 0)
            Z = g if math.isinf(self.eps) else self.noise_mult * _psi_scalar(g, self.eps / 2, self.R, rng)
            th = st["theta"][i] - eta * Z
            if self.project:
                nt = math.sqrt(float(th @ th))
                if nt > 1:
                    th = th / nt
            st["theta"][i] = th
