"""LDP GLM bandits (seed 002 Algorithm 1): LDP-OLS and LDP-SGD.

* Privacy noise: the OLS message's matrix noise is symmetric with entry std 2 C_B sigma_{eps,delta} and the
  vector noise has std C_B c_r sigma_{eps,delta} (Eq. 3.3, formula re-written here); the L2-ball mechanism
  has norm r_{eps,d} exactly (sheet values r_{1,2} = 3.399, r_{5,10} = 3.918 at R = 1) and is unbiased
  (Monte Carlo mean within 5 standard errors).
* Regret: private > non-private limit; mean regret below the registry bound where it applies.
* The simulation (runs vectorised) and the single-run reference agree in distribution (KS, 1e-3).
"""

import math

import numpy as np
import pytest
from scipy import stats

from boundcalc.algorithms.glm import ALGORITHMS, LDPOLS, LDPSGD, l2_ball_mechanism, l2_ball_radius
from boundcalc.envs.glm import GLMEnv, make_glm_env
from boundcalc.errors import InputError


def test_ols_release_noise_scale():
    eps, delta, n, d = 1.0, 0.01, 20000, 3
    alg = LDPOLS(eps=eps, delta=delta)
    x = np.tile([0.6, 0.8, 0.0], (n, 1))
    r = np.full(n, 0.5)
    M, u = alg.release(x, r, np.random.default_rng(0))
    s = 2 * math.sqrt(2 * math.log(1.25 / delta)) / eps
    W = M - np.outer(x[0], x[0])
    assert np.allclose(W, np.transpose(W, (0, 2, 1)))
    assert W.reshape(n, -1).std(axis=0) / (2 * s) == pytest.approx(np.ones(d * d), abs=0.03)
    assert (u - 0.5 * x[0]).std(axis=0) / s == pytest.approx(np.ones(d), abs=0.03)


@pytest.mark.parametrize("eps, d, R, sheet", [(1.0, 2, 1.0, 3.399), (5.0, 10, 1.0, 3.918)])
def test_l2_ball_mechanism(eps, d, R, sheet):
    assert l2_ball_radius(eps, d, R) == pytest.approx(sheet, abs=1e-3)
    rng = np.random.default_rng(1)
    x = np.zeros((100000, d))
    x[:, 0] = 0.7 * R
    Z = l2_ball_mechanism(x, eps, R, rng)
    assert np.allclose(np.linalg.norm(Z, axis=1), sheet, atol=1e-3)
    se = Z.std(axis=0) / math.sqrt(len(Z))
    assert np.all(np.abs(Z.mean(axis=0) - x[0]) < 5 * se)


def test_private_worse_than_nonprivate_limit():
    env = make_glm_env("ldp-single")
    T, runs = 1500, 40
    for make in (lambda e: LDPOLS(eps=e), lambda e: LDPSGD(eps=e)):
        priv = make(1.0).simulate(env, T, runs, np.random.default_rng(2), np.array([T])).regret.mean()
        nonp = make(float("inf")).simulate(env, T, runs, np.random.default_rng(2), np.array([T])).regret.mean()
        assert priv > nonp


@pytest.mark.parametrize("make", [lambda: LDPOLS(eps=1.0), lambda: LDPSGD(eps=1.0)], ids=["OLS", "SGD"])
def test_simulation_matches_reference(make):
    env = make_glm_env("ldp-single")
    T, n = 150, 200
    rng = np.random.default_rng(3)
    ref = np.array([make().reference(env, T, rng, np.array([T])).regret[0, -1] for _ in range(n)])
    sim = make().simulate(env, T, n, np.random.default_rng(4), np.array([T])).regret[:, -1]
    assert stats.ks_2samp(ref, sim).pvalue > 1e-3


def test_regret_below_registry_bound():
    registry = pytest.importorskip("boundcalc.bounds.registry")
    from boundcalc.privacy.budgets import LocalDP

    env = make_glm_env("ldp-single")
    T, runs = 2000, 30
    alg = LDPSGD(eps=1.0)
    res = alg.simulate(env, T, runs, np.random.default_rng(5), np.array([T]))
    try:
        b = LocalDP(1.0)
    except TypeError:
        b = LocalDP(1.0, 0.0)
    ctx = registry.make_context("glm", {}, budget=b)
    bound = registry.get("002-thm3.1-sgd-explicit")
    assert bound.id in alg.bound_ids
    val = bound.evaluate(np.array([float(T)]), ctx, b).value[0]
    assert res.regret.mean() + 4 * res.regret.std() / math.sqrt(runs) <= val


def test_metadata_and_bad_input():
    assert set(ALGORITHMS) == {"LDP-OLS", "LDP-SGD"}
    for cls in ALGORITHMS.values():
        assert cls.setting == "glm" and cls.notion == "ldp" and cls.bound_ids
    for make in (lambda: GLMEnv([np.nan, 1.0], 3), lambda: GLMEnv([], 3), lambda: GLMEnv([1.0, 0.0], 1),
                 lambda: GLMEnv([1.0, 0.0], 3, link="probit"), lambda: LDPOLS(eps=0), lambda: LDPOLS(delta=2),
                 lambda: LDPSGD(kappa_l=-1), lambda: LDPOLS(calibration="x"), lambda: make_glm_env("nope")):
        with pytest.raises(InputError):
            make()
