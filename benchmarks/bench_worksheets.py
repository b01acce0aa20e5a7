"""The five worksheets' times: `boundcalc worksheet run NAME --fast|--full` per worksheet, wall and CPU seconds, and
the time of each experiment (from the run's own results.json).

Run: python3 benchmarks/bench_worksheets.py [--fast] [--full] [--out DIR]   (default --fast; --full takes about an
hour on the 2-core reference machine). With --from DIR (a folder holding NNN/results.json of earlier runs, e.g. the
--out of full runs) it tabulates those runs instead of running anything. Writes benchmarks/RESULTS_worksheets.md
(a section per mode; the other sections are kept).

Single experiments:
    python3 benchmarks/bench_worksheets.py --full --only 002/multi,003/fig5 [--data NAME=PATH ...] [--synthetic]
        [--limit SECONDS] [--step-cap N] [--out DIR] [--section TITLE] [--tabulate]
times each listed experiment (WS/ID, as in ``boundcalc worksheet list``) in a fresh process that drives the library's
Runner (boundcalc.experiments.base.Runner, the one ``boundcalc worksheet run`` uses, default step cap of the mode),
one after the other (``--step-cap N``: the Runner's step cap instead of the mode's default): wall seconds, CPU seconds (user + system of the child), the 1-minute load average at start and
end, the scale and each simulation's own seconds. ``--data NAME=PATH`` passes a real-data file through (autoloan=CSV,
lastfm=DIR; docs/real_data.md); ``--synthetic`` writes files of the published formats and sizes for the experiments
that need one and have none (benchmarks/bench_real_data.py's builders: a CPRM-12-001-format CSV of 208,000 rows, a
HetRec 2011 Last.fm directory of 1,892 users and 17,632 artists). An experiment running longer than ``--limit``
seconds (default 2100 = 35 min) is stopped; the row then gives the measured progress (simulations finished, their
seconds) and an extrapolation, labelled as such. Writes the section TITLE (default "full mode, issue-16 experiments")
of RESULTS_worksheets.md, keeping the others; ``--section ''`` prints only. Rows of earlier invocations with the same
``--out`` are kept (one experiment per invocation builds one table); ``--tabulate`` rewrites the table from them
without running anything.
"""

from __future__ import annotations

import json
import os
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
    """Replace the section "## {section_mode} mode" of RESULTS_worksheets.md (or "## {section_mode}" when it names a
    whole heading, e.g. "full mode, issue-16 experiments"), keeping every other section in its place."""
    head = ("# Worksheet times (benchmarks/bench_worksheets.py)\n\n`boundcalc worksheet run NAME --fast|--full`; "
            "the tests run the fast set (tests/experiments/test_worksheets.py), the full set is run by hand.\n\n")
    title = section_mode if section_mode not in ("fast", "full") else f"{section_mode} mode"
    sections: dict[str, str] = {}
    if RESULTS.exists():
        for m in re.finditer(r"^## ([^\n]+)\n.*?(?=^## |\Z)", RESULTS.read_text(), flags=re.S | re.M):
            sections[m.group(1).strip()] = m.group(0)
    sections[title] = text
    order = [t for t in ("fast mode", "full mode") if t in sections] + [t for t in sections
                                                                         if t not in ("fast mode", "full mode")]
    RESULTS.write_text(head + "\n".join(sections[t].rstrip() + "\n" for t in order))


# ---------------------------------------------------------------------------------------------- single experiments
# Which real-data file an experiment reads (Runner.data key); the others need none.
NEEDS_DATA = {"002/autoloan": "autoloan", "004/lastfm": "lastfm", "004/fig2c": "lastfm"}
DEFAULT_LIMIT = 2100.0  # seconds (35 min)
SECTION = "full mode, issue-16 experiments"


def _loadavg() -> str:
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "?"


