"""Registered quantities of the GLM bounds (seed 002) that a lambdified closed form cannot carry well (issue 15).

A bound's ``expression()`` uses such a quantity as a sympy function (``sympy_function(name)``); sympy's lambdify
then calls the registered implementation: the numpy one for float arguments and the mpmath one for mpmath arguments
(any precision, under ``mpmath.workdps``). Each also has an interval enclosure (``interval``, outward-rounded with
boundcalc.intervals.interval, imported when called); all sit in the one registry of boundcalc.bounds.quantities.

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
import numpy as np

from .quantities import Quantity, register


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


GAMMA_RATIO_MAX_D = 100_000  # the interval recurrence takes about d/2 products (the registry allows d <= 1000)


def _gamma_ratio_at_integer(n: int, lower: bool) -> float:
    """Γ((n+1)/2)/Γ(n/2) at an integer n >= 1, rounded down (``lower``) or up, in outward-rounded intervals:
    r(1) = 1/√π, r(2) = √π/2 and r(n+2) = r(n)·(n+1)/n (from Γ(x+1) = xΓ(x); seed 002 Lemma 2.2's Γ ratio)."""
    from ..intervals import interval as iv

    pi = iv.const("pi")
    r = iv.sqrt(pi).reciprocal() if n % 2 else iv.sqrt(pi) * iv.Interval(0.5)
    for k in range(2 - n % 2, n, 2):  # k = n0, n0+2, …, n-2: r(k+2) = r(k)(k+1)/k
        r = r * (iv.Interval(float(k + 1)) / iv.Interval(float(k)))
    return r.lo if lower else r.hi


def gamma_ratio_interval(D):
    """Enclosure of Γ((d+1)/2)/Γ(d/2) over a box d ∈ D, D ⊂ (0, GAMMA_RATIO_MAX_D] (seed 002 Lemma 2.2).

    The ratio is increasing in d > 0 (its log-derivative ½(ψ((d+1)/2) − ψ(d/2)) > 0, ψ increasing) and tends to 0
    as d → 0; so over D it lies in [r(⌊lo⌋), r(⌈hi⌉)] (r(0) := 0), each end from the exact recurrence of
    ``_gamma_ratio_at_integer`` in outward-rounded interval products. Tight at integer d, the GLM bounds' dimension;
    valid (looser) between integers."""
    from ..intervals import interval as iv

    if not isinstance(D, iv.Interval):
        D = iv.Interval(float(D))
    if D.lo <= 0 or D.hi > GAMMA_RATIO_MAX_D:
        raise iv.DomainError(f"gamma_ratio needs 0 < d <= {GAMMA_RATIO_MAX_D}, got {D}")
    lo_n, hi_n = math.floor(D.lo), math.ceil(D.hi)
    lo = 0.0 if lo_n < 1 else _gamma_ratio_at_integer(lo_n, True)
    return iv.Interval(lo, _gamma_ratio_at_integer(hi_n, False))


def _greedy_bracket(d: float, alpha: float, p_star: float, lower: bool) -> float:
    """A float below (``lower``) or above T*(d, α, p_*), proven by the sign of g(T) = a + b log T − T in interval
    arithmetic (b = 8/p_*², a = b(d log 9 − log α); seed 002 Lemma C.3): g is concave, T* is its larger root, so
    g(t) > 0 at some t means t < T* only if t also lies right of the smaller root — guaranteed by g(t_hi) < 0 at a
    t_hi > t (a + to − sign change between t and t_hi is the larger root). Both ends are therefore checked."""
    from ..intervals import interval as iv

    I = iv.Interval
    b = I(8.0) / (I(p_star) * I(p_star))
    a = b * (I(d) * iv.log(I(9.0)) - iv.log(I(alpha)))
    t = greedy_horizon_numpy(d, alpha, p_star)
    if not (math.isfinite(t) and t > 0):
        raise iv.DomainError(f"greedy_horizon has no fixed point at d={d}, alpha={alpha}, p_star={p_star}")
    for rel in (1e-14, 1e-12, 1e-9, 1e-6, 1e-3):
        lo, hi = t * (1 - rel), t * (1 + rel)
        g_lo = a + b * iv.log(I(lo)) - I(lo)
        g_hi = a + b * iv.log(I(hi)) - I(hi)
        if g_lo.lo > 0 and g_hi.hi < 0:
            return lo if lower else hi
    raise iv.DomainError(f"greedy_horizon: no proven bracket of the fixed point at d={d}, alpha={alpha}, "
                         f"p_star={p_star}")


def greedy_horizon_interval(D, A, P):
    """Enclosure of T*(d, α, p_*) over a box (seed 002 Lemma C.3): T* is the larger root of T = a + b log T with
    b = 8/p_*², a = b(d log 9 − log α); by the implicit function theorem (∂/∂a, ∂/∂b of the root are
    1/(1 − b/T*) > 0 and log T*/(1 − b/T*) > 0, as T* > b at the larger root) it increases with d and decreases
    with α and p_*. So the box's range is [T*(d.lo, α.hi, p.hi), T*(d.hi, α.lo, p.lo)], each corner bracketed
    by ``_greedy_bracket`` (proven signs of g, outward-rounded interval log)."""
    from ..intervals import interval as iv

    D, A, P = (x if isinstance(x, iv.Interval) else iv.Interval(float(x)) for x in (D, A, P))
    if D.lo < 0 or A.lo <= 0 or P.lo <= 0 or not all(math.isfinite(x.hi) for x in (D, A, P)):
        raise iv.DomainError(f"greedy_horizon needs d >= 0, alpha > 0, p_star > 0 finite, got {D}, {A}, {P}")
    return iv.Interval(_greedy_bracket(D.lo, A.hi, P.hi, True), _greedy_bracket(D.hi, A.lo, P.lo, False))


QUANTITIES: dict[str, Quantity] = {
    "gamma_ratio": register(Quantity("gamma_ratio", gamma_ratio_numpy, gamma_ratio_mpmath, gamma_ratio_interval,
                                     setting="glm", args=("d",),
                                     source="seed 002 Lemma 2.2; docs/formulas/ldp-glm-bandits.md §1.3",
                                     closed_form=_gamma_ratio_sym,
                                     formula="Γ((d+1)/2)/Γ(d/2) (seed 002 Lemma 2.2)")),
    "greedy_horizon": register(Quantity("greedy_horizon", greedy_horizon_numpy, greedy_horizon_mpmath,
                                        greedy_horizon_interval, setting="glm", args=("d", "alpha", "p_star"),
                                        source="seed 002 Lemma C.3 (burn-in t_1 of Thm 3.1/3.3, OLS part)",
                                        formula="T* = t_1(T*), t_1(T) = 8(d log 9 + log(T/α))/p_*² (seed 002 "
                                        "Lemma C.3): the OLS bounds need T > T*")),
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

        def at_numbers(cls, *args):  # sympy's ``eval`` hook
            if all(a.is_Number for a in args):
                return form(*args)
            return None

        body["eval"] = classmethod(at_numbers)
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
