"""The rigorous prover (boundcalc.rigorous): each ready-made proof succeeds on its natural box, each
deliberately false claim gets a counterexample that is re-checked here independently (registry float
code, scipy minimisation or mpmath), and the prover's limits give "undecided" with the boxes listed."""

from __future__ import annotations

import json

import mpmath
import numpy as np
import pytest
import sympy as sp

from boundcalc.bounds import registry
from boundcalc.bounds.base import Context
from boundcalc.info import d_epsilon_by_optimisation, d_epsilon_sym, kl_bernoulli_mp
from boundcalc.privacy import PureDP, ZCDP, RDP
from boundcalc.rigorous import bound_pairs as BP
from boundcalc.intervals import enclosures as en
from boundcalc.intervals import interval as ivm
from boundcalc.rigorous import provers as P
from boundcalc.rigorous.claims import Claim, inequality
from boundcalc.intervals.interval import Interval
from boundcalc.rigorous.prover import COUNTEREXAMPLE, PROVEN, UNDECIDED, prove
from boundcalc.verify.expression import to_sympy


def ineq(lhs: str, rhs: str, op: str, box: dict, **kw):
    """A claim from text: the one restricted parser (boundcalc.verify.expression), then the prover's claim."""
    return inequality(to_sympy(lhs), to_sympy(rhs), op, box, **kw)


def _check_result(r, verdict):
    assert r.verdict == verdict, r.summary()
    assert r.method == "proof"
    json.dumps(r.to_json())
    if verdict == PROVEN:
        assert r.boxes >= 1 and not r.undecided and r.n_undecided == 0 and r.counterexample is None
    if verdict == COUNTEREXAMPLE:
        assert r.counterexample["value_float"] < 0
        assert len(r.counterexample["value"].replace("-", "").replace(".", "")) >= 40  # 50-digit value


# ----------------------------------------------------------------------------------------------------
# information quantities (seed 001)
# ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("backend", ivm.available_backends())
@pytest.mark.parametrize("name", sorted(P.INFO_PROVERS))
def test_info_proofs_hold_on_their_natural_boxes(name, backend):
    with ivm.using_backend(backend):
        r = P.INFO_PROVERS[name]()
    _check_result(r, PROVEN)
    assert r.backend == backend


@pytest.mark.parametrize("box", [{"x": (0.2, 0.3), "y": (0.6, 0.9), "epsilon": (0.5, 2.0)},
                                 {"x": (0.9, 1.0), "y": (0.0, 0.05), "epsilon": (5.0, 10.0)}])
def test_info_proofs_on_sub_boxes(box):
    for f in (P.prove_d_eps_le_kl, P.prove_d_eps_le_eps_tv, P.prove_d_eps_closed_form):
        _check_result(f(box), PROVEN)


def _kl_minus_d(p):
    x, y, e = (float(p[k]) for k in ("x", "y", "epsilon"))
    return float(kl_bernoulli_mp(x, y)) - float(d_epsilon_by_optimisation(x, y, e))


def test_false_kl_le_d_eps_gives_a_checked_counterexample():
    r = P.kl_le_d_eps_claim().prove()
    _check_result(r, COUNTEREXAMPLE)
    assert _kl_minus_d(r.counterexample["point"]) > 1e-6  # d_eps < kl there (scipy minimisation of Eq. 6)


def test_false_half_eps_tv_gives_a_checked_counterexample():
    r = P.d_eps_le_eps_tv_claim(0.5).prove()
    _check_result(r, COUNTEREXAMPLE)
    p = r.counterexample["point"]
    d = float(d_epsilon_by_optimisation(p["x"], p["y"], p["epsilon"]))
    assert d > 0.5 * p["epsilon"] * abs(p["x"] - p["y"]) + 1e-9


def test_false_thm31_eq7_with_c_half():
    r = P.thm31_ge_eq7_claim(0.5).prove()
    _check_result(r, COUNTEREXAMPLE)
    p = r.counterexample["point"]
    d = float(d_epsilon_by_optimisation(p["x"], p["y"], p["epsilon"]))
    assert d > min(float(kl_bernoulli_mp(p["x"], p["y"])), 0.5 * p["epsilon"] * abs(p["x"] - p["y"])) + 1e-9


