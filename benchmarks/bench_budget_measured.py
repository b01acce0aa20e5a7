"""The two questions of issue 14, answered by ``budget --by simulation`` (boundcalc.budget.measured), timed.

    python benchmarks/bench_budget_measured.py finite [--algo DP-IMED] [--runs 20] [--max-runs 80] [--verify]
    python benchmarks/bench_budget_measured.py linear [--runs 20] [--max-runs 80] [--verify]

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


def main() -> None:
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
