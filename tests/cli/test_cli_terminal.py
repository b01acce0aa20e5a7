"""Usable at a glance (issue 24 items 1-4) and an instance file that carries its setting (issue 23 item 1).

1. ``regret``'s default table is short (the README's own command: at most 30 non-blank lines at 160 columns, the
   headline unchanged); ``--all`` shows every applicable bound, ``--explain`` every text.
2. Piped output honours COLUMNS (rich's convention), 140 when unset; no line wider, no number or header cut ("…").
3. A user's bound is labelled as a plugin (never DERIVED, its id not twice in the headline); ``--bound ID`` selects
   and highlights; ``--T lo:hi:n`` is a log-spaced range.
4. An instance is printed as its one-line description and its file (the JSON keeps the whole instance).

Each check runs on the renderer and on a deliberately broken copy of it (a mutant, kept here), which it must reject.
"""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest
from typer.testing import CliRunner

from boundcalc.cli.app import app
from mutation import mutate

runner = CliRunner()
README = ["regret", "--setting", "linear", "--rho", "0.1", "--T", "1e6"]
PLUGIN = "examples/my_bound.toml"


def _run(args, columns=None):
    r = runner.invoke(app, args, env={"COLUMNS": str(columns)} if columns else {"COLUMNS": None})
    assert r.exit_code == 0, (r.output, r.stderr)
    return r.stdout


def _json(args):
    return json.loads(_run([*args, "--json"]))


def _nonblank(out: str) -> int:
    return sum(1 for ln in out.splitlines() if ln.strip())


def _ids_in_table(out: str) -> list[str]:
    """The ids of the bound table's rows, in order (the first cell of each row, ★ of a selected one dropped)."""
    lines = out.splitlines()
    head = next(i for i, ln in enumerate(lines) if ln.split()[:2] == ["id", "algorithm"])
    ids = []
    for ln in lines[head + 2:]:
        if not ln.strip():
            break
        first = ln.split()[0] if not ln.startswith(" " * 4) else ""
        if first == "★":
            first = ln.split()[1]
        if first:
            ids.append(first)
    return ids


# -- 1. the main command is short ------------------------------------------------------------------------------------
def _check_compact(out: str, obj: dict):
    """At most 30 non-blank lines; the headline line names the JSON's headline value and bound."""
    assert _nonblank(out) <= 30, _nonblank(out)
    head = " ".join(" ".join(ln.split()) for ln in out.splitlines() if ln.strip())
    from boundcalc.cli.common import fmt

    m = re.search(r"Headline: regret ≤ (\S+) at T = \S+.*? — (\S+) \(", head)
    assert m and m.group(1) == fmt(obj["value"]) and m.group(2) == obj["value_id"], head[-300:]


def test_readme_command_is_at_most_30_lines_at_160_columns_with_the_same_headline():
    obj = _json(README)
    assert obj["value_id"] == "003-thm4-explicit-hp"
    out = _run(README, columns=160)
    _check_compact(out, obj)
    ids = _ids_in_table(out)
    rows = {r["id"]: r for r in obj["bounds"]}
    # every form of the headline's algorithm, first; no other paper's bound among them; one lower bound
    adac = [i for i, r in rows.items() if r["algorithm"] == "AdaC-GOPE" and r["applicable"]]
    assert ids[:len(adac)] == adac, ids
    assert not any(i.startswith(("003-table2", "gope-lattimore")) for i in ids), ids
    assert sum(rows[i]["kind"].startswith("lower") for i in ids) == 1, ids
    assert "--all" in out


def test_mutant_every_row_in_the_default_table_is_rejected(monkeypatch):
    from boundcalc.cli import regret_cmd

    obj = _json(README)
    monkeypatch.setattr(regret_cmd, "shown_rows", mutate(regret_cmd.shown_rows, "out = [r for r in app if show_all "
                                                         "or r[\"id\"] in keep]", "out = list(app)"))
    with pytest.raises(AssertionError):
        _check_compact(_run(README, columns=160), obj)


