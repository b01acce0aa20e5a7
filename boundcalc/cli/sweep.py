"""Lists and ranges for the quantity commands (kl, kl-inf, d-eps, concentration): one option, many values.

Syntax of a numeric option (``SYNTAX`` is what --help shows):

* ``0.3``                 one value (the command's single-point output, unchanged);
* ``0.1,0.2,0.3``         a list (each item keeps its decimal text, so ``--digits`` evaluates 0.1 as 1/10);
* ``0.01:0.99:50``        50 points from 0.01 to 0.99, evenly spaced — or log-spaced when both ends are
  positive and span two decades or more (hi/lo >= 100, e.g. ``1e-3:10:50``);
* ``0.01:0.99:50:log`` / ``…:lin``  force the spacing.

Broadcasting (``broadcast``): lists of equal length are zipped; a single value is repeated; lists of unequal
lengths are a one-line error. At most ``MAX_POINTS`` values per option (and rows in total). Counts (n, m, N, t)
are rounded to integers. Only the standard library: the CLI imports this at start-up.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import InputError

MAX_POINTS = 10_000
LOG_RATIO = 100.0
SYNTAX = ("one value, a list a,b,c, or a range lo:hi:n (n points; log spacing when lo > 0 and hi/lo >= 100, "
          "or force it with lo:hi:n:log / :lin)")


@dataclass
class Sweep:
    """The values of one option: ``texts`` (decimal text of each value) and whether a list/range was given."""

    option: str
    texts: list[str]
    many: bool
    spec: str

    def __len__(self) -> int:
        return len(self.texts)


def _count(option: str, text: str, spec: str) -> int:
    try:
        v = float(text)
    except ValueError:
        raise InputError(option, "a range lo:hi:n with an integer number of points n", spec) from None
    if not math.isfinite(v) or v != math.floor(v):
        raise InputError(option, "a range lo:hi:n with an integer number of points n", spec)
    if v < 2:
        raise InputError(option, "a range with at least 2 points (lo:hi:n, n >= 2; one value needs no range)", spec)
    if v > MAX_POINTS:
        raise InputError(option, f"a range of at most {MAX_POINTS} points", spec)
    return int(v)


def _end(option: str, text: str, spec: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise InputError(option, "a range lo:hi:n of finite numbers", spec) from None
    if not math.isfinite(v):
        raise InputError(option, "a range lo:hi:n of finite numbers", spec)
    return v


def _repr(x: float, integer: bool) -> str:
    return str(int(round(x))) if integer else repr(float(x))


def parse(option: str, text, integer: bool = False) -> Sweep:
    """The values of ``option`` from its text (one value, a list or a range; see the module docstring).

    The values are not validated here (each command validates every value as it validates one)."""
    spec = "" if text is None else str(text)
    s = spec.strip()
    if ":" in s:
        parts = [p.strip() for p in s.split(":")]
        spacing = None
        if len(parts) == 4:
            spacing = parts.pop().lower()
            if spacing not in ("log", "lin"):
                raise InputError(option, "a range lo:hi:n, lo:hi:n:log or lo:hi:n:lin", spec)
        if len(parts) != 3 or not all(parts):
            raise InputError(option, "a range lo:hi:n (n points), e.g. 0.01:0.99:50", spec)
        lo, hi = _end(option, parts[0], spec), _end(option, parts[1], spec)
        n = _count(option, parts[2], spec)
        if not lo < hi:
            raise InputError(option, "a range lo:hi:n with lo < hi (not reversed, not empty)", spec)
        if spacing is None:
            spacing = "log" if lo > 0 and hi / lo >= LOG_RATIO else "lin"
        if spacing == "log" and not lo > 0:
            raise InputError(option, "a log range lo:hi:n:log with lo > 0", spec)
        if spacing == "log":
            a, b = math.log(lo), math.log(hi)
            vals = [math.exp(a + (b - a) * i / (n - 1)) for i in range(n)]
        else:
            vals = [lo + (hi - lo) * i / (n - 1) for i in range(n)]
        vals[0], vals[-1] = lo, hi
        return Sweep(option, [_repr(v, integer) for v in vals], True, spec)
    if "," in s:
        items = [p.strip() for p in s.split(",")]
        if not all(items):
            raise InputError(option, "a comma-separated list without empty items, e.g. 0.1,0.2,0.3", spec)
        if len(items) > MAX_POINTS:
            raise InputError(option, f"a list of at most {MAX_POINTS} values", f"{len(items)} values")
        return Sweep(option, items, True, spec)
    return Sweep(option, [spec], False, spec)


def broadcast(sweeps: list[Sweep]) -> list[dict[str, str]]:
    """Rows {option: text}: lists of equal length zip, single values repeat; unequal lengths are an error."""
    many = [s for s in sweeps if s.many]
    n = max((len(s) for s in many), default=1)
    for s in many:
        if len(s) != n:
            other = next(t for t in many if len(t) != len(s))
            raise InputError(f"{s.option} / {other.option}", "lists or ranges of equal length (or one value)",
                             f"{len(s)} and {len(other)} values")
    return [{s.option: (s.texts[i] if s.many else s.texts[0]) for s in sweeps} for i in range(n)]


def any_many(sweeps) -> bool:
    return any(s.many for s in sweeps if s is not None)
