"""Runs per second with each executor of boundcalc.montecarlo: in-process, 2 local processes, a Dask LocalCluster
of 1 and of 2 single-threaded workers. Every executor must give bit-identical numbers (checked here too).

Run: python3 benchmarks/bench_executors.py [--quick]. Writes benchmarks/RESULTS_executors.md (not with --quick).

Workloads (seed 001's instance mu2, 200 runs in blocks of 50): DP-KLUCB at T = 1e6 (episode-level: a few hundred
episodes per run, exact batch draws; light) and KL-UCB at T = 1e6 (leader-stretch engine: exact work near every
change of the pulled arm, a few seconds per block: the CPU-bound case where workers pay off). Wall time of ``montecarlo.run`` with the executor already started (runs/s), and the executor's
start-up separately (a process pool forks at the first block; a LocalCluster spawns its workers when built).
"""

from __future__ import annotations

import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from boundcalc import algorithms as registry  # noqa: E402
from boundcalc.envs import make_env  # noqa: E402
from boundcalc.montecarlo import executors, log_checkpoints, run  # noqa: E402
from boundcalc.privacy import PureDP  # noqa: E402


def workloads(quick: bool):
    runs = 40 if quick else 200
    return [("DP-KLUCB, ε = 1", registry.build("DP-KLUCB", PureDP(1.0)), 10**5 if quick else 10**6, runs),
            ("KL-UCB", registry.build("KL-UCB"), 10**5 if quick else 10**6, runs)]


def make(kind: str):
    """(executor, start-up seconds)."""
    t0 = time.perf_counter()
    if kind == "in-process":
        ex = executors.InProcess()
    elif kind == "2 local processes":
        ex = executors.LocalProcesses(2)
    elif kind == "dask-local, 1 worker":
        ex = executors.DaskLocal(1)
    else:
        ex = executors.DaskLocal(2)
    return ex, time.perf_counter() - t0


KINDS = ["in-process", "2 local processes", "dask-local, 1 worker", "dask-local, 2 workers"]


def main(quick: bool = False) -> None:
    env = make_env("mu2")
    rows = ["| workload | T | runs | executor | start-up s | wall s | runs/s | speed-up | same numbers |",
            "|---|---|---|---|---|---|---|---|---|"]
    if not executors.dask_available():
        print("dask is not installed (pip install 'boundcalc[dask]'): the dask-local rows are skipped", file=sys.stderr)
    for label, alg, T, runs in workloads(quick):
        cps = log_checkpoints(T, 20)
        base = None
        for kind in KINDS:
            if kind.startswith("dask") and not executors.dask_available():
                continue
            ex, startup = make(kind)
            try:
                if kind == "2 local processes":  # the pool forks at its first use: count that as start-up
                    t0 = time.perf_counter()
                    run(registry.build("UCB"), env, 10, 2, block_runs=1, executor=ex)
                    startup += time.perf_counter() - t0
                t0 = time.perf_counter()
                res = run(alg, env, T, runs, seed=1, checkpoints=cps, block_runs=50, executor=ex)
                wall = time.perf_counter() - t0
            finally:
                ex.close()
            if base is None:
                base = (res, wall)
            same = all(np.array_equal(getattr(res, a), getattr(base[0], a)) for a in ("regret", "pulls", "episodes"))
            rows.append(f"| {label} | {T:.0e} | {runs} | {kind} | {startup:.2f} | {wall:.2f} | {runs / wall:.1f} | "
                        f"{base[1] / wall:.2f}x | {'yes' if same else 'NO'} |")
            print(rows[-1], flush=True)
            if not same:
                raise SystemExit(f"{kind} gave different numbers for {label}")
    if not quick:
        load = Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "?"
        import numpy

        try:
            import distributed

            dv = f", dask.distributed {distributed.__version__}"
        except ImportError:
            dv = ", dask not installed"
        text = ("# Executors: runs per second (benchmarks/bench_executors.py)\n\n"
                f"Machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
                f"numpy {numpy.__version__}{dv}; 1-minute load average at the end: {load} (the machine is shared: "
                "other jobs inflate the times and shrink the speed-ups).\n\n"
                "Blocks of 50 runs (4 blocks for 200 runs), seed 1, instance mu2. wall = `montecarlo.run` with the "
                "executor started; start-up = building it (a LocalCluster spawns its workers; a process pool forks at "
                "its first block). speed-up = in-process wall / wall. same numbers = regret, pulls and episodes "
                "bit-identical to in-process.\n\n" + "\n".join(rows) + "\n")
        (ROOT / "benchmarks" / "RESULTS_executors.md").write_text(text)


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
