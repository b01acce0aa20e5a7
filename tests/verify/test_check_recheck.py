"""`boundcalc check`'s 50-digit re-check, counterexample points, and bound calls at the edges (issue 22 §2 D3, D5;
issue 24 item 5).

Every expected verdict is decided independently here (``fractions.Fraction`` on the decimal texts, the bound's own
declared assumption), not read off the code's output; each test keeps the one-line mutant it kills
(``mutate`` of tests/mutation.py).
"""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from typer.testing import CliRunner

from boundcalc.cli.app import app
from boundcalc.verify import check as ck
from boundcalc.verify import expression as ex

from mutation import mutate

runner = CliRunner()


# ---------------------------------------------------------------------------------------------------------------------
# D3: literals as written, box ends as written, counterexamples printed exactly
# ---------------------------------------------------------------------------------------------------------------------
def test_folded_constant_is_rechecked_exactly(monkeypatch):
    """x <= 0.3 - 0.2 on x in [0, 0.09999999999999999]: true (0.09999999999999999 < 1/10 as rationals), though the
    double 0.3 - 0.2 = 0.09999999999999998 lies below the box's end. Mutant: the folded constant's 50-digit value
    taken from its float fold (the old behaviour) -> a counterexample."""
    assert Fraction("0.09999999999999999") <= Fraction("0.3") - Fraction("0.2")
    out = ck.run("x <= 0.3 - 0.2", "x=0:0.09999999999999999", method="grid")
    assert out.word == "no counterexample" and out.grid.fails == 1 and out.grid.holds_50 == 1
    bad = mutate(ex._Builder.expr, "_mp_of_exact(exact, cv)", "(lambda env: _mpf(cv))")
    monkeypatch.setattr(ex._Builder, "expr", bad)
    assert ck.run("x <= 0.3 - 0.2", "x=0:0.09999999999999999", method="grid").word != "counterexample"
    # the witness confirmation (check.confirm_witness, a second, independent layer) switched off: the mutant is of the first
    monkeypatch.setattr(ck, "confirm_witness", lambda p, dom, pt: ck.Witness("fails", "mutant: not confirmed"))
    assert ck.run("x <= 0.3 - 0.2", "x=0:0.09999999999999999", method="grid").word == "counterexample"


def test_conjunction_with_a_folded_constant_is_not_refuted():
    """The issue's second command (default method): the proof is undecided on the AM-GM part at y = z, and the grid
    must not turn the float noise of 0.3 - 0.2 into a counterexample."""
    out = ck.run("x <= 0.3 - 0.2 and sqrt(y*z) <= (y + z)/2", "x=0:0.09999999999999999,y=0:1,z=0:1",
                 max_seconds=1.0)
    assert out.word != "counterexample" and out.counterexample is None


def test_literal_with_many_digits_is_not_its_double(monkeypatch):
    """x + 0.1 == x + 0.1000000000000000000001: the sides differ by 1e-22 exactly, so the exact equality fails (within
    the relative tolerance 1e-9 it holds); the old re-check read both literals as the double 0.1 and said "agree to
    1e-40". Mutant: the literal's mpmath value from its double."""
    diff = Fraction("0.1000000000000000000001") - Fraction("0.1")
    assert diff == Fraction(1, 10**22)
    out = ck.run("x + 0.1 == x + 0.1000000000000000000001", "x=0:1")
    assert out.word == "counterexample"
    rel = float(out.counterexample["difference_50_digits"])
    x = Fraction(out.counterexample["x"])
    assert rel == pytest.approx(float(diff / (x + Fraction("0.1000000000000000000001"))), rel=1e-6)
    assert "0.1000000000000000000001" in out.parsed.sympy_text  # displayed as written, not as 0.1
    bad = mutate(ex._Builder.expr, "_mp_literal(src, lit)", "_mpf(v)")
    monkeypatch.setattr(ex._Builder, "expr", bad)
    assert ck.run("x + 0.1 == x + 0.1000000000000000000001", "x=0:1").word != "counterexample"


