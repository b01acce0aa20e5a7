"""The five worksheets run once per test process in fast mode through the CLI (``boundcalc worksheet run NAME --fast
--out DIR --json``, in-process with typer's CliRunner), shared by tests/experiments/test_worksheets.py (report, figures, numbers
against direct library calls, the scripts' numbers) and tests/experiments/test_worksheet_bounds.py (every simulated curve has its
bound or a reason, read from each run's results.json). Both modules mark the tests that use it
``xdist_group("worksheets")``, so under pytest-xdist the five runs happen once, on one worker (tests/conftest.py).

Not a test module (no ``test_`` prefix): a helper imported by the two."""

from __future__ import annotations

import json
import time
from pathlib import Path

NAMES = ["000", "001", "002", "003", "004"]
TIMES: dict[str, float] = {}  # "cli NNN": seconds of each CLI run (test_fast_set_time_is_measured prints them)
_RUNS: dict[str, tuple[dict, Path]] = {}


def cli_fast_runs(tmp_path_factory) -> dict[str, tuple[dict, Path]]:
    """{name: (the command's JSON object, its output directory)} for the five worksheets, built on first use in this
    process (``tmp_path_factory`` is session-wide, so the directories live as long as the cache)."""
    if not _RUNS:
        from typer.testing import CliRunner

        from boundcalc.cli.app import app

        out = {}
        for n in NAMES:
            d = tmp_path_factory.mktemp(f"cli{n}")
            t0 = time.perf_counter()
            r = CliRunner().invoke(app, ["worksheet", "run", n, "--fast", "--out", str(d), "--json"])
            TIMES[f"cli {n}"] = time.perf_counter() - t0
            assert r.exit_code == 0, r.output
            out[n] = (json.loads(r.stdout), d)
        _RUNS.update(out)
    return dict(_RUNS)


def experiment_results(results_json: str | Path) -> dict:
    """{experiment id: ExperimentResult} rebuilt from a worksheet's results.json (the runner's records as written:
    ``ExperimentResult.as_dict`` is ``dataclasses.asdict``, so every field is there)."""
    from boundcalc.experiments.base import (Comparison, CurveBounds, ExperimentResult, FigureClaim, Simulation,
                                            Table)

    data = json.loads(Path(results_json).read_text())
    out = {}
    for e in data["experiments"]:
        e = dict(e)
        e["simulations"] = [Simulation(**s) for s in e["simulations"]]
        e["comparisons"] = [Comparison(**c) for c in e["comparisons"]]
        e["curve_bounds"] = [CurveBounds(**c) for c in e["curve_bounds"]]
        e["figure_claims"] = [FigureClaim(**c) for c in e["figure_claims"]]
        e["tables"] = [Table(**t) for t in e["tables"]]
        out[e["id"]] = ExperimentResult(**e)
    return out
