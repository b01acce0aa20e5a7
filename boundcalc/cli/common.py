"""Shared CLI plumbing: option types, one-line errors, JSON and rich-table output.

Only typer/rich/stdlib at import time; numpy, sympy, mpmath are imported by the commands that need them.
"""

from __future__ import annotations

import functools
import json
import math
import sys
from typing import Any, Callable, Optional

import typer

from .. import SCHEMA_VERSION, textformat
from ..errors import InputError


def fail(message: str, code: int = 2) -> None:
    """Print a one-line error on stderr and exit with ``code`` (no traceback); pending warnings are dropped, so the
    error stays the only line."""
    _PENDING_WARNINGS.clear()
    message = " ".join(str(message).splitlines())  # one line, whatever the text quoted (a plugin's multi-line error)
    print(f"boundcalc: error: {message}", file=sys.stderr)
    raise typer.Exit(code)


def command(fn: Callable) -> Callable:
    """Decorator for every CLI command: turns InputError (bad input) into one line on stderr, exit 2, and
    ExecutionError (a worker died, a scheduler cannot be reached) into one line, exit 1."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        from ..errors import ExecutionError, front_end_names
        from .flags import FLAGS

        _DEFERRED_WRITES.clear()
        try:
            try:
                with _digits_time_limit(kwargs.get("digits")), front_end_names(FLAGS):  # library text names flags
                    rv = fn(*args, **kwargs)
            except typer.Exit as exc:
                if getattr(exc, "exit_code", 0) == 0:
                    _write_deferred()
                raise
            _write_deferred()
            return rv
        except InputError as exc:  # a library's parameter named by its flag (flags.FLAGS)
            from .flags import message

            fail(message(exc))
        except ExecutionError as exc:  # work that could not run where it was sent (a worker died, no scheduler)
            fail(str(exc), code=1)
        finally:
            _DEFERRED_WRITES.clear()

    return wrapper


DIGITS_SECONDS = 60.0  # a computation at --digits N that takes longer: one line asking for fewer digits


class _digits_time_limit:
    """The work of a command run with ``--digits N`` is limited to DIGITS_SECONDS (rigorous.deadline: the SIGALRM
    backstop interrupts mpmath's long loops); past it, one line naming --digits (issue 22 §4: ``kl --digits 10000
    --level 1`` was still running at 120 s)."""

    def __init__(self, digits):
        self.digits = digits
        self._cm = None

    def __enter__(self):
        if isinstance(self.digits, int) and not isinstance(self.digits, bool):
            from ..rigorous.deadline import limit

            self._cm = limit(DIGITS_SECONDS)
            self._cm.__enter__()
        return self

    def __exit__(self, kind, exc, tb):
        if self._cm is None:
            return False
        from ..rigorous.deadline import TimeLimit

        self._cm.__exit__(kind, exc, tb)
        if isinstance(exc, TimeLimit):
            raise InputError("--digits", f"fewer digits (at {self.digits} digits this computation did not end within "
                             f"{DIGITS_SECONDS:g} s)", self.digits) from None
        return False


_DEFERRED_WRITES: list[Callable[[], Any]] = []  # files written when the command ends without an error (after_success)


def after_success(write: Callable[[], Any]) -> None:
    """Run ``write`` (it writes a file the user asked for, e.g. --save-instance) when the command ends without an
    error; a command that fails later (an option checked after the instance was built, issue 22 §4: ``budget
    --pairing junk --save-instance s.toml``) leaves no file behind."""
    _DEFERRED_WRITES.append(write)


def _write_deferred() -> None:
    while _DEFERRED_WRITES:
        _DEFERRED_WRITES.pop(0)()


def option_given(ctx, option: str) -> bool:
    """Whether the user gave ``option`` (e.g. "--lambda") on the command line, not just its default."""
    for p in ctx.command.params:
        if option in getattr(p, "opts", ()):
            src = ctx.get_parameter_source(p.name)
            return src is not None and getattr(src, "name", "") not in ("DEFAULT", "DEFAULT_MAP")
    return False


def unused_option_notes(ctx, options, target: str) -> list[str]:
    """"--X has no effect on TARGET" for each of ``options`` that the user gave."""
    return [f"{o} has no effect on {target}" for o in options if option_given(ctx, o)]


def refuse(options: dict, allowed: str) -> None:
    """One line for the first of ``options`` ({flag: value}) that the user gave (a value not None, not False, not
    empty): "FLAG must be ALLOWED (got VALUE)", the value of a switch (True) being its flag."""
    for flag, got in options.items():
        if got is None or got is False or (isinstance(got, (list, tuple)) and not got):
            continue
        raise InputError(flag, allowed, flag if got is True else got)


# -- one vocabulary across commands (docs/vocabulary.md): old spellings kept as aliases that warn ----------------
# (command, old flag) -> canonical flag. The old flag is a hidden option of the command; ``alias`` maps its value to
# the canonical option's (the same library call) and warns once on stderr.
DEPRECATED_ALIASES = {
    ("episodes", "--delta"): "--confidence",  # GOPE's confidence δ, not a privacy δ (README: --delta is always privacy)
    ("episodes", "--lam0"): "--lambda0",
    ("audit", "--confidence"): "--level",  # audit's level 1 − δ of its lower bound; --confidence elsewhere is a δ
}


def warn(message: str) -> None:
    """One warning line on stderr (stdout stays for results and JSON)."""
    print(f"boundcalc: warning: {message}", file=sys.stderr)


def alias(ctx, command_name: str, old: str, old_value, new_value):
    """The value of the canonical option of ``(command_name, old)`` in DEPRECATED_ALIASES: ``old_value`` when the
    deprecated spelling ``old`` was given (with a warning on stderr), else ``new_value``. Both given: InputError."""
    new = DEPRECATED_ALIASES[(command_name, old)]
    if old_value is None:
        return new_value
    if option_given(ctx, new):
        raise InputError(old, f"omitted when {new} is given (it is the deprecated spelling of {new})", old_value)
    if not _PENDING_WARNINGS:
        ctx.call_on_close(_flush_warnings)
    _PENDING_WARNINGS.append(f"{old} is deprecated for '{command_name}'; use {new} (same meaning; "
                             "see docs/vocabulary.md)")
    return old_value


_PENDING_WARNINGS: list[str] = []  # printed when the command ends, unless it ends in a one-line error (``fail``)


def _flush_warnings() -> None:
    while _PENDING_WARNINGS:
        warn(_PENDING_WARNINGS.pop(0))


def alias_option(command_name: str, old: str):
    """The hidden typer option of a deprecated spelling (value None when not given)."""
    new = DEPRECATED_ALIASES[(command_name, old)]
    return typer.Option(old, hidden=True, help=f"Deprecated spelling of {new}.")


def check_digits(digits: Optional[int]) -> Optional[int]:
    if digits is not None and not (1 <= digits <= 10_000):
        raise InputError("--digits", "an integer in [1, 10000]", digits)
    return digits


def to_jsonable(x: Any) -> Any:
    """Convert numpy/mpmath/sympy values to JSON; non-finite floats become the strings 'inf', '-inf', 'nan'.

    mpmath numbers keep every digit as a decimal string (a JSON float would round them to 17 digits).
    """
    mod = type(x).__module__ or ""
    if isinstance(x, dict):
        return {str(k): to_jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [to_jsonable(v) for v in x]
    if isinstance(x, bool) or x is None or isinstance(x, str):
        return x
    if isinstance(x, int):
        return x
    if mod.startswith("mpmath"):
        import mpmath

        if mpmath.isinf(x) or mpmath.isnan(x):
            return to_jsonable(float(x))
        return mpmath.nstr(x, _mp_digits(x))
    if mod.startswith("numpy"):
        import numpy as np

        if isinstance(x, np.ndarray):
            return to_jsonable(x.tolist())
        if isinstance(x, np.bool_):
            return bool(x)
        if isinstance(x, np.integer):
            return int(x)
        x = float(x)
    if mod.startswith("sympy"):
        return str(x)
    if isinstance(x, float):
        if math.isnan(x):
            return "nan"
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        return x
    return str(x)


def _mp_digits(x) -> int:
    """Significant digits an mpmath number carries (its mantissa bits), so output after the workdps block
    closed keeps every computed digit."""
    import mpmath

    bits = getattr(x, "_mpf_", (0, 0, 0, 0))[3] if hasattr(x, "_mpf_") else mpmath.mp.prec
    return max(mpmath.mp.dps, int(bits * 0.30103) + 1)


def emit_json(command_name: str, inputs: dict, **fields: Any) -> None:
    """Print exactly one JSON object: schema_version, command, inputs, then the given fields."""
    obj = {"schema_version": SCHEMA_VERSION, "command": command_name, "inputs": inputs}
    obj.update(fields)
    sys.stdout.write(json.dumps(to_jsonable(obj), allow_nan=False) + "\n")


def fmt(x: Any, digits: int = 6) -> str:
    """Human formatting of a number for tables (mpmath numbers at their own precision)."""
    if (type(x).__module__ or "").startswith("mpmath"):
        import mpmath

        return mpmath.nstr(x, max(digits, _mp_digits(x)))
    return textformat.number(x, digits)


PIPE_WIDTH = 140  # columns of the tables written into a pipe or a file when COLUMNS is not set


def pipe_width(environ=None) -> int:
    """Columns for output that is not on a terminal: COLUMNS when it is a positive integer (rich's own convention,
    which ``COLUMNS=100 boundcalc regret … | less`` relies on), else PIPE_WIDTH (wide enough for the bound tables)."""
    import os

    text = (os.environ if environ is None else environ).get("COLUMNS", "").strip()
    if text.isdigit() and 20 <= int(text) <= 10_000:
        return int(text)
    return PIPE_WIDTH


def esc(text: Any) -> str:
    """User text (an instance's name, a plugin's names, a file name) made literal inside rich markup: "[bold]" in a
    name is printed as written, not taken as a tag (issue 22 §4: a closing tag that matches nothing was an internal
    error)."""
    from rich.markup import escape

    return escape(str(text))


def console(stderr: bool = False):
    """The rich console of every command; a print whose markup does not parse (user text that reached it
    unescaped) is printed again without markup, never an internal error."""
    from rich.console import Console
    from rich.errors import MarkupError

    class _Console(Console):
        def print(self, *objects, **kwargs):
            try:
                return super().print(*objects, **kwargs)
            except MarkupError:
                plain = Console(stderr=stderr, highlight=False, soft_wrap=False, width=self.width, markup=False,
                                file=self.file)
                return plain.print(*objects, **{**kwargs, "markup": False})

    stream = sys.stderr if stderr else sys.stdout
    width = None if stream.isatty() else pipe_width()  # a terminal: rich asks it (and reads COLUMNS itself)
    return _Console(stderr=stderr, highlight=False, soft_wrap=False, width=width)


def table_fits(con, table, floors: dict | None = None) -> bool:
    """Whether rich lays ``table`` out in the console's width without cutting a cell: every no-wrap column (numbers,
    ids) at least its widest cell (header included), every wrapping column at least its longest word and its floor
    (``floors``: {header: columns}, e.g. caveats readable rather than one word a line). Checked on the widths rich
    itself computes (rich's Table._calculate_column_widths: it shrinks the widest wrapping columns first, whatever
    their words; rich's own Column.min_width would defeat that shrinking and crop the table)."""
    big = con.options.update_width(100_000)
    width = con.width if table.width is None else table.width
    widths = table._calculate_column_widths(con, con.options.update_width(width - table._extra_width))
    if sum(widths) + table._extra_width > con.width:
        return False
    for col, w in zip(table.columns, widths):
        m = table._measure_column(con, big, col)
        pad = table._get_padding_width(col._index)
        need = m.maximum if col.no_wrap else max(m.minimum, (floors or {}).get(str(col.header), 0) + pad)
        if w < need:
            return False
    return True


def _fix_widths(con, table, floors: dict | None) -> bool:
    """Give every wrapping column of ``table`` a fixed width: its need (longest word, floor) plus a share of the
    spare columns up to its widest line, so that rich's collapse (which shrinks the widest columns first, below their
    words) does not run. False when even the needs do not fit (a column must go)."""
    big = con.options.update_width(100_000)
    plan = []
    for col in table.columns:
        m = table._measure_column(con, big, col)
        pad = table._get_padding_width(col._index)
        if col.no_wrap:
            plan.append([col, m.maximum, m.maximum, pad])
        else:
            need = max(m.minimum, (floors or {}).get(str(col.header), 0) + pad)
            plan.append([col, need, max(m.maximum, need), pad])
    spare = con.width - table._extra_width - sum(p[1] for p in plan)
    if spare < 0:
        return False
    for p in sorted((p for p in plan if not p[0].no_wrap), key=lambda p: p[2] - p[1]):  # whole short cells first
        add = min(spare, p[2] - p[1])
        p[1] += add
        spare -= add
    for col, w, _, pad in plan:
        if not col.no_wrap:
            col.width = w - pad
    return True


def fit_columns(con, table, drop, floors: dict | None = None) -> list[str]:
    """Leave out columns of ``table`` named in ``drop`` (in that order, the least needed first) until rich can lay it
    out without cutting a number or a header ("algorit…", "[0.6494, 0.74…"; ``table_fits``); a caption line names what
    was left out. Returns the names dropped."""
    dropped = []
    for name in drop:
        if _fix_widths(con, table, floors) and table_fits(con, table, floors):
            break
        idx = next((i for i, c in enumerate(table.columns) if str(c.header) == name), None)
        if idx is None:
            continue
        del table.columns[idx]
        for i, c in enumerate(table.columns):
            c._index = i
        dropped.append(name)
    else:  # nothing (more) to drop: the best layout of what remains
        _fix_widths(con, table, floors)
    if dropped:
        note = f"left out at {con.width} columns: {', '.join(dropped)} (a wider COLUMNS or --json shows them)"
        table.caption = f"{table.caption}\n{note}" if table.caption else note
        table.caption_justify = "left"
    return dropped


def kv_table(title: str, rows: list[tuple[str, Any]], caption: str | None = None):
    """A two-column rich table (name, value)."""
    from rich.table import Table

    t = Table(title=title, caption=caption, show_header=True, header_style="bold")
    t.add_column("quantity", style="cyan", no_wrap=True)
    t.add_column("value", justify="right")
    for k, v in rows:
        t.add_row(k, fmt(v) if not isinstance(v, str) else v)
    return t


def print_symbolic(expr_pairs: list[tuple[str, Any]]) -> None:
    """Print sympy expressions as unicode pretty-print and LaTeX."""
    import sympy

    con = console()
    for name, expr in expr_pairs:
        con.print(f"[bold]{name}[/bold]")
        con.print(sympy.pretty(expr, use_unicode=True))
        con.print(f"LaTeX: {sympy.latex(expr)}")
        con.print()


# The names the budget classes (boundcalc.privacy.budgets) give their parameters in an InputError -> the option of
# the command that set them. A command that maps its options differently (audit: --epsilon of a local-DP algorithm
# is the LocalDP ε) passes its own table to ``option_names`` (issue 17 §3: name the options of the command run).
from .flags import FLAGS as _FLAGS  # noqa: E402

BUDGET_FLAGS = {name: _FLAGS[name.replace("-", "_")] for name in (
    "epsilon", "delta", "rho", "alpha", "rdp-epsilon", "rdp_epsilon", "ldp-epsilon", "ldp_epsilon", "ldp-delta",
    "ldp_delta")}


class option_names:
    """Context manager: an InputError whose parameter is a key of ``mapping`` is raised again naming the value,
    the command's own option (its range and the value got unchanged)."""

    def __init__(self, mapping: dict[str, str] = BUDGET_FLAGS):
        self.mapping = mapping

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        if isinstance(exc, InputError) and self.mapping.get(exc.parameter, exc.parameter) != exc.parameter:
            raise InputError(self.mapping[exc.parameter], exc.allowed, exc.got) from None
        return False


def budget_inputs(budget) -> dict:
    return budget.as_dict() if budget is not None else {"notion": "none"}


# -- plots (matplotlib imported lazily, Agg backend) ----------------------------------------------------
def check_output_path(option: str, path: Optional[str], suffixes: tuple[str, ...]) -> Optional[str]:
    """Validate an output file before any work: a name ending in one of ``suffixes`` (case-insensitive; the writers
    accept either case), not a directory, in an existing directory where a file can be created (checked by
    creating and removing one: permission bits say nothing for root or on /proc)."""
    import os
    import tempfile

    if path is None:
        return None
    allowed = f"a FILE{'/'.join(suffixes)} path in an existing, writable directory"
    stem, ext = os.path.splitext(os.path.basename(path))  # ".png" alone has no name: splitext gives ext ""
    if not stem or ext.lower() not in tuple(s.lower() for s in suffixes) or os.path.isdir(path):
        raise InputError(option, allowed, path)
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise InputError(option, allowed, f"{path}: no such directory")
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".boundcalc-probe-")
    except OSError as exc:
        raise InputError(option, allowed, f"{path}: {exc.strerror or exc}") from None
    os.close(fd)
    os.unlink(probe)
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise InputError(option, allowed, f"{path}: not writable")
    return path


def check_plot_path(path: Optional[str]) -> Optional[str]:
    """Validate --plot before any work: a FILE.png, FILE.svg or FILE.pdf (boundcalc.figures.FORMATS: the format
    follows the extension) in an existing, writable directory."""
    if path is None:  # no picture: figures (25 kB of source) is not imported (start-up)
        return None
    from ..figures import FORMATS

    return check_output_path("--plot", path, FORMATS)


def pyplot():
    """matplotlib.pyplot on the Agg backend, or a one-line error when matplotlib is not installed."""
    from .. import figures

    return figures.pyplot()


def save_figure(fig, path: str) -> None:
    """Lay out, write (in the format of the extension, atomically) and close a figure (boundcalc.figures.save)."""
    from .. import figures

    figures.save(fig, path, "--plot")


def track(items, description: str, enabled: bool = True):
    """Iterate with a transient rich progress bar on stderr (for work that may take over a second); silent when
    stderr is not a terminal (boundcalc.progress)."""
    from ..progress import on_terminal

    items = list(items)
    if not enabled or len(items) < 2 or not on_terminal():
        yield from items
        return
    from rich.progress import track as rich_track

    yield from rich_track(items, description=description, console=console(stderr=True), transient=True)
