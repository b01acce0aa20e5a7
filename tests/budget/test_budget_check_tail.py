"""`budget --check` widens its intervals of a mean by the unseen tail, as `budget --by simulation` does (an adversarial
review after issue 24: budget/check.py kept the plain Student-t / delta-method interval). A run's regret lies in
[0, T·Δ_max]; the mass above the largest of n runs is at most p* = 1 − 0.025^(1/n) at one-sided 97.5%, so the mean's
upper end gains (T·Δ_max − max run)·p* (docs/budget.md "Means and heavy tails"). Both commands now use one function,
budget.measured.assess.

Heavy-tailed data: 40 runs near 100 at the budget (the rare run that locks onto a bad arm is not among them). The
expected upper end is computed here from the formula (scipy's t quantile, math), never from the code's output.
Mutant kept: check_plan without the span (the old plain interval), whose upper end misses the floor.
"""

from __future__ import annotations

import functools
import importlib
import math

import numpy as np
import pytest
from scipy.stats import t as student

from boundcalc.budget import Target, UserNotion, solve
from mutation import mutate


@functools.lru_cache(maxsize=1)
def _plan():
    return solve("finite", 10**4, Target("overhead", 0.5), UserNotion("epsilon"))


class _Res:
    def __init__(self, final):
        self.regret = np.asarray(final, dtype=float).reshape(-1, 1)


def _plan_and_fakes(monkeypatch, private, limit):
    rc = importlib.import_module("boundcalc.verify.regret_check")
    plan = _plan()
    seq = iter([private, limit])

    def fake(montecarlo, alg, env, *a, **k):
        envs.append(env)
        return _Res(next(seq))

    monkeypatch.setattr(rc, "_simulate_quietly", fake)
    return plan


envs: list = []


def _expected_upper(x, span):
    R = x.size
    sample_hi = x.mean() + student.ppf(0.975, R - 1) * x.std(ddof=1) / math.sqrt(R)
    p_star = 1 - 0.025 ** (1 / R)
    return sample_hi + (span - x.max()) * p_star


def test_budget_check_mean_interval_has_the_tail_floor(monkeypatch):
    C = importlib.import_module("boundcalc.budget.check")
    rng = np.random.default_rng(5)
    private = 100 + rng.normal(0, 5, 40)
    limit = 60 + rng.normal(0, 5, 40)

    def run(fn):
        plan = _plan_and_fakes(monkeypatch, private, limit)
        return fn(plan, None, runs=40, seed=1)

    out = run(C.check_plan)
    assert out.status == "simulated", out.status
    M = importlib.import_module("boundcalc.budget.measured")
    env_span = out.regret["tail"]["span"]
    means = np.asarray(envs[0].means, dtype=float)  # the simulated instance (captured): span = T (max mean - min mean)
    assert env_span == pytest.approx(out.T * float(means.max() - means.min())) and env_span > 0
    hi = _expected_upper(private, env_span)
    assert out.regret["ci"][1] == pytest.approx(hi, rel=1e-9)
    assert out.regret["ci"][1] > out.regret["ci_sample"][1] + 1.0  # the floor is not negligible here
    # the overhead's upper end: the sample's plus the private tail over the counterpart's mean
    fp = (env_span - private.max()) * (1 - 0.025 ** (1 / 40))
    assert out.overhead["ci"][1] == pytest.approx(out.overhead["ci_sample"][1] + fp / limit.mean(), rel=1e-9)
    assert M.tail_mass(40) == pytest.approx(1 - 0.025 ** (1 / 40))
    # mutant: the plain interval (no span) -> the upper end is the sample's only
    bad = mutate(C.check_plan, "span = regret_span(env, T)", "span = None")
    out_bad = run(bad)
    R = private.size
    plain = private.mean() + student.ppf(0.975, R - 1) * private.std(ddof=1) / math.sqrt(R)
    assert out_bad.regret["ci"][1] == pytest.approx(plain, rel=1e-9)
    assert out_bad.regret["ci"][1] < hi
