"""Neighbouring runs with shared noise (boundcalc.montecarlo.neighbours, boundcalc.envs.tape): seed 004 Fig. 2(b).

Independent computation: the changed-arm counts of ``neighbouring_runs`` (vectorised ``simulate``, the chosen arm read
from the mean the run asks a reward for) against two plain ``reference`` runs per lane (the step-by-step code path of
tests/algorithms/test_linucb_reference.py) on a tape changed by an environment written here, the arms compared through the
per-step regret increments. The tree noise and the rounds before the change are checked draw for draw.
Mutants (each must be rejected by the check it tests): the changed run on another seed (noise not shared), the
change applied one round late, and a comparison that counts rounds by regret instead of by arm.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from boundcalc.algorithms.contextual import LinUCB, LinUCBDGS, PrivateLinUCB
from boundcalc.envs.contextual import ContextualLinearEnv
from boundcalc.envs.tape import ChangedRewardEnv
from boundcalc.errors import InputError
from boundcalc.montecarlo import neighbours
from boundcalc.montecarlo.neighbours import neighbouring_runs

T, RUNS, SEED = 120, 3, 5


def _env():
    rng = np.random.default_rng(11)
    d = 3
    th = rng.standard_normal(d)
    return ContextualLinearEnv(th / np.linalg.norm(th), 5, contexts="gaussian", mean=np.full(d, 1 / math.sqrt(d)),
                               scale=math.sqrt(0.1), sigma=0.5, name="gaussian-d3")


ALGS = {
    "LinUCB": lambda: LinUCB(alpha=1.0),
    "LinUCB-DGS": lambda: LinUCBDGS(eps=8.0, delta=0.1, alpha=1.0, lambda0=5.0),
    "Private-LinUCB": lambda: PrivateLinUCB(eps=20.0, alpha=1.0),
}


class _Shifted:
    """The test's own changed tape: the reward of the (k+1)-th rewards call raised by ``shift`` (k = None: none)."""

    def __init__(self, env, k, shift):
        self.env, self.k, self.shift, self.calls = env, k, shift, 0

    def __getattr__(self, name):
        return getattr(self.env, name)

    def contexts(self, rng, size):
        return self.env.contexts(rng, size)

    def rewards(self, means, rng):
        r = self.env.rewards(means, rng)
        if self.calls == self.k:
            r = r + self.shift
        self.calls += 1
        return r


def _reference_counts(alg, env, step, shift, seed=SEED):
    """Per lane: rounds whose arm differs between two reference runs (original and changed tape, one seed)."""
    cps = np.arange(0, T + 1)
    out = []
    for lane in range(RUNS):
        incs = []
        for k in (None, step):
            res = alg.reference(_Shifted(env, k, shift), T, np.random.default_rng(np.random.SeedSequence(seed)), cps,
                                lane=lane, lanes=RUNS)
            incs.append(np.diff(res.regret[0]))
        out.append(int(np.sum(np.abs(incs[0] - incs[1]) > 1e-9)))
    return np.array(out)


@pytest.mark.parametrize("name", list(ALGS))
def test_counts_equal_two_reference_runs_per_lane(name):
    alg, env = ALGS[name](), _env()
    res = neighbouring_runs(alg, env, T, RUNS, steps=(0, 40), shift=0.5, seed=SEED)
    for s in (0, 40):
        ref = _reference_counts(ALGS[name](), env, s, 0.5)
        assert np.array_equal(res.changed[s], ref), (name, s, res.changed[s], ref)
        # nothing before the changed round can differ; the first difference comes after it
        fc = res.first_change[s]
        assert np.all((fc == -1) | (fc > s))
    if name == "LinUCB":  # the noise-free method must react to the change at round 0 (the test has power)
        assert res.changed[0].sum() > 0


