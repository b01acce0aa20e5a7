"""`boundcalc check` and its restricted expression language (boundcalc.verify.expression, the one parser: the
grid and the prover both consume its output; boundcalc.rigorous parses nothing)."""

import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

from boundcalc.cli.app import app
from boundcalc.errors import InputError
from boundcalc.verify import check as ck
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


@pytest.mark.parametrize("text", ["__import__('os')", "x.real", "(lambda: 1)()", "[a for a in x]", "x[0]", "foo(x)",
                                  "open('f')", "x if y else 1", "'a'", "kl(x)", "x +", "", "x <= 1"])
def test_sympy_entry_point_uses_the_same_whitelist(text):
    """to_sympy (what the prover's callers use for text) walks the same whitelist."""
    with pytest.raises(InputError) as ei:
        ex.to_sympy(text)
    assert str(ei.value).startswith("expression must be") and "\n" not in str(ei.value)


def test_one_parser_in_the_package():
    """No second parser: nothing in boundcalc calls sympy's parse_expr / sympify on text or eval, and the prover's
    old parser is gone (the duplicate of issue 10 §2)."""
    import pathlib
    import re

    import boundcalc
    from boundcalc.rigorous import claims as rc

    assert not hasattr(rc, "parse")
    root = pathlib.Path(boundcalc.__file__).parent
    pattern = re.compile(r"parse_expr|(?<![\w.])(eval|exec)\(")
    for f in root.rglob("*.py"):
        for bad in ("code",):
            hits = [ln for ln in f.read_text().splitlines() if pattern.search(ln) and not ln.strip().startswith("#")]
            assert not hits, (f, bad, hits[:3])


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
    r = _run("min(1, x) <= log(1 + x)", "--box", "x=0:3", "--points", "500", "--method", "grid", "--json")
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    lib, _, _ = ex.check("min(1, x) <= log(1 + x)", "x=0:3", 500)
    assert obj["method"] == "grid" and obj["points"] == lib.points == 500 and "boxes" not in obj
    assert obj["verdict"] == lib.finding and obj["verdict"].startswith("counterexample at x=")
    assert obj["counterexample"]["x"] == pytest.approx(lib.counterexample["x"])
    assert float(obj["counterexample"]["margin_50_digits"]) == pytest.approx(math.log(2) - 1, abs=2e-3)
    r = _run("min(1, x) <= 2 * log(1 + x)", "--box", "x=0:3", "--method", "grid", "--json")
    assert json.loads(r.stdout)["verdict"] == "no counterexample on 4096 points"


def test_cli_default_is_a_proof_with_boxes():
    r = _run("d_eps(mu, mu_star, epsilon) <= kl(mu, mu_star)", "--box", "mu=0.01:0.99,mu_star=0.02:1,epsilon=1e-3:10",
             "--json")
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    lib = ck.run("d_eps(mu, mu_star, epsilon) <= kl(mu, mu_star)", "mu=0.01:0.99,mu_star=0.02:1,epsilon=1e-3:10")
    assert obj["method"] == "proof" == lib.method and obj["boxes"] == lib.boxes >= 1 and "points" not in obj
    assert obj["verdict"] == f"proven on the box ({lib.boxes} box{'' if lib.boxes == 1 else 'es'})"
    assert obj["counterexample"] is None
    # a false statement: the proof's counterexample, 50 digits, recomputed here from the definition of d_eps
    r = _run("d_eps(x, y, e) <= e * abs(x - y) / 2", "--box", "x=0.1:0.9,y=0.1:0.9,e=0.01:1", "--json")
    obj = json.loads(r.stdout)
    assert obj["method"] == "proof" and obj["verdict"].startswith("counterexample at x=")
    c = obj["counterexample"]
    assert float(c["margin_50_digits"]) < 0
    assert _d_eps_def(c["x"], c["y"], c["e"]) > c["e"] * abs(c["x"] - c["y"]) / 2 + 1e-9


