"""The pieces of a paper worksheet: experiments as data, a runner that simulates, draws, compares and records.

A :class:`Worksheet` is one paper: its :class:`Experiment` list (which paper figure each reproduces, the paper's
instance, budgets, horizons and algorithms, and the reduced ``fast`` / paper-scale ``full`` parameters) and what
could not be reproduced. An experiment's ``run(runner, scale)`` does its work through the :class:`Runner`:

- ``runner.simulate`` runs boundcalc.montecarlo with a seed derived from (worksheet seed, experiment, label), so
  every number in a report can be recomputed by a direct library call (the seed is recorded);
- ``runner.figure`` saves a figure (boundcalc.figures) into the output directory;
- ``runner.table`` / ``runner.compare`` / ``runner.figure_claim`` / ``runner.note`` record what the report shows.

The percent-format notebooks in ``worksheets/``, the scripts they are, and ``boundcalc worksheet run`` all drive the
same Runner (see :mod:`boundcalc.experiments.session`). Nothing here prints except through the session.
"""

from __future__ import annotations

import importlib
import math
import os
import tempfile
import time
import warnings
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

import numpy as np
from rich.table import Table as RichTable

from .. import montecarlo, textformat
from ..errors import InputError, ParamName
from ..figures import MIN_PLOT_CHECKPOINTS, check_scale, scales
from .options import OPTIONS, option
from ..montecarlo.engine import derived_seed  # noqa: F401  (the worksheets' seeds, defined with the engine's seeding)

MODES = ("fast", "full")
# Full mode: the largest horizon simulated for an algorithm that loops over every step (granularity "step": its cost
# grows with T, its runs are vectorised). Such a curve stops at the cap (the runs are the paper's), the report says so
# with the time the paper's T would take at the measured rate; ``--step-cap 0`` lifts it (the paper's scale whatever it
# costs). Every other simulation of a capped worksheet gets the cap as a checkpoint, so all curves meet there.
FULL_STEP_CAP = 10**5


@dataclass
class Table:
    """A small table of strings, rendered as markdown (report) or rich (terminal)."""

    title: str
    columns: list[str]
    rows: list[list[str]]
    note: str = ""

    def markdown(self) -> str:
        def esc(x: str) -> str:
            return str(x).replace("|", "\\|").replace("\n", " ")

        out = [f"**{self.title}**", "", "| " + " | ".join(esc(c) for c in self.columns) + " |",
               "|" + "|".join("---" for _ in self.columns) + "|"]
        out += ["| " + " | ".join(esc(c) for c in r) + " |" for r in self.rows]
        if self.note:
            out += ["", f"_{self.note}_"]
        return "\n".join(out)

    def rich(self):
        t = RichTable(title=self.title, header_style="bold", caption=self.note or None)
        for c in self.columns:
            t.add_column(c)
        for r in self.rows:
            t.add_row(*[str(x) for x in r])
        return t


@dataclass
class Simulation:
    """One simulation as run: enough to recompute it with ``montecarlo.run`` (algorithm, env, T, runs, seed)."""

    experiment: str
    label: str
    algorithm: str
    params: dict
    env: str
    T: int
    runs: int
    T_requested: int
    seed: int
    checkpoints: int
    final_mean: float
    final_ci: list[float]
    seconds: float
    note: str = ""


@dataclass
class Comparison:
    """Measured regret at T (mean, 95% Student-t interval) against one registered bound at T, with its verdict."""

    experiment: str
    config: str
    algorithm: str
    bound_id: str
    bound: str
    kind: str
    form: str
    T: int
    bound_value: float | None
    mean: float
    ci: list[float]
    verdict: str


@dataclass
class FigureClaim:
    """A claim the paper reads off its figure, judged on the simulated curves."""

    experiment: str
    claim: str
    source: str
    verdict: str  # reproduced | not reproduced | inconclusive | not checkable here
    evidence: str


@dataclass
class CurveBounds:
    """Which registered bounds a simulated curve has on its figure (issue 16 item 6): ``drawn`` (bound ids drawn on the
    curve's axes), ``judged`` (bound ids with a Comparison of this algorithm in the experiment; the verdict says
    "outside the assumptions" where the instance breaks them), or ``reason``: why no bound is drawn or judged."""

    experiment: str
    algorithm: str
    drawn: list[str]
    judged: list[str]
    reason: str = ""


@dataclass
class ExperimentResult:
    id: str
    title: str
    reproduces: str
    description: str
    scale: dict
    figures: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    comparisons: list[Comparison] = field(default_factory=list)
    simulations: list[Simulation] = field(default_factory=list)
    figure_claims: list[FigureClaim] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    curve_bounds: list[CurveBounds] = field(default_factory=list)
    seconds: float = 0.0
    # {figure file: its axes as drawn, read back from the matplotlib figure when saved (figure_axes)}
    figure_axes: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        d = asdict(self)
        d["tables"] = [asdict(t) for t in self.tables]
        return d


