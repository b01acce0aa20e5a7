"""The ``boundcalc`` command: a Typer app whose commands live in small modules under boundcalc.cli.

Each command module exposes ``register(app)``. Command modules import only typer/rich at module level,
so ``boundcalc --help`` stays fast; the mathematics is imported inside the command bodies.
"""

from __future__ import annotations

import importlib
import sys
from typing import Annotated

import typer

def _new_app() -> typer.Typer:
    """The root Typer app with its callback (--version, no command: the help) and no command yet."""
    a = typer.Typer(
        name="boundcalc",
        help="Compute, explain and verify regret bounds of differentially private bandit algorithms.",
        add_completion=False,
        no_args_is_help=False,  # handled by _root: click's NoArgsIsHelpError printed the help twice and a blank error
        invoke_without_command=True,
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    a.callback()(_root)
    return a


COMMAND_MODULES = [
    "info_cmds",  # kl, kl-inf, d-eps
    "concentration_cmd",  # concentration
    "convert_cmd",  # convert
    "bounds_cmd",  # regret, bounds
    "budget_cmd",  # budget
    "episodes_cmd",  # episodes
    "simulate_cmd",  # simulate, algorithms
    "verify_cmd",  # verify
    "check_cmd",  # check
    "worksheet_cmd",  # worksheet list, worksheet run
    "audit_cmd",  # audit
    "lower_cmd",  # lower
]
# the command (or group) names each module registers: `boundcalc NAME ...` run from the console imports that module
# only (start-up, issue 23 §5); tests/cli/test_startup_imports.py checks the table against the registrations
COMMANDS = {"kl": "info_cmds", "kl-inf": "info_cmds", "d-eps": "info_cmds", "concentration": "concentration_cmd",
            "convert": "convert_cmd", "regret": "bounds_cmd", "bounds": "bounds_cmd", "budget": "budget_cmd",
            "episodes": "episodes_cmd", "simulate": "simulate_cmd", "algorithms": "simulate_cmd",
            "verify": "verify_cmd", "check": "check_cmd", "worksheet": "worksheet_cmd", "audit": "audit_cmd",
            "lower": "lower_cmd"}


def full_app() -> typer.Typer:
    """``app``: the root app with every command module registered (built on first use; ``from boundcalc.cli.app
    import app`` builds it)."""
    g = globals()
    if "app" not in g:
        a = _new_app()
        for name in COMMAND_MODULES:
            importlib.import_module(f"boundcalc.cli.{name}").register(a)
        g["app"] = a
    return g["app"]


def __getattr__(name: str):
    if name == "app":
        return full_app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def version_text() -> str:
    """"boundcalc X.Y.Z": the installed distribution's version (importlib.metadata), or the package's own
    ``__version__`` when it runs from a source tree that is not installed."""
    from importlib import metadata

    from .. import __version__

    try:
        v = metadata.version("boundcalc")
    except metadata.PackageNotFoundError:
        v = __version__
    return f"boundcalc {v}"


def _print_version(value: bool) -> None:
    if value:
        print(version_text())
        raise typer.Exit(0)


def _root(ctx: typer.Context,
          version: Annotated[bool, typer.Option("--version", help="Print the version and exit.", is_eager=True,
                                                callback=_print_version)] = False) -> None:
    """Compute, explain and verify regret bounds of differentially private bandit algorithms."""
    if ctx.invoked_subcommand is None:  # no command: the help on stderr and a usage-error exit code
        _help_to_stderr(ctx)
        raise typer.Exit(2)


def _help_to_stderr(ctx) -> None:
    """Print a command's help on stderr (stdout is kept for results), whichever help renderer is active."""
    import contextlib

    with contextlib.redirect_stdout(sys.stderr):
        text = ctx.get_help()  # typer's rich help prints itself and returns ""; plain click returns the text
    if text:
        print(text, file=sys.stderr)


def _click_exception_types():
    """UsageError/Abort/Exit classes of the click that typer uses (vendored as typer._click in new typer)."""
    usage, abort, exit_ = [], [], []
    for modname in ("typer._click.exceptions", "click.exceptions"):
        try:
            mod = importlib.import_module(modname)
        except ImportError:
            continue
        usage.append(mod.UsageError)
        if hasattr(mod, "Abort"):
            abort.append(mod.Abort)
        if hasattr(mod, "Exit"):
            exit_.append(mod.Exit)
    abort.append(typer.Abort)
    exit_.append(typer.Exit)
    return tuple(usage), tuple(abort), tuple(exit_)


_COMMAND: dict = {}  # (registered commands, groups, callback) -> the click command built from app


def _registration_key(typer_app) -> tuple:
    """What the click command is built from: each registered command's name and callback, each group's name, callback
    and own key, the app's callback (identities: a replaced callback is a new key)."""
    cb = typer_app.registered_callback
    return (tuple((c.name, id(c.callback)) for c in typer_app.registered_commands),
            tuple((g.name, id(g.typer_instance.registered_callback and g.typer_instance.registered_callback.callback),
                   _registration_key(g.typer_instance)) for g in typer_app.registered_groups),
            id(cb.callback) if cb is not None else None)


def command():
    """The click command of ``app``, built once per process: typer builds it anew from the app on every call
    (``app(...)``, typer's CliRunner), ~0.1 s of CPU, most of a quick command's time where one process runs many
    (the test suite, ``main`` called in-process); plain option values are converted without pydantic (cli/coerce.py).
    Built again when a command, group or callback was registered or
    replaced since (the key holds every callback object of the app and its groups)."""
    a = full_app()
    key = _registration_key(a)
    if key not in _COMMAND:
        _COMMAND.clear()
        _COMMAND[key] = _click_command(a)
    return _COMMAND[key]


def _click_command(typer_app):
    from .coerce import install

    cmd = typer.main.get_command(typer_app)
    install(cmd)  # plain option values converted without pydantic (start-up; cli/coerce.py)
    return cmd


_ONE: dict = {}  # command module -> the click command of a root app with that module's commands only


def entry_command(argv: list[str] | None = None):
    """The click command ``main`` runs: in a process that has not built ``app`` (the console), when the first
    argument names a command, a root app with only that command's module registered (its other modules are not
    imported: start-up, issue 23 §5); otherwise ``command()``, the whole app (root --help, --version, a misspelt
    command, and wherever ``app`` is in use: the tests). The command's own parsing, help and errors are the same in
    both (tests/cli/test_startup_imports.py)."""
    args = sys.argv[1:] if argv is None else list(argv)
    module = COMMANDS.get(args[0]) if args else None
    if module is None or "app" in globals():
        return command()
    return one_command(module)


def one_command(module: str):
    """The click command of a root app with only ``module``'s commands registered (built once per process)."""
    if module not in _ONE:
        a = _new_app()
        importlib.import_module(f"boundcalc.cli.{module}").register(a)
        _ONE[module] = _click_command(a)
    return _ONE[module]


INTERNAL_ERROR_EXIT = 1
TRACEBACK_ENV = "BOUNDCALC_TRACEBACK"  # set to 1 to see the Python traceback of an internal error


def _internal_error(exc: BaseException) -> None:
    """Last-resort guard: an unexpected exception is a bug; one line on stderr (no traceback), exit 1.

    It is a safety net for users, not a way to hide bugs: the fuzz suite (tests/cli/test_fuzz_cli.py) fails on
    any exit code other than 0 and 2. ``BOUNDCALC_TRACEBACK=1`` re-raises for debugging."""
    import os

    if os.environ.get(TRACEBACK_ENV, "") not in ("", "0"):
        raise exc
    what = " ".join(str(exc).split())[:300]
    print(f"boundcalc: internal error: {type(exc).__name__}{': ' + what if what else ''} (please report)",
          file=sys.stderr)
    sys.exit(INTERNAL_ERROR_EXIT)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: one-line errors with exit code 2, never a traceback for bad input;
    an unexpected exception prints one line "boundcalc: internal error: ... (please report)", exit 1."""
    from ..errors import InputError, front_end_names
    from .flags import FLAGS

    usage_errors, aborts, exits = _click_exception_types()
    try:
        with front_end_names(FLAGS):  # library text meant for the user names the flags (errors.flag)
            rv = entry_command(argv)(args=argv, prog_name="boundcalc", standalone_mode=False)  # as app(...), built once
    except InputError as exc:  # a library's parameter named by its flag (flags.FLAGS), as in common.command
        from .flags import message

        print(f"boundcalc: error: {' '.join(message(exc).splitlines())}", file=sys.stderr)
        sys.exit(2)
    except usage_errors as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":
            if exc.ctx is not None:
                _help_to_stderr(exc.ctx)
            sys.exit(2)
        msg = " ".join(exc.format_message().split())
        where = f" (see 'boundcalc {exc.ctx.command_path.split(' ', 1)[-1]} --help')" if exc.ctx and exc.ctx.parent else ""
        print(f"boundcalc: error: {msg}{where}", file=sys.stderr)
        sys.exit(2)
    except aborts:
        print("boundcalc: aborted", file=sys.stderr)
        sys.exit(130)
    except exits as exc:
        sys.exit(getattr(exc, "exit_code", 0))
    except KeyboardInterrupt:
        print("boundcalc: interrupted", file=sys.stderr)
        sys.exit(130)
    except BrokenPipeError:  # `boundcalc ... | head`: the reader left; nothing more to say
        sys.exit(0)
    except Exception as exc:  # noqa: BLE001 - the last-resort guard, see _internal_error
        _internal_error(exc)
    sys.exit(rv if isinstance(rv, int) else 0)


if __name__ == "__main__":
    main()