def test_box_end_is_read_as_written(monkeypatch):
    """x <= 0.1 on --box x=0:0.1 holds (the box ends at 1/10 as written; the double 0.1 is above 1/10). Mutant: the
    re-check reads the end as its double -> a counterexample at x = 0.1."""
    assert Fraction("0.1") <= Fraction("0.1") and Fraction(0.1) > Fraction("0.1")
    assert ck.run("x <= 0.1", "x=0:0.1", method="grid").word == "no counterexample"
    bad = mutate(ck.mp_point, 'v = mpmath.mpf(t.replace("_", ""))', "v = mpmath.mpf(x)")
    monkeypatch.setattr(ck, "mp_point", bad)
    assert ck.run("x <= 0.1", "x=0:0.1", method="grid").word != "counterexample"
    # the witness confirmation (check.confirm_witness, a second, independent layer) switched off: the mutant is of the first
    monkeypatch.setattr(ck, "confirm_witness", lambda p, dom, pt: ck.Witness("fails", "mutant: not confirmed"))
    assert ck.run("x <= 0.1", "x=0:0.1", method="grid").word == "counterexample"


@pytest.mark.parametrize("method", ["grid", "auto"])
def test_counterexample_printed_exactly(method, monkeypatch):
    """x <= 0.3 - 0.2 on x in [0, 0.10000000000000002]: false at the box's end (0.10000000000000002 > 1/10); the
    verdict names that point with digits that read back as it (not "x=0.1", which satisfies the statement), in the
    text as in the JSON. Mutant: the point printed with 6 significant digits."""
    box = "x=0:0.10000000000000002"
    assert Fraction("0.10000000000000002") > Fraction(1, 10)
    out = ck.run("x <= 0.3 - 0.2", box, method=method)
    assert out.word == "counterexample"
    assert out.verdict.startswith("counterexample at x=0.10000000000000002")
    assert out.counterexample["x"] == 0.10000000000000002
    r = runner.invoke(app, ["check", "x <= 0.3 - 0.2", "--box", box, "--method", "grid"],
                      env={"COLUMNS": "200"})
    assert r.exit_code == 0 and "x=0.10000000000000002" in r.output and "x=0:0.10000000000000002" in r.output
    bad = mutate(ck._fmt_cex, "exact_number(v)", "format(v, '.6g')")
    monkeypatch.setattr(ck, "_fmt_cex", bad)
    assert "x=0.10000000000000002" not in ck.run("x <= 0.3 - 0.2", box, method=method).verdict


def test_exact_number_reads_back():
    for v in (0.1, 0.10000000000000002, 1e-8, 3.0, 1e308, 2.5e-320, 0.09999999999999999):
        assert float(ck.exact_number(v)) == v
    assert ck.exact_number(0.1) == "0.1" and ck.exact_number(1e-8) == "1e-08"  # the short form where exact


# ---------------------------------------------------------------------------------------------------------------------
# D4: a claim's parameters carry their assumptions; a box outside them is refused, never "holds" or "violated"
# ---------------------------------------------------------------------------------------------------------------------
LU = "003-lower-le-upper-finite"


def _verify(*args):
    return runner.invoke(app, ["verify", *args])


@pytest.mark.parametrize("box, option", [
    ("K=2:10,T=1:2,rho=1e-8:1,beta=3.001:10", "--box T"),  # the claim is for T >= 3
    ("K=2:10,T=3:20,rho=1e-8:1,beta=1:3", "--box beta"),  # Thm 11 needs beta > 3
    ("K=2:10,T=3:20,rho=1e-8:2,beta=3.001:10", "--box rho"),  # Thm 17 needs rho <= 1
    ("K=2:10,T=3:20,rho=1e-8:1,beta=3.001:10", "T >= K - 1"),  # Thm 17 needs T >= K - 1 (K = 10, T = 3 fails it)
])
def test_claim_box_outside_its_assumptions_is_refused(box, option):
    r = _verify("--claim", LU, "--box", box)
    assert r.exit_code == 2, r.output
    line = r.output.strip()
    assert "\n" not in line and option in line and "Traceback" not in r.output


