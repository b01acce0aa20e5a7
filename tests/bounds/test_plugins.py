"""Declared bounds and plugins (issue 15): examples/my_bound.toml through the loader, the registry and the CLI.

The expected values are the example's formula written again here, directly in numpy and in mpmath (the formula of
examples/my_bound.toml: 3 sqrt(d T log(K T)) + 5 d log(K T)^2 / sqrt(rho)); never the code's own output. Each
check is also run against a deliberately broken copy (a mutant) to show it can fail.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import mpmath
import numpy as np
import pytest

from boundcalc.bounds import declared, plugins, registry
from boundcalc.bounds.declared import DeclaredBound, PluginError
from clirun import app, runner
from boundcalc.privacy.budgets import ZCDP

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "examples" / "my_bound.toml")
GOOD = dict(id="my-linear-ub", title="A zCDP linear upper bound from a new paper", source="Doe 2027, Thm 1",
            setting="linear", notion="zcdp", kind="upper-minimax", form="explicit",
            nonprivate="3*sqrt(d*T*log(K*T))", privacy_cost="5*d*log(K*T)**2/sqrt(rho)",
            assumptions=["rho > 0", "T >= 2"])


@pytest.fixture(autouse=True)
def _clean_registry():
    """No plugin bound survives a test (the registry is shared by the whole test session)."""
    plugins.reset()
    yield
    plugins.reset()


def direct_numpy(T, d, K, rho):
    """The example's formula, written independently of boundcalc (Doe 2027, Thm 1 as declared in the example)."""
    T = np.asarray(T, dtype=float)
    return 3.0 * np.sqrt(d * T * np.log(K * T)), 5.0 * d * np.log(K * T) ** 2 / np.sqrt(rho)


def direct_mp(T, d, K, rho):
    T, d, K, rho = (mpmath.mpf(x) for x in (T, d, K, rho))
    return 3 * mpmath.sqrt(d * T * mpmath.log(K * T)), 5 * d * mpmath.log(K * T) ** 2 / mpmath.sqrt(rho)


def _example_bound():
    (b,) = plugins.read_bounds_file(EXAMPLE)
    return b


def _numpy_matches(b) -> bool:
    ctx = registry.make_context("linear", budget=ZCDP(0.1))
    T = np.logspace(2, 15, 27)
    v = b.evaluate(T, ctx)
    a, p = direct_numpy(T, ctx["d"], ctx["K"], 0.1)
    return bool(np.allclose(v.nonprivate, a, rtol=1e-13, atol=0) and np.allclose(v.privacy_cost, p, rtol=1e-13, atol=0)
                and np.allclose(v.value, a + p, rtol=1e-13, atol=0))


# -- the declared bound ---------------------------------------------------------------------------------------
def test_example_numpy_equals_direct_formula_and_a_mutant_fails():
    b = _example_bound()
    assert isinstance(b, DeclaredBound) and b.id == "my-linear-ub" and b.params == ("d", "K")
    assert _numpy_matches(b)
    mutant = _example_bound()  # mutant: the numpy function of a different expression (log10 for log)
    mutant._f_np = lambda K, T, d, rho: (3 * np.sqrt(d * T * np.log10(K * T)), 5 * d * np.log(K * T) ** 2 / np.sqrt(rho))
    assert not _numpy_matches(mutant)


@pytest.mark.parametrize("T", [2.0, 1e6, 3.7e12])
def test_example_mpmath_at_50_digits(T):
    b = _example_bound()
    ctx = registry.make_context("linear", budget=ZCDP(0.1))
    with mpmath.workdps(50):
        a, p = b.evaluate_mp(T, ctx, digits=50)
        ea, ep = direct_mp(T, ctx["d"], ctx["K"], mpmath.mpf(1) / 10)
        assert abs(a - ea) <= mpmath.mpf(10) ** -45 * ea
        # rho = 0.1 reaches the bound as the float 0.1 (the budget object); the direct value uses the same float
        ep_float = direct_mp(T, ctx["d"], ctx["K"], mpmath.mpf(0.1))[1]
        assert abs(p - ep_float) <= mpmath.mpf(10) ** -45 * ep_float
        assert abs(p - ep) > mpmath.mpf(10) ** -45 * ep  # 50 digits see the float rho: the check is that sharp


