"""Evaluators shared by the claims: one interface (``evaluator(domain) -> Result``), a few implementations.

- :class:`Inequality` — a pointwise statement ``margin(params) >= 0`` on a grid over the domain; every
  float violation is re-checked with the claim's mpmath margin at 50 digits before it counts;
- :func:`frequency_below` — a Monte Carlo frequency against the level it must not exceed (a violation
  needs the Clopper–Pearson interval to lie above the level);
- :func:`not_checkable` — the claim cannot be checked numerically, with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from ..box import Domain, exact_number
from .registry import Result

MP_DPS = 50


@dataclass
class Inequality:
    """``margin(**params) >= 0`` wherever the statement holds (vectorised numpy; NaN = undefined there).

    ``margin_mp`` is the same margin on mpmath scalars: a float violation becomes a counterexample only if
    it survives at ``MP_DPS`` digits (margin < -mp_tol). ``on_fail`` is the verdict word a confirmed
    counterexample gives (ERRATA vocabulary: what a failure means for the paper).
    """

    names: tuple[str, ...]
    margin: Callable[..., np.ndarray]
    margin_mp: Callable[..., Any] | None = None
    text: str = ""
    points: int = 4096
    on_fail: str = "statement violated"
    mp_tol: float = 1e-30
    max_recheck: int = 12
    describe: Callable[[dict], dict] | None = None  # extra numbers at a point (for the counterexample)

    def __call__(self, dom: Domain) -> Result:
        return self.evaluate(dom)

    def evaluate(self, dom: Domain, points: int | None = None) -> Result:
        g = dom.grid(self.names, points or self.points)
        with np.errstate(all="ignore"):
            m = np.asarray(self.margin(**g), dtype=float)
        m = np.broadcast_to(m, next(iter(g.values())).shape)
        defined = ~np.isnan(m)
        n = int(defined.sum())
        bad = np.flatnonzero(defined & (m < 0))
        order = bad[np.argsort(m[bad])]
        evidence: dict[str, Any] = {"grid_points": int(m.size), "evaluated": n, "undefined": int(m.size - n),
                                    "float_violations": int(bad.size), "domain": dom.describe()}
        if n:
            k = int(np.nanargmin(m))
            evidence["min_margin"] = float(m[k])
            evidence["at"] = {nm: float(g[nm][k]) for nm in self.names}
        cex, unconfirmed = None, 0
        for idx in order[: self.max_recheck]:
            pt = {nm: float(g[nm][idx]) for nm in self.names}
            if self.margin_mp is None:
                cex = dict(pt, margin=float(m[idx]), recheck="float only (no arbitrary-precision form)")
                break
            mpv = self._margin_mp(pt)
            if mpv is not None and mpv < -self.mp_tol:
                cex = dict(pt, margin=float(m[idx]), margin_50_digits=_mpstr(mpv))
                break
            unconfirmed += 1
        evidence["float_violations_not_confirmed_at_50_digits"] = unconfirmed
        if cex is not None:
            if self.describe is not None:
                cex.update(self.describe({k: cex[k] for k in self.names}))
            return Result(verdict=self.on_fail, points=n, counterexample=cex, evidence=evidence,
                          measured=f"counterexample at " + ", ".join(f"{k}={cex[k]:.6g}" for k in self.names)
                          + f" (margin {cex['margin']:.3g}" + (f", {MP_DPS} digits: {cex['margin_50_digits']})"
                                                             if "margin_50_digits" in cex else ")"),
                          finding="counterexample at " + ", ".join(f"{k}={exact_number(cex[k])}" for k in self.names))
        if n == 0:  # every grid point undefined: outside the statement's assumptions (NaN), nothing was checked
            why = (f"outside the assumptions on the whole box: none of the {int(m.size)} grid points is inside the "
                   "statement's assumptions or domain (each undefined)")
            return Result(verdict="not checkable numerically", points=0, evidence=evidence, measured=why,
                          finding="outside the assumptions on the whole box")
        extra = f"; {unconfirmed} float violations vanish at {MP_DPS} digits" if unconfirmed else ""
        return Result(verdict="no counterexample", points=n, evidence=evidence,
                      measured=f"{self.text or 'inequality'}: no counterexample on {n} points "
                      f"(min margin {evidence.get('min_margin', float('nan')):.3g}){extra}",
                      finding=f"no counterexample on {n} points")

    def _margin_mp(self, pt: dict):
        import mpmath

        with mpmath.workdps(MP_DPS):
            try:
                return self.margin_mp(**{k: mpmath.mpf(v) for k, v in pt.items()})
            except (ValueError, ZeroDivisionError, OverflowError):
                return None


def _mpstr(x) -> str:
    import mpmath

    return mpmath.nstr(x, 12)


def frequency_below(hits: int, runs: int, level: float, alpha: float = 0.05) -> dict[str, Any]:
    """A frequency that must not exceed ``level``: violated only if the (1 − alpha) Clopper–Pearson interval
    lies entirely above it."""
    from ...concentration.montecarlo import clopper_pearson

    lo, hi = clopper_pearson(int(hits), int(runs), alpha)
    return {"hits": int(hits), "runs": int(runs), "frequency": hits / runs, "ci_low": lo, "ci_high": hi,
            "level": level, "violated": bool(lo > level)}


def mean_ci(x: np.ndarray, z: float = 2.5758) -> tuple[float, float, float]:
    """Mean and a normal-approximation interval (99% by default) of a sample."""
    x = np.asarray(x, dtype=float)
    m = float(x.mean())
    se = float(x.std(ddof=1) / np.sqrt(x.size)) if x.size > 1 else 0.0
    return m, m - z * se, m + z * se


def not_checkable(reason: str, evidence: dict | None = None) -> Callable[[Domain], Result]:
    """An evaluator for a claim that no computation can decide; ``reason`` says why."""

    def ev(dom: Domain) -> Result:
        return Result(verdict="not checkable numerically", measured=reason, evidence=dict(evidence or {}, reason=reason),
                      finding="not checkable numerically: " + reason)

    return ev


def verdict_of(ok: bool, fail_word: str) -> str:
    """'no counterexample' when the statement survived, else the ERRATA word a failure means."""
    return "no counterexample" if ok else fail_word


def f(x) -> float:
    """A scalar float from a scalar or a one-element array."""
    a = np.asarray(x, dtype=float)
    return float(a.reshape(-1)[0])
