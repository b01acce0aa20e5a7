"""Issue 24 items 3-4, the leftovers: ``--bound`` with ``regret --prior``; ``regret --check --plot`` highlights the
``--bound`` bounds; the budget-by-bound table compacted like regret's (``--all``/``--explain``); no budget table cuts a
number or a header at 80 or 100 columns.

Each check runs on the renderer and on a deliberately broken copy of it (a mutant, kept here), which it must reject.
"""

from __future__ import annotations

import json
import math

import pytest

from clirun import app, runner
from mutation import mutate

from boundcalc.cli.common import fmt

# a user's finite bound with a closed form recomputed below from the instance's means alone
MINE = """
[[bound]]
id = "mine-finite"
title = "mine, finite"
source = "Doe 2027, Thm 2"
setting = "finite"
notion = "pure"
kind = "upper-problem-dependent"
form = "explicit"
algorithm = "MyAlg"
nonprivate = "K*log(T)/Delta_min"
privacy_cost = "K*log(T)/epsilon"
"""


def _run(args, columns=None):
    r = runner.invoke(app, [str(a) for a in args], env={"COLUMNS": str(columns)} if columns else {"COLUMNS": None})
    assert r.exit_code == 0, (r.output, r.stderr)
    return r.stdout


def _json(args):
    return json.loads(_run([*args, "--json"]))


def _flat(out: str) -> str:
    return " ".join(out.split())


@pytest.fixture(scope="module")
def json_once():
    """``--json`` of a command, computed once per module (every mutant here is a renderer's: the JSON is the same)."""
    seen = {}

    def get(args):
        key = tuple(map(str, args))
        if key not in seen:
            seen[key] = _json(args)
        return seen[key]

    return get


# -- 1. --bound with regret --prior --------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def mine(tmp_path_factory):  # one file for the module: a plugin id is registered once per process, by its file
    from boundcalc.bounds import plugins

    f = tmp_path_factory.mktemp("plugin") / "mine.toml"
    f.write_text(MINE)
    yield str(f)
    plugins.reset()  # the module's plugin bound leaves the registry with it (later tests list every registered bound)


def _prior_args(mine):
    return ["regret", "--setting", "finite", "--prior", "uniform-gaps", "--K", "4", "--instances", "3", "--epsilon", "0.5",
            "--T", "1e5", "--bounds-file", mine, "--bound", "mine-finite", "--bound", "001-thm3.1"]


def _mine_value(means, T=1e5, eps=0.5):
    """The plugin's closed form, from the means alone: K ln T / Δmin + K ln T / ε."""
    top = max(means)
    dmin = min(top - m for m in means if m < top)
    return len(means) * math.log(T) / dmin + len(means) * math.log(T) / eps


def _check_prior(obj, out):
    per = obj["per_instance"]
    want = [_mine_value(inst["means"]) for inst in obj["instances"]]
    got = [r["selected"]["mine-finite"] for r in per]
    assert all(math.isclose(g, w, rel_tol=1e-9) for g, w in zip(got, want)), (got, want)
    assert len({round(w, 6) for w in want}) == 3  # the instances differ: a value per instance
    summ = next(s for s in obj["selected"] if s["id"] == "mine-finite")["summary"]
    assert math.isclose(summ["worst"], max(want), rel_tol=1e-9) and summ["without_answer"] == 0
    low = [r["selected"]["001-thm3.1"] for r in per]
    assert all(x is not None and x > 0 for x in low) and low != got
    flat = _flat(out)
    for r, w in zip(per, want):  # each instance's row carries the value; the ★ line the largest
        row = next(ln for ln in out.splitlines() if ln.strip().startswith(f"{r['index']} "))
        assert fmt(w) in row, row
    assert "★ mine-finite (your bound for MyAlg from plugin" in flat and f"regret ≤ {fmt(max(want))} on the instance where it is largest" in flat, flat


