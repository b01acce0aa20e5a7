"""The registered quantities of the GLM bounds (bounds/quantities_glm.py, issue 15) against independent mpmath at 50
digits, and the GLM bounds' one definition (terms derived from expression()) where it matters: large d, δ = 0.

Independent computations here (not the module's): Γ((d+1)/2)/Γ(d/2) by its recurrence g(d+2) = g(d)·(d+1)/d from
g(1) = 1/√π, g(2) = √π/2 (seed 002 Lemma 2.2); the burn-in fixed point T* = t_1(T*) of seed 002 Lemma C.3 by
mpmath.findroot on T − 8(d log 9 + log(T/α))/p_*² (not the Lambert W of the module). Each check keeps a mutant it
must reject.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from boundcalc.bounds import base, glm, quantities_glm as q
from boundcalc.bounds.base import Context
from boundcalc.privacy import LocalDP

DPS = 50


def ratio_by_recurrence(d: int):
    """Γ((d+1)/2)/Γ(d/2) at 50 digits from g(1) = 1/√π, g(2) = √π/2 and g(d+2) = g(d)·(d+1)/d."""
    with mpmath.workdps(DPS):
        g = 1 / mpmath.sqrt(mpmath.pi) if d % 2 else mpmath.sqrt(mpmath.pi) / 2
        k = 1 if d % 2 else 2
        while k < d:
            g = g * (k + 1) / k
            k += 2
        return g


def burn_in_fixed_point(d, alpha, p_star):
    """The larger root of T = 8(d log 9 + log(T/α))/p_*² at 50 digits (findroot from above the root)."""
    with mpmath.workdps(DPS):
        d, alpha, p_star = mpmath.mpf(d), mpmath.mpf(alpha), mpmath.mpf(p_star)

        def f(T):
            return T - 8 * (d * mpmath.log(9) + mpmath.log(T / alpha)) / p_star ** 2

        start = 16 * (d * mpmath.log(9) - mpmath.log(alpha)) / p_star ** 2 + 64 / p_star ** 2 * mpmath.log(64 / p_star ** 2)
        return mpmath.findroot(f, start)


DIMS = [1, 2, 3, 5, 10, 57, 342, 343, 1000]


def gamma_ratio_errors(numpy_impl, mp_impl) -> list[str]:
    """Each d where an implementation misses the recurrence (numpy: 1e-12 relative; mpmath: 1e-45 at 50 digits)."""
    out = []
    for d in DIMS:
        exact = ratio_by_recurrence(d)
        got = numpy_impl(d)
        if not (math.isfinite(got) and abs(got - exact) <= 1e-12 * exact):
            out.append(f"numpy d = {d}: {got!r} vs {mpmath.nstr(exact, 20)}")
        with mpmath.workdps(DPS):
            m = mp_impl(d)
            if not abs(m - exact) <= mpmath.mpf(10) ** -45 * exact:
                out.append(f"mpmath d = {d}: {mpmath.nstr(m, 20)} vs {mpmath.nstr(exact, 20)}")
    return out


def test_gamma_ratio_against_recurrence():
    assert gamma_ratio_errors(q.gamma_ratio_numpy, q.gamma_ratio_mpmath) == []
    # vectorised over d, and the sheet's values r_{1,2} = 3.399, r_{5,10} = 3.918 at R = 1 (sheet §1.3)
    np.testing.assert_allclose(q.gamma_ratio_numpy(np.array([2.0, 10.0])),
                               [float(ratio_by_recurrence(2)), float(ratio_by_recurrence(10))], rtol=1e-14)
    assert glm.r_ball(1.0, 2, 1.0) == pytest.approx(3.399, abs=1e-3)


def test_gamma_ratio_mutants_rejected():
    """Mutants: Γ(d/2 + 1) in the denominator (the sheet's first printed form without its factor d/2), and
    math.gamma (overflows from d = 343 on) — both rejected."""
    wrong_den = lambda d: math.exp(math.lgamma((d + 1) / 2) - math.lgamma(d / 2 + 1))  # noqa: E731
    assert gamma_ratio_errors(wrong_den, q.gamma_ratio_mpmath)

    def direct(d):
        try:
            return math.gamma((d + 1) / 2) / math.gamma(d / 2)
        except OverflowError:
            return math.inf

    errs = gamma_ratio_errors(direct, q.gamma_ratio_mpmath)
    assert errs and all("d = 343" in e or "d = 1000" in e for e in errs)
    wrong_mp = lambda d: mpmath.gamma((mpmath.mpf(d) + 1) / 2) / mpmath.gamma(mpmath.mpf(d) / 2 + 1)  # noqa: E731
    assert any(e.startswith("mpmath") for e in gamma_ratio_errors(q.gamma_ratio_numpy, wrong_mp))


CASES = [(2, 0.05, 0.5), (5, 0.01, 0.3), (10, 0.1, 1.0), (1000, 1e-6, 0.05), (1, 0.9, 0.99)]


def horizon_errors(numpy_impl, mp_impl) -> list[str]:
    out = []
    for d, a, p in CASES:
        exact = burn_in_fixed_point(d, a, p)
        got = numpy_impl(d, a, p)
        if not abs(got - exact) <= 1e-12 * exact:
            out.append(f"numpy {d, a, p}: {got!r} vs {mpmath.nstr(exact, 20)}")
        with mpmath.workdps(DPS):
            m = mp_impl(d, a, p)
            if not abs(m - exact) <= mpmath.mpf(10) ** -45 * exact:
                out.append(f"mpmath {d, a, p}: {mpmath.nstr(m, 20)} vs {mpmath.nstr(exact, 20)}")
    return out


def test_greedy_horizon_against_findroot():
    assert horizon_errors(q.greedy_horizon_numpy, q.greedy_horizon_mpmath) == []
    # the min horizon of the OLS bounds is the first integer above T*: t_1 < T there, t_1 ≥ T one below
    for d, a, p in CASES:
        n = q.greedy_min_horizon(d, a, p)
        assert q.greedy_burn_in(n, d, a, p) < n and q.greedy_burn_in(n - 1, d, a, p) >= n - 1


def test_greedy_horizon_mutants_rejected():
    """Mutants: log 8 for log 9 in t_1; the other root (the lower Lambert branch W_0) in mpmath; the old
    1e-9 stopping rule of the float iteration (stops short of 1e-12)."""
    def log8(d, a, p):
        T = 1.0
        for _ in range(200):
            T = 8.0 * (d * math.log(8.0) + math.log(T / a)) / p ** 2
        return T

    assert horizon_errors(log8, q.greedy_horizon_mpmath)

    def w0(d, a, p):
        d, a, p = mpmath.mpf(d), mpmath.mpf(a), mpmath.mpf(p)
        b = 8 / p ** 2
        return mpmath.re(-b * mpmath.lambertw(-mpmath.exp(-b * (d * mpmath.log(9) - mpmath.log(a)) / b) / b, 0))

    assert any(e.startswith("mpmath") for e in horizon_errors(q.greedy_horizon_numpy, w0))

    def loose(d, a, p):
        T = 1.0
        for _ in range(200):
            nT = q.greedy_burn_in(T, d, a, p)
            if abs(nT - T) < 1e-9 * nT:
                return nT
            T = nT
        return T

    assert any(e.startswith("numpy") for e in horizon_errors(loose, q.greedy_horizon_mpmath))


# -- the bounds' one definition where the quantities matter ---------------------------------------------------
def _ctx(**over):
    p = {k: v for k, v in glm.DEFAULT_INSTANCE.items() if k != "name"}
    p.update(over)
    return Context(params=glm.derive(p), budget=LocalDP(1.0, 0.01))


def sgd_paper_mp(T, c, eps):
    """seed 002 Thm 3.1 (SGD) paper form at 50 digits, written out: √T r_{ε,d} √d/(ζκ_l p_*) log log(T/α),
    r_{ε,d} = R√π (e^ε+1)/(e^ε−1) Γ((d+1)/2)/Γ(d/2) (Lemma 2.2) with the ratio from its recurrence."""
    with mpmath.workdps(DPS):
        T, e = mpmath.mpf(T), mpmath.mpf(eps)
        r = c["R"] * mpmath.sqrt(mpmath.pi) * (mpmath.exp(e) + 1) / (mpmath.exp(e) - 1) * ratio_by_recurrence(c["d"])
        return mpmath.sqrt(T) * r * mpmath.sqrt(c["d"]) / (c["zeta"] * c["kappa_l"] * c["p_star"]) \
            * mpmath.log(mpmath.log(T / c["delta"]))


@pytest.mark.parametrize("d", [2, 500, 1000])
def test_sgd_bound_at_large_d_numpy_and_mpmath(d):
    """d up to the registry's limit 1000: the derived numpy value and the lambdified mpmath one (base.lambdified)
    equal the bound written out in mpmath (sympy's gamma through math.gamma would overflow from d ≈ 343)."""
    b = next(x for x in glm.BOUNDS if x.id == "002-thm3.1-sgd")
    c = _ctx(d=d)
    T = np.array([1e4, 1e9])
    v = b.evaluate(T, c, LocalDP(0.5, 0.0))
    f, names = base.lambdified(b, "mpmath")
    vals = b.symbol_values(c, LocalDP(0.5, 0.0))
    for t, got in zip(T, v.value):
        exact = sgd_paper_mp(t, c, 0.5)
        assert got == pytest.approx(float(exact), rel=1e-12)
        with mpmath.workdps(DPS):
            a, p = f(*[mpmath.mpf(t) if n == "T" else mpmath.mpf(vals[n]) for n in names])
            assert abs((a + p) - exact) <= mpmath.mpf(10) ** -40 * exact


def test_small_epsilon_privacy_cost_keeps_its_digits():
    """r_{ε,d} − r_∞ = r_∞·2/(e^ε − 1) is written with expm1: at ε = 1e-9 the privacy cost keeps 1e-12 relative
    (exp(ε) − 1 in floats would lose ~7 digits). Mutant: the exp(ε) − 1 form, rejected."""
    b = next(x for x in glm.BOUNDS if x.id == "002-thm3.1-sgd")
    c = _ctx()
    T = 1e6
    with mpmath.workdps(DPS):
        full = sgd_paper_mp(T, c, 1e-9)
        r_inf = c["R"] * mpmath.sqrt(mpmath.pi) * ratio_by_recurrence(c["d"])
        base_ = mpmath.sqrt(T) * mpmath.sqrt(c["d"]) / (c["zeta"] * c["kappa_l"] * c["p_star"]) \
            * mpmath.log(mpmath.log(T / c["delta"]))
        cost = full - base_ * r_inf

    def close(x):
        return abs(x - float(cost)) <= 1e-12 * float(cost)

    assert close(b.evaluate(T, c, LocalDP(1e-9, 0.0)).privacy_cost[0])
    naive = float(base_ * r_inf) * 2 / (math.exp(1e-9) - 1)
    assert not close(naive)


def test_ols_at_delta_zero_raises_and_says_why():
    """δ = 0: no Gaussian mechanism, so no value (ValueError, as before the refactor) and the condition names the
    relation; an SGD bound still evaluates."""
    c = _ctx()
    ols = next(x for x in glm.BOUNDS if x.id == "002-thm3.1-ols")
    with pytest.raises(ValueError, match="needs δ > 0"):
        ols.evaluate(1e6, c, LocalDP(1.0, 0.0))
    why = ols.conditions(Context(params=c.params, budget=LocalDP(1.0, 0.0)))
    assert any("Gaussian mechanism needs δ > 0" in w and w.endswith("needs delta_p > 0 (delta_p = 0)") for w in why)
    why = ols.conditions(Context(params=c.params, budget=LocalDP(7.0, 0.01)))
    assert len(why) == 1 and "Gaussian calibration" in why[0] and why[0].endswith("needs epsilon < 6.77 (epsilon = 7)")
    assert ols.conditions(Context(params=c.params, budget=LocalDP(6.7, 0.01))) == []


# -- the conditions as data: each relation flips exactly at the threshold the theorem states ---------------------
def _by_id(bid):
    return next(x for x in glm.BOUNDS if x.id == bid)


def threshold_failures(bound_of) -> list[str]:
    """Each (bound, context) whose applicability is not the theorem's, from the statements (seed 002): Thm 3.2 needs
    pure ε-LDP with ε ≤ 1, K = 2 and Gaussian contexts; the OLS bounds δ > 0 and ε < 6.77; Lemma C.2 α ≤ 1/e;
    Thm 4.1 β > 0; the OLS burn-in T > t_1(T) (Lemma C.3) and T ≥ 4 for Lemma C.2."""
    out = []
    g = _ctx(K=2, context="gaussian").params
    p = _ctx().params
    cases = [
        ("002-thm3.2", g, LocalDP(1.0, 0.0), True), ("002-thm3.2", g, LocalDP(1.0 + 1e-12, 0.0), False),
        ("002-thm3.2", g, LocalDP(0.5, 1e-300), False), ("002-thm3.2", {**g, "K": 3}, LocalDP(0.5, 0.0), False),
        ("002-thm3.2", {**g, "context": "sphere"}, LocalDP(0.5, 0.0), False),
        ("002-thm3.1-ols", p, LocalDP(1.0, 1e-300), True), ("002-thm3.1-ols", p, LocalDP(1.0, 0.0), False),
        ("002-thm3.1-ols", p, LocalDP(6.77 - 1e-9, 0.01), True), ("002-thm3.1-ols", p, LocalDP(6.77, 0.01), False),
        ("002-thm4.1-ols-corrected", p, LocalDP(6.77 - 1e-9, 0.01), True),
        ("002-thm4.1-ols-corrected", p, LocalDP(6.77, 0.01), False),
        ("002-thm3.1-sgd-corrected", {**p, "delta": 1 / math.e}, LocalDP(1.0, 0.0), True),
        ("002-thm3.1-sgd-corrected", {**p, "delta": math.nextafter(1 / math.e, 1)}, LocalDP(1.0, 0.0), False),
        ("002-thm4.1-sgd", {**p, "beta": 1e-12}, LocalDP(1.0, 0.0), True),
        ("002-thm4.1-sgd", {**p, "beta": 0.0}, LocalDP(1.0, 0.0), False),
        ("002-thm3.3-sgd", {**p, "T": 4.0}, LocalDP(1.0, 0.0), True),
        ("002-thm3.3-sgd", {**p, "T": 3.9}, LocalDP(1.0, 0.0), False),
    ]
    t1 = q.greedy_min_horizon(p["d"], p["delta"], p["p_star"])  # first integer T with T > t_1(T)
    cases += [("002-thm3.1-ols", {**p, "T": t1}, LocalDP(1.0, 0.01), True),
              ("002-thm3.1-ols", {**p, "T": t1 - 1}, LocalDP(1.0, 0.01), False)]
    for bid, params, budget, applies in cases:
        why = bound_of(bid).conditions(Context(params=dict(params), budget=budget))
        if (not why) != applies:
            out.append(f"{bid} at {budget}, {params.get('T')}: applies {not why}, theorem says {applies} ({why})")
    return out


def test_conditions_flip_at_the_stated_thresholds():
    assert threshold_failures(_by_id) == []


def test_threshold_mutants_rejected():
    """Mutants: Thm 3.2's ε ≤ 1 read strictly (ε < 1), and Thm 4.1 without its β > 0 relation — each rejected."""
    import copy

    def mutated(bid, requires):
        b = copy.copy(_by_id(bid))
        b.requires = requires
        b.__dict__.pop("_requirement_relations", None)
        return b

    strict = mutated("002-thm3.2", ("delta_p <= 0", "epsilon < 1", "K <= 2"))
    assert threshold_failures(lambda bid: strict if bid == "002-thm3.2" else _by_id(bid))
    no_beta = mutated("002-thm4.1-sgd", ())
    assert threshold_failures(lambda bid: no_beta if bid == "002-thm4.1-sgd" else _by_id(bid))
