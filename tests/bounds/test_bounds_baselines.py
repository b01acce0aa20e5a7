"""The baselines' published bounds (issue 16 item 6, boundcalc/bounds/baselines.py): each value against the formula
typed again here in mpmath from its source (never from the code's output), each check shown to reject a mutated copy
of the bound; the registry, the algorithms' bound ids, the `algorithms` command and `regret --check` reach them."""

from __future__ import annotations

import copy
import json

import mpmath
import numpy as np
import pytest

from boundcalc import algorithms as algs
from boundcalc.bounds import baselines, registry
from clirun import app, runner
from boundcalc.privacy import LocalDP, PureDP

TS = (10.0, 1e3, 1e6)


# -- the formulas typed again (mpmath, 40 digits) -----------------------------------------------------------------
def _kl(p, q):
    p, q = mpmath.mpf(p), mpmath.mpf(q)
    return p * mpmath.log(p / q) + (1 - p) * mpmath.log((1 - p) / (1 - q))


def _sub(means):
    ms = max(means)
    return ms, [mpmath.mpf(m) for m in means if m < ms]


def ucb1(T, means, **_):
    """Auer et al. 2002 Thm 1: 8 Σ ln T/Δ + (1 + π²/3) Σ Δ."""
    ms, sub = _sub(means)
    return sum(8 * mpmath.log(T) / (ms - m) for m in sub) + (1 + mpmath.pi ** 2 / 3) * sum(ms - m for m in sub)


def kl_const(T, means, **_):
    """Garivier & Cappé 2011 Cor. 1 / Honda & Takemura 2015: Σ Δ/kl(μ_a, μ*) · ln T."""
    ms, sub = _sub(means)
    return sum((ms - m) / _kl(m, ms) for m in sub) * mpmath.log(T)


def lazy(T, means, eps, **_):
    """Hu & Hegde 2022 (sheet 001 §7.3): Σ ln T / min(Δ, ε)."""
    ms, sub = _sub(means)
    return sum(mpmath.log(T) / min(ms - m, mpmath.mpf(eps)) for m in sub)


def oful(T, d, lam, L, theta_norm, delta, **_):
    """Abbasi-Yadkori et al. 2011 Thm 3 (R = 1)."""
    T, d, lam, L, S, delta = map(mpmath.mpf, (T, d, lam, L, theta_norm, delta))
    w = mpmath.sqrt(lam) * S + mpmath.sqrt(2 * mpmath.log(1 / delta) + d * mpmath.log(1 + T * L / (lam * d)))
    return 4 * mpmath.sqrt(T * d * mpmath.log(lam + T * L / d)) * w


def linucb(T, d, lam, L, S, zeta, **_):
    """Seed 004 Thm 3, first term."""
    T, d, lam, L, S, z = map(mpmath.mpf, (T, d, lam, L, S, zeta))
    a = mpmath.sqrt(d * mpmath.log((1 + T * L * L * lam) / z)) + mpmath.sqrt(lam) * S
    return 2 * a * mpmath.sqrt(d * T * mpmath.log(lam + L * T / d))


def neel_roth(T, d, eps, **_):
    T = mpmath.mpf(T)
    return d * mpmath.sqrt(T) + mpmath.log(T) ** 2.5 * mpmath.sqrt(T) / eps


def zheng(T, eps, **_):
    return mpmath.mpf(T) ** mpmath.mpf(0.75) / eps


def gope_ls_explicit(T, d, K, delta, max_action_norm, theta_norm, **_):
    """GOPE, explicit form DERIVED from Lattimore & Szepesvári 2020 Thm 22.1 (bounds/baselines.py docstring):
    Δ̄(s + 8dΛ_1) + 4s + 16dΛ(2^{L+1} − 4) + δTΔ̄."""
    T, d, K, delta = map(mpmath.mpf, (T, d, K, delta))
    Db = 2 * mpmath.mpf(max_action_norm) * mpmath.mpf(theta_norm)
    lam1 = mpmath.log(2 * K / delta)
    L = mpmath.floor(mpmath.log(4 + 3 * T / (2 * d * lam1)) / mpmath.log(4))
    lam = mpmath.log(K * L * (L + 1) / delta)
    s = min(K, d * (d + 1) / 2)
    return Db * (s + 8 * d * lam1) + 4 * s + 16 * d * lam * (2 ** (L + 1) - 4) + delta * T * Db


def gope_ls_paper(T, d, K, **_):
    """Lattimore & Szepesvári 2020 Thm 22.1 with C = 1: sqrt(T d log(K T))."""
    T = mpmath.mpf(T)
    return mpmath.sqrt(T * d * mpmath.log(K * T))


