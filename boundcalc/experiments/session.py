"""One driver for the three ways of running a worksheet: as a notebook (Jupyter / VS Code, percent format), as a
plain script (``python worksheets/001_eps_global_dp.py --fast --out DIR``) and as ``boundcalc worksheet run``.

``start(name)`` reads ``--fast`` / ``--full`` / ``--out`` / ``--seed`` / ``--step-cap`` from the command line
(unknown arguments, such as a Jupyter kernel's, are ignored) and returns a :class:`Session`; ``session.run(id)``
runs one experiment and shows its tables and figures (inline in a notebook, as file paths in a terminal),
``session.claims()`` runs the paper's claims through boundcalc.verify.claims, ``session.finish()`` writes
``report.md`` and ``results.json``. ``Session.run_all()`` does all of it (the CLI's path).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from rich.console import Console
from rich.markdown import Markdown
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ..errors import InputError
from ..figures import scale_options
from ..montecarlo import executors
from ..verify import claims as registry
from . import get
from .base import Runner, Table, Worksheet
from .options import COMMANDS, OPTIONS, option
from .report import write


def in_notebook() -> bool:
    """True inside a Jupyter/IPython kernel (figures are then displayed inline)."""
    ip = sys.modules.get("IPython")
    if ip is None:
        return False
    try:
        shell = ip.get_ipython()
    except Exception:  # noqa: BLE001
        return False
    return shell is not None and type(shell).__name__ != "TerminalInteractiveShell"


class Session:
    """A worksheet run: the Runner plus what is shown as it goes (``echo``) and a progress bar (``progress``)."""

    def __init__(self, worksheet: Worksheet | str, mode: str = "fast", out: str | None = None, seed: int = 0,
                 step_cap: int | None = None, echo: bool = True, progress: bool = False, console=None,
                 data: dict[str, str] | None = None, only=None, claims: bool = True,
                 scales: tuple[str | None, str | None] = (None, None), executor: dict | None = None):
        """``only``: the experiment ids to run (``--only``; None: all), ``claims``: False skips the verifier's claims
        (``--no-claims``; the report says so), ``scales``: (x, y) overrides of every figure's axis scales
        (boundcalc.figures.scales), ``executor``: where the simulations' blocks run, {"kind", "workers",
        "scheduler"} (boundcalc.montecarlo.executors.make; None: in this process), closed by ``finish``."""
        self.ws = get(worksheet) if isinstance(worksheet, str) else worksheet
        self.only = select(self.ws, only)
        self.with_claims = bool(claims)
        self.echo = echo
        self._bar = None
        self._task = None
        self._console = console
        cb = self._progress if progress else None
        self.executor_plan = dict(executor) if executor else None
        self.runner = Runner(self.ws, mode=mode, out=out, seed=seed, step_cap=step_cap, on_progress=cb,
                             data=data, scales=scales)
        self._executor_started = False  # the executor starts with the first experiment (and stops in finish)
        self.claim_verdicts: list[Any] = []
        self.timings: dict[str, float] = {}
        self._claims_run = False
        if echo:
            self.print(f"[bold]Worksheet {self.ws.name}[/bold]: {self.ws.title} — {mode} mode, output in "
                       f"{self.runner.out}")

    # -- output ----------------------------------------------------------------------------------------------
    @property
    def console(self):
        if self._console is None:
            self._console = Console(highlight=False, width=None if sys.stdout.isatty() else 160)
        return self._console

    def print(self, *objs) -> None:
        if self.echo:
            self.console.print(*objs)

    def show_figure(self, path: str) -> None:
        if not self.echo:
            return
        if in_notebook():
            from IPython.display import Image, display

            display(Image(filename=path))
        else:
            self.print(f"figure: {path}")

    def _progress(self, done: int, total: int, what: str) -> None:
        if self._bar is None:
            self._bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TextColumn("simulations"), TimeElapsedColumn(), console=Console(stderr=True),
                                 transient=True)
            self._bar.start()
        if self._task is None or self._bar.tasks[self._task].description != what:
            self._task = self._bar.add_task(what, total=max(total, 1))
        self._bar.update(self._task, completed=done, total=max(total, done, 1))

    def _stop_bar(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
            self._task = None

    # -- steps -----------------------------------------------------------------------------------------------
    def run(self, exp_id: str):
        """Run one experiment; show its figures and tables. Returns its ExperimentResult (None for an experiment
        that ``only`` leaves out)."""
        if self.only is not None and exp_id not in self.only:
            self.ws.experiment(exp_id)  # a wrong id is still an error
            self.print(f"[dim]{exp_id}: not run ({option('only', ','.join(self.only))})[/dim]")
            return None
        self._start_executor()
        try:
            res = self.runner.run_experiment(exp_id)
        finally:
            self._stop_bar()
        self.timings[res.id] = res.seconds
        self.print(f"\n[bold]{res.title}[/bold] ({res.reproduces}) — {res.seconds:.1f} s")
        if self.echo:
            self.print(Markdown(" ".join(res.description.split())))
        for f in res.figures:
            self.show_figure(f"{self.runner.out}/{f}")
        for t in res.tables:
            self.print(t.rich())
        for c in res.figure_claims:
            self.print(f"claim ({c.source}): {c.claim} → [bold]{c.verdict}[/bold] ({c.evidence})")
        for n in res.notes:
            self.print(f"[dim]note: {n}[/dim]")
        return res

    def claims(self):
        """The paper's claims of boundcalc.verify.claims (the same as ``boundcalc verify --paper NNN``)."""
        t0 = time.perf_counter()
        if not self.with_claims:  # --no-claims: the report says they were skipped
            self.claim_verdicts = []
            self.print(f"claims: skipped ({OPTIONS['no_claims']})")
            return self.claim_verdicts
        if self.ws.name not in registry.PAPERS:  # a worksheet of no paper (e.g. a user's own): nothing to judge
            self.claim_verdicts = []
            return self.claim_verdicts
        self.claim_verdicts = registry.run(registry.select(paper=self.ws.name))
        self.timings["claims"] = time.perf_counter() - t0
        self._claims_run = True
        rows = [[v.claim_id, v.verdict, v.expected, v.measured[:120]] for v in self.claim_verdicts]
        self.print(Table(f"seed {self.ws.name}: claims judged by the verifier "
                         f"({COMMANDS['verify_paper'].format(paper=self.ws.name)})", ["claim", "verdict", "expected", "measured"], rows).rich())
        return self.claim_verdicts

    def finish(self):
        """Write report.md and results.json; returns the Report."""
        self.close()
        self.timings["total"] = self.runner.seconds
        rep = write(self.ws, self.runner, self.claim_verdicts, dict(self.timings),
                    run={"only": self.only, "claims_skipped": not self.with_claims,
                         "executor": self.executor_plan or {"kind": "in-process", "workers": 1, "scheduler": None},
                         "scales": {"x": self.runner.scales[0], "y": self.runner.scales[1]}})
        self.print(f"\nreport: {rep.report_path} ({len(rep.figures)} figures, {rep.timings['total']:.1f} s)")
        return rep

    def _start_executor(self) -> None:
        plan = self.executor_plan
        if self._executor_started or not plan or plan.get("kind", "in-process") == "in-process":
            return

        self._executor_started = True
        self.runner.executor = executors.make(plan["kind"], plan.get("workers"), plan.get("scheduler"))

    def close(self) -> None:
        """Stop the executor's workers (if any); later simulations run in this process."""
        ex, self.runner.executor = self.runner.executor, None
        if ex is not None:
            ex.close()

    def run_all(self):
        """Every experiment (those of ``only``), the claims (unless skipped), the report (what ``boundcalc worksheet
        run`` does)."""
        try:
            for e in self.ws.experiments:
                if self.only is None or e.id in self.only:
                    self.run(e.id)
            self.claims()
        finally:
            self.close()
        return self.finish()


