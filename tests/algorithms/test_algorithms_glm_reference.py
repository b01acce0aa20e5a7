"""seed 002 Algorithm 1 (single parameter): the vectorised ``simulate`` of LDP-OLS / LDP-SGD against the independent
step-by-step ``reference`` (boundcalc/algorithms/glm/reference.py, written from Algorithm 1, Eq. 3.3-3.6, Lemma 2.2
and docs/formulas/ldp-glm-bandits.md; it imports nothing from ldp.py, only the environment is shared).

Both consume one random stream in the same order (decision sets, rewards, then the mechanism's draws), so run j of a
``simulate`` block must equal ``reference(..., lane=j, lanes=n)``: the regret at every checkpoint to 1e-9 and the
final estimation error ||theta_T - theta*|| to 1e-7 (floating-point rounding only; the greedy arm choices are the
same). Cases: both links, paper/safe OLS calibration, no shift, projection, and the non-private limits.

Power, with the mutants kept here (each must break the equality): the fast path with its privacy noise doubled
(OLS stds x2; Psi's output x2), and shortcuts in the fast path (OLS: W not symmetrised; SGD: Psi without its
Bernoulli sign step). (Clipping the gradient to R is no candidate: Psi's output is the same for g and for g clipped
to norm R, since the sign probability 1/2 + ||g||/(2R) is >= 1 either way.) The same checks pass for the unmutated fast path, so a failure is the mutation, not the test.
"""

import math

import numpy as np
import pytest
from typer.testing import CliRunner

from boundcalc.algorithms.glm import LDPOLS, LDPSGD, ldp
from boundcalc.envs.glm import make_glm_env
from boundcalc.errors import InputError

T, LANES = 120, 4
CPS = np.array([0, 1, 2, 17, 64, 120])

CASES = {
    "OLS-paper": (lambda: LDPOLS(eps=1.0, delta=0.01), "ldp-single"),
    "OLS-safe": (lambda: LDPOLS(eps=2.0, delta=0.05, calibration="safe", alpha=0.1), "ldp-single"),
    "OLS-noshift-CB2": (lambda: LDPOLS(eps=3.0, delta=0.01, shift=False, C_B=2.0, c_r=0.5), "ldp-single"),
    "OLS-nonprivate": (lambda: LDPOLS(eps=float("inf")), "ldp-single"),
    "OLS-logistic": (lambda: LDPOLS(eps=1.0), "ldp-logistic"),
    "SGD": (lambda: LDPSGD(eps=1.0), "ldp-single"),
    "SGD-logistic-project": (lambda: LDPSGD(eps=0.5, project=True, c_prime=0.5), "ldp-logistic"),
    "SGD-nonprivate": (lambda: LDPSGD(eps=float("inf"), kappa_l=0.3), "ldp-single"),
}


def _agrees(alg, env, seed=5, lanes=LANES, cps=CPS):
    """True iff every lane of one simulate block equals the reference replaying that lane."""
    sim = alg.simulate(env, T, lanes, np.random.default_rng(seed), cps)
    for j in range(lanes):
        ref = alg.reference(env, T, np.random.default_rng(seed), cps, lane=j, lanes=lanes)
        if not np.allclose(ref.regret[0], sim.regret[j], rtol=1e-9, atol=1e-9):
            return False
        if not np.allclose(ref.extra["theta_err"][0], sim.extra["theta_err"][j], rtol=1e-7, atol=1e-12):
            return False
    return True


@pytest.mark.parametrize("case", list(CASES))
def test_simulate_equals_independent_reference_lane_by_lane(case):
    make, env_name = CASES[case]
    env = make_glm_env(env_name)
    assert _agrees(make(), env)
    # the lanes are genuinely different runs (a shared stream, different slots)
    a = make().reference(env, T, np.random.default_rng(5), CPS, lane=0, lanes=LANES)
    b = make().reference(env, T, np.random.default_rng(5), CPS, lane=1, lanes=LANES)
    assert a.extra["theta_err"][0] != b.extra["theta_err"][0]
    assert a.regret[0, -1] > 0  # the checkpoints carry the regret path


# -- mutants of the fast path (kept here to show that the comparison has power) -------------------------------
class _OLSNoiseX2(LDPOLS):
    """Mis-scaled noise: both stds doubled in the fast path only (the reference computes its own)."""

    def noise_stds(self):
        sW, sx = super().noise_stds()
        return 2 * sW, 2 * sx


class _OLSAsymmetricW(LDPOLS):
    """Shortcut: W kept upper-triangular (not symmetrised) in the fast path."""

    def release(self, x, r, rng):
        n, d = x.shape
        sW, sx = self.noise_stds()
        W = np.triu(sW * rng.standard_normal((n, d, d)))
        r = np.clip(r, -self.c_r, self.c_r)
        return x[:, :, None] * x[:, None, :] + W, x * r[:, None] + sx * rng.standard_normal((n, d))