@pytest.mark.parametrize("args", [["--setting", "finite", "--epsilon", "0.5"], ["--setting", "finite", "--rho", "0.1"],
                                  ["--setting", "contextual", "--epsilon", "1", "--delta", "0.1"],
                                  ["--setting", "glm", "--ldp-epsilon", "1"], ["--setting", "linear"]])
def test_every_setting_default_output_is_compact(args):
    out = _run(["regret", *args], columns=160)
    assert _nonblank(out) <= 30, (args, _nonblank(out))


def test_all_shows_every_applicable_bound_and_the_default_says_how_many_are_hidden():
    obj = _json(README)
    applicable = [r["id"] for r in obj["bounds"] if r["applicable"]]
    default = _ids_in_table(_run(README, columns=160))
    every = _ids_in_table(_run([*README, "--all"], columns=160))
    assert sorted(every) == sorted(applicable)
    hidden = len(applicable) - len(default)
    assert hidden > 0 and f"Not shown: {hidden} more applicable bounds" in " ".join(
        _run(README, columns=160).split())
    assert set(default) < set(every)
    # the comparison bounds of other papers come after the papers' own, not among the AdaC-GOPE rows
    pos = {i: k for k, i in enumerate(every)}
    last_adac = max(pos[i] for i in every if i.startswith("003-thm4"))
    assert all(pos[i] > last_adac for i in every if i.startswith(("003-table2", "gope-lattimore")))


# -- 2. piped output honours COLUMNS -----------------------------------------------------------------------------------
def test_pipe_width_reads_columns_else_140():
    from boundcalc.cli.common import PIPE_WIDTH, pipe_width

    assert PIPE_WIDTH == 140
    assert pipe_width({"COLUMNS": "100"}) == 100 and pipe_width({"COLUMNS": " 233 "}) == 233
    for bad in ({}, {"COLUMNS": ""}, {"COLUMNS": "abc"}, {"COLUMNS": "-5"}, {"COLUMNS": "3"}):
        assert pipe_width(bad) == 140, bad


NARROW = [README, ["regret", "--setting", "linear", "--rho", "0.001,0.01,0.1"],
          ["regret", "--setting", "finite", "--epsilon", "0.5", "--T", "1000", "--check", "--runs", "4"],
          ["budget", "--setting", "linear", "--T", "1e6", "--max-overhead", "0.1"],
          ["budget", "--setting", "finite", "--T", "300", "--means", "0.9,0.5", "--max-overhead", "3", "--algo",
           "DP-KLUCB", "--runs", "10", "--max-runs", "20"],
          ["simulate", "--algo", "KL-UCB,DP-SE", "--epsilon", "1", "--T", "400", "--runs", "6", "--block-runs", "3"]]


def _check_width(outs: list[str], width: int):
    for out in outs:
        wide = [ln for ln in out.splitlines() if len(ln) > width]
        assert not wide, wide[:3]
        assert "…" not in out, [ln for ln in out.splitlines() if "…" in ln][:3]  # nothing cut


@pytest.mark.slow
def test_columns_100_no_line_wider_and_nothing_cut():
    outs = [_run(a, columns=100) for a in NARROW]
    _check_width(outs, 100)
    verdicts = " ".join(outs[2].split())
    assert "verdict" in verdicts and ("held" in verdicts or "exceeded" in verdicts)  # the verdict column is there


def test_mutant_width_forced_to_140_is_rejected(monkeypatch):
    from boundcalc.cli import common

    monkeypatch.setattr(common, "pipe_width", mutate(common.pipe_width, "return int(text)", "return PIPE_WIDTH"))
    with pytest.raises(AssertionError):
        _check_width([_run(README, columns=100)], 100)


def test_mutant_columns_never_dropped_cuts_the_check_table(monkeypatch):
    from boundcalc.cli import common

    monkeypatch.setattr(common, "fit_columns", lambda con, table, drop, floors=None: [])  # the old tables
    with pytest.raises(AssertionError):
        _check_width([_run(NARROW[2], columns=100)], 100)


# -- 3. plugins, --bound, --T ranges -----------------------------------------------------------------------------------
def _check_plugin_headline(out: str):
    """The headline names the plugin, says "plugin" and the id once; the row is not called DERIVED."""
    flat = " ".join(out.split())
    head = flat[flat.index("Headline:"):]
    assert "plugin" in head and head.count("my-linear-ub") == 1, head
    row = next(ln for ln in out.splitlines() if ln.lstrip().startswith("my-linear-ub"))
    assert "DERIVED" not in row and "plugin" in row, row


