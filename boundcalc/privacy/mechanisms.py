"""Noise scales of the privacy mechanisms used by the five seeds, each citing its source.

Generic mechanisms (sensitivity Δ > 0, budget validated with InputError):
- Laplace, pure ε-DP: b = Δ₁/ε (Dwork, McSherry, Nissim & Smith 2006; Dwork & Roth 2014, Thm 3.6).
- Gaussian, ρ-zCDP: σ = Δ₂/√(2ρ) (Bun & Steinke 2016, Prop. 1.6; seed 003 Thm 18, b = 1/(2ρ)).
- Gaussian, (α, ε)-RDP: σ = Δ₂·√(α/(2ε)) (Mironov 2017, Prop. 7 / Cor. 3; seed 000 Thm 2).
- Gaussian, (ε, δ)-DP classical: σ = Δ₂√(2 ln(1.25/δ))/ε (Dwork & Roth 2014, Thm A.1, proved for ε < 1;
  seed 002 Lemma 2.1, seed 003 Thm 18).
- Gaussian, (ε, δ)-DP analytic: smallest σ with δ_G(ε; Δ/σ) ≤ δ, δ_G the exact privacy curve
  δ_G(ε; μ) = Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ), μ = Δ/σ (Balle & Wang 2018, Thm 8), found by bisection.
- Binary-tree (continual counting) mechanism (Dwork, Naor, Pitassi & Rothblum 2010; Chan, Shi & Song 2011):
  dyadic nodes over 1..T, L = ⌈log₂(T+1)⌉ = ⌊log₂T⌋ + 1 levels; each element lies in at most L nodes and
  each prefix sum t is the sum of popcount(t) ≤ L nodes.

Seed-specific calibrations are below the generic ones (AdaC-* of seed 003, AdaR-* of seed 000, the LDP OLS
release of seed 002, the dynamic-sensitivity tree of seed 004), with ERRATA caveats attached.
"""

from __future__ import annotations

import math

import numpy as np

from .. import validate as v
from ..errors import InputError

# --------------------------------------------------------------------------------------------------
# generic scales


def laplace_scale(sensitivity, epsilon):
    """Laplace scale b = Δ₁/ε for pure ε-DP (Dwork et al. 2006; Dwork & Roth 2014, Thm 3.6)."""
    d = v.positive("sensitivity", sensitivity)
    e = v.positive("epsilon", epsilon)
    return d / e


def gaussian_sigma_zcdp(sensitivity, rho):
    """σ = Δ₂/√(2ρ): the Gaussian mechanism is ρ-zCDP (Bun & Steinke 2016, Prop. 1.6; seed 003 Thm 18)."""
    d = v.positive("sensitivity", sensitivity)
    r = v.positive("rho", rho)
    return d / math.sqrt(2.0 * r)


def gaussian_sigma_rdp(sensitivity, alpha, epsilon):
    """σ = Δ₂√(α/(2ε)): the Gaussian mechanism is (α, ε)-RDP (Mironov 2017, Prop. 7; seed 000 Thm 2)."""
    d = v.positive("sensitivity", sensitivity)
    a = v.greater_than("alpha", alpha, 1.0)
    e = v.positive("rdp-epsilon", epsilon)
    return d * math.sqrt(a / (2.0 * e))


def gaussian_rdp(alpha, sensitivity, sigma):
    """RDP curve of the Gaussian mechanism: D_α(N(Δ,σ²)‖N(0,σ²)) = αΔ²/(2σ²) (Mironov 2017, Prop. 7).
    Vectorised in alpha."""
    a = np.asarray(alpha, dtype=float)
    if a.size and ((a <= 1) | np.isnan(a) | np.isinf(a)).any():
        raise InputError("alpha", "a finite number > 1", float(np.ravel(a)[0]))
    d = v.positive("sensitivity", sensitivity)
    s = v.positive("sigma", sigma)
    out = a * d * d / (2.0 * s * s)
    return float(out) if out.ndim == 0 else out


