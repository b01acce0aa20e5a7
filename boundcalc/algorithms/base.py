"""The algorithm interface: one class per algorithm, the same methods for all (like numpy's Generator API).

``simulate(env, T, runs, rng, checkpoints)`` runs a *block* of independent runs at once, vectorised across
runs, episode by episode where the algorithm's decisions are fixed inside an episode (drawing exact
sufficient statistics). ``reference(env, T, rng, checkpoints)`` is the plain step-by-step version of one
run, kept for distributional-agreement tests. Both draw only from the Generator they are given; the
Monte Carlo engine (boundcalc.montecarlo) hands each block of runs its own Generator from
SeedSequence.spawn, so results do not depend on chunking or process count.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass
class BlockResult:
    """Outcome of ``runs`` runs: pseudo-regret at checkpoints and per-arm (or per-action) pull counts."""

    regret: np.ndarray  # shape (runs, len(checkpoints)): pseudo-regret sum_a Delta_a N_a(t) at each checkpoint
    pulls: np.ndarray  # shape (runs, n_arms_or_actions) at T (for contextual settings: may be empty)
    episodes: np.ndarray  # shape (runs,): number of episodes/phases/batches used up to T
    extra: dict[str, Any] = field(default_factory=dict)


class Algorithm(ABC):
    """Base class. Subclasses set metadata and implement ``simulate`` and ``reference``."""

    name: str = ""  # e.g. "AdaC-GOPE"
    source: str = ""  # e.g. "seed 003 Algorithm 2"
    setting: str = ""  # finite | linear | contextual | glm
    notion: str = "none"  # privacy notion of its guarantee: none | pure | zcdp | rdp | approx | ldp
    bound_ids: tuple[str, ...] = ()  # registry ids of its upper bounds

    # -- the rest of the algorithm's card: every consumer reads these (docs/plugins.md, "The algorithm card") -----
    # granularity: the simulation path, "episode" | "chunk" | "stretch" | "thinning" | "step"; it also selects the
    #   size limits (algorithms.limits for stretch/thinning, the T x runs limits of the per-step and chunked loops).
    #   Without it: "step" (the strictest limits). ``uses_stretch`` / ``uses_thinning`` give the switch to the loop.
    granularity: str | None = None
    # stretch_min_T: with granularity "stretch", the shortest horizon at which ``simulate`` takes the leader-stretch
    #   engine for a block of nonprivate.SWITCH_RUNS runs (below it, the per-step loop, faster there;
    #   algorithms/finite/nonprivate.py); 0: from the first step.
    stretch_min_T: float = 0
    # counterpart: the non-private algorithm ``budget --by simulation`` compares with, (name, how in words) or
    #   (name, {params}, how); None: the algorithm itself at its non-private limit (budget.measured.counterpart_of).
    counterpart: tuple | None = None
    # audit_scenario: a design of boundcalc.audit.scenarios.DESIGNS by name ("first-decision",
    #   "phase-one-elimination", "first-switch") or a boundcalc.audit.base.Scenario subclass, with audit_budget
    #   (default budget), audit_fixed (constructor parameters the design fixes), audit_why_fixed (why, in words),
    #   audit_trials (default trials); a design written for one algorithm ("dp-se-elimination", ...) takes none of
    #   them. None: not auditable. audit_rank: its place in `audit --list` (ranked cards first, by rank; then the
    #   others in registry order); None: after the ranked ones.
    audit_scenario: Any = None
    audit_rank: int | None = None
    # regret --check: ``from_context(cls, ctx, budget)`` (classmethod) builds the instance a bound's context
    #   describes (the parameter map from the bound's symbols to the constructor) and ``check_assumptions`` names
    #   the theorem's assumption check on the simulated environment (a key of verify.adapters.ASSUMPTION_CHECKS, or
    #   a method (self, ctx, env) -> (met, note)); the bounds checked are those whose ``algorithm`` is this name.
    #   bound_options: bounds whose theorem runs the algorithm with a constructor option its other bounds do not
    #   assume, {bound id: (option, assumption check)}: built by ``from_context(ctx, budget, option=ctx[option])``,
    #   judged by that check; an instance with the option set is described by that bound's context (unless
    #   ``bound_option_conflict`` says why not). LinUCB-DGS: {"004-cor1": ("perturb_sigma", "dgs-cor1")}.
    bound_options: dict[str, tuple[str, str]] = {}
    # episode_schedule: the schedule `boundcalc episodes` prints for a phased algorithm, a classmethod
    #   (T, *, params) -> boundcalc.schedules.Schedule whose keyword parameters are the ones it reads, named as in
    #   algorithms.episodes.PARAMS (epsilon, rho, alpha, rdp_epsilon, d, K, delta, beta, n1, ratio, lam, C, lam0);
    #   the budget the command requires follows the notion. None: no schedule (not in `episodes`).
    episode_schedule = None

    @abstractmethod
    def simulate(self, env, T: int, runs: int, rng: np.random.Generator, checkpoints: np.ndarray) -> BlockResult:
        """Vectorised simulation of ``runs`` independent runs up to horizon T."""

    @abstractmethod
    def reference(self, env, T: int, rng: np.random.Generator, checkpoints: np.ndarray) -> BlockResult:
        """Plain step-by-step single run (runs = 1), for tests of distributional agreement."""

    def bound_option_conflict(self, option: str) -> str:
        """Why this instance, with its card's bound option ``option`` set, is not the algorithm of that bound's
        theorem ("" when it is; verify.adapters.context_for)."""
        return ""

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "source": self.source, "setting": self.setting, "notion": self.notion}


def interpolate_regret(t_ends: np.ndarray, regret_ends: np.ndarray, checkpoints: np.ndarray) -> np.ndarray:
    """Exact regret at checkpoints from per-episode ends when regret grows linearly inside an episode.

    ``t_ends`` (runs, E) nondecreasing episode end times (starting after t=0), ``regret_ends`` (runs, E) the
    cumulative pseudo-regret at those times. Inside an episode one arm is played, so regret is linear.
    """
    runs = t_ends.shape[0]
    out = np.empty((runs, len(checkpoints)))
    for r in range(runs):
        out[r] = np.interp(checkpoints, np.concatenate(([0.0], t_ends[r])), np.concatenate(([0.0], regret_ends[r])))
    return out
