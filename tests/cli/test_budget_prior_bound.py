"""`budget --prior ... --bound ID` (issue 24 item 3): the selected bounds' budget on each instance drawn from the
prior, beside the recommendation (a ★ column each; JSON ``per_instance[i]["selected"]``), and over the instances
the largest, the quantile and the median (JSON ``selected``) — compared with budget.solve on each drawn instance
directly. Mutant: the recommendation's row reported for every selected bound. The options that answer for one
instance (--min-T, --check, --plot) are still refused with --prior."""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest

from boundcalc.budget import Target, solve
from boundcalc.cli import budget_cmd
from boundcalc.envs.spec import make_prior
from clirun import invoke, json_of, one_line_error
from mutation import mutate

SELECTED = ("001-thm3.1", "001-dp-se-explicit")
ARGS = ["budget", "--by", "bound", "--setting", "finite", "--max-overhead", "1", "--T", "1e5", "--prior", "uniform-gaps",
        "--K", "4", "--instances", "3", "--prior-seed", "3", "--prior-quantile", "0.75",
        *[x for b in SELECTED for x in ("--bound", b)]]


@functools.lru_cache(maxsize=None)
def _direct():
    """Per drawn instance and selected bound: (status, user budget) from budget.solve on that instance alone."""
    draws = make_prior("uniform-gaps", "finite", K=4).sample(3, seed=3)
    out = []
    for inst in draws:
        plan = solve("finite", 1e5, Target("overhead", 1.0), "epsilon", instance=inst, by="bound")
        out.append({b: (plan.row(b).status, plan.row(b).user_budget) for b in SELECTED})
    return out


def _agrees(obj, direct) -> bool:
    per = obj["per_instance"]
    if len(per) != len(direct):
        return False
    for r, d in zip(per, direct):
        for b in SELECTED:
            if r["selected_status"][b] != d[b][0] or not math.isclose(r["selected"][b], d[b][1], rel_tol=1e-12):
                return False
    for s in obj["selected"]:
        xs = np.array([d[s["id"]][1] for d in direct])
        sm = s["summary"]
        if not (math.isclose(sm["worst"], xs.max()) and math.isclose(sm["at_quantile"], np.quantile(xs, 0.75))
                and math.isclose(sm["median"], np.median(xs)) and sm["without_answer"] == 0):
            return False
    return [s["id"] for s in obj["selected"]] == list(SELECTED)


def test_prior_bound_reports_each_selected_bounds_budget_per_instance():
    direct = _direct()
    assert len({round(d[SELECTED[0]][1], 9) for d in direct}) == 3  # the instances differ: a value each
    obj = json_of(ARGS)
    assert _agrees(obj, direct)
    assert obj["value"] == max(r["value"] for r in obj["per_instance"])  # the recommendation is as before
    r = invoke(ARGS)
    assert r.exit_code == 0, r.output
    text = " ".join(r.stdout.split())
    for b in SELECTED:
        assert f"★ {b}" in text
    worst = max(d[SELECTED[1]][1] for d in direct)
    assert f"★ {SELECTED[1]} (DP-SE's upper bound): meets the target from ε = {budget_cmd.common.fmt(worst, 5)}" in text


def test_mutant_prior_bound_reporting_the_recommendation_is_rejected(monkeypatch):
    monkeypatch.setattr(budget_cmd, "_prior_budget", mutate(
        budget_cmd._prior_budget, "got = {b: plan.row(b) for b in selected}",
        "got = {b: plan.row(plan.value_id) for b in selected}"))
    assert not _agrees(json_of(ARGS), _direct())


def test_bound_with_prior_answers_by_the_bounds_without_by():
    """--bound selects a bound of the bounds' answer: with --prior and no --by, the answer is the bound-based one (not
    the refusal "--bound used with --by bound" of the measured default). With a simulation-only option (--algo) the
    measured answer is still chosen and --bound refused."""
    args = [a for a in ARGS if a not in ("--by", "bound")]
    assert args != ARGS and json_of(args) == json_of(ARGS)
    r = invoke(args + ["--algo", "DP-SE"])
    assert r.exit_code == 2 and "--bound" in one_line_error(r) and "--by bound" in one_line_error(r)


def test_without_bound_the_prior_json_has_no_selected():
    obj = json_of([a for a in ARGS if a not in SELECTED and a != "--bound"])
    assert "selected" not in obj and all("selected" not in r for r in obj["per_instance"])


@pytest.mark.parametrize("extra, flag", [(["--min-T"], "--min-T"), (["--check"], "--check"),
                                         (["--plot", "x.png"], "--plot")])
def test_options_for_one_instance_are_still_refused_with_prior(extra, flag, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = invoke(ARGS + extra)
    assert r.exit_code == 2 and flag in one_line_error(r) and "--prior" in one_line_error(r)