def test_bound_selects_with_prior(mine):
    args = _prior_args(mine)
    _check_prior(_json(args), _run(args, columns=140))
    plain = _json(["regret", "--setting", "finite", "--means", "0.9,0.7,0.6,0.5", "--epsilon", "0.5", "--T", "1e5",
                   "--bounds-file", mine, "--bound", "mine-finite"])  # no prior: the same id, the same formula
    assert math.isclose(plain["selected"][0]["value"], _mine_value([0.9, 0.7, 0.6, 0.5]), rel_tol=1e-9)


def test_mutant_prior_selected_is_the_headline_is_rejected(mine, monkeypatch):
    from boundcalc.cli import regret_cmd

    monkeypatch.setattr(regret_cmd, "_prior_regret", mutate(
        regret_cmd._prior_regret, 'got = {r["id"]: r for r in rep.rows if r["id"] in selected}',
        'got = {b: next(r for r in rep.rows if r["id"] == h.bound_id) for b in selected}'))
    args = _prior_args(mine)
    obj, out = _json(args), _run(args, columns=140)
    with pytest.raises(AssertionError):
        _check_prior(obj, out)


# -- 2. regret --check --plot highlights the --bound bounds --------------------------------------------------------------
CHECK = ["regret", "--setting", "finite", "--means", "0.9,0.6", "--epsilon", "1", "--T", "200", "--check", "--runs", "2",
         "--bound", "001-dp-se-explicit", "--bound", "001-thm3.1"]


def _check_figure(monkeypatch, tmp_path):
    """Run regret --check --plot in-process; the figure it saves, read back from matplotlib: per panel, the
    legend's labels and the width of each labelled line."""
    from boundcalc import figures as F

    seen = []

    def save(fig, path, option="--plot"):  # read back, not rendered (the PNG itself: tests/experiments/test_figures.py)
        seen.append([{ln.get_label(): ln.get_linewidth() for ln in ax.get_lines() if not ln.get_label().startswith("_")}
                     for ax in fig.axes if ax.get_visible() and ax.get_lines()])
        F.pyplot().close(fig)

    monkeypatch.setattr(F, "save", save)
    obj = _json([*CHECK, "--plot", tmp_path / "c.png"])
    assert obj["plot"]["figure"] == "simulated regret beside the checked bounds" and len(seen) == 1
    return obj, seen[0]


def _check_highlight(obj, panels):
    from boundcalc.cli.regret_cmd import SELECTED_STYLE

    assert len(panels) >= 2
    for lines in panels:
        star = {k: w for k, w in lines.items() if k.startswith("★ ")}
        assert any(k.startswith("★ 001-thm3.1 ") for k in star), lines  # the lower bound, on every panel
        assert all(w == SELECTED_STYLE["lw"] for w in star.values()) and all(
            w < SELECTED_STYLE["lw"] for k, w in lines.items() if k not in star), lines
        assert not any(k.startswith(("001-thm3.1", "001-dp-se-explicit")) for k in lines), lines
    dpse = [lines for lines in panels if any(k.startswith("DP-SE:") for k in lines)]
    assert len(dpse) == 1 and any(k.startswith("★ 001-dp-se-explicit (explicit)") for k in dpse[0]), dpse
    others = [k for lines in panels for k in lines if k.startswith("★ ") and not k.startswith("★ 001-thm3.1 ")]
    assert len(others) == 1  # the checked selected bound only on its own algorithm's panel
    assert {s["id"] for s in obj["selected"]} == {"001-dp-se-explicit", "001-thm3.1"}


def test_check_plot_highlights_the_selected_bounds(monkeypatch, tmp_path):
    _check_highlight(*_check_figure(monkeypatch, tmp_path))


@pytest.mark.parametrize("old,new", [("extra = [b for b in selected if b not in checked]", "extra = []"),
                                     ("if b.bound_id in selected else", "if False else")])
