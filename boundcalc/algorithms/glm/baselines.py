"""Baselines of seed 002's experiments (Sec. 5, Figures 5.1 / F.1): LDP-UCB and LDP-GLOC of Zheng, Cai, Huang,
Li, Wang, "Locally Differentially Private (Contextual) Bandits Learning", NeurIPS 2020 (arXiv 2006.00701).

Seed 002 names these baselines but does not specify them (docs/formulas/ldp-glm-bandits.md §5). The paper body of Zheng et al.
could not be retrieved here; the steps below are RECONSTRUCTED from two public code bases:

* [Z] the Zheng et al. authors' code, MIFA-Lab/LDPbandit2020 (formerly huang-research-group/LDPbandit2020),
  ``src/linucb.py`` (LDP LinUCB);
* [H] the seed-002 authors' experiment code, liangzp/LDP-Bandit, ``Scheme1/servers/LDP_servers.py``
  (``LDPUCBServer``, ``LDPGLMServer``) and ``Scheme1/mechanisms/LDP.py`` (``OLSMechanism``, ``GLMMechanism``) --
  i.e. the baselines as actually run for seed 002's figures.

Both agree on the LinUCB server below (Upsilon_t, the 2 Upsilon_t ridge and beta_t); they differ in the noise std.

LDP-UCB (a LinUCB variant). Round t (n = t - 1 messages received so far, n_+ = max(n, 1)):
  1. server: Upsilon = sigma sqrt(n_+) (4 sqrt(d) + 2 ln(2T/alpha)); A = V + 2 Upsilon I;
     theta_hat = A^{-1} u;  beta = 2 sigma sqrt(d ln T) + (sqrt(3 Upsilon) + sigma sqrt(d n_+/Upsilon)) d ln T.
  2. user: a_t = argmax_a x_a^T theta_hat + beta ||x_a||_{A^{-1}} (lowest index on ties); observes r_t, clips it
     to [-c_r, c_r] and sends M_t = x x^T + B_t (B_t symmetric, i.i.d. N(0, s_M^2) entries for i <= j) and
     u_t = r_t x + xi_t (xi_t ~ N(0, s_u^2 I)).
  3. server: V += M_t, u += u_t.
LDP-GLOC (a GLOC variant: Jun, Bhargava, Nowak, Willett 2017, "online-to-confidence-set" conversion). The user
also holds the online learner's iterate theta_h and sends three messages:
  M_t = x x^T + B_t,  u_t = z_t x + xi_t with z_t = clip(x^T theta_h, +-z_clip) (the online prediction GLOC
  regresses on),  g_t = (mu(z_t) - r_t) x + xi'_t (the online learner's loss gradient);
  server: V += M_t, u += u_t, theta_tilde = (V + 2 Upsilon I)^{-1} u (ridge on the predictions, as GLOC),
  theta_h <- theta_h - zeta g_t with zeta = step / sqrt(T) ([H]: online gradient descent, where GLOC uses the
  online Newton step -- UNCERTAIN (reconstructed)); a_t = argmax x^T theta_tilde + beta ||x||_{A^{-1}} with
  beta = sqrt(sigma sqrt(d n_+) / kappa) ([H]; kappa = inf mu' = env.zeta by default).

Noise std sigma (``calibration``), UNCERTAIN (reconstructed): the three codes disagree and none matches the
sensitivity exactly; all are offered, and ``sigma=`` overrides them:
* ``"han-code"`` (default; what seed 002's figures used, [H]): every entry std 6 sqrt(2 ln(2.5/delta))/eps
  (LDP-UCB), 6 sqrt(2 ln(3.75/delta))/eps (LDP-GLOC: delta split over three messages);
* ``"zheng-code"`` (LDP-UCB only, [Z]): 4 sqrt(ln(1.25/delta))/eps as coded; the comment beside it reads
  4 sqrt(2 ln(1.25/delta))/eps;
* ``"gaussian"`` (derived here from the Gaussian mechanism, seed 002 Lemma 2.1, classical regime): the budget is
  split evenly over the k messages (k = 2 for LDP-UCB, 3 for LDP-GLOC), each (eps/k, delta/k)-LDP with
  std = Delta sqrt(2 ln(1.25 k/delta))/(eps/k), where Delta is the L2 sensitivity: sqrt(2) C_B^2 for the upper
  triangle of x x^T (sheet 1.4), 2 c_r C_B for r x, 2 z_clip C_B for z x, 2 G C_B for the gradient with
  G = max(|mu(-z_clip)|, |mu(z_clip)|) + c_r (|mu(z) - r| <= G).
The confidence radius uses the largest std of the messages it sums (V: s_M, u: s_u), sigma = max(s_M, s_u).

Other UNCERTAIN (reconstructed) choices, all parameters: alpha (failure probability; [Z] and [H] default 0.1),
V_0 = 0 ([Z]; [H] starts LDP-UCB at V = I, ignored here), theta_h starts at 0 ([H] draws a random unit vector),
z_clip = 5 ([H] clips x^T theta_h to [-5, 5] inside mu only), step = 1 ([H]: zeta = 1/sqrt(T)).
``noise_mult`` (default 1) multiplies every message-noise std (and so the sigma of the confidence radius): other values
are the deliberately mis-calibrated copies of the privacy audit (boundcalc.audit), not private as stated.
Registered bounds: Zheng et al.'s O~(T^{3/4}/eps) as seed 002 Table 1.1 quotes it (bounds/baselines.py, paper form).
"""

