"""CLI: boundcalc simulate / boundcalc algorithms (CliRunner on boundcalc.cli.app.app)."""

import json

import pytest
from typer.testing import CliRunner

from clirun import app, runner


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


# --- every registered upper bound in the row of the algorithm it bounds (issue 16 §10) -----------------------------
UNIMPLEMENTED = {"LinPriv"}  # bounds registered for an algorithm boundcalc does not simulate (seed 003 App. F)


def _rows_missing(rows) -> list:
    """(bound id, algorithm) pairs of registered upper bounds absent from their algorithm's row of ``algorithms --json``,
    read from the bound registry (each bound names its algorithm), not from the algorithm classes."""
    from boundcalc.bounds.registry import all_bounds

    by_name = {r["name"]: set(r["bound_ids"]) for r in rows}
    missing = []
    for b in all_bounds():
        if b.algorithm is None or b.algorithm in UNIMPLEMENTED:
            continue
        if b.id not in by_name.get(b.algorithm, set()):
            missing.append((b.id, b.algorithm))
    return missing


def test_algorithms_rows_list_every_registered_upper_bound():
    from boundcalc.bounds.registry import all_bounds, get

    d = json.loads(_run(["algorithms", "--json"]).stdout)
    rows = d["algorithms"]
    names = {r["name"] for r in rows}
    assert _rows_missing(rows) == []
    # the two rows of the issue
    row = {r["name"]: r["bound_ids"] for r in rows}
    assert {"003-rsoful-explicit", "003-oful-paper"} <= set(row["RS-OFUL"])
    assert "000-thm8-explicit-closed" in row["AdaR-GOPE"]
    # every id in a row is a registered bound; the only algorithms without an implementation are the stated ones
    for r in rows:
        for i in r["bound_ids"]:
            get(i)
    assert {b.algorithm for b in all_bounds() if b.algorithm is not None} - names == UNIMPLEMENTED
    # mutants: the former rows (RS-OFUL empty, AdaR-GOPE without the closed form) are rejected
    old = [dict(r, bound_ids=[] if r["name"] == "RS-OFUL" else
                [i for i in r["bound_ids"] if i != "000-thm8-explicit-closed"]) for r in rows]
    assert set(_rows_missing(old)) == {("003-rsoful-explicit", "RS-OFUL"), ("003-oful-paper", "RS-OFUL"),
                                       ("000-thm8-explicit-closed", "AdaR-GOPE")}


