"""Finite-armed algorithms: simulate (episode-level / vectorised) vs reference (step by step), privacy noise,
index formulas against the sheets' test vectors, empirical regret vs the papers' upper bounds.

Statistical tests use alpha = 0.001 per test (Bonferroni over arms for the pull counts); seeds are fixed,
so a pass is reproducible, and a real discrepancy in distribution (e.g. a wrong batch length, a noise scale
off by 2, a missing noise draw) moves these statistics far beyond the threshold at these sample sizes.
"""

import math

import numpy as np
import pytest
from scipy import stats

from boundcalc import montecarlo as mc
from boundcalc.algorithms.finite import (
    ALGORITHMS, DPIMED, DPKLUCB, AdaCUCB, AdaPUCB, AdaRUCB, batch_size, lookup, make)
from boundcalc.algorithms.finite._common import dp_imed, dp_imed_fallback, dp_klucb, dp_klucb_fallback, kl_ucb, kl_ucb_fallback
from boundcalc.envs import BernoulliEnv, make_env
from boundcalc.errors import InputError

ALPHA = 1e-3
OPTS = dict(epsilon=1.0, rho=0.5, alpha=2.0, rdp_epsilon=1.0)

# (algorithm, options, means, T, simulated runs, reference runs)
CASES = [
    ("UCB", {}, [0.7, 0.5, 0.4], 300, 300, 200),
    ("KL-UCB", {}, [0.7, 0.5, 0.4], 150, 300, 100),
    ("IMED", {}, [0.7, 0.5, 0.4], 150, 300, 120),
    ("DP-SE", {}, [0.43, 0.57], 5000, 300, 200),  # elimination after epoch 1 has probability ~1/2 here
    ("AdaP-UCB", {}, [0.7, 0.5, 0.4], 2000, 300, 300),
    ("AdaP-KLUCB", {}, [0.7, 0.5, 0.4], 1000, 300, 200),
    ("Lazy-DP-TS", {}, [0.7, 0.5, 0.4], 300, 300, 200),
    ("DP-KLUCB", {}, [0.7, 0.5, 0.4], 1500, 300, 250),
    ("DP-IMED", {}, [0.7, 0.5, 0.4], 2000, 300, 300),
    ("AdaC-UCB", {}, [0.7, 0.5, 0.4], 2000, 300, 300),
    ("AdaR-UCB", {}, [0.7, 0.5, 0.4], 2000, 300, 300),
]


def _same_mean(x, y, level):
    if np.ptp(x) == 0 and np.ptp(y) == 0:  # both deterministic: must be equal
        assert x[0] == y[0]
    else:
        assert stats.ttest_ind(x, y, equal_var=False).pvalue > level


@pytest.mark.parametrize("name,extra,means,T,n_sim,n_ref", CASES, ids=[c[0] for c in CASES])
def test_simulate_agrees_with_reference(name, extra, means, T, n_sim, n_ref):
    env = BernoulliEnv(means)
    alg = make(name, **OPTS, **extra)
    res = mc.run(alg, env, T, n_sim, seed=2024)
    refs = [alg.reference(env, T, np.random.default_rng([77, i]), res.checkpoints) for i in range(n_ref)]
    ref_pulls = np.array([r.pulls[0] for r in refs])
    assert (ref_pulls.sum(axis=1) == T).all()
    gaps = max(means) - np.array(means)
    # regret from integer pull counts, rounded (float accumulation must not break ties)
    a = np.round(res.pulls @ gaps, 9)
    b = np.round(ref_pulls @ gaps, 9)
    assert stats.mannwhitneyu(a, b).pvalue > ALPHA, (a.mean(), b.mean())
    # the recorded regret curve agrees at every checkpoint in mean (Welch t, Bonferroni)
    ref_curve = np.array([r.regret[0] for r in refs])
    for j in range(len(res.checkpoints)):
        _same_mean(np.round(res.regret[:, j], 6), np.round(ref_curve[:, j], 6), ALPHA / len(res.checkpoints))
    for k in range(env.K):
        _same_mean(res.pulls[:, k], ref_pulls[:, k], ALPHA / env.K)
    # episode counts agree in distribution too
    ea, eb = res.episodes, np.array([r.episodes[0] for r in refs])
    if np.ptp(np.concatenate([ea, eb])) > 0:
        assert stats.mannwhitneyu(ea, eb).pvalue > ALPHA


