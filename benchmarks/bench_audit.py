"""Time of `run_audit` per auditable algorithm and mutant at the default trials (in-process, after one warm-up call),
plus the wall time of one `python -m boundcalc audit --algo DP-SE --json` (start-up included).

Run: python3 benchmarks/bench_audit.py   (about a minute on the 2-core reference machine). Writes
benchmarks/RESULTS_audit.md.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
RESULTS = ROOT / "benchmarks" / "RESULTS_audit.md"
# audits with non-default parameters: the paper calibration of LDP-OLS at C_B = 8 (ERRATA 8) and the safe one
EXTRA = [("LDP-OLS", "none", {"C_B": 8.0}), ("LDP-OLS", "none", {"C_B": 8.0, "calibration": "safe"})]


def main() -> None:
    from boundcalc.audit import SCENARIOS, run_audit
    from boundcalc.audit.mutants import applicable

    run_audit("DP-SE", trials=200)  # warm-up (imports, scipy)
    rows = []
    for name, sc in SCENARIOS.items():
        for m in applicable(sc):
            t0, c0 = time.perf_counter(), time.process_time()
            r = run_audit(name, mutant=m, seed=0)
            rows.append((name, m, r.trials, r.events[0]["horizon"], time.perf_counter() - t0, time.process_time() - c0,
                         r.epsilon_lower, r.epsilon_claimed, r.delta, r.verdict))
    for name, m, params in EXTRA:
        t0, c0 = time.perf_counter(), time.process_time()
        r = run_audit(name, mutant=m, seed=0, params=params)
        label = name + " (" + ", ".join(f"{k} = {v}" for k, v in params.items()) + ")"
        rows.append((label, m, r.trials, r.events[0]["horizon"], time.perf_counter() - t0, time.process_time() - c0,
                     r.epsilon_lower, r.epsilon_claimed, r.delta, r.verdict))
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "boundcalc", "audit", "--algo", "DP-SE", "--json"], cwd=ROOT, check=True,
                   capture_output=True)
    cli = time.perf_counter() - t0
    load = os.getloadavg()[0]
    lines = ["# Audit times (benchmarks/bench_audit.py)", "",
             f"`run_audit(NAME, mutant=M, seed=0)` at the default trials (runs on each of the two inputs), in-process. "
             f"Machine: {platform.machine()}, Python {platform.python_version()}; 1-minute load average when written: "
             f"{load:.2f} (other jobs inflate wall times).", "",
             "| algorithm | mutant | trials | T | wall s | CPU s | ε lower | claimed ε | δ | verdict |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for n, m, tr, T, w, c, lo, cl, d, v in rows:
        lines.append(f"| {n} | {m} | {tr} | {T} | {w:.2f} | {c:.2f} | {lo:.3f} | {cl:.3f} | {d:g} | {v} |")
    lines += ["", f"`python -m boundcalc audit --algo DP-SE --json` (one process, start-up included): {cli:.2f} s wall.", ""]
    RESULTS.write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
