"""Audit scenarios of the local-DP algorithms of seed 002 (GLM bandits) and their baselines.

Local (ε, δ)-DP (seed 002 Def. 2.1, sheet docs/formulas/ldp-glm-bandits.md §1.1) is a property of each user's
randomiser: for every two values (x, r), (x', r') of ONE user's data (context and reward, |r| <= c_r,
||x|| <= C_B) and every event C of that user's message Z, P(Z ∈ C | x, r) <= e^ε P(Z ∈ C | x', r') + δ. The message
also depends on public state (the server's current estimates, which the user receives); the guarantee must hold
for every value of it. So the audit runs the algorithm's own release code (its ``release``/``release_all``) on
the two values of one user's data with a fixed public state, and the output is that user's message.

* Gaussian releases (``GaussianRelease``: LDP-OLS, LDP-OLS (multi-parameter), LDP-UCB, LDP-GLOC). The message is
  a mean m(x, r) (the upper triangle of x x^T, r x, ...) plus independent Gaussian noise of known stds s on its
  free coordinates. The pair is chosen where it hurts most: x = C_B e_1, r = c_r and x' = C_B ρ (cos φ, sin φ),
  r' = ±c_r over a grid of (ρ, φ), maximising μ = ||(m − m')/s|| (d = 2). The event is the likelihood-ratio
  half-space S > z_0 with S = <w, Z − m'>, w = (m − m')/(s² μ): S ~ N(μ, k²) under D and N(0, k²) under D'
  (k = 1 for the algorithm as built, k = noise_mult for a mutant), so P_D(E) = Φ((μ − z_0)/k),
  P_D'(E) = Φ(−z_0/k) (the Gaussian mechanism's exact trade-off; no other event does better). z_0 is fixed
  before the runs from the audited algorithm's definition: the value maximising the expected audit bound at the
  scenario's default trials (μ/2 for the noise-free copy).
* L2-ball releases (``BallRelease``: LDP-SGD, LDP-SGD (multi-parameter)). The message is Ψ_{ε,R}(g) (seed 002
  Lemma 2.2, sheet §1.3), g the clipped gradient. Two full-norm gradients g = R a, g' = R b (||a|| = ||b|| = 1,
  angle 160°) are reached with a public estimate θ̂ = m e_1 large enough that clipping is active (unprojected
  SGD, the default, reaches such estimates); the event E = {Z·a > 0, Z·b < 0} has P_D(E) = p θ/π,
  P_D'(E) = (1 − p) θ/π (θ the angle, p = e^ε/(1 + e^ε)): the ratio is exactly e^ε, the mechanism's claim.
"""

from __future__ import annotations

import copy
import functools
import math

import numpy as np

from ..errors import InputError
from .base import Probe, Scenario

D_AUDIT = 2  # dimension of the audited contexts


def _upper(M: np.ndarray) -> np.ndarray:
    """The free (upper-triangular, diagonal included) entries of symmetric matrices (..., d, d) -> (..., d(d+1)/2)."""
    d = M.shape[-1]
    iu, ju = np.triu_indices(d)
    return M[..., iu, ju]


@functools.lru_cache(maxsize=256)
def _expected_bound_threshold(mu: float, k: float, delta: float, trials: int, alpha: float = 0.05) -> float:
    """z_0 maximising the expected Clopper–Pearson bound ln((p_lo − δ)/q_hi) at the expected counts, for
    S ~ N(mu, k²) (D) against N(0, k²) (D'); mu/2 (the midpoint) when k = 0 (no noise). A pure function of its
    arguments, cached: every block of runs of an audit asks for it again (1601 Beta quantiles each time)."""
    if k == 0:
        return mu / 2
    from scipy.stats import beta, norm

    z = np.linspace(-2.0, 6.0, 1601) * k + 0.0
    pD, pDp = norm.sf((z - mu) / k), norm.sf(z / k)
    kD, kDp = trials * pD, trials * pDp
    g = alpha / 2
    with np.errstate(all="ignore"):
        lo = np.where(kD > 0, beta.ppf(g, np.maximum(kD, 1e-12), trials - kD + 1), 0.0)
        hi = beta.isf(g, kDp + 1, np.maximum(trials - kDp, 1e-12))
        val = np.where(lo > delta, np.log(np.maximum(lo - delta, 1e-300) / hi), -np.inf)
    return float(z[int(np.nanargmax(val))])


