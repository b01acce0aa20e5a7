"""Horizon conditions as data (issue 15): a ``requires`` relation in T is checked where the context has a T (per
horizon in the report) and only listed without one, so applicability without a T is unchanged
(tests/bounds/test_bound_snapshot.py). Checked against independent statements: seed 003 Thm 17 needs T ≥ K − 1; seed 002
Lemma C.3 needs T > t_1(T), i.e. T above the fixed point T*, computed here at 50 digits by mpmath.findroot."""

from __future__ import annotations

import math

import mpmath
import pytest

from boundcalc.bounds import base, registry
from boundcalc.privacy import ZCDP, LocalDP


def _ctx(setting, overrides, budget, T=None):
    ctx = registry.make_context(setting, overrides, budget)
    if T is not None:
        ctx.params["T"] = float(T)
    return ctx


def thm17_fails(check, K, T) -> bool:
    b = registry.get("003-thm17")
    return bool(check(b, _ctx("finite", {"K": K}, ZCDP(0.5), T)))


def test_thm17_horizon_checked_only_with_a_T():
    check = base.failing_requirements
    assert not thm17_fails(check, 1000, None)  # listed, not failing, without a horizon
    assert thm17_fails(check, 1000, 998) and not thm17_fails(check, 1000, 999)  # T ≥ K − 1 = 999
    assert "T >= K - 1" in registry.get("003-thm17").requires


def test_mutants_of_the_T_handling_are_rejected(monkeypatch):
    """Mutants: (a) T never supplied (the horizon relation silently skipped at every T) — the check at T = 998
    misses; (b) a missing T counted as a failure (the old behaviour) — applicability without a T changes."""
    real = base.failing_requirements

    def never_T(b, ctx):
        ctx.params.pop("T", None)
        return real(b, ctx)
    assert not thm17_fails(never_T, 1000, 998)

    def missing_T_fails(b, ctx):
        out = real(b, ctx)
        if ctx.get("T") is None and any("T" in r.split() for r in b.requires):
            out.append("needs T (T not given)")
        return out
    assert thm17_fails(missing_T_fails, 1000, None)


def ref_first_integer_above_fixed_point(d, alpha, p):
    """The smallest integer T with T > t_1(T) = 8(d log 9 + log(T/α))/p² (seed 002 Lemma C.3), from the larger
    root by mpmath.findroot at 50 digits."""
    with mpmath.workdps(50):
        d, alpha, p = mpmath.mpf(d), mpmath.mpf(alpha), mpmath.mpf(p)
        g = lambda T: T - 8 * (d * mpmath.log(9) + mpmath.log(T / alpha)) / p ** 2  # noqa: E731
        hi = 8 / p ** 2
        while g(hi) < 0:
            hi *= 2
        root = mpmath.findroot(g, (8 / p ** 2, hi), solver="anderson")
        return int(mpmath.floor(root)) + 1


@pytest.mark.parametrize("d,delta,p_star", [(2, 0.05, 0.5), (5, 0.01, 0.3), (20, 0.1, 0.9)])
def test_glm_ols_burn_in_relation_is_the_lemma(d, delta, p_star):
    b = registry.get("002-thm3.1-ols")
    n = ref_first_integer_above_fixed_point(d, delta, p_star)
    over = {"d": d, "delta": delta, "p_star": p_star}
    bud = LocalDP(1.0, 0.01)
    assert not b.conditions(_ctx("glm", over, bud, n))
    assert any("burn-in of Lemma C.3" in r for r in b.conditions(_ctx("glm", over, bud, n - 1)))
    assert not b.conditions(_ctx("glm", over, bud))  # without a horizon: applicable, the relation is listed
    assert math.isfinite(n)
