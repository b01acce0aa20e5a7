"""The registered quantities of the finite-armed bounds (boundcalc/bounds/quantities.py, issue 15 item 1).

* numpy (float) and mpmath (50 digits) implementations agree to 1e-13 relative; the mpmath one is a separate code
  path (d_ε from its definition, seed 001 Eq. 6, by golden-section search; no numpy function called), shown by
  breaking the numpy path and seeing the mpmath values unchanged;
* the interval enclosures contain the (25-digit) mpmath values at point boxes and at sample points of a box;
* every symbol of every finite bound's expression is a registered quantity, a budget parameter or a scalar
  instance parameter; each quantity cites its source;
* ``requires`` as data: the finite bounds' applicability equals an independent statement of their assumptions.
Each check keeps a mutant it rejects.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from boundcalc.bounds import finite, quantities as Q, registry
from boundcalc.bounds.base import Context
from boundcalc.privacy import RDP, ZCDP, ApproxDP, PureDP

# (means, ε): μ2, a small gap, a large ε (privacy free), ties at the top, means near 0 and 1, exact powers of two
CASES = [
    ([0.75, 0.625, 0.5, 0.375, 0.25], 1.0),
    ([0.55, 0.5], 0.01),
    ([0.9, 0.6], 5.0),
    ([0.7, 0.7, 0.4, 0.1], 0.3),
    ([0.999, 0.001, 0.5], 0.05),
    ([0.5, 0.25, 0.125], 2.0),
]
RTOL = 1e-13


def _arms_mp(means):
    ms = max(means)
    return Q.arms_mpmath(ms, [m for m in means if m < ms], len(means))


def disagreements(names=None, c=6.0) -> list[str]:
    """Every (quantity, case) whose float value differs from the 50-digit one by more than RTOL relative."""
    out = []
    with mpmath.workdps(50):
        for means, eps in CASES:
            a, am = Q.arms_numpy(means), _arms_mp(means)
            for n in names or Q.QUANTITIES:
                x = Q.evaluate(n, a, "numpy", epsilon=eps, c=c)
                y = Q.evaluate(n, am, "mpmath", epsilon=eps, c=c)
                if not abs(mpmath.mpf(x) - y) <= RTOL * abs(y):
                    out.append(f"{n} at means={means}, ε={eps}: float {x!r} vs 50 digits {mpmath.nstr(y, 20)}")
    return out


def test_numpy_and_mpmath_quantities_agree():
    assert not disagreements(), "\n".join(disagreements())


def test_mutant_numpy_quantity_rejected(monkeypatch):
    """Mutants of the numpy path: d_ε replaced by kl (H_eps), the DP-SE epoch without its + 1 (S_1 … S_3)."""
    from boundcalc.info import kl_bernoulli

    h = Q.QUANTITIES["H_eps"]
    monkeypatch.setitem(Q.QUANTITIES, "H_eps", Q.Quantity(
        "H_eps", lambda a, epsilon: float(np.sum(a.gaps / kl_bernoulli(a.means, a.mu_star))), h.mpmath, h.interval,
        h.params))
    monkeypatch.setattr(Q, "dpse_last_epoch", lambda g: np.floor(np.log2(1.0 / np.asarray(g, float))))
    with np.errstate(all="ignore"):
        bad = disagreements()
    assert any(d.startswith("H_eps") for d in bad)  # ε = 0.01: privacy binds, d_ε < kl
    assert {d.split()[0] for d in bad} >= {"S_1", "S_2", "S_3"}
    assert not any(d.startswith(("H_kl", "H_inv", "H_min ")) for d in bad)


def test_mpmath_path_is_independent_of_the_numpy_path(monkeypatch):
    """With every numpy kl / d_ε / epoch broken, the mpmath values are unchanged (so their agreement is a check)."""
    with mpmath.workdps(50):
        before = {n: Q.evaluate(n, _arms_mp(CASES[1][0]), "mpmath", epsilon=0.01, c=6.0) for n in Q.QUANTITIES}
        import boundcalc.info as info

        def broken(*args, **kw):
            raise AssertionError("numpy path called")

        for name in ("kl_bernoulli", "d_epsilon"):
            monkeypatch.setattr(info, name, broken)
        monkeypatch.setattr(Q, "dpse_last_epoch", broken)
        after = {n: Q.evaluate(n, _arms_mp(CASES[1][0]), "mpmath", epsilon=0.01, c=6.0) for n in Q.QUANTITIES}
        assert before == after
        with pytest.raises(AssertionError, match="numpy path"):
            Q.evaluate("H_eps", Q.arms_numpy(CASES[1][0]), "numpy", epsilon=0.01)


def test_hand_computed_values():
    """Independent of the package: means (0.9, 0.6), ε = 0.1 (privacy binds: ε·Δ < kl)."""
    kl = 0.6 * math.log(0.6 / 0.9) + 0.4 * math.log(0.4 / 0.1)
    a = Q.arms_numpy([0.9, 0.6])
    assert Q.evaluate("H_kl", a) == pytest.approx(0.3 / kl, rel=1e-14)
    assert Q.evaluate("H_min", a, epsilon=0.1, c=6.0) == pytest.approx(0.3 / min(kl, 0.6 * 0.3), rel=1e-14)
    assert Q.evaluate("H_min_eps", a, epsilon=0.1) == pytest.approx(10.0, rel=1e-14)
    # e_a = floor(log2(1/0.3)) + 1 = 2; S_1 = ln(8·2·4)/0.3, S_2 = ln(4·2·4), S_3 = 2·0.3
    assert [Q.evaluate(n, a) for n in ("S_1", "S_2", "S_3")] == pytest.approx(
        [math.log(64) / 0.3, math.log(32), 0.6], rel=1e-14)


# -- interval enclosures ---------------------------------------------------------------------------------------
def _contains(iv, y) -> bool:
    return iv.lo <= y <= iv.hi


def enclosure_misses(box_width=0.0, c=6.0) -> list[str]:
    """(quantity, case, point) where the interval over a box around the case misses the mpmath value at a point
    of the box (the centre, and the corners when the box has width)."""
    from boundcalc.intervals.interval import Interval

    out = []
    with mpmath.workdps(25):  # the values are compared as floats with the enclosure
        for means, eps in CASES:
            ms = max(means)
            sub = [m for m in means if m < ms]
            w = box_width
            box = Q.arms_interval(Interval(ms - w, ms + w), [Interval(m - w, m + w) for m in sub], len(means))
            E = Interval(eps * (1 - w), eps * (1 + w))
            pts = [(ms, sub, eps)] + ([(ms - w, [m + w for m in sub], eps * (1 - w)),
                                       (ms + w, [m - w for m in sub], eps * (1 + w))] if w else [])
            for n in Q.QUANTITIES:
                enc = Q.evaluate(n, box, "interval", epsilon=E, c=c)
                for p_ms, p_sub, p_eps in pts:
                    y = Q.evaluate(n, Q.arms_mpmath(p_ms, p_sub, len(means)), "mpmath", epsilon=p_eps, c=c)
                    if not _contains(enc, float(y)):
                        out.append(f"{n} at means={means}, ε={eps}: [{enc.lo!r}, {enc.hi!r}] misses {float(y)!r}")
    return out


def test_interval_enclosures_contain_the_values():
    assert not enclosure_misses(0.0)
    assert not enclosure_misses(1e-3)


def test_mutant_interval_rejected(monkeypatch):
    """Mutant: H_min's enclosure without the 1/(cε) branch (Δ/kl only) misses when privacy binds."""
    from boundcalc.intervals import enclosures as en

    h = Q.QUANTITIES["H_min"]
    monkeypatch.setitem(Q.QUANTITIES, "H_min", Q.Quantity(
        "H_min", h.numpy, h.mpmath, lambda a, epsilon, c=1.0: Q._itot(en.gap_over_kl_range(m, a.mu_star)
                                                                     for m in a.means), h.params, h.defaults))
    assert any(m.startswith("H_min") for m in enclosure_misses(0.0))


