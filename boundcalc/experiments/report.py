"""The worksheet report: ``report.md`` (tables, figures, measured-vs-bound verdicts, the paper's claims judged by
the verifier, what could not be reproduced, timings) and ``results.json`` (the same as data, with every
simulation's algorithm, parameters, T, runs and seed), both written atomically into the output directory."""

from __future__ import annotations

import json
import math
import os
import platform
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from .. import __version__
from .base import FULL_STEP_CAP, ExperimentResult, Runner, Worksheet, _duration, num
from .options import COMMANDS, OPTIONS

REPORT_NAME = "report.md"
JSON_NAME = "results.json"


@dataclass
class Report:
    worksheet: str
    title: str
    mode: str
    seed: int
    step_cap: int
    out: str
    report_path: str
    json_path: str
    figures: list[str]
    experiments: list[ExperimentResult]
    claims: list[Any]
    timings: dict[str, float]
    figure_claims: list[dict] = field(default_factory=list)
    run: dict = field(default_factory=dict)  # only, claims_skipped, executor, scales (Session.finish)

    def summary(self) -> dict:
        """What ``worksheet run --json`` prints: paths, figures, verdicts and timings."""
        return {
            "worksheet": self.worksheet, "title": self.title, "mode": self.mode, "seed": self.seed,
            "step_cap": self.step_cap, "out": self.out, "report": self.report_path, "results": self.json_path,
            "figures": self.figures,
            "claims": [{"claim_id": v.claim_id, "verdict": v.verdict, "expected": v.expected,
                        "as_expected": v.verdict == v.expected} for v in self.claims],
            "figure_claims": self.figure_claims,
            "comparisons": [{"experiment": c.experiment, "config": c.config, "algorithm": c.algorithm,
                             "bound_id": c.bound_id, "T": c.T, "bound_value": c.bound_value, "mean": c.mean,
                             "ci": c.ci, "verdict": c.verdict} for e in self.experiments for c in e.comparisons],
            "timings": self.timings,
            "experiments_run": [e.id for e in self.experiments], "only": self.run.get("only"),
            "claims_skipped": bool(self.run.get("claims_skipped", False)), "executor": self.run.get("executor"),
            "scales": self.run.get("scales"),
        }


def _atomic_write(path: str, text: str) -> None:
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.replace(tmp, path)


def _mode_text(runner: Runner) -> str:
    if runner.mode == "fast":
        return "fast (reduced horizons and runs: the figures show the paper's setup at a smaller scale)"
    cap = ("no cap on per-step algorithms" if runner.step_cap == 0 else
           f"algorithms that loop over every step stop at T = {runner.step_cap:g} (today's per-step engine)")
    return f"full (the paper's horizons and runs; {cap})"


def _run_text(ws: Worksheet, runner: Runner, run: dict) -> list[str]:
    """What this run left out or changed: --only, --no-claims, the executor, the axis-scale overrides."""
    out = []
    if run.get("only"):
        left = [e.id for e in ws.experiments if e.id not in runner.results]
        out.append(f"Experiments run: {', '.join(runner.results)} ({OPTIONS['only']}); not run: {', '.join(left) or 'none'}.")
    if run.get("claims_skipped"):
        out.append(f"The paper's claims were skipped ({OPTIONS['no_claims']}): "
                   f"`{COMMANDS['verify_paper'].format(paper=ws.name)}` judges them.")
    ex = run.get("executor") or {}
    if ex.get("kind", "in-process") != "in-process":
        out.append(f"Simulations' blocks ran on {OPTIONS['executor']} {ex['kind']}" + (f" with {ex['workers']} workers"
                                                                             if ex.get("workers") else "")
                   + " (the numbers are the same as in-process: montecarlo's seeding contract).")
    sc = run.get("scales") or {}
    if sc.get("x") or sc.get("y"):
        out.append("Axis scales overridden: " + ", ".join(f"{k} {v}" for k, v in sc.items() if v)
                   + f" ({OPTIONS['x_scale']} / {OPTIONS['y_scale']}; by default each figure takes the paper's scales).")
    return [" ".join(out), ""] if out else []