def gaussian_zcdp_rho(sensitivity, sigma):
    """ρ = Δ²/(2σ²) of the Gaussian mechanism (Bun & Steinke 2016, Prop. 1.6)."""
    d = v.positive("sensitivity", sensitivity)
    s = v.positive("sigma", sigma)
    return d * d / (2.0 * s * s)


def gaussian_sigma_classic(sensitivity, epsilon, delta, strict: bool = False):
    """σ = Δ₂√(2 ln(1.25/δ))/ε for (ε, δ)-DP (Dwork & Roth 2014, Thm A.1; seed 002 Lemma 2.1).

    The theorem is proved for ε < 1 only; ``strict=True`` rejects ε ≥ 1. (Seed 002 sheet: the value still
    meets δ up to ε ≈ 5.74 / 6.77 / 8.42 at δ = 0.1 / 1e-2 / 1e-5; check with ``gaussian_delta``.)"""
    d = v.positive("sensitivity", sensitivity)
    e = v.positive("epsilon", epsilon)
    dl = v.open_unit("delta", delta)
    if strict and e >= 1:
        raise InputError("epsilon", "< 1 for the classical Gaussian calibration (Dwork–Roth Thm A.1)", e)
    return d * math.sqrt(2.0 * math.log(1.25 / dl)) / e


def gaussian_delta(epsilon, sensitivity, sigma):
    """Exact privacy curve of the Gaussian mechanism (Balle & Wang 2018, Thm 8):
    δ(ε) = Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ), μ = Δ/σ. Computed with log Φ for large ε. Vectorised in ε."""
    from scipy.special import log_ndtr, ndtr  # deferred: start-up of `regret`

    e = np.asarray(epsilon, dtype=float)
    if e.size and ((e < 0) | np.isnan(e)).any():
        raise InputError("epsilon", "a number >= 0", float(np.ravel(e)[0]))
    d = v.positive("sensitivity", sensitivity)
    s = v.positive("sigma", sigma)
    mu = d / s
    a = mu / 2.0 - e / mu
    b = -mu / 2.0 - e / mu
    out = ndtr(a) - np.exp(e + log_ndtr(b))
    out = np.clip(out, 0.0, 1.0)
    return float(out) if out.ndim == 0 else out


def gaussian_epsilon(delta, sensitivity, sigma):
    """Smallest ε ≥ 0 with δ_G(ε; Δ/σ) ≤ δ on the exact Gaussian curve (Balle & Wang 2018, Thm 8), by
    bisection (δ_G decreases in ε). This is the Gaussian mechanism's own ε(δ): a lower limit for any
    conversion from ρ = Δ²/(2σ²)-zCDP, since that mechanism is ρ-zCDP."""
    dl = v.open_unit("delta", delta)
    d = v.positive("sensitivity", sensitivity)
    s = v.positive("sigma", sigma)
    if gaussian_delta(0.0, d, s) <= dl:
        return 0.0
    lo, hi = 0.0, 1.0
    while gaussian_delta(hi, d, s) > dl:
        lo, hi = hi, hi * 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if gaussian_delta(mid, d, s) <= dl:
            hi = mid
        else:
            lo = mid
        if hi - lo <= 1e-13 * max(hi, 1e-300):
            break
    return hi


def gaussian_delta_mp(epsilon, mu, dps: int = 50):
    """mpmath version of ``gaussian_delta`` with μ = Δ/σ, at ``dps`` digits (Balle & Wang 2018, Thm 8)."""
    import mpmath

    with mpmath.workdps(dps):
        e = mpmath.mpf(epsilon)
        m = mpmath.mpf(mu)
        return mpmath.ncdf(m / 2 - e / m) - mpmath.exp(e) * mpmath.ncdf(-m / 2 - e / m)


