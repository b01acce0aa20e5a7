"""Finite-armed environments: instances, derived quantities, exact batch draws, validation."""

import numpy as np
import pytest
from scipy import stats

from boundcalc.envs import INSTANCES, BernoulliEnv, GaussianEnv, make_env
from boundcalc.errors import InputError


def test_named_instances_match_sheet_001_section_8():
    # sheet docs/formulas/eps-global-dp-bernoulli.md §8 (typed from the sheet, not from the code)
    assert make_env("mu1").means.tolist() == [0.75, 0.70, 0.70, 0.70, 0.70]
    assert make_env("mu2").means.tolist() == [0.75, 0.625, 0.5, 0.375, 0.25]
    assert make_env("mu3").means.tolist() == [0.75, 0.53125, 0.375, 0.28125, 0.25]
    assert make_env("mu4").means.tolist() == [0.75, 0.71875, 0.625, 0.46875, 0.25]
    # seed 003 Sec. VII: sum of gaps 1.25 (zcdp sheet §9)
    assert make_env("zcdp-finite").gaps.sum() == pytest.approx(1.25)
    assert set(INSTANCES) >= {"mu1", "mu2", "mu3", "mu4"}


def test_gaps_best_arm_regret_identity():
    env = BernoulliEnv([0.2, 0.9, 0.5])
    assert env.best_arm == 1 and env.mu_star == 0.9 and env.K == 3
    np.testing.assert_allclose(env.gaps, [0.7, 0.0, 0.4])
    assert env.pseudo_regret([10, 5, 2]) == pytest.approx(10 * 0.7 + 2 * 0.4)


@pytest.mark.parametrize("bad", [[0.5, 1.5], [0.5, -0.1], [0.5, float("nan")], [0.5]])
def test_bernoulli_validation(bad):
    with pytest.raises(InputError):
        BernoulliEnv(bad)


def test_make_env_validation():
    with pytest.raises(InputError):
        make_env("nope")
    with pytest.raises(InputError):
        make_env("mu1", family="poisson")
    with pytest.raises(InputError):
        GaussianEnv([0.0, 1.0], sigma=0)
    assert make_env("mu1", means=[0.3, 0.4]).means.tolist() == [0.3, 0.4]


def test_bernoulli_sum_is_binomial():
    env = BernoulliEnv([0.3, 0.8])
    rng = np.random.default_rng(1)
    n = 50
    s = env.sum_rewards(np.zeros(20000, dtype=int), np.full(20000, n), rng)
    # chi-square goodness of fit against Binomial(50, 0.3), pooled tails
    k = np.arange(n + 1)
    p = stats.binom.pmf(k, n, 0.3)
    obs = np.bincount(s.astype(int), minlength=n + 1)
    lo, hi = 7, 23
    p_b = np.concatenate(([p[:lo].sum()], p[lo:hi], [p[hi:].sum()]))
    o_b = np.concatenate(([obs[:lo].sum()], obs[lo:hi], [obs[hi:].sum()]))
    assert stats.chisquare(o_b, 20000 * p_b).pvalue > 1e-3
    # zero-length episodes give zero
    assert env.sum_rewards(np.array([1, 0]), np.array([0, 0]), rng).tolist() == [0.0, 0.0]


def test_gaussian_sum_moments():
    env = GaussianEnv([0.0, 1.0], sigma=2.0)
    rng = np.random.default_rng(2)
    s = env.sum_rewards(np.ones(20000, dtype=int), np.full(20000, 9), rng)
    # N(9, 9 * 4): standardised KS test
    assert stats.kstest((s - 9.0) / 6.0, "norm").pvalue > 1e-3


def test_single_draws_have_right_mean():
    env = BernoulliEnv([0.25, 0.5])
    rng = np.random.default_rng(3)
    x = np.array([env.draw(0, rng) for _ in range(20000)])
    assert set(np.unique(x)) <= {0.0, 1.0}
    assert abs(x.mean() - 0.25) < 5 * np.sqrt(0.25 * 0.75 / 20000)