# ---------------------------------------------------------------------------------------------------
# privacy noise is really there, at the mechanism's scale
# ---------------------------------------------------------------------------------------------------
def test_dp_klucb_first_noise_is_laplace_one_over_eps():
    eps = 0.5
    env = BernoulliEnv([0.6, 0.4])
    alg = DPKLUCB(epsilon=eps, record_noise=True)
    out = alg.simulate(env, 2, 5000, np.random.default_rng(0), np.array([2]))  # T = K: initial pulls only
    y = out.extra["noise_sum"].ravel()
    assert (out.extra["n_noises"] == 1).all()
    assert stats.kstest(y, "laplace", args=(0, 1 / eps)).pvalue > ALPHA


@pytest.mark.parametrize("cls", [DPKLUCB, DPIMED])
def test_noisy_sum_minus_true_sum_has_variance_m_2_over_eps2(cls):
    eps = 0.4
    env = make_env("mu2")
    out = cls(epsilon=eps, record_noise=True).simulate(env, 20000, 400, np.random.default_rng(1), np.array([20000]))
    m = out.extra["n_noises"]
    z = (out.extra["noise_sum"] / np.sqrt(m)).ravel()  # each entry: sum of m iid Lap(1/eps), standardised by sqrt(m)
    assert m.max() >= 5  # several batches per arm
    # every single draw is Lap(1/eps); the per-arm totals are their sums
    assert stats.kstest(out.extra["noise_draws"], "laplace", args=(0, 1 / eps)).pvalue > ALPHA
    assert out.extra["noise_draws"].size == m.sum()
    n = z.size
    var = z.var()
    # sample variance of a variable with kurtosis <= 6: relative s.e. <= sqrt(5/n); allow 5 s.e.
    assert abs(var / (2 / eps**2) - 1) < 5 * math.sqrt(5 / n), var
    # and the true sums are integer Binomial counts <= N
    ts = out.extra["true_sum"]
    assert np.allclose(ts, np.round(ts), atol=1e-6) and (ts <= out.pulls + 1e-9).all()


@pytest.mark.parametrize("alg,scale_fn,dist", [
    (AdaCUCB(rho=0.2, record_noise=True), lambda n: math.sqrt(1 / (2 * 0.2)) / n, "norm"),
    (AdaRUCB(alpha=3.0, rdp_epsilon=0.6, record_noise=True), lambda n: math.sqrt(3.0 / (2 * 0.6)) / n, "norm"),
    (AdaPUCB(epsilon=0.7, record_noise=True), lambda n: 1 / (0.7 * n), "laplace"),
])
def test_released_means_carry_calibrated_noise(alg, scale_fn, dist):
    # every noise draw, standardised by the mechanism's scale for its episode size n, is N(0,1) / Lap(1).
    # (The noise *currently held* at T is selection-biased: arms whose noise was low are played less.)
    env = make_env("mu2")
    out = alg.simulate(env, 5000, 300, np.random.default_rng(2), np.array([5000]))
    z, n = out.extra["noise_draws"], out.extra["noise_n"]
    assert z.shape == n.shape and (n > 100).any()
    assert stats.kstest(z / np.vectorize(scale_fn)(n), dist).pvalue > ALPHA
    # the released statistic minus the last-episode mean is the last draw of that arm
    assert out.extra["noise_last"].shape == (300, 5)


# DP-SE (Sajed & Sheffet 2019; sheet 001 §7.1): the epoch mean of arm i is released as
# mean + Lap(1/(eps R_e)), R_e = floor(max{32 ln(8|S|e^2/beta)/Delta_e^2, 8 ln(4|S|e^2/beta)/(eps Delta_e)} + 1),
# Delta_e = 2^-e. The scale is recomputed here from (e, |S|) with the sheet's formula, independently of the code.
def _dp_se_scale(eps, e, nS, T):
    beta = 1.0 / T
    d = 2.0 ** (-e)
    R = math.floor(max(32 * math.log(8 * nS * e * e / beta) / d**2, 8 * math.log(4 * nS * e * e / beta) / (eps * d)) + 1)
    return 1.0 / (eps * R)


def _dp_se_noise_p(cls, eps=0.5, T=150000, runs=300, seed=6):
    from boundcalc.algorithms.finite import DPSE

    env = BernoulliEnv([0.6, 0.56, 0.45])  # gaps below the first epoch's threshold: epochs 2 and 3 happen
    out = cls(epsilon=eps, record_noise=True).simulate(env, T, runs, np.random.default_rng(seed), np.array([T]))
    z, e, nS = out.extra["noise_draws"], out.extra["noise_epoch"], out.extra["noise_active"]
    assert z.size == e.size == nS.size and set(np.unique(e)) >= {1, 2, 3} and set(np.unique(nS)) >= {2, 3}
    scale = np.array([_dp_se_scale(eps, int(ei), int(si), T) for ei, si in zip(e, nS)])
    return stats.kstest(z / scale, "laplace").pvalue


