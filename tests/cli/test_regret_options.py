"""Every option of `boundcalc regret` takes effect, or says it does not (issue 7 §1).

The guard: walk the registry; for every parameter a bound declares (``Bound.params``), change it through the CLI and
assert that the bound's value changes — unless the bound states why it cannot (``Bound.param_notes``). Conversely a
change of a parameter a bound does not declare must leave its value alone (an undeclared dependence would make the
"--X has no effect" notes lie). The CLI values are also compared with a direct library evaluation.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from boundcalc.bounds import registry
from clirun import app, runner

BUDGET_ARGS = {
    "none": [],
    "pure": ["--epsilon", "0.5"],
    "zcdp": ["--rho", "0.1"],
    "rdp": ["--alpha", "2", "--rdp-epsilon", "1"],
    "approx": ["--epsilon", "1", "--delta", "1e-3"],
    "ldp": ["--ldp-epsilon", "1", "--ldp-delta", "0.01"],
}
# base instance arguments per setting (so that the explicit forms apply: OFUL's proof needs lambda >= 1)
BASE = {"finite": ["--param", "klucb_c=3"], "linear": [], "contextual": ["--param", "lam=1"], "glm": []}
# one change per parameter, through the CLI, and the parameters each change moves (derived ones included)
CHANGE = {
    "finite": {
        "means": (["--means", "0.8,0.6,0.45,0.3,0.2"], {"means"}),
        "K": (["--K", "7"], {"K", "means"}),
        "alpha_batch": (["--param", "alpha_batch=3"], {"alpha_batch"}),
        "alpha_adap": (["--param", "alpha_adap=4"], {"alpha_adap"}),
        "beta_adac": (["--param", "beta_adac=4"], {"beta_adac"}),
        "beta_adar": (["--param", "beta_adar=4"], {"beta_adar"}),
        "klucb_c": (["--param", "klucb_c=4"], {"klucb_c"}),
    },
    "linear": {
        "d": (["--d", "4"], {"d"}),
        "K": (["--K", "20"], {"K"}),
        "delta": (["--confidence", "0.01"], {"delta"}),
    },
    "contextual": {
        "d": (["--d", "4"], {"d", "lam0"}),  # lam0 = lambda_min(E xx^T) of the d-dimensional contexts
        "K": (["--K", "20"], {"K"}),
        "lam": (["--param", "lam=2"], {"lam"}),
        "lam0": (["--lambda0", "0.05"], {"lam0"}),
        "C": (["--param", "C=2"], {"C"}),
        "delta": (["--confidence", "0.01"], {"delta"}),
        "theta_norm": (["--theta", "0.5,0,0"], {"theta_norm"}),
        "L": (["--param", "L=1.5"], {"L"}),
        "S": (["--param", "S=1.5"], {"S"}),
        "zeta": (["--param", "zeta=0.1"], {"zeta"}),
        "perturb_sigma": (["--param", "perturb_sigma=0.2"], {"perturb_sigma"}),  # seed 004 Cor. 1 (004-cor1)
    },
    "glm": {
        "d": (["--d", "3"], {"d"}),
        "K": (["--K", "12"], {"K"}),
        "C_B": (["--param", "C_B=2"], {"C_B", "R"}),
        "c_r": (["--param", "c_r=2"], {"c_r", "R"}),
        "sigma_r": (["--param", "sigma_r=0.2"], {"sigma_r"}),
        "kappa_l": (["--param", "kappa_l=0.05"], {"kappa_l"}),
        "kappa_u": (["--param", "kappa_u=2"], {"kappa_u"}),
        "p_star": (["--param", "p_star=0.4"], {"p_star"}),
        "zeta": (["--param", "zeta=0.5"], {"zeta"}),
        "L": (["--param", "L=2"], {"L"}),
        "delta": (["--confidence", "0.01"], {"delta"}),
        "gamma": (["--param", "gamma=2"], {"gamma"}),
        "beta": (["--param", "beta=0.5"], {"beta"}),
        "p_prime": (["--param", "p_prime=0.4"], {"p_prime"}),
        "h_sub": (["--param", "h_sub=0.2"], {"h_sub"}),
    },
}
# parameters that enter a bound only through derived quantities the bound lists instead
DERIVED_FROM = {"R": {"C_B", "c_r"}}


def _values(setting, args):
    r = runner.invoke(app, ["regret", "--setting", setting, "--T", "1e6", *args, "--json"])
    assert r.exit_code == 0, (args, r.output)
    return {b["id"]: (b["value"] if b["applicable"] else None) for b in json.loads(r.stdout)["bounds"]}


def walk(setting) -> list[str]:
    """Problems found: a declared parameter whose change leaves the value alone, or an undeclared one that moves it."""
    problems = []
    bounds = registry.select(setting=setting)
    for notion in sorted({b.notion for b in bounds}):
        mine = [b for b in bounds if b.notion == notion]
        base_args = BASE[setting] + BUDGET_ARGS[notion]
        base = _values(setting, base_args)
        for key, (args, moved) in CHANGE[setting].items():
            after = _values(setting, base_args + args)
            for b in mine:
                v0, v1 = base[b.id], after[b.id]
                if v0 is None or v1 is None:
                    continue  # not applicable in the base or after the change (its conditions say why)
                declared = set(b.params) | {d for p in b.params for d in DERIVED_FROM.get(p, ())}
                if key in b.params and key not in b.param_notes and v1 == v0:
                    problems.append(f"{b.id}: changing {key} ({' '.join(args)}) leaves the value at {v0}")
                if not (moved & declared) and v1 != v0:
                    problems.append(f"{b.id}: {' '.join(args)} moves the value ({v0} -> {v1}) but {key} is not in "
                                    f"its params {b.params}")
    return problems


@pytest.mark.parametrize("setting", ["finite", "linear", "contextual", "glm"])
def test_every_declared_parameter_changes_the_value_through_the_cli(setting):
    assert walk(setting) == []


def test_every_declared_parameter_is_reachable_and_applicable_somewhere():
    """Each declared parameter has a CLI change in the walk, and each bound applies in the walk's base (or its
    param_notes say why a parameter is condition-only): a bound never evaluated would make the walk vacuous."""
    for s in ("finite", "linear", "contextual", "glm"):
        for b in registry.select(setting=s):
            for p in b.params:
                assert p in CHANGE[s] or p in b.param_notes, (b.id, p)
    evaluated = set()
    for s in ("finite", "linear", "contextual", "glm"):
        for notion in {b.notion for b in registry.select(setting=s)}:
            vals = _values(s, BASE[s] + BUDGET_ARGS[notion])
            evaluated |= {k for k, v in vals.items() if v is not None}
    missing = {b.id for b in registry.all_bounds()} - evaluated
    # 002-thm3.2 needs K = 2, Gaussian contexts and a pure local budget (its own test below)
    assert missing == {"002-thm3.2"}, missing


def test_lower_bound_thm32_on_its_own_instance():
    args = ["--K", "2", "--param", "context=gaussian", "--ldp-epsilon", "0.5"]
    v = _values("glm", args)["002-thm3.2"]
    assert v == pytest.approx(np.sqrt(1e6) / 0.5, rel=1e-12)
    b = registry.get("002-thm3.2")
    assert set(b.param_notes) == {"K", "d", "context"}


@pytest.mark.parametrize("mutant", ["drop --lambda0", "reset lam0 in the bound"])
def test_walk_detects_an_option_dropped_on_its_way(monkeypatch, mutant):
    """The issue's bug: --lambda0 recorded but the bounds keep their own lambda0. Both ways of losing it are caught."""
    from boundcalc.bounds import contextual

    if mutant == "drop --lambda0":
        monkeypatch.setattr(contextual, "OPTION_KEYS", {k: v for k, v in contextual.OPTION_KEYS.items()
                                                        if k != "lambda0"})
    else:
        real = contextual.derive
        monkeypatch.setattr(contextual, "derive", lambda p: {**real(p), "lam0": 0.1})
    problems = walk("contextual")
    assert any(p.startswith("004-thm3:") and "lam0" in p for p in problems), problems
    assert any(p.startswith("003-thm5-corrected:") and "lam0" in p for p in problems), problems


