"""Plugins of issue 15 (items 2 and 3): examples/my_plugin.py (a bound and an algorithm in one file, the fictional
"Doe 2027") seen by bounds, regret, budget, check, simulate, regret --check and audit; the same as an installed
package through the entry-point groups boundcalc.bounds / boundcalc.algorithms; bad plugins.

Expected values are computed here independently of boundcalc: the bound's formula written again in numpy
((K − 1)(32 log T / Δ_min + 3 Δ_max) + (K − 1) 24 log T / ε, Doe 2027 Thm 1 as declared in the example), its budget
solved in closed form, the probability of the audit's event from the density of a difference of two Laplace noises,
and the simulation against the plugin's own step-by-step ``reference`` on deterministic rewards. Each test also runs a
deliberately broken copy (a mutant: the plugin file with one constant changed, the option dropped, a broken
simulate) and asserts that its check rejects it.

Entry points: installing the example package into a venv is too slow for the suite, so
:func:`test_entry_points_discovered` monkeypatches ``importlib.metadata.entry_points`` to return EntryPoint objects
pointing at examples/boundcalc_example_plugin (put on sys.path); :func:`test_pip_installed_package_via_entry_points`
really installs it with ``pip install --no-deps --no-build-isolation --target DIR`` and loads it through the real
entry-point discovery, and is skipped when that cannot build here (no ``wheel`` for setuptools' bdist_wheel) or takes
20 s or more.
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
import time
from importlib.metadata import EntryPoint
from pathlib import Path

import numpy as np
import pytest

from boundcalc.algorithms import plugins as alg_plugins
from boundcalc.bounds import plugins as bound_plugins
from clirun import app, runner

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = str(ROOT / "examples" / "my_plugin.py")
PACKAGE = ROOT / "examples" / "boundcalc_example_plugin"


@pytest.fixture(autouse=True)
def _clean_registries():
    """No plugin bound or algorithm survives a test (the registries are shared by the whole test session)."""
    def clean():
        bound_plugins.reset()
        alg_plugins.reset()
        for m in [m for m in sys.modules if m.startswith("boundcalc_example_plugin")]:
            del sys.modules[m]

    clean()
    yield
    clean()


def _json(args, code=0):
    r = runner.invoke(app, [*args, "--json"])
    assert r.exit_code == code, r.output
    return json.loads(r.stdout)


def _mutant_file(tmp_path, old: str, new: str) -> str:
    """examples/my_plugin.py with one edit (exactly one occurrence): a broken copy of the plugin."""
    text = Path(PLUGIN).read_text()
    assert text.count(old) == 1, old
    p = tmp_path / "mutant_plugin.py"
    p.write_text(text.replace(old, new))
    return str(p)


def _mutate(func, old, new):
    """tests/mutation.py's ``mutate``: ``func`` recompiled from its source with one edit."""
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        from mutation import mutate
    finally:
        sys.path.remove(str(ROOT / "tests"))
    return mutate(func, old, new)


def doe_bound(T, K, dmin, dmax, eps):
    """Doe 2027 Thm 1 as declared in the example, written again here: (nonprivate, privacy cost)."""
    T = np.asarray(T, dtype=float)
    return (K - 1) * (32 * np.log(T) / dmin + 3 * dmax), (K - 1) * 24 * np.log(T) / eps


# -- the bound side: bounds, regret, budget, check ----------------------------------------------------------------
def _listed(out) -> bool:
    return any(b["id"] == "doe2027-thm1" and b.get("plugin") == PLUGIN for b in out["bounds"])


def test_cli_bounds_lists_the_plugin_file(monkeypatch):
    out = _json(["bounds", "--setting", "finite", "--bounds-file", PLUGIN])
    assert _listed(out)
    # mutant: the option dropped on its way (the loader does nothing) -> the check rejects the listing
    bound_plugins.reset()
    from boundcalc.cli import plugin_options

    monkeypatch.setattr(plugin_options, "load", lambda paths: None)
    assert not _listed(_json(["bounds", "--setting", "finite", "--bounds-file", PLUGIN]))


