"""The constants of seed 002's LDP-SGD bounds computed from a GLM instance, and which assumptions hold there (issue 16
items 6 and 9: the logistic experiments of worksheet 002).

Seed 002's LDP-SGD bounds (Thm 3.1 as stated, its corrected and explicit forms, Thm 3.3 under a margin) take the
instance's constants (docs/formulas/ldp-glm-bandits.md §2.1, §3.1): the context norm bound C_B, the reward bound c_r,
the link's Lipschitz constant L and curvature ζ = inf_{|z| ≤ C_B} μ'(z) (A1), the diversity constants κ_u (A2) and
(κ_l, p_*) (A3) and the margin (γ, β) (A4). ``instance_context(env)`` computes each from the instance itself:

* the synthetic logistic instance (``GLMEnv`` with the logistic link, contexts Unif(S^1), d = 2): every constant
  exactly (closed forms, or a one-dimensional integral by adaptive quadrature with its error estimate added, and
  a grid over a compact set with a Lipschitz or monotonicity correction, so that the number is a guaranteed bound):
  - A1: L = sup μ' = μ'(0) = 1/4; ζ = μ'(C_B) (μ' is even and decreasing in |z|);
  - A2: κ_u = 1: Σ = I/2 and x^T v = cos φ is 1/2-sub-Gaussian, E e^{λ cos φ} = I_0(λ) ≤ e^{λ²/4} (termwise:
    (λ/2)^{2k}/(k!)² ≤ (λ²/4)^k/k!);
  - A3: ``a3_min_prob_sphere2`` (the exact law of the greedy arm's angle) and ``kappa_l_sphere2``;
  - A4: ``margin_cdf_sphere2`` (the law of the gap between the two best arms, by quadrature),
    ``margin_small_h_bound`` (a proved bound near h = 0, where the gap law has the density h log(1/h): β = 1 fails,
    every β < 1 holds) and ``margin_gamma_sphere2``;
  - LDP-SGD then runs with the theorem's step η_t = c'd/(κ_l ζ p_* t) at these constants (c' = 1, the step of
    Rakhlin, Shamir & Sridharan 2011 with the strong-monotonicity constant ζκ_l p_*/d, sheet §2.3) and with θ̂
    projected onto ‖θ‖ ≤ 1, which (C.2) needs for a non-linear link (sheet §0, "Projection").
* the auto-loan data (``boundcalc.data.autoloan.AutoLoanEnv``: the empirical law of the file's customers): C_B,
  ‖θ*‖, ζ, κ_u (second-moment eigenvalue) and the margin of the empirical law exactly; A3 is refuted exactly when the
  arm contexts span a proper subspace of R^d (the min–max scaled constant column is 0 for every customer), and
  ‖θ*‖ ≤ 1 fails for a fitted θ* of larger norm. The bound is then drawn with LDP-SGD's step constants and judged
  "outside the assumptions", with the reasons.

Each check is a row (assumption, holds, how it was decided); ``assumptions(bound_id)`` is the (met, note) pair that
``experiments.bounds.compare`` takes: met only when every assumption the bound uses was verified to hold.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

L_LOGISTIC = 0.25  # sup μ' of the logistic link, μ'(0) = 1/4 (A1's Lipschitz constant)
BETA = 0.5  # the margin exponent used for the logistic instances (β = 1 fails on Unif(S^1): see margin_small_h_bound)
P_STAR = 0.5  # A3's probability p_* (the value of the seed 002 default instance, bounds/glm.py)
SGD_IDS = ("002-thm3.1-sgd", "002-thm3.1-sgd-corrected", "002-thm3.1-sgd-explicit", "002-thm3.3-sgd")
MARGIN_IDS = ("002-thm3.3-sgd",)


# ------------------------------------------------------------------------------------------------ A1: the link
def logistic_dmu(z):
    """μ'(z) = e^{−|z|}/(1 + e^{−|z|})² of the logistic link μ(z) = 1/(1 + e^{−z}) (even; decreasing in |z|)."""
    e = np.exp(-np.abs(np.asarray(z, dtype=float)))
    return e / (1.0 + e) ** 2


