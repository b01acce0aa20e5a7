"""Contextual algorithms: RS-OFUL/OFUL, AdaC-OFUL (seed 003 Alg. 3), AdaR-OFUL (seed 000 Alg. 4), LinUCB,
LinUCB-DGS (seed 004 Algs. 1-2), Private-LinUCB.

* The chunked simulation (batched scoring inside episodes, log-det switching found from cumulative outer
  products) has the same distribution as the step-by-step reference: two-sample KS and Welch tests on the
  final pseudo-regret at significance 1e-3 (continuous statistic, 250 runs per side).
* Privacy noise: the summed OFUL noise after l updates has variance l * 2/rho (AdaC) or l * 2 alpha/eps (AdaR)
  per coordinate; the DGS tree noise at time t has variance sum_i 2 b_i^2 over the set bits of t, with
  b_i = Delta_{e_i} log2(T)/eps (seed 004 Alg. 1, block-end scale), Delta from Lemma 1 written here.
* Mean regret below the registry's upper bounds (above the trivial bound at this reduced scale, so uninformative; one-sided sanity check).
"""

import math

import numpy as np
import pytest
from scipy import stats

from boundcalc.algorithms.contextual import (ALGORITHMS, OFUL, RSOFUL, AdaCOFUL, AdaROFUL, LinUCB, LinUCBDGS,
                                             PrivateLinUCB)
from boundcalc.envs.contextual import ContextualLinearEnv, make_contextual_env
from boundcalc.privacy.mechanisms import TreeNoise
from boundcalc.errors import InputError

ALPHA_TEST = 1e-3


@pytest.mark.parametrize("make, wrong", [(lambda: AdaCOFUL(rho=1.0, lam=1.0), lambda: AdaCOFUL(rho=0.25, lam=1.0)),
                                         (lambda: RSOFUL(lam=1.0, C=0.5), lambda: RSOFUL(lam=1.0, C=4.0))],
                         ids=["AdaC-OFUL", "RS-OFUL"])
def test_chunked_simulation_matches_reference(make, wrong):
    env = make_contextual_env("zcdp-contextual-bounded")
    T, n = 200, 250
    rng = np.random.default_rng(21)
    ref = np.array([make().reference(env, T, rng, np.array([T])).regret[0, -1] for _ in range(n)])
    sim = make().simulate(env, T, n, np.random.default_rng(22), np.array([T])).regret[:, -1]
    assert stats.ks_2samp(ref, sim).pvalue > ALPHA_TEST
    assert stats.ttest_ind(ref, sim, equal_var=False).pvalue > ALPHA_TEST
    # power: the same tests reject a simulation with 2x the noise std (rho / 4) or a coarser switching rule (C = 4)
    bad = wrong().simulate(env, T, n, np.random.default_rng(23), np.array([T])).regret[:, -1]
    assert min(stats.ks_2samp(ref, bad).pvalue, stats.ttest_ind(ref, bad, equal_var=False).pvalue) < ALPHA_TEST


def test_oful_updates_every_step_and_rs_rarely():
    env = make_contextual_env("rdp-contextual")
    T = 200
    res = OFUL(lam=1.0).simulate(env, T, 20, np.random.default_rng(0), np.array([T]))
    assert np.all(res.episodes == T - 1)  # det V_{t-1} > det V_{t-2} for every t >= 2
    res = RSOFUL(lam=1.0, C=1.0).simulate(env, T, 20, np.random.default_rng(0), np.array([T]))
    # l(T) <= d log(1 + T/(lambda d))/log(1 + C) (seed 003 Thm 14, Step 5)
    assert np.all(res.episodes <= env.d * math.log(1 + T / env.d) / math.log(2) + 1e-9)


@pytest.mark.parametrize("alg, var", [(AdaCOFUL(rho=0.5, lam=1.0), 2 / 0.5), (AdaROFUL(alpha=3.0, eps=0.5), 2 * 3 / 0.5)])
def test_oful_noise_scale(alg, var):
    env = make_contextual_env("rdp-contextual")
    res = alg.simulate(env, 60, 4000, np.random.default_rng(3), np.array([60]))
    z = res.extra["noise_sum"] / np.sqrt(res.episodes[:, None] * var)
    assert abs(z.var() - 1) < 0.05 and abs(z.mean()) < 0.03


