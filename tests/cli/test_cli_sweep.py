"""Lists and ranges of the quantity commands (kl, kl-inf, d-eps, concentration; boundcalc.cli.sweep).

Every option is given as a list or a range and each row is compared with a direct library call on that row's
values (so an option dropped or mis-broadcast on its way fails here); --digits per point against mpmath on the
item's decimal text; the range syntax and its errors; and a broadcasting mutant that the row checks catch.
"""

from __future__ import annotations

import json
import math

import mpmath
import numpy as np
import pytest
from typer.testing import CliRunner

from boundcalc import concentration as conc
from boundcalc import info
from boundcalc.cli import sweep
from boundcalc.cli.app import app
from boundcalc.errors import InputError


def js(*args):
    r = CliRunner().invoke(app, [*args, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def err(*args):
    r = CliRunner().invoke(app, list(args))
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("boundcalc: error:"), r.stderr
    return lines[0]


# ---------------------------------------------------------------------------------------------------
# the syntax
def test_list_range_and_spacing():
    assert sweep.parse("--x", "0.3").texts == ["0.3"] and not sweep.parse("--x", "0.3").many
    assert sweep.parse("--x", "0.1, 0.2,0.3").texts == ["0.1", "0.2", "0.3"]
    lin = [float(t) for t in sweep.parse("--x", "0.01:0.99:50").texts]
    assert len(lin) == 50 and lin[0] == 0.01 and lin[-1] == 0.99 and np.allclose(np.diff(lin), 0.98 / 49)
    log = [float(t) for t in sweep.parse("--x", "1e-3:10:5").texts]  # four decades: log spacing automatically
    assert log[0] == 1e-3 and log[-1] == 10 and np.allclose(np.diff(np.log10(log)), 1.0)
    assert np.allclose(np.diff([float(t) for t in sweep.parse("--x", "1e-3:10:5:lin").texts]), (10 - 1e-3) / 4)
    assert np.allclose(np.diff(np.log([float(t) for t in sweep.parse("--x", "1:2:3:log").texts])), math.log(2) / 2)
    assert sweep.parse("--n", "1:1e6:7", integer=True).texts == ["1", "10", "100", "1000", "10000", "100000", "1000000"]


@pytest.mark.parametrize("text,msg", [("0.9:0.1:5", "lo < hi"), ("0.5:0.5:3", "lo < hi"), ("0:1:0", "at least 2"),
                                      ("0:1:1", "at least 2"), ("0:1:1e9", "at most 10000"), ("0:1:2.5", "integer"),
                                      ("0:1", "lo:hi:n"), (":", "lo:hi:n"), ("0:1:3:cubic", ":log"),
                                      ("0:1:3:log", "lo > 0"), ("nan:1:3", "finite"), ("0:inf:3", "finite"),
                                      ("0.1,,0.2", "without empty items"), (",", "without empty items")])
def test_syntax_errors_are_one_line(text, msg):
    with pytest.raises(InputError) as ei:
        sweep.parse("--mu", text)
    assert msg in str(ei.value) and str(ei.value).startswith("--mu must be") and "\n" not in str(ei.value)


def test_broadcasting():
    a, b, c = sweep.parse("--a", "1,2,3"), sweep.parse("--b", "5"), sweep.parse("--c", "0:1:3")
    assert sweep.broadcast([a, b, c]) == [{"--a": "1", "--b": "5", "--c": "0.0"}, {"--a": "2", "--b": "5", "--c": "0.5"},
                                          {"--a": "3", "--b": "5", "--c": "1.0"}]
    with pytest.raises(InputError, match="equal length"):
        sweep.broadcast([a, sweep.parse("--d", "1,2")])


@pytest.mark.parametrize("args", [
    ("d-eps", "--mu", "0.1,0.2", "--mu-star", "0.5,0.6,0.7", "--epsilon", "1"),
    ("kl", "--p", "0.1:0.9:1e9", "--q", "0.5"),
    ("kl", "--p", "0.9:0.1:5", "--q", "0.5"),
    ("kl", "--p", "0.1,1.5", "--q", "0.5"),  # every item validated like a single value
    ("d-eps", "--mu", "0.1", "--mu-star", "0.5", "--epsilon", "0:1:3"),
    ("concentration", "--n", "10:20:3", "--m", "1,2", "--mu", "0.5", "--x", "0.4", "--epsilon", "1"),
    ("concentration", "--n", "10", "--m", "1", "--mu", "0:1:2000", "--x", "0.4", "--epsilon", "1"),
])
def test_cli_errors(args):
    err(*args)


# ---------------------------------------------------------------------------------------------------
# every option against a direct library call, row by row
def test_kl_rows_equal_the_library():
    o = js("kl", "--p", "0.1,0.3,0.5", "--q", "0.2:0.8:3", "--level", "0.5,1,2", "--sigma", "1,2,3", "--sigma-q", "2")
    assert o["n_values"] == 3 and o["swept"] == ["--level", "--p", "--q", "--sigma"]
    for row, p, q, lv, s in zip(o["values"], (0.1, 0.3, 0.5), (0.2, 0.5, 0.8), (0.5, 1, 2), (1, 2, 3)):
        assert (row["p"], row["q"], row["level"], row["sigma"], row["sigma_q"]) == (p, q, lv, s, 2)
        assert row["kl"] == row["value"] == float(info.kl_bernoulli(p, q))
        assert row["tv"] == float(info.tv_bernoulli(p, q))
        assert row["kl_ucb"] == float(info.kl_ucb(p, lv)) and row["kl_lcb"] == float(info.kl_lcb(p, lv))
        assert row["kl_gaussian"] == float(info.kl_gaussian(p, q, s, 2))
    single = js("kl", "--p", "0.3", "--q", "0.5")  # one value: the single-point JSON, unchanged
    assert "values" not in single and single["value"] == float(info.kl_bernoulli(0.3, 0.5))


def test_d_eps_rows_equal_the_library():
    o = js("d-eps", "--mu", "0.1,0.2,0.3,0.4", "--mu-star", "0.6", "--epsilon", "1e-3:10:4", "--N", "10:1000:4",
           "--t", "1e4")
    eps = [1e-3, 1e-3 * 10 ** (4 / 3), 1e-3 * 10 ** (8 / 3), 10]
    Ns = [10, 46, 215, 1000]  # log spacing 10..1000, rounded
    for row, x, e, N in zip(o["values"], (0.1, 0.2, 0.3, 0.4), eps, Ns):
        assert row["mu"] == x and row["mu_star"] == 0.6 and row["epsilon"] == pytest.approx(e, rel=1e-12)
        assert row["N"] == N and row["t"] == 10_000
        e = row["epsilon"]
        assert row["d_eps"] == float(info.d_epsilon(x, 0.6, e)) and row["kl"] == float(info.kl_bernoulli(x, 0.6))
        assert row["eps_tv"] == e * float(info.tv_bernoulli(x, 0.6)) and row["regime"] == info.d_epsilon_regime(x, 0.6, e)
        assert row["eps_0"] == float(info.epsilon_threshold(x, 0.6))
        assert row["z_star"] == float(info.d_epsilon_minimiser(x, 0.6, e))
        assert row["dp_klucb_index"] == float(info.dp_klucb_index(x, N, 10_000, e))


def test_kl_inf_rows_equal_the_library():
    o = js("kl-inf", "--mu-star", "0.6,0.7", "--mu", "0.1,0.8")
    for row, ms, m in zip(o["values"], (0.6, 0.7), (0.1, 0.8)):
        assert row["value"] == float(info.kl_inf_bernoulli(m, ms)) and row["mu"] == m and row["mu_star"] == ms
    o = js("kl-inf", "--mu-star", "0.3:0.9:3", "--support", "0,0.5,1", "--weights", "0.2,0.3,0.5")
    for row, ms in zip(o["values"], (0.3, 0.6, 0.9)):
        assert row["value"] == pytest.approx(float(info.kl_inf_finite([0, 0.5, 1], [0.2, 0.3, 0.5], ms)), rel=1e-14)


def test_concentration_rows_equal_the_library():
    o = js("concentration", "--n", "100,400", "--m", "3,9", "--mu", "0.5,0.6", "--x", "0.42,0.7", "--epsilon", "1,0.5")
    for row, (n, m, mu, x, e) in zip(o["values"], ((100, 3, 0.5, 0.42, 1.0), (400, 9, 0.6, 0.7, 0.5))):
        tail = "lower" if x <= mu else "upper"
        assert (row["n"], row["m"], row["mu"], row["x"], row["epsilon"], row["tail"]) == (n, m, mu, x, e, tail)
        assert row["bounds"]["C0"] == float(conc.private_tail_c0(n, m, e, mu, x, tail).value)
        assert row["bounds"]["C2"] == float(conc.private_tail_c2(n, m, e, mu, x, tail).value)
        assert row["exact"]["value"] == float(conc.private_tail_exact(n, m, e, mu, x, tail).value)
    o = js("concentration", "--n", "100", "--m", "3", "--mu", "0.5", "--x", "0.4", "--sigma", "0.5:2:2",
           "--mc-runs", "2000", "--seed", "7")
    for row, s in zip(o["values"], (0.5, 2.0)):
        assert row["bounds"]["gaussian_chernoff"] == float(
            conc.gaussian_private_tail_chernoff(100, 3, s, 0.5, 0.4, "lower").value)
        ref = conc.mc_private_tail(np.random.default_rng(7), 100, 3, 0.5, 0.4, 2000, block=100_000, epsilon=None,
                                   sigma=s, tail="lower", alpha=0.05)
        assert row["monte_carlo"]["hits"] == ref.hits  # same seed for every point


def test_digits_per_point_uses_each_items_decimal_text():
    o = js("d-eps", "--mu", "0.1,0.3", "--mu-star", "0.7", "--epsilon", "0.3", "--digits", "40")
    with mpmath.workdps(40):
        for row, x in zip(o["values"], ("0.1", "0.3")):
            ref = info.d_epsilon_mp(mpmath.mpf(x), mpmath.mpf("0.7"), mpmath.mpf("0.3"))
            assert abs(mpmath.mpf(row["d_eps"]) - ref) < mpmath.mpf(10) ** -38
            binary = info.d_epsilon_mp(mpmath.mpf(float(x)), mpmath.mpf(0.7), mpmath.mpf(0.3))
            assert abs(binary - ref) > mpmath.mpf(10) ** -30  # the test can tell 1/10 from the double 0.1
    o = js("kl", "--p", "0.1,0.2", "--q", "0.5", "--digits", "30")
    with mpmath.workdps(30):
        assert abs(mpmath.mpf(o["values"][1]["kl"]) - info.kl_bernoulli_mp(mpmath.mpf("0.2"), mpmath.mpf("0.5"))) \
            < mpmath.mpf(10) ** -28


def test_table_output_has_one_row_per_point():
    r = CliRunner().invoke(app, ["d-eps", "--mu", "0.1:0.4:4", "--mu-star", "0.5", "--epsilon", "1"])
    assert r.exit_code == 0, r.output
    assert "4 points" in r.stdout and r.stdout.count("0.5 │") >= 4


def test_broadcast_mutant_is_caught(monkeypatch):
    """A broadcast that repeats the first value of every list (a dropped sweep) fails the row comparison."""
    real = sweep.broadcast

    def first_only(sweeps):
        rows = real(sweeps)
        return [dict(rows[0]) for _ in rows]

    monkeypatch.setattr(sweep, "broadcast", first_only)
    o = js("kl", "--p", "0.1,0.3", "--q", "0.5")
    assert o["values"][1]["kl"] != float(info.kl_bernoulli(0.3, 0.5))


@pytest.mark.parametrize("cmd", ["kl", "kl-inf", "d-eps", "concentration"])
def test_help_documents_the_syntax(cmd):
    r = CliRunner().invoke(app, [cmd, "--help"], env={"COLUMNS": "200"})
    assert r.exit_code == 0
    text = " ".join(r.stdout.split())
    assert "lo:hi:n" in text and "log" in text and "a,b,c" in text
