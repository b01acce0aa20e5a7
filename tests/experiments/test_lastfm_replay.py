"""Seed 004 Fig. 2(c): the flipped-reward replay on LastFM (boundcalc.montecarlo.neighbours with change="flip",
compare="index"; boundcalc.envs.tape.ChangedRewardEnv; worksheet 004 experiment ``fig2c``), on a small synthetic file
of the HetRec 2011 format written in tmp_path (tests/envs/test_real_data.py's writer).

Independent computation: the changed-arm counts of ``neighbouring_runs`` (vectorised ``simulate``, the production tape)
against two plain step-by-step ``reference`` runs per lane (tests/montecarlo/test_neighbours.py style) on a tape written here,
which computes each reward from the pool's payoffs and the arm index the reference reports, flips it at its own round,
and compares the two runs' arm indices. Mutants (each rejected): the flip applied one round late, the change applied as
a +0.5 shift, rounds compared by the chosen arm's mean (on LastFM 24 of the 25 arms of a pool share mean 0, so equal
means are not the same arm), and LastFM pools drawn as one block (the block then differs from single-round draws).
"""

from __future__ import annotations

import numpy as np
import pytest

from boundcalc.algorithms.base import BlockResult
from boundcalc.algorithms.contextual import LinUCB, LinUCBDGS, PrivateLinUCB
from boundcalc.data import lastfm
from boundcalc.envs.tape import ChangedRewardEnv
from boundcalc.errors import InputError
from boundcalc.montecarlo.neighbours import neighbouring_runs
from test_real_data import _run, write_lastfm

T, RUNS, SEED = 50, 3, 4


@pytest.fixture(scope="module")
def lfm(tmp_path_factory):
    d = str(tmp_path_factory.mktemp("lastfm-flip") / "hetrec2011-lastfm-2k")
    write_lastfm(d, n_users=12, n_artists=60, listens=6, seed=3)
    return d, lastfm.LastFMEnv(lastfm.load_lastfm(d, d=6), name="lastfm-small")


ALGS = {
    "LinUCB": lambda: LinUCB(alpha=1.0),
    "LinUCB-DGS": lambda: LinUCBDGS(eps=50.0, delta=0.1, alpha=1.0, lambda0=0.05),
    "Private-LinUCB": lambda: PrivateLinUCB(eps=50.0, alpha=1.0),
}


class _FlipByIndex:
    """The test's own tape: each reward is the payoff of the pool entry whose index the algorithm reports, flipped
    (1 − r) at the (k+1)-th reward call (k = None: never); it keeps the reported indices."""

    def __init__(self, env, k):
        self.env, self.k, self.calls, self.arms = env, k, 0, []

    def __getattr__(self, name):
        return getattr(self.env, name)

    def contexts(self, rng, size):
        X = self.env.contexts(rng, size)
        self.pay = np.asarray(X @ self.env.theta)  # the data's payoffs of the pool just drawn (0/1)
        return X

    def record_arms(self, a):
        self.a = np.asarray(a).copy()

    def rewards(self, means, rng):
        r = self.pay[np.arange(self.a.size), self.a].astype(float)
        if self.calls == self.k:
            r = 1.0 - r
        self.calls += 1
        self.arms.append(self.a)
        return r


def _reference_counts(make, env, step, seed=SEED):
    """Per lane: rounds whose arm index differs between two reference runs (original and flipped tape, one seed)."""
    out = []
    for lane in range(RUNS):
        arms = []
        for k in (None, step):
            tape = _FlipByIndex(env, k)
            make().reference(tape, T, np.random.default_rng(np.random.SeedSequence(seed)), np.array([T]),
                             lane=lane, lanes=RUNS)
            arms.append(np.array([a[lane] for a in tape.arms]))
        assert arms[0].size == T
        out.append(int(np.sum(arms[0] != arms[1])))
    return np.array(out)