def _regret_value(path, eps=0.5, T=1e4):
    out = _json(["regret", "--setting", "finite", "--means", "0.9,0.1", "--epsilon", str(eps), "--T", str(T),
                 "--bounds-file", path])
    (row,) = [r for r in out["bounds"] if r["id"] == "doe2027-thm1"]
    return row


def test_cli_regret_evaluates_the_plugin_bound(tmp_path):
    n, p = doe_bound(1e4, 2, 0.8, 0.8, 0.5)
    row = _regret_value(PLUGIN)
    assert row["applicable"] and math.isclose(row["value"], n + p, rel_tol=1e-12)
    assert math.isclose(row["privacy_cost"], p, rel_tol=1e-12)
    bound_plugins.reset()
    mutant = _regret_value(_mutant_file(tmp_path, "(K - 1)*24*log(T)", "(K - 1)*12*log(T)"))
    assert not math.isclose(mutant["value"], n + p, rel_tol=1e-12)
    # its declared assumption epsilon <= 1 makes it inapplicable at epsilon = 2, with the assumption named
    bound_plugins.reset()
    out = _regret_value(PLUGIN, eps=2)
    assert not out["applicable"] and "epsilon <= 1" in out["reason"]


def _budget_eps(path, target=1000.0, T=1e4):
    out = _json(["budget", "--setting", "finite", "--means", "0.9,0.1", "--T", str(T), "--max-regret", str(target),
                 "--bounds-file", path])
    (row,) = [r for r in out["budgets"] if r["id"] == "doe2027-thm1"]
    return out, row


def test_cli_budget_solves_the_plugin_bound(tmp_path):
    # closed form: (K-1)(32 log T/Δ + 3Δ) + (K-1) 24 log T / ε = target  =>  ε = 24 log T / (target - nonprivate)
    n, _ = doe_bound(1e4, 2, 0.8, 0.8, 1.0)
    want = 24 * math.log(1e4) / (1000.0 - n)
    out, row = _budget_eps(PLUGIN)
    assert math.isclose(row["budget"], want, rel_tol=1e-6), row["budget"]
    assert out["value_id"] == "doe2027-thm1" and math.isclose(out["value"], want, rel_tol=1e-6)
    bound_plugins.reset()
    _, mrow = _budget_eps(_mutant_file(tmp_path, "32*log(T)/Delta_min", "16*log(T)/Delta_min"))
    assert not math.isclose(mrow["budget"], want, rel_tol=1e-6)


CLAIM = 'bound("doe2027-thm1", T=T, epsilon=epsilon) >= 96*log(T)/epsilon'  # (K-1)*24 = 96 on the default K = 5


def test_cli_check_uses_the_plugin_bound(tmp_path):
    args = ["check", CLAIM, "--box", "T=100:1e6,epsilon=0.001:1", "--bounds-file"]
    out = _json([*args, PLUGIN])
    assert out["word"] in ("proven", "no counterexample"), out["verdict"]
    bound_plugins.reset()  # the mutant declares the same id
    mut = _json([*args, _mutant_file(tmp_path, "(K - 1)*24*log(T)", "(K - 1)*12*log(T)")])
    assert mut["word"] == "counterexample", mut["verdict"]


# -- the algorithm side: algorithms, simulate, regret --check, audit ----------------------------------------------
def test_cli_algorithms_lists_the_plugin():
    out = _json(["algorithms", "--algorithms-file", PLUGIN])
    (row,) = [r for r in out["algorithms"] if r["name"] == "Doe-UCB"]
    assert row["notion"] == "pure" and row["source"] == "Doe 2027, Algorithm 1" and row["bound_ids"] == ["doe2027-thm1"]
    assert row["plugin"] == PLUGIN
    alg_plugins.reset()
    bound_plugins.reset()
    assert not [r for r in _json(["algorithms"])["algorithms"] if r["name"] == "Doe-UCB"]


def _reference_curve(cps, eps):
    """The plugin's own step-by-step reference (one run) on rewards 1 and 0: deterministic but for the Laplace noise,
    which at ε = 1e6 (scale 1e-6) cannot move an argmax of indexes that differ by at least ~1e-2."""
    import importlib.util

    from boundcalc.envs import make_env

    spec = importlib.util.spec_from_file_location("_doe_reference", PLUGIN)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    res = mod.DoeUCB(eps).reference(make_env(None, means=[1.0, 0.0]), int(cps[-1]), np.random.default_rng(5),
                                    np.asarray(cps))
    return res.regret[0]


