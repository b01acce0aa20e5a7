"""boundcalc.budget: the budget answers meet their targets, 2% stronger privacy does not, the solver refuses
non-monotone bounds, and the answers' conversions round-trip.

Every check evaluates the bound directly (registry context at the user's budget, ``Bound.evaluate``), not
through the solver's own evaluation.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from boundcalc.bounds import registry
from boundcalc.bounds.base import Bound
from boundcalc.budget import BudgetPlan, Target, UserNotion, solve
from boundcalc.errors import InputError
from boundcalc.privacy import conversions as cv

CASES = [  # (setting, notion, overrides, T)
    ("finite", "epsilon", None, 1e6),
    ("finite", "rho", None, 1e6),
    ("linear", "rho", {"K": 50, "d": 5}, 1e7),
    ("linear", "approx", None, 1e6),
    ("contextual", "rho", None, 1e5),
    ("contextual", "approx", None, 1e5),
    ("glm", "ldp", None, 1e6),
]
TARGETS = [Target("overhead", 0.1), Target("overhead", 1.0), Target("regret", 3e4)]


def _direct(setting, overrides, notion: UserNotion, b, T, bound_id):
    """The bound at the user's budget b, evaluated without the solver: (value, nonprivate, privacy_cost)."""
    ctx = registry.make_context(setting, overrides or {}, notion.budget(b))
    ctx.params["T"] = float(T)
    bd = registry.get(bound_id)
    own, why = ctx.budget_for(bd)
    assert own is not None, why
    if bd.conditions(ctx):
        return None
    v = bd.evaluate([T], ctx, own)
    return float(v.value[0]), float(v.nonprivate[0]), float(v.privacy_cost[0])


def _q(target, val):
    value, nonpriv, priv = val
    if target.kind == "regret":
        return value
    return 0.0 if priv == 0 else priv / nonpriv


def _meets(target, q, upper):
    return q <= target.value if upper else q >= target.value


def _row_failures(setting, overrides, notion, T, target, r) -> list[str]:
    """What is wrong with a 'met' row: it must meet its target at its budget, and miss it 2% beyond (upper
    bounds: 2% stronger privacy, i.e. a smaller budget; lower bounds: 2% weaker, a larger budget)."""
    out = []
    val = _direct(setting, overrides, notion, r.user_budget, T, r.id)
    if val is None or not _meets(target, _q(target, val), r.is_upper):
        out.append(f"{r.id}: target missed at its own answer {r.user_budget:.6g} ({val})")
    elif not math.isclose(val[0], r.regret_at_budget, rel_tol=1e-12):
        out.append(f"{r.id}: reported regret {r.regret_at_budget} != {val[0]}")
    other = r.user_budget / 1.02 if r.is_upper else r.user_budget * 1.02
    val2 = _direct(setting, overrides, notion, other, T, r.id)
    if val2 is not None and _meets(target, _q(target, val2), r.is_upper):  # None: outside the assumptions there
        out.append(f"{r.id}: target also met 2% beyond the answer, at {other:.6g}")
    return out


@pytest.mark.parametrize("setting,notion_name,overrides,T", CASES)
@pytest.mark.parametrize("target", TARGETS, ids=lambda t: f"{t.kind}-{t.value:g}")
def test_met_answers_meet_and_two_percent_stronger_does_not(setting, notion_name, overrides, T, target):
    notion = UserNotion(notion_name, delta=1e-6 if notion_name == "approx" else None)
    plan = solve(setting, T, target, notion, overrides=overrides)
    met = [r for r in plan.rows if r.status == "met"]
    failures = [f for r in met for f in _row_failures(setting, overrides, notion, T, target, r)]
    assert not failures, failures


@pytest.mark.parametrize("factor", [1.05, 0.97])
def test_row_check_catches_a_shifted_answer(factor):
    """Mutant: an answer 5% too weak (not the smallest budget) or 3% too strong (misses) is caught."""
    target, notion = Target("overhead", 0.1), UserNotion("rho")
    plan = solve("linear", 1e6, target, notion)
    r = plan.row("003-thm4-explicit")
    assert not _row_failures("linear", None, notion, 1e6, target, r)
    r.user_budget *= factor
    assert _row_failures("linear", None, notion, 1e6, target, r)


