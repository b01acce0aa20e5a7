"""CLI tests for `boundcalc episodes`."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

from boundcalc.cli.app import app

runner = CliRunner()


def run(*args):
    return runner.invoke(app, ["episodes", *args])


def test_table_and_count():
    r = run("--algo", "AdaC-GOPE", "--rho", "0.1", "--d", "3", "--K", "10", "--T", "1e6")
    assert r.exit_code == 0, r.output
    assert "episodes up to T" in r.output and "6" in r.output


def test_json_one_object():
    r = run("--algo", "dp-klucb", "--epsilon", "0.5", "--T", "1e6", "--json")
    assert r.exit_code == 0, r.output
    lines = [x for x in r.stdout.splitlines() if x.strip()]
    assert len(lines) == 1
    obj = json.loads(lines[0])
    assert obj["command"] == "episodes"
    eps = obj["episodes"]
    assert obj["value"] == len(eps) == 1 + math.ceil(math.log2(1e6))  # n_1 = 1, α = 2: cumulative 2^{m-1}
    assert sum(e["length"] for e in eps) == 10**6 and eps[-1]["t_end"] == 10**6
    assert all(e["noise_scale"] == 2.0 for e in eps)
    assert obj["per_arm"] is True


def test_huge_horizon():
    r = run("--algo", "adar-oful", "--alpha", "2", "--rdp-epsilon", "1", "--T", "1e15", "--json")
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    assert obj["episodes"][-1]["t_end"] == 10**15
    assert obj["value"] < 1000


@pytest.mark.parametrize(
    "args",
    [
        ("--algo", "adac-ucb", "--rho", "1", "--T", "0"),
        ("--algo", "adac-ucb", "--rho", "-1"),
        ("--algo", "nope", "--epsilon", "1"),
        ("--algo", "adac-ucb"),
        ("--algo", "adar-ucb", "--alpha", "0.5", "--rdp-epsilon", "1"),
        ("--algo", "adac-ucb", "--rho", "1", "--plot", "/nonexistent-dir/s.png"),  # was a FileNotFoundError traceback
        ("--algo", "adac-ucb", "--rho", "1", "--plot", "s.txtq"),  # was a matplotlib ValueError traceback
    ],
)
def test_bad_input_one_line(args):
    r = run(*args)
    assert r.exit_code == 2
    err = r.stderr if hasattr(r, "stderr") else r.output
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("boundcalc: error:"), err


def test_unknown_algo_lists_names():
    r = run("--algo", "UCB", "--epsilon", "1")
    assert r.exit_code == 2
    for n in ("adac-gope", "dp-imed", "adar-oful"):
        assert n in r.stderr


def test_plot(tmp_path):
    f = tmp_path / "s.png"
    r = run("--algo", "adac-ucb", "--rho", "0.5", "--T", "1e5", "--plot", str(f))
    assert r.exit_code == 0, r.output
    assert f.exists() and f.stat().st_size > 0
