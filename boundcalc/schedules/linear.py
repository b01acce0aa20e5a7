"""Phase schedules of the elimination algorithms (AdaC-GOPE, AdaR-GOPE) and the determinant-doubling
episodes of the rarely-switching OFUL family (AdaC-OFUL, AdaR-OFUL).

- AdaC-GOPE: seed 003 Algorithm 2, Eq. 4 (zcdp-bandits sheet §3.1):
  c_ℓ = (8d/β_ℓ²) log(4/δ_{K,ℓ}) + (2d/β_ℓ) √((2/ρ) f(d, δ_{K,ℓ})), β_ℓ = 2^{−ℓ},
  δ_{K,ℓ} = δ/(Kℓ(ℓ+1)), f(d, δ) = d + 2√(d log(2/δ)) + 2 log(2/δ) (Sec. IV-A2 / App. E).
  Noise N_ℓ ~ N(0, 2d/(ρ c_ℓ) I_d) (Line 12).
- AdaR-GOPE: seed 000 Algorithm 3, Eq. 8 (rdp-bandits sheet §2.3), summed over the design
  (Σ_a π(a) = 1): c_ℓ = (8d/β_ℓ²) L_ℓ + (2d/β_ℓ) √((2α/ε) d(d+1) L_ℓ), L_ℓ = log(4Kℓ(ℓ+1)/δ);
  noise N_a ~ N(0, 2α/ε) per support arm.
  The phase length is T_ℓ = Σ_a ⌈c_ℓ π_ℓ(a)⌉ ∈ [c_ℓ, c_ℓ + |Supp π_ℓ|]; it depends on the design, so the
  schedule uses ⌈c_ℓ⌉ (the lower end) and says so.
- OFUL family (seed 003 Algorithm 3 line 6, seed 000 Algorithm 4): a new episode when
  det V_{t−1} > (1 + C) det V_τ (C = 1: determinant doubling). The episode times depend on the data; this
  module gives the APPROXIMATION that log det(V_t)/λ^d grows like d·log(1 + t λ0/λ) for i.i.d. contexts
  with E[AAᵀ] ⪰ λ0 I (isotropic unit vectors: λ0 = 1/d, which makes it the paper's upper bound
  d log(1 + t/(λd))), so episode ℓ ends at t_ℓ = (λ/λ0)(exp(ℓ log(1+C)/d) − 1). The paper's bound on the
  count is ℓ(T) ≤ d log(1 + T/(λd))/log(1 + C) (seed 003 App. F, seed 000 "update count").
  ``simulate_det_switches`` runs the exact rule on simulated contexts for comparison.
  Noise Y_ℓ ~ N(0, (2/ρ) I_d) per episode (seed 003 App. D-C) or N(0, (2α/ε) I_d) (seed 000 Alg. 4).
"""

from __future__ import annotations

import math

import numpy as np

from .. import validate as v
from .base import Schedule, check_rows, truncate


def f_E(d, delta, log_delta=None):
    """f(d, δ) = d + 2√(d log(2/δ)) + 2 log(2/δ) (seed 003 Sec. IV-A2, App. E version).

    ``log_delta`` (ln δ) may be given instead of using δ, for δ below the float range (δ = 1e-320 / (Kℓ(ℓ+1)))."""
    L = math.log(2.0) - (np.log(delta) if log_delta is None else log_delta)
    return d + 2.0 * np.sqrt(d * L) + 2.0 * L


def c_ell_zcdp(ell, d, K, rho, delta, d_noise=None, variant: str = "paper"):
    """c_ℓ of AdaC-GOPE (seed 003 Eq. 4), vectorised over ℓ: the one definition (the schedule, the algorithm
    boundcalc.algorithms.linear.gope and the claims call it):

        c_ℓ = (8d/β_ℓ²) log(4/δ_{K,ℓ}) + (2d/β_ℓ) √((2/ρ) f(d', δ_{K,ℓ})),  β_ℓ = 2^{−ℓ}, δ_{K,ℓ} = δ/(Kℓ(ℓ+1)),

    f(d', δ) = d' + 2√(d' log(2/δ)) + 2 log(2/δ) (Sec. IV-A2 / App. E). ρ = ∞ drops the privacy term (the
    non-private GOPE's phases). ``d_noise`` is d', the dimension of the noise vector (default d; with an approximate
    design the algorithm passes g(π) as d and keeps d' = d, docs/formulas/zcdp-bandits.md §0). ``variant="scalar"``:
    the sharpened c_ℓ' = (8d/β²) log(4/δ_{K,ℓ}) + (2d/β) √((4/ρ) log(4/δ_{K,ℓ})) (sheet 3.6, DERIVED, not the
    paper's). Logarithms of δ_{K,ℓ} are taken as ln δ − ln(Kℓ(ℓ+1)), finite even when δ_{K,ℓ} underflows."""
    ell = np.asarray(ell, dtype=float)
    b = 2.0 ** (-ell)
    log_dk = math.log(delta) - np.log(K * ell * (ell + 1.0))  # ln δ_{K,ℓ}, finite even when δ_{K,ℓ} underflows
    if math.isinf(rho):
        priv = 0.0
    elif variant == "scalar":
        priv = 2.0 * d / b * np.sqrt(4.0 / rho * (math.log(4.0) - log_dk))
    else:
        priv = 2.0 * d / b * np.sqrt(2.0 / rho * f_E(d if d_noise is None else d_noise, None, log_dk))
    return 8.0 * d / b**2 * (math.log(4.0) - log_dk) + priv


