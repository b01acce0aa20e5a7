"""Seed 002 Figure 5.1, multi-parameter column with all four methods (worksheet 002, experiment ``multi``).

* The stacked single-parameter view of a multi-parameter instance (boundcalc.envs.glm.StackedMultiGLMEnv) gives every
  arm the score X_t^T theta*_i (checked against the K x d parameter matrix directly), draws the same contexts from the
  same stream, and is refused for a single-parameter instance; a mutant embedding (the blocks shifted by one arm) is
  caught by the same check.
* The worksheet's multi-parameter column runs LDP-OLS, LDP-SGD (Algorithm 2) and the baselines LDP-UCB, LDP-GLOC; the
  reported number of LDP-UCB equals montecarlo.run with the recorded seed on the stacked instance at the authors'
  multi-parameter δ = 0.1 (mutants: δ = 0.01 of the single-parameter column, another seed), and the paper's claim is
  judged for the column.
"""

from __future__ import annotations

import numpy as np
import pytest

from boundcalc.envs.glm import MultiGLMEnv, StackedMultiGLMEnv, make_glm_env
from boundcalc.errors import InputError


def test_stacked_scores_are_the_multi_parameter_scores():
    rng = np.random.default_rng(0)
    thetas = rng.standard_normal((4, 3))
    m = MultiGLMEnv(thetas)
    s = StackedMultiGLMEnv(m)
    assert (s.K, s.d) == (4, 12) and not getattr(s, "multi", False)
    X = s.contexts(np.random.default_rng(7), (5,))  # (5, K, Kd)
    Xm = m.contexts(np.random.default_rng(7), (5,))  # (5, d): the same draws
    want = Xm @ thetas.T  # (5, K): X_t^T theta*_i
    assert np.allclose(X @ s.theta, want, rtol=0, atol=1e-14)
    assert np.allclose(np.linalg.norm(X, axis=-1), 1.0)  # ||e_i ⊗ X|| = ||X|| = 1: C_B unchanged
    # mutant: block i holding arm i+1's context slot gives other scores
    bad = np.roll(X, 3, axis=-1)
    assert not np.allclose(bad @ s.theta, want)
    with pytest.raises(InputError):
        StackedMultiGLMEnv(make_glm_env("ldp-single"))


def test_baselines_accept_the_stacked_view_only():
    from boundcalc.algorithms.glm import LDPUCB

    m = make_glm_env("ldp-multi")
    res = LDPUCB(1.0, 0.1).simulate(StackedMultiGLMEnv(m), 50, 2, np.random.default_rng(0), np.array([50.0]))
    assert res.regret.shape == (2, 1) and np.all(np.isfinite(res.regret))
    with pytest.raises(InputError):
        LDPUCB(1.0, 0.1).simulate(m, 50, 2, np.random.default_rng(0), np.array([50.0]))


@pytest.fixture(scope="module")
def multi_run(tmp_path_factory):
    from boundcalc import experiments
    from boundcalc.experiments.base import Runner

    ws = experiments.get("002")
    exp = [e for e in ws.experiments if e.id == "multi"][0]
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(exp.scales, "fast", {"T": 400, "runs": 3})  # the suite's time: the column's shape, not its scale
        r = Runner(ws, mode="fast", out=str(tmp_path_factory.mktemp("ws002multi")))
        return r.run_experiment("multi")


def test_multi_column_runs_all_four_methods(multi_run):
    labels = {s.label for s in multi_run.simulations}
    for eps in ("1", "5"):
        for a in ("LDP-OLS (multi-parameter)", "LDP-SGD (multi-parameter)", "LDP-UCB", "LDP-GLOC"):
            assert f"multi/eps={eps}/{a}" in labels
    table = multi_run.tables[0]
    assert table.columns == ["ε", "LDP-OLS (multi-parameter)", "LDP-SGD (multi-parameter)", "LDP-UCB", "LDP-GLOC"]
    assert len(multi_run.figure_claims) == 1 and "multi-parameter" in multi_run.figure_claims[0].source
    assert any("stacked" in n for n in multi_run.notes)


@pytest.mark.parametrize("delta, seed_shift, equal", [(0.1, 0, True), (0.01, 0, False), (0.1, 1, False)],
                         ids=["same-setup", "mutant-delta", "mutant-seed"])
def test_multi_baseline_number_equals_a_direct_library_call(multi_run, delta, seed_shift, equal):
    from boundcalc import montecarlo
    from boundcalc.algorithms.glm import LDPUCB
    from boundcalc.figures import MIN_PLOT_CHECKPOINTS

    sim = [s for s in multi_run.simulations if s.label == "multi/eps=1/LDP-UCB"][0]
    env = StackedMultiGLMEnv(make_glm_env("ldp-multi"))
    cps = montecarlo.log_checkpoints(sim.T, n=MIN_PLOT_CHECKPOINTS, start=10)
    res = montecarlo.run(LDPUCB(1.0, delta), env, sim.T, sim.runs, seed=sim.seed + seed_shift, checkpoints=cps)
    assert (float(res.mean()[-1]) == sim.final_mean) is equal
