"""Validators shared by the library and the CLI. Each returns the cleaned value or raises InputError.

They accept Python scalars, numpy arrays and strings such as ``"1e6"`` (counts in scientific notation).
numpy is imported lazily so this module stays cheap to import.
"""

from __future__ import annotations

import math
from typing import Iterable

from .domains import OPEN_UNIT, POSITIVE, UNIT
from .errors import InputError


def _as_float(name: str, x, allowed: str) -> float:
    try:
        v = float(x)
    except (TypeError, ValueError):
        raise InputError(name, allowed, x) from None
    if math.isnan(v):
        raise InputError(name, allowed, x)
    return v


def finite(name: str, x) -> float:
    v = _as_float(name, x, "a finite number")
    if math.isinf(v):
        raise InputError(name, "a finite number", x)
    return v


def positive(name: str, x, allow_inf: bool = False) -> float:
    allowed = POSITIVE.allowed_text() + ("" if allow_inf else " and finite")  # boundcalc.domains: "a number > 0"
    v = _as_float(name, x, allowed)
    if not POSITIVE.admits(v) or (math.isinf(v) and not allow_inf):
        raise InputError(name, allowed, x)
    return v


def nonnegative(name: str, x) -> float:
    v = _as_float(name, x, "a finite number >= 0")
    if v < 0 or math.isinf(v):
        raise InputError(name, "a finite number >= 0", x)
    return v


def probability(name: str, x) -> float:
    """A mean or probability in the closed interval [0, 1] (boundcalc.domains.UNIT)."""
    v = _as_float(name, x, UNIT.allowed_text())
    if not UNIT.admits(v):
        raise InputError(name, UNIT.allowed_text(), x)
    return v


def open_unit(name: str, x) -> float:
    """A number in the open interval (0, 1), e.g. delta (boundcalc.domains.OPEN_UNIT)."""
    v = _as_float(name, x, OPEN_UNIT.allowed_text())
    if not OPEN_UNIT.admits(v):
        raise InputError(name, OPEN_UNIT.allowed_text(), x)
    return v


def greater_than(name: str, x, lo: float, inclusive: bool = False) -> float:
    allowed = f"a finite number {'>=' if inclusive else '>'} {lo:g}"
    v = _as_float(name, x, allowed)
    ok = (v >= lo) if inclusive else (v > lo)
    if not ok or math.isinf(v):
        raise InputError(name, allowed, x)
    return v


def count(name: str, x, minimum: int = 1, maximum: float = 1e18) -> int:
    """An integer count >= minimum; accepts '1e6' and 1e6.0 but not 2.5."""
    allowed = f"an integer >= {minimum}"
    v = _as_float(name, x, allowed)
    if math.isinf(v) or v != math.floor(v) or v < minimum or v > maximum:
        raise InputError(name, allowed if v <= maximum else f"an integer in [{minimum}, {maximum:g}]", x)
    return int(v)


def horizon(name: str, x) -> int:
    """A horizon T >= 1 (up to 1e18)."""
    return count(name, x, minimum=1)


def float_list(name: str, text, validator=finite) -> list[float]:
    """Parse '0.1,0.2' (or an iterable) into a non-empty list, validating each entry."""
    if isinstance(text, str):
        parts = [p.strip() for p in text.replace(";", ",").split(",") if p.strip()]
    elif isinstance(text, Iterable):
        parts = list(text)
    else:
        parts = [text]
    if not parts:
        raise InputError(name, "a non-empty comma-separated list", text)
    return [validator(name, p) for p in parts]


def means(name: str, values) -> list[float]:
    """A non-empty list of Bernoulli means, each in [0, 1]."""
    return float_list(name, values, probability)


def probability_array(name: str, arr):
    """Vector form: every entry of an array in [0, 1] (NaN rejected)."""
    import numpy as np

    a = np.asarray(arr, dtype=float)
    bad = ~UNIT.admits_array(a)
    if a.size and bad.any():
        raise InputError(name, UNIT.allowed_text(), float(a[bad].ravel()[0]))
    return a


def positive_array(name: str, arr, allow_inf: bool = False):
    import numpy as np

    a = np.asarray(arr, dtype=float)
    bad = ~POSITIVE.admits_array(a)
    if not allow_inf:
        bad |= np.isinf(a)
    if a.size and bad.any():
        raise InputError(name, POSITIVE.allowed_text() + ("" if allow_inf else " and finite"), float(a[bad].ravel()[0]))
    return a


def horizons(name: str, text) -> list[int]:
    """Parse one or more horizons ('1e6' or '1e4,1e5,1e6'), sorted ascending, each >= 1."""
    parts = [p.strip() for p in str(text).split(",") if p.strip()] if isinstance(text, str) else list(text)
    if not parts:
        raise InputError(name, "one or more integers >= 1, comma-separated", text)
    return sorted(horizon(name, p) for p in parts)