class LocalScenario(Scenario):
    """Common parts: the (ε, δ) of the local claim is audited at its own δ; pure ε-LDP at δ = 0."""

    default_trials = 200000
    tunable = ("C_B", "c_r")

    def default_delta(self) -> float:
        return float(self.default_budget.get("delta", 0.0))

    def claim(self, alg, budget, delta, mutant, probes):
        if budget.delta:
            return budget.epsilon, (f"local (ε, δ)-DP with ε = {budget.epsilon:g}, δ = {budget.delta:g} as claimed "
                                    f"(seed 002 Def. 2.1), of one user's message")
        if delta == 0:
            return budget.epsilon, f"local ε-DP with ε = {budget.epsilon:g} (audited at δ = 0), of one user's message"
        from ..privacy.conversions import pure_to_approx_tight_epsilon

        e = pure_to_approx_tight_epsilon(budget.epsilon, delta)
        return e, (f"local ε-DP with ε = {budget.epsilon:g} implies (ε = {e:.4g}, δ = {delta:g}) for one user's "
                   "message (tight conversion)")


class GaussianRelease(LocalScenario):
    """One user's Gaussian message; subclasses give the free coordinates of the message and their stds."""

    mutants = ("noise-halved", "no-noise")
    default_budget = {"epsilon": 1.0, "delta": 0.01}

    # -- per algorithm ---------------------------------------------------------------------------------------
    def public_state(self, alg):
        return None

    def message(self, alg, X: np.ndarray, r: np.ndarray, state, rng) -> np.ndarray:  # pragma: no cover - abstract
        """(n, p) free coordinates of the messages of users with contexts X (n, d) and rewards r (n,)."""
        raise NotImplementedError

    def stds(self, alg) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def first_context(self, alg) -> np.ndarray:
        return np.array([alg.C_B, 0.0])

    # -- design ----------------------------------------------------------------------------------------------
    def candidates(self, alg):
        """x = first_context, r = c_r; x' = C_B ρ (cos φ, sin φ) on a grid, r' = ±c_r."""
        rho = np.linspace(0.0, 1.0, 11)
        phi = np.linspace(0.0, np.pi, 361)
        R, P, S = np.meshgrid(rho, phi, (-1.0, 1.0), indexing="ij")
        R, P, S = R.ravel(), P.ravel(), S.ravel()
        X2 = alg.C_B * R[:, None] * np.stack([np.cos(P), np.sin(P)], axis=1)
        return X2, S * alg.c_r

    def means(self, alg, X, r, state):
        """The noise-free message (the algorithm's own release with noise_mult = 0)."""
        quiet = copy.copy(alg)
        quiet.noise_mult = 0.0
        return self.message(quiet, X, r, state, np.random.default_rng(0))

    def probes(self, alg):
        s = self.stds(alg)
        if not np.all(s > 0):
            raise InputError("noise", "positive message noise for the audited calibration (internal)", s.tolist())
        state = self.public_state(alg)
        x = self.first_context(alg)
        X2, r2 = self.candidates(alg)
        mD = self.means(alg, x[None, :], np.array([alg.c_r]), state)[0]
        mDp = self.means(alg, X2, r2, state)
        mus = np.sqrt(np.sum(((mD - mDp) / s) ** 2, axis=1))
        j = int(np.argmax(mus))
        mu = float(mus[j])
        w = (mD - mDp[j]) / (s**2 * mu)
        D = (x, float(alg.c_r))
        Dp = (X2[j], float(r2[j]))
        return [Probe("one user's message", "S = <w, Z − m'> > z_0 (the likelihood-ratio half-space)", "D>D'", D, Dp, 1,
                      {"d": D_AUDIT, "x": x.tolist(), "r": float(alg.c_r), "x_prime": X2[j].tolist(),
                       "r_prime": float(r2[j]), "mu": mu, "w": w.tolist(), "m_prime": mDp[j].tolist(),
                       "stds": s.tolist(), "public_state": None if state is None else np.asarray(state).tolist()})]

    def noise_scale(self, alg, probe) -> float:
        """k: the audited algorithm's noise stds over the designed ones (0 for the noise-free copy)."""
        s0 = np.asarray(probe.details["stds"])
        s = self.stds(alg)
        k = s / s0
        if not np.allclose(k, k[0], rtol=1e-9, atol=0):
            raise InputError("noise", "stds proportional to the designed ones (internal)", k.tolist())
        return float(k[0])

    def threshold(self, alg, probe, delta: float) -> float:
        return _expected_bound_threshold(probe.details["mu"], self.noise_scale(alg, probe), delta, self.default_trials)

    def event(self, alg, probe, table, runs, rng):
        x, r = table
        det = probe.details
        z0 = self.threshold(alg, probe, self.audit_delta(alg))
        det["threshold_z0"] = z0
        det["noise_scale_k"] = self.noise_scale(alg, probe)
        state = None if det["public_state"] is None else np.asarray(det["public_state"])
        X = np.broadcast_to(np.asarray(x, dtype=float), (runs, D_AUDIT)).copy()
        Z = self.message(alg, X, np.full(runs, float(r)), state, rng)
        S = (Z - np.asarray(det["m_prime"])) @ np.asarray(det["w"])
        return S > z0

    @staticmethod
    def audit_delta(alg) -> float:
        return float(getattr(alg, "delta", 0.0) or 0.0)