def test_issue_example_linear_forms_and_spread():
    """The issue's linear bandit (K = 50, d = 5, T = 1e7, 10% overhead): paper form ρ ≈ 0.020, explicit ρ ≈ 0.0009;
    the recommendation comes from the explicit (rigorous) form and the spread names its source."""
    plan = solve("linear", 1e7, Target("overhead", 0.1), "rho", overrides={"K": 50, "d": 5})
    paper, explicit = plan.row("003-thm4-paper"), plan.row("003-thm4-explicit")
    assert paper.user_budget == pytest.approx(0.020, rel=0.05)
    assert explicit.user_budget == pytest.approx(0.0009, rel=0.05)
    assert not paper.rigorous and "constants" in paper.indicative
    assert plan.value_id in ("003-thm4-explicit", "003-thm4-explicit-hp")
    assert plan.value == min(r.user_budget for r in plan.rows if r.rigorous and r.is_upper and r.status == "met")
    sp = {s["algorithm"]: s for s in plan.spread}["AdaC-GOPE"]
    assert sp["ratio"] > 10
    assert any("O(·)" in f["from"] for f in sp["forms"]) and any("DERIVED" in f["from"] for f in sp["forms"])


def test_thm9_corrected_threshold_e_minus_half_over_T():
    """003 Thm 9 (proved form): any privacy cost at all starts at ρ < e^-0.5/T (ERRATA 16). With a tiny overhead
    target the lower bound's answer converges to that threshold; the printed form is not rigorous."""
    T = 1e6
    plan = solve("linear", T, Target("overhead", 1e-9), "rho")
    r = plan.row("003-thm9-corrected")
    assert r.status == "met" and r.rigorous
    assert r.user_budget == pytest.approx(math.exp(-0.5) / T, rel=1e-6)
    assert not plan.row("003-thm9").rigorous  # proof gap (constant)
    assert plan.lower_id == "003-thm9-corrected"


def test_unreachable_and_any_budget():
    plan = solve("linear", 1e6, Target("regret", 1.0), "rho")  # below every non-private part
    r = plan.row("003-thm4-explicit")
    assert r.status == "unreachable" and "non-private" in r.reason and r.user_budget is None
    assert plan.value is None and plan.notes
    plan = solve("linear", 1e6, Target("regret", 1e300), "rho")  # above the bound at the smallest budget
    assert plan.row("003-thm4-explicit").status == "any budget"
    low = plan.row("003-thm9-corrected")  # no budget makes the lower bound reach 1e300
    assert low.status == "unreachable"


class _Dip(Bound):
    """A deliberately non-monotone test bound: regret dips at b ≈ 1 and rises again (e.g. a wrong sign)."""

    id, title, algorithm, seed, source, setting = "test-dip", "dip", "X", "999", "test", "linear"
    notion, kind, form = "zcdp", "upper-minimax", "exact"

    def __init__(self, centre=1.0, width=0.5):
        self.centre, self.width = centre, width

    def terms(self, T, ctx, budget):
        u = math.log10(budget.rho / self.centre)
        return np.full_like(T, 100.0), np.full_like(T, 1000.0 * (1 - math.exp(-(u / self.width) ** 2)) + 1.0)

    def expression(self):  # pragma: no cover - not used
        raise AssertionError

    def symbol_values(self, ctx, budget):  # pragma: no cover - not used
        raise AssertionError


def test_non_monotone_bound_is_caught_not_solved():
    plan = solve("linear", 1e6, Target("regret", 150.0), "rho", bounds=[_Dip()])
    r = plan.row("test-dip")
    assert r.status == "non-monotone" and r.user_budget is None and "not solved" in r.reason
    assert plan.value is None