def gaussian_sigma_analytic(sensitivity, epsilon, delta, rtol: float = 1e-12):
    """Smallest σ with δ_G(ε; Δ/σ) ≤ δ (analytic Gaussian mechanism, Balle & Wang 2018, Thm 8 / Alg. 1),
    by bisection on σ (δ_G decreases in σ). Valid for every ε > 0."""
    d = v.positive("sensitivity", sensitivity)
    e = v.positive("epsilon", epsilon)
    dl = v.open_unit("delta", delta)
    lo, hi = d * 1e-3, d
    while gaussian_delta(e, d, lo) <= dl:
        lo /= 2.0
    while gaussian_delta(e, d, hi) > dl:
        hi *= 2.0
    for _ in range(300):
        mid = 0.5 * (lo + hi)
        if gaussian_delta(e, d, mid) <= dl:
            hi = mid
        else:
            lo = mid
        if hi - lo <= rtol * hi:
            break
    return hi


def laplace_rdp(alpha, scale, sensitivity=1.0):
    """RDP curve of the Laplace mechanism with scale b and L1 sensitivity Δ (Mironov 2017, Table II):
    ε(α) = ln( α/(2α−1) e^{(α−1)Δ/b} + (α−1)/(2α−1) e^{−αΔ/b} ) / (α−1)."""
    a = v.greater_than("alpha", alpha, 1.0)
    b = v.positive("scale", scale)
    d = v.positive("sensitivity", sensitivity)
    x = d / b
    t1 = math.log(a / (2 * a - 1)) + (a - 1) * x
    t2 = math.log((a - 1) / (2 * a - 1)) - a * x
    return float(np.logaddexp(t1, t2)) / (a - 1)


# --------------------------------------------------------------------------------------------------
# binary-tree mechanism


def tree_levels(T) -> int:
    """Number of levels of the binary tree over 1..T: ⌈log₂(T+1)⌉ = ⌊log₂T⌋ + 1 (Chan, Shi & Song 2011,
    Sec. 3.4; Dwork et al. 2010). Each element lies in at most this many released nodes."""
    n = v.count("T", T)
    return int(n).bit_length()


