"""The Schedule record shared by every schedule function, and the truncation at the horizon T.

A schedule lists episodes (or batches, phases, epochs) of a phased algorithm: 1-based ``index``,
``length`` (rounds), ``t_end`` (cumulative rounds at the end of the episode; the last episode is
truncated so that ``t_end[-1] == T`` and ``length.sum() == T``) and ``noise_scale`` (the scale of the
privacy noise released at the end of the episode; ``noise`` says which quantity and which law).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..errors import InputError

MAX_ROWS = 10_000_000


@dataclass
class Schedule:
    algo: str
    T: int
    index: np.ndarray
    length: np.ndarray
    t_end: np.ndarray
    noise_scale: np.ndarray
    paper_count: float  # the paper's O(log T) count (or bound) for comparison
    paper_count_label: str
    noise: str  # what noise_scale is (law, statistic)
    source: str
    per_arm: bool = False  # True: the schedule of ONE arm (which arm is played is instance-dependent)
    notes: list[str] = field(default_factory=list)

    @property
    def count(self) -> int:
        """Number of episodes started up to T."""
        return int(self.index.size)

    def rows(self) -> list[dict]:
        return [
            {"index": int(i), "length": int(n), "t_end": int(t), "noise_scale": float(s)}
            for i, n, t, s in zip(self.index, self.length, self.t_end, self.noise_scale)
        ]


def truncate(lengths, noise, T: int):
    """Cut a sequence of episode lengths at horizon T: keep the episodes started before T, shorten the last.

    ``lengths`` must be positive integers (int64 or float holding integers) whose sum reaches T.
    Returns (index, length, t_end, noise) with sum(length) == T. Cumulative sums use Python integers
    when they could exceed 2^53 (horizons up to 1e18).
    """
    lf = np.minimum(np.asarray(lengths, dtype=float), float(T))  # an episode never runs past T
    noise = np.asarray(noise, dtype=float)
    if np.any(~(lf >= 1)):
        raise ValueError("episode lengths must be >= 1")
    kf = int(np.searchsorted(np.cumsum(lf), T, side="left"))  # approximate cut (float sums)
    lengths = lf[: kf + 2].astype(np.int64)  # ≤ 3T in total: exact int64 cumulative sums below
    cum = np.cumsum(lengths)
    k = int(np.searchsorted(cum, T, side="left"))  # first episode whose end reaches T
    if k >= lengths.size:
        raise ValueError("schedule does not reach T")
    length = lengths[: k + 1].copy()
    t_end = cum[: k + 1].copy()
    length[-1] = T - (int(t_end[-2]) if k > 0 else 0)
    t_end[-1] = T
    return np.arange(1, k + 2, dtype=np.int64), length, t_end, noise[: k + 1].copy()


def check_rows(n: float, what: str) -> None:
    if not math.isfinite(n) or n > MAX_ROWS:
        raise InputError(what, f"a value giving at most {MAX_ROWS:g} episodes up to T", None)