def c_ell_rdp(ell, d, K, alpha, epsilon, delta):
    """Σ_a of the per-arm lengths of AdaR-GOPE (seed 000 Eq. 8) before rounding, vectorised over ℓ."""
    ell = np.asarray(ell, dtype=float)
    b = 2.0 ** (-ell)
    L = np.log(4.0 * K * ell * (ell + 1.0)) - math.log(delta)  # log(4Kℓ(ℓ+1)/δ) without overflow at tiny δ
    priv = 0.0 if math.isinf(epsilon) else 2.0 * d / b * np.sqrt(2.0 * alpha / epsilon * d * (d + 1) * L)
    return 8.0 * d / b**2 * L + priv


def _gope(T, d, K, delta, c, noise_std, algo, source, noise, paper, paper_label):
    idx, length, t_end, sd = truncate(np.ceil(np.minimum(c, 4.0e18)), noise_std, T)
    return Schedule(
        algo=algo, T=T, index=idx, length=length, t_end=t_end, noise_scale=sd, paper_count=paper,
        paper_count_label=paper_label, noise=noise, source=source, per_arm=False,
        notes=["phase length ⌈c_ℓ⌉; the real T_ℓ = Σ_a ⌈c_ℓ π_ℓ(a)⌉ ≤ c_ℓ + d(d+1)/2 depends on the design",
               "phases as in Algorithm 2/3 as written (they continue after one arm remains; zcdp sheet §0)"],
    )


def adac_gope(T, d, K, rho, delta=1e-3) -> Schedule:
    """AdaC-GOPE phases (seed 003 Eq. 4) with noise std √(2d/(ρ c_ℓ)) (Line 12)."""
    T = v.horizon("T", T)
    d, K = v.count("d", d), v.count("K", K)
    rho = v.positive("rho", rho, allow_inf=True)
    delta = v.open_unit("delta", delta)
    ell = np.arange(1, 40)  # 8d·4^ℓ > 1e18 well before ℓ = 40
    c = c_ell_zcdp(ell, d, K, rho, delta)
    sd = np.zeros(ell.size) if math.isinf(rho) else np.sqrt(2.0 * d / (rho * c))
    # DERIVED (zcdp sheet check 7): L_T ≤ log_4(4 + 3T/(8 d log(8K/δ)))
    paper = math.log(4.0 + 3.0 * T / (8.0 * d * (math.log(8.0 * K) - math.log(delta))), 4)
    return _gope(T, d, K, delta, c, sd, "adac-gope", "seed 003 Algorithm 2, Eq. 4 (c_ℓ), Line 12 (noise)",
                 "Gaussian std √(2d/(ρ c_ℓ)) per coordinate of the phase estimate (seed 003 Alg. 2 Line 12)",
                 paper, "log_4(4 + 3T/(8d log(8K/δ))) phases (DERIVED bound, zcdp sheet check 7)")


def adar_gope(T, d, K, alpha, epsilon, delta=1e-3) -> Schedule:
    """AdaR-GOPE phases (seed 000 Eq. 8) with noise std √(2α/ε) per support arm (Alg. 3 step 5)."""
    T = v.horizon("T", T)
    d, K = v.count("d", d), v.count("K", K)
    a = v.greater_than("alpha", alpha, 1.0)
    eps = v.positive("rdp-epsilon", epsilon, allow_inf=True)
    delta = v.open_unit("delta", delta)
    ell = np.arange(1, 40)
    c = c_ell_rdp(ell, d, K, a, eps, delta)
    sd = np.full(ell.size, 0.0 if math.isinf(eps) else math.sqrt(2.0 * a / eps))
    paper = max(1.0, 1.0 + math.log(T / (8.0 * d * (math.log(8.0 * K) - math.log(delta))), 4))
    return _gope(T, d, K, delta, c, sd, "adar-gope", "seed 000 Algorithm 3, Eq. 8",
                 "Gaussian std √(2α/ε) on each support arm's reward sum (seed 000 Alg. 3 step 5)",
                 paper, "max(1, 1 + log_4(T/(8d log(8K/δ)))) phases (rdp sheet §0/§2.3, DERIVED)")


