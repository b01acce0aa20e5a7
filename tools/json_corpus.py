"""Record and compare the --json output of a corpus of commands (issue 23: "no answer changes").

    python tools/json_corpus.py record OUT.json     # run every command of CORPUS, store its JSON
    python tools/json_corpus.py compare BASE.json   # run again, compare every number at the same JSON path

A number of the base must stay at the same path to a relative 1e-9 (absolute 1e-12 near 0); new keys are fine.
Timing fields (seconds, elapsed, cpu, estimate) and version strings are skipped. Commands run in-process through
the Typer app (one click command, CliRunner), each with its own fixed seed.
"""
from __future__ import annotations

import json
import math
import os
import re
import sys
import tempfile

CORPUS: list[str] = [
    # information quantities
    "kl --p 0.3 --q 0.5 --level 0.1",
    "kl --p 0.01:0.99:7 --q 0.5 --digits 30",
    "kl --p 0.3 --q 0.5 --sigma 1",
    "kl-inf --mu-star 0.6 --support 0,0.5,1 --weights 0.2,0.5,0.3",
    "kl-inf --mu-star 0.6 --support 0,0.5,1 --weights 0.2,0.5,0.3 --epsilon 0.5",
    "d-eps --mu 0.3 --mu-star 0.5 --epsilon 0.1 --N 100 --t 1e3",
    "d-eps --mu 0.3 --mu-star 0.5 --epsilon 0.01,0.1,1,10 --digits 30",
    "concentration --n 1000 --m 10 --epsilon 0.5 --mu 0.3 --x 0.35",
    "convert --rho 0.1 --delta 1e-6",
    "convert --epsilon 1",
    "convert --alpha 2 --rdp-epsilon 0.5 --delta 1e-5",
    # bounds
    "regret --setting finite --epsilon 0.5 --T 1e4,1e5,1e6",
    "regret --setting linear --rho 0.1 --T 1e6",
    "regret --setting linear --rho 0.001,0.01,0.1 --T 1e6",
    "regret --setting contextual --rho 0.1 --T 1e5",
    "regret --setting glm --ldp-epsilon 1 --T 1e5",
    "regret --setting finite --alpha 2 --rdp-epsilon 0.5 --T 1e5",
    "regret --setting linear --epsilon 1 --delta 1e-5 --T 1e6",
    "regret --setting finite --means 0.9,0.8,0.5 --epsilon 1 --T 1e5",
    "regret --setting finite --epsilon 0.5 --T 2000 --check --runs 30 --seed 1",
    "budget --setting linear --K 50 --d 5 --T 1e7 --max-overhead 0.1",
    "budget --setting finite --T 1e6 --max-overhead 0.5 --notion epsilon",
    "budget --setting linear --min-T --rho 0.1 --max-overhead 0.5",
    "budget --setting finite --means 0.9,0.6 --T 3000 --quantile 0.9 --max-regret 2000 --algo DP-SE --max-runs 40 --seed 4",
    "regret --setting finite --epsilon 1 --T 1e5 --prior uniform-gaps --instances 3 --seed 2",
    "budget --setting finite --means 0.9,0.6 --T 3000 --max-overhead 1 --by simulation --algo DP-SE --max-runs 40 --seed 3",
    "bounds --setting linear --kind lower",
    "bounds --setting finite",
    "bounds show 003-thm9",
    "episodes --algo adac-gope --rho 0.1 --T 1e6 --confidence 1e-3",
    "episodes --algo dp-klucb --epsilon 1 --T 1e5",
    "algorithms",
    "lower --means 0.5,0.4 --alt-means 0.5,0.6 --rho 0.05 --T 1e3",
    # simulation
    "simulate --algo DP-KLUCB --env mu2 --epsilon 1 --T 1e4 --runs 20 --seed 5",
    "simulate --algo DP-IMED,DP-SE,IMED --env mu1 --epsilon 0.5 --T 3000 --runs 10 --seed 6",
    "simulate --algo AdaC-GOPE --rho 0.1 --T 1e4 --runs 4 --seed 7",
    "simulate --algo AdaC-UCB --rho 0.1 --T 3000 --runs 6 --seed 8",
    "simulate --algo LinUCB-DGS --epsilon 1 --delta 0.1 --env dgs-synthetic --T 300 --runs 2 --seed 9",
    "simulate --algo LDP-OLS --ldp-epsilon 1 --ldp-delta 0.01 --T 300 --runs 2 --seed 10",
    "simulate --algo Lazy-DP-TS --env mu2 --epsilon 1 --T 2000 --runs 5 --seed 11",
    # verification
    "verify --claim 001-deps-closed-form",
    "verify --claim 001-deps-sandwich --box x=0.01:0.99,y=0.02:1,epsilon=1e-3:10",
    "check \"d_eps(mu, mu_star, epsilon) <= kl(mu, mu_star)\" --box mu=0.01:0.99,mu_star=0.02:1,epsilon=1e-3:10",
    "check \"sqrt(y*z) <= (y + z)/2\" --box y=0:1,z=0:1",
    "check \"x**2 >= 0.5\" --box x=0:1 --method grid",
    "audit --algo dp-se --epsilon 1 --trials 200 --seed 12",
    "worksheet list",
]

