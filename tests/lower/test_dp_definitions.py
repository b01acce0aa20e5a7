"""Relations between DP definitions (seed 001 Props. 2.4, B.5; seed 003 Props. 1, 2) and seed 003's KL-decomposition
claims (Thm 1, 6, 8, 15, 16): the exact enumerator (boundcalc.privacy.bandit_definitions) against independent
identities, and each claim rejecting a broken copy of what it checks (mutants kept here)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from boundcalc.privacy import bandit_definitions as B
from boundcalc.verify import claims as C


def _pol(seed=3):
    return B.random_policy(np.random.default_rng(seed))


def _direct_law(pol, reward_of):
    """P(a_1, a_2, a_3) written out by hand (reward_of(t, a_1..a_t) is the observed reward)."""
    out = {}
    for a in itertools.product((0, 1), repeat=3):
        r1, r2 = reward_of(0, a[:1]), reward_of(1, a[:2])
        p = (pol["p1"] if a[0] else 1 - pol["p1"])
        q = pol["p2"][a[0], r1]
        p *= q if a[1] else 1 - q
        s = pol["p3"][a[0], r1, a[1], r2]
        p *= s if a[2] else 1 - s
        out[a] = p
    return np.array([out[a] for a in B.ACTIONS])


def test_laws_against_a_direct_expansion():
    pol = _pol()
    x = ((0, 1), (1, 1), (0, 0))
    assert np.allclose(B.table_law(pol, x), _direct_law(pol, lambda t, a: x[t][a[-1]]), atol=0, rtol=1e-15)
    r = (1, 0, 1)
    assert np.allclose(B.view_law(pol, r), _direct_law(pol, lambda t, a: r[t]), rtol=1e-15)
    assert B.table_law(pol, x).sum() == pytest.approx(1.0, abs=1e-15)
    # a table with constant rows is the list of its rows' value (the reduction behind Prop. 1(a))
    assert np.allclose(B.table_law(pol, ((1, 1), (0, 0), (1, 1))), B.view_law(pol, (1, 0, 1)), rtol=1e-15)
    # the identity adversary gives the table mechanism (Prop. 2(a)'s reduction)
    assert np.allclose(B.interactive_law(pol, x, B.IDENTITY), B.table_law(pol, x), rtol=1e-15)


def test_definitions_differ_so_the_checks_can_fail():
    # mutant relations the claims would reject: δ_table ≤ δ_view (no K^T), D_α(interactive) ≤ D_α(table)
    eps = np.linspace(0.05, 3, 25)
    al = np.array([1.5, 4.0, 20.0])
    found_delta = found_renyi = False
    for s in range(4):
        pol = _pol(s)
        F = {k: B.family(pol, k) for k in ("table", "view", "interactive")}
        found_delta |= bool(np.any(B.delta(*F["table"], eps) > B.delta(*F["view"], eps) + 1e-9))
        found_renyi |= bool(np.any(B.renyi(*F["interactive"], al) > B.renyi(*F["table"], al) + 1e-9))
    assert found_delta and found_renyi


@pytest.mark.parametrize("cid,target,broken", [
    # Prop. 1(b)/(d) with a table δ computed on half the pairs' excess / the view δ doubled
    ("003-prop1b", "delta", lambda f: (lambda P, Q, e: f(P, Q, e) * (0.5 if len(P) > 100 else 1.0))),
    ("003-prop1d", "delta", lambda f: (lambda P, Q, e: f(P, Q, e) * (20.0 if len(P) > 100 else 1.0))),
    # Prop. 1(c)/2(a): Rényi divergence of the larger family scaled down
    ("003-prop1c", "renyi", lambda f: (lambda P, Q, a: f(P, Q, a) * (0.5 if len(P) > 100 else 1.0))),
    # Prop. 2.4 / 1(a): a pure ε that ignores the first pair family it is given
    ("001-prop2.4", "pure_eps", lambda f: (lambda P, Q: f(P[1:], Q[1:]) if len(P) < 100 else f(P, Q) + 0.1)),
])
def test_each_definition_claim_rejects_a_mutant(monkeypatch, cid, target, broken):
    assert C.evaluate(cid).verdict == "no counterexample"
    monkeypatch.setattr(B, target, broken(getattr(B, target)))
    assert C.evaluate(cid).verdict == "statement violated"


def test_thm8_claim_rejects_dropping_the_squared_mean(monkeypatch):
    from boundcalc.lower import kl_decomposition as kd

    assert C.evaluate("003-thm8").verdict == "no counterexample"
    orig = kd.thm8_kl_bound

    def broken(t, T, rho, pulls=None, variance=None):
        out = dict(orig(t, T, rho, pulls, variance))
        out["bound"] -= rho * out["mean_sq"]
        return out
    monkeypatch.setattr(kd, "thm8_kl_bound", broken)
    import boundcalc.lower as L
    monkeypatch.setattr(L, "thm8_kl_bound", broken)
    assert C.evaluate("003-thm8").verdict == "statement violated"


def test_thm6_and_thm16_claims_reject_a_linear_hamming(monkeypatch):
    from boundcalc.lower import kl_decomposition as kd
    import boundcalc.lower as L

    assert C.evaluate("003-thm6", box="rho=0.01:10").verdict == "no counterexample"
    # d_Ham instead of d_Ham² in the transport cost: below ρ·E d² and, for ρ large, below the true KL
    monkeypatch.setattr(kd, "hamming", lambda a, b: float(np.sum(np.asarray(a) != np.asarray(b))) ** 0.5)
    assert C.evaluate("003-thm6", box="rho=0.01:10").verdict == "statement violated"
    monkeypatch.undo()
    monkeypatch.setattr(L, "group_privacy_renyi", lambda rho, d, a: rho * np.asarray(d, float) * a)
    assert C.evaluate("003-thm16").verdict == "statement violated"
