"""Regret distributions in `simulate` and `regret --check` (issue 14 §3): median, p90, p99 and the fraction of runs
still growing linearly, against the per-run regrets the command saves; --plot-dist and --log-y."""

from __future__ import annotations

import json

import numpy as np
import pytest

from clirun import app, runner


def test_simulate_distribution_matches_the_saved_runs(tmp_path):
    saved = tmp_path / "r.json"
    res = runner.invoke(app, ["simulate", "--algo", "DP-IMED", "--epsilon", "0.5", "--means", "0.9,0.8,0.7", "--T",
                              "3000", "--runs", "40", "--save", str(saved), "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)["distribution"]
    per = json.loads(saved.read_text())
    reg = np.array(per["regret"])
    x = reg[:, -1]
    assert d["runs"] == 40 and d["mean"] == pytest.approx(x.mean())
    for key, q in (("median", 0.5), ("p90", 0.9), ("p99", 0.99)):
        assert d[key] == pytest.approx(np.quantile(x, q))
    # still linear at T: increment per step over the last checkpoint interval reaching back past 0.9 T >= gap_min/2
    t = np.array([c["t"] for c in per["checkpoints"]], dtype=float)
    i0 = np.nonzero(t <= 0.9 * t[-1])[0][-1]
    slope = (reg[:, -1] - reg[:, i0]) / (t[-1] - t[i0])
    assert d["linear_fraction"] == pytest.approx(np.mean(slope >= 0.5 * 0.1))


def test_simulate_plot_dist_and_log_y(tmp_path):
    pd, pl = tmp_path / "d.png", tmp_path / "c.png"
    res = runner.invoke(app, ["simulate", "--algo", "DP-SE,UCB", "--epsilon", "1", "--means", "0.9,0.5", "--T",
                              "1000", "--runs", "10", "--plot-dist", str(pd), "--plot", str(pl), "--log-y"])
    assert res.exit_code == 0, res.output
    assert pd.stat().st_size > 1000 and pl.stat().st_size > 1000
    assert "p90" in res.stdout and "still linear" in res.stdout
    bad = runner.invoke(app, ["simulate", "--algo", "UCB", "--means", "0.9,0.5", "--T", "100", "--runs", "2",
                              "--plot-dist", str(tmp_path / "d.txt")])
    assert bad.exit_code == 2 and "--plot-dist" in bad.stderr


def test_log_y_draws_a_log_axis():
    from boundcalc import figures as F

    c = [F.Curve("a", [1, 10, 100], [1, 10, 1000])]
    assert F.regret_figure(c, log_y=True).axes[0].get_yscale() == "log"
    assert F.regret_figure(c, log_y=False).axes[0].get_yscale() == "linear"  # mutant: --log-y ignored


def test_regret_check_reports_the_distribution():
    res = runner.invoke(app, ["regret", "--setting", "finite", "--epsilon", "1", "--T", "1000", "--check", "--runs",
                              "10", "--json"])
    assert res.exit_code == 0, res.output
    obj = json.loads(res.stdout)
    rows = [r for r in obj.get("bounds", obj.get("rows", [])) if "empirical" in r and "mean" in r["empirical"]]
    assert rows
    for r in rows:
        dist = r["empirical"]["distribution"]
        assert dist["mean"] == pytest.approx(r["empirical"]["mean"])
        assert dist["median"] <= dist["p90"] <= dist["p99"] <= dist["max"]
