"""`boundcalc check` and its restricted expression language (boundcalc.verify.expression)."""

import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

from boundcalc.cli.app import app
from boundcalc.errors import InputError
from boundcalc.verify import expression as ex


def _run(*args):
    return CliRunner().invoke(app, ["check", *args])


# ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "__import__('os')",
    "__import__('os').system('true') <= 1",
    "x.real <= 1",
    "(lambda: 1)() <= 2",
    "(lambda q: q)(x) <= 2",
    "[a for a in x] <= 1",
    "sum(a for a in x) <= 1",
    "{a: 1 for a in x} <= 1",
    "x[0] <= 1",
    "foo(x) <= 1",
    "open('f') <= 1",
    "eval('1') <= 1",
    "kl(x, y) <= __builtins__",
    "x <= y or x",
    "x is y",
    "x % 2 <= 1",
    "x if y else 1 <= 2",
    "kl(x) <= 1",
    "kl <= 1",
    "'a' <= 1",
    "x",
    "bound(x, T=1) <= 1",
    "bound('003-thm9') <= 1",
    "x +",
    "",
])
def test_parser_rejects_everything_outside_the_whitelist(text):
    with pytest.raises(InputError) as ei:
        ex.parse(text)
    msg = str(ei.value)
    assert msg.startswith("expression must be") and "\n" not in msg


@pytest.mark.parametrize("text", ["__import__('os')", "x.real <= 1", "(lambda: 1)() <= 2", "[a for a in x] <= 1",
                                  "nope(x) <= 1", "y <= z"])
def test_cli_rejects_with_one_line_exit_2(text):
    r = _run(text, "--box", "x=0:1")
    assert r.exit_code == 2
    out = (r.stderr if hasattr(r, "stderr") else r.output).strip()
    assert len(out.splitlines()) == 1 and out.startswith("boundcalc: error:")


def test_parsing_never_runs_python(tmp_path, monkeypatch):
    """A payload that would have a side effect if evaluated is rejected, and the side effect does not happen."""
    marker = tmp_path / "pwned"
    monkeypatch.chdir(tmp_path)
    for text in (f"__import__('pathlib').Path('{marker}').touch() <= 1", f"open('{marker}', 'w') <= 1"):
        with pytest.raises(InputError):
            ex.parse(text)
    assert not marker.exists()


@pytest.mark.parametrize("box", ["x=0:1,q=0:1", "x=2:1", "x=0:1:2", "x=inf:1"])
def test_box_errors(box):
    r = _run("x <= 2", "--box", box)
    assert r.exit_code == 2


def test_box_must_cover_every_parameter():
    with pytest.raises(InputError, match="missing: y"):
        ex.check("x <= y", "x=0:1")
    with pytest.raises(InputError):
        ex.check("x <= y", None)


# ---------------------------------------------------------------------------------------------------
def test_the_two_evaluators_agree():
    """The numpy (grid) and mpmath (re-check) evaluators built from one tree give the same margin."""
    p = ex.parse("d_eps(x, y, e) <= e * abs(x - y) and kl(x, y) >= d_eps(x, y, e) - 1e-300 + 0 * sqrt(e)")
    rng = np.random.default_rng(1)
    import mpmath

    for x, y, e in zip(rng.uniform(0.01, 0.99, 50), rng.uniform(0.01, 0.99, 50), 10 ** rng.uniform(-3, 1, 50)):
        m_np = float(p.margin_np(x=np.array(x), y=np.array(y), e=np.array(e)))
        with mpmath.workdps(50):
            m_mp = p.margin_mp(x=mpmath.mpf(x), y=mpmath.mpf(y), e=mpmath.mpf(e))
        assert m_np == pytest.approx(float(m_mp), abs=1e-12)


