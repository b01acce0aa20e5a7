"""Hostile-input fuzz of every command and option (issue 7 §4 guard).

Every command and its options are read from the Typer app itself, so a new option is fuzzed automatically.
Each example starts from a valid invocation of a command and replaces one to three options with hostile values
(NaN, ±inf, 0, negatives, 1e308, 1e-320, empty and malformed lists, unknown names, bad paths, malformed
--param). The contract, checked on every example:

* exit 0 with valid output: with --json exactly one JSON object whose numbers are finite (an infinity is
  stated as the string "inf"/"-inf"; "nan" is never allowed); without --json, no "nan" in the text;
* or exit 2 with exactly one line on stderr, "boundcalc: error: <parameter> must be ...";
* never another exit code (1 is the last-resort "internal error" of cli/app.py:main), never a traceback,
  never a warning (warnings are turned into errors around each call).

The examples run in-process through ``boundcalc.cli.app.main`` (the console-script entry point, so the
one-line error formatting is the real one); a handful run as subprocesses of ``python -m boundcalc`` to cover
the real process: exit codes, stderr, and the internal-error guard. Monte Carlo options are kept small.
Hypothesis runs derandomised (the same examples in CI every time); set BOUNDCALC_FUZZ_EXAMPLES=N for a longer
local run with fresh examples.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import re
import resource
import signal
import subprocess
import sys
import time
import traceback
import warnings

import pytest
import typer.main
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from boundcalc.cli.app import app, main

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
N_EXAMPLES = int(os.environ.get("BOUNDCALC_FUZZ_EXAMPLES", "0"))
FUZZ = settings(max_examples=N_EXAMPLES or 20, deadline=None, derandomize=not N_EXAMPLES, database=None,
                suppress_health_check=list(HealthCheck))
SLOW_SECONDS = 20.0  # one invocation slower than this is a failure (hostile input must not hang the tool)
HANG_SECONDS = 60.0  # an invocation still running then is stopped (SIGALRM) and reported as a hang
MEMORY_MB = 1024  # an invocation raising the process's peak memory by more than this is a failure (issue 17 §3)

# -- the commands and their options, from the Typer app -------------------------------------------------------------
_ROOT_CMD = typer.main.get_command(app)


def _commands():
    """{"kl": click command, ..., "bounds show": click command}: every leaf command and every group callback."""
    out = {}
    for name, cmd in _ROOT_CMD.commands.items():
        out[name] = cmd
        for sub, c in (getattr(cmd, "commands", None) or {}).items():
            out[f"{name} {sub}"] = c
    return out


COMMANDS = _commands()


def options_of(name: str):
    """(value options, flags, arguments) of a command, by their first declaration string."""
    values, flags, args = [], [], []
    for p in COMMANDS[name].params:
        if p.param_type_name == "argument":
            args.append(p.name)
        elif getattr(p, "is_flag", False) or getattr(p, "secondary_opts", None):
            flags.append(p.opts[0])
        else:
            values.append(p.opts[0])
    return values, flags, args


# -- valid starting points (small Monte Carlo); hostile values replace some of their options --------------------------
SIM = ["--T", "200", "--runs", "4"]
BASES = {
    "kl": [["--p", "0.3", "--q", "0.5"], ["--p", "0", "--q", "1", "--level", "2", "--sigma", "1"]],
    "kl-inf": [["--mu-star", "0.6", "--mu", "0.4"], ["--mu-star", "0.6", "--support", "0,0.5,1", "--weights", "0.2,0.3,0.5"]],
    "d-eps": [["--mu", "0.3", "--mu-star", "0.5", "--epsilon", "1"],
              ["--mu", "0.3", "--mu-star", "0.5", "--epsilon", "1", "--N", "10", "--t", "100"]],
    "concentration": [["--n", "100", "--m", "3", "--mu", "0.5", "--x", "0.4", "--epsilon", "1"],
                      ["--n", "100", "--m", "3", "--mu", "0.5", "--x", "0.6", "--sigma", "1", "--mc-runs", "1000"]],
    "convert": [["--rho", "0.1"], ["--epsilon", "1", "--delta", "1e-6"], ["--alpha", "2", "--rdp-epsilon", "1"],
                ["--epsilon", "1"]],
    "regret": [["--setting", "finite", "--epsilon", "1", "--T", "1e4"], ["--setting", "finite", "--rho", "0.1"],
               ["--setting", "linear", "--rho", "0.1"], ["--setting", "contextual", "--rho", "0.1"],
               ["--setting", "glm", "--ldp-epsilon", "1", "--ldp-delta", "0.01"],
               ["--setting", "finite", "--alpha", "2", "--rdp-epsilon", "1"]],
    "episodes": [["--algo", "adac-ucb", "--rho", "1"], ["--algo", "dp-klucb", "--epsilon", "1"],
                 ["--algo", "dp-se", "--epsilon", "1"], ["--algo", "adar-gope", "--alpha", "2", "--rdp-epsilon", "1"],
                 ["--algo", "adac-gope", "--rho", "0.5"], ["--algo", "adac-oful", "--rho", "1"],
                 ["--algo", "adar-oful", "--alpha", "2", "--rdp-epsilon", "1"], ["--algo", "adap-klucb", "--epsilon", "1"]],
    "simulate": [["--algo", "AdaC-UCB", "--rho", "1", *SIM], ["--algo", "DP-IMED", "--epsilon", "1", *SIM],
                 ["--algo", "UCB", *SIM], ["--algo", "DP-SE", "--epsilon", "1", *SIM],
                 ["--algo", "AdaC-GOPE", "--rho", "1", *SIM],
                 ["--algo", "AdaC-OFUL", "--rho", "1", "--T", "100", "--runs", "2"],
                 ["--algo", "LDP-OLS", "--ldp-epsilon", "1", "--ldp-delta", "0.01", "--T", "100", "--runs", "2"],
                 # several algorithms in one call, and the executors (issue 17 §3)
                 ["--algo", "UCB,KL-UCB", *SIM], ["--algo", "DP-SE,AdaC-UCB", "--epsilon", "1", "--rho", "1", *SIM],
                 ["--algo", "UCB", "--executor", "processes", "--workers", "2", *SIM]],
    # --by bound: a valid simulation-only option (--quantile 0.5, --plot-dist FILE.png) would start a measured search
    # at T = 1e6; budget --by simulation's bad input is tested in tests/budget/test_budget_measured.py
    "budget": [["--setting", "linear", "--max-overhead", "0.1", "--by", "bound"],
               ["--setting", "finite", "--max-regret", "1e4", "--by", "bound"],
               ["--setting", "glm", "--max-overhead", "0.2", "--T", "1e5,1e6", "--by", "bound"],
               ["--setting", "linear", "--min-T", "--rho", "0.1", "--max-overhead", "0.1", "--by", "bound"],
               ["--setting", "finite", "--notion", "approx", "--max-ratio-to-lower", "50", "--by", "bound"]],
    "algorithms": [[]],
    "verify": [["--claim", "004-sum-log-base"]],
    "check": [["d_eps(mu, mu_star, epsilon) <= kl(mu, mu_star)", "--box", "mu=0.1:0.4,mu_star=0.5:0.9,epsilon=0.1:1",
               "--points", "50"],
              ["x/y <= 1 and sqrt(x - 0.7) >= 0", "--box", "x=0.5:1,y=0:0.4", "--points", "50", "--max-seconds", "2"]],
    "bounds": [[], ["--setting", "finite"]],
    "bounds show": [["000-thm5"]],
    "worksheet": [[]],
    "worksheet list": [[]],
    "worksheet run": [["000", "--fast"]],
    "audit": [["--algo", "DP-SE", "--trials", "200"], ["--algo", "AdaC-UCB", "--rho", "1", "--trials", "200"],
              ["--algo", "LinUCB-DGS", "--epsilon", "1", "--delta", "0.001", "--trials", "200"],
              ["--algo", "AdaR-UCB", "--alpha", "2", "--rdp-epsilon", "1", "--trials", "200", "--mutant", "no-noise"],
              ["--algo", "LDP-OLS", "--epsilon", "1", "--delta", "0.01", "--trials", "200", "--param", "C_B=8"],
              ["--algo", "LDP-SGD", "--epsilon", "1", "--trials", "200"], ["--algo", "Lazy-DP-TS", "--trials", "200"],
              ["--list"]],
    "lower": [["--rho", "0.1", "--means", "0.5,0.4", "--alt-means", "0.5,0.6", "--T", "1000"],
              ["--rho", "1", "--means", "0.5,0.4", "--alt-means", "0.5,0.6", "--family", "gaussian", "--sigma", "0.5",
               "--T", "100", "--pulls", "60,40", "--variance", "3"]],
}
# Commands whose valid runs take longer than a fuzz example may (a whole paper worksheet, seconds to minutes): their bad
# input is tested in their own file (tests/experiments/test_worksheets.py::test_bad_input_is_one_line), not fuzzed here.
NOT_FUZZED = {"worksheet run"}

NUMBERS = ["nan", "NaN", "inf", "-inf", "Infinity", "0", "-0", "-1", "1e308", "-1e308", "1e-320", "1e400", "2.5",
           "1e19", "1e18", "0.5", "1", "abc", "", " ", "0x10", "1_000", "1e300", "-1e300", "1e15", "garbage text"]
LISTS = [",", ",,", "1,,2", "0.5,nan", "0.5,inf", "abc,0.5", "0.5;0.2", "1e308,0.5", "-0.1,0.5", "0.5,0.5,0.5",
         "0.9,0.1", "1e-320,1"]
# lists and ranges of the quantity commands (boundcalc.cli.sweep): reversed, empty, 0 / 1 / 1e9 points, bad spacing,
# non-finite ends, unequal lengths (two options drawing lists of different lengths)
RANGES = ["0.1:0.9:5", "0.9:0.1:5", "0.5:0.5:3", "0.1:0.9:0", "0.1:0.9:1", "0.1:0.9:1e9", "0.1:0.9:-3", "0.1:0.9",
          ":", "::", ":::", "0.1:0.9:5:cubic", "1e-3:10:4:log", "0:1:3:log", "nan:1:3", "0.1:inf:3", "1:1e6:3",
          "0.1:0.9:2.5", "-1:1:3", "1:1e18:3", "0.2,0.4", "0.1,0.2,0.3,0.4"]
NAMES = ["nope", "UNKNOWN", "../x", "a=b", "\u00e9", "finite", "pure", "upper", "mu2", "zcdp-linear", "gaussian",
         "001", "DP-SE", "UCB,UCB", "UCB,,KL-UCB", "UCB,AdaC-OFUL", "processes", "dask", "in-process", "Processes"]
PATHS = ["/", "/nonexistent-dir/x.png", "x.txt", "/proc/x.png", "{tmp}", "{tmp}/missing/x.json", "{tmp}/o.png",
         "{tmp}/o.npz", "{tmp}/o.json", "/proc/x.npz",
         # wrong-case and nameless extensions, unwritable places, reports (issue 17 §3)
         "{tmp}/o.NPZ", "{tmp}/o.PNG", "{tmp}/o.Json", "{tmp}/.png", "{tmp}/.npz", "/sys/x.png", "/sys/x.json",
         "/proc/x.md", "{tmp}/r.md", "{tmp}/r.MD", "{tmp}/o.npy"]
PARAMS = ["=", "x", "x=", "=1", "c=nan", "c=inf", "lam=-1", "unknown=1", "c=1e308", "schedule=nope", "c=1=2",
          "alpha=0", "delta=2", "C=1e-320"]
HOSTILE = NUMBERS + LISTS + RANGES + NAMES + PATHS + PARAMS

# -- failures in code owned by the regret helper (cli/bounds_cmd.py, bounds/, verify/regret_check.py) ---------------
# Each entry is a set of (option, value) pairs; a fuzz example that contains all pairs of an entry is skipped, and
# the entry itself is a skipped test below. The integrator removes this list after merging the regret fixes.
KNOWN_REGRET_FAILURES: list[dict] = []  # the regret fixes of issue 7 landed: nothing is skipped any more


def _is_known(cmd: str, argv: list[str]) -> bool:
    for k in KNOWN_REGRET_FAILURES:
        if k["cmd"] != cmd:
            continue
        pairs = list(zip(k["args"][::2], k["args"][1::2]))
        if all(_value_of(argv, o) == v for o, v in pairs):
            return True
    return False


def _value_of(argv, opt):
    val = None
    for i, a in enumerate(argv[:-1]):
        if a == opt:
            val = argv[i + 1]
    return val


# -- running and checking -------------------------------------------------------------------------------------------
class Hang(BaseException):
    """Raised by SIGALRM inside an invocation that runs past HANG_SECONDS (a BaseException: the CLI's last-resort
    guard catches Exception only, so it cannot swallow it)."""


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # Linux: KiB


LAST_MEMORY_MB = [0.0]  # the peak-memory increase of the last invocation


def invoke(argv: list[str], hang_seconds: float | None = None):
    """(exit code, stdout, stderr, traceback or None, seconds) of main(argv) in-process, warnings as errors.

    A run past ``hang_seconds`` (default HANG_SECONDS) is stopped by SIGALRM and reported with code "hang";
    LAST_MEMORY_MB[0] is how much the process's peak memory grew during the call."""
    out, err = io.StringIO(), io.StringIO()
    code, tb = None, None
    t0 = time.perf_counter()
    peak0 = _peak_mb()
    old = os.environ.get("BOUNDCALC_TRACEBACK")
    os.environ["BOUNDCALC_TRACEBACK"] = "1"  # an internal error re-raises here, so the report has its traceback

    def _alarm(signum, frame):
        raise Hang(f"still running after {hang_seconds or HANG_SECONDS:g} s")

    timer = hasattr(signal, "setitimer") and __import__("threading").current_thread() is __import__(
        "threading").main_thread()
    if timer:
        prev = signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, hang_seconds or HANG_SECONDS)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), warnings.catch_warnings():
            warnings.simplefilter("error")
            try:
                main(argv)
                code = 0
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            except Hang:
                tb = traceback.format_exc()
                code = "hang"
            except BaseException:  # noqa: BLE001 - the contract says never; report it
                tb = traceback.format_exc()
                code = "exception"
    finally:
        if timer:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, prev)
        if old is None:
            os.environ.pop("BOUNDCALC_TRACEBACK", None)
        else:
            os.environ["BOUNDCALC_TRACEBACK"] = old
    LAST_MEMORY_MB[0] = _peak_mb() - peak0
    return code, out.getvalue(), err.getvalue(), tb, time.perf_counter() - t0