def test_expression_is_the_declared_formula():
    import sympy

    b = _example_bound()
    npx, pvx = b.expression()
    T, d, K, rho = sympy.symbols("T d K rho", real=True)
    assert sympy.simplify(npx - 3 * sympy.sqrt(d * T * sympy.log(K * T))) == 0
    assert sympy.simplify(pvx - 5 * d * sympy.log(K * T) ** 2 / sympy.sqrt(rho)) == 0
    assert set(b.symbol_values(registry.make_context("linear"), ZCDP(0.1))) == {"d", "K", "rho"}


def test_assumptions_are_data_and_evaluated():
    import sympy

    b = DeclaredBound(**{**GOOD, "id": "needs-big-rho", "assumptions": ["rho >= 1", "T >= 2"]}, origin="test")
    assert all(isinstance(r, sympy.core.relational.Relational) for r in b.assumption_relations)
    assert [str(r) for r in b.assumption_relations] == ["rho >= 1", "T >= 2"]
    assert b.conditions(registry.make_context("linear", budget=ZCDP(0.1))) == ["assumption rho >= 1 fails"]
    assert b.conditions(registry.make_context("linear", budget=ZCDP(2.0))) == []


# -- bad plugins ------------------------------------------------------------------------------------------------
TOML_HEAD = '[[bound]]\nid = "{id}"\ntitle = "t"\nsource = "Doe 2027, Thm 1"\nsetting = "linear"\nnotion = "zcdp"\n' \
            'kind = "upper-minimax"\n'
BAD = {
    "syntax": ('[[bound]\nid = "x"\n', "TOML syntax error"),
    "unknown-symbol": (TOML_HEAD.format(id="u1") + 'nonprivate = "sqrt(T)"\nprivacy_cost = "foo/rho"\n',
                       "unknown symbol 'foo'"),
    "missing-key": (TOML_HEAD.format(id="u2") + 'nonprivate = "sqrt(T)"\n', "missing required key(s): privacy_cost"),
    "not-real": (TOML_HEAD.format(id="u3") + 'nonprivate = "sqrt(T)"\nprivacy_cost = "sqrt(rho - 10)"\n'
                 'assumptions = ["rho > 0"]\n', "not real and finite"),
    "duplicate-builtin": (TOML_HEAD.format(id="003-thm4-paper") + 'nonprivate = "sqrt(T)"\nprivacy_cost = "1/rho"\n',
                          "already a built-in bound"),
    "unknown-function": (TOML_HEAD.format(id="u4") + 'nonprivate = "sqrt(T)"\nprivacy_cost = "__import__(1)"\n',
                         "unknown function '__import__'"),
}


def _write(tmp_path, name, text, suffix=".toml"):
    p = tmp_path / (name + suffix)
    p.write_text(text)
    return str(p)