def child(argv: list[str]) -> None:
    """In the fresh process: run one experiment through the Runner; progress lines (JSON) go to PROGRESS as
    simulations finish, the summary to RESULT. argv: WS EXP MODE CAP OUT PROGRESS RESULT [NAME=PATH ...] (CAP: the
    Runner's step_cap, "default" for the mode's)."""
    ws_name, exp_id, mode, cap, out, progress, result, *items = argv
    t_start = time.perf_counter()
    sys.path.insert(0, str(ROOT))
    from boundcalc.experiments import get
    from boundcalc.experiments.base import Runner

    data = dict(item.split("=", 1) for item in items)
    ws = get(ws_name)

    def on_progress(done: int, total: int, what: str) -> None:
        sims = runner.current.simulations if runner.current is not None else []
        with open(progress, "a") as f:
            f.write(json.dumps({"t": time.perf_counter() - t_start, "done": done, "total": total,
                                "last": ({"label": sims[-1].label, "T": sims[-1].T, "runs": sims[-1].runs,
                                          "seconds": round(sims[-1].seconds, 2)} if sims and done else None)}) + "\n")

    runner = Runner(ws, mode=mode, out=out, data=data, on_progress=on_progress,
                    step_cap=None if cap == "default" else int(float(cap)))
    t_import = time.perf_counter() - t_start
    with open(progress, "a") as f:  # the scale first, so a stopped run's row still shows it
        f.write(json.dumps({"t": t_import, "scale": ws.experiment(exp_id).scales[mode], "step_cap": runner.step_cap},
                           default=str) + "\n")
    res = runner.run_experiment(exp_id)
    Path(result).write_text(json.dumps({
        "seconds": res.seconds, "import_seconds": t_import, "scale": res.scale, "step_cap": runner.step_cap,
        "simulations": [{"label": m.label, "algorithm": m.algorithm, "T": m.T, "T_requested": m.T_requested,
                         "runs": m.runs, "seconds": m.seconds} for m in res.simulations],
        "capped": [m.label for m in res.simulations if m.T < m.T_requested],
        "notes": [n for n in res.notes if "would take about" in n],
        "figures": res.figures, "claims": [c.verdict for c in res.figure_claims]}, default=str))