from __future__ import annotations

import math

import numpy as np

from ... import validate
from ...errors import InputError
from ..base import Algorithm, BlockResult


def gaussian_mechanism_std(sensitivity: float, eps: float, delta: float) -> float:
    """sigma = Delta sqrt(2 ln(1.25/delta))/eps (seed 002 Lemma 2.1, Dwork & Roth Thm A.1)."""
    return sensitivity * math.sqrt(2 * math.log(1.25 / delta)) / eps


def _sym_noise(s: float, n: int, d: int, rng: np.random.Generator) -> np.ndarray:
    """n symmetric d x d matrices with i.i.d. N(0, s^2) entries on and above the diagonal."""
    W = np.triu(s * rng.standard_normal((n, d, d)))
    return W + np.transpose(np.triu(W, 1), (0, 2, 1))


class _LDPLinUCBBase(Algorithm):
    setting = "glm"
    notion = "ldp"
    bound_ids: tuple[str, ...] = ()
    granularity = "step"  # the estimate changes every step (boundcalc.algorithms.granularity)
    _calibrations: tuple[str, ...] = ()

    def _common(self, eps, delta, alpha, C_B, c_r, calibration, sigma, noise_mult=1.0):
        self.eps = validate.positive("eps", eps, allow_inf=True)
        self.delta = validate.open_unit("delta", delta)
        self.alpha = validate.open_unit("alpha", alpha)
        self.C_B = validate.positive("C_B", C_B)
        self.c_r = validate.positive("c_r", c_r)
        if calibration not in self._calibrations:
            raise InputError("calibration", "one of " + ", ".join(self._calibrations), calibration)
        self.calibration = calibration
        self.sigma = None if sigma is None else validate.positive("sigma", sigma)
        # 1 = as specified; other values scale every privacy-noise draw (the audit's mutants, boundcalc.audit)
        self.noise_mult = validate.nonnegative("noise_mult", noise_mult)

    def noise_stds(self, env=None) -> tuple[float, float, float]:
        """The message noise stds of ``_stds`` (the calibration) times ``noise_mult``."""
        return tuple(self.noise_mult * s for s in self._stds(env))

    # -- server ---------------------------------------------------------------------------------------------
    @staticmethod
    def upsilon(sigma: float, n: int, d: int, T: int, alpha: float) -> float:
        """Upsilon_t = sigma sqrt(t) (4 sqrt(d) + 2 ln(2T/alpha)) ([Z] update_status, [H] update_params)."""
        return sigma * math.sqrt(max(n, 1)) * (4 * math.sqrt(d) + 2 * math.log(2 * T / alpha))

    def _check(self, env, T, checkpoints):
        T = validate.horizon("T", T)
        if getattr(env, "multi", False) or getattr(env, "setting", None) != "glm":
            raise InputError("env", f"a single-parameter GLM instance for {self.name}", getattr(env, "name", env))
        c = np.asarray(checkpoints, dtype=float).ravel()
        if c.size == 0 or np.any(~np.isfinite(c)) or np.any(c < 0) or np.any(c > T):
            raise InputError("checkpoints", f"non-empty values in [0, T = {T}]", c.tolist()[:5])
        return T, c

    def simulate(self, env, T, runs, rng, checkpoints) -> BlockResult:
        """Runs vectorised: per-step loop over t, state arrays (runs, d, d) / (runs, d)."""
        T, cps = self._check(env, T, checkpoints)
        runs = validate.count("runs", runs)
        d, I = env.d, np.eye(env.d)
        st = self._init(env, runs)
        cps_int = np.ceil(cps).astype(np.int64)
        out = np.zeros((runs, cps.size))
        cum = np.zeros(runs)
        ridx = np.arange(runs)
        for t in range(1, T + 1):
            n = t - 1
            ups = self.upsilon(st["sig"], n, d, T, self.alpha) if st["sig"] > 0 else 0.0
            A = st["V"] + (2 * ups + 1e-12) * I
            try:
                Ainv = np.linalg.inv(A)
            except np.linalg.LinAlgError:
                Ainv = np.linalg.pinv(A)
            theta = np.einsum("nij,nj->ni", Ainv, st["u"])
            X = env.contexts(rng, (runs,))  # (runs, K, d)
            width = np.sqrt(np.maximum(np.einsum("nki,nij,nkj->nk", X, Ainv, X), 0.0))
            score = np.einsum("nkd,nd->nk", X, theta) + self._beta(st["sig"], ups, n, d, T, st) * width
            a = np.argmax(score, axis=1)
            x = X[ridx, a]
            z = X @ env.theta
            r = env.rewards(z[ridx, a], rng)
            self._send(st, x, r, env, T, rng)
            mz = env.mu(z)
            cum += mz.max(axis=1) - mz[ridx, a]
            out[:, cps_int == t] = cum[:, None]
        return BlockResult(regret=out, pulls=np.zeros((runs, 0)), episodes=np.full(runs, T), extra={})

    def reference(self, env, T, rng, checkpoints) -> BlockResult:
        """One run, step by step with scalar loops over the arms (independent of ``simulate``'s batching)."""
        T, cps = self._check(env, T, checkpoints)
        d, K = env.d, env.K
        sM, su, sg = self.noise_stds(env)
        sig = max(sM, su)
        V, u = np.zeros((d, d)), np.zeros(d)
        th_h = np.zeros(d)
        cum, out = 0.0, np.zeros((1, cps.size))
        cps_int = np.ceil(cps).astype(np.int64)
        for t in range(1, T + 1):
            n = t - 1
            ups = self.upsilon(sig, n, d, T, self.alpha) if sig > 0 else 0.0
            A = V + (2 * ups + 1e-12) * np.eye(d)
            # one pseudo-inverse per step, with lstsq's cut-off (singular values below eps·d·s_max dropped): A⁺ b is
            # lstsq's minimum-norm solution for every b (equal to rounding, ~2e-15 relative), with K + 1 = 11 times
            # fewer decompositions. Where arms tie exactly (the first rounds: θ = 0 and unit contexts give every arm
            # the same index) rounding picks the arm, as it did with one lstsq per arm: a run may then take another
            # path (the algorithm does not say which arm wins a tie; the tests compare laws, not paths)
            A_pinv = np.linalg.pinv(A, rcond=np.finfo(float).eps * d)
            theta = A_pinv @ u
            beta = self._beta(sig, ups, n, d, T, {"kappa": self._kappa(env)})
            ctx = env.contexts(rng, ())  # (K, d)
            best_a, best_s = 0, -np.inf
            for k in range(K):
                xk = ctx[k]
                q = float(xk @ (A_pinv @ xk))
                s = float(xk @ theta) + beta * math.sqrt(max(q, 0.0))
                if s > best_s:
                    best_a, best_s = k, s
            x = ctx[best_a]
            zs = ctx @ env.theta
            r = float(env.rewards(np.array([zs[best_a]]), rng)[0])
            r = min(max(r, -self.c_r), self.c_r)
            Bm = np.zeros((d, d))
            for i in range(d):
                for j in range(i, d):
                    Bm[i, j] = Bm[j, i] = sM * rng.standard_normal()
            V += np.outer(x, x) + Bm
            if self._three:
                zh = min(max(float(x @ th_h), -self.z_clip), self.z_clip)
                u += zh * x + su * rng.standard_normal(d)
                g = (float(env.mu(zh)) - r) * x + sg * rng.standard_normal(d)
                th_h = th_h - self.step / math.sqrt(T) * g
            else:
                u += r * x + su * rng.standard_normal(d)
            mz = env.mu(zs)
            cum += float(mz.max() - mz[best_a])
            out[0, cps_int == t] = cum
        return BlockResult(regret=out, pulls=np.zeros((1, 0)), episodes=np.full(1, T), extra={})

    def _init(self, env, runs):
        d = env.d
        sM, su, sg = self.noise_stds(env)
        return {"V": np.zeros((runs, d, d)), "u": np.zeros((runs, d)), "th_h": np.zeros((runs, d)),
                "sM": sM, "su": su, "sg": sg, "sig": max(sM, su), "kappa": self._kappa(env)}

    def _kappa(self, env):
        return None


