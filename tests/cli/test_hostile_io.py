"""Hostile input that broke after the work or grew without bound (issue 17 §3), each with a mutant.

* huge T: the leader-stretch engine laid out ~T / 2**29 blocks per run and stretch (22 GiB at T = 1e18); every
  simulation path (episode, chunk, stretch, thinning, step) now runs at T = 1e18 or refuses --T / --T x --runs
  in one line before any work;
* output paths (--save, --plot, --report, worksheet --out) are checked before any work, in either case of the
  extension the writers accept;
* error messages name the options of the command run (audit: --epsilon, not --ldp-epsilon);
* progress bars and progress lines never reach stderr when it is not a terminal (CliRunner and a real pipe).
"""

from __future__ import annotations

import math
import os
import subprocess
import sys

import numpy as np
import pytest
from typer.testing import CliRunner

from clirun import app, runner

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))



def _run(args):
    return runner.invoke(app, args)


def _one_line(r) -> str:
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("boundcalc: error: "), lines[0]
    return lines[0]


class _Reached(Exception):
    """Raised by a sentinel standing in for the work: the command got past its checks."""


def _sentinel(*a, **k):
    raise _Reached()


# -- huge T -------------------------------------------------------------------------------------------------------
def test_stretch_grid_size_independent_count():
    """The engine's initial blocks of a stretch of length L, counted independently: [1,1], [2,2], [3,4], ... doubling
    up to length 2**29, then blocks of 2**29 -- ~L / 2**29 of them: the 22 GiB of issue 17 at L = 1e18."""
    from boundcalc.algorithms.finite import _stretch

    def count(L):
        n, lo = 1, 2
        while lo <= L:
            n += 1
            lo = min(2 * lo, lo + 2**29)
        return n

    for L in (1, 2, 5, 1000, 2**29 + 7, 10**10):
        assert _stretch._grid(L)[0].size == count(L)
    per_run = count(int(_stretch.STRETCH_MAX_T if hasattr(_stretch, "STRETCH_MAX_T") else 1e10))
    assert per_run < 100  # at the allowed maximum: under 100 blocks per run and stretch
    assert math.ceil(1e18 / 2**29) > 1e9  # what T = 1e18 would have laid out per run


def test_stretch_engine_refuses_huge_T_before_allocating(monkeypatch):
    """The engine itself (a library call) refuses T above its limit before laying out any block."""
    from boundcalc.algorithms.finite import _stretch
    from boundcalc.algorithms.limits import STRETCH_MAX_T
    from boundcalc.errors import InputError

    monkeypatch.setattr(_stretch, "_grid", _sentinel)
    with pytest.raises(InputError, match=r"T must be an integer in \[1, 1e\+10\]"):
        _stretch.simulate(None, [0.6, 0.4], 10**18, 5, _stretch.BernoulliSource([0.6, 0.4], np.random.default_rng(0)),
                          np.array([10**18]))
    # mutant: a limit that lets T = 1e18 through reaches the grid (the allocation)
    import boundcalc.algorithms.limits as lim

    monkeypatch.setattr(lim, "STRETCH_MAX_T", 1e30)
    with pytest.raises(_Reached):
        _stretch.simulate(type("P", (), {"ties": "random", "index": lambda *a: np.zeros((5, 2)),
                                         "stretch_setup": lambda *a: {}})(),
                          [0.6, 0.4], 10**18, 5, _stretch.BernoulliSource([0.6, 0.4], np.random.default_rng(0)),
                          np.array([10**18]))
    assert STRETCH_MAX_T == 1e10


# one algorithm per simulation path (boundcalc.algorithms.granularity / limits.path)
PATHS = [
    ("stretch", ["--algo", "UCB"]),
    ("stretch", ["--algo", "KL-UCB,IMED"]),
    ("thinning", ["--algo", "Lazy-DP-TS", "--epsilon", "1"]),
    ("step", ["--algo", "Lazy-DP-TS", "--epsilon", "1e-12"]),  # eps T below 5e5: the per-step loop
    ("step", ["--algo", "UCB", "--family", "gaussian"]),
    ("step", ["--algo", "OFUL"]),
    ("step", ["--algo", "LDP-OLS (multi-parameter)", "--ldp-epsilon", "1", "--ldp-delta", "0.01"]),
    ("chunk", ["--algo", "AdaC-OFUL", "--rho", "1"]),
]


