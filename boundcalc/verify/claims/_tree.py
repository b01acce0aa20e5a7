"""The dynamic-sensitivity tree of seed 004 (Algorithm 1) as linear algebra, for the privacy audits of
ERRATA 6 and 7: fixed contexts and actions (one candidate per round, so the algorithm's choices are forced),
the ridge matrices A_t, the sensitivities, the shift that a changed reward r_k causes in each released
quantity, and a lower bound on δ(ε) from a linear test whose tail probabilities come from the exact
characteristic function of a weighted sum of independent Laplace variables (Gil-Pelaez inversion).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass
class TreeInstance:
    X: np.ndarray  # (T, d) played unit contexts
    Ainv: np.ndarray  # (T + 1, d, d): A_t^{-1}, A_t = λI + Σ_{s≤t} x_s x_sᵀ, t = 0..T
    lmin: np.ndarray  # (T + 1,): λ_min(A_t)
    lam: float
    L: float = 1.0

    @property
    def T(self) -> int:
        return self.X.shape[0]

    @property
    def d(self) -> int:
        return self.X.shape[1]


def instance(T: int, d: int, lam: float = 1.0, seed: int = 0) -> TreeInstance:
    """i.i.d. unit contexts on the sphere of R^d (λ0 = 1/d), one candidate per round."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((T, d))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    G = np.concatenate([np.zeros((1, d, d)), np.cumsum(np.einsum("ti,tj->tij", X, X), axis=0)]) + lam * np.eye(d)
    return TreeInstance(X, np.linalg.inv(G), np.linalg.eigvalsh(G)[:, 0], lam)


def sensitivity(inst: TreeInstance, kind: str, delta: float = 0.1) -> np.ndarray:
    """Δ_t, t = 0..T: "exact" 2L/λ_min(A_t); "paper" 2L/λ, then min{2L/λ, 32L/(λ0 t)} once t > 32 ln(1/δ′)/λ0
    (δ′ = δ/log₂T, λ0 = 1/d; sheet docs/formulas/dgs-contextual.md §0)."""
    t = np.arange(inst.T + 1, dtype=float)
    if kind == "exact":
        return 2 * inst.L / inst.lmin
    lam0 = 1.0 / inst.d
    thr = 32 * math.log(math.log2(inst.T) / delta) / lam0
    paper = np.full(t.shape, 2 * inst.L / inst.lam)
    late = t > thr
    paper[late] = np.minimum(paper[late], 32 * inst.L / (lam0 * t[late]))
    return paper