def zeta_logistic(C_B: float) -> float:
    """ζ = inf_{|z| ≤ C_B} μ'(z) = μ'(C_B) for the logistic link (seed 002 Assumption A1, sheet §3.1): μ' is even and
    decreasing in |z|, so the infimum is at the end of the interval, not at 0."""
    return float(logistic_dmu(float(C_B)))


# ------------------------------------------------------------------------------------------------ A3 on Unif(S^1)
def _greedy_angle_cdf(s, K: int):
    """P(Φ ≤ s), s ∈ R, for Φ ∈ (−π, π] the angle (to the direction u) of the greedy arm a* = argmax_a x_a^T u among
    K i.i.d. Unif(S^1) contexts: P(|Φ| > s) = (1 − s/π)^K (all K angles farther than s), symmetric in sign."""
    s = np.clip(np.asarray(s, dtype=float), -math.pi, math.pi)
    neg = 0.5 * (1.0 + s / math.pi) ** K
    pos = 1.0 - 0.5 * (1.0 - s / math.pi) ** K
    return np.where(s < 0, neg, pos)


def a3_prob_sphere2(c: float, K: int, psi):
    """P((x_{a*}^T v)² > c) for contexts Unif(S^1), K arms, a* the greedy arm for u and v at angle ψ to u (seed 002
    Assumption A3 with c = κ_l/d): (x^T v)² > c ⇔ the angle Φ − ψ is within θ_c = arccos √c of a multiple of π; the
    law of Φ is ``_greedy_angle_cdf``. Exact; vectorised over ψ."""
    psi = np.asarray(psi, dtype=float)
    tc = math.acos(math.sqrt(min(max(c, 0.0), 1.0)))
    out = np.zeros_like(psi)
    for k in (-2, -1, 0, 1, 2):
        out += _greedy_angle_cdf(psi + k * math.pi + tc, K) - _greedy_angle_cdf(psi + k * math.pi - tc, K)
    return out


def a3_min_prob_sphere2(c: float, K: int, n: int = 20001) -> float:
    """A guaranteed lower bound on inf over unit u, v of P((x_{a*}^T v)² > c) (Unif(S^1), K arms; seed 002 A3): by
    rotation invariance u is fixed, v at angle ψ ∈ [0, π] (period π); the minimum over an n-point grid of ψ minus
    the Lipschitz slack (K/π)·(grid step)/2 (|dP/dψ| ≤ 2 sup density of Φ = K/π)."""
    psi = np.linspace(0.0, math.pi, n)
    return float(np.min(a3_prob_sphere2(c, K, psi)) - (K / math.pi) * (math.pi / (n - 1)) / 2.0)


@lru_cache(maxsize=None)
def kappa_l_sphere2(K: int, p_star: float = P_STAR, digits: int = 4) -> float:
    """The largest κ_l (rounded down to ``digits`` significant digits) with inf_{u,v} P((x_{a*}^T v)² > κ_l/2) ≥ p_*
    for K i.i.d. Unif(S^1) contexts (seed 002 Assumption A3, d = 2), by bisection on the guaranteed lower bound
    ``a3_min_prob_sphere2`` (decreasing in κ_l)."""
    lo, hi = 0.0, 2.0  # κ_l/d = c ∈ [0, 1]
    if a3_min_prob_sphere2(1e-12, K) < p_star:
        raise ValueError(f"A3 fails at p_* = {p_star} for K = {K} (no κ_l > 0)")
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if a3_min_prob_sphere2(mid / 2.0, K) >= p_star:
            lo = mid
        else:
            hi = mid
    e = math.floor(math.log10(lo)) - digits + 1
    return float(f"{math.floor(lo / 10.0 ** e)}e{e}")


