"""Seed 002 (GLM bandits, local DP) bounds against the sheet's formulas written out independently here."""

from __future__ import annotations

import math

import numpy as np
import pytest

from boundcalc.bounds import glm
from boundcalc.bounds.base import Context, check_metadata
from boundcalc.errors import InputError
from boundcalc.privacy import LocalDP

BY_ID = {b.id: b for b in glm.BOUNDS}
BUD = LocalDP(1.0, 0.01)
TS = np.array([1e4, 1e6, 1e9])


def ctx(**over):
    p = dict(glm.DEFAULT_INSTANCE)
    p.pop("name")
    p.update(over)
    return Context(params=glm.derive(p), budget=BUD)


def sig(eps, dl):  # docs/formulas/ldp-glm-bandits.md §1.4: σ_{ε,δ} = 2√(2 ln(1.25/δ))/ε
    return 2 * math.sqrt(2 * math.log(1.25 / dl)) / eps


def rball(eps, d, R):  # docs/formulas/ldp-glm-bandits.md §1.3, first printed form (d Γ((d+1)/2)/Γ(d/2+1))
    return R * math.sqrt(math.pi) / 2 * (math.exp(eps) + 1) / (math.exp(eps) - 1) * d * math.gamma((d + 1) / 2) / math.gamma(d / 2 + 1)


P = dict(glm.DEFAULT_INSTANCE)


def test_metadata_and_ids():
    ids = [b.id for b in glm.BOUNDS]
    for t in ("002-thm3.1-ols", "002-thm3.1-sgd", "002-thm3.2", "002-thm3.3-ols", "002-thm3.3-sgd",
              "002-thm4.1-ols", "002-thm4.1-sgd"):
        assert t in ids
    for b in glm.BOUNDS:
        check_metadata(b)
        assert b.seed == "002" and b.setting == "glm" and b.notion == "ldp"
        assert b.caveats
        for c in b.caveats:
            assert any(c.startswith(w) for w in ("statement violated", "vacuous", "proof gap", "scaling not shown",
                                                 "typo", "DERIVED", "corrected")), c
    assert any("ERRATA 8" in c and "statement violated" in c for c in BY_ID["002-thm3.1-ols"].caveats)
    assert any("ERRATA 9" in c for c in BY_ID["002-thm3.1-ols"].caveats)
    assert any("κ_u log(KT/α)" in c for c in BY_ID["002-thm3.1-sgd"].caveats)
    assert BY_ID["002-thm3.1-sgd-explicit"].form == "explicit"
    assert any(c.startswith("DERIVED") for c in BY_ID["002-thm3.1-sgd-explicit"].caveats)


def test_radius_and_sigma_reference_values():
    # sheet §1.3: r_{1,2} = 3.399 and r_{5,10} = 3.918 at R = 1
    assert glm.r_ball(1.0, 2, 1.0) == pytest.approx(3.399, abs=1e-3)
    assert glm.r_ball(5.0, 10, 1.0) == pytest.approx(3.918, abs=1e-3)
    assert glm.r_ball(0.7, 7, 2.0) == pytest.approx(rball(0.7, 7, 2.0), rel=1e-12)
    assert glm.sigma_ldp(1.0, 0.01) == pytest.approx(sig(1.0, 0.01), rel=1e-14)


def test_thm31_ols_spot():
    c = ctx()
    b = BY_ID["002-thm3.1-ols"]
    assert not b.conditions(c)
    d, K, CB, sr, kl, ps, a = P["d"], P["K"], P["C_B"], P["sigma_r"], P["kappa_l"], P["p_star"], P["delta"]
    for T in TS:
        full = math.sqrt(T) * CB * (sig(1, 0.01) + sr) * d * math.sqrt((d + math.log(T / a)) * math.log(K * T / a)) / (kl * ps)
        val = b.evaluate(T, c)
        assert val.value[0] == pytest.approx(full, rel=1e-12)
        assert val.privacy_cost[0] / val.nonprivate[0] == pytest.approx(sig(1, 0.01) / sr, rel=1e-12)