# -- the finite bounds' symbols are registered -----------------------------------------------------------------
BUDGETS = {"pure": PureDP(0.5), "zcdp": ZCDP(0.1), "rdp": RDP(4.0, 0.5), "none": None}


def test_every_finite_symbol_is_a_quantity_budget_or_instance_parameter():
    import sympy

    ctx = registry.make_context("finite")
    for b in finite.BOUNDS:
        names = {s.name for e in b.expression() for s in sympy.sympify(e).free_symbols} - {"T"}
        own = {"pure": {"epsilon"}, "zcdp": {"rho"}, "rdp": {"alpha_rdp", "epsilon_rdp"}, "none": set()}[b.notion]
        for n in names - own:
            assert n in Q.QUANTITIES or isinstance(ctx.params.get(n), (int, float)), (b.id, n)
        assert set(b.symbol_values(ctx, BUDGETS[b.notion])) == names, b.id


def test_quantities_cite_their_source_and_have_three_backends():
    for q in Q.QUANTITIES.values():
        assert any(w in q.doc for w in ("seed 00", "Sajed")), q.name
        assert callable(q.numpy) and callable(q.mpmath) and callable(q.interval), q.name


# -- requires as data: applicability equals an independent statement of the assumptions ------------------------
INSTANCES = [
    [0.75, 0.625, 0.5, 0.375, 0.25], [1.0, 0.5], [0.7, 0.0], [0.7, 0.7, 0.4], [0.4, 0.4], [0.5],
]
PARAMS = [{}, {"beta_adac": 3.0, "beta_adar": 2.0, "alpha_adap": 3.0}, {"dpse_beta": 0.01}]