def _scaled_noise_subclass(base, factor):
    class Mutant(base):
        def sum_noise(self, rng, size):
            return factor * super().sum_noise(rng, size)

    return Mutant


@pytest.mark.parametrize("factor", [1, 2, 4])
def test_dp_se_noise_scale_is_one_over_eps_R_e(factor):
    # factor 1: the algorithm as written must pass; factors 2 and 4 are mutants (noise x2, x4) kept to show
    # that the statistic (KS against Lap(1) after dividing by the sheet's scale) rejects a mis-scaled noise.
    from boundcalc.algorithms.finite import DPSE

    cls = DPSE if factor == 1 else _scaled_noise_subclass(DPSE, factor)
    p = _dp_se_noise_p(cls)
    if factor == 1:
        assert p > ALPHA
    else:
        assert p < ALPHA


# Lazy-DP-TS (Hu & Hegde 2022; sheet 001 §7.3): at the end of an epoch of O = 2^r rewards the private mean is
# (sum + Lap(1/eps)) / O, i.e. the released mean carries Lap(1/(eps O)); O = 1 after the initial pull.
def _lazy_noise(cls, eps=0.7):
    from boundcalc.algorithms.finite import LazyDPTS

    env = BernoulliEnv([0.7, 0.5, 0.3])
    out = cls(epsilon=eps, record_noise=True).simulate(env, 600, 200, np.random.default_rng(8), np.array([600]))
    return out.extra["noise_draws"], out.extra["noise_O"], out


@pytest.mark.parametrize("factor", [1, 2, 4])
def test_lazy_dp_ts_noise_scale_is_one_over_eps_O(factor):
    from boundcalc.algorithms.finite import LazyDPTS

    eps = 0.7
    cls = LazyDPTS if factor == 1 else _scaled_noise_subclass(LazyDPTS, factor)
    z, O, out = _lazy_noise(cls, eps)
    p = stats.kstest(z * eps * O, "laplace").pvalue
    if factor == 1:
        assert p > ALPHA
        # epoch sizes 1, 2, 4, ...: every O is a power of two, several sizes occur, one release per update
        assert ((O.astype(np.int64) & (O.astype(np.int64) - 1)) == 0).all() and O.max() >= 32
        assert z.size == out.episodes.sum() + 3 * 200
    else:
        assert p < ALPHA


def test_adac_init_uses_n_half():
    # sheet 003 §0: n_a = 1/2 right after initialisation (variance 1/(2 rho (1/2)^2) = 2/rho)
    env = BernoulliEnv([0.5, 0.5, 0.5])
    out = AdaCUCB(rho=1.0, record_noise=True).simulate(env, 3, 4000, np.random.default_rng(3), np.array([3]))
    assert (out.extra["n_last"] == 0.5).all()
    assert abs(out.extra["noise_last"].var() / 2.0 - 1) < 0.1


# ---------------------------------------------------------------------------------------------------
# indexes and schedules against the sheets
# ---------------------------------------------------------------------------------------------------
# sheet 001 §5 "Computing U_i" test vectors (x, N, t, eps) -> U
U_VECTORS = [(0.3, 100, 1000, 0.5, 0.500015), (0.3, 10, 1000, 0.5, 1.0), (0.7, 1000, 1e6, 1.0, 0.772043),
             (0.7, 1000, 1e6, 0.1, 0.844860), (0.0, 50, 500, 0.2, 0.644777)]


@pytest.mark.parametrize("fn", [dp_klucb, dp_klucb_fallback])
def test_dp_klucb_index_sheet_vectors(fn):
    for x, N, t, eps, U in U_VECTORS:
        assert float(fn(np.array([x]), np.array([N]), np.array([t]), eps)[0]) == pytest.approx(U, abs=2e-6)


@pytest.mark.parametrize("fn", [dp_imed, dp_imed_fallback])
def test_dp_imed_index_sheet_vector(fn):
    idx = fn(np.array([[0.74, 0.6, 0.3]]), np.array([[50.0, 20.0, 8.0]]), 0.5)[0]
    np.testing.assert_allclose(idx, [3.91202, 3.87845, 3.63253], atol=2e-5)
    assert int(np.argmin(idx)) == 2