def _closed_form_mutants():
    (low, cond), (high, _) = d_epsilon_sym().args
    x, e = sp.Symbol("x", positive=True), sp.Symbol("epsilon", positive=True)
    return {
        "high branch eps -> 2 eps": sp.Piecewise((low, cond), (high - e * x, True)),
        "threshold x2": sp.Piecewise((low, sp.GreaterThan(e, 2 * cond.rhs)), (high, True)),
        "threshold /2": sp.Piecewise((low, sp.GreaterThan(e, cond.rhs / 2)), (high, True)),
    }


@pytest.mark.parametrize("mutant", sorted(_closed_form_mutants()))
def test_closed_form_mutants_get_counterexamples(mutant):
    closed = _closed_form_mutants()[mutant]
    r = P.prove_d_eps_closed_form(closed=closed, max_seconds=30)
    _check_result(r, COUNTEREXAMPLE)
    p = r.counterexample["point"]
    x, y, e = sp.symbols("x y epsilon", positive=True)
    val = float(closed.subs({x: p["x"], y: p["y"], e: p["epsilon"]}).evalf(30))
    assert abs(val - float(d_epsilon_by_optimisation(p["x"], p["y"], p["epsilon"]))) > 1e-6


def test_closed_form_statement_says_what_is_proven():
    r = P.prove_d_eps_closed_form()
    assert "weak duality" in r.statement and "sympy" in r.statement


# ----------------------------------------------------------------------------------------------------
# generic inequalities (what `boundcalc check` will call)
# ----------------------------------------------------------------------------------------------------
BOX = {"mu": (0.01, 0.99), "mu_star": (0.02, 1.0), "epsilon": (1e-3, 10.0)}


@pytest.mark.parametrize("lhs,op,rhs,verdict", [
    ("d_eps(mu, mu_star, epsilon)", "<=", "kl(mu, mu_star)", PROVEN),
    ("d_eps(mu, mu_star, epsilon)", "<=", "epsilon*tv(mu, mu_star)", PROVEN),
    ("kl(mu, mu_star)", ">=", "d_eps(mu, mu_star, epsilon)", PROVEN),
    ("d_eps(mu, mu_star, epsilon)", "<=", "epsilon", PROVEN),
    ("d_eps(mu, mu_star, epsilon)", "<=", "0.5*epsilon*tv(mu, mu_star)", COUNTEREXAMPLE),
    ("kl(mu, mu_star)", "<=", "d_eps(mu, mu_star, epsilon)", COUNTEREXAMPLE),
])
def test_generic_inequalities(lhs, op, rhs, verdict):
    _check_result(ineq(lhs, rhs, op, BOX).prove(max_seconds=30), verdict)


def test_generic_equality_within_tolerance():
    # an equality is proven within tol from enclosures of the two sides (no symbolic cancellation here), so
    # the boxes must shrink until the overestimation is below tol: a coarse tol keeps this fast
    box = {"a": (0.1, 0.2), "b": (1.0, 2.0)}
    _check_result(ineq("log(a*b)", "log(a) + log(b)", "==", box, tol=0.05).prove(), PROVEN)
    _check_result(ineq("log(a*b)", "log(a) + 1.2*log(b)", "==", box, tol=0.05).prove(), COUNTEREXAMPLE)


def test_missing_box_variable_is_an_error():
    with pytest.raises(ValueError, match="mu_star"):
        ineq("kl(mu, mu_star)", "1", "<=", {"mu": (0, 1)})


def test_inequality_takes_no_text():
    """The prover parses nothing: text goes through the one whitelist parser first."""
    with pytest.raises(TypeError, match="to_sympy"):
        inequality("kl(mu, mu_star)", "1", "<=", {"mu": (0, 1), "mu_star": (0, 1)})


# ----------------------------------------------------------------------------------------------------
# the prover's limits and its refusal to report unconfirmed counterexamples
# ----------------------------------------------------------------------------------------------------
def test_limits_give_undecided_with_the_boxes_listed():
    # d_eps <= eps on a box touching (x, y) = (0, 1), where d_eps = eps exactly: undecided near that corner
    c = ineq("d_eps(x, y, epsilon)", "epsilon", "<=", {"x": (0, 0.5), "y": (0.5, 1), "epsilon": (0.1, 1)})
    r = c.prove(max_boxes=300)
    assert r.verdict == UNDECIDED and r.n_undecided > 0 and r.undecided
    assert "max_boxes" in r.reason
    for b in r.undecided:
        assert 0 <= b["x"][0] <= b["x"][1] <= 0.5 and 0.1 <= b["epsilon"][0]
    assert r.summary().startswith(f"undecided on {r.n_undecided} boxes")


