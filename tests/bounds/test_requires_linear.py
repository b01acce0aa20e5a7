"""Assumptions of the linear and contextual bounds as data (issue 15, item 1): ``requires`` relations.

Each bound's applicability is checked against predicates written here from the papers' assumptions (seed 003
Sec. V-A Assumption 1 and Thm 2's spanning actions; lam0 <= tr E[AA^T]/d <= 1/d for ||A|| <= 1; the OFUL proof's
lambda >= 1, ERRATA 11; seed 004 Assumption 1 with L and S), on instances built to break one assumption each; and the
prover's reading of the relations (sympy, ``base.requirement_relations``) agrees with ``conditions``; the declared
``symbol_names`` are the expression's symbols. Mutants: a flipped relation, a dropped relation, a relation without its
floating-point tolerance, and a forgotten symbol are rejected.
"""

from __future__ import annotations

import numpy as np
import pytest

from boundcalc.bounds import base, registry
from boundcalc.privacy import RDP, ZCDP, ApproxDP, PureDP

LINEAR = {  # name: instance overrides (seed 003 Sec. V-A Assumption 1, Thm 2)
    "default": {},
    "long-action": {"actions": [[2.0, 0.0], [0.0, 1.0]], "theta": [0.5, 0.5]},
    "rank-deficient": {"actions": [[1, 0, 0], [0, 1, 0]], "theta": [1, 0, 0]},
    "long-theta": {"actions": [[1, 0], [0, 1]], "theta": [2.0, 0]},
}
CONTEXTUAL = {
    "default": {},
    "lam1": {"lam": 1.0},
    "unprojected": {"context_distribution": "gaussian-003"},
    "lam0-big": {"lam0": 0.5, "lam": 1.0},
    "long-theta": {"theta": [1.0, 1.0, 0.0], "reward_noise": "gaussian", "lam": 2.0},
    "small-S": {"S": 0.5, "lam": 1.0},
    "big-L": {"L": 3.0, "lam0": 1.0, "lam": 1.0},  # lam0 > 1/d breaks OFUL's Assumption 1, not seed 004's (L^2/d)
}
TOL = 1e-9


def expected_linear(bid: str, p: dict) -> bool:
    """Applicable? Assumption 1 (||a|| <= 1, ||theta*|| <= 1) and spanning actions, for the GOPE upper bounds."""
    if bid.startswith("003-thm9"):
        return True  # the hypercube instance of Thm 9; its rho <= 1 / T >= 3 rule is tested in test_bounds_linear
    A, th = np.asarray(p["actions"], float), np.asarray(p["theta"], float)
    if bid == "gope-lattimore-szepesvari2020-thm22-1-explicit":
        return True  # Lattimore–Szepesvári Ch. 22: only 1-sub-Gaussian noise (the adapter's check); gaps in constants
    if bid == "gope-lattimore-szepesvari2020-thm22-1-paper":  # means in [-1, 1], through max ||a|| ||theta*|| <= 1
        return np.linalg.norm(A, axis=1).max() * np.linalg.norm(th) <= 1 + TOL
    return (np.linalg.norm(A, axis=1).max() <= 1 + TOL and np.linalg.norm(th) <= 1 + TOL
            and np.linalg.matrix_rank(A) == A.shape[1])


def expected_contextual(bid: str, p: dict) -> bool:
    b = registry.get(bid)
    if b.algorithm == "LinPriv" or bid == "003-oful-paper":
        return True
    d, xmax, th, lam0 = p["d"], p["max_action_norm"], p["theta_norm"], p["lam0"]
    if bid == "004-cor1":  # seed 004 Cor. 1 replaces Assumption 1's lam0 by the perturbation: sigma^2 <= L^2/d
        sig = p["perturb_sigma"]
        return xmax <= p["L"] and th <= p["S"] and 0 < sig and sig ** 2 <= p["L"] ** 2 / d
    if bid == "oful-abbasi-yadkori2011-thm3":  # Abbasi-Yadkori et al. 2011 Thm 3: ||x|| <= L, <x, theta*> in [-1, 1],
        return (xmax <= p["L"] + TOL and xmax * th <= 1 + TOL  # lambda >= max(1, L^2) (Lemma 11)
                and p["lam"] >= 1 and p["lam"] >= p["L"] ** 2)
    if bid in ("linucb-seed004-thm3-nonprivate", "private-linucb-neel-roth2018-paper"):  # ||x|| <= L, ||theta*|| <= S
        return xmax <= p["L"] + TOL and th <= p["S"] + TOL
    if bid.startswith("004-"):  # seed 004 Assumption 1: ||x|| <= L, ||theta*|| <= S, so lam0 <= L^2/d
        return xmax <= p["L"] + TOL and th <= p["S"] + TOL and lam0 <= p["L"] ** 2 / d + 1e-12
    ok = xmax <= 1 + TOL and th <= 1 + TOL
    if bid == "003-rsoful-explicit":
        return ok
    ok = ok and lam0 <= 1 / d + 1e-12
    if bid.endswith("-explicit"):
        ok = ok and p["lam"] >= 1
    return ok


