"""The statistics of a privacy audit: from event counts on two neighbouring inputs to a lower bound on ε.

An algorithm M is (ε, δ)-DP when, for all neighbouring inputs D ~ D' and every event E of its output,

    P_D(E) <= e^ε P_D'(E) + δ          (and the same with D and D' exchanged).

So for one fixed event E and a known δ, the true ε of M on (D, D') satisfies ε >= ln((P_D(E) − δ)/P_D'(E)).
An audit estimates the two probabilities from N independent runs on each input and replaces them by one-sided
Clopper–Pearson bounds (Clopper & Pearson 1934): a lower bound p_lo on P_D(E) and an upper bound q_hi on P_D'(E),
each at level γ. Then

    epsilon_lower = ln((p_lo − δ)/q_hi)     (0 when p_lo <= δ: no evidence)

and, with probability >= 1 − 2γ over the runs, epsilon_lower <= the smallest ε for which M is (ε, δ)-DP on this
pair (Ding, Wang, Wang, Zhang & Kifer 2018, "Detecting violations of differential privacy", CCS; Jagielski,
Ullman & Oprea 2020, "Auditing differentially private machine learning: how private is private SGD?", NeurIPS,
Sec. 3 and Alg. 2; Nasr, Song, Thakurta, Papernot & Carlini 2021, "Adversary instantiation: lower bounds for
differentially private machine learning", IEEE S&P). Clopper–Pearson, not a normal approximation: the bound must
hold at its stated level also for frequencies near 0 or 1, which is exactly where audits live.

Several events (each with a direction D → D' or D' → D) may be declared before the runs: each of the m
(event, direction) pairs uses γ = α/(2m) (Bonferroni), so that all 2m bounds hold together with probability
>= 1 − α and the maximum over the pairs is still a valid lower bound. Alternatively the event is *selected* on a
held-out part of the runs (the likelihood-ratio level sets of a discrete outcome, Neyman–Pearson) and evaluated
once, at γ = α/2, on the remaining runs, which the selection never saw.

An audit can only give a lower bound: it can detect a violation (epsilon_lower > the claimed ε), never prove
privacy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import InputError, ParamName


def cp_lower(k: int, n: int, gamma: float) -> float:
    """One-sided Clopper–Pearson lower bound at level ``gamma``: P(p < bound) <= gamma for k ~ Bin(n, p).
    The gamma-quantile of Beta(k, n − k + 1); 0 for k = 0."""
    k, n = int(k), int(n)
    _check_counts(k, n)
    if k == 0:
        return 0.0
    from scipy.stats import beta

    return float(beta.ppf(gamma, k, n - k + 1))


def cp_upper(k: int, n: int, gamma: float) -> float:
    """One-sided Clopper–Pearson upper bound at level ``gamma``: P(p > bound) <= gamma.
    The (1 − gamma)-quantile of Beta(k + 1, n − k); 1 for k = n."""
    k, n = int(k), int(n)
    _check_counts(k, n)
    if k == n:
        return 1.0
    from scipy.stats import beta

    return float(beta.isf(gamma, k + 1, n - k))


def _check_counts(k: int, n: int) -> None:
    if n < 1 or k < 0 or k > n:
        raise InputError("counts", "0 <= k <= n with n >= 1", (k, n))


def epsilon_from_bounds(p_lo: float, q_hi: float, delta: float) -> float:
    """ln((p_lo − δ)/q_hi), or 0 when p_lo <= δ (the data show no privacy loss through this event)."""
    if p_lo <= delta or q_hi <= 0:
        return 0.0
    return max(0.0, math.log((p_lo - delta) / q_hi))


@dataclass
class EventBound:
    """One (event, direction) of an audit: counts on both inputs, the Clopper–Pearson bounds and the ε bound.

    ``direction`` "D>D'" bounds ln((P_D(E) − δ)/P_D'(E)), "D'>D" the same with the inputs exchanged."""

    name: str
    direction: str
    count_D: int
    count_Dp: int
    n_D: int
    n_Dp: int
    gamma: float
    p_lo: float
    q_hi: float
    epsilon_lower: float
    selected_on: str = "declared before the runs"

    def as_dict(self) -> dict[str, Any]:
        return {"event": self.name, "direction": self.direction, "count_D": self.count_D, "count_Dprime": self.count_Dp,
                "trials_D": self.n_D, "trials_Dprime": self.n_Dp, "freq_D": self.count_D / self.n_D,
                "freq_Dprime": self.count_Dp / self.n_Dp, "level_each_bound": self.gamma,
                "p_lower": self.p_lo, "q_upper": self.q_hi, "epsilon_lower": self.epsilon_lower,
                "selected_on": self.selected_on}


def event_bound(name: str, direction: str, k_D: int, n_D: int, k_Dp: int, n_Dp: int, delta: float,
                gamma: float, selected_on: str = "declared before the runs") -> EventBound:
    """The ε lower bound of one (event, direction) at per-bound level ``gamma``."""
    if direction == "D>D'":
        p_lo, q_hi = cp_lower(k_D, n_D, gamma), cp_upper(k_Dp, n_Dp, gamma)
    elif direction == "D'>D":
        p_lo, q_hi = cp_lower(k_Dp, n_Dp, gamma), cp_upper(k_D, n_D, gamma)
    else:
        raise InputError("direction", "D>D' or D'>D", direction)
    return EventBound(name, direction, int(k_D), int(k_Dp), int(n_D), int(n_Dp), gamma, p_lo, q_hi,
                      epsilon_from_bounds(p_lo, q_hi, delta), selected_on)


@dataclass
class Estimate:
    """The audit's estimate: the maximum over the audited (event, direction) pairs, with all of them."""

    epsilon_lower: float
    events: list[EventBound]
    alpha: float
    delta: float
    method: str  # "declared" | "held-out"
    confidence: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def best(self) -> EventBound:
        return max(self.events, key=lambda e: e.epsilon_lower)


def confidence_statement(alpha: float, delta: float, m: int, method: str) -> str:
    """The exact confidence statement of an estimate (see the module docstring)."""
    level = f"{100 * (1 - alpha):g}%"
    if method == "declared":
        how = (f"{m} (event, direction) pair{'s' if m != 1 else ''} declared before the runs; each uses a one-sided "
               f"Clopper–Pearson lower bound on P_D(E) and upper bound on P_D'(E) at level α/(2m) = {alpha / (2 * m):.3g} "
               "(Bonferroni)")
    else:
        how = ("one event selected on held-out runs (likelihood-ratio order of the outcomes), then evaluated once on "
               f"the other runs with one-sided Clopper–Pearson bounds at level α/2 = {alpha / 2:.3g} each")
    return (f"With probability >= {level} over the audit's randomness, epsilon_lower <= the smallest ε for which the "
            f"algorithm is (ε, δ = {delta:g})-DP on these two neighbouring inputs: {how}; ε_lower = "
            "max ln((p_lo − δ)/q_hi). So an (ε, δ)-DP algorithm fails this audit (epsilon_lower > ε) with probability "
            f"at most {100 * alpha:g}%. An audit only gives a lower bound: it can detect a violation, never prove privacy.")


def declared(counts: list[tuple[str, str, int, int]], n_D: int, n_Dp: int, delta: float, alpha: float) -> Estimate:
    """Estimate from events declared before the runs: ``counts`` = [(name, direction, k_D, k_Dp)]."""
    m = len(counts)
    if m == 0:
        raise InputError("events", "at least one declared event", 0)
    gamma = alpha / (2 * m)
    evs = [event_bound(nm, dr, kD, n_D, kDp, n_Dp, delta, gamma) for nm, dr, kD, kDp in counts]
    return Estimate(max(e.epsilon_lower for e in evs), evs, alpha, delta, "declared",
                    confidence_statement(alpha, delta, m, "declared"))


def _codes(obs_D: np.ndarray, obs_Dp: np.ndarray):
    """Integer codes of the outcome rows of both samples (one code per distinct row) and the distinct rows."""
    both = np.concatenate([obs_D.reshape(obs_D.shape[0], -1), obs_Dp.reshape(obs_Dp.shape[0], -1)])
    rows, inv = np.unique(both, axis=0, return_inverse=True)
    inv = np.ravel(inv)
    return inv[: obs_D.shape[0]], inv[obs_D.shape[0]:], rows


def held_out(obs_D: np.ndarray, obs_Dp: np.ndarray, delta: float, alpha: float, select_fraction: float = 0.3,
             describe=None) -> Estimate:
    """Select an event on the first ``select_fraction`` of the runs of each input, evaluate it on the rest.

    Outcomes are the rows of ``obs_*`` (discrete). Candidate events: for each direction, the unions of the top-j
    outcomes in decreasing order of the selection-sample likelihood ratio (add-½ smoothing), j = 1..(#outcomes − 1)
    — the Neyman–Pearson level sets. The candidate with the largest selection-sample bound (at level α/2 per bound)
    is evaluated once on the evaluation runs at level α/2 per bound."""
    nD, nDp = obs_D.shape[0], obs_Dp.shape[0]
    sD, sDp = int(nD * select_fraction), int(nDp * select_fraction)
    if min(sD, sDp, nD - sD, nDp - sDp) < 1:
        raise InputError(ParamName("trials"), "large enough for a selection and an evaluation part (>= 4 per input)", min(nD, nDp))
    cD, cDp, rows = _codes(obs_D, obs_Dp)
    K = rows.shape[0]
    if K < 2:
        ev = event_bound("any outcome", "D>D'", nD - sD, nD - sD, nDp - sDp, nDp - sDp, delta, alpha / 2,
                         selected_on="only one outcome was observed")
        return Estimate(ev.epsilon_lower, [ev], alpha, delta, "held-out", confidence_statement(alpha, delta, 1, "held-out"))
    sel_D = np.bincount(cD[:sD], minlength=K)
    sel_Dp = np.bincount(cDp[:sDp], minlength=K)
    ev_D = np.bincount(cD[sD:], minlength=K)
    ev_Dp = np.bincount(cDp[sDp:], minlength=K)
    best = None
    for direction, a, na, b, nb in (("D>D'", sel_D, sD, sel_Dp, sDp), ("D'>D", sel_Dp, sDp, sel_D, sD)):
        ratio = ((a + 0.5) / (na + 1)) / ((b + 0.5) / (nb + 1))
        order = np.argsort(-ratio, kind="stable")
        ca, cb = np.cumsum(a[order]), np.cumsum(b[order])
        for j in range(K - 1):
            e = epsilon_from_bounds(cp_lower(int(ca[j]), na, alpha / 2), cp_upper(int(cb[j]), nb, alpha / 2), delta)
            # ties: prefer the larger event (more probability, a more stable estimate)
            if best is None or e > best[0] + 1e-12 or (abs(e - best[0]) <= 1e-12 and j > best[3]):
                best = (e, direction, order[: j + 1], j)
    _, direction, members, _ = best
    name = describe(rows[members]) if describe is not None else f"outcome in {rows[members].tolist()}"
    kD, kDp = int(ev_D[members].sum()), int(ev_Dp[members].sum())
    ev = event_bound(name, direction, kD, nD - sD, kDp, nDp - sDp, delta, alpha / 2,
                     selected_on=f"selected on the first {sD} + {sDp} runs, evaluated on the other {nD - sD} + {nDp - sDp}")
    return Estimate(ev.epsilon_lower, [ev], alpha, delta, "held-out", confidence_statement(alpha, delta, 1, "held-out"),
                    extra={"outcomes": int(K), "selection_runs": [sD, sDp]})
