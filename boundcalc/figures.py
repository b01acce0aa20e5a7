"""Figures a paper would print: regret curves with their 95% ribbons, bounds on the same axes, regret against
the privacy budget. One module for every picture boundcalc draws (``simulate --plot``, ``regret --plot``,
``regret --check --plot``, ``budget --plot``, the worksheets), so that they share one look:

- the title names the instance, the budget, T and the number of runs (:func:`title`);
- axes fit the data (log x; y from 0, or log y when the values span decades; limits from what is drawn); a figure
  that redraws a paper's figure takes the paper's scales, and :func:`scales` overrides every figure drawn inside it
  (``--x-scale`` / ``--y-scale`` / ``--log-y`` of ``simulate``, ``regret``, ``budget`` and ``worksheet run``);
- the legend lists only what is drawn (a curve with no finite point is left out, and so is its label);
- a colour-blind-safe palette (Okabe & Ito 2008, "Color Universal Design"; then Tol's "muted" scheme);
- PNG, SVG or PDF by the file's extension (:func:`check_path` validates the path before any work).

matplotlib is imported only inside the functions (Agg backend), so importing this module costs nothing.
"""

from __future__ import annotations

import contextlib
import contextvars
import io
import math
import os
import tempfile
import textwrap
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from .errors import InputError, flag

FORMATS = (".png", ".svg", ".pdf")
# Okabe & Ito (2008) without black, then Paul Tol's "muted" qualitative scheme: distinguishable under the common
# colour-vision deficiencies.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442",
           "#332288", "#88CCEE", "#44AA99", "#117733", "#999933", "#DDCC77", "#CC6677", "#882255", "#AA4499")
LINESTYLES = ("-", "--", "-.", ":")
MIN_PLOT_CHECKPOINTS = 50  # default number of log-spaced checkpoints when a regret curve is drawn
LOWER_COLOUR = "#000000"  # lower bounds beside simulated curves: black, dashed
LEGEND_INSIDE_MAX = 6  # more legend entries than this go outside the axes, on the right


SCALES = ("linear", "log")
# (x, y) scale overrides of the figures drawn now (None: each figure's own default); set by ``scales``
_SCALES: contextvars.ContextVar = contextvars.ContextVar("boundcalc_figure_scales", default=(None, None))


def check_scale(option: str, value) -> str | None:
    """``linear`` or ``log`` (or None: the figure's own default); InputError naming ``option`` otherwise."""
    if value is None:
        return None
    v = str(value).strip().lower()
    if v not in SCALES:
        raise InputError(option, "linear or log", value)
    return v


def scale_options(x_scale=None, y_scale=None, log_y: bool = False) -> tuple[str | None, str | None]:
    """The (x, y) overrides of the CLI options ``--x-scale``, ``--y-scale`` and ``--log-y`` (shorthand for
    ``--y-scale log``; with ``--y-scale linear`` a contradiction, refused)."""
    x, y = check_scale(flag("x_scale"), x_scale), check_scale(flag("y_scale"), y_scale)
    if log_y:
        if y == "linear":
            log_y, y_scale = flag("log_y"), flag("y_scale")
            raise InputError(log_y, f"without {y_scale} linear ({log_y} is {y_scale} log)", f"{y_scale} linear")
        y = "log"
    return x, y


@contextlib.contextmanager
def scales(x: str | None = None, y: str | None = None):
    """Every figure drawn inside takes these axis scales ("linear" / "log"; None keeps each figure's own, e.g. the
    paper's scales of a worksheet figure): the one place an override is applied (:func:`x_scale_of`,
    :func:`log_y_of`, which every drawing function here asks)."""
    token = _SCALES.set((check_scale(flag("x_scale"), x), check_scale(flag("y_scale"), y)))
    try:
        yield
    finally:
        _SCALES.reset(token)


def x_scale_of(default: str = "log") -> str:
    """The x scale of a figure whose own is ``default``, after the override of :func:`scales`."""
    return _SCALES.get()[0] or default


def log_y_of(default: bool | None) -> bool | None:
    """Log y (True), linear y (False) or chosen from the data (None) for a figure whose own is ``default``, after the
    override of :func:`scales`."""
    y = _SCALES.get()[1]
    return default if y is None else y == "log"


