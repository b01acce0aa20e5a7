"""`boundcalc convert` through typer's CliRunner: tables, --json (one object, main value under `value`),
and one-line errors with exit code 2."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

from clirun import app, runner


def run(*args):
    return runner.invoke(app, ["convert", *args])


def cks_eps_grid(rho, delta):
    """Independent: CKS 2020 Prop. 12 in its δ form solved for ε, minimised on a fine grid of orders."""
    a = np.unique(np.concatenate([1 + np.logspace(-5, 0, 5000), np.logspace(0.31, 5, 50000)]))
    a = a[a > 1]
    eps = a * rho + (math.log(1 / delta) + a * np.log((a - 1) / a) - np.log(a - 1)) / (a - 1)
    return eps.min()


def one_json(r):
    assert r.exit_code == 0, r.output
    lines = [ln for ln in r.stdout.splitlines() if ln.strip()]
    assert len(lines) == 1, r.stdout
    obj = json.loads(lines[0])
    assert obj["command"] == "convert" and "schema_version" in obj
    return obj


def test_rho_delta_json_value_is_tight_eps():
    obj = one_json(run("--rho", "0.1", "--delta", "1e-6", "--json"))
    assert obj["value"] == pytest.approx(cks_eps_grid(0.1, 1e-6), rel=1e-5)
    assert obj["budget"] == {"notion": "zcdp", "rho": 0.1}
    simple = [row["value"] for row in obj["rows"] if "simple" in row["quantity"]][0]
    assert simple == pytest.approx(0.1 + 2 * math.sqrt(0.1 * math.log(1e6)))
    assert obj["value"] < simple


def test_rho_table_and_alpha_list():
    r = run("--rho", "0.1", "--delta", "1e-6", "--alpha", "3,7")
    assert r.exit_code == 0, r.output
    assert "Canonne" in r.stdout and "α = 3" in r.stdout and "α = 7" in r.stdout
    obj = one_json(run("--rho", "0.1", "--alpha", "3,7", "--json"))
    rdp = {row["quantity"]: row["value"] for row in obj["rows"] if row["quantity"].startswith("RDP ε at")}
    assert rdp == {"RDP ε at α = 3": pytest.approx(0.3), "RDP ε at α = 7": pytest.approx(0.7)}
    assert obj["delta_used"] == 1e-6  # documented default


def test_pure_epsilon():
    obj = one_json(run("--epsilon", "1", "--json"))
    assert obj["value"] == pytest.approx(0.5)  # Bun–Steinke Prop 1.4
    assert obj["budget"]["notion"] == "pure"
    assert run("--epsilon", "1").exit_code == 0


def test_approx_shows_rho_calibrations():
    obj = one_json(run("--epsilon", "1", "--delta", "1e-6", "--json"))
    L = math.log(1e6)
    simple = (math.sqrt(L + 1) - math.sqrt(L)) ** 2
    rows = {row["quantity"]: row["value"] for row in obj["rows"]}
    assert rows["largest ρ meeting (ε, δ), simple"] == pytest.approx(simple, rel=1e-10)
    assert obj["value"] > simple
    assert cks_eps_grid(obj["value"], 1e-6) == pytest.approx(1.0, abs=1e-4)


def test_rdp_budget():
    obj = one_json(run("--alpha", "2", "--rdp-epsilon", "0.5", "--delta", "1e-6", "--json"))
    a, e, d = 2.0, 0.5, 1e-6
    want = e + math.log(1 / d) / (a - 1) + math.log(1 - 1 / a) - math.log(a) / (a - 1)
    assert obj["value"] == pytest.approx(want, rel=1e-12)
    assert obj["budget"] == {"notion": "rdp", "alpha": 2.0, "epsilon": 0.5}


@pytest.mark.parametrize(
    "args,name",
    [
        (["--rho", "1", "--delta", "1.5"], "--delta"),
        (["--rho", "-1"], "--rho"),
        (["--alpha", "1", "--rdp-epsilon", "0.5"], "--alpha"),
        ([], "--rho"),
        (["--rho", "1", "--epsilon", "1"], "--epsilon"),
        (["--rdp-epsilon", "1"], "--alpha"),
        (["--epsilon", "0"], "--epsilon"),
        (["--rho", "0.1", "--alpha", "0.5,2"], "--alpha"),
        (["--rho", "1", "--delta", "1.5", "--json"], "--delta"),
    ],
)
def test_bad_input_one_line_exit_2(args, name):
    r = run(*args)
    assert r.exit_code == 2, r.output
    err = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(err) == 1 and err[0].startswith("boundcalc: error:"), r.stderr
    assert name in err[0]
    assert r.stdout.strip() == ""


def test_convert_digits_and_symbolic():
    import json as _json

    r = runner.invoke(app, ["convert", "--rho", "0.1", "--delta", "1e-6", "--digits", "40", "--json"])
    assert r.exit_code == 0, r.output
    out = _json.loads(r.stdout)
    tight = next(p["value"] for p in out["precise"] if "tight" in p["quantity"])
    assert len(tight.replace(".", "").lstrip("0")) >= 39
    assert abs(float(tight) - out["value"]) < 1e-9
    r = runner.invoke(app, ["convert", "--epsilon", "1", "--symbolic"])
    assert r.exit_code == 0 and "LaTeX" in r.stdout
    r = runner.invoke(app, ["convert", "--rho", "0.1", "--digits", "0"])
    assert r.exit_code == 2