@pytest.mark.parametrize("name", list(ALGS))
def test_flip_counts_equal_two_reference_runs_per_lane(lfm, name):
    _, env = lfm
    res = neighbouring_runs(ALGS[name](), env, T, RUNS, steps=(0, 20), seed=SEED, change="flip", compare="index")
    assert res.arms.shape == (RUNS, T) and res.change == "flip"
    for s in (0, 20):
        ref = _reference_counts(ALGS[name], env, s)
        assert np.array_equal(res.changed[s], ref), (name, s, res.changed[s], ref)
        fc = res.first_change[s]
        assert np.all((fc == -1) | (fc > s))  # nothing at or before the flipped round can differ
    if name == "LinUCB":  # the noise-free method reacts to the flip at round 0 (the check has power)
        assert res.changed[0].sum() > 0


def test_mutants_are_rejected(lfm, monkeypatch):
    _, env = lfm
    ref = _reference_counts(ALGS["LinUCB"], env, 0)
    kw = dict(steps=(0,), seed=SEED)
    good = neighbouring_runs(LinUCB(alpha=1.0), env, T, RUNS, change="flip", compare="index", **kw)
    assert np.array_equal(good.changed[0], ref)

    # mutant 1: rounds compared by the chosen arm's mean: two different artists of payoff 0 look the same
    by_mean = neighbouring_runs(LinUCB(alpha=1.0), env, T, RUNS, change="flip", compare="mean", **kw)
    assert not np.array_equal(by_mean.changed[0], ref)
    flipped = neighbouring_runs(LinUCB(alpha=1.0), env, T, RUNS, steps=(0,), seed=SEED, change="flip",
                                compare="index")
    assert np.array_equal(good.means, by_mean.means)
    # the case itself: a round where the two runs chose different arms with equal means exists
    tapes = []
    for step in (None, 0):
        tape = ChangedRewardEnv(env, step, change="flip")
        LinUCB(alpha=1.0).simulate(tape, T, RUNS, np.random.default_rng(np.random.SeedSequence(SEED)), np.array([T]))
        tapes.append(tape)
    diff_arm = tapes[0].chosen_arms() != tapes[1].chosen_arms()
    same_mean = tapes[0].chosen_means() == tapes[1].chosen_means()
    assert np.any(diff_arm & same_mean) and np.array_equal(diff_arm.sum(axis=1), flipped.changed[0])

    # mutant 2: the change as a shift of +0.5 instead of a flip
    shifted = neighbouring_runs(LinUCB(alpha=1.0), env, T, RUNS, change="shift", compare="index", **kw)
    assert not np.array_equal(shifted.changed[0], ref)

    # mutant 3: the flip applied one round late
    orig = ChangedRewardEnv.rewards

    def late(self, means, rng):
        r = self.env.rewards(means, rng)
        self._means.append(np.array(means, dtype=float).reshape(-1))
        if self.step is not None and self._t == self.step + 1:
            r = 1.0 - r
        self._t += 1
        return r

    monkeypatch.setattr(ChangedRewardEnv, "rewards", late)
    assert not np.array_equal(
        neighbouring_runs(LinUCB(alpha=1.0), env, T, RUNS, change="flip", compare="index", **kw).changed[0], ref)
    monkeypatch.setattr(ChangedRewardEnv, "rewards", orig)
    assert np.array_equal(
        neighbouring_runs(LinUCB(alpha=1.0), env, T, RUNS, change="flip", compare="index", **kw).changed[0], ref)


def test_pools_drawn_round_by_round(lfm, monkeypatch):
    """A block of rounds draws what as many single-round calls draw (so simulate and reference share pools)."""
    _, env = lfm
    X = env.contexts(np.random.default_rng(8), (5, RUNS))
    P = np.asarray(X @ env.theta)
    g = np.random.default_rng(8)
    for i in range(5):
        Xi = env.contexts(g, (RUNS,))
        assert np.array_equal(X[i], Xi) and np.array_equal(P[i], np.asarray(Xi @ env.theta))
    assert set(np.unique(P)) == {0.0, 1.0} and np.all(P.sum(axis=-1) == 1)
    # mutant: the whole block drawn at once (the loader's former sampler) differs from the single-round draws
    monkeypatch.setattr(lastfm.LastFMEnv, "contexts", lambda self, rng, size: self._draw(rng, tuple(size))[0])
    Xb = env.contexts(np.random.default_rng(8), (5, RUNS))
    assert not np.array_equal(Xb, X)


