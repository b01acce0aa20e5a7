"""`boundcalc check` on the false statements of issue 17 §1, on both interval backends: none may be "proven" (an
underflowed product was taken as exact; mpmath's iv exp returned [1, 1] for exp(1.31e-43)), and `--json` / the table
name the backend of the proof. The old arithmetic (the mutants of tests/intervals/test_interval_fuzz.py) reproduces the false
proofs through the same CLI calls."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from boundcalc.intervals import interval as ivm

from test_interval_fuzz import _OldMpmathBackend, _old_mul_bounds, backend  # noqa: F401  (fixture)


# ----------------------------------------------------------------------------------------------------
# the five false proofs of issue 17 §1
# ----------------------------------------------------------------------------------------------------
ISSUE_CASES = [
    ("x*y <= 0", "x=1e-200:1e-199,y=1e-200:1e-199"),
    ("exp(-n)*0.4 <= exp(-n)*0.1", "n=800:900"),
    ("exp(-n*kl(x, y)) * exp(-n*kl(y, x)) <= 0.5 * exp(-n*(kl(x, y) + kl(y, x)))", "n=2000:1e6,x=0.1:0.2,y=0.6:0.7"),
    ("exp(x) <= 1", "x=0:1.31e-43"),
    ("expm1(x) <= x", "x=1e-45:1e-43"),
]


def _check(expr, box, *extra, seconds="0.5"):
    from boundcalc.cli.app import app

    res = CliRunner().invoke(app, ["check", expr, "--box", box, "--max-seconds", seconds, "--points", "64", *extra])
    assert res.exit_code == 0, res.output
    return res


@pytest.mark.parametrize("expr,box", ISSUE_CASES)
def test_cli_false_statements_are_not_proven(backend, expr, box):
    d = json.loads(_check(expr, box, "--json").stdout)
    assert not d["verdict"].startswith("proven"), d["verdict"]
    assert d["backend"] == backend


def test_cli_table_names_the_backend(backend):
    res = _check("x*y <= 0", "x=1e-200:1e-199,y=1e-200:1e-199")
    assert "interval backend" in res.stdout and backend in res.stdout


def test_cli_mutants_reproduce_the_false_proofs(monkeypatch):
    """The same CLI check rejects the old arithmetic: the old product proves "x*y <= 0", the old iv backend proves
    "exp(x) <= 1" on x = 0:1.31e-43."""
    with monkeypatch.context() as m:
        m.setattr(ivm, "_mul_bounds", _old_mul_bounds)
        d = json.loads(_check(*ISSUE_CASES[0], "--json", seconds="5").stdout)
        assert d["verdict"].startswith("proven")
    with monkeypatch.context() as m:
        m.setattr(ivm, "_CURRENT", _OldMpmathBackend())
        d = json.loads(_check(*ISSUE_CASES[3], "--json", seconds="5").stdout)
        assert d["verdict"].startswith("proven") and d["backend"] == "mpmath-iv"


def test_backend_chosen_by_the_environment(monkeypatch):
    """BOUNDCALC_INTERVAL_BACKEND picks the default backend (how a machine without python-flint is reproduced);
    an unknown name is a one-line input error."""
    from boundcalc.cli.app import app

    monkeypatch.setattr(ivm, "_CURRENT", None)
    monkeypatch.setenv("BOUNDCALC_INTERVAL_BACKEND", "mpmath-iv")
    assert ivm.backend_name() == "mpmath-iv"
    monkeypatch.setattr(ivm, "_CURRENT", None)
    monkeypatch.setenv("BOUNDCALC_INTERVAL_BACKEND", "nope")
    res = CliRunner().invoke(app, ["check", "x <= 2", "--box", "x=0:1", "--json"])
    assert res.exit_code == 2 and "BOUNDCALC_INTERVAL_BACKEND" in res.output
    assert "Traceback" not in res.output


# ----------------------------------------------------------------------------------------------------
# false everywhere, but the float margin underflows to 0: a counterexample, re-checked at 50 (and 100) digits
# ----------------------------------------------------------------------------------------------------
UNDERFLOW_CASES = [ISSUE_CASES[0], ISSUE_CASES[1]]


def _false_at(expr: str, pt: dict) -> bool:
    """Independent of the code: the statement evaluated exactly (Fraction) or in decimal at 60 digits."""
    from decimal import Decimal, localcontext
    from fractions import Fraction

    if expr == "x*y <= 0":
        return not Fraction(pt["x"]) * Fraction(pt["y"]) <= 0
    with localcontext() as ctx:
        ctx.prec = 60
        e = (-Decimal(pt["n"])).exp()
        return not e * Decimal("0.4") <= e * Decimal("0.1")


@pytest.mark.parametrize("method", ["auto", "grid"])
@pytest.mark.parametrize("expr,box", UNDERFLOW_CASES)
def test_underflowed_false_statements_end_in_a_counterexample(backend, expr, box, method):
    d = json.loads(_check(expr, box, "--json", "--method", method, seconds="5").stdout)
    assert d["verdict"].startswith("counterexample at"), d["verdict"]
    pt = {k: v for k, v in d["counterexample"]["point"].items()} if "point" in d["counterexample"] else \
        {k: v for k, v in d["counterexample"].items() if k in ("x", "y", "n")}
    lo_hi = {k: tuple(map(float, v.split(":"))) for k, v in (kv.split("=") for kv in box.split(","))}
    assert all(lo_hi[k][0] <= pt[k] <= lo_hi[k][1] for k in lo_hi)
    assert _false_at(expr, pt)
    # the true statements beside them stay proven / without counterexample
    true_expr = {"x*y <= 0": "x*y >= 0", "exp(-n)*0.4 <= exp(-n)*0.1": "exp(-n)*0.1 <= exp(-n)*0.4"}[expr]
    t = json.loads(_check(true_expr, box, "--json", "--method", method, seconds="5").stdout)
    assert t["verdict"].startswith("proven" if method == "auto" else "no counterexample"), t["verdict"]


def test_mutant_without_the_underflow_recheck_is_rejected(monkeypatch):
    """The former behaviour (no re-check of a margin within underflow, in the prover nor the grid) ends these
    statements "undecided" / "no counterexample": the test's check rejects it."""
    from boundcalc.rigorous import prover
    from boundcalc.verify import check

    monkeypatch.setattr(prover, "MAX_TINY_CHECKS", 0)
    monkeypatch.setattr(check, "TINY_RECHECK", 0)
    for expr, box in UNDERFLOW_CASES:
        for method in ("auto", "grid"):
            d = json.loads(_check(expr, box, "--json", "--method", method, seconds="1").stdout)
            assert not d["verdict"].startswith("counterexample"), d["verdict"]


