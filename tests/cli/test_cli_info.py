"""CLI: boundcalc kl / kl-inf / d-eps (typer CliRunner on boundcalc.cli.app.app)."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

from clirun import app, runner


def run(*args):
    return runner.invoke(app, list(args))


def test_kl_table_and_json():
    r = run("kl", "--p", "0.3", "--q", "0.5", "--level", "0.1", "--sigma", "2")
    assert r.exit_code == 0, r.output
    assert "kl-UCB" in r.output
    r = run("kl", "--p", "0.3", "--q", "0.5", "--level", "0.1", "--sigma", "2", "--json")
    obj = json.loads(r.stdout)
    ref = 0.3 * math.log(0.3 / 0.5) + 0.7 * math.log(0.7 / 0.5)
    assert obj["command"] == "kl" and obj["value"] == pytest.approx(ref, rel=1e-14)
    assert obj["tv"] == pytest.approx(0.2)
    assert obj["kl_gaussian"] == pytest.approx(0.04 / 8)
    assert obj["kl_lcb"] < 0.3 < obj["kl_ucb"] < 1


def test_kl_digits_50():
    r = run("kl", "--p", "0.3", "--q", "0.5", "--digits", "50", "--json")
    assert r.exit_code == 0, r.output
    val = json.loads(r.stdout)["value"]
    import mpmath

    with mpmath.workdps(60):
        ref = mpmath.mpf(3) / 10 * mpmath.log(mpmath.mpf(3) / 5) + mpmath.mpf(7) / 10 * mpmath.log(mpmath.mpf(7) / 5)
        assert abs(mpmath.mpf(val) - ref) < mpmath.mpf(10) ** -48
    assert len(val.replace("0.", "", 1)) >= 45


def test_kl_symbolic():
    r = run("kl", "--p", "0.3", "--q", "0.5", "--symbolic")
    assert r.exit_code == 0 and "LaTeX" in r.output and "log" in r.output


def test_kl_inf_finite_and_bernoulli():
    r = run("kl-inf", "--mu-star", "0.6", "--support", "0,0.5,1", "--weights", "0.2,0.5,0.3", "--json")
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    assert obj["value"] > 0 and obj["mean"] == pytest.approx(0.55)
    r = run("kl-inf", "--mu", "0.3", "--mu-star", "0.6", "--json")
    ref = 0.3 * math.log(0.3 / 0.6) + 0.7 * math.log(0.7 / 0.4)
    assert json.loads(r.stdout)["value"] == pytest.approx(ref, rel=1e-14)
    r = run("kl-inf", "--mu", "0.3", "--mu-star", "0.6", "--digits", "50", "--json")
    assert r.exit_code == 0 and len(json.loads(r.stdout)["value"]) > 40
    r = run("kl-inf", "--mu-star", "0.6", "--support", "0,0.5,1", "--weights", "0.2,0.5,0.3", "--digits", "30")
    assert r.exit_code == 0 and "KL_inf" in r.output
    assert run("kl-inf", "--mu", "0.3", "--mu-star", "0.6", "--symbolic").exit_code == 0


def test_d_eps_json_digits_symbolic():
    r = run("d-eps", "--mu", "0.25", "--mu-star", "0.75", "--epsilon", "1", "--json")
    obj = json.loads(r.stdout)
    assert obj["value"] == pytest.approx(0.392625980491211, rel=1e-13)  # sheet §2.6
    assert obj["regime"] == "high" and obj["eps_0"] == pytest.approx(math.log(9))
    r = run("d-eps", "--mu", "0.3", "--mu-star", "0.5", "--epsilon", "0.1", "--N", "100", "--t", "1e3", "--json")
    assert json.loads(r.stdout)["dp_klucb_index"] <= 1
    r = run("d-eps", "--mu", "0.3", "--mu-star", "0.5", "--epsilon", "0.5", "--N", "100", "--t", "1000", "--digits", "50", "--json")
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    assert float(obj["dp_klucb_index"]) == pytest.approx(0.500015, abs=6e-7)  # sheet §5 vector
    assert len(obj["value"]) > 45
    r = run("d-eps", "--mu", "0.3", "--mu-star", "0.5", "--epsilon", "0.1", "--symbolic")
    assert r.exit_code == 0 and "LaTeX" in r.output
    r = run("d-eps", "--mu", "0.3", "--mu-star", "0.5", "--epsilon", "0.1")
    assert r.exit_code == 0 and "regime" in r.output


@pytest.mark.parametrize(
    "args,name",
    [
        (("d-eps", "--mu", "1.5", "--mu-star", "0.5", "--epsilon", "0.1"), "--mu"),
        (("d-eps", "--mu", "0.3", "--mu-star", "0.5", "--epsilon", "-1"), "--epsilon"),
        (("d-eps", "--mu", "nan", "--mu-star", "0.5", "--epsilon", "1"), "--mu"),
        (("d-eps", "--mu", "0.3", "--mu-star", "0.5", "--epsilon", "1", "--N", "2.5", "--t", "10"), "--N"),
        (("kl", "--p", "0.3", "--q", "NaN"), "--q"),
        (("kl", "--p", "0.3", "--q", "0.5", "--level", "-1"), "--level"),
        (("kl", "--p", "0.3", "--q", "0.5", "--digits", "0"), "--digits"),
        (("kl-inf", "--mu-star", "1.5", "--mu", "0.3"), "--mu-star"),
        (("kl-inf", "--mu-star", "0.6", "--support", "0,1", "--weights", "0.5,0.6"), "--weights"),
        (("kl-inf", "--mu-star", "0.6", "--support", "0,2", "--weights", "0.5,0.5"), "--support"),
    ],
)
def test_bad_input_exit_2_one_line(args, name):
    r = run(*args)
    assert r.exit_code == 2
    err = r.stderr.strip()
    assert len(err.splitlines()) == 1 and name in err
    assert r.stdout == ""
