"""Validators, the one-line error contract of the CLI entry point, and start-up cost."""

from __future__ import annotations

import math
import subprocess
import sys

import pytest

from boundcalc import validate
from boundcalc.errors import InputError


@pytest.mark.parametrize(
    "fn,args",
    [
        (validate.probability, ("mu", 1.5)),
        (validate.probability, ("mu", -0.1)),
        (validate.probability, ("mu", float("nan"))),
        (validate.positive, ("epsilon", 0.0)),
        (validate.positive, ("epsilon", -1.0)),
        (validate.positive, ("epsilon", math.inf)),
        (validate.open_unit, ("delta", 1.0)),
        (validate.count, ("T", 0)),
        (validate.count, ("T", "2.5")),
        (validate.count, ("T", "abc")),
        (validate.greater_than, ("alpha", 1.0, 1.0)),
        (validate.means, ("--means", "")),
    ],
)
def test_validators_reject_and_name_the_parameter(fn, args):
    with pytest.raises(InputError) as exc:
        fn(*args)
    assert args[0] in str(exc.value)
    assert "\n" not in str(exc.value)


def test_validators_accept():
    assert validate.count("T", "1e6") == 1_000_000
    assert validate.horizon("T", "1e15") == 10**15
    assert validate.probability("mu", 0) == 0.0
    assert validate.means("m", "0.1, 0.2") == [0.1, 0.2]
    assert validate.positive("eps", math.inf, allow_inf=True) == math.inf


def _run(*args):
    return subprocess.run([sys.executable, "-m", "boundcalc", *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(
    "args",
    [
        ["regret", "--setting", "nonsense"],
        ["regret", "--setting", "finite", "--T", "0"],
        ["regret", "--setting", "finite", "--rho", "-1"],
        ["regret", "--setting", "finite", "--epsilon", "nan"],
        ["regret", "--setting", "finite", "--means", "0.5,1.5", "--epsilon", "1"],
        ["regret", "--setting", "finite", "--epsilon", "1", "--rho", "0.1"],
        ["regret", "--nonexistent-option"],
        ["bounds", "show", "no-such-bound"],
    ],
)
def test_entry_point_bad_input_is_one_line_exit_2(args):
    # the entry point (boundcalc.cli.app.main) in this process, as `python -m boundcalc` runs it: the same formatting
    # and exit code without an interpreter start-up each (~0.5 CPU s); the process itself: test_help_works below and
    # tests/cli/test_fuzz_cli.py::test_entry_point_usage_errors (subprocesses)
    from clirun import entry_point

    r = entry_point(*args)
    assert r.returncode == 2, (r.returncode, r.stderr)
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, r.stderr
    assert "Traceback" not in r.stderr
    assert lines[0].startswith("boundcalc: error:")


def test_help_does_not_import_heavy_modules():
    code = (
        "import sys\n"
        "from boundcalc.cli.app import app\n"
        "heavy = [m for m in ('numpy', 'scipy', 'sympy', 'matplotlib', 'mpmath') if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "", f"imported at start-up: {r.stdout}"


def test_help_works():
    r = _run("--help")
    assert r.returncode == 0
    assert "regret" in r.stdout