# bound id -> (independent formula, budgets, instance overrides to test, a mutation of the sympy expression)
def _subs(old, new):
    def mutate(expr_pair):
        import sympy

        syms = {s.name: s for e in expr_pair for s in sympy.sympify(e).free_symbols}
        o, n = sympy.sympify(old, locals=syms), sympy.sympify(new, locals=syms)
        return tuple(sympy.sympify(e).subs(o, n) for e in expr_pair)

    return mutate


FINITE = ({}, {"means": [0.9, 0.5, 0.45, 0.2]}, {"means": [0.3, 0.29, 0.1]})
CASES = {
    "ucb1-auer2002-thm1": (ucb1, [None], FINITE, _subs("pi", "pi/2")),
    "klucb-garivier-cappe2011": (kl_const, [None], tuple(dict(o, klucb_c=3.0) for o in FINITE), _subs("H_kl", "H_inv")),
    "imed-honda-takemura2015": (kl_const, [None], FINITE, _subs("H_kl", "H_inv")),
    "lazy-dp-ts-hu-hegde2022-paper": (lazy, [PureDP(0.1), PureDP(1.0), PureDP(10.0)], FINITE, _subs("H_min_eps", "H_inv")),
    "oful-abbasi-yadkori2011-thm3": (oful, [None], ({"lam": 1.0}, {"lam": 2.0, "d": 4, "delta": 0.05},
                                                    {"lam": 1.0, "theta": [0.5, 0.0, 0.0]}), _subs("delta", "sqrt(delta)")),
    "linucb-seed004-thm3-nonprivate": (linucb, [None], ({}, {"lam": 2.0, "d": 4, "zeta": 0.01, "S": 1.5}),
                                       _subs("zeta", "zeta**2")),
    "private-linucb-neel-roth2018-paper": (neel_roth, [PureDP(0.5), PureDP(2.0)], ({}, {"d": 5}),
                                           _subs("5/2", "2")),
    "ldp-ucb-zheng2020-paper": (zheng, [LocalDP(1.0, 0.01), LocalDP(5.0, 0.01)], ({},), _subs("3/4", "1/2")),
    "ldp-gloc-zheng2020-paper": (zheng, [LocalDP(1.0, 0.01)], ({},), _subs("3/4", "2/3")),
    "gope-lattimore-szepesvari2020-thm22-1-explicit": (
        gope_ls_explicit, [None], ({}, {"d": 2, "K": 5, "delta": 0.05}, {"d": 6, "K": 1000, "delta": 1e-7},
                                   {"theta": [0.5, 0.0, 0.0]}), _subs("delta", "delta**2")),
    "gope-lattimore-szepesvari2020-thm22-1-paper": (gope_ls_paper, [None], ({}, {"d": 5, "K": 50}), _subs("K", "K**2")),
}


def _agrees(bound, formula, budgets, overrides) -> bool:
    """Does ``bound`` equal ``formula`` (typed here) to 1e-10 relative on every instance, budget and T?"""
    for over in overrides:
        for budget in budgets:
            ctx = registry.make_context(bound.setting, over, budget)
            assert not bound.conditions(ctx), (bound.id, over, bound.conditions(ctx))
            got = bound.evaluate(np.array(TS), ctx).value
            p = dict(ctx.params)
            if budget is not None:
                p["eps"] = budget.epsilon
            with mpmath.workdps(40):
                want = [float(formula(mpmath.mpf(T), **p)) for T in TS]
            if not np.allclose(got, want, rtol=1e-10, atol=0):
                return False
    return True


def test_every_baseline_bound_is_tested():
    assert set(CASES) == {b.id for b in baselines.BOUNDS}


@pytest.mark.parametrize("bound_id", sorted(CASES))
def test_value_against_independent_formula_and_mutant(bound_id):
    formula, budgets, overrides, mutation = CASES[bound_id]
    bound = registry.get(bound_id)
    assert _agrees(bound, formula, budgets, overrides)
    # the mutant: the same bound with one piece of its expression changed (lambdified, not the generated code)
    mutant = copy.copy(bound)
    original = bound.expression
    mutant.expression = lambda: mutation(original())
    assert mutant.expression() != original()
    assert not _agrees(mutant, formula, budgets, overrides)