# ------------------------------------------------------------------------------------------------ A4 on Unif(S^1)
def margin_cdf_sphere2(h: float, K: int, s: float) -> tuple[float, float]:
    """(P(Δ ≤ h), quadrature error estimate) for the gap Δ = μ(z_(1)) − μ(z_(2)) between the two best arms (seed 002
    Assumption A4), logistic μ, z_a = x_a^T θ* = s cos ϑ_a with ϑ_a i.i.d. Unif(0, π) (contexts Unif(S^1), ‖θ*‖ = s).

    The two best arms are the two smallest ϑ: ϑ_(1) < ϑ_(2) with density K(K−1)/π² (1 − ϑ_(2)/π)^{K−2}; given
    Δ ≤ h ⇔ μ(s cos ϑ_(1)) ≤ μ(s cos ϑ_(2)) + h ⇔ ϑ_(1) ≥ ω(ϑ_(2)), ω(ϑ) = arccos(min(1, μ^{−1}(μ(s cos ϑ) + h)/s))
    (ω = 0 once μ(s cos ϑ) + h ≥ μ(s)), so P(Δ ≤ h) = ∫_0^π K(K−1)/π² (1 − ϑ/π)^{K−2} (ϑ − ω(ϑ)) dϑ. Adaptive quadrature (scipy.integrate.quad) with a break at the kink
    where μ(s cos ϑ) + h reaches μ(s)."""
    from scipy.integrate import quad
    from scipy.special import expit, logit

    if h <= 0:
        return 0.0, 0.0
    top = float(expit(s))

    def omega(th):
        m = float(expit(s * math.cos(th))) + h
        if m >= top:
            return 0.0
        return math.acos(min(1.0, max(-1.0, float(logit(m)) / s)))

    def f(th):
        return K * (K - 1) / math.pi * (1.0 - th / math.pi) ** (K - 2) * (th - omega(th)) / math.pi

    pts = []
    if top - h > float(expit(-s)):  # the kink: μ(s cos ϑ_k) = μ(s) − h
        pts = [math.acos(max(-1.0, min(1.0, float(logit(top - h)) / s)))]
    val, err = quad(f, 0.0, math.pi, points=pts or None, epsabs=1e-13, epsrel=1e-11, limit=400)
    return float(min(val, 1.0)), float(err)


def margin_small_h_bound(h, K: int, s: float, zeta_s: float):
    """A proved bound P(Δ ≤ h) ≤ K(K−1) t/(4s) (1 + ln(2s/t)), t = h/ζ_s, for the gap Δ of ``margin_cdf_sphere2``
    (ζ_s = inf_{|z| ≤ s} μ', so Δ ≥ ζ_s (z_(1) − z_(2)); valid for t ≤ 2s).

    Proof (DERIVED here): z_(1) − z_(2) = 2s sin A sin D with A = (ϑ_(1) + ϑ_(2))/2 ∈ (D, π − D) and
    D = (ϑ_(2) − ϑ_(1))/2 ∈ (0, π/2); sin x ≥ (2/π)x on [0, π/2] gives 2 sin A sin D ≥ (8/π²) min(A, π − A)·D, so
    z_(1) − z_(2) ≤ t forces min(A, π − A)·D ≤ τ := π² t/(8s). The two smallest ϑ have density ≤ K(K−1)/π², the map
    (A, D) → (ϑ_(1), ϑ_(2)) has Jacobian 2, and the area {0 < D < A ≤ π/2, A·D ≤ τ} is τ/2 + τ ln(π/(2√τ)) (the
    same again for A > π/2): P ≤ K(K−1)/π² · 2 · τ(1 + ln(π²/(4τ))), which is the bound. Near h = 0 the bound is of order h log(1/h): F(h)/h^β → 0 for every β < 1."""
    t = np.asarray(h, dtype=float) / zeta_s
    with np.errstate(divide="ignore", invalid="ignore"):
        out = K * (K - 1) * t / (4.0 * s) * (1.0 + np.log(2.0 * s / t))
    return np.where(t <= 0, 0.0, np.where(t >= 2.0 * s, 1.0, np.minimum(out, 1.0)))


