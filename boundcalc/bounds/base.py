"""The bound interface: one object per Theorem (or Lemma, Corollary, Eq.), with metadata, formula and evaluation.

Each subclass names its source in ``source`` (seed file and Theorem/Eq. number) and in its docstring.

Like scipy.stats gives every distribution the same methods, every bound has the same ones:
``conditions(ctx)`` (why it does not apply, empty if it does), ``evaluate(T, ctx)`` (vectorised over T,
split into a non-private part and the cost of privacy), ``expression()`` (sympy, same split) and
``symbol_values(ctx)`` (numbers for the expression's symbols). A test lambdifies every expression and
compares it with ``evaluate`` (see tests/bounds/test_bounds_registry.py).

Budgets: a bound is stated for one privacy notion (``notion``). The user's budget reaches it only
through a valid conversion (boundcalc.privacy.conversions): for an *upper* bound the algorithm must be
run at a budget of its own notion that implies the user's guarantee; for a *lower* bound the user's
guarantee must imply the bound's notion (the user's algorithm then lies in the class the lower bound
covers). ``Context.budget_for`` does this and names the conversion used.
"""

from __future__ import annotations

import functools
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
        from ..errors import InputError

        try:
            if bound.kind.startswith("upper"):
                return conversions.calibrate_upper(self.budget, bound.notion)
            return conversions.implied_lower(self.budget, bound.notion)
        except InputError as exc:  # e.g. ε = 1e-320 gives ρ = ε²/2 = 0 in floating point (was "rho must be > 0")
            return None, (f"the budget cannot be converted to this bound's notion ({bound.notion}) in floating "
                          f"point: {exc}")


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
    # parameter); tests/cli/test_regret_options.py changes every other declared parameter through the CLI
    param_notes: dict = {}
    # extra text for ``boundcalc bounds show`` when the sympy expression cannot carry the whole formula
    formula_note: str = ""
    # another paper's bound set beside the seeds' own (a baseline's own paper, seed 003 Table II's conversions): the
    # regret table lists it after the papers' own and only with --all; declared by the rows of bounds/baselines.toml
    # and bounds/converted.toml (``comparison = true``)
    comparison: bool = False

    # assumptions as data (issue 15): relations such as "beta_adac > 3" or "K >= 2" over the names of
    # ``requirement_values`` (the scalar instance parameters of the context and the symbols of symbol_values).
    # The default ``conditions`` evaluates them; the prover reads them (``requirement_relations``).
    requires: tuple[str, ...] = ()

    # -- to implement -------------------------------------------------------------------------------
    def conditions(self, ctx: Context) -> list[str]:
        """Reasons this bound does not apply to ``ctx`` (empty list: applicable): each failing ``requires``."""
        return failing_requirements(self, ctx)

    def terms(self, T: np.ndarray, ctx: Context, budget) -> tuple[np.ndarray, np.ndarray]:
        """(non-private part, privacy cost) at horizons T, derived from ``expression()`` (one definition).

        The numpy function is sympy's lambdify of the two expressions, made once per bound and cached; the
        symbols' values are ``symbol_values(ctx, budget)`` (registered non-closed-form quantities such as the
        per-arm sums are numbers there). A subclass overrides this only where no expression can carry the value.
        """
        T = np.asarray(T, dtype=float)
        f, names = lambdified(self, "numpy")
        vals = self.symbol_values(ctx, budget)
        with np.errstate(all="ignore"):
            a, b = f(*[T if n == "T" else vals[n] for n in names])
        a = np.broadcast_to(np.asarray(a, dtype=float), T.shape)
        b = np.broadcast_to(np.asarray(b, dtype=float), T.shape)
        return a, b

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
            "requires": list(self.requires),
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


# -- one definition, many backends (issue 15) -----------------------------------------------------------
_LAMBDIFIED: dict = {}


def lambdified(bound: Bound, backend: str = "numpy"):
    """(function, argument names) evaluating ``bound.expression()`` with ``backend`` ("numpy" or "mpmath").

    The arguments are the expression's free symbols sorted by name ("T" among them); cached per bound object.
    """
    key = (id(bound), backend)
    hit = _LAMBDIFIED.get(key)
    if hit is not None and hit[0] is bound:
        return hit[1], hit[2]
    gen = generated_numpy(bound) if backend == "numpy" else None  # issue 15: no sympy import in a fresh `regret`
    if gen is not None:
        _LAMBDIFIED[key] = (bound, gen[0], gen[1])
        return gen
    import sympy

    a, b = (sympy.sympify(x) for x in bound.expression())
    syms = sorted((a.free_symbols | b.free_symbols), key=lambda s: s.name)
    if not any(s.name == "T" for s in syms):
        syms.append(sympy.Symbol("T", positive=True))
    # dummify: a symbol named like a function of the namespace (``gamma``, ``beta``) must not hide the function
    f = sympy.lambdify(syms, [a, b], modules=backend, dummify=True)
    names = tuple(s.name for s in syms)
    _LAMBDIFIED[key] = (bound, f, names)
    return f, names


def requirement_values(bound: Bound, ctx: Context) -> dict[str, float]:
    """Values of the names a ``requires`` relation may use: scalar context parameters, then symbol_values."""
    out: dict[str, float] = {}
    for k, val in ctx.params.items():
        if isinstance(val, (int, float, np.integer, np.floating)) and not isinstance(val, bool):
            out[k] = float(val)
    try:
        budget = ctx.budget_for(bound)[0] if bound.notion != "none" else None
        if budget is not None or bound.notion == "none":
            out.update({k: float(x) for k, x in bound.symbol_values(ctx, budget).items()
                        if np.ndim(x) == 0})
    except Exception:  # noqa: BLE001 - a symbol that cannot be computed is reported as "not given"
        pass
    return out