def test_linear_claim_refuses_small_horizons():
    """003-lower-le-upper-linear: Thm 9 holds for rho > 1 only when T >= 3 (its condition 'rho <= 1 or T >= 3'), and
    the claim runs rho to 1e3: T below 3 is refused."""
    r = _verify("--claim", "003-lower-le-upper-linear", "--box", "T=1:2")
    assert r.exit_code == 2 and "--box T" in r.output and ">= 3" in r.output


def test_claim_assumptions_are_the_theorems():
    """The ranges as the seed states them (seed 003 Thm 17: K > 1, T >= K - 1, 0 < rho <= 1; Thm 11: beta > 3; the
    claim: T >= 3), and the default box inside all of them (so the default verdict is about the theorems)."""
    from boundcalc.verify import claims as C

    c = C.CLAIMS[LU]
    p = {q.name: q for q in c.params}
    assert p["rho"].admits(1.0) and not p["rho"].admits(1.0 + 1e-12) and not p["rho"].admits(0.0)
    assert p["beta"].admits(3.001) and not p["beta"].admits(3.0)
    assert p["T"].admits(3.0) and not p["T"].admits(2.999)
    (k_lo, k_hi), (t_lo, t_hi) = p["K"].default, p["T"].default
    assert k_lo >= 2 and t_lo >= k_hi - 1 and t_lo >= 3 and p["rho"].default[1] <= 1 and p["beta"].default[0] > 3
    texts = [t for t, _ in C.registry.assumption_relations(c)]
    assert "T >= K - 1 (003-thm17)" in texts and "rho <= 1 (003-thm17)" in texts


def test_refusal_mutant_is_caught(monkeypatch):
    """Mutant: the relation check never refuses (``if not ok`` -> ``if False``): the box K = 2..10, T = 3..20 (partly
    outside T >= K - 1) is then evaluated and gets a verdict."""
    from boundcalc.verify.claims import registry

    box = "K=2:10,T=3:20,rho=1e-8:1,beta=3.001:10"
    with pytest.raises(Exception, match="T >= K - 1"):
        registry.evaluate(LU, box)
    monkeypatch.setattr(registry, "check_assumptions", mutate(registry.check_assumptions, "if not ok:", "if False:"))
    assert registry.evaluate(LU, box).verdict in ("holds", "statement violated", "no counterexample")


def test_registered_pairs_carry_the_bounds_assumptions(monkeypatch):
    """Every built-in pair claim's default box lies inside the assumptions of both bounds (their requires, read by
    rigorous.bound_calls.assumption_relations); the Thm 17 pair lists rho <= 1. Mutant: the pair registered without
    the bounds' assumptions -> nothing listed."""
    from boundcalc.verify import claims as C
    from boundcalc.verify.claims import pairs

    for cid in pairs.PAIR_CLAIMS:
        c = C.CLAIMS[cid]
        C.registry.check_assumptions(c, c.domain())  # raises if a default box leaves an assumption
    cid = "003-thm11-explicit-ge-003-thm17"
    assert "rho <= 1 (003-thm17)" in C.get(cid).metadata()["assumptions"]
    bad = mutate(pairs._register, "assumptions_of = () if plugin else", "assumptions_of = () if True else")
    saved = C.CLAIMS.pop(cid), C.registry.CLAIM_PAPERS.pop(cid)
    try:
        from boundcalc.bounds import registry as br

        bad(br.get("003-thm17"), br.get("003-thm11-explicit"))
        assert "assumptions" not in C.get(cid).metadata()
    finally:
        C.CLAIMS[cid], C.registry.CLAIM_PAPERS[cid] = saved


# ---------------------------------------------------------------------------------------------------------------------
# D5: a user's bound with a confidence delta and "T >= 2"; keywords as the bound declares them
# ---------------------------------------------------------------------------------------------------------------------
MINE = dict(id="mine", title="a zCDP linear upper bound with a confidence delta", source="this test file",
            setting="linear", notion="zcdp", kind="upper-minimax", nonprivate="3*sqrt(d*T*log(T/delta))",
            privacy_cost="d*log(T)/sqrt(rho)", assumptions=["rho > 0", "T >= 2"])
D5 = 'bound("mine", T=T, rho=rho, delta=0.001) >= bound("003-thm9", T=T, rho=rho)'
D5_BOX = "rho=1e-8:1,T=1:1e9"


