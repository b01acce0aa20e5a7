"""Baselines of seed 002's experiments: LDP-UCB and LDP-GLOC (Zheng et al. NeurIPS 2020, reconstructed; see
boundcalc/algorithms/glm/baselines.py).

* Privacy noise: with ``calibration="gaussian"`` every message's noise has the Gaussian-mechanism std
  Delta sqrt(2 ln(1.25 k/delta))/(eps/k) for its L2 sensitivity Delta, re-derived here (sup over adversarial and
  random input pairs) and checked by a two-sided chi-square test of the pooled sample variance at
  alpha = 1e-3 (ALPHA_TEST); the same test rejects noise mis-scaled by 5% in std (power). The code calibrations
  ("han-code", "zheng-code") are checked against the formulas re-written here from the two code bases.
* The vectorised simulation and the scalar step-by-step reference agree in distribution: two-sample KS and
  Welch's t on the final regret at alpha = 1e-3 (150 reference runs against 400 simulated, T = 60); the same
  KS test rejects a simulation whose noise std is mis-scaled to 0.01 (power).
* CLI smoke test: ``boundcalc simulate --algo LDP-UCB --ldp-epsilon 1 --ldp-delta 0.01``.
"""

import json
import math

import numpy as np
import pytest
from scipy import stats
from typer.testing import CliRunner

from boundcalc.algorithms.glm import ALGORITHMS, LDPGLOC, LDPUCB
from boundcalc.cli.app import app
from boundcalc.envs.glm import make_glm_env
from boundcalc.errors import InputError

ALPHA_TEST = 1e-3
EPS, DELTA = 1.0, 0.01


def _upper(m):
    i, j = np.triu_indices(m.shape[-1])
    return m[..., i, j]