class LDPUCB(_LDPLinUCBBase):
    """LDP-UCB: LinUCB on Gaussian-perturbed x x^T and r x, (eps, delta)-LDP for ``calibration="gaussian"``
    (Zheng et al. NeurIPS 2020, LDP linear contextual bandits; reconstructed from [Z] src/linucb.py and [H]
    LDPUCBServer/OLSMechanism, see the module docstring). Linear link only (it regresses r on x)."""

    name = "LDP-UCB"
    audit_scenario = "ldp-ucb-release"  # card: audit design (boundcalc.audit.scenarios.DESIGNS)
    audit_rank = 20  # card: its place in `audit --list`
    check_assumptions = "zheng"  # card: regret --check's assumption check (verify.adapters.ASSUMPTION_CHECKS)
    bound_ids: tuple[str, ...] = ("ldp-ucb-zheng2020-paper",)
    source = ("Zheng, Cai, Huang, Li, Wang (NeurIPS 2020), LDP LinUCB; reconstructed from MIFA-Lab/LDPbandit2020 "
              "src/linucb.py and liangzp/LDP-Bandit LDPUCBServer (baseline of seed 002 Sec. 5)")
    _calibrations = ("han-code", "zheng-code", "gaussian")
    _three = False

    @classmethod
    def from_context(cls, ctx, budget):
        """Card: the instance regret --check simulates for a bound's context ``ctx`` at ``budget``."""
        return cls(budget.epsilon, budget.delta, C_B=ctx["C_B"], c_r=ctx["c_r"])

    def __init__(self, eps: float = 1.0, delta: float = 0.01, alpha: float = 0.1, C_B: float = 1.0,
                 c_r: float = 1.0, calibration: str = "han-code", sigma: float | None = None, noise_mult: float = 1.0):
        self._common(eps, delta, alpha, C_B, c_r, calibration, sigma, noise_mult)

    def _stds(self, env=None) -> tuple[float, float, float]:
        """(std of an entry of B_t, std of an entry of xi_t, 0) -- UNCERTAIN (reconstructed), see module doc."""
        if self.sigma is not None:
            return self.sigma, self.sigma, 0.0
        if math.isinf(self.eps):
            return 0.0, 0.0, 0.0
        if self.calibration == "han-code":
            s = 6 * math.sqrt(2 * math.log(2.5 / self.delta)) / self.eps
            return s, s, 0.0
        if self.calibration == "zheng-code":
            s = 4 * math.sqrt(math.log(1.25 / self.delta)) / self.eps
            return s, s, 0.0
        e, dl = self.eps / 2, self.delta / 2
        return (gaussian_mechanism_std(math.sqrt(2) * self.C_B**2, e, dl),
                gaussian_mechanism_std(2 * self.c_r * self.C_B, e, dl), 0.0)

    def release(self, x, r, rng):
        """The user's messages (M_t, u_t) for rows x (n, d) and rewards r (n,)."""
        n, d = x.shape
        sM, su, _ = self.noise_stds()
        r = np.clip(r, -self.c_r, self.c_r)
        return x[:, :, None] * x[:, None, :] + _sym_noise(sM, n, d, rng), x * r[:, None] + su * rng.standard_normal((n, d))

    def _beta(self, sig, ups, n, d, T, st):
        """beta_t = 2 sigma sqrt(d ln T) + (sqrt(3 Upsilon) + sigma sqrt(d t/Upsilon)) d ln T ([Z], [H])."""
        if sig <= 0 or ups <= 0:
            return 0.0
        lT = math.log(max(T, 2))
        return 2 * sig * math.sqrt(d * lT) + (math.sqrt(3 * ups) + sig * math.sqrt(d * max(n, 1) / ups)) * d * lT

    def _send(self, st, x, r, env, T, rng):
        M, u = self.release(x, r, rng)
        st["V"] += M
        st["u"] += u


