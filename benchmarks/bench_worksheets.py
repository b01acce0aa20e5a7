"""The five worksheets' times: `boundcalc worksheet run NAME --fast|--full` per worksheet, wall and CPU seconds, and
the time of each experiment (from the run's own results.json).

Run: python3 benchmarks/bench_worksheets.py [--fast] [--full] [--out DIR]   (default --fast; --full takes about an
hour on the 2-core reference machine). With --from DIR (a folder holding NNN/results.json of earlier runs, e.g. the
--out of full runs) it tabulates those runs instead of running anything. Writes benchmarks/RESULTS_worksheets.md
(a section per mode; the other mode's section is kept).
"""

from __future__ import annotations

import json
import platform
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NAMES = ("000", "001", "002", "003", "004")
RESULTS = ROOT / "benchmarks" / "RESULTS_worksheets.md"


def _cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_one(name: str, mode: str, out: Path) -> dict:
    cmd = [sys.executable, "-m", "boundcalc", "worksheet", "run", name, f"--{mode}", "--out", str(out / name), "--json"]
    c0, t0 = _cpu_children(), time.perf_counter()
    res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True)
    wall, cpu = time.perf_counter() - t0, _cpu_children() - c0
    js = json.loads(res.stdout)
    return {"name": name, "wall": wall, "cpu": cpu, "timings": js["timings"], "step_cap": js["step_cap"]}


def from_results(folder: Path, name: str) -> dict:
    data = json.loads((folder / name / "results.json").read_text())
    return {"name": name, "wall": data["timings"]["total"], "cpu": None, "timings": data["timings"],
            "step_cap": data["step_cap"]}


def table(rows: list[dict], mode: str, source: str) -> str:
    load = Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "?"
    out = [f"## {mode} mode", "", f"{source}. Machine: {platform.machine()}, Python {platform.python_version()}; "
           f"1-minute load average when written: {load} (other jobs inflate wall times).", "",
           "| worksheet | wall s | CPU s | step cap | experiments (s) |", "|---|---|---|---|---|"]
    for r in rows:
        exps = ", ".join(f"{k} {v:.1f}" for k, v in r["timings"].items() if k != "total")
        cpu = "—" if r["cpu"] is None else f"{r['cpu']:.1f}"
        out.append(f"| {r['name']} | {r['wall']:.1f} | {cpu} | {r['step_cap'] or 'none'} | {exps} |")
    out.append(f"| all | {sum(r['wall'] for r in rows):.1f} | "
               + ("—" if any(r["cpu"] is None for r in rows) else f"{sum(r['cpu'] for r in rows):.1f}") + " | | |")
    return "\n".join(out) + "\n"


def write(section_mode: str, text: str) -> None:
    """Replace this mode's section of RESULTS_worksheets.md, keeping the other mode's."""
    head = ("# Worksheet times (benchmarks/bench_worksheets.py)\n\n`boundcalc worksheet run NAME --fast|--full`; "
            "the tests run the fast set (tests/test_worksheets.py), the full set is run by hand.\n\n")
    sections = {}
    if RESULTS.exists():
        for m in re.finditer(r"^## (fast|full) mode\n.*?(?=^## |\Z)", RESULTS.read_text(), flags=re.S | re.M):
            sections[m.group(1)] = m.group(0)
    sections[section_mode] = text
    RESULTS.write_text(head + "\n".join(sections[m].rstrip() + "\n" for m in ("fast", "full") if m in sections))


def main(argv: list[str]) -> None:
    if "--from" in argv:
        folder = Path(argv[argv.index("--from") + 1])
        mode = "full" if "--full" in argv else "fast"
        rows = [from_results(folder, n) for n in NAMES]
        write(mode, table(rows, mode, f"From the runs in {folder.name}/ (their own timings; CPU not recorded)"))
        return
    modes = [m for m in ("fast", "full") if f"--{m}" in argv] or ["fast"]
    out = Path(argv[argv.index("--out") + 1]) if "--out" in argv else Path(tempfile.mkdtemp(prefix="bench-ws-"))
    for mode in modes:
        rows = []
        for n in NAMES:
            rows.append(run_one(n, mode, out / mode))
            print(f"{mode} {n}: wall {rows[-1]['wall']:.1f} s, CPU {rows[-1]['cpu']:.1f} s", flush=True)
        write(mode, table(rows, mode, "`boundcalc worksheet run NAME --" + mode + "`, one fresh process each"))
    print(RESULTS.read_text())


if __name__ == "__main__":
    main(sys.argv[1:])
