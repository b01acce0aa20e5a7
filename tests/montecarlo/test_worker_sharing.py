"""Two worker processes on the linear search (issue 24 item 9): the workers of one LocalProcesses pool hand each other
the G-optimal designs they compute (boundcalc.algorithms.process_cache), the engine sends one task per worker per
call, and none of it changes a number: the measured search's answer and every decision are bit-identical in-process
and on two workers (the seeding contract). Mutants: a group of blocks seeded differently in the workers; a pool that
does not pass the designs on."""

from __future__ import annotations

import time

import numpy as np
import pytest

from boundcalc.algorithms import process_cache
from boundcalc.algorithms.linear import gope
from boundcalc.budget import measured as M
from boundcalc.envs.linear import LinearEnv
from boundcalc.montecarlo import engine, executors
from mutation import mutate

pytestmark = pytest.mark.xdist_group("worker_sharing")


def _env(seed: int, K: int = 8, d: int = 3) -> LinearEnv:
    """Random unit actions: designs no other test has put into this process's cache."""
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((K, d))
    A /= np.linalg.norm(A, axis=1, keepdims=True)
    return LinearEnv(A, A[0] * 0.6, sigma=1.0, noise="gaussian")


def _search(env, executor=None):
    return M.search("AdaC-GOPE", env, 3000, "overhead", 0.5, runs=16, max_runs=32, seed=3, block_runs=2,
                    executor=executor)


def _decisions(ans):
    return [(e["budget"], e["runs"], e["estimate"], tuple(e["ci"]), e["status"]) for e in ans.evaluations]


# -- the answer does not depend on where the blocks ran --------------------------------------------------------------
def test_linear_search_is_the_same_in_process_and_on_two_workers():
    env = _env(102)
    ref = _search(env)
    with executors.LocalProcesses(2) as ex:
        far = _search(env, ex)
    assert far.budget == ref.budget and far.interval == ref.interval and far.status == ref.status
    assert _decisions(far) == _decisions(ref) and len(_decisions(ref)) >= 3


def test_a_group_seeded_differently_in_the_workers_is_caught(monkeypatch):
    """Mutant: the workers' group of blocks takes its seed children shifted by one (block i draws from child i+1) —
    in-process nothing changes (one task per block), on two workers the decisions do."""
    bad = mutate(engine.run_blocks, "zip(sizes, seed_seqs)", "zip(sizes, list(seed_seqs[1:]) + list(seed_seqs[:1]))")
    env = _env(102)
    ref = _search(env)
    monkeypatch.setattr(engine, "run_blocks", bad)
    with executors.LocalProcesses(2) as ex:  # forked after the patch: the workers run the mutant
        far = _search(env, ex)
    assert _decisions(far) != _decisions(ref)


# -- one task per worker per engine call -------------------------------------------------------------------------------
@pytest.mark.parametrize("blocks, workers, sizes", [(20, 2, [10, 10]), (3, 2, [2, 1]), (1, 2, [1]), (8, 1, [8]),
                                                    (40, 2, [10, 10, 10, 10]), (33, 2, [9, 9, 9, 6])])
def test_blocks_go_in_one_group_per_worker_of_at_most_16(blocks, workers, sizes):
    groups = engine._chunks(list(range(blocks)), workers)
    assert [len(g) for g in groups] == sizes
    assert [i for g in groups for i in g] == list(range(blocks))  # consecutive, each block once


# -- the designs one worker computed reach the other ---------------------------------------------------------------------
def _keys_here(actions: bytes, d: int, meeting: str):
    """In a worker: the designs this process holds for subsets of ``actions`` (after the task's installs). Both probes
    wait until the other has started (a file each in ``meeting``), so they run on the two workers."""
    import os

    open(os.path.join(meeting, str(os.getpid())), "w").close()
    t0 = time.monotonic()
    while len(os.listdir(meeting)) < 2 and time.monotonic() - t0 < 10:
        time.sleep(0.01)
    return os.getpid(), _designs_of(actions, d)


def _designs_of(actions: bytes, d: int) -> list[bytes]:
    rows = {actions[i:i + 8 * d] for i in range(0, len(actions), 8 * d)}
    return sorted(k[1] for k in gope._DESIGNS
                  if k[0][1:] == (d,) and all(k[1][i:i + 8 * d] in rows for i in range(0, len(k[1]), 8 * d)))


