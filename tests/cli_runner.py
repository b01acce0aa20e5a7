"""typer's ``CliRunner`` on the click command of ``boundcalc.cli.app.app`` built once per process
(``boundcalc.cli.app.command()``): typer's own ``invoke`` rebuilds the command from the app on every call, ~0.1 s of
CPU, most of a quick command's time (tests/test_regret_*.py invoke `regret` hundreds of times). Everything else is
typer's: the isolation of stdin/stdout/stderr, the exit codes, ``Result``. Another Typer app is built as before."""

from __future__ import annotations

import typer.testing

from boundcalc.cli.app import app, command


class CliRunner(typer.testing.CliRunner):
    def invoke(self, app_, *args, **kwargs):
        if app_ is not app:
            return super().invoke(app_, *args, **kwargs)
        real = typer.testing._get_command  # the name typer.testing's invoke looks up at each call
        typer.testing._get_command = lambda _app: command()
        try:
            return super().invoke(app_, *args, **kwargs)
        finally:
            typer.testing._get_command = real