@lru_cache(maxsize=None)
def margin_gamma_sphere2(K: int, s: float, beta: float = BETA, ratio: float = 1.05, h_min: float = 1e-8) -> float:
    """γ with P(Δ ≤ h) ≤ γ h^β for every h > 0 (seed 002 Assumption A4 on the synthetic logistic instance, β < 1),
    guaranteed: on a geometric grid h_0 = h_min < … < h_N = Δ_max = μ(s) − μ(−s) (F(h_N) = 1),
    sup_{[h_i, h_{i+1}]} F(h)/h^β ≤ (F(h_{i+1}) + err)/h_i^β (F increasing); on (0, h_min] the small-h bound
    ``margin_small_h_bound``, whose ratio to h^β increases there (h_min below 2sζ_s e^{−β/(1−β)}); above Δ_max,
    F = 1 and 1/h^β decreases."""
    from scipy.special import expit

    if not 0 < beta < 1:
        raise ValueError("β in (0, 1): the gap law of Unif(S^1) contexts has no finite γ at β = 1")
    zs = zeta_logistic(s)
    if h_min > 2 * s * zs * math.exp(-beta / (1 - beta)):
        raise ValueError("h_min too large for the small-h bound's monotone range")
    dmax = float(expit(s) - expit(-s))
    n = int(math.ceil(math.log(dmax / h_min) / math.log(ratio)))
    hs = np.geomspace(h_min, dmax, n + 1)
    F = np.array([sum(margin_cdf_sphere2(float(h), K, s)) for h in hs[1:]])
    F[-1] = 1.0
    grid = float(np.max(np.minimum(F, 1.0) / hs[:-1] ** beta))
    small = float(margin_small_h_bound(h_min, K, s, zs)) / h_min ** beta
    return max(grid, small)


# ------------------------------------------------------------------------------------------------ empirical laws
def empirical_margin_gamma(gaps, beta: float = BETA) -> float:
    """γ = sup_h P(Δ ≤ h)/h^β for the empirical law of ``gaps`` (one per equally likely context set): the empirical
    CDF jumps at the sorted gaps g_(i), so the supremum is max_i (i/n)/g_(i)^β (exact); inf when a gap is 0 (A4 fails
    for every β > 0: P(Δ ≤ 0) > 0)."""
    g = np.sort(np.asarray(gaps, dtype=float))
    if g.size == 0 or g[0] <= 0:
        return math.inf
    # ties: the CDF at g_(i) counts every gap ≤ g_(i)
    cdf = np.searchsorted(g, g, side="right") / g.size
    return float(np.max(cdf / g ** beta))


def context_rank(X, tol: float = 1e-9) -> int:
    """Rank of the set of context vectors X (..., d) (singular values above tol·largest)."""
    M = np.asarray(X, dtype=float).reshape(-1, np.shape(X)[-1])
    sv = np.linalg.svd(M, compute_uv=False)
    return int(np.sum(sv > tol * sv[0])) if sv.size and sv[0] > 0 else 0


# ------------------------------------------------------------------------------------------------ the context
@dataclass
class InstanceContext:
    """The glm bound context of one instance: ``overrides`` of the registry's glm DEFAULT_INSTANCE, the assumption
    ``checks`` (name, holds: True/False/None = not verified, how), ``values`` (each constant with how it was
    obtained) and LDP-SGD's constructor arguments ``sgd`` (the run judged against the bounds)."""

    name: str
    overrides: dict
    checks: list = field(default_factory=list)
    values: dict = field(default_factory=dict)
    sgd: dict = field(default_factory=dict)

    def assumptions(self, bound_id: str) -> tuple[bool, str]:
        """(met, note) for one LDP-SGD bound: met only when every assumption it uses holds (A4 only for Thm 3.3)."""
        use = [c for c in self.checks if c[0] != "A4" or bound_id in MARGIN_IDS]
        bad = [f"{n}: {how}" for n, ok, how in use if ok is not True]
        if bad:
            return False, f"{self.name}: " + "; ".join(bad)
        return True, f"{self.name}: " + "; ".join(f"{n} ({how})" for n, ok, how in use)

    def algorithm(self, eps: float):
        """LDP-SGD (seed 002 Algorithm 1, SGD) at ε with the context's step constants."""
        from ..algorithms.glm import LDPSGD

        return LDPSGD(eps, **self.sgd)

    def rows(self) -> list[list]:
        """[constant, value, how] rows for a report table."""
        return [[k, v[0], v[1]] for k, v in self.values.items()]


