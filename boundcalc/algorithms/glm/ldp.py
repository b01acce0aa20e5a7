"""Locally private greedy GLM bandits (seed 002 Algorithm 1): LDP-OLS and LDP-SGD, single parameter.

Protocol (seed 002 Fig. 2.1): the user gets theta_hat_{t-1}, plays the greedy arm
a_t = argmax_a x_{t,a}^T theta_hat_{t-1} (lowest index on ties), observes r_t and sends one privatised message.

* LDP-OLS (Eq. 3.3-3.4, linear link): M_t = x x^T + W_t (W symmetric, i.i.d. N(0, s_W^2) entries for i <= j),
  u_t = r_t x + xi_t (xi ~ N(0, s_xi^2 I)); server theta_hat_t = (sum M + c~ sqrt(t) I)^{-1} sum u,
  c~ = s_W (4 sqrt(d) + 2 log(2T/alpha)) (docs/formulas/ldp-glm-bandits.md §0).
  ``calibration="paper"``: s_W = 2 C_B sigma_{eps,delta}, s_xi = C_B c_r sigma_{eps,delta},
  sigma_{eps,delta} = 2 sqrt(2 ln(1.25/delta))/eps (as printed; ERRATA 8: the pair is still (1, 1.4e-4)-LDP at
  C_B = 1). ``"safe"``: s_W = sqrt(2) C_B^2 sqrt(2 ln(2.5/delta))/(eps/2), s_xi = 2 c_r C_B sqrt(2 ln(2.5/delta))/(eps/2)
  (each part (eps/2, delta/2)-LDP, sheet 1.4).
* LDP-SGD (Eq. 3.5-3.6): Z_t = Psi_{eps,R}(g_t), g_t = (mu(x^T theta_hat) - r) x clipped to norm R = 2 c_r C_B
  (clipping is the user's own post-processing, sheet 1.5), theta_hat_t = theta_hat_{t-1} - eta_t Z_t with
  eta_t = c' d/(kappa_l zeta p_* t) (Theorem 3.1; c' = 1 by default, sheet §0). ``project=True`` projects
  theta_hat on the unit ball (off by default, sheet §0).
Rewards are clipped to [-c_r, c_r] before release (|r| <= c_r is assumed by the privacy proofs).
LDP-OLS's ``noise_mult`` (default 1) multiplies its message noise: other values are the deliberately
mis-calibrated copies of the privacy audit (boundcalc.audit: 0.5 noise halved, 0 no noise), not private as
stated. ``LDPSGD.release`` is the user's message alone (the audit reads it with a fixed public estimate).

The estimate changes every step: ``simulate`` loops over t vectorised across runs. ``reference`` is a separate
plain step-by-step implementation (``boundcalc.algorithms.glm.reference``, written from seed 002 Algorithm 1 and the
sheet, sharing no code with this module) that consumes the same random stream in the same order -- per step: the
(runs, K, d) decision sets, one reward per run, then the mechanism's draws (OLS: the (runs, d, d) normals of W, whose
upper triangle is used, then the (runs, d) normals of xi; SGD: Psi's (runs,) uniforms for the sign, (runs, d) normals
for the direction, (runs,) uniforms for the hemisphere); nothing is drawn when eps = inf (no mechanism). So run j of a
``simulate`` block equals ``reference(..., lane=j, lanes=runs)`` up to floating-point rounding.
``eps=inf`` gives the non-private greedy limits. These single-parameter algorithms take the single-parameter GLM
instances only (``ldp-single``, ``ldp-logistic``); the multi-parameter instances need Algorithm 2
(``LDP-OLS (multi-parameter)``, ``LDP-SGD (multi-parameter)``).
"""

from __future__ import annotations

import math

import numpy as np

from ... import validate
from ...errors import InputError
from ..base import Algorithm, BlockResult


def l2_ball_radius(eps: float, d: int, R: float) -> float:
    """r_{eps,d} = R sqrt(pi) (e^eps + 1)/(e^eps - 1) Gamma((d+1)/2)/Gamma(d/2) (seed 002 Lemma 2.2)."""
    return R * math.sqrt(math.pi) / math.tanh(eps / 2) * math.exp(math.lgamma((d + 1) / 2) - math.lgamma(d / 2))


