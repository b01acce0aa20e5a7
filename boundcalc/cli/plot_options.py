"""`--x-scale`, `--y-scale` and `--log-y`: the axis scales of a command's figures (``simulate --plot``, ``regret
--plot``, ``budget --plot``, ``worksheet run``). Each figure has its own default (a worksheet's, the paper's scales);
these options override it through :func:`boundcalc.figures.scales`, the one place the scale logic lives.

Only typer and the standard library at import (the CLI's rule).
"""

from __future__ import annotations

import typer


def apply(x_scale, y_scale, log_y) -> tuple[str | None, str | None]:
    """Validate the options (before any work: one-line error naming the option) and apply them to every figure the
    running command draws: boundcalc.figures.scales entered as a resource of the command's click context, left when
    the command ends. Returns the (x, y) overrides."""
    if x_scale is None and y_scale is None and not log_y:  # nothing to apply: figures is not imported (start-up)
        return None, None
    import importlib

    from ..figures import scale_options, scales

    sc = scale_options(x_scale, y_scale, log_y)
    # the click typer runs on (its vendored copy in recent typer, else click itself): the base of typer.Context
    click_globals = importlib.import_module(typer.Context.__mro__[1].__module__.rsplit(".", 1)[0] + ".globals")
    ctx = click_globals.get_current_context(silent=True)
    if ctx is not None and sc != (None, None):
        ctx.with_resource(scales(*sc))
    return sc
