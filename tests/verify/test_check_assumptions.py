"""A bound's assumptions, as data, used by the prover of ``check`` (issue 15): on a box partly outside a bound's
assumptions, ``check`` names the assumption that fails, where, and on which share of the box, and proves the
statement only where the assumptions hold; a box entirely outside is "outside the assumptions".

The test bound (declared here, the formula is this file's own): nonprivate sqrt(T), privacy cost
sqrt(T) (100 rho - 3/2), assumption rho >= 0.01. So bound >= 0 holds exactly where 100 rho - 1/2 >= 0, i.e.
rho >= 0.005: true inside the assumption, false for rho < 0.005 (outside it). Without its assumption the
statement has counterexamples on the box rho = 0.001:1; with it, it is proven where rho >= 0.01.

Expected shares of the box are computed here from the box's ends (linear volume, the convention of ``check``'s
domain gaps): (0.01 - 0.001) / (1 - 0.001) for rho >= 0.01 on rho = 0.001:1, never from the code's output.
Mutants kept below (each must be rejected by the same checks): the relation evaluated at the box midpoint only; the
part outside the assumptions counted as proven; the assumptions ignored; the share of the box reported as the
share where the assumption holds.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from boundcalc.bounds import plugins, registry
from boundcalc.bounds.declared import DeclaredBound
from clirun import app, json_of, runner
from boundcalc.verify import assumptions as asm
from boundcalc.verify import check as ck
from mutation import mutate
from test_interval_fuzz import backend  # noqa: F401  (fixture: both interval backends, flint and mpmath-iv)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "examples" / "my_bound.toml")
EXPR = 'bound("rho-ub", T=T, rho=rho) >= 0'
DECL = dict(id="rho-ub", title="a test bound", source="this test file", setting="linear", notion="zcdp",
            kind="upper-minimax", nonprivate="sqrt(T)", privacy_cost="sqrt(T)*(100*rho - 3/2)",
            assumptions=["rho >= 0.01"])


@pytest.fixture(autouse=True)
def _plugin():
    plugins.reset()
    registry.add_plugin_bounds([DeclaredBound(origin="test", **DECL)], "test")
    yield
    plugins.reset()


def share(lo, hi, a, b=None):
    """The share of [lo, hi] (linear length) where x < a (or a <= x < b), from the box's ends."""
    b = lo if b is None else b
    if b == lo:
        return (min(max(a, lo), hi) - lo) / (hi - lo)
    return (min(max(b, lo), hi) - min(max(a, lo), hi)) / (hi - lo)


def assert_partial(out, expected: float, where: str = "rho < 0.01", bound: str = "rho-ub"):
    """The verdict of a box partly outside the assumption: proven only where it holds, the failing assumption and its
    share named (within 1e-6 of the box), never "proven" for the whole box, never a counterexample."""
    assert out.word == "proven where the assumptions hold", out.verdict
    assert out.verdict.startswith(f"proven where the assumptions of {bound} hold"), out.verdict
    assert not out.verdict.startswith("proven on the box"), out.verdict
    assert out.counterexample is None
    (gap,) = out.assumption_gaps
    lo, hi = gap.fraction
    assert lo - 1e-12 <= expected <= hi + 1e-12 and hi - lo < 1e-6, (gap.fraction, expected)
    assert gap.where == where and gap.bound == bound
    assert f"fails where {where}" in out.verdict and f"{100 * expected:.3g}% of the box" in out.verdict, out.verdict
    j = gap.to_json()
    assert abs(j["fraction_of_box"] - expected) < 1e-6 and j["fails_where"] == where


def run(box, text=EXPR):
    return ck.run(text, box, max_seconds=20)


def test_box_partly_outside_names_the_assumption_and_its_share(backend):  # noqa: F811
    out = run("T=1e3:1e6,rho=0.001:1")
    assert out.proof.backend == backend
    assert_partial(out, share(0.001, 1.0, 0.01))
    assert abs(out.assumption_gaps[0].fraction[0] - 0.009 / 0.999) < 1e-9  # (0.01 - 0.001) / (1 - 0.001)


