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
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import InputError


class ChangedRewardEnv:
    """``env`` with the reward of round ``step`` (0-based; None: no change) raised by ``shift`` in every run.

    Everything else (``d``, ``K``, ``theta``, ``lambda0``, the noise, ``describe`` ...) is ``env``'s. Single-use:
    one block of runs per instance (the step counter and the record start at 0)."""

    def __init__(self, env, step: int | None = None, shift: float = 0.5):
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
        self.env, self.step, self.shift = env, step, shift
        self._t = 0
        self._means: list[np.ndarray] = []

    def __getattr__(self, name):  # the wrapped environment's attributes (only called for names not set here)
        if name == "env":
            raise AttributeError(name)
        return getattr(self.env, name)

    @property
    def name(self) -> str:
        base = getattr(self.env, "name", "env")
        return base if self.step is None else f"{base} [reward of round {self.step} + {self.shift:g}]"

    def contexts(self, rng, size):
        return self.env.contexts(rng, size)

    def rewards(self, means, rng) -> np.ndarray:
        r = self.env.rewards(means, rng)
        self._means.append(np.array(means, dtype=float, copy=True).reshape(-1))
        if self._t == self.step:
            r = r + self.shift
        self._t += 1
        return r

    @property
    def steps_served(self) -> int:
        return self._t

    def chosen_means(self) -> np.ndarray:
        """(runs, steps served): the mean <x, theta*> of the arm each run played at each step."""
        if not self._means:
            return np.zeros((0, 0))
        return np.stack(self._means, axis=1)

    def describe(self) -> dict:
        d = dict(self.env.describe()) if hasattr(self.env, "describe") else {}
        d.update(changed_round=self.step, reward_shift=self.shift if self.step is not None else 0.0)
        return d
