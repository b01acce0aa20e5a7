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
