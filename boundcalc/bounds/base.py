"""The bound interface: one object per Theorem (or Lemma, Corollary, Eq.), with metadata, formula and evaluation.

Each subclass names its source in ``source`` (seed file and Theorem/Eq. number) and in its docstring.

Like scipy.stats gives every distribution the same methods, every bound has the same ones:
``conditions(ctx)`` (why it does not apply, empty if it does), ``evaluate(T, ctx)`` (vectorised over T,
split into a non-private part and the cost of privacy), ``expression()`` (sympy, same split) and
``symbol_values(ctx)`` (numbers for the expression's symbols). A test lambdifies every expression and
compares it with ``evaluate`` (see tests/test_bounds_registry.py).

Budgets: a bound is stated for one privacy notion (``notion``). The user's budget reaches it only
through a valid conversion (boundcalc.privacy.conversions): for an *upper* bound the algorithm must be
run at a budget of its own notion that implies the user's guarantee; for a *lower* bound the user's
guarantee must imply the bound's notion (the user's algorithm then lies in the class the lower bound
covers). ``Context.budget_for`` does this and names the conversion used.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np

KINDS = (
    "upper-problem-dependent",
    "upper-minimax",
    "upper-asymptotic",
    "lower-problem-dependent",
    "lower-minimax",
    "lower-asymptotic",
)
SETTINGS = ("finite", "linear", "contextual", "glm")
NOTIONS = ("none", "pure", "zcdp", "rdp", "approx", "ldp")
FORMS = ("exact", "paper", "explicit", "corrected")
FORM_LABELS = {
    "exact": "as stated (all constants explicit in the paper)",
    "paper": "paper form: constants hidden in O(·)/Ω(·) set to 1",
    "explicit": "explicit form: constants derived from the proof (DERIVED)",
    "corrected": "corrected form (see caveats): not the paper's statement",
}


@dataclass
class BoundValue:
    """Numeric value of a bound at the horizons T: total = nonprivate + privacy_cost (arrays over T)."""

    T: np.ndarray
    value: np.ndarray
    nonprivate: np.ndarray
    privacy_cost: np.ndarray


@dataclass
class Context:
    """Everything a bound may need: instance parameters, algorithm parameters and the user's budget.

    ``params`` maps parameter names (``means``, ``K``, ``d``, ``delta`` (confidence), ``lambda0``, …) to
    values. ``budget`` is the user's boundcalc.privacy Budget (or None for non-private).
    """

    params: dict[str, Any] = field(default_factory=dict)
    budget: Any = None
    instance_name: str = ""

    def __getitem__(self, key: str) -> Any:
        return self.params[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.params.get(key, default)

    def budget_for(self, bound: "Bound"):
        """The budget in the bound's own notion and the conversion used, or (None, reason).

        Returns ``(budget, conversion_text)``; ``budget`` is None when no valid conversion exists.
        """
        from ..privacy import conversions

        if bound.notion == "none":
            return None, "non-private"
        if self.budget is None:
            return None, "no privacy budget given"
        if bound.kind.startswith("upper"):
            return conversions.calibrate_upper(self.budget, bound.notion)
        return conversions.implied_lower(self.budget, bound.notion)


class Bound(ABC):
    """Base class of all bounds. Subclasses set the class attributes and implement the four methods."""

    id: str = ""
    title: str = ""
    algorithm: str | None = None  # None for lower bounds (they hold for every algorithm of the class)
    seed: str = ""  # seed file number, e.g. "003"
    source: str = ""  # e.g. "seed 003 Thm 4"
    setting: str = ""
    notion: str = "none"
    kind: str = ""
    form: str = "exact"
    params: tuple[str, ...] = ()  # context parameters needed
    assumptions: tuple[str, ...] = ()
    caveats: tuple[str, ...] = ()  # "verdict: text" in the ERRATA vocabulary
    regime_note: str = ""  # optional: text on when privacy matters
    # "sum": value = non-private part + privacy cost (most bounds); "max": value = max(non-private term,
    # private term), split as non-private + max(0, private - non-private) (seed 003 Thm 9, Thm 17)
    combination: str = "sum"
    # non-empty when the value is known NOT to be a valid bound (e.g. an explicit form built on a failed proof
    # step): shown as a tag and never used as a headline number
    invalid: str = ""
    # parameters in ``params`` whose change cannot change the value, with the reason (e.g. a condition-only
    # parameter); tests/test_regret_options.py changes every other declared parameter through the CLI
    param_notes: dict = {}
    # extra text for ``boundcalc bounds show`` when the sympy expression cannot carry the whole formula
    formula_note: str = ""

    # -- to implement -------------------------------------------------------------------------------
    def conditions(self, ctx: Context) -> list[str]:
        """Reasons this bound does not apply to ``ctx`` (empty list: applicable)."""
        return []

    @abstractmethod
    def terms(self, T: np.ndarray, ctx: Context, budget) -> tuple[np.ndarray, np.ndarray]:
        """(non-private part, privacy cost) at horizons T (float array), under ``budget`` in own notion."""

    @abstractmethod
    def expression(self):
        """(non-private sympy expression, privacy-cost sympy expression) in the symbols of symbol_values."""

    @abstractmethod
    def symbol_values(self, ctx: Context, budget) -> dict[str, Any]:
        """Values for every free symbol of expression() except T."""

    # -- provided ---------------------------------------------------------------------------------------
    def evaluate(self, T, ctx: Context, budget=None) -> BoundValue:
        T = np.atleast_1d(np.asarray(T, dtype=float))
        if budget is None and self.notion != "none":
            budget, why = ctx.budget_for(self)
            if budget is None:
                raise ValueError(f"{self.id}: {why}")
        nonpriv, priv = self.terms(T, ctx, budget)
        nonpriv = np.broadcast_to(np.asarray(nonpriv, dtype=float), T.shape).copy()
        priv = np.broadcast_to(np.asarray(priv, dtype=float), T.shape).copy()
        return BoundValue(T=T, value=nonpriv + priv, nonprivate=nonpriv, privacy_cost=priv)

    def privacy_dominates(self, T, ctx: Context, budget=None) -> np.ndarray:
        """Boolean array over T: is the private term the larger one?

        "sum" bounds: privacy cost > non-private part. "max" bounds: the private term is the max, i.e. the
        privacy cost (private term minus the non-private one, floored at 0) is > 0.
        """
        v = self.evaluate(T, ctx, budget)
        if self.combination == "max":
            return v.privacy_cost > 0
        return ~np.isfinite(v.privacy_cost) | (v.privacy_cost > v.nonprivate)

    @property
    def is_upper(self) -> bool:
        return self.kind.startswith("upper")

    def form_label(self) -> str:
        return FORM_LABELS.get(self.form, self.form)

    def metadata(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "algorithm": self.algorithm,
            "source": self.source,
            "setting": self.setting,
            "notion": self.notion,
            "kind": self.kind,
            "form": self.form,
            "params": list(self.params),
            "assumptions": list(self.assumptions),
            "caveats": list(self.caveats),
            "combination": self.combination,
        }


def check_metadata(b: Bound) -> None:
    """Sanity of the class attributes (used by the registry and tests)."""
    assert b.id and b.title and b.source and b.seed, b
    assert b.setting in SETTINGS, (b.id, b.setting)
    assert b.notion in NOTIONS, (b.id, b.notion)
    assert b.kind in KINDS, (b.id, b.kind)
    assert b.form in FORMS, (b.id, b.form)
    assert (b.algorithm is None) == b.kind.startswith("lower"), b.id
    assert b.combination in ("sum", "max"), (b.id, b.combination)
    assert set(b.param_notes) <= set(b.params), (b.id, "param_notes must name declared params")
