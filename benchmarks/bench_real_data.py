"""Times of the issue-16 item-9 experiments: worksheet 002 `logistic` (synthetic logistic bandit, LDP-SGD against
LDP-GLOC) and the real-data experiments 002 `autoloan` / 004 `lastfm` / 004 `fig2c` on synthetic files of the published data sets'
sizes (CPRM-12-001: ~208,000 applications; HetRec 2011 Last.fm: 1,892 users, 17,632 artists; the real files cannot be
downloaded here, so only the cost is measured, not the papers' curves).

Run: python3 benchmarks/bench_real_data.py [--full] [--T N] [--runs N] [--only logistic,autoloan,lastfm,fig2c]
Default: fast scales; --full: the experiments' full scales (T = 10^5 for 002, 10^4 for LastFM, 5,000 for the LastFM
replay fig2c); --T/--runs override.
Writes benchmarks/RESULTS_real_data.md.
"""

from __future__ import annotations

import csv
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
RESULTS = ROOT / "benchmarks" / "RESULTS_real_data.md"


def autoloan_file(path: Path, n: int = 208_000, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    fico = rng.integers(600, 850, n)
    term = rng.choice([36, 48, 60, 72], n)
    amount = rng.uniform(5000, 40000, n)
    rate = rng.uniform(0.1, 0.5, n)
    comp = rng.uniform(3, 7, n)
    car = rng.choice(["N", "U", "R"], n)
    mp = amount / term * rng.uniform(1.0, 1.2, n)
    v = (fico - 700) / 100 - (mp * term - amount) / 10000
    apply = (rng.random(n) < 1 / (1 + np.exp(-v))).astype(int)
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["apply", "Primary_FICO", "Term", "Amount_Approved", "onemonth", "Competition_rate", "CarType", "mp"])
        for row in zip(apply, fico, term, amount.round(2), rate.round(4), comp.round(3), car, mp.round(2)):
            w.writerow(row)


def lastfm_dir(d: Path, users: int = 1892, artists: int = 17632, tags: int = 11946, listens: int = 50,
               tag_rows: int = 186_479, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    d.mkdir(parents=True, exist_ok=True)
    with open(d / "user_artists.dat", "w") as f:
        f.write("userID\tartistID\tweight\n")
        for u in range(users):
            for a in rng.choice(artists, listens, replace=False) + 1:
                f.write(f"{u + 2}\t{a}\t{int(rng.integers(1, 5000))}\n")
    with open(d / "user_taggedartists.dat", "w") as f:
        f.write("userID\tartistID\ttagID\tday\tmonth\tyear\n")
        ua, aa, ga = rng.integers(2, users + 2, tag_rows), rng.integers(1, artists + 1, tag_rows), rng.integers(
            1, tags + 1, tag_rows)
        for u, a, g in zip(ua, aa, ga):
            f.write(f"{u}\t{a}\t{g}\t1\t5\t2009\n")


def time_experiment(ws_name: str, exp_id: str, data: dict, mode: str, scale: dict | None, out: Path) -> tuple:
    from boundcalc.experiments import get
    from boundcalc.experiments.base import Runner

    ws = get(ws_name)
    e = ws.experiment(exp_id)
    old = dict(e.scales[mode])
    if scale:
        e.scales[mode] = {**old, **scale}
    try:
        r = Runner(ws, mode=mode, out=str(out / exp_id), data=data, step_cap=0)
        t0 = time.perf_counter()
        res = r.run_experiment(exp_id)
        return time.perf_counter() - t0, dict(e.scales[mode]), res
    finally:
        e.scales[mode] = old


def main(argv: list[str]) -> None:
    mode = "full" if "--full" in argv else "fast"
    scale = {}
    for key in ("--T", "--runs"):
        if key in argv:
            scale[key[2:]] = int(float(argv[argv.index(key) + 1]))
    only = argv[argv.index("--only") + 1].split(",") if "--only" in argv else ["logistic", "autoloan", "lastfm", "fig2c"]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        data = {}
        if "autoloan" in only:
            t0 = time.perf_counter()
            autoloan_file(tmp / "loan.csv")
            data["autoloan"] = str(tmp / "loan.csv")
            from boundcalc.data import autoloan

            t1 = time.perf_counter()
            autoloan.make_env(data["autoloan"])
            rows.append(("load autoloan (208,000 rows)", time.perf_counter() - t1, "", f"file written in {t1 - t0:.1f} s"))
        if "lastfm" in only or "fig2c" in only:
            lastfm_dir(tmp / "lastfm")
            data["lastfm"] = str(tmp / "lastfm")
            from boundcalc.data import lastfm

            t1 = time.perf_counter()
            lastfm.make_env(data["lastfm"])
            rows.append(("load lastfm (1,892 users, 17,632 artists)", time.perf_counter() - t1, "", ""))
        for ws_name, exp in (("002", "logistic"), ("002", "autoloan"), ("004", "lastfm"), ("004", "fig2c")):
            if exp not in only:
                continue
            secs, sc, res = time_experiment(ws_name, exp, data, mode, scale, tmp)
            claim = res.figure_claims[0].verdict if res.figure_claims else ""
            rows.append((f"{ws_name}/{exp}", secs, f"T = {sc['T']:g}, runs = {sc['runs']}", claim))
            print(rows[-1], flush=True)
    out = [f"# Real-data and logistic experiments (benchmarks/bench_real_data.py, {mode} mode)", "",
           f"Machine: {platform.machine()}, Python {platform.python_version()}; 1-minute load average: "
           f"{Path('/proc/loadavg').read_text().split()[0] if Path('/proc/loadavg').exists() else '?'}. The files are "
           "synthetic, of the published sizes (the data sets cannot be downloaded here): the times are the cost, the "
           "verdicts say nothing about the papers' data. An experiment's time includes loading its file again.", "",
           "| what | seconds | scale | note |", "|---|---|---|---|"]
    out += [f"| {a} | {b:.1f} | {c} | {d} |" for a, b, c, d in rows]
    RESULTS.write_text("\n".join(out) + "\n")
    print("\n".join(out))


if __name__ == "__main__":
    main(sys.argv[1:])