@dataclass
class Experiment:
    """One paper figure (or group of figures) and how to reproduce it.

    ``scales[mode]`` holds the parameters of the mode (horizon, runs, grids); ``run(runner, scale)`` does the work."""

    id: str
    title: str
    reproduces: str
    description: str
    scales: dict[str, dict]
    run: Callable[["Runner", dict], None]
    data: str = ""  # the user's real-data file it reads (a boundcalc.data NAME, ``--data NAME=PATH``); "" none


@dataclass
class Worksheet:
    """One paper: its experiments, the claims' paper id and what cannot be reproduced (with the reason)."""

    name: str  # "001"
    slug: str  # "eps_global_dp"
    title: str
    paper: str
    summary: str
    experiments: list[Experiment]
    not_reproduced: list[str] = field(default_factory=list)

    @property
    def script(self) -> str:
        return f"{self.name}_{self.slug}.py"

    def experiment(self, exp_id: str) -> Experiment:
        for e in self.experiments:
            if e.id == exp_id:
                return e
        raise InputError("experiment", "one of " + ", ".join(e.id for e in self.experiments), exp_id)


def check_out_dir(out: str, option: str = OPTIONS["out"]) -> str:
    """Create the output directory if needed; a one-line InputError when it cannot be created or written (an
    empty name is not taken for the current directory; writability is probed by creating a file, as permission
    bits say nothing for root)."""
    if not str(out).strip():
        raise InputError(option, "a directory path (not empty)", out)
    path = os.path.abspath(out)
    if os.path.exists(path) and not os.path.isdir(path):
        raise InputError(option, "a directory (or a path where one can be created)", out)
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as exc:
        raise InputError(option, "a directory that can be created", f"{out}: {exc.strerror}") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise InputError(option, "a writable directory", out)

    try:
        fd, probe = tempfile.mkstemp(dir=path, prefix=".boundcalc-probe-")
    except OSError as exc:
        raise InputError(option, "a writable directory", f"{out}: {exc.strerror or exc}") from None
    os.close(fd)
    os.unlink(probe)
    return path


def data_readers() -> dict[str, list[str]]:
    """{data NAME: [worksheets with an experiment that reads it]} (``Experiment.data``)."""
    from . import all_worksheets  # deferred: the package imports this module (the worksheets are defined on top of it)

    out: dict[str, list[str]] = {}
    for ws in all_worksheets():
        for e in ws.experiments:
            if e.data and ws.name not in out.setdefault(e.data, []):
                out[e.data].append(ws.name)
    return out


def check_data(data: dict[str, str] | None, ws: "Worksheet | None" = None) -> dict[str, str]:
    """The real-data files by name (boundcalc.data.NAMES), each an existing path and, with ``ws``, one that an
    experiment of the worksheet reads (``worksheet run 001 --data autoloan=FILE`` would be silently ignored);
    InputError otherwise."""
    from ..data import NAMES

    out = {}
    for name, path in (data or {}).items():
        if name not in NAMES:
            raise InputError(ParamName("data"), "NAME=PATH with NAME one of " + ", ".join(NAMES), f"{name}={path}")
        if ws is not None and name not in {e.data for e in ws.experiments}:
            reads = sorted({e.data for e in ws.experiments if e.data})
            which = "; ".join(f"{n}=PATH for worksheet {', '.join(w)}" for n, w in data_readers().items())
            raise InputError(ParamName("data"), f"a file worksheet {ws.name} reads ("
                             + (", ".join(reads) if reads else "it reads none") + f"): {which}", f"{name}={path}")
        try:
            ok = bool(str(path).strip()) and os.path.exists(path)
        except (ValueError, OSError):  # a NUL byte, a name too long
            ok = False
        if not ok:
            raise InputError(ParamName("data"), f"{name}=PATH with an existing path (docs/real_data.md)", f"{name}={path}")

        check = getattr(importlib.import_module(f"boundcalc.data.{name}"), f"check_{name}")
        try:  # the file's format, before any experiment runs (figures were written before a bad file was read)
            check(str(path))
        except InputError as exc:
            raise InputError(option("data", name), exc.allowed, exc.got) from None
        out[name] = str(path)
    return out