def test_cli_method_and_max_seconds_reach_the_library(monkeypatch):
    seen = {}
    real = ck.run

    def spy(*a, **k):
        seen.update(k)
        return real(*a, **k)

    monkeypatch.setattr(ck, "run", spy)
    r = _run("kl(x, y) >= 0", "--box", "x=0:1,y=0:1", "--method", "proof", "--max-seconds", "3.5", "--points", "300")
    assert r.exit_code == 0, r.output
    assert seen == {"method": "proof", "points": 300, "max_seconds": 3.5}
    for bad in (["--method", "magic"], ["--max-seconds", "0"], ["--max-seconds", "nan"], ["--max-seconds", "1e4"]):
        r = _run("kl(x, y) >= 0", "--box", "x=0:1,y=0:1", *bad)
        assert r.exit_code == 2, bad


def test_cli_table():
    r = _run("d_eps(x, y, e) <= kl(x, y)", "--box", "x=0.01:0.99,y=0.01:0.99,e=1e-3:10")
    assert r.exit_code == 0, r.output
    assert "proven on the box" in r.stdout and "proof" in r.stdout
    r = _run("d_eps(x, y, e) <= kl(x, y)", "--box", "x=0.01:0.99,y=0.01:0.99,e=1e-3:10", "--method", "grid")
    assert "no counterexample on" in r.stdout and "grid" in r.stdout


# ---------------------------------------------------------------------------------------------------
# the proof path and the grid path on the same parse
def _d_eps_def(x, y, e):
    """d_eps from its definition (seed 001 Eq. 6) by scipy minimisation: independent of both paths."""
    from boundcalc.info import d_epsilon_by_optimisation

    return float(d_epsilon_by_optimisation(x, y, e))


AGREE = [  # (expression, box, true?) — the false ones are deliberately false variants of true ones
    ("d_eps(mu, mu_star, epsilon) <= kl(mu, mu_star)", "mu=0.01:0.99,mu_star=0.02:1,epsilon=1e-3:10", True),
    ("kl(mu, mu_star) <= d_eps(mu, mu_star, epsilon)", "mu=0.01:0.99,mu_star=0.02:1,epsilon=1e-3:10", False),
    ("d_eps(x, y, e) <= e * tv(x, y)", "x=0:1,y=0:1,e=1e-3:10", True),
    ("d_eps(x, y, e) <= e * tv(x, y) / 2", "x=0:1,y=0:1,e=1e-3:10", False),
    ("d_eps(x, y, e) <= e", "x=0.1:0.9,y=0.1:0.9,e=0.1:2", True),
    ("min(1, x) <= log(1 + x)", "x=2:10", True),
    ("min(1, x) <= log(1 + x)", "x=0:3", False),
    ("kl_gauss(a, b) >= 0 and exp(a) > a", "a=-2:2,b=-1:1", True),
    ("kl_gauss(a, b) <= 1", "a=-2:2,b=-1:1", False),
    ('bound("003-thm9", T=T, rho=rho) <= bound("003-thm4-explicit", T=T, rho=rho)', "T=10:1e6,rho=1e-6:1", True),
    ('bound("003-thm9", T=T, rho=rho) <= bound("003-thm9-corrected", T=T, rho=rho)', "T=10:1e6,rho=1e-6:1", False),
    ('bound("001-lai-robbins", T=T) <= bound("001-thm4.3-dp-klucb", T=T, epsilon=e)', "T=10:1e9,e=0.01:10", True),
]


@pytest.mark.parametrize("text,box,true", AGREE, ids=[f"{'true' if t else 'false'}:{e[:40]}" for e, _, t in AGREE])
def test_proof_and_grid_agree(text, box, true):
    proof = ck.run(text, box, method="proof", max_seconds=20)
    grid = ck.run(text, box, method="grid", points=2000)
    assert proof.method == "proof" and grid.method == "grid"
    if true:
        assert proof.word == "proven" and proof.verdict.startswith("proven on the box (") and proof.boxes >= 1
        assert grid.word == "no counterexample" and grid.counterexample is None
    else:
        assert proof.word == grid.word == "counterexample"
        for out in (proof, grid):
            pt = {k: out.counterexample[k] for k in proof.parsed.variables}
            assert float(out.counterexample["margin_50_digits"]) < 0
            assert proof.parsed.margin_np(**{k: np.array(v) for k, v in pt.items()}) < 0  # float recheck