class LDPOLSAudit(GaussianRelease):
    """LDP-OLS (seed 002 Algorithm 1, Eq. 3.3): the message (M, u) = (x x^T + W, r x + ξ)."""

    algo = "LDP-OLS"
    tunable = ("C_B", "c_r", "calibration")

    def message(self, alg, X, r, state, rng):
        M, u = alg.release(X, r, rng)
        return np.concatenate([_upper(M), u], axis=1)

    def stds(self, alg):
        sW, sx = alg.noise_stds()
        return np.array([sW] * 3 + [sx] * D_AUDIT)


# The calibrations below are conservative on every pair the audit considers: their noise-halved copies are still
# within the (ε, δ) claim (exact δ(ε = 1) of the halved worst pair at δ = 0.01: LDP-OLS (multi-parameter) 6e-5,
# LDP-UCB < 1e-6, LDP-GLOC 0.009; tests/audit/test_audit.py), so halving is not a broken copy and is not offered.
_CONSERVATIVE = ("no-noise",)


class LDPUCBAudit(LDPOLSAudit):
    """LDP-UCB (baseline of seed 002 Sec. 5, reconstructed): the message (x x^T + B, r x + ξ)."""

    algo = "LDP-UCB"
    mutants = _CONSERVATIVE
    tunable = ("C_B", "c_r", "calibration", "sigma")

    def stds(self, alg):
        sM, su, _ = alg.noise_stds()
        return np.array([sM] * 3 + [su] * D_AUDIT)


class LDPGLOCAudit(GaussianRelease):
    """LDP-GLOC (baseline of seed 002 Sec. 5, reconstructed): the messages (x x^T + B, z x + ξ, (μ(z) − r) x + ξ'),
    z = clip(x^T θ_h, ±z_clip), θ_h the public online iterate, set to (z_clip/C_B) e_1 (x = C_B e_1 then has
    z = z_clip). Logistic link (the GLM instance ``ldp-logistic``)."""

    algo = "LDP-GLOC"
    mutants = _CONSERVATIVE
    tunable = ("C_B", "c_r", "calibration", "sigma", "z_clip")

    def _env(self):
        from ..envs.glm import make_glm_env

        return make_glm_env("ldp-logistic")

    def public_state(self, alg):
        return np.array([alg.z_clip / alg.C_B, 0.0])

    def message(self, alg, X, r, state, rng):
        th = np.broadcast_to(state, X.shape)
        M, u, g = alg.release(X, r, th, self._env(), rng)
        return np.concatenate([_upper(M), u, g], axis=1)

    def stds(self, alg):
        sM, su, sg = alg.noise_stds(self._env())
        return np.array([sM] * 3 + [su] * D_AUDIT + [sg] * D_AUDIT)


class LDPOLSMultiAudit(GaussianRelease):
    """LDP-OLS (multi-parameter) (seed 002 Algorithm 2, Prop. 4.1): after the warm-up every arm gets a message,
    the pulled arm ψ(X, r) = (X X^T + W, r X + ξ), the others the synthetic ψ(0, 0) = (W, ξ), each at
    (ε/2, δ/2). K = 2, public estimates θ̂_0 = e_1, θ̂_1 = e_2 (greedy: the pulled arm is argmax_i X^T θ̂_i, lowest
    index on ties; no elimination, h = ∞ the default), so a change of the user's context may change the pulled arm
    and then two messages."""

    algo = "LDP-OLS (multi-parameter)"
    mutants = _CONSERVATIVE
    tunable = ("C_B", "c_r", "calibration")
    K = 2

    def public_state(self, alg):
        return np.eye(D_AUDIT)[: self.K]

    def message(self, alg, X, r, state, rng):
        a = np.argmax(X @ np.asarray(state).T, axis=1)
        M, u, _ = alg.release_all(X, a, r, False, self.K, rng)
        return np.concatenate([_upper(M).reshape(X.shape[0], -1), u.reshape(X.shape[0], -1)], axis=1)

    def stds(self, alg):
        sW, sx = alg.noise_stds()
        return np.array([sW] * (3 * self.K) + [sx] * (D_AUDIT * self.K))