def budget_for(b):
    return {"zcdp": ZCDP(0.1), "rdp": RDP(2.0, 0.2), "approx": ApproxDP(1.0, 1e-6), "pure": PureDP(1.0),
            "none": None}[b.notion]


def cases():
    for setting, insts in (("linear", LINEAR), ("contextual", CONTEXTUAL)):
        for name, over in insts.items():
            yield setting, name, over


def applicability_mismatches() -> list[str]:
    out = []
    for setting, name, over in cases():
        ctx = registry.make_context(setting, over)
        want = expected_linear if setting == "linear" else expected_contextual
        for b in registry.all_bounds():
            if b.setting != setting:
                continue
            ctx.budget = budget_for(b)
            got = not b.conditions(ctx)
            if got != bool(want(b.id, ctx.params)):
                out.append(f"{b.id} on {setting}/{name}: applicable {got}, the assumptions say {not got}")
    return out


def test_applicability_follows_the_papers_assumptions():
    assert not applicability_mismatches()


def test_the_provers_reading_agrees_with_conditions():
    """Each relation, read by sympy with the context's values, holds iff ``conditions`` does not name it."""
    import sympy

    for setting, name, over in cases():
        ctx = registry.make_context(setting, over)
        for b in registry.all_bounds():
            if b.setting != setting or not b.requires:
                continue
            ctx.budget = budget_for(b)
            vals = base.requirement_values(b, ctx)
            failing = " | ".join(b.conditions(ctx))
            for text, rel in zip(b.requires, base.requirement_relations(b)):
                holds = bool(rel.subs({s: sympy.Float(vals[s.name], 30) for s in rel.free_symbols}))
                assert holds == (f"needs {text} (" not in failing), (b.id, name, text, failing)


def test_mutants_rejected(monkeypatch):
    b = registry.get("003-thm4-explicit")
    monkeypatch.setattr(b, "requires", ("max_action_norm <= 1.000000001", "theta_norm <= 1.000000001", "rank > d"))
    assert any("003-thm4-explicit" in m for m in applicability_mismatches())  # flipped: every instance fails
    monkeypatch.setattr(b, "requires", ("max_action_norm <= 1.000000001", "rank >= d"))
    assert any("long-theta" in m for m in applicability_mismatches())  # ||theta*|| <= 1 dropped
    monkeypatch.setattr(b, "requires", ("max_action_norm <= 1", "theta_norm <= 1.000000001", "rank >= d"))
    assert any("linear/default" in m for m in applicability_mismatches())  # no tolerance: ||a|| = 1 + 2e-16 fails
    monkeypatch.undo()
    c = registry.get("003-thm5-explicit")
    monkeypatch.setattr(c, "requires", c.requires[:-1])  # lambda >= 1 dropped
    assert any("003-thm5-explicit on contextual/default" in m for m in applicability_mismatches())


@pytest.mark.parametrize("bid", ["003-thm4-explicit", "003-thm5-explicit", "004-thm3"])
def test_failing_relation_is_explained(bid):
    """A failing relation is reported with its reading (requires_notes) and the values that break it."""
    b = registry.get(bid)
    setting = b.setting
    over = {"003-thm4-explicit": LINEAR["long-action"], "003-thm5-explicit": {},
            "004-thm3": CONTEXTUAL["small-S"]}[bid]
    ctx = registry.make_context(setting, over, budget=budget_for(b))
    (msg,) = b.conditions(ctx)
    want = {"003-thm4-explicit": ("||a|| <= 1", "max_action_norm = 2"),
            "003-thm5-explicit": ("lambda >= 1", "lam = 0.1"),
            "004-thm3": ("||theta*|| <= S", "S = 0.5")}[bid]
    assert all(w in msg for w in want), msg


def undeclared_symbols(bounds) -> list[str]:
    """Bounds whose ``symbol_names`` (what symbol_values fills) differ from the expression's symbols besides T."""
    import sympy

    out = []
    ctx = {s: registry.make_context(s, {}) for s in {b.setting for b in bounds}}
    for b in bounds:
        free = set().union(*(sympy.sympify(e).free_symbols for e in b.expression()))
        names = {s.name for s in free} - {"T"}
        declared = set(b.symbol_values(ctx[b.setting], budget_for(b)))
        if names != declared:
            out.append(f"{b.id}: expression {sorted(names)} vs symbol_values {sorted(declared)}")
    return out


def test_symbol_names_are_the_expressions_symbols(monkeypatch):
    bounds = [b for b in registry.all_bounds() if b.setting in ("linear", "contextual")]
    assert not undeclared_symbols(bounds)
    b = registry.get("003-thm4-explicit-hp")
    monkeypatch.setattr(b, "symbol_names", ("d", "K", "rho"))  # mutant: delta forgotten
    assert undeclared_symbols([b])
