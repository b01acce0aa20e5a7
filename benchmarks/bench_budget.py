"""`boundcalc budget` in a fresh process: wall time for each setting at one T (goal: under a second), and the same
with a T list and with --min-T.

Run: python3 benchmarks/bench_budget.py. Writes benchmarks/RESULTS_budget.md. Each command runs REPEATS times as
a fresh subprocess (interpreter start-up included); the median is reported with min and max.
"""

from __future__ import annotations

import platform
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_regret_cli import REPEATS, base_cmd, wall  # noqa: E402

TARGET = 1.0
CASES = [
    ("finite", ["--max-overhead", "0.1"]),
    ("linear", ["--K", "50", "--d", "5", "--T", "1e7", "--max-overhead", "0.1"]),
    ("contextual", ["--notion", "approx", "--max-overhead", "0.5"]),
    ("glm", ["--max-overhead", "0.3"]),
    ("linear", ["--T", "1e5,1e6,1e7", "--max-regret", "1e6"]),
    ("linear", ["--min-T", "--rho", "0.1", "--max-overhead", "0.1"]),
]


def main() -> int:
    rows = []
    for setting, extra in CASES:
        args = [*base_cmd(), "budget", "--setting", setting, *extra, "--json"]
        med, lo, hi, rc = wall(args, REPEATS)
        rows.append((f"boundcalc budget --setting {setting} {' '.join(extra)}", med, lo, hi, rc))
        print(f"{rows[-1][0]}: {med:.3f} s (rc {rc})", flush=True)
    lines = ["# `boundcalc budget`: wall time in a fresh process", "",
             f"Machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}, "
             "2 cores. Median of "
             f"{REPEATS} runs; target: under {TARGET:g} s for one setting and one T.", "",
             "| command | median (s) | min | max | exit | target met |", "|---|---|---|---|---|---|"]
    for cmd, med, lo, hi, rc in rows:
        lines.append(f"| `{cmd}` | {med:.3f} | {lo:.3f} | {hi:.3f} | {rc} | {'yes' if med < TARGET else 'no'} |")
    (HERE / "RESULTS_budget.md").write_text("\n".join(lines) + "\n")
    return 0 if all(r[4] == 0 for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
