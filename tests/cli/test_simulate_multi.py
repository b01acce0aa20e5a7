"""simulate --algo A,B,C (issue 9 §1, §2): one instance, budget, T, runs and seeds; each algorithm's numbers are
those of a direct library run; one table; one figure with every curve, its ribbon and the bounds; budgets per
notion; the algorithms listing shows the real privacy guarantee."""

from __future__ import annotations

import json

import numpy as np
import pytest

from boundcalc import algorithms as registry
from boundcalc import figures
from clirun import app, json_of, runner
from boundcalc.envs import make_env, make_named_env
from boundcalc.montecarlo import log_checkpoints, run
from boundcalc.privacy import RDP, ZCDP, PureDP

BASE = ["--T", "400", "--runs", "6", "--block-runs", "4"]


def _json(args):
    return json_of("simulate", *args)


def _lib(algo, budget=None, params=None, env=None, T=400, runs=6, seed=0, n_cp=12, block_runs=4):
    alg = registry.build(algo, budget, params or {})
    return run(alg, env if env is not None else make_env("mu2"), T, runs, seed=seed,
               checkpoints=log_checkpoints(T, n_cp), block_runs=block_runs)


def test_each_entry_is_the_direct_run_of_that_algorithm():
    """Same seeds for all: each algorithm's entry equals its own library run; an option dropped for one of them
    (the budget, the seed) would make it differ."""
    d = _json(["--algo", "DP-KLUCB,AdaC-UCB,AdaR-UCB,KL-UCB", "--epsilon", "0.5", "--rho", "0.2", "--alpha", "3",
               "--rdp-epsilon", "0.7", "--seed", "4", *BASE])
    want = {"DP-KLUCB": _lib("DP-KLUCB", PureDP(0.5), seed=4), "AdaC-UCB": _lib("AdaC-UCB", ZCDP(0.2), seed=4),
            "AdaR-UCB": _lib("AdaR-UCB", RDP(3.0, 0.7), seed=4), "KL-UCB": _lib("KL-UCB", seed=4)}
    assert [e["algo"] for e in d["results"]] == list(want)
    for e in d["results"]:
        res = want[e["algo"]]
        assert e["checkpoints"] == res.table() and e["pulls_mean"] == res.pulls_mean().tolist()
        assert e["regret_mean"] == res.final()["mean"]
        assert e["regret_ci"] == [res.final()["ci_low"], res.final()["ci_high"]]
        assert set(e) >= {"algo", "regret_mean", "regret_ci", "checkpoints", "guarantee", "budget", "params"}
    assert _lib("DP-KLUCB", PureDP(0.5), seed=5).table() != want["DP-KLUCB"].table()  # the seed reaches the entry
    # value: each algorithm's mean regret at T (README's contract: the main number), from the library runs
    assert d["value"] == {a: res.final()["mean"] for a, res in want.items()} and d["inputs"]["algo"] == list(want)
    assert d["inputs"]["budget"]["KL-UCB"] == {"notion": "none"}
    assert any(n.startswith("KL-UCB is non-private") for n in d["notes"])


def test_single_algorithm_json_keeps_its_fields_and_adds_results():
    d = _json(["--algo", "DP-IMED", "--epsilon", "1", *BASE])
    res = _lib("DP-IMED", PureDP(1.0))
    assert d["regret_mean"] == d["value"] == res.final()["mean"] and d["checkpoints"] == res.table()
    assert len(d["results"]) == 1 and d["results"][0]["checkpoints"] == d["checkpoints"]
    assert d["inputs"]["algo"] == "DP-IMED"


def test_linear_algorithms_together_on_one_instance():
    d = _json(["--algo", "GOPE,AdaC-GOPE", "--rho", "1", "--T", "2000", "--runs", "4"])
    env = make_named_env("zcdp-linear", seed=3)
    for e, (name, b) in zip(d["results"], [("GOPE", None), ("AdaC-GOPE", ZCDP(1.0))]):
        assert e["checkpoints"] == _lib(name, b, env=env, T=2000, runs=4, block_runs=50).table()


