"""CLI start-up benchmark: wall time of `boundcalc regret --setting S ... --T 1e6` and of `boundcalc --help`.

Run: python3 benchmarks/bench_regret_cli.py [--quick]. Writes benchmarks/RESULTS_regret_cli.md (not with --quick).

* Each command runs as a fresh subprocess (interpreter start-up included), REPEATS times; the median wall time
  is reported (min and max next to it). The `boundcalc` console script is used when it is on PATH, otherwise
  `python -m boundcalc` (the same entry point, boundcalc.cli.app:main).
* Targets: `regret` under 1 s for every setting; `--help` well under 0.5 s.
* Start-up attribution: one `python -X importtime` run per command; the top-level imports (cumulative
  microseconds, as Python reports them) with the largest share, and the chain that pulls in the slowest ones.
"""

from __future__ import annotations

import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REPEATS = 5
REGRET_TARGET = 1.0
HELP_TARGET = 0.5
SETTINGS = ("finite", "linear", "contextual", "glm")
BUDGETS = (("--epsilon", "1"), ("--rho", "0.5"))


def base_cmd() -> list[str]:
    exe = shutil.which("boundcalc")
    return [exe] if exe else [sys.executable, "-m", "boundcalc"]


PYCACHE = Path("/tmp/boundcalc-bench-pycache")  # bytecode cache outside the repository (cached mode only)


def env(cached: bool = False) -> dict:
    """The environment as configured; ``cached``: bytecode caching on, written under PYCACHE (this machine sets
    PYTHONDONTWRITEBYTECODE=1, so boundcalc's own modules are otherwise compiled from source at every start)."""
    e = dict(os.environ)
    e["PYTHONPATH"] = str(ROOT) + (os.pathsep + e["PYTHONPATH"] if e.get("PYTHONPATH") else "")
    if cached:
        e.pop("PYTHONDONTWRITEBYTECODE", None)
        e["PYTHONPYCACHEPREFIX"] = str(PYCACHE)
    return e


