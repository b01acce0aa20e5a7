"""Where each quantity is defined: one declaration that the validators, ``check``'s prover and grid, and the docs read.

Issue 23 item 2 ("quantities declared with their domains"). A :class:`Range` is an interval of the real line with open
or closed ends; :data:`QUANTITY_ARGS` gives the range of every argument of the information quantities that ``boundcalc
check`` may call, and :data:`KEYWORDS` the range of every keyword of ``bound("ID", ...)``. Sources:

* kl(x, y) = KL(Ber(x), Ber(y)): x, y are Bernoulli means, in [0, 1] (seed 001 §2;
  docs/formulas/eps-global-dp-bernoulli.md §1.1); TV(Ber(x), Ber(y)) = |x - y| likewise (seed 001 Def. 3.2 context,
  sheet §1.3); KL_inf(μ, μ*) (seed 001 Eq. 3).
* d_ε(x, y) = inf_z {ε |z - x| + kl(z, y)} (seed 001 Eq. 6 / Eq. 8; sheet §2.1 "for x, y ∈ [0,1] and ε > 0"): x, y
  in [0, 1] and a privacy level ε > 0 (ε = +inf gives kl).
* the keywords of a bound: a horizon T >= 1 (``validate.horizon``); budgets ε > 0, ρ > 0 (zCDP, seed 003 Def. 2),
  an RDP order α > 1 with ε > 0 (seed 000 Def. 1), a DP δ in (0, 1), a local-DP ε > 0 and δ in [0, 1) (seed 002);
  a confidence δ in (0, 1); counts d, K >= 1.

This module imports nothing from boundcalc (it sits at the bottom of the layer order): ``validate`` words its errors
from it, ``verify.expression`` turns each range into domain conditions of EXPR (reported by ``check`` as "proven where
defined" with the part of the box outside, as for sqrt and log), and ``intervals.enclosures`` refuses an argument
interval outside its range unless the caller reports the rest of the box (``interval.where_defined``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

INF = math.inf


@dataclass(frozen=True)
class Range:
    """The interval (lo, hi) of the real line with its ends open or closed (``lo_open``, ``hi_open``); ±inf ends
    are open. ``allowed_text()`` is the phrase of an InputError ("in [0, 1]", "a number > 0")."""

    lo: float = -INF
    hi: float = INF
    lo_open: bool = True
    hi_open: bool = True

    def admits(self, x: float) -> bool:
        if x != x:
            return False
        if x == INF:
            return self.hi == INF
        if x == -INF:
            return self.lo == -INF
        return (x > self.lo if self.lo_open else x >= self.lo) and (x < self.hi if self.hi_open else x <= self.hi)

    def admits_array(self, a):
        """``admits`` on a numpy array (NaN is outside)."""
        import numpy as np

        a = np.asarray(a, dtype=float)
        with np.errstate(invalid="ignore"):
            lo = (a > self.lo) if self.lo_open else (a >= self.lo)
            hi = (a < self.hi) if self.hi_open else (a <= self.hi)
            if self.hi == INF:
                hi = hi | (a == INF)
            if self.lo == -INF:
                lo = lo | (a == -INF)
        return lo & hi

    def inside(self) -> float:
        """A point of the range (the value put in place of an argument outside it before a vectorised call)."""
        if self.lo != -INF and self.hi != INF:
            return (self.lo + self.hi) / 2
        if self.lo != -INF:
            return self.lo + 1.0
        return self.hi - 1.0 if self.hi != INF else 0.0

    def allowed_text(self) -> str:
        if self.lo == -INF and self.hi == INF:
            return "a number"
        if self.hi == INF:
            return f"a number {'>' if self.lo_open else '>='} {self.lo:g}"
        if self.lo == -INF:
            return f"a number {'<' if self.hi_open else '<='} {self.hi:g}"
        return f"in {'(' if self.lo_open else '['}{self.lo:g}, {self.hi:g}{')' if self.hi_open else ']'}"

    def conditions(self):
        """The range as one-sided conditions [(kind, bound, side)]: ("lo", lo, ">=" or ">"), ("hi", hi, "<=" or
        "<"); an infinite end gives none."""
        out = []
        if self.lo != -INF:
            out.append(("lo", self.lo, ">" if self.lo_open else ">="))
        if self.hi != INF:
            out.append(("hi", self.hi, "<" if self.hi_open else "<="))
        return out


UNIT = Range(0.0, 1.0, False, False)  # a Bernoulli mean, a probability
OPEN_UNIT = Range(0.0, 1.0, True, True)  # a confidence δ
POSITIVE = Range(0.0, INF, True, True)  # ε, ρ
NONNEGATIVE = Range(0.0, INF, False, True)
UNIT_UPPER_OPEN = Range(0.0, 1.0, False, True)  # a local-DP δ (0: pure local DP, seed 002 Def. 2.1)
HORIZON = Range(1.0, INF, False, True)  # T >= 1
COUNT = Range(1.0, INF, False, True)  # d, K >= 1
RDP_ORDER = Range(1.0, INF, True, True)  # α > 1

# the arguments of the quantities of ``boundcalc check`` (names as in boundcalc.verify.functions.FUNCTIONS)
QUANTITY_ARGS: dict[str, tuple[tuple[str, Range], ...]] = {
    "kl": (("x", UNIT), ("y", UNIT)),
    "tv": (("x", UNIT), ("y", UNIT)),
    "kl_inf": (("mu", UNIT), ("mu_star", UNIT)),
    "d_eps": (("x", UNIT), ("y", UNIT), ("epsilon", POSITIVE)),
    # the registered quantities with positional arguments (boundcalc.bounds.quantities: ``Quantity.domain``)
    "R_phases": (("T", HORIZON), ("d", COUNT), ("K", COUNT), ("r", POSITIVE)),  # seed 000 Thm 8, r = α/ε
    "gamma_ratio": (("d", POSITIVE),),  # Γ((d+1)/2)/Γ(d/2), d > 0 (seed 002 Lemma 2.2)
    "greedy_horizon": (("d", NONNEGATIVE), ("alpha", POSITIVE), ("p_star", POSITIVE)),  # seed 002 Lemma C.3
}

# the keywords of ``bound("ID", ...)`` (boundcalc.verify.functions, boundcalc.rigorous.bound_calls)
KEYWORDS: dict[str, Range] = {
    "T": HORIZON,
    "epsilon": POSITIVE,
    "rho": POSITIVE,
    "delta": OPEN_UNIT,  # an (ε, δ)-DP δ in (0, 1) (privacy.budgets.ApproxDP)
    "alpha": RDP_ORDER,
    "rdp_epsilon": POSITIVE,
    "ldp_epsilon": POSITIVE,
    "ldp_delta": UNIT_UPPER_OPEN,
    "confidence": OPEN_UNIT,
    "d": COUNT,
    "K": COUNT,
}


def quantity_args(name: str) -> tuple[tuple[str, Range], ...]:
    """The declared (argument name, Range) pairs of a quantity (empty: no declared domain)."""
    return QUANTITY_ARGS.get(name, ())


def keyword_range(name: str) -> Range | None:
    """The declared Range of a bound keyword (None: not declared, any real)."""
    return KEYWORDS.get(name)


def table_markdown() -> str:
    """The declaration as a markdown table (docs/verify.md quotes it; tests/verify/test_check_domains.py compares)."""
    rows = ["| quantity or keyword | argument | domain |", "|---|---|---|"]
    for q, args in QUANTITY_ARGS.items():
        for a, r in args:
            rows.append(f"| {q} | {a} | {r.allowed_text()} |")
    for k, r in KEYWORDS.items():
        rows.append(f"| bound(...) | {k} | {r.allowed_text()} |")
    return "\n".join(rows)
