"""Episode and batch schedules of the finite-armed private bandit algorithms.

- DP-KLUCB / DP-IMED: geometric batches, seed 001 §4 Algorithm 1, Eq. 14 (sheet eps-global-dp-bernoulli §5):
  cumulative pulls of an arm after its m-th batch n_m = ⌈n_1 α^{m−1}⌉, b_1 = n_1, b_m = n_m − n_{m−1},
  guarded b_m ≥ 1; one fresh Lap(1/ε) on each batch's reward sum (Lemma E.1, Prop 4.2).
- AdaP-KLUCB: per-arm doubling with forgetting (Azize & Basu 2022, Alg. 1, Eq. 7; seed 001 sheet §7.2);
  Lap(1/(ε L)) on the mean of the last episode of length L.
- DP-SE: epochs R_e (Sajed & Sheffet 2019 as used in seed 001 §5; sheet §7.1); Lap(1/(ε R_e)) on each
  arm's epoch mean.
- AdaC-UCB: per-arm doubling, seed 003 Algorithm 4 (App. C), Gaussian variance 1/(2ρ n²) on the mean of
  an episode of n rewards (App. D-C).
- AdaR-UCB: the same doubling, seed 000 Algorithm 2 (Eq. 6), variance α/(2ε n²) (= 1/(2ρ n²), ρ = ε/α).

Per-arm schedules (which arm is played) depend on the instance; the functions here give the schedule
of ONE arm that would be played for all T rounds (its own episode sequence), the object the O(log T)
episode counts are about. The noise scales follow the sheets; boundcalc.privacy.mechanisms did not
exist when this was written, so they are computed here.
"""

from __future__ import annotations

import math

import numpy as np

from .. import validate as v
from ..errors import InputError
from .base import Schedule, check_rows, truncate


def geometric_batches(T: int, n1: int = 1, ratio: float = 2.0) -> np.ndarray:
    """Per-arm batch sizes b_m of seed 001 Eq. 14 (n_m = ⌈n_1 α^{m−1}⌉, b_m = max(1, n_m − n_{m−1})),
    enough of them to reach T cumulative pulls (vectorised over m)."""
    T = v.horizon("T", T)
    n1 = v.count("n1", n1)
    ratio = v.greater_than("batch-ratio", ratio, 1.0)
    # Without the guard n_m ≥ T once m − 1 ≥ log_α(T/n1); the guard only makes batches longer.
    M = int(math.ceil(math.log(max(T / n1, 1.0)) / math.log(ratio))) + 2
    check_rows(M, "batch-ratio")
    m = np.arange(1, M + 1, dtype=float)
    with np.errstate(over="ignore"):
        nominal = np.ceil(n1 * ratio ** (m - 1))
    nominal = np.minimum(nominal, 4.0e18)  # past T anyway; keep int64-safe
    b = np.empty(M, dtype=np.int64)
    b[0] = n1
    b[1:] = np.maximum(1, (nominal[1:] - nominal[:-1]).astype(np.int64))
    return b


def dp_klucb(T, epsilon, n1: int = 1, ratio: float = 2.0, algo: str = "dp-klucb") -> Schedule:
    """Batches of one arm of DP-KLUCB / DP-IMED (seed 001 Algorithm 1, Eq. 14); Laplace b = 1/ε per batch sum."""
    T = v.horizon("T", T)
    eps = v.positive("epsilon", epsilon, allow_inf=True)
    b = geometric_batches(T, n1, ratio)
    idx, length, t_end, _ = truncate(b, np.zeros(b.size), T)
    scale = np.full(idx.size, 0.0 if math.isinf(eps) else 1.0 / eps)
    paper = 1.0 + max(0.0, math.log(T / n1) / math.log(ratio))
    return Schedule(
        algo=algo, T=T, index=idx, length=length, t_end=t_end, noise_scale=scale,
        paper_count=paper, paper_count_label="1 + log_α(T/n_1) batches of one arm (seed 001 Eq. 14: m = O(ln n_m))",
        noise="Laplace scale b = 1/ε on each batch's reward sum (seed 001 Lemma E.1, Prop 4.2)",
        source="seed 001 Algorithm 1, Eq. 14 (n_m = ⌈n_1 α^{m−1}⌉, b_m ≥ 1 guard)", per_arm=True,
        notes=[f"one arm's batches (n_1 = {n1}, α = {ratio:g}); over K arms the count is at most "
               "K(1 + log_α(T/(K n_1))) by concavity (DERIVED)"],
    )


def per_arm_doubling(T) -> np.ndarray:
    """Lengths of one arm's own episodes under per-arm doubling after one initial pull: 1, 1, 2, 4, 8, …"""
    T = v.horizon("T", T)
    J = max(1, int(math.ceil(math.log2(T)))) + 2
    return np.concatenate([[1], 2 ** np.arange(0, J, dtype=np.int64)])


def _doubling_schedule(T, algo, scales_fn, noise, source, notes):
    T = v.horizon("T", T)
    L = per_arm_doubling(T)
    idx, length, t_end, _ = truncate(L, np.zeros(L.size), T)
    # noise of an episode's mean is computed from the episode's (untruncated) sample count
    scale = scales_fn(L[: idx.size].astype(float))
    paper = 1.0 + math.log2(T)
    return Schedule(
        algo=algo, T=T, index=idx, length=length, t_end=t_end, noise_scale=scale, paper_count=paper,
        paper_count_label="1 + log2 T episodes of one arm; all K arms: ≤ K(1 + log2(T/K)) (seed 003 sheet, DERIVED)",
        noise=noise, source=source, per_arm=True,
        notes=["one arm's own episodes (index 1 = the initial pull); between them other arms are played"] + notes,
    )