def l2_ball_mechanism(x: np.ndarray, eps: float, R: float, rng: np.random.Generator) -> np.ndarray:
    """Psi_{eps,R} of Duchi–Jordan–Wainwright (seed 002 Lemma 2.2), rows of x (n, d) with ||x|| <= R.
    x = 0 gives a uniform point on the sphere (sheet 1.3 reading)."""
    x = np.atleast_2d(np.asarray(x, dtype=float))
    n, d = x.shape
    nrm = np.linalg.norm(x, axis=1)
    sgn = np.where(rng.random(n) < 0.5 + nrm / (2 * R), 1.0, -1.0)
    u = x * (sgn / np.where(nrm > 0, nrm, 1.0))[:, None]
    v = rng.standard_normal((n, d))
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    want = np.where(rng.random(n) < 1.0 / (1.0 + math.exp(-eps)), 1.0, -1.0)  # e^eps/(1+e^eps), no overflow
    side = np.sign(np.einsum("nd,nd->n", v, u))
    side[side == 0] = 1.0
    flip = np.where(nrm > 0, side * want, 1.0)
    return l2_ball_radius(eps, d, R) * v * flip[:, None]


def single_parameter_env(env, name: str):
    """``env`` if it is a single-parameter GLM instance, else InputError naming the instances it takes."""
    if getattr(env, "multi", False) or getattr(env, "setting", "glm") != "glm":
        from ...envs.glm import GLM_INSTANCES

        single = ", ".join(k for k in GLM_INSTANCES if not k.startswith("ldp-multi"))
        raise InputError("env", f"a single-parameter GLM instance ({single}) for {name}; on a multi-parameter "
                         f"instance use '{name} (multi-parameter)'", getattr(env, "name", type(env).__name__))
    return env


class _Greedy(Algorithm):
    setting = "glm"
    notion = "ldp"

    def _check(self, T, checkpoints):
        T = validate.horizon("T", T)
        c = np.asarray(checkpoints, dtype=float).ravel()
        if c.size == 0 or np.any(~np.isfinite(c)) or np.any(c < 0) or np.any(c > T):
            raise InputError("checkpoints", f"non-empty values in [0, T = {T}]", c.tolist()[:5])
        return T, c

    def simulate(self, env, T, runs, rng, checkpoints) -> BlockResult:
        env = single_parameter_env(env, self.name)
        T, cps = self._check(T, checkpoints)
        runs = validate.count("runs", runs)
        state = self._init(env, T, runs)
        cps_int = np.ceil(cps).astype(np.int64)
        out = np.zeros((runs, cps.size))
        cum = np.zeros(runs)
        ridx = np.arange(runs)
        for t in range(1, T + 1):
            X = env.contexts(rng, (runs,))
            a = np.argmax((X @ state["theta"][:, :, None])[..., 0], axis=1)
            x = X[ridx, a]
            z = X @ env.theta
            r = env.rewards(z[ridx, a], rng)
            self._update(state, t, x, r, env, T, rng)
            mz = env.mu(z)
            cum += mz.max(axis=1) - mz[ridx, a]
            out[:, cps_int == t] = cum[:, None]
        return BlockResult(regret=out, pulls=np.zeros((runs, 0)), episodes=np.full(runs, T),
                           extra={"theta_err": np.linalg.norm(state["theta"] - env.theta, axis=1)})

    def reference(self, env, T, rng, checkpoints, lane: int = 0, lanes: int = 1) -> BlockResult:
        """Plain step-by-step run written from seed 002 Algorithm 1 (``boundcalc.algorithms.glm.reference``),
        lane ``lane`` of a batch of ``lanes`` runs sharing one stream (``lanes=1``: an ordinary single run)."""
        from .reference import ldp_greedy_reference

        env = single_parameter_env(env, self.name)
        T, cps = self._check(T, checkpoints)
        return ldp_greedy_reference(self, env, T, rng, cps, lane=lane, lanes=lanes)