def test_thm31_sgd_forms_spot():
    c = ctx()
    d, K, cr, CB, z, L, kl, ku, ps, a = (P[k] for k in ("d", "K", "c_r", "C_B", "zeta", "L", "kappa_l", "kappa_u",
                                                        "p_star", "delta"))
    r = rball(1.0, d, 2 * cr * CB)
    for T in TS:
        paper = math.sqrt(T) * r * math.sqrt(d) / (z * kl * ps) * math.log(math.log(T / a))
        c4 = 2 * cr + math.sqrt(624 * math.log(math.log(T) / a) + 1) * r * math.sqrt(d) / (2 * z * kl * ps) \
            * math.sqrt(ku * math.log(K * T / a)) * math.sqrt(T)
        expl = 6 * cr + L * 2 * r / (kl * z * ps) * math.sqrt(2 * ku * d * math.log(2 * K * T / a)
                                                             * (624 * math.log(math.log(T) / a) + 1)) * math.sqrt(T)
        assert BY_ID["002-thm3.1-sgd"].evaluate(T, c).value[0] == pytest.approx(paper, rel=1e-12)
        assert BY_ID["002-thm3.1-sgd-corrected"].evaluate(T, c).value[0] == pytest.approx(c4, rel=1e-12)
        assert BY_ID["002-thm3.1-sgd-explicit"].evaluate(T, c).value[0] == pytest.approx(expl, rel=1e-12)
    # the dropped factor makes the proved rate grow faster than the stated one
    ratio = BY_ID["002-thm3.1-sgd-corrected"].evaluate(TS, c).value / BY_ID["002-thm3.1-sgd"].evaluate(TS, c).value
    assert np.all(np.diff(ratio) > 0)


def test_privacy_cost_behaviour():
    c = ctx()
    for bid in ("002-thm3.1-ols", "002-thm3.1-sgd", "002-thm3.1-sgd-explicit"):
        b = BY_ID[bid]
        v1 = b.evaluate(TS, c, LocalDP(1.0, 0.01))
        v2 = b.evaluate(TS, c, LocalDP(0.1, 0.01))
        assert np.all(v1.privacy_cost > 0)
        assert np.all(np.diff(v1.privacy_cost) > 0)  # grows with T
        # √T / ε order: stronger privacy costs more, non-private part unchanged
        assert np.all(v2.privacy_cost > 5 * v1.privacy_cost)
        np.testing.assert_allclose(v2.nonprivate, v1.nonprivate, rtol=1e-14)
        assert np.all(v1.privacy_cost[1:] / v1.privacy_cost[:-1] < np.sqrt(TS[1:] / TS[:-1]) * 2)
    # margin bound, β = 1: grows like log T·polylog, much slower than √T
    v = BY_ID["002-thm3.3-ols"].evaluate(TS, c)
    assert v.privacy_cost[-1] / v.privacy_cost[0] < 10


def test_thm33_and_41_spot():
    c = ctx(beta=0.5)
    d, K, CB, sr, kl, ps, a, g, pp = (P[k] for k in ("d", "K", "C_B", "sigma_r", "kappa_l", "p_star", "delta",
                                                     "gamma", "p_prime"))
    T = 1e6
    S = T ** 0.25 / 0.5
    s = sig(1, 0.01)
    ols33 = g * CB * S * (CB * d * (CB * sr + s) * math.sqrt(d + math.log(T / a)) / (kl * ps)) ** 1.5
    assert BY_ID["002-thm3.3-ols"].evaluate(T, c).value[0] == pytest.approx(ols33, rel=1e-12)
    ols41 = g * CB * (K * CB * (CB * sr + s) * math.sqrt(d + math.log(T * K / a)) / (kl * pp)) ** 1.5 * S
    assert BY_ID["002-thm4.1-ols"].evaluate(T, c).value[0] == pytest.approx(ols41, rel=1e-12)
    s2 = sig(0.5, 0.005)
    ols41c = g * CB * (K * CB * (CB * sr + s2) * math.sqrt(d + math.log(T * K / a)) / (kl * pp)) ** 1.5 * S
    assert BY_ID["002-thm4.1-ols-corrected"].evaluate(T, c).value[0] == pytest.approx(ols41c, rel=1e-12)
    c1 = ctx()  # β = 1: S = log T
    r = rball(1.0, d, 2 * P["c_r"] * CB)
    sgd33 = g * P["L"] * CB * math.log(T) * (r * P["L"] * d * CB * math.sqrt(math.log(math.log(T) / a)) / (P["zeta"] * kl * ps)) ** 2
    assert BY_ID["002-thm3.3-sgd"].evaluate(T, c1).value[0] == pytest.approx(sgd33, rel=1e-12)
    r2 = rball(0.5, d, 2 * P["c_r"] * CB)
    sgd41c = g * P["L"] * CB * (K * r2 * P["L"] * CB * math.sqrt(math.log(T * K * math.log(T) / a)) / (P["zeta"] * kl * pp)) ** 2 * math.log(T)
    assert BY_ID["002-thm4.1-sgd-corrected"].evaluate(T, c1).value[0] == pytest.approx(sgd41c, rel=1e-12)


