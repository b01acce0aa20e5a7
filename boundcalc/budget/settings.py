"""The settings of the measured budget search as one value (issue 23 §1): ``budget --by simulation``'s quantile,
first batch and most runs at one budget, the non-private counterpart and the pairing of the runs, with the
simulation's own settings (:class:`boundcalc.montecarlo.settings.Simulation`: runs, seed, block runs, executor).

A front end builds it once from its options (the CLI: ``cli/problem.search_of``) and hands it to
``budget.measured.solve_measured``. Validated in the constructor; errors name the parameters (``errors.ParamName``),
the CLI names the flags (cli/flags.py FLAGS).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from .. import validate
from ..errors import InputError, ParamName
from ..montecarlo.settings import Simulation
from .measured import DEFAULT_MAX_RUNS, DEFAULT_RUNS, PAIRINGS

MAX_RUNS = 10**6  # the most runs at one budget (and in the first batch)


@dataclass(frozen=True)
class Search:
    """How a measured search simulates (budget.measured, module docstring).

    ``simulation``: the first batch's runs (``simulation.runs``, at least 2), the seed, the runs per engine block
    (None: ``measured.search``'s rule) and the executor plan; ``quantile``: None (the mean) or q in (0, 1);
    ``max_runs``: the most runs at one budget (at least the first batch: a smaller value is raised to it);
    ``counterpart`` (with ``counterpart_params``): the non-private algorithm compared with, a name ``simulate --algo``
    accepts (None: each algorithm's named counterpart); ``pairing``: ``independent`` or ``common`` (None: the
    setting's default, ``measured.DEFAULT_PAIRING``)."""

    simulation: Simulation = field(default_factory=lambda: Simulation(runs=DEFAULT_RUNS))
    quantile: float | None = None
    max_runs: int = DEFAULT_MAX_RUNS
    counterpart: str | None = None
    counterpart_params: dict | None = None
    pairing: str | None = None

    def __post_init__(self):
        if not isinstance(self.simulation, Simulation):
            raise InputError("simulation", "a montecarlo.settings.Simulation", self.simulation)
        sim = self.simulation
        runs = validate.count(ParamName("runs"), DEFAULT_RUNS if sim.runs is None else sim.runs, minimum=2,
                              maximum=MAX_RUNS)
        if runs != sim.runs:
            object.__setattr__(self, "simulation", dataclasses.replace(sim, runs=runs))
        rmax = validate.count(ParamName("max_runs"), self.max_runs, minimum=2, maximum=MAX_RUNS)
        object.__setattr__(self, "max_runs", max(rmax, runs))
        q = self.quantile
        if q is not None:
            if isinstance(q, bool) or not isinstance(q, (int, float)) or not 0 < float(q) < 1:
                raise InputError(ParamName("quantile"), "a number in (0, 1) (0.9: the 90% quantile of the regret)", q)
            object.__setattr__(self, "quantile", float(q))
        if self.pairing is not None and self.pairing not in PAIRINGS:
            raise InputError(ParamName("pairing"), " or ".join(PAIRINGS), self.pairing)
        if self.counterpart_params and self.counterpart is None:
            raise InputError(ParamName("counterpart_param"), "used with a counterpart (a name simulate's algorithms "
                             "accept)", next(iter(self.counterpart_params)))

    @property
    def runs(self) -> int:
        """The first batch's runs (``simulation.runs``)."""
        return self.simulation.runs

    @property
    def seed(self) -> int:
        return self.simulation.seed

    @property
    def block_runs(self) -> int | None:
        return self.simulation.block_runs

    KEYWORDS = ("quantile", "runs", "max_runs", "seed", "block_runs", "counterpart", "counterpart_params", "pairing")

    @classmethod
    def of(cls, runs=DEFAULT_RUNS, seed=0, block_runs=None, **search) -> Search:
        """The value of the keywords ``budget.solve(..., by="simulation")`` takes (``KEYWORDS``)."""
        return cls(Simulation(runs=runs, seed=seed, block_runs=block_runs), **search)