def _designs_per_worker(env, ex, meeting):
    from boundcalc.algorithms import build
    from boundcalc.privacy import ZCDP

    alg = build("AdaC-GOPE", ZCDP(0.3))
    engine.run(alg, env, 20_000, 24, seed=1, block_runs=2, executor=ex)  # both workers compute designs
    acts = np.ascontiguousarray(env.actions, dtype=float).tobytes()
    probes = dict(out for _, out in ex.imap_unordered(_keys_here, [(acts, env.d, str(meeting))] * 2))
    return probes, _designs_of(acts, env.d)


def test_designs_one_worker_computed_reach_the_other_and_the_parent(tmp_path):
    env = _env(103, K=30, d=4)
    with executors.LocalProcesses(2) as ex:
        probes, mine = _designs_per_worker(env, ex, tmp_path)
    assert len(probes) == 2, "the two probes ran on one worker"
    a, b = probes.values()
    assert a == b == mine and len(mine) >= 2


def test_a_pool_that_does_not_pass_designs_on_is_caught(monkeypatch, tmp_path):
    """Mutant: the tasks carry no designs (each worker keeps its own): the workers' sets then differ (each computed
    designs for its own blocks' surviving sets) — the check above would fail."""
    monkeypatch.setattr(executors._SharedLog, "payload", lambda self: ([], self.end))
    env = _env(104, K=30, d=4)
    with executors.LocalProcesses(2) as ex:
        probes, mine = _designs_per_worker(env, ex, tmp_path)
    assert len(probes) == 2, "the two probes ran on one worker"
    a, b = probes.values()
    assert not (a == b == mine)


def test_process_cache_records_its_own_entries_and_keeps_what_it_has():
    c = process_cache.ProcessCache("test.cache", prepare=lambda v: v * 10, limit=3)
    try:
        c["a"] = 1
        assert c.install("a", 2) is False and c["a"] == 1  # an entry it has stays as it is
        assert c.install("b", 2) is True and c["b"] == 20  # prepared on install, not recorded as its own
        assert c.drain() == [("a", 1)] and c.drain() == []
        c.install("c", 3)
        c.install("d", 4)  # full: the oldest ("a") goes
        assert list(c) == ["b", "c", "d"]
        assert process_cache.install_all([("test.cache", "e", 5), ("no.such.cache", "x", 1)]) == [
            ("test.cache", "e", 5)]
    finally:
        process_cache.CACHES.pop("test.cache", None)


# -- the warm start: one worker computes what every block needs, ahead of the blocks --------------------------------
def _holds(key, meeting: str):
    """In a worker: whether this process holds the design ``key`` (after the task's installs); waits for the other
    probe as ``_keys_here`` does, so that the two probes run on the two workers."""
    import os

    open(os.path.join(meeting, str(os.getpid())), "w").close()
    t0 = time.monotonic()
    while len(os.listdir(meeting)) < 2 and time.monotonic() - t0 < 10:
        time.sleep(0.01)
    return os.getpid(), key in gope._DESIGNS


def _warmed(env, ex, meeting):
    from boundcalc.algorithms import build
    from boundcalc.privacy import ZCDP

    key = gope.design_key(np.ascontiguousarray(env.actions, dtype=float), 1e-6)
    assert key not in gope._DESIGNS  # a fresh instance: nobody computed it yet
    assert engine.warm([(build("AdaC-GOPE", ZCDP(0.3)), env)], ex) is True
    probes = dict(out for _, out in ex.imap_unordered(_holds, [(key, str(meeting))] * 2))
    return probes, key in gope._DESIGNS


def test_the_warm_design_reaches_both_workers_and_the_parent(tmp_path):
    """``engine.warm``: the full action set's design, computed by one worker before any block, is held by both
    workers when the next map's tasks run (the other received it with its task) and by the parent."""
    env = _env(105, K=30, d=4)
    with executors.LocalProcesses(2) as ex:
        probes, parent = _warmed(env, ex, tmp_path)
        assert len(ex.warm_cpu) == 2 and not ex._warming  # the design task and the other worker's imports
    assert len(probes) == 2, "the two probes ran on one worker"
    assert all(probes.values()) and parent


def test_a_warm_start_that_computes_nothing_is_caught(monkeypatch, tmp_path):
    """Mutant: the warm task computes nothing (``warm_jobs`` skips the algorithm's ``warm``): no worker holds the
    design before its blocks — the check above would fail."""
    monkeypatch.setattr(engine, "warm_jobs", mutate(engine.warm_jobs, "w(env)", "None"))
    env = _env(106, K=30, d=4)
    with executors.LocalProcesses(2) as ex:
        probes, parent = _warmed(env, ex, tmp_path)
    assert len(probes) == 2, "the two probes ran on one worker"
    assert not any(probes.values()) and not parent


