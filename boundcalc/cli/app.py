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
    "episodes_cmd",  # episodes
    "simulate_cmd",  # simulate, algorithms
]

for _name in COMMAND_MODULES:
    try:  # DEV-ONLY tolerance while command modules are being written; made strict before release
        _mod = importlib.import_module(f"boundcalc.cli.{_name}")
    except ModuleNotFoundError as _exc:
        if _exc.name != f"boundcalc.cli.{_name}":
            raise
        continue
    _mod.register(app)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: one-line errors with exit code 2, never a traceback for bad input."""
    import click

    from ..errors import InputError

    try:
        rv = app(args=argv, prog_name="boundcalc", standalone_mode=False)
    except InputError as exc:
        print(f"boundcalc: error: {exc}", file=sys.stderr)
        sys.exit(2)
    except click.exceptions.UsageError as exc:
        hint = f" (see 'boundcalc {exc.ctx.info_name} --help')" if exc.ctx and exc.ctx.parent else ""
        print(f"boundcalc: error: {exc.format_message()}{hint}", file=sys.stderr)
        sys.exit(2)
    except click.exceptions.Abort:
        print("boundcalc: aborted", file=sys.stderr)
        sys.exit(130)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    sys.exit(rv if isinstance(rv, int) else 0)


if __name__ == "__main__":
    main()
