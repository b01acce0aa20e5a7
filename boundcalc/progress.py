"""Where progress may be shown: only on an interactive terminal (issue 17 §3).

Progress bars and progress lines ("--check 2/5: ...") go to stderr, which scripts read for errors and warnings:
when stderr is a pipe, a file or a test runner's buffer they are not shown at all, whatever ``--progress`` says
and whatever the environment tells rich (FORCE_COLOR / TTY_COMPATIBLE make rich draw a bar into a pipe).
"""

from __future__ import annotations

import sys


def on_terminal() -> bool:
    """Whether stderr is an interactive terminal (the only place progress is shown)."""
    try:
        return bool(sys.stderr.isatty())
    except (AttributeError, ValueError):  # no stderr, or a closed one
        return False