def det_doubling_ends(T, d, lam=1.0, C=1.0, lam0=None) -> np.ndarray:
    """Approximate episode end times of the rarely-switching rule det V_t > (1+C) det V_τ (seed 003 Alg. 3,
    seed 000 Alg. 4): t_ℓ = (λ/λ0)(exp(ℓ log(1+C)/d) − 1), from log det(V_t)/λ^d ≈ d log(1 + tλ0/λ)
    (APPROXIMATION for i.i.d. contexts; λ0 = 1/d by default, isotropic unit contexts). Vectorised over ℓ."""
    T = v.horizon("T", T)
    lam0 = 1.0 / d if lam0 is None else lam0
    n = d * math.log1p(T * lam0 / lam) / math.log1p(C)
    check_rows(n, "C")
    ell = np.arange(1, int(math.floor(n)) + 2, dtype=float)
    with np.errstate(over="ignore"):
        t = np.ceil(lam / lam0 * np.expm1(ell * math.log1p(C) / d))
    t = np.minimum(t, float(T))
    ends = np.unique(np.maximum(t, 1.0)).astype(np.int64)
    if ends[-1] < T:
        ends = np.append(ends, T)
    return ends


def _oful(T, d, lam, C, lam0, sd_val, algo, source, noise):
    T = v.horizon("T", T)
    d = v.count("d", d)
    lam = v.positive("lambda", lam)
    C = v.positive("C", C)
    lam0 = 1.0 / d if lam0 is None else v.positive("lam0", lam0)
    ends = det_doubling_ends(T, d, lam, C, lam0)
    lengths = np.diff(np.concatenate([[0], ends]))
    idx, length, t_end, sd = truncate(lengths, np.full(lengths.size, sd_val), T)
    paper = d * math.log1p(T / (lam * d)) / math.log1p(C)
    return Schedule(
        algo=algo, T=T, index=idx, length=length, t_end=t_end, noise_scale=sd, paper_count=paper,
        paper_count_label="d log(1 + T/(λd))/log(1 + C) updates (paper bound: (1+C)^ℓ λ^d ≤ det V_T ≤ (λ + T/d)^d)",
        noise=noise, source=source, per_arm=False,
        notes=[f"APPROXIMATION: expected switching times for i.i.d. contexts with E[AAᵀ] ⪰ λ0 I (λ0 = {lam0:g}), "
               "log det V_t/λ^d ≈ d log(1 + tλ0/λ); the real times depend on the played actions",
               "the cumulative noise after ℓ episodes has std √ℓ × the per-episode std (no forgetting)"],
    )


def adac_oful(T, d, rho, lam=1.0, C=1.0, lam0=None) -> Schedule:
    rho = v.positive("rho", rho, allow_inf=True)
    sd = 0.0 if math.isinf(rho) else math.sqrt(2.0 / rho)
    return _oful(T, d, lam, C, lam0, sd, "adac-oful", "seed 003 Algorithm 3 (line 6 switching test), App. F",
                 "Gaussian std √(2/ρ) per coordinate of Y_ℓ, one per episode (seed 003 App. D-C)")


def adar_oful(T, d, alpha, epsilon, lam=1.0, C=1.0, lam0=None) -> Schedule:
    a = v.greater_than("alpha", alpha, 1.0)
    eps = v.positive("rdp-epsilon", epsilon, allow_inf=True)
    sd = 0.0 if math.isinf(eps) else math.sqrt(2.0 * a / eps)
    return _oful(T, d, lam, C, lam0, sd, "adar-oful", "seed 000 Algorithm 4 (switching test), Remark 2",
                 "Gaussian std √(2α/ε) per coordinate of Y_ℓ, one per episode (seed 000 Alg. 4)")


def simulate_det_switches(T: int, d: int, lam: float, C: float, rng: np.random.Generator) -> np.ndarray:
    """Exact switching times of det V_{t−1} > (1+C) det V_τ for i.i.d. uniform unit contexts (one action per
    round), by rank-1 log-det updates: log det V_t = log det V_{t−1} + log(1 + aᵀV_{t−1}⁻¹a). For simulation
    and tests (per-step loop; small T)."""
    Vinv = np.eye(d) / lam
    logdet = d * math.log(lam)
    ref = logdet
    thr = math.log1p(C)
    starts = [1]
    A = rng.standard_normal((T, d))
    A /= np.linalg.norm(A, axis=1, keepdims=True)
    for t in range(1, T + 1):
        if t > 1 and logdet - ref > thr:  # test on V_{t-1} at the start of round t
            starts.append(t)
            ref = logdet
        a = A[t - 1]
        Va = Vinv @ a
        q = float(a @ Va)
        logdet += math.log1p(q)
        Vinv -= np.outer(Va, Va) / (1.0 + q)
    return np.asarray(starts, dtype=np.int64)