def _walk(obj, path="$"):
    """Yield (path, value) for every leaf of a JSON value."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _walk(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _walk(v, f"{path}[{i}]")
    else:
        yield path, obj


_NAN_WORD = re.compile(r"(?<![A-Za-z])nan(?![A-Za-z])", re.IGNORECASE)
# "boundcalc: error: PARAM must be ..." (InputError) or click's own parse errors, which quote the option
# ("Invalid value for '--digits'", "No such option: --x", "Missing option '--p'") or the command / argument
_ERROR_LINE = re.compile(r"^boundcalc: error: (\S.*? must (be|not|have|lie)\b|.*'?--[A-Za-z][\w-]*|No such command|"
                         r".*(Missing argument|unexpected extra argument))")


def _command_of(argv: list[str]) -> str | None:
    """The command of an argv ("bounds show" before "bounds"), or None for an unknown one."""
    if len(argv) >= 2 and f"{argv[0]} {argv[1]}" in COMMANDS:
        return f"{argv[0]} {argv[1]}"
    return argv[0] if argv and argv[0] in COMMANDS else None


def _all_options(cmd: str) -> set[str]:
    return {o for p in COMMANDS[cmd].params for o in (*p.opts, *(getattr(p, "secondary_opts", None) or ()))}


_OPTION_WORD = re.compile(r"(?<![\w-])--[a-z][\w-]*")


def misnamed_options(argv: list[str], line: str) -> str | None:
    """An error line must name the options of the command run (issue 17 §3: audit named --ldp-epsilon): every
    --option it names is one of the command's, and the parameter it blames is not the bare name of an option the
    user gave ("epsilon must be ..." after --epsilon -1; a derived quantity of the same name, such as the ρ that
    convert derives from --delta, is not the option)."""
    cmd = _command_of(argv)
    if cmd is None or not line.startswith("boundcalc: error: "):
        return None
    opts = _all_options(cmd) | {"--help"}
    text = line[len("boundcalc: error: "):]
    head = text.split(" must ")[0] if " must " in text else ""
    got = text.rfind("(got ")
    named = set(_OPTION_WORD.findall(text[:got] if got > 0 else text))
    foreign = sorted(named - opts)
    if foreign and "No such option" not in text:
        return f"names {', '.join(foreign)}, not an option of '{cmd}'"
    if head and not head.startswith("-") and f"--{head}" in opts and f"--{head}" in argv:
        return f"blames '{head}' where the option given is --{head}"
    return None


def contract_violation(argv: list[str], slow_seconds: float = SLOW_SECONDS) -> str | None:
    """None when the run keeps the contract, else a description (with the traceback when there is one)."""
    code, out, err, tb, secs = invoke(argv)
    where = "boundcalc " + " ".join(repr(a) if not a or " " in a else a for a in argv)
    if code == "hang":
        return f"{where}\n  hangs: still running after {HANG_SECONDS:g} s"
    if tb is not None:
        tail = "\n".join(tb.strip().splitlines()[-8:])
        return f"{where}\n  raised (a traceback or a warning turned into an error):\n{tail}"
    if secs > slow_seconds:
        return f"{where}\n  took {secs:.1f} s"
    if LAST_MEMORY_MB[0] > MEMORY_MB:
        return f"{where}\n  peak memory grew by {LAST_MEMORY_MB[0]:.0f} MB (limit {MEMORY_MB} MB)"
    if "Traceback" in err or "Warning" in err:
        return f"{where}\n  stderr: {err}"
    if code == 0:
        if "--json" in argv:
            lines = [ln for ln in out.splitlines() if ln.strip()]
            if len(lines) != 1:
                return f"{where}\n  --json printed {len(lines)} lines"
            try:
                obj = json.loads(lines[0])
            except ValueError as exc:
                return f"{where}\n  invalid JSON ({exc}): {lines[0][:300]}"
            if not isinstance(obj, dict):
                return f"{where}\n  JSON is not an object"
            for path, v in _walk(obj):  # inputs too: a NaN echoed there is an option nobody validated
                if isinstance(v, float) and not math.isfinite(v):
                    return f"{where}\n  non-finite JSON number at {path}"
                if isinstance(v, str) and v.strip().lower() == "nan":
                    return f"{where}\n  NaN at {path}"
        elif _NAN_WORD.search(out):
            return f"{where}\n  'nan' in the output:\n{out[:2000]}"
        return None
    if code == 2:
        lines = [ln for ln in err.splitlines() if ln.strip()]
        if len(lines) != 1:
            return f"{where}\n  exit 2 with {len(lines)} stderr lines:\n{err[:1500]}"
        if not _ERROR_LINE.match(lines[0]):
            return f"{where}\n  exit 2 but the line does not name a parameter: {lines[0]}"
        bad = misnamed_options(argv, lines[0])
        if bad:
            return f"{where}\n  the error {bad}: {lines[0]}"
        return None
    return f"{where}\n  exit code {code}; stderr: {err[:1500]}"


def _fill(value: str, tmp: str) -> str:
    return value.replace("{tmp}", tmp)


def _example(cmd: str):
    """A strategy of argv lists for one command: a base invocation with 1-3 options replaced by hostile values."""
    values, flags, args = options_of(cmd)
    parts = cmd.split()

    @st.composite
    def build(draw):
        base = list(draw(st.sampled_from(BASES[cmd])))
        n = draw(st.integers(1, min(3, len(values)))) if values else 0
        chosen = draw(st.lists(st.sampled_from(values), min_size=n, max_size=n, unique=True)) if values else []
        argv = list(base)
        for opt in chosen:
            if opt in argv:  # drop the base's value of this option
                i = argv.index(opt)
                del argv[i:i + 2]
            argv += [opt, draw(st.sampled_from(HOSTILE))]
        if args and draw(st.booleans()):  # hostile positional argument (bounds show ID)
            argv = [draw(st.sampled_from(HOSTILE))] + [a for a in argv if a not in base[:len(args)]]
        safe_flags = [f for f in flags if f not in ("--check",)]  # --check runs Monte Carlo: its own test below
        for f in safe_flags:
            if draw(st.booleans()):
                argv.append(f)
        return parts + argv

    return build()


FUZZED = [c for c in COMMANDS if c in BASES and c not in NOT_FUZZED]


def test_every_command_has_a_base():
    """A new command must be added to BASES (its options are then fuzzed automatically)."""
    assert set(COMMANDS) == set(BASES), set(COMMANDS) ^ set(BASES)


def _fuzz_one(cmd, argv, tmp_path):
    argv = [_fill(a, str(tmp_path)) for a in argv]
    assume(not _is_known(cmd, argv))
    bad = contract_violation(argv)
    assert bad is None, bad


@pytest.mark.parametrize("cmd", FUZZED)
def test_fuzz_command(cmd, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("fuzz")

    @FUZZ
    @given(argv=_example(cmd))
    def run(argv):
        _fuzz_one(cmd, argv, tmp)

    run()


class _WorkStarted(BaseException):
    """Stands in for a worksheet's work: the command accepted its input (a BaseException, past the CLI's guard)."""


def test_fuzz_worksheet_run_input(tmp_path_factory, monkeypatch):
    """`worksheet run` (NOT_FUZZED: a valid run is a whole worksheet) with hostile values: the work is replaced by a
    sentinel, so an accepted input stops there at once; a refused one must be one line, exit 2, before it."""
    from boundcalc.experiments.session import Session

    def started(self):
        raise _WorkStarted()

    monkeypatch.setattr(Session, "run_all", started)
    tmp = tmp_path_factory.mktemp("fuzz-ws")
    seen = {"accepted": 0, "refused": 0}

    @FUZZ
    @given(argv=_example("worksheet run"))
    def run(argv):
        argv = [_fill(a, str(tmp)) for a in argv]
        code, out, err, tb, secs = invoke(argv)
        if tb is not None and "_WorkStarted" in tb:
            seen["accepted"] += 1
            return  # accepted: the work would have started
        seen["refused"] += 1
        assert tb is None, tb
        assert code == 2, (argv, code, err)
        lines = [ln for ln in err.splitlines() if ln.strip()]
        assert len(lines) == 1 and _ERROR_LINE.match(lines[0]), (argv, err)
        assert misnamed_options(argv, lines[0]) is None, (argv, lines[0])

    run()
    assert seen["refused"] > 0 and seen["accepted"] > 0, seen  # both sides drawn: the sentinel is reached


# -- every option alone with the extreme numbers (deterministic sweep; the fuzz above draws the rest) ---------------
SWEEP_VALUES = ["nan", "-1", "0", "1e308", "1e-320"]
if N_EXAMPLES:  # a longer local run sweeps every hostile number
    SWEEP_VALUES = NUMBERS


def _sweep_cases():
    for cmd in ("kl", "kl-inf", "d-eps", "concentration", "convert", "episodes", "regret", "simulate"):
        values, _, _ = options_of(cmd)
        for opt in values:
            yield cmd, opt


@pytest.mark.parametrize("cmd,opt", list(_sweep_cases()))
def test_sweep_option(cmd, opt, tmp_path):
    bad = []
    # every base where a command's bases differ in kind (episodes: one per algorithm; regret, convert: one per
    # notion) would cost the suite ~2 minutes: each option is swept on the first base and on one more chosen by the
    # option's name (stable; across the options every base is used); BOUNDCALC_FUZZ_EXAMPLES=N sweeps all
    if N_EXAMPLES:
        bases = BASES[cmd]
    elif cmd in ("episodes", "regret", "convert"):
        bases = [BASES[cmd][0]] + [BASES[cmd][1 + sum(map(ord, opt)) % (len(BASES[cmd]) - 1)]]
    else:
        bases = BASES[cmd][:1]
    for base in bases:
        for v in SWEEP_VALUES:
            argv = list(base)
            if opt in argv:
                i = argv.index(opt)
                del argv[i:i + 2]
            argv = cmd.split() + argv + [opt, v, "--json"]
            if _is_known(cmd, argv):
                continue
            msg = contract_violation(argv)
            if msg:
                bad.append(msg)
    assert not bad, "\n\n".join(bad[:5])


# -- combinations found by hand (issue 7 §4) --------------------------------------------------------------------------
@pytest.mark.parametrize("argv", [
    ["kl", "--p", "0.3", "--q", "0.5", "--digits", "30", "--level", "Infinity"],
    ["kl", "--p", "0.3", "--q", "0.5", "--level", "1e308"],
    ["kl", "--p", "0.3", "--q", "0.5", "--digits", "30", "--level", "1e-320"],
    ["episodes", "--algo", "adar-gope", "--alpha", "2", "--rdp-epsilon", "1", "--delta", "1e-320"],
    ["episodes", "--algo", "adac-ucb", "--rho", "1", "--lambda", "nan"],
    ["concentration", "--n", "100", "--m", "3", "--mu", "0.5", "--x", "0.4", "--epsilon", "1e308"],
    ["concentration", "--n", "100", "--m", "3", "--mu", "0.5", "--x", "0.4", "--epsilon", "1e-320", "--mc-runs", "100"],
    ["concentration", "--n", "1e18", "--m", "1e18", "--mu", "1", "--x", "0", "--epsilon", "1e308"],
    ["concentration", "--n", "100", "--m", "3", "--mu", "0.5", "--x", "0.4", "--sigma", "1e-320"],
    ["concentration", "--n", "1:1e18:3", "--m", "3", "--mu", "0,0.5,1", "--x", "0.4", "--epsilon", "1e-320:1e308:3"],
    ["kl", "--p", "0:1:5", "--q", "1:0:5"],
    ["kl", "--p", "0:1:1e9", "--q", "0.5"],
    ["kl", "--p", "0:1:0", "--q", "0.5"],
    ["kl", "--p", "0:1:3", "--q", "0.5,0.6"],
    ["kl", "--p", "0:1:3", "--q", "0:1:3", "--level", "0,2,1e-320", "--digits", "20"],
    ["d-eps", "--mu", "0:1:4", "--mu-star", "1e-320,0.5,1,0", "--epsilon", "1e-320:1e308:4", "--N", "1:1e6:4",
     "--t", "1e18"],
    ["d-eps", "--mu", "0.3", "--mu-star", "0.5", "--epsilon", "1e-3:10:4:log", "--digits", "30"],
    ["kl-inf", "--mu-star", "0:1:5", "--support", "0,0.5,1", "--weights", "0.2,0.3,0.5"],
    ["kl-inf", "--mu-star", "0.5", "--mu", ",", "--json"],
    ["check", "d_eps(x, y, e) <= kl(x, y)", "--box", "x=0:1,y=0:1,e=1e-320:1e308", "--max-seconds", "2"],
    ["check", "kl(x, y) <= 1e308", "--box", "x=0:1,y=0:1", "--method", "proof", "--max-seconds", "1e-320"],
    # issue 17: size limits, time limits, grid re-checks, domains, == tolerance, infinite margins
    ["check", "x**(10**8) <= 2", "--box", "x=0.5:1", "--max-seconds", "2"],
    ["check", "10**10**10 <= x", "--box", "x=0:1"],
    ["check", "(-8)**(1/3) <= x", "--box", "x=0:1"],
    ["check", "x/y <= 1", "--box", "x=0.5:1,y=0:0.4", "--method", "grid"],
    ["check", "sqrt(x) <= 10", "--box", "x=-100:1"],
    ["check", "log(x) <= 0", "--box", "x=0:1", "--max-seconds", "2"],
    ["check", "exp(exp(x)) <= 1e300", "--box", "x=0:1e6", "--max-seconds", "1"],
    ["check", "kl(x, y) <= 1000", "--box", "x=0:1,y=0:1", "--max-seconds", "2"],
    ["check", "kl(x,y) == kl(x,y) + 1e-10", "--box", "x=0.1:0.9,y=0.1:0.9", "--max-seconds", "2"],
    ["check", "x <= 1e-320", "--box", "x=0:1e-320"],
    ["check", "0*x <= 0", "--box", "x=-1e308:1e308", "--max-seconds", "2"],
    ["check", "x*1e308*10 <= 1", "--box", "x=0:1", "--max-seconds", "2"],
    ["convert", "--rho", "1e308"],
    ["convert", "--rho", "1e19"],
    ["simulate", "--algo", "AdaC-UCB", "--rho", "1e308", *SIM],
    ["simulate", "--algo", "UCB", "--save", "/", *SIM],
    ["simulate", "--algo", "AdaC-OFUL", "--rho", "1", "--T", "1e18", "--runs", "2"],
    ["simulate", "--algo", "UCB", "--processes", "1e6", *SIM],
    # issue 17 §3: huge T on the stretch, thinning and multi-parameter GLM paths (22 GiB, hangs), output paths
    # refused after the run, audit naming --ldp-epsilon, verify --report's internal error, executors' workers
    ["simulate", "--algo", "UCB", "--T", "1e18", "--runs", "5"],
    ["simulate", "--algo", "KL-UCB,IMED", "--T", "1e15", "--runs", "1e9"],
    ["simulate", "--algo", "Lazy-DP-TS", "--epsilon", "1", "--T", "1e15", "--runs", "5"],
    ["simulate", "--algo", "Lazy-DP-TS", "--epsilon", "1e-20", "--T", "1e18", "--runs", "5"],
    ["simulate", "--algo", "LDP-OLS (multi-parameter)", "--ldp-epsilon", "1", "--ldp-delta", "0.01", "--T", "1e15",
     "--runs", "5"],
    ["simulate", "--algo", "DP-SE", "--epsilon", "1", "--T", "1e18", "--runs", "2", "--checkpoints", "3"],
    ["simulate", "--algo", "UCB", "--save", "/sys/s.NPZ", *SIM],
    ["simulate", "--algo", "UCB", "--save", "s.NPY", *SIM],
    ["simulate", "--algo", "UCB", "--plot", ".png", *SIM],
    ["regret", "--setting", "finite", "--epsilon", "1", "--T", "1e3", "--check", "--runs", "5", "--plot", ".png"],
    ["regret", "--setting", "finite", "--epsilon", "1", "--T", "1e18", "--check", "--runs", "3"],
    ["audit", "--algo", "LDP-OLS (multi-parameter)", "--epsilon", "-1"],
    ["audit", "--algo", "LDP-SGD", "--epsilon", "1e300"],
    ["verify", "--claim", "004-sum-log-base", "--report", "/proc/x.md"],
    ["verify", "--claim", "004-sum-log-base", "--report", ".md"],
    ["worksheet", "run", "000", "--out", ""],
    ["worksheet", "run", "000", "--out", "/proc/x"],
    ["worksheet", "run", "nope"],
    ["simulate", "--algo", "UCB", "--executor", "dask-local", "--workers", "0", *SIM],
    ["simulate", "--algo", "UCB", "--executor", "dask-local", "--workers", "1e300", *SIM],
    ["simulate", "--algo", "UCB", "--executor", "processes", "--workers", "nan", *SIM],
    ["simulate", "--algo", "UCB,KL-UCB", "--executor", "processes", "--workers", "-1", *SIM],
    ["simulate", "--algo", "UCB", "--executor", "Dask-Local", *SIM],
])
@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_reported_cases(argv, json_flag):
    bad = contract_violation(argv + json_flag)
    assert bad is None, bad


def test_executors_with_several_algorithms():
    """Multi-algorithm simulate on each local executor with hostile-small settings: exit 0, one JSON object (the
    Dask LocalCluster takes seconds to start: its own allowance)."""
    from boundcalc.montecarlo import executors

    argv = ["simulate", "--algo", "UCB,KL-UCB", "--T", "100", "--runs", "4", "--block-runs", "2", "--json"]
    assert contract_violation(argv + ["--executor", "processes", "--workers", "2"], slow_seconds=HANG_SECONDS) is None
    if executors.dask_available():
        bad = contract_violation(argv + ["--executor", "dask-local", "--workers", "1"], slow_seconds=HANG_SECONDS)
        assert bad is None, bad


@pytest.mark.parametrize("argv", [
    ["regret", "--setting", "finite", "--epsilon", "1", "--T", "1e3", "--check", "--runs", "5"],
    ["regret", "--setting", "finite", "--epsilon", "nan", "--T", "1e3", "--check", "--runs", "5"],
    ["regret", "--setting", "finite", "--epsilon", "1", "--T", "1e3", "--check", "--runs", "0"],
    ["regret", "--setting", "finite", "--epsilon", "1", "--T", "1e3", "--check", "--runs", "1e308"],
])
def test_regret_check_small(argv):
    if _is_known("regret", argv):
        pytest.skip("KNOWN_REGRET_FAILURES")
    bad = contract_violation(argv)
    assert bad is None, bad


@pytest.mark.skip(reason="known failure in regret/bounds code, being fixed by the regret helper in parallel "
                         "(KNOWN_REGRET_FAILURES; the integrator removes the list after merging)")
@pytest.mark.parametrize("known", KNOWN_REGRET_FAILURES, ids=lambda k: " ".join([k["cmd"], *k["args"]]))
def test_known_regret_failures(known):
    bad = contract_violation(known["cmd"].split() + known["args"])
    assert bad is None, bad


# -- the real entry point in a subprocess -------------------------------------------------------------------------
def _proc(*args, env=None):
    e = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""), **(env or {}))
    e.pop("BOUNDCALC_TRACEBACK", None)
    return subprocess.run([sys.executable, "-W", "error", "-m", "boundcalc", *args], capture_output=True, text=True,
                          timeout=120, cwd=ROOT, env=e)


@pytest.mark.parametrize("args", [
    ["kl", "--p", "nan", "--q", "0.5"],
    ["episodes", "--algo", "adac-ucb", "--rho", "1", "--lambda", "nan"],
    ["simulate", "--algo", "UCB", "--save", "/nonexistent-dir/r.npz", *SIM],
    ["concentration", "--n", "1e400", "--m", "1", "--mu", "0.5", "--x", "0.4", "--epsilon", "1"],
    ["convert", "--rho", "abc"],  # a click parse error: one line too
    ["nonexistent-command"],
])
def test_entry_point_usage_errors(args):
    r = _proc(*args)
    assert r.returncode == 2, (r.returncode, r.stderr)
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("boundcalc: error:"), r.stderr
    assert r.stdout == ""


@pytest.mark.parametrize("args", [
    ["kl", "--p", "0.3", "--q", "0.5", "--digits", "30", "--level", "Infinity", "--json"],
    ["concentration", "--n", "400", "--m", "9", "--mu", "0.5", "--x", "0.42", "--epsilon", "1e308", "--json"],
])
def test_entry_point_success_without_warnings(args):
    r = _proc(*args)  # python -W error: any warning would be an internal error (exit 1)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    json.loads(r.stdout)


def test_no_arguments_prints_the_help_once_and_exits_2():
    """`boundcalc` alone: the usage/help on stderr once, exit 2, no blank 'error' line (was: help twice on stdout
    and an empty line on stderr)."""
    r = _proc()
    assert r.returncode == 2
    assert r.stdout == ""
    assert r.stderr.count("Usage") == 1 and "kl" in r.stderr
    assert not any(ln.strip() in ("boundcalc: error:", "") and "error" in ln for ln in r.stderr.splitlines())


def test_internal_error_is_one_line_exit_1(tmp_path):
    """The last-resort guard: an unexpected exception prints one line, no traceback, exit 1 (not 2)."""
    code = ("import sys\n"
            "from boundcalc.cli import app as a\n"
            "from boundcalc.cli import info_cmds\n"
            "def boom(*args, **kw):\n"
            "    raise ZeroDivisionError('simulated bug')\n"
            "import boundcalc.info as info\n"
            "info.kl_bernoulli = boom\n"
            "a.main(['kl', '--p', '0.3', '--q', '0.5'])\n")
    env = dict(os.environ, PYTHONPATH=ROOT)
    env.pop("BOUNDCALC_TRACEBACK", None)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT, env=env)
    assert r.returncode == 1, r.stderr
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert lines == ["boundcalc: internal error: ZeroDivisionError: simulated bug (please report)"], r.stderr
    # and the fuzz contract treats it as a failure (exit 1 is neither 0 nor 2)
    r2 = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT,
                        env=dict(env, BOUNDCALC_TRACEBACK="1"))
    assert "Traceback" in r2.stderr and "ZeroDivisionError" in r2.stderr


def test_contract_checker_rejects_mutants(monkeypatch):
    """The checker itself can fail: a NaN in JSON, a two-line error, a warning and an exit 1 are all caught."""
    import boundcalc.info as info
    import numpy as np

    monkeypatch.setattr(info, "kl_bernoulli", lambda p, q: float("nan"))
    assert "NaN" in contract_violation(["kl", "--p", "0.3", "--q", "0.5", "--json"])
    assert "'nan'" in contract_violation(["kl", "--p", "0.3", "--q", "0.5"])

    def warn(p, q):
        return np.float64(1.0) / np.float64(0.0)  # RuntimeWarning: divide by zero

    monkeypatch.setattr(info, "kl_bernoulli", warn)
    assert "raised" in contract_violation(["kl", "--p", "0.3", "--q", "0.5"])

    def two_lines(*a, **k):
        print("boundcalc: error: --p must be fine\nmore", file=sys.stderr)
        raise SystemExit(2)

    monkeypatch.setattr(info, "kl_bernoulli", two_lines)
    assert "2 stderr lines" in contract_violation(["kl", "--p", "0.3", "--q", "0.5"])

    def internal(*a, **k):
        raise KeyError("x")

    monkeypatch.setattr(info, "kl_bernoulli", internal)
    assert "raised" in contract_violation(["kl", "--p", "0.3", "--q", "0.5"])

    # issue 17 §3: an error naming another command's option, or the bare name of one of its options
    def foreign(*a, **k):
        print("boundcalc: error: --ldp-epsilon must be a number > 0 (got -1.0)", file=sys.stderr)
        raise SystemExit(2)

    monkeypatch.setattr(info, "kl_bernoulli", foreign)
    assert "--ldp-epsilon, not an option of 'kl'" in contract_violation(["kl", "--p", "0.3", "--q", "0.5"])

    def bare(*a, **k):
        print("boundcalc: error: p must be a number in [0, 1] (got 0.3)", file=sys.stderr)
        raise SystemExit(2)

    monkeypatch.setattr(info, "kl_bernoulli", bare)
    assert "blames 'p'" in contract_violation(["kl", "--p", "0.3", "--q", "0.5"])

    # a hang is stopped and reported (HANG_SECONDS lowered for the mutant)
    def hang(*a, **k):
        time.sleep(30)

    monkeypatch.setattr(info, "kl_bernoulli", hang)
    monkeypatch.setattr(sys.modules[__name__], "HANG_SECONDS", 0.5)
    t0 = time.perf_counter()
    assert "hangs" in contract_violation(["kl", "--p", "0.3", "--q", "0.5"])
    assert time.perf_counter() - t0 < 10

    # memory: a call that grows the peak by more than the limit (the limit lowered for the mutant)
    with open("/proc/self/statm") as fh:  # the peak only grows past the process's earlier peak: allocate beyond it
        rss_mb = int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    extra_mb = max(_peak_mb() - rss_mb, 0.0) + 192

    def grow(*a, **k):
        import numpy as np

        x = np.ones(int(extra_mb * 2**20 / 8))  # touched: resident
        return float(x[-1])

    monkeypatch.setattr(info, "kl_bernoulli", grow)
    monkeypatch.setattr(sys.modules[__name__], "HANG_SECONDS", 60.0)
    monkeypatch.setattr(sys.modules[__name__], "MEMORY_MB", 64)
    assert "peak memory grew" in contract_violation(["kl", "--p", "0.3", "--q", "0.5"])