def test_unconfirmed_violation_is_not_a_counterexample():
    """A lying enclosure (says < 0 everywhere) whose 50-digit point value is positive: undecided, not a
    counterexample (a counterexample is reported only after the 50-digit check)."""
    r = prove(lambda b: Interval(-2.0, -1.0), {"t": (0.0, 1.0)}, point_margin=lambda p: mpmath.mpf(1),
              max_boxes=50)
    assert r.verdict == UNDECIDED and "50 digits" in r.reason


def test_strict_and_tolerance_variants():
    box = {"t": (0.0, 1.0)}
    assert prove(lambda b: b["t"] * b["t"], box, point_margin=lambda p: p["t"] ** 2).verdict == PROVEN
    r = prove(lambda b: b["t"] * b["t"], box, point_margin=lambda p: p["t"] ** 2, strict=True, max_boxes=200)
    assert r.verdict == UNDECIDED  # t^2 > 0 fails only at t = 0, which no 50-digit check can confirm
    assert prove(lambda b: b["t"] - 0.5, box, point_margin=lambda p: p["t"] - mpmath.mpf(0.5),
                 tol=0.5).verdict == PROVEN


def test_log_scale_bisection_for_decades():
    from boundcalc.rigorous.prover import default_scales

    sc = default_scales({"T": Interval(10, 1e9), "x": Interval(0, 1), "eps": Interval(1e-3, 10)})
    assert sc == {"T": "log", "x": "lin", "eps": "log"}


# ----------------------------------------------------------------------------------------------------
# registered lower <= upper pairs
# ----------------------------------------------------------------------------------------------------
PAIRS = [pytest.param(lo, up, id=f"{lo.id}<={up.id}") for lo, up in BP.registered_pairs()]


@pytest.fixture(scope="module")
def registered_pairs_proven():
    """``prove_registered_pairs`` once for the module: it is ``pair_claim(lo, up).prove(max_seconds=60)`` for each
    pair, the same computation as ``prove_pair(lo, up, max_seconds=60)``, which the per-pair test below used to
    repeat (``prove_pair`` itself is exercised by the scaled-lower-bound, Thm 9 and three-arm tests)."""
    return BP.prove_registered_pairs(max_seconds=60)


@pytest.mark.parametrize("lower,upper", PAIRS)
def test_every_registered_pair_is_proven_or_not_comparable(lower, upper, registered_pairs_proven):
    (entry,) = [o for o in registered_pairs_proven if (o["lower"], o["upper"]) == (lower.id, upper.id)]
    if BP.common_notion(lower, upper) is None:
        with pytest.raises(ValueError, match="no user budget"):
            BP.pair_claim(lower, upper)
        assert "result" not in entry and "no user budget" in entry["not_comparable"]
        return
    _check_result(entry["result"], PROVEN)


def test_prove_registered_pairs_lists_all(registered_pairs_proven):
    out = registered_pairs_proven
    assert len(out) == len(PAIRS)
    assert all(("result" in o and o["result"].proven) or "not_comparable" in o for o in out)
    # mutant of the shared result: a pair the prover left undecided (one box allowed) is rejected by both checks
    lo, up = next((lo, up) for lo, up in BP.registered_pairs() if BP.common_notion(lo, up) is not None)
    undecided = BP.pair_claim(lo, up).prove(max_boxes=1)
    assert not undecided.proven
    with pytest.raises(AssertionError):
        _check_result(undecided, PROVEN)


def _ctx_finite(p, budget):
    means = [p["mu_star"]] + [p[k] for k in sorted(p) if k.startswith("mu_") and k != "mu_star"]
    return registry.make_context("finite", {"means": means}, budget=budget)


@pytest.mark.parametrize("lower,upper,scale", [("001-lai-robbins", "001-thm4.3-dp-klucb", 100),
                                               ("001-thm3.1", "001-adap-ucb", 100),
                                               ("001-eq7-c6", "001-dp-se-explicit", 1e4),
                                               ("003-thm9", "003-thm4-explicit", 1e5)])