def _sensitivities(d=3, n=4000, seed=0):
    """Sup over input pairs (unit-ball x, |r| <= 1, |z| <= 5) of the L2 change of the messages' statistics:
    adversarial pairs plus random ones (the sup is attained by the adversarial pairs)."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d))
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    y = rng.standard_normal((n, d))
    y /= np.linalg.norm(y, axis=1, keepdims=True)
    e = np.eye(d)
    x = np.vstack([x, e[:1], e[:1]])
    y = np.vstack([y, e[1:2], -e[:1]])
    outer = lambda v: v[:, :, None] * v[:, None, :]  # noqa: E731
    s_M = np.linalg.norm(_upper(outer(x)) - _upper(outer(y)), axis=1).max()
    s_rx = max(np.linalg.norm(x - y, axis=1).max(), np.linalg.norm(x + y, axis=1).max())  # r, r' in {-1, 1}
    s_zx = 5.0 * s_rx
    zs = np.linspace(-5, 5, 201)
    G = max(abs(zs - r).max() for r in (-1.0, 1.0))  # linear link: sup |mu(z) - r|
    return s_M, s_rx, s_zx, G * s_rx


def _chi2_var_pvalue(samples, sigma):
    """Two-sided p-value of H0: Var = sigma^2 for i.i.d. centred Gaussian samples (mean known = 0)."""
    n = samples.size
    stat = float(np.sum(samples**2) / sigma**2)
    return 2 * min(stats.chi2.cdf(stat, n), stats.chi2.sf(stat, n))


def _release_noise(alg, env, n, rng):
    d = env.d
    x = np.tile(np.array([0.6, 0.8, 0.0]), (n, 1))
    r = np.full(n, 0.5)
    if isinstance(alg, LDPGLOC):
        th = np.tile(np.array([1.0, -0.5, 2.0]), (n, 1))
        z = float(np.clip(x[0] @ th[0], -5, 5))
        M, u, g = alg.release(x, r, th, env, rng)
        return M - np.outer(x[0], x[0]), u - z * x[0], g - (z - 0.5) * x[0]
    assert d == 3
    M, u = alg.release(x, r, rng)
    return M - np.outer(x[0], x[0]), u - 0.5 * x[0], None


def _env3():
    from boundcalc.envs.glm import GLMEnv

    return GLMEnv([0.6, 0.0, 0.8], 4)


def test_sensitivities_rederived():
    s_M, s_rx, s_zx, s_g = _sensitivities()
    assert s_M == pytest.approx(math.sqrt(2)) and s_rx == pytest.approx(2.0)
    assert s_zx == pytest.approx(10.0) and s_g == pytest.approx(12.0)


@pytest.mark.parametrize("cls", [LDPUCB, LDPGLOC], ids=["UCB", "GLOC"])
def test_gaussian_calibration_noise_scale_and_power(cls):
    env = _env3()
    s_M, s_rx, s_zx, s_g = _sensitivities()
    k = 2 if cls is LDPUCB else 3
    mech = lambda sens: sens * math.sqrt(2 * math.log(1.25 * k / DELTA)) / (EPS / k)  # noqa: E731
    want = [mech(s_M), mech(s_rx)] if cls is LDPUCB else [mech(s_M), mech(s_zx), mech(s_g)]
    n = 20000
    W, xi, gn = _release_noise(cls(eps=EPS, delta=DELTA, calibration="gaussian"), env, n, np.random.default_rng(1))
    assert np.allclose(W, np.transpose(W, (0, 2, 1)))
    got = [_upper(W).ravel(), xi.ravel()] + ([] if gn is None else [gn.ravel()])
    for sample, s in zip(got, want):
        assert _chi2_var_pvalue(sample, s) > ALPHA_TEST
    # power: noise 5% too large in std (sigma= overrides the calibration) is rejected for every message
    for i, s in enumerate(want):
        Wb, xib, gb = _release_noise(cls(eps=EPS, delta=DELTA, sigma=1.05 * s), env, n, np.random.default_rng(2))
        bad = [_upper(Wb).ravel(), xib.ravel()] + ([] if gb is None else [gb.ravel()])
        assert _chi2_var_pvalue(bad[i], s) < ALPHA_TEST


@pytest.mark.parametrize("cls, calibration, formula", [
    (LDPUCB, "han-code", lambda e, dl: 6 * math.sqrt(2 * math.log(2.5 / dl)) / e),
    (LDPUCB, "zheng-code", lambda e, dl: 4 * math.sqrt(math.log(1.25 / dl)) / e),
    (LDPGLOC, "han-code", lambda e, dl: 6 * math.sqrt(2 * math.log(3.75 / dl)) / e),
])
def test_code_calibrations(cls, calibration, formula):
    env = _env3()
    s = formula(0.5, 0.1)
    W, xi, gn = _release_noise(cls(eps=0.5, delta=0.1, calibration=calibration), env, 5000,
                               np.random.default_rng(3))
    for sample in [_upper(W).ravel(), xi.ravel()] + ([] if gn is None else [gn.ravel()]):
        assert _chi2_var_pvalue(sample, s) > ALPHA_TEST


@pytest.mark.parametrize("cls, env_name", [(LDPUCB, "ldp-single"), (LDPGLOC, "ldp-logistic")],
                         ids=["UCB-linear", "GLOC-logistic"])
def test_simulation_matches_reference_and_power(cls, env_name):
    env = make_glm_env(env_name)
    T, n_ref, n_sim = 60, 150, 400
    cp = np.array([T])
    ref = np.array([cls().reference(env, T, np.random.default_rng(100 + i), cp).regret[0, -1] for i in range(n_ref)])
    sim = cls().simulate(env, T, n_sim, np.random.default_rng(4), cp).regret[:, -1]
    assert stats.ks_2samp(ref, sim).pvalue > ALPHA_TEST
    assert stats.ttest_ind(ref, sim, equal_var=False).pvalue > ALPHA_TEST
    bad = cls(sigma=0.01).simulate(env, T, n_sim, np.random.default_rng(5), cp).regret[:, -1]
    assert stats.ks_2samp(ref, bad).pvalue < ALPHA_TEST


def test_cli_simulate_smoke():
    runner = CliRunner()
    r = runner.invoke(app, ["simulate", "--algo", "LDP-UCB", "--ldp-epsilon", "1", "--ldp-delta", "0.01",
                            "--T", "80", "--runs", "4", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["inputs"]["algo"] == "LDP-UCB" and d["inputs"]["params"]["eps"] == 1.0
    assert d["inputs"]["params"]["delta"] == 0.01 and 0 <= d["value"] <= 2 * 80
    r = runner.invoke(app, ["simulate", "--algo", "ldp-gloc", "--env", "ldp-logistic", "--ldp-epsilon", "1",
                            "--ldp-delta", "0.01", "--T", "50", "--runs", "3", "--param", "calibration=gaussian",
                            "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["inputs"]["params"]["calibration"] == "gaussian"
    r = runner.invoke(app, ["simulate", "--algo", "LDP-UCB", "--ldp-epsilon", "1", "--T", "50", "--runs", "2"])
    assert r.exit_code == 2  # (eps, delta)-LDP needs --ldp-delta


def test_metadata_and_bad_input():
    for name, cls in (("LDP-UCB", LDPUCB), ("LDP-GLOC", LDPGLOC)):
        assert ALGORITHMS[name] is cls
        assert cls.setting == "glm" and cls.notion == "ldp" and cls.bound_ids and "Zheng" in cls.source
    for make in (lambda: LDPUCB(eps=0), lambda: LDPUCB(delta=1.5), lambda: LDPUCB(calibration="x"),
                 lambda: LDPGLOC(calibration="zheng-code"), lambda: LDPGLOC(step=0), lambda: LDPUCB(sigma=-1),
                 lambda: LDPUCB().simulate(make_glm_env("ldp-multi"), 10, 2, np.random.default_rng(0), [10]),
                 lambda: LDPGLOC().simulate(make_glm_env("ldp-single"), 10, 2, np.random.default_rng(0), [11])):
        with pytest.raises(InputError):
            make()