# ----------------------------------------------------------------------------------------------------
# expm1 / log1p enclosed as themselves (not exp(x) - 1, log(1 + x)), and the identity margins expm1(u) - u, u - log1p(u)
# ----------------------------------------------------------------------------------------------------
def _decimal_expm1_minus(x: float) -> bool:
    """expm1(x) - x > 0 at x, in decimal at 120 digits (independent of mpmath and of the code)."""
    from decimal import Decimal, localcontext

    with localcontext() as ctx:
        ctx.prec = 120
        d = Decimal(x)
        return d.exp() - 1 - d > 0


@pytest.mark.parametrize("expr,box,proven", [
    ("expm1(x) >= x", "x=1e-30:1e-20", True),  # true: e^x - 1 - x = x^2/2 + ... > 0
    ("log1p(x) <= x", "x=1e-30:1e-20", True),
    ("expm1(2*x) >= 2*x", "x=-1e-10:1e-10", True),
    ("log1p(x) <= x", "x=-0.99:3", True),
    ("expm1(x) <= x", "x=1e-45:1e-43", False),  # false everywhere on the box
    ("log1p(x) >= x", "x=1e-45:1e-43", False),
])
def test_expm1_log1p_tight(backend, expr, box, proven):
    d = json.loads(_check(expr, box, "--json", seconds="5").stdout)
    assert d["backend"] == backend
    if proven:
        assert d["verdict"].startswith("proven on the box"), d["verdict"]
    else:
        assert d["verdict"].startswith("counterexample at"), d["verdict"]
        x = d["counterexample"]["x"]
        assert 1e-45 <= x <= 1e-43 and _decimal_expm1_minus(x)  # e^x - 1 > x there; log(1 + x) < x likewise


