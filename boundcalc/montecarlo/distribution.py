"""The distribution of the regret over runs, beside its mean: quantiles and the runs that still grow linearly.

Engineers care about the bad runs (DP-IMED at ε = 0.5 on a 10-armed instance: mean 912, median 345 over 1000
runs — the mean is carried by rare runs that stop pulling the best arm). ``regret_distribution`` summarises the
per-run final regrets that ``montecarlo.Results`` keeps (``Results.regret[:, -1]``):

- ``mean`` with its 95% Student-t interval (the same as ``Results.ci(method="t")`` at T);
- ``median``, ``p90``, ``p99``: empirical quantiles (numpy's default linear interpolation, Hyndman–Fan type 7);
- ``linear_fraction``: the fraction of runs whose regret *still grows linearly at T*, defined as: the regret
  increment over the last stretch of the horizon, per step, is at least half the smallest positive gap,

      (R(T) − R(t₀)) / (T − t₀) ≥ Δ_min / 2,   t₀ = the last checkpoint ≤ 0.9 T (so the stretch covers at least
      the last 10% of T; with log-spaced checkpoints it may cover more),

  i.e. the run spends at least half of that stretch on arms with gap ≥ Δ_min in the pseudo-regret sense — a run
  that has locked onto a suboptimal arm, or that is still exploring at T. A consistent algorithm's regret grows
  logarithmically, so that fraction → 0 with T; it is None (with the reason) when the instance has no fixed
  positive gap (contextual and GLM settings: the gap depends on the context) or the checkpoints do not reach
  back past 0.9 T.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy.special import stdtrit  # the Student-t quantile (scipy.stats.t.ppf's own kernel; not scipy.stats,

LINEAR_TAIL = 0.1  # the last 10% of T
LINEAR_SLOPE = 0.5  # at least half the smallest gap per step


def min_positive_gap(env) -> float | None:
    """The smallest positive gap Δ_min of an environment with fixed arm means (finite, linear), else None."""
    gaps = getattr(env, "gaps", None)
    if gaps is None:
        return None
    try:
        g = np.asarray(gaps, dtype=float).ravel()
    except (TypeError, ValueError):
        return None
    g = g[g > 1e-12]
    return float(g.min()) if g.size else None


def linear_growth(regret: np.ndarray, checkpoints: np.ndarray, min_gap: float | None) -> tuple[np.ndarray | None, str]:
    """Per run: does the regret still grow linearly at T (see the module docstring)? ``(mask or None, how)``."""
    cps = np.asarray(checkpoints, dtype=float)
    if min_gap is None or not min_gap > 0:
        return None, "undefined: the instance has no fixed positive gap"
    T = cps[-1]
    before = np.nonzero(cps <= (1 - LINEAR_TAIL) * T)[0]
    if before.size == 0:
        return None, "undefined: no checkpoint at or before 0.9 T"
    i0 = int(before[-1])
    t0 = cps[i0]
    reg = np.asarray(regret, dtype=float)
    slope = (reg[:, -1] - reg[:, i0]) / (T - t0)
    how = (f"regret increment per step over [{int(t0)}, {int(T)}] (at least the last {int(100 * LINEAR_TAIL)}% of T) "
           f"≥ Δ_min/2 = {LINEAR_SLOPE * min_gap:.4g}")
    return slope >= LINEAR_SLOPE * min_gap, how


def quantile(x: np.ndarray, q: float) -> float:
    return float(np.quantile(np.asarray(x, dtype=float), q))


def regret_distribution(regret: np.ndarray, checkpoints: np.ndarray, min_gap: float | None = None) -> dict[str, Any]:
    """Mean ± 95% interval, median, p90, p99 of the final regret, and the fraction of runs still growing linearly.

    ``regret``: (runs, checkpoints) as in ``Results.regret``; ``min_gap``: the instance's smallest positive gap
    (``min_positive_gap(env)``)."""
    # which costs ~0.4 s of import at start-up, issue 23)

    reg = np.atleast_2d(np.asarray(regret, dtype=float))
    x = reg[:, -1]
    R = x.size
    m = float(x.mean())
    half = float(stdtrit(R - 1, 0.975)) * float(x.std(ddof=1)) / math.sqrt(R) if R > 1 else math.inf
    mask, how = linear_growth(reg, checkpoints, min_gap)
    return {"runs": int(R), "mean": m, "ci": [m - half, m + half], "median": quantile(x, 0.5),
            "p90": quantile(x, 0.9), "p99": quantile(x, 0.99), "max": float(x.max()),
            "linear_fraction": None if mask is None else float(mask.mean()), "linear_definition": how}


def of_results(res, env=None) -> dict[str, Any]:
    """``regret_distribution`` of a ``montecarlo.Results`` (Δ_min from ``env``, or from the recorded gaps)."""
    gap = min_positive_gap(env) if env is not None else None
    if gap is None and isinstance(getattr(res, "env", None), dict) and res.env.get("gaps") is not None:
        g = np.asarray(res.env["gaps"], dtype=float)
        g = g[g > 1e-12]
        gap = float(g.min()) if g.size else None
    return regret_distribution(res.regret, res.checkpoints, gap)
