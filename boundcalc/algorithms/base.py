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

    @abstractmethod
    def simulate(self, env, T: int, runs: int, rng: np.random.Generator, checkpoints: np.ndarray) -> BlockResult:
        """Vectorised simulation of ``runs`` independent runs up to horizon T."""

    @abstractmethod
    def reference(self, env, T: int, rng: np.random.Generator, checkpoints: np.ndarray) -> BlockResult:
        """Plain step-by-step single run (runs = 1), for tests of distributional agreement."""

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