def test_a_users_bound_is_labelled_as_a_plugin():
    args = [*README, "--bounds-file", PLUGIN]
    assert _json(args)["value_id"] == "my-linear-ub"
    _check_plugin_headline(_run(args, columns=160))


def test_mutant_old_plugin_headline_is_rejected(monkeypatch):
    from boundcalc.cli import regret_cmd

    monkeypatch.setattr(regret_cmd, "_headline_who", lambda r: f"{r['algorithm']}, {r['form']}")  # the old words
    with pytest.raises(AssertionError):
        _check_plugin_headline(_run([*README, "--bounds-file", PLUGIN], columns=160))


TWO_FORMS = """
[[bound]]
id = "mine-explicit"
title = "mine, explicit"
source = "Doe 2027, Thm 1"
setting = "linear"
notion = "zcdp"
kind = "upper-minimax"
form = "explicit"
algorithm = "MyAlg"
nonprivate = "3*sqrt(d*T*log(K*T))"
privacy_cost = "5*d*log(K*T)**2/sqrt(rho)"

[[bound]]
id = "mine-paper"
title = "mine, paper"
source = "Doe 2027, Thm 1"
setting = "linear"
notion = "zcdp"
kind = "upper-minimax"
form = "paper"
algorithm = "MyAlg"
nonprivate = "sqrt(d*T*log(K*T))"
privacy_cost = "d*log(K*T)**2/sqrt(rho)"
"""


def test_budget_spread_of_a_plugin_never_says_derived(tmp_path):
    f = tmp_path / "two.toml"
    f.write_text(TWO_FORMS)
    args = ["budget", "--setting", "linear", "--max-overhead", "0.1", "--bounds-file", str(f)]
    obj = _json(args)
    spread = next(s for s in obj["spread"] if s["algorithm"] == "MyAlg")
    assert all("DERIVED" not in x["from"] and "plugin" in x["from"] for x in spread["forms"]), spread
    flat = " ".join(_run(args, columns=200).split())
    line = flat[flat.index("spread MyAlg"):].split(" spread ")[0].split("No algorithm")[0]
    assert "DERIVED" not in line and "plugin" in line, line


def test_bound_selects_a_hidden_bound_with_its_value():
    from boundcalc.bounds.report import regret_report
    from boundcalc.privacy import ZCDP

    hidden = "003-table2-hanna-eq17"
    args = [*README, "--bound", hidden]
    obj = _json(args)
    want = next(r for r in regret_report("linear", ZCDP(0.1), np.array([1e6])).rows if r["id"] == hidden)["value"]
    assert obj["selected"] == [{"id": hidden, "value": want, "applicable": True, "kind": "upper-minimax",
                                "plugin": None}]
    out = _run(args, columns=160)
    assert hidden in _ids_in_table(out) and hidden not in _ids_in_table(_run(README, columns=160))
    from boundcalc.cli.common import fmt

    assert f"★ {hidden} (AdaR-GOPE-Var, paper): regret ≤ {fmt(want)}" in " ".join(out.split())


def test_bound_unknown_id_is_one_line_exit_2():
    r = runner.invoke(app, [*README, "--bound", "no-such-bound"])
    assert r.exit_code == 2 and "--bound must be the id of a bound of the linear setting" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_budget_bound_line_matches_the_json():
    args = ["budget", "--setting", "linear", "--max-overhead", "0.1", "--bound", "003-thm4-paper"]
    obj = _json(args)
    row = next(r for r in obj["budgets"] if r["id"] == "003-thm4-paper")
    assert obj["selected"] == [{"id": "003-thm4-paper", "status": "met", "user_budget": row["user_budget"]}]
    from boundcalc.cli.common import fmt

    out = " ".join(_run(args, columns=160).split())
    assert f"★ 003-thm4-paper (AdaC-GOPE, paper form): ρ = {fmt(row['user_budget'], 5)}" in out


