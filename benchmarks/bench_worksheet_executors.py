"""Seed 001's full worksheet on the executors (issue 24 item 11): `worksheet run 001 --full --no-claims` with its
simulations' blocks in this process and on `--executor processes --workers 2`, at a fraction of the paper's horizons.

Run: python3 benchmarks/bench_worksheet_executors.py [--divide 100] [--workers 1,2] [--out DIR] [--section TITLE]

Each configuration runs in a fresh process driving the library's Session (the one ``boundcalc worksheet run`` uses):
seed 001's three experiments at the full scale (100 runs; Figure 8: 20 runs, 100 values of ε) with every horizon
divided by ``--divide`` (Figure 1: 10^7 → 10^5, Figures 4–7: 10^6 → 10^4, Figure 8: 10^7 → 10^5 at the default 100),
claims skipped. Measured: wall seconds, CPU seconds of the child and its worker processes (user + system), the
1-minute load at start and end, each simulation's seconds; and whether both configurations gave the same numbers
(every simulation's final mean and interval). The full run's time with 2 workers is then EXTRAPOLATED, not
measured: the measured single-process full run (RESULTS_worksheets.md, "full mode") times the wall-time ratio measured
here, and the bound a quiet machine allows (each 100-run simulation is 2 blocks). Writes the section TITLE of
RESULTS_worksheets.md (bench_worksheets.write keeps the other sections); ``--section ''`` prints only;
``--tabulate DIR`` rewrites it from DIR/rows.json of an earlier run without running anything.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SECTION = "seed 001 full mode on the executors (issue 24 item 11)"


def _cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _load() -> str:
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "?"


def scaled_worksheet(divide: int):
    """Seed 001's worksheet with its full scales' horizons divided by ``divide`` (runs, grids kept)."""
    import copy

    from boundcalc.experiments import get

    ws = copy.deepcopy(get("001"))
    for e in ws.experiments:
        e.scales["full"] = {**e.scales["full"], "T": max(1000, int(e.scales["full"]["T"]) // divide)}
    return ws


def child(divide: int, workers: int, out: str, result: str) -> None:
    sys.path.insert(0, str(ROOT))
    from boundcalc.experiments.session import Session

    from boundcalc.montecarlo.settings import ExecutorPlan, Simulation

    plan = ExecutorPlan() if workers == 1 else ExecutorPlan("processes", workers)
    t0 = time.perf_counter()
    s = Session(scaled_worksheet(divide), mode="full", out=out, echo=False, claims=False,
                simulation=Simulation(executor=plan))
    rep = s.run_all()
    sims = [{"experiment": m.experiment, "label": m.label, "algorithm": m.algorithm, "T": m.T, "runs": m.runs,
             "seconds": m.seconds, "final_mean": m.final_mean, "final_ci": m.final_ci}
            for e in rep.experiments for m in e.simulations]
    Path(result).write_text(json.dumps({"seconds": time.perf_counter() - t0, "timings": rep.timings,
                                        "simulations": sims}))


def run(divide: int, workers: int, out: Path) -> dict:
    work = out / f"w{workers}"
    work.mkdir(parents=True, exist_ok=True)
    result = work / "result.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    load0, date0 = _load(), time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    c0, t0 = _cpu_children(), time.perf_counter()
    subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", str(divide), str(workers),
                    str(work / "out"), str(result)], cwd=ROOT, env=env, check=True)
    wall, cpu = time.perf_counter() - t0, _cpu_children() - c0
    data = json.loads(result.read_text())
    return {"workers": workers, "wall": wall, "cpu": cpu, "load": f"{load0} → {_load()}", "started": date0, **data}


# The single-process full run of seed 001 measured before (this file's "full mode" section: 4,890 s wall, 3,774 s CPU
# at load 2-3, all algorithms at the paper's horizons) and the estimate for a quiet machine (26-29 CPU min).
FULL_SINGLE_WALL, FULL_SINGLE_CPU, QUIET_CPU = 4890.0, 3774.0, (26 * 60.0, 29 * 60.0)


def unique_sims(r: dict) -> list[dict]:
    """The simulations actually run (a simulation shared by two figures, e.g. IMED, is recorded in each)."""
    seen, out = set(), []
    for s in r["simulations"]:
        key = (s["label"], s["T"], s["runs"])
        if key not in seen:
            seen.add(key)
            out.append(s)
    return out


def report(rows: list[dict], divide: int) -> str:
    full_T = {"fig1": 10**7, "figs4-7": 10**6, "fig8": 10**7}
    base = rows[0]
    same = all([(a["final_mean"], a["final_ci"]) for a in r["simulations"]]
               == [(a["final_mean"], a["final_ci"]) for a in base["simulations"]] for r in rows)
    name = lambda r: "in-process" if r["workers"] == 1 else f"processes, --workers {r['workers']}"  # noqa: E731
    out = [f"## {SECTION}", "",
           f"`python benchmarks/bench_worksheet_executors.py --divide {divide}`: seed 001's experiments at the full "
           f"scale (100 runs; Figure 8: 20 runs × 100 values of ε) with every horizon divided by {divide} "
           f"(Figure 1: T = {full_T['fig1'] // divide:g}, Figures 4–7: T = {full_T['figs4-7'] // divide:g}, "
           f"Figure 8: T = {full_T['fig8'] // divide:g}), claims skipped (`--no-claims`), each configuration in a "
           "fresh process (under `nice -n 10`) driving the library's Session, i.e. what `boundcalc worksheet run "
           "001 --full --no-claims [--executor processes --workers 2]` runs. The 2 cores were shared with other jobs "
           "(the load column), so wall times depend on the load; CPU = user + system of the process and its worker "
           "processes. At these horizons the algorithms take other paths than at the paper's (Lazy-DP-TS's thinning "
           "starts at T = 5·10^5, the leader stretches at 3·10^3–10^5), so the fraction's mix is not the full run's.",
           "", "| executor | started | load start → end | wall s | CPU s | simulations s | of which Lazy-DP-TS s | "
           "rest s (bounds, figures) |", "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        u = unique_sims(r)
        sim = sum(x["seconds"] for x in u)
        lazy = sum(x["seconds"] for x in u if x["algorithm"] == "Lazy-DP-TS")
        out.append(f"| {name(r)} | {r['started']} | {r['load']} | {r['wall']:.1f} | {r['cpu']:.1f} | {sim:.1f} | "
                   f"{lazy:.1f} ({100 * lazy / sim:.0f}%) | {max(r['timings']['total'] - sim, 0):.1f} |")
    out += ["", f"Numbers: {'identical' if same else 'DIFFERENT'} in both configurations (every simulation's final "
            "mean and 95% interval; the engine's seeding contract makes them bit-identical whatever the executor, "
            "tests/experiments/test_worksheets.py::test_executor_processes_gives_bit_identical_numbers).", ""]
    if len(rows) > 1:
        r1, r2 = rows[0], rows[-1]
        ratio = r2["wall"] / r1["wall"]
        sim1 = sum(x["seconds"] for x in unique_sims(r1))
        sim2 = sum(x["seconds"] for x in unique_sims(r2))
        out += ["**The full run with 2 workers: EXTRAPOLATION, not measured** (the full run itself was not made: "
                "on this shared machine it would hold both cores for most of an hour).", "",
                f"- Measured here: with {r2['workers']} workers the fraction took {ratio:.2f} × the in-process wall "
                f"time (simulations {sim2 / sim1:.2f} ×), CPU {r2['cpu'] / r1['cpu']:.2f} ×.",
                f"- Scaling the single-process full run measured before (4,890 s wall, 3,774 s CPU at load 2–3; "
                f"section \"full mode\" above) by this ratio: about {FULL_SINGLE_WALL * ratio / 60:.0f} min wall "
                f"with {r2['workers']} workers. The ratio was measured at the load above, where a second process "
                "mostly buys a larger share of the shared cores; the CPU does not shrink (the same work), so on 2 "
                f"free cores the full run cannot take less than its CPU / 2 ≈ {FULL_SINGLE_CPU / 120:.0f} min (from "
                "the measured 3,774 CPU s).",
                "- On a quiet machine (2 free cores): every simulation of Figures 1 and 4–7 has 100 runs = 2 blocks "
                "of 50, which the 2 workers run at once, so its wall time halves at best; Figure 8 (20 runs, one "
                "block) and the bounds and figures do not gain. From the issue's estimate of 26–29 CPU min "
                f"single-process: about {QUIET_CPU[0] / 120:.0f}–{QUIET_CPU[1] / 120:.0f} min wall with 2 workers "
                "(a bound, not a measurement: the workers' fork and pickling costs come on top).", ""]
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> None:
    if argv[:1] == ["--child"]:
        child(int(argv[1]), int(argv[2]), argv[3], argv[4])
        return
    import argparse

    p = argparse.ArgumentParser()
    p.add_argument("--divide", type=int, default=100)
    p.add_argument("--workers", default="1,2")
    p.add_argument("--out", default=None)
    p.add_argument("--section", default=SECTION)
    p.add_argument("--tabulate", default=None)
    a = p.parse_args(argv)
    import tempfile

    if a.tabulate:
        rows = json.loads((Path(a.tabulate) / "rows.json").read_text())
    else:
        out = Path(a.out or tempfile.mkdtemp(prefix="bench-ws-ex-"))
        rows = [run(a.divide, int(w), out) for w in a.workers.split(",")]
        (out / "rows.json").write_text(json.dumps(rows))
    text = report(rows, a.divide)
    print(text)
    if a.section:
        sys.path.insert(0, str(ROOT / "benchmarks"))
        import bench_worksheets

        bench_worksheets.write(a.section, text)


if __name__ == "__main__":
    main(sys.argv[1:])
