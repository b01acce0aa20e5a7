"""Every option of every command reaches its destination (issue 17 §4: "every CLI option ... gets a test that fails
when it is dropped or replaced").

The commands and their options are read from the Typer app (as tests/cli/test_fuzz_cli.py does), so an option added
without an entry in ``REACH`` fails :func:`test_every_option_has_a_reach_test`. Each option has one entry:

* ``Diff(base, change, check)``: ``change`` (a non-default value) applied to the valid invocation ``base`` must change
  the output (the JSON object without its ``inputs`` echo), and ``check(out)`` compares the changed output with a
  direct library call at that value where one is cheap;
* ``Spy(argv, target, expect)``: the library function ``target`` the command calls is intercepted and the arguments
  it receives must carry the option's value (``expect(calls)``); ``stub`` replaces a slow call;
* ``Custom(fn)``: a few lines for an option whose effect is a file or the rendered text (``--plot``, ``--rows``);
* ``Elsewhere(test)``: the option has its own reach test in another file (named, and checked to exist);
* ``Exempt(reason)``: no destination to reach (``--json``: the output format every test here reads).

Mutant, kept here: :func:`test_dropped_option_is_caught` re-runs every ``Diff``/``Spy`` entry with the option *dropped
on its way* — the command's callback receives the base value instead of the changed one — and asserts that the
entry's check fails on it.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import importlib
import json
import math
import os
import re
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, Callable

import pytest
import typer.main

from clirun import app, runner

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # tests/


# -- the commands and their options, from the Typer app -------------------------------------------------------------
def _commands():
    root = typer.main.get_command(app)
    out = {}
    for name, cmd in root.commands.items():
        out[name] = cmd
        for sub, c in (getattr(cmd, "commands", None) or {}).items():
            out[f"{name} {sub}"] = c
    return out


COMMANDS = _commands()


def options_of(cmd: str):
    """The click options of a command (arguments are positional: each base invocation supplies them)."""
    return [p for p in COMMANDS[cmd].params if p.param_type_name != "argument"]


def _names(p) -> set[str]:
    return set(p.opts) | set(getattr(p, "secondary_opts", ()) or ())


# -- entry kinds -------------------------------------------------------------------------------------------------------
@dataclass
class Diff:
    base: list
    change: list
    check: Callable[[dict], Any] | None = None
    files: dict = field(default_factory=dict)  # name -> content, written to tmp before the run ({tmp}/name in argv)


@dataclass
class Spy:
    argv: list
    target: str  # "module:attribute"
    expect: Callable[[list], bool]  # calls = [(args, kwargs)] -> True when the option's value arrived
    stub: Callable | None = None  # replaces the call (None: call through)
    base: list | None = None  # the same call without the option (for the dropped-option mutant); default: argv minus
    memo: bool = False  # call through once per distinct arguments (a deterministic, seeded target): ``_memo_call``


@dataclass
class Custom:
    fn: Callable  # fn(tmp_path) asserts


@dataclass
class Elsewhere:
    test: str  # "tests/test_x.py::test_name" (must exist); the option string must appear in that file


@dataclass
class Exempt:
    reason: str


JSON_EXEMPT = Exempt("--json is the output format every reach test here reads (one JSON object: "
                     "tests/cli/test_fuzz_cli.py)")


# -- helpers for the checks --------------------------------------------------------------------------------------------
def _approx(a, b, rel=1e-12):
    return math.isclose(float(a), float(b), rel_tol=rel, abs_tol=1e-300)


def _kw(calls, key):
    return [k.get(key) for _, k in calls]


def _plot_written(argv):
    def fn(tmp_path):
        p = tmp_path / "o.png"
        r = runner.invoke(app, [*argv, "--plot", str(p)])
        assert r.exit_code == 0, r.output
        assert p.exists() and p.stat().st_size > 1000, "--plot did not write the picture"
    return fn


def _text_differs(argv, extra):
    def fn(tmp_path):
        a = runner.invoke(app, argv)
        b = runner.invoke(app, [*argv, *extra])
        assert a.exit_code == 0 and b.exit_code == 0, (a.output, b.output)
        assert " ".join(a.stdout.split()) != " ".join(b.stdout.split()), f"{extra} changes nothing in the text"
    return fn


# -- library references -----------------------------------------------------------------------------------------------
def _info():
    import boundcalc.info as info

    return info


def _cv():
    from boundcalc.privacy import conversions

    return conversions


def _episodes_lib(algo, T=10**6, **kw):
    """The schedule a direct boundcalc.algorithms.episodes.build call gives (the episodes command's library call)."""
    def check(out):
        from boundcalc.algorithms import episodes

        rows = episodes.build(algo, T, **kw).rows()
        assert out["episodes"] == json.loads(json.dumps(rows)), f"episodes != episodes.build({algo!r}, {T}, {kw})"
    return check


def _budget(notion, **kw):
    """A budget built when a check runs (no library import at collection)."""
    def make():
        from boundcalc.privacy.budgets import NOTIONS

        return NOTIONS[notion](**kw)
    return make


def _regret_lib(setting, budget, T=10**6, overrides=None):
    """Every applicable bound value equals registry evaluation at the same budget (Context.budget_for conversion)."""
    def check(out):
        from boundcalc.bounds import registry

        bud = budget()
        ctx = registry.make_context(setting, overrides or {}, bud)
        n = 0
        for b in out["bounds"]:
            if not b["applicable"] or b["value"] is None:
                continue
            bound = registry.get(b["id"])
            own, _ = ctx.budget_for(bound)
            v = bound.evaluate(T, ctx, own).value
            v = float(v[0] if hasattr(v, "__len__") else v)
            assert _approx(b["value"], v, 1e-9), (b["id"], b["value"], v)
            n += 1
        assert n, "no applicable bound"
    return check


def _selected_regret_lib(setting, budget, bound_id, T=10**6):
    """--bound: the selected bound's value is the report's (a direct library call) at the same budget."""
    def check(out):
        import numpy as np

        from boundcalc.bounds.report import regret_report

        row = next(r for r in regret_report(setting, budget(), np.array([float(T)])).rows if r["id"] == bound_id)
        assert [(x["id"], x["value"]) for x in out["selected"]] == [(bound_id, row["value"])]
    return check


def _once(make):
    """``make()`` on the first call, its value afterwards: a check's direct library call (a budget search, ~1 CPU s) is
    a pure function of the entry's fixed arguments, so the dropped-option mutant of the same entry (same process: one
    xdist group) compares with the plan the reach test computed instead of searching again."""
    box = []

    def get():
        if not box:
            box.append(make())
        return box[0]
    return get


def _selected_budget_lib(setting, T, target, notion, bound_id):
    def make():
        from boundcalc.budget import Target, UserNotion, solve

        return solve(setting, T, Target(*target), UserNotion(notion), overrides={}, delta=1e-6)
    plan_once = _once(make)

    def check(out):
        plan = plan_once()
        assert [(x["id"], x["user_budget"]) for x in out["selected"]] == [(bound_id, plan.row(bound_id).user_budget)]
    return check


def _budget_lib(setting, T, target, notion, delta=1e-6, overrides=None):
    def make():
        from boundcalc.budget import Target, UserNotion, solve

        un = UserNotion(notion["name"], alpha=notion.get("alpha"), delta=notion.get("delta"))
        return solve(setting, T, Target(*target), un, overrides=overrides or {}, delta=delta)
    plan_once = _once(make)

    def check(out):
        plan = plan_once()
        got = {r["id"]: r["user_budget"] for r in out["budgets"]}
        want = {r.id: r.user_budget for r in plan.rows}
        assert got == want
    return check


# -- the registry: one entry per option of every command -------------------------------------------------------------
KL = ["--p", "0.3", "--q", "0.5"]
KLINF = ["--mu-star", "0.6", "--mu", "0.4"]
DEPS = ["--mu", "0.3", "--mu-star", "0.5", "--epsilon", "0.5"]
CONC = ["--n", "100", "--m", "3", "--mu", "0.5", "--x", "0.4", "--epsilon", "1"]
REG_F = ["--setting", "finite", "--rho", "0.1"]
REG_C = ["--setting", "contextual", "--rho", "0.1", "--param", "lam=1"]
BUD = ["--setting", "linear", "--max-overhead", "0.1"]
BUD_F = ["--setting", "finite", "--max-overhead", "0.5"]
BUD_SIM = ["budget", "--setting", "finite", "--T", "300", "--means", "0.9,0.5", "--max-overhead", "3", "--algo",
           "DP-KLUCB", "--runs", "10", "--max-runs", "20"]  # a small --by simulation search
EP_UCB = ["--algo", "adac-ucb", "--rho", "1"]
EP_GOPE = ["--algo", "adac-gope", "--rho", "1"]
EP_KL = ["--algo", "dp-klucb", "--epsilon", "1"]
EP_OFUL = ["--algo", "adac-oful", "--rho", "1"]
ACTIONS_CSV = "1,0,0\n0,1,0\n0,0,1\n0.6,0.8,0\n"
REGRET_WALK = "tests/cli/test_regret_options.py::test_every_declared_parameter_changes_the_value_through_the_cli"
INSTANCE_FILE = "tests/envs/test_instance.py::test_one_instance_file_through_every_command"
PRIOR_TEST = "tests/envs/test_instance.py::test_prior_answers_are_the_worst_and_quantile_of_the_instances"
REFUSED = "tests/envs/test_instance.py::test_schema_errors_exit_2_with_one_line"
LIN = ["--setting", "linear", "--rho", "0.1"]
GAPS = ["--setting", "finite", "--rho", "0.1", "--K", "4", "--gaps", "0.3"]
REGRET_CHECK = ["--setting", "finite", "--epsilon", "1", "--T", "1e3", "--check", "--runs", "5"]


def _audit_stub(algo, **kw):
    return SimpleNamespace(as_dict=lambda: {"stub": True}, epsilon_lower=0.0, trials=kw.get("trials"), instance_audit=None,
                           mutant=kw.get("mutant"))


def _audit(argv, expect, base=None):
    return Spy(["audit", *argv], "boundcalc.audit.run:run_audit", expect, stub=_audit_stub,
               base=None if base is None else ["audit", *base])


def _budget_is(cls_name, **values):
    def ok(calls):
        b = calls[-1][1]["budget"]
        return type(b).__name__ == cls_name and all(_approx(getattr(b, k), v) for k, v in values.items())
    return ok


def _session_stub(ws, **kw):
    rep = SimpleNamespace(summary=lambda: {"stub": True})
    return SimpleNamespace(run_all=lambda: rep, runner=SimpleNamespace(step_cap=kw.get("step_cap")))


def _autoloan_file() -> str:
    """A small CSV of the auto-loan format (tests/envs/test_real_data.py's writer), for `worksheet run --data`."""
    import tempfile

    from test_real_data import write_autoloan

    path = os.path.join(tempfile.mkdtemp(prefix="boundcalc-reach-"), "autoloan.csv")
    write_autoloan(path, n=20)
    return path


_AUTOLOAN = _autoloan_file()


def _ws(argv, expect, ws: str = "001"):
    return Spy(["worksheet", "run", ws, *argv], "boundcalc.experiments.session:Session", expect, stub=_session_stub,
               base=["worksheet", "run", ws])


REACH: dict[str, dict[str, Any]] = {
    "kl": {
        "--p": Diff(KL, ["--p", "0.2"], lambda o: _approx(o["value"], _info().kl_bernoulli(0.2, 0.5))),
        "--q": Diff(KL, ["--q", "0.7"], lambda o: _approx(o["value"], _info().kl_bernoulli(0.3, 0.7))),
        "--level": Diff(KL, ["--level", "2"], lambda o: _approx(o["kl_ucb"], _info().kl_ucb(0.3, 2.0))),
        # KL(N(p, σ²) ‖ N(q, σ²)) = (p − q)²/(2σ²), written out
        "--sigma": Diff(KL, ["--sigma", "2"], lambda o: _approx(o["kl_gaussian"], 0.2 ** 2 / (2 * 4))),
        # KL(N(p, σp²) ‖ N(q, σq²)) = ln(σq/σp) + (σp² + (p − q)²)/(2σq²) − 1/2
        "--sigma-q": Diff([*KL, "--sigma", "1"], ["--sigma-q", "2"],
                          lambda o: _approx(o["kl_gaussian"], math.log(2) + (1 + 0.04) / 8 - 0.5, 1e-9)),
        "--digits": Diff(KL, ["--digits", "30"], lambda o: isinstance(o["value"], str) and len(o["value"]) > 25),
        "--symbolic": Diff(KL, ["--symbolic"], lambda o: "formula" in o),
        "--json": JSON_EXEMPT,
    },
    "kl-inf": {
        "--mu-star": Diff(KLINF, ["--mu-star", "0.7"], lambda o: _approx(o["value"], _info().kl_bernoulli(0.4, 0.7))),
        "--mu": Diff(KLINF, ["--mu", "0.2"], lambda o: _approx(o["value"], _info().kl_bernoulli(0.2, 0.6))),
        "--support": Diff(["--mu-star", "0.7", "--support", "0,0.5,1", "--weights", "0.2,0.3,0.5"],
                          ["--support", "0,0.2,1"],
                          lambda o: _approx(o["value"], float(_info().kl_inf_finite([0, 0.2, 1], [0.2, 0.3, 0.5], 0.7)),
                                            1e-9)),
        "--weights": Diff(["--mu-star", "0.7", "--support", "0,0.5,1", "--weights", "0.2,0.3,0.5"],
                          ["--weights", "0.5,0.3,0.2"],
                          lambda o: _approx(o["value"], float(_info().kl_inf_finite([0, 0.5, 1], [0.5, 0.3, 0.2], 0.7)),
                                            1e-9)),
        "--epsilon": Diff(["--mu-star", "0.7", "--support", "0,0.5,1", "--weights", "0.2,0.3,0.5"], ["--epsilon", "0.5"],
                          lambda o: _approx(o["d_eps_inf"], __import__("boundcalc.info.d_eps_inf", fromlist=["x"])
                                            .d_eps_inf_finite([0, 0.5, 1], [0.2, 0.3, 0.5], 0.7, 0.5), 1e-12)),
        "--digits": Diff(KLINF, ["--digits", "30"]),
        "--symbolic": Diff(KLINF, ["--symbolic"]),
        "--json": JSON_EXEMPT,
    },
    "d-eps": {
        "--mu": Diff(DEPS, ["--mu", "0.1"], lambda o: _approx(o["value"], _info().d_epsilon(0.1, 0.5, 0.5))),
        "--mu-star": Diff(DEPS, ["--mu-star", "0.9"], lambda o: _approx(o["value"], _info().d_epsilon(0.3, 0.9, 0.5))),
        "--epsilon": Diff(DEPS, ["--epsilon", "0.1"], lambda o: _approx(o["value"], _info().d_epsilon(0.3, 0.5, 0.1))),
        "--N": Diff([*DEPS, "--N", "1000", "--t", "100"], ["--N", "2000"],
                    lambda o: _approx(o["dp_klucb_index"], float(_info().dp_klucb_index(0.3, 2000, 100, 0.5)), 1e-9)),
        "--t": Diff([*DEPS, "--N", "1000", "--t", "100"], ["--t", "1000"],
                    lambda o: _approx(o["dp_klucb_index"], float(_info().dp_klucb_index(0.3, 1000, 1000, 0.5)), 1e-9)),
        "--digits": Diff(DEPS, ["--digits", "30"]),
        "--symbolic": Diff(DEPS, ["--symbolic"]),
        "--json": JSON_EXEMPT,
    },
    "concentration": {
        "--n": Diff(CONC, ["--n", "200"]),
        "--m": Diff(CONC, ["--m", "5"]),
        "--mu": Diff(CONC, ["--mu", "0.6"]),
        "--x": Diff(CONC, ["--x", "0.3"]),
        "--epsilon": Diff(CONC, ["--epsilon", "0.5"]),
        "--sigma": Diff([*CONC[:-2], "--sigma", "1"], ["--sigma", "2"]),
        "--mc-runs": Diff(CONC, ["--mc-runs", "2000"]),
        "--seed": Diff([*CONC, "--mc-runs", "2000"], ["--seed", "5"]),
        "--digits": Diff(CONC, ["--digits", "20"]),
        "--symbolic": Custom(_text_differs(["concentration", *CONC], ["--symbolic"])),
        "--json": JSON_EXEMPT,
    },
    "convert": {
        # ρ-zCDP => (ρ + 2√(ρ ln 1/δ), δ) (Bun & Steinke 2016 Prop. 1.3), written out
        "--rho": Diff(["--rho", "0.1"], ["--rho", "0.5"],
                      lambda o: any(_approx(r["value"], 0.5 + 2 * math.sqrt(0.5 * math.log(1e6))) for r in o["rows"])),
        "--epsilon": Diff(["--epsilon", "1"], ["--epsilon", "2"],
                          lambda o: any(_approx(r["value"], 2.0 ** 2 / 2) for r in o["rows"])),  # ε => ε²/2-zCDP
        "--delta": Diff(["--rho", "0.1"], ["--delta", "1e-3"],
                        lambda o: o["delta_used"] == 1e-3 and any(
                            _approx(r["value"], 0.1 + 2 * math.sqrt(0.1 * math.log(1e3))) for r in o["rows"])),
        "--alpha": Diff(["--alpha", "2", "--rdp-epsilon", "1"], ["--alpha", "4"],  # Mironov Prop. 3
                        lambda o: any(_approx(r["value"], 1 + math.log(1e6) / 3) for r in o["rows"])),
        "--rdp-epsilon": Diff(["--alpha", "2", "--rdp-epsilon", "1"], ["--rdp-epsilon", "0.5"],
                              lambda o: any(_approx(r["value"], 0.5 + math.log(1e6)) for r in o["rows"])),
        "--digits": Diff(["--rho", "0.1"], ["--digits", "30"]),
        "--symbolic": Custom(_text_differs(["convert", "--rho", "0.1"], ["--symbolic"])),
        "--json": JSON_EXEMPT,
    },
    "regret": {
        "--setting": Diff(REG_F, ["--setting", "linear"]),
        "--T": Diff(REG_F, ["--T", "1e5"], _regret_lib("finite", _budget("zcdp", rho=0.1), T=10**5)),
        "--epsilon": Diff(["--setting", "finite", "--epsilon", "1"], ["--epsilon", "0.2"],
                          _regret_lib("finite", _budget("pure", epsilon=0.2))),
        "--rho": Diff(REG_F, ["--rho", "0.02"], _regret_lib("finite", _budget("zcdp", rho=0.02))),
        "--alpha": Diff(["--setting", "finite", "--alpha", "2", "--rdp-epsilon", "1"], ["--alpha", "8"],
                        _regret_lib("finite", _budget("rdp", alpha=8.0, epsilon=1.0))),
        "--rdp-epsilon": Diff(["--setting", "finite", "--alpha", "2", "--rdp-epsilon", "1"], ["--rdp-epsilon", "0.1"],
                              _regret_lib("finite", _budget("rdp", alpha=2.0, epsilon=0.1))),
        "--delta": Diff(["--setting", "contextual", "--epsilon", "1", "--delta", "1e-3", "--param", "lam=1"],
                        ["--delta", "0.05"],
                        _regret_lib("contextual", _budget("approx", epsilon=1.0, delta=0.05), overrides={"lam": 1.0})),
        "--ldp-epsilon": Diff(["--setting", "glm", "--ldp-epsilon", "1", "--ldp-delta", "0.01"], ["--ldp-epsilon", "0.3"],
                              _regret_lib("glm", _budget("ldp", epsilon=0.3, delta=0.01))),
        "--ldp-delta": Diff(["--setting", "glm", "--ldp-epsilon", "1", "--ldp-delta", "0.01"], ["--ldp-delta", "0.1"],
                            _regret_lib("glm", _budget("ldp", epsilon=1.0, delta=0.1))),
        "--means": Elsewhere(REGRET_WALK),
        "--K": Elsewhere(REGRET_WALK),
        "--d": Elsewhere(REGRET_WALK),
        "--theta": Elsewhere(REGRET_WALK),
        "--confidence": Elsewhere(REGRET_WALK),
        "--lambda0": Elsewhere(
            "tests/cli/test_regret_options.py::test_lambda0_reaches_004_thm3_and_003_thm5_as_a_direct_call"),
        "--param": Elsewhere(REGRET_WALK),
        "--actions": Diff(["--setting", "linear", "--rho", "0.1"], ["--actions", "{tmp}/a.csv"],
                          files={"a.csv": ACTIONS_CSV}),
        "--symbolic": Custom(_text_differs(["regret", *REG_F], ["--symbolic"])),
        "--plot": Custom(_plot_written(["regret", *REG_F])),
        "--x-scale": Elsewhere("tests/experiments/test_figures.py::test_cli_scale_options_reach_the_figure"),
        "--y-scale": Elsewhere("tests/experiments/test_figures.py::test_cli_scale_options_reach_the_figure"),
        "--log-y": Elsewhere("tests/experiments/test_figures.py::test_cli_scale_options_reach_the_figure"),
        "--check": Diff(["--setting", "finite", "--epsilon", "1", "--T", "1e3", "--runs", "5"], ["--check"]),
        "--runs": Diff(REGRET_CHECK, ["--runs", "6"]),
        "--seed": Diff(REGRET_CHECK, ["--seed", "3"]),
        "--instance": Elsewhere(INSTANCE_FILE),
        "--save-instance": Elsewhere(INSTANCE_FILE),
        "--env": Diff(LIN, ["--env", "rdp-linear"]),
        "--env-seed": Diff([*LIN, "--K", "20", "--d", "3"], ["--env-seed", "5"]),
        "--gaps": Diff(GAPS, ["--gaps", "0.1"]),
        "--best-mean": Diff(GAPS, ["--best-mean", "0.8"]),
        "--noise": Diff(LIN, ["--noise", "gaussian"]),
        "--prior": Elsewhere(PRIOR_TEST),
        "--instances": Elsewhere(PRIOR_TEST),
        "--prior-quantile": Elsewhere(PRIOR_TEST),
        "--prior-seed": Elsewhere(PRIOR_TEST),
        "--prior-param": Diff([*LIN, "--prior", "sphere", "--instances", "3"], ["--prior-param", "radius=0.5"]),
        "--explain": Custom(_text_differs(["regret", *REG_F], ["--explain"])),
        "--all": Custom(_text_differs(["regret", *REG_F], ["--all"])),
        "--bound": Diff(REG_F, ["--bound", "003-table2-azize-basu-thm12"],
                        _selected_regret_lib("finite", _budget("zcdp", rho=0.1), "003-table2-azize-basu-thm12")),
        "--bounds-file": Elsewhere("tests/bounds/test_plugins.py::test_cli_regret_evaluates_the_example"),
        "--algorithms-file": Elsewhere("tests/algorithms/test_plugin_algorithms.py::test_cli_regret_check_simulates_the_plugin"),
        "--json": JSON_EXEMPT,
    },
    "budget": {
        "--setting": Diff(BUD, ["--setting", "contextual"]),
        "--T": Diff(BUD, ["--T", "1e5"], _budget_lib("linear", 10**5, ("overhead", 0.1), {"name": "rho"})),
        "--notion": Diff(BUD, ["--notion", "epsilon"],
                         _budget_lib("linear", 10**6, ("overhead", 0.1), {"name": "epsilon"})),
        "--max-overhead": Diff(BUD, ["--max-overhead", "0.3"],
                               _budget_lib("linear", 10**6, ("overhead", 0.3), {"name": "rho"})),
        "--max-regret": Diff(["--setting", "linear", "--max-regret", "1e5"], ["--max-regret", "3e5"],
                             _budget_lib("linear", 10**6, ("regret", 3e5), {"name": "rho"})),
        "--max-ratio-to-lower": Diff(["--setting", "finite", "--max-ratio-to-lower", "50"],
                                     ["--max-ratio-to-lower", "20"],
                                     _budget_lib("finite", 10**6, ("ratio", 20.0), {"name": "epsilon"})),
        "--delta": Diff([*BUD, "--notion", "approx"], ["--delta", "1e-3"],
                        _budget_lib("linear", 10**6, ("overhead", 0.1), {"name": "approx", "delta": 1e-3}, delta=1e-3)),
        "--alpha": Diff([*BUD, "--notion", "rdp", "--alpha", "2"], ["--alpha", "10"],
                        _budget_lib("linear", 10**6, ("overhead", 0.1), {"name": "rdp", "alpha": 10.0})),
        "--ldp-delta": Diff(["--setting", "glm", "--max-overhead", "0.5", "--ldp-delta", "0.01"], ["--ldp-delta", "0.1"],
                            _budget_lib("glm", 10**6, ("overhead", 0.5), {"name": "ldp", "delta": 0.1})),
        "--means": Diff(BUD_F, ["--means", "0.9,0.5"],
                        _budget_lib("finite", 10**6, ("overhead", 0.5), {"name": "epsilon"}, overrides={"means": [0.9, 0.5]})),
        "--K": Diff(BUD, ["--K", "40"], _budget_lib("linear", 10**6, ("overhead", 0.1), {"name": "rho"}, overrides={"K": 40})),
        "--d": Diff(BUD, ["--d", "6"], _budget_lib("linear", 10**6, ("overhead", 0.1), {"name": "rho"}, overrides={"d": 6})),
        "--actions": Diff(BUD, ["--actions", "{tmp}/a.csv"], files={"a.csv": ACTIONS_CSV}),
        "--theta": Diff(["--setting", "contextual", "--max-overhead", "0.5", "--param", "lam=1"], ["--theta", "0.5,0,0"]),
        "--confidence": Diff(BUD, ["--confidence", "0.1"],
                             _budget_lib("linear", 10**6, ("overhead", 0.1), {"name": "rho"}, overrides={"delta": 0.1})),
        "--lambda0": Diff(["--setting", "contextual", "--max-overhead", "0.5", "--param", "lam=1"], ["--lambda0", "0.05"],
                          _budget_lib("contextual", 10**6, ("overhead", 0.5), {"name": "rho"},
                                      overrides={"lam": 1.0, "lam0": 0.05})),
        "--param": Diff(["--setting", "contextual", "--max-overhead", "0.5", "--param", "lam=1"], ["--param", "lam=3"],
                        _budget_lib("contextual", 10**6, ("overhead", 0.5), {"name": "rho"}, overrides={"lam": 3.0})),
        "--min-T": Diff(BUD, ["--min-T", "--rho", "0.1"]),
        "--epsilon": Diff(["--setting", "finite", "--min-T", "--max-overhead", "0.5", "--epsilon", "1"],
                          ["--epsilon", "0.1"]),
        "--rho": Diff(["--setting", "linear", "--min-T", "--max-overhead", "0.1", "--rho", "0.1"], ["--rho", "1"]),
        "--rdp-epsilon": Diff(["--setting", "linear", "--min-T", "--max-overhead", "0.1", "--alpha", "2",
                               "--rdp-epsilon", "1"], ["--rdp-epsilon", "0.1"]),
        "--ldp-epsilon": Diff(["--setting", "glm", "--min-T", "--max-overhead", "0.5", "--ldp-epsilon", "1",
                               "--ldp-delta", "0.01"], ["--ldp-epsilon", "0.2"]),
        "--plot": Custom(_plot_written(["budget", *BUD])),
        "--bound": Diff(BUD, ["--bound", "003-thm4-paper"],
                        _selected_budget_lib("linear", 10**6, ("overhead", 0.1), "rho", "003-thm4-paper")),
        "--x-scale": Elsewhere("tests/experiments/test_figures.py::test_cli_scale_options_reach_the_figure"),
        "--y-scale": Elsewhere("tests/experiments/test_figures.py::test_cli_scale_options_reach_the_figure"),
        "--log-y": Elsewhere("tests/experiments/test_figures.py::test_cli_scale_options_reach_the_figure"),
        "--check": Spy(["budget", *BUD, "--check", "--runs", "7", "--seed", "4"], "boundcalc.budget.check:check_plan",
                       lambda c: c and c[-1][1].get("runs") == 7 and c[-1][1].get("seed") == 4,
                       stub=lambda *a, **k: None, base=["budget", *BUD]),
        "--runs": Spy(["budget", *BUD, "--check", "--runs", "7"], "boundcalc.budget.check:check_plan",
                      lambda c: bool(c) and c[-1][1].get("runs") == 7, stub=lambda *a, **k: None,
                      base=["budget", *BUD, "--check"]),
        "--seed": Spy(["budget", *BUD, "--check", "--seed", "4"], "boundcalc.budget.check:check_plan",
                      lambda c: bool(c) and c[-1][1].get("seed") == 4, stub=lambda *a, **k: None,
                      base=["budget", *BUD, "--check"]),
        "--instance": Elsewhere(INSTANCE_FILE),
        "--save-instance": Elsewhere(INSTANCE_FILE),
        "--env": Diff(BUD, ["--env", "rdp-linear"]),
        "--env-seed": Diff([*BUD, "--K", "20", "--d", "3"], ["--env-seed", "5"]),
        "--gaps": Diff([*BUD_F, "--K", "4", "--gaps", "0.3"], ["--gaps", "0.1"]),
        "--best-mean": Diff([*BUD_F, "--K", "4", "--gaps", "0.3"], ["--best-mean", "0.8"]),
        "--noise": Diff(BUD, ["--noise", "gaussian"]),
        "--prior": Elsewhere(PRIOR_TEST),
        "--instances": Elsewhere(PRIOR_TEST),
        "--prior-quantile": Elsewhere(PRIOR_TEST),
        "--prior-seed": Elsewhere(PRIOR_TEST),
        # --prior selects --by simulation: a small search (T = 1e4, one algorithm, 10-20 runs) instead of the defaults
        # (T = 1e6, every linear algorithm, 50-800 runs: minutes); the measured answers (value, rows) and the drawn
        # instances change with the radius all the same. The check: every instance answered has ‖θ*‖ = 0.5 (the sphere
        # prior's radius; the JSON of a --by simulation run also echoes the command line and timings, so "the output
        # changes" alone would not catch the option dropped on its way)
        "--prior-param": Diff([*BUD, "--prior", "sphere", "--instances", "3", "--T", "1e4", "--algo", "AdaC-GOPE",
                               "--runs", "10", "--max-runs", "20"], ["--prior-param", "radius=0.5"],
                              lambda o: len(o["instances"]) == 3 and all(
                                  math.isclose(math.sqrt(sum(x * x for x in i["theta"])), 0.5, rel_tol=1e-12)
                                  for i in o["instances"])),
        "--explain": Custom(_text_differs(["budget", *BUD], ["--explain"])),
        "--all": Custom(_text_differs(["budget", *BUD], ["--all"])),
        "--bounds-file": Elsewhere("tests/bounds/test_plugins.py::test_cli_budget_solves_the_example"),
        "--json": JSON_EXEMPT,
        # budget --by simulation (issue 14 §2-4): its options' reach tests
        "--by": Elsewhere("tests/budget/test_budget_measured.py::test_instance_file_gives_the_same_instance_as_regret"),
        "--algo": Elsewhere("tests/budget/test_budget_measured.py::test_cli_json_rows_and_value"),
        "--quantile": Elsewhere("tests/budget/test_budget_measured.py::test_cli_bad_input_one_line"),
        "--max-runs": Elsewhere("tests/budget/test_budget_measured.py::test_cli_json_rows_and_value"),
        "--block-runs": Elsewhere("tests/budget/test_budget_measured.py::test_cli_block_runs_and_plot_dist_reach"),
        "--plot-dist": Elsewhere("tests/budget/test_budget_measured.py::test_cli_block_runs_and_plot_dist_reach"),
        "--executor": Elsewhere("tests/budget/test_budget_measured.py::test_cli_executor_gives_the_same_answer"),
        "--workers": Elsewhere("tests/budget/test_budget_measured.py::test_cli_executor_gives_the_same_answer"),
        "--scheduler": Exempt("--by simulation hands it to cli.executor_options.plan_executor, as simulate does "
                              "(tests/project/test_mutants_across_packages.py::test_executor_options_reach_the_executor)"),
        "--report": Elsewhere("tests/budget/test_budget_report.py::test_rendered_numbers_equal_the_json"),
        "--counterpart": Spy([*BUD_SIM, "--counterpart", "UCB"], "boundcalc.budget.measured:solve_measured",
                             lambda c: bool(c) and _kw(c, "settings")[-1].counterpart == "UCB", memo=True),
        "--counterpart-param": Spy([*BUD_SIM, "--counterpart", "UCB", "--counterpart-param", "c=0.5"],
                                   "boundcalc.budget.measured:solve_measured",
                                   lambda c: bool(c) and _kw(c, "settings")[-1].counterpart_params == {"c": 0.5},
                                   base=[*BUD_SIM, "--counterpart", "UCB"], memo=True),
        "--pairing": Spy([*BUD_SIM, "--pairing", "common"], "boundcalc.budget.measured:solve_measured",
                         lambda c: bool(c) and _kw(c, "settings")[-1].pairing == "common", memo=True),
    },
    "episodes": {
        "--algo": Diff(EP_UCB, ["--algo", "adac-gope"], _episodes_lib("adac-gope", rho=1.0)),
        "--T": Diff(EP_UCB, ["--T", "1e4"], _episodes_lib("adac-ucb", T=10**4, rho=1.0)),
        "--epsilon": Diff(EP_KL, ["--epsilon", "0.1"], _episodes_lib("dp-klucb", epsilon=0.1)),
        "--rho": Diff(EP_UCB, ["--rho", "0.1"], _episodes_lib("adac-ucb", rho=0.1)),
        "--alpha": Diff(["--algo", "adar-ucb", "--alpha", "2", "--rdp-epsilon", "1"], ["--alpha", "5"],
                        _episodes_lib("adar-ucb", alpha=5.0, rdp_epsilon=1.0)),
        "--rdp-epsilon": Diff(["--algo", "adar-ucb", "--alpha", "2", "--rdp-epsilon", "1"], ["--rdp-epsilon", "0.1"],
                              _episodes_lib("adar-ucb", alpha=2.0, rdp_epsilon=0.1)),
        "--d": Diff(EP_GOPE, ["--d", "3"], _episodes_lib("adac-gope", rho=1.0, d=3)),
        "--K": Diff(EP_GOPE, ["--K", "50"], _episodes_lib("adac-gope", rho=1.0, K=50)),
        "--delta": Diff(EP_GOPE, ["--delta", "0.1"], _episodes_lib("adac-gope", rho=1.0, delta=0.1)),
        "--beta": Diff(["--algo", "dp-se", "--epsilon", "1"], ["--beta", "0.01"],
                       _episodes_lib("dp-se", epsilon=1.0, beta=0.01)),
        "--n1": Diff(EP_KL, ["--n1", "5"], _episodes_lib("dp-klucb", epsilon=1.0, n1=5)),
        "--batch-ratio": Diff(EP_KL, ["--batch-ratio", "3"], _episodes_lib("dp-klucb", epsilon=1.0, ratio=3.0)),
        "--lambda": Diff(EP_OFUL, ["--lambda", "5"], _episodes_lib("adac-oful", rho=1.0, lam=5.0)),
        "--C": Diff(EP_OFUL, ["--C", "2"], _episodes_lib("adac-oful", rho=1.0, C=2.0)),
        "--lam0": Diff(EP_OFUL, ["--lam0", "0.5"]),  # the deprecated spelling (tests/algorithms/test_vocabulary.py)
        "--confidence": Diff(EP_GOPE, ["--confidence", "0.1"], _episodes_lib("adac-gope", rho=1.0, delta=0.1)),
        "--lambda0": Diff(EP_OFUL, ["--lambda0", "0.5"]),
        "--rows": Custom(lambda tmp: _episodes_rows()),
        "--plot": Custom(_plot_written(["episodes", *EP_UCB])),
        "--json": JSON_EXEMPT,
    },
    "simulate": {},  # filled below from tests/cli/test_cli_simulate_options.py and tests/project/test_mutants_across_packages.py
    "algorithms": {"--json": JSON_EXEMPT,
                   "--algorithms-file": Elsewhere("tests/algorithms/test_plugin_algorithms.py::test_cli_algorithms_lists_the_plugin")},
    "verify": {
        "--paper": Diff(["--list", "--paper", "004"], ["--paper", "002"]),
        "--claim": Diff(["--claim", "004-sum-log-base"], ["--claim", "004-positivity"]),
        "--box": Diff(["--claim", "004-sum-log-base"], ["--box", "t_max=100"]),
        "--method": Spy(["verify", "--claim", "001-thm31-vs-eq7", "--method", "grid"], "boundcalc.verify.claims:evaluate",
                        lambda c: bool(c) and c[-1][0][2] == "grid", stub=None,
                        base=["verify", "--claim", "001-thm31-vs-eq7", "--method", "proof"]),
        "--max-seconds": Spy(["verify", "--claim", "004-sum-log-base", "--max-seconds", "3"],
                             "boundcalc.verify.claims.proofs:limits",
                             lambda c: bool(c) and c[-1][1].get("max_seconds") == 3.0),
        "--list": Diff(["--claim", "004-sum-log-base"], ["--list"]),
        "--details": Elsewhere("tests/cli/test_cli_readable.py::test_verify_prints_a_summary_and_details_on_request"),
        "--report": Custom(lambda tmp: _verify_report(tmp)),
        "--bounds-file": Elsewhere(
            "tests/verify/test_check_assumptions.py::test_verify_bounds_file_pairs_the_example_with_the_papers_bounds"),
        "--json": JSON_EXEMPT,
    },
    "check": {
        "--box": Spy(["check", "x <= 2", "--box", "x=0:1.5"], "boundcalc.verify.check:run",
                     lambda c: bool(c) and c[-1][0][1] == "x=0:1.5", base=["check", "x <= 2", "--box", "x=0:1"]),
        "--method": Spy(["check", "x <= 2", "--box", "x=0:1", "--method", "grid"], "boundcalc.verify.check:run",
                        lambda c: bool(c) and c[-1][1].get("method") == "grid"),
        "--points": Spy(["check", "x <= 2", "--box", "x=0:1", "--method", "grid", "--points", "77"],
                        "boundcalc.verify.check:run", lambda c: bool(c) and c[-1][1].get("points") == 77),
        "--max-seconds": Spy(["check", "x <= 2", "--box", "x=0:1", "--max-seconds", "3"], "boundcalc.verify.check:run",
                             lambda c: bool(c) and c[-1][1].get("max_seconds") == 3.0),
        "--bounds-file": Elsewhere("tests/bounds/test_plugins.py::test_cli_check_proves_and_refutes_with_the_example"),
        "--json": JSON_EXEMPT,
    },
    "audit": {
        "--algo": _audit(["--algo", "DP-KLUCB"], lambda c: bool(c) and c[-1][0][0] == "DP-KLUCB",
                         base=["--algo", "DP-SE"]),
        "--epsilon": _audit(["--algo", "DP-SE", "--epsilon", "0.5"], _budget_is("PureDP", epsilon=0.5),
                            base=["--algo", "DP-SE", "--epsilon", "1"]),
        "--rho": _audit(["--algo", "AdaC-UCB", "--rho", "0.5"], _budget_is("ZCDP", rho=0.5),
                        base=["--algo", "AdaC-UCB", "--rho", "1"]),
        "--alpha": _audit(["--algo", "AdaR-UCB", "--alpha", "4", "--rdp-epsilon", "2"], _budget_is("RDP", alpha=4.0),
                          base=["--algo", "AdaR-UCB", "--alpha", "2", "--rdp-epsilon", "2"]),
        "--rdp-epsilon": _audit(["--algo", "AdaR-UCB", "--alpha", "2", "--rdp-epsilon", "1"],
                                _budget_is("RDP", epsilon=1.0),
                                base=["--algo", "AdaR-UCB", "--alpha", "2", "--rdp-epsilon", "2"]),
        "--delta": _audit(["--algo", "AdaC-UCB", "--rho", "1", "--delta", "0.3"],
                          lambda c: bool(c) and c[-1][1].get("delta") == 0.3,
                          base=["--algo", "AdaC-UCB", "--rho", "1"]),
        "--trials": _audit(["--algo", "DP-SE", "--trials", "300"], lambda c: bool(c) and c[-1][1].get("trials") == 300,
                           base=["--algo", "DP-SE", "--trials", "200"]),
        "--mutant": _audit(["--algo", "DP-SE", "--mutant", "no-noise"],
                           lambda c: bool(c) and c[-1][1].get("mutant") == "no-noise", base=["--algo", "DP-SE"]),
        "--seed": _audit(["--algo", "DP-SE", "--seed", "9"], lambda c: bool(c) and c[-1][1].get("seed") == 9,
                         base=["--algo", "DP-SE"]),
        "--param": _audit(["--algo", "LDP-OLS", "--param", "C_B=8"],
                          lambda c: bool(c) and c[-1][1].get("params") == {"C_B": 8.0}, base=["--algo", "LDP-OLS"]),
        "--confidence": _audit(["--algo", "DP-SE", "--confidence", "0.9"],
                               lambda c: bool(c) and c[-1][1].get("confidence") == 0.9, base=["--algo", "DP-SE"]),
        "--list": Diff(["--algo", "DP-SE", "--trials", "100"], ["--list"]),
        "--level": _audit(["--algo", "DP-SE", "--level", "0.9"],
                          lambda c: bool(c) and c[-1][1].get("confidence") == 0.9, base=["--algo", "DP-SE"]),
        "--instance": Elsewhere(INSTANCE_FILE),
        "--save-instance": Elsewhere(INSTANCE_FILE),
        "--means": Diff(["--algo", "DP-SE", "--trials", "100"], ["--means", "0.9,0.5"]),
        "--K": Diff(["--algo", "DP-SE", "--trials", "100"], ["--K", "4"]),
        "--d": Diff(["--algo", "AdaC-GOPE", "--rho", "1", "--trials", "100"], ["--d", "4"]),
        "--theta": Diff(["--algo", "AdaC-GOPE", "--rho", "1", "--trials", "100", "--d", "3"], ["--theta", "0.6,0.8,0"]),
        "--actions": Diff(["--algo", "AdaC-GOPE", "--rho", "1", "--trials", "100"], ["--actions", "{tmp}/a.csv"],
                          files={"a.csv": ACTIONS_CSV}),
        "--env": Diff(["--algo", "DP-SE", "--trials", "100"], ["--env", "mu4"]),
        "--env-seed": Diff(["--algo", "AdaC-GOPE", "--rho", "1", "--trials", "100"], ["--env-seed", "5"]),
        "--gaps": Diff(["--algo", "DP-SE", "--trials", "100", "--K", "4", "--gaps", "0.3"], ["--gaps", "0.1"]),
        "--best-mean": Diff(["--algo", "DP-SE", "--trials", "100", "--K", "4", "--gaps", "0.3"], ["--best-mean", "0.8"]),
        "--noise": Diff(["--algo", "AdaC-GOPE", "--rho", "1", "--trials", "100"], ["--noise", "gaussian"]),
        "--prior": Elsewhere(REFUSED),
        "--algorithms-file": Elsewhere("tests/algorithms/test_plugin_algorithms.py::test_cli_audit_runs_the_plugin_scenario"),
        "--json": JSON_EXEMPT,
    },
    "bounds": {
        "--setting": Diff(["--setting", "finite"], ["--setting", "glm"]),
        "--notion": Diff(["--setting", "finite"], ["--notion", "zcdp"]),
        "--kind": Diff(["--setting", "finite"], ["--kind", "lower"]),
        "--bounds-file": Elsewhere("tests/bounds/test_plugins.py::test_cli_bounds_lists_the_example"),
        "--json": JSON_EXEMPT,
    },
    "bounds show": {"--bounds-file": Elsewhere("tests/bounds/test_plugins.py::test_cli_bounds_show_prints_the_formula"),
                    "--json": JSON_EXEMPT},
    "worksheet": {"--json": JSON_EXEMPT},
    "worksheet list": {"--json": JSON_EXEMPT},
    "worksheet run": {
        "--full": _ws(["--full"], lambda c: bool(c) and c[-1][1].get("mode") == "full"),
        "--out": _ws(["--out", "/tmp/boundcalc-ws-x"],
                     lambda c: bool(c) and c[-1][1].get("out") == "/tmp/boundcalc-ws-x"),
        "--seed": _ws(["--seed", "12"], lambda c: bool(c) and c[-1][1].get("seed") == 12),
        "--step-cap": _ws(["--step-cap", "500"], lambda c: bool(c) and c[-1][1].get("step_cap") == 500),
        "--data": _ws(["--data", f"autoloan={_AUTOLOAN}"],  # a file of the format (checked before any experiment),
                      lambda c: bool(c) and c[-1][1].get("data") == {"autoloan": _AUTOLOAN},
                      ws="002"),  # for the worksheet that reads it (002: seed 002 App. F)
        # issue 24 items 6, 7, 11 (their effect on a run: tests/experiments/test_worksheets.py)
        "--only": _ws(["--only", "fig8", "--only", "fig1"], lambda c: bool(c) and c[-1][1].get("only") == ["fig1", "fig8"]),
        "--no-claims": _ws(["--no-claims"], lambda c: bool(c) and c[-1][1].get("claims") is False),
        "--x-scale": _ws(["--x-scale", "linear"], lambda c: bool(c) and c[-1][1].get("scales") == ("linear", None)),
        "--y-scale": _ws(["--y-scale", "log"], lambda c: bool(c) and c[-1][1].get("scales") == (None, "log")),
        "--log-y": _ws(["--log-y"], lambda c: bool(c) and c[-1][1].get("scales") == (None, "log")),
        "--executor": _ws(["--executor", "processes"],
                          lambda c: bool(c) and (c[-1][1].get("executor") or {}).get("kind") == "processes"),
        "--workers": _ws(["--executor", "processes", "--workers", "1"],
                         lambda c: bool(c) and (c[-1][1].get("executor") or {}).get("workers") == 1),
        "--scheduler": Spy(["worksheet", "run", "001", "--executor", "dask", "--scheduler", "tcp://10.0.0.5:8786"],
                           "boundcalc.experiments.session:Session",
                           lambda c: bool(c) and (c[-1][1].get("executor") or {}).get("scheduler")
                           == "tcp://10.0.0.5:8786", stub=_session_stub,
                           base=["worksheet", "run", "001", "--executor", "dask", "--scheduler", "tcp://10.0.0.6:8786"]),
        "--json": JSON_EXEMPT,
    },
}


def _episodes_rows():
    """--rows N: the table shows at most N episode rows (first and last halves) plus the ellipsis row."""
    full = runner.invoke(app, ["episodes", *EP_UCB, "--rows", "1000"])
    short = runner.invoke(app, ["episodes", *EP_UCB, "--rows", "4"])
    assert full.exit_code == 0 and short.exit_code == 0
    n = json.loads(runner.invoke(app, ["episodes", *EP_UCB, "--json"]).stdout)["value"]
    assert n > 6
    body = lambda out: [ln for ln in out.splitlines() if re.match(r"^│\s*(\d+|…)\s*│", ln)]  # noqa: E731
    assert len(body(full.stdout)) == n, (len(body(full.stdout)), n)
    assert len(body(short.stdout)) == 5, short.stdout


def _verify_report(tmp_path):
    p = tmp_path / "v.md"
    r = runner.invoke(app, ["verify", "--claim", "004-sum-log-base", "--report", str(p)])
    assert r.exit_code == 0, r.output
    assert p.exists() and "004-sum-log-base" in p.read_text(), "--report wrote nothing"


# simulate: every option has its reach test in tests/cli/test_cli_simulate_options.py (its CASES, compared with a direct
# library call; that file fails itself when an option lacks a case) or in tests/project/test_mutants_across_packages.py (executors)
_SIM_FILE = "tests/cli/test_cli_simulate_options.py"
_SIM_OTHER = {
    "--processes": "tests/cli/test_cli_simulate_options.py::test_processes_used_and_same_numbers",
    "--save": "tests/cli/test_cli_simulate_options.py::test_save_roundtrip_equals_library",
    "--progress": "tests/cli/test_cli_simulate_options.py::test_progress_option_reaches_the_engine",
    "--plot": "tests/cli/test_cli_simulate_options.py::test_plot_option_writes_the_file",
    "--executor": "tests/project/test_mutants_across_packages.py::test_executor_options_reach_the_executor",
    "--workers": "tests/project/test_mutants_across_packages.py::test_executor_options_reach_the_executor",
    "--scheduler": "tests/project/test_mutants_across_packages.py::test_executor_options_reach_the_executor",
    "--save-instance": INSTANCE_FILE,
    "--prior": REFUSED,  # refused with one line: a prior is for regret and budget
    "--plot-dist": "tests/cli/test_regret_distribution.py::test_simulate_plot_dist_and_log_y",
    "--log-y": "tests/cli/test_regret_distribution.py::test_simulate_plot_dist_and_log_y",
    "--x-scale": "tests/experiments/test_figures.py::test_cli_scale_options_reach_the_figure",
    "--y-scale": "tests/experiments/test_figures.py::test_cli_scale_options_reach_the_figure",
    "--bounds-file": "tests/algorithms/test_plugin_algorithms.py::test_cli_simulate_bounds_file_overlays_a_users_bound",
    "--algorithms-file": "tests/algorithms/test_plugin_algorithms.py::test_cli_simulate_runs_the_plugin",
}


def _simulate_entries():
    text = open(os.path.join(os.path.dirname(TESTS), _SIM_FILE)).read()
    cases = set(re.findall(r'^    "(--[\w-]+)": \(', text, flags=re.M))
    out = {}
    for p in options_of("simulate"):
        opt = p.opts[0]
        if opt == "--json":
            out[opt] = JSON_EXEMPT
        elif opt in _SIM_OTHER:
            out[opt] = Elsewhere(_SIM_OTHER[opt])
        elif opt in cases:
            out[opt] = Elsewhere(f"{_SIM_FILE}::test_option_matches_library_call")
    return out


REACH["simulate"] = _simulate_entries()


# `lower` (issue 16 item 4): the finite means forms are Diffs checked against the library; the file forms and
# --setting linear have their own test (two instance files)
LOWER = ["--rho", "0.05", "--means", "0.5,0.4", "--alt-means", "0.5,0.6", "--T", "200"]


def _lower_lib(means=(0.5, 0.4), alt=(0.5, 0.6), rho=0.05, T=200, family=None, sigma=None, **kw):
    from boundcalc.envs.spec import Instance
    from boundcalc.lower import lower_bound_report

    fam = {} if family is None else {"family": family, "sigma": sigma}
    return lower_bound_report(Instance("finite", means=means, **fam), Instance("finite", means=alt, **fam), rho, T,
                              **kw)


REACH["lower"] = {
    "--rho": Diff(LOWER, ["--rho", "0.5"],
                  lambda o: _approx(o["kl_bound_private"], _lower_lib(rho=0.5)["kl_bound_private"], 1e-9)),
    "--T": Diff(LOWER, ["--T", "500"],
                lambda o: _approx(o["kl_bound_private"], _lower_lib(T=500)["kl_bound_private"], 1e-9)),
    "--means": Diff(LOWER, ["--means", "0.5,0.3"],
                    lambda o: _approx(o["kl_bound_private"], _lower_lib(means=(0.5, 0.3))["kl_bound_private"], 1e-9)),
    "--alt-means": Diff(LOWER, ["--alt-means", "0.5,0.9"],
                        lambda o: _approx(o["best_sum_lower"], _lower_lib(alt=(0.5, 0.9))["best_sum_lower"], 1e-9)),
    "--family": Diff(LOWER, ["--family", "gaussian"],
                     lambda o: _approx(o["kl_bound_private"],
                                       _lower_lib(family="gaussian", sigma=1.0)["kl_bound_private"], 1e-9)),
    "--sigma": Diff([*LOWER, "--family", "gaussian"], ["--sigma", "0.2"],
                    lambda o: _approx(o["kl_bound_private"],
                                      _lower_lib(family="gaussian", sigma=0.2)["kl_bound_private"], 1e-9)),
    "--pulls": Diff(LOWER, ["--pulls", "150,50"],
                    lambda o: _approx(o["kl_bound_private"], _lower_lib(pulls=[150, 50])["kl_bound_private"], 1e-9)),
    "--variance": Diff([*LOWER, "--pulls", "150,50"], ["--variance", "7"],
                       lambda o: _approx(o["kl_bound_private"],
                                         _lower_lib(pulls=[150, 50], variance=7.0)["kl_bound_private"], 1e-9)),
    "--setting": Elsewhere("tests/lower/test_lower.py::test_cli_json_matches_library"),
    "--instance": Elsewhere("tests/lower/test_lower.py::test_cli_json_matches_library"),
    "--alt": Elsewhere("tests/lower/test_lower.py::test_cli_json_matches_library"),
    "--json": JSON_EXEMPT,
}


# -- running an entry ------------------------------------------------------------------------------------------------
def _split(tokens):
    """[(option, value or None)] of an argv fragment (a token not starting with -- after an option is its value)."""
    out, i = [], 0
    while i < len(tokens):
        opt = tokens[i]
        if i + 1 < len(tokens) and not tokens[i + 1].startswith("--"):
            out.append((opt, tokens[i + 1]))
            i += 2
        else:
            out.append((opt, None))
            i += 1
    return out


def _apply(base, change):
    argv = list(base)
    for opt, val in _split(change):
        if opt in argv and val is not None:
            argv[argv.index(opt) + 1] = val
        else:
            argv += [opt] + ([val] if val is not None else [])
    return argv


def _without(argv, opt):
    out, i = [], 0
    while i < len(argv):
        if argv[i] == opt:
            i += 2 if i + 1 < len(argv) and not argv[i + 1].startswith("--") else 1
            continue
        out.append(argv[i])
        i += 1
    return out


VOLATILE = {"inputs", "seconds", "timings", "elapsed", "per_algorithm"}  # the echo and wall-clock times


def _strip(obj):
    if isinstance(obj, dict):
        return {k: _strip(v) for k, v in obj.items() if k not in VOLATILE}
    if isinstance(obj, list):
        return [_strip(v) for v in obj]
    return obj


def _fill(argv, tmp):
    return [a.replace("{tmp}", str(tmp)) for a in argv]


def _callback_holder(cmd: str):
    """The typer CommandInfo (or group callback info) whose ``callback`` runs ``cmd``."""
    parts = cmd.split()
    if len(parts) == 1:
        for c in app.registered_commands:
            if c.name == parts[0]:
                return c
        for g in app.registered_groups:
            if g.name == parts[0]:
                return g.typer_instance.registered_callback
    for g in app.registered_groups:
        if g.name == parts[0]:
            for c in g.typer_instance.registered_commands:
                if c.name == parts[1]:
                    return c
    raise KeyError(cmd)


def _param(cmd, opt):
    for p in options_of(cmd):
        if opt in _names(p) or opt == p.name:
            return p
    raise KeyError((cmd, opt))


@contextlib.contextmanager
def _callback_kwargs(cmd, record=None, force=None):
    """Run ``cmd`` with its callback wrapped: ``record`` receives the keyword arguments it was called with;
    ``force`` ({name: value}) replaces some of them — the dropped-option mutant."""
    holder = _callback_holder(cmd)
    real = holder.callback

    @functools.wraps(real)
    def wrapped(*a, **kw):
        if record is not None:
            record.update(kw)
        if force:
            kw.update(force)
        return real(*a, **kw)

    holder.callback = wrapped
    try:
        yield
    finally:
        holder.callback = real


def _invoke_json(argv):
    r = runner.invoke(app, [*argv, "--json"])
    assert r.exit_code == 0, (argv, r.output[-2000:])
    return json.loads(r.stdout)


def _diff_problems(entry: Diff, base_out, out) -> list[str]:
    problems = []
    if _strip(out) == _strip(base_out):
        problems.append("the output does not change")
    if entry.check is not None:
        try:
            ok = entry.check(out)
        except Exception as exc:  # noqa: BLE001 - a field missing or malformed is a failed check too
            ok, msg = False, f"{type(exc).__name__}: {exc}"
        else:
            msg = ""
        if ok is False:
            problems.append(f"differs from the direct library call {msg}")
    return problems


_BASE_CACHE: dict = {}  # base argv -> (JSON output, the callback's keyword arguments): bases are shared by entries


def _run_diff(cmd, opt, entry: Diff, tmp_path, mutant=False):
    for name, content in entry.files.items():
        (tmp_path / name).write_text(content)
    base = [*cmd.split(), *_fill(entry.base, tmp_path)]
    changed = [*cmd.split(), *_fill(_apply(entry.base, entry.change), tmp_path)]
    key = tuple(base)
    if key not in _BASE_CACHE or entry.files:
        seen = {}
        with _callback_kwargs(cmd, record=seen):
            base_out = _invoke_json(base)
        _BASE_CACHE[key] = (base_out, seen)
    base_out, seen = _BASE_CACHE[key]
    if mutant:
        p = _param(cmd, opt)
        with _callback_kwargs(cmd, force={p.name: seen[p.name]}):
            try:
                out = _invoke_json(changed)
            except AssertionError as exc:  # the dropped option made the command fail: caught as well
                return [f"the command fails: {exc}"]
    else:
        out = _invoke_json(changed)
    return _diff_problems(entry, base_out, out)


_MEMO: dict = {}  # (target, arguments' repr) -> the real call's return value (Spy.memo; per process, one xdist group)
_NOT_IN_KEY = ("progress", "executor")  # a progress printer (a new closure per call) and the in-process executor


def _memo_call(target, real, a, k):
    """``real(*a, **k)``, or its value from an earlier call with the same arguments: the --by simulation searches of
    ``budget`` are seeded (the same arguments give the same plan), and the Spy entries on ``solve_measured`` and their
    dropped-option mutants call it with the same arguments several times (the base invocation, the mutant's forced
    value). Every call is still recorded by the spy and checked: only the return value is shared. Arguments whose
    repr is not a value (an object address) are never shared, and an executor other than the in-process default
    is not either."""
    key = (target, repr(a), repr(sorted((n, v) for n, v in k.items() if n not in _NOT_IN_KEY)))
    if " at 0x" in key[1] + key[2] or k.get("executor") not in (None,) and type(k["executor"]).__name__ != "InProcess":
        return real(*a, **k)
    if key not in _MEMO:
        _MEMO[key] = real(*a, **k)
    return copy.deepcopy(_MEMO[key])  # the command may annotate the plan it renders


def _spy_calls(entry: Spy, argv, force=None, cmd=None):
    mod_name, attr = entry.target.split(":")
    mod = importlib.import_module(mod_name)
    real = getattr(mod, attr)
    calls = []

    def spy(*a, **k):
        calls.append((a, k))
        if entry.memo and entry.stub is None:
            return _memo_call(entry.target, real, a, k)
        return (entry.stub or real)(*a, **k)

    old = getattr(mod, attr)
    setattr(mod, attr, spy)
    try:
        ctx = _callback_kwargs(cmd, force=force) if force else contextlib.nullcontext()
        with ctx:
            r = runner.invoke(app, [*argv, "--json"])
        assert r.exit_code == 0, (argv, r.output[-2000:])
    finally:
        setattr(mod, attr, old)
    return calls


def _run_spy(cmd, opt, entry: Spy, mutant=False):
    if not mutant:
        calls = _spy_calls(entry, entry.argv)
    else:
        base = entry.base or _without(entry.argv, opt)
        seen = {}
        with _callback_kwargs(cmd, record=seen):
            _spy_calls(entry, base)
        p = _param(cmd, opt)
        calls = _spy_calls(entry, entry.argv, force={p.name: seen[p.name]}, cmd=cmd)
    return [] if entry.expect(calls) else [f"{entry.target} did not receive the value of {opt}: {calls[-1:]}"]


def _entries(kinds):
    for cmd, opts in REACH.items():
        for opt, e in opts.items():
            if isinstance(e, kinds):
                yield pytest.param(cmd, opt, e, id=f"{cmd} {opt}")


# -- the tests ---------------------------------------------------------------------------------------------------------
def test_every_option_has_a_reach_test():
    """Every option of every command (from the Typer app) has an entry; every entry names an existing option.
    A new option without a reach test (or a documented exemption) fails here."""
    missing, stale = [], []
    for cmd in COMMANDS:
        entries = REACH.get(cmd)
        if entries is None:
            missing.append(f"{cmd} (the whole command)")
            continue
        for p in options_of(cmd):
            if not any(k in _names(p) or k == p.name for k in entries):
                missing.append(f"{cmd} {p.opts[0]}")
        for k in entries:
            if not any(k in _names(p) or k == p.name for p in options_of(cmd)):
                stale.append(f"{cmd} {k}")
    assert not missing, "options without a reach test (add them to REACH): " + ", ".join(missing)
    assert not stale, "REACH entries for options that do not exist: " + ", ".join(stale)
    assert set(REACH) == set(COMMANDS), set(REACH) ^ set(COMMANDS)


@pytest.mark.parametrize("cmd,opt,entry", list(_entries(Elsewhere)))
def test_elsewhere_entries_name_real_tests(cmd, opt, entry):
    path, _, name = entry.test.partition("::")
    text = open(os.path.join(os.path.dirname(TESTS), path)).read()
    assert re.search(rf"^def {re.escape(name)}\(", text, flags=re.M), entry.test
    assert opt in text, f"{opt} does not appear in {path}"


@pytest.mark.parametrize("cmd,opt,entry", list(_entries(Exempt)))
def test_exemptions_have_a_reason(cmd, opt, entry):
    assert len(entry.reason) > 20


# one xdist worker for the tests that run Diff bases: _BASE_CACHE (per process) then runs each shared base once
@pytest.mark.xdist_group("option-reach-bases")
@pytest.mark.parametrize("cmd,opt,entry", list(_entries((Diff, Spy, Custom))))
def test_option_reaches_its_destination(cmd, opt, entry, tmp_path):
    if isinstance(entry, Diff):
        assert _run_diff(cmd, opt, entry, tmp_path) == []
    elif isinstance(entry, Spy):
        assert _run_spy(cmd, opt, entry) == []
    else:
        entry.fn(tmp_path)


# The dropped-option mutant runs on every entry of the quick commands and every Spy; for regret, budget, verify and
# concentration (seconds per run) on a sample that covers each kind of check (the suite's time budget).
MUTANT_SAMPLE = {"regret": {"--T", "--epsilon", "--delta", "--ldp-delta", "--runs"},
                 "budget": {"--T", "--notion", "--delta", "--means", "--lambda0", "--rho", "--prior-param"},
                 "verify": {"--box", "--paper"}, "concentration": {"--x", "--seed"}}


def _mutant_entries():
    for p in _entries((Diff, Spy)):
        cmd, opt, entry = p.values
        if isinstance(entry, Spy) or cmd not in MUTANT_SAMPLE or opt in MUTANT_SAMPLE[cmd]:
            yield p


@pytest.mark.xdist_group("option-reach-bases")
@pytest.mark.parametrize("cmd,opt,entry", list(_mutant_entries()))
def test_dropped_option_is_caught(cmd, opt, entry, tmp_path):
    """The mutant: the command's callback receives the base invocation's value of ``opt`` instead of the changed
    one (the option dropped on its way). The entry's check must reject it."""
    if isinstance(entry, Diff):
        assert _run_diff(cmd, opt, entry, tmp_path, mutant=True) != []
    else:
        assert _run_spy(cmd, opt, entry, mutant=True) != []


@pytest.mark.parametrize("cmd,opt,entry", list(_entries(Custom)))
def test_dropped_option_is_caught_custom(cmd, opt, entry, tmp_path):
    """The same mutant for the file/text options: the callback receives the option's default whatever was given."""
    p = _param(cmd, opt)
    with _callback_kwargs(cmd, force={p.name: p.default}):
        with pytest.raises(AssertionError):
            entry.fn(tmp_path)