class BallRelease(LocalScenario):
    """LDP-SGD: one user's message Ψ_{ε,R}(g) with two full-norm gradients 160° apart (module docstring)."""

    mutants = ("no-noise",)
    default_budget = {"epsilon": 1.0}
    half_angle = math.radians(80.0)
    why_fixed = ""

    def build(self, budget, mutant="none", params=None):
        alg = super().build(budget, "none", params)
        if mutant == "no-noise":  # the mechanism's eps = inf limit: Z = g (noise_mult of LDP-SGD (multi-parameter)
            alg.eps = math.inf     # scales the sphere radius, post-processing, so it is not a privacy mutant)
        return alg

    def _env(self):
        from ..envs.glm import make_glm_env

        return make_glm_env("ldp-single")  # linear link

    def layout(self, alg):
        """(x, x', r = r' = −c_r, public estimate θ̂ = m e_1) with both clipped gradients of norm R."""
        ph = self.half_angle
        a = np.array([math.cos(ph), math.sin(ph)])
        b = np.array([math.cos(ph), -math.sin(ph)])
        m = 2.0 * alg.c_r / (alg.C_B * math.cos(ph))  # (C_B m cos φ + c_r) C_B >= 2 c_r C_B = R: clipping active
        return alg.C_B * a, alg.C_B * b, -alg.c_r, m

    def gradient(self, alg, x, r, m):
        quiet = copy.copy(alg)
        quiet.eps = math.inf
        return self.message(quiet, x[None, :], np.array([r]), m, np.random.default_rng(0))[0]

    def probes(self, alg):
        x, x2, r, m = self.layout(alg)
        g, g2 = self.gradient(alg, x, r, m), self.gradient(alg, x2, r, m)
        if not (np.isclose(np.linalg.norm(g), alg.R) and np.isclose(np.linalg.norm(g2), alg.R)):
            raise InputError("gradient", f"of norm R = {alg.R:g} at the audited pair (internal)",
                             [float(np.linalg.norm(g)), float(np.linalg.norm(g2))])
        a, b = g / alg.R, g2 / alg.R
        angle = float(np.arccos(np.clip(a @ b, -1, 1)))
        return [Probe("one user's message", "Z·a > 0 and Z·b < 0 (a, b the directions of the two gradients)", "D>D'",
                      (x, r), (x2, r), 1,
                      {"d": D_AUDIT, "x": x.tolist(), "x_prime": x2.tolist(), "r": r, "r_prime": r,
                       "public_estimate": [m, 0.0], "a": a.tolist(), "b": b.tolist(), "angle": angle,
                       "gradient_norm": float(alg.R)})]

    def message(self, alg, X, r, m, rng):
        th = np.broadcast_to(np.array([m, 0.0]), X.shape)
        return alg.release(X, r, th, self._env(), rng)

    def event(self, alg, probe, table, runs, rng):
        x, r = table
        X = np.broadcast_to(np.asarray(x, dtype=float), (runs, D_AUDIT)).copy()
        Z = self.message(alg, X, np.full(runs, float(r)), probe.details["public_estimate"][0], rng)
        return (Z @ np.asarray(probe.details["a"]) > 0) & (Z @ np.asarray(probe.details["b"]) < 0)


class LDPSGDAudit(BallRelease):
    algo = "LDP-SGD"


class LDPSGDMultiAudit(BallRelease):
    """LDP-SGD (multi-parameter): K = 2, public estimates θ̂_0 = m e_1, θ̂_1 = −m e_1, so both values of the user's
    context pull arm 0 (greedy, no elimination); arm 0's message Ψ_{ε/2,R}(g) changes, arm 1's synthetic Ψ(0) does
    not. The audited event is on arm 0's message: ratio e^{ε/2} (Prop. 4.2 spends ε/2 per message). A pair that
    changes the pulled arm changes two messages but each only between Ψ(g) and the uniform Ψ(0): its ratio is at
    most 2p · 1/(2(1 − p)) = e^{ε/2} too, so no pair of this kind shows more than ε/2."""

    algo = "LDP-SGD (multi-parameter)"
    K = 2

    def message(self, alg, X, r, m, rng):
        th = np.array([[m, 0.0], [-m, 0.0]])
        n = X.shape[0]
        a = np.argmax(X @ th.T, axis=1)
        env = self._env()
        g = alg._grad(env, X, th[a], np.clip(r, -alg.c_r, alg.c_r))
        Z = alg.release_all(X, a, g, False, self.K, rng)
        return Z[np.arange(n), 0]


LOCAL_SCENARIOS = (LDPOLSAudit(), LDPOLSMultiAudit(), LDPSGDAudit(), LDPSGDMultiAudit(), LDPUCBAudit(),
                   LDPGLOCAudit())
