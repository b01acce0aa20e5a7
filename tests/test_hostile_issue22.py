"""Hostile input and one-line mistakes of issue 22 §4, each with a test that fails on the mistake (the mutant kept).

The contract (docs, ``boundcalc.errors.InputError``): bad input gives one line on stderr naming the option and its
allowed range, exit 2; never a traceback, an internal error, a hang, a memory blow-up, NaN at exit 0, a file written
despite an error, or an invalid input accepted.
"""

from __future__ import annotations

import json
import math
import os

import numpy as np
import pytest
from typer.testing import CliRunner

from boundcalc.cli.app import app
from tests.test_mutants_issue17 import mutate

runner = CliRunner()


def _run(args):
    return runner.invoke(app, args)


def _one_line(r, *names) -> str:
    """The one error line of a run that exited 2, naming each of ``names``."""
    assert r.exit_code == 2, (r.exit_code, r.output)
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("boundcalc: error: "), lines[0]
    assert "Traceback" not in r.output and "internal error" not in r.output
    for n in names:
        assert n in lines[0], (n, lines[0])
    return lines[0]


class _Reached(BaseException):
    """Raised by a sentinel standing in for the work: the command got past its checks (a BaseException, so no
    ``except Exception`` of the code under test swallows it)."""


# -- a declared bound exp(exp(T)): the mpmath evaluation is overflow-safe --------------------------------------------
EE_TOML = ('[[bound]]\nid = "ee-hostile"\ntitle = "t"\nsource = "x"\nsetting = "finite"\nnotion = "pure"\n'
           'kind = "upper-minimax"\nnonprivate = "exp(exp(T)) + 2**(2**T)"\nprivacy_cost = "1/epsilon"\n'
           'assumptions = ["epsilon > 0"]\n')


def _guard_mpmath_exp(monkeypatch):
    """mpmath.exp that refuses an argument whose exact exponential would take for ever (ln 2 to log2(x) bits)."""
    import mpmath

    real = mpmath.exp

    def exp(x, **k):
        if abs(x) > 2.0**60:
            raise _Reached(f"exp of {mpmath.nstr(x, 3)}")
        return real(x, **k)

    monkeypatch.setattr(mpmath, "exp", exp)


def test_declared_exp_exp_is_overflow_safe(monkeypatch):
    """exp(exp(T)) at T = 1e9 (the load-time check's grid) is +inf at once; the bound loads and its mpmath value at
    T = 3 is the exact e^(e^3) + 2^8 (mpmath at 30 digits, independently)."""
    import mpmath

    from boundcalc.bounds import declared

    _guard_mpmath_exp(monkeypatch)
    b = declared.DeclaredBound(**_ee_fields(), origin="test")
    a, _ = b._f_mp(mpmath.mpf(1e9), mpmath.mpf(1))
    assert a == mpmath.inf
    with mpmath.workdps(30):
        a3, c3 = b._f_mp(mpmath.mpf(3), mpmath.mpf(2))
        assert abs(a3 - (mpmath.e ** mpmath.e**3 + 256)) < 1e-20 * a3 and c3 == mpmath.mpf(1) / 2
    # mutant: sympy's plain mpmath lambdify computes exp(exp(1e9)) exactly (the hang of issue 22)
    monkeypatch.setattr(declared, "overflow_safe_mp",
                        lambda args, exprs: __import__("sympy").lambdify(args, exprs, modules="mpmath"))
    with pytest.raises(_Reached):
        declared.DeclaredBound(**{**_ee_fields(), "id": "ee-hostile-2"}, origin="test")


def _ee_fields():
    import tomllib

    return tomllib.loads(EE_TOML)["bound"][0]


def test_regret_with_exp_exp_bound_file_shows_infinity(tmp_path):
    p = tmp_path / "b_ee.toml"
    p.write_text(EE_TOML)
    r = _run(["regret", "--setting", "finite", "--epsilon", "1", "--T", "1000", "--bounds-file", str(p), "--json"])
    assert r.exit_code == 0, r.output
    rows = [b for b in json.loads(r.stdout)["bounds"] if b.get("id") == "ee-hostile"]
    assert rows and rows[0]["value"] == "inf", rows