def test_lambda0_reaches_004_thm3_and_003_thm5_as_a_direct_call():
    """`--lambda0 0.0227` (the issue's value) gives exactly the library value at lam0 = 0.0227."""
    from boundcalc.privacy import ApproxDP, ZCDP

    cli = _values("contextual", ["--lambda0", "0.0227", "--param", "lam=1", "--epsilon", "1", "--delta", "1e-3"])
    ctx = registry.make_context("contextual", {"lam0": 0.0227, "lam": 1.0}, ApproxDP(1.0, 1e-3))
    for bid in ("004-thm3", "004-thm3-corrected"):
        own, _ = ctx.budget_for(registry.get(bid))
        assert cli[bid] == pytest.approx(registry.get(bid).evaluate(1e6, ctx, own).value[0], rel=1e-12)
    cli = _values("contextual", ["--lambda0", "0.0227", "--param", "lam=1", "--rho", "0.1"])
    ctx = registry.make_context("contextual", {"lam0": 0.0227, "lam": 1.0}, ZCDP(0.1))
    for bid in ("003-thm5-explicit", "003-thm5-corrected"):
        assert cli[bid] == pytest.approx(registry.get(bid).evaluate(1e6, ctx, ZCDP(0.1)).value[0], rel=1e-12)
    default = _values("contextual", ["--param", "lam=1", "--rho", "0.1"])
    assert cli["003-thm5-corrected"] != default["003-thm5-corrected"]