def tree_nodes(T) -> list[tuple[int, int]]:
    """All dyadic nodes [k·2^j + 1, (k+1)·2^j] inside 1..T (the released p-sums of Chan, Shi & Song 2011)."""
    n = v.count("T", T, maximum=1e7)
    out = []
    for j in range(tree_levels(n)):
        w = 1 << j
        for k in range(n // w):
            out.append((k * w + 1, (k + 1) * w))
    return out


def tree_prefix_nodes(t) -> list[tuple[int, int]]:
    """The popcount(t) dyadic nodes whose disjoint union is 1..t (binary expansion of t)."""
    n = v.count("t", t)
    out, start = [], 0
    for j in reversed(range(n.bit_length())):
        if n >> j & 1:
            out.append((start + 1, start + (1 << j)))
            start += 1 << j
    return out


def tree_laplace_scale(sensitivity, epsilon, T):
    """Per-node Laplace scale b = L·Δ₁/ε, L = ``tree_levels(T)``: each element is in ≤ L nodes, so the whole
    stream of prefix sums is ε-DP (Chan, Shi & Song 2011, Thm 3.5; Dwork et al. 2010)."""
    return tree_levels(T) * laplace_scale(sensitivity, epsilon)


def tree_gaussian_sigma(sensitivity, rho, T):
    """Per-node Gaussian σ = Δ₂√(L/(2ρ)): ρ split evenly over the L levels an element touches
    (zCDP composition, Bun & Steinke 2016 Lemma 2.3; seed 004 sheet §1.4: L·Δ²/(2σ²) = ρ)."""
    L = tree_levels(T)
    return gaussian_sigma_zcdp(sensitivity, rho) * math.sqrt(L)


def tree_prefix_noise_std(t, node_std) -> float:
    """Std of the noise in the released prefix sum at time t: √popcount(t) · node_std (independent nodes).
    For Laplace nodes pass node_std = √2·b."""
    n = v.count("t", t)
    s = v.positive("node-std", node_std)
    return math.sqrt(bin(n).count("1")) * s


def tree_max_prefix_noise_std(T, node_std) -> float:
    """Largest prefix-noise std over t ≤ T: √(⌊log₂(T+1)⌋) · node_std (t = 2^k − 1 has the most set bits)."""
    n = v.count("T", T)
    s = v.positive("node-std", node_std)
    return math.sqrt((n + 1).bit_length() - 1) * s


def tree_prefix_noise(T, node_scale, rng, kind: str = "laplace", size: int | None = None):
    """Sample the noise of all T released prefix sums with memoised node noise (each node drawn once).

    Returns an array of shape (T,) (or (size, T)): entry t−1 is the sum of the noises of the popcount(t)
    nodes of ``tree_prefix_nodes(t)``. ``kind`` is "laplace" (node_scale = b) or "gaussian" (= σ)."""
    n = v.count("T", T, maximum=1e6)
    s = v.positive("node-scale", node_scale)
    if kind not in ("laplace", "gaussian"):
        raise InputError("kind", "'laplace' or 'gaussian'", kind)
    m = 1 if size is None else v.count("size", size)
    out = np.zeros((m, n))
    for j in range(n.bit_length()):
        w = 1 << j
        nk = n // w
        if nk == 0:
            continue
        z = rng.laplace(0.0, s, (m, nk)) if kind == "laplace" else rng.normal(0.0, s, (m, nk))
        t = np.arange(1, n + 1)
        has = (t >> j) & 1 == 1
        # the level-j node used by t is the one ending at (t >> (j+1) << (j+1)) + 2^j, index k = that/w − 1
        k = ((t >> (j + 1)) << 1)  # node index at level j
        out[:, has] += z[:, k[has]]
    return out[0] if size is None else out


TREE_MODES = ("memo", "fresh")


class TreeNoise:
    """Noise of the binary-tree (continual counting) mechanism for the prefix sums 1..t, t = 1, 2, …, T, of a
    vector stream, for a batch of runs, produced chunk by chunk (Dwork, Naor, Pitassi & Rothblum 2010; Chan,
    Shi & Song 2011; per-node scales as in seed 004 Alg. 1).

    The prefix 1..t is the disjoint union of the dyadic nodes [e_i − 2^i + 1, e_i], e_i = 2^i⌊t/2^i⌋, one for
    each set bit i of t (``tree_prefix_nodes``); the released noise of prefix t is the sum of its nodes' noises.
    Node (level i, end e) has scale ``node_scale(i, e)`` (vectorised: integer arrays in, floats out).

    * ``tree="memo"`` — the tree mechanism: a node's noise is drawn once, when it is first part of a released
      prefix (at t = e, where it is the node of t's lowest set bit), and reused for every later t whose
      decomposition contains it. Exactly one new node per step; η_t = (nodes of the set bits of t above its
      lowest) + (the new node).
    * ``tree="fresh"`` — a labelled variant, *not* the tree mechanism: every node of t's decomposition is
      redrawn at every t (popcount(t) independent draws per step; consecutive releases share no noise). This is
      the reading of seed 004 Alg. 1 under which ERRATA 7 finds the (ε, δ) claim false; kept for audits.

    Draw order (so that a step-by-step implementation consumes the same stream): for t ascending, for the
    nodes drawn at t in ascending level, one standard ``kind`` array of shape ``shape`` from ``rng``, times the
    node's scale. ``next(c)`` takes a chunk's draws at once (the same numbers as one call per node).
    """

    def __init__(self, T, shape, node_scale, rng, tree: str = "memo", kind: str = "laplace"):
        self.T = int(v.count("T", T))
        if tree not in TREE_MODES:
            raise InputError("tree", "one of " + ", ".join(TREE_MODES), tree)
        if kind not in ("laplace", "gaussian"):
            raise InputError("kind", "'laplace' or 'gaussian'", kind)
        self.shape = tuple(int(s) for s in shape)
        self.node_scale, self.rng, self.tree, self.kind = node_scale, rng, tree, kind
        self.levels = self.T.bit_length()
        self.t = 0  # steps produced so far
        # acc[i] = sum of the current nodes at levels >= i among the set bits of the last t (memo only)
        self.acc = np.zeros((self.levels + 1,) + self.shape)

    def _draw(self, n):
        size = (n,) + self.shape
        return self.rng.laplace(0.0, 1.0, size) if self.kind == "laplace" else self.rng.standard_normal(size)

    def scales(self, t0: int, c: int) -> np.ndarray:
        """(c, levels) node scales of the decompositions of t = t0+1..t0+c (0 where the bit is not set)."""
        ts = np.arange(t0 + 1, t0 + c + 1, dtype=np.int64)
        lv = np.arange(self.levels, dtype=np.int64)
        bits = ((ts[:, None] >> lv) & 1).astype(bool)
        ends = (ts[:, None] >> lv) << lv
        out = np.zeros(bits.shape)
        out[bits] = self.node_scale(np.broadcast_to(lv, ends.shape)[bits], ends[bits])
        return out

    _MAX_DRAWS = 2**22  # entries drawn at once (fresh trees draw up to `levels` nodes per step)

    def next(self, c: int):
        """(noise (c,)+shape of the prefixes t+1..t+c, their node scales (c, levels))."""
        c = int(c)
        if c < 1 or self.t + c > self.T:
            raise InputError("c", f"in [1, {self.T - self.t}] (steps left up to T)", c)
        per_step = int(np.prod(self.shape, dtype=np.int64)) * (self.levels if self.tree == "fresh" else 1)
        piece = max(1, self._MAX_DRAWS // max(per_step, 1))
        if c > piece:  # bounded memory; the same numbers (the draws are sequential)
            parts = [self.next(min(piece, c - k)) for k in range(0, c, piece)]
            return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
        t0 = self.t
        sc = self.scales(t0, c)
        out = np.empty((c,) + self.shape)
        ts = np.arange(t0 + 1, t0 + c + 1, dtype=np.int64)
        if self.tree == "memo":
            low = np.log2(ts & -ts).astype(np.int64)  # level of the node first released at t (exact: a power of 2)
            new = self._draw(c)
            new *= sc[np.arange(c), low].reshape((c,) + (1,) * len(self.shape))
            acc = self.acc
            for s in range(c):
                lo = low[s]
                eta = acc[lo + 1] + new[s]
                acc[: lo + 1] = eta
                out[s] = eta
        else:
            rows, cols = np.nonzero(((ts[:, None] >> np.arange(self.levels)) & 1).astype(bool))  # row-major: t ascending, then level ascending (the draw order)
            z = self._draw(rows.size)
            z *= sc[rows, cols].reshape((-1,) + (1,) * len(self.shape))
            starts = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]])
            out[:] = np.add.reduceat(z, starts, axis=0)
        self.t += c
        return out, sc