def _ball_without_sign_step(x, eps, R, rng):
    """Shortcut in Psi: step 1 of Lemma 2.2 (the Bernoulli(1/2 + ||x||/(2R)) sign) is skipped -- its uniform is
    still drawn, so the stream stays aligned and only the arithmetic differs. Psi is then biased (E Psi(x) is
    proportional to x/||x||, not x)."""
    x = np.atleast_2d(np.asarray(x, dtype=float))
    n, d = x.shape
    nrm = np.linalg.norm(x, axis=1)
    rng.random(n)  # the sign's uniform, unused
    u = x / np.where(nrm > 0, nrm, 1.0)[:, None]
    v = rng.standard_normal((n, d))
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    want = np.where(rng.random(n) < 1.0 / (1.0 + math.exp(-eps)), 1.0, -1.0)
    side = np.sign(np.einsum("nd,nd->n", v, u))
    side[side == 0] = 1.0
    return ldp.l2_ball_radius(eps, d, R) * v * np.where(nrm > 0, side * want, 1.0)[:, None]


def test_mutants_break_the_equality(monkeypatch):
    env = make_glm_env("ldp-single")
    assert _agrees(LDPOLS(eps=1.0), env) and _agrees(LDPSGD(eps=1.0), env)  # the unmutated pair agrees
    assert not _agrees(_OLSNoiseX2(eps=1.0), env)
    assert not _agrees(_OLSAsymmetricW(eps=1.0), env)
    original = ldp.l2_ball_mechanism
    monkeypatch.setattr(ldp, "l2_ball_mechanism", lambda x, eps, R, rng: 2.0 * original(x, eps, R, rng))
    assert not _agrees(LDPSGD(eps=1.0), env)  # Psi's output doubled in the fast path
    monkeypatch.setattr(ldp, "l2_ball_mechanism", _ball_without_sign_step)
    assert not _agrees(LDPSGD(eps=1.0), env)


def test_reference_lane_validation():
    env = make_glm_env("ldp-single")
    with pytest.raises(InputError):
        LDPOLS().reference(env, 10, np.random.default_rng(0), [10], lane=3, lanes=3)


# -- item: single-parameter algorithms on multi-parameter instances (issue 7 §4) ------------------------------
runner = CliRunner()


@pytest.mark.parametrize("algo", ["LDP-SGD", "LDP-OLS"])
@pytest.mark.parametrize("env_name", ["ldp-multi", "ldp-multi-sub"])
def test_cli_single_parameter_algorithm_on_multi_instance_one_line_error(algo, env_name):
    from boundcalc.cli.app import app

    r = runner.invoke(app, ["simulate", "--algo", algo, "--env", env_name, "--ldp-epsilon", "1", "--ldp-delta",
                            "0.01", "--T", "50", "--runs", "2"])
    assert r.exit_code == 2, r.output
    err = r.stderr.strip()
    assert len(err.splitlines()) == 1 and err.startswith("boundcalc: error: --env must be")
    assert "ldp-single" in err and "ldp-logistic" in err and f"{algo} (multi-parameter)" in err
    assert "Traceback" not in r.output


def test_cli_multi_parameter_sgd_runs_on_multi_instance_as_the_library():
    import json

    from boundcalc.algorithms.glm import LDPSGDMulti
    from boundcalc.cli.app import app
    from boundcalc.montecarlo import log_checkpoints, run

    r = runner.invoke(app, ["simulate", "--algo", "LDP-SGD (multi-parameter)", "--env", "ldp-multi", "--ldp-epsilon",
                            "2", "--param", "s0=5", "--T", "60", "--runs", "3", "--seed", "4", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    res = run(LDPSGDMulti(2.0, s0=5), make_glm_env("ldp-multi", seed=3), 60, 3, seed=4,
              checkpoints=log_checkpoints(60, 12), block_runs=50)
    assert d["regret_mean"] == pytest.approx(float(res.mean()[-1]), rel=1e-12)


def test_library_error_names_the_instances():
    env = make_glm_env("ldp-multi")
    for alg in (LDPSGD(), LDPOLS()):
        with pytest.raises(InputError, match="ldp-single, ldp-logistic"):
            alg.simulate(env, 10, 2, np.random.default_rng(0), [10])
        with pytest.raises(InputError):
            alg.reference(env, 10, np.random.default_rng(0), [10])
    assert math.isfinite(LDPSGD().simulate(make_glm_env("ldp-single"), 10, 2, np.random.default_rng(0), [10]).regret.sum())