def logistic_sphere_context(env) -> InstanceContext:
    """The context of a logistic ``GLMEnv`` with Unif(S^1) contexts (d = 2): every constant exact (module docstring)."""
    K, s = int(env.K), float(np.linalg.norm(env.theta))
    if not s > 0:
        from ..errors import InputError

        raise InputError("theta", "θ* ≠ 0 (at θ* = 0 every arm ties: A4 fails for every β > 0)", 0.0)
    C_B = 1.0  # ‖x‖ = 1 on the sphere
    zeta = zeta_logistic(C_B)
    kl = kappa_l_sphere2(K, P_STAR)
    gamma = margin_gamma_sphere2(K, round(s, 15), BETA)
    over = {"d": 2, "K": K, "C_B": C_B, "c_r": 1.0, "sigma_r": 0.5, "zeta": zeta, "L": L_LOGISTIC, "kappa_u": 1.0,
            "kappa_l": kl, "p_star": P_STAR, "gamma": gamma, "beta": BETA}
    values = {
        "C_B": (C_B, "‖x‖ = 1 (contexts on the unit circle)"),
        "c_r": (1.0, "Bernoulli rewards in {0, 1}"),
        "sigma_r": (0.5, "r − μ lies in an interval of length 1: 1/2-sub-Gaussian (Hoeffding's lemma)"),
        "‖θ*‖": (s, "the instance's θ*"),
        "L": (L_LOGISTIC, "sup μ' = μ'(0) = 1/4"),
        "zeta": (zeta, "inf_{|z| ≤ C_B} μ' = μ'(C_B) (exact)"),
        "kappa_u": (1.0, "Σ = I/2; E exp(λ cos φ) = I_0(λ) ≤ exp(λ²/4)"),
        "kappa_l": (kl, f"largest κ_l with inf_(u,v) P((x_a*ᵀv)² > κ_l/2) ≥ p_* = {P_STAR:g} (exact law of the greedy "
                        "arm's angle, guaranteed grid minimum; rounded down)"),
        "p_star": (P_STAR, "chosen; κ_l computed for it"),
        "beta": (BETA, "chosen: β = 1 fails (P(Δ ≤ h) is of order h log(1/h) near 0)"),
        "gamma": (gamma, "sup_h P(Δ ≤ h)/h^β, P(Δ ≤ h) by quadrature on a geometric grid (bracketed), proved "
                         "bound below h = 1e-8"),
    }
    checks = [
        ("standing", s <= 1 + 1e-12, f"‖θ*‖ = {s:.4g} ≤ 1, ‖x‖ = 1 ≤ C_B, |r| ≤ c_r = 1"),
        ("A1", True, f"logistic link: L = 1/4, ζ = μ'(C_B) = {zeta:.4g}"),
        ("A2", True, "κ_u = 1 (Σ = I/2, cos φ is 1/2-sub-Gaussian)"),
        ("A3", True, f"κ_l = {kl:.4g}, p_* = {P_STAR:g} (exact law of the greedy arm, d = 2, K = {K})"),
        ("A4", True, f"(γ, β) = ({gamma:.4g}, {BETA:g}) (gap law by quadrature; β = 1 fails)"),
        ("step", True, "LDP-SGD runs η_t = d/(κ_l ζ p_* t) (c' = 1) at these constants with θ̂ projected onto "
                       "‖θ‖ ≤ 1, as (C.2) needs for a non-linear link"),
    ]
    sgd = {"C_B": C_B, "c_r": 1.0, "kappa_l": kl, "p_star": P_STAR, "zeta": zeta, "project": True}
    return InstanceContext(env.name or "logistic instance", over, checks, values, sgd)