class Runner:
    """Runs a worksheet's experiments in one mode and records everything the report shows.

    ``step_cap``: the largest T simulated for a per-step algorithm (None: FULL_STEP_CAP in full mode, no cap in fast
    mode, whose scales are small; 0: no cap). ``on_progress(done, total, what)`` is called as simulations finish.
    ``data``: the user's real-data files by name ({"autoloan": CSV, "lastfm": directory}; boundcalc.data,
    docs/real_data.md); the real-data experiments read theirs from it and say so in the report when it is absent.
    """

    def __init__(self, worksheet: Worksheet, mode: str = "fast", out: str | None = None, seed: int = 0,
                 step_cap: float | None = None, on_progress: Callable[[int, int, str], None] | None = None,
                 data: dict[str, str] | None = None, scales: tuple[str | None, str | None] = (None, None),
                 executor=None):
        if mode not in MODES:
            raise InputError("mode", f"{OPTIONS['fast']} or {OPTIONS['full']}", mode)
        self.ws = worksheet
        self.mode = mode
        self.seed = int(seed)
        if step_cap is None:
            step_cap = FULL_STEP_CAP if mode == "full" else 0
        if not (isinstance(step_cap, (int, float)) and step_cap >= 0 and math.isfinite(step_cap)
                and float(step_cap).is_integer()):
            raise InputError(OPTIONS["step_cap"], "an integer horizon >= 0 (0: no cap)", step_cap)
        self.step_cap = int(step_cap)
        self.out = check_out_dir(out if out is not None else default_out(worksheet, mode))
        self.on_progress = on_progress
        self.data = check_data(data)
        # axis-scale overrides of every figure (None: each figure's own, the paper's; figures.scales)
        self.scales = (check_scale(OPTIONS["x_scale"], scales[0]), check_scale(OPTIONS["y_scale"], scales[1]))
        # where the simulations' blocks run (boundcalc.montecarlo.executors; None: in this process). The numbers are
        # the same whatever the executor (montecarlo.engine's seeding contract); the caller closes it.
        self.executor = executor
        self.results: dict[str, ExperimentResult] = {}
        self.current: ExperimentResult | None = None
        self._done = 0
        self._total = 0
        self._cache: dict = {}
        self.started = time.perf_counter()

    # -- running ---------------------------------------------------------------------------------------------
    def run_experiment(self, exp_id: str) -> ExperimentResult:
        e = self.ws.experiment(exp_id)
        scale = dict(e.scales[self.mode])
        res = ExperimentResult(id=e.id, title=e.title, reproduces=e.reproduces, description=e.description,
                               scale=scale)
        self.current = res
        self._done, self._total = 0, 0
        t0 = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            with np.errstate(all="ignore"), scales(*self.scales):
                e.run(self, scale)
        res.seconds = time.perf_counter() - t0
        self.results[e.id] = res
        self.current = None
        return res

    def expect(self, n: int) -> None:
        """Announce n more simulations in the current experiment (for the progress bar)."""
        self._total += int(n)
        if self.on_progress:
            self.on_progress(self._done, self._total, self.current.title if self.current else "")

    def simulate(self, label: str, alg, env, T: int, runs: int, checkpoints=None):
        """Simulate ``runs`` runs of ``alg`` on ``env`` to ``T`` (log-spaced checkpoints by default, at least
        figures.MIN_PLOT_CHECKPOINTS, plus the step cap when it lies below T); a per-step algorithm stops at the step
        cap (see FULL_STEP_CAP). Returns Results."""
        from ..algorithms import granularity, params_of  # deferred: start-up of `worksheet list`

        T, runs = int(T), int(runs)
        T_paper = T
        capped = 0 < self.step_cap < T and granularity(alg, env) == "step"
        if capped:
            T = self.step_cap
        if checkpoints is None:
            cps = montecarlo.log_checkpoints(T, n=MIN_PLOT_CHECKPOINTS, start=min(10, T))
            if 0 < self.step_cap < T:
                cps = np.unique(np.append(cps, self.step_cap))
        else:
            cps = np.asarray(checkpoints)
            if capped:
                cps = np.unique(np.append(cps[cps < T], T))
        note = ""
        runs_eff = runs
        seed = derived_seed(self.seed, self.ws.name, label)
        key = (alg.name, repr(sorted(params_of(alg).items())), id(env), repr(_describe(env)), T, runs_eff, seed,
               tuple(int(c) for c in cps))
        t0 = time.perf_counter()
        if key in self._cache:  # the same simulation in two figures (e.g. seed 001 Fig. 1 and Figs. 4-7)
            res, dt, _ = self._cache[key]
        else:
            res = montecarlo.run(alg, env, T, runs_eff, seed=seed, checkpoints=cps, executor=self.executor)
            dt = time.perf_counter() - t0
            self._cache[key] = (res, dt, env)  # env kept alive: its id is part of the key
        if capped:
            est = dt * T_paper / T
            note = (f"{alg.name} simulated to T = {T:g}, not {T_paper:g} (it loops over every step; full mode caps "
                    f"such algorithms at T = {self.step_cap:g}): the paper's horizon would take about {_duration(est)} "
                    f"per simulation on this machine with today's per-step engine ({option('step_cap', '0')} lifts the cap; the "
                    "fast per-step paths of issue 9 §4 remove the need for it)")
            self.note(note)
        lo, hi = res.ci(level=0.95, method="t")
        sim = Simulation(experiment=self.current.id if self.current else "", label=label, algorithm=alg.name,
                         params={k: v for k, v in params_of(alg).items() if _jsonable(v)},
                         env=_env_text(env), T=T, runs=runs_eff, T_requested=T_paper, seed=seed,
                         checkpoints=int(len(res.checkpoints)), final_mean=float(res.mean()[-1]),
                         final_ci=[float(lo[-1]), float(hi[-1])], seconds=dt, note=note)
        if self.current is not None:
            self.current.simulations.append(sim)
        self._done += 1
        if self.on_progress:
            self.on_progress(self._done, max(self._total, self._done), self.current.title if self.current else "")
        return res

    # -- recording -------------------------------------------------------------------------------------------
    def figure(self, fig, name: str) -> str:
        """Save a matplotlib figure as ``name`` (e.g. "fig1.png") in the output directory; returns the path."""
        from ..figures import save  # deferred: read at call time (tests replace figures.save)

        self.current.figure_axes[name] = figure_axes(fig)
        path = save(fig, os.path.join(self.out, name), option=OPTIONS["out"])
        self.current.figures.append(name)
        return path

    def table(self, title: str, columns: list[str], rows: list[list], note: str = "") -> Table:
        t = Table(title, list(columns), [[_cell(x) for x in r] for r in rows], note)
        self.current.tables.append(t)
        return t

    def note(self, text: str) -> None:
        if text not in self.current.notes:
            self.current.notes.append(text)

    def figure_claim(self, claim: str, source: str, verdict: str, evidence: str) -> None:
        if self.mode == "fast":
            evidence += f" — fast mode: reduced T and runs, so a verdict here speaks of this scale only ({OPTIONS['full']})"
        self.current.figure_claims.append(FigureClaim(self.current.id, claim, source, verdict, evidence))

    def curve_bounds(self, algorithm: str, drawn=(), judged=(), reason: str = "") -> None:
        """Record the bounds of one simulated algorithm's curve in the current experiment: the ids drawn with it and
        the ids judged against it (``compare``), or the reason there are none (e.g. "outside the assumptions: …",
        "the figure plots no regret"). One entry per (algorithm, reason); ids accumulate over the panels."""
        drawn, judged = [str(x) for x in drawn], [str(x) for x in judged]
        for cb in self.current.curve_bounds:
            if cb.algorithm == algorithm and cb.reason == reason:
                cb.drawn += [x for x in drawn if x not in cb.drawn]
                cb.judged += [x for x in judged if x not in cb.judged]
                return
        self.current.curve_bounds.append(CurveBounds(self.current.id, algorithm, drawn, judged, reason))

    def add_comparisons(self, comps: list[Comparison]) -> None:
        self.current.comparisons.extend(comps)

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.started