def markdown(ws: Worksheet, runner: Runner, claims: list, timings: dict[str, float], run: dict | None = None) -> str:
    run = run or {}
    L: list[str] = [f"# Worksheet {ws.name}: {ws.title}", "",
                    f"Paper: {ws.paper}.", "",
                    f"Mode: {_mode_text(runner)}. Seed: {runner.seed}. boundcalc {__version__}, Python "
                    f"{platform.python_version()}. Total time on this machine: {_duration(timings['total'])} "
                    f"({timings['total']:.1f} s).", "", *_run_text(ws, runner, run), ws.summary.strip(), ""]
    for e in runner.results.values():
        L += [f"## {e.title}", "", f"Reproduces: {e.reproduces}.", "", e.description.strip(), "",
              "Scale: " + ", ".join(f"{k} = {_scale_value(v)}" for k, v in e.scale.items()) + ".", ""]
        for f in e.figures:
            L += [f"![{e.title}]({f})", ""]
        for t in e.tables:
            L += [t.markdown(), ""]
        if e.figure_claims:
            L += ["**Claims read off the paper's figure, judged on these simulations**", "",
                  "| claim | source | verdict | evidence |", "|---|---|---|---|"]
            L += [f"| {c.claim} | {c.source} | {c.verdict} | {c.evidence} |" for c in e.figure_claims]
            L.append("")
        if e.curve_bounds:
            L += ["**Bounds of each simulated curve** (drawn on its figure and judged at T, or why not)", "",
                  "| algorithm | drawn | judged | reason |", "|---|---|---|---|"]
            bar = "\\|"
            L += [f"| {c.algorithm} | {', '.join(c.drawn) or '—'} | {', '.join(c.judged) or '—'} | "
                  f"{c.reason.replace('|', bar) or '—'} |" for c in e.curve_bounds]
            L.append("")
        if e.notes:
            L += ["Notes:", ""] + [f"- {n}" for n in e.notes] + [""]
        L += [f"Time: {e.seconds:.1f} s ({len(e.simulations)} simulations).", ""]
    L += [f"## The paper's claims judged by the verifier ({COMMANDS['verify_paper'].format(paper=ws.name)})", ""]
    if claims:
        L += ["| claim | item | verdict | expected (ERRATA / sheet) | measured |", "|---|---|---|---|---|"]
        for v in claims:
            meas = v.measured if len(v.measured) <= 220 else v.measured[:217] + "…"
            L.append(f"| {v.claim_id} | {v.item} | {v.verdict} | {v.expected} | {meas.replace('|', '/')} |")
        n_ok = sum(v.verdict == v.expected for v in claims)
        L += ["", f"{n_ok} of {len(claims)} verdicts as ERRATA and the formula sheet lead one to expect.", ""]
    elif run.get("claims_skipped"):
        L += [f"(skipped: {OPTIONS['no_claims']})", ""]
    else:
        L += ["(not run)", ""]
    if ws.not_reproduced:
        L += ["## Not reproduced", ""] + [f"- {x}" for x in ws.not_reproduced] + [""]
    L += ["## Timings", "", "| part | seconds |", "|---|---|"]
    L += [f"| {k} | {v:.1f} |" for k, v in timings.items()]
    L += ["", "Every simulation's algorithm, parameters, instance, T, runs and seed are in "
          f"`{JSON_NAME}`: `boundcalc.montecarlo.run(algorithm, env, T, runs, seed=seed)` recomputes any curve.", ""]
    return "\n".join(L)


def _scale_value(v) -> str:
    if isinstance(v, (list, tuple)):
        if len(v) > 6:
            return f"{len(v)} values from {num(v[0])} to {num(v[-1])}"
        return "{" + ", ".join(num(x) for x in v) + "}"
    return num(v) if isinstance(v, (int, float)) else str(v)


def write(ws: Worksheet, runner: Runner, claims: list, timings: dict[str, float], run: dict | None = None) -> Report:
    run = dict(run or {})
    text = markdown(ws, runner, claims, timings, run)
    rp = os.path.join(runner.out, REPORT_NAME)
    jp = os.path.join(runner.out, JSON_NAME)
    fig_claims = [asdict(c) for e in runner.results.values() for c in e.figure_claims]
    data = {"worksheet": ws.name, "title": ws.title, "paper": ws.paper, "mode": runner.mode, "seed": runner.seed,
            "step_cap": runner.step_cap, "full_step_cap_default": FULL_STEP_CAP,
            "experiments": [e.as_dict() for e in runner.results.values()],
            "claims": [v.as_dict() for v in claims], "not_reproduced": ws.not_reproduced, "timings": timings,
            "run": run}
    _atomic_write(rp, text)
    _atomic_write(jp, json.dumps(clean(data), indent=1, allow_nan=False))
    figures = [os.path.join(runner.out, f) for e in runner.results.values() for f in e.figures]
    return Report(worksheet=ws.name, title=ws.title, mode=runner.mode, seed=runner.seed,
                  step_cap=runner.step_cap, out=runner.out, report_path=rp, json_path=jp, figures=figures,
                  experiments=list(runner.results.values()), claims=claims, timings=timings,
                  figure_claims=fig_claims, run=run)


def clean(x):
    """JSON-ready copy: numpy scalars and arrays to Python, non-finite floats to the strings 'inf', '-inf', 'nan'."""
    if isinstance(x, dict):
        return {str(k): clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [clean(v) for v in x]
    if isinstance(x, np.ndarray):
        return clean(x.tolist())
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        v = float(x)
        return v if math.isfinite(v) else str(v)
    if x is None or isinstance(x, str):
        return x
    return str(x)