def test_known_true_and_known_false_inequalities():
    r, _, _ = ex.check("d_eps(mu, mu_star, epsilon) <= kl(mu, mu_star)", "mu=0.01:0.99,mu_star=0.02:1,epsilon=1e-3:10")
    assert r.verdict == "no counterexample" and r.finding.startswith("no counterexample on")
    # deliberately false: d_eps is not below eps*|x - y|/2 (kept as the mutant of the sandwich)
    r, _, _ = ex.check("d_eps(x, y, e) <= e * abs(x - y) / 2", "x=0.1:0.9,y=0.1:0.9,e=0.01:1")
    assert r.counterexample is not None and float(r.counterexample["margin_50_digits"]) < 0
    # strict comparison: equality is a violation (d_eps = kl once epsilon passes the threshold)
    r, _, _ = ex.check("d_eps(x, y, e) < kl(x, y)", "x=0.2:0.8,y=0.1:0.9,e=0.01:10")
    assert r.counterexample is not None
    # a box where the false statement is true, and a box where the true one fails
    assert ex.check("min(1, x) <= log(1 + x)", "x=2:10")[0].counterexample is None
    assert ex.check("min(1, x) <= log(1 + x)", "x=0:3")[0].counterexample is not None


def test_bound_call_equals_the_registry():
    from boundcalc.bounds import registry
    from boundcalc.privacy import ZCDP

    p = ex.parse('bound("003-thm9", T=T, rho=rho) <= 1e300')
    T, rho = np.array([1e3, 1e6, 1e9]), np.array([1e-6, 0.1, 1.0])
    got = ex._bound_values("003-thm9", {"T": T, "rho": rho})
    ctx = registry.make_context("linear", {})
    want = [float(registry.get("003-thm9").evaluate([t], ctx, ZCDP(r)).value[0]) for t, r in zip(T, rho)]
    assert np.allclose(got, want, rtol=1e-12)
    import mpmath

    with mpmath.workdps(50):
        v = ex._bound_mp("003-thm9", {"T": mpmath.mpf(1e6), "rho": mpmath.mpf(0.1)})
    assert float(v) == pytest.approx(want[1], rel=1e-12)
    assert p.bounds == ("003-thm9",)
    r, _, _ = ex.check('bound("003-thm9", T=T, rho=rho) <= bound("003-thm9-corrected", T=T, rho=rho)',
                       "T=10:1e6,rho=1e-6:1")
    assert r.counterexample is not None  # the stated form is twice the proved one in the high-privacy regime


def test_bound_context_keywords_and_integer_parameters():
    p = ex.parse('bound("003-thm17", T=T, rho=rho, K=K) <= bound("003-thm11-explicit", T=T, rho=rho, K=K)')
    assert p.integers == ("K",)
    r, _, dom = ex.check(p.text, "T=10:1e6,rho=1e-3:1,K=2:50", 500)
    assert r.counterexample is None
    assert np.all(dom.axis("K", 9) == np.round(dom.axis("K", 9)))
    assert ex.parse("laplace_tail(x, m, epsilon) <= 1").integers == ("m",)


def test_cli_json_and_points_option_reach_the_library():
    r = _run("min(1, x) <= log(1 + x)", "--box", "x=0:3", "--points", "500", "--json")
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    lib, _, _ = ex.check("min(1, x) <= log(1 + x)", "x=0:3", 500)
    assert obj["method"] == "grid" and obj["points"] == lib.points == 500
    assert obj["verdict"] == lib.finding and obj["verdict"].startswith("counterexample at x=")
    assert obj["counterexample"]["x"] == pytest.approx(lib.counterexample["x"])
    assert float(obj["counterexample"]["margin_50_digits"]) == pytest.approx(math.log(2) - 1, abs=2e-3)
    r = _run("min(1, x) <= 2 * log(1 + x)", "--box", "x=0:3", "--json")
    assert json.loads(r.stdout)["verdict"] == "no counterexample on 4096 points"


def test_cli_table():
    r = _run("d_eps(x, y, e) <= kl(x, y)", "--box", "x=0.01:0.99,y=0.01:0.99,e=1e-3:10")
    assert r.exit_code == 0, r.output
    assert "no counterexample on" in r.stdout and "grid" in r.stdout


def test_function_domain_errors_are_one_line():
    r = _run("kl(x, y) <= 10", "--box", "x=0:2,y=0.5")
    assert r.exit_code == 2
    assert "kl() argument" in (r.stderr if hasattr(r, "stderr") else r.output)