def expected_applicable(bid, means, kw, budget) -> bool:
    """The bounds' assumptions written out (from the papers' statements as the module docstrings give them)."""
    p = {**finite.DEFAULT_INSTANCE, **kw}
    ms = max(means)
    open_ = min(means) > 0 and max(means) < 1
    unique = means.count(ms) == 1
    some_sub = any(m < ms for m in means)
    K = len(means)
    table = {
        "001-lai-robbins": open_, "001-thm3.1": open_, "001-eq7-c6": open_, "001-eq7-c1": open_,
        "001-shariff-sheffet": some_sub, "001-dp-se-paper": some_sub,
        "001-thm4.3-dp-klucb": open_ and unique, "001-thm4.3-dp-imed": open_ and unique,
        "001-adap-ucb": p["alpha_adap"] > 3 and some_sub, "001-adap-klucb-paper": p["alpha_adap"] > 3 and open_,
        "001-dp-se-explicit": some_sub and p["dpse_beta"] == "1/T",
        "003-thm10": p["beta_adac"] > 3 and some_sub, "000-thm5": p["beta_adar"] > 3 and some_sub,
        "003-thm11-paper": K > 1, "000-cor6-paper": K > 1,
        "003-thm11-explicit": p["beta_adac"] > 3 and K > 1, "000-cor6-explicit": p["beta_adar"] > 3 and K > 1,
        "003-thm17": K > 1 and (budget is None or not isinstance(budget, ZCDP) or budget.rho <= 1),
    }
    return table[bid]


def applicability_mismatches(ids=None) -> list[str]:
    bounds = [b for b in finite.BOUNDS if ids is None or b.id in ids]
    out = []
    for means in INSTANCES:
        for kw in PARAMS:
            params = finite.derive({**{k: v for k, v in finite.DEFAULT_INSTANCE.items() if k != "name"},
                                    "means": means, **kw})
            for budget in (PureDP(0.5), ZCDP(0.1), ZCDP(2.0), RDP(4.0, 0.5), ApproxDP(1.0, 1e-6)):
                ctx = Context(params=params, budget=budget)
                for b in bounds:
                    got = not b.conditions(ctx)
                    if got != expected_applicable(b.id, means, kw, budget):
                        out.append(f"{b.id} means={means} {kw} {budget}: applicable {got} ({b.conditions(ctx)})")
    return out


def test_applicability_equals_the_stated_assumptions():
    assert not applicability_mismatches(), "\n".join(applicability_mismatches()[:20])


def test_mutant_dropped_requirement_rejected(monkeypatch):
    """Mutants: Thm 4.3 without its unique-best-arm relation; Thm 17 with ρ < 1 read as ρ ≥ 1."""
    b = registry.get("001-thm4.3-dp-imed")
    monkeypatch.setattr(b, "requires", finite._MEANS_OPEN)
    assert any("001-thm4.3-dp-imed" in m and "0.7, 0.7" in m for m in applicability_mismatches({b.id}))
    monkeypatch.undo()
    b17 = registry.get("003-thm17")
    monkeypatch.setattr(b17, "requires", ("K > 1", "rho >= 1"))
    assert any("003-thm17" in m for m in applicability_mismatches({b17.id}))


def test_condition_texts_are_readable():
    """A failing relation is worded for the reader (β, α, ρ, (0, 1)) and names the value it failed with."""
    def reasons(bid, means=None, budget=PureDP(0.5), **kw):
        p = {**{k: v for k, v in finite.DEFAULT_INSTANCE.items() if k != "name"}, **kw}
        if means is not None:
            p["means"] = means
        return registry.get(bid).conditions(Context(params=finite.derive(p), budget=budget))

    assert reasons("003-thm10", budget=ZCDP(0.1), beta_adac=2.5) == ["needs β > 3 (beta_adac = 2.5)"]
    assert reasons("001-adap-ucb", alpha_adap=3.0) == ["needs α > 3 (alpha_adap = 3)"]
    assert reasons("003-thm17", budget=ZCDP(4.0)) == [
        "needs ρ ≤ 1 (rho = 4); for ρ > 1 only the non-private term holds"]
    assert reasons("001-lai-robbins", means=[1.0, 0.5], budget=None) == [
        "needs means in the open interval (0, 1): largest mean < 1 (mu_star = 1)"]
    assert reasons("001-thm4.3-dp-klucb", means=[0.7, 0.7, 0.2]) == [
        "needs a unique best arm (n_best = 2 arms with the largest mean)"]
    assert reasons("003-thm17", budget=ApproxDP(1.0, 1e-6)) == []  # no conversion: not this bound's budget
