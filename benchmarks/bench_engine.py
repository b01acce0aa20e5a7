"""Engine benchmark: episode-level engine vs step-by-step reference, cost in T, peak memory.

Run: python3 benchmarks/bench_engine.py [--quick]. Writes benchmarks/RESULTS_engine.md.

* Engine vs reference for DP-IMED (seed 001 Algorithm 1, alpha = 2, n_1 = 1, eps = 1) at T = 1e7, K = 10,
  100 runs. The reference (one Python step and one Bernoulli draw per round) is timed on a few runs at a
  shorter horizon and extrapolated *linearly* in T and in runs (its cost per round is constant).
* Engine cost at T = 1e9 vs T = 1e6 (same runs/K): episodes grow like K log T, not like T.
* Peak memory of the engine at T = 1e9 (tracemalloc, Python allocations incl. numpy) and the process max RSS.
"""

from __future__ import annotations

import platform
import resource
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from boundcalc import montecarlo as mc
from boundcalc.algorithms.finite import DPIMED, DPKLUCB
from boundcalc.envs import BernoulliEnv

K = 10
MEANS = np.round(np.linspace(0.9, 0.45, K), 3)
RUNS = 100


def timed(f):
    t0 = time.perf_counter()
    out = f()
    return time.perf_counter() - t0, out


def main(quick: bool = False) -> str:
    env = BernoulliEnv(MEANS, name="K=10 linspace(0.9, 0.45)")
    lines = ["# Engine benchmark (benchmarks/bench_engine.py)", "",
             f"Machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}, "
             f"numpy {np.__version__}; single process. Instance K = {K}, means {MEANS.tolist()}.", ""]
    for cls in (DPIMED, DPKLUCB):
        alg = cls(epsilon=1.0, alpha=2.0, n1=1)
        T_big = 10**7
        ref_T, ref_runs = (2 * 10**4, 2) if quick else (10**5, 3)
        cps = mc.log_checkpoints(ref_T, 20)
        t_ref, _ = timed(lambda: [alg.reference(env, ref_T, np.random.default_rng(i), cps) for i in range(ref_runs)])
        per_round = t_ref / (ref_T * ref_runs)
        ref_extrap = per_round * T_big * RUNS
        t_eng, res = timed(lambda: mc.run(alg, env, T_big, RUNS, seed=0))
        lines += [f"## {alg.name}: engine vs step-by-step reference (T = 1e7, K = 10, {RUNS} runs)", "",
                  "| | seconds | note |", "|---|---|---|",
                  f"| reference, measured | {t_ref:.2f} | {ref_runs} runs at T = {ref_T:.0e} ({per_round * 1e6:.2f} µs/round) |",
                  f"| reference, extrapolated | {ref_extrap:.3g} | linear in T and runs: {per_round:.3g} s × 1e7 × {RUNS} |",
                  f"| engine, measured | {t_eng:.3f} | mean regret {res.final()['mean']:.1f}, "
                  f"{res.episodes_mean():.0f} batches/run |",
                  f"| **speed-up** | **{ref_extrap / t_eng:,.0f}×** | target ≥ 1000× |", ""]
    alg = DPIMED(epsilon=1.0)
    mc.run(alg, env, 10**5, RUNS, seed=9)  # warm-up (imports, caches)
    rows = []
    for T in (10**6, 10**7, 10**8, 10**9):
        t, res = timed(lambda: mc.run(alg, env, T, RUNS, seed=1))
        rows.append((T, t, res.episodes_mean(), res.final()["mean"]))
    base = rows[0][1]
    lines += [f"## DP-IMED engine cost vs horizon ({RUNS} runs, K = 10)", "",
              "| T | seconds | ratio to T = 1e6 | batches/run | mean regret |", "|---|---|---|---|---|"]
    lines += [f"| {T:.0e} | {t:.3f} | {t / base:.2f} | {e:.0f} | {m:.1f} |" for T, t, e, m in rows]
    lines += ["", f"T = 1e9 vs 1e6: **{rows[-1][1] / base:.2f}×** (target within 3×).", ""]
    tracemalloc.start()
    mc.run(alg, env, 10**9, RUNS, seed=2)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    lines += ["## Memory", "", f"* tracemalloc peak during `run(DP-IMED, T=1e9, runs={RUNS})`: **{peak / 2**20:.2f} MiB** "
              "(state is runs × (K + checkpoints); nothing grows with T).",
              f"* process max RSS over the whole benchmark: {rss:.0f} MiB (interpreter + numpy/scipy included).", ""]
    text = "\n".join(lines)
    return text


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    out = main(quick)
    print(out)
    if not quick:
        Path(__file__).with_name("RESULTS_engine.md").write_text(out + "\n")
