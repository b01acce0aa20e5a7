"""The two questions of issue 14, answered by ``budget --by simulation`` (boundcalc.budget.measured), timed.

    python benchmarks/bench_budget_measured.py finite [--algo DP-IMED] [--runs 20] [--max-runs 80] [--verify]
    python benchmarks/bench_budget_measured.py linear [--runs 20] [--max-runs 80] [--verify]
    python benchmarks/bench_budget_measured.py workers [--reps 5] [--code CHECKOUT]

workers: issue 24 item 9, "on 2 cores, 2 workers must beat 1": the linear question asked through the CLI
        (``budget --by simulation``, the CLI defaults), mean overhead and ``--quantile 0.9``, in-process and with
        ``--executor processes --workers 2``, back to back (the order alternating), ``--reps`` times each; per run:
        wall, CPU (the command and its worker processes), the critical path (``_critical_path``: the CPU seconds on
        the longest chain, what a quiet machine's wall time would be), the search's estimate beside its actual
        seconds, the answer, the 1-minute load average; then the medians. Answers must be identical whatever the
        executor.

finite: the registry's 10-armed Bernoulli instance (--K 10: means 0.75 … 0.25), pure ε-DP, T = 1e6, regret at most
        2× the non-private counterpart's (overhead ≤ 100%);
linear: K = 50 actions, d = 5 (the registry's linear instance for --K 50 --d 5), ρ-zCDP, T = 1e7, overhead ≤ 10%,
        AdaC-GOPE against GOPE with the paper's schedule.

Prints the measured answer, its interval, the runs and seconds used, the up-front estimate, and (--verify) an
independent check on other seeds: the target's interval at b and at b/2. Records nothing by itself: copy the output
into benchmarks/RESULTS_budget_measured.md.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import time


def _cpu() -> float:
    """CPU seconds (user + system) of this process and of its finished children (the worker processes)."""
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


LINEAR_CLI = ["budget", "--setting", "linear", "--K", "50", "--d", "5", "--T", "1e7", "--max-overhead", "0.1",
              "--algo", "AdaC-GOPE", "--by", "simulation", "--json"]
EXECUTORS = {1: [], 2: ["--executor", "processes", "--workers", "2"]}


# The child process: the CLI, with the parent's own CPU seconds and every worker task's (pid, CPU seconds) written to
# $BOUNDCALC_BENCH_STATS at exit (LocalProcesses.task_cpu), for the critical path (``_critical_path``).
_CHILD = """
import atexit, json, os, resource, sys
from boundcalc.montecarlo import executors as ex
seen, warm, close = [], [], ex.LocalProcesses.close
def _close(self):
    seen.extend(getattr(self, "task_cpu", []))
    warm.extend(getattr(self, "warm_cpu", []))
    close(self)
ex.LocalProcesses.close = _close
def _dump():
    s = resource.getrusage(resource.RUSAGE_SELF)
    with open(os.environ["BOUNDCALC_BENCH_STATS"], "w") as fh:
        json.dump({"parent_cpu": s.ru_utime + s.ru_stime, "tasks": seen, "warm": warm}, fh)