def test_K_changes_finite_bounds_and_K_means_mismatch_is_an_error():
    vals = {K: _values("finite", ["--K", str(K), "--rho", "0.1"])["003-thm17"] for K in (2, 5, 50)}
    assert len(set(vals.values())) == 3  # was the same value for every K
    assert vals[50] == pytest.approx(np.sqrt(1e6 * 49) / 27, rel=1e-12)  # Thm 17 at rho = 0.1: non-private term
    r = runner.invoke(app, ["regret", "--setting", "finite", "--K", "3", "--means", "0.5,0.4"])
    assert r.exit_code == 2 and "--K" in r.stderr and r.stderr.count("\n") == 1
    out = json.loads(runner.invoke(app, ["regret", "--setting", "finite", "--K", "3", "--json"]).stdout)
    assert out["inputs"]["instance_values"]["means"] == [0.75, 0.5, 0.25]


@pytest.mark.parametrize("setting,args,opt", [
    ("finite", ["--lambda0", "0.3"], "--lambda0"),
    ("finite", ["--d", "4"], "--d"),
    ("finite", ["--confidence", "0.1"], "--confidence"),
    ("linear", ["--theta", "0.6,0.8,0"], "--theta"),
    ("glm", ["--lambda0", "0.1"], "--lambda0"),
    ("finite", ["--param", "beta_adac=4", "--epsilon", "1"], "--param beta_adac"),
])
def test_option_without_effect_gets_a_note(setting, args, opt):
    out = json.loads(runner.invoke(app, ["regret", "--setting", setting, *args, "--json"]).stdout)
    assert any(n.startswith(f"{opt} has no effect") for n in out["notes"]), out["notes"]
    r = runner.invoke(app, ["regret", "--setting", setting, *args])
    assert f"{opt} has no effect" in " ".join(r.stdout.split())


@pytest.mark.parametrize("args,param", [(["--lambda0", "-1"], "--lambda0"), (["--lambda0", "nan"], "--lambda0"),
                                        (["--d", "0"], "--d"), (["--theta", "x"], "--theta"),
                                        (["--confidence", "2"], "--confidence"), (["--param", "nope=1"], "--param")])
def test_option_without_effect_is_still_validated(args, param):
    r = runner.invoke(app, ["regret", "--setting", "finite", *args])
    assert r.exit_code == 2 and param in r.stderr and r.stderr.count("\n") == 1, r.stderr


def test_output_states_the_values_used():
    out = json.loads(runner.invoke(app, ["regret", "--setting", "contextual", "--K", "20", "--d", "4", "--lambda0",
                                         "0.05", "--json"]).stdout)
    vals = out["inputs"]["instance_values"]
    assert vals["K"] == 20 and vals["d"] == 4 and vals["lam0"] == 0.05
    assert "overridden" not in out["inputs"]["instance"]
    r = runner.invoke(app, ["regret", "--setting", "contextual", "--K", "20", "--d", "4", "--lambda0", "0.05"])
    text = " ".join(r.stdout.split())
    assert "K = 20" in text and "d = 4" in text and "λ0 = 0.05" in text and "overridden" not in text