@pytest.mark.parametrize("T,runs", [("1e18", "5"), ("1e15", "5"), ("1e11", "1e9")])
@pytest.mark.parametrize("path,args", PATHS, ids=[" ".join(a[:2]) for _, a in PATHS])
def test_huge_T_refused_before_any_work(path, args, T, runs, monkeypatch):
    """Every path except the episode one refuses a huge T (or T x runs) in one line naming --T, before any block
    runs (the simulation is replaced by a sentinel)."""
    from boundcalc.montecarlo import engine

    monkeypatch.setattr(engine, "run_block", _sentinel)
    r = _run(["simulate", *args, "--T", T, "--runs", runs])
    assert r.exit_code == 2, (r.exit_code, r.stderr, r.exception)
    line = _one_line(r)
    assert "--T" in line, line
    if T != "1e11":
        assert "--T must be" in line or "--T x --runs must be at most" in line


def test_huge_T_mutant_reaches_the_work(monkeypatch):
    """Mutant: without the stretch/thinning limits, UCB at T = 1e18 goes on to the simulation (the 22 GiB)."""
    import boundcalc.algorithms.limits as lim
    from boundcalc.montecarlo import engine

    monkeypatch.setattr(engine, "run_block", _sentinel)
    monkeypatch.setattr(lim, "LIMITS", {})
    r = _run(["simulate", "--algo", "UCB", "--T", "1e18", "--runs", "5"])
    assert isinstance(r.exception, _Reached)


@pytest.mark.parametrize("args", [["--algo", "DP-SE", "--epsilon", "1"], ["--algo", "AdaC-UCB", "--rho", "1"],
                                  ["--algo", "AdaC-GOPE", "--rho", "1"]])
def test_episode_paths_run_at_T_1e18(args):
    """The episode paths (cost ~ episodes ~ log T) give finite values at T = 1e18."""
    import json

    r = _run(["simulate", *args, "--T", "1e18", "--runs", "2", "--checkpoints", "3", "--json"])
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    mean = float(out["regret_mean"])
    assert math.isfinite(mean) and 0 <= mean <= 1e18  # pseudo-regret at most T x the largest gap (< 1)


def test_regret_check_reports_the_limit():
    """regret --check states the limit instead of running UCB-like paths beyond it (via _too_big)."""
    from boundcalc.algorithms import build, lookup
    from boundcalc.envs import make_env
    from boundcalc.verify.regret_check import _too_big

    env = make_env("mu2")
    alg = build(lookup("Lazy-DP-TS"), __import__("boundcalc.privacy", fromlist=["PureDP"]).PureDP(1.0), {})
    from boundcalc.cli.flags import FLAGS
    from boundcalc.errors import front_end_names

    assert _too_big("finite", alg, env, 10**15, 10).startswith("T must be")  # the library's parameter; in the CLI:
    with front_end_names(FLAGS):
        assert _too_big("finite", alg, env, 10**15, 10).startswith("--T must be")
    assert _too_big("finite", alg, env, 10**4, 10) == ""


# -- output paths before any work ------------------------------------------------------------------------------------
def test_save_in_upper_case_is_written(tmp_path):
    """--save s.NPZ was accepted by the up-front check and refused by the writer after the run (results lost)."""
    from boundcalc.montecarlo import Results

    p = str(tmp_path / "s.NPZ")
    r = _run(["simulate", "--algo", "UCB", "--T", "100", "--runs", "2", "--save", p, "--json"])
    assert r.exit_code == 0, r.stderr
    assert Results.load(p).T == 100
    q = str(tmp_path / "s.JSON")
    r = _run(["simulate", "--algo", "UCB", "--T", "100", "--runs", "2", "--save", q])
    assert r.exit_code == 0, r.stderr
    assert Results.load(q).T == 100


