"""Box ends written with more digits than a double holds (found by an adversarial review after issue 22): the box of
doubles must contain the box as written, and a box end is the number as written in the 50-digit re-checks.

* ``x >= 0.1`` on ``x=0.09999999999999999999:1`` is false at the written lower end (x − 1/10 = −1e-20): never "proven";
  nearest-double rounding made the box start at 0.1, where it holds (mutant kept: the ends rounded to nearest);
* ``x < 0.1`` on ``x=0:0.09999999999999999999`` is true on the written box (its top is below 1/10): never a
  "counterexample" at the double 0.1, which lies outside the box (mutant kept: the proof's witness taken as a double);
* a claim's box just outside its assumptions (T ≥ 3 written 2.99999999999999999999) is refused, as T = 2.9 is.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from clirun import invoke
from boundcalc.verify import box as bx
from boundcalc.verify import check as ck
from mutation import mutate


def _verdict(expr, box):
    r = invoke("check", expr, "--box", box, "--json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)["verdict"]


def test_ends_are_rounded_outward():
    lo, hi = bx.parse_box("x=0.09999999999999999999:0.50000000000000000001", [bx.unit("x", 0.0, 1.0)])["x"]
    assert Fraction(lo) <= Fraction("0.09999999999999999999") and Fraction(hi) >= Fraction("0.50000000000000000001")
    # ends that are doubles, or whose nearest double is already outside, stay as they are
    assert bx.parse_box("x=0.25:0.5", [bx.unit("x", 0.0, 1.0)])["x"] == (0.25, 0.5)
    assert bx.parse_box("x=0.09:0.1", [bx.unit("x", 0.0, 1.0)])["x"][1] == 0.1  # float(0.1) > 1/10 already


def test_a_false_statement_at_a_written_end_is_not_proven(monkeypatch):
    v = _verdict("x >= 0.1", "x=0.09999999999999999999:1")
    assert v.startswith("counterexample"), v
    assert not _verdict("x <= 0.5", "x=0:0.50000000000000000001").startswith("proven")
    monkeypatch.setattr(bx, "parse_box", mutate(bx.parse_box, "_number(a.strip(), item, -1), _number(b.strip(), item, +1)",
                                                "_number(a.strip(), item), _number(b.strip(), item)"))
    assert _verdict("x >= 0.1", "x=0.09999999999999999999:1").startswith("proven")


def test_a_true_statement_is_not_refuted_outside_the_written_box(monkeypatch):
    v = _verdict("x < 0.1", "x=0:0.09999999999999999999")
    assert not v.startswith("counterexample"), v
    monkeypatch.setattr(ck, "mp_point", lambda dom, pt: {k: __import__("mpmath").mpf(x) for k, x in pt.items()})
    assert not _verdict("x < 0.1", "x=0:0.09999999999999999999").startswith("counterexample")
    # the witness confirmation (check.confirm_witness, a second, independent layer) switched off: the mutant is of the first
    monkeypatch.setattr(ck, "confirm_witness", lambda p, dom, pt: ck.Witness("fails", "mutant: not confirmed"))
    assert _verdict("x < 0.1", "x=0:0.09999999999999999999").startswith("counterexample")


@pytest.mark.parametrize("box", ["K=2:3,T=2.99999999999999999999:100,rho=0.5:1,beta=3.5:4",
                                 "K=2:3,T=3:100,rho=0.5:1.00000000000000000001,beta=3.5:4"])
def test_a_claim_box_just_outside_its_assumptions_is_refused(box):
    r = invoke("verify", "--claim", "003-lower-le-upper-finite", "--box", box)
    assert r.exit_code == 2, r.output


def test_a_claim_box_end_with_more_digits_inside_its_assumptions_is_accepted(monkeypatch):
    """beta=3.00000000000000000001:4 lies inside β > 3 (Thm 11) although its double 3 does not: accepted, the end kept as
    written (the domain says it), the box of doubles rounded outward for the proof (it covers the written box).
    Mutants: the allowed range read from the end's double (the old refusal), the relation's check on doubles only."""
    from boundcalc.verify.claims import registry as rg

    assert Fraction("3.00000000000000000001") > 3 and float("3.00000000000000000001") == 3.0
    box = "K=2:3,T=3:100,rho=0.5:1,beta=3.00000000000000000001:4"
    r = invoke("verify", "--claim", "003-lower-le-upper-finite", "--box", box, "--json", "--max-seconds", "3")
    assert r.exit_code == 0, r.output
    v = json.loads(r.stdout)["claims"][0]
    assert v["domain"].endswith("beta=3.00000000000000000001:4"), v["domain"]
    assert v["verdict"] in ("holds", "no counterexample"), v
    assert invoke("verify", "--claim", "003-lower-le-upper-finite", "--box",
                  "K=2:3,T=3:100,rho=0.5:1,beta=3:4").exit_code == 2  # beta = 3 itself is outside
    monkeypatch.setattr(rg, "_holds_at_written_ends", lambda g, op, dom: False)
    assert invoke("verify", "--claim", "003-lower-le-upper-finite", "--box", box).exit_code == 2
    monkeypatch.undo()
    monkeypatch.setattr(rg, "parse_box", mutate(bx.parse_box, "if not p.admits(x) and not admits_written(p, t):",
                                                "if not p.admits(x):"))
    assert invoke("verify", "--claim", "003-lower-le-upper-finite", "--box", box).exit_code == 2
