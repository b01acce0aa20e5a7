"""The tests' one CLI helper: boundcalc's Typer app run in-process through typer's CliRunner.

Every test module that drives a command imports from here (``from clirun import app, invoke, json_of, one_line_error,
runner``) instead of writing its own wrapper; tests/conftest.py makes each CliRunner reuse one click command per
process. ``invoke`` returns click's Result (exit_code, stdout, stderr, output); ``json_of`` adds ``--json``, checks the
exit code and that stdout holds exactly one JSON object, and returns it; ``one_line_error`` checks the bad-input
contract (one line on stderr, "boundcalc: error: ..."); ``entry_point`` runs the console-script entry point
(``boundcalc.cli.app.main``: its own one-line formatting of every error) in this process, as a subprocess of
``python -m boundcalc`` would, without an interpreter start-up.
"""

from __future__ import annotations

import json

from typer.testing import CliRunner

from boundcalc.cli.app import app

runner = CliRunner()


def _argv(args) -> list[str]:
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        args = args[0]
    return [str(a) for a in args]


def invoke(*args, env: dict | None = None, input: str | None = None):
    """``boundcalc ARGS`` in-process (args as separate strings or one list); click's Result."""
    return runner.invoke(app, _argv(args), env=env, input=input)


def json_of(*args, code: int = 0, env: dict | None = None):
    """``boundcalc ARGS --json``: asserts the exit code (0 by default) and, on success, exactly one JSON object on
    stdout, which it returns; on a non-zero expected code it returns the Result."""
    r = invoke(*_argv(args), "--json", env=env)
    assert r.exit_code == code, (_argv(args), r.output)
    if code != 0:
        return r
    lines = [ln for ln in r.stdout.splitlines() if ln.strip()]
    assert len(lines) == 1, f"--json printed {len(lines)} lines"
    return json.loads(lines[0])


def one_line_error(r) -> str:
    """The bad-input contract: exit 2 and one line on stderr starting "boundcalc: error: "; returns the line."""
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("boundcalc: error: "), lines[0]
    return lines[0]


def entry_point(*args):
    """``boundcalc ARGS`` through the console-script entry point ``boundcalc.cli.app.main`` in this process (its error
    formatting and exit codes, SystemExit's code as the process's), stdout and stderr captured: a CompletedProcess
    (returncode, stdout, stderr) as ``subprocess.run([sys.executable, "-m", "boundcalc", *ARGS])`` returns it, without
    a Python start-up and the CLI's imports (~0.6 CPU s each). A test about the process itself (signals, imports at
    start-up, the real exit of the interpreter: tests/cli/test_fuzz_cli.py, test_validate_and_cli_basics.py) keeps a
    subprocess."""
    import contextlib
    import io
    import subprocess

    from boundcalc.cli.app import main

    argv = _argv(args)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(argv)
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return subprocess.CompletedProcess(["boundcalc", *argv], code, out.getvalue(), err.getvalue())
