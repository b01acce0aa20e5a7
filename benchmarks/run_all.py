"""Run every benchmark (each in a fresh interpreter, one after the other) and rewrite its RESULTS_*.md file,
then refresh the "Latest figures" block of benchmarks/README.md from those files.

    python3 benchmarks/run_all.py                 # everything (about 50 minutes on 2 cores; perstep ~25 of them)
    python3 benchmarks/run_all.py contextual cli  # only some (names: the keys of BENCHMARKS below)
    python3 benchmarks/run_all.py --readme-only   # only refresh README.md from the existing RESULTS files

Benchmarks run sequentially on purpose: two timed jobs on a 2-core machine would disturb each other.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

# name -> (script, results file, lines of the results file quoted in the README)
BENCHMARKS = {
    "info": ("bench_info.py", "RESULTS_info.md", lambda l: l.startswith("|")),
    "engine": ("bench_engine.py", "RESULTS_engine.md",
               lambda l: "speed-up" in l or l.startswith("T = 1e9") or "tracemalloc peak" in l or l.startswith("## ")),
    "contextual": ("bench_contextual.py", "RESULTS_contextual.md",
                   lambda l: l.startswith("| |") or l.startswith("|---") or "**" in l or "before the performance" in l
                   or "full run measured" in l or "plain OFUL loop (a)" in l or "env.contexts`" in l),
    "executors": ("bench_executors.py", "RESULTS_executors.md",
                  lambda l: l.startswith("| workload") or l.startswith("|---|---|---|---|---|---|---|---|---|")
                  or (l.startswith("| ") and " | " in l and "x |" in l)),
    "cli": ("bench_regret_cli.py", "RESULTS_regret_cli.md",
            lambda l: l.startswith("| `boundcalc") or l.startswith("| command | bytecode") or l.startswith("|---|---|---|---|---|---|---|")),
    "perstep": ("bench_perstep.py", "RESULTS_perstep.md", lambda l: l.startswith("|")),
    "stretch_switch": ("bench_stretch_switch.py", "RESULTS_stretch_switch.md",
                       lambda l: l.startswith("|") or l.startswith("Rule (") or l.startswith("Cases where")),
    "linucb": ("bench_linucb.py", "RESULTS_linucb.md", lambda l: l.startswith("|")),
    "regret_check": ("bench_regret_check.py", "RESULTS_regret_check.md", lambda l: l.startswith("|")),
    "budget": ("bench_budget.py", "RESULTS_budget.md", lambda l: l.startswith("|")),
    "proofs": ("bench_proofs.py", "RESULTS_proofs.md",
               lambda l: l.startswith("|") or l.startswith("## ") or "boxes/s" in l),
    "verify": ("bench_verify.py", "RESULTS_verify.md", lambda l: l.startswith("**") or l.startswith("In one process")),
    "worksheets": ("bench_worksheets.py", "RESULTS_worksheets.md", lambda l: l.startswith("|") or l.startswith("## ")),
    "audit": ("bench_audit.py", "RESULTS_audit.md", lambda l: l.startswith("|") or l.startswith("`python -m")),
}
START, END = "<!-- figures:start (written by run_all.py) -->", "<!-- figures:end -->"


def run(name: str) -> tuple[int, float]:
    script = HERE / BENCHMARKS[name][0]
    print(f"== {name}: python3 {script.relative_to(HERE.parent)}", flush=True)
    t0 = time.perf_counter()
    rc = subprocess.run([sys.executable, str(script)], cwd=HERE.parent, stdout=subprocess.DEVNULL).returncode
    dt = time.perf_counter() - t0
    print(f"   exit {rc} after {dt:.0f} s", flush=True)
    return rc, dt


def figures_block() -> str:
    out = [START, ""]
    for name, (script, results, keep) in BENCHMARKS.items():
        path = HERE / results
        if not path.exists():
            out += [f"### {name} ({results}): not run yet", ""]
            continue
        lines = path.read_text().splitlines()
        machine = next((l for l in lines if l.startswith("Machine:")), "")
        out += [f"### {name} — [{results}]({results})", "", f"_{machine.split('. ', 1)[0]}._" if machine else "", ""]
        out += [f"**{l[3:]}**" if l.startswith("## ") else l for l in lines if keep(l)]
        out.append("")
    out.append(END)
    return "\n".join(out)


def refresh_readme() -> None:
    path = HERE / "README.md"
    text = path.read_text() if path.exists() else ""
    block = figures_block()
    if START in text and END in text:
        text = re.sub(re.escape(START) + r".*?" + re.escape(END), lambda _: block, text, flags=re.S)
    else:
        text = text.rstrip() + "\n\n## Latest figures\n\n" + block + "\n"
    path.write_text(text)
    print(f"README.md figures refreshed from {', '.join(b[1] for b in BENCHMARKS.values())}")


def main(argv: list[str]) -> int:
    if "--readme-only" in argv:
        refresh_readme()
        return 0
    names = [a for a in argv if not a.startswith("-")] or list(BENCHMARKS)
    bad = [n for n in names if n not in BENCHMARKS]
    if bad:
        print(f"unknown benchmark(s) {bad}; choose from {list(BENCHMARKS)}", file=sys.stderr)
        return 2
    failed = [n for n in names if run(n)[0] != 0]
    refresh_readme()
    if failed:
        print(f"FAILED: {failed}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