def test_T_range_is_log_spaced_integers():
    obj = _json(["regret", "--setting", "finite", "--epsilon", "1", "--T", "1e3:1e7:20"])
    want = [int(round(1e3 * 10 ** (4 * i / 19))) for i in range(20)]  # log spacing, computed here
    assert obj["inputs"]["T"] == want
    row = next(r for r in obj["bounds"] if r["applicable"])
    assert [v["T"] for v in row["values"]] == [float(t) for t in want]
    out = _run(["regret", "--setting", "finite", "--epsilon", "1", "--T", "1e3:1e7:20"], columns=140)
    assert sum(bool(re.match(r"│\s+\d[\d.e+]*\s+│", ln)) for ln in out.splitlines()) == 20  # one row per T
    b = _json(["budget", "--setting", "linear", "--max-overhead", "0.1", "--T", "1e3:1e7:3"])
    assert [h["T"] for h in b["horizons"]] == [10 ** 3, 10 ** 5, 10 ** 7]


# -- 4. the instance in one line -----------------------------------------------------------------------------------------
def _save_linear(tmp_path):
    path = tmp_path / "lin.toml"
    _run(["regret", "--setting", "linear", "--rho", "0.1", "--K", "12", "--d", "3", "--save-instance", str(path)])
    return path


def _check_instance_line(out: str, path, inst):
    assert "'schema'" not in out and "[[" not in out  # not the dict
    flat = " ".join(out.split())
    assert f"instance: {inst.describe()}; from {path}" in flat, flat


def test_budget_measured_prints_the_instance_in_one_line(tmp_path):
    from boundcalc.envs import spec

    path = _save_linear(tmp_path)
    inst = spec.load_instance(str(path))
    args = ["budget", "--instance", str(path), "--T", "200", "--max-overhead", "3", "--algo", "AdaC-GOPE", "--runs",
            "4", "--max-runs", "8"]
    obj = _json(args)
    assert obj["instance"]["actions"] == inst.to_dict()["actions"]  # the JSON keeps the whole instance
    out = _run(args, columns=140)
    _check_instance_line(out, path, inst)
    _check_width([out], 140)


# -- issue 23: an instance file carries its setting -------------------------------------------------------------------
def test_instance_file_needs_no_setting(tmp_path):
    path = _save_linear(tmp_path)
    base = ["regret", "--instance", str(path), "--rho", "1", "--T", "1e4"]
    a, b = _json(base), _json([*base, "--setting", "linear"])
    assert a["inputs"]["setting"] == "linear" and a["value"] == b["value"] and a["bounds"] == b["bounds"]
    bud = ["budget", "--instance", str(path), "--by", "bound", "--max-overhead", "0.1"]
    assert _json(bud)["budgets"] == _json([*bud, "--setting", "linear"])["budgets"]
    from boundcalc.envs import spec

    for args in (base, bud):  # the bound tables name the instance in one line with its file, too
        _check_instance_line(_run(args, columns=200), path, spec.load_instance(str(path)))
    low = ["lower", "--instance", str(path), "--alt", str(path), "--rho", "0.1", "--T", "1e3"]
    la, lb = _json(low), _json([*low, "--setting", "linear"])
    assert la["inputs"]["setting"] == "linear" and {k: v for k, v in la.items() if k != "inputs"} == {
        k: v for k, v in lb.items() if k != "inputs"}
    r = runner.invoke(app, [*base, "--setting", "finite"])
    assert r.exit_code == 2 and "--instance" in r.stderr
    r = runner.invoke(app, ["regret", "--rho", "1"])
    assert r.exit_code == 2 and "--setting must be one of" in r.stderr and "--instance" in r.stderr


def test_mutant_raw_instance_is_rejected(tmp_path, monkeypatch):
    from boundcalc.cli import instance_options
    from boundcalc.envs import spec

    path = _save_linear(tmp_path)
    monkeypatch.setattr(instance_options, "instance_text", lambda inst, p=None: str(inst.to_dict()))  # the old line
    with pytest.raises(AssertionError):
        _check_instance_line(_run(["regret", "--instance", str(path), "--rho", "1"], columns=200), path,
                             spec.load_instance(str(path)))