def _simulate(extra=()):
    return _json(["simulate", "--algorithms-file", PLUGIN, "--algo", "Doe-UCB", "--epsilon", "1e6", "--means",
                  "1,0", "--T", "400", "--runs", "3", *extra])


def test_cli_simulate_runs_the_plugin(monkeypatch):
    out = _simulate()
    assert out["algorithm"]["name"] == "Doe-UCB" and out["inputs"]["algo"] == "Doe-UCB"
    cps = [row["t"] for row in out["checkpoints"]]
    ref = _reference_curve(cps, 1e6)
    curve = [row["mean"] for row in out["checkpoints"]]
    assert np.allclose(curve, ref, rtol=0, atol=1e-9), (curve, ref)
    assert sum(out["pulls_mean"]) == 400
    # mutant: a broken vectorised simulate (batches of 4n instead of 2n) -> no longer the reference's regret
    alg_plugins.reset()
    bound_plugins.reset()
    (cls,) = alg_plugins.read_algorithms_file(PLUGIN)
    monkeypatch.setattr(cls, "simulate", _mutate(cls.simulate, "L = 2 * n[rows, arm]", "L = 4 * n[rows, arm]"))
    bad = _simulate()
    assert not np.allclose([row["mean"] for row in bad["checkpoints"]], ref, rtol=0, atol=1e-9)


def test_cli_simulate_bounds_file_overlays_a_users_bound(tmp_path):
    """--bounds-file on simulate: a user's bound for a built-in algorithm is drawn beside its simulation (--plot)."""
    toml = tmp_path / "adap.toml"
    toml.write_text('[[bound]]\nid = "my-adap-ub"\ntitle = "AdaP-UCB, a new analysis"\nsource = "Doe 2027, Thm 2"\n'
                    'setting = "finite"\nnotion = "pure"\nkind = "upper-problem-dependent"\nalgorithm = "AdaP-UCB"\n'
                    'nonprivate = "(K - 1)*40*log(T)/Delta_min"\nprivacy_cost = "(K - 1)*30*log(T)/epsilon"\n'
                    'assumptions = ["T >= 2"]\n')
    base = ["simulate", "--algo", "AdaP-UCB", "--epsilon", "1", "--T", "200", "--runs", "2", "--plot",
            str(tmp_path / "f.png")]
    out = _json([*base, "--bounds-file", str(toml)])
    assert "my-adap-ub (upper)" in out["bound_overlay"]["curves"], out["bound_overlay"]
    bound_plugins.reset()
    assert "my-adap-ub (upper)" not in _json(base)["bound_overlay"]["curves"]  # mutant: the option not given


def _check_row(eps, T="3000", runs="20"):
    out = _json(["regret", "--setting", "finite", "--means", "0.9,0.1", "--epsilon", str(eps), "--T", T, "--check",
                 "--runs", runs, "--algorithms-file", PLUGIN])
    (row,) = [r for r in out["bounds"] if r["id"] == "doe2027-thm1"]
    return row


def test_cli_regret_check_simulates_the_plugin(monkeypatch):
    row = _check_row(1)
    e = row["empirical"]
    # the bound (recomputed here) against the simulated mean: inside the assumptions, held
    n, p = doe_bound(3000, 2, 0.8, 0.8, 1.0)
    assert math.isclose(row["value"], n + p, rel_tol=1e-12)
    assert e["assumptions_met"] is True and e["verdict"] == "held" and e["ci"][1] <= n + p
    # regret of 20 runs lies between the worst case 0.8 T and the initial pull of the bad arm (0.8)
    assert 0.8 <= e["mean"] < 0.8 * 3000
    # outside its declared assumptions (epsilon <= 1): not simulated, the verdict names the assumption
    bound_plugins.reset()
    alg_plugins.reset()
    out = _check_row(2)["empirical"]
    assert out["verdict"].startswith("outside the assumptions") and "epsilon <= 1" in out["verdict"]
    assert "mean" not in out
    # mutant: plugin rows treated as built-in ones (the branch dropped) -> no verdict at all for this row
    from boundcalc.verify import regret_check

    bound_plugins.reset()
    alg_plugins.reset()
    monkeypatch.setattr(regret_check, "check_rows", _mutate(regret_check.check_rows, 'and (r.get("plugin") or',
                                                            'and False and (r.get("plugin") or'))
    assert "empirical" not in _check_row(2)