def test_mutant_check_plot_without_highlight_is_rejected(old, new, monkeypatch, tmp_path):
    """Mutants kept: the bounds no panel checks left out; the checked selected bound not marked."""
    from boundcalc.cli import regret_cmd

    monkeypatch.setattr(regret_cmd, "_plot_check", mutate(regret_cmd._plot_check, old, new))
    got = _check_figure(monkeypatch, tmp_path)
    with pytest.raises(AssertionError):
        _check_highlight(*got)


# -- 3. the budget-by-bound table, compacted as regret's -------------------------------------------------------------------
README_BUDGET = ["budget", "--setting", "linear", "--K", "50", "--d", "5", "--T", "1e7", "--max-overhead", "0.1"]
RATIO = ["budget", "--setting", "finite", "--means", "0.9,0.8,0.5", "--T", "1e6", "--max-ratio-to-lower", "2"]


def _table_ids(out: str, known) -> list[str]:
    """The bound ids of the table's rows, in order: a line whose first word (★ dropped) is a bound id of the JSON."""
    ids = []
    for ln in out.splitlines():
        w = ln.replace("★", " ").split()
        if w and w[0] in known and ln.startswith((" ", "│")) and w[0] not in ids:
            ids.append(w[0])
    return ids


def _check_compact_budget(obj: dict, out: str, every: list[str]):
    """The default table: every form of the recommendation's algorithm, the lower limit's bound, one row per other
    algorithm, one lower bound per kind; the rest one flag away (--all shows every applicable bound) and counted."""
    rows = {r["id"]: r for r in obj["budgets"]}
    known = set(rows)
    ids = _table_ids(out, known)
    applicable = [i for i, r in rows.items() if r["status"] != "not applicable"]
    assert sorted(every) == sorted(applicable)
    rec_alg = rows[obj["value_id"]]["algorithm"] if obj["value_id"] else None
    assert all(i in ids for i in applicable if rows[i]["algorithm"] == rec_alg and rec_alg), ids
    if obj["lower_id"]:
        assert obj["lower_id"] in ids
    others = [rows[i]["algorithm"] for i in ids if rows[i]["kind"].startswith("upper") and rows[i]["algorithm"] != rec_alg]
    assert len(others) == len(set(others)), ids
    lows = [rows[i]["kind"] for i in ids if rows[i]["kind"].startswith("lower")]
    assert len(lows) == len(set(lows)), ids
    hidden = len(applicable) - len(ids)
    assert hidden > 0 and f"Not shown: {hidden} more applicable bound" in _flat(out), _flat(out)[-400:]


@pytest.mark.parametrize("args", [README_BUDGET, RATIO])
def test_budget_table_is_compacted_like_regrets(args, json_once):
    obj = json_once(args)
    every = _table_ids(_run([*args, "--all"], columns=200), {r["id"] for r in obj["budgets"]})
    _check_compact_budget(obj, _run(args, columns=200), every)


def test_mutant_budget_table_every_row_is_rejected(monkeypatch, json_once):
    from boundcalc.cli import budget_cmd

    obj = json_once(README_BUDGET)
    every = _table_ids(_run([*README_BUDGET, "--all"], columns=200), {r["id"] for r in obj["budgets"]})
    monkeypatch.setattr(budget_cmd, "_shown", mutate(budget_cmd._shown, "SHOW_ALL or explain", "True"))
    out = _run(README_BUDGET, columns=200)
    with pytest.raises(AssertionError):
        _check_compact_budget(obj, out, every)


# -- 4. at 80 and 100 columns: no line wider, no number or header cut ---------------------------------------------------
def _whole(num: str, text: str) -> bool:
    import re

    return re.search(rf"(?<![\d.e+-]){re.escape(num)}(?![\d.e])", text) is not None