class LDPOLS(_Greedy):
    """LDP-OLS (seed 002 Algorithm 1 with the OLS update), (eps, delta)-LDP (Prop. 3.1), linear link."""

    name = "LDP-OLS"
    audit_scenario = "ldp-ols-release"  # card: audit design (boundcalc.audit.scenarios.DESIGNS)
    audit_rank = 16  # card: its place in `audit --list`
    context_params = {"alpha": "delta"}  # card: constructor keyword -> bound context key (regret --check, overlay)
    check_assumptions = "glm"  # card: regret --check's assumption check (verify.adapters.ASSUMPTION_CHECKS)
    granularity = "step"  # card: the estimate changes every step
    source = "seed 002 Algorithm 1 (OLS, Eq. 3.3-3.4)"
    bound_ids = ("002-thm3.1-ols", "002-thm3.3-ols")

    @classmethod
    def from_context(cls, ctx, budget):
        """Card: the instance regret --check simulates for a bound's context ``ctx`` at ``budget``."""
        return cls(budget.epsilon, budget.delta, alpha=ctx["delta"], C_B=ctx["C_B"], c_r=ctx["c_r"])

    def __init__(self, eps: float = 1.0, delta: float = 0.01, alpha: float = 0.05, C_B: float = 1.0, c_r: float = 1.0,
                 calibration: str = "paper", shift: bool = True, noise_mult: float = 1.0):
        self.eps = validate.positive("eps", eps, allow_inf=True)
        self.delta = validate.open_unit("delta", delta)
        self.alpha = validate.open_unit("alpha", alpha)
        self.C_B = validate.positive("C_B", C_B)
        self.c_r = validate.positive("c_r", c_r)
        if calibration not in ("paper", "safe"):
            raise InputError("calibration", "one of paper, safe", calibration)
        self.calibration = calibration
        self.shift = bool(shift)
        # 1 = as specified; other values scale every privacy-noise draw (the audit's mutants, boundcalc.audit)
        self.noise_mult = validate.nonnegative("noise_mult", noise_mult)

    def noise_stds(self) -> tuple[float, float]:
        """(std of a W entry, std of a xi entry), times ``noise_mult``."""
        if math.isinf(self.eps):
            return 0.0, 0.0
        if self.calibration == "paper":
            s = 2 * math.sqrt(2 * math.log(1.25 / self.delta)) / self.eps
            return self.noise_mult * 2 * self.C_B * s, self.noise_mult * self.C_B * self.c_r * s
        g = math.sqrt(2 * math.log(2.5 / self.delta)) / (self.eps / 2)
        return self.noise_mult * math.sqrt(2) * self.C_B**2 * g, self.noise_mult * 2 * self.c_r * self.C_B * g

    def release(self, x, r, rng):
        """The user's message (M, u) for rows x (n, d) and rewards r (n,) (Eq. 3.3); no noise (and no draw) at
        eps = inf."""
        n, d = x.shape
        sW, sx = self.noise_stds()
        r = np.clip(r, -self.c_r, self.c_r)
        M, u = x[:, :, None] * x[:, None, :], x * r[:, None]
        if math.isinf(self.eps):
            return M, u
        W = np.triu(sW * rng.standard_normal((n, d, d)))
        W = W + np.transpose(np.triu(W, 1), (0, 2, 1))
        return M + W, u + sx * rng.standard_normal((n, d))

    def _init(self, env, T, runs):
        d = env.d
        sW, _ = self.noise_stds()
        ctil = sW * (4 * math.sqrt(d) + 2 * math.log(2 * T / self.alpha)) if self.shift else 0.0
        return {"M": np.zeros((runs, d, d)), "u": np.zeros((runs, d)), "theta": np.zeros((runs, d)), "ctil": ctil}

    def _update(self, s, t, x, r, env, T, rng):
        M, u = self.release(x, r, rng)
        s["M"] += M
        s["u"] += u
        d = x.shape[1]
        if s["ctil"] > 0:
            A = s["M"] + s["ctil"] * math.sqrt(t) * np.eye(d)
            try:
                s["theta"] = np.linalg.solve(A, s["u"][:, :, None])[..., 0]
                return
            except np.linalg.LinAlgError:
                pass
        else:
            A = s["M"]  # no shift (shift=False or eps = inf): least-squares (minimum-norm) solution
        s["theta"] = np.einsum("nij,nj->ni", np.linalg.pinv(A), s["u"])