def test_warm_is_nothing_in_process_and_for_algorithms_without_shared_values():
    from boundcalc.algorithms import build
    from boundcalc.envs.base import BernoulliEnv
    from boundcalc.privacy import PureDP, ZCDP

    env = _env(107)
    alg = build("AdaC-GOPE", ZCDP(0.3))
    assert engine.warm([(alg, env)], executors.InProcess()) is False and engine.warm([(alg, env)], None) is False
    assert gope.design_key(np.ascontiguousarray(env.actions, dtype=float), 1e-6) not in gope._DESIGNS
    finite = build("DP-IMED", PureDP(1.0))
    with executors.LocalProcesses(2) as ex:
        assert engine.warm([(finite, BernoulliEnv([0.5, 0.4]))], ex) is False and ex._pool is None


# -- live sharing: two workers needing the same values at once split them ----------------------------------------
_LIVE = process_cache.ProcessCache("test.live")  # created before the pools fork: every worker has it


def _slow_square(x):
    time.sleep(0.05)
    return x * x


def _obtain_probe(keys, meeting: str):
    """In a worker: obtain ``keys`` (value: the key squared, 50 ms each) once both probes have started; the keys
    this worker computed itself (``fresh``) and the values it ends with."""
    import os

    open(os.path.join(meeting, str(os.getpid())), "w").close()
    t0 = time.monotonic()
    while len(os.listdir(meeting)) < 2 and time.monotonic() - t0 < 10:
        time.sleep(0.01)
    _LIVE.clear()
    _LIVE.fresh.clear()
    _LIVE.obtain([(k, k) for k in keys], _slow_square)
    computed = list(_LIVE.fresh)
    return os.getpid(), (computed, {k: _LIVE[k] for k in keys})


def _split(tmp_path):
    keys = list(range(12))
    with executors.LocalProcesses(2) as ex:
        out = dict(o for _, o in ex.imap_unordered(_obtain_probe, [(keys, str(tmp_path))] * 2))
    assert len(out) == 2, "the two probes ran on one worker"
    assert all(vals == {k: k * k for k in keys} for _, vals in out.values())  # every value, whoever computed it
    return keys, [set(c) for c, _ in out.values()]


def test_two_workers_needing_the_same_keys_at_once_compute_each_once(tmp_path):
    keys, (a, b) = _split(tmp_path)
    assert not (a & b) and a | b == set(keys) and a and b  # split between them, none computed twice


def test_workers_that_do_not_claim_keys_are_caught(monkeypatch, tmp_path):
    """Mutant: every claim succeeds (no ``.claim`` file is consulted): both workers compute every key."""
    monkeypatch.setattr(process_cache.ProcessCache, "_claim", lambda self, key: True)
    keys, (a, b) = _split(tmp_path)
    assert a == b == set(keys)


def test_a_key_claimed_by_a_process_that_never_publishes_is_computed_after_the_wait(monkeypatch, tmp_path):
    monkeypatch.setattr(process_cache, "SHARED_DIR", str(tmp_path))
    monkeypatch.setattr(process_cache, "WAIT_SECONDS", 0.2)
    c = process_cache.ProcessCache("test.orphan")
    try:
        assert c._claim("k") is True and c._claim("k") is False  # a claim is exclusive
        t0 = time.monotonic()
        c.obtain([("k", 3)], lambda x: x + 1)  # claimed above, never published: waited for, then computed here
        assert c["k"] == 4 and time.monotonic() - t0 >= 0.2 and list(c.fresh) == ["k"]
        d = process_cache.ProcessCache("test.orphan")  # another process's view: loads the published entry
        d.obtain([("k", 3)], lambda x: pytest.fail("computed again"))
        assert d["k"] == 4 and not d.fresh
    finally:
        process_cache.CACHES.pop("test.orphan", None)


def test_without_a_shared_directory_obtain_computes_the_missing_keys_in_order():
    assert process_cache.SHARED_DIR is None
    c = process_cache.ProcessCache("test.local", limit=2)
    try:
        seen = []
        c["a"] = 0
        c.obtain([("a", 1), ("b", 2), ("c", 3)], lambda x: seen.append(x) or x)
        assert seen == [2, 3] and list(c) == ["b", "c"]  # full: the oldest went
    finally:
        process_cache.CACHES.pop("test.local", None)
