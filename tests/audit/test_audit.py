"""Empirical privacy audit (boundcalc.audit, ``boundcalc audit``; issue 10 §4).

* Clopper–Pearson bounds against scipy.stats.binomtest's exact interval and a 50-digit Binomial tail (mpmath).
* Coverage of the ε lower bound on randomized response with a known ε (a binomial test on the failure rate), and
  the same test rejecting a point estimate without confidence bounds (the mutant that shows the test has power).
* Each scenario realises the event probabilities its docstring states (closed forms, or an independent simulation
  of the tree noise), so the audit's design is checked independently of the audit's own arithmetic.
* The audit passes every correct algorithm and catches each applicable mutant.
* Every CLI option against a direct library call with the same value; bad input is one line, exit 2.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import stats

from boundcalc.audit import SCENARIOS, estimator, run_audit
from boundcalc.audit import mutants as mut
from boundcalc.audit.run import budget_for, prepare
from clirun import app, json_of, runner
from boundcalc.errors import InputError


# -- Clopper–Pearson ----------------------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 400), frac=st.floats(0, 1), gamma=st.sampled_from([0.005, 0.0125, 0.025, 0.1]))
def test_cp_matches_binomtest_exact_interval(n, frac, gamma):
    k = int(round(frac * n))
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=1 - 2 * gamma, method="exact")
    # binomtest finds the roots with brentq (about 1e-8 relative); the 50-digit test below checks the last digits
    assert estimator.cp_lower(k, n, gamma) == pytest.approx(ci.low, rel=1e-7, abs=1e-14)
    assert estimator.cp_upper(k, n, gamma) == pytest.approx(ci.high, rel=1e-7, abs=1e-14)


@pytest.mark.parametrize("k,n,gamma", [(1, 10, 0.025), (7, 20, 0.0125), (500, 1000, 0.0125), (3, 10000, 0.025),
                                       (9997, 10000, 0.01), (0, 50, 0.025), (50, 50, 0.025)])
def test_cp_is_the_binomial_tail_root_at_50_digits(k, n, gamma):
    """p_lo solves P(X >= k | p) = γ and q_hi solves P(X <= k | q) = γ (Binomial tails summed at 50 digits).

    Each tail is summed over its shorter side (the other one as 1 − the complement's sum): at 50 digits the
    subtraction costs at most log10(1/γ) ~ 2 digits, far below the 1e-7 compared, and (3, 10000) or (9997, 10000)
    then sum 4 terms instead of ~10^4 (15 s on a loaded machine). Mutant: the classic off-by-one Beta quantiles
    (Beta(k, n − k) for the lower bound, Beta(k, n − k + 1) for the upper one) miss the tail root by far more than
    1e-7: the same check rejects them."""
    import mpmath
    from scipy.stats import beta

    with mpmath.workdps(50):
        def pmf_sum(p, lo_i, hi_i):  # sum_{i = lo_i}^{hi_i} C(n, i) p^i (1 − p)^(n − i), term by term ratios
            p = mpmath.mpf(p)
            term = mpmath.binomial(n, lo_i) * p**lo_i * (1 - p) ** (n - lo_i)
            terms = [term]
            for i in range(lo_i, hi_i):
                term = term * (n - i) / (i + 1) * p / (1 - p)
                terms.append(term)
            return mpmath.fsum(terms)

        def upper_tail(p):  # P(X >= k)
            return pmf_sum(p, k, n) if n - k <= k else 1 - pmf_sum(p, 0, k - 1)

        def lower_tail(p):  # P(X <= k)
            return pmf_sum(p, 0, k) if k <= n - k else 1 - pmf_sum(p, k + 1, n)

        def lower_ok(lo):
            return float(upper_tail(lo)) == pytest.approx(gamma, rel=1e-7)

        def upper_ok(hi):
            return float(lower_tail(hi)) == pytest.approx(gamma, rel=1e-7)

        lo, hi = estimator.cp_lower(k, n, gamma), estimator.cp_upper(k, n, gamma)
        if k == 0:
            assert lo == 0.0
        else:
            assert lower_ok(lo)
            if k < n:  # mutant lower bound: Beta(k, n − k)
                assert not lower_ok(float(beta.ppf(gamma, k, n - k)))
        if k == n:
            assert hi == 1.0
        else:
            assert upper_ok(hi)
            if k > 0:  # mutant upper bound: Beta(k, n − k + 1)
                assert not upper_ok(float(beta.isf(gamma, k, n - k + 1)))


def test_cp_bad_counts():
    for k, n in ((-1, 10), (11, 10), (0, 0)):
        with pytest.raises(InputError):
            estimator.cp_lower(k, n, 0.025)


# -- coverage on randomized response -------------------------------------------------------------------------------
def _rr_audits(eps, n, reps, rng, point_estimate=False):
    """ε lower bounds of ``reps`` independent audits of randomized response (P_D(E)/P_D'(E) = e^ε exactly)."""
    p = math.exp(eps) / (1 + math.exp(eps))
    kD = rng.binomial(n, p, reps)
    kDp = rng.binomial(n, 1 - p, reps)
    out = np.empty(reps)
    for i in range(reps):
        if point_estimate:  # the mutant: frequencies instead of confidence bounds
            out[i] = math.log(max(kD[i], 1) / max(kDp[i], 1))
        else:
            out[i] = estimator.declared([("rr", "D>D'", int(kD[i]), int(kDp[i]))], n, n, 0.0, 0.05).epsilon_lower
    return out


@pytest.mark.parametrize("eps", [0.5, 1.0, 2.0])
def test_lower_bound_covers_the_true_epsilon(eps):
    """P(ε_lower > ε) <= 5% for an exactly ε-DP mechanism: one-sided binomial test on 1500 audits."""
    lows = _rr_audits(eps, 400, 1500, np.random.default_rng(int(eps * 10)))
    fails = int(np.sum(lows > eps))
    assert stats.binomtest(fails, lows.size, 0.05, alternative="greater").pvalue > 1e-3, fails
    assert np.all(lows >= 0)


def test_coverage_test_rejects_a_point_estimate():
    """The mutant: the plug-in ln(k_D/k_D') exceeds ε about half the time; the same binomial test rejects it."""
    lows = _rr_audits(1.0, 400, 1500, np.random.default_rng(5), point_estimate=True)
    fails = int(np.sum(lows > 1.0))
    assert stats.binomtest(fails, lows.size, 0.05, alternative="greater").pvalue < 1e-6


def test_declared_events_bonferroni_and_delta():
    """m declared events use γ = α/(2m) each; δ is subtracted from the lower bound on P_D(E)."""
    est = estimator.declared([("a", "D>D'", 600, 200), ("b", "D'>D", 100, 300)], 1000, 1000, 0.0, 0.05)
    assert all(e.gamma == pytest.approx(0.0125) for e in est.events)
    a, b = est.events
    assert a.epsilon_lower == pytest.approx(math.log(estimator.cp_lower(600, 1000, 0.0125)
                                                     / estimator.cp_upper(200, 1000, 0.0125)))
    assert b.epsilon_lower == pytest.approx(math.log(estimator.cp_lower(300, 1000, 0.0125)
                                                     / estimator.cp_upper(100, 1000, 0.0125)))
    est_d = estimator.declared([("a", "D>D'", 600, 200)], 1000, 1000, 0.1, 0.05)
    p_lo, q_hi = estimator.cp_lower(600, 1000, 0.025), estimator.cp_upper(200, 1000, 0.025)
    assert est_d.epsilon_lower == pytest.approx(math.log((p_lo - 0.1) / q_hi))
    assert estimator.epsilon_from_bounds(0.05, 0.01, 0.1) == 0.0


def test_held_out_selection_covers():
    """The held-out selection (events chosen on 30% of the runs, evaluated on the rest) keeps the 5% level."""
    rng = np.random.default_rng(11)
    eps, n, fails, reps = 1.0, 400, 0, 300
    p = math.exp(eps) / (1 + math.exp(eps))
    for _ in range(reps):  # a three-valued output: RR bit and an independent fair coin
        oD = np.stack([rng.random(n) < p, rng.random(n) < 0.5], axis=1).astype(int)
        oDp = np.stack([rng.random(n) < 1 - p, rng.random(n) < 0.5], axis=1).astype(int)
        fails += estimator.held_out(oD, oDp, 0.0, 0.05).epsilon_lower > eps
    assert stats.binomtest(int(fails), reps, 0.05, alternative="greater").pvalue > 1e-3


# -- the scenarios realise what they state --------------------------------------------------------------------------
def _freqs(name, mutant="none", trials=20000, seed=3, budget=None):
    sc = SCENARIOS[name]
    p = prepare(name, budget=budget, trials=trials, mutant=mutant, seed=seed)
    pr = p["probes"][0]
    rng = np.random.default_rng(seed)
    kD = int(sc.event(p["alg"], pr, pr.D, trials, rng).sum())
    kDp = int(sc.event(p["alg"], pr, pr.Dp, trials, rng).sum())
    return kD, kDp, trials


def _lap_diff_sf(x):
    """P(L0 − L1 > x) for independent standard Laplace L0, L1 (density (1 + |x|) e^{−|x|}/4)."""
    return np.exp(-x) * (2 + x) / 4 if x >= 0 else 1 - np.exp(x) * (2 - x) / 4


def _close(k, n, p):
    assert stats.binomtest(k, n, p).pvalue > 1e-4, (k, n, p)


@pytest.mark.parametrize("mutant,mult", [("none", 1.0), ("noise-halved", 0.5)])
@pytest.mark.parametrize("name", ["AdaP-UCB", "DP-IMED", "DP-KLUCB"])
def test_first_decision_probabilities(name, mutant, mult):
    """Under D the first decision is a fair coin; under D' arm 0 wins with P(L0 − L1 > 1/b) for Laplace noise of
    scale b = mult/ε in units of one reward (AdaP-UCB, DP-IMED; DP-KLUCB with n1 = 8: the index is increasing in
    the mean and not saturated)."""
    kD, kDp, n = _freqs(name, mutant)
    _close(kD, n, 0.5)
    if name == "DP-IMED":  # clipped to [0, 1]: compare with an independent simulation of the clipped argmax
        rng = np.random.default_rng(0)
        m = 400000
        x0 = np.clip(0.0 + rng.laplace(0, mult, m), 0, 1)
        x1 = np.clip(1.0 + rng.laplace(0, mult, m), 0, 1)
        p = np.mean(x0 > x1) + 0.5 * np.mean(x0 == x1)
    else:
        p = _lap_diff_sf(1.0 / mult)
    _close(kDp, n, p)


@pytest.mark.parametrize("mutant,mult", [("none", 1.0), ("noise-halved", 0.5)])
def test_adac_first_decision_probabilities(mutant, mult):
    """AdaC-UCB (ρ = 1, init_n = 'one'): under D' arm 0 wins with P(N(0, 2σ²) > 1), σ = mult/sqrt(2ρ)."""
    kD, kDp, n = _freqs("AdaC-UCB", mutant)
    _close(kD, n, 0.5)
    _close(kDp, n, stats.norm.sf(1.0 / (math.sqrt(2) * mult / math.sqrt(2.0))))


@pytest.mark.parametrize("mutant,mult", [("none", 1.0), ("noise-halved", 0.5)])
def test_dpse_elimination_probabilities(mutant, mult):
    """DP-SE: elimination iff (mu~_0 − mu~_1) > threshold, the two Laplace noises of scale mult/(ε R_1): D sits
    0.01/R_1 above the threshold, D' 0.99/R_1 below."""
    kD, kDp, n = _freqs("DP-SE", mutant)
    _close(kD, n, _lap_diff_sf(-0.01 / mult))
    _close(kDp, n, _lap_diff_sf(0.99 / mult))


@pytest.mark.parametrize("mutant,mult", [("none", 1.0), ("noise-halved", 0.5)])
@pytest.mark.parametrize("name", ["AdaC-GOPE", "AdaR-GOPE"])
def test_gope_elimination_probabilities(name, mutant, mult):
    """Phase 1 with n pulls of e_1 and of e_2: e_2 is eliminated iff theta~_1 − theta~_2 > 1, each coordinate with
    Gaussian noise of standard deviation s: AdaC-GOPE (seed 003 Alg. 2 line 12) s² = 2d/(rho c_1)/n with
    c_1 = (8d/beta²) ln(4/delta_K) + (2d/beta) sqrt((2/rho) f(d, delta_K)), beta = 1/2, delta_K = delta/(K·1·2);
    AdaR-GOPE (seed 000 Alg. 3) s² = (2 alpha/eps)/n² (noise on each reward sum). D sits 0.02/n above, D' 1.98/n below."""
    kD, kDp, N = _freqs(name, mutant)
    n = prepare(name, trials=200)["probes"][0].details["n"]
    d, K, delta = 2, 2, 1e-3
    if name == "AdaC-GOPE":
        rho, dk = 1.0, delta / (K * 2)
        L = math.log(2 / dk)
        f = d + 2 * math.sqrt(d * L) + 2 * L
        c1 = 8 * d * 4 * math.log(4 / dk) + 2 * d * 2 * math.sqrt(2 / rho * f)
        assert n == math.ceil(c1 / 2)
        s2 = 2 * d / (rho * c1) / n
    else:
        s2 = (2 * 2.0 / 2.0) / n**2
    sd = mult * math.sqrt(2 * s2)
    _close(kD, N, stats.norm.sf(-0.02 / n / sd))
    _close(kDp, N, stats.norm.sf(1.98 / n / sd))


@pytest.mark.parametrize("mutant,mult", [("none", 1.0), ("noise-halved", 0.5)])
@pytest.mark.parametrize("name,s2", [("AdaC-OFUL", 2.0 / 1.0), ("AdaR-OFUL", 2 * 2.0 / 2.0)])
def test_oful_first_switch_probabilities(name, s2, mutant, mult):
    """First switch: x_0 iff b + Y_1 > 1 with Y_1 ~ N(0, s2), s2 = 2/rho (seed 003 Alg. 3) or 2 alpha/eps (seed 000
    Alg. 4): a fair coin under D (b = 1), P(Y_1 > 2) under D' (b = −1)."""
    kD, kDp, n = _freqs(name, mutant)
    _close(kD, n, 0.5)
    _close(kDp, n, stats.norm.sf(2.0 / (mult * math.sqrt(s2))))


@pytest.mark.parametrize("mutant", ["none", "noise-halved"])
def test_adap_klucb_scenario_against_the_reference(mutant):
    """AdaP-KLUCB (ties = 'lowest'): the event frequencies of the episode-level simulation agree with the plain
    step-by-step reference run on the same tables (a separate code path, one table environment per run), and with
    the closed form of the audited release, 1 − e^{−0.01 ε/m}/2 under D and e^{−0.99 ε/m}/2 under D' (m = noise_mult),
    up to the ~3% of runs whose early saturated releases fall below 1 (checked: within 0.04)."""
    from boundcalc.envs.table import FiniteTableEnv

    kD, kDp, n = _freqs("AdaP-KLUCB", mutant)
    p = prepare("AdaP-KLUCB", trials=200, mutant=mutant)
    pr, alg = p["probes"][0], p["alg"]
    rng = np.random.default_rng(12)
    ref = []
    for table in (pr.D, pr.Dp):
        hits = 0
        for _ in range(1500):
            env = FiniteTableEnv(table)
            alg.reference(env, pr.T, rng, np.array([pr.T]))
            hits += env.actions()[0, pr.T - 1] == 0
        ref.append(int(hits))
    for k, r in zip((kD, kDp), ref):  # two-sample test (Fisher's exact)
        assert stats.fisher_exact([[k, n - k], [r, 1500 - r]]).pvalue > 1e-4, (k, r)
    m = 1.0 if mutant == "none" else 0.5
    assert abs(kD / n - (1 - 0.5 * math.exp(-0.01 / m))) < 0.04
    assert abs(kDp / n - 0.5 * math.exp(-0.99 / m)) < 0.04


def _tree_signs(b, T, runs, rng, fresh=False, dgs_lam=None):
    """Independent simulation of the d = 1 sign scenario: P(all of steps 2..T play x = +1) under r_1 = +1 and −1.
    Memo tree over prefixes 1..T−1 (nodes drawn once) or fresh nodes per prefix. Private-LinUCB: sign(r_1 + eta_t);
    LinUCB-DGS: sign(r_1/(lam + t) + eta_t) (A_{t+1} = lam + t after t pulls of x = ±1)."""
    out = []
    for r1 in (1.0, -1.0):
        ok = np.ones(runs, dtype=bool)
        memo = {}
        for t in range(1, T):
            eta = np.zeros(runs)
            for i in range(t.bit_length()):
                if (t >> i) & 1:
                    e = (t >> i) << i
                    if fresh or (i, e) not in memo:
                        memo[(i, e)] = rng.laplace(0.0, b(i, e), runs)
                    eta += memo[(i, e)]
            signal = r1 if dgs_lam is None else r1 / (dgs_lam + t)
            ok &= signal + eta > 0
        out.append(ok.mean())
    return out


def test_private_linucb_scenario_against_an_independent_tree():
    """Private-LinUCB (paper calibration, ε = 1, T = 8): node scale L log2 T/ε = 3; the event frequencies agree with
    an independent simulation of the memoised tree (and not with a fresh one: the check has power)."""
    kD, kDp, n = _freqs("Private-LinUCB", trials=100000)
    pD, pDp = _tree_signs(lambda i, e: 3.0, 8, 400000, np.random.default_rng(1))
    _close(kD, n, pD)
    _close(kDp, n, pDp)
    fD, _ = _tree_signs(lambda i, e: 3.0, 8, 400000, np.random.default_rng(1), fresh=True)
    assert stats.binomtest(kD, n, fD).pvalue < 1e-6


@pytest.mark.parametrize("mutant,fresh", [("none", False), ("fresh-tree", True)])
def test_linucb_dgs_scenario_against_an_independent_tree(mutant, fresh):
    """LinUCB-DGS (ε = 1, δ = 1e-3, λ = 64, T = 8): node scale Δ log2 T/ε with Δ = 2L/λ (the paper's schedule before
    its switch), signal r_1/(λ + t)."""
    kD, kDp, n = _freqs("LinUCB-DGS", mutant, trials=100000)
    scale = 2.0 / 64.0 * 3.0
    pD, pDp = _tree_signs(lambda i, e: scale, 8, 400000, np.random.default_rng(2), fresh=fresh, dgs_lam=64.0)
    _close(kD, n, pD)
    _close(kDp, n, pDp)


# -- the audit passes the correct algorithms and catches the mutants ----------------------------------------------
CASES = [(name, m) for name, sc in SCENARIOS.items() for m in mut.applicable(sc)]


@pytest.mark.parametrize("name,mutant", CASES)
def test_audit_verdicts(name, mutant):
    # Lazy-DP-TS's default 5e4 runs of T = 150 take ~7 s; its noise-free copy is caught far beyond 1 with 1e4
    trials = 10000 if (name, mutant) == ("Lazy-DP-TS", "no-noise") else None
    r = run_audit(name, mutant=mutant, seed=7, trials=trials)
    assert r.trials == (trials or SCENARIOS[name].default_trials)
    if mutant == "none":
        assert r.passed and r.epsilon_lower <= r.epsilon_claimed, r.as_dict()
    else:
        assert not r.passed and r.epsilon_lower > r.epsilon_claimed, r.as_dict()


@pytest.mark.parametrize("name", ["DP-SE", "AdaP-UCB", "AdaP-KLUCB", "AdaC-UCB", "LinUCB-DGS"])
def test_verdicts_over_seeds(name):
    """Over 10 seeds the correct algorithm passes at least 9 times (its failure rate is <= 5% by construction) and
    the noise-halved copy is caught at least 9 times (the power the defaults were chosen for)."""
    sc = SCENARIOS[name]
    trials = None if name != "LinUCB-DGS" else 50000
    ok = sum(run_audit(name, seed=s, trials=trials).passed for s in range(10))
    caught = sum(not run_audit(name, mutant="noise-halved", seed=s, trials=trials).passed for s in range(10))
    assert ok >= 9 and caught >= 9, (ok, caught, sc.default_trials)


def test_private_linucb_true_guarantee_is_what_is_audited():
    r = run_audit("Private-LinUCB", seed=0, trials=1000)
    from boundcalc.algorithms.contextual import PrivateLinUCB

    assert r.epsilon_claimed == pytest.approx(PrivateLinUCB(eps=1.0).privacy_epsilon(8, 1))
    assert "truly guarantees" in r.claim
    r2 = run_audit("Private-LinUCB", seed=0, trials=1000, mutant="l2-laplace")
    assert r2.epsilon_claimed == 1.0 and "does not satisfy" in r2.claim


def test_claimed_epsilon_uses_the_conversions():
    from boundcalc.privacy import conversions as cv

    r = run_audit("AdaC-UCB", trials=200, seed=0)
    assert r.delta == 0.2 and r.epsilon_claimed == pytest.approx(cv.zcdp_to_approx_tight(1.0, 0.2))
    b, d = budget_for("AdaR-UCB", alpha=3.0, rdp_epsilon=1.5, delta=0.05)
    r = run_audit("AdaR-UCB", budget=b, delta=d, trials=200, seed=0)
    assert r.epsilon_claimed == pytest.approx(cv.rdp_to_approx_tight(3.0, 1.5, 0.05))
    b, d = budget_for("DP-SE", epsilon=2.0, delta=0.01)
    r = run_audit("DP-SE", budget=b, delta=d, trials=200, seed=0)
    assert r.epsilon_claimed == pytest.approx(cv.pure_to_approx_tight_epsilon(2.0, 0.01))


def test_same_seed_same_numbers_and_blocks():
    a = run_audit("AdaP-UCB", trials=45000, seed=4)
    b = run_audit("AdaP-UCB", trials=45000, seed=4)
    assert a.events == b.events
    c = run_audit("AdaP-UCB", trials=45000, seed=5)
    assert c.events != a.events


def test_noise_mult_scales_the_draws_exactly():
    """noise_mult m multiplies every privacy-noise draw by m (same stream), and is validated."""
    from boundcalc.algorithms.finite import DPSE, AdaCUCB, AdaPUCB, DPIMED, LazyDPTS

    for make in (lambda m: DPSE(1.0, noise_mult=m).sum_noise(np.random.default_rng(0), 5),
                 lambda m: LazyDPTS(1.0, noise_mult=m).sum_noise(np.random.default_rng(0), 5),
                 lambda m: AdaPUCB(1.0, noise_mult=m).noise(np.ones(5), np.random.default_rng(0), 5),
                 lambda m: AdaCUCB(1.0, noise_mult=m).noise(np.ones(5), np.random.default_rng(0), 5)):
        assert np.allclose(make(0.5), 0.5 * make(1.0)) and np.all(make(0.0) == 0)
    for bad in (-1.0, float("nan"), float("inf")):
        with pytest.raises(InputError):
            DPIMED(1.0, noise_mult=bad)
    assert DPSE(1.0).params().get("noise_mult") is None and DPSE(1.0, noise_mult=0.5).params()["noise_mult"] == 0.5


def test_dp_batched_noise_mult_in_the_simulation():
    """DP-IMED's initial noises (the first 2 x runs draws, before any data-dependent decision) are exactly halved
    with noise_mult = 0.5 (same seed)."""
    from boundcalc.algorithms.finite import DPIMED
    from boundcalc.envs.table import FiniteTableEnv

    def noise(m):
        env = FiniteTableEnv(np.tile([0.3, 0.6], (50, 1)))
        r = DPIMED(1.0, record_noise=True, noise_mult=m).simulate(env, 50, 7, np.random.default_rng(3), np.array([50]))
        return r.extra["noise_draws"]

    assert np.allclose(noise(0.5)[:14], 0.5 * noise(1.0)[:14])
    assert not np.allclose(noise(0.5)[:14], noise(1.0)[:14])


# -- table environments ------------------------------------------------------------------------------------------
def test_finite_table_env_sums_and_actions():
    from boundcalc.envs.table import FiniteTableEnv

    X = np.arange(20, dtype=float).reshape(10, 2) / 20
    env = FiniteTableEnv(X)
    s1 = env.sum_rewards(np.array([0, 1]), np.array([3, 2]))
    s2 = env.sum_rewards(np.array([1, 1]), np.array([2, 4]))
    assert np.allclose(s1, [X[0:3, 0].sum(), X[0:2, 1].sum()])
    assert np.allclose(s2, [X[3:5, 1].sum(), X[2:6, 1].sum()])
    acts = env.actions()
    assert acts.tolist() == [[0, 0, 0, 1, 1, -1, -1, -1, -1, -1], [1, 1, 1, 1, 1, 1, -1, -1, -1, -1]]
    ref = FiniteTableEnv(X)
    assert [ref.draw(a) for a in (1, 0, 1)] == [X[0, 1], X[1, 0], X[2, 1]]
    with pytest.raises(InputError):
        FiniteTableEnv(np.array([[0.1], [0.2]]))
    with pytest.raises(InputError):
        env.sum_rewards(np.array([0, 0]), np.array([10, 10]))


def test_finite_table_env_actions_against_a_per_run_replay(monkeypatch):
    """actions() (filled call by call, one offset at a time) equals a plain replay of every run's calls, step by step,
    for random episode lengths (0 included) and runs that stop early; mutant: the offset loop one step short (the
    last step of every episode left at −1) is rejected by the same comparison."""
    from boundcalc.envs import table as tb

    rng = np.random.default_rng(4)
    T, runs, K = 80, 60, 3  # 12 calls of at most 5 steps: every run reaches the last two calls
    env = tb.FiniteTableEnv(rng.random((T, K)))
    clock, calls = np.zeros(runs, dtype=np.int64), []
    for i in range(14):  # the last two calls: every run the same length (1, then 2)
        n = np.minimum(rng.integers(0, 6, runs) if i < 12 else np.full(runs, i - 11), T - clock)
        arm = rng.integers(0, K, runs)
        env.sum_rewards(arm, n)
        calls.append((arm, n))
        clock += n

    def replay():
        out = np.full((runs, T), -1, dtype=np.int64)
        for r in range(runs):
            t = 0
            for arm, n in calls:
                for _ in range(int(n[r])):
                    out[r, t] = arm[r]
                    t += 1
        return out

    want = replay()
    assert np.array_equal(env.actions(), want) and np.any(want == -1) and np.any(want >= 0)

    def short(self):  # mutant: range(max n − 1)
        out = np.full((self._clock.shape[0], self.horizon), -1, dtype=np.int64)
        rows = np.arange(self._clock.shape[0])
        for t0, arm, n in self._calls:
            for j in range(int(n.max(initial=0)) - 1):
                sel = n > j
                out[rows[sel], t0[sel] + j] = arm[sel]
        return out

    monkeypatch.setattr(tb.FiniteTableEnv, "actions", short)
    assert not np.array_equal(env.actions(), want)


def test_argbest_lowest_is_the_first_best_per_row(monkeypatch):
    """argbest(ties='lowest') (the audits' tie rule; a direct numpy argmax) against a plain per-row scan: the first
    index of the row's maximum (minimum with minimize), the first NaN of a row that has one, on every row of 3 arms
    over {−inf, −1, −0, 0, 0.5, 1, inf, nan}. Mutant: the last best index (a reversed scan) is rejected."""
    import itertools

    from boundcalc.algorithms.finite import _common

    vals = [-np.inf, -1.0, -0.0, 0.0, 0.5, 1.0, np.inf, np.nan]
    S = np.array(list(itertools.product(vals, repeat=3)))

    def scan(row, minimize):
        best = None
        for i, v in enumerate(row):
            if math.isnan(v):
                return i
            if best is None or (v < row[best] if minimize else v > row[best]):
                best = i
        return best

    def check():
        return all(np.array_equal(_common.argbest(S, None, "lowest", minimize=m), [scan(r, m) for r in S])
                   for m in (False, True))

    assert check()
    real = _common.argbest
    monkeypatch.setattr(_common, "argbest", lambda s, rng, ties="random", minimize=False:
                        s.shape[1] - 1 - real(np.asarray(s)[:, ::-1], rng, ties, minimize))
    assert not check()


def test_linear_table_env_lockstep_sums():
    from boundcalc.envs.table import LinearTableEnv

    X = np.arange(12, dtype=float).reshape(6, 2)
    env = LinearTableEnv(np.eye(2), X)
    s = env.sum_rewards(np.array([[0, 1], [0, 1]]), np.array([[2, 3], [2, 3]]))
    assert s.tolist() == [[X[0:2, 0].sum(), X[2:5, 1].sum()]] * 2
    with pytest.raises(InputError):  # another set of runs: the shared clock cannot follow it
        env.sum_rewards(np.array([[0]]), np.array([[1]]))
    env2 = LinearTableEnv(np.eye(2), X)
    with pytest.raises(InputError):  # runs not in lockstep
        env2.sum_rewards(np.array([[0, 1], [1, 0]]), np.array([[1, 1], [1, 1]]))


# -- CLI ----------------------------------------------------------------------------------------------------------
def _cli(args):
    return json_of("audit", *args)


@pytest.mark.parametrize("args,call", [
    (["--algo", "dp-se", "--trials", "300"], dict(algo="DP-SE", trials=300)),
    (["--algo", "dp-se", "--epsilon", "2", "--trials", "300"], dict(algo="DP-SE", trials=300, epsilon=2.0)),
    (["--algo", "dp-se", "--delta", "0.01", "--trials", "300"], dict(algo="DP-SE", trials=300, delta=0.01)),
    (["--algo", "adap-ucb", "--trials", "3e2", "--seed", "9"], dict(algo="AdaP-UCB", trials=300, seed=9)),
    (["--algo", "adap-ucb", "--trials", "300", "--mutant", "noise-halved"],
     dict(algo="AdaP-UCB", trials=300, mutant="noise-halved")),
    (["--algo", "adap-ucb", "--trials", "300", "--level", "0.8"], dict(algo="AdaP-UCB", trials=300, confidence=0.8)),
    (["--algo", "adac-ucb", "--rho", "2", "--trials", "300"], dict(algo="AdaC-UCB", trials=300, rho=2.0)),
    (["--algo", "adar-ucb", "--alpha", "3", "--rdp-epsilon", "1", "--trials", "300"],
     dict(algo="AdaR-UCB", trials=300, alpha=3.0, rdp_epsilon=1.0)),
    (["--algo", "linucb-dgs", "--epsilon", "2", "--delta", "0.01", "--trials", "300"],
     dict(algo="LinUCB-DGS", trials=300, epsilon=2.0, delta=0.01)),
])
def test_cli_options_match_the_library(args, call):
    out = _cli(args)
    algo = call.pop("algo")
    b, d = budget_for(algo, **{k: call.pop(k) for k in ("epsilon", "rho", "alpha", "rdp_epsilon", "delta") if k in call})
    r = run_audit(algo, budget=b, delta=d, **call)
    for key in ("epsilon_lower", "epsilon_claimed", "delta", "passed", "confidence", "trials", "mutant", "events"):
        assert out[key] == pytest.approx(r.as_dict()[key]) if isinstance(out[key], float) else out[key] == r.as_dict()[key], key
    assert out["value"] == out["epsilon_lower"]


def test_cli_options_change_the_result():
    """Each option reaches the audit: changing it changes the JSON (an option dropped on its way fails here)."""
    base = ["--algo", "adap-ucb", "--trials", "300"]
    ref = _cli(base)
    for extra, key in ((["--seed", "1"], "events"), (["--epsilon", "2"], "epsilon_claimed"),
                       (["--level", "0.8"], "epsilon_lower"), (["--mutant", "no-noise"], "events"),
                       (["--delta", "0.1"], "epsilon_claimed")):
        assert _cli(base + extra)[key] != ref[key], extra
    assert _cli(["--algo", "adap-ucb", "--trials", "400"])["trials"] == 400


def test_cli_table_and_list():
    res = runner.invoke(app, ["audit", "--algo", "dp-se", "--trials", "300"])
    assert res.exit_code == 0 and "ε lower bound" in res.stdout and "can only give a lower bound" in res.stdout
    res = runner.invoke(app, ["audit", "--algo", "dp-se", "--trials", "300", "--mutant", "no-noise"])
    assert "VIOLATION" in res.stdout and "mutant: no-noise" in res.stdout
    out = _cli(["--list"])
    assert {a["algorithm"] for a in out["algorithms"]} == set(SCENARIOS)
    assert next(a for a in out["algorithms"] if a["algorithm"] == "LinUCB-DGS")["mutants"] == [
        "none", "noise-halved", "fresh-tree"]
    res = runner.invoke(app, ["audit", "--list"])
    assert res.exit_code == 0 and "Private-LinUCB" in res.stdout


@pytest.mark.parametrize("args,param", [
    ([], "--algo"), (["--algo", "UCB"], "--algo"), (["--algo", "nope"], "--algo"),
    (["--algo", "Lazy-DP-TS", "--mutant", "fresh-tree"], "--mutant"),
    (["--algo", "dp-se", "--mutant", "fresh-tree"], "--mutant"), (["--algo", "dp-se", "--mutant", "x"], "--mutant"),
    (["--algo", "dp-se", "--trials", "10"], "--trials"), (["--algo", "dp-se", "--trials", "1e19"], "--trials"),
    (["--algo", "dp-se", "--epsilon", "-1"], "epsilon"), (["--algo", "dp-se", "--epsilon", "nan"], "epsilon"),
    (["--algo", "dp-se", "--epsilon", "1e-320"], "epsilon"), (["--algo", "dp-se", "--epsilon", "1e308"], "--epsilon"),
    (["--algo", "dp-se", "--rho", "1"], "budget"), (["--algo", "adac-ucb", "--epsilon", "1"], "budget"),
    (["--algo", "adac-ucb", "--delta", "0"], "--delta"), (["--algo", "dp-se", "--delta", "1"], "--delta"),
    (["--algo", "dp-se", "--delta", "-0.1"], "--delta"), (["--algo", "adar-ucb", "--alpha", "2"], "--alpha"),
    (["--algo", "dp-se", "--seed", "-1"], "--seed"), (["--algo", "dp-se", "--level", "1"], "--level"),
    (["--algo", "dp-se", "--level", "0.3"], "--level"),
])
def test_cli_bad_input(args, param):
    from boundcalc.cli.app import main
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        with pytest.raises(SystemExit) as ex:
            main(["audit", *args])
    lines = [ln for ln in err.getvalue().splitlines() if ln.strip()]
    assert ex.value.code == 2 and len(lines) == 1 and param in lines[0], err.getvalue()


@pytest.mark.parametrize("noise_mult,identical", [(0.0, True), (1.0, False)])
def test_lazy_dp_ts_clipped_epoch_erases_the_row(noise_mult, identical):
    """docs/audit.md "What is not audited": a user row consumed by a clipped epoch (here arm 0's initial pull, row 0
    with ties = 'lowest') has no effect at all on the noise-free Lazy-DP-TS: with one shared random stream the action
    sequences on D and D' agree run by run. With the noise (the correct algorithm) the row matters through the
    Laplace tails, so some runs differ (the check can fail)."""
    from boundcalc.algorithms.finite import LazyDPTS
    from boundcalc.envs.table import FiniteTableEnv

    T, runs = 60, 2000
    D = np.tile([1.0, 0.0], (T, 1))
    Dp = D.copy()
    Dp[0] = (0.0, 1.0)
    acts = []
    for table in (D, Dp):
        env = FiniteTableEnv(table)
        LazyDPTS(1.0, ties="lowest", noise_mult=noise_mult).simulate(env, T, runs, np.random.default_rng(8),
                                                                     np.array([T]))
        acts.append(env.actions()[:, :T])
    assert np.all(acts[0][:, 0] == 0)  # row 0 is arm 0's initial pull
    assert bool(np.array_equal(acts[0], acts[1])) == identical


@pytest.mark.parametrize("mutant", ["none", "no-noise"])
def test_lazy_dp_ts_scenario_against_the_reference(mutant):
    """The Lazy-DP-TS observation (the arm pulled at the changed row's step, the number of arm-0 pulls after it) has
    the same distribution in the vectorised simulation the audit runs and in the plain step-by-step reference (an
    independent implementation), on D and D' (two-sample KS test on the count, binomial test on the arm). Without
    noise the top counts are far more frequent on D than on D' (docs/audit.md: the tail of a sum of many Thompson
    decisions amplifies the one-reward shift of arm 0's exact released mean), which the held-out selection finds."""
    from boundcalc.envs.table import FiniteTableEnv

    p = prepare("Lazy-DP-TS", mutant=mutant)
    sc, pr, alg = p["sc"], p["probes"][0], p["alg"]
    for table, seed in ((pr.D, 1), (pr.Dp, 2)):
        fast = sc.event(alg, pr, table, 2000, np.random.default_rng(seed))
        rng = np.random.default_rng(seed + 10)
        ref = []
        for _ in range(200):
            env = FiniteTableEnv(table)
            alg.reference(env, pr.T, rng, np.array([pr.T]))
            a = np.ravel(env.actions())[:pr.T]
            ref.append((int(a[sc.ROW]), int(np.count_nonzero(a[sc.ROW + 1:] == 0))))
        ref = np.array(ref)
        assert stats.ks_2samp(fast[:, 1], ref[:, 1]).pvalue > 1e-3
        assert stats.binomtest(int(ref[:, 0].sum()), 200, float(np.mean(fast[:, 0]))).pvalue > 1e-3
    if mutant == "no-noise":
        top_D = np.mean(sc.event(alg, pr, pr.D, 4000, np.random.default_rng(3))[:, 1] >= 44)
        top_Dp = np.mean(sc.event(alg, pr, pr.Dp, 4000, np.random.default_rng(4))[:, 1] >= 44)
        assert top_D > 0.05 and top_Dp < top_D / 10


# -- the user's instance (issue 14 §1: audit takes the instance options of every command) ----------------------------
def _instance_counts_by_hand(name, means, seed, trials, eps):
    """The instance probe computed here: rows drawn from Bernoulli(means) with the generator of SeedSequence([seed, 1])
    (uniforms below the means), the changed row 0 = (1, 0, …) in D and (0, 1, …) in D', T = K + 1 (one initial pull
    per arm), the algorithm run directly on each table (streams SeedSequence([seed, 2, j])), event: arm 0 at step T."""
    from boundcalc.algorithms import build
    from boundcalc.envs.table import FiniteTableEnv
    from boundcalc.privacy import PureDP

    mu = np.asarray(means)
    K, T = mu.size, mu.size + 1
    u = np.random.default_rng(np.random.SeedSequence([seed, 1])).random((T, K))
    D = (u < mu).astype(float)
    out = []
    for j, row0 in enumerate(((1.0, 0.0), (0.0, 1.0))):
        tab = D.copy()
        tab[0, :2] = row0
        env = FiniteTableEnv(tab)
        (ss,) = np.random.SeedSequence([seed, 2, j]).spawn(1)
        build(name, PureDP(eps)).simulate(env, T, trials, np.random.default_rng(ss), np.array([T]))
        out.append(int(np.count_nonzero(env.actions()[:, T - 1] == 0)))
    return out


def test_audit_simulates_the_users_finite_instance(monkeypatch):
    """audit --means: the first-decision probe on tables drawn from the instance runs beside the designed probes; its
    counts equal the computation above; the designed verdict is unchanged. Mutant: an audit that keeps the designed
    2-arm table (ignores the instance) gives other counts (and K = 2), which the check rejects. A scenario that cannot
    take an instance says why in the JSON."""
    means = [0.8, 0.7, 0.45, 0.3]
    args = ["audit", "--algo", "DP-IMED", "--trials", "400", "--seed", "3", "--json"]
    r = runner.invoke(app, [*args, "--means", ",".join(map(str, means))])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    ia = out["instance_audit"]
    want = _instance_counts_by_hand("DP-IMED", means, 3, 400, 1.0)
    assert ia["used"] and ia["event"]["design"]["K"] == 4 and [ia["event"]["count_D"], ia["event"]["count_Dprime"]] == want
    plain = json.loads(runner.invoke(app, args).stdout)
    assert plain["instance_audit"] is None and plain["epsilon_lower"] == out["epsilon_lower"]
    assert "audited as well on neighbouring tables drawn from it" in out["instance_note"]

    from boundcalc.audit import scenarios

    real = scenarios.FirstDecision.instance_probe

    def ignores(self, alg, instance, rng):  # mutant: the designed table, not the instance's
        pr, why = real(self, alg, instance, rng)
        d = self.probes(alg)[0]
        return scenarios.Probe(pr.name, pr.event.replace(str(pr.T), str(d.T)), pr.direction, d.D, d.Dp, d.T,
                               {**pr.details, "K": 2}), why

    monkeypatch.setattr(scenarios.FirstDecision, "instance_probe", ignores)
    bad = json.loads(runner.invoke(app, [*args, "--means", ",".join(map(str, means))]).stdout)["instance_audit"]
    assert not (bad["event"]["design"]["K"] == 4 and [bad["event"]["count_D"], bad["event"]["count_Dprime"]] == want)
    monkeypatch.undo()
    g = json.loads(runner.invoke(app, ["audit", "--algo", "AdaC-GOPE", "--rho", "1", "--trials", "100", "--K", "5",
                                       "--d", "2", "--json"]).stdout)
    assert g["instance_audit"]["used"] is False and "median" in g["instance_audit"]["reason"]
    assert "not simulated by this audit" in g["instance_note"] and len(g["instance"]["actions"]) == 5