class LDPSGD(_Greedy):
    """LDP-SGD (seed 002 Algorithm 1 with the SGD update), eps-LDP (Prop. 3.2), any link."""

    name = "LDP-SGD"
    audit_scenario = "ldp-sgd-release"  # card: audit design (boundcalc.audit.scenarios.DESIGNS)
    audit_rank = 18  # card: its place in `audit --list`
    # card: the parameter map, constructor keyword -> bound context key (regret --check, overlay)
    context_params = {"kappa_l": "kappa_l", "p_star": "p_star", "zeta": "zeta"}
    check_assumptions = "glm"  # card: regret --check's assumption check (verify.adapters.ASSUMPTION_CHECKS)
    granularity = "step"  # card: the estimate changes every step
    source = "seed 002 Algorithm 1 (SGD, Eq. 3.5-3.6)"
    bound_ids = ("002-thm3.1-sgd", "002-thm3.1-sgd-corrected", "002-thm3.1-sgd-explicit", "002-thm3.3-sgd")

    @classmethod
    def from_context(cls, ctx, budget):
        """Card: the instance regret --check simulates for a bound's context ``ctx`` at ``budget``."""
        return cls(budget.epsilon, C_B=ctx["C_B"], c_r=ctx["c_r"], kappa_l=ctx["kappa_l"], p_star=ctx["p_star"],
                   zeta=ctx["zeta"])

    def __init__(self, eps: float = 1.0, C_B: float = 1.0, c_r: float = 1.0, kappa_l: float = 0.085,
                 p_star: float = 0.5, zeta: float | None = None, c_prime: float = 1.0, project: bool = False):
        self.eps = validate.positive("eps", eps, allow_inf=True)
        self.C_B = validate.positive("C_B", C_B)
        self.c_r = validate.positive("c_r", c_r)
        self.kappa_l = validate.positive("kappa_l", kappa_l)
        self.p_star = validate.probability("p_star", p_star)
        if self.p_star == 0:
            raise InputError("p_star", "in (0, 1]", p_star)
        self.zeta = None if zeta is None else validate.positive("zeta", zeta)
        self.c_prime = validate.positive("c_prime", c_prime)
        self.project = bool(project)

    @property
    def R(self) -> float:
        return 2 * self.c_r * self.C_B

    def step(self, t: int, d: int, zeta: float) -> float:
        """eta_t = c' d/(kappa_l zeta p_* t) (seed 002 Thm 3.1)."""
        return self.c_prime * d / (self.kappa_l * zeta * self.p_star * t)

    def _init(self, env, T, runs):
        return {"theta": np.zeros((runs, env.d)), "zeta": env.zeta if self.zeta is None else self.zeta}

    def release(self, x, r, theta, env, rng):
        """The user's message Z = Psi_{eps,R}(g) for rows x (n, d), rewards r (n,) and the public estimate theta
        (n, d): g = (mu(x^T theta) - clip(r)) x clipped to norm R (Eq. 3.5); Z = g (no draw) at eps = inf."""
        r = np.clip(r, -self.c_r, self.c_r)
        g = (env.mu(np.einsum("nd,nd->n", x, theta)) - r)[:, None] * x
        nrm = np.linalg.norm(g, axis=1, keepdims=True)
        g = g * np.minimum(1.0, self.R / np.maximum(nrm, 1e-300))
        return g if math.isinf(self.eps) else l2_ball_mechanism(g, self.eps, self.R, rng)

    def _update(self, s, t, x, r, env, T, rng):
        th = s["theta"]
        Z = self.release(x, r, th, env, rng)
        th = th - self.step(t, x.shape[1], s["zeta"]) * Z
        if self.project:
            th = th / np.maximum(1.0, np.linalg.norm(th, axis=1, keepdims=True))
        s["theta"] = th