def _laplace_diff_tail(a, b=1.0):
    """P(L0 - L1 > a), L0, L1 iid Laplace(0, b): density (1 + |x|/b) e^{-|x|/b} / (4b), so the tail is
    (2 + a/b) e^{-a/b} / 4 (integrated by hand)."""
    return (2 + a / b) * math.exp(-a / b) / 4


def _audit(extra=()):
    return _json(["audit", "--algorithms-file", PLUGIN, "--algo", "Doe-UCB", "--trials", "4000", *extra])


def test_cli_audit_runs_the_plugin_scenario():
    out = _audit()
    assert out["algorithm"] == "Doe-UCB" and out["epsilon_claimed"] == 1.0 and out["passed"]
    (ev,) = out["events"]
    n = ev["trials_Dprime"]
    # D: both arms' first releases have the same sum (fair coin); D': arm 0 one unit lower -> P = P(L0 - L1 > 1)
    for k, p in ((ev["count_D"], 0.5), (ev["count_Dprime"], _laplace_diff_tail(1.0))):
        assert abs(k / n - p) <= 4 * math.sqrt(p * (1 - p) / n), (k, n, p)
    # mutant: the noise halved (Laplace(1/(2ε))): the event's frequency under D' leaves the band of the true ε
    bad = _audit(["--mutant", "noise-halved"])["events"][0]
    p = _laplace_diff_tail(1.0)
    assert abs(bad["count_Dprime"] / n - p) > 4 * math.sqrt(p * (1 - p) / n)
    assert not _audit(["--mutant", "no-noise"])["passed"]  # and the audit itself catches a noiseless copy


