"""`boundcalc budget`: every option against a direct library call with the same value, bad input, --plot, --min-T,
--check."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from boundcalc.budget import Target, UserNotion, min_horizon, solve
from clirun import app, entry_point, json_of, runner


def _json(args):
    return json_of("budget", *args)


def _rows(obj):
    return {r["id"]: r for r in obj["budgets"]}


def _same(obj, plan):
    rows = _rows(obj)
    for r in plan.rows:
        a, b = rows[r.id]["user_budget"], r.user_budget
        assert rows[r.id]["status"] == r.status, r.id
        assert (a is None and b is None) or math.isclose(a, b, rel_tol=1e-12), (r.id, a, b)
    assert obj["value"] == plan.value and obj["value_id"] == plan.value_id


@pytest.mark.parametrize("args,setting,T,target,notion,overrides,delta", [
    (["--setting", "linear", "--T", "1e7", "--K", "50", "--d", "5", "--max-overhead", "0.1"], "linear", 1e7,
     Target("overhead", 0.1), UserNotion("rho"), {"K": 50, "d": 5}, 1e-6),
    (["--setting", "finite", "--T", "1e5", "--means", "0.9,0.5,0.4", "--max-regret", "3000"], "finite", 1e5,
     Target("regret", 3000), UserNotion("epsilon"), {"means": [0.9, 0.5, 0.4]}, 1e-6),
    (["--setting", "finite", "--T", "1e5", "--K", "7", "--notion", "rho", "--max-overhead", "0.5"], "finite", 1e5,
     Target("overhead", 0.5), UserNotion("rho"), {"K": 7}, 1e-6),
    (["--setting", "linear", "--T", "1e6", "--notion", "approx", "--delta", "1e-4", "--max-overhead", "0.2"], "linear",
     1e6, Target("overhead", 0.2), UserNotion("approx", delta=1e-4), None, 1e-4),
    (["--setting", "linear", "--T", "1e6", "--notion", "rdp", "--alpha", "4", "--max-regret", "5e5"], "linear",
     1e6, Target("regret", 5e5), UserNotion("rdp", alpha=4.0), None, 1e-6),
    (["--setting", "linear", "--T", "1e6", "--max-ratio-to-lower", "200"], "linear", 1e6, Target("ratio", 200),
     UserNotion("rho"), None, 1e-6),
    (["--setting", "contextual", "--T", "1e5", "--lambda0", "0.05", "--notion", "approx", "--max-overhead", "1"],
     "contextual", 1e5, Target("overhead", 1.0), UserNotion("approx", delta=1e-6), {"lambda0": 0.05}, 1e-6),
    (["--setting", "glm", "--T", "1e6", "--ldp-delta", "0.01", "--max-overhead", "0.3"], "glm", 1e6,
     Target("overhead", 0.3), UserNotion("ldp", delta=0.01), None, 1e-6),
    (["--setting", "linear", "--T", "1e6", "--confidence", "0.01", "--max-overhead", "0.1"], "linear", 1e6,
     Target("overhead", 0.1), UserNotion("rho"), {"delta": 0.01}, 1e-6),
])
def test_options_equal_direct_library_call(args, setting, T, target, notion, overrides, delta):
    obj = _json(args)
    plan = solve(setting, T, target, notion, overrides=overrides, delta=delta)
    _same(obj, plan)


def test_an_option_dropped_on_its_way_would_fail():
    """Mutant: the same call without --K (as if the option were dropped) differs, so the test above can fail."""
    obj = _json(["--setting", "linear", "--T", "1e7", "--K", "50", "--d", "5", "--max-overhead", "0.1"])
    plan = solve("linear", 1e7, Target("overhead", 0.1), "rho", overrides={"d": 5})
    with pytest.raises(AssertionError):
        _same(obj, plan)


def test_T_list_gives_one_plan_per_T():
    obj = _json(["--setting", "linear", "--T", "1e5,1e7", "--max-overhead", "0.1"])
    assert [h["T"] for h in obj["horizons"]] == [1e5, 1e7]
    for h in obj["horizons"]:
        plan = solve("linear", h["T"], Target("overhead", 0.1), "rho")
        assert h["value"] == plan.value


def test_json_rows_carry_the_issue_fields():
    obj = _json(["--setting", "linear", "--T", "1e6", "--max-overhead", "0.1"])
    r = _rows(obj)["003-thm4-explicit"]
    for k in ("id", "kind", "form", "notion", "status", "budget", "user_budget", "equivalents", "regret_at_budget",
              "overhead_at_budget"):
        assert k in r
    assert set(r["equivalents"]) >= {"rho", "epsilon", "approx_simple", "approx_tight", "rdp"}
    assert obj["lower_id"] == "003-thm9-corrected"


@pytest.mark.parametrize("args,param", [
    (["--setting", "linear", "--max-overhead", "-0.1"], "--max-overhead"),
    (["--setting", "linear", "--max-overhead", "0"], "--max-overhead"),
    (["--setting", "linear", "--max-regret", "-5"], "--max-regret"),
    (["--setting", "linear", "--max-regret", "nan"], "--max-regret"),
    (["--setting", "linear", "--max-overhead", "0.1", "--max-regret", "100"], "target"),
    (["--setting", "linear"], "target"),
    (["--setting", "contextual", "--notion", "ldp", "--max-overhead", "0.1"], "--notion"),
    (["--setting", "linear", "--notion", "rdp", "--max-overhead", "0.1"], "--alpha"),
    (["--setting", "linear", "--notion", "nope", "--max-overhead", "0.1"], "--notion"),
    (["--setting", "linear", "--delta", "2", "--max-overhead", "0.1"], "--delta"),
    (["--setting", "linear", "--max-ratio-to-lower", "0.5"], "--max-ratio-to-lower"),
    (["--setting", "linear", "--notion", "rdp", "--alpha", "4", "--max-ratio-to-lower", "200"], "--max-ratio-to-lower"),
    (["--setting", "linear", "--rho", "0.1", "--max-overhead", "0.1"], "--rho"),
    (["--setting", "linear", "--min-T", "--max-overhead", "0.1"], "--min-T"),
    (["--setting", "linear", "--max-overhead", "0.1", "--plot", "x.jpg"], "--plot"),
    (["--setting", "nope", "--max-overhead", "0.1"], "--setting"),
])
def test_bad_input_one_line_exit_2(args, param):
    # through the console-script entry point (boundcalc.cli.app.main) in this process: its formatting and exit code,
    # as `python -m boundcalc budget ...` (a subprocess each cost ~0.6 CPU s of start-up; the process itself is tested
    # in tests/cli/test_fuzz_cli.py and test_validate_and_cli_basics.py)
    res = entry_point("budget", *args)
    assert res.returncode == 2, (res.stdout, res.stderr)
    lines = [x for x in res.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and param in lines[0] and "Traceback" not in res.stderr, res.stderr


def test_plot_writes_a_png(tmp_path):
    p = tmp_path / "b.png"
    res = runner.invoke(app, ["budget", "--setting", "linear", "--T", "1e6", "--max-overhead", "0.1", "--plot", str(p)])
    assert res.exit_code == 0, res.output
    data = p.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000


def test_min_T_equals_library(tmp_path):
    from boundcalc.privacy import ZCDP

    obj = _json(["--setting", "linear", "--min-T", "--rho", "0.1", "--max-overhead", "0.1"])
    rows = {r["id"]: r for r in obj["horizons"]}
    for r in min_horizon("linear", ZCDP(0.1), 0.1):
        assert rows[r.id]["T_informative"] == r.T_informative and rows[r.id]["T_overhead"] == r.T_overhead


def test_check_measures_overhead_and_the_limit_is_the_nonprivate_baseline():
    """--check on AdaC-GOPE equals direct simulations with the same seed (at the chosen ρ and at ρ = 1e12), and the
    limit's regret agrees with GOPE-limit's, the non-private ρ → ∞ baseline (the sheet: baselines are the ρ → ∞ limits), within
    a Welch test at level 1e-3."""
    from scipy import stats

    from boundcalc import montecarlo
    from boundcalc.algorithms.linear import gope
    from boundcalc.bounds import registry
    from boundcalc.verify.regret_check import _linear_env

    T, R = 100_000, 20
    obj = _json(["--setting", "linear", "--T", str(T), "--max-overhead", "0.5", "--check", "--runs", str(R),
                 "--seed", "3"])
    c = obj["check"]
    assert c["status"] == "simulated" and c["algorithm"] == "AdaC-GOPE"
    ctx = registry.make_context("linear", {}, None)
    env = _linear_env(ctx)

    def sim(alg, seed=3):
        return montecarlo.run(alg, env, T, R, seed=seed, checkpoints=np.array([T]), block_runs=50).regret[:, -1]

    rho = c["budget"]["rho"]
    at_budget = sim(gope.AdaCGOPE(rho, delta=ctx["delta"]))
    at_limit = sim(gope.AdaCGOPE(1e12, delta=ctx["delta"]))
    assert c["regret"]["mean"] == pytest.approx(at_budget.mean(), rel=1e-12)
    assert c["regret_limit"]["mean"] == pytest.approx(at_limit.mean(), rel=1e-12)
    baseline = sim(gope.GOPELimit(delta=ctx["delta"]), seed=99)
    assert stats.ttest_ind(at_limit, baseline, equal_var=False).pvalue > 1e-3
    lo, hi = c["overhead"]["ci"]
    assert lo <= c["overhead"]["value"] <= hi
    assert c["overhead"]["value"] == pytest.approx(at_budget.mean() / at_limit.mean() - 1, rel=1e-9)
    assert c["promised_regret"] == pytest.approx(_rows(obj)[c["bound_id"]]["regret_at_budget"])


def test_paired_overhead_interval_covers():
    """The delta-method interval of the measured overhead covers the true ratio about 95% of the time (paired
    log-normal data with a known ratio), and not when the pairing is broken in a biased way (mutant)."""
    from boundcalc.budget.check import paired_overhead

    rng = np.random.default_rng(7)
    true = 0.3
    cover = 0
    n = 400
    for _ in range(n):
        base = rng.lognormal(8, 0.3, 60)
        p = (1 + true) * base * rng.lognormal(0, 0.1, 60)
        p /= np.exp(0.1**2 / 2)  # E[lognormal(0, 0.1)] = e^{0.005}: keep the true ratio exact
        lo, hi = paired_overhead(p, base)["ci"]
        cover += lo <= true <= hi
    assert 0.91 * n <= cover <= 0.985 * n
    lo, hi = paired_overhead(1.1 * (1 + true) * base, base)["ci"]  # a 10% bias is excluded
    assert not (lo <= true <= hi)