@pytest.mark.parametrize("args,needle", [
    (["--algo", "DP-KLUCB,AdaC-GOPE", "--epsilon", "1", "--rho", "1"], "--algo must be algorithms of one setting"),
    (["--algo", "DP-KLUCB,dp_klucb", "--epsilon", "1"], "--algo must be each algorithm once"),
    (["--algo", "DP-KLUCB,,UCB", "--epsilon", "1"], "--algo must be one algorithm name or several"),
    (["--algo", "DP-KLUCB,AdaC-UCB", "--epsilon", "1"], "--rho must be given for AdaC-UCB"),
    (["--algo", "DP-KLUCB,nope", "--epsilon", "1"], "--algo must be one of"),
    (["--algo", "UCB,KL-UCB", "--param", "nope=1"], "--param must be a parameter of one of UCB, KL-UCB"),
    (["--algo", "DP-KLUCB", "--epsilon", "1", "--rho", "1"], "budget must be exactly one of"),
])
def test_bad_combinations_are_one_line_errors(args, needle):
    r = runner.invoke(app, ["simulate", *args, *BASE])
    assert r.exit_code == 2, r.output
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and needle in lines[0], r.stderr


def test_options_apply_to_the_algorithms_that_have_them():
    d = _json(["--algo", "UCB,DP-KLUCB", "--epsilon", "1", "--param", "c=0.3", "--batch-ratio", "4", "--rho", "2",
               *BASE])
    ucb, dpk = d["results"]
    assert ucb["checkpoints"] == _lib("UCB", params={"c": 0.3}).table()
    assert dpk["checkpoints"] == _lib("DP-KLUCB", PureDP(1.0), {"alpha": 4.0}).table()
    notes = d["notes"]
    assert "--param c has no effect on DP-KLUCB" in notes and "--batch-ratio has no effect on UCB" in notes
    assert "--rho has no effect on UCB, DP-KLUCB" in notes


def test_table_has_one_column_group_per_algorithm():
    r = runner.invoke(app, ["simulate", "--algo", "DP-KLUCB,DP-IMED,IMED", "--epsilon", "1", *BASE])
    assert r.exit_code == 0, r.output
    head = r.stdout.split("┡")[0]
    for name in ("DP-KLUCB", "DP-IMED", "IMED"):
        assert name in head
    assert head.count("mean ± 95%") == 3
    assert "the same seeds" in r.stdout


def _capture(monkeypatch):
    seen = {}
    real = figures.save

    def spy(fig, path, option="--plot"):
        ax = fig.axes[0]
        seen.update(title=ax.get_title(), labels=ax.get_legend_handles_labels()[1], ribbons=len(ax.collections),
                    xlim=ax.get_xlim(), ylim=ax.get_ylim(), lines=ax.get_lines())
        return real(fig, path, option)

    monkeypatch.setattr(figures, "save", spy)
    return seen


@pytest.mark.parametrize("ext,magic", [(".png", b"\x89PNG"), (".svg", b"<?xml"), (".pdf", b"%PDF")])
def test_plot_format_follows_the_extension(ext, magic, tmp_path):
    p = tmp_path / f"f{ext}"
    _json(["--algo", "UCB,KL-UCB", *BASE, "--plot", str(p)])
    assert p.read_bytes()[:4] == magic[:4]
    r = runner.invoke(app, ["simulate", "--algo", "UCB", *BASE, "--plot", str(tmp_path / "f.jpg")])
    assert r.exit_code == 2 and "--plot must be a FILE.png/.svg/.pdf" in r.stderr


