"""`boundcalc regret --check` at its default horizon: wall time per setting, and the time per T × run.

Run: python3 benchmarks/bench_regret_check.py [--quick]. Writes benchmarks/RESULTS_regret_check.md (not with --quick).

The default T of `--check` (boundcalc.verify.regret_check.DEFAULT_CHECK_T) must answer in seconds: this script runs
`python -m boundcalc regret --setting S <budget> --check --json` (100 runs, the default) once per setting in a
fresh subprocess, reports the wall time and the simulated time the command itself measured (JSON "check"), and the
seconds per (T × run) that the command uses to say what a larger T will cost.
"""

from __future__ import annotations

import json
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASES = (("finite", ["--epsilon", "1"]), ("linear", ["--rho", "0.1"]),
         ("contextual", ["--epsilon", "1", "--delta", "1e-3"]), ("glm", ["--ldp-epsilon", "1", "--ldp-delta", "0.01"]))
TARGET = 15.0  # seconds per setting, on one core of the 2-core reference machine


def main(quick: bool = False) -> None:
    rows = ["| setting | budget | default T | runs | wall s | simulated s | s per T·run | target |", "|---|---|---|---|---|---|---|---|"]
    for setting, budget in CASES:
        cmd = [sys.executable, "-m", "boundcalc", "regret", "--setting", setting, *budget, "--check", "--json"]
        if quick:
            cmd += ["--runs", "10"]
        t0 = time.perf_counter()
        out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True)
        wall = time.perf_counter() - t0
        info = json.loads(out.stdout)["check"]
        per = info["seconds"] / (info["T"] * info["runs"])
        ok = "ok" if wall < TARGET else "SLOW"
        rows.append(f"| {setting} | {' '.join(budget)} | {info['T']:g} | {info['runs']} | {wall:.2f} | "
                    f"{info['seconds']:.2f} | {per:.2e} | < {TARGET:g} s: {ok} |")
        print(rows[-1], flush=True)
    if not quick:
        load = Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "?"
        text = ("# `regret --check` at the default horizon (benchmarks/bench_regret_check.py)\n\n"
                f"Machine: {platform.machine()}, Python {platform.python_version()}, {platform.system()}; "
                f"1-minute load average at the end: {load} (other jobs inflate the times).\n\n"
                + "\n".join(rows) + "\n")
        (ROOT / "benchmarks" / "RESULTS_regret_check.md").write_text(text)


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