def wall(args: list[str], repeats: int, cached: bool = False) -> tuple[float, float, float, int]:
    """median, min, max wall seconds of `args` as a subprocess; and its last exit code."""
    ts, rc = [], 0
    for _ in range(repeats):
        t0 = time.perf_counter()
        p = subprocess.run(args, cwd=ROOT, env=env(cached), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        ts.append(time.perf_counter() - t0)
        rc = p.returncode
    return statistics.median(ts), min(ts), max(ts), rc


def importtime(args: list[str]) -> list[tuple[int, str, int]]:
    """(depth, module, cumulative µs) entries of one `python -X importtime` run, in Python's report order."""
    py = [sys.executable, "-X", "importtime", "-m", "boundcalc"]
    p = subprocess.run(py + args, cwd=ROOT, env=env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    out = []
    for line in p.stderr.splitlines():
        if not line.startswith("import time:"):
            continue
        parts = line.split("|")
        try:
            cum = int(parts[1])
        except (IndexError, ValueError):
            continue
        name = parts[2][1:] if parts[2].startswith(" ") else parts[2]
        depth = (len(name) - len(name.lstrip())) // 2
        out.append((depth, name.strip(), cum))
    return out


def chain(entries, i):
    """Import chain of entry i, innermost first (a module's importer is the next entry of lower depth)."""
    names, d = [], entries[i][0]
    for j in range(i, len(entries)):
        if entries[j][0] <= d:
            if j == i or entries[j][0] < d:
                names.append(f"{entries[j][1]} ({entries[j][2] / 1000:.0f} ms)")
                d = entries[j][0]
    return " ← ".join(names)


def attribution(entries, top=6):
    """Top-level imports by cumulative time, plus the slowest heavy sub-imports (>= 50 ms) worth naming."""
    tops = sorted((e for e in entries if e[0] == 0), key=lambda e: -e[2])
    total = sum(e[2] for e in entries if e[0] == 0)
    heavy_names = ("scipy.special", "scipy.stats", "scipy.optimize", "numpy.f2py", "pydantic", "sympy", "mpmath",
                   "matplotlib", "charset_normalizer", "numpy")
    chains = []
    for i, e in enumerate(entries):
        if e[1] in heavy_names and e[2] >= 50_000 and e[0] > 0:
            chains.append(chain(entries, i))
    return total, tops[:top], chains


def main(quick: bool = False) -> str:
    reps = 2 if quick else REPEATS
    bc = base_cmd()
    cmds = [("--help", ["--help"])]
    for s in SETTINGS:
        for opt, val in BUDGETS:
            cmds.append((f"regret --setting {s} {opt} {val} --T 1e6", ["regret", "--setting", s, opt, val, "--T", "1e6"]))
    no_bytecode = bool(os.environ.get("PYTHONDONTWRITEBYTECODE"))
    modes = [False, True] if (no_bytecode and not quick) else [False]
    rows = []
    for cached in modes:
        for label, args in cmds:
            wall(bc + args, 1, cached)  # warm the file-system (and, when cached, the bytecode) cache
            med, lo, hi, rc = wall(bc + args, reps, cached)
            target = HELP_TARGET if label == "--help" else REGRET_TARGET
            rows.append((label, med, lo, hi, rc, target, cached))
    floors = [(label, *wall(args, reps)[:3]) for label, args in (
        ("python -c pass", [sys.executable, "-c", "pass"]),
        ("python -c 'import numpy'", [sys.executable, "-c", "import numpy"]),
        ("python -c 'import typer, rich.table'", [sys.executable, "-c", "import typer, rich.table"]),
        ("python -c 'import scipy.special'", [sys.executable, "-c", "import scipy.special"]))]
    # start-up attribution: --help, and regret for the slowest setting
    slow = max((r for r in rows if r[0] != "--help" and not r[6]), key=lambda r: r[1])
    attrib = []
    for label in ("--help", slow[0]):
        args = dict(cmds)[label]
        attrib.append((label,) + attribution(importtime(args)))
    lines = ["# CLI start-up benchmark (benchmarks/bench_regret_cli.py)", "",
             f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python "
             f"{platform.python_version()}; command `{' '.join(Path(c).name for c in bc)}`; each command a fresh "
             f"subprocess, median of {reps} (wall time, interpreter start-up included). The machine is shared, so "
             "figures move with other jobs.", "",
             f"Targets: `regret` < {REGRET_TARGET:.0f} s for each setting; `--help` ≪ {HELP_TARGET} s.", "",
             "| command | bytecode cache | median (s) | min | max | exit | target |", "|---|---|---|---|---|---|---|"]
    for label, med, lo, hi, rc, target, cached in rows:
        ok = "ok" if med < target else "**OVER**"
        bcache = "on (PYTHONPYCACHEPREFIX)" if cached else ("off (PYTHONDONTWRITEBYTECODE=1)" if no_bytecode else "on")
        lines.append(f"| `boundcalc {label}` | {bcache} | {med:.3f} | {lo:.3f} | {hi:.3f} | {rc} | < {target} s: {ok} |")
    lines += ["", "Floors on the same machine (same repeats, environment as configured):", "",
              "| command | median (s) | min | max |", "|---|---|---|---|"]
    lines += [f"| `{label}` | {med:.3f} | {lo:.3f} | {hi:.3f} |" for label, med, lo, hi in floors]
    for label, total, tops, chains in attrib:
        lines += ["", f"## Import time of `boundcalc {label}` (python -X importtime, one run)", "",
                  f"Sum of top-level imports: {total / 1000:.0f} ms.", "",
                  "| top-level import | cumulative ms |", "|---|---|"]
        lines += [f"| `{n}` | {c / 1000:.0f} |" for _, n, c in tops]
        if chains:
            lines += ["", "Heavy imports and who pulls them in (innermost first):", ""]
            lines += [f"* {c}" for c in chains]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    out = main(quick)
    print(out)
    if not quick:
        Path(__file__).with_name("RESULTS_regret_cli.md").write_text(out)
