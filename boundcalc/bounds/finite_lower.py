"""Finite-armed lower bounds added by issue 16 item 8: seed 001 Eq. 9 (Thm 3.1 implication (c)), the ε-global-DP
asymptotic lower bound beyond Bernoulli arms with d_{ε,inf} (boundcalc.info.d_eps_inf).

Written once (issue 15): ``expression()`` (sympy) + ``symbol_values`` + ``requires`` + metadata; the numeric terms
are derived by the base class. Registered through ``bounds.registry.EXTRA_MODULES``.
"""

from __future__ import annotations

import numpy as np

from .base import Bound


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


class Eq9(Bound):
    """seed 001 Eq. 9 (Thm 3.1 implication (c)): for every ε-global-DP policy consistent over an unstructured class
    M_1 × … × M_K, liminf Reg_T/ln T ≥ Σ_{a:Δ_a>0} Δ_a / d_{ε,inf}(ν_a, μ*, M_a), with
    d_ε(P, Q) = inf_R ε·TV(P, R) + KL(R, Q) and d_{ε,inf}(ν_a, μ*, M_a) = inf{d_ε(ν_a, Q): Q ∈ M_a, mean(Q) > μ*}
    (docs/formulas/eps-global-dp-bernoulli.md §2.2). Evaluated as the constant times ln T."""

    id = "001-eq9"
    title = "ε-global-DP asymptotic lower bound with d_ε,inf (any arms on [0, 1])"
    algorithm = None
    seed = "001"
    source = "seed 001 Eq. 9 (Thm 3.1 implication (c))"
    setting = "finite"
    notion = "pure"
    kind = "lower-asymptotic"
    form = "exact"
    params = ("means",)
    requires = ("n_sub >= 1",)
    assumptions = (
        "unstructured class: M_a = all distributions on [0, 1] for every arm",
        "policy ε-global DP and consistent over that class",
        "arms: ctx['arms'] (finitely supported laws) when given, else Bernoulli(μ_a)",
    )
    caveats = (
        "asymptotic: evaluated as (Σ_a Δ_a/d_ε,inf(ν_a, μ*))·ln T (liminf constant times ln T)",
        "UNCERTAIN (sheet §2.2): whether R is restricted to M_a and the side condition of the printed domain are "
        "not recoverable from the text; here R and Q range over all distributions on [0, 1]",
        "for Bernoulli arms d_ε,inf = d_ε and the bound equals 001-thm3.1 (tests/info/test_d_eps_inf.py)",
    )
    regime_note = "non-private part: the Lai–Robbins constant Σ Δ_a/KL_inf (seed 001 Eq. 3), reached as ε → ∞; ε → 0: ≈ (#suboptimal arms)/ε"

    def expression(self):
        import sympy

        Hk, He = sympy.symbols("H_kl_inf H_eps_inf", positive=True)
        L = sympy.log(sympy.Symbol("T", positive=True))
        return Hk * L, (He - Hk) * L

    def symbol_values(self, ctx, budget):
        # H_eps_inf = Σ_{a:Δ_a>0} Δ_a / d_ε,inf(ν_a, μ*) (seed 001 Eq. 9); H_kl_inf = Σ Δ_a / KL_inf(ν_a, μ*) (Eq. 3):
        # per-arm sums as numbers; the non-private part is the Lai–Robbins constant, the privacy cost the rest
        return {"H_kl_inf": H_kl_inf(ctx), "H_eps_inf": H_eps_inf(ctx, float(budget.epsilon))}


BOUNDS = [Eq9()]
