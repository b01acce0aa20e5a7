"""Registered quantities of the GLM bounds (seed 002) that a lambdified closed form cannot carry well (issue 15).

A bound's ``expression()`` uses such a quantity as a sympy function (``sympy_function(name)``); sympy's lambdify
then calls the registered implementation: the numpy one for float arguments and the mpmath one for mpmath arguments
(any precision, under ``mpmath.workdps``). An interval enclosure, where the prover needs one, is registered under
the same name on the prover side (``QUANTITY_FUNCTIONS`` of boundcalc.rigorous.sympy_eval; the bounds package does
not import the prover); the GLM bounds have no enclosure there today (their local-DP budget is not enclosed).

Quantities, each with its source:

- ``gamma_ratio(d)`` = Γ((d+1)/2)/Γ(d/2), the dimension factor of the radius r_{ε,d} of the L2-ball mechanism
  (seed 002 Lemma 2.2; docs/formulas/ldp-glm-bandits.md §1.3). Written as a quantity, not as sympy's
  ``gamma((d+1)/2)/gamma(d/2)``: lambdify prints that with ``math.gamma``, which overflows from d ≈ 343 on (the
  registry allows d ≤ 1000), and the bounds' margin constant is a symbol named ``gamma``, which would shadow the
  function inside the lambdified code. The numpy form is exp(lgamma((d+1)/2) − lgamma(d/2)).
- ``greedy_horizon(d, alpha, p_star)``: the fixed point T* of T = t_1(T), t_1(T) = 8(d log 9 + log(T/α))/p_*², the
  burn-in of Lemma C.3 (seed 002 Lemma C.3, Thm 3.1/3.3 OLS part); the OLS bounds need T > t_1(T), i.e. T > T*.
  Not a closed form in elementary functions: T* = −b W_{−1}(−e^{−a/b}/b) with a = 8(d log 9 − log α)/p_*²,
  b = 8/p_*² (Lambert W, lower branch; the mpmath implementation), the float one iterates T ← t_1(T).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np


# ------------------------------------------------------------------------------------------------
# Γ((d+1)/2)/Γ(d/2): seed 002 Lemma 2.2
def gamma_ratio_numpy(d):
    """Γ((d+1)/2)/Γ(d/2) = exp(lgamma((d+1)/2) − lgamma(d/2)) in floats (seed 002 Lemma 2.2); d a number or an array."""
    if np.ndim(d) == 0:
        d = float(d)
        return math.exp(math.lgamma((d + 1.0) / 2.0) - math.lgamma(d / 2.0))
    lg = np.vectorize(math.lgamma, otypes=[float])
    d = np.asarray(d, dtype=float)
    return np.exp(lg((d + 1.0) / 2.0) - lg(d / 2.0))


def gamma_ratio_mpmath(d):
    """Γ((d+1)/2)/Γ(d/2) in mpmath at the working precision (seed 002 Lemma 2.2)."""
    import mpmath

    d = mpmath.mpf(d)
    return mpmath.exp(mpmath.loggamma((d + 1) / 2) - mpmath.loggamma(d / 2))


# ------------------------------------------------------------------------------------------------
# the burn-in horizon of Lemma C.3: seed 002 Lemma C.3 (Thm 3.1 / Thm 3.3, OLS part)
def greedy_burn_in(T, d, alpha, p_star):
    """t_1(T) = 8(d log 9 + log(T/α))/p_*² of seed 002 Lemma C.3 (its constant is not valid as stated, ERRATA 9)."""
    return 8.0 * (d * math.log(9.0) + math.log(float(T) / alpha)) / p_star ** 2


def greedy_horizon_numpy(d, alpha, p_star) -> float:
    """T* with T* = t_1(T*) (seed 002 Lemma C.3), by the iteration T ← t_1(T) from T = 1 in floats.

    The iteration contracts (its derivative 8/(p_*² T) is ≤ 1/(d log 9) < 1 above t_1's floor 8 d log 9/p_*²)."""
    d, alpha, p_star = float(d), float(alpha), float(p_star)
    T = 1.0
    for _ in range(200):
        nT = greedy_burn_in(T, d, alpha, p_star)
        if abs(nT - T) <= 1e-15 * nT:
            return nT
        T = nT
    return T


def greedy_horizon_mpmath(d, alpha, p_star):
    """T* with T* = t_1(T*) (seed 002 Lemma C.3) in mpmath: T* = −b W_{−1}(−e^{−a/b}/b), a = 8(d log 9 − log α)/p_*²,
    b = 8/p_*² (the larger root of T = a + b log T; the lower branch W_{−1})."""
    import mpmath

    d, alpha, p_star = mpmath.mpf(d), mpmath.mpf(alpha), mpmath.mpf(p_star)
    b = 8 / p_star ** 2
    a = b * (d * mpmath.log(9) - mpmath.log(alpha))
    return mpmath.re(-b * mpmath.lambertw(-mpmath.exp(-a / b) / b, -1))


def greedy_min_horizon(d, alpha, p_star) -> float:
    """The smallest integer horizon with T > t_1(T): ⌊T*⌋ + 1 (seed 002 Lemma C.3)."""
    return math.floor(greedy_horizon_numpy(d, alpha, p_star)) + 1.0


# ------------------------------------------------------------------------------------------------
def _gamma_ratio_sym(d):
    """The sympy closed form Γ((d+1)/2)/Γ(d/2) (seed 002 Lemma 2.2): for display, and exact at a number d."""
    import sympy

    return sympy.gamma((d + 1) / 2) / sympy.gamma(d / 2)


@dataclass(frozen=True)
class Quantity:
    """A registered quantity: its numpy and mpmath implementations, where its interval enclosure lives, and (if it
    has one) the sympy closed form it stands for (printed by ``bounds show``, used at numeric arguments)."""

    name: str
    numpy: Callable
    mpmath: Callable
    interval: str  # the prover's enclosure: key of boundcalc.rigorous.sympy_eval.QUANTITY_FUNCTIONS ("" if none)
    source: str
    closed_form: Callable | None = None

    def __call__(self, *args):
        """The mpmath implementation for mpmath arguments, the numpy one otherwise (sympy's lambdify calls this)."""
        if any(type(a).__module__.startswith("mpmath") for a in args):
            return self.mpmath(*args)
        return self.numpy(*args)


QUANTITIES: dict[str, Quantity] = {
    "gamma_ratio": Quantity("gamma_ratio", gamma_ratio_numpy, gamma_ratio_mpmath, "",
                            "seed 002 Lemma 2.2; docs/formulas/ldp-glm-bandits.md §1.3", _gamma_ratio_sym),
    "greedy_horizon": Quantity("greedy_horizon", greedy_horizon_numpy, greedy_horizon_mpmath, "",
                               "seed 002 Lemma C.3 (burn-in t_1 of Thm 3.1/3.3, OLS part)"),
}


def sympy_function(name: str):
    """The sympy function of a registered quantity, made once per name: lambdify calls ``QUANTITIES[name]`` (its
    ``_imp_``); a quantity with a closed form prints as that form (pretty, LaTeX) and evaluates to it at numbers."""
    hit = _SYMPY.get(name)
    if hit is not None:
        return hit
    import sympy

    quantity = QUANTITIES[name]
    body: dict = {"_imp_": staticmethod(quantity), "nargs": None}
    if quantity.closed_form is not None:
        form = quantity.closed_form

        def eval(cls, *args):  # noqa: A001 - sympy's hook
            if all(a.is_Number for a in args):
                return form(*args)
            return None

        body["eval"] = classmethod(eval)
        body["_latex"] = lambda self, printer, exp=None: (
            printer._print(form(*self.args)) if exp is None
            else rf"\left({printer._print(form(*self.args))}\right)^{{{exp}}}")
        body["_pretty"] = lambda self, printer: printer._print(form(*self.args))
    hit = _SYMPY[name] = type(name, (sympy.Function,), body)
    return hit


_SYMPY: dict = {}


# module-level names of the registered quantities: the generated numpy code of the bounds
# (boundcalc/bounds/_generated_numpy.py, python -m boundcalc.bounds.codegen) imports them from here
gamma_ratio = QUANTITIES["gamma_ratio"]
greedy_horizon = QUANTITIES["greedy_horizon"]