def test_tape_flip_and_arm_record(lfm):
    _, env = lfm
    rng = np.random.default_rng(1)
    tape = ChangedRewardEnv(env, 1, change="flip")
    assert "flipped" in tape.name and tape.describe()["reward_change"] == "flip"
    out = []
    for _ in range(3):
        X = tape.contexts(rng, (2,))
        m = np.asarray(X @ tape.theta)[:, 0]
        tape.record_arms(np.zeros(2, dtype=int))
        out.append((m, tape.rewards(m, rng)))
    for t, (m, r) in enumerate(out):
        assert np.array_equal(r, 1.0 - m if t == 1 else m)
    assert tape.chosen_arms().shape == (2, 3)
    plain = ChangedRewardEnv(env, None)
    plain.contexts(rng, (2,))
    plain.rewards(np.zeros(2), rng)
    assert plain.chosen_arms() is None  # no record_arms calls: no indices
    with pytest.raises(InputError):
        ChangedRewardEnv(env, 0, change="negate")


class _Silent:
    """A contextual algorithm that asks one reward per step but does not report its chosen arm."""

    name = "silent"

    def simulate(self, env, T, runs, rng, checkpoints):
        for _ in range(T):
            X = env.contexts(rng, (runs,))
            env.rewards(np.asarray(X @ env.theta)[:, 0], rng)
        return BlockResult(regret=np.zeros((runs, 1)), pulls=np.zeros((runs, 0)), episodes=np.full(runs, T))


def test_bad_input(lfm):
    _, env = lfm
    with pytest.raises(InputError, match="record_arms"):
        neighbouring_runs(_Silent(), env, 10, 2, steps=(0,), change="flip", compare="index")
    assert neighbouring_runs(_Silent(), env, 10, 2, steps=(0,), change="flip").changed[0].shape == (2,)
    for kw in ({"change": "negate"}, {"compare": "payoff"}):
        with pytest.raises(InputError):
            neighbouring_runs(LinUCB(alpha=1.0), env, 10, 2, steps=(0,), **kw)


# ---------------------------------------------------------------------------------------------- worksheet
def test_fig2c_without_a_file_says_so(tmp_path):
    res, _ = _run("004", "fig2c", None, tmp_path, {"T": 10, "runs": 1, "steps": [0]})
    assert not res.simulations and res.notes[0].startswith("Not run:") and "docs/real_data.md" in res.notes[0]


def test_fig2c_experiment_equals_direct_calls(lfm, tmp_path):
    d, _ = lfm
    scale = {"T": 40, "runs": 2, "steps": [0, 10, 20]}
    res, _ = _run("004", "fig2c", {"lastfm": d}, tmp_path, scale)
    assert res.figures == ["fig2c-lastfm.png"] and (tmp_path / "fig2c" / "fig2c-lastfm.png").stat().st_size
    assert [s.algorithm for s in res.simulations] == ["LinUCB", "LinUCB-DGS", "Private-LinUCB"]
    assert res.figure_claims[0].source == "seed 004 Sec. 4, Figure 2(c)"
    env = lastfm.make_env(d)  # d = 25 as the paper; written here: α = 1, (ε, δ) = (2, 0.1), λ0 of the artists
    algs = {"LinUCB": lambda: LinUCB(lam=1.0, alpha=1.0),
            "LinUCB-DGS": lambda: LinUCBDGS(2.0, 0.1, lam=1.0, alpha=1.0, lambda0=float(env.lambda0)),
            "Private-LinUCB": lambda: PrivateLinUCB(2.0, lam=1.0, alpha=1.0)}
    rows = res.tables[0].rows
    any_mean_differs = False
    for name, make in algs.items():
        mine = [r for r in rows if r[0] == name]
        seed = int(mine[0][-1])
        direct = neighbouring_runs(make(), env, 40, 2, (0, 10, 20), seed=seed, change="flip", compare="index")
        assert [(int(r[1]), float(r[2]), float(r[4]), float(r[5])) for r in mine] == [
            (x["step"], pytest.approx(x["mean"]), x["min"], x["max"]) for x in direct.summary()]
        by_mean = neighbouring_runs(make(), env, 40, 2, (0, 10, 20), seed=seed, change="flip", compare="mean")
        any_mean_differs |= any(not np.array_equal(by_mean.changed[s], direct.changed[s]) for s in (0, 10, 20))
    assert any_mean_differs  # mutant (compare by mean) would report other counts