def test_false_bound_pair_counterexample_checked_by_the_registry():
    from boundcalc.bounds import registry
    from boundcalc.privacy import ZCDP

    out = ck.run('bound("003-thm9", T=T, rho=rho) <= bound("003-thm9-corrected", T=T, rho=rho)', "T=10:1e6,rho=1e-6:1",
                 method="proof")
    c = out.counterexample
    ctx = registry.make_context("linear", {}, budget=ZCDP(c["rho"]))
    stated, proved = (float(registry.get(b).evaluate([c["T"]], ctx, ZCDP(c["rho"])).value[0])
                      for b in ("003-thm9", "003-thm9-corrected"))
    assert stated > proved  # ERRATA 16: the stated constant is twice the proved one


def test_undecided_lists_its_boxes_and_runs_the_grid():
    # 2 log(1 + x) - min(1, x) = 0 at x = 0: the natural interval extension never certifies a box touching 0
    out = ck.run("min(1, x) <= 2 * log(1 + x)", "x=0:1", method="auto", max_boxes=300)
    assert out.word == "undecided" and out.method == "proof" and out.n_undecided >= 1
    assert out.verdict == f"undecided on {out.n_undecided} box{'' if out.n_undecided == 1 else 'es'}"
    assert any(b["x"][0] == 0.0 for b in out.undecided)  # the box at the equality point is among those left
    assert all(0.0 <= b["x"][0] <= b["x"][1] <= 1.0 for b in out.undecided)
    assert out.grid is not None and out.grid.points > 0 and any("grid found no counterexample" in n for n in out.notes)
    r = _run("min(1, x) <= 2 * log(1 + x)", "--box", "x=0:1", "--max-seconds", "0.3", "--json")
    obj = json.loads(r.stdout)
    assert obj["method"] == "proof" and obj["verdict"].startswith("undecided on") and obj["undecided"]
    # strict comparison with equality on a region: neither the proof nor rounded arithmetic can decide equality
    # (d_eps = kl in the low-privacy regime; the margin is 0 at 50 digits): undecided, and the grid says why
    out = ck.run("d_eps(x, y, e) < kl(x, y)", "x=0.2:0.8,y=0.1:0.9,e=0.01:10", max_boxes=400)
    assert out.word == "undecided" and out.counterexample is None and out.proof is not None
    assert any("the margin is 0 at 50 digits" in n for n in out.notes)


def test_no_enclosure_falls_back_to_the_grid():
    out = ck.run("laplace_tail(x, m, epsilon) <= laplace_chernoff(x, m, epsilon)", "x=0.1:3,m=1:4,epsilon=0.5:2")
    assert out.method == "grid" and out.word == "no counterexample"
    assert any("laplace_tail() has no interval enclosure" in n for n in out.notes)
    with pytest.raises(InputError, match="method must be grid") as e:  # the library's parameter; the CLI's flag:
        ck.run("laplace_tail(x, m, epsilon) <= 1", "x=0.1:3,m=1:4,epsilon=0.5:2", method="proof")
    from boundcalc.cli.flags import message

    assert message(e.value).startswith("--method must be grid")
    # a bound whose symbols are computed by code (contextual lam0): the grid, with the reason
    out = ck.run('bound("003-thm5-explicit", T=T, rho=rho) >= 0', "T=100:1e4,rho=0.1:1", points=50)
    assert out.method == "grid" and any("lam0" in n for n in out.notes)


def test_integer_parameter_counterexample_only_at_integers():
    """d is an integer (a bound's d=): (d − 1.5)² ≥ 1/4 fails on the real interval (1, 2) but at no integer. The
    proof must not report the non-integer point; rounded it satisfies the statement, so the proof is undecided."""
    text = 'bound("003-thm9", T=T, rho=rho, d=d) >= 0 and (d - 1.5)**2 >= 0.25'
    out = ck.run(text, "T=100:1e4,rho=0.01:1,d=1:2", method="proof", max_boxes=2000)
    assert out.parsed.integers == ("d",)
    assert out.counterexample is None and out.word == "undecided"
    assert ck.run(text, "T=100:1e4,rho=0.01:1,d=1:2", method="grid").word == "no counterexample"  # d in {1, 2}
    out = ck.run('bound("003-thm9", T=T, rho=rho, d=d) >= 0 and (d - 1.5)**2 >= 1', "T=100:1e4,rho=0.01:1,d=1:3",
                 method="proof")  # fails at every integer of the box: the rounded point is a counterexample
    assert out.word == "counterexample" and float(out.counterexample["d"]).is_integer()
