"""`--x-scale`, `--y-scale` and `--log-y`: the axis scales of a command's figures (``simulate --plot``, ``regret
--plot``, ``budget --plot``, ``worksheet run``). Each figure has its own default (a worksheet's, the paper's scales);
these options override it through :func:`boundcalc.figures.scales`, the one place the scale logic lives.

Only typer and the standard library at import (the CLI's rule).
"""

from __future__ import annotations

from typing import Annotated, Optional

import typer

XScaleOpt = Annotated[Optional[str], typer.Option(
    "--x-scale", help="x axis of the figures: linear or log (default: each figure's own; a paper's figure takes the "
                      "paper's scale).")]
YScaleOpt = Annotated[Optional[str], typer.Option(
    "--y-scale", help="y axis of the figures: linear or log (default: each figure's own; a paper's figure takes the "
                      "paper's scale).")]
LogYOpt = Annotated[bool, typer.Option("--log-y", help="Log y axis of the figures (shorthand for --y-scale log).")]


def scales(x_scale, y_scale, log_y) -> tuple[str | None, str | None]:
    """The (x, y) overrides of the options, validated before any work (boundcalc.figures.scale_options)."""
    from ..figures import scale_options

    return scale_options(x_scale, y_scale, log_y)