@pytest.mark.parametrize("cmd,bad", [
    (["simulate", "--algo", "UCB", "--T", "100", "--runs", "2", "--save"], "s.npy"),
    (["simulate", "--algo", "UCB", "--T", "100", "--runs", "2", "--save"], ".npz"),
    (["simulate", "--algo", "UCB", "--T", "100", "--runs", "2", "--save"], "/proc/s.npz"),
    (["simulate", "--algo", "UCB,KL-UCB", "--T", "100", "--runs", "2", "--save"], "/sys/s.json"),
    (["simulate", "--algo", "UCB", "--T", "100", "--runs", "2", "--plot"], ".png"),
    (["regret", "--setting", "finite", "--epsilon", "1", "--T", "1e3", "--check", "--runs", "5", "--plot"], ".png"),
    (["regret", "--setting", "finite", "--epsilon", "1", "--T", "1e3", "--check", "--runs", "5", "--plot"], "x.PNGG"),
    (["regret", "--setting", "finite", "--epsilon", "1", "--T", "1e3", "--check", "--runs", "5", "--plot"],
     "/proc/x.png"),
    (["budget", "--setting", "finite", "--max-overhead", "0.5", "--plot"], ".svg"),
    (["episodes", "--algo", "dp-se", "--epsilon", "1", "--plot"], "/sys/x.pdf"),
])
def test_output_path_refused_before_any_work(cmd, bad, monkeypatch):
    from boundcalc.montecarlo import engine
    from boundcalc.verify import regret_check

    monkeypatch.setattr(engine, "run_block", _sentinel)
    monkeypatch.setattr(regret_check, "check_rows", _sentinel)
    r = _run([*cmd, bad])
    assert r.exit_code == 2, (r.exit_code, r.stderr, r.exception)
    assert _one_line(r).split(": ")[2].split()[0] in ("--save", "--plot"), r.stderr


def test_output_path_mutant_is_caught(monkeypatch):
    """Mutant: the old suffix test (no name needed) lets '.png' through to the run."""
    from boundcalc.cli import common
    from boundcalc.verify import regret_check

    monkeypatch.setattr(regret_check, "check_rows", _sentinel)
    monkeypatch.setattr(common, "check_plot_path", lambda p: p)
    r = _run(["regret", "--setting", "finite", "--epsilon", "1", "--T", "1e3", "--check", "--runs", "5", "--plot",
              ".png"])
    assert isinstance(r.exception, _Reached)


@pytest.mark.parametrize("report", ["/proc/x.md", "/sys/x.md", ".md", "x.txt"])
def test_verify_report_unwritable_is_one_line_before_the_work(report, monkeypatch):
    """verify --report to an unwritable place: exit 2, one line, no claim evaluated (was 'internal error' after)."""
    from boundcalc.verify import claims

    monkeypatch.setattr(claims, "evaluate", _sentinel)
    r = _run(["verify", "--claim", "004-sum-log-base", "--report", report])
    assert r.exit_code == 2, (r.exit_code, r.stderr, r.exception)
    assert "--report" in _one_line(r)


def test_verify_report_mutant(monkeypatch):
    """Mutant: without the probe (permission bits only, which root passes), /proc/x.md reaches the work."""
    from boundcalc.cli import common
    from boundcalc.verify import claims

    if os.geteuid() != 0:
        pytest.skip("permission bits already refuse /proc for a non-root user")
    monkeypatch.setattr(claims, "evaluate", _sentinel)
    monkeypatch.setattr(common, "check_output_path", lambda *a: None)
    r = _run(["verify", "--claim", "004-sum-log-base", "--report", "/proc/x.md"])
    assert isinstance(r.exception, _Reached)


def test_worksheet_out_empty_is_refused():
    r = _run(["worksheet", "run", "000", "--out", ""])
    assert r.exit_code == 2 and "--out" in _one_line(r)


# -- error messages name the command's own options -------------------------------------------------------------------
def _options(cmd: str) -> set[str]:
    import typer.main

    c = typer.main.get_command(app).commands[cmd]
    return {o for p in c.params for o in (*p.opts, *getattr(p, "secondary_opts", ()))}


def named_options(line: str) -> set[str]:
    import re

    return set(re.findall(r"(?<![\w-])--[a-z][\w-]*", line))