def synthetic_data(name: str, folder: Path) -> tuple[str, str]:
    """A file of the published format and size for ``name`` (bench_real_data's builders); (path, description)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_real_data as brd

    folder.mkdir(parents=True, exist_ok=True)
    if name == "autoloan":
        path = folder / "CPRM_AutoLoan_synthetic.csv"
        if not path.exists():
            brd.autoloan_file(path)
        return str(path), (f"synthetic CPRM-12-001-format CSV, 208,000 rows, {path.stat().st_size / 1e6:.1f} MB "
                           "(bench_real_data.autoloan_file, seed 0)")
    if name == "lastfm":
        path = folder / "hetrec2011-lastfm-2k"
        if not (path / "user_taggedartists.dat").exists():
            brd.lastfm_dir(path)
        size = sum(f.stat().st_size for f in path.iterdir())
        return str(path), ("synthetic HetRec 2011 Last.fm-format directory: 1,892 users, 17,632 artists, 11,946 tags, "
                           f"94,600 user_artists rows (50 per user), 186,479 user_taggedartists rows, "
                           f"{size / 1e6:.1f} MB (bench_real_data.lastfm_dir, seed 0)")
    raise ValueError(name)


def time_single(key: str, mode: str, out: Path, data: dict[str, str], limit: float, cap: str = "default") -> dict:
    """Run one experiment WS/ID in a fresh process (no nice); stop it after ``limit`` seconds."""
    ws_name, exp_id = key.split("/")
    work = out / (key.replace("/", "_") + ("" if cap == "default" else f"_cap{cap}"))
    work.mkdir(parents=True, exist_ok=True)
    progress, result = work / "progress.jsonl", work / "result.json"
    for f in (progress, result):
        if f.exists():
            f.unlink()
    items = [f"{k}={v}" for k, v in data.items() if NEEDS_DATA.get(key) == k]
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", ws_name, exp_id, mode, cap, str(work / "out"),
           str(progress), str(result), *items]
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    load0, date0 = _loadavg(), time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    stopped = False
    try:
        _, err = proc.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        stopped = True
        proc.kill()  # only the child this function started
        _, err = proc.communicate()
    wall = time.perf_counter() - t0
    load1 = _loadavg()
    row = {"key": key, "cap_opt": cap, "wall": wall, "load_start": load0, "load_end": load1, "started": date0, "stopped": stopped,
           "data": items}
    # CPU of the child: resource usage of terminated children, read just after it ended (one child at a time)
    row["cpu"] = None
    lines = [json.loads(x) for x in progress.read_text().splitlines()] if progress.exists() else []
    row["progress"] = [x for x in lines if "done" in x]
    for x in lines:
        if "scale" in x:
            row["scale"], row["step_cap"] = x["scale"], x["step_cap"]
    if result.exists():
        row.update(json.loads(result.read_text()))
    elif not stopped:
        raise RuntimeError(f"{key} failed (exit {proc.returncode}):\n{err[-3000:]}")
    return row


def extrapolation(row: dict) -> str:
    """For a stopped run: what was measured and a linear extrapolation (labelled). The simulations finished are
    timed; the remaining ones are assumed to cost the mean of the finished ones (a guess: they differ in T, ρ, d)."""
    lines = [x for x in row["progress"] if x.get("last")]
    if not lines:
        return (f"stopped at {row['wall']:.0f} s before its first simulation finished; EXTRAPOLATION: more than "
                f"{row['wall']:.0f} s (no finished simulation to extrapolate from)")
    done, total = lines[-1]["done"], lines[-1]["total"]
    spent = sum(x["last"]["seconds"] for x in lines)
    t_done = lines[-1]["t"]  # the child's clock when the last finished simulation ended
    est = t_done / done * total
    return (f"stopped at {row['wall']:.0f} s: {done} of {total} announced simulations finished by "
            f"{t_done:.0f} s (" + "; ".join(f"{x['last']['label']} {x['last']['seconds']:.0f}" for x in lines)
            + f"; {spent:.0f} s of simulation); EXTRAPOLATION, not measured (the remaining simulations at the finished "
            f"ones' mean cost, at this load): about {est:.0f} s = {est / 60:.0f} min in all")


def _num(v) -> str:
    """10^k for powers of ten from 1000 on, else the number as given."""
    if isinstance(v, int) and v >= 1000 and 10 ** (len(str(v)) - 1) == v:
        return f"10^{len(str(v)) - 1}"
    return str(v)


def single_table(rows: list[dict], mode: str, files: dict[str, str]) -> str:
    date = time.strftime("%Y-%m-%d", time.gmtime())
    cores = os.cpu_count()
    out = [f"## {SECTION}" if mode == "full" else f"## {mode} mode, single experiments", "",
           " and ".join(f"`python benchmarks/bench_worksheets.py --{mode} --only "
                        f"{','.join(dict.fromkeys(r['key'] for r in rows if r.get('cap_opt', 'default') == c))}"
                        + ("" if c == "default" else f" --step-cap {c}") + " --synthetic`"
                        for c in dict.fromkeys(r.get("cap_opt", "default") for r in rows))
           + f", run on {date}: each experiment in a fresh process driving the library's Runner (the one `boundcalc "
           f"worksheet run --{mode}` uses, its default step cap unless the row says otherwise), one after the other, without `nice`. Machine: "
           f"{platform.machine()}, {cores} cores shared with other jobs, Python {platform.python_version()}. Wall and CPU "
           "seconds are the child process's (CPU = user + system; a wall time well above the CPU time means the "
           "process waited for a core); the load is the 1-minute load average at the start and the end of each run. "
           "The experiment's own seconds (Runner) exclude the imports and include loading its data file.", ""]
    if files:
        out += ["The real-data experiments are timed on **synthetic files of the published formats** (the data sets "
                "cannot be downloaded here): the times are the cost at the published sizes, the curves and verdicts "
                "say nothing about the papers' data."]
        out += [f"- {k}: {v}" for k, v in files.items()]
        out.append("")
    out += ["| experiment | wall s | CPU s | load start → end | experiment s | scale | step cap | simulations (s) |",
            "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        scale = ", ".join(f"{k} = {_num(v)}" for k, v in (r.get("scale") or {}).items())
        cpu = "—" if r["cpu"] is None else f"{r['cpu']:.1f}"
        if r["stopped"]:
            sims = extrapolation(r)
            exp_s = "—"
        else:
            ms = r.get("simulations", [])

            def one(m):
                return f"{m['label']} {m['seconds']:.1f}" + (f" (T {_num(m['T'])} of {_num(m['T_requested'])})"
                                                             if m["T"] < m["T_requested"] else "")
            if len(ms) > 6:  # the count, the sum and the three slowest
                top = sorted(ms, key=lambda m: -m["seconds"])[:3]
                sims = (f"{len(ms)} simulations, {sum(m['seconds'] for m in ms):.1f} s in all; slowest: "
                        + "; ".join(one(m) for m in top))
            else:
                sims = "; ".join(one(m) for m in ms) or "none"
            exp_s = f"{r['seconds']:.1f}"
        cap = r.get("step_cap", "")
        cap = "none" if cap == 0 else (_num(cap) if isinstance(cap, int) else "?")
        name = r["key"] + ("" if r.get("cap_opt", "default") == "default" else f" (--step-cap {r['cap_opt']})")
        out.append(f"| {name} | {r['wall']:.1f} | {cpu} | {r['load_start']} → {r['load_end']} | {exp_s} | "
                   f"{scale or '?'} | {cap} | {sims} |")
    return "\n".join(out) + "\n"


def main_single(argv: list[str]) -> None:
    mode = "full" if "--full" in argv else "fast"
    keys = [k.strip() for k in argv[argv.index("--only") + 1].split(",") if k.strip()]
    out = Path(argv[argv.index("--out") + 1]) if "--out" in argv else Path(tempfile.mkdtemp(prefix="bench-ws1-"))
    limit = float(argv[argv.index("--limit") + 1]) if "--limit" in argv else DEFAULT_LIMIT
    cap = argv[argv.index("--step-cap") + 1] if "--step-cap" in argv else "default"
    section = argv[argv.index("--section") + 1] if "--section" in argv else (SECTION if mode == "full" else
                                                                             f"{mode} mode, single experiments")
    data = {}
    for i, a in enumerate(argv):
        if a == "--data":
            k, _, v = argv[i + 1].partition("=")
            data[k] = v
    files = {k: f"user file {v}" for k, v in data.items()}
    for key in keys:
        need = NEEDS_DATA.get(key)
        if need and need not in data and "--synthetic" in argv:
            data[need], files[need] = synthetic_data(need, out / "data")
    # rows of earlier invocations with the same --out are kept (run one experiment per invocation, same table)
    rows = json.loads((out / "rows.json").read_text()) if (out / "rows.json").exists() else []
    for key in keys if "--tabulate" not in argv else []:  # --tabulate: only rewrite the table of --out's rows
        rows = [r for r in rows if (r["key"], r.get("cap_opt", "default")) != (key, cap)]
        c0 = _cpu_children()
        row = time_single(key, mode, out, data, limit, cap)
        row["cpu"] = _cpu_children() - c0
        if NEEDS_DATA.get(key) in files:
            row["data_desc"] = files[NEEDS_DATA[key]]
        rows.append(row)
        print(f"{key}: wall {row['wall']:.1f} s, CPU {row['cpu']:.1f} s, load {row['load_start']} -> "
              f"{row['load_end']}" + (" STOPPED" if row["stopped"] else f", experiment {row['seconds']:.1f} s"),
              flush=True)
        (out / "rows.json").write_text(json.dumps(rows, default=str, indent=1))
    for r in rows:  # the data files of earlier invocations
        for item in r.get("data", []):
            k = item.split("=", 1)[0]
            if k not in files and r.get("data_desc"):
                files[k] = r["data_desc"]
    text = single_table(rows, mode, {k: v for k, v in files.items() if any(NEEDS_DATA.get(r["key"]) == k
                                                                          for r in rows)})
    if section:
        write(section, text.replace(text.splitlines()[0], f"## {section}", 1))
    print(text)


def main(argv: list[str]) -> None:
    if argv and argv[0] == "--child":
        child(argv[1:])
        return
    if "--only" in argv:
        main_single(argv)
        return
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