def test_kl_ucb_is_the_level_set_boundary():
    from boundcalc.info import kl_bernoulli

    rng = np.random.default_rng(4)
    x = rng.uniform(0, 0.99, 200)
    lv = rng.uniform(0.001, 2, 200)
    for fn in (kl_ucb, kl_ucb_fallback):
        q = fn(x, lv)
        k = kl_bernoulli(x, q)
        assert ((q >= 1 - 1e-9) | (np.abs(k - lv) < 1e-6)).all()
        assert (kl_bernoulli(x, np.minimum(q + 1e-6, 1)) >= lv - 1e-9).all()


def test_batch_schedule_readings():
    m = np.arange(1, 7)
    # cumulative reading, alpha = 2, n1 = 1: cumulative counts 1, 2, 4, 8, ... (sheet 001 §5)
    assert batch_size(m, 1, 2.0).tolist() == [1, 1, 2, 4, 8, 16]
    assert np.cumsum(batch_size(m, 1, 2.0)).tolist() == [1, 2, 4, 8, 16, 32]
    assert batch_size(m, 1, 2.0, "geometric").tolist() == [1, 2, 4, 8, 16, 32]
    assert (batch_size(np.arange(1, 30), 1, 1.01) >= 1).all()  # guard b_m >= 1
    assert np.cumsum(batch_size(m, 3, 1.5)).tolist() == [math.ceil(3 * 1.5 ** (i - 1)) for i in m]


def test_episode_count_bound_adac():
    # sheet 003 check 7: #episodes <= K (1 + log2(T/K))
    env, T = make_env("mu2"), 10**6
    res = mc.run(AdaCUCB(rho=0.1), env, T, 30, seed=0)
    assert res.episodes.max() <= 5 * (1 + math.log2(T / 5))


def test_registry_metadata_and_lookup():
    from boundcalc.bounds import registry

    ids = {b.id for b in registry.all_bounds()}
    for name, cls in ALGORITHMS.items():
        assert cls.name == name and cls.source and cls.notion in ("none", "pure", "zcdp", "rdp")
        assert set(cls.bound_ids) <= ids, name
    assert lookup("dp_imed") is DPIMED and lookup("dpklucb") is DPKLUCB
    with pytest.raises(InputError):
        lookup("thompson")
    with pytest.raises(InputError):
        make("DP-IMED")  # epsilon missing
    with pytest.raises(InputError):
        DPIMED(epsilon=1.0, alpha=1.0)


# ---------------------------------------------------------------------------------------------------
# empirical regret vs upper bounds (papers' instances at reduced scale)
# ---------------------------------------------------------------------------------------------------
MU2 = [0.75, 0.625, 0.5, 0.375, 0.25]


def _lnT(T):
    return math.log(T)


def _bound(bid, means, budget, T):
    from boundcalc.bounds import registry

    ctx = registry.make_context("finite", {"means": means}, budget=budget)
    return float(registry.get(bid).evaluate(T, ctx).value[0])


def test_adac_ucb_below_003_thm10():
    from boundcalc.privacy.budgets import ZCDP

    T, rho, beta = 10**5, 0.1, 3.5
    res = mc.run(AdaCUCB(rho=rho, beta=beta), make_env("zcdp-finite"), T, 100, seed=1)
    gaps = [0.125, 0.25, 0.375, 0.5]
    sheet = sum(8 * beta * _lnT(T) / g + 8 * math.sqrt(beta / rho) * math.sqrt(_lnT(T)) + 2 * beta / (beta - 3) for g in gaps)
    assert _bound("003-thm10", MU2, ZCDP(rho), T) == pytest.approx(sheet, rel=1e-9)
    assert res.final()["ci_high"] <= sheet


def test_adar_ucb_per_arm_pulls_below_000_thm5():
    # rdp sheet check 4: two arms, Delta = 0.1, T = 1e5, beta = 3.1, per-arm bound on E N_2(T)
    from boundcalc.privacy.budgets import RDP

    T, beta, a, e = 10**5, 3.1, 2.0, 1.0
    res = mc.run(AdaRUCB(alpha=a, rdp_epsilon=e, beta=beta), make_env("rdp-2arm"), T, 100, seed=2)
    n2 = res.pulls[:, 1]
    per_arm = 8 * beta * _lnT(T) / 0.01 + 8 / 0.1 * math.sqrt(beta * a / e * _lnT(T)) + 2 * beta / (beta - 3)
    assert per_arm == pytest.approx(2.93e4, rel=0.01)  # sheet value
    assert n2.mean() + 1.96 * n2.std(ddof=1) / 10 <= per_arm
    assert res.final()["ci_high"] <= _bound("000-thm5", [0.6, 0.5], RDP(a, e), T)


