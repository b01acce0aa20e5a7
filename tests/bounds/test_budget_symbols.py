"""The budget symbols of the bounds' expressions are declared once, boundcalc.bounds.symbols.BUDGET_PARAMETERS (issue 23
item 4): every other table (declared bounds, finite bounds, linear bounds, check's bound() keywords, the prover's budget
boxes) is derived from it, and the values a bound receives are the budget's own numbers (checked here against budgets
built by hand, not against the code's output)."""

from __future__ import annotations

import dataclasses

import pytest

from boundcalc.bounds import declared, finite, registry, symbols
from boundcalc.privacy import budgets
from boundcalc.rigorous import bound_calls, bound_pairs

BUDGET_CLASSES = {c.notion: c for c in (budgets.PureDP, budgets.ZCDP, budgets.RDP, budgets.ApproxDP, budgets.LocalDP)}


def drift() -> list[str]:
    """Every place where a table of budget symbols differs from what the one declaration gives."""
    out = []
    attr = {s: a for n in symbols.NOTIONS for s, (a, _) in symbols.BUDGET_PARAMETERS[n].items()}
    if declared._BUDGET_ATTR != attr:
        out.append(f"declared._BUDGET_ATTR {declared._BUDGET_ATTR} != {attr}")
    for n, m in finite._BUDGET_SYMBOLS.items():
        want = {s: a for s, (a, _) in symbols.budget_parameters("finite", n).items()}
        if m != want:
            out.append(f"finite._BUDGET_SYMBOLS[{n}] {m} != {want}")
    for (st, n), m in bound_calls.BUDGET_SYMBOLS.items():
        want = {kw: s for s, (_, kw) in symbols.budget_parameters(st, n).items()}
        if m != want:
            out.append(f"bound_calls.BUDGET_SYMBOLS[{st}, {n}] {m} != {want}")
    for (st, n), box in bound_pairs.BUDGET_BOX.items():
        if set(box) != set(symbols.budget_parameters(st, n)):
            out.append(f"bound_pairs.BUDGET_BOX[{st}, {n}] names {sorted(box)}")
    return out


def test_every_budget_symbol_table_derives_from_the_one_declaration():
    assert drift() == []
    for n, (cls) in BUDGET_CLASSES.items():
        fields = {f.name for f in dataclasses.fields(cls)}
        for key, m in symbols.BUDGET_PARAMETERS.items():
            if key == n or (isinstance(key, tuple) and key[1] == n):
                for s, (a, kw) in m.items():
                    assert a in fields, (key, s, a)  # the attribute exists on the notion's budget
                    assert kw in bound_calls.BUDGET_KEYS, (key, s, kw)  # check's bound() accepts the keyword
                    assert s in symbols.BUDGET and s in symbols.BUDGET_OF_NOTION[n]  # documented for bounds show


def test_a_drifted_copy_is_reported(monkeypatch):
    """Mutants: a hand-written copy that drifts from the declaration (the state before issue 23) is caught."""
    monkeypatch.setattr(declared, "_BUDGET_ATTR", {"epsilon": "epsilon", "rho": "rho", "alpha": "alpha",
                                                   "delta_dp": "epsilon"})
    monkeypatch.setattr(bound_calls, "BUDGET_SYMBOLS", {**bound_calls.BUDGET_SYMBOLS,
                                                       ("finite", "rdp"): {"alpha": "alpha", "rdp_epsilon": "epsilon"}})
    got = drift()
    assert any("declared._BUDGET_ATTR" in g for g in got) and any("finite, rdp" in g for g in got)


@pytest.mark.parametrize("bid,budget,want", [
    ("000-thm5", budgets.RDP(2.5, 0.7), {"alpha_rdp": 2.5, "epsilon_rdp": 0.7}),
    ("003-thm10", budgets.ZCDP(0.3), {"rho": 0.3}),
    ("001-shariff-sheffet", budgets.PureDP(0.9), {"epsilon": 0.9}),
])
def test_budget_symbols_take_the_budget_numbers(bid, budget, want):
    b = registry.get(bid)
    ctx = registry.make_context(b.setting, {}, budget)
    vals = b.symbol_values(ctx, budget)
    assert {k: vals[k] for k in want} == want
    # every budget symbol of the expression is a declared one of its (setting, notion)
    names = {n for n in vals if n in symbols.BUDGET}
    assert names == set(symbols.budget_parameters(b.setting, b.notion))


def test_declared_bound_reads_budget_by_the_declaration():
    b = declared.DeclaredBound(id="t-approx", title="t", source="test", setting="linear", notion="approx",
                               kind="upper-minimax", nonprivate="sqrt(T)", privacy_cost="log(1/delta_dp)/epsilon",
                               assumptions=("epsilon > 0", "delta_dp > 0"))
    ctx = registry.make_context("linear", {}, budgets.ApproxDP(0.5, 1e-4))
    assert b.symbol_values(ctx, budgets.ApproxDP(0.5, 1e-4)) == {"epsilon": 0.5, "delta_dp": 1e-4}


def test_claim_pairs_build_budgets_from_the_declaration():
    """verify.claims.pairs builds a pair's budget from its parameters through the declaration (finite RDP symbols
    first); budgets built by hand."""
    from boundcalc.verify.claims.pairs import _budget

    assert _budget("pure", {"epsilon": 0.3, "rho": 2.0}) == budgets.PureDP(0.3)
    assert _budget("zcdp", {"rho": 0.2, "epsilon": 1.0}) == budgets.ZCDP(0.2)
    assert _budget("rdp", {"alpha_rdp": 3.0, "epsilon_rdp": 0.4, "alpha": 9.0, "epsilon": 9.0}) == budgets.RDP(3.0, 0.4)
    assert _budget("rdp", {"alpha": 2.5, "epsilon": 0.7}) == budgets.RDP(2.5, 0.7)
    assert _budget("approx", {"epsilon": 1.0}) is None and _budget("none", {}) is None
