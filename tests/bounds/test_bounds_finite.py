"""Finite-armed bounds (boundcalc.bounds.finite) against the formula sheets, computed here independently.

Expected numbers come from the sheets (docs/formulas/eps-global-dp-bernoulli.md table 3.5, docs/formulas/zcdp-bandits.md §9 / check 6,
docs/formulas/rdp-bandits.md check 6.4) or are recomputed in this file from the sheet formulas; d_ε is computed here
by brute-force minimisation of its definition (seed 001 Eq. 6), not by the library's closed form.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy.optimize import minimize_scalar

from boundcalc.bounds import finite, quantities
from boundcalc.bounds.base import Context
from boundcalc.errors import InputError
from boundcalc.privacy import RDP, ZCDP, PureDP

MU1 = [0.75, 0.70, 0.70, 0.70, 0.70]
MU2 = [0.75, 0.625, 0.5, 0.375, 0.25]
MU3 = [0.75, 0.53125, 0.375, 0.28125, 0.25]
MU4 = [0.75, 0.71875, 0.625, 0.46875, 0.25]
E = math.e  # ln T = 1: asymptotic bounds then return their constant


def B(bid):
    for b in finite.BOUNDS:
        if b.id == bid:
            return b
    raise KeyError(bid)


def ctx_of(means=None, budget=None, **kw):
    p = dict(finite.DEFAULT_INSTANCE)
    p.pop("name")
    if means is not None:
        p["means"] = means
    p.update(kw)
    return Context(params=finite.derive(p), budget=budget)


def val(bid, T, ctx, budget):
    return B(bid).evaluate(np.atleast_1d(np.asarray(T, float)), ctx, budget)


# -- independent reference implementations (from the sheet's definitions) ------------------------
def kl_ref(x, y):
    return x * math.log(x / y) + (1 - x) * math.log((1 - x) / (1 - y))


def d_eps_ref(x, y, eps):
    """inf_{z in [x, y]} eps(z - x) + kl(z, y) by bounded scalar minimisation + endpoints (sheet §2.1)."""
    f = lambda z: eps * (z - x) + kl_ref(z, y)  # noqa: E731
    r = minimize_scalar(f, bounds=(x, y), method="bounded", options={"xatol": 1e-13})
    return min(r.fun, f(x), eps * (y - x))


def consts_ref(means, eps):
    ms = max(means)
    lr = th = c6 = c1 = 0.0
    for m in means:
        g = ms - m
        if g <= 0:
            continue
        k = kl_ref(m, ms)
        lr += g / k
        th += g / d_eps_ref(m, ms, eps)
        c6 += g / min(k, 6 * eps * g)
        c1 += g / min(k, eps * g)
    return lr, th, c6, c1


# ==================================================================================================
# seed 001: spot values (sheet table 3.5, an independent source) and independent recomputation
# ==================================================================================================
TABLE_35 = {  # env: {eps: (Thm3.1, Eq7(6), Eq7(1))}, Lai–Robbins
    "mu1": (MU1, 31.243, {0.01: (407.656, 66.667, 400.000), 0.1: (49.420, 31.243, 40.000),
                          0.5: (31.243, 31.243, 31.243), 1.0: (31.243, 31.243, 31.243)}),
    "mu2": (MU2, 7.128, {0.01: (401.573, 66.667, 400.000), 0.1: (41.677, 8.352, 40.000),
                         0.5: (10.405, 7.128, 9.281), 1.0: (7.708, 7.128, 7.218)}),
    "mu3": (MU3, 5.042, {0.01: (401.071, 66.667, 400.000), 0.1: (41.118, 6.963, 40.000),
                         0.5: (9.381, 5.042, 8.000), 1.0: (5.934, 5.042, 5.162)}),
    "mu4": (MU4, 18.071, {0.01: (404.378, 66.667, 400.000), 0.1: (45.758, 18.933, 42.319),
                          0.5: (20.343, 18.071, 19.600), 1.0: (18.491, 18.071, 18.161)}),
}


@pytest.mark.parametrize("env", sorted(TABLE_35))
def test_table_3_5_spot_values(env):
    means, lr, cols = TABLE_35[env]
    for eps, (th, c6, c1) in cols.items():
        bud = PureDP(eps)
        ctx = ctx_of(means, bud)
        assert val("001-lai-robbins", E, ctx, None).value[0] == pytest.approx(lr, abs=6e-4)
        assert val("001-thm3.1", E, ctx, bud).value[0] == pytest.approx(th, abs=6e-4), (env, eps)
        assert val("001-eq7-c6", E, ctx, bud).value[0] == pytest.approx(c6, abs=6e-4), (env, eps)
        assert val("001-eq7-c1", E, ctx, bud).value[0] == pytest.approx(c1, abs=6e-4), (env, eps)


@pytest.mark.parametrize("eps", [0.01, 0.1, 0.37, 1.0, 3.0])
@pytest.mark.parametrize("means", [MU1, MU2, MU3, MU4, [0.9, 0.1, 0.5]])
def test_seed001_lower_bounds_match_bruteforce(means, eps):
    bud = PureDP(eps)
    ctx = ctx_of(means, bud)
    lr, th, c6, c1 = consts_ref(means, eps)
    T = np.array([1e3, 1e6, 1e9])
    L = np.log(T)
    np.testing.assert_allclose(val("001-lai-robbins", T, ctx, None).value, lr * L, rtol=1e-10)
    np.testing.assert_allclose(val("001-thm3.1", T, ctx, bud).value, th * L, rtol=1e-8)
    np.testing.assert_allclose(val("001-eq7-c6", T, ctx, bud).value, c6 * L, rtol=1e-10)
    np.testing.assert_allclose(val("001-eq7-c1", T, ctx, bud).value, c1 * L, rtol=1e-10)
    # non-private part of the private lower bounds is the Lai–Robbins constant (ε → ∞)
    for bid in ("001-thm3.1", "001-eq7-c6", "001-eq7-c1"):
        np.testing.assert_allclose(val(bid, T, ctx, bud).nonprivate, lr * L, rtol=1e-10)
    # Thm 4.3: α · LB_ε · ln T (leading term)
    a = finite.DEFAULT_INSTANCE["alpha_batch"]
    for bid in ("001-thm4.3-dp-klucb", "001-thm4.3-dp-imed"):
        np.testing.assert_allclose(val(bid, T, ctx, bud).value, a * th * L, rtol=1e-8)


def test_adap_ucb_and_dpse_paper_values():
    eps, a = 0.1, 3.1
    bud = PureDP(eps)
    ctx = ctx_of(MU2, bud, alpha_adap=a)
    gaps = [0.125, 0.25, 0.375, 0.5]
    T = 1e6
    L = math.log(T)
    adap = sum(16 * a * L / min(g, eps) + a / (a - 3) for g in gaps)  # sheet §6 (Azize–Basu 2022 Thm 7)
    assert val("001-adap-ucb", T, ctx, bud).value[0] == pytest.approx(adap, rel=1e-12)
    dpse = sum(L / g for g in gaps) + 5 * L / eps  # O(Σ ln T/Δ + K ln T/ε), constants 1
    assert val("001-dp-se-paper", T, ctx, bud).value[0] == pytest.approx(dpse, rel=1e-12)
    ss = val("001-shariff-sheffet", T, ctx, bud)
    assert ss.privacy_cost[0] == pytest.approx(5 * L / eps, rel=1e-12)


def _dpse_direct(means, eps, T):
    """Direct epoch sum with the sheet §7.1 epoch lengths (β = 1/T): Σ_a Δ_a Σ_{e≤e_a} ⌊R_e⌋ + failure term."""
    K = len(means)
    ms = max(means)
    beta = 1.0 / T
    total = 0.0
    for m in means:
        g = ms - m
        if g <= 0:
            continue
        e = 1
        pulls = 0
        while True:
            De = 2.0**-e
            Re = max(32 * math.log(8 * K * e * e / beta) / De**2, 8 * math.log(4 * K * e * e / beta) / (eps * De)) + 1
            pulls += math.floor(Re)
            if De < g:  # first epoch with Δ_e < Δ_a: eliminated at its end on the good event
                break
            e += 1
        total += g * pulls
    return total + T * (ms - min(means)) * beta * math.pi**2 / 12


@pytest.mark.parametrize("eps", [0.01, 0.1, 1.0])
@pytest.mark.parametrize("means", [MU1, MU2, MU4, [0.5, 0.49]])
def test_dpse_explicit_dominates_direct_epoch_sum(means, eps):
    bud = PureDP(eps)
    ctx = ctx_of(means, bud)
    for T in (1e4, 1e6, 1e9):
        direct = _dpse_direct(means, eps, T)
        got = val("001-dp-se-explicit", T, ctx, bud).value[0]
        assert got >= direct
        assert got <= 4 * direct  # same order: the derivation loses only geometric-sum constants


def test_dpse_last_epoch():
    # first e with 2^-e < Δ: Δ = 0.5 -> e = 2, Δ = 0.3 -> 2, Δ = 0.25 -> 3, Δ = 0.05 -> 5
    np.testing.assert_array_equal(quantities.dpse_last_epoch([0.5, 0.3, 0.25, 0.05]), [2, 2, 3, 5])


# ==================================================================================================
# seed 003 (zCDP) and seed 000 (RDP): spot values from the sheet formulas
# ==================================================================================================
def test_003_thm10_thm11_thm17_spot_values():
    rho, beta, T = 0.1, 3.5, 1e6
    bud = ZCDP(rho)
    ctx = ctx_of(MU2, bud, beta_adac=beta)
    gaps = [0.125, 0.25, 0.375, 0.5]
    L = math.log(T)
    thm10 = sum(8 * beta * L / g + 8 * math.sqrt(beta / rho) * math.sqrt(L) + 2 * beta / (beta - 3) for g in gaps)
    got10 = val("003-thm10", T, ctx, bud)
    assert got10.value[0] == pytest.approx(thm10, rel=1e-12)
    assert got10.value[0] == pytest.approx(7207, rel=1e-3)  # zcdp sheet §9
    assert got10.privacy_cost[0] == pytest.approx(4 * 8 * math.sqrt(beta / rho * L), rel=1e-12)
    K = 5
    thm11 = 4 * math.sqrt(2 * beta * K * T * L) + 8 * K * math.sqrt(beta * L / rho) + 3 * beta / (beta - 3) * 1.25
    got11 = val("003-thm11-explicit", T, ctx, bud).value[0]
    assert got11 == pytest.approx(thm11, rel=1e-12)
    assert got11 == pytest.approx(8.89e4, rel=2e-3)  # zcdp sheet §9
    paper11 = math.sqrt(K * T * L) + K * math.sqrt(L / rho)
    assert val("003-thm11-paper", T, ctx, bud).value[0] == pytest.approx(paper11, rel=1e-12)
    got17 = val("003-thm17", T, ctx, bud)
    assert got17.value[0] == pytest.approx(math.sqrt(4 * T) / 27, rel=1e-12)
    assert got17.value[0] == pytest.approx(74.07, abs=0.01)  # zcdp sheet §9
    assert got17.privacy_cost[0] == 0.0
    # high-privacy regime: ρT < (27/124)^2 -> the private term √((K−1)/ρ)/124 is the max
    bud2 = ZCDP(0.01)
    ctx2 = ctx_of(MU2, bud2)
    low = val("003-thm17", [1.0, 4.0], ctx2, bud2)
    np.testing.assert_allclose(low.value, [math.sqrt(4 / 0.01) / 124] * 2, rtol=1e-12)
    np.testing.assert_allclose(low.nonprivate, [2 / 27, 4 / 27], rtol=1e-12)
    assert np.all(low.privacy_cost > 0)
    # regime of the max: the private term is the larger iff ρT < (27/124)², also when it is less than twice the
    # non-private one (ρ = 0.01: threshold T* = 4.74; at T = 3 the ratio is √(4.74/3) ≈ 1.26 < 2)
    Tstar = (27 / 124) ** 2 / 0.01
    dom = B("003-thm17").privacy_dominates([3.0, 0.9 * Tstar, 1.1 * Tstar, 100.0], ctx2, bud2)
    np.testing.assert_array_equal(dom, [True, True, False, False])


@pytest.mark.parametrize("alpha,eps,expected", [(2, 1.0, 2.93e4), (2, 0.1, 3.08e4), (10, 0.01, 4.37e4)])
def test_000_thm5_per_arm_pull_bound(alpha, eps, expected):
    """rdp sheet check 6.4: two arms, Δ = 0.1, T = 1e5, β = 3.1; E[N_2] bound = 2.93e4, 3.08e4, 4.37e4."""
    beta, T, g = 3.1, 1e5, 0.1
    bud = RDP(alpha, eps)
    ctx = ctx_of([0.6, 0.5], bud, beta_adar=beta)
    L = math.log(T)
    reg = 8 * beta * L / g + 8 * math.sqrt(beta * alpha / eps) * math.sqrt(L) + 2 * beta / (beta - 3)
    got = val("000-thm5", T, ctx, bud).value[0]
    assert got == pytest.approx(reg, rel=1e-12)
    # the per-arm pull bound of the proof: (Reg − 2β/(β−3) + Δ·2β/(β−3))/Δ
    per_arm = (got - 2 * beta / (beta - 3) * (1 - g)) / g
    assert per_arm == pytest.approx(expected, rel=2e-3)


def test_000_cor6_values():
    alpha, eps, beta, T = 2.0, 0.5, 3.1, 1e7
    bud = RDP(alpha, eps)
    ctx = ctx_of(MU2, bud, beta_adar=beta)
    K, L = 5, math.log(T)
    expl = 4 * math.sqrt(2 * beta * K * T * L) + 8 * K * math.sqrt(beta * alpha / eps * L) + 2 * beta * K / (beta - 3)
    assert val("000-cor6-explicit", T, ctx, bud).value[0] == pytest.approx(expl, rel=1e-12)
    paper = math.sqrt(K * T * L) + K * math.sqrt(alpha / eps * L)
    assert val("000-cor6-paper", T, ctx, bud).value[0] == pytest.approx(paper, rel=1e-12)
    # rdp sheet check 6.5: Cor. 6 explicit dominates Thm 5 on the default instance
    assert val("000-cor6-explicit", T, ctx, bud).value[0] >= val("000-thm5", T, ctx, bud).value[0]


def test_adac_and_adar_agree_at_rho_eq_eps_over_alpha():
    """rdp sheet: every AdaR term depends on (α, ε) only through α/ε = 1/ρ, same formula as AdaC."""
    T = np.array([1e3, 1e6, 1e9])
    ctxc = ctx_of(MU2, ZCDP(0.25), beta_adac=3.3)
    ctxr = ctx_of(MU2, RDP(4.0, 1.0), beta_adar=3.3)
    np.testing.assert_allclose(val("003-thm10", T, ctxc, ZCDP(0.25)).value,
                               val("000-thm5", T, ctxr, RDP(4.0, 1.0)).value, rtol=1e-12)


# ==================================================================================================
# orderings
# ==================================================================================================
means_st = st.lists(st.floats(0.01, 0.99), min_size=2, max_size=6).filter(lambda m: max(m) - min(m) > 1e-3)


@settings(max_examples=150, deadline=None)
@given(means=means_st, log_eps=st.floats(-3, 1.5))
def test_lower_bound_ordering(means, log_eps):
    eps = 10.0**log_eps
    bud = PureDP(eps)
    ctx = ctx_of(means, bud)
    T = np.array([1e4, 1e8])
    th = val("001-thm3.1", T, ctx, bud).value
    c6 = val("001-eq7-c6", T, ctx, bud).value
    c1 = val("001-eq7-c1", T, ctx, bud).value
    lr = val("001-lai-robbins", T, ctx, None).value
    tol = 1 + 1e-9
    assert np.all(th * tol >= c1) and np.all(c1 * tol >= c6) and np.all(c6 * tol >= lr)
    n_sub = sum(1 for m in means if m < max(means))
    assert np.all(th * tol >= n_sub / eps * np.log(T))
    # upper ≥ lower: DP-KLUCB/IMED constant is α·LB_ε
    assert np.all(val("001-thm4.3-dp-imed", T, ctx, bud).value >= th) or not ctx["unique_best"]


def test_privacy_free_regime_thm31():
    """Thm 3.1 equals Lai–Robbins iff ε ≥ max_a ε_a (μ2: max ε_a = ln 9 ≈ 2.1972)."""
    T = np.array([1e6])
    lr = val("001-lai-robbins", T, ctx_of(MU2), None).value[0]
    for eps, free in ((2.2, True), (2.19, False), (5.0, True), (1.0, False)):
        bud = PureDP(eps)
        v = val("001-thm3.1", T, ctx_of(MU2, bud), bud)
        if free:
            assert v.value[0] == pytest.approx(lr, rel=1e-12) and abs(v.privacy_cost[0]) <= 1e-9 * lr
        else:
            assert v.value[0] > lr * (1 + 1e-6) and v.privacy_cost[0] > 0
    assert max(ctx_of(MU2)["eps_a"]) == pytest.approx(math.log(9), rel=1e-12)


@pytest.mark.parametrize(
    "bid,budget",
    [("003-thm10", ZCDP(0.1)), ("003-thm11-explicit", ZCDP(0.1)), ("003-thm11-paper", ZCDP(0.01)),
     ("000-thm5", RDP(2.0, 0.1)), ("000-cor6-explicit", RDP(8.0, 1.0)), ("000-cor6-paper", RDP(2.0, 0.1))],
)
def test_privacy_cost_share_shrinks_with_T(bid, budget):
    """seeds 003 (Table II) and 000 ('RDP for almost free'): privacy cost / non-private part → 0."""
    T = np.logspace(3, 15, 13)
    v = val(bid, T, ctx_of(MU2, budget), budget)
    ratio = v.privacy_cost / v.nonprivate
    assert np.all(np.diff(ratio) < 0)
    assert ratio[-1] < 0.5 * ratio[0]


def test_upper_bounds_decrease_in_budget_and_tend_to_nonprivate():
    T = np.array([1e6])
    for bid, mk in (("003-thm10", ZCDP), ("001-adap-ucb", PureDP), ("001-dp-se-explicit", PureDP)):
        vals = [val(bid, T, ctx_of(MU2, mk(x)), mk(x)).value[0] for x in (0.01, 0.1, 1.0, 10.0)]
        assert all(a >= b for a, b in zip(vals, vals[1:])) and vals[0] > vals[-1], bid
    big = ZCDP(1e12)
    v = val("003-thm10", T, ctx_of(MU2, big), big)
    assert v.privacy_cost[0] < 1e-4 * v.nonprivate[0]


def test_lower_below_upper_default_instance():
    T = np.array([1e6, 1e9])
    for eps in (0.01, 0.1, 1.0):
        bud = PureDP(eps)
        ctx = ctx_of(MU2, bud)
        lb = val("001-thm3.1", T, ctx, bud).value
        for ub in ("001-thm4.3-dp-klucb", "001-adap-ucb", "001-dp-se-explicit"):
            assert np.all(val(ub, T, ctx, bud).value >= lb), (ub, eps)
    for rho in (0.01, 0.5, 1.0):
        bud = ZCDP(rho)
        ctx = ctx_of(MU2, bud)
        assert np.all(val("003-thm11-explicit", T, ctx, bud).value >= val("003-thm17", T, ctx, bud).value)


# ==================================================================================================
# conditions and validation
# ==================================================================================================
@pytest.mark.parametrize("bid", ["001-lai-robbins", "001-thm3.1", "001-eq7-c6", "001-eq7-c1",
                                 "001-thm4.3-dp-klucb", "001-adap-klucb-paper"])
@pytest.mark.parametrize("means", [[1.0, 0.5], [0.7, 0.0], [0.3, 0.2, 1.0]])
def test_kl_bounds_need_means_in_open_unit_interval(bid, means):
    reasons = B(bid).conditions(ctx_of(means, PureDP(0.5)))
    assert reasons and any("(0, 1)" in r for r in reasons)


def test_unique_best_arm_condition():
    ctx = ctx_of([0.7, 0.7, 0.4], PureDP(0.5))
    for bid in ("001-thm4.3-dp-klucb", "001-thm4.3-dp-imed"):
        assert any("unique best arm" in r for r in B(bid).conditions(ctx))
    assert B("001-thm3.1").conditions(ctx) == []  # ties are fine for the lower bound
    assert B("001-thm3.1").conditions(ctx_of(MU2, PureDP(0.5))) == []


def test_parameter_conditions():
    assert any("β > 3" in r for r in B("003-thm10").conditions(ctx_of(MU2, ZCDP(0.1), beta_adac=1.0)))
    assert any("β > 3" in r for r in B("000-thm5").conditions(ctx_of(MU2, RDP(2, 1), beta_adar=3.0)))
    assert any("α > 3" in r for r in B("001-adap-ucb").conditions(ctx_of(MU2, PureDP(1), alpha_adap=2.5)))
    assert any("K > 1" in r for r in B("003-thm17").conditions(ctx_of([0.5], ZCDP(0.1))))
    assert any("ρ ≤ 1" in r for r in B("003-thm17").conditions(ctx_of(MU2, ZCDP(2.0))))
    assert any("suboptimal" in r for r in B("003-thm10").conditions(ctx_of([0.4, 0.4], ZCDP(0.1))))
    assert any("1/T" in r for r in B("001-dp-se-explicit").conditions(ctx_of(MU2, PureDP(1), dpse_beta=0.01)))


@pytest.mark.parametrize(
    "kw,param",
    [({"means": [0.5, 1.5]}, "means"), ({"means": []}, "means"), ({"means": [0.2, -0.1]}, "means"),
     ({"alpha_batch": 1.0}, "alpha_batch"), ({"dpse_beta": 2.0}, "dpse_beta"), ({"beta_adac": -1}, "beta_adac")],
)
def test_derive_rejects_bad_input(kw, param):
    p = dict(finite.DEFAULT_INSTANCE)
    p.pop("name")
    p.update(kw)
    with pytest.raises(InputError) as ei:
        finite.derive(p)
    assert ei.value.parameter == param


def test_derive_quantities():
    p = finite.derive({"means": "0.3, 0.8, 0.8, 0.1"})
    assert p["K"] == 4 and p["mu_star"] == 0.8 and p["n_sub"] == 2 and not p["unique_best"]
    np.testing.assert_allclose(p["Delta"], [0.5, 0.0, 0.0, 0.7])
    assert p["Delta_min"] == pytest.approx(0.5)


def test_metadata_vocabulary():
    ids = [b.id for b in finite.BOUNDS]
    assert len(ids) == len(set(ids))
    for b in finite.BOUNDS:
        assert b.setting == "finite"
        if b.form == "explicit":
            assert any(c.startswith("DERIVED") for c in b.caveats), b.id
        if b.form == "paper":
            assert any("paper form" in c for c in b.caveats), b.id
        if b.kind.endswith("asymptotic"):
            assert any("ln T" in c for c in b.caveats), b.id
    assert "name" in finite.DEFAULT_INSTANCE and "μ2" in finite.DEFAULT_INSTANCE["name"]