def test_box_inside_is_proven_as_before_and_outside_is_neither():
    out = run("T=1e3:1e6,rho=0.02:1")
    assert out.word == "proven" and out.verdict.startswith("proven on the box") and not out.assumption_gaps
    out = run("T=1e3:1e6,rho=0.001:0.004")  # the statement is false everywhere here, and so is the assumption
    assert out.word == "outside the assumptions" and out.method == "assumptions", out.verdict
    assert out.counterexample is None and not out.verdict.startswith(("proven", "counterexample"))
    assert "assumption 'rho >= 0.01' of rho-ub fails on the whole box (rho < 0.01)" in out.verdict
    (gap,) = out.assumption_gaps
    assert gap.everywhere and gap.fraction == (1.0, 1.0)


def test_mutants_are_rejected(monkeypatch):
    box = "T=1e3:1e6,rho=0.001:1"
    expected = share(0.001, 1.0, 0.01)
    real_analyse, real_measure = asm.analyse, asm.measure

    def midpoint_only(g, strict, box, scales, **kw):  # the relation at the box's midpoint only
        from boundcalc.intervals.interval import Interval
        from boundcalc.rigorous.sympy_eval import interval_eval

        mid = {k: Interval((v.lo + v.hi) / 2) for k, v in box.items()}
        ok = asm.holds(interval_eval(g, mid), strict)
        return (0.0, 0.0, None, 1, False) if ok else (1.0, 1.0, {k: v.lo for k, v in mid.items()}, 1, True)

    def excluded_counted_as_proven(*a, **kw):  # the constraint drops the part outside, the verdict forgets it
        an = real_analyse(*a, **kw)
        c = an.constraint()
        an.gaps = []
        an.constraint = lambda: c
        return an

    def ignored(*a, **kw):
        return asm.Analysis()

    def holding_share(*a, **kw):  # reports the share where the assumption holds
        lo, hi, ex, n, every = real_measure(*a, **kw)
        return 1.0 - hi, 1.0 - lo, ex, n, every

    for target, mutant in (("measure", midpoint_only), ("analyse", excluded_counted_as_proven),
                           ("analyse", ignored), ("measure", holding_share)):
        with monkeypatch.context() as m:
            m.setattr(asm, target, mutant)
            with pytest.raises(AssertionError):
                assert_partial(run(box), expected)
    assert_partial(run(box), expected)  # and the real code passes the same checks


def test_bound_singular_at_its_threshold_is_proven_inside(monkeypatch):
    """A bound singular where its assumption ends: privacy cost 1/(64 rho - 1) with rho > 1/64 (written here). Each
    sub-box is clipped to the part inside the threshold before the margin is enclosed, so bound >= 0 is proven where
    rho > 1/64, and the rest, (1/64 - 0.001)/0.999 of the box, is named. Mutant: no clipping (the sub-box straddling
    1/64 encloses a division by an interval around 0): not proven."""
    registry.add_plugin_bounds([DeclaredBound(
        origin="test", **dict(DECL, id="sing-ub", privacy_cost="1/(64*rho - 1)", assumptions=["rho > 0.015625"]))],
        "test-sing")
    expr, box = 'bound("sing-ub", T=T, rho=rho) >= 0', "T=1e3:1e6,rho=0.001:1"
    exact = share(0.001, 1.0, 1 / 64)

    def ok(out):
        assert_partial(out, exact, where="rho <= 0.015625", bound="sing-ub")

    ok(ck.run(expr, box, max_seconds=5))
    with monkeypatch.context() as m:
        m.setattr(asm.Analysis, "clipper", lambda self: None)
        with pytest.raises(AssertionError):
            ok(ck.run(expr, box, max_seconds=2))