# Numbers that changed on purpose since the base was recorded, each with the issue item that changed it: a path
# matching one of these (a regular expression over "command: /json/path") is reported as expected, not as a change.
EXPECTED: dict[str, str] = {
    r"--by simulation .*: /rows\[0\]/(evaluations\[\d+\]/ci|measure/ci|overhead/ci)\[\d\]":
        "issue 22 §1/§5: the mean's interval has the unseen-tail floor (rule of three up to T·Δmax)",
    r"--quantile 0\.9 .*: /rows\[0\]/overhead/ci\[\d\]":
        "issue 22 §1: the quantile overhead's interval (order statistics; +inf guard)",
    r"^check .*: /limits/constant":
        "issue 22 §2 minor: literals up to the largest double (1.7976931348623157e308), not 1e308",
}

SKIP_KEY = re.compile(r"(seconds|elapsed|cpu|wall|time_s|per_algorithm|estimate|version|duration|started|finished)", re.I)


def run(cmd: str) -> dict:
    import shlex

    from typer.testing import CliRunner

    from boundcalc.cli.app import app

    args = shlex.split(cmd) + ["--json"]
    res = CliRunner().invoke(app, args, catch_exceptions=True)
    out = res.stdout if hasattr(res, "stdout") else res.output
    try:
        return {"exit": res.exit_code, "json": json.loads(out)}
    except Exception:
        return {"exit": res.exit_code, "json": None, "error": (out or "")[-500:]}


def leaves(obj, path=""):
    if isinstance(obj, dict):
        for k, v in obj.items():
            if SKIP_KEY.search(str(k)):
                continue
            yield from leaves(v, f"{path}/{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from leaves(v, f"{path}[{i}]")
    elif isinstance(obj, bool) or obj is None:
        return
    elif isinstance(obj, (int, float)):
        yield path, float(obj)


def compare(base: dict, new: dict) -> list[str]:
    bad = []
    for cmd, b in base.items():
        n = new.get(cmd)
        if n is None:
            bad.append(f"{cmd}: not run")
            continue
        if b["exit"] != n["exit"]:
            bad.append(f"{cmd}: exit {b['exit']} -> {n['exit']}")
        nl = dict(leaves(n.get("json")))
        for p, v in leaves(b.get("json")):
            if p not in nl:
                bad.append(f"{cmd}: {p} missing (was {v!r})")
                continue
            w = nl[p]
            if math.isnan(v) and math.isnan(w):
                continue
            if v == w or abs(v - w) <= max(1e-9 * max(abs(v), abs(w)), 1e-12):
                continue
            bad.append(f"{cmd}: {p} {v!r} -> {w!r}")
    return bad


def main(argv: list[str]) -> int:
    mode, path = argv[1], os.path.abspath(argv[2])
    only = argv[3:] or None
    os.environ.setdefault("COLUMNS", "160")
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        results = {c: run(c) for c in CORPUS if not only or any(o in c for o in only)}
    if mode == "record":
        with open(path, "w") as f:
            json.dump(results, f, indent=1, sort_keys=True)
        failed = [c for c, r in results.items() if r["exit"] != 0]
        print(f"recorded {len(results)} commands; nonzero exit: {failed}")
        return 0
    with open(path) as f:
        base = json.load(f)
    if only:
        base = {c: v for c, v in base.items() if c in results}
    bad = compare(base, results)
    expected = [b for b in bad if any(re.search(k, b) for k in EXPECTED)]
    bad = [b for b in bad if b not in expected]
    if expected:
        print(f"{len(expected)} numbers changed on purpose (EXPECTED):")
        for k, why in EXPECTED.items():
            n = sum(bool(re.search(k, b)) for b in expected)
            if n:
                print(f"  {n} x {why}")
    print("\n".join(bad[:200]) or f"all {len(base)} commands: every other number unchanged")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