class _Wiggle(_Dip):
    """Monotone on the coarse grid, but with a bump inside the bracket of the crossing."""

    id = "test-wiggle"

    def terms(self, T, ctx, budget):
        r = budget.rho
        base = 1.0 / r
        bump = 0.3 * math.sin(40 * math.log(r)) if 0.1 < r < 10 else 0.0
        return np.full_like(T, 1.0), np.full_like(T, base * (1 + bump))


def test_non_monotone_inside_bracket_is_caught():
    plan = solve("linear", 1e6, Target("regret", 2.0), "rho", bounds=[_Wiggle()])
    assert plan.row("test-wiggle").status == "non-monotone"


@pytest.mark.parametrize("notion_name", ["rho", "epsilon", "approx"])
def test_conversions_round_trip(notion_name):
    """The bound's own budget, converted back into the user's notion by the equivalents, gives the user's budget
    (or a guarantee at least as strong)."""
    notion = UserNotion(notion_name, delta=1e-6 if notion_name == "approx" else None)
    plan = solve("finite", 1e6, Target("overhead", 0.2), notion)
    checked = 0
    for r in plan.rows:
        if r.status != "met":
            continue
        eq = r.equivalents
        if not r.is_upper:  # a lower bound's answer is the user's own budget, in every notion it implies
            assert eq["own"]["notion"] == notion.notion
            continue
        if notion_name == "rho":
            assert eq["rho"] == pytest.approx(r.user_budget, rel=1e-9)
        elif notion_name == "epsilon":
            assert eq["epsilon"] == pytest.approx(r.user_budget, rel=1e-9)
        else:  # approx at δ = 1e-6: the algorithm's tight (ε, δ) implies the user's (ε, δ)
            assert eq["approx_tight"][0] <= r.user_budget * (1 + 1e-9)
            if r.notion in ("zcdp", "rdp"):  # calibrated by the tight conversion itself: equality
                assert eq["approx_tight"][0] == pytest.approx(r.user_budget, rel=1e-6)
            else:  # pure ε run at the user's ε: (ε, 0) is stronger than (ε, δ)
                assert eq["epsilon"] == pytest.approx(r.user_budget, rel=1e-12)
        checked += 1
    assert checked >= 3


def test_equivalents_against_closed_forms():
    from boundcalc.budget import equivalents
    from boundcalc.privacy import ZCDP, PureDP

    rho, delta = 0.05, 1e-6
    e = equivalents(ZCDP(rho), delta)
    assert e["approx_simple"][0] == pytest.approx(rho + 2 * math.sqrt(rho * math.log(1 / delta)), rel=1e-12)
    assert e["approx_tight"][0] < e["approx_simple"][0]
    assert e["epsilon"] is None  # zCDP does not imply pure DP
    assert dict((a, x) for a, x in e["rdp"])[2.0] == pytest.approx(2 * rho)
    eps = 0.3
    e = equivalents(PureDP(eps), delta)
    assert e["rho"] == pytest.approx(eps**2 / 2)
    assert e["approx_tight"][0] == pytest.approx(math.log(math.exp(eps) - delta * (1 + math.exp(eps))), rel=1e-12)
    assert e["approx_tight"][0] == pytest.approx(cv.pure_to_approx_tight_epsilon(eps, delta))


def test_lower_bound_answer_is_necessary_for_regret_target():
    """Mirror statement: below the lower bound's answer every algorithm has regret at least the target."""
    T, R = 1e6, 2e3
    plan = solve("linear", T, Target("regret", R), "rho")
    r = plan.row("003-thm9-corrected")
    assert r.status == "met"
    for b in (r.user_budget, r.user_budget / 10, r.user_budget / 1e6):
        assert _direct("linear", None, UserNotion("rho"), b, T, r.id)[0] >= R


@pytest.mark.parametrize("bad", [
    lambda: Target("overhead", 0.0), lambda: Target("overhead", -1), lambda: Target("regret", float("nan")),
    lambda: Target("ratio", 0.5), lambda: Target("speed", 1.0), lambda: UserNotion("rdp"),
    lambda: UserNotion("approx"), lambda: UserNotion("nope"),
    lambda: solve("finite", 0, Target("overhead", 0.1)), lambda: solve("nope", 1e6, Target("overhead", 0.1)),
])
def test_bad_input_is_input_error(bad):
    with pytest.raises(InputError):
        bad()