def _sheet_delta(t, T, L, lam, lam0, delta):
    """Lemma 1 of seed 004 with the "paper" schedule of docs/formulas/dgs-contextual.md §0 (delta' = delta / log2 T)."""
    dp = delta / math.log2(T)
    if t > 32 * math.log(1 / dp) / lam0:
        return min(2 * L / lam, 32 * L / (lam0 * t))
    return 2 * L / lam


def test_dgs_tree_noise_scale():
    """Variance of the tree noise eta_t with LinUCB-DGS's node scales: sum over the set bits i of t of 2 b_i^2,
    b_i = Delta_{e_i} log2(T)/eps (seed 004 Alg. 1, block-end scale, paper mode), for both trees (the marginal law of
    eta_t does not depend on memoisation; the covariances do, and simulate's own noise is checked there:
    tests/audit/test_linucb_privacy.py)."""
    T, eps, d, runs = 4096, 2.0, 3, 2000
    alg = LinUCBDGS(eps=eps, delta=0.1, lambda0=0.5)
    for tree in ("memo", "fresh"):
        src = TreeNoise(T, (runs, d), lambda lv, e: alg.node_scales(lv, e, T, d), np.random.default_rng(4), tree=tree)
        eta, _ = src.next(1100)
        for t in (1, 6, 1023, 1100):
            bits = [i for i in range(13) if (t >> i) & 1]
            var = sum(2 * (_sheet_delta((t >> i) << i, T, 1.0, 1.0, 0.5, 0.1) * math.log2(T) / eps) ** 2 for i in bits)
            x = eta[t - 1].ravel()
            assert x.var() / var == pytest.approx(1.0, abs=5 * math.sqrt(5 / x.size))


def test_linucb_dgs_noise_changes_regret_and_nonprivate_has_none():
    env = make_contextual_env("rdp-contextual")
    base = LinUCB(alpha=1.0).simulate(env, 300, 50, np.random.default_rng(5), np.array([300])).regret
    again = LinUCB(alpha=1.0).simulate(env, 300, 50, np.random.default_rng(5), np.array([300])).regret
    assert np.array_equal(base, again)
    priv = LinUCBDGS(eps=0.5, alpha=1.0).simulate(env, 300, 50, np.random.default_rng(5), np.array([300])).regret
    assert priv.mean() > base.mean()
    nr = PrivateLinUCB(eps=0.5, alpha=1.0).simulate(env, 300, 50, np.random.default_rng(5), np.array([300])).regret
    assert nr.shape == (50, 1)


@pytest.mark.parametrize(
    "make, bound_id, budget",
    [(lambda: AdaCOFUL(rho=1.0, lam=1.0), "003-thm5-corrected", ("zcdp", 1.0)),
     (lambda: AdaROFUL(alpha=2.0, eps=1.0, lam=1.0), "000-thm10-corrected", ("rdp", 2.0, 1.0)),
     (lambda: LinUCBDGS(eps=2.0, delta=0.1), "004-thm3", ("approx", 2.0, 0.1))],
)
def test_regret_below_upper_bound(make, bound_id, budget):
    registry = pytest.importorskip("boundcalc.bounds.registry")
    from boundcalc.privacy.budgets import RDP, ZCDP, ApproxDP

    b = {"zcdp": lambda: ZCDP(budget[1]), "rdp": lambda: RDP(budget[1], budget[2]),
         "approx": lambda: ApproxDP(budget[1], budget[2])}[budget[0]]()
    env = make_contextual_env("zcdp-contextual-bounded")
    alg = make()
    assert bound_id in alg.bound_ids
    T, runs = 1000, 40
    res = alg.simulate(env, T, runs, np.random.default_rng(6), np.array([T]))
    ctx = registry.make_context("contextual", {"theta": env.theta, "lam": alg.lam, "lam0": env.lambda0}, budget=b)
    val = registry.get(bound_id).evaluate(np.array([float(T)]), ctx, b).value
    assert res.regret.mean() + 4 * res.regret.std() / math.sqrt(runs) <= val[0]