def nodes(T: int) -> np.ndarray:
    """Dyadic nodes [s, e] of the tree over 1..T, shape (n, 2)."""
    out = []
    for j in range(int(T).bit_length()):
        w = 1 << j
        for k in range(T // w):
            out.append((k * w + 1, (k + 1) * w))
    return np.asarray(out, dtype=np.int64)


def node_shifts(inst: TreeInstance, k: int, dr: float = 2.0) -> tuple[np.ndarray, np.ndarray]:
    """Change of every node value θ̂_{e+1} − θ̂_s (θ̂_{t+1} = A_t^{-1} b_t) when r_k moves by ``dr``:
    dr (A_e^{-1} 1[k ≤ e] − A_{s−1}^{-1} 1[k ≤ s−1]) x_k. Returns (nodes, shifts (n, d))."""
    nd = nodes(inst.T)
    s, e = nd[:, 0], nd[:, 1]
    x = inst.X[k - 1]
    ch = dr * (np.einsum("nij,j->ni", inst.Ainv[e], x) * (k <= e)[:, None]
               - np.einsum("nij,j->ni", inst.Ainv[s - 1], x) * (k <= s - 1)[:, None])
    return nd, ch


def release_shifts(inst: TreeInstance, k: int, dr: float = 2.0) -> np.ndarray:
    """Change of every release θ̂_{t+1} = A_t^{-1} b_t, t = 1..T (fresh noise per call): dr A_t^{-1} x_k for t ≥ k."""
    c = dr * np.einsum("tij,j->ti", inst.Ainv[1:], inst.X[k - 1])
    c[: k - 1] = 0.0
    return c


def release_scales(inst: TreeInstance, sens: np.ndarray, epsilon: float) -> list[np.ndarray]:
    """Laplace scales of the noise of release t (t = 1..T): one Lap(Δ_{e_i} log₂T/ε) per set bit i of t,
    e_i = 2^i ⌊t/2^i⌋ (block end, sheet §0)."""
    T = inst.T
    c = math.log2(T) / epsilon
    out = []
    for t in range(1, T + 1):
        bits = [i for i in range(t.bit_length()) if t >> i & 1]
        out.append(np.array([sens[(t >> i) << i] * c for i in bits]))
    return out


def gil_pelaez_sf(a: np.ndarray, xs: np.ndarray, per_panel: int = 16, u_max: float = 400.0):
    """P(N ≥ x) for N = Σ_k a_k L_k, L_k i.i.d. standard Laplace (density e^{−|y|}/2), at the points ``xs``:
    F̄(x) = 1/2 − (1/π) ∫_0^∞ sin(ux) φ(u)/u du with φ(u) = Π_k 1/(1 + a_k²u²) (φ real and even). Computed in
    units of sd(N) by composite Gauss–Legendre on [0, U] (U where log φ < −60, at most ``u_max``; panels of at
    most half a period of sin(ux)). Returns (values, a bound on the neglected tail (1/π)∫_U^∞ φ(u)/u du, from
    φ(u) ≤ φ(U)(1 + a²U²)/(1 + a²u²) for the largest a)."""
    a = np.abs(np.asarray(a, dtype=float))
    a = a[a > 0]
    sd = math.sqrt(2 * float(np.sum(a * a)))
    a = a / sd
    xs = np.asarray(xs, dtype=float) / sd

    def logphi(u):
        out = np.zeros_like(u)
        for chunk in np.array_split(a, max(1, a.size // 20_000)):
            out -= np.sum(np.log1p((chunk[:, None] * u[None, :]) ** 2), axis=0)
        return out

    U = 4.0
    while U < u_max and logphi(np.array([U]))[0] > -60:
        U = min(u_max, U * 1.5)
    z, w = np.polynomial.legendre.leggauss(per_panel)
    panels = max(12, int(math.ceil(U * float(np.max(np.abs(xs), initial=1.0)) / math.pi)))
    edges = np.linspace(0.0, U, panels + 1)
    u = np.concatenate([(z + 1) * (b - a_) / 2 + a_ for a_, b in zip(edges[:-1], edges[1:])])
    ww = np.concatenate([w * (b - a_) / 2 for a_, b in zip(edges[:-1], edges[1:])])
    phi = np.exp(logphi(u))
    integ = np.sin(np.outer(xs, u)) / u * phi * ww
    am = float(a.max())
    tail = float(np.exp(logphi(np.array([U]))[0]) * (1 + (am * U) ** 2) * 0.5 * math.log1p(1 / (am * U) ** 2) / math.pi)
    return 0.5 - integ.sum(axis=1) / math.pi, tail


def linear_test_delta(shifts: np.ndarray, scales: list[np.ndarray], epsilon: float) -> dict:
    """A lower bound on δ(ε) of releases o_m = μ_m + Σ_i Lap(b_{m,i}) (independent over m), between two inputs
    whose means differ by ``shifts`` (m rows, d coordinates; the same Laplace scales per coordinate): the test
    Z = Σ w·o with w = shift/Var gives δ ≥ sup_x P(N ≥ x − s) − e^ε P(N ≥ x), N = Σ w·noise, s = Σ w·shift."""
    var = np.array([2 * float(np.sum(b * b)) for b in scales])
    w = shifts / var[:, None]
    s = float(np.sum(w * shifts))
    terms = np.concatenate([np.outer(w[m], b).ravel() for m, b in enumerate(scales) if np.any(w[m])])
    sd = math.sqrt(2 * float(np.sum(terms**2)))
    xs = np.linspace(-4 * sd, s + 4 * sd, 600)
    sf, tail = gil_pelaez_sf(terms, np.concatenate([xs - s, xs]))
    gap = sf[: xs.size] - math.exp(epsilon) * sf[xs.size:] - (1 + math.exp(epsilon)) * tail
    j = int(np.argmax(gap))
    return {"delta_lower": float(max(0.0, gap[j])), "shift_over_sd": s / sd, "x": float(xs[j]),
            "terms": int(terms.size), "quadrature_tail_bound": tail}