def _check_budget_width(obj: dict, out: str, width: int):
    """No line wider than ``width``, nothing cut ("…"), the table printed as a table (its header row), and for every
    row shown each of its JSON numbers whole on the row's lines (the user budget always; the regret there and the
    overhead where their column is shown)."""
    lines = out.splitlines()
    from rich.cells import cell_len

    assert all(cell_len(ln) <= width for ln in lines), [ln for ln in lines if cell_len(ln) > width][:3]
    assert "…" not in out, [ln for ln in lines if "…" in ln][:3]
    head = next((ln for ln in lines if ln.split()[:3] == ["id", "/", "algorithm"]), None)
    assert head is not None, "no table"
    rows = {r["id"]: r for r in obj["budgets"]}
    ids = _table_ids(out, set(rows))
    assert ids
    for i in ids:
        r = rows[i]
        k = next(n for n, ln in enumerate(lines) if ln.replace("★", " ").split()[:1] == [i])
        text = " ".join(lines[k:k + 2])  # the row's line and the algorithm's line below
        if r["status"] == "met":
            assert _whole(fmt(r["user_budget"], 5), text), (i, fmt(r["user_budget"], 5), text)
            if "regret there" in head:
                assert _whole(fmt(r["regret_at_budget"]), text), (i, text)
            if "overhead" in head:
                assert f"{100 * r['overhead_at_budget']:.3g}%" in text, (i, text)
        else:
            assert r["status"] in text, (i, text)


WIDTH_CASES = [README_BUDGET, [*RATIO[:-2], "--max-overhead", "0.5"], ["budget", "--setting", "linear", "--T", "1e6", "--max-overhead", "0.1", "--explain"]]


@pytest.mark.parametrize("width", [80, 100])
@pytest.mark.parametrize("args", WIDTH_CASES)
def test_budget_table_at_80_and_100_columns(args, width, json_once):
    _check_budget_width(json_once(args), _run(args, columns=width), width)


def test_mutant_budget_columns_never_dropped_is_rejected(monkeypatch, json_once):
    from boundcalc.cli import common

    obj = json_once(README_BUDGET)
    monkeypatch.setattr(common, "fit_columns", lambda con, table, drop, floors=None: [])  # the old all-or-nothing table
    out = _run(README_BUDGET, columns=80)
    with pytest.raises(AssertionError):
        _check_budget_width(obj, out, 80)


SWEEP = ["regret", "--setting", "linear", "--rho", "0.001,0.01,0.1"]


def _check_sweep_width(obj: dict, out: str, width: int):
    """regret with a budget list: no line wider, nothing cut, each shown bound's value at each budget whole."""
    from rich.cells import cell_len

    lines = out.splitlines()
    assert all(cell_len(ln) <= width for ln in lines) and "…" not in out, [ln for ln in lines if "…" in ln][:3]
    rows = [{r["id"]: r for r in part["bounds"]} for part in obj["sweep"]]
    ids = _table_ids(out, set(rows[0]))
    assert ids and obj["value_id"][0] in ids
    for i in ids:
        k = next(n for n, ln in enumerate(lines) if ln.replace("★", " ").split()[:1] == [i])
        for part in rows:
            if part[i]["applicable"]:
                assert _whole(fmt(part[i]["value"]), lines[k]), (i, lines[k])
    head = next(ln for ln in reversed(lines) if ln.split()[:1] == ["headline"])
    assert all(_whole(fmt(v), head) for v in obj["value"]), head


@pytest.mark.parametrize("width", [80, 100])
@pytest.mark.parametrize("extra", [[], ["--all"]])
def test_regret_budget_list_at_80_and_100_columns(extra, width, json_once):
    _check_sweep_width(json_once(SWEEP), _run([*SWEEP, *extra], columns=width), width)


def test_mutant_budget_list_cells_never_wrap_is_rejected(monkeypatch, json_once):
    from boundcalc.cli import regret_cmd

    obj = json_once(SWEEP)
    monkeypatch.setattr(regret_cmd, "_render_sweep", mutate(
        regret_cmd._render_sweep, 'common.fmt(_budget_scalar(b), 4)}", justify="right")',
        'common.fmt(_budget_scalar(b), 4)}", justify="right", no_wrap=True)'))
    out = _run([*SWEEP, "--all"], columns=80)
    with pytest.raises(AssertionError):
        _check_sweep_width(obj, out, 80)