def test_one_figure_every_curve_ribbon_and_bounds(tmp_path, monkeypatch):
    seen = _capture(monkeypatch)
    p = tmp_path / "f.png"
    d = _json(["--algo", "DP-KLUCB,DP-IMED,IMED", "--epsilon", "1", "--T", "5000", "--runs", "6", "--plot", str(p)])
    assert p.read_bytes()[:4] == b"\x89PNG"
    labels = seen["labels"]
    assert labels[:3] == ["DP-KLUCB", "DP-IMED", "IMED"] and seen["ribbons"] == 3
    assert "001-thm4.3-dp-klucb (upper)" in labels and "001-thm4.3-dp-imed (upper)" in labels
    assert any(x.endswith("(lower)") for x in labels)
    assert d["bound_overlay"]["curves"] == labels[3:]  # the legend lists exactly what is drawn
    title = seen["title"]
    assert all(s in title for s in ("mu2", "ε = 1", "T = 5000", "6 runs", "DP-KLUCB, DP-IMED, IMED"))
    # at least 50 log-spaced checkpoints when plotting, and the x axis is the simulated range
    t = np.array([c["t"] for c in d["results"][0]["checkpoints"]])
    assert d["inputs"]["checkpoints"] == figures.MIN_PLOT_CHECKPOINTS and t.size >= 48
    steps = np.diff(np.log(t[t >= 200]))  # log-spaced (integer rounding perturbs the smallest ones)
    assert np.allclose(steps, steps.mean(), rtol=0.05)
    assert seen["xlim"] == (t[0], t[-1])
    top = max(c["ci_high"] for e in d["results"] for c in e["checkpoints"])
    assert top <= seen["ylim"][1] <= 4.4 * top  # axes fit the data (an off-scale bound does not flatten them)
    # a bound tied to its algorithm shares its colour
    by_label = {ln.get_label(): ln for ln in seen["lines"]}
    assert by_label["001-thm4.3-dp-klucb (upper)"].get_color() == by_label["DP-KLUCB"].get_color()


def test_checkpoints_given_with_plot_are_kept(tmp_path):
    d = _json(["--algo", "UCB", "--checkpoints", "7", *BASE, "--plot", str(tmp_path / "a.png")])
    assert d["inputs"]["checkpoints"] == 7 and len(d["checkpoints"]) == 7


def test_table_shows_12_of_50_plot_checkpoints(tmp_path):
    r = runner.invoke(app, ["simulate", "--algo", "UCB", "--T", "1e4", "--runs", "4", "--plot", str(tmp_path / "a.png")])
    assert r.exit_code == 0, r.output
    assert "12 of 50 checkpoints shown (all in --json)" in " ".join(r.stdout.split())


def test_save_several_algorithms_one_file_each(tmp_path):
    from boundcalc.montecarlo import Results

    d = _json(["--algo", "UCB,KL-UCB", *BASE, "--save", str(tmp_path / "r.npz")])
    assert d["saved"] == [str(tmp_path / "r-UCB.npz"), str(tmp_path / "r-KL-UCB.npz")]
    for path, e in zip(d["saved"], d["results"]):
        assert Results.load(path).table() == e["checkpoints"]


# -- boundcalc algorithms: the real guarantee ---------------------------------------------------------------------------
def test_algorithms_lists_the_real_guarantee():
    r = runner.invoke(app, ["algorithms", "--json"])
    rows = {x["name"]: x for x in json.loads(r.stdout)["algorithms"]}
    from boundcalc.cli.flags import FLAGS
    from boundcalc.errors import front_end_names

    for name, cls in registry.all_algorithms().items():
        with front_end_names(FLAGS):  # as the CLI renders it ("pure (--epsilon) as claimed by its source")
            assert rows[name]["guarantee"] == registry.guarantee(cls)
    assert "ERRATA 6" in rows["LinUCB-DGS"]["guarantee"]
    assert rows["UCB"]["guarantee"].startswith("none")
    t = runner.invoke(app, ["algorithms"])
    assert "guarantee" in t.stdout and "established" in t.stdout  # LinUCB-DGS: "not established" (cells wrap)
