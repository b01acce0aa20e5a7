"""Worksheets (boundcalc.experiments, worksheets/*.py, `boundcalc worksheet`): every worksheet in fast mode writes its
report and valid figures through the CLI and as a plain script, and both give the same numbers; reported numbers equal
direct library calls with the recorded seed (with mutants that must differ); every CLI option reaches the runner; the
statistics of the Figure 4 panels (difference, price of privacy) cover at the stated level; the grid figure's shared
legend lists each thing once; the notebooks parse as percent-format notebooks (when jupytext is installed).

The fast set's time is measured (printed with -s) and documented in worksheets/README.md, never asserted.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import types
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from boundcalc import experiments, montecarlo
from boundcalc.cli.app import app
from boundcalc.experiments.base import Experiment, Runner, Worksheet, derived_seed
from boundcalc.montecarlo.settings import ExecutorPlan, Simulation
from worksheet_fast_runs import TIMES as CLI_TIMES
from worksheet_fast_runs import cli_fast_runs

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["000", "001", "002", "003", "004"]
# the scripts that run here beside the CLI (same numbers): three of the five, for the suite's time (each script is
# thin over the runner the CLI uses; all five run through the CLI below, every script is parsed as a notebook by
# test_notebook_is_percent_format, 000 runs as a notebook in a kernel, and 002 as a script is not run by the suite)
SCRIPT_NAMES = ["001", "003", "004"]
SCRIPTS = {p.name[:3]: p for p in sorted((ROOT / "worksheets").glob("[0-9][0-9][0-9]_*.py"))}
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
TIMES: dict[str, float] = {}

# one pytest-xdist worker for the whole module: its module-scoped fixture is built once (tests/conftest.py)
pytestmark = pytest.mark.xdist_group("worksheets")


def png_ok(path: Path) -> None:
    """A real PNG: the magic bytes, an IHDR chunk with a plausible size, and more than a few kilobytes."""
    data = path.read_bytes()
    assert data[:8] == PNG_MAGIC, path
    assert data[12:16] == b"IHDR", path
    w, h = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert w >= 400 and h >= 300, (path, w, h)
    assert len(data) > 20_000, (path, len(data))


def one_line_error(r) -> str:
    err = (r.stderr if hasattr(r, "stderr") else r.output).strip()
    assert r.exit_code == 2, r.output
    assert len(err.splitlines()) == 1 and err.startswith("boundcalc: error:"), err
    return err


# -- the five worksheets, fast, through the CLI and as scripts --------------------------------------------------
@pytest.fixture(scope="module")
def cli_runs(tmp_path_factory):
    # built once per process (tests/worksheet_fast_runs.py) and shared with tests/experiments/test_worksheet_bounds.py, whose
    # every-curve check reads these runs' results.json (same xdist group "worksheets")
    out = cli_fast_runs(tmp_path_factory)
    TIMES.update(CLI_TIMES)
    return out


@pytest.fixture(scope="module")
def script_runs(tmp_path_factory, cli_runs):
    """Each script of SCRIPT_NAMES run as ``python worksheets/NNN_*.py --fast --out DIR`` would run it, in this process
    (``runpy`` as ``__main__``, that argv, cwd the checkout; stdout and stderr captured), after the CLI runs, whose
    numbers it must equal. In this process the script reads what the CLI runs computed (tests/worksheet_fast_runs.py):
    its paper's claims from the shared run of every claim, and each simulation it asks for that is identical by content
    to one of the CLI runs' (algorithm and parameters, environment, T, runs, seed, checkpoints) from that run; a
    simulation that differs in any of these is run, so the comparison below still sees a script that asks for other
    simulations than the command. Its figures, tables, report and results.json are the script's own. As subprocesses
    the three scripts simulated and judged everything again and paid an interpreter start-up each (about 90 CPU
    seconds in all). A worksheet file run in a process of its own is test_notebook_runs_in_a_kernel (worksheet 000 in
    a Jupyter kernel, every simulation computed there)."""
    out = {}
    for n in SCRIPT_NAMES:
        d = tmp_path_factory.mktemp(f"script{n}")
        t0 = time.perf_counter()
        out[n] = (_run_script(SCRIPTS[n], ["--fast", "--out", str(d)]), d)
        TIMES[f"script {n}"] = time.perf_counter() - t0
    return out


def _run_script(path: Path, args: list[str]) -> subprocess.CompletedProcess:
    """``python PATH ARGS`` from the checkout's root, in this process: (return code, stdout, stderr) as a
    CompletedProcess; an exception is exit code 1 with its traceback on stderr, as the interpreter would print it."""
    import contextlib
    import io
    import os
    import runpy
    import traceback

    from worksheet_fast_runs import claims_from_the_shared_run, simulations_from_the_cli_runs

    so, se = io.StringIO(), io.StringIO()
    argv, path_before, cwd = sys.argv[:], sys.path[:], os.getcwd()
    code = 0
    try:
        sys.argv = [str(path.relative_to(ROOT)), *args]
        os.chdir(ROOT)
        with contextlib.redirect_stdout(so), contextlib.redirect_stderr(se), claims_from_the_shared_run(), \
                simulations_from_the_cli_runs():
            try:
                runpy.run_path(str(path), run_name="__main__")
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            except Exception:  # noqa: BLE001 - reported as the interpreter would: exit 1 and the traceback
                traceback.print_exc(file=se)
                code = 1
    finally:
        sys.argv[:] = argv
        sys.path[:] = path_before
        os.chdir(cwd)
    return subprocess.CompletedProcess([sys.executable, str(path), *args], code, so.getvalue(), se.getvalue())


def test_the_five_scripts_exist():
    assert set(SCRIPTS) == set(NAMES)
    assert [SCRIPTS[n].name for n in NAMES] == [experiments.get(n).script for n in NAMES]


@pytest.mark.parametrize("name", NAMES)
def test_cli_fast_writes_report_and_figures(cli_runs, name):
    js, d = cli_runs[name]
    ws = experiments.get(name)
    assert js["command"] == "worksheet run" and js["mode"] == "fast" and js["worksheet"] == name
    report = Path(js["report"])
    assert report.parent == d and report.is_file()
    text = report.read_text()
    for e in ws.experiments:
        assert f"## {e.title}" in text
    assert "## The paper's claims judged by the verifier" in text and "## Timings" in text
    assert js["figures"], "every worksheet draws figures"
    for f in js["figures"]:
        assert Path(f).parent == d and f"]({Path(f).name})" in text
        png_ok(Path(f))
    # the claims of the paper, each with its verdict (the verifier's tests check the verdicts themselves)
    from boundcalc.verify import claims

    assert [c["claim_id"] for c in js["claims"]] == claims.select(paper=name)
    assert all(c["verdict"] in claims.VERDICT_WORDS for c in js["claims"])
    data = json.loads(Path(js["results"]).read_text())
    assert {e["id"] for e in data["experiments"]} == {e.id for e in ws.experiments}
    assert js["timings"]["total"] > 0 and set(js["timings"]) >= {e.id for e in ws.experiments} | {"claims"}
    for e in data["experiments"]:
        # the real-data experiments (boundcalc.data) run only with the user's file; without it they say so
        assert e["simulations"] or any(n.startswith("Not run:") for n in e["notes"]), e["id"]
        for s in e["simulations"]:
            assert np.isfinite(s["final_mean"]) and s["runs"] >= 1 and s["seed"] == derived_seed(0, name, s["label"])


@pytest.mark.parametrize("name", SCRIPT_NAMES)
def test_script_fast_writes_the_same_numbers(script_runs, cli_runs, name):
    r, d = script_runs[name]
    assert r.returncode == 0, r.stderr[-3000:]
    assert (d / "report.md").is_file() and "report:" in r.stdout
    data = json.loads((d / "results.json").read_text())
    figs = [f for e in data["experiments"] for f in e["figures"]]
    assert figs
    for f in figs:
        png_ok(d / f)
    # the notebook-as-script and the command run the same code: identical simulations, seeds and numbers
    cli = json.loads(Path(cli_runs[name][0]["results"]).read_text())
    key = lambda s: (s["experiment"], s["label"], s["T"], s["runs"], s["seed"], s["final_mean"])  # noqa: E731
    assert [key(s) for e in data["experiments"] for s in e["simulations"]] == \
        [key(s) for e in cli["experiments"] for s in e["simulations"]]
    assert [(c["claim_id"], c["verdict"]) for c in data["claims"]] == [(c["claim_id"], c["verdict"]) for c in cli["claims"]]


def test_fast_set_time_is_measured(cli_runs, script_runs):
    """The whole fast set (each worksheet once) is measured, not asserted: printed here, documented in README (the
    scripts' times here exclude their simulations and claims, read from the CLI runs: see script_runs)."""
    cli_total = sum(v for k, v in TIMES.items() if k.startswith("cli"))
    script_total = sum(v for k, v in TIMES.items() if k.startswith("script"))
    print(f"\nfast set: CLI {cli_total:.1f} s, scripts {script_total:.1f} s; " +
          ", ".join(f"{k} {v:.1f} s" for k, v in TIMES.items()))
    assert cli_total > 0 and script_total > 0


# -- reported numbers against direct library calls ------------------------------------------------------------
def _sim(js, experiment, label):
    data = json.loads(Path(js["results"]).read_text())
    for e in data["experiments"]:
        if e["id"] == experiment:
            for s in e["simulations"]:
                if s["label"] == label:
                    return s
    raise KeyError(label)


@pytest.mark.parametrize("alpha, seed_shift, equal", [(2.0, 0, True), (3.0, 0, False), (2.0, 1, False)],
                         ids=["same-setup", "mutant-alpha", "mutant-seed"])
def test_reported_regret_equals_a_direct_library_call(cli_runs, alpha, seed_shift, equal):
    """Seed 001 Figure 1, DP-IMED on mu2 at ε = 1: the curve's final mean is montecarlo.run with the recorded seed and
    the paper's setup written here independently (α = 2, one initial pull, μ2 of Sajed–Sheffet). A wrong α or seed
    must give another number (the comparison has power)."""
    from boundcalc.algorithms.finite import DPIMED
    from boundcalc.envs import BernoulliEnv

    s = _sim(cli_runs["001"][0], "fig1", "mu2/eps=1/DP-IMED")
    assert s["algorithm"] == "DP-IMED" and s["params"]["epsilon"] == 1.0
    env = BernoulliEnv([0.75, 0.625, 0.5, 0.375, 0.25])
    cps = montecarlo.log_checkpoints(s["T"], n=50, start=10)
    res = montecarlo.run(DPIMED(1.0, alpha=alpha, n1=1), env, s["T"], s["runs"], seed=s["seed"] + seed_shift,
                         checkpoints=cps)
    assert (float(res.mean()[-1]) == s["final_mean"]) is equal
    if equal:
        lo, hi = res.ci(level=0.95, method="t")
        assert s["final_ci"] == [float(lo[-1]), float(hi[-1])]


def test_reported_bound_equals_the_registry(cli_runs):
    """The Thm 3.1 lower bound reported beside DP-IMED (Figure 1, μ2, ε = 1) is the registry's value at that T."""
    from boundcalc.bounds import registry
    from boundcalc.privacy import PureDP

    js = cli_runs["001"][0]
    row = [c for c in js["comparisons"] if c["experiment"] == "fig1" and c["config"] == "mu2, ε = 1"
           and c["algorithm"] == "DP-IMED" and c["bound_id"] == "001-thm3.1"][0]
    ctx = registry.make_context("finite", {"means": [0.75, 0.625, 0.5, 0.375, 0.25]})
    want = float(registry.get("001-thm3.1").evaluate([row["T"]], ctx, PureDP(1.0)).value[0])
    assert row["bound_value"] == pytest.approx(want, rel=1e-12)
    wrong = float(registry.get("001-thm3.1").evaluate([row["T"]], ctx, PureDP(0.5)).value[0])
    assert row["bound_value"] != pytest.approx(wrong, rel=1e-3)  # a dropped ε would show


def _figure_axes(js, experiment, name):
    data = json.loads(Path(js["results"]).read_text())
    return [e for e in data["experiments"] if e["id"] == experiment][0]["figure_axes"][name]


@pytest.mark.parametrize("experiment", ["fig4a", "fig4b", "fig4c", "fig5"])
def test_seed003_figures_take_the_papers_scales(cli_runs, experiment):
    """Seed 003 Figure 4: left panel ρ on a log axis ("10^-1 … 10^3"), right panel t on a linear axis ("Step t ×10^7"),
    linear y; Figure 5 (App. H): t linear ("×10^6"), regret log ("10^1 … 10^5"). Read back from the figures as drawn
    (the runner records each figure's axes from matplotlib when it saves it)."""
    ax = _figure_axes(cli_runs["003"][0], experiment, f"{experiment}.png")["axes"]
    want = [("linear", "log")] * 4 if experiment == "fig5" else [("log", "linear"), ("linear", "linear")]
    assert [(a["x"], a["y"]) for a in ax] == want


def test_seed001_figure1_legend_and_y_limits(cli_runs):
    """Seed 001 Figure 1: one legend entry for Thm 4.3 (DP-KLUCB's and DP-IMED's bound are one value); in each panel
    the y axis shows DP-KLUCB and DP-IMED whole (top above their 95% upper ends at T) and readably (top at most
    FOCUS_HEADROOM times the larger of them, up to the ribbons' excursions before T), and the ε = 1 panel names the
    curves above it (DP-SE there, far above)."""
    from boundcalc.figures import FOCUS_HEADROOM

    js = cli_runs["001"][0]
    info = _figure_axes(js, "fig1", "fig1.png")
    assert sum(lab.startswith("Thm 4.3") for lab in info["legend"]) == 1, info["legend"]
    assert len(info["legend"]) == len(set(info["legend"]))
    for ax in info["axes"]:
        eps = ax["title"].split("ε = ")[1]
        his = [_sim(js, "fig1", f"mu2/eps={eps}/{a}")["final_ci"][1] for a in ("DP-KLUCB", "DP-IMED")]
        top = ax["ylim"][1]
        assert max(his) <= top, (eps, his, top)
        if ax["texts"]:  # cut: at FOCUS_HEADROOM × the focus curves' largest upper end (their ribbons before T)
            assert top <= FOCUS_HEADROOM * max(his) * 1.5, (eps, his, top)
        if eps == "1":
            dpse = _sim(js, "fig1", "mu2/eps=1/DP-SE")["final_mean"]
            assert dpse > top and ax["texts"] and "DP-SE" in ax["texts"][0], (dpse, top, ax["texts"])


def test_seed001_figure8_table_rows_are_regular(cli_runs):
    """Figure 8's table: every k-th point of the ε grid from the first, k = ⌈n/8⌉, and its title says so in words
    (fast mode: n = 20 log-spaced ε on [0.01, 10], so k = 3: points 1, 4, …, 19, 7 of 20)."""
    data = json.loads(Path(cli_runs["001"][0]["results"]).read_text())
    exp = [e for e in data["experiments"] if e["id"] == "fig8"][0]
    t = [t for t in exp["tables"] if t["title"].startswith("DP-IMED regret at T")][0]
    assert "every 3rd grid point from the first: 7 of 20" in t["title"] and "2th" not in t["title"]
    want = np.geomspace(0.01, 10.0, 20)[::3]
    assert [float(r[0]) for r in t["rows"]] == pytest.approx(want, rel=1e-3)


def test_table_rows_words():
    from boundcalc.experiments.ws001 import ordinal, table_rows

    assert [ordinal(k) for k in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == \
        ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"]
    for n in (1, 7, 8, 9, 16, 17, 20, 100):
        idx, words = table_rows(n)
        k = int(np.ceil(n / 8))
        assert list(idx) == list(range(0, n, k)) and len(idx) <= 8
        assert (f"{len(idx)} of {n}" in words) if k > 1 else ("all" in words or "one" in words)


@pytest.mark.parametrize("shift, seed_shift, equal", [(0.5, 0, True), (0.25, 0, False), (0.5, 1, False)],
                         ids=["same-setup", "mutant-shift", "mutant-seed"])
def test_reported_sensitivity_counts_equal_a_direct_library_call(cli_runs, shift, seed_shift, equal):
    """Seed 004 Figure 2(b): the changed-arm counts of the table are neighbouring_runs with the recorded seed and the
    paper's setup written here (500 rounds, rounds 0/100/200 raised by 0.5, LinUCB-DGS at (2, 0.1), α = 1, the
    synthetic pool). A wrong shift or seed must give other counts (the comparison has power)."""
    from boundcalc.algorithms.contextual import LinUCB, LinUCBDGS
    from boundcalc.envs import make_named_env
    from boundcalc.experiments.base import num
    from boundcalc.montecarlo.neighbours import neighbouring_runs

    data = json.loads(Path(cli_runs["004"][0]["results"]).read_text())
    exp = [e for e in data["experiments"] if e["id"] == "fig2b"][0]
    env = make_named_env("dgs-synthetic")
    algs = {"LinUCB": LinUCB(lam=1.0, alpha=1.0),
            "LinUCB-DGS": LinUCBDGS(2.0, 0.1, lam=1.0, alpha=1.0, lambda0=float(env.lambda0))}
    reported, got = [], []
    for name, alg in algs.items():
        rows = [r for r in exp["tables"][0]["rows"] if r[0] == name]
        res = neighbouring_runs(alg, env, 500, 5, (0, 100, 200), shift, seed=int(rows[0][-1]) + seed_shift)
        reported += [[r[1], r[2], r[3]] for r in rows]
        got += [[str(x["step"]), num(x["mean"]), num(x["sd"])] for x in res.summary()]
    assert (reported == got) is equal, (reported, got)
    fig = [c for c in data["experiments"] if c["id"] == "fig2b"][0]["figure_claims"][0]
    assert fig["verdict"] in ("reproduced", "not reproduced", "inconclusive")


# -- worksheet list -----------------------------------------------------------------------------------------
def test_worksheet_list_names_the_five():
    r = CliRunner().invoke(app, ["worksheet", "list", "--json"])
    assert r.exit_code == 0, r.output
    items = json.loads(r.stdout)["worksheets"]
    assert [w["name"] for w in items] == NAMES
    for w in items:
        assert (ROOT / w["script"]).is_file() and w["experiments"]
    r = CliRunner().invoke(app, ["worksheet", "list"])
    assert r.exit_code == 0 and all(n in r.stdout for n in NAMES)
    r2 = CliRunner().invoke(app, ["worksheet", "--json"])  # the group alone lists them too
    assert r2.exit_code == 0 and json.loads(r2.stdout)["worksheets"] == items


@pytest.mark.parametrize("name", ["1", "001", "eps_global_dp", "001_eps_global_dp", "eps-global-dp"])
def test_names_resolve(name):
    assert experiments.get(name).name == "001"


# -- options and bad input, on a tiny worksheet -------------------------------------------------------------------
def _tiny_run(r, s):
    from boundcalc.algorithms.finite import DPIMED, IMED
    from boundcalc.envs import make_env
    from boundcalc.figures import Panel, panels_figure

    from boundcalc.envs.base import GaussianEnv

    env = make_env("mu2")
    r.expect(3)
    a = r.simulate("imed", IMED(), env, s["T"], s["runs"])
    b = r.simulate("dp-imed", DPIMED(1.0), env, s["T"], s["runs"])
    # IMED on Gaussian arms has no bulk path (unbounded rewards): it loops over every step
    r.simulate("imed-gauss", IMED(), GaussianEnv(env.means, sigma=0.5), s["T"], s["runs"])
    from boundcalc.experiments.common import curve

    r.figure(panels_figure([Panel([curve(a, "IMED"), curve(b, "DP-IMED")])], ncols=1), "tiny.png")


TINY = Worksheet(name="999", slug="tiny", title="tiny", paper="none", summary="test worksheet",
                 experiments=[Experiment("e", "tiny experiment", "nothing", "two algorithms",
                                         {"fast": {"T": 1000, "runs": 20}, "full": {"T": 2000, "runs": 20}}, _tiny_run)])


@pytest.fixture
def tiny(monkeypatch):
    mod = types.ModuleType("boundcalc.experiments.wstiny")
    mod.WORKSHEET = TINY
    monkeypatch.setitem(sys.modules, "boundcalc.experiments.wstiny", mod)
    monkeypatch.setitem(experiments.MODULES, "999", "wstiny")
    return TINY


def _run_json(args):
    r = CliRunner().invoke(app, ["worksheet", "run", *args, "--json"])
    assert r.exit_code == 0, r.output
    js = json.loads(r.stdout)
    data = json.loads(Path(js["results"]).read_text())
    return js, {s["label"]: s for s in data["experiments"][0]["simulations"]}


def test_options_reach_the_runner(tiny, tmp_path):
    from boundcalc.algorithms.finite import IMED
    from boundcalc.envs import make_env

    js, sims = _run_json(["999", "--out", str(tmp_path / "a"), "--seed", "5"])
    assert js["inputs"]["seed"] == 5 and js["mode"] == "fast" and Path(js["out"]) == tmp_path / "a"
    s = sims["imed"]
    assert s["seed"] == derived_seed(5, "999", "imed") != derived_seed(0, "999", "imed")
    res = montecarlo.run(IMED(), make_env("mu2"), 1000, 20, seed=s["seed"],
                         checkpoints=montecarlo.log_checkpoints(1000, n=50, start=10))
    assert float(res.mean()[-1]) == s["final_mean"]
    png_ok(tmp_path / "a" / "tiny.png")
    # --full: the full scale
    js, sims = _run_json(["999", "--full", "--out", str(tmp_path / "b")])
    assert js["mode"] == "full" and sims["imed"]["T"] == 2000 and js["step_cap"] == 10**5
    # --step-cap: IMED on Gaussian arms (a loop over t) stops at the cap (runs kept, noted); IMED on Bernoulli arms
    # (leader-stretch fast path) and the episode-level DP-IMED go to T and get the cap as a checkpoint, so that the
    # curves meet there
    js, sims = _run_json(["999", "--step-cap", "500", "--out", str(tmp_path / "c")])
    assert js["inputs"]["step_cap"] == 500
    g = sims["imed-gauss"]
    assert g["T"] == 500 and g["T_requested"] == 1000 and g["runs"] == 20
    assert "simulated to T = 500" in g["note"]
    cps = len(np.unique(np.append(montecarlo.log_checkpoints(1000, 50, 10), 500)))
    for label in ("imed", "dp-imed"):
        assert sims[label]["T"] == 1000 and not sims[label]["note"]
        assert sims[label]["checkpoints"] == cps
    js, sims = _run_json(["999", "--full", "--step-cap", "0", "--out", str(tmp_path / "d")])
    assert sims["imed-gauss"]["T"] == 2000 and js["step_cap"] == 0


@pytest.mark.parametrize("args, word", [
    (["7"], "NAME"), (["nope"], "NAME"), (["000", "--seed", "-1"], "--seed"), (["000", "--seed", "1.5"], "--seed"),
    (["000", "--step-cap", "-1"], "--step-cap"), (["000", "--step-cap", "nan"], "--step-cap"),
    (["000", "--step-cap", "inf"], "--step-cap"), (["000", "--step-cap", "1.5"], "--step-cap"),
    (["003", "--only", "fig9"], "--only"), (["003", "--only", "fig5,fig6"], "--only"), (["003", "--only", ","], "--only"),
    (["000", "--x-scale", "lin"], "--x-scale"), (["000", "--y-scale", "logit"], "--y-scale"),
    (["000", "--log-y", "--y-scale", "linear"], "--log-y"), (["000", "--executor", "threads"], "--executor"),
    (["000", "--executor", "processes", "--workers", "0"], "--workers"),
    (["000", "--executor", "dask", "--scheduler", "not an address"], "--scheduler"),
])
def test_bad_input_is_one_line(args, word, tmp_path):
    r = CliRunner().invoke(app, ["worksheet", "run", *args, "--out", str(tmp_path)])
    err = one_line_error(r)
    assert word in err
    if word == "--only":  # the valid names, as the experiments are named
        assert all(e.id in err for e in experiments.get("003").experiments), err
    assert not any(tmp_path.iterdir()), "no work before the input is checked"


# -- --only, --no-claims, axis scales, executors (issue 24 items 6, 7, 11) -------------------------------------------
def _capture_figures(monkeypatch) -> dict:
    """{file name: [(x scale, y scale) per axes]} of every figure saved, read back from matplotlib before saving."""
    from boundcalc import figures as F

    seen, real = {}, F.save

    def save(fig, path, option="--plot"):
        seen[Path(path).name] = F.axes_scales(fig)
        return real(fig, path, option)

    monkeypatch.setattr(F, "save", save)
    return seen


@pytest.mark.slow
def test_only_fig5_draws_just_fig5(tmp_path, monkeypatch, cli_runs):
    """`worksheet run 003 --fast --only fig5 --no-claims`: the output folder holds Fig. 5, report.md and results.json
    and nothing else; the report and the JSON say what was left out and that the claims were skipped; Fig. 5's four
    panels take the paper's scales (seed 003 App. H: t linear, "Step t ×10^6"; regret log), read back from the
    figure. Fig. 5's simulations are those of the CLI run of 003 (the same by content: read from it,
    tests/worksheet_fast_runs.py); what is checked here is what --only and --no-claims leave out."""
    from worksheet_fast_runs import simulations_from_the_cli_runs

    seen = _capture_figures(monkeypatch)
    with simulations_from_the_cli_runs():
        r = CliRunner().invoke(app, ["worksheet", "run", "003", "--fast", "--only", "fig5", "--no-claims",
                                     "--out", str(tmp_path), "--json"])
    assert r.exit_code == 0, r.output
    js = json.loads(r.stdout)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fig5.png", "report.md", "results.json"]
    assert js["figures"] == [str(tmp_path / "fig5.png")] and js["experiments_run"] == ["fig5"]
    assert js["only"] == ["fig5"] and js["claims_skipped"] is True and js["claims"] == []
    png_ok(tmp_path / "fig5.png")
    assert list(seen) == ["fig5.png"] and seen["fig5.png"] == [("linear", "log")] * 4
    data = json.loads((tmp_path / "results.json").read_text())
    assert [e["id"] for e in data["experiments"]] == ["fig5"] and data["run"]["claims_skipped"] is True
    assert [(a["x"], a["y"]) for a in data["experiments"][0]["figure_axes"]["fig5.png"]["axes"]] == seen["fig5.png"]
    text = (tmp_path / "report.md").read_text()
    assert "not run: fig4a, fig4a-bounds, fig4b, fig4b-bounds, fig4c, fig4c-bounds" in text
    assert "(skipped: --no-claims)" in text and "## Appendix H, Figure 5" in text and "## Figure 4(a)" not in text


def test_only_takes_lists_and_repeats(tiny, tmp_path):
    from boundcalc.experiments.session import select

    ws = experiments.get("001")
    assert select(ws, None) is None
    assert select(ws, ["fig8,fig1"]) == select(ws, ["fig8", "fig1"]) == ["fig1", "fig8"]  # the worksheet's order
    assert select(ws, "figs4-7") == ["figs4-7"]
    js, _ = _run_json(["999", "--only", "e", "--no-claims", "--out", str(tmp_path)])
    assert js["experiments_run"] == ["e"] and js["claims_skipped"] is True


@pytest.mark.parametrize("mutant", [False, True], ids=["stated", "mutant-override-dropped"])
def test_scale_options_reach_the_worksheet_figures(tiny, tmp_path, monkeypatch, mutant):
    """--x-scale / --y-scale / --log-y of `worksheet run` reach every figure (read back from the matplotlib figure);
    without them each figure keeps its own (the tiny figure: log t, linear regret). Mutant kept: the runner drawing
    without the override must fail."""
    from mutation import mutate

    if mutant:
        monkeypatch.setattr(Runner, "run_experiment", mutate(Runner.run_experiment, "scales(*self.scales)", "scales()"))
    monkeypatch.setattr(TINY.experiments[0], "run", _one_curve)  # one cheap curve: the figure is what is checked
    seen = _capture_figures(monkeypatch)
    got = {}
    cases = {"both": ["--x-scale", "linear", "--y-scale", "log"]}
    if not mutant:
        cases.update({"own": [], "x": ["--x-scale", "linear"], "log-y": ["--log-y"]})
    for key, extra in cases.items():
        js, _ = _run_json(["999", "--no-claims", "--out", str(tmp_path / key), *extra])
        got[key] = seen.pop("tiny.png")
        data = json.loads(Path(js["results"]).read_text())
        assert [(a["x"], a["y"]) for a in data["experiments"][0]["figure_axes"]["tiny.png"]["axes"]] == got[key]
    want = {"own": [("log", "linear")], "x": [("linear", "linear")], "log-y": [("log", "log")],
            "both": [("linear", "log")]}
    assert all(got[k] == want[k] for k in got) is (not mutant), got


def _one_curve(r, s):
    from boundcalc.algorithms.finite import DPIMED
    from boundcalc.envs import make_env
    from boundcalc.experiments.common import curve
    from boundcalc.figures import Panel, panels_figure

    a = r.simulate("dp-imed", DPIMED(1.0), make_env("mu2"), 200, 4)
    r.figure(panels_figure([Panel([curve(a, "DP-IMED")])], ncols=1), "tiny.png")


def _blocks_worksheet(runs: int):
    def run(r, s):
        from boundcalc.algorithms.finite import DPIMED, IMED
        from boundcalc.envs import make_env
        from boundcalc.envs.base import GaussianEnv

        env = make_env("mu2")
        r.simulate("imed", IMED(), env, s["T"], s["runs"])
        r.simulate("dp-imed", DPIMED(1.0), env, s["T"], s["runs"])
        r.simulate("imed-gauss", IMED(), GaussianEnv(env.means, sigma=0.5), s["T"], s["runs"])  # per-step loop
    return Worksheet(name="998", slug="blocks", title="blocks", paper="none", summary="executor test",
                     experiments=[Experiment("e", "three simulations of several blocks", "nothing", "",
                                             {"fast": {"T": 300, "runs": runs}, "full": {"T": 300, "runs": runs}},
                                             run)])


@pytest.mark.parametrize("seed_shift, equal", [(0, True), (1, False)], ids=["same-seed", "mutant-seed"])
def test_executor_processes_gives_bit_identical_numbers(tmp_path, monkeypatch, seed_shift, equal):
    """Three simulations of 120 runs (3 blocks of 50, 50, 20) through `--executor processes --workers 2` and in this
    process: every Results is bit-identical (regret at every checkpoint of every run, pulls); the blocks did go to the
    worker processes. Mutant kept: another seed gives other numbers (the comparison has power)."""
    from boundcalc.experiments.session import Session
    from boundcalc.montecarlo import executors

    ws = _blocks_worksheet(120)
    results = {}
    real_run = montecarlo.run

    def keep(kind):
        def run(alg, env, T, runs, **kw):
            res = real_run(alg, env, T, runs, **kw)
            results.setdefault(kind, []).append(res)
            return res
        return run

    sent = []
    real_imap = executors.LocalProcesses.imap_unordered
    monkeypatch.setattr(executors.LocalProcesses, "imap_unordered",
                        lambda self, fn, tasks: (sent.append(len(tasks)), real_imap(self, fn, tasks))[1])
    for kind, plan, seed in (("in-process", None, 0),
                             ("processes", {"kind": "processes", "workers": 2, "scheduler": None}, seed_shift)):
        monkeypatch.setattr(montecarlo, "run", keep(kind))
        sim = Simulation(seed=seed, executor=ExecutorPlan(**plan) if plan else ExecutorPlan())
        Session(ws, out=str(tmp_path / kind), simulation=sim, echo=False, claims=False).run_all()
    assert sent == [2, 2, 2]  # three simulations, their three blocks sent as one task per worker (engine._chunks)
    a, b = results["in-process"], results["processes"]
    assert len(a) == len(b) == 3
    same = all(np.array_equal(x.regret, y.regret) and np.array_equal(x.pulls, y.pulls) for x, y in zip(a, b))
    assert same is equal
    ja, jb = (json.loads((tmp_path / k / "results.json").read_text()) for k in ("in-process", "processes"))
    assert jb["run"]["executor"]["kind"] == "processes"
    fin = lambda d: [(s["final_mean"], s["final_ci"]) for s in d["experiments"][0]["simulations"]]  # noqa: E731
    assert (fin(ja) == fin(jb)) is equal


def test_cli_executor_reaches_the_runner(tiny, tmp_path, monkeypatch):
    """`worksheet run --executor processes --workers 2`: the runner's simulations get a LocalProcesses of 2 workers,
    closed at the end; the JSON and the report say where the blocks ran."""
    from boundcalc.montecarlo import executors

    got = []
    real_run = montecarlo.run

    def run(alg, env, T, runs, **kw):
        ex = kw.get("executor")
        got.append((type(ex).__name__, getattr(ex, "workers", None)))
        return real_run(alg, env, T, runs, **kw)

    monkeypatch.setattr(montecarlo, "run", run)
    closed = []
    real_close = executors.LocalProcesses.close
    monkeypatch.setattr(executors.LocalProcesses, "close", lambda self: (closed.append(1), real_close(self))[1])
    js, sims = _run_json(["999", "--no-claims", "--executor", "processes", "--workers", "2", "--out", str(tmp_path)])
    assert got and all(g == ("LocalProcesses", 2) for g in got), got
    assert closed and js["executor"] == {"kind": "processes", "workers": 2, "scheduler": None}
    assert "--executor processes with 2 workers" in Path(js["report"]).read_text()


def test_unwritable_out_is_one_line(tmp_path):
    f = tmp_path / "a_file"
    f.write_text("x")
    for out in (f, f / "below"):
        r = CliRunner().invoke(app, ["worksheet", "run", "000", "--out", str(out)])
        assert "--out" in one_line_error(r)


def test_runner_rejects_a_bad_mode(tmp_path):
    from boundcalc.errors import InputError

    with pytest.raises(InputError):
        Runner(TINY, mode="medium", out=str(tmp_path))


# -- statistics of the Figure 4 panels --------------------------------------------------------------------------
def _results(regret):
    regret = np.asarray(regret, float)
    return montecarlo.Results({}, {}, 1, 0, 1, np.array([1]), regret[:, None], np.zeros((len(regret), 1)),
                              np.zeros(len(regret)))


@pytest.mark.parametrize("shrink, ok", [(1.0, True), (0.5, False)], ids=["stated", "mutant-half-width"])
def test_difference_and_pop_intervals_cover(shrink, ok):
    """Coverage of the 95% intervals of Reg_priv − Reg_nonpriv and of PoP over 2000 pairs of independent samples from
    known laws (gamma: skewed like regret): within the binomial band around 0.95; intervals shrunk by half (a
    mutant of the standard error) fall well outside it."""
    from boundcalc.experiments.bounds import difference, price_of_privacy

    rng = np.random.default_rng(7)
    mp, mn = 150.0, 100.0  # true means: difference 50, PoP 0.5
    reps, n = 2000, 100
    cov_d = cov_p = 0
    for _ in range(reps):
        p = _results(rng.gamma(4.0, mp / 4.0, n))
        q = _results(rng.gamma(4.0, mn / 4.0, n))
        d, lo, hi = (x[0] for x in difference(p, q))
        half = (hi - lo) / 2 * shrink
        cov_d += abs(d - (mp - mn)) <= half
        r, lo, hi = (x[0] for x in price_of_privacy(p, q))
        half = (hi - lo) / 2 * shrink
        cov_p += abs(r - (mp / mn - 1)) <= half
    band = 4 * np.sqrt(0.95 * 0.05 / reps)  # 4 binomial standard deviations
    for cov in (cov_d / reps, cov_p / reps):
        assert bool(abs(cov - 0.95) <= band) is ok, cov


def test_lowest_words():
    from boundcalc.experiments.common import lowest

    e = {"A": (10, 9, 11), "B": (20, 19, 21), "C": (30, 29, 31)}
    assert lowest(e, ("A",))[0] == "lowest (significant)"
    assert lowest(e, ("B",))[0] == "not lowest (significant)"
    e["B"] = (10.5, 8, 13)
    assert lowest(e, ("A",))[0] == "lowest (not significant)"
    assert lowest(e, ("B",))[0] == "not lowest (not significant)"


# -- the grid figure -------------------------------------------------------------------------------------------
def test_panels_figure_shared_legend_lists_each_thing_once(tmp_path):
    from boundcalc.figures import Curve, Line, Panel, panels_figure, save

    t = np.geomspace(10, 1000, 20)
    c = Curve("alg", t, t / 10, t / 12, t / 8)
    low = Line("bound", t, t * 1e4)  # off scale in the first panel
    high = Line("bound", t, t / 5)  # drawn in the second
    only_off = Line("far", t, t * 1e5)
    fig = panels_figure([Panel([c], [low, only_off]), Panel([c], [high, only_off]), Panel([c])], ncols=2)
    labels = [tx.get_text() for tx in fig.legends[0].get_texts()]
    assert labels.count("alg") == 1 and labels.count("bound") == 1 and "bound (off scale)" not in labels
    assert "far (off scale)" in labels
    assert len(fig.axes) == 3 and all(ax.get_legend() is None for ax in fig.axes)
    path = save(fig, str(tmp_path / "grid.png"))
    png_ok(Path(path))
    fig = panels_figure([Panel([Curve("x", t, t, color="#123456")])], shared_legend=False)
    assert fig.axes[0].get_legend() is not None
    assert fig.axes[0].lines[0].get_color() == "#123456"


# -- notebooks -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_notebook_is_percent_format(name):
    jupytext = pytest.importorskip("jupytext")
    nb = jupytext.read(SCRIPTS[name])
    fmt = nb.metadata["jupytext"]["text_representation"]["format_name"]
    assert fmt == "percent"
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    md = [c.source for c in nb.cells if c.cell_type == "markdown"]
    ws = experiments.get(name)
    for e in ws.experiments:  # one cell per experiment, each running the package's code
        assert any(f'ws.run("{e.id}")' in c for c in code), e.id
    assert any("ws.claims()" in c for c in code) and any("ws.finish()" in c for c in code)
    assert md and md[0].startswith(f"# Worksheet {name}")
    assert all(len(c.splitlines()) <= 16 for c in code), "notebooks stay thin: the work is in boundcalc.experiments"


def test_notebook_runs_in_a_kernel(tmp_path, monkeypatch, cli_runs):
    """Worksheet 000 as a notebook: executed cell by cell in a Jupyter kernel (cwd = the notebook's folder, as Jupyter
    does), it shows every figure inline and writes its report in fast mode. The kernel reads the simulations and the
    claims' verdicts that the CLI run of 000 computed (an IPython startup file in a temporary IPYTHONDIR installs
    tests/worksheet_fast_runs.py's serve_in_this_process, as the scripts' runs read them in this process; a call that
    differs runs): what is checked here is the notebook, its cells, inline figures and report."""
    jupytext = pytest.importorskip("jupytext")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    from jupyter_client.kernelspec import NoSuchKernel

    from worksheet_fast_runs import save_for_another_process

    path = tmp_path / SCRIPTS["000"].name
    path.write_text(SCRIPTS["000"].read_text())
    monkeypatch.setenv("PYTHONPATH", str(ROOT))  # the kernel imports this checkout's boundcalc
    cache = tmp_path / "cli000.pickle"
    save_for_another_process(cache, "000")
    startup = tmp_path / "ipython" / "profile_default" / "startup"
    startup.mkdir(parents=True)
    tests = Path(__file__).resolve().parents[1]
    (startup / "00-worksheet-cache.py").write_text(
        f"import sys\nsys.path.insert(0, {str(tests)!r})\nimport worksheet_fast_runs\n"
        f"worksheet_fast_runs.serve_in_this_process({str(cache)!r})\nsys.path.remove({str(tests)!r})\n")
    monkeypatch.setenv("IPYTHONDIR", str(tmp_path / "ipython"))
    nb = jupytext.read(path)
    try:
        nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                resources={"metadata": {"path": str(tmp_path)}}).execute()
    except NoSuchKernel:
        pytest.skip("no python3 Jupyter kernel installed")
    outs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outs if o.output_type == "error"]
    images = [o for o in outs if o.output_type == "display_data" and "image/png" in o.get("data", {})]
    out = tmp_path / "worksheet-output" / "000_rdp_bandits-fast"
    data = json.loads((out / "results.json").read_text())
    assert data["mode"] == "fast"
    figures = [f for e in data["experiments"] for f in e["figures"]]
    assert len(images) == len(figures) >= 1
    assert (out / "report.md").is_file()
