"""G-optimal (equivalently D-optimal) experimental design on a finite action set.

Definitions (seed 003 Definition 5, Theorem 2; seed 000 Theorem 14 = Kiefer–Wolfowitz): a design pi is a
distribution on the actions, V(pi) = sum_a pi(a) a a^T, g(pi) = max_a ||a||^2_{V(pi)^{-1}} (the *squared*
norm, docs/formulas/zcdp-bandits.md 3.2). Kiefer–Wolfowitz: pi* minimises g iff it maximises log det V, g(pi*) = d, and a
minimiser exists with |Supp(pi*)| <= d(d+1)/2.

Solver: Frank–Wolfe on log det V with away steps (Wolfe–Atwood / Todd–Yildirim "WA-TY"), exact line
search, rank-one (Sherman–Morrison) updates of V^{-1}; stops once g(pi) <= r(1 + tol) (docs/formulas/zcdp-bandits.md §0:
tol = 1e-6). Then a support reduction (Carathéodory on the moment vectors vec(a a^T), which live in a
space of dimension r(r+1)/2) brings the support to at most r(r+1)/2 without increasing g: moving along a
null direction c of the moment vectors keeps V fixed up to the total mass, and we move in the direction
that *decreases* the mass, so after renormalising V(pi) can only grow (g can only shrink).

Actions that do not span R^d: the design is computed in their span (rank r, orthonormal basis ``basis``)
and g uses the pseudo-inverse, so g(pi*) = r (docs/formulas/zcdp-bandits.md §0, "work in their span").
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import InputError


@dataclass
class Design:
    """A design on the K actions. ``weights`` (K,), ``support`` indices with positive weight, ``g`` =
    max_a ||a||^2_{V(pi)^+} (pseudo-inverse when ``rank < d``), ``rank`` = dim span(actions),
    ``basis`` (d, rank) orthonormal basis of the span, ``iterations`` of Frank–Wolfe."""

    weights: np.ndarray
    support: np.ndarray
    g: float
    rank: int
    basis: np.ndarray
    iterations: int

    @property
    def support_size(self) -> int:
        return int(self.support.size)


def _validate_actions(actions) -> np.ndarray:
    A = np.asarray(actions, dtype=float)
    if A.ndim == 1:
        A = A[:, None]
    if A.ndim != 2 or A.shape[0] < 1:
        raise InputError("actions", "a non-empty K x d array", getattr(A, "shape", None))
    if A.shape[1] < 1:
        raise InputError("d", "an integer >= 1", A.shape[1])
    if not np.all(np.isfinite(A)):
        raise InputError("actions", "finite numbers (no NaN/inf)", "non-finite entry")
    return A


def span_basis(actions, rtol: float = 1e-10) -> np.ndarray:
    """Orthonormal basis (d, r) of span(actions) from the SVD (r = numerical rank)."""
    A = _validate_actions(actions)
    _, s, vt = np.linalg.svd(A, full_matrices=False)
    if s.size == 0 or s[0] == 0.0:
        return np.zeros((A.shape[1], 0))
    r = int(np.sum(s > rtol * s[0]))
    return vt[:r].T.copy()


def g_value(actions, weights) -> float:
    """g(pi) = max_a ||a||^2_{V(pi)^+} computed directly (pseudo-inverse of V(pi) on span(actions))."""
    A = _validate_actions(actions)
    w = np.asarray(weights, dtype=float)
    V = (A * w[:, None]).T @ A
    return float(np.max(np.einsum("ij,jk,ik->i", A, np.linalg.pinv(V, rcond=1e-12, hermitian=True), A)))


def _reduce_support(Y: np.ndarray, w: np.ndarray, max_support: int) -> np.ndarray:
    """Carathéodory reduction of the support of w to <= max_support points without increasing g."""
    r = Y.shape[1]
    iu = np.triu_indices(r)
    w = w.copy()
    while True:
        supp = np.flatnonzero(w > 0)
        if supp.size <= max_support:
            return w
        supp = supp[: max_support + 1]  # Carathéodory on D + 1 points at a time
        M = np.einsum("ki,kj->kij", Y[supp], Y[supp])[:, iu[0], iu[1]].T  # (D, D + 1)
        q, _ = np.linalg.qr(M.T, mode="complete")
        c = q[:, -1]  # null vector: M c = 0 (last column of the complete Q of M^T)
        if c.sum() > 0:
            c = -c  # move so that the total mass does not increase
        neg = c < -1e-15 * np.abs(c).max()
        if not neg.any():  # c ~ 0 numerically or sum exactly 0 with c >= 0: flip
            c = -c
            neg = c < -1e-15 * np.abs(c).max()
        ratios = w[supp][neg] / (-c[neg])
        j = int(np.argmin(ratios))
        step = ratios[j]
        ws = w[supp] + step * c
        ws[np.flatnonzero(neg)[j]] = 0.0
        ws[ws < 1e-14] = 0.0
        w[supp] = ws
        w /= w.sum()


def g_optimal_design(actions, tol: float = 1e-6, max_iter: int = 100_000, reduce_support: bool = True) -> Design:
    """Approximate G-optimal design (Frank–Wolfe with away steps until g <= r(1 + tol)).

    Returns weights on the K rows of ``actions`` with support <= r(r+1)/2 (r = rank) when ``reduce_support``.
    Source: seed 003 Definition 5 / Theorem 2 / Eq. 5 (Kiefer–Wolfowitz), Frank–Wolfe as in seed 003 Sec. VII-A.
    """
    A = _validate_actions(actions)
    tol = float(tol)
    if not tol > 0:
        raise InputError("tol", "a number > 0", tol)
    K, d = A.shape
    U = span_basis(A)
    r = U.shape[1]
    if r == 0:
        raise InputError("actions", "not all zero (the design needs a non-zero action)", "all-zero actions")
    Y = A @ U  # coordinates in the span, (K, r)
    # start: uniform on r linearly independent actions (QR with column pivoting), non-singular in the span;
    # a small start keeps the Frank–Wolfe support small
    from scipy.linalg import qr

    _, _, piv = qr(Y.T, pivoting=True, mode="economic")
    w = np.zeros(K)
    w[piv[:r]] = 1.0 / r
    V = (Y * w[:, None]).T @ Y
    Vinv = np.linalg.inv(V)
    it = 0
    for it in range(1, max_iter + 1):
        omega = np.einsum("ij,jk,ik->i", Y, Vinv, Y)
        j = int(np.argmax(omega))
        om_j = omega[j]
        supp = np.flatnonzero(w > 0)
        i = supp[int(np.argmin(omega[supp]))]
        om_i = omega[i]
        if om_j <= r * (1.0 + tol):
            break
        if om_j - r >= r - om_i:  # toward step (Fedorov–Wynn exact line search)
            lam = (om_j / r - 1.0) / (om_j - 1.0)
            w *= 1.0 - lam
            w[j] += lam
            x = Y[j]
            # V <- (1-lam) V + lam x x^T
            Vinv = Vinv / (1.0 - lam)
            Vx = Vinv @ x
            Vinv -= np.outer(Vx, Vx) * (lam / (1.0 + lam * (x @ Vx)))
        else:  # away step from the worst support point
            wi = w[i]
            lam_max = wi / (1.0 - wi)
            lam = min((1.0 - om_i / r) / (om_i - 1.0), lam_max) if om_i > 1.0 else lam_max
            w *= 1.0 + lam
            w[i] -= lam
            if lam >= lam_max * (1 - 1e-12):
                w[i] = 0.0
            x = Y[i]
            Vinv = Vinv / (1.0 + lam)
            Vx = Vinv @ x
            denom = 1.0 - lam * (x @ Vx)
            if denom <= 1e-12:  # numerically singular: recompute
                V = (Y * w[:, None]).T @ Y
                Vinv = np.linalg.pinv(V, hermitian=True)
            else:
                Vinv += np.outer(Vx, Vx) * (lam / denom)
        if it % 200 == 0:  # refresh against round-off
            V = (Y * w[:, None]).T @ Y
            Vinv = np.linalg.inv(V)
    w[w < 0] = 0.0
    w /= w.sum()
    if reduce_support:
        w = _reduce_support(Y, w, r * (r + 1) // 2)
    V = (Y * w[:, None]).T @ Y
    g = float(np.max(np.einsum("ij,jk,ik->i", Y, np.linalg.inv(V), Y)))
    return Design(weights=w, support=np.flatnonzero(w > 0), g=g, rank=r, basis=U, iterations=it)