# --------------------------------------------------------------------------------------------------
# seed-specific calibrations


def adac_ucb_noise_var(n, rho):
    """AdaC-UCB: variance 1/(2ρ n²) of the episode mean of n rewards in [0, 1] (sensitivity 1/n), seed 003
    Eq. 14 / App. D-C."""
    nn = v.positive("n", n)
    return gaussian_sigma_zcdp(1.0 / nn, rho) ** 2


def adac_ucb_bonus_privacy_term(n, rho):
    """The privacy part 1/(ρ n²) inside AdaC-UCB's bonus B_a (seed 003 Eq. 14): twice the noise variance."""
    return 2.0 * adac_ucb_noise_var(n, rho)


def adac_gope_noise_var(d, rho, c_l):
    """AdaC-GOPE Line 12 (seed 003 Alg. 2): N_l ~ N(0, (2d/(ρ c_l)) I_d); covers sensitivity 2g_l because
    g_l² ≤ d/c_l for an exact G-optimal design (Kiefer–Wolfowitz, seed 003 Thm 2)."""
    dd = v.positive("d", d)
    r = v.positive("rho", rho)
    c = v.positive("c_l", c_l)
    return 2.0 * dd / (r * c)


def adac_oful_noise_var(rho, episodes: int = 1):
    """AdaC-OFUL: per-episode Y ~ N(0, (2/ρ) I_d) (sensitivity 2), cumulative 2ℓ/ρ after ℓ episodes
    (seed 003 App. D-C, "price of not forgetting")."""
    e = v.count("episodes", episodes)
    return e * gaussian_sigma_zcdp(2.0, rho) ** 2


