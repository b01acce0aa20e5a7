"""Leader-stretch engine against the per-step loop at short horizons: where each is faster (issue 17 §8).

Run: python3 benchmarks/bench_stretch_switch.py [--quick | --render | --resume]. Writes benchmarks/RESULTS_stretch_switch.md
and the raw figures to RESULTS_stretch_switch.json (``--render``: the table again from that file, with the
current rule, without measuring; ``--resume``: measure only the cases that file lacks).

UCB, KL-UCB and IMED on Bernoulli arms simulate by the leader-stretch engine (``_stretch.simulate``: cost ~ the
number of changes of the pulled arm and the passes its blocks need) or by the per-step loop (``simulate_steps``:
one index evaluation per round, vectorised across the runs of a block; cost ~ T). At small T the engine's fixed
cost per stretch loses to the loop; ``_PerStep.simulate`` takes the loop below the card's ``stretch_min_T``
(per algorithm). This script measures both paths -- independently of that rule -- on the blocks and seeds
``montecarlo.run`` uses (blocks of 50 runs), for each algorithm, environment (K = 2, 5, 10; seed 001's mu1 with
gaps 0.05 is the hardest for the engine) and T in {1e3, 1e4, 1e5, 1e6}, and reports what the rule picks.

Method (shared 2-core machine): CPU seconds (``time.process_time``); the two paths are timed alternately
(stretch, loop, stretch, loop, ...) and the figure is the median of the repeats, the ratio the median of the
per-pair ratios, so a change of load affects both sides alike. The loop costs the same per round at any T (its
state has a fixed size), so above T = 1e4 it is measured at T = 1e4 and scaled by T / 1e4 (marked "ext."); the
script checks that linearity on UCB at T = 1e5. Repeats: 3 up to T = 1e4, 1 above (where the ratios are far from 1
or the runs long).
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from boundcalc.algorithms import granularity  # noqa: E402
from boundcalc.algorithms.finite import IMED, KLUCB, UCB, _stretch, nonprivate  # noqa: E402
from boundcalc.envs import BernoulliEnv, make_env  # noqa: E402
from boundcalc.montecarlo import engine  # noqa: E402

ALGS = {"UCB": UCB, "KL-UCB": KLUCB, "IMED": IMED}
ENVS = {"K=2 [0.75, 0.65]": lambda: BernoulliEnv([0.75, 0.65]),
        "K=5 mu1 (gaps 0.05)": lambda: make_env("mu1"),
        "K=5 mu2": lambda: make_env("mu2"),
        "K=10 linspace(0.75, 0.25)": lambda: BernoulliEnv(list(np.linspace(0.75, 0.25, 10)))}
HORIZONS = (10**3, 10**4, 10**5, 10**6)
# above: the loop measured at this T and scaled (its cost per round is constant); KL-UCB's loop costs ~1 ms a round
LOOP_MEASURED_MAX = {"UCB": 10**4, "KL-UCB": 3 * 10**3, "IMED": 10**4}
# fewer runs per block (10 instead of 50): each algorithm near its switch
FEW_RUNS = (("UCB", 10**5), ("KL-UCB", 10**4), ("IMED", 10**4))


def _blocks(runs):
    sizes = engine.block_sizes(runs, engine.DEFAULT_BLOCK_RUNS)
    return list(zip(sizes, engine.block_seeds(0, len(sizes))))


def time_stretch(cls, env, T, runs) -> float:
    alg = cls()
    c0 = time.process_time()
    for size, ss in _blocks(runs):
        _stretch.simulate(alg, env.means, T, size, _stretch.BernoulliSource(env.means, np.random.default_rng(ss)),
                          np.array([T]))
    return time.process_time() - c0


def time_loop(cls, env, T, runs) -> float:
    alg = cls()
    c0 = time.process_time()
    for size, ss in _blocks(runs):
        alg.simulate_steps(env, T, size, np.random.default_rng(ss), np.array([T]))
    return time.process_time() - c0


def plan(envs, horizons):
    """(algorithm, environment, T, runs) measured, the cases that place the switches first. UCB on every environment
    and horizon; KL-UCB and IMED (switch near T = 1e4) on three environments to T = 1e5 and on mu1 at 1e6 (their
    engine is 40-1300x the loop at 1e6 on mu1..mu4: RESULTS_perstep.md); fewer runs per block near each switch."""
    out = [(n, e, T, 100) for n in ("KL-UCB", "IMED") for e in envs[:3] for T in horizons if T <= 10**4]
    out += [(n, e, T, 100) for n in ("KL-UCB", "IMED") for e in envs[:3] for T in horizons if T == 10**5]
    out += [("UCB", e, T, 100) for e in envs for T in horizons]
    out += [(n, "K=5 mu2", T, 10) for n, T in FEW_RUNS]
    out += [(n, "K=5 mu1 (gaps 0.05)", T, 100) for n in ("KL-UCB", "IMED") for T in horizons if T >= 10**6]
    return list(dict.fromkeys(out))


def repeats_for(T):
    return 3 if T <= 10**4 else 1


def measure(name, env_name, T, runs) -> dict:
    cls, env = ALGS[name], ENVS[env_name]()
    n = repeats_for(T)
    loop_T = min(T, LOOP_MEASURED_MAX[name])
    scale = T / loop_T
    s, l = [], []
    for _ in range(n):
        s.append(time_stretch(cls, env, T, runs))
        l.append(time_loop(cls, env, loop_T, runs) * scale)
    ratio = statistics.median(a / b for a, b in zip(s, l))
    return {"alg": name, "env": env_name, "T": T, "runs": runs, "stretch": statistics.median(s),
            "loop": statistics.median(l), "ext": loop_T != T, "ratio": ratio, "repeats": n}


def judge(m) -> dict:
    """The path the current rule takes for ``m`` and how much slower it is than the other one (1 if faster)."""
    path = granularity(ALGS[m["alg"]](), ENVS[m["env"]](), m["T"])
    best = "stretch" if m["ratio"] < 1 else "step"
    loss = (1 / m["ratio"] if path == "step" else m["ratio"]) if path != best else 1.0
    return dict(m, rule=path, best=best, loss=loss)


def _e(T) -> str:
    return f"{T:.0e}".replace("e+0", "e")


def row(m) -> str:
    m = judge(m)
    loop = f"{m['loop']:.3g}" + (" (ext.)" if m["ext"] else "")
    mark = "" if m["rule"] == m["best"] else f" (×{m['loss']:.2f} slower than the other path)"
    return (f"| {m['alg']} | {m['env']} | {_e(m['T'])} | {m['runs']} | {m['stretch']:.3g} | {loop} | "
            f"{m['ratio']:.2f} | {m['best']} | {m['rule']}{mark} |")


def main(quick: bool = False) -> str:
    load0 = os.getloadavg()
    envs = list(ENVS)[1:3] if quick else list(ENVS)
    horizons = HORIZONS[:3] if quick else HORIZONS
    raw_path = Path(__file__).resolve().parent / "RESULTS_stretch_switch.json"
    done = {}
    if "--resume" in sys.argv and raw_path.exists():  # keep the cases already measured (an interrupted run)
        old = json.loads(raw_path.read_text())
        done = {(m["alg"], m["env"], m["T"], m["runs"]): m for m in old["measurements"]}
        load0 = (old["load"][0],)
    ms = []

    def one(name, env_name, T, runs):
        m = done.get((name, env_name, T, runs)) or measure(name, env_name, T, runs)
        ms.append(m)
        print(row(m), flush=True)
        if not quick:  # after every case, so that an interrupted run keeps its figures
            raw_path.write_text(json.dumps({"measurements": ms, "linearity": [], "load": [load0[0], os.getloadavg()[0]],
                                            "partial": True}, indent=1))

    for name, env_name, T, runs in plan(envs, horizons):
        one(name, env_name, T, runs)
    # linearity of the loop's cost in T (UCB, mu2)
    env = ENVS["K=5 mu2"]()
    lin = [time_loop(UCB, env, 10**5, 100) / (10 * time_loop(UCB, env, 10**4, 100))]
    load1 = os.getloadavg()
    raw = {"measurements": ms, "linearity": lin, "load": [load0[0], load1[0]],
           "when": time.strftime('%Y-%m-%d %H:%M', time.gmtime()), "machine": platform.machine(),
           "cores": os.cpu_count(), "python": platform.python_version(), "numpy": np.__version__}
    if not quick:
        raw_path.write_text(json.dumps(raw, indent=1))
    return render(raw, write=not quick)


def render(raw, write=True) -> str:
    ms, lin, (load0, load1) = raw["measurements"], raw["linearity"] or [float("nan")], raw["load"]
    raw = {"machine": platform.machine(), "cores": os.cpu_count(), "python": platform.python_version(),
           "numpy": np.__version__, "when": time.strftime('%Y-%m-%d %H:%M', time.gmtime()), **raw}
    ms = sorted(ms, key=lambda m: (list(ALGS).index(m["alg"]), -m["runs"], list(ENVS).index(m["env"]), m["T"]))
    rows = [row(m) for m in ms]
    wrong = [m for m in map(judge, ms) if m["rule"] != m["best"]]
    lines = ["# Leader-stretch engine or per-step loop at short horizons (benchmarks/bench_stretch_switch.py)", "",
             f"Machine: {raw['machine']}, {raw['cores']} cores, Python {raw['python']}, numpy "
             f"{raw['numpy']}; measured {raw['when']} UTC with load average "
             f"{load0:.1f} at the start and {load1:.1f} at the end (the machine is shared by other jobs: "
             "the two paths are timed alternately, medians of the repeats and of the per-pair ratios). CPU "
             "seconds for all the runs (blocks of 50 runs, one process); the 1-minute load average stayed between 8 and "
             "14 for most of the run (other agents' jobs). 'ext.': the loop timed at T = 1e4 (KL-UCB: 3e3) and "
             f"scaled by T/1e4 (its cost per round is constant: UCB at T = 1e5 measured / 10 × T = 1e4: "
             f"{', '.join(f'{x:.2f}' for x in lin)}).", "",
             "Rule (the cards' `stretch_min_T`, `_PerStep.uses_stretch`): the engine from T >= "
             + ", ".join(f"{c.name} {_e(c.stretch_min_T)}" for c in (UCB, KLUCB, IMED))
             + "; the per-step loop below (and on non-Bernoulli rewards).", "",
             "| algorithm | environment | T | runs | stretch engine CPU s | per-step loop CPU s | ratio stretch / loop "
             "| faster | the rule takes |",
             "|---|---|---|---|---|---|---|---|---|", *rows, "",
             f"Cases where the rule takes the slower path: {len(wrong)} of {len(ms)}"
             + (" (" + "; ".join(f"{m['alg']} {m['env']} T = {_e(m['T'])}, runs {m['runs']}: ×{m['loss']:.2f}"
                                 for m in wrong) + ")" if wrong else "") + "."]
    text = "\n".join(lines) + "\n"
    if write:
        (Path(__file__).resolve().parent / "RESULTS_stretch_switch.md").write_text(text)
    return text


if __name__ == "__main__":
    if "--render" in sys.argv:
        print(render(json.loads((Path(__file__).resolve().parent / "RESULTS_stretch_switch.json").read_text())))
    else:
        print(main(quick="--quick" in sys.argv))
