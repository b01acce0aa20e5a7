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
from worksheet_fast_runs import TIMES as CLI_TIMES
from worksheet_fast_runs import cli_fast_runs

ROOT = Path(__file__).resolve().parents[1]
NAMES = ["000", "001", "002", "003", "004"]
# the scripts that run here beside the CLI (same numbers): three of the five, for the suite's time (each script is
# thin over the runner the CLI uses; all five run through the CLI below, every script is parsed as a notebook by
# test_notebook_is_percent_format, and 000 / 002 as scripts are not run by the suite)
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
    # built once per process (tests/worksheet_fast_runs.py) and shared with tests/test_worksheet_bounds.py, whose
    # every-curve check reads these runs' results.json (same xdist group "worksheets")
    out = cli_fast_runs(tmp_path_factory)
    TIMES.update(CLI_TIMES)
    return out


@pytest.fixture(scope="module")
def script_runs(tmp_path_factory):
    # the five scripts run as two concurrent processes at a time (this fixture is otherwise idle, and CI has 2 cores)
    out, queue, running = {}, list(SCRIPT_NAMES), []
    while queue or running:
        while queue and len(running) < 2:
            n = queue.pop(0)
            d = tmp_path_factory.mktemp(f"script{n}")
            logs = d.parent / f"{d.name}.stdout", d.parent / f"{d.name}.stderr"  # files: no pipe can fill up
            with open(logs[0], "w") as so, open(logs[1], "w") as se:
                p = subprocess.Popen([sys.executable, str(SCRIPTS[n].relative_to(ROOT)), "--fast", "--out", str(d)],
                                     cwd=ROOT, stdout=so, stderr=se, text=True)
            running.append((n, d, p, logs, time.perf_counter()))
        n, d, p, logs, t0 = running.pop(0)
        p.wait(timeout=600)
        TIMES[f"script {n}"] = time.perf_counter() - t0
        out[n] = (subprocess.CompletedProcess(p.args, p.returncode, logs[0].read_text(), logs[1].read_text()), d)
    return out


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
    """The whole fast set (each worksheet once) is measured, not asserted: printed here, documented in README."""
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
])
def test_bad_input_is_one_line(args, word, tmp_path):
    r = CliRunner().invoke(app, ["worksheet", "run", *args, "--out", str(tmp_path)])
    assert word in one_line_error(r)
    assert not any(tmp_path.iterdir()), "no work before the input is checked"


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


def test_notebook_runs_in_a_kernel(tmp_path, monkeypatch):
    """Worksheet 000 as a notebook: executed cell by cell in a Jupyter kernel (cwd = the notebook's folder, as Jupyter
    does), it shows every figure inline and writes its report in fast mode."""
    jupytext = pytest.importorskip("jupytext")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    from jupyter_client.kernelspec import NoSuchKernel

    path = tmp_path / SCRIPTS["000"].name
    path.write_text(SCRIPTS["000"].read_text())
    monkeypatch.setenv("PYTHONPATH", str(ROOT))  # the kernel imports this checkout's boundcalc
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
