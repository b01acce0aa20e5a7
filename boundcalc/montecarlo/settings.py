"""The simulation settings as one value (issue 23 §1): how many runs, from which seed, in blocks of how many runs, and
where the blocks run (:class:`ExecutorPlan`; the CLI makes the executor, cli/executor_options.make_executor). A front end builds it once from its options (the CLI:
``cli/problem.simulation_of``) and hands it to the library (``Simulation.run_many``, ``budget.settings.Search``).

Validated in the constructors; errors name the parameters (``errors.ParamName``: "runs must be ..."), the CLI names
the flags (cli/flags.py FLAGS).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from .. import validate
from ..errors import InputError, ParamName
from .engine import DEFAULT_BLOCK_RUNS, run_many

MAX_SEED = 2**63 - 1
MAX_RUNS = 10**9


@dataclass(frozen=True)
class ExecutorPlan:
    """Which executor runs the blocks: ``kind`` (one of montecarlo.executors.KINDS), ``workers`` (the worker processes started
    locally: 1 in-process; None for a Dask cluster, whose workers are the scheduler's) and ``scheduler`` (the address
    of a Dask scheduler, for kind ``dask`` only)."""

    kind: str = "in-process"  # montecarlo.executors.KINDS
    workers: int | None = 1
    scheduler: str | None = None

    def __post_init__(self):
        from . import executors  # deferred: start-up of `worksheet list` (as engine.run_many)

        if self.kind not in executors.KINDS:
            raise InputError(ParamName("executor"), "one of " + ", ".join(executors.KINDS), self.kind)
        if self.kind != "dask":  # a Dask cluster's workers are the scheduler's (counted when it is reached)
            if self.workers is None:
                raise InputError(ParamName("workers"), f"a count of worker processes for the {self.kind} executor",
                                 None)
            object.__setattr__(self, "workers", validate.count(ParamName("workers"), self.workers))
        if self.kind == "dask" and not self.scheduler:
            raise InputError(ParamName("scheduler"), "the address of a Dask scheduler for the dask executor", None)
        if self.kind != "dask" and self.scheduler is not None:
            raise InputError(ParamName("scheduler"), "given with the dask executor only", self.scheduler)

    def as_dict(self) -> dict:
        """{"kind", "workers", "scheduler"}: the JSON ``executor`` of simulate, budget --by simulation, worksheet."""
        return {"kind": self.kind, "workers": self.workers, "scheduler": self.scheduler}


@dataclass(frozen=True)
class Simulation:
    """The settings of a Monte Carlo simulation: ``runs`` (None: the caller's own counts, as a worksheet's
    experiments set theirs), ``seed`` (the root of every block's SeedSequence), ``block_runs`` (runs per engine block;
    None: the engine's default, or the caller's rule) and ``executor`` (an :class:`ExecutorPlan`). Counts accept
    '1e6'; the value holds ints."""

    runs: int | None = None
    seed: int = 0
    block_runs: int | None = None
    executor: ExecutorPlan = field(default_factory=ExecutorPlan)

    def __post_init__(self):
        if self.runs is not None:
            object.__setattr__(self, "runs", validate.count(ParamName("runs"), self.runs, maximum=MAX_RUNS))
        object.__setattr__(self, "seed", validate.count(ParamName("seed"), self.seed, minimum=0, maximum=MAX_SEED))
        if self.block_runs is not None:
            object.__setattr__(self, "block_runs", validate.count(ParamName("block_runs"), self.block_runs,
                                                                  maximum=MAX_RUNS))
        if not isinstance(self.executor, ExecutorPlan):
            raise InputError(ParamName("executor"), "an ExecutorPlan", self.executor)

    def replace(self, **changes) -> Simulation:
        return dataclasses.replace(self, **changes)

    def run_many(self, jobs, T, checkpoints=None, executor=None, progress: bool = False):
        """``montecarlo.run_many(jobs, T, runs, seed, checkpoints, block_runs, executor)`` with these settings
        (``executor``: a live executor, made from ``self.executor`` by the caller; None: in-process)."""
        if self.runs is None:
            raise InputError(ParamName("runs"), "a number of runs for this simulation", None)
        return run_many(jobs, T, self.runs, seed=self.seed, checkpoints=checkpoints,
                        block_runs=DEFAULT_BLOCK_RUNS if self.block_runs is None else self.block_runs,
                        executor=executor, progress=progress)
