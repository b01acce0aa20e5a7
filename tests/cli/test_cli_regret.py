"""CLI tests of `boundcalc regret` and `boundcalc bounds` (Typer runner on the app)."""

from __future__ import annotations

import json

import pytest

from clirun import app, json_of, runner


def _json(args):
    """args end with --json."""
    return json_of(*[a for a in args if a != "--json"])


def test_regret_linear_rho_shows_adac_gope_and_thm9():
    out = _json(["regret", "--setting", "linear", "--rho", "0.1", "--T", "1e6", "--json"])
    assert out["schema_version"] == 1
    rows = {r["id"]: r for r in out["bounds"]}
    for r in out["bounds"]:
        for key in ("id", "algorithm", "kind", "form", "value", "privacy_cost", "source", "applicable"):
            assert key in r
    ups = [r for r in out["bounds"] if r["applicable"] and r["algorithm"] == "AdaC-GOPE"]
    assert ups, "AdaC-GOPE upper bound missing"
    assert all(r["kind"].startswith("upper") for r in ups)
    lows = [r for r in out["bounds"] if r["applicable"] and "Thm 9" in r["source"] and r["kind"].startswith("lower")]
    assert lows, "003 Thm 9 lower bound missing"
    for r in ups + lows:
        assert r["value"] > 0 and r["regime"]
    assert rows  # ids are unique keys


def test_regret_table_names_regime_and_conversion():
    r = runner.invoke(app, ["regret", "--setting", "linear", "--rho", "0.1", "--T", "1e6"])
    assert r.exit_code == 0, r.output
    assert "AdaC-GOPE" in r.stdout
    assert "privacy" in r.stdout


def test_regret_multiple_T_and_plot(tmp_path):
    pytest.importorskip("matplotlib")
    png = tmp_path / "b.png"
    out = _json(["regret", "--setting", "finite", "--epsilon", "0.5", "--T", "1e4,1e5,1e6", "--json", "--plot", str(png)])
    assert png.exists() and png.stat().st_size > 1000
    row = next(r for r in out["bounds"] if r["applicable"])
    assert [v["T"] for v in row["values"]] == [1e4, 1e5, 1e6]


def test_pure_dp_user_cannot_use_zcdp_algorithm_but_zcdp_lower_bound_applies():
    out = _json(["regret", "--setting", "finite", "--epsilon", "0.5", "--T", "1e6", "--json"])
    for r in out["bounds"]:
        if r["notion"] == "zcdp" and r["kind"].startswith("upper"):
            assert not r["applicable"], r["id"]
        if r["notion"] == "zcdp" and r["kind"].startswith("lower") and r["applicable"]:
            assert "ε²/2" in r["conversion"] or "Prop. 1.4" in r["conversion"]


def test_zcdp_user_gets_pure_dp_algorithms_through_named_conversion():
    out = _json(["regret", "--setting", "finite", "--rho", "0.125", "--T", "1e6", "--json"])
    pure_up = [r for r in out["bounds"] if r["notion"] == "pure" and r["kind"].startswith("upper") and r["applicable"]]
    assert pure_up
    for r in pure_up:
        assert abs(r["budget_used"]["epsilon"] - 0.5) < 1e-12  # eps = sqrt(2 rho)
        assert "zCDP" in r["conversion"]


@pytest.mark.parametrize("setting", ["finite", "linear", "contextual", "glm"])
def test_every_setting_runs_nonprivate_and_symbolic(setting):
    r = runner.invoke(app, ["regret", "--setting", setting, "--T", "1e5", "--symbolic"])
    assert r.exit_code == 0, r.output
    assert "LaTeX" in r.stdout


def test_bounds_list_and_show():
    out = _json(["bounds", "--json"])
    assert out["value"] == len(out["bounds"]) > 10
    settings = {b["setting"] for b in out["bounds"]}
    assert settings == {"finite", "linear", "contextual", "glm"}
    out2 = _json(["bounds", "--setting", "linear", "--kind", "lower", "--json"])
    assert out2["bounds"] and all(b["kind"].startswith("lower") and b["setting"] == "linear" for b in out2["bounds"])
    bid = out2["bounds"][0]["id"]
    r = runner.invoke(app, ["bounds", "show", bid])
    assert r.exit_code == 0, r.output
    assert bid in r.stdout and "LaTeX" in r.stdout
    shown = _json(["bounds", "show", bid, "--json"])
    assert shown["bound"]["id"] == bid and shown["formula"]["latex"]


@pytest.mark.parametrize(
    "args",
    [
        ["regret", "--setting", "finite", "--T", "0"],
        ["regret", "--setting", "finite", "--epsilon", "-1"],
        ["regret", "--setting", "finite", "--means", "0.2,1.5"],
        ["regret", "--setting", "finite", "--alpha", "2"],
        ["regret", "--setting", "finite", "--delta", "0.1"],
        ["regret", "--setting", "linear", "--confidence", "1.5"],
        ["regret", "--setting", "linear", "--param", "oops"],
        ["bounds", "--notion", "nonsense"],
        ["bounds", "show", "no-such-id"],
    ],
)
def test_bad_input_exit_2_one_line(args):
    r = runner.invoke(app, args)
    assert r.exit_code == 2, r.output
    err = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(err) == 1 and err[0].startswith("boundcalc: error:"), r.stderr


def test_actions_file_csv_and_npy(tmp_path):
    import numpy as np

    A = np.vstack([np.eye(3), -np.eye(3), np.full((1, 3), 1 / np.sqrt(3))])
    csv = tmp_path / "a.csv"
    np.savetxt(csv, A, delimiter=",")
    npy = tmp_path / "a.npy"
    np.save(npy, A)
    base = ["regret", "--setting", "linear", "--rho", "0.1", "--T", "1e6", "--theta", "0.6,0.8,0", "--json"]
    out_csv = _json(base + ["--actions", str(csv)])
    out_npy = _json(base + ["--actions", str(npy)])
    assert out_csv["bounds"] == out_npy["bounds"]
    default = _json(["regret", "--setting", "linear", "--rho", "0.1", "--T", "1e6", "--json"])
    v_file = {r["id"]: r["value"] for r in out_csv["bounds"] if r["applicable"]}
    v_def = {r["id"]: r["value"] for r in default["bounds"] if r["applicable"]}
    assert any(v_file[k] != v_def[k] for k in v_file.keys() & v_def.keys() if "gope" in k or "thm4" in k)


def test_actions_file_bad(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("1,2,x\n")
    r = runner.invoke(app, ["regret", "--setting", "linear", "--rho", "0.1", "--actions", str(bad)])
    assert r.exit_code == 2
    r = runner.invoke(app, ["regret", "--setting", "linear", "--rho", "0.1", "--actions", str(tmp_path / "none.npy")])
    assert r.exit_code == 2


def test_regret_json_value_is_the_best_finite_T_guarantee():
    out = _json(["regret", "--setting", "finite", "--epsilon", "0.5", "--T", "1e6", "--json"])
    # with a budget the headline is a private algorithm's guarantee: non-private bounds (UCB1, issue 16) excluded
    eligible = [r for r in out["bounds"] if r["applicable"] and r["kind"] in ("upper-problem-dependent", "upper-minimax")
                and r["form"] != "paper" and r["informative"] and r["notion"] != "none"]
    assert eligible
    assert out["value"] == min(r["value"] for r in eligible)
    assert out["value_id"] in {r["id"] for r in eligible}