class LDPGLOC(_LDPLinUCBBase):
    """LDP-GLOC: GLOC (online learner + ridge on its predictions + UCB) on Gaussian-perturbed x x^T, z x and the
    loss gradient, (eps, delta)-LDP for ``calibration="gaussian"`` (Zheng et al. NeurIPS 2020, LDP generalized
    linear bandits; reconstructed from [H] LDPGLMServer/GLMMechanism, see the module docstring). Any link."""

    name = "LDP-GLOC"
    audit_scenario = "ldp-gloc-release"  # card: audit design (boundcalc.audit.scenarios.DESIGNS)
    audit_rank = 21  # card: its place in `audit --list`
    check_assumptions = "zheng"  # card: regret --check's assumption check (verify.adapters.ASSUMPTION_CHECKS)
    bound_ids: tuple[str, ...] = ("ldp-gloc-zheng2020-paper",)
    source = ("Zheng, Cai, Huang, Li, Wang (NeurIPS 2020), LDP GLM bandits (GLOC variant); reconstructed from "
              "liangzp/LDP-Bandit LDPGLMServer/GLMMechanism (baseline of seed 002 Sec. 5)")
    _calibrations = ("han-code", "gaussian")
    _three = True

    @classmethod
    def from_context(cls, ctx, budget):
        """Card: the instance regret --check simulates for a bound's context ``ctx`` at ``budget``."""
        return cls(budget.epsilon, budget.delta, C_B=ctx["C_B"], c_r=ctx["c_r"])

    def __init__(self, eps: float = 1.0, delta: float = 0.01, alpha: float = 0.1, C_B: float = 1.0,
                 c_r: float = 1.0, calibration: str = "han-code", sigma: float | None = None, step: float = 1.0,
                 z_clip: float = 5.0, kappa: float | None = None, noise_mult: float = 1.0):
        self._common(eps, delta, alpha, C_B, c_r, calibration, sigma, noise_mult)
        self.step = validate.positive("step", step)
        self.z_clip = validate.positive("z_clip", z_clip)
        self.kappa = None if kappa is None else validate.positive("kappa", kappa)

    def _kappa(self, env):
        return self.kappa if self.kappa is not None else env.zeta

    def _stds(self, env=None) -> tuple[float, float, float]:
        """(std of B_t entries, of xi_t (z x message), of xi'_t (gradient message)) -- UNCERTAIN (reconstructed).
        ``env`` is needed for ``calibration="gaussian"`` (gradient sensitivity through mu)."""
        if self.sigma is not None:
            return self.sigma, self.sigma, self.sigma
        if math.isinf(self.eps):
            return 0.0, 0.0, 0.0
        if self.calibration == "han-code":
            s = 6 * math.sqrt(2 * math.log(3.75 / self.delta)) / self.eps
            return s, s, s
        if env is None:
            raise InputError("env", "given for calibration='gaussian' (gradient sensitivity uses mu)", None)
        e, dl = self.eps / 3, self.delta / 3
        G = float(max(abs(env.mu(-self.z_clip)), abs(env.mu(self.z_clip)))) + self.c_r
        return (gaussian_mechanism_std(math.sqrt(2) * self.C_B**2, e, dl),
                gaussian_mechanism_std(2 * self.z_clip * self.C_B, e, dl),
                gaussian_mechanism_std(2 * G * self.C_B, e, dl))

    def release(self, x, r, theta_h, env, rng):
        """The user's messages (M_t, u_t, g_t) for rows x (n, d), rewards r (n,), online iterates theta_h (n, d)."""
        n, d = x.shape
        sM, su, sg = self.noise_stds(env)
        r = np.clip(r, -self.c_r, self.c_r)
        z = np.clip(np.einsum("nd,nd->n", x, theta_h), -self.z_clip, self.z_clip)
        M = x[:, :, None] * x[:, None, :] + _sym_noise(sM, n, d, rng)
        u = x * z[:, None] + su * rng.standard_normal((n, d))
        g = x * (env.mu(z) - r)[:, None] + sg * rng.standard_normal((n, d))
        return M, u, g

    def _beta(self, sig, ups, n, d, T, st):
        """beta_t = sqrt(sigma sqrt(d t)/kappa) ([H] LDPGLMServer.update_params)."""
        if sig <= 0:
            return 0.0
        return math.sqrt(sig * math.sqrt(d * max(n, 1)) / st["kappa"])

    def _send(self, st, x, r, env, T, rng):
        M, u, g = self.release(x, r, st["th_h"], env, rng)
        st["V"] += M
        st["u"] += u
        st["th_h"] = st["th_h"] - self.step / math.sqrt(T) * g