def axes_scales(fig) -> list[tuple[str, str]]:
    """(x scale, y scale) of each visible axes of a matplotlib figure, as drawn (read back from the axes)."""
    return [(ax.get_xscale(), ax.get_yscale()) for ax in fig.axes if ax.get_visible()]


def colour(i: int) -> str:
    """The i-th colour of the palette (cycled)."""
    return PALETTE[i % len(PALETTE)]


def check_path(path: str | None, option: str = flag("plot")) -> str | None:
    """Validate a figure path before any work: a .png, .svg or .pdf file in an existing directory where a file
    can be created (checked by creating and removing one: permission bits alone miss read-only file systems)."""
    if path is None:
        return None
    ext = os.path.splitext(path)[1].lower()
    folder = os.path.dirname(os.path.abspath(path))
    if ext not in FORMATS or os.path.isdir(path):
        raise InputError(option, "a FILE.png, FILE.svg or FILE.pdf path", path)
    if not os.path.isdir(folder):
        raise InputError(option, "a file in an existing directory", path)
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".boundcalc-probe-")
    except OSError as exc:
        raise InputError(option, "a file in a writable directory", f"{path}: {exc.strerror or exc}") from None
    os.close(fd)
    os.unlink(probe)
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise InputError(option, "a file in a writable directory", f"{path}: not writable")
    return path


