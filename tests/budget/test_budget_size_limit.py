"""`budget --by simulation` has the size limits of `simulate` (an adversarial review after issue 24: ``--runs 1e6
--max-runs 1e6`` at T = 1e6 started a search of 1e12 run-steps per budget). The most runs at one budget (--max-runs)
times T is checked for the private algorithm and its counterpart before any work: the stretch / thinning limits
(algorithms.limits.check) and the per-step / chunked limits of simulate (algorithms.limits.check_run_steps, the same
values as cli/simulate_cmd.py). Mutant kept: the search without the check reaches the simulation.
"""

from __future__ import annotations

import pytest

from boundcalc.algorithms import limits
from boundcalc.budget import measured as M
from boundcalc.errors import InputError
from clirun import invoke, one_line_error
from mutation import mutate


def test_the_limits_are_those_of_simulate():
    from boundcalc.cli import simulate_cmd

    assert limits.PER_STEP_RUN_STEPS == simulate_cmd.PER_STEP_LIMIT and limits.CHUNK_RUN_STEPS == simulate_cmd.CHUNK_LIMIT


def test_cli_refuses_t_times_max_runs_beyond_the_limit():
    r = invoke("budget", "--setting", "finite", "--T", "1e6", "--by", "simulation", "--runs", "1e6", "--max-runs", "1e6",
               "--max-overhead", "1")
    line = one_line_error(r)
    assert "--T x --max-runs" in line and f"{limits.STRETCH_MAX_RUN_STEPS:g}" in line and "1000000000000" in line, line


class _Reached(Exception):
    pass


def _search(fn, max_runs):
    from boundcalc.envs.spec import Instance

    return fn("DP-KLUCB", Instance("finite", means=(0.9, 0.5)), 10**6, "overhead", 1.0, runs=2, max_runs=max_runs)


def test_search_checks_before_any_simulation(monkeypatch):
    def reached(*a, **k):
        raise _Reached

    monkeypatch.setattr(M, "PairedSimulator", reached)
    # T x max_runs = 1e6 x 2e5 = 2e11 > 1e11 (the counterpart KL-UCB takes the stretch path)
    from boundcalc.cli.flags import message

    with pytest.raises(InputError, match="T x max_runs") as e:  # the library's parameters; the CLI's flags:
        _search(M.search, 200_000)
    assert message(e.value).startswith("--T x --max-runs must be at most 1e+11")
    with pytest.raises(_Reached):  # within the limit (1e6 x 1e4 = 1e10): the search goes on to simulate
        _search(M.search, 10_000)
    bad = mutate(M.search, "product_name=f\"{flag('T')} x {flag('max_runs')}\")",
                 "product_name=f\"{flag('T')} x {flag('max_runs')}\") if False else None")
    with pytest.raises(_Reached):
        _search(bad, 200_000)