def requirement_relations(bound: Bound):
    """The sympy relations of ``bound.requires`` (parsed once; the texts are the package's own)."""
    cache = bound.__dict__.get("_requirement_relations")
    if cache is not None:
        return cache
    import sympy

    from ..expressions import parse_relation  # the one parser (names: any but the functions)

    rels = []
    for text in bound.requires:
        rel = parse_relation(text)
        if not isinstance(rel, sympy.core.relational.Relational):
            raise ValueError(f"{bound.id}: requirement {text!r} is not a relation")
        rels.append(rel)
    bound.__dict__["_requirement_relations"] = tuple(rels)
    return tuple(rels)


_OPS = {"<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal}


def failing_requirements(bound: Bound, ctx: Context) -> list[str]:
    """Each ``requires`` relation that fails for ``ctx``, as "needs <relation> (<name> = value, ...)".

    Evaluated in plain floats without sympy (a relation is "lhs op rhs" with op in < <= > >=, both sides
    arithmetic over the names of :func:`requirement_values`), so that ``conditions`` stays cheap. A relation in the
    horizon ``T`` (e.g. "T >= K - 1") is checked only when the context has a T (``ctx.get("T")``, set per horizon
    by the report); without one it is skipped here and stays listed in ``requires`` (``bounds show``).
    """
    if not bound.requires:
        return []
    vals = requirement_values(bound, ctx)
    out = []
    for text in bound.requires:
        split = _split_relation(text)
        if split is None:
            raise ValueError(f"{bound.id}: requirement {text!r} is not 'lhs op rhs'")
        lhs, op, rhs, names = split
        if "T" in names:  # a horizon condition: checked where the context has a horizon, listed otherwise
            T = ctx.get("T")
            if T is None:
                continue
            vals = {**vals, "T": float(T)}
        missing = [n for n in names if n not in vals]
        if missing and ctx.budget is None:
            continue  # a budget symbol without a budget: the relation is checked when a budget is given
        if missing:
            out.append(f"needs {text} ({', '.join(missing)} not given)")
            continue
        env = {**_MATH, **{n: vals[n] for n in names}}
        ok = bool(_OPS[op](_arith(lhs, env), _arith(rhs, env)))
        if not ok:
            shown = ", ".join(f"{n} = {vals[n]:g}" for n in names)
            out.append(f"needs {text} ({shown})")
    return out


_MATH = {"log": np.log, "sqrt": np.sqrt, "exp": np.exp, "min": min, "max": max}


@functools.lru_cache(maxsize=4096)
def _split_relation(text: str) -> tuple[str, str, str, tuple[str, ...]] | None:
    """(lhs, op, rhs, the names it uses but _MATH's) of a ``requires`` text "lhs op rhs", or None when it is not one;
    split once per text (``failing_requirements`` runs at every ``conditions`` call)."""
    import re

    m = re.fullmatch(r"\s*(.+?)\s*(<=|>=|<|>)\s*(.+?)\s*", text)
    if m is None:
        return None
    names = tuple(n for n in dict.fromkeys(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", text)) if n not in _MATH)
    return (*m.groups(), names)


def _arith(text: str, env: dict) -> float:
    """The value of an arithmetic text (numbers, names of ``env``, + - * / **, unary -, calls of _MATH) by
    walking its syntax tree (boundcalc.expressions.evaluate_float): the package's own requirement texts, never
    Python evaluation."""
    from ..expressions import evaluate_float

    return evaluate_float(text, env)


def conditions_code(bound: Bound):
    """The function that gives ``bound.conditions``' answer: for a row declared as data (declared.TableBound) without a
    ``check`` hook, its setting class's ``conditions`` (the row adds no code); else ``type(bound).conditions``.
    ``check`` reads it to tell a bound whose conditions are code beyond its relations (rigorous.bound_calls,
    verify.functions)."""
    from .declared import TableBound

    cls = type(bound)
    if isinstance(bound, TableBound) and bound.check_hook is None:
        mro = cls.__mro__
        return next(c.__dict__["conditions"] for c in mro[mro.index(TableBound) + 1:] if "conditions" in c.__dict__)
    return cls.conditions


def expression_owner(bound: Bound) -> str:
    """What defines the bound's expression, for the generated code: the qualified name of its ``expression``
    method, and for a bound declared as data (``formula_texts``, boundcalc.bounds.finite.FiniteBound) a digest of
    its texts, so that a changed or patched text is never evaluated by stale generated code."""
    owner = type(bound).expression.__qualname__
    texts = getattr(bound, "formula_texts", None)
    if texts:
        import hashlib

        owner += "#" + hashlib.sha256("\n".join(map(str, texts)).encode()).hexdigest()[:16]
    return owner


def generated_numpy(bound: Bound):
    """(function, argument names) of ``bound`` from boundcalc/bounds/_generated_numpy.py, or None.

    The module (written by ``python -m boundcalc.bounds.codegen``) holds the source sympy's numpy lambdify gives
    each built-in bound's expression. It is used only for the built-in class with its own expression (same module,
    class and defining function, no per-instance ``expression``): a plugin or a patched bound is lambdified.
    """
    try:
        from . import _generated_numpy
    except ImportError:
        return None
    hit = _generated_numpy.FUNCTIONS.get(bound.id)
    if hit is None:
        return None
    module, qualname, owner, names, f = hit
    cls = type(bound)
    if (cls.__module__, cls.__qualname__, expression_owner(bound)) != (module, qualname, owner) \
            or "expression" in vars(bound):
        return None
    return f, names