# -- bad plugins: one line naming the plugin and the problem, exit 2, built-ins still work ----------------------
GOOD_CLASS = '''
from boundcalc.algorithms.base import Algorithm
class A(Algorithm):
    name = "Tmp-Alg"; source = "Doe 2027, Algorithm 2"; setting = "finite"; notion = "pure"
    budget_params = ("epsilon",)
    def __init__(self, epsilon): self.epsilon = epsilon
    def simulate(self, env, T, runs, rng, checkpoints): raise NotImplementedError
    def reference(self, env, T, rng, checkpoints): raise NotImplementedError
ALGORITHMS = [A]
'''
BAD = {
    "syntax": ("def broken(:\n", "SyntaxError"),
    "missing-method": (GOOD_CLASS.replace("    def reference(self, env, T, rng, checkpoints): raise NotImplementedError\n",
                                          ""), "missing method reference"),
    "wrong-notion": (GOOD_CLASS.replace('notion = "pure"', 'notion = "gaussian-dp"'), "privacy notion 'gaussian-dp'"),
    "budget-params": (GOOD_CLASS.replace('budget_params = ("epsilon",)', 'budget_params = ("rho",)'),
                      "budget_params = ('epsilon',)"),
    "taken-name": (GOOD_CLASS.replace('"Tmp-Alg"', '"ucb"'), "already a built-in algorithm"),
    "not-a-class": ("ALGORITHMS = [print]\n", "not a class"),
    "no-list": ("X = 1\n", "defines no list ALGORITHMS"),
    "no-source": (GOOD_CLASS.replace('source = "Doe 2027, Algorithm 2"; ', ""), "sets no source"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_algorithm_plugin_one_line_exit_2(tmp_path, case):
    text, problem = BAD[case]
    f = tmp_path / f"{case}.py"
    f.write_text(text)
    r = runner.invoke(app, ["simulate", "--algorithms-file", str(f), "--algo", "UCB", "--T", "50", "--runs", "2"])
    assert r.exit_code == 2, r.output
    line = r.output.strip()
    assert "\n" not in line and "Traceback" not in line
    assert f"--algorithms-file {f}" in line and problem in line, line
    # the built-ins still work, in the same process
    assert _json(["simulate", "--algo", "UCB", "--T", "50", "--runs", "2"])["algorithm"]["name"] == "UCB"
    assert "Tmp-Alg" not in _json(["algorithms"])["algorithms"].__repr__()


def test_good_class_of_the_bad_cases_loads(tmp_path):
    """The base of BAD is itself accepted (the mutant of the cases: without the edit there is no error)."""
    f = tmp_path / "good.py"
    f.write_text(GOOD_CLASS)
    assert [c.name for c in alg_plugins.read_algorithms_file(str(f))] == ["Tmp-Alg"]


def test_audit_without_scenario_says_cannot_audit(tmp_path):
    f = tmp_path / "noaudit.py"
    f.write_text(GOOD_CLASS)
    r = runner.invoke(app, ["audit", "--algorithms-file", str(f), "--algo", "Tmp-Alg"])
    assert r.exit_code == 2 and "cannot audit: the plugin declares no audit_scenario" in r.output, r.output
    assert len(r.output.strip().splitlines()) == 1
    # mutant: with the declaration the same class is auditable (listed by --list)
    alg_plugins.reset()
    f2 = tmp_path / "withaudit.py"
    f2.write_text(GOOD_CLASS.replace('budget_params = ("epsilon",)',
                                     'budget_params = ("epsilon",); audit_scenario = "first-decision"'))
    listed = _json(["audit", "--algorithms-file", str(f2), "--list"])["algorithms"]
    assert [r for r in listed if r["algorithm"] == "Tmp-Alg"]


def test_audit_has_no_bounds_file_option():
    """audit reads no bound: --bounds-file is not one of its options (Typer: 'No such option', exit 2)."""
    r = runner.invoke(app, ["audit", "--algo", "DP-SE", "--bounds-file", PLUGIN])
    assert r.exit_code == 2 and "No such option" in r.output


# -- the installed package: entry points ---------------------------------------------------------------------------
def _fake_entry_points(group_names):
    eps = [EntryPoint("doe2027", "boundcalc_example_plugin.doe2027:BOUNDS", group_names[0]),
           EntryPoint("doe2027", "boundcalc_example_plugin.doe2027:ALGORITHMS", group_names[1])]

    def entry_points(*, group=None, **kw):
        return [e for e in eps if group is None or e.group == group]

    return entry_points


def test_entry_points_discovered(monkeypatch):
    """importlib.metadata.entry_points monkeypatched to return EntryPoints at the example package (on sys.path):
    its bound and algorithm reach bounds, regret and simulate without any option."""
    import importlib.metadata

    monkeypatch.syspath_prepend(str(PACKAGE))
    monkeypatch.setattr(importlib.metadata, "entry_points",
                        _fake_entry_points(("boundcalc.bounds", "boundcalc.algorithms")))
    bounds = _json(["bounds", "--setting", "finite"])["bounds"]
    (b,) = [x for x in bounds if x["id"] == "doe2027-thm1"]
    assert b["plugin"].startswith("entry point doe2027")
    assert [r for r in _json(["algorithms"])["algorithms"] if r["name"] == "Doe-UCB"]
    out = _json(["simulate", "--algo", "Doe-UCB", "--epsilon", "1", "--T", "200", "--runs", "2"])
    assert sum(out["pulls_mean"]) == 200
    n, p = doe_bound(1e4, 2, 0.8, 0.8, 0.5)
    row = [r for r in _json(["regret", "--setting", "finite", "--means", "0.9,0.1", "--epsilon", "0.5", "--T",
                             "1e4"])["bounds"] if r["id"] == "doe2027-thm1"][0]
    assert math.isclose(row["value"], n + p, rel_tol=1e-12)
    # mutant: entry points in other groups (a typo in pyproject.toml) are not discovered
    bound_plugins.reset()
    alg_plugins.reset()
    monkeypatch.setattr(importlib.metadata, "entry_points",
                        _fake_entry_points(("boundcalc.bound", "boundcalc.algorithm")))
    assert not [r for r in _json(["algorithms"])["algorithms"] if r["name"] == "Doe-UCB"]


def test_pip_installed_package_via_entry_points(tmp_path, monkeypatch):
    """The example package really installed (pip --no-deps --no-build-isolation --target) and found by the real
    entry-point discovery on sys.path; skipped when the build cannot run here or takes 20 s or more."""
    src = tmp_path / "src"
    shutil.copytree(PACKAGE, src, ignore=shutil.ignore_patterns("build", "*.egg-info"))  # the symlink copied as a file
    target = tmp_path / "site"
    t0 = time.monotonic()
    try:
        r = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-build-isolation", "--no-index",
                            "--quiet", "--target", str(target), str(src)], capture_output=True, text=True, timeout=20)
    except subprocess.TimeoutExpired:
        pytest.skip("pip install of the example package took 20 s or more")
    if r.returncode != 0:
        if "bdist_wheel" in r.stderr or "No module named" in r.stderr or "setuptools" in r.stderr:
            pytest.skip("the example package cannot be built here without build isolation: " +
                        r.stderr.strip().splitlines()[-1][:200])
        raise AssertionError(r.stderr)
    assert time.monotonic() - t0 < 20
    import importlib

    monkeypatch.syspath_prepend(str(target))
    importlib.invalidate_caches()
    assert [b for b in _json(["bounds", "--setting", "finite"])["bounds"] if b["id"] == "doe2027-thm1"]
    assert [r for r in _json(["algorithms"])["algorithms"] if r["name"] == "Doe-UCB"]