def test_adap_ucb_below_azize_basu_thm7():
    from boundcalc.privacy.budgets import PureDP

    T, eps, al = 10**5, 0.5, 3.1
    res = mc.run(AdaPUCB(epsilon=eps, beta=al), make_env("mu2"), T, 100, seed=3)
    sheet = sum(16 * al * _lnT(T) / min(g, eps) + al / (al - 3) for g in [0.125, 0.25, 0.375, 0.5])
    assert _bound("001-adap-ucb", MU2, PureDP(eps), T) == pytest.approx(sheet, rel=1e-9)
    assert res.final()["ci_high"] <= sheet


@pytest.mark.parametrize("cls", [DPIMED, DPKLUCB])
def test_dp_klucb_imed_below_alpha_times_lower_bound(cls):
    # seed 001 Thm 4.3 is asymptotic (o(ln T) dropped): alpha * LB_eps(mu2) * ln T; sheet §8: 178 at eps = 1, T = 1e5
    from boundcalc.privacy.budgets import PureDP

    T = 10**5
    res = mc.run(cls(epsilon=1.0, alpha=2.0), make_env("mu2"), T, 100, seed=4)
    bid = "001-thm4.3-dp-imed" if cls is DPIMED else "001-thm4.3-dp-klucb"
    bound = _bound(bid, MU2, PureDP(1.0), T)
    assert bound == pytest.approx(178, rel=0.01)
    assert res.final()["ci_high"] <= bound


# ---------------------------------------------------------------------------------------------------
# index formulas written from the papers (in terms of N = N_a(t_l - 1), not the code's n = N/2)
# ---------------------------------------------------------------------------------------------------
def test_adap_ucb_index_is_azize_basu_eq7():
    # Azize & Basu 2022 Eq. (7): mu~ + sqrt(a ln(2 t_l) / (2 * N/2)) + a ln(t_l) / (eps * N/2)
    eps, a = 0.3, 3.1
    mu = np.array([[0.2, 0.55, 0.9]])
    N = np.array([[2.0, 16.0, 1024.0]])
    t = 5000.0
    want = [m + math.sqrt(a * math.log(2 * t) / (2 * Ni / 2)) + a * math.log(t) / (eps * Ni / 2)
            for m, Ni in zip(mu[0], N[0])]
    got = AdaPUCB(epsilon=eps, beta=a).index(mu, N / 2, np.array([[t]]))[0]
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_adap_klucb_index_is_kl_level_set_of_shifted_mean():
    # Azize & Basu 2022 Eq. (7) (sheet 001 §7.2): kl(clip(mu~ + a ln t/(eps n)), I) = a ln t / n, or I = 1
    from boundcalc.algorithms.finite import AdaPKLUCB
    from boundcalc.info import kl_bernoulli

    eps, a, t = 0.5, 3.1, 2.0e4
    mu = np.array([[0.1, 0.4, 0.6, -0.3]])
    n = np.array([[4000.0, 9000.0, 20000.0, 50000.0]])
    got = AdaPKLUCB(epsilon=eps, beta=a).index(mu, n, np.array([[t]]))[0]
    shifted = np.clip(mu[0] + a * math.log(t) / (eps * n[0]), 0, 1)
    level = a * math.log(t) / n[0]
    assert (got >= shifted - 1e-12).all()
    for g, s, lv in zip(got, shifted, level):
        assert g == pytest.approx(1.0) or float(kl_bernoulli(s, g)) == pytest.approx(lv, rel=1e-6)


def test_adac_adar_index_sheet_formulas():
    # sheet 003 §2.1 Eq. 14 and sheet 000 §2.2 Eq. 6 (noise already in the released mean)
    mu, n, t, beta = np.array([[0.3, 0.6]]), np.array([[0.5, 37.0]]), 812.0, 3.5
    rho = 0.2
    want = [m + math.sqrt((1 / (2 * k) + 1 / (rho * k * k)) * beta * math.log(t)) for m, k in zip(mu[0], n[0])]
    np.testing.assert_allclose(AdaCUCB(rho=rho, beta=beta).index(mu, n, np.array([[t]]))[0], want, rtol=1e-12)
    al, e = 4.0, 0.8
    want = [m + math.sqrt((1 / (2 * k) + al / (e * k * k)) * beta * math.log(t)) for m, k in zip(mu[0], n[0])]
    np.testing.assert_allclose(AdaRUCB(alpha=al, rdp_epsilon=e, beta=beta).index(mu, n, np.array([[t]]))[0], want,
                               rtol=1e-12)