def adar_ucb_noise_var(n, alpha, epsilon):
    """AdaR-UCB: variance α/(2ε n²) (seed 000 Alg. 2, Eq. 6; sensitivity 1/n)."""
    nn = v.positive("n", n)
    return gaussian_sigma_rdp(1.0 / nn, alpha, epsilon) ** 2


def adar_gope_noise_var(alpha, epsilon):
    """AdaR-GOPE: N_a ~ N(0, 2α/ε) per support arm (seed 000 Alg. 3); matches sensitivity 2 (seed 000
    sheet §1.4; ERRATA 2: the proof says 1, a typo)."""
    return gaussian_sigma_rdp(2.0, alpha, epsilon) ** 2


def adar_oful_noise_var(alpha, epsilon, episodes: int = 1):
    """AdaR-OFUL: Y_ℓ ~ N(0, (2α/ε) I_d) per episode, cumulative 2αℓ/ε (seed 000 Alg. 4)."""
    e = v.count("episodes", episodes)
    return e * gaussian_sigma_rdp(2.0, alpha, epsilon) ** 2


LDP_OLS_CAVEAT = (
    "proof gap (C_B ≲ 2) / statement violated (Prop. 3.1, C_B ≥ 3–4): ERRATA 8 — ξ noise 2× small, W noise "
    "∝ C_B not C_B², ln(1.25/δ) where the (ε/2, δ/2) split needs ln(2.5/δ)"
)


def ldp_sigma(epsilon, delta):
    """σ_{ε,δ} = 2√(2 ln(1.25/δ))/ε of seed 002 Sec. 3.1 (Eq. 3.3; the symbol drops the sensitivity)."""
    e = v.positive("ldp-epsilon", epsilon)
    d = v.open_unit("ldp-delta", delta)
    return 2.0 * math.sqrt(2.0 * math.log(1.25 / d)) / e


def ldp_ols_noise_stds(epsilon, delta, C_B=1.0, c_r=1.0, safe: bool = False):
    """Noise stds (W entries, ξ entries) of the LDP OLS release ψ^OLS (seed 002 Eq. 3.3).

    Paper (``safe=False``): std(W) = 2C_B σ_{ε,δ}, std(ξ) = C_B c_r σ_{ε,δ} — caveat ``LDP_OLS_CAVEAT``.
    Safe (seed 002 sheet §1.4, DERIVED, classical regime): per part (ε/2, δ/2) with sensitivities √2·C_B²
    and 2c_rC_B: std(W) = √2 C_B² √(2 ln(2.5/δ))/(ε/2), std(ξ) = 2c_rC_B √(2 ln(2.5/δ))/(ε/2)."""
    e = v.positive("ldp-epsilon", epsilon)
    d = v.open_unit("ldp-delta", delta)
    cb = v.positive("C_B", C_B)
    cr = v.positive("c_r", c_r)
    if not safe:
        s = ldp_sigma(e, d)
        return 2.0 * cb * s, cb * cr * s
    k = math.sqrt(2.0 * math.log(2.5 / d)) / (e / 2.0)
    return math.sqrt(2.0) * cb * cb * k, 2.0 * cr * cb * k


DGS_TREE_CAVEAT = (
    "proof gap: ERRATA 6/7 — the privacy proof counts only the ≈ log T nodes containing the changed reward; "
    "ε' = ε/log₂T against ⌈log₂T⌉+1 levels is off by one (seed 004 sheet §7.4)"
)


def dgs_node_laplace_scale(delta_sens, epsilon, T):
    """Seed 004 Alg. 1: node i gets Lap(Δ_{e_i}·log₂T/ε) (ε' = ε/log₂T); caveat ``DGS_TREE_CAVEAT``.
    The standard tree would use ``tree_laplace_scale`` (L = ⌊log₂T⌋ + 1 levels)."""
    d = v.positive("sensitivity", delta_sens)
    e = v.positive("epsilon", epsilon)
    n = v.count("T", T, minimum=2)
    return d * math.log2(n) / e
