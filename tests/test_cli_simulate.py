"""CLI: boundcalc simulate / boundcalc algorithms (CliRunner on boundcalc.cli.app.app)."""

import json

import pytest
from typer.testing import CliRunner

from boundcalc.cli.app import app

runner = CliRunner()


def _run(args):
    return runner.invoke(app, args)


def test_simulate_json_fields_and_consistency():
    r = _run(["simulate", "--algo", "DP-IMED", "--env", "mu2", "--epsilon", "1", "--T", "2e3", "--runs", "20",
              "--seed", "3", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["command"] == "simulate" and d["inputs"]["T"] == 2000 and d["inputs"]["runs"] == 20
    lo, hi = d["regret_ci"]
    assert lo <= d["regret_mean"] <= hi
    cps = d["checkpoints"]
    assert cps[-1]["t"] == 2000 and cps[-1]["mean"] == pytest.approx(d["regret_mean"])
    assert all(c["ci_low"] <= c["mean"] <= c["ci_high"] for c in cps)
    assert sum(d["pulls_mean"]) == pytest.approx(2000)
    # pseudo-regret identity on the means: sum_a Delta_a E N_a
    gaps = [0, 0.125, 0.25, 0.375, 0.5]
    assert sum(g * n for g, n in zip(gaps, d["pulls_mean"])) == pytest.approx(d["regret_mean"])
    assert d["episodes_mean"] > 0


def test_simulate_same_seed_same_json_and_processes():
    a = _run(["simulate", "--algo", "adac-ucb", "--rho", "0.1", "--T", "1e4", "--runs", "8", "--json",
              "--block-runs", "3"])
    b = _run(["simulate", "--algo", "adac-ucb", "--rho", "0.1", "--T", "1e4", "--runs", "8", "--json",
              "--block-runs", "3", "--processes", "2"])
    assert a.exit_code == 0 and b.exit_code == 0
    assert json.loads(a.stdout)["checkpoints"] == json.loads(b.stdout)["checkpoints"]


def test_simulate_table_and_means_override():
    r = _run(["simulate", "--algo", "AdaR-UCB", "--alpha", "2", "--rdp-epsilon", "1", "--means", "0.6,0.5",
              "--T", "1000", "--runs", "5"])
    assert r.exit_code == 0, r.output
    assert "AdaR-UCB" in r.stdout and "95% CI" in r.stdout and "1000" in r.stdout


def test_simulate_plot(tmp_path):
    p = tmp_path / "reg.png"
    r = _run(["simulate", "--algo", "DP-KLUCB", "--epsilon", "0.5", "--T", "3000", "--runs", "10", "--plot", str(p),
              "--json"])
    assert r.exit_code == 0, r.output
    assert p.exists() and p.stat().st_size > 1000
    assert json.loads(r.stdout)["plot"] == str(p)


@pytest.mark.parametrize("args", [
    ["--algo", "DP-IMED", "--epsilon", "1", "--runs", "0"],
    ["--algo", "DP-IMED", "--epsilon", "1", "--means", "0.5,1.5"],
    ["--algo", "thompson", "--epsilon", "1"],
    ["--algo", "DP-IMED"],  # budget missing
    ["--algo", "DP-IMED", "--epsilon", "-1"],
    ["--algo", "AdaC-UCB", "--rho", "0.1", "--T", "2.5"],
    ["--algo", "DP-IMED", "--epsilon", "1", "--env", "nope"],
])
def test_simulate_bad_input_exit_2_one_line(args):
    r = _run(["simulate", *args, "--T", "100"] if "--T" not in args else ["simulate", *args])
    assert r.exit_code == 2, r.output
    err = r.stderr.strip() if r.stderr_bytes is not None else r.output.strip()
    assert len(err.splitlines()) == 1 and err.startswith("boundcalc: error:")


def test_algorithms_listing():
    r = _run(["algorithms", "--json"])
    assert r.exit_code == 0
    d = json.loads(r.stdout)
    names = {a["name"] for a in d["algorithms"]}
    assert {"DP-KLUCB", "DP-IMED", "DP-SE", "AdaP-UCB", "AdaP-KLUCB", "Lazy-DP-TS", "AdaC-UCB", "AdaR-UCB",
            "UCB", "KL-UCB", "IMED"} <= names
    dp = next(a for a in d["algorithms"] if a["name"] == "DP-IMED")
    assert "001" in dp["source"] and dp["notion"] == "pure"
    t = _run(["algorithms"])
    assert t.exit_code == 0 and "AdaC-UCB" in t.stdout
