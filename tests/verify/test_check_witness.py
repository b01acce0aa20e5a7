"""A counterexample of ``boundcalc check`` is confirmed at its witness before it is reported (an adversarial review
after issue 24): the 50-digit margins shift a strict comparison down by a relative 2e-40 (so equality counts as a
violation), and float rounds 5e-324 * 0.5 to 0, so a true statement could be "refuted":

* ``x - 1 > -1e-41`` on x = 1:2 holds everywhere (at x = 1 it is 1e-41 > 0): never a counterexample;
* ``x*0.5 > 0`` on x = 5e-324:1 holds everywhere (the exact product at 5e-324 is 2.5e-324 > 0);
* a real counterexample of a strict comparison (``x < 1`` at x = 1, equality) and a tiny real one still are.

The independent arithmetic is Python's ``fractions`` (exact rationals) in the tests, sympy / mpmath in the code.
Mutant kept: the witness re-check with the strict shift left in (and no exact route) reports the false counterexample.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from boundcalc.verify import check as ck
from mutation import mutate
from test_interval_fuzz import backend  # noqa: F401  (fixture: both interval backends)


def _run(expr, box, method="grid"):
    return ck.run(expr, box, method=method, points=256, max_seconds=5)


def test_fractions_say_the_statements_hold_at_the_witnesses():
    # the independent truth: at the box's lower ends, in exact rationals
    assert Fraction(1) - 1 > Fraction("-1e-41")
    assert Fraction(5e-324) * Fraction(1, 2) > 0
    assert not Fraction(1) < 1  # x < 1 at x = 1 fails (equality)


@pytest.mark.parametrize("expr,box", [("x - 1 > -1e-41", "x=1:2"), ("x*0.5 > 0", "x=5e-324:1"),
                                      ("1e-41 + x > 1", "x=1:2")])
def test_true_strict_statements_have_no_counterexample(backend, expr, box):
    for method in ("grid", "auto"):
        out = _run(expr, box, method)
        assert out.word != "counterexample" and out.counterexample is None, (method, out.verdict)


@pytest.mark.parametrize("expr,box,at", [("x < 1", "x=0:1", 1.0), ("x*y < 1e-400", "x=1e-200:1,y=1e-200:1", None),
                                         ("x - 1 > -1e-41", "x=0.5:2", None)])
def test_real_counterexamples_are_still_reported(expr, box, at):
    out = _run(expr, box, "auto")
    assert out.word == "counterexample", out.verdict
    assert out.counterexample["confirmed"]
    if at is not None:
        assert out.counterexample["x"] == at
    # the witness fails in exact rationals (an independent evaluation of the two polynomial statements)
    pt = {k: Fraction(out.counterexample[k]) for k in ("x", "y") if k in out.counterexample}
    if expr == "x - 1 > -1e-41":
        assert not pt["x"] - 1 > Fraction("-1e-41")
    if expr.startswith("x*y"):
        assert not pt["x"] * pt["y"] < Fraction("1e-400")


def test_the_witness_check_decides_without_the_shift():
    out = _run("x - 1 > -1e-41", "x=1:2")
    assert out.word == "no counterexample" and out.grid.holds_confirmed == 1  # x = 1, said in the verdict
    assert "only through the strict comparison's shift" in out.verdict
    w = ck.confirm_witness(out.parsed, out.domain, {"x": 1.0})
    assert w.status == "holds" and w.how == "exact rationals"
    out = _run("exp(x) > 1 + 1e-45", "x=1:2")  # decided by sympy (exact point, evalf with every digit)
    assert ck.confirm_witness(out.parsed, out.domain, {"x": 1.0}).status == "holds"


def test_mutant_witness_check_with_the_shift_is_caught(monkeypatch):
    """The re-check that keeps the strict shift (and has no exact route) calls x = 1 a counterexample."""
    monkeypatch.setattr(ck, "_exact_status", lambda p, q: None)
    assert _run("x - 1 > -1e-41", "x=1:2").word != "counterexample"  # the 50/100-digit route alone is right too
    monkeypatch.setattr(ck, "confirm_witness", mutate(ck.confirm_witness, "p.margin_mp(0, **env)", "p.margin_mp(**env)"))
    out = _run("x - 1 > -1e-41", "x=1:2")
    assert out.word == "counterexample" and out.counterexample["x"] == 1.0


# ---------------------------------------------------------------------------------------------------------------------
# a box end that is not a double: 1e-400 underflows to 0 (outside log's domain and outside the box as written)
# ---------------------------------------------------------------------------------------------------------------------
def _json(expr, box):
    import json

    from clirun import invoke

    r = invoke("check", expr, "--box", box, "--json", "--max-seconds", "3")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_an_underflowing_end_is_the_witness_as_written(backend):
    import math

    # independent: ln(10^-400) = -400 ln 10 = -921.03 < -900, so the statement fails at the box's lower end
    assert -400 * math.log(10) < -900
    d = _json("log(x) >= -900", "x=1e-400:1")
    assert d["verdict"] == "counterexample at x=1e-400", d["verdict"]
    x = d["counterexample"]["x"]
    assert x == "1e-400" and Fraction(x) > 0 and Fraction("1e-400") <= Fraction(x) <= 1  # in the box and the domain
    assert d["domain"] == "x=1e-400:1"
    assert any("underflows" in n for n in d["notes"])
    # log's domain x > 0 fails only at the double 0, not on the box as written: said so, not "outside the domain"
    assert [g["only_at_double"] for g in d["domain_gaps"]] == ["x=0"]
    # an upper end that underflows: x <= 0 fails at x = 1e-400 (a margin below the 50-digit floor, confirmed exactly)
    assert Fraction("1e-400") > 0
    d = _json("x <= 0", "x=0:1e-400")
    assert d["verdict"] == "counterexample at x=1e-400" and d["counterexample"]["confirmed"] == "exact rationals"


def test_mutant_witness_at_the_double_is_caught(monkeypatch):
    from boundcalc.verify import box as bx

    monkeypatch.setattr(bx, "written_end", lambda *a, **k: None)
    d = _json("log(x) >= -900", "x=1e-400:1")
    assert d["verdict"] == "counterexample at x=0" and d["counterexample"]["x"] == 0.0  # outside the box and domain
