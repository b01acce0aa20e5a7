"""Plain step-by-step references of seed 002 Algorithm 1 (single parameter, LDP-OLS and LDP-SGD), written from
the paper (Algorithm 1, Eq. 3.3-3.6, Lemma 2.2, Theorem 3.1) and the sheet (docs/formulas/ldp-glm-bandits.md §0, 1.3-1.5,
2.2-2.3), independently of ``ldp.py``: nothing is imported from it; only the environment (contexts, rewards,
link mu) is shared. Scalar Python loops over t, the K arms and the coordinates; the Gaussian mechanism, the
L2-ball mechanism and both estimators are written again here.

One round t (Algorithm 1):
  user:   a_t = argmax_a x_{t,a}^T theta_{t-1} (first maximum), observe r_t, clip it to [-c_r, c_r] (the privacy
          proofs assume |r| <= c_r), send Z_t = psi_t(x_{t,a_t}, r_t; theta_{t-1});
  server: theta_t = phi_t(Z_1..Z_t; theta_{t-1}).
OLS (linear link): Z_t = (x x^T + W_t, r x + xi_t), W_t symmetric with i.i.d. N(0, s_W^2) entries for i <= j,
  xi_t ~ N(0, s_xi^2 I); paper calibration s_W = 2 C_B sigma, s_xi = C_B c_r sigma, sigma = 2 sqrt(2 ln(1.25/delta))/eps
  (Eq. 3.3); safe calibration (sheet 1.4) s_W = sqrt(2) C_B^2 g, s_xi = 2 c_r C_B g, g = sqrt(2 ln(2.5/delta))/(eps/2);
  theta_t = (sum_i M_i + c~ sqrt(t) I)^{-1} sum_i u_i (Eq. 3.4), c~ = s_W (4 sqrt(d) + 2 ln(2T/alpha)) (sheet §0;
  Theorem 3.1's 2 sigma (...) at C_B = 1), c~ = 0 with ``shift=False``; minimum-norm least squares when c~ = 0.
SGD (any link): Z_t = Psi_{eps,R}(g_t), g_t = (mu(x^T theta_{t-1}) - r_t) x clipped to norm R = 2 c_r C_B (sheet 1.5);
  theta_t = theta_{t-1} - eta_t Z_t (Eq. 3.6), eta_t = c' d/(kappa_l zeta p_* t) (Theorem 3.1); optionally projected on
  the unit ball (sheet §0). Psi (Lemma 2.2, sheet 1.3): b ~ Bernoulli(1/2 + ||g||/(2R)), X~ = (2b - 1) g; with
  probability e^eps/(1 + e^eps) a uniform point of the radius-r sphere with z^T X~ > 0, otherwise of the opposite
  hemisphere; r = R (sqrt(pi)/2) (e^eps + 1)/(e^eps - 1) d Gamma((d+1)/2)/Gamma(d/2 + 1) (the first printed form);
  Psi(0) uniform on the sphere.
eps = inf: no mechanism (Z = the exact statistic), no draw.

Random stream (the same order as ``simulate``, so that lane ``lane`` of a batch of ``lanes`` runs can be replayed
exactly): per round, decision sets ``env.contexts(rng, (lanes,))``, rewards ``env.rewards(z (lanes,), rng)``, then
OLS: standard normals (lanes, d, d) for W (entries i <= j used) and (lanes, d) for xi; SGD: uniforms (lanes,) for b,
normals (lanes, d) for the direction, uniforms (lanes,) for the hemisphere. A uniform direction on the hemisphere of
X~ is obtained by reflecting a uniform direction v into it (v and -v are equally likely).
"""

from __future__ import annotations

import math

import numpy as np

from ..base import BlockResult


def _ols_stds(alg) -> tuple[float, float]:
    """(std of a W entry, std of a xi entry), seed 002 Eq. 3.3 (paper) or sheet 1.4 (safe)."""
    if math.isinf(alg.eps):
        return 0.0, 0.0
    m = getattr(alg, "noise_mult", 1.0)
    if alg.calibration == "paper":
        sigma = 2.0 * math.sqrt(2.0 * math.log(1.25 / alg.delta)) / alg.eps
        return m * 2.0 * alg.C_B * sigma, m * alg.C_B * alg.c_r * sigma
    g = math.sqrt(2.0 * math.log(2.5 / alg.delta)) / (alg.eps / 2.0)
    return m * math.sqrt(2.0) * alg.C_B * alg.C_B * g, m * 2.0 * alg.c_r * alg.C_B * g


def _ball_radius(eps: float, d: int, R: float) -> float:
    """Lemma 2.2 radius, first printed form (sheet 1.3); (e^eps + 1)/(e^eps - 1) = (1 + e^-eps)/(1 - e^-eps)."""
    q = math.exp(-eps)
    return R * math.sqrt(math.pi) / 2.0 * (1.0 + q) / -math.expm1(-eps) * d * math.exp(math.lgamma((d + 1) / 2.0)
                                                                             - math.lgamma(d / 2.0 + 1.0))