def test_shared_draws_tree_noise_and_prefix():
    env, alg = _env(), LinUCBDGS(eps=8.0, delta=0.1, alpha=1.0, lambda0=5.0)
    cps = np.arange(1, T + 1)
    out = []
    for step in (None, 30):
        tape = ChangedRewardEnv(env, step, 0.5)
        r = alg.simulate(tape, T, RUNS, np.random.default_rng(np.random.SeedSequence(SEED)), cps)
        out.append((r.extra["tree_noise"], tape.chosen_means(), r))
    assert np.array_equal(out[0][0], out[1][0])  # privacy noise shared draw for draw
    assert np.array_equal(out[0][1][:, :31], out[1][1][:, :31])  # rounds 0..30: same decision sets, same arms


def test_mutants_are_rejected(monkeypatch):
    env = _env()
    alg = LinUCBDGS(eps=8.0, delta=0.1, alpha=1.0, lambda0=5.0)
    ref = _reference_counts(alg, env, 0, 0.5)
    good = neighbouring_runs(alg, env, T, RUNS, steps=(0,), seed=SEED).changed[0]
    assert np.array_equal(good, ref)

    # mutant 1: the changed run on another seed (noise not shared): far more rounds differ
    orig_one = neighbours._one

    def unshared(alg, env, T, runs, seed, step, shift, *rest):
        return orig_one(alg, env, T, runs, seed + (step is not None), step, shift, *rest)

    monkeypatch.setattr(neighbours, "_one", unshared)
    bad = neighbouring_runs(alg, env, T, RUNS, steps=(0,), seed=SEED).changed[0]
    assert not np.array_equal(bad, ref) and bad.sum() > 3 * max(1, ref.sum())
    monkeypatch.setattr(neighbours, "_one", orig_one)

    # mutant 2: the change applied one round late
    lin = LinUCB(alpha=1.0)
    ref_lin = _reference_counts(lin, env, 0, 0.5)
    orig_rewards = ChangedRewardEnv.rewards

    def late(self, means, rng):
        r = self.env.rewards(means, rng)
        self._means.append(np.array(means, dtype=float).reshape(-1))
        if self.step is not None and self._t == self.step + 1:
            r = r + self.shift
        self._t += 1
        return r

    monkeypatch.setattr(ChangedRewardEnv, "rewards", late)
    assert not np.array_equal(neighbouring_runs(lin, env, T, RUNS, steps=(0,), seed=SEED).changed[0], ref_lin)
    monkeypatch.setattr(ChangedRewardEnv, "rewards", orig_rewards)
    assert np.array_equal(neighbouring_runs(lin, env, T, RUNS, steps=(0,), seed=SEED).changed[0], ref_lin)

    # mutant 3: rounds compared by a broken tolerance (every round counted as a change)
    monkeypatch.setattr(neighbours, "MEAN_TOL", -1.0)
    assert not np.array_equal(neighbouring_runs(lin, env, T, RUNS, steps=(0,), seed=SEED).changed[0], ref_lin)


def test_bad_input():
    env, alg = _env(), LinUCB(alpha=1.0)
    for kw in ({"steps": (T,)}, {"steps": (-1,)}, {"steps": (1.5,)}, {"steps": ()}, {"T": 0}, {"runs": 0}):
        args = {"T": T, "runs": RUNS, **kw}
        with pytest.raises(InputError):
            neighbouring_runs(alg, env, **args)
    from boundcalc.envs import BernoulliEnv

    with pytest.raises(InputError):
        neighbouring_runs(alg, BernoulliEnv([0.5, 0.4]), T, RUNS)
    with pytest.raises(InputError):
        ChangedRewardEnv(env, 0, math.inf)
    with pytest.raises(InputError):
        ChangedRewardEnv(env, -2, 0.5)
    with pytest.raises(InputError):
        ChangedRewardEnv(BernoulliEnv([0.5, 0.4]), 0, 0.5)


def test_summary_statistics_by_hand():
    env = _env()
    res = neighbouring_runs(LinUCB(alpha=1.0), env, 60, 4, steps=(0, 10), seed=1)
    for row in res.summary():
        c = res.changed[row["step"]]
        m = sum(c) / len(c)
        assert row["mean"] == pytest.approx(m)
        assert row["sd"] == pytest.approx(math.sqrt(sum((x - m) ** 2 for x in c) / (len(c) - 1)))
        assert (row["min"], row["max"]) == (min(c), max(c))
