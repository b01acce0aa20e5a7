"""A reward tape with one reward changed: the neighbouring input of seed 004's arm-selection sensitivity study.

Seed 004 (Sec. 2, Def. 1) calls two reward sequences neighbours when they differ in one reward; its Sec. 4
("Sensitivity in arm selection", Fig. 2(b)) replays a run with the reward observed at one iteration raised by 0.5,
"the sequence of context and arms" and "the feedback noise ... fixed for all arms ahead of time", and counts the
arms selected differently. :class:`ChangedRewardEnv` wraps a contextual environment (``contexts(rng, size)`` and
one ``rewards(means, rng)`` call per step for every run, as the contextual algorithms draw them) and adds
``shift`` to the reward returned at round ``step`` (0-based: round 0 is the first step), for every run. Every draw
is the wrapped environment's own, from the Generator the algorithm passes, so the same seed gives the same
decision sets and the same reward noise on both tapes; only the one reward differs. It records the mean
<x, theta*> of the arm each run asked a reward for at every step (``chosen_means``), from which two runs' arm
choices are compared (``boundcalc.montecarlo.neighbours``).

Seed 004 Fig. 2(c) replays LastFM (0/1 payoffs, no noise) with "the reward on the selected item" flipped at one
iteration: ``change="flip"`` returns 1 − r at round ``step`` instead of r + shift. On LastFM 24 of the 25 arms of a
pool share mean 0, so the means cannot tell arms apart: an algorithm that calls the tape's ``record_arms(a)`` before
asking the reward (the LinUCB family, boundcalc.algorithms.contextual.linucb) leaves the chosen arm's index per run
and step in ``chosen_arms``.
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import InputError


class ChangedRewardEnv:
    """``env`` with the reward of round ``step`` (0-based; None: no change) raised by ``shift`` in every run
    (``change="shift"``, seed 004 Fig. 2(b)), or replaced by 1 − r (``change="flip"``, seed 004 Fig. 2(c); ``shift``
    unused).

    Everything else (``d``, ``K``, ``theta``, ``lambda0``, the noise, ``describe`` ...) is ``env``'s. Single-use:
    one block of runs per instance (the step counter and the record start at 0)."""

    CHANGES = ("shift", "flip")

    def __init__(self, env, step: int | None = None, shift: float = 0.5, change: str = "shift"):
        if not (hasattr(env, "contexts") and hasattr(env, "rewards") and hasattr(env, "theta")):
            raise InputError("env", "a contextual environment (decision sets and one reward per step)",
                             getattr(env, "name", type(env).__name__))
        if step is not None:
            if isinstance(step, bool) or not float(step).is_integer() or step < 0:
                raise InputError("step", "a round index >= 0 (0 is the first round)", step)
            step = int(step)
        shift = float(shift)
        if not math.isfinite(shift):
            raise InputError("shift", "a finite number", shift)
        if change not in self.CHANGES:
            raise InputError("change", "one of " + ", ".join(self.CHANGES), change)
        self.env, self.step, self.shift, self.change = env, step, shift, change
        self._t = 0
        self._means: list[np.ndarray] = []
        self._arms: list[np.ndarray] = []

    def __getattr__(self, name):  # the wrapped environment's attributes (only called for names not set here)
        if name == "env":
            raise AttributeError(name)
        return getattr(self.env, name)

    @property
    def name(self) -> str:
        base = getattr(self.env, "name", "env")
        if self.step is None:
            return base
        return base + (f" [reward of round {self.step} flipped]" if self.change == "flip"
                       else f" [reward of round {self.step} + {self.shift:g}]")

    def contexts(self, rng, size):
        return self.env.contexts(rng, size)

    def rewards(self, means, rng) -> np.ndarray:
        r = self.env.rewards(means, rng)
        self._means.append(np.array(means, dtype=float, copy=True).reshape(-1))
        if self._t == self.step:
            r = 1.0 - r if self.change == "flip" else r + self.shift
        self._t += 1
        return r

    def record_arms(self, arms) -> None:
        """The algorithm's hook, called once per step before ``rewards``: the chosen arm's index in every run."""
        self._arms.append(np.array(arms, dtype=np.int64, copy=True).reshape(-1))

    @property
    def steps_served(self) -> int:
        return self._t

    def chosen_means(self) -> np.ndarray:
        """(runs, steps served): the mean <x, theta*> of the arm each run played at each step."""
        if not self._means:
            return np.zeros((0, 0))
        return np.stack(self._means, axis=1)

    def chosen_arms(self) -> np.ndarray | None:
        """(runs, steps served): the index of the arm each run played at each step, or None when the algorithm did
        not report its choices (no ``record_arms`` calls, or not one per step)."""
        if not self._arms or len(self._arms) != self._t:
            return None
        return np.stack(self._arms, axis=1)

    def describe(self) -> dict:
        d = dict(self.env.describe()) if hasattr(self.env, "describe") else {}
        d.update(changed_round=self.step, reward_shift=self.shift if self.step is not None else 0.0)
        if self.change == "flip":
            d.update(reward_change="flip", reward_shift=0.0)
        return d