def empirical_context(env, X, sgd: dict) -> InstanceContext:
    """The context of a logistic instance whose context sets are the rows of X (n, K, d), each equally likely (the
    auto-loan data's empirical law), for LDP-SGD run with the constructor arguments ``sgd``: C_B, ‖θ*‖, ζ, κ_u and the
    margin exactly; A3 refuted when the contexts span a proper subspace; the bound's κ_l, p_* are then the run's."""
    from scipy.special import expit

    X = np.asarray(X, dtype=float)
    n, K, d = X.shape
    th = np.asarray(env.theta, dtype=float)
    C_B = float(np.max(np.linalg.norm(X, axis=-1)))
    s = float(np.linalg.norm(th))
    zeta = zeta_logistic(C_B)
    second = np.einsum("nki,nkj->kij", X, X) / n  # E[x_a x_a^T] per arm
    kappa_u = float(d * max(np.linalg.eigvalsh(m)[-1] for m in second))
    mu = np.sort(expit(X @ th), axis=1)
    gaps = mu[:, -1] - mu[:, -2]
    gamma = empirical_margin_gamma(gaps, BETA)
    rank = context_rank(X)
    kl, ps = float(sgd.get("kappa_l", 0.085)), float(sgd.get("p_star", 0.5))
    over = {"d": d, "K": K, "C_B": C_B, "c_r": 1.0, "sigma_r": 0.5, "zeta": zeta, "L": L_LOGISTIC, "kappa_u": kappa_u,
            "kappa_l": kl, "p_star": ps, "gamma": gamma if math.isfinite(gamma) else 1.0, "beta": BETA}
    values = {
        "C_B": (C_B, f"max ‖x‖ over the {n} customers × {K} prices"),
        "c_r": (1.0, "Bernoulli rewards in {0, 1}"),
        "‖θ*‖": (s, "the fitted θ*"),
        "L": (L_LOGISTIC, "sup μ' = 1/4"),
        "zeta": (zeta, "inf_{|z| ≤ C_B} μ' = μ'(C_B) (A1)"),
        "kappa_u": (kappa_u, "d · max_a λ_max(E x_a x_aᵀ) of the empirical law"),
        "rank": (rank, f"rank of the {n * K} arm contexts in R^{d}"),
        "kappa_l, p_*": (f"{kl:g}, {ps:g}", "LDP-SGD's step constants (A3 gives none: see the checks)"),
        "beta": (BETA, "chosen"),
        "gamma": (gamma, "max_i (i/n)/Δ_(i)^β over the sorted gaps of the empirical law (exact)"),
    }
    checks = [("standing", s <= 1 + 1e-12,
               f"‖θ*‖ ≤ 1 fails: the fitted ‖θ*‖ = {s:.4g}" if s > 1 + 1e-12 else f"‖θ*‖ = {s:.4g} ≤ 1, |r| ≤ 1"),
              ("A1", True, f"logistic link: L = 1/4, ζ = μ'(C_B) = {zeta:.4g} (C_B = {C_B:.4g})")]
    mean = X.mean(axis=0)
    checks.append(("A2", None if np.any(np.abs(mean) > 1e-12) else True,
                   f"λ_max part holds with κ_u = {kappa_u:.4g}; the sub-Gaussian proxy the proofs use is not verified "
                   "(the contexts are not centred)"))
    if rank < d:
        checks.append(("A3", False, f"fails for every κ_l > 0: the arm contexts span a subspace of dimension {rank} < "
                                    f"d = {d} (e.g. the min–max scaled constant column is 0), so (x_a*ᵀv)² = 0 for a "
                                    "unit v orthogonal to it"))
    else:
        checks.append(("A3", None, "not verified: the infimum over unit u, v of the empirical law is not computed"))
    checks.append(("A4", math.isfinite(gamma), f"(γ, β) = ({gamma:.4g}, {BETA:g}) of the empirical gap law" if
                   math.isfinite(gamma) else "fails: some customer has two best prices with equal apply probability"))
    same_step = math.isclose(float(sgd.get("zeta") or zeta), zeta, rel_tol=1e-12) and bool(sgd.get("project"))
    checks.append(("step", same_step or None,
                   "LDP-SGD runs at the context's constants" if same_step else
                   f"LDP-SGD runs with ζ = {float(sgd.get('zeta') or 0):.4g} (inf μ' over the file's scores), not A1's "
                   f"ζ = {zeta:.4g}, and without projection"))
    return InstanceContext(env.name or "empirical instance", over, checks, values, sgd)


def instance_context(env, sgd: dict | None = None) -> InstanceContext:
    """The glm bound context of a logistic instance: the auto-loan environment (its file's empirical law; ``sgd``:
    LDP-SGD's constructor arguments of the run), or a logistic GLMEnv with Unif(S^1) contexts in d = 2."""
    from ..data.autoloan import AutoLoanEnv

    if isinstance(env, AutoLoanEnv):
        X = np.stack([env._arm(env.data.x, p) for p in env.prices], axis=1)
        return empirical_context(env, X, sgd or {})
    if getattr(env, "link", None) == "logistic" and env.contexts_kind == "sphere" and env.d == 2 \
            and not getattr(env, "multi", False):
        return logistic_sphere_context(env)
    from ..errors import InputError

    raise InputError("env", "a logistic instance with Unif(S^1) contexts in d = 2, or the auto-loan data", env.name)
