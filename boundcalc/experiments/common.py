"""Small pieces shared by the paper modules: curves from Results, t-grids, figure-claim judgements."""

from __future__ import annotations

import numpy as np

from ..figures import curve_from_results
from ..montecarlo import log_checkpoints


def curve(res, label: str):
    """A figures.Curve (mean and 95% Student-t interval at every checkpoint) from montecarlo Results."""
    return curve_from_results(res, label)


def final(res) -> tuple[float, float, float]:
    """(mean, lo, hi) of the regret at T (95% Student-t interval)."""
    lo, hi = res.ci(level=0.95, method="t")
    return float(res.mean()[-1]), float(lo[-1]), float(hi[-1])


def at(res, t: float) -> tuple[float, float, float]:
    """(mean, lo, hi) at the checkpoint t (which must be one)."""
    i = int(np.searchsorted(res.checkpoints, int(t)))
    if i >= len(res.checkpoints) or int(res.checkpoints[i]) != int(t):
        raise ValueError(f"{t} is not a checkpoint")
    lo, hi = res.ci(level=0.95, method="t")
    return float(res.mean()[i]), float(lo[i]), float(hi[i])


def checkpoints_with(T: int, extra=(), n: int = 50) -> np.ndarray:
    """Log-spaced checkpoints up to T (at least n) that also contain the horizons ``extra`` (≤ T)."""
    c = log_checkpoints(int(T), n=n, start=min(10, int(T)))
    return np.unique(np.concatenate([c, np.asarray([int(x) for x in extra if 1 <= int(x) <= int(T)], dtype=np.int64)]))


def lowest(entries: dict[str, tuple[float, float, float]], ours: tuple[str, ...]) -> tuple[str, str]:
    """Is one of ``ours`` the lowest of ``entries`` {name: (mean, lo, hi)}? Returns (word, evidence): 'lowest
    (significant)' when its interval lies below every other interval, 'lowest (not significant)', or 'not lowest
    (significant)' / 'not lowest (not significant)'."""
    best_ours = min(ours, key=lambda k: entries[k][0])
    others = {k: v for k, v in entries.items() if k not in ours}
    best_other = min(others, key=lambda k: others[k][0])
    m, lo, hi = entries[best_ours]
    mo, loo, hio = others[best_other]
    if m <= mo:
        word = "lowest (significant)" if hi < loo else "lowest (not significant)"
    else:
        word = "not lowest (significant)" if hio < lo else "not lowest (not significant)"
    return word, f"{best_ours} {m:.4g} vs {best_other} {mo:.4g}"