atexit.register(_dump)
sys.argv = ["boundcalc", *sys.argv[1:]]
from boundcalc.cli.app import main
main()
"""


def _critical_path(stats: dict) -> float | None:
    """CPU seconds on the longest chain of a run with worker processes: the parent's own CPU plus, for every engine
    call, the busiest worker's CPU in it (with its waits for values another worker claimed: ``ProcessCache.obtain``) — the wall time the run would take on a quiet machine with a core per
    process (the parent waits, without CPU, while the workers compute); plus, for the warm tasks
    (``montecarlo.engine.warm``: the workers compute while the parent goes on with its own work, whose CPU seconds
    until it collects them are recorded with them), the busiest worker's CPU in them beyond the parent's
    meanwhile. None without worker tasks."""
    if not stats.get("tasks"):
        return None
    per: dict = {}
    for m, pid, cpu in stats["tasks"]:
        per.setdefault(m, {}).setdefault(pid, 0.0)
        per[m][pid] += cpu
    warm: dict = {}
    for during, pid, cpu in stats.get("warm", []):
        warm.setdefault(during, {}).setdefault(pid, 0.0)
        warm[during][pid] += cpu
    return (stats["parent_cpu"] + sum(max(w.values()) for w in per.values())
            + sum(max(0.0, max(w.values()) - during) for during, w in warm.items()))


def _timed_cli(args: list[str], code: str | None = None) -> dict:
    """One ``python -m boundcalc ARGS`` in a child process: wall seconds, CPU seconds (user + system of the child
    and of the worker processes it waited for: ``os.wait4``'s rusage) and its JSON output. ``code``: the checkout
    whose boundcalc runs (default: this one; another, e.g. the commit before a change, for a before/after)."""
    import subprocess
    import sys
    import tempfile

    root = code or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    fd, stats_path = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    env["BOUNDCALC_BENCH_STATS"] = stats_path
    with tempfile.TemporaryFile() as out:
        load = os.getloadavg()[0]
        t0 = time.perf_counter()
        p = subprocess.Popen([sys.executable, "-c", _CHILD, *args], stdout=out, stderr=subprocess.DEVNULL,
                             env=env, cwd=root)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode()
    with open(stats_path) as fh:
        stats = json.load(fh) if p.returncode == 0 else {}
    os.unlink(stats_path)
    if p.returncode != 0:
        raise SystemExit(f"boundcalc {' '.join(args)} exited {p.returncode}")
    cpu = ru.ru_utime + ru.ru_stime
    return {"wall": wall, "cpu": cpu, "load": load, "json": json.loads(text),
            "path": _critical_path(stats) if stats.get("tasks") else cpu}


def _answer(d: dict) -> tuple:
    """What must not depend on the executor: the answer, its interval and every decision."""
    r = d["rows"][0]
    return (d["value"], r["status"], json.dumps(r["interval"]), json.dumps(r["runs"], default=str),
            json.dumps([(e.get("budget"), e.get("runs"), e.get("status"), e.get("estimate"), e.get("ci"))
                        for e in r["evaluations"]], default=str))


def workers(reps: int, code: str | None = None) -> None:
    """Issue 24 item 9: the linear question in-process against 2 worker processes, back to back (see the module
    docstring). Prints one line per run and a summary of medians per question and executor."""
    import statistics

    print(f"python {' '.join(os.sys.argv)}; {os.cpu_count()} CPUs; load average at start "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    summary = []
    for label, extra in (("mean overhead", []), ("--quantile 0.9", ["--quantile", "0.9"])):
        seen: dict[int, list] = {1: [], 2: []}
        answers = set()
        for k in range(reps):
            for w in ((1, 2) if k % 2 == 0 else (2, 1)):
                r = _timed_cli(LINEAR_CLI + extra + EXECUTORS[w], code)
                row = r["json"]["rows"][0]
                answers.add(_answer(r["json"]))
                seen[w].append(r)
                rng = row.get("estimate_range") or [float("nan")] * 2
                print(f"  {label:15s} W={w} rep {k + 1}: wall {r['wall']:5.1f} s, CPU {r['cpu']:5.1f} s (critical path "
                      f"{r['path']:4.1f} s), search "
                      f"{row['seconds']:5.1f} s (estimate {row['estimate_seconds']:.1f} [{rng[0]:.1f}, {rng[1]:.1f}]),"
                      f" answer {r['json']['value']}, load {r['load']:.1f}", flush=True)
        med = {w: {q: statistics.median(x[q] for x in seen[w]) for q in ("wall", "cpu", "path", "load")}
               for w in (1, 2)}
        for w in (1, 2):
            med[w]["search"] = statistics.median(x["json"]["rows"][0]["seconds"] for x in seen[w])
            med[w]["estimate"] = statistics.median(x["json"]["rows"][0]["estimate_seconds"] for x in seen[w])
        d0 = seen[1][0]["json"]
        summary.append((label, med, d0["value"], d0["rows"][0]["interval"], len(answers) == 1))
    print("\nmedians over", reps, "runs each (W=1: in-process; W=2: --executor processes --workers 2):")
    for label, med, value, interval, same in summary:
        for w in (1, 2):
            m = med[w]
            print(f"  {label:15s} W={w}: wall {m['wall']:.2f} s, CPU {m['cpu']:.2f} s, critical path {m['path']:.2f} s, "
                  f"search {m['search']:.2f} s "
                  f"(estimate {m['estimate']:.1f} s), load {m['load']:.1f}")
        print(f"  {label:15s} W=2 / W=1 wall: {med[2]['wall'] / med[1]['wall']:.2f}, critical path (a quiet machine's "
              f"wall): {med[2]['path'] / med[1]['path']:.2f}; answer {value}, interval "
              f"{interval}; identical answers and decisions in every run: {same}")


def main() -> None:
    import sys

    if sys.argv[1:2] == ["workers"]:
        ap = argparse.ArgumentParser()
        ap.add_argument("question", choices=("workers",))
        ap.add_argument("--reps", type=int, default=5)
        ap.add_argument("--code", default=None, help="the checkout whose boundcalc runs (default: this one)")
        a = ap.parse_args()
        workers(a.reps, a.code)
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("question", choices=("finite", "linear"))
    ap.add_argument("--algo", default=None)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--max-runs", type=int, default=80)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--T", type=float, default=None)
    ap.add_argument("--means", default=None, help="finite: arm means (default: the registry's --K 10 instance); the "
                    "issue-24 question is 0.9,0.85,0.8,0.8,0.7,0.6,0.5,0.5,0.4,0.3")
    ap.add_argument("--quantile", type=float, default=None)
    ap.add_argument("--block-runs", type=int, default=None)
    ap.add_argument("--verify", action="store_true")
    ap.add_argument("--workers", type=int, default=2, help="local worker processes (--executor processes); 1: in-process")
    ap.add_argument("--counterpart", default=None, help="a non-private algorithm name (default: the named one)")
    ap.add_argument("--counterpart-param", action="append", default=[], help="k=v, repeatable")
    ap.add_argument("--pairing", default=None, choices=("independent", "common"), help="default: the setting's")
    a = ap.parse_args()

    from boundcalc.budget import Target, solve
    from boundcalc.budget import measured as M
    from boundcalc.envs.spec import instance_from_options

    if a.question == "finite":
        inst = instance_from_options("finite", means=a.means) if a.means else instance_from_options("finite", K="10")
        T, target, notion, algos = a.T or 1e6, Target("overhead", 1.0), "epsilon", [a.algo or "DP-IMED"]
    else:
        inst = instance_from_options("linear", K="50", d="5")
        T, target, notion, algos = a.T or 1e7, Target("overhead", 0.1), "rho", [a.algo or "AdaC-GOPE"]

    def progress(ev):
        rng = ev.get("estimate_range")
        est = (f"estimate {rng[0]:.0f}-{rng[1]:.0f} s, likely {ev['estimate_seconds']:.0f} s" if rng else
               f"estimate {ev['estimate_seconds']:.0f} s")
        print(f"  {ev['stage']:7s} b = {ev['budget']:.4g}: {ev['status']:9s} {ev['estimate']:.4g} "
              f"[{ev['ci'][0]:.4g}, {ev['ci'][1]:.4g}] ({ev['runs']} runs, {ev['elapsed']:.0f} s, cpu "
              f"{_cpu() - c0:.0f} s; {est})", flush=True)

    from boundcalc.montecarlo import executors as EX

    cp_params = {}
    for kv in a.counterpart_param:
        k, v = kv.split("=", 1)
        cp_params[k] = v
    t0, c0 = time.perf_counter(), _cpu()
    ex = EX.LocalProcesses(a.workers) if a.workers > 1 else None
    try:
        plan = solve(inst.setting, T, target, notion, instance=inst, algos=algos, runs=a.runs, max_runs=a.max_runs,
                     quantile=a.quantile, block_runs=a.block_runs, seed=a.seed, progress=progress, executor=ex,
                     counterpart=a.counterpart, counterpart_params=cp_params or None, pairing=a.pairing)
    finally:
        if ex is not None:
            ex.close()
    secs, cpu = time.perf_counter() - t0, _cpu() - c0
    ans = plan.answers[0][0]
    print(json.dumps({"question": a.question, "T": T, "algorithm": ans.algorithm, "counterpart": ans.counterpart,
                      "status": ans.status, "value": plan.value, "interval": ans.interval,
                      "overhead": ans.overhead, "runs_used": ans.runs_used, "seconds": round(secs, 1),
                      "cpu_seconds": round(cpu, 1), "workers": a.workers, "load_average": list(os.getloadavg()),
                      "estimate_seconds": ans.estimate_seconds,
                      "estimate_range": getattr(ans, "estimate_range", None),
                      "decisions": [(round(e["budget"], 4), e["runs"], e["status"], e["fresh"])
                                    for e in ans.evaluations],
                      "bound": plan.bound,
                      "lower_limit": plan.lower_limit, "notes": ans.notes}, default=str, indent=1))
    if a.verify and ans.budget:
        from boundcalc import montecarlo
        from boundcalc.algorithms import build
        from boundcalc.budget.notions import UserNotion
        from boundcalc.privacy.conversions import calibrate_upper

        env = inst.make_env()
        un = UserNotion(notion)
        c = ans.counterpart
        cp = M.build_counterpart(M.Counterpart(c["name"], tuple(c["params"].items()), c["budget"], c["how"]),
                                 ans.algorithm)
        # the counterpart on other seeds than the private runs: every run independent, run-level intervals valid
        n = montecarlo.run(cp, env, T, a.max_runs, seed=434343).regret[:, -1]
        for b in (ans.budget, ans.budget / 2):
            own, _ = calibrate_upper(un.budget(b), M._private_factory(ans.algorithm, un, None)[0].notion)
            p = montecarlo.run(build(ans.algorithm, own), env, T, a.max_runs, seed=424242).regret[:, -1]
            r = M.assess(p, n, target.kind, target.value, a.quantile)
            print(f"verify at b = {b:.4g} (fresh seeds, {a.max_runs} runs): {r['status']} {r['estimate']:.4g} "
                  f"[{r['ci'][0]:.4g}, {r['ci'][1]:.4g}]", flush=True)


if __name__ == "__main__":
    main()