# -- linear, contextual and GLM algorithms ------------------------------------------------------------------------
def _json(args):
    r = _run(["simulate", *args, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def _direct(alg, env, T, runs, seed, n_cp=12):
    """The same simulation through the engine directly (independent of the CLI's option handling)."""
    from boundcalc.montecarlo import log_checkpoints, run

    return run(alg, env, T, runs, seed=seed, checkpoints=log_checkpoints(T, n_cp), block_runs=50)


def test_simulate_linear_adac_gope_pseudo_regret_identity():
    from boundcalc.envs.linear import make_linear_env

    d = _json(["--algo", "adac-gope", "--rho", "0.5", "--T", "3000", "--runs", "6", "--seed", "1"])
    assert d["inputs"]["setting"] == "linear" and d["inputs"]["env"] == "zcdp-linear[seed=3]"  # setting's default
    env = make_linear_env("zcdp-linear", seed=3)
    assert sum(d["pulls_mean"]) == pytest.approx(3000)
    # pseudo-regret sum_a Delta_a E N_a with the gaps recomputed from the instance (actions, theta*)
    means = env.actions @ env.theta
    assert sum((means.max() - m) * n for m, n in zip(means, d["pulls_mean"])) == pytest.approx(d["regret_mean"])
    lo, hi = d["regret_ci"]
    assert lo <= d["regret_mean"] <= hi and d["checkpoints"][-1]["t"] == 3000


def test_simulate_contextual_linucb_dgs_matches_engine_and_seed():
    from boundcalc.algorithms.contextual.linucb import LinUCBDGS
    from boundcalc.envs.contextual import make_contextual_env

    args = ["--algo", "LinUCB-DGS", "--epsilon", "1", "--delta", "0.1", "--env", "dgs-synthetic", "--param", "lam=2",
            "--T", "300", "--runs", "5", "--seed", "7"]
    d = _json(args)
    assert d["inputs"]["params"]["lam"] == 2 and d["inputs"]["budget"] == {"notion": "approx", "epsilon": 1.0,
                                                                           "delta": 0.1}
    res = _direct(LinUCBDGS(1.0, 0.1, lam=2.0), make_contextual_env("dgs-synthetic", seed=3), 300, 5, 7)
    assert [c["mean"] for c in d["checkpoints"]] == pytest.approx(res.mean().tolist(), rel=1e-12)
    assert d["regret_mean"] == pytest.approx(float(res.mean()[-1]), rel=1e-12)
    assert _json(args)["checkpoints"] == d["checkpoints"]  # same seed, same numbers
    other = _json([*args[:-1], "8"])
    assert other["checkpoints"] != d["checkpoints"]


def test_simulate_glm_ldp_sgd_matches_engine():
    from boundcalc.algorithms.glm.ldp import LDPSGD
    from boundcalc.envs.glm import make_glm_env

    d = _json(["--algo", "ldp-sgd", "--ldp-epsilon", "2", "--T", "400", "--runs", "4", "--seed", "2"])
    assert d["inputs"]["setting"] == "glm" and d["inputs"]["env"].startswith("ldp-single")
    assert d["simulation"] == "step" and d["pulls_mean"] == []
    res = _direct(LDPSGD(2.0), make_glm_env("ldp-single", seed=3), 400, 4, 2)
    assert d["regret_mean"] == pytest.approx(float(res.mean()[-1]), rel=1e-12)
    lo, hi = res.ci()
    assert d["regret_ci"] == pytest.approx([float(lo[-1]), float(hi[-1])], rel=1e-12)


def test_simulate_contextual_plot_overlay_describes_the_instance(tmp_path):
    """The overlay's context is the simulated instance (issue 9): the paper's unprojected contexts (default env)
    are outside Assumption 1, so 003 Thm 5 is not drawn (its own conditions fail); on the projected instance with
    +-1 rewards it is drawn, marked outside its assumptions (Assumption 2 is vacuous, ERRATA 1); LinUCB-DGS's
    004 Thm 3 is drawn inside its assumptions there."""
    p = tmp_path / "ctx.png"
    d = _json(["--algo", "AdaC-OFUL", "--rho", "1", "--T", "500", "--runs", "4", "--plot", str(p)])
    assert p.exists() and not any(c.startswith("003-thm5") for c in d["bound_overlay"]["curves"])
    assert any("003-thm5" in n and "unprojected" in n for n in d["bound_overlay"]["notes"]), d["bound_overlay"]
    d = _json(["--algo", "AdaC-OFUL", "--rho", "1", "--env", "zcdp-contextual-bounded", "--T", "500", "--runs", "4",
               "--plot", str(p)])
    drawn = [c for c in d["bound_overlay"]["curves"] if c.startswith("003-thm5")]
    assert drawn and all("outside its assumptions" in c for c in drawn)
    assert any("ERRATA 1" in n for n in d["bound_overlay"]["notes"])
    d = _json(["--algo", "LinUCB-DGS", "--epsilon", "1", "--delta", "1e-5", "--env", "zcdp-contextual-bounded",
               "--T", "300", "--runs", "2", "--plot", str(p)])
    assert "004-thm3 (upper)" in d["bound_overlay"]["curves"], d["bound_overlay"]
    q = tmp_path / "dgs.png"
    d = _json(["--algo", "LinUCB", "--env", "dgs-synthetic", "--T", "200", "--runs", "2", "--plot", str(q)])
    assert q.exists() and d["bound_overlay"]["curves"] == []
    assert any("not drawn" in n for n in d["bound_overlay"]["notes"])


@pytest.mark.parametrize("args", [
    ["--algo", "AdaC-GOPE", "--rho", "0.1", "--env", "mu2"],  # setting mismatch
    ["--algo", "DP-IMED", "--epsilon", "1", "--env", "zcdp-linear"],  # setting mismatch
    ["--algo", "LinUCB-DGS", "--epsilon", "1"],  # (eps, delta) budget incomplete
    ["--algo", "AdaC-OFUL"],  # budget missing
    ["--algo", "AdaC-OFUL", "--epsilon", "1"],  # wrong notion
    ["--algo", "LDP-OLS", "--ldp-epsilon", "1"],  # LDP-OLS needs --ldp-delta
    ["--algo", "GOPE", "--param", "nope=1"],  # unknown parameter
    ["--algo", "GOPE", "--param", "delta"],  # malformed
    ["--algo", "RS-OFUL", "--means", "0.5,0.4"],  # finite-only option
    ["--algo", "LDP-SGD", "--ldp-epsilon", "1", "--T", "1e6", "--runs", "100"],  # per-step guard
])
def test_simulate_other_settings_bad_input_exit_2_one_line(args):
    r = _run(["simulate", *args] + ([] if "--T" in args else ["--T", "100", "--runs", "2"]))
    assert r.exit_code == 2, r.output
    err = r.stderr.strip()
    assert len(err.splitlines()) == 1 and err.startswith("boundcalc: error:")


def test_algorithms_lists_every_setting():
    d = json.loads(_run(["algorithms", "--json"]).stdout)
    by = {a["name"]: a for a in d["algorithms"]}
    assert {a["setting"] for a in d["algorithms"]} == {"finite", "linear", "contextual", "glm"}
    assert by["LinUCB-DGS"]["notion"] == "approx" and by["LinUCB-DGS"]["budget"] == "--epsilon and --delta"
    assert by["LDP-OLS"]["simulation"] == "step" and by["AdaC-GOPE"]["simulation"] == "episode"
