"""CLI start-up benchmark: wall time of `boundcalc regret --setting S ... --T 1e6` and of `boundcalc --help`; and the
CPU of `simulate`, `regret` and `--help` against importing numpy and scipy.special (issue 23 §5).

Run: python3 benchmarks/bench_regret_cli.py [--quick] [--cpu-only]. Writes benchmarks/RESULTS_regret_cli.md (not with
--quick).

* Issue 23 §5 goal: `boundcalc simulate --algo UCB --means 0.9,0.5 --T 200 --runs 2 --json`, `boundcalc regret
  --setting linear --rho 0.1 --T 1e6` and `boundcalc --help` each cost at most 2x the CPU (user + sys, this process's
  children by resource.getrusage) of `python -c "import numpy, scipy.special"` (both as `python -m boundcalc`, the same
  interpreter). The four commands run in turn in one
  loop, CPU_REPEATS rounds (the machine is shared: the baseline is measured beside them); the median of each and the
  median of the per-round ratios are reported, with the load average before and after.

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
CPU_REPEATS = 9
CPU_GOAL = 2.0  # issue 23 §5: at most 2x the CPU of importing numpy and scipy.special
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


def cpu(args: list[str]) -> float:
    """CPU seconds (user + sys) of `args` run as a subprocess (resource.getrusage of the children); exit 0 asserted."""
    import resource

    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(args, cwd=ROOT, env=env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert p.returncode == 0, (args, p.stderr[-500:])
    return (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def startup_cpu(repeats: int) -> tuple[list[str], dict]:
    """The issue's three commands and the baseline, in turn, ``repeats`` rounds after one warm-up round: lines of a
    markdown section (medians, ratios, load) and the raw figures."""
    bc = [sys.executable, "-m", "boundcalc"]  # the baseline's interpreter (a pyenv shim would add its own start-up)
    cmds = {"baseline: python -c 'import numpy, scipy.special'": [sys.executable, "-c", "import numpy, scipy.special"],
            "boundcalc --help": bc + ["--help"],
            "boundcalc regret --setting linear --rho 0.1 --T 1e6": bc + ["regret", "--setting", "linear", "--rho", "0.1",
                                                                           "--T", "1e6"],
            "boundcalc simulate --algo UCB --means 0.9,0.5 --T 200 --runs 2 --json":
                bc + ["simulate", "--algo", "UCB", "--means", "0.9,0.5", "--T", "200", "--runs", "2", "--json"]}
    load0 = os.getloadavg()
    for args in cmds.values():
        cpu(args)
    got = {k: [] for k in cmds}
    for _ in range(repeats):
        for k, args in cmds.items():
            got[k].append(cpu(args))
    load1 = os.getloadavg()
    base_key = next(iter(cmds))
    base = statistics.median(got[base_key])
    lines = ["## CPU of the start-up against importing numpy and scipy.special (issue 23 §5)", "",
             f"CPU = user + sys of each subprocess (resource.getrusage of the children); the four commands in turn, "
             f"{repeats} rounds after a warm-up round; bytecode caching as configured "
             f"(PYTHONDONTWRITEBYTECODE={os.environ.get('PYTHONDONTWRITEBYTECODE', '')!s}: boundcalc's own modules "
             f"compiled at every start). Load average (1, 5, 15 min) {load0[0]:.1f}, {load0[1]:.1f}, {load0[2]:.1f} "
             f"before, {load1[0]:.1f}, {load1[1]:.1f}, {load1[2]:.1f} after, on {os.cpu_count()} cores.", "",
             f"Goal: each command at most {CPU_GOAL:g}x the baseline.", "",
             "| command | median CPU (s) | min | max | median / baseline median | median of per-round ratios | goal |",
             "|---|---|---|---|---|---|---|"]
    for k, v in got.items():
        med = statistics.median(v)
        ratios = [x / b for x, b in zip(v, got[base_key])]
        ok = "" if k == base_key else ("ok" if med / base <= CPU_GOAL else "**OVER**")
        lines.append(f"| `{k}` | {med:.3f} | {min(v):.3f} | {max(v):.3f} | {med / base:.2f} | "
                     f"{statistics.median(ratios):.2f} | {ok} |")
    return lines, {"cpu": got, "load": (load0, load1)}


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


def main(quick: bool = False, cpu_only: bool = False) -> str:
    reps = 2 if quick else REPEATS
    cpu_lines, _ = startup_cpu(3 if quick else CPU_REPEATS)
    if cpu_only:
        return "\n".join(["# CLI start-up benchmark (benchmarks/bench_regret_cli.py --cpu-only)", "", *cpu_lines]) + "\n"
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
    lines = lines[:2] + cpu_lines + ["", "## Wall time", ""] + lines[2:]
    for label, med, lo, hi, rc, target, cached in rows:
        ok = "ok" if med < target else "**OVER**"
        bcache = "on (PYTHONPYCACHEPREFIX)" if cached else ("off (PYTHONDONTWRITEBYTECODE=1)" if no_bytecode else "on")
        lines.append(f"| `boundcalc {label}` | {bcache} | {med:.3f} | {lo:.3f} | {hi:.3f} | {rc} | < {target} s: {ok} |")
    lines += ["", "Floors on the same machine (same repeats, environment as configured):", "",
              "| command | median (s) | min | max |", "|---|---|---|---|"]
    lines += [f"| `{label}` | {med:.3f} | {lo:.3f} | {hi:.3f} |" for label, med, lo, hi in floors]
    for label, total, tops, chains in attrib:
        lines += ["", f"## Import time of `boundcalc {label}` (python -X importtime, one run; a module imported by "
                  "importlib.import_module, as the algorithm registry and the command modules are, is not listed)", "",
                  f"Sum of top-level imports: {total / 1000:.0f} ms.", "",
                  "| top-level import | cumulative ms |", "|---|---|"]
        lines += [f"| `{n}` | {c / 1000:.0f} |" for _, n, c in tops]
        if chains:
            lines += ["", "Heavy imports and who pulls them in (innermost first):", ""]
            lines += [f"* {c}" for c in chains]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    out = main(quick, "--cpu-only" in sys.argv)
    print(out)
    if not quick and "--cpu-only" not in sys.argv:
        Path(__file__).with_name("RESULTS_regret_cli.md").write_text(out)