def test_metadata_and_requirements():
    for b in baselines.BOUNDS:
        assert b in registry.select(b.setting), b.id
        assert b.source and b.caveats is not None and algs.lookup(b.algorithm).setting == b.setting, b.id
        assert b.id in algs.lookup(b.algorithm).bound_ids, b.id
        if b.form == "paper":
            assert any("paper form" in c for c in b.caveats), b.id
    oful_b = registry.get("oful-abbasi-yadkori2011-thm3")
    # λ ≥ max(1, L²): the contextual default λ = 0.1 is outside, λ = 1 inside, L = 1.5 with λ = 2 outside again
    assert any("lam >= 1" in c for c in oful_b.conditions(registry.make_context("contextual", {})))
    assert not oful_b.conditions(registry.make_context("contextual", {"lam": 1.0}))
    assert any("L**2" in c for c in oful_b.conditions(registry.make_context("contextual", {"lam": 2.0, "L": 1.5})))
    klucb = registry.get("klucb-garivier-cappe2011")
    assert any("klucb_c" in c for c in klucb.conditions(registry.make_context("finite", {})))  # c = 0 (practice)
    assert not klucb.conditions(registry.make_context("finite", {"klucb_c": 3}))


def test_algorithms_command_lists_the_baselines_bounds():
    r = runner.invoke(app, ["algorithms", "--json"])
    assert r.exit_code == 0, r.output
    rows = {a["name"]: a["bound_ids"] for a in json.loads(r.output)["algorithms"]}
    for b in baselines.BOUNDS:
        assert b.id in rows[b.algorithm], (b.algorithm, rows[b.algorithm])
    # every built-in algorithm now has at least one bound
    empty = sorted(n for n, ids in rows.items() if not ids)
    assert empty == [], empty


def test_regret_check_judges_the_finite_baselines():
    """regret --check simulates UCB / IMED / Lazy-DP-TS and judges their bounds inside the assumptions; KL-UCB at
    its default c = 0 is reported outside the theorem's assumptions (not applicable), at c = 3 judged."""
    r = runner.invoke(app, ["regret", "--setting", "finite", "--epsilon", "1", "--T", "300", "--check", "--runs", "6",
                            "--param", "klucb_c=3", "--json"])
    assert r.exit_code == 0, r.output
    rows = {b["id"]: b for b in json.loads(r.output)["bounds"]}
    for bid in ("ucb1-auer2002-thm1", "klucb-garivier-cappe2011", "imed-honda-takemura2015",
                "lazy-dp-ts-hu-hegde2022-paper"):
        e = rows[bid]["empirical"]
        assert e["assumptions_met"] is True and e["verdict"], (bid, e)
    r = runner.invoke(app, ["regret", "--setting", "finite", "--T", "300", "--json"])
    row = {b["id"]: b for b in json.loads(r.output)["bounds"]}["klucb-garivier-cappe2011"]
    assert row["applicable"] is False


def test_private_linucb_paper_calibration_is_outside_the_assumptions():
    from boundcalc.verify import adapters as A

    ctx = registry.make_context("contextual", {}, PureDP(1.0))
    ad = A._adapters()["Private-LinUCB"]
    met, note = ad.assumptions(ctx, ad.env(ctx), {"algorithm": "Private-LinUCB"})
    assert met is False and "eps_true" in note
    ad = A._adapters()["LinUCB"]
    met, note = ad.assumptions(ctx, ad.env(ctx), {"algorithm": "LinUCB"})
    assert met is True, note


def test_overlay_draws_the_baselines_bounds_or_says_why():
    """simulate --plot's overlay (verify/overlay.py): each baseline's bound beside its curve on the papers' instances,
    or the reason it is not drawn (KL-UCB's practical c = 0, OFUL's λ = 0.1 < 1)."""
    from boundcalc.envs import make_named_env
    from boundcalc.verify import overlay

    t = np.geomspace(10, 1e3, 5)
    for name, b, env, bid in (("UCB", None, "mu2", "ucb1-auer2002-thm1"), ("IMED", None, "mu2", "imed-honda-takemura2015"),
                              ("Lazy-DP-TS", PureDP(1.0), "mu2", "lazy-dp-ts-hu-hegde2022-paper"),
                              ("LinUCB", None, "zcdp-contextual-bounded", "linucb-seed004-thm3-nonprivate")):
        curves, notes = overlay.bound_curves(algs.build(name, b), make_named_env(env), t, b)
        up = [c for c in curves if c.kind == "upper"]
        assert [c.bound_id for c in up] == [bid], (name, notes)
        ctx = registry.make_context(registry.get(bid).setting, {} if env != "mu2" else {"means": [0.75, 0.625, 0.5, 0.375, 0.25]}, b)
        if name != "LinUCB":
            np.testing.assert_allclose(up[0].values, registry.get(bid).evaluate(t, ctx).value, rtol=1e-12)
    _, notes = overlay.bound_curves(algs.build("KL-UCB"), make_named_env("mu2"), t, None)
    assert any("klucb_c >= 3" in n for n in notes)
    _, notes = overlay.bound_curves(algs.build("OFUL"), make_named_env("zcdp-contextual-bounded"), t, None)
    assert any("lam >= 1" in n for n in notes)
