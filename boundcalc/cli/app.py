"""The ``boundcalc`` command: a Typer app whose commands live in small modules under boundcalc.cli.

Each command module exposes ``register(app)``. Command modules import only typer/rich at module level,
so ``boundcalc --help`` stays fast; the mathematics is imported inside the command bodies.
"""

from __future__ import annotations

import importlib
import sys

import typer

app = typer.Typer(
    name="boundcalc",
    help="Compute, explain and verify regret bounds of differentially private bandit algorithms.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

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
]

for _name in COMMAND_MODULES:
    importlib.import_module(f"boundcalc.cli.{_name}").register(app)


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


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: one-line errors with exit code 2, never a traceback for bad input."""
    from ..errors import InputError

    usage_errors, aborts, exits = _click_exception_types()
    try:
        rv = app(args=argv, prog_name="boundcalc", standalone_mode=False)
    except InputError as exc:
        print(f"boundcalc: error: {exc}", file=sys.stderr)
        sys.exit(2)
    except usage_errors as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":
            print(exc.ctx.get_help() if exc.ctx else "", file=sys.stderr)
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
    sys.exit(rv if isinstance(rv, int) else 0)


if __name__ == "__main__":
    main()