# ---------------------------------------------------------------------------------------------------
# schedules: per-arm doubling, geometric batches, DP-SE epoch length (exact, from the sheets)
# ---------------------------------------------------------------------------------------------------
def _ceil_log2(N):
    return np.array([[math.ceil(math.log2(x)) if x > 0 else 0 for x in row] for row in np.atleast_2d(N)])


@pytest.mark.parametrize("name,extra", [("AdaP-UCB", {}), ("AdaP-KLUCB", {}), ("AdaC-UCB", {}), ("AdaR-UCB", {}),
                                        ("DP-KLUCB", {}), ("DP-IMED", {})])
def test_counts_double_per_arm(name, extra):
    # per-arm doubling (Azize & Basu 2022 Alg. 1; seed 003 Alg. 4; seed 000 Alg. 2) and seed 001 Eq. 14 with
    # alpha = 2, n1 = 1: every arm's count is a power of two except the one arm cut at T, and an arm with
    # count N has had ceil(log2 N) episodes after its initial pull.
    env = BernoulliEnv([0.6, 0.5, 0.45])
    alg = make(name, **OPTS, **extra)
    T = 3001
    outs = [alg.simulate(env, T, 40, np.random.default_rng(8), np.array([T]))]
    outs += [alg.reference(env, T, np.random.default_rng([9, i]), np.array([T])) for i in range(15)]
    for out in outs:
        N = out.pulls
        pow2 = (N & (N - 1)) == 0
        assert ((~pow2).sum(axis=1) <= 1).all()
        np.testing.assert_array_equal(out.episodes, _ceil_log2(N).sum(axis=1))


def test_geometric_batches_counts():
    # b_m = 2^(m-1): cumulative counts 1, 3, 7, 15, ... = 2^m - 1, except the arm cut at T
    env = BernoulliEnv([0.6, 0.5])
    alg = DPIMED(epsilon=1.0, schedule="geometric")
    for out in [alg.simulate(env, 1000, 30, np.random.default_rng(5), np.array([1000]))] + \
            [alg.reference(env, 1000, np.random.default_rng([5, i]), np.array([1000])) for i in range(10)]:
        M = out.pulls + 1
        assert ((((M & (M - 1)) != 0)).sum(axis=1) <= 1).all()


@pytest.mark.parametrize("eps", [0.05, 1.0])  # the privacy branch of the max wins at 0.05, the other at 1
def test_dp_se_first_epoch_length(eps):
    # sheet 001 §7.1: R_1 = floor(max{32 ln(8|S|/beta)/(1/2)^2, 8 ln(4|S|/beta)/(eps/2)} + 1), beta = 1/T;
    # arms are pulled one after the other, so a horizon T = R_1 + 5 gives pulls (R_1, 5) in index order
    # (ties="lowest") and (R_1, 5) or (5, R_1) in a random order (default)
    from boundcalc.algorithms.finite import DPSE

    def r1(T):
        return math.floor(max(32 * math.log(16 * T) / 0.25, 8 * math.log(8 * T) / (eps / 2)) + 1)

    T = 3000
    for _ in range(50):  # fixed point T = R_1(T) + 5 (R_1 grows like ln T)
        T = r1(T) + 5
    R1 = r1(T)
    assert R1 + 5 == T
    env = BernoulliEnv([0.5, 0.5])
    alg = DPSE(epsilon=eps, ties="lowest")
    out = alg.simulate(env, T, 5, np.random.default_rng(0), np.array([T]))
    assert (out.pulls == [R1, 5]).all()
    ref = alg.reference(env, T, np.random.default_rng(1), np.array([T]))
    assert ref.pulls[0].tolist() == [R1, 5]
    alg = DPSE(epsilon=eps)
    out = alg.simulate(env, T, 40, np.random.default_rng(0), np.array([T]))
    assert (np.sort(out.pulls, axis=1) == [5, R1]).all() and len({tuple(p) for p in out.pulls}) == 2
    for i in range(4):
        assert sorted(alg.reference(env, T, np.random.default_rng([1, i]), np.array([T])).pulls[0]) == [5, R1]
