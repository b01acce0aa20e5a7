"""`boundcalc check` on the false statements of issue 17 §1, on both interval backends: none may be "proven" (an
underflowed product was taken as exact; mpmath's iv exp returned [1, 1] for exp(1.31e-43)), and `--json` / the table
name the backend of the proof. The old arithmetic (the mutants of tests/test_interval_fuzz.py) reproduces the false
proofs through the same CLI calls."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from boundcalc.rigorous import interval as ivm

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
