"""Finite-armed lower bounds added by issue 16 item 8: seed 001 Eq. 9 (Thm 3.1 implication (c)), the ε-global-DP
asymptotic lower bound beyond Bernoulli arms with d_{ε,inf} (boundcalc.info.d_eps_inf).

Written once (issue 15): the expression (sympy) + ``symbol_values`` + ``requires`` + metadata; the numeric terms
are derived by the base class. Declared as data (issue 23 item 4): a ``[[bound]]`` table of boundcalc/bounds/extra.toml
whose per-arm sums come from the named hook of :data:`VALUES`. Registered through ``bounds.registry.EXTRA_MODULES``.
"""

from __future__ import annotations

import numpy as np

from .base import Bound
from .declared import TableBound, builtin_table


def _bernoulli_means(ctx):
    """The means when the arms are the instance's Bernoulli arms (no ``ctx["arms"]``), else None."""
    return None if ctx.get("arms") else np.asarray(ctx["means"], float)


def arm_distributions(ctx):
    """The arms' reward laws as (support, weights) pairs: ``ctx["arms"]`` when given (finitely supported laws on
    [0, 1], e.g. set by the Python API), else Bernoulli(μ_a) from the instance's means."""
    arms = ctx.get("arms")
    if arms:
        return [(np.asarray(s, float), np.asarray(w, float)) for s, w in arms]
    return [(np.array([0.0, 1.0]), np.array([1.0 - m, m])) for m in np.asarray(ctx["means"], float)]


def H_kl_inf(ctx) -> float:
    """Σ_{a: Δ_a > 0} Δ_a / KL_inf(ν_a, μ*) (seed 001 Eq. 3, Lai–Robbins; Honda–Takemura KL_inf on [0, 1])."""
    from ..info import kl_bernoulli, kl_inf_finite

    m = _bernoulli_means(ctx)
    if m is not None:  # Bernoulli arms: KL_inf(Ber μ, μ*) = kl(μ, μ*) (seed 001 Eq. 3)
        ms = m.max()
        sub = m < ms
        return float(np.sum((ms - m[sub]) / kl_bernoulli(m[sub], ms)))
    return _sum_over_arms(ctx, lambda s, w, ms: float(kl_inf_finite(s, w, ms)))


def H_eps_inf(ctx, eps) -> float:
    """Σ_{a: Δ_a > 0} Δ_a / d_{ε,inf}(ν_a, μ*) (seed 001 Eq. 9), M_a = all distributions on [0, 1]."""
    from ..info import d_epsilon
    from ..info.d_eps_inf import d_eps_inf_finite

    m = _bernoulli_means(ctx)
    if m is not None:  # Bernoulli arms: d_ε,inf(Ber μ, μ*) = d_ε(μ, μ*) (closed form, seed 001 Eq. 8; the general
        ms = m.max()  # routine agrees: tests/info/test_d_eps_inf.py::test_bernoulli_equals_closed_form)
        sub = m < ms
        return float(np.sum((ms - m[sub]) / d_epsilon(m[sub], ms, eps)))
    return _sum_over_arms(ctx, lambda s, w, ms: d_eps_inf_finite(s, w, ms, eps))


def _sum_over_arms(ctx, div) -> float:
    arms = arm_distributions(ctx)
    means = np.array([float(np.dot(s, w)) for s, w in arms])
    ms = float(means.max())
    tot = 0.0
    for (s, w), m in zip(arms, means):
        gap = ms - m
        if gap > 0:
            tot += gap / div(s, w, ms)
    return tot


class FiniteLowerBound(TableBound, Bound):
    """A finite-armed bound of boundcalc/bounds/extra.toml (declared.TableBound) whose symbols' values are all
    computed by code, by the row's named hook of :data:`VALUES` (seed 001 Eq. 9: the per-arm sums over arms on
    [0, 1])."""

    table_setting = "finite"

    def allowed_symbols(self) -> tuple:
        from .finite import _allowed_symbols

        return _allowed_symbols(self.notion)

    def symbol_values(self, ctx, budget):
        return self.VALUES[self.values_hook](self, ctx, budget)


def _h_inf_sums(bound, ctx, budget) -> dict:
    """seed 001 Eq. 9: H_eps_inf = Σ_{a:Δ_a>0} Δ_a / d_ε,inf(ν_a, μ*), and Eq. 3: H_kl_inf = Σ Δ_a / KL_inf(ν_a, μ*):
    per-arm sums as numbers; the non-private part is the Lai–Robbins constant, the privacy cost the rest."""
    return {"H_kl_inf": H_kl_inf(ctx), "H_eps_inf": H_eps_inf(ctx, float(budget.epsilon))}


# the Python piece extra.toml's finite rows name: symbol values computed by code
VALUES = {"H_inf_sums": _h_inf_sums}
FiniteLowerBound.VALUES = VALUES

# seed 001 Eq. 9 (Thm 3.1 implication (c)): the finite row of extra.toml
BOUNDS = [FiniteLowerBound(**row) for row in builtin_table("extra.toml") if row["setting"] == "finite"]
