"""Numbers and durations as people read them in tables and reports (shared by the CLI and the experiment
reports, which must not import the CLI)."""

from __future__ import annotations

import math
from typing import Any


def number(x: Any, digits: int = 6, whole: bool = False) -> str:
    """``digits`` significant digits, scientific outside [1e-4, 1e7); '—' for None, '∞' for infinities; strings pass
    through. ``whole``: integers below 1e7 in full (counts such as T = 1000000)."""
    if x is None:
        return "—"
    if isinstance(x, str):
        return x
    try:
        v = float(x)
    except (TypeError, ValueError):
        return str(x)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "∞" if v > 0 else "-∞"
    if v == 0:
        return "0"
    if whole and v.is_integer() and abs(v) < 1e7:
        return str(int(v))
    if 1e-4 <= abs(v) < 1e7:
        return f"{v:.{digits}g}"
    return f"{v:.{digits - 1}e}"


def duration(seconds: float) -> str:
    """'12.3 s' below 90 s, minutes below 1.5 h, hours above."""
    if seconds < 90:
        return f"{seconds:.1f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"