def _psi(g: list, eps: float, R: float, u1: float, v: list, u2: float) -> list:
    """Psi_{eps,R}(g) from the draws (u1, v, u2) of one user (sheet 1.3, steps 1-3)."""
    d = len(g)
    ng = math.sqrt(sum(c * c for c in g))
    nv = math.sqrt(sum(c * c for c in v))
    w = [c / nv for c in v]  # uniform direction
    r = _ball_radius(eps, d, R)
    if ng == 0.0:
        return [r * c for c in w]  # Psi(0): uniform on the sphere
    sign = 1.0 if u1 < 0.5 + ng / (2.0 * R) else -1.0
    same_side = u2 < math.exp(eps) / (1.0 + math.exp(eps)) if eps < 700 else True
    on_plus = sum(w[k] * sign * g[k] for k in range(d)) > 0
    s = 1.0 if on_plus == same_side else -1.0
    return [s * r * c for c in w]


def ldp_greedy_reference(alg, env, T: int, rng, cps, lane: int = 0, lanes: int = 1) -> BlockResult:
    """One run of LDP-OLS (``alg.name == "LDP-OLS"``) or LDP-SGD, lane ``lane`` of ``lanes``."""
    lanes = int(lanes)
    lane = int(lane)
    if not 0 <= lane < lanes:
        from ...errors import InputError

        raise InputError("lane", f"in [0, lanes - 1 = {lanes - 1}]", lane)
    ols = alg.name == "LDP-OLS"
    d, K = env.d, env.K
    theta_star = [float(c) for c in env.theta]
    private = not math.isinf(alg.eps)
    theta = [0.0] * d
    if ols:
        sW, sx = _ols_stds(alg)
        ctil = sW * (4.0 * math.sqrt(d) + 2.0 * math.log(2.0 * T / alg.alpha)) if alg.shift else 0.0
        U = [[0.0] * d for _ in range(d)]
        v = [0.0] * d
    else:
        R = 2.0 * alg.c_r * alg.C_B
        zeta = env.zeta if alg.zeta is None else alg.zeta
    regret = [0.0]
    for t in range(1, T + 1):
        C = env.contexts(rng, (lanes,))[lane]
        xs = [[float(c) for c in C[k]] for k in range(K)]
        a, best = 0, -math.inf
        for k in range(K):
            sc = sum(xs[k][i] * theta[i] for i in range(d))
            if sc > best:
                a, best = k, sc
        x = xs[a]
        z = [sum(xs[k][i] * theta_star[i] for i in range(d)) for k in range(K)]
        r = float(env.rewards(np.full(lanes, z[a]), rng)[lane])
        r = min(max(r, -alg.c_r), alg.c_r)
        if ols:
            if private:
                Wz = rng.standard_normal((lanes, d, d))[lane]
                xz = rng.standard_normal((lanes, d))[lane]
            for i in range(d):
                for j in range(d):
                    w = sW * float(Wz[min(i, j), max(i, j)]) if private else 0.0
                    U[i][j] += x[i] * x[j] + w
                v[i] = v[i] + r * x[i] + (sx * float(xz[i]) if private else 0.0)
            A = np.array(U) + ctil * math.sqrt(t) * np.eye(d)
            if ctil > 0:
                theta = [float(c) for c in np.linalg.solve(A, np.array(v))]
            else:
                theta = [float(c) for c in np.linalg.lstsq(A, np.array(v), rcond=None)[0]]
        else:
            pred = float(env.mu(sum(x[i] * theta[i] for i in range(d))))
            g = [(pred - r) * x[i] for i in range(d)]
            ng = math.sqrt(sum(c * c for c in g))
            if ng > R:
                g = [c * R / ng for c in g]
            if private:
                u1 = float(rng.random(lanes)[lane])
                vv = [float(c) for c in rng.standard_normal((lanes, d))[lane]]
                u2 = float(rng.random(lanes)[lane])
                Z = _psi(g, alg.eps, R, u1, vv, u2)
            else:
                Z = g
            eta = alg.c_prime * d / (alg.kappa_l * zeta * alg.p_star * t)
            theta = [theta[i] - eta * Z[i] for i in range(d)]
            if alg.project:
                nt = math.sqrt(sum(c * c for c in theta))
                if nt > 1.0:
                    theta = [c / nt for c in theta]
        mz = [float(env.mu(c)) for c in z]
        regret.append(regret[-1] + max(mz) - mz[a])
    out = np.array([[regret[int(math.ceil(c))] for c in cps]])
    err = math.sqrt(sum((theta[i] - theta_star[i]) ** 2 for i in range(d)))
    return BlockResult(regret=out, pulls=np.zeros((1, 0)), episodes=np.array([T]), extra={"theta_err": np.array([err])})
