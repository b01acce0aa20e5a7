"""Executors (issue 9 §5): the same numbers, bit for bit, whatever runs the blocks -- in-process, local worker
processes, a Dask LocalCluster and a Dask scheduler reached by its address --; a failing block and a dying worker
surface as clear errors; Ctrl-C stops a dask-local run at once; the CLI options reach the executor.

One Dask LocalCluster (2 single-threaded worker processes) is started for the module."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from boundcalc import algorithms as registry
from clirun import app, json_of, runner
from boundcalc.envs import make_env, make_named_env
from boundcalc.errors import ExecutionError, InputError
from boundcalc.montecarlo import engine, executors, log_checkpoints, run, run_many
from boundcalc.privacy import ZCDP, LocalDP, PureDP

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HAVE_DASK = executors.dask_available()
needs_dask = pytest.mark.skipif(not HAVE_DASK, reason="needs the dask extra (pip install 'boundcalc[dask]')")

# one pytest-xdist worker for the whole module: its module-scoped fixture is built once (tests/conftest.py)
pytestmark = pytest.mark.xdist_group("executors")


@pytest.fixture(scope="module")
def procs():
    with executors.LocalProcesses(2) as ex:
        yield ex


@pytest.fixture(scope="module")
def dask_local():
    if not HAVE_DASK:
        pytest.skip("needs the dask extra")
    import cloudpickle
    import dask
    import distributed  # noqa: F401 - registers its config before dask.config.set below (else it is lost on exit)

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the failing test algorithms below reach workers
    # Dask's event-loop thread logs errors with tracebacks (a killed worker, closed streams); pytest's root handler
    # would format them concurrently with the main thread, and Python 3.11's traceback formatting calls ast.parse,
    # which is not thread-safe there ("AST constructor recursion depth mismatch"): keep those records from being
    # made, for the rest of the session (Dask's threads may outlive the module; no other test uses Dask)
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):  # a killed worker fails its block at once
        ex = executors.DaskLocal(2)
    try:
        yield ex
    finally:
        ex.close()


def _jobs():
    """One algorithm of each kind of simulation: episode-level, leader stretches, per step, linear, chunked
    contextual, GLM."""
    T = 300
    return T, [
        (registry.build("DP-KLUCB", PureDP(1.0)), make_env("mu2")),
        (registry.build("KL-UCB"), make_env("mu1")),
        (registry.build("KL-UCB"), make_env("mu1", family="gaussian", sigma=0.5)),
        (registry.build("AdaC-GOPE", ZCDP(1.0)), make_named_env("zcdp-linear-bounded")),
        (registry.build("AdaC-OFUL", ZCDP(1.0)), make_named_env("zcdp-contextual-bounded")),
        (registry.build("LDP-SGD", LocalDP(2.0)), make_named_env("ldp-single")),
    ]


def _assert_identical(a, b):
    assert np.array_equal(a.checkpoints, b.checkpoints)
    assert np.array_equal(a.regret, b.regret)
    assert np.array_equal(a.pulls, b.pulls)
    assert np.array_equal(a.episodes, b.episodes)


def _reference(T, jobs, runs=7, block_runs=2, seed=11):
    """Each job alone, in this process, one block after another."""
    cps = log_checkpoints(T, 6)
    return [run(alg, env, T, runs, seed=seed, checkpoints=cps, block_runs=block_runs) for alg, env in jobs], cps


def _by_hand(alg, env, T, runs, block_runs, seed, cps):
    """The seeding contract written out: block i of n draws from SeedSequence(seed).spawn(n)[i]."""
    sizes = [min(block_runs, runs - i) for i in range(0, runs, block_runs)]
    seqs = np.random.SeedSequence(seed).spawn(len(sizes))
    blocks = [alg.simulate(env, T, n, np.random.default_rng(s), cps) for n, s in zip(sizes, seqs)]
    return np.concatenate([b.regret for b in blocks])


# -- the same numbers whatever runs them --------------------------------------------------------------------------------
def test_reference_is_the_seeding_contract():
    T, jobs = _jobs()
    ref, cps = _reference(T, jobs[:2])
    for (alg, env), r in zip(jobs[:2], ref):
        assert np.array_equal(r.regret, _by_hand(alg, env, T, 7, 2, 11, cps))


@pytest.fixture(scope="module")
def reference():
    T, jobs = _jobs()
    return _reference(T, jobs)


@pytest.mark.parametrize("where", ["in-process", "processes", "dask-local", "dask"])
def test_bit_identical_whatever_runs_the_blocks(where, procs, reference, request):
    T, jobs = _jobs()
    ref, cps = reference
    if where == "in-process":
        ex = executors.InProcess()
    elif where == "processes":
        ex = procs
    else:
        cluster = request.getfixturevalue("dask_local")
        ex = cluster if where == "dask-local" else executors.Dask(cluster.scheduler)  # a scheduler by its address
    try:
        got = run_many(jobs, T, 7, seed=11, checkpoints=cps, block_runs=2, executor=ex)
    finally:
        if where == "dask":
            ex.close()
    for a, b in zip(got, ref):
        _assert_identical(a, b)


def test_block_size_and_order_do_not_matter_inside_the_contract(procs):
    """Blocks finish in any order on two workers; a reversed submission order gives the same arrays too."""
    T, jobs = _jobs()
    alg, env = jobs[1]
    cps = log_checkpoints(T, 6)
    a = run(alg, env, T, 9, seed=3, checkpoints=cps, block_runs=2, executor=procs, block_order=[4, 3, 2, 1, 0])
    b = run(alg, env, T, 9, seed=3, checkpoints=cps, block_runs=2)
    _assert_identical(a, b)


class _Mislabelled(executors.InProcess):
    """Mutant: yields blocks tagged by their completion rank, not their task index (a wrong shard bookkeeping)."""

    def imap_unordered(self, fn, tasks):
        order = list(reversed(range(len(tasks))))
        for rank, i in enumerate(order):
            yield rank, fn(*tasks[i])


class _SharedStream(executors.InProcess):
    """Mutant: every block draws from one stream seeded once (a global state in the worker, not the seed child)."""

    def imap_unordered(self, fn, tasks):
        rng = np.random.default_rng(0)
        for i, (alg, env, T, size, _seq, cps) in enumerate(tasks):
            yield i, alg.simulate(env, T, size, rng, cps)


@pytest.mark.parametrize("mutant", [_Mislabelled, _SharedStream])
def test_the_comparison_catches_a_wrong_executor(mutant):
    T, jobs = _jobs()
    ref, cps = _reference(T, jobs[:2])
    got = run_many(jobs[:2], T, 7, seed=11, checkpoints=cps, block_runs=2, executor=mutant())
    assert any(not np.array_equal(a.regret, b.regret) for a, b in zip(got, ref))


def test_run_many_equals_separate_runs_with_the_same_seeds(reference):
    T, jobs = _jobs()
    ref, cps = reference
    together = run_many(jobs, T, 7, seed=11, checkpoints=cps, block_runs=2)
    for a, b in zip(together, ref):
        _assert_identical(a, b)


def test_executor_and_processes_together_is_an_input_error(procs):
    T, jobs = _jobs()
    with pytest.raises(InputError, match="processes"):
        run(*jobs[0], T, 4, processes=2, executor=procs)


# -- failures ------------------------------------------------------------------------------------------------------------
class _Failing:
    """A block of one run raises (the last block of 5 runs in blocks of 2)."""

    name = "failing"

    def simulate(self, env, T, runs, rng, checkpoints):
        if runs == 1:
            raise ValueError("boom in the last block")
        return registry.build("UCB").simulate(env, T, runs, rng, checkpoints)


class _Dying:
    """The worker process computing a block of one run exits (a crash, the OOM killer)."""

    name = "dying"

    def simulate(self, env, T, runs, rng, checkpoints):
        if runs == 1:
            os._exit(3)
        return registry.build("UCB").simulate(env, T, runs, rng, checkpoints)


@pytest.mark.parametrize("where", ["in-process", "processes", "dask-local"])
def test_a_failing_block_surfaces_as_itself_with_where(where, procs, request):
    ex = {"in-process": executors.InProcess(), "processes": procs}.get(where) or request.getfixturevalue("dask_local")
    with pytest.raises(ValueError, match="boom in the last block") as info:
        run(_Failing(), make_env("mu2"), 50, 5, block_runs=2, executor=ex)
    assert any("block task" in n for n in getattr(info.value, "__notes__", [])), info.value


def test_a_dying_worker_process_is_an_execution_error():
    with executors.LocalProcesses(2) as ex:
        with pytest.raises(ExecutionError, match="worker process died"):
            run(_Dying(), make_env("mu2"), 50, 5, block_runs=2, executor=ex)
        # the executor recovers: the next run starts fresh workers
        assert run(registry.build("UCB"), make_env("mu2"), 50, 4, block_runs=2, executor=ex).runs == 4


def test_unreachable_scheduler_is_an_execution_error():
    if not HAVE_DASK:
        pytest.skip("needs the dask extra")
    t0 = time.monotonic()
    with pytest.raises(ExecutionError, match="cannot reach the Dask scheduler"):
        executors.Dask("tcp://127.0.0.1:9", connect_timeout=1)
    assert time.monotonic() - t0 < 15


# -- the CLI -------------------------------------------------------------------------------------------------------------
SIM = ["simulate", "--algo", "DP-KLUCB,KL-UCB", "--epsilon", "1", "--T", "300", "--runs", "6", "--block-runs", "2",
       "--json"]


def _cli(args):
    """args end with --json."""
    return json_of(*[a for a in args if a != "--json"])


def _numbers(d):
    return [(e["algo"], e["checkpoints"], e["pulls_mean"]) for e in d["results"]]


def test_cli_executor_processes_same_numbers_and_reported():
    one = _cli(SIM)
    two = _cli([*SIM, "--executor", "processes", "--workers", "2"])
    assert _numbers(two) == _numbers(one)
    assert one["inputs"]["executor"] == {"kind": "in-process", "workers": 1, "scheduler": None}
    assert two["inputs"]["executor"]["kind"] == "processes"
    assert two["inputs"]["executor"]["workers"] == min(2, os.cpu_count() or 1)


@needs_dask
def test_cli_dask_scheduler_same_numbers(dask_local):
    """--executor dask --scheduler ADDRESS (here the module's LocalCluster); --executor dask-local is run by the
    CLI in the Ctrl-C test below and gives its numbers through the same Dask code path (DaskLocal is a Dask)."""
    one = _cli(SIM)
    remote = _cli([*SIM, "--executor", "dask", "--scheduler", dask_local.scheduler])
    assert _numbers(remote) == _numbers(one)
    assert remote["inputs"]["executor"] == {"kind": "dask", "workers": 2, "scheduler": dask_local.scheduler}


@pytest.mark.parametrize("args,needle", [
    (["--executor", "nope"], "--executor must be one of in-process, processes, dask-local, dask"),
    (["--executor", "dask"], "--scheduler must be given with --executor dask"),
    (["--scheduler", "nan"], "--scheduler must be a Dask scheduler address"),
    (["--scheduler", "tcp://host:70000"], "--scheduler must be a Dask scheduler address"),
    (["--workers", "0"], "--workers must be"),
    (["--executor", "processes", "--workers", "2", "--processes", "3"], "--workers must be equal to --processes"),
])
def test_cli_executor_options_bad_input(args, needle):
    r = runner.invoke(app, [*SIM, *args])
    assert r.exit_code == 2, r.output
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and needle in lines[0], r.stderr


def test_cli_dask_without_the_extra_names_the_extra(monkeypatch):
    monkeypatch.setattr(executors, "dask_available", lambda: False)
    r = runner.invoke(app, [*SIM, "--executor", "dask-local"])
    assert r.exit_code == 2
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and "pip install 'boundcalc[dask]'" in lines[0], r.stderr


@pytest.mark.parametrize("args,note", [
    (["--scheduler", "tcp://10.0.0.5:8786"], "--scheduler has no effect with --executor in-process"),
    (["--workers", "2"], "--workers has no effect with --executor in-process"),
    (["--executor", "processes", "--workers", "64"], "--workers 64 capped at"),
])
def test_cli_executor_option_notes(args, note):
    d = _cli([*SIM, *args])
    assert any(n.startswith(note) for n in d["notes"]), d["notes"]


def _group(pgid: int) -> list[int]:
    """Live processes of a process group (zombies excluded), from /proc."""
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                out.append(int(d))
    return out


@needs_dask
@pytest.mark.skipif(not hasattr(os, "killpg") or not os.path.isdir("/proc"), reason="needs POSIX process groups")
def test_ctrl_c_stops_a_dask_local_run_within_seconds(shell_like):
    """SIGINT to the process group (a terminal's Ctrl-C) while two Dask workers run long blocks: the futures are
    cancelled, the local workers killed and the cluster closed; exit 130, no traceback."""
    # Gaussian arms: UCB loops over every step (no bulk path), about 7 s per block of 5 runs at T = 3e5
    p = subprocess.Popen([sys.executable, "-m", "boundcalc", "simulate", "--algo", "UCB", "--family", "gaussian",
                          "--T", "3e5", "--runs", "40", "--block-runs", "5", "--executor", "dask-local", "--workers", "2",
                          "--no-progress"], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                         preexec_fn=shell_like)
    try:
        t_end = time.monotonic() + 30
        while len(_group(p.pid)) < 5 and time.monotonic() < t_end:  # boundcalc, tracker, fork server, 2 workers
            time.sleep(0.2)
        time.sleep(1.5)  # the workers' first blocks
        assert p.poll() is None, p.communicate()
        os.killpg(p.pid, signal.SIGINT)
        t0 = time.monotonic()
        out, err = p.communicate(timeout=30)
        elapsed = time.monotonic() - t0
    finally:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        p.wait()
    assert elapsed < 8.0, elapsed  # unhurried machine: ~1 s; without the cancellation: the remaining blocks, ~2 min
    assert p.returncode == 130
    assert "Traceback" not in err and out == "", err  # the workers ignore SIGINT: only boundcalc answers it


# last: it kills a worker of the module's cluster
@needs_dask
def test_a_dying_dask_worker_is_an_execution_error(dask_local):
    with pytest.raises(ExecutionError, match="Dask worker computing block task .* died"):
        run(_Dying(), make_env("mu2"), 50, 5, block_runs=2, executor=dask_local)