def test_mutant_expm1_as_exp_minus_one_is_rejected(monkeypatch):
    """The former translation (expm1(x) -> exp(x) - 1, log1p(x) -> log(1 + x)) leaves the true statements
    unproven: the test's check rejects it."""
    import dataclasses

    import sympy

    from boundcalc.verify import functions as fn

    monkeypatch.setitem(fn.FUNCTIONS, "expm1", dataclasses.replace(fn.FUNCTIONS["expm1"],
                                                                  exact=lambda a: sympy.exp(a) - 1))
    monkeypatch.setitem(fn.FUNCTIONS, "log1p", dataclasses.replace(fn.FUNCTIONS["log1p"],
                                                                  exact=lambda a: sympy.log(1 + a)))
    for expr in ("expm1(x) >= x", "log1p(x) <= x"):
        d = json.loads(_check(expr, "x=1e-30:1e-20", "--json", seconds="1").stdout)
        assert not d["verdict"].startswith("proven"), d["verdict"]


def _identity_margins_contain(expm1_minus, minus_log1p, seed=3, n=150) -> bool:
    """Each enclosure over a random interval (ends from 1e-300 to 30 in magnitude, both signs; > -0.999 for log1p)
    contains the margin at its ends and at interior points, computed by mpmath at about 300 bits beyond the cancellation
    (expm1(t) - t at t = 1e-300 loses 2 x 997 bits)."""
    import mpmath
    import numpy as np

    from boundcalc.intervals.interval import Interval

    rng = np.random.default_rng(seed)
    with mpmath.workprec(2300):
        for _ in range(n):
            # half the ends anywhere from 1e-300 to 30, half where the series' higher terms matter (1e-4 to 0.5)
            exps = rng.uniform(-300, 1.5, 2) if rng.random() < 0.5 else rng.uniform(-4, -0.3, 2)
            a, b = sorted(float(s * 10.0 ** e) for s, e in zip(rng.choice([-1, 1], 2), exps))
            for f, F, lo in ((lambda t: mpmath.expm1(t) - t, expm1_minus, -30.0),
                             (lambda t: t - mpmath.log1p(t), minus_log1p, -0.999)):
                A, B = max(a, lo), max(b, lo)
                enc = F(Interval(A, B))
                for t in (A, B, A + (B - A) * float(rng.random()), 0.5 * (A + B)):
                    if not A <= t <= B:
                        continue
                    v = f(mpmath.mpf(t))
                    if not (mpmath.mpf(enc.lo) <= v <= mpmath.mpf(enc.hi)):
                        return False
    return True


def test_identity_margin_enclosures_contain_the_value(backend):
    from boundcalc.rigorous import sympy_eval as se

    assert _identity_margins_contain(se._expm1_minus, se._minus_log1p)


def test_mutant_identity_margin_enclosures_are_rejected(monkeypatch):
    """Mutants of the series: a coefficient 1/5 for 1/6 in e^x - 1 - x, and the remainder dropped in x - log1p(x)."""
    from boundcalc.rigorous import sympy_eval as se
    from boundcalc.intervals.interval import Interval

    real_series = se._series

    def wrong_coeff(P, coeffs, tail):
        return real_series(P, tuple((1, 5) if c == (1, 6) else c for c in coeffs), tail)

    with monkeypatch.context() as m:
        m.setattr(se, "_series", wrong_coeff)
        assert not _identity_margins_contain(se._expm1_minus, se._minus_log1p, n=100)
    with monkeypatch.context() as m:
        m.setattr(se, "_series", lambda P, coeffs, tail: real_series(P, coeffs, Interval(0.0)))
        assert not _identity_margins_contain(se._expm1_minus, se._minus_log1p, n=100)