def test_registry_metadata():
    assert {"OFUL", "RS-OFUL", "AdaC-OFUL", "AdaR-OFUL", "LinUCB", "LinUCB-DGS"} <= set(ALGORITHMS)
    for cls in ALGORITHMS.values():
        assert cls.setting == "contextual" and cls.source


def test_env_bad_input_and_draws():
    with pytest.raises(InputError):
        ContextualLinearEnv([np.nan, 1.0], 3)
    with pytest.raises(InputError):
        ContextualLinearEnv([], 3)
    with pytest.raises(InputError):
        ContextualLinearEnv([1.0, 0.0], 0)
    with pytest.raises(InputError):
        ContextualLinearEnv([1.0, 0.0], 3, contexts="gaussian", mean=[1.0])
    with pytest.raises(InputError):
        ContextualLinearEnv([1.0, 0.0], 3, contexts="gaussian", noise="rademacher")
    with pytest.raises(InputError):
        ContextualLinearEnv([1.0, 0.0], 5, contexts="pool", pool=np.eye(2))
    with pytest.raises(InputError):
        make_contextual_env("nope")
    env = make_contextual_env("dgs-synthetic")
    X = env.contexts(np.random.default_rng(0), (500,))
    assert X.shape == (500, 10, 10)
    # distinct pool members in each decision set
    assert all(len({tuple(r) for r in x}) == 10 for x in X)
    with pytest.raises(InputError):
        AdaCOFUL(rho=-1)
    with pytest.raises(InputError):
        LinUCBDGS(schedule="x")
    with pytest.raises(InputError):
        RSOFUL().simulate(env, 10, 2, np.random.default_rng(0), np.array([11]))


def test_oful_widths_against_sheet():
    # docs/formulas/zcdp-bandits.md 4.2 / section 10, written here: beta_t, gamma_t/sqrt(t) with l = real number of noise vectors
    # (section 0) and the max(0, g) safeguard; beta_0 = sqrt(2 log(1/delta)) + sqrt(lambda) S before any update
    d, T, lam, lam0, delta, rho, S = 3, 10**6, 0.1, 0.1, 1e-3, 0.5, 2.0
    alg = AdaCOFUL(rho=rho, lam=lam, delta=delta, S=S)
    for t in (0, 1, 50, 10**4, 2 * 10**5):
        beta = math.sqrt(2 * math.log(1 / delta) + d * math.log(1 + t / (lam * d))) + math.sqrt(lam) * S
        assert float(alg.beta(t, d)) == pytest.approx(beta, rel=1e-12)
    assert float(alg.beta(0, d)) == pytest.approx(math.sqrt(2 * math.log(1 / delta)) + math.sqrt(lam) * S, rel=1e-12)
    for t, ell in ((10, 1), (10**4, 5), (2 * 10**5, 12)):
        Lg = math.log((t + 3) * d / delta)
        g = lam0 * t / 4 - 8 * Lg - 2 * math.sqrt(t * Lg)
        Lf = math.log(T / delta)
        f = d + 2 * math.sqrt(d * Lf) + 2 * Lf
        want = math.sqrt(2 * ell / rho * f / (lam + max(0.0, g)))
        assert float(alg.gamma_over_sqrt(t, ell, d, T, lam0)) == pytest.approx(want, rel=1e-12)
    assert float(RSOFUL(lam=lam).gamma_over_sqrt(100, 3, d, T, lam0)) == 0.0


def test_private_linucb_sensitivity_as_stated_and_strict():
    """seed 004 §3.1 states the constant sensitivity L for b_t (paper mode); the strict mode (docs/formulas/dgs-contextual.md §0)
    uses its L1 sensitivity 2 sqrt(d) L for rewards in [-1, 1]."""
    for L in (1.0, 2.5):
        paper = PrivateLinUCB(eps=1.0, L=L)
        strict = PrivateLinUCB(eps=1.0, L=L, sensitivity="strict")
        assert float(paper.node_sensitivity(10, 100, 4)) == L
        assert float(strict.node_sensitivity(10, 100, 4)) == pytest.approx(2 * 2 * L)
    with pytest.raises(InputError):
        PrivateLinUCB(sensitivity="loose")
