"""Shared helpers of the linear and contextual bound modules (seeds 000, 003, 004).

Formulas, each with its source:
- ``f_chi2(d, log_term)``: chi-square tail level d + 2 sqrt(d L) + 2 L (seed 003 Lemma 10, seed 000 Lemma 24);
  App. E of seed 003 uses L = log(2/delta), App. F uses L = log(1/delta).
- c_l, AdaC-GOPE's episode length parameter (seed 003 Eq. 4, Cor. 1), is defined once in
  boundcalc.schedules.linear.c_ell_zcdp.
- ``gope_phase_bound``: number of GOPE phases started by T, L_T <= log_4(4 + 3T/(8 d log(8K/delta)))
  (DERIVED in docs/formulas/zcdp-bandits.md 3.6 from T_l >= c_l >= 8 d 4^l log(8K/delta); the same bound holds for
  AdaR-GOPE, seed 000 Eq. 8, whose T_l >= 8 d 4^l L_l).
- OFUL quantities (seed 003 Thm 14 / seed 000 Thm 17): update count l(t) <= d log(1 + t/(lam d))/log(1+C),
  the Gentile et al. eigenvalue bound g(t) (seed 003 Lemma 12, seed 000 Lemma 27), h(s) and the location s* of its
  first peak (the running maximum of gamma_s used by the corrected OFUL bounds).
The bounds' own formulas are their sympy expressions (bounds/linear.py, bounds/contextual.py); the numpy functions
here serve the location s* (a number of the instance) and the claims of boundcalc.verify.
"""

from __future__ import annotations

import math

import numpy as np

from .base import Bound, Context, failing_requirements
from .symbols import BUDGET_ATTR


# ------------------------------------------------------------------------------------------------
# sympy helpers (sympy imported lazily)
def syms(*names):
    import sympy

    return [sympy.Symbol(n, positive=True) for n in names]


# ------------------------------------------------------------------------------------------------
# GOPE (seed 003 Sec. IV-A / App. E; seed 000 Alg. 3)
def f_chi2(d, L):
    """d + 2 sqrt(d L) + 2 L with L = log(1/delta') (seed 003 Lemma 10; Laurent–Massart)."""
    return d + 2.0 * np.sqrt(d * L) + 2.0 * L


def gope_phase_bound(T, d, K, delta):
    """L_T = floor(log_4(4 + 3T/(8 d log(8K/delta)))) (DERIVED, docs/formulas/zcdp-bandits.md 3.6); always >= 1."""
    T = np.asarray(T, dtype=float)
    return np.floor(np.log(4.0 + 3.0 * T / (8.0 * d * np.log(8.0 * K / delta))) / np.log(4.0))


# ------------------------------------------------------------------------------------------------
# OFUL (seed 003 Alg. 3, Thm 14, Thm 5; seed 000 Alg. 4, Thm 17, Thm 10)
def oful_updates(t, d, lam, C):
    """l(t) <= d log(1 + t/(lam d)) / log(1 + C) (seed 003 Thm 14 Step 5; seed 000 Sec. 4)."""
    return d * np.log1p(np.asarray(t, dtype=float) / (lam * d)) / np.log1p(C)


def gentile_g(t, lam0, delta, d):
    """lam0 t/4 - 8 log((t+3) d/delta) - 2 sqrt(t log((t+3) d/delta)) (seed 003 Lemma 12, seed 000 Lemma 27)."""
    t = np.asarray(t, dtype=float)
    Lg = np.log((t + 3) * d / delta)
    return lam0 * t / 4 - 8 * Lg - 2 * np.sqrt(t * Lg)


def oful_h(s, d, lam, lam0, delta, C):
    """h(s) = s l(s) / (lam + max(0, g(s))): gamma_s^2 = (2/rho) f_F(d, delta/T) h(s) (seed 003 Thm 14,
    with the [DERIVED] max(0, g) safeguard of docs/formulas/zcdp-bandits.md 4.2)."""
    s = np.asarray(s, dtype=float)
    return s * oful_updates(s, d, lam, C) / (lam + np.maximum(0.0, gentile_g(s, lam0, delta, d)))


def oful_h_peak(d, lam, lam0, delta, C):
    """Location s* of the first local maximum of h (the end of the burn-in where g becomes positive).

    h grows like s l(s)/lam while g <= 0, falls once lam0 s/4 dominates, then grows again like 4 l(s)/lam0
    (logarithmically). Hence max_{s <= T} h(s) = max(h(min(T, s*)), h(T)) (checked against a dense grid in
    tests/bounds/test_bounds_contextual.py). Found on a log grid, refined by golden-section search.
    """
    grid = np.logspace(0, 15, 3001)
    hv = oful_h(grid, d, lam, lam0, delta, C)
    # first local maximum
    inc = np.diff(hv) > 0
    idx = None
    for i in range(1, len(inc)):
        if inc[i - 1] and not inc[i]:
            idx = i
            break
    if idx is None:
        return float(grid[-1])
    a, b = grid[idx - 1], grid[idx + 1]
    g = (math.sqrt(5) - 1) / 2
    for _ in range(200):
        c1 = b - g * (b - a)
        c2 = a + g * (b - a)
        if oful_h(c1, d, lam, lam0, delta, C) >= oful_h(c2, d, lam, lam0, delta, C):
            b = c2
        else:
            a = c1
        if b - a < 1e-9 * b:
            break
    return float(0.5 * (a + b))


# ------------------------------------------------------------------------------------------------
class BaseBound(Bound):
    """Bound with a few helpers shared by the linear/contextual modules."""

    expected_pair_failures: dict = {}
    # the symbols of ``expression()`` besides T: instance parameters (ctx[name]) and budget symbols in the bound's
    # own notion: rho (zCDP; eps/alpha for an RDP budget), alpha, epsilon, delta_dp (the (eps, delta)-DP delta)
    symbol_names: tuple[str, ...] = ()
    # the human reading of a ``requires`` relation, shown after it when it fails (the relation is the data)
    requires_notes: dict = {}

    def conditions(self, ctx: Context) -> list[str]:
        """Each failing ``requires`` relation (base.failing_requirements), prefixed by its reading in
        ``requires_notes``."""
        out = []
        for msg in failing_requirements(self, ctx):
            note = next((n for t, n in self.requires_notes.items() if msg.startswith(f"needs {t} (")), None)
            out.append(f"{note}: {msg}" if note else msg)
        return out

    @staticmethod
    def rho_of(budget) -> float:
        """rho of a zCDP budget; for an (alpha, eps)-RDP budget alpha/eps enters only via rho = eps/alpha."""
        if budget is None:
            return math.inf
        if hasattr(budget, "rho"):
            return float(budget.rho)
        if hasattr(budget, "alpha"):
            return float(budget.epsilon) / float(budget.alpha)
        raise TypeError(f"no rho for {budget!r}")

    def symbol_values(self, ctx: Context, budget) -> dict:
        """Values of ``symbol_names``: budget symbols from the budget in the bound's notion, the others from the context."""
        out = {}
        for n in self.symbol_names:
            if n == "rho":
                out[n] = self.rho_of(budget)
            elif n in BUDGET_ATTR:  # alpha, epsilon, delta_dp (boundcalc.bounds.symbols, the one declaration)
                out[n] = float(getattr(budget, BUDGET_ATTR[n]))
            else:
                out[n] = ctx[n]
        return out

    def own_budget(self, ctx: Context):
        if self.notion == "none":
            return None
        b, _ = ctx.budget_for(self)
        return b