def test_regret_check_a_users_bound_for_a_builtin_algorithm(tmp_path, monkeypatch):
    """A TOML bound naming a built-in algorithm is checked against its simulation inside its assumptions, and gets
    the "outside the assumptions" verdict (not simulated) where one of them fails."""
    toml = tmp_path / "adap.toml"
    toml.write_text('[[bound]]\nid = "my-adap-ub"\ntitle = "AdaP-UCB, a new analysis"\nsource = "Doe 2027, Thm 2"\n'
                    'setting = "finite"\nnotion = "pure"\nkind = "upper-problem-dependent"\nalgorithm = "AdaP-UCB"\n'
                    'nonprivate = "(K - 1)*40*log(T)/Delta_min"\nprivacy_cost = "(K - 1)*30*log(T)/epsilon"\n'
                    'assumptions = ["T >= 2", "epsilon <= 1"]\n')

    def row(eps):
        bound_plugins.reset()
        out = _json(["regret", "--setting", "finite", "--means", "0.9,0.1", "--epsilon", str(eps), "--T", "2000",
                     "--check", "--runs", "10", "--bounds-file", str(toml)])
        return [r for r in out["bounds"] if r["id"] == "my-adap-ub"][0]

    inside = row(1)
    want = 40 * math.log(2000) / 0.8 + 30 * math.log(2000) / 1.0  # the declared formula, K = 2, Δ_min = 0.8
    assert math.isclose(inside["value"], want, rel_tol=1e-12)
    assert "mean" in inside["empirical"] and inside["empirical"]["verdict"] == "held"
    outside = row(2)["empirical"]
    assert outside["verdict"] == "outside the assumptions: assumption epsilon <= 1 fails" and "mean" not in outside
    # mutant: the plugin branch of check_rows dropped -> the row outside its assumptions gets no verdict
    from boundcalc.verify import regret_check

    monkeypatch.setattr(regret_check, "check_rows", _mutate(regret_check.check_rows, 'and (r.get("plugin") or',
                                                            'and False and (r.get("plugin") or'))
    assert "empirical" not in row(2)


def test_bad_entry_point_one_line(monkeypatch):
    """An installed plugin whose entry point does not load: one line naming the entry point, exit 2."""
    import importlib.metadata

    bad = [EntryPoint("broken", "no_such_boundcalc_plugin:ALGORITHMS", "boundcalc.algorithms")]
    monkeypatch.setattr(importlib.metadata, "entry_points",
                        lambda *, group=None, **kw: [e for e in bad if group is None or e.group == group])
    r = runner.invoke(app, ["algorithms", "--json"])
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1, r.output
    assert "plugin entry point broken (no_such_boundcalc_plugin:ALGORITHMS): failed to load" in r.output
    alg_plugins.reset()
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda *, group=None, **kw: [])  # mutant: none installed
    assert runner.invoke(app, ["algorithms", "--json"]).exit_code == 0