def test_plan_dict_has_the_issue_fields():
    plan = solve("finite", 1e6, Target("overhead", 0.1), "epsilon")
    assert isinstance(plan, BudgetPlan)
    d = plan.as_dict()
    row = next(r for r in d["budgets"] if r["status"] == "met")
    for k in ("id", "kind", "form", "notion", "status", "budget", "user_budget", "equivalents", "regret_at_budget",
              "overhead_at_budget"):
        assert k in row
    for k in ("rho", "epsilon", "approx_simple", "approx_tight", "rdp"):
        assert k in row["equivalents"]


# -- --min-T: the horizon from which a bound is informative / its overhead is under the target -------------------
def _at_T(setting, budget, bound_id, T):
    ctx = registry.make_context(setting, {}, budget)
    ctx.params["T"] = float(T)
    b = registry.get(bound_id)
    own = ctx.budget_for(b)[0] if b.notion != "none" else None
    if b.conditions(ctx):
        return None
    v = b.evaluate([float(T)], ctx, own)
    return float(v.value[0]), float(v.nonprivate[0]), float(v.privacy_cost[0])


@pytest.mark.parametrize("setting,budget", [("linear", "rho"), ("finite", "epsilon"), ("contextual", "rho"),
                                            ("glm", "ldp")])
def test_min_horizon_answers_are_the_boundary(setting, budget):
    from boundcalc.bounds.report import trivial_regret_per_step
    from boundcalc.budget.horizon import min_horizon
    from boundcalc.privacy import ZCDP, LocalDP, PureDP

    bud = {"rho": ZCDP(0.1), "epsilon": PureDP(0.5), "ldp": LocalDP(1.0)}[budget]
    per = trivial_regret_per_step(setting, registry.make_context(setting, {}, bud).params).per_step
    rows = min_horizon(setting, bud, 0.1)
    n = 0
    for r in rows:
        if r.informative_status == "met" and r.T_informative > 1:
            T = r.T_informative
            for t in (T, 2 * T, 10 * T):
                v = _at_T(setting, bud, r.id, t)
                assert v is not None and v[0] < per * t, (r.id, t)
            v = _at_T(setting, bud, r.id, T - 1)
            assert v is None or v[0] >= per * (T - 1), (r.id, T)
            n += 1
        if r.overhead_status == "met" and r.T_overhead > 1:
            T = r.T_overhead
            v = _at_T(setting, bud, r.id, T)
            assert v[2] <= 0.1 * v[1], (r.id, T, v)
            v = _at_T(setting, bud, r.id, T - 1)
            assert v is None or v[2] > 0.1 * v[1], (r.id, T)
            n += 1
    assert n >= 2


def test_min_horizon_linear_thm9_corrected_overhead_threshold():
    """003 Thm 9 (proved form) pays for privacy only while ρ < e^-0.5/T, i.e. T < e^-0.5/ρ: with any positive
    overhead target the answer is the first T with T ≥ e^-0.5/ρ (at ρ = 1e-4: 6066)."""
    from boundcalc.budget.horizon import min_horizon
    from boundcalc.privacy import ZCDP

    rho = 1e-4
    row = next(r for r in min_horizon("linear", ZCDP(rho), 1e-12) if r.id == "003-thm9-corrected")
    assert row.overhead_status == "met"
    assert row.T_overhead == math.ceil(math.exp(-0.5) / rho)


def test_min_horizon_non_monotone_in_the_final_bracket_is_caught():
    from boundcalc.budget.horizon import _search

    # met pattern switching inside the last grid interval (between 1e5 and ~3.2e5)
    status, T, reason = _search(lambda t: t >= 10**6 or (120_000 <= t < 150_000) or (200_000 <= t < 250_000)
                                or t >= 300_000, "x")
    assert status == "non-monotone" and T is None
    status, T, _ = _search(lambda t: t >= 12_345, "x")
    assert (status, T) == ("met", 12_345)
    assert _search(lambda t: False, "x")[0] == "never"