def figure_axes(fig) -> dict:
    """A figure's axes as drawn, read back from matplotlib: per visible axes its title, x and y scales and limits;
    the legend entries (the shared legend and each axes' own) and the texts placed on the axes (e.g. the curves
    that leave them)."""
    axes, legend = [], []
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        axes.append({"title": ax.get_title(), "x": ax.get_xscale(), "y": ax.get_yscale(),
                     "xlim": [float(v) for v in ax.get_xlim()], "ylim": [float(v) for v in ax.get_ylim()],
                     "texts": [t.get_text() for t in ax.texts]})
        if ax.get_legend() is not None:
            legend += [t.get_text() for t in ax.get_legend().get_texts()]
    for lg in fig.legends:
        legend += [t.get_text() for t in lg.get_texts()]
    return {"axes": axes, "legend": legend}


def default_out(ws: Worksheet, mode: str) -> str:
    return os.path.join("worksheet-output", f"{ws.name}_{ws.slug}-{mode}")


def _describe(env):
    return env.describe() if hasattr(env, "describe") else str(env)


def _jsonable(v) -> bool:
    return v is None or isinstance(v, (bool, int, float, str))


def _env_text(env) -> str:
    name = getattr(env, "name", "") or type(env).__name__
    means = getattr(env, "means", None)
    if means is not None and getattr(env, "K", 0) and int(env.K) <= 20:
        try:
            return f"{name} (means {', '.join(f'{float(m):g}' for m in means)})"
        except TypeError:
            pass
    return str(name)


def num(x, digits: int = 4) -> str:
    """A number for a table cell: 4 significant digits, integers below 1e7 in full (``textformat.number``)."""
    return textformat.number(x, digits, whole=True)


def _cell(x) -> str:
    return num(x)


_duration = textformat.duration