def _rejects(path, problem) -> bool:
    """The check every bad plugin must pass: PluginError naming the file and the problem."""
    try:
        plugins.load_bounds_file(path)
    except PluginError as exc:
        return path in str(exc) and problem in str(exc)
    return False


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_plugin_one_line_exit_2_and_registry_intact(tmp_path, case):
    text, problem = BAD[case]
    path = _write(tmp_path, case, text)
    n_builtin = len(registry.all_bounds())
    for args in (["bounds", "--bounds-file", path, "--json"],
                 ["regret", "--setting", "linear", "--rho", "0.1", "--T", "1e6", "--bounds-file", path, "--json"]):
        r = runner.invoke(app, args)
        assert r.exit_code == 2, (args, r.output)
        err = [ln for ln in r.stderr.splitlines() if ln.strip()]
        assert len(err) == 1 and err[0].startswith("boundcalc: error: --bounds-file " + path), r.stderr
        assert problem in err[0], err[0]
        assert "Traceback" not in r.output
    assert len(registry.all_bounds()) == n_builtin and not registry.plugin_bounds()
    r = runner.invoke(app, ["bounds", "show", "003-thm4-paper", "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["bound"]["id"] == "003-thm4-paper"
    assert _rejects(path, problem)


def test_mutant_loader_that_skips_unknown_symbols_is_caught(tmp_path, monkeypatch):
    import sympy

    path = _write(tmp_path, "unknown", BAD["unknown-symbol"][0])
    assert _rejects(path, "unknown symbol 'foo'")
    plugins.reset()

    def lax_parse(text, allowed, origin, what, relation=False):  # mutant: sympy's own parser, any name a symbol
        return sympy.sympify(text)

    monkeypatch.setattr(declared, "parse", lax_parse)
    assert not _rejects(path, "unknown symbol 'foo'")


def test_mutant_without_domain_check_is_caught(tmp_path, monkeypatch):
    path = _write(tmp_path, "notreal", BAD["not-real"][0])
    assert _rejects(path, "not real and finite")
    plugins.reset()
    monkeypatch.setattr(DeclaredBound, "validate", lambda self, where: None)
    assert not _rejects(path, "not real and finite")


def test_file_is_all_or_nothing_and_mutant_registry_is_caught(tmp_path, monkeypatch):
    good = TOML_HEAD.format(id="fine-one") + 'nonprivate = "sqrt(T)"\nprivacy_cost = "1/rho"\n'
    path = _write(tmp_path, "mixed", good + BAD["duplicate-builtin"][0])

    def clean_after_failure() -> bool:
        with pytest.raises(PluginError, match="already a built-in bound"):
            plugins.load_bounds_file(path)
        return "fine-one" not in {b.id for b in registry.all_bounds()}

    assert clean_after_failure()
    plugins.reset()
    real_add = registry.add_plugin_bounds

    def one_by_one(bounds, origin):  # mutant: registers each bound before checking the next
        for b in bounds:
            real_add((b,), origin)

    monkeypatch.setattr(registry, "add_plugin_bounds", one_by_one)
    assert not clean_after_failure()


def test_duplicate_between_plugins(tmp_path):
    a = _write(tmp_path, "a", TOML_HEAD.format(id="same") + 'nonprivate = "sqrt(T)"\nprivacy_cost = "1/rho"\n')
    b = _write(tmp_path, "b", TOML_HEAD.format(id="same") + 'nonprivate = "T"\nprivacy_cost = "1/rho"\n')
    plugins.load_bounds_file(a)
    plugins.load_bounds_file(a)  # the same file twice: loaded once
    with pytest.raises(PluginError, match=f"plugin {b}.*already a bound of plugin {a}"):
        plugins.load_bounds_file(b)


# -- the CLI with the example -------------------------------------------------------------------------------------
def test_cli_bounds_lists_the_example():
    r = runner.invoke(app, ["bounds", "--bounds-file", EXAMPLE, "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    ids = [b["id"] for b in out["bounds"]]
    assert "my-linear-ub" in ids and "003-thm4-paper" in ids and out["value"] == len(ids)
    plugins.reset()
    r = runner.invoke(app, ["bounds", "--setting", "linear", "--json"])  # without the option: not listed
    assert "my-linear-ub" not in [b["id"] for b in json.loads(r.stdout)["bounds"]]


def test_cli_bounds_show_prints_the_formula():
    r = runner.invoke(app, ["bounds", "show", "my-linear-ub", "--bounds-file", EXAMPLE])
    assert r.exit_code == 0, r.output
    assert "Doe 2027, Thm 1" in r.stdout and "assumption: rho > 0" in r.stdout and "symbols of linear/zcdp" in r.stdout
    assert "3 \\sqrt{T d \\log{\\left(K T \\right)}}" in r.stdout  # the LaTeX line of the non-private part
    r = runner.invoke(app, ["bounds", "show", "my-linear-ub", "--bounds-file", EXAMPLE, "--json"])
    f = json.loads(r.stdout)["formula"]
    import sympy

    T, d, K, rho = sympy.symbols("T d K rho", real=True)
    ns = {"T": T, "d": d, "K": K, "rho": rho}
    assert sympy.simplify(sympy.sympify(f["privacy_cost"], locals=ns) - 5 * d * sympy.log(K * T) ** 2 / sympy.sqrt(rho)) == 0


def test_cli_regret_evaluates_the_example():
    r = runner.invoke(app, ["regret", "--setting", "linear", "--rho", "0.1", "--T", "1e6", "--bounds-file", EXAMPLE,
                            "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    (row,) = [b for b in out["bounds"] if b["id"] == "my-linear-ub"]
    ctx = registry.make_context("linear")
    a, p = direct_numpy(1e6, ctx["d"], ctx["K"], 0.1)
    assert row["applicable"] and row["nonprivate"] == pytest.approx(float(a), rel=1e-12)
    assert row["privacy_cost"] == pytest.approx(float(p), rel=1e-12)
    assert row["value"] == pytest.approx(float(a + p), rel=1e-12)


def test_python_module_plugin(tmp_path):
    path = _write(tmp_path, "mine", "from boundcalc.bounds.declared import DeclaredBound\n"
                  f"BOUNDS = [DeclaredBound(**{dict(GOOD, id='py-linear-ub')!r}, origin=__file__)]\n", suffix=".py")
    r = runner.invoke(app, ["regret", "--setting", "linear", "--rho", "0.1", "--T", "1e6", "--bounds-file", path,
                            "--json"])
    assert r.exit_code == 0, r.output
    (row,) = [b for b in json.loads(r.stdout)["bounds"] if b["id"] == "py-linear-ub"]
    ctx = registry.make_context("linear")
    assert row["value"] == pytest.approx(float(sum(direct_numpy(1e6, ctx["d"], ctx["K"], 0.1))), rel=1e-12)
    bad = _write(tmp_path, "nobounds", "X = 1\n", suffix=".py")
    assert _rejects(bad, "defines no list BOUNDS")


def test_entry_points_loaded_once(monkeypatch):
    import importlib.metadata as md

    calls = []

    class EP:
        name, value = "mine", "mypkg:BOUNDS"

        def load(self):
            calls.append(1)
            return [DeclaredBound(**dict(GOOD, id="ep-linear-ub"), origin="entry point mine")]

    def fake_entry_points(group=None, **kw):
        return [EP()] if group == plugins.ENTRY_POINT_GROUP else []

    monkeypatch.setattr(md, "entry_points", fake_entry_points)
    ids = [b.id for b in registry.select(setting="linear")]
    assert "ep-linear-ub" in ids
    registry.get("ep-linear-ub")
    registry.all_bounds()
    assert calls == [1]


def test_cli_budget_solves_the_example():
    """rho at which the example's value is 1e5 at T = 1e6, solved by hand: 5 d log(KT)^2/sqrt(rho) = 1e5 - a."""
    r = runner.invoke(app, ["budget", "--setting", "linear", "--T", "1e6", "--max-regret", "1e5", "--bounds-file",
                            EXAMPLE, "--json"])
    assert r.exit_code == 0, r.output
    (row,) = [b for b in json.loads(r.stdout)["budgets"] if b["id"] == "my-linear-ub"]
    ctx = registry.make_context("linear")
    a, _ = direct_numpy(1e6, ctx["d"], ctx["K"], 1.0)
    L = np.log(ctx["K"] * 1e6)
    rho = (5 * ctx["d"] * L**2 / (1e5 - float(a))) ** 2
    assert row["status"] == "met" and row["budget_own"]["rho"] == pytest.approx(rho, rel=1e-9)
    r = runner.invoke(app, ["budget", "--setting", "linear", "--T", "1e6", "--max-regret", "1e5", "--bounds-file",
                            os.path.join("no", "such.toml")])
    assert r.exit_code == 2 and r.stderr.strip() == "boundcalc: error: --bounds-file no/such.toml: no such file (or not a regular file)"


def test_cli_check_proves_and_refutes_with_the_example():
    """3 sqrt(dT log KT) + 5 d log(KT)^2/sqrt(rho) >= sqrt(dT log KT) + d log(KT)^1.5/sqrt(rho) (seed 003 Thm 4,
    paper form) whenever log(KT) >= 1: true on the box, and the reverse inequality is false everywhere on it."""
    box = "T=1e3:1e9,rho=0.01:1"
    r = runner.invoke(app, ["check", 'bound("my-linear-ub", T=T, rho=rho) >= bound("003-thm4-paper", T=T, rho=rho)',
                            "--box", box, "--bounds-file", EXAMPLE, "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["verdict"].startswith("proven on the box")
    r = runner.invoke(app, ["check", 'bound("my-linear-ub", T=T, rho=rho) <= bound("003-thm4-paper", T=T, rho=rho)',
                            "--box", box, "--bounds-file", EXAMPLE, "--json"])
    out = json.loads(r.stdout)
    assert out["verdict"].startswith("counterexample"), out["verdict"]
    ce = out["counterexample"]
    ctx = registry.make_context("linear")
    T, rho = float(ce["T"]), float(ce["rho"])
    mine = sum(direct_numpy(T, ctx["d"], ctx["K"], rho))
    L = np.log(ctx["K"] * T)
    thm4 = np.sqrt(ctx["d"] * T * L) + ctx["d"] / np.sqrt(rho) * L**1.5
    assert mine > thm4 and float(ce["margin"]) < 0


def test_other_setting_notion_and_functions():
    """A finite-armed pure-DP declaration with max, ceiling and a decimal constant against the same formula in numpy
    and mpmath here: K log T / Delta_min + max(1, ceiling(K/epsilon)) * 0.3 log(T)."""
    from boundcalc.privacy.budgets import PureDP

    b = DeclaredBound(id="my-finite-ub", title="t", source="Doe 2027, Thm 2", setting="finite", notion="pure",
                      kind="upper-problem-dependent", nonprivate="K*log(T)/Delta_min",
                      privacy_cost="max(1, ceiling(K/epsilon))*0.3*log(T)", assumptions=["epsilon > 0", "T >= 2"],
                      origin="test")
    ctx = registry.make_context("finite", budget=PureDP(0.7))
    K, dm = ctx["K"], ctx["Delta_min"]
    T = np.array([10.0, 1e4, 1e12])
    v = b.evaluate(T, ctx)
    assert np.allclose(v.nonprivate, K * np.log(T) / dm, rtol=1e-14)
    assert np.allclose(v.privacy_cost, max(1, math.ceil(K / 0.7)) * 0.3 * np.log(T), rtol=1e-14)
    with mpmath.workdps(50):
        a, p = b.evaluate_mp(1e12, ctx, digits=50)
        ep = max(1, math.ceil(K / 0.7)) * mpmath.mpf(3) / 10 * mpmath.log(mpmath.mpf(10) ** 12)
        assert abs(p - ep) <= mpmath.mpf(10) ** -45 * ep  # 0.3 is exact (rationalised), not the float 0.3
    assert b.params == ("K", "Delta_min")


def test_cli_regret_plot_with_the_example(tmp_path):
    png = tmp_path / "bounds.png"
    r = runner.invoke(app, ["regret", "--setting", "linear", "--rho", "0.1", "--T", "1e6", "--bounds-file", EXAMPLE,
                            "--plot", str(png), "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert png.stat().st_size > 1000 and out["plot"]["path"] == str(png)
    assert [b["id"] for b in out["bounds"]].count("my-linear-ub") == 1
