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


# -- 1. --bound with regret --prior --------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def mine(tmp_path_factory):  # one file for the module: a plugin id is registered once per process, by its file
    f = tmp_path_factory.mktemp("plugin") / "mine.toml"
    f.write_text(MINE)
    return str(f)


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
