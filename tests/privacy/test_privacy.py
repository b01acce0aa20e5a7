"""Privacy conversions: against dp_accounting, against brute-force optimisation over α written here
independently, against numbers printed in the reference sheets, and hypothesis properties."""

from __future__ import annotations

import math

import mpmath

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from boundcalc.errors import InputError
from boundcalc.privacy import conversions as c
from boundcalc.privacy import mechanisms as m
from boundcalc.privacy.budgets import RDP, ZCDP, ApproxDP, LocalDP, PureDP

# a fine grid of orders for brute force (independent of the code's grid-then-Brent optimiser)
ALPHAS = np.concatenate([1.0 + np.logspace(-6, 0, 4000), np.linspace(2.0, 5e4, 200001)[1:]])
ALPHAS = np.unique(np.concatenate([ALPHAS, np.logspace(0.3, 6, 20000)]))
ALPHAS = ALPHAS[ALPHAS > 1]


def brute_eps_from_delta(rho, delta):
    """CKS Prop. 12 written from δ = e^{(α−1)(αρ−ε)} (1−1/α)^α/(α−1), solved for ε, minimised on a grid."""
    a = ALPHAS
    tau = a * rho
    eps = tau + (math.log(1 / delta) + a * np.log((a - 1) / a) - np.log(a - 1)) / (a - 1)
    return max(0.0, eps.min())


def brute_log_delta(rho, eps):
    a = ALPHAS
    return np.min((a - 1) * (a * rho - eps) + a * np.log((a - 1) / a) - np.log(a - 1))


# ------------------------------------------------------------------------------------------------ sheets


def test_sheet_example_rdp_bandits_section_1_5():
    # docs/formulas/rdp-bandits.md §1.5: rho = 0.5, delta = 1e-5: optimal Mironov 5.2985, tighter 4.7284, alpha=2 single 12.51
    assert c.zcdp_to_approx_simple(0.5, 1e-5) == pytest.approx(5.2985, abs=1e-4)
    assert c.zcdp_to_approx_tight(0.5, 1e-5) == pytest.approx(4.7284, abs=1e-4)
    assert c.rdp_to_approx_simple(2, 1.0, 1e-5) == pytest.approx(12.51, abs=5e-3)


def test_simple_equals_mironov_optimised_over_alpha():
    # docs/formulas/rdp-bandits.md §1.5: Bun–Steinke Prop 1.3 = Mironov Prop 3 optimised over alpha
    for rho, delta in [(0.5, 1e-5), (0.01, 1e-9), (3.0, 0.1)]:
        brute = np.min(ALPHAS * rho + math.log(1 / delta) / (ALPHAS - 1))
        assert c.zcdp_to_approx_simple(rho, delta) == pytest.approx(brute, rel=1e-6)


# ------------------------------------------------------------------------------------------------ brute force


@pytest.mark.parametrize("rho", [1e-4, 0.01, 0.1, 0.5, 2.0, 20.0])
@pytest.mark.parametrize("delta", [1e-12, 1e-6, 1e-3, 0.05])
def test_tight_eps_matches_brute_force(rho, delta):
    got = c.zcdp_to_approx_tight(rho, delta)
    if delta >= math.sqrt(1 - math.exp(-rho)):
        assert got == 0.0
        return
    ref = brute_eps_from_delta(rho, delta)
    assert got <= ref + 1e-9  # the continuous infimum is never above a grid minimum
    assert got == pytest.approx(ref, rel=1e-5, abs=1e-9)


@pytest.mark.parametrize("rho,eps", [(0.1, 2.0), (0.5, 4.7284), (0.01, 0.5), (1.0, 10.0)])
def test_tight_delta_matches_brute_force(rho, eps):
    got = c.zcdp_delta_tight(rho, eps)
    ref = min(1.0, math.exp(brute_log_delta(rho, eps)), math.sqrt(-math.expm1(-rho)))
    assert got == pytest.approx(ref, rel=1e-5)


def test_rdp_tight_single_order_matches_delta_form():
    for a, tau, delta in [(2.0, 1.0, 1e-5), (10.0, 0.3, 1e-8), (1.5, 0.01, 0.01)]:
        eps = c.rdp_to_approx_tight(a, tau, delta)
        # plug back into CKS Prop. 12's delta form (written here): must give delta
        d = math.exp((a - 1) * (tau - eps)) / (a - 1) * (1 - 1 / a) ** a
        assert d == pytest.approx(delta, rel=1e-9)
        assert c.rdp_delta_tight(a, tau, eps) == pytest.approx(delta, rel=1e-9)