def test_share_of_a_two_variable_assumption_encloses_the_exact_area(backend):  # noqa: F811
    """T rho >= 10 on T = 1:100, rho = 0:1 fails on the area {T rho < 10} = 9 + 10 ln 10 (the integral of
    min(1, 10/T) over [1, 100], written here), of the box's 99: the share reported as [lo, hi] contains it, is
    narrow, and the example point lies in the failing part. Mutant: the share from the box's corners (the
    fraction of failing corners) is not within the enclosure."""
    import sympy

    from boundcalc.rigorous.prover import as_box, default_scales

    T, rho = sympy.symbols("T rho", real=True)
    box = as_box({"T": (1.0, 100.0), "rho": (0.0, 1.0)})
    exact = (9 + 10 * math.log(10)) / 99
    lo, hi, ex, n, every = asm.measure(T * rho - 10, False, box, default_scales(box), seconds=5)
    assert lo <= exact <= hi and hi - lo < 0.01 and not every, (lo, hi, exact)
    assert ex["T"] * ex["rho"] < 10
    corners = sum(t * r < 10 for t in (1.0, 100.0) for r in (0.0, 1.0)) / 4  # a corner count: 0.75
    assert not (lo <= corners <= hi)


def test_builtin_bound_with_requires(monkeypatch):
    """A built-in bound (seed 003 Thm 4, paper form) given ``requires`` relations (as the converted bounds declare
    them): a relation over a keyword (rho), over an instance parameter the call does not give (K: the instance's
    value, 10), and over one it gives (K=K on the box)."""
    b = registry.get("003-thm4-paper")

    def set_requires(m, rels):
        m.setattr(b, "requires", rels, raising=False)
        m.setitem(b.__dict__, "_requirement_relations", None)  # requirement_relations' cache: parsed again

    expr = 'bound("003-thm4-paper", T=T, rho=rho) >= 0'
    with monkeypatch.context() as m:
        set_requires(m, ("rho >= 0.01",))
        assert_partial(run("T=1e3:1e6,rho=0.001:1", expr), share(0.001, 1.0, 0.01), bound="003-thm4-paper")
    with monkeypatch.context() as m:
        set_requires(m, ("K >= 100",))  # the default instance has K = 10: outside on the whole box
        out = run("T=1e3:1e6,rho=0.001:1", expr)
        assert out.word == "outside the assumptions", out.verdict
        assert "(K < 100 (with K = 10))" in out.verdict, out.verdict
        out = run("T=1e3:1e6,rho=0.01:1,K=50:200", 'bound("003-thm4-paper", T=T, rho=rho, K=K) >= 0')
        assert_partial(out, share(50.0, 200.0, 100.0), where="K < 100", bound="003-thm4-paper")
        assert abs(out.assumption_gaps[0].fraction[0] - 1 / 3) < 1e-9
    with monkeypatch.context() as m:  # a strict relation failing on a set of measure zero only (K = 10)
        set_requires(m, ("K > 10",))
        out = run("T=1e3:1e6,rho=0.01:1,K=10:50", 'bound("003-thm4-paper", T=T, rho=rho, K=K) >= 0')
        (gap,) = out.assumption_gaps
        assert gap.fraction[0] == 0 and gap.fraction[1] < 1e-9 and gap.example is not None and gap.example["K"] == 10
        assert "a set of measure zero" in out.verdict and out.word == "proven where the assumptions hold"


def test_instance_name_changed_by_a_keyword(monkeypatch):
    """"rank >= d" (the actions must span R^d) with d= on the box: the rank is the registry's at the keywords' values
    (10 actions: rank min(10, d), written here), the same at every corner for d = 20:50 (outside on the whole box),
    changing for d = 1:50 (no proof: the grid, and the note says why). Mutant: the default instance's rank (3) used
    whatever d= (the sentence then names rank = 3, and d = 1:50 is wrongly analysed)."""
    b = registry.get("003-thm4-paper")
    expr = 'bound("003-thm4-paper", T=T, rho=rho, d=d) >= 0'

    def verdicts():
        a = run("T=1e3:1e6,rho=0.01:1,d=20:50", expr)
        c = run("T=1e3:1e6,rho=0.01:1,d=1:50", expr)
        assert a.word == "outside the assumptions" and "(with rank = 10)" in a.verdict, a.verdict
        assert c.method == "grid" and any("rank" in n and "changes over the box" in n for n in c.notes), c.notes

    with monkeypatch.context() as m:
        m.setattr(b, "requires", ("rank >= d",), raising=False)
        m.setitem(b.__dict__, "_requirement_relations", None)
        verdicts()
        from boundcalc.rigorous.bound_calls import BoundCall

        m.setattr(BoundCall, "name_source", lambda self, n: ("instance", 3.0) if n == "rank" else
                  self.sources.get(n, ("code", None)))
        with pytest.raises(AssertionError):
            verdicts()


