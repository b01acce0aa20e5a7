"""Registered quantities of the linear and contextual bounds that are not closed forms (issue 15, item 1).

A bound's ``expression()`` uses such a quantity as a sympy function (``sympy_function(name)``); sympy's lambdify
then calls the registered implementation: the numpy one for numpy arguments (vectorised over T) and the mpmath one
for mpmath arguments (any precision, under ``mpmath.workdps``). The interval enclosure the prover uses is
the quantity's ``interval`` implementation (written in boundcalc.rigorous.sympy_eval, imported when called); all
three sit in the one registry of boundcalc.bounds.quantities (``quantities.get("R_phases")``).

Quantities, each with its source:

- ``R_phases(T, d, K, r)``: the explicit regret bound of AdaR-GOPE, a minimum over the phase m after which the
  arms with gap > 2^{2-m} are eliminated (seed 000 Thm 8, proof App. C.3 Steps 3-5 with the phase lengths of
  Eq. 8; DERIVED in docs/formulas/rdp-bandits.md §3.2), with delta = 1/T:
  R_phases = min{ sum_{l<=l(T)} 2^{3-l} Tb_l,  min_{1<=m<=l(T)+1} [T 2^{2-m} + sum_{l<=min(m,l(T))} 2^{3-l} Tb_l],  2T },
  Tb_l = min{T, d(d+1)/2 + 8 d 4^l L_l + 2 d 2^l sqrt(2 r d (d+1) L_l)},  L_l = log(4 K l (l+1) T),
  l(T) = min{L : sum_{l<=L} 8 d L_l 4^l >= T} (since T_l >= 8 d 4^l L_l, docs/formulas/rdp-bandits.md §2.3),
  r = alpha/eps (r = 0: the non-private part).
"""

from __future__ import annotations

import math
import numpy as np

from .quantities import Quantity, register


# ------------------------------------------------------------------------------------------------
# R_phases: seed 000 Thm 8 explicit (docs/formulas/rdp-bandits.md §3.2)
def r_phases_float(T, d, K, r) -> float:
    """R_phases at one point in floats (seed 000 Thm 8, proof App. C.3 Steps 3-5; docs/formulas/rdp-bandits.md §3.2):
    all m from 1 to l(T) + 1, the full sum and the cap 2T, delta = 1/T."""
    T, d, K, r = float(T), int(d), int(K), float(r)
    delta = 1.0 / T
    L, total = 0, 0.0
    while total < T:
        L += 1
        total += 8 * d * math.log(4 * K * L * (L + 1) / delta) * 4**L

    def Tb(l):
        Ll = math.log(4 * K * l * (l + 1) / delta)
        return min(T, d * (d + 1) / 2 + 8 * d * 4**l * Ll + 2 * d * 2**l * math.sqrt(2 * r * d * (d + 1) * Ll))

    cost = [2.0 ** (3 - l) * Tb(l) for l in range(1, L + 1)]
    cands = [sum(cost), 2 * T] + [T * 2.0 ** (2 - m) + sum(cost[: min(m, L)]) for m in range(1, L + 2)]
    return min(cands)


def r_phases_numpy(T, d, K, r) -> np.ndarray:
    """R_phases vectorised over T and r by broadcasting (docs/formulas/rdp-bandits.md §3.2; seed 000 Thm 8)."""
    Tb, db, Kb, rb = np.broadcast_arrays(*(np.asarray(x, dtype=float) for x in (T, d, K, r)))
    out = np.array([r_phases_float(*a) for a in zip(Tb.ravel(), db.ravel(), Kb.ravel(), rb.ravel())], dtype=float)
    return out.reshape(Tb.shape) if Tb.ndim else out[0]


def r_phases_mpmath(T, d, K, r):
    """R_phases in mpmath at the working precision (seed 000 Thm 8; docs/formulas/rdp-bandits.md §3.2), the same
    candidates as ``r_phases_float``; d and K must be integers."""
    import mpmath

    T, r = mpmath.mpf(T), mpmath.mpf(r)
    d, K = int(d), int(K)
    L, total = 0, mpmath.mpf(0)
    while total < T:
        L += 1
        total += 8 * d * mpmath.log(4 * K * L * (L + 1) * T) * mpmath.mpf(4) ** L

    def Tb(l):
        Ll = mpmath.log(4 * K * l * (l + 1) * T)
        return min(T, mpmath.mpf(d * (d + 1)) / 2 + 8 * d * mpmath.mpf(4) ** l * Ll
                   + 2 * d * mpmath.mpf(2) ** l * mpmath.sqrt(2 * r * d * (d + 1) * Ll))

    cost = [mpmath.mpf(2) ** (3 - l) * Tb(l) for l in range(1, L + 1)]
    cands = [mpmath.fsum(cost), 2 * T] + [T * mpmath.mpf(2) ** (2 - m) + mpmath.fsum(cost[: min(m, L)])
                                          for m in range(1, L + 2)]
    return min(cands)