# ------------------------------------------------------------------------------------------------ dp_accounting


@pytest.mark.parametrize("sigma", [0.7, 1.0, 2.0, 5.0, 20.0])
@pytest.mark.parametrize("delta", [1e-9, 1e-6, 1e-3])
def test_against_dp_accounting_gaussian(sigma, delta):
    dpa = pytest.importorskip("dp_accounting")
    rho = 1.0 / (2.0 * sigma * sigma)  # Gaussian, sensitivity 1: rho-zCDP, RDP alpha/(2 sigma^2)
    ours = c.zcdp_to_approx_tight(rho, delta)
    # default orders: dp_accounting minimises over a discrete grid, so it can only be larger
    acc = dpa.rdp.RdpAccountant()
    acc.compose(dpa.GaussianDpEvent(sigma))
    assert ours <= acc.get_epsilon(delta) + 1e-9
    # a fine grid of orders: they must agree closely (dp_accounting implements CKS Prop. 12)
    orders = list(1.0 + np.logspace(-1.9, 4, 3000))
    acc = dpa.rdp.RdpAccountant(orders=orders)
    acc.compose(dpa.GaussianDpEvent(sigma))
    assert ours == pytest.approx(acc.get_epsilon(delta), rel=2e-4, abs=1e-6)
    eps = 1.0
    assert c.zcdp_delta_tight(rho, eps) == pytest.approx(acc.get_delta(eps), rel=2e-3, abs=1e-15)


def test_against_dp_accounting_single_order():
    dpa = pytest.importorskip("dp_accounting")
    from dp_accounting.rdp import rdp_privacy_accountant as r

    for a, tau, delta in [(2.0, 1.0, 1e-5), (10.0, 0.3, 1e-8), (32.0, 3.0, 1e-6)]:
        eps, _ = r.compute_epsilon([a], [tau], delta)
        assert c.rdp_to_approx_tight(a, tau, delta) == pytest.approx(eps, rel=1e-10)
    assert dpa is not None


# ------------------------------------------------------------------------------------------------ exact curves


def rr_divergence(eps, a):
    p = math.exp(eps) / (1 + math.exp(eps))
    q = 1 - p
    return math.log(p**a * q ** (1 - a) + q**a * p ** (1 - a)) / (a - 1)


@pytest.mark.parametrize("eps", [0.01, 0.3, 1.0, 3.0])
@pytest.mark.parametrize("a", [1.01, 1.5, 2.0, 8.0, 50.0])
def test_pure_to_rdp_exact_is_randomised_response(eps, a):
    ex = c.pure_to_rdp_exact(eps, a)
    assert ex == pytest.approx(rr_divergence(eps, a), rel=1e-9)
    assert ex <= c.pure_to_rdp(eps, a) + 1e-12
    assert c.pure_to_rdp(eps, a) == pytest.approx(min(eps, a * eps * eps / 2))



@pytest.mark.parametrize("eps", [1e-300, 1e-20, 1e-6, 19.0, 25.0, 800.0, 1e300])
@pytest.mark.parametrize("a", [1.5, 2.0, 50.0, 1e6])
def test_pure_to_rdp_exact_extreme_eps_vs_mpmath(eps, a):
    # randomised-response divergence at 60 digits; the float log-sum-exp form cancelled to 0 below eps ~ 1e-8
    with mpmath.workdps(60):
        E, A = mpmath.mpf(eps), mpmath.mpf(a)
        ref = mpmath.log((mpmath.exp(A * E) + mpmath.exp((1 - A) * E)) / (1 + mpmath.exp(E))) / (A - 1)
    assert c.pure_to_rdp_exact(eps, a) == pytest.approx(float(ref), rel=1e-10)


def test_rdp_to_pure_calibration_tiny_level():
    # eps_0-DP => (alpha, ~alpha eps_0^2/2)-RDP, so the largest eps_0 for level tau << 1 is ~ sqrt(2 tau/alpha)
    for tau in (1e-300, 1e-40, 1e-12):
        e0 = c.rdp_to_pure_calibration(2.0, tau)
        assert e0 == pytest.approx(math.sqrt(tau), rel=1e-6)

def test_pure_to_approx_delta_is_hockey_stick_of_rr():
    for eps in [0.1, 1.0, 4.0]:
        p = math.exp(eps) / (1 + math.exp(eps))
        for ep in [0.0, eps / 3, eps * 0.9]:
            hs = max(0, p - math.exp(ep) * (1 - p)) + max(0, (1 - p) - math.exp(ep) * p)
            assert c.pure_to_approx_delta(eps, ep) == pytest.approx(hs, rel=1e-12)
            if hs > 0:
                assert c.pure_to_approx_tight_epsilon(eps, hs) == pytest.approx(ep, abs=1e-9)
        assert c.pure_to_approx_delta(eps, eps) == 0.0