def select(ws: Worksheet, only) -> list[str] | None:
    """The experiment ids of ``only`` (ids, or comma-separated lists of ids, e.g. ["fig5"] or ["fig1,fig8"]) in the
    worksheet's order; None for all. An unknown id: InputError naming --only and the valid ids."""
    if only is None:
        return None
    items = [only] if isinstance(only, str) else list(only)
    wanted = [x.strip() for item in items for x in str(item).split(",") if x.strip()]
    valid = [e.id for e in ws.experiments]
    bad = [x for x in wanted if x not in valid]
    if bad or not wanted:
        raise InputError(OPTIONS["only"], f"experiment ids of worksheet {ws.name}: " + ", ".join(valid)
                         + " (repeatable or comma-separated)", ",".join(bad) if bad else ",".join(map(str, items)))
    return [e for e in valid if e in wanted]


def parse_args(argv: list[str] | None = None) -> dict:
    """--fast (default) | --full, --out DIR, --seed N, --step-cap T, --data NAME=PATH (repeatable), --only ID
    (repeatable or comma-separated), --no-claims, --x-scale / --y-scale linear|log, --log-y; unknown arguments are
    ignored."""
    o = OPTIONS  # the options' names, declared once (experiments/options.py)
    p = argparse.ArgumentParser(add_help=True)
    g = p.add_mutually_exclusive_group()
    g.add_argument(o["fast"], dest="mode", action="store_const", const="fast")
    g.add_argument(o["full"], dest="mode", action="store_const", const="full")
    p.add_argument(o["out"], dest="out", default=None)
    p.add_argument(o["seed"], dest="seed", type=int, default=0)
    p.add_argument(o["step_cap"], dest="step_cap", type=float, default=None)
    p.add_argument(o["data"], dest="data", action="append", default=[])
    p.add_argument(o["only"], dest="only", action="append", default=None)
    p.add_argument(o["no_claims"], dest="claims", action="store_false", default=True)
    p.add_argument(o["x_scale"], dest="x_scale", default=None)
    p.add_argument(o["y_scale"], dest="y_scale", default=None)
    p.add_argument(o["log_y"], dest="log_y", action="store_true", default=False)
    args, _unknown = p.parse_known_args(sys.argv[1:] if argv is None else argv)
    data = dict(item.partition("=")[::2] for item in args.data)

    return {"mode": args.mode or "fast", "out": args.out, "seed": args.seed, "step_cap": args.step_cap,
            "data": data, "only": args.only, "claims": args.claims,
            "scales": scale_options(args.x_scale, args.y_scale, args.log_y)}


def start(name: str, argv: list[str] | None = None) -> Session:
    """A Session for the notebook or script of worksheet ``name``, configured from the command line (inside a
    notebook: fast mode into the default directory unless the arguments say otherwise). Bad input: one line on
    stderr and exit code 2 (as the CLI)."""
    try:
        opts = parse_args([] if (argv is None and in_notebook()) else argv)
        return Session(name, progress=not in_notebook() and sys.stderr.isatty(), **opts)
    except InputError as exc:
        if in_notebook():
            raise
        print(f"boundcalc: error: {exc.text(OPTIONS)}", file=sys.stderr)  # the script's options
        raise SystemExit(2) from None
