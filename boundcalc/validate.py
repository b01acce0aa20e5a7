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


# -- input files: regular files of a bounded size (issue 22 §4: an --instance linked to /dev/zero read until
# MemoryError) ------------------------------------------------------------------------------------------------------
MiB = 1 << 20
MAX_INPUT_BYTES = {  # what a command reads whole into memory, by kind of file
    "instance": 64 * MiB,  # --instance FILE.toml/.json (K x d actions included)
    "plugin": 16 * MiB,  # --bounds-file, --algorithms-file (.toml / .py)
    "actions": 512 * MiB,  # --actions FILE.csv/.npy
    "data": 2048 * MiB,  # the papers' data sets (worksheet run --data NAME=PATH)
}


def _size_text(n: int) -> str:
    return f"{n / MiB:.3g} MiB" if n >= MiB else f"{n} bytes"


def input_file(option: str, path, kind: str, what: str = "file") -> str:
    """``path`` if it names a regular file of at most ``MAX_INPUT_BYTES[kind]`` bytes (symbolic links followed),
    else InputError naming ``option``: a device (/dev/zero), a pipe, a directory or an oversized file is refused
    before a byte is read."""
    import os
    import stat

    cap = MAX_INPUT_BYTES[kind]
    allowed = f"a readable regular {what} of at most {_size_text(cap)}"
    try:
        st = os.stat(path)
    except (OSError, ValueError) as exc:
        raise InputError(option, allowed, f"{path}: {getattr(exc, 'strerror', None) or exc}") from None
    if not stat.S_ISREG(st.st_mode):
        kind_text = "a directory" if stat.S_ISDIR(st.st_mode) else "not a regular file (a device, pipe or socket)"
        raise InputError(option, allowed, f"{path}: {kind_text}")
    if st.st_size > cap:
        raise InputError(option, allowed, f"{path}: {_size_text(st.st_size)}")
    return str(path)


def read_input_file(option: str, path, kind: str, what: str = "file") -> bytes:
    """The bytes of ``path`` (checked by :func:`input_file`; at most the cap are read, even if it grows)."""
    input_file(option, path, kind, what)
    cap = MAX_INPUT_BYTES[kind]
    try:
        with open(path, "rb") as fh:
            raw = fh.read(cap + 1)
    except OSError as exc:
        raise InputError(option, f"a readable {what}", f"{path}: {exc.strerror or exc}") from None
    if len(raw) > cap:
        raise InputError(option, f"a {what} of at most {_size_text(cap)}", f"{path}: larger")
    return raw