def test_tight_never_below_gaussian_exact_curve():
    # the Gaussian mechanism with Δ/σ = √(2ρ) is ρ-zCDP, so any valid conversion is ≥ its exact ε(δ)
    for rho in [0.01, 0.1, 1.0, 5.0]:
        for delta in [1e-9, 1e-5, 1e-2]:
            sig = 1 / math.sqrt(2 * rho)
            assert c.zcdp_to_approx_tight(rho, delta) >= m.gaussian_epsilon(delta, 1.0, sig) - 1e-9


# ------------------------------------------------------------------------------------------------ hypothesis

rhos = st.floats(1e-4, 50.0)
deltas = st.floats(1e-12, 0.2)


@settings(max_examples=60, deadline=None)
@given(rhos, rhos, deltas)
def test_monotone_in_rho(r1, r2, d):
    lo, hi = sorted((r1, r2))
    assume(hi > lo * (1 + 1e-6))
    assert c.zcdp_to_approx_tight(lo, d) <= c.zcdp_to_approx_tight(hi, d) + 1e-9
    assert c.zcdp_to_approx_simple(lo, d) <= c.zcdp_to_approx_simple(hi, d)


@settings(max_examples=60, deadline=None)
@given(rhos, deltas, deltas)
def test_decreasing_in_delta(r, d1, d2):
    lo, hi = sorted((d1, d2))
    assert c.zcdp_to_approx_tight(r, hi) <= c.zcdp_to_approx_tight(r, lo) + 1e-9
    assert c.zcdp_to_approx_simple(r, hi) <= c.zcdp_to_approx_simple(r, lo)


@settings(max_examples=60, deadline=None)
@given(rhos, deltas)
def test_tight_below_simple(r, d):
    assert c.zcdp_to_approx_tight(r, d) <= c.zcdp_to_approx_simple(r, d) + 1e-12


@settings(max_examples=40, deadline=None)
@given(st.floats(0.01, 20.0), st.floats(1e-12, 0.1))
def test_calibration_inverts_conversion(eps, d):
    rs = float(c.approx_to_zcdp_calibration(eps, d))
    assert c.zcdp_to_approx_simple(rs, d) == pytest.approx(eps, rel=1e-9)
    rt = c.approx_to_zcdp_calibration_tight(eps, d)
    assert rt >= rs
    assert c.zcdp_to_approx_tight(rt, d) <= eps + 1e-9
    assert c.zcdp_to_approx_tight(rt * 1.001, d) > eps - 1e-9  # largest: a bit more overshoots
    # the delta direction agrees: at the tight rho, delta(eps) is (at most) the target
    assert c.zcdp_delta_tight(rt, eps) <= d * (1 + 1e-4)


@settings(max_examples=40, deadline=None)
@given(st.floats(1.01, 100.0), st.floats(1e-3, 10.0), deltas)
def test_rdp_tight_below_simple(a, tau, d):
    assert c.rdp_to_approx_tight(a, tau, d) <= c.rdp_to_approx_simple(a, tau, d) + 1e-12


# ------------------------------------------------------------------------------------------------ budget-level


def test_calibrate_upper_directions_are_valid():
    # each returned budget, run by an algorithm of that notion, must imply the user's guarantee
    b, _ = c.calibrate_upper(ZCDP(0.1), "pure")
    assert b.epsilon**2 / 2 <= 0.1 + 1e-15
    b, _ = c.calibrate_upper(RDP(2.0, 0.5), "zcdp")
    assert b.rho * 2.0 <= 0.5 + 1e-15
    b, txt = c.calibrate_upper(RDP(2.0, 0.5), "pure")
    assert rr_divergence(b.epsilon, 2.0) <= 0.5 + 1e-9 and "tight" in txt
    assert b.epsilon > math.sqrt(2 * 0.5 / 2.0)  # better than the simple calibration
    b, txt = c.calibrate_upper(ApproxDP(1.0, 1e-6), "zcdp")
    assert brute_eps_from_delta(b.rho, 1e-6) <= 1.0 + 1e-6 and "Canonne" in txt
    b, _ = c.calibrate_upper(ApproxDP(1.0, 1e-6), "rdp")
    a = b.alpha
    assert b.epsilon + (math.log(1e6) + a * math.log(1 - 1 / a) - math.log(a - 1)) / (a - 1) <= 1.0 + 1e-9
    b, _ = c.calibrate_upper(PureDP(1.0), "ldp")
    assert isinstance(b, LocalDP) and b.epsilon == 1.0
    for user, notion in [(PureDP(1), "zcdp"), (PureDP(1), "approx"), (ZCDP(1), "approx"), (ZCDP(1), "rdp"),
                         (LocalDP(1), "pure"), (LocalDP(1, 1e-6), "approx"), (LocalDP(1), "zcdp")]:
        b, txt = c.calibrate_upper(user, notion)
        assert b is None and txt, (user, notion)


