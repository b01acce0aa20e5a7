"""A wall-clock limit that holds inside long evaluations (``boundcalc check --max-seconds``, issue 17 §2).

``with limit(seconds):`` sets a deadline for the current thread (nested limits keep the earlier one). Evaluators call :func:`tick`
at every node they evaluate (the interval walk of ``sympy_eval``, the numpy / mpmath closures of
``boundcalc.verify.expression``, the point-by-point tails); past the deadline it raises :class:`TimeLimit`,
which the caller turns into an honest "undecided … (time limit)" verdict. As a backstop for a single long
computation that never calls back (an mpmath quadrature, a long loop in a library), the main thread also gets a
SIGALRM shortly after the deadline, which raises the same :class:`TimeLimit` (POSIX, main thread only; the
previous handler and timer are restored on exit).
"""

from __future__ import annotations

import math
import signal
import threading
import time
from contextlib import contextmanager

GRACE = 0.5  # seconds after the deadline before the SIGALRM backstop fires

_local = threading.local()  # one deadline per thread (provers may run in threads of an executor)


def _get() -> float:
    return getattr(_local, "deadline", math.inf)


def _set(value: float) -> None:
    _local.deadline = value


class TimeLimit(Exception):
    """The deadline of the enclosing :func:`limit` has passed (not a ValueError: never taken for 'undefined')."""


def remaining() -> float:
    """Seconds left before the deadline (inf without a limit)."""
    return _get() - time.perf_counter()


def tick() -> None:
    """Raise :class:`TimeLimit` when the deadline has passed (cheap: one clock read)."""
    if time.perf_counter() > _get():
        raise TimeLimit("time limit reached")


def _alarm(signum, frame):  # pragma: no cover - timing dependent
    raise TimeLimit("time limit reached (interrupted)")


@contextmanager
def limit(seconds: float, alarm: bool = True):
    """Run the block with a deadline ``seconds`` from now (or the enclosing one, if earlier)."""
    old = _get()
    new = min(old, time.perf_counter() + max(float(seconds), 0.0))
    _set(new)
    use_alarm = (alarm and hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
                 and math.isfinite(new))
    prev_handler = prev_timer = None
    if use_alarm:
        try:
            prev_handler = signal.signal(signal.SIGALRM, _alarm)
            prev_timer = signal.setitimer(signal.ITIMER_REAL, max(new - time.perf_counter(), 0.0) + GRACE)
        except (ValueError, OSError):  # not allowed here (e.g. an embedded interpreter)
            use_alarm = False
    try:
        yield
    finally:
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, prev_handler if prev_handler is not None else signal.SIG_DFL)
            if prev_timer and prev_timer[0] > 0:  # an outer timer keeps (roughly) its remaining time
                signal.setitimer(signal.ITIMER_REAL, *prev_timer)
        _set(old)