@pytest.fixture
def mine():
    from boundcalc.bounds import plugins, registry
    from boundcalc.bounds.declared import DeclaredBound

    plugins.reset()
    registry.add_plugin_bounds([DeclaredBound(origin="test", **MINE)], "test")
    yield
    plugins.reset()


def _mine(T, rho, delta, d=3):
    import math

    return 3 * math.sqrt(d * T * math.log(T / delta)) + d * math.log(T) / math.sqrt(rho)


def _thm9(T, rho, d=3):  # seed 003 Thm 9 as printed
    import math

    return max(math.exp(-2) / 8 * d * math.sqrt(T), math.exp(-2.25) / 4 * d / math.sqrt(rho))


def test_delta_keyword_keeps_the_proof(mine, monkeypatch):
    """delta= of a zCDP linear bound is its confidence δ (the bound's own symbol), so the prover stays on; the
    statement is false at T = 1 (outside 'T >= 2') and true where the assumption holds, which is the verdict.
    Mutant: delta= always read as a budget keyword -> no proof."""
    from boundcalc.rigorous import bound_calls

    assert _mine(1, 1e-8, 1e-3) < _thm9(1, 1e-8)  # a "counterexample" there, outside the bound's assumption
    assert _mine(2, 1e-8, 1e-3) >= _thm9(2, 1e-8)
    out = ck.run(D5, D5_BOX, max_seconds=5)
    assert out.method == "proof" and out.counterexample is None
    assert out.word == "proven where the assumptions hold"
    assert [g.assumption for g in out.assumption_gaps] == ["T >= 2"]
    monkeypatch.setattr(bound_calls, "confidence_delta",
                        mutate(bound_calls.confidence_delta, 'if "delta" not in k or "epsilon" in k:', "if True:"))
    from boundcalc.errors import InputError

    try:  # delta= read as a budget's δ: the call is refused (no epsilon=), or at best sampled on a grid
        got = ck.run(D5, D5_BOX, points=400, max_seconds=5).method
    except InputError:
        got = "refused"
    assert got != "proof"


def test_delta_keyword_reaches_the_bound(mine):
    """The call's delta is the value in the bound's expression, on every route: the enclosure of the prover, the
    registry's float code of the grid and the 50-digit value of the re-check (recomputed here from the declared
    formula, which differs at the default delta 1e-3)."""
    import mpmath

    from boundcalc.rigorous.bound_calls import bound_call
    from boundcalc.intervals.interval import Interval

    T, rho, delta = 1e4, 0.25, 1e-6
    want, default = _mine(T, rho, delta), _mine(T, rho, 1e-3)
    assert abs(want / default - 1) > 1e-3
    c = bound_call("mine", ("T", "delta", "rho"))
    iv = c.interval(Interval(T), Interval(delta), Interval(rho))
    assert iv.lo <= want <= iv.hi and not iv.lo <= default <= iv.hi
    v = ex._bound_values("mine", {"T": np.array([T]), "rho": np.array(rho), "delta": np.array(delta)})[0]
    assert v == pytest.approx(want, rel=1e-12)
    with mpmath.workdps(50):
        m = ex._bound_mp("mine", {"T": mpmath.mpf(T), "rho": mpmath.mpf(rho), "delta": mpmath.mpf("1e-6")})
        exact = 3 * mpmath.sqrt(3 * T * mpmath.log(T / mpmath.mpf("1e-6"))) + 3 * mpmath.log(T) / mpmath.sqrt(rho)
        assert abs(m - exact) <= mpmath.mpf(10) ** -40 * exact  # delta as written, not its double
    out = ck.run('bound("mine", T=T, rho=rho, delta=delta) <= 0.99*(3*sqrt(3*T*log(T/delta)) + 3*log(T)/sqrt(rho))',
                 "T=2:1e6,rho=0.01:1,delta=1e-6:0.1", max_seconds=5)
    assert out.method == "proof" and out.word == "counterexample"