def test_implied_lower_directions_are_valid():
    b, _ = c.implied_lower(PureDP(1.0), "zcdp")
    assert b.rho == pytest.approx(0.5)
    b, _ = c.implied_lower(LocalDP(2.0), "pure")
    assert b == PureDP(2.0)
    b, _ = c.implied_lower(LocalDP(2.0), "zcdp")
    assert b.rho == pytest.approx(2.0)
    b, _ = c.implied_lower(LocalDP(1.0, 1e-6), "approx")
    assert b == ApproxDP(1.0, 1e-6)
    for user, notion in [(ZCDP(0.1), "pure"), (RDP(2, 1), "zcdp"), (ApproxDP(1, 1e-6), "pure"),
                         (ApproxDP(1, 1e-6), "zcdp"), (PureDP(1), "ldp"), (ZCDP(1), "ldp"), (LocalDP(1, 1e-3), "pure")]:
        b, txt = c.implied_lower(user, notion)
        assert b is None and txt, (user, notion)
    for u in [PureDP(1), ZCDP(1), RDP(2, 1), ApproxDP(1, 0.1), LocalDP(1)]:
        assert c.implied_lower(u, u.notion)[0] is u and c.calibrate_upper(u, u.notion)[0] is u


# ------------------------------------------------------------------------------------------------ validation


@pytest.mark.parametrize(
    "fn,args,name",
    [
        (c.zcdp_to_approx_tight, (-1.0, 1e-6), "rho"),
        (c.zcdp_to_approx_tight, (0.1, 1.5), "delta"),
        (c.zcdp_to_approx_simple, (0.1, 0.0), "delta"),
        (c.rdp_to_approx_tight, (1.0, 0.5, 1e-6), "alpha"),
        (c.zcdp_to_rdp, (0.1, 0.5), "alpha"),
        (c.pure_to_zcdp, (0.0,), "epsilon"),
        (c.approx_to_zcdp_calibration_tight, (1.0, 1.0), "delta"),
        (m.gaussian_sigma_zcdp, (0.0, 0.1), "sensitivity"),
        (m.laplace_scale, (1.0, -1.0), "epsilon"),
    ],
)
def test_bad_input_raises_inputerror(fn, args, name):
    with pytest.raises(InputError) as exc:
        fn(*args)
    assert name in str(exc.value)


# -- mpmath views (boundcalc convert --digits) -------------------------------------------------------------
def test_conversions_mp_match_float_and_tight_is_the_infimum():
    import mpmath

    from boundcalc.privacy import conversions as c
    from boundcalc.privacy import conversions_mp as cm

    with mpmath.workdps(50):
        for rho, d in [(0.1, 1e-6), (0.01, 1e-5), (2.0, 1e-9), (1e-4, 0.05)]:
            simple = cm.zcdp_to_approx_simple_mp(rho, d)
            tight = cm.zcdp_to_approx_tight_mp(rho, d)
            assert abs(float(simple) - c.zcdp_to_approx_simple(rho, d)) <= 1e-13 * float(simple)
            assert abs(float(tight) - c.zcdp_to_approx_tight(rho, d)) <= 1e-9 * float(tight)
            assert tight < simple
            # independent check: the infimum over a fine grid of orders is never below the optimum, and close to it
            grid = [cm.cks_epsilon_mp(a, a * mpmath.mpf(repr(rho)), d)
                    for a in (1 + mpmath.mpf(10) ** (k / mpmath.mpf(200)) for k in range(-800, 801))]
            best = max(mpmath.mpf(0), min(grid))  # ε is clamped at 0 (and is 0 once δ ≥ √(1 − e^{−ρ}))
            assert best >= tight - mpmath.mpf(10) ** -40
            assert best - tight <= 1e-4 * tight
        for a, e, d in [(2.0, 0.5, 1e-6), (8.0, 1.0, 1e-5)]:
            assert abs(float(cm.rdp_to_approx_simple_mp(a, e, d)) - c.rdp_to_approx_simple(a, e, d)) < 1e-13
            assert abs(float(cm.rdp_to_approx_tight_mp(a, e, d)) - c.rdp_to_approx_tight(a, e, d)) < 1e-13
        assert abs(float(cm.approx_to_zcdp_calibration_mp(1.0, 1e-6)) - c.approx_to_zcdp_calibration(1.0, 1e-6)) < 1e-15
        assert cm.pure_to_zcdp_mp(0.1) == mpmath.mpf("0.005")  # decimal input read exactly