def test_cli_json_lists_the_failing_assumption(tmp_path):
    """examples/my_bound.toml (assumption T >= 2) on T = 1:11: fails where T < 2, a tenth of the box."""
    r = runner.invoke(app, ["check", 'bound("my-linear-ub", T=T, rho=rho) >= bound("003-thm9", T=T, rho=rho)',
                            "--box", "T=1:11,rho=0.01:1", "--bounds-file", EXAMPLE, "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["word"] == "proven where the assumptions hold", out["verdict"]
    (gap,) = out["assumption_gaps"]
    assert gap["bound"] == "my-linear-ub" and gap["assumption"] == "T >= 2" and gap["fails_where"] == "T < 2"
    assert abs(gap["fraction_of_box"] - share(1.0, 11.0, 2.0)) < 1e-6
    assert "assumption 'T >= 2' of my-linear-ub fails where T < 2 (10% of the box)" in out["verdict"]
    r = runner.invoke(app, ["check", 'bound("my-linear-ub", T=T, rho=rho) >= bound("003-thm9", T=T, rho=rho)',
                            "--box", "T=1:11,rho=0.01:1", "--bounds-file", EXAMPLE])
    assert r.exit_code == 0 and "assumption" in r.stdout and "T < 2" in r.stdout


# -- verify --bounds-file: a user's bound in the lower <= upper pair claims --------------------------------------------
PAIR = "003-thm9-le-my-linear-ub"


def thm9(T, d, rho):
    """seed 003 Thm 9 as stated, written here: max{(e^-2/8) d sqrt(T), (e^-2.25/4) d / sqrt(rho)}."""

    return max(math.exp(-2) / 8 * d * math.sqrt(T), math.exp(-2.25) / 4 * d / math.sqrt(rho))


def verify_json(*args):
    return json_of("verify", *args)


def check_pair_listed_and_proven(out_list, out_claim):
    ids = [c["claim_id"] for c in out_list["claims"]]
    assert PAIR in ids and "003-thm9-corrected-le-my-linear-ub" in ids, [i for i in ids if "my-" in i]
    meta = next(c for c in out_list["claims"] if c["claim_id"] == PAIR)
    assert meta["paper"] == "003" and "proof" in meta["methods"]
    assert out_claim["verdict"] == "holds" and out_claim["method"] == "proof", out_claim["claims"][0]["measured"]


def check_outside(out):
    (c,) = out["claims"]
    assert c["verdict"] == "not checkable numerically", c["measured"]
    assert "assumption 'T >= 2' of my-linear-ub fails on the whole box (T < 2)" in c["measured"]


def test_verify_bounds_file_pairs_the_example_with_the_papers_bounds(monkeypatch):
    """verify --bounds-file examples/my_bound.toml: the example (a zCDP linear minimax upper bound) forms a pair claim
    with seed 003 Thm 9 (and its corrected form), listed under paper 003 and proven; the example's formula exceeds
    Thm 9 (written in this file) at points of the box. On T = 1:1.5 (outside its assumption T >= 2) the pair is not
    checkable; on T = 1:1e3 it is proven where T >= 2 and says so. A bound below Thm 9 is refuted at a point where
    the two formulas, written here, confirm it."""
    from boundcalc.verify.claims import pairs

    base = verify_json("--bounds-file", EXAMPLE, "--list")
    one = verify_json("--bounds-file", EXAMPLE, "--claim", PAIR)
    check_pair_listed_and_proven(base, one)
    d, K = 3, 10  # any instance of the box: d in [1, 50], K in [2, 2^20]
    for T in (1e3, 1e6, 1e9):
        for rho in (1e-8, 1e-3, 1.0):
            mine = 3 * (d * T * math.log(K * T)) ** 0.5 + 5 * d * math.log(K * T) ** 2 / rho ** 0.5
            assert mine >= thm9(T, d, rho)
    check_outside(verify_json("--bounds-file", EXAMPLE, "--claim", PAIR, "--box", "T=1:1.5"))
    part = verify_json("--bounds-file", EXAMPLE, "--claim", PAIR, "--box", "T=1:1e3")
    assert part["verdict"] == "holds"
    assert "where the assumptions hold (assumption 'T >= 2' of my-linear-ub fails where T < 2" in \
        part["claims"][0]["measured"]
    plugins.reset()
    assert PAIR not in [c["claim_id"] for c in verify_json("--list")["claims"]]  # gone with the plugin

    # mutants: plugin pairs never registered; the assumptions ignored in the pair
    with monkeypatch.context() as m:
        m.setattr(pairs, "refresh_plugin_pairs", lambda: [])
        plugins.reset()
        r = runner.invoke(app, ["verify", "--bounds-file", EXAMPLE, "--list", "--json"])
        with pytest.raises(AssertionError):
            check_pair_listed_and_proven(json.loads(r.stdout), one)
    with monkeypatch.context() as m:
        m.setattr(asm, "over_box", lambda *a, **k: asm.Analysis())
        with pytest.raises(AssertionError):
            check_outside(verify_json("--bounds-file", EXAMPLE, "--claim", PAIR, "--box", "T=1:1.5"))


def test_verify_bounds_file_refutes_a_bound_below_thm9(tmp_path):
    toml = tmp_path / "tiny.toml"
    toml.write_text('[[bound]]\nid = "tiny-ub"\ntitle = "t"\nsource = "this test"\nsetting = "linear"\n'
                    'notion = "zcdp"\nkind = "upper-minimax"\nnonprivate = "sqrt(T)/1000"\n'
                    'privacy_cost = "d/(1000*sqrt(rho))"\nassumptions = ["rho > 0"]\n')
    out = verify_json("--bounds-file", str(toml), "--claim", "003-thm9-le-tiny-ub")
    (c,) = out["claims"]
    assert c["verdict"] == "statement violated", c["measured"]
    ce = c["counterexample"]
    T, d, rho = float(ce["T"]), float(ce["d"]), float(ce["rho"])
    assert thm9(T, d, rho) > T ** 0.5 / 1000 + d / (1000 * rho ** 0.5)


def test_a_box_outside_a_code_condition_is_outside_the_assumptions(monkeypatch):
    """003-thm9 states "rho <= 1 or T >= 3" as code (a disjunction over an optional T, not a relation). The box T = 1..2,
    rho = 2..4 has rho > 1 and T < 3 at every point (by its ends: 2 > 1, 2 < 3), so every point is outside: the verdict
    says "outside the assumptions", not "undecided: no grid point". T = 1..5 reaches T >= 3 (inside): never that verdict.
    Mutant: the code conditions ignored (only the relations of ``requires`` read) -> "undecided"."""
    from boundcalc.rigorous import bound_calls as bc

    expr = 'bound("003-thm9", T=T, rho=r, d=1) <= 1'
    out = ck.run(expr, "T=1:2,r=2:4", max_seconds=3)
    assert out.word == "outside the assumptions" and "rho <= 1" in out.verdict, out.verdict
    assert out.counterexample is None
    assert ck.run(expr, "T=1:5,r=2:4", max_seconds=3, points=256).word != "outside the assumptions"
    monkeypatch.setattr(bc.BoundCall, "failing_conditions", mutate(
        bc.BoundCall.failing_conditions, "if self.has_conditions else", "if False else"))
    assert ck.run(expr, "T=1:2,r=2:4", max_seconds=3, points=256).word == "undecided"
