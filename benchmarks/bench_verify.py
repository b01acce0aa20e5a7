"""Benchmark: `boundcalc verify` over every registered claim (target: under one minute on this machine).

Times (a) the whole command as a user runs it (fresh interpreter, wall clock, start-up and imports included)
and (b) each claim's evaluation inside one process (wall and CPU), then writes benchmarks/RESULTS_verify.md.

    python3 benchmarks/bench_verify.py            # full run
    python3 benchmarks/bench_verify.py --quick    # only (b), prints, no file
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))


def main(quick: bool = False) -> None:
    import numpy as np

    from boundcalc.verify import claims

    rows = []
    t0, c0 = time.perf_counter(), time.process_time()
    for cid in claims.CLAIMS:
        a, b = time.perf_counter(), time.process_time()
        v = claims.evaluate(cid)
        rows.append((cid, v.method, v.verdict, time.perf_counter() - a, time.process_time() - b, v.boxes))
    wall_in, cpu_in = time.perf_counter() - t0, time.process_time() - c0
    rows.sort(key=lambda r: -r[3])
    lines = [f"in-process: {len(rows)} claims in {wall_in:.1f} s wall, {cpu_in:.1f} s CPU"]
    for r in rows[:10]:
        lines.append(f"  {r[0]:<34} {r[1]:<12} {r[3]:6.2f} s wall  {r[4]:6.2f} s CPU  {r[2]}")
    print("\n".join(lines))
    if quick:
        return
    walls = []
    for _ in range(2):
        a = time.perf_counter()
        subprocess.run([sys.executable, "-m", "boundcalc", "verify", "--json"], cwd=HERE.parent,
                       stdout=subprocess.DEVNULL, check=True)
        walls.append(time.perf_counter() - a)
    cmd = float(np.median(walls))
    by_method = {}
    for r in rows:
        by_method.setdefault(r[1], [0, 0.0])
        by_method[r[1]][0] += 1
        by_method[r[1]][1] += r[3]
    out = ["# Benchmark: `boundcalc verify` over every claim (benchmarks/bench_verify.py)", "",
           f"Machine: {platform.machine()}, Python {platform.python_version()}, numpy {np.__version__} (2 cores, shared).",
           "Target: the whole `boundcalc verify` (every claim) under 60 s wall clock.",
           f"Load average at the end (other helpers share the machine): {os.getloadavg()[0]:.1f}.", "",
           f"**`python -m boundcalc verify --json` (fresh process, median of {len(walls)}): {cmd:.1f} s wall** "
           f"({'ok' if cmd < 60 else 'OVER TARGET'}); runs: " + ", ".join(f"{w:.1f} s" for w in walls), "",
           f"In one process: {len(rows)} claims, {wall_in:.1f} s wall, {cpu_in:.1f} s CPU.", "",
           "| method | claims | wall (s) |", "|---|---|---|"]
    out += [f"| {m} | {n} | {t:.1f} |" for m, (n, t) in sorted(by_method.items())]
    from boundcalc.verify.claims import proofs

    out += ["", f"Proof effort cap per part of a claim: {proofs.LIMITS['max_seconds']:g} s, "
            f"{proofs.LIMITS['max_boxes']} boxes (an undecided proof falls back to the claim's grid).", ""]
    out += ["", "Slowest claims:", "", "| claim | method | wall (s) | CPU (s) | verdict |", "|---|---|---|---|---|"]
    out += [f"| {r[0]} | {r[1]} | {r[3]:.2f} | {r[4]:.2f} | {r[2]} |" for r in rows[:12]]
    proved = sorted((r for r in rows if r[1] == "proof"), key=lambda r: r[0])
    out += ["", f"Claims proven by interval arithmetic ({len(proved)}):", "",
            "| claim | verdict | boxes | wall (s) |", "|---|---|---|---|"]
    out += [f"| {r[0]} | {r[2]} | {r[5]} | {r[3]:.3f} |" for r in proved]
    (HERE / "RESULTS_verify.md").write_text("\n".join(out) + "\n")
    print(f"command: {cmd:.1f} s wall -> benchmarks/RESULTS_verify.md")


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