def test_formulas_sym_evaluate_to_the_float_conversions():
    import sympy

    from boundcalc.privacy import conversions as c
    from boundcalc.privacy.conversions_mp import formulas_sym

    name, expr = formulas_sym("zcdp")[0]
    val = float(expr.subs({sympy.Symbol("rho", positive=True): 0.1, sympy.Symbol("delta", positive=True): 1e-6}))
    assert abs(val - c.zcdp_to_approx_simple(0.1, 1e-6)) < 1e-12
    for notion in ("zcdp", "pure", "approx", "rdp"):
        assert formulas_sym(notion)


def _cks_eps_mp_min(rho, delta):
    """inf over α > 1 of the CKS 2020 Cor. 13 ε at 60 digits, in a = α − 1: a dense grid in ln a, then bisection
    on the sign of the closed-form derivative ρ − L/a² + 1/a − 1/(1+a) − 1/(a(1+a)) + ln(1+a)/a² between the
    grid neighbours of the best point."""
    with mpmath.workdps(60):
        r, L = mpmath.mpf(rho), -mpmath.log(mpmath.mpf(delta))

        def eps(a):
            return r + a * r + L / a + mpmath.log(a) - mpmath.log1p(a) - mpmath.log1p(a) / a

        def deps(a):
            return r - L / a**2 + 1 / a - 1 / (1 + a) - 1 / (a * (1 + a)) + mpmath.log1p(a) / a**2

        us = mpmath.linspace(-800, 40, 8401)
        i = min(range(len(us)), key=lambda j: eps(mpmath.exp(us[j])))
        lo, hi = mpmath.exp(us[max(i - 1, 0)]), mpmath.exp(us[min(i + 1, len(us) - 1)])
        for _ in range(300):
            mid = (lo + hi) / 2
            if deps(mid) > 0:
                hi = mid
            else:
                lo = mid
        return max(min(eps(lo), eps(mpmath.exp(us[i]))), 0)


@pytest.mark.parametrize("rho", [1e5, 1e12, 1e19, 1e30, 1e100])
def test_tight_eps_huge_rho_vs_mpmath(rho):
    """α − 1 ≈ √(L/ρ) lies far below the former grid floor e^{−14}: ρ = 1e19 gave 1.0000008e19, above the
    simple conversion 1.0000000024e19 (issue 7 §4 fuzz); now the minimum at 60 digits."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = c.zcdp_to_approx_tight(rho, 1e-6)
    assert got <= c.zcdp_to_approx_simple(rho, 1e-6) * (1 + 1e-15)
    assert got == pytest.approx(float(_cks_eps_mp_min(rho, 1e-6)), rel=1e-12)


@pytest.mark.parametrize("eps, delta", [(1e-3, 1e-6), (0.5, 1e-9), (1.0, 1e-6), (30.0, 0.1), (200.0, 1e-12)])
def test_calibration_grid_stage_equals_the_pointwise_grid(eps, delta):
    """The vectorised grid stage of the tight calibrations (``f_grid``) gives the same optimum as evaluating the
    objective order by order; a mutant grid (values in the wrong order: the grid stage brackets the wrong orders)
    moves the optimum and is caught."""
    L = math.log(1 / delta)
    f = lambda al: -(eps - c._cks_eps(al, 0.0, L)) / al  # noqa: E731
    pointwise = c._minimise_over_alpha(f)
    grid = c._minimise_over_alpha(f, f_grid=lambda al: -(eps - c._cks_eps_grid(al, L)) / al)
    assert grid[0] == pytest.approx(pointwise[0], rel=1e-12, abs=1e-300)
    assert grid[1] == pytest.approx(pointwise[1], rel=1e-6)
    broken = c._minimise_over_alpha(f, f_grid=lambda al: (-(eps - c._cks_eps_grid(al, L)) / al)[::-1])
    assert broken != pytest.approx(pointwise, rel=1e-9)
