"""`regret --rho 0.001,0.01,0.1` (and --epsilon, --rdp-epsilon, --ldp-epsilon lists): one table, one JSON sweep, a
plot of regret against the budget; each budget's column equals the single-budget call."""

from __future__ import annotations

import json

import pytest

from clirun import app, entry_point, json_of, runner


def _json(args):
    return json_of("regret", *args)


@pytest.mark.parametrize("setting,flag,values,extra", [
    ("linear", "--rho", ["0.001", "0.01", "0.1"], []),
    ("finite", "--epsilon", ["0.1", "1"], ["--T", "1e5"]),
    ("linear", "--rdp-epsilon", ["0.5", "2"], ["--alpha", "3"]),
    ("glm", "--ldp-epsilon", ["0.5", "1", "2"], ["--ldp-delta", "0.01"]),
    ("contextual", "--epsilon", ["0.5", "2"], ["--delta", "1e-3", "--T", "1e5"]),
])
def test_each_budget_of_the_list_equals_the_single_budget_call(setting, flag, values, extra):
    obj = _json(["--setting", setting, flag, ",".join(values), *extra])
    assert len(obj["sweep"]) == len(values) and len(obj["value"]) == len(values)
    for v, part in zip(values, obj["sweep"]):
        one = _json(["--setting", setting, flag, v, *extra])
        assert part["value"] == one["value"] and part["value_id"] == one["value_id"]
        got = {r["id"]: r["value"] for r in part["bounds"]}
        want = {r["id"]: r["value"] for r in one["bounds"]}
        assert got == want


def test_a_list_mutant_would_be_caught():
    """If every budget of the list were evaluated at the first one, the columns would be equal: they are not."""
    obj = _json(["--setting", "linear", "--rho", "0.001,0.1"])
    a, b = ({r["id"]: r["value"] for r in s["bounds"]} for s in obj["sweep"])
    assert a["003-thm4-explicit"] != b["003-thm4-explicit"]


@pytest.mark.parametrize("args,param", [
    (["--setting", "linear", "--rho", "0.1,0.2", "--epsilon", "0.1,0.2"], "budget"),
    (["--setting", "linear", "--rho", "0.1,0.2", "--check"], "--check"),
    (["--setting", "linear", "--rho", "0.1,,x"], "--rho"),
    (["--setting", "linear", "--rho", "0.1,-1"], "rho"),
])
def test_bad_lists(args, param):
    res = entry_point("regret", *args)  # the console-script entry point in this process (no interpreter start-up)
    assert res.returncode == 2, res.stdout
    lines = [x for x in res.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and param in lines[0], res.stderr


def test_table_and_plot(tmp_path):
    p = tmp_path / "sweep.svg"
    res = runner.invoke(app, ["regret", "--setting", "linear", "--rho", "0.001,0.01,0.1", "--plot", str(p)])
    assert res.exit_code == 0, res.output
    assert "ρ = 0.001" in res.output and "ρ = 0.1" in res.output and "headline" in res.output
    assert b"<svg" in p.read_bytes()[:2000]