def pyplot():
    """matplotlib.pyplot on the Agg backend, or a one-line error when matplotlib is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InputError(flag("plot"), "used with matplotlib installed (pip install 'boundcalc[plot]')", None) from None
    return plt


def save(fig, path: str, option: str = flag("plot")) -> str:
    """Lay out and write a figure in the format its extension names (atomically: a temporary file in the same
    directory, then renamed), and close it. Returns the path."""
    plt = pyplot()
    check_path(path, option)
    ext = os.path.splitext(path)[1].lower()
    tmp = os.path.join(os.path.dirname(os.path.abspath(path)), f".{os.path.basename(path)}.{os.getpid()}.tmp{ext}")
    try:
        try:
            if not getattr(fig, "_boundcalc_keep_layout", False):  # panels_figure lays out its shared legend itself
                fig.tight_layout()
        except Exception:  # noqa: BLE001 - layout is cosmetic (a legend outside the axes can defeat it)
            pass
        fig.savefig(tmp, dpi=150, format=ext[1:], bbox_inches="tight")
        os.replace(tmp, path)
    except OSError as exc:
        raise InputError(option, "a writable figure path", f"{path}: {exc.strerror}") from None
    finally:
        plt.close(fig)
        if os.path.exists(tmp):
            os.remove(tmp)
    return path


TITLE_WIDTH = 100  # characters per title line; longer titles wrap between their parts


def title(what: str, instance: str = "", budget: str = "", T: float | None = None, runs: int | None = None,
          width: int = TITLE_WIDTH) -> str:
    """'what — instance — budget — T = … — N runs', leaving out the parts that are not given. A title longer than
    ``width`` wraps onto several lines between parts (a part longer than a line wraps between its words)."""
    parts = [what]
    if instance:
        parts.append(instance)
    parts.append(budget or "non-private")
    if T is not None:
        parts.append(f"T = {_num(T)}")
    if runs is not None:
        parts.append(f"{runs} runs")
    return wrap_title(" — ".join(parts), width)


def wrap_title(text: str, width: int = TITLE_WIDTH) -> str:
    """Break a long title into lines of at most ``width`` characters at its " — " separators (then at spaces), so
    that a long instance name does not widen the figure."""
    lines, cur = [], ""
    for part in text.split(" — "):
        cand = part if not cur else f"{cur} — {part}"
        if len(cand) <= width:
            cur = cand
            continue
        if cur:
            lines.append(cur)
        wrapped = textwrap.wrap(part, width) or [""]
        lines.extend(wrapped[:-1])
        cur = wrapped[-1]
    lines.append(cur)
    return "\n".join(lines)


def _num(x: float) -> str:
    x = float(x)
    if x >= 1e4 and float(x).is_integer():
        e = int(math.floor(math.log10(x)))
        m = x / 10**e
        return f"10^{e}" if m == 1 else f"{m:g}·10^{e}"
    return f"{x:g}"


@dataclass
class Curve:
    """A simulated mean regret curve with its 95% interval (the ribbon)."""

    label: str
    t: Any
    mean: Any
    lo: Any = None
    hi: Any = None
    color: str | None = None  # None: the palette's colour for the curve's position


@dataclass
class Line:
    """A bound (or any deterministic curve) drawn against the x of a figure."""

    label: str
    x: Any
    y: Any
    kind: str = "upper"  # upper | lower | other: upper solid, lower dashed
    style: dict = field(default_factory=dict)


def _finite_xy(x, y):
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    ok = np.isfinite(x) & np.isfinite(y)
    return x[ok], y[ok]


def _fit_axes(ax, ys: list, log_y: bool | None):
    """y limits from what is drawn: 0 to 1.08 × max on a linear axis, or the decades spanned on a log axis."""
    vals = np.concatenate([np.asarray(v, dtype=float).ravel() for v in ys]) if ys else np.array([])
    vals = vals[np.isfinite(vals)]
    if vals.size == 0:
        return
    pos = vals[vals > 0]
    if log_y is None:
        log_y = pos.size > 0 and pos.max() / max(pos.min(), 1e-300) > 1e3
    if log_y and pos.size:
        ax.set_yscale("log")
        ax.set_ylim(pos.min() / 1.5, pos.max() * 1.5)
    else:
        top = vals.max()
        ax.set_ylim(min(0.0, vals.min()), top * 1.08 if top > 0 else 1.0)


FOCUS_HEADROOM = 2.5  # y_focus: the y axis reaches this many times the focus curves' largest value (upper ribbon)


def regret_figure(curves: Sequence[Curve], lines: Sequence[Line] = (), *, title_text: str = "",
                  xlabel: str = "t", ylabel: str = "pseudo-regret", log_y: bool | None = False, ax=None,
                  x_scale: str = "log", y_focus: Sequence[str] = ()):
    """Mean regret curves with 95% ribbons, and bounds (upper solid, lower dashed) on the same axes (log x unless
    ``x_scale`` says otherwise; :func:`scales` overrides both axes).

    Bounds are drawn only over the range of t the curves cover and only up to a few times the largest simulated
    value (a vacuous bound would otherwise flatten every curve); a bound left entirely off-scale is listed in the
    legend as "(off scale)" rather than silently dropped. ``y_focus``: labels of the curves the linear y axis is fitted
    to (up to FOCUS_HEADROOM times their largest value), so that close low curves stay readable beside a curve far
    above them; the curves that leave the axes are named on the panel. Returns the figure."""
    log_y = log_y_of(log_y)
    plt = pyplot()
    fig = None
    if ax is None:
        fig, ax = plt.subplots(figsize=(7.5, 4.6))
    drawn_y = []
    tmin, tmax = math.inf, -math.inf
    for i, c in enumerate(curves):
        t, m = _finite_xy(c.t, c.mean)
        if t.size == 0:
            continue
        col = c.color or colour(i)
        ax.plot(t, m, color=col, lw=1.8, label=c.label)
        drawn_y.append(m)
        if c.lo is not None and c.hi is not None:
            lo = np.asarray(c.lo, dtype=float)
            hi = np.asarray(c.hi, dtype=float)
            ok = np.isfinite(np.asarray(c.t, dtype=float)) & np.isfinite(lo) & np.isfinite(hi)
            ax.fill_between(np.asarray(c.t, dtype=float)[ok], lo[ok], hi[ok], color=col, alpha=0.22, lw=0)
            drawn_y.append(hi[ok])
        tmin, tmax = min(tmin, t.min()), max(tmax, t.max())
    ymax = max((float(np.max(y)) for y in drawn_y if np.size(y)), default=None)
    top = None  # the y axis' top when y_focus cuts the curves above it
    if y_focus and not log_y and ymax is not None:
        foc = [float(np.nanmax(np.asarray(c.hi if c.hi is not None else c.mean, dtype=float)))
               for c in curves if c.label in y_focus and np.isfinite(np.asarray(c.mean, dtype=float)).any()]
        foc = [v for v in foc if math.isfinite(v) and v > 0]
        # cut only where a curve's mean leaves the axes (a ribbon alone reaching above does not)
        if foc and any(np.nanmax(np.asarray(c.mean, dtype=float)) > FOCUS_HEADROOM * max(foc) for c in curves):
            top = FOCUS_HEADROOM * max(foc)
    limit = top if top is not None else (None if ymax is None else 4 * ymax)
    for j, ln in enumerate(lines):
        x, y = _finite_xy(ln.x, ln.y)
        if math.isfinite(tmin):
            keep = (x >= tmin) & (x <= tmax)
            x, y = x[keep], y[keep]
        if x.size == 0:
            continue
        col = colour(len(curves) + j)
        style = {"ls": "-" if ln.kind == "upper" else ("--" if ln.kind == "lower" else ":"), "lw": 1.3, "color": col}
        style.update(ln.style)
        label = ln.label
        if limit is not None and not log_y and y.min() > limit:
            label += " (off scale)"
            ax.plot([], [], label=label, **style)
            continue
        ax.plot(x, y, label=label, **style)
        drawn_y.append(y if limit is None or log_y else np.minimum(y, limit))
    ax.set_xscale(x_scale_of(x_scale))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if math.isfinite(tmin):
        ax.set_xlim(tmin, tmax)
    if top is not None:
        drawn_y = [np.minimum(np.asarray(y, dtype=float), top / 1.08) for y in drawn_y]
    _fit_axes(ax, drawn_y, log_y)
    if top is not None:
        above = [c.label for c in curves if np.nanmax(np.asarray(c.mean, dtype=float)) > top]
        ax.text(0.99, 0.98, "above the axes: " + ", ".join(above), transform=ax.transAxes, ha="right", va="top",
                fontsize=6.5, color="#444444")
    if title_text:
        ax.set_title(title_text, fontsize=9)
    handles, labels = ax.get_legend_handles_labels()
    if len(handles) > LEGEND_INSIDE_MAX:
        ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
        if fig is not None:
            fig.set_size_inches(10.5, 4.8)
    elif handles:
        ax.legend(fontsize=7, loc="upper left", frameon=False)
    ax.grid(True, which="major", alpha=0.25)
    return fig if fig is not None else ax.figure


def lines_figure(lines: Sequence[Line], *, title_text: str = "", xlabel: str = "T", ylabel: str = "regret bound",
                 log_x: bool = True, log_y: bool | None = None, markers: Sequence[tuple[str, float]] = ()):
    """Deterministic curves (bounds against T or against a budget), upper solid and lower dashed, with vertical
    markers (label, x) for chosen values (e.g. the recommended budget); :func:`scales` overrides the axes' scales.
    Returns the figure."""
    log_y = log_y_of(log_y)
    x_scale = x_scale_of("log" if log_x else "linear")
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(8.5, 4.8))
    drawn = []
    for j, ln in enumerate(lines):
        x, y = _finite_xy(ln.x, ln.y)
        if log_y is not False:
            keep = y > 0
            x, y = x[keep], y[keep]
        if x.size == 0:
            continue
        style = {"ls": "-" if ln.kind == "upper" else ("--" if ln.kind == "lower" else ":"), "lw": 1.4,
                 "color": colour(j)}
        style.update(ln.style)
        ax.plot(x, y, label=ln.label, **style)
        drawn.append(y)
    style_k = 0
    for k, (label, xv) in enumerate(markers):
        if label and k:  # an unlabelled marker continues the previous one's style (e.g. several listed budgets)
            style_k += 1
        if xv is not None and math.isfinite(xv) and xv > 0:
            ax.axvline(xv, color="#000000", ls=LINESTYLES[(style_k + 1) % len(LINESTYLES)], lw=1.0,
                       label=label or None)
    ax.set_xscale(x_scale)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    _fit_axes(ax, drawn, log_y)
    if title_text:
        ax.set_title(title_text, fontsize=9)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
    ax.grid(True, which="major", alpha=0.25)
    return fig


def panels(n: int, ncols: int = 2, width: float = 6.4, height: float = 4.3):
    """A figure with ``n`` panels in rows of ``ncols`` (unused cells hidden): (fig, [ax, ...])."""
    plt = pyplot()
    n = max(int(n), 1)
    ncols = max(1, min(int(ncols), n))
    nrows = math.ceil(n / ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(width * ncols, height * nrows), squeeze=False)
    flat = [ax for row in axes for ax in row]
    for ax in flat[n:]:
        ax.set_visible(False)
    return fig, flat[:n]


def bound_line(bound, colour_of: str | None = None) -> Line:
    """A Line from a bound curve (any object with ``label``, ``t``, ``values``, ``kind`` and optionally ``inside``,
    e.g. boundcalc.verify.overlay.BoundCurve): upper solid, lower dashed; a bound outside its theorem's assumptions
    dotted and lighter; ``colour_of`` ties it to the curve of its algorithm."""
    style: dict = {}
    if colour_of is not None:  # beside its algorithm's curve: same colour, thinner, dash-dotted
        style.update(color=colour_of, ls="-.", lw=1.1)
    elif bound.kind == "lower":
        style["color"] = LOWER_COLOUR
    if not getattr(bound, "inside", True):
        style.update(ls=":", alpha=0.75)
    return Line(bound.label, bound.t, bound.values, kind=bound.kind, style=style)


def curve_from_results(res, label: str | None = None, level: float = 0.95) -> Curve:
    """A Curve from boundcalc.montecarlo Results (mean and its Student-t interval at every checkpoint)."""
    lo, hi = res.ci(level=level, method="t")
    return Curve(label or str(res.algorithm.get("name", "algorithm")), res.checkpoints, res.mean(), lo, hi)


@dataclass
class Panel:
    """One panel of a grid: curves with ribbons and bounds, as :func:`regret_figure` draws them."""

    curves: Sequence[Curve]
    lines: Sequence[Line] = ()
    title: str = ""
    xlabel: str = "t"
    ylabel: str = "pseudo-regret"
    log_y: bool | None = False
    x_scale: str = "log"
    y_focus: Sequence[str] = ()


def panels_figure(panels: Sequence[Panel], *, ncols: int = 2, suptitle: str = "", panel_size=(5.2, 3.6),
                  shared_legend: bool = True):
    """A grid of :func:`regret_figure` panels (e.g. one paper figure with one panel per environment) with one
    shared legend below the grid: the union of what the panels draw, each label once (``shared_legend=False``
    keeps one legend per panel, for panels whose curves are different things). Panels are filled row by row;
    unused cells are removed. Returns the figure."""
    plt = pyplot()
    n = len(panels)
    if n == 0:
        raise ValueError("panels_figure needs at least one panel")
    ncols = max(1, min(ncols, n))
    nrows = math.ceil(n / ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(panel_size[0] * ncols, panel_size[1] * nrows + 0.9), squeeze=False)
    for k, p in enumerate(panels):
        ax = axes[k // ncols][k % ncols]
        regret_figure(p.curves, p.lines, title_text=p.title, xlabel=p.xlabel, ylabel=p.ylabel, log_y=p.log_y, ax=ax,
                      x_scale=p.x_scale, y_focus=p.y_focus)
    for k in range(n, nrows * ncols):
        fig.delaxes(axes[k // ncols][k % ncols])
    if not shared_legend:
        if suptitle:
            fig.suptitle(suptitle, fontsize=10)
        fig.tight_layout(rect=(0, 0, 1, 0.96 if suptitle else 1))
        fig._boundcalc_keep_layout = True
        return fig
    # one entry per label; a bound off scale in some panels and drawn in others is listed once, as drawn
    seen: dict[str, Any] = {}
    off: dict[str, Any] = {}
    for ax in fig.axes:
        handles, labels = ax.get_legend_handles_labels()
        for h, lab in zip(handles, labels):
            if lab.endswith(" (off scale)"):
                off.setdefault(lab[: -len(" (off scale)")], h)
            else:
                seen.setdefault(lab, h)
        if ax.get_legend() is not None:
            ax.get_legend().remove()
    for base, h in off.items():
        if base not in seen:
            seen[base + " (off scale)"] = h
    if seen:
        fig.legend(list(seen.values()), list(seen.keys()), loc="lower center", ncol=min(4, len(seen)), fontsize=7,
                   frameon=False, bbox_to_anchor=(0.5, 0.0))
    if suptitle:
        fig.suptitle(suptitle, fontsize=10)
    rows_of_legend = math.ceil(len(seen) / 4) if seen else 0
    fig.tight_layout(rect=(0, 0.03 + 0.035 * rows_of_legend, 1, 0.97 if suptitle else 1))
    fig._boundcalc_keep_layout = True
    return fig


def ccdf_figure(samples: dict, *, title_text: str = "", xlabel: str = "regret at T", log_y: bool = True,
                markers: Sequence[tuple[str, float]] = ()):
    """The distribution of the final regret per algorithm as an empirical CCDF: P(Reg(T) > x) against x (one
    step curve per algorithm; log y by default, where the rare bad runs show), with vertical markers (e.g. a cap).
    ``samples``: {label: per-run final regrets}."""
    log_y = log_y_of(log_y)
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(8.5, 4.8))
    for j, (label, xs) in enumerate(samples.items()):
        x = np.sort(np.asarray(xs, dtype=float))
        x = x[np.isfinite(x)]
        if x.size == 0:
            continue
        n = x.size
        surv = 1.0 - np.arange(1, n + 1) / n  # P(X > x_(i)) of the empirical law
        surv = np.where(surv > 0, surv, 0.5 / n)  # the largest run drawn at half a run, so log y keeps it
        ax.step(x, surv, where="post", color=colour(j), lw=1.4,
                label=f"{label} (n = {n}, median {np.median(x):.4g}, p90 {np.quantile(x, 0.9):.4g})")
    for k, (label, xv) in enumerate(markers):
        if xv is not None and math.isfinite(xv):
            ax.axvline(xv, color="#000000", ls=LINESTYLES[(k + 1) % len(LINESTYLES)], lw=1.0, label=label or None)
    ax.set_xscale(x_scale_of("linear"))
    if log_y:
        ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("fraction of runs with larger regret (CCDF)")
    if title_text:
        ax.set_title(title_text, fontsize=9)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=7, loc="best", frameon=False)
    ax.grid(True, which="major", alpha=0.25)
    return fig


def interval_figure(series: dict, *, target: float | None = None, title_text: str = "", xlabel: str = "budget",
                    ylabel: str = "measured overhead", markers: Sequence[tuple[str, float]] = (), log_y: bool = False):
    """Estimates with their intervals against a budget (log x), one colour per series, a horizontal target line
    and vertical markers. ``series``: {label: [(x, estimate, lo, hi), ...]}."""
    log_y = log_y_of(log_y)
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(8.5, 4.8))
    for j, (label, pts) in enumerate(series.items()):
        pts = sorted(p for p in pts if p[0] > 0 and math.isfinite(p[1]))
        if not pts:
            continue
        x = np.array([p[0] for p in pts])
        y = np.array([p[1] for p in pts])
        lo = np.array([p[2] if math.isfinite(p[2]) else p[1] for p in pts])
        hi = np.array([p[3] if math.isfinite(p[3]) else p[1] for p in pts])
        ax.errorbar(x, y, yerr=[np.maximum(y - lo, 0), np.maximum(hi - y, 0)], fmt="o", ms=3, capsize=3,
                    color=colour(j), label=label)
    if target is not None:
        ax.axhline(target, color="#b00000", ls="--", lw=1.0, label=f"target {target:g}")
    for k, (label, xv) in enumerate(markers):
        if xv is not None and math.isfinite(xv) and xv > 0:
            ax.axvline(xv, color="#000000", ls=LINESTYLES[(k + 1) % len(LINESTYLES)], lw=1.0, label=label or None)
    ax.set_xscale(x_scale_of("log"))
    if log_y:
        ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title_text:
        ax.set_title(title_text, fontsize=9)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=7, loc="best", frameon=False)
    ax.grid(True, which="major", alpha=0.25)
    return fig


def svg_text(fig) -> str:
    """The figure as inline SVG markup (no XML prolog, fonts as paths: nothing to load), and close it."""
    import matplotlib

    plt = pyplot()
    buf = io.StringIO()
    try:
        with matplotlib.rc_context({"svg.fonttype": "path"}):
            try:
                fig.tight_layout()
            except Exception:  # noqa: BLE001 - layout is cosmetic
                pass
            fig.savefig(buf, format="svg", bbox_inches="tight")
    finally:
        plt.close(fig)
    s = buf.getvalue()
    i = s.find("<svg")
    return s[i:] if i >= 0 else s
