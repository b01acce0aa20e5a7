"""Indexes of seed 001 Algorithm 1: DP-KLUCB (Eq. 12) and DP-IMED (Eq. 13), built on d_eps.

DP-KLUCB (seed 001 Eq. 12; sheet §5): U = max{ q in [0, 1] : N d_eps([x]_0^1, q) <= ln t }.
Since d_eps(x, .) is increasing on [x, 1] with d_eps(x, 1) = eps (1 - x), with L = ln t / N
(sheet §5 "Computing U_i"):
  * N eps (1 - x) <= ln t                       ->  U = 1;
  * q0 = x e^eps / (1 - x + x e^eps) (regime boundary); if kl(x, q0) >= L, U = kl-UCB root of kl(x,q) = L
    in [x, q0] (low-privacy branch, Cappé et al. 2013);
  * otherwise U = (1 - e^{-(L + eps x)}) / (1 - e^{-eps})  (inverse of the high-privacy branch, Eq. 31).
DP-IMED (seed 001 Eq. 13; sheet §5): I_i = N_i d_eps([mu_i]_0^1, [max_j mu_j]_0^1) + ln N_i, pull argmin.
The non-private IMED index (Honda & Takemura 2015; sheet §7.4) is the eps -> inf limit (d_eps -> kl).
"""

from __future__ import annotations

import numpy as np
from ._special import expit

from ..errors import InputError
from ..validate import positive_array
from .d_eps import _check_eps, _d_eps, _d_eps_mp
from .kl import _kl, _kl_mp, _kl_ucb, _kl_ucb_mp, _mp_pos, _out


def _finite(name, a):
    a = np.asarray(a, dtype=float)
    if a.size and not np.isfinite(a).all():
        raise InputError(name, "a finite number", float(a[~np.isfinite(a)].ravel()[0]))
    return a


def _t_array(t):
    a = np.asarray(t, dtype=float)
    bad = np.isnan(a) | (a < 1) | np.isinf(a)
    if a.size and bad.any():
        raise InputError("t", "a finite number >= 1", float(a[bad].ravel()[0]))
    return a


def dp_klucb_index(x, N, t, epsilon):
    """DP-KLUCB index max{q in [0,1] : N d_eps(clip(x), q) <= ln t} (seed 001 Eq. 12; sheet §5).

    x is the private (possibly out-of-[0,1]) mean and is clipped to [0, 1]; N > 0 pulls; t >= 1; eps > 0
    finite. Vectorised over broadcast arrays using the closed-form branches of sheet §5 and the vectorised
    kl-UCB root for the low-privacy branch.
    """
    x = np.clip(_finite("x", x), 0.0, 1.0)
    N = positive_array("N", N)
    t = _t_array(t)
    e = _check_eps(epsilon, allow_inf=False)
    x, N, t, e = np.broadcast_arrays(x, N, t, e)
    # x < 1e-300 is treated as 0 (changes the index by O(eps x); avoids subnormal arithmetic in kl(x, q0))
    x_in, x = x, np.where(x < 1e-300, 0.0, x)
    L = np.log(t) / N
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        lx = np.log(x) - np.log1p(-x)
        q0 = expit(lx + e)  # regime boundary: d_eps(x, q) = kl(x, q) iff q <= q0
        kl_q0 = _kl(x, q0)
        # inverse of the high-privacy branch; -expm1 keeps accuracy for small eps and L
        high = -np.expm1(-(L + e * x)) / -np.expm1(-e)
    low_branch = kl_q0 >= L
    out = np.where(low_branch, 0.0, np.minimum(high, 1.0))
    if low_branch.any():
        out = np.where(low_branch, _kl_ucb(x, np.where(low_branch, L, 0.0)), out)
    out = np.where(e * (1.0 - x) <= L, 1.0, out)
    out = np.maximum(out, x_in)
    return _out(out)


def dp_klucb_index_mp(x, N, t, epsilon):
    """mpmath view of :func:`dp_klucb_index` (seed 001 Eq. 12; sheet §5 branches)."""
    import mpmath

    x = mpmath.mpf(x)
    if not mpmath.isfinite(x):
        raise InputError("x", "a finite number", str(x))
    x = min(max(x, mpmath.mpf(0)), mpmath.mpf(1))
    N = _mp_pos("N", N)
    t = mpmath.mpf(t)
    if mpmath.isnan(t) or t < 1 or mpmath.isinf(t):
        raise InputError("t", "a finite number >= 1", str(t))
    e = _mp_pos("epsilon", epsilon)
    L = mpmath.log(t) / N
    if e * (1 - x) <= L:
        return mpmath.mpf(1)
    q0 = x * mpmath.exp(e) / (1 - x + x * mpmath.exp(e))
    if _kl_mp(x, q0) >= L:
        return _kl_ucb_mp(x, L)
    return max(x, -mpmath.expm1(-(L + e * x)) / -mpmath.expm1(-e))


def dp_klucb_index_sym():
    """sympy form of the high-privacy inverse U = (1 - e^{-(L + eps x)}) / (1 - e^{-eps}), L = ln t / N."""
    import sympy

    x, N, t, e = sympy.symbols("x N t epsilon", positive=True)
    return (1 - sympy.exp(-(sympy.log(t) / N + e * x))) / (1 - sympy.exp(-e))


def dp_imed_index(means, N, epsilon):
    """DP-IMED indexes I_i = N_i d_eps([mu_i]_0^1, [max_j mu_j]_0^1) + ln N_i (seed 001 Eq. 13; sheet §5).

    means and N: arrays whose last axis indexes the arms (private means may lie outside [0, 1]; they are
    clipped). Returns the array of indexes; the algorithm pulls argmin. eps = inf gives IMED
    (Honda & Takemura 2015) on the clipped means.
    """
    m = np.clip(_finite("means", means), 0.0, 1.0)
    if m.ndim == 0:
        m = m[None]
    N = positive_array("N", N)
    e = _check_eps(epsilon, allow_inf=True)
    best = m.max(axis=-1, keepdims=True)
    e_b = np.asarray(e)[..., None] if np.ndim(e) and np.ndim(e) == m.ndim - 1 else e
    return _out(N * _d_eps(m, best, e_b) + np.log(N))


def dp_imed_index_mp(means, N, epsilon):
    """mpmath view of :func:`dp_imed_index` for one vector of arms (seed 001 Eq. 13)."""
    import mpmath

    m = [min(max(mpmath.mpf(v), mpmath.mpf(0)), mpmath.mpf(1)) for v in means]
    Ns = [_mp_pos("N", v) for v in N]
    if len(Ns) != len(m):
        raise InputError("N", f"{len(m)} entries (one per arm)", len(Ns))
    e = _mp_pos("epsilon", epsilon, allow_inf=True)
    best = max(m)
    return [n * _d_eps_mp(v, best, e) + mpmath.log(n) for v, n in zip(m, Ns)]