def adap_klucb(T, epsilon) -> Schedule:
    """AdaP-KLUCB per-arm doubling with forgetting (Azize & Basu 2022 Alg. 1; seed 001 sheet §7.2)."""
    eps = v.positive("epsilon", epsilon, allow_inf=True)
    return _doubling_schedule(
        T, "adap-klucb", lambda n: (0.0 * n if math.isinf(eps) else 1.0 / (eps * n)),
        "Laplace scale 1/(ε L) on the mean of the episode's L rewards (Lap(1/ε) on the sum; sheet §7.2)",
        "Azize & Basu 2022, Algorithm 1 and Eq. (7) (baseline of seed 001 §5)", [])


def adac_ucb(T, rho) -> Schedule:
    """AdaC-UCB per-arm doubling (seed 003 Algorithm 4); Gaussian std 1/(n√(2ρ)) on the episode mean (App. D-C)."""
    rho = v.positive("rho", rho, allow_inf=True)
    return _doubling_schedule(
        T, "adac-ucb", lambda n: (0.0 * n if math.isinf(rho) else 1.0 / (n * math.sqrt(2.0 * rho))),
        "Gaussian std σ = 1/(n√(2ρ)) on the mean of the episode's n rewards (variance 1/(2ρn²), seed 003 App. D-C)",
        "seed 003 Algorithm 4 (App. C), Eq. 14",
        ["the paper's n_a = N_a/2 = 1/2 after initialisation would double the first σ; the true count is used"])


def adar_ucb(T, alpha, epsilon) -> Schedule:
    """AdaR-UCB per-arm doubling (seed 000 Algorithm 2, Eq. 6); Gaussian variance α/(2ε n²)."""
    a = v.greater_than("alpha", alpha, 1.0)
    eps = v.positive("rdp-epsilon", epsilon, allow_inf=True)
    return _doubling_schedule(
        T, "adar-ucb", lambda n: (0.0 * n if math.isinf(eps) else np.sqrt(a / (2.0 * eps)) / n),
        "Gaussian std σ = √(α/(2ε))/n on the mean of the episode's n rewards (variance α/(2εn²), seed 000 Eq. 6)",
        "seed 000 Algorithm 2, Eq. 6",
        ["seed 000 states at most K⌈log2 T⌉ episodes in total"])


def dp_se_epoch_R(e, K_active: int, epsilon: float, beta: float):
    """R_e = max{32 ln(8|S|e²/β)/Δ_e², 8 ln(4|S|e²/β)/(ε Δ_e)} + 1, Δ_e = 2^{−e} (DP-SE; seed 001 sheet §7.1)."""
    e = np.asarray(e, dtype=float)
    dl = 2.0 ** (-e)
    log_inv_beta = -np.log(beta)  # ln(8|S|e²/β) as a sum of logs: β = 1e-320 overflowed 8|S|e²/β
    a = 32.0 * (np.log(8.0 * K_active * e**2) + log_inv_beta) / dl**2
    with np.errstate(over="ignore", divide="ignore", under="ignore"):  # ε ~ 1e-300: R_e = inf, one epoch past T
        b = 0.0 if math.isinf(epsilon) else 8.0 * (np.log(4.0 * K_active * e**2) + log_inv_beta) / (epsilon * dl)
    return np.maximum(a, b) + 1.0


def dp_se(T, K, epsilon, beta=None) -> Schedule:
    """DP-SE epochs with all K arms active (seed 001 §5 baseline; sheet §7.1): epoch e pulls every active arm
    ⌊R_e⌋ times; Laplace 1/(ε R_e) on each arm's epoch mean."""
    T = v.horizon("T", T)
    K = v.count("K", K)
    eps = v.positive("epsilon", epsilon, allow_inf=True)
    beta = 1.0 / T if beta is None else v.open_unit("beta", beta)
    E = 64  # Δ_e = 2^{-e}: 4^64 ≫ 1e18
    e = np.arange(1, E + 1)
    R = np.floor(dp_se_epoch_R(e, K, eps, beta))
    with np.errstate(over="ignore"):
        idx, length, t_end, Rk = truncate(K * R, R, T)  # inf lengths are cut at T by truncate
    scale = np.zeros(idx.size) if math.isinf(eps) else 1.0 / (eps * Rk)
    # DERIVED: Σ_{e≤E} K·32·4^e ln(8K/β) ≥ T gives E ≥ log_4(3T/(32 K ln(8K/β)) + 4) − 1
    paper = max(1.0, math.log(3.0 * T / (32.0 * K * math.log(8.0 * K / beta)) + 4.0, 4) - 1.0)
    return Schedule(
        algo="dp-se", T=T, index=idx, length=length, t_end=t_end, noise_scale=scale, paper_count=paper,
        paper_count_label="log_4(3T/(32K ln(8K/β)) + 4) − 1 epochs (DERIVED from R_e ≥ 32·4^e ln(8K/β))",
        noise="Laplace scale 1/(ε R_e) on each arm's epoch mean (Lap(1/ε) on the epoch sum; sheet §7.1)",
        source="Sajed & Sheffet 2019 DP-SE as in seed 001 §5 (sheet §7.1: R_e, Δ_e = 2^{−e})", per_arm=False,
        notes=[f"all K = {K} arms active (no elimination); eliminations shorten later epochs", f"β = {beta:g}"],
    )