def test_thm32_lower_and_conditions():
    b = BY_ID["002-thm3.2"]
    assert b.conditions(ctx())  # K = 10, sphere contexts: not Thm 3.2's instance
    good = Context(params=glm.derive({**{k: v for k, v in P.items() if k != "name"}, "K": 2, "context": "gaussian"}),
                   budget=LocalDP(0.5, 0.0))
    assert b.conditions(good) == []
    assert b.evaluate(1e6, good, LocalDP(0.5, 0.0)).value[0] == pytest.approx(math.sqrt(1e6) / 0.5, rel=1e-14)
    assert b.conditions(Context(params=good.params, budget=LocalDP(2.0, 0.0)))  # ε > 1
    assert b.conditions(Context(params=good.params, budget=LocalDP(0.5, 0.01)))  # δ > 0


def test_conditions():
    ols = BY_ID["002-thm3.1-ols"]
    assert ols.conditions(Context(params=ctx().params, budget=LocalDP(1.0, 0.0)))  # Gaussian needs δ > 0
    # burn-in t_1 = 8 (d log 9 + log(T/α))/p_*² (Lemma C.3): T below it is flagged
    p = ctx().params
    t1 = 8 * (p["d"] * math.log(9) + math.log(100 / p["delta"])) / p["p_star"] ** 2
    assert t1 > 100
    assert ols.conditions(Context(params={**p, "T": 100}, budget=BUD))
    assert not ols.conditions(Context(params={**p, "T": 1e5}, budget=BUD))
    assert BY_ID["002-thm3.1-sgd-explicit"].conditions(Context(params={**p, "delta": 0.5}, budget=BUD))
    assert BY_ID["002-thm4.1-sgd"].conditions(Context(params={**p, "beta": 0.0}, budget=BUD))


@pytest.mark.parametrize("bad", [{"d": 0}, {"delta": 1.5}, {"beta": 1.5}, {"kappa_l": -1}, {"K": 1},
                                 {"context": "cube"}])
def test_derive_rejects(bad):
    p = {k: v for k, v in P.items() if k != "name"}
    p.update(bad)
    with pytest.raises(InputError):
        glm.derive(p)


def test_central_budgets_reach_the_ldp_upper_bounds_only():
    """An (ε, δ)-LDP algorithm is central (ε, δ)-DP, so a central budget makes the LDP *upper* bounds
    applicable (run at the same (ε, δ) locally); the OLS Gaussian mechanism still needs δ > 0, and the LDP
    *lower* bound never applies to a central guarantee."""
    from boundcalc.privacy import ApproxDP, PureDP, ZCDP

    p = ctx().params
    ols, sgd, low = BY_ID["002-thm3.1-ols"], BY_ID["002-thm3.1-sgd"], BY_ID["002-thm3.2"]
    approx = Context(params={**p, "T": 1e6}, budget=ApproxDP(1.0, 1e-6))
    assert ols.conditions(approx) == [] and sgd.conditions(approx) == []
    # the value equals the one at the local budget (1, 1e-6): σ_{1,1e-6} enters the OLS privacy cost
    v = ols.evaluate(1e6, approx)
    direct = ols.evaluate(1e6, approx, LocalDP(1.0, 1e-6))
    assert v.value[0] == pytest.approx(direct.value[0], rel=1e-14)
    assert v.privacy_cost[0] / v.nonprivate[0] == pytest.approx(sig(1.0, 1e-6) / p["sigma_r"], rel=1e-12)
    pure = Context(params={**p, "T": 1e6}, budget=PureDP(1.0))
    assert ols.conditions(pure) and sgd.conditions(pure) == []
    assert sgd.conditions(Context(params={**p, "T": 1e6}, budget=ZCDP(0.1))) == []
    assert low.conditions(Context(params={**p, "K": 2, "context": "gaussian"}, budget=PureDP(0.5)))