def test_grid_never_reports_a_point_outside_the_assumptions(mine, monkeypatch):
    """--method grid: T < 2 is outside 'T >= 2'; those points are not evaluated (NaN) in float nor at 50 digits.
    Mutant: the 50-digit value ignores the horizon's assumptions -> the re-check of the undefined float points
    turns T = 1 into a counterexample."""
    from boundcalc.verify import functions

    out = ck.run(D5, D5_BOX, method="grid", points=400, max_seconds=5)
    assert out.word != "counterexample" and out.grid.undefined > 0
    bad = mutate(functions._bound_mp, 'if b.conditions(ctx) or ("T" in vals and b.conditions(_at_T(ctx, float(vals["T"])))):',
                 "if b.conditions(ctx):")
    monkeypatch.setattr(ex, "_bound_mp", bad)
    out = ck.run(D5, D5_BOX, method="grid", points=400, max_seconds=5)
    assert out.word == "counterexample" and out.counterexample["T"] < 2


# ---------------------------------------------------------------------------------------------------------------------
# issue 24 item 5: defaults said; K in the box takes verify's route
# ---------------------------------------------------------------------------------------------------------------------
def test_defaults_are_said(monkeypatch):
    """A call without K / d takes the linear default instance's (K = 10 actions in R^3, docs: seed 003 Sec. VII):
    the outcome lists them (JSON 'defaults', a note). Mutant: nothing reported."""
    from boundcalc.rigorous import bound_calls

    text = 'bound("003-thm4-explicit", T=T, rho=rho) >= bound("003-thm9", T=T, rho=rho, d=d)'
    out = ck.run(text, "T=1e3:1e9,rho=1e-4:1,d=3", max_seconds=5)
    assert out.defaults == {'bound("003-thm4-explicit", T=T, rho=rho)': {"K": 10, "d": 3}}
    assert any("K = 10" in n for n in out.notes)
    r = runner.invoke(app, ["check", text, "--box", "T=1e3:1e9,rho=1e-4:1,d=3", "--json"])
    assert json.loads(r.stdout)["defaults"] == {'bound("003-thm4-explicit", T=T, rho=rho)': {"K": 10, "d": 3}}
    monkeypatch.setattr(bound_calls, "defaulted_values", mutate(
        bound_calls.defaulted_values, 'if n == "T" or n in given or n in budget_syms:', "if True:"))
    assert ck.run(text, "T=1e3:1e9,rho=1e-4:1,d=3", max_seconds=5).defaults == {}


def test_K_in_the_box_takes_verify_route(monkeypatch):
    """K up to 1e6 and d up to 50 (K·d beyond the 1e7 entries an instance may have): proven as verify proves the
    pair 003-thm4-explicit-ge-003-thm9 (the same pair_claim over the same box), and no large instance is built (a
    spy on the linear instance's derive refuses any K·d above 1e4). Mutant: the route never taken -> the usual
    route builds K×d instances on its validation grid."""
    from boundcalc.bounds import linear
    from boundcalc.rigorous import bound_pairs as bp

    real = linear.derive

    class Built(Exception):
        pass

    def spy(params):
        if int(params.get("K") or 10) * int(params.get("d") or 3) > 10**4:
            raise Built(f"K = {params.get('K')}, d = {params.get('d')}")
        return real(params)

    monkeypatch.setattr(linear, "derive", spy)
    text = 'bound("003-thm4-explicit", T=T, rho=rho, K=K, d=d) >= bound("003-thm9", T=T, rho=rho, d=d)'
    box = "T=1e3:1e9,rho=1e-8:1,K=2:1e6,d=1:50"
    out = ck.run(text, box, max_seconds=10)
    assert out.method == "proof" and out.word == "proven"
    ref = bp.prove_pair("003-thm9", "003-thm4-explicit", {"T": (1e3, 1e9), "rho": (1e-8, 1.0), "K": (2.0, 1e6),
                                                          "d": (1.0, 50.0)}, max_seconds=10)
    assert ref.proven
    monkeypatch.setattr(ck, "_pair_route", mutate(ck._pair_route, "if len(calls) != 2 or gaps:", "if True:"))
    with pytest.raises(Built):
        ck.run(text, box, max_seconds=10)


