"""Registered quantities of the linear and contextual bounds that are not closed forms (issue 15, item 1).

A bound's ``expression()`` uses such a quantity as a sympy function (``sympy_function(name)``); sympy's lambdify
then calls the registered implementation: the numpy one for numpy arguments (vectorised over T) and the mpmath one
for mpmath arguments (any precision, under ``mpmath.workdps``). The interval enclosure the prover uses is
registered under the same name on the prover side (``QUANTITY_FUNCTIONS`` of boundcalc.rigorous.sympy_eval; the
bounds package does not import the prover).

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
from dataclasses import dataclass
from typing import Callable

import numpy as np


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


# ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Quantity:
    """A non-closed-form quantity: its numpy and mpmath implementations, and where its interval enclosure lives."""

    name: str
    numpy: Callable
    mpmath: Callable
    interval: str  # the prover's enclosure: key of boundcalc.rigorous.sympy_eval.QUANTITY_FUNCTIONS
    source: str

    def __call__(self, *args):
        """The mpmath implementation for mpmath arguments, the numpy one otherwise (sympy's lambdify calls this)."""
        if any(type(a).__module__.startswith("mpmath") for a in args):
            return self.mpmath(*args)
        return self.numpy(*args)


QUANTITIES: dict[str, Quantity] = {
    "R_phases": Quantity("R_phases", r_phases_numpy, r_phases_mpmath, "R_phases",
                         "seed 000 Thm 8 (proof App. C.3 Steps 3-5, Eq. 8); docs/formulas/rdp-bandits.md §3.2"),
}


# module attributes under the quantities' names: the generated numpy module (bounds/codegen.py) imports them from here
R_phases = QUANTITIES["R_phases"]


def sympy_function(name: str):
    """The sympy function of a registered quantity (lambdify calls ``QUANTITIES[name]``), made once per name."""
    hit = _SYMPY.get(name)
    if hit is None:
        from sympy.utilities.lambdify import implemented_function

        hit = _SYMPY[name] = implemented_function(name, QUANTITIES[name])
    return hit


_SYMPY: dict = {}
