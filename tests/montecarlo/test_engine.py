"""Monte Carlo engine: seeding contract, checkpoints, regret identity, intervals, persistence."""

import math

import numpy as np
import pytest

from boundcalc import montecarlo as mc
from boundcalc.algorithms.finite import AdaCUCB, DPIMED, UCB
from boundcalc.algorithms.finite._common import Runs
from boundcalc.envs import BernoulliEnv, make_env
from boundcalc.errors import InputError

ENV = make_env("mu2")


def _same(a, b):
    np.testing.assert_array_equal(a.regret, b.regret)
    np.testing.assert_array_equal(a.pulls, b.pulls)
    np.testing.assert_array_equal(a.episodes, b.episodes)


def test_same_seed_same_numbers_whatever_processes_and_order():
    alg = DPIMED(epsilon=0.5)
    r1 = mc.run(alg, ENV, 5000, 23, seed=7, block_runs=5)
    r2 = mc.run(alg, ENV, 5000, 23, seed=7, block_runs=5, processes=2)
    r3 = mc.run(alg, ENV, 5000, 23, seed=7, block_runs=5, block_order=[4, 2, 0, 3, 1])
    _same(r1, r2)
    _same(r1, r3)
    assert r1.runs == 23


def test_blocks_are_the_spawned_streams():
    # block i must equal a direct simulate() with default_rng(SeedSequence(seed).spawn(n)[i])
    alg = DPIMED(epsilon=1.0)
    res = mc.run(alg, ENV, 3000, 10, seed=3, block_runs=4)
    cps = res.checkpoints
    ss = np.random.SeedSequence(3).spawn(3)
    direct = [alg.simulate(ENV, 3000, n, np.random.default_rng(s), cps) for n, s in zip([4, 4, 2], ss)]
    np.testing.assert_array_equal(res.regret, np.concatenate([d.regret for d in direct]))


def test_different_seeds_differ():
    alg = DPIMED(epsilon=0.5)
    a = mc.run(alg, ENV, 3000, 10, seed=1)
    b = mc.run(alg, ENV, 3000, 10, seed=2)
    assert not np.array_equal(a.regret, b.regret)


@pytest.mark.parametrize("alg", [DPIMED(epsilon=0.3), AdaCUCB(rho=0.1), UCB()])
def test_pulls_sum_to_T_and_pseudo_regret_identity(alg):
    T = 1500
    res = mc.run(alg, ENV, T, 12, seed=5)
    assert res.checkpoints[-1] == T
    assert (res.pulls.sum(axis=1) == T).all()
    gaps = np.array([0.0, 0.125, 0.25, 0.375, 0.5])  # typed from the instance, not from env.gaps
    np.testing.assert_allclose(res.regret[:, -1], res.pulls @ gaps, rtol=1e-12)
    assert (np.diff(res.regret, axis=1) >= -1e-9).all()  # nondecreasing
    # regret at t is at most t * max gap and at least 0
    assert (res.regret <= res.checkpoints * 0.5 + 1e-9).all() and (res.regret >= 0).all()


def test_interpolation_exact_on_deterministic_instance():
    # means 1 and 0: rewards are deterministic; non-private AdaC-UCB (rho = inf) is then deterministic,
    # so the episode-level simulation must equal the step-by-step reference at every round (with
    # lowest-index ties: random tie-breaking, the default, would make the two arms with mean 0 a coin toss).
    env = BernoulliEnv([0.0, 1.0, 0.0])
    alg = AdaCUCB(rho=math.inf, beta=3.5, ties="lowest")
    T = 400
    cps = np.arange(1, T + 1)
    sim = alg.simulate(env, T, 3, np.random.default_rng(0), cps)
    ref = alg.reference(env, T, np.random.default_rng(1), cps)
    for r in range(3):
        np.testing.assert_allclose(sim.regret[r], ref.regret[0])
    np.testing.assert_array_equal(sim.pulls[0], ref.pulls[0])


def test_runs_recorder_matches_base_interpolate():
    from boundcalc.algorithms.base import interpolate_regret

    env = BernoulliEnv([0.9, 0.5, 0.1])
    rng = np.random.default_rng(0)
    cps = np.array([1, 3, 7, 10, 25, 50, 99, 100])
    st = Runs(env, 100, 4, cps)
    arms = rng.integers(0, 3, size=(40, 4))
    lens = rng.integers(1, 9, size=(40, 4))
    t_ends, r_ends = [], []
    for e in range(40):
        st.play(arms[e], lens[e], rng)
        t_ends.append(st.t.copy())
        r_ends.append(st.R.copy())
    expected = interpolate_regret(np.array(t_ends).T.astype(float), np.array(r_ends).T, cps.astype(float))
    np.testing.assert_allclose(st.reg, expected)


def test_checkpoints_log_spaced_and_validated():
    c = mc.log_checkpoints(10**9, n=30)
    assert c[-1] == 10**9 and c[0] >= 1 and (np.diff(c) > 0).all()
    assert len(c) <= 31
    with pytest.raises(InputError):
        mc.run(UCB(), ENV, 100, 2, checkpoints=[0, 50])
    with pytest.raises(InputError):
        mc.run(UCB(), ENV, 100, 0)
    with pytest.raises(InputError):
        mc.run(UCB(), ENV, "1e2", 2, block_order=[1])


def test_counts_accept_scientific_notation():
    res = mc.run(DPIMED(epsilon=1.0), ENV, "2e3", "1e1", seed=0)
    assert res.T == 2000 and res.runs == 10


def test_intervals_against_manual_formulas():
    from scipy import stats

    res = mc.run(DPIMED(epsilon=0.5), ENV, 2000, 40, seed=11)
    x = res.regret[:, -1]
    m, s = x.mean(), x.std(ddof=1)
    lo, hi = res.ci()
    assert lo[-1] == pytest.approx(m - 1.96 * s / math.sqrt(40), rel=1e-3)
    assert hi[-1] == pytest.approx(m + 1.96 * s / math.sqrt(40), rel=1e-3)
    tl, th = res.ci(method="t")
    ref = stats.t.interval(0.95, 39, loc=m, scale=s / math.sqrt(40))
    assert (tl[-1], th[-1]) == pytest.approx(ref)


def test_save_and_load_roundtrip(tmp_path):
    res = mc.run(DPIMED(epsilon=0.5), ENV, 1000, 6, seed=1)
    for ext in ("npz", "json"):
        p = str(tmp_path / f"r.{ext}")
        res.save(p)
        back = mc.Results.load(p)
        np.testing.assert_allclose(back.regret, res.regret)
        np.testing.assert_array_equal(back.pulls, res.pulls)
        np.testing.assert_array_equal(back.checkpoints, res.checkpoints)
    with pytest.raises(InputError):
        res.save(str(tmp_path / "r.txt"))


def test_memory_does_not_grow_with_T():
    # the result holds runs x checkpoints, not runs x T
    res = mc.run(DPIMED(epsilon=1.0), ENV, 10**9, 4, seed=0, checkpoints=mc.log_checkpoints(10**9, 20))
    assert res.regret.shape == (4, len(res.checkpoints)) and res.regret.shape[1] <= 21
    assert (res.pulls.sum(axis=1) == 10**9).all()