def test_scaled_lower_bound_gives_a_counterexample_checked_by_the_registry(lower, upper, scale):
    r = BP.prove_pair(lower, upper, lower_scale=scale, max_seconds=60)
    _check_result(r, COUNTEREXAMPLE)
    p = r.counterexample["point"]
    lo_b, up_b = registry.get(lower), registry.get(upper)
    T = np.array([p["T"]])
    if lo_b.setting == "finite":
        notion = BP.common_notion(lo_b, up_b)
        budget = PureDP(p["epsilon"]) if notion == "pure" else None
        ctx = _ctx_finite(p, budget)
    else:
        budget = ZCDP(p["rho"])
        ctx = registry.make_context("linear", {"d": 3, "K": 10}, budget=budget)
        ctx = Context(params=dict(ctx.params, d=p["d"], K=p["K"]), budget=budget)
    lo_v = lo_b.evaluate(T, ctx, ctx.budget_for(lo_b)[0] if lo_b.notion != "none" else None).value[0]
    up_v = up_b.evaluate(T, ctx, ctx.budget_for(up_b)[0] if up_b.notion != "none" else None).value[0]
    assert scale * lo_v > up_v


@pytest.mark.parametrize("corrected", [False, True])
@pytest.mark.parametrize("hp", [False, True])
def test_thm9_below_thm4_explicit(corrected, hp):
    _check_result(BP.prove_thm9_le_thm4(corrected=corrected, hp=hp), PROVEN)


def _point_env(bound, ctx, budget, T):
    """The box of a single point for the bound's enclosure, from the registry's own parameters."""
    if bound.setting == "finite":
        means = ctx["means"]
        env = {"mu_star": Interval(max(means)), "T": Interval(T)}
        for i, m in enumerate(sorted((m for m in means if m < max(means)), reverse=True), 1):
            env[f"mu_{i}"] = Interval(m)
        for k in ("alpha_batch", "alpha_adap", "beta_adac", "beta_adar"):
            env[k] = Interval(float(ctx[k]))
    else:
        env = {"T": Interval(T), "d": Interval(float(ctx["d"])), "K": Interval(float(ctx["K"])),
               "delta": Interval(float(ctx["delta"]))}
    if budget is not None:
        for k, v in {"pure": {"epsilon": getattr(budget, "epsilon", None)}, "zcdp": {"rho": getattr(budget, "rho", None)},
                     "rdp": ({"alpha_rdp": getattr(budget, "alpha", None), "epsilon_rdp": getattr(budget, "epsilon", None)}
                             if bound.setting == "finite" else
                             {"alpha": getattr(budget, "alpha", None), "epsilon": getattr(budget, "epsilon", None)})
                     }[bound.notion].items():
            env[k] = Interval(float(v))
    return env


BOUNDS_IN_PAIRS = sorted({b.id for pair in BP.registered_pairs() for b in pair})


@pytest.mark.parametrize("bid", BOUNDS_IN_PAIRS)
def test_bound_enclosures_contain_the_registry_values(bid):
    """The enclosure of each bound's total (sympy expression + per-arm sums re-derived here) at point boxes
    contains the registry's own float value (independent code: bounds/finite.py symbol_values)."""
    from boundcalc.rigorous.sympy_eval import interval_eval

    b = registry.get(bid)
    budgets = {"pure": PureDP(0.3), "zcdp": ZCDP(0.2), "rdp": RDP(4.0, 0.5), "none": None}
    budget = budgets[b.notion]
    expr = BP.total_expression(b)
    needed = {s.name for s in expr.free_symbols}
    for means in ([0.75, 0.625, 0.5, 0.375, 0.25], [0.9, 0.1], [0.51, 0.5]):
        ctx = registry.make_context(b.setting, {"means": means} if b.setting == "finite" else {}, budget=budget)
        if b.conditions(ctx):
            continue
        for T in (1e3, 1e6, 1e9):
            env = _point_env(b, ctx, budget, T)
            if b.setting == "finite":
                env = BP.finite_symbol_intervals(env, needed)
            v = b.evaluate(np.array([T]), ctx, budget).value[0]
            got = interval_eval(expr, env)
            slack = 1e-12 * abs(v)
            assert got.lo - slack <= v <= got.hi + slack, (bid, means, T, got, v)
            assert got.width <= 1e-9 * max(1.0, abs(v)), (bid, got)
        if b.setting != "finite":
            break


def test_pair_with_overlapping_arm_ranges_is_rejected():
    with pytest.raises(ValueError, match="below mu_star"):
        BP.pair_claim("001-thm3.1", "001-adap-ucb", {"mu_1": (0.3, 0.6)})


def test_three_arm_instance():
    r = BP.prove_pair("001-thm3.1", "001-adap-ucb", arms=3, max_seconds=60)
    _check_result(r, PROVEN)
    assert "mu_2" in r.box
