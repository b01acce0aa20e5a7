"""`boundcalc concentration` through typer's CliRunner: table, --json, --digits, --sigma, Monte Carlo, errors."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

from clirun import app, runner


def run(*args):
    return runner.invoke(app, ["concentration", *args])


def js(*args):
    r = run(*args, "--json")
    assert r.exit_code == 0, r.output
    lines = [ln for ln in r.stdout.splitlines() if ln.strip()]
    assert len(lines) == 1
    return json.loads(lines[0])


def test_table_runs():
    r = run("--n", "1000", "--m", "10", "--epsilon", "0.5", "--mu", "0.3", "--x", "0.35")
    assert r.exit_code == 0, r.output
    for word in ("C0", "C2", "C3", "naive", "exact", "d_eps"):
        assert word in r.stdout


def test_json_sheet_case_value_is_c0():
    # sheet 001 §9.9: (n=400, m=9, eps=1, mu=.5, x=.42): exact 1.626e-3, C0 1.324e-2
    o = js("--n", "400", "--m", "9", "--epsilon", "1", "--mu", "0.5", "--x", "0.42")
    assert o["command"] == "concentration" and o["tail"] == "lower"
    assert o["value"] == pytest.approx(1.324e-2, rel=1e-3)
    assert o["value"] == o["bounds"]["C0"] == min(v for k, v in o["bounds"].items() if k != "nonprivate_chernoff")
    assert o["exact"]["value"] == pytest.approx(1.626e-3, rel=1e-3)
    assert o["exponent"]["d_eps"] == pytest.approx(o["exponent"]["kl"])  # eps >= logit(.5) - logit(.42): low privacy
    assert o["inputs"]["n"] == 400
    # second sheet case, high-privacy regime: exact 2.333e-4, C0 2.618e-3, d_eps < kl
    o = js("--n", "1000", "--m", "10", "--epsilon", "0.2", "--mu", "0.6", "--x", "0.5")
    assert o["value"] == pytest.approx(2.618e-3, rel=1e-3)
    assert o["exact"]["value"] == pytest.approx(2.333e-4, rel=1e-3)
    assert o["exponent"]["d_eps"] < o["exponent"]["kl"]


def test_upper_tail_and_counts_in_scientific_notation():
    o = js("--n", "1e3", "--m", "1e1", "--epsilon", "0.5", "--mu", "0.3", "--x", "0.35")
    assert o["tail"] == "upper" and o["inputs"]["n"] == 1000 and o["inputs"]["m"] == 10
    assert o["exact"]["value"] <= o["value"] <= 1


def test_large_n_json_is_finite():
    o = js("--n", "1e15", "--m", "10", "--epsilon", "0.5", "--mu", "0.3", "--x", "0.29")
    assert o["exact"] is None
    assert math.isfinite(o["log_value"]) and o["log_value"] < -1e9


def test_digits_matches_float_c2():
    o = js("--n", "200", "--m", "2", "--epsilon", "0.5", "--mu", "0.7", "--x", "0.5", "--digits", "40")
    assert isinstance(o["C2_mp"]["value"], str)
    assert float(o["C2_mp"]["value"]) == pytest.approx(o["bounds"]["C2"], rel=1e-10)
    assert len(o["C2_mp"]["log"].replace("-", "").replace(".", "")) >= 30


def test_gaussian_noise():
    o = js("--n", "400", "--m", "9", "--sigma", "2", "--mu", "0.5", "--x", "0.42")
    assert o["main"] == "gaussian_chernoff"
    assert o["exact"]["value"] <= o["value"] < 1


def test_monte_carlo_json_and_cp():
    o = js("--n", "200", "--m", "2", "--epsilon", "0.5", "--mu", "0.6", "--x", "0.5", "--mc-runs", "20000", "--seed", "3")
    mc = o["monte_carlo"]
    assert mc["runs"] == 20000 and mc["cp_lower"] <= mc["frequency"] <= mc["cp_upper"]
    assert mc["cp_lower"] <= o["exact"]["value"] <= mc["cp_upper"]
    assert o["value"] >= mc["cp_lower"]
    o2 = js("--n", "200", "--m", "2", "--epsilon", "0.5", "--mu", "0.6", "--x", "0.5", "--mc-runs", "20000", "--seed", "3")
    assert o2["monte_carlo"] == mc


@pytest.mark.parametrize("args,param", [
    (["--n", "0", "--m", "1", "--epsilon", "1", "--mu", ".5", "--x", ".4"], "--n"),
    (["--n", "2.5", "--m", "1", "--epsilon", "1", "--mu", ".5", "--x", ".4"], "--n"),
    (["--n", "10", "--m", "0", "--epsilon", "1", "--mu", ".5", "--x", ".4"], "--m"),
    (["--n", "10", "--m", "1", "--epsilon", "0", "--mu", ".5", "--x", ".4"], "--epsilon"),
    (["--n", "10", "--m", "1", "--epsilon", "1", "--mu", "1.5", "--x", ".4"], "--mu"),
    (["--n", "10", "--m", "1", "--epsilon", "1", "--mu", ".5", "--x", "-1"], "--x"),
    (["--n", "10", "--m", "1", "--mu", ".5", "--x", ".4"], "--epsilon"),
    (["--n", "10", "--m", "1", "--sigma", "-2", "--mu", ".5", "--x", ".4"], "--sigma"),
    (["--n", "10", "--m", "1", "--epsilon", "1", "--mu", ".5", "--x", ".4", "--digits", "0"], "--digits"),
    (["--n", "10", "--m", "1", "--epsilon", "1", "--mu", ".5", "--x", ".4", "--mc-runs", "abc"], "--mc-runs"),
])
def test_bad_input_exit_2_one_line(args, param):
    r = run(*args)
    assert r.exit_code == 2, r.output
    err = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(err) == 1 and err[0].startswith("boundcalc: error:") and param in err[0], r.stderr
    assert r.stdout.strip() == ""


def test_cli_module_imports_are_light():
    import ast
    import pathlib

    import boundcalc.cli.concentration_cmd as mod

    tree = ast.parse(pathlib.Path(mod.__file__).read_text())
    top = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    names = {a.name.split(".")[0] for n in top if isinstance(n, ast.Import) for a in n.names}
    names |= {(n.module or "").split(".")[0] for n in top if isinstance(n, ast.ImportFrom) and n.level == 0}
    assert names <= {"__future__", "time", "typing", "typer", "rich", "json", "math", "sys"}


def test_monte_carlo_blocked_path_in_table_mode():
    # more runs than one block: the table mode times a first block then continues (progress bar if slow)
    r = run("--n", "50", "--m", "2", "--epsilon", "1", "--mu", "0.5", "--x", "0.4", "--mc-runs", "250000", "--seed", "1")
    assert r.exit_code == 0, r.output
    assert "/250000" in r.stdout


def test_symbolic_shows_formulas_and_c2_expression_matches_numeric():
    import sympy

    from boundcalc import concentration as conc
    from boundcalc.cli.concentration_cmd import _formulas

    r = runner.invoke(app, ["concentration", "--n", "1000", "--m", "10", "--epsilon", "0.5", "--mu", "0.3",
                            "--x", "0.25", "--symbolic"])
    assert r.exit_code == 0, r.output
    assert "LaTeX" in r.stdout and "C2" in r.stdout
    expr = _formulas(False)[1][1]
    for n, m, eps, mu, x in [(5000, 3, 0.5, 0.5, 0.4), (20000, 5, 1.0, 0.3, 0.25), (2000, 2, 1.0, 0.7, 0.5)]:
        subs = {sympy.Symbol(k, positive=True): v for k, v in dict(n=n, m=m, epsilon=eps, mu=mu, x=x).items()}
        got = float(expr.subs(subs).evalf(30))
        ref = conc.private_tail_c2(n, m, eps, mu, x, "lower")
        assert ref.value < 1
        assert abs(got - float(ref.value)) <= 1e-10 * float(ref.value)