@pytest.mark.parametrize("cmd,args", [
    ("audit", ["--algo", "LDP-OLS (multi-parameter)", "--epsilon", "-1"]),
    ("audit", ["--algo", "LDP-OLS", "--epsilon", "nan"]),
    ("audit", ["--algo", "LDP-SGD", "--epsilon", "1e400"]),
    ("audit", ["--algo", "LinUCB-DGS", "--epsilon", "-1"]),
    ("audit", ["--algo", "AdaR-UCB", "--alpha", "0.5", "--rdp-epsilon", "1"]),
    ("simulate", ["--algo", "DP-SE", "--epsilon", "-1", "--T", "100", "--runs", "2"]),
    ("simulate", ["--algo", "LDP-OLS", "--ldp-epsilon", "1", "--ldp-delta", "2", "--T", "100", "--runs", "2"]),
    ("simulate", ["--algo", "DP-SE,AdaC-UCB", "--epsilon", "1", "--rho", "-1", "--T", "100", "--runs", "2"]),
    ("regret", ["--setting", "finite", "--alpha", "0.5", "--rdp-epsilon", "1"]),
    ("regret", ["--setting", "glm", "--ldp-epsilon", "-1"]),
    ("regret", ["--setting", "finite", "--epsilon", "1,-1"]),
    ("episodes", ["--algo", "adac-ucb", "--rho", "-1"]),
    ("convert", ["--epsilon", "1", "--delta", "2"]),
    ("budget", ["--setting", "finite", "--notion", "rdp", "--alpha", "0.5", "--max-overhead", "0.1"]),
])
def test_budget_errors_name_the_commands_options(cmd, args):
    r = _run([cmd, *args])
    assert r.exit_code == 2, (r.exit_code, r.stderr)
    line = _one_line(r)
    named = named_options(line)
    param = line.split(": ", 2)[2].split(" must ")[0]
    assert named and named <= _options(cmd), (line, named - _options(cmd))
    assert param.startswith("--"), line  # not the budget class's bare "epsilon"


def test_option_naming_mutant(monkeypatch):
    """Mutant: without the renaming, audit names --ldp-epsilon (an option audit does not have)."""
    import contextlib

    from boundcalc.cli import common

    monkeypatch.setattr(common, "option_names", lambda *a, **k: contextlib.nullcontext())
    r = _run(["audit", "--algo", "LDP-OLS (multi-parameter)", "--epsilon", "-1"])
    line = _one_line(r)
    assert not named_options(line) <= _options("audit") or not line.split(": ", 2)[2].startswith("--"), line


# -- progress only on a terminal ---------------------------------------------------------------------------------
PROGRESS_CASES = [
    ["simulate", "--algo", "DP-SE", "--epsilon", "1", "--T", "1000", "--runs", "40", "--block-runs", "4", "--progress"],
    ["regret", "--setting", "finite", "--epsilon", "1", "--T", "300", "--check", "--runs", "3"],
]


@pytest.mark.parametrize("args", PROGRESS_CASES, ids=lambda a: a[0])
def test_no_progress_on_a_captured_stderr(args, monkeypatch):
    monkeypatch.setenv("FORCE_COLOR", "1")  # rich would draw into any stream with it
    r = _run(args)
    assert r.exit_code == 0, r.stderr
    assert r.stderr == ""


@pytest.mark.parametrize("args", PROGRESS_CASES, ids=lambda a: a[0])
def test_progress_mutant_is_seen(args, monkeypatch):
    """Mutant: progress gated as before (any stream) writes bars / '--check i/n' lines into captured stderr."""
    from boundcalc import progress

    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setattr(progress, "on_terminal", lambda: True)
    r = _run(args)
    assert r.exit_code == 0
    assert r.stderr != ""


# verify over several claims: on a terminal a progress bar over the claims (cli.common.track draws one from two items
# on); paper 002's 11 grid claims run in about half the time of paper 004's 13 (whose privacy claim alone takes ~2 s)
VERIFY_MANY = ["verify", "--paper", "002", "--method", "grid"]


@pytest.mark.parametrize("args", [PROGRESS_CASES[0], VERIFY_MANY], ids=["simulate", "verify"])
def test_no_progress_into_a_pipe(args):
    """A real process whose stderr is a pipe: nothing on stderr (FORCE_COLOR set, as CI systems do)."""
    if args[0] == "verify":  # the bar's case: more than one claim is evaluated
        from boundcalc.verify import claims as cl

        assert len([i for i in cl.select(paper="002", claim=None) if "grid" in cl.get(i).evaluators]) >= 2
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""), FORCE_COLOR="1",
               TTY_COMPATIBLE="1")
    r = subprocess.run([sys.executable, "-m", "boundcalc", *args], capture_output=True, text=True, timeout=300,
                       cwd=ROOT, env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stderr == "", r.stderr[:500]