def test_route_counterexample_is_inside_the_instance_assumptions():
    """The reversed pair (Thm 9 above the Thm 4 bound) is false; the counterexample names a point where the instance
    built there meets Assumption 1 and rank >= d (K >= d), and where the two bounds, as the registry computes them,
    compare as the verdict says (Thm 9's value below the upper bound's: ">=" fails)."""
    from boundcalc.bounds import registry
    from boundcalc.privacy import ZCDP

    text = 'bound("003-thm9", T=T, rho=rho, d=d) >= bound("003-thm4-explicit", T=T, rho=rho, K=K, d=d)'
    out = ck.run(text, "T=1e3:1e9,rho=1e-8:1,K=2:100,d=1:5", max_seconds=5)
    assert out.word == "counterexample"
    pt = out.counterexample
    K, d = int(pt["K"]), int(pt["d"])
    assert K >= d
    ctx = registry.make_context("linear", {"K": K, "d": d})
    up = registry.get("003-thm4-explicit")
    lo = registry.get("003-thm9")
    assert not up.conditions(ctx)
    b = ZCDP(pt["rho"])
    assert float(lo.evaluate([pt["T"]], ctx, b).value[0]) < float(up.evaluate([pt["T"]], ctx, b).value[0])


def test_grid_claim_entirely_outside_its_assumptions(monkeypatch):
    """003-thm17-constant on K = 100..1000, T = 1..10: T < K - 1 everywhere (Thm 17 needs T >= K - 1), so no point is
    checked; the verdict says so instead of "no counterexample on 0 points". Mutant: the empty grid not caught."""
    from boundcalc.verify.claims import evaluators, registry

    assert 10 < 100 - 1
    v = registry.evaluate("003-thm17-constant", "K=100:1000,T=1:10")
    assert v.verdict == "not checkable numerically" and "outside the assumptions" in v.finding and v.held is None
    monkeypatch.setattr(evaluators.Inequality, "evaluate",
                        mutate(evaluators.Inequality.evaluate, "if n == 0:", "if False:"))
    assert registry.evaluate("003-thm17-constant", "K=100:1000,T=1:10").verdict == "no counterexample"


def test_delta_keyword_a_bound_does_not_declare_is_refused(monkeypatch):
    """delta= for a finite zCDP bound (no confidence δ, no (ε, δ) budget) was silently dropped (and the proof switched
    off): now a one-line error naming it, exit 2. Mutant: the refusal removed -> exit 0."""
    from boundcalc.verify import functions

    args = ["check", 'bound("003-thm17", T=T, rho=rho, delta=0.1) >= 0', "--box", "T=10:100,rho=0.1:1", "--points", "200"]
    r = runner.invoke(app, args)
    assert r.exit_code == 2 and "delta" in r.output and "\n" not in r.output.strip()
    monkeypatch.setattr(functions, "_context", mutate(functions._context, 'if "delta" in bk and "epsilon" not in vals:',
                                                      "if False:"))
    assert runner.invoke(app, args).exit_code == 0


def test_claim_findings_name_counterexamples_exactly(monkeypatch):
    """verify's findings (a proof's, a grid's) print a counterexample with digits that read back as it (0.1 would be
    another point). Mutant: the proof's finding with 6 significant digits."""
    from boundcalc.rigorous.prover import ProofResult
    from boundcalc.verify.box import Domain, unit
    from boundcalc.verify.claims import proofs

    x = 0.10000000000000002
    dom = Domain.of((unit("x", 0.0, 1.0),))
    r = ProofResult(claim="c", verdict="counterexample", box={"x": [0.0, 1.0]}, boxes=3,
                    counterexample={"point": {"x": x}, "value": "-1e-17", "value_float": -1e-17})
    got = proofs.combine([("part", r)], dom).finding
    assert got == "counterexample at x=0.10000000000000002" and float(got.split("=")[1]) == x
    monkeypatch.setattr(proofs, "combine", mutate(proofs.combine, 'finding=f"counterexample at {_pt_exact(point)}"',
                                                  'finding=f"counterexample at {_pt(point)}"'))
    assert proofs.combine([("part", r)], dom).finding != "counterexample at x=0.10000000000000002"