def _r_phases_at(T: float, d: int, K: int, r):
    """Enclosure of R_phases (seed 000 Thm 8, docs/formulas/rdp-bandits.md §3.2; boundcalc.bounds.linear
    ``_phase_min_reference``) at a point T, integer d and K and an interval of r = α/ε, in outward-rounded
    interval arithmetic. The phase count l(T) = min{L : Σ_{l≤L} 8 d L_l 4^l ≥ T} is decided by interval
    comparisons; where a comparison is undecided the two candidate counts are both evaluated and hulled (R with
    one more phase is never smaller: the full sum gains a non-negative term and the new candidates m ≥ l(T)
    are dominated by it)."""
    from ..intervals import interval as iv
    from ..intervals.interval import Interval

    Ti = Interval(T)
    delta_inv = Ti  # δ = 1/T, so log(4 K l (l + 1)/δ) = log(4 K l (l + 1) T)

    def Ll(l):
        return iv.log(Interval(4.0 * K * l * (l + 1)) * delta_inv)

    total, L = Interval(0.0), 0
    counts = []
    while True:
        L += 1
        total = total + Interval(8.0 * d) * Ll(L) * Interval(4.0) ** L
        if total.hi >= T and not counts:
            counts.append(L)  # possibly the phase count
        if total.lo >= T:
            if counts[-1] != L:
                counts.append(L)  # surely the phase count from here
            break

    def value(nphases: int) -> Interval:
        cost = []
        for l in range(1, nphases + 1):
            Lv = Ll(l)
            inner = (Interval(d * (d + 1) / 2) + Interval(8.0 * d) * Interval(4.0) ** l * Lv
                     + Interval(2.0 * d) * Interval(2.0) ** l * iv.sqrt(Interval(2.0) * r * Interval(d * (d + 1.0)) * Lv))
            cost.append(Interval(2.0) ** (3 - l) * iv.imin(Ti, inner))
        full = cost[0]
        for c in cost[1:]:
            full = full + c
        cands = [full, Interval(2.0) * Ti]
        partial = Interval(0.0)
        for m in range(1, nphases + 2):
            if m <= nphases:
                partial = partial + cost[m - 1]
            cands.append(Ti * Interval(2.0) ** (2 - m) + partial)
        return iv.imin(*cands)

    return Interval.hull(*(value(n) for n in counts))


def r_phases_interval(T, D, K, R):
    """R_phases over a box (seed 000 Thm 8; docs/formulas/rdp-bandits.md §3.2), the prover's enclosure: non-decreasing in T (every candidate grows with T, and a new phase only adds a
    dominated candidate and a non-negative term to the full sum) and in r (each phase cost grows with r), so the
    range is [R(T.lo, r.lo), R(T.hi, r.hi)]; d and K must be integers fixed on the box."""
    from ..intervals import interval as iv
    from ..intervals.interval import Interval

    if not (D.is_point() and K.is_point()) or D.lo != int(D.lo) or K.lo != int(K.lo):
        raise iv.DomainError("R_phases needs integer d and K fixed on the box")
    d, k = int(D.lo), int(K.lo)
    lo = _r_phases_at(T.lo, d, k, Interval(R.lo))
    hi = _r_phases_at(T.hi, d, k, Interval(R.hi))
    return Interval(lo.lo, hi.hi)


R_PHASES_SOURCE = "seed 000 Thm 8 (proof App. C.3 Steps 3-5, Eq. 8); docs/formulas/rdp-bandits.md §3.2"
QUANTITIES: dict[str, Quantity] = {
    "R_phases": register(Quantity("R_phases", r_phases_numpy, r_phases_mpmath, r_phases_interval, setting="linear",
                                  args=("T", "d", "K", "r"), source=R_PHASES_SOURCE,
                                  formula="explicit AdaR-GOPE regret: min over the elimination phase m of T·2^{2-m} + "
                                  "Σ_{l≤m} 2^{3-l} Tb_l, capped by 2T, δ = 1/T, r = α/ε (seed 000 Thm 8; "
                                  "docs/formulas/rdp-bandits.md §3.2)")),
}


# module attributes under the quantities' names (the generated numpy module imports them via boundcalc.bounds.quantities)
R_phases = QUANTITIES["R_phases"]


def sympy_function(name: str):
    """The sympy function of a registered quantity (lambdify calls the registered ``Quantity``), made once per name."""
    hit = _SYMPY.get(name)
    if hit is None:
        from sympy.utilities.lambdify import implemented_function

        hit = _SYMPY[name] = implemented_function(name, QUANTITIES[name])
    return hit


_SYMPY: dict = {}
