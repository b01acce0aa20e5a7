"""A bound declared once: metadata + one sympy expression (non-private part, privacy cost) + assumptions as data.

Sources: no formula of the five papers is declared here; a declared bound cites its own (Theorem, Eq.) in
``source`` (e.g. examples/my_bound.toml: "Doe 2027, Thm 1").

Issue 15 ("one definition per bound"): the numpy evaluation (``terms``, vectorised over T), the mpmath evaluation
(``evaluate_mp``, any precision) and the displayed formula (``expression``) are all derived from the one pair of
sympy expressions by ``sympy.lambdify``; nothing is written twice. Assumptions are sympy relations over the same
symbols (``"rho > 0"``, ``"T >= 2"``): printable, evaluable (``conditions`` reports each one that fails for a
context) and readable by other tools (``assumption_relations``).

The expressions are text parsed in a restricted namespace: the setting's symbols (:func:`setting_symbols`: T, the
instance parameters of the setting, the budget symbols of the bound's notion) and the functions of
:data:`FUNCTIONS`. The parsing is boundcalc.expressions' (the one parser, shared with ``check``, the claims and the
built-in bounds declared as data): the text is walked with Python's ``ast`` against a whitelist (numbers, names,
``+ - * / **``, unary minus, calls of whitelisted functions, and comparisons in assumptions only), then built node by
node into sympy (decimals exact). Anything else is a :class:`PluginError` (an InputError: one line, exit 2) naming the plugin
and the offending symbol.

At construction the expression is checked to be real and finite at a few points inside the assumptions' domain
(:meth:`DeclaredBound.validate`); a bound that is not is rejected with one error naming the plugin and the problem.

The formula of a declared bound is its declaring paper's (the ``source`` field); this module adds none.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from ..errors import InputError, PluginError  # noqa: F401  (PluginError re-exported for plugins written against it)
from .base import FORMS, KINDS, NOTIONS, SETTINGS, Bound, check_metadata

# Instance parameters of each setting a declared bound may use, and the budget symbols of each notion: declared
# once, with their meanings, in boundcalc.bounds.symbols (``bounds show`` prints the same table for a plugin).
from .symbols import BUDGET_ATTR as _BUDGET_ATTR, BUDGET_SYMBOLS, INSTANCE_SYMBOLS  # noqa: E402  (symbol -> budget attribute)

# Where the load-time check evaluates a declared expression (natural ranges of the symbols; others 0.05, 0.5, 1).
CHECK_GRID = {
    "T": (2.0, 1e3, 1e9), "K": (2.0, 10.0, 1e3), "d": (1.0, 3.0, 50.0), "delta": (1e-3, 0.1),
    "Delta_min": (0.01, 0.5), "Delta_max": (0.1, 1.0), "mu_star": (0.5, 0.9), "n_best": (1.0,),
    "rho": (1e-3, 0.1, 10.0), "epsilon": (0.01, 1.0, 10.0), "alpha": (1.5, 2.0, 10.0), "delta_dp": (1e-6, 0.01),
}
from ..expressions import CONSTANTS, FUNCTIONS as _FUNCTIONS  # noqa: E402  (the bound language, declared once)

FUNCTIONS = tuple(_FUNCTIONS)
REQUIRED = ("id", "title", "source", "setting", "notion", "kind", "nonprivate", "privacy_cost")
OPTIONAL = ("form", "assumptions", "caveats", "algorithm", "combination", "regime_note")


def setting_symbols(setting: str, notion: str) -> tuple[str, ...]:
    """The symbols a declared bound of ``setting`` and ``notion`` may use: T, instance parameters, budget."""
    return ("T",) + INSTANCE_SYMBOLS[setting] + BUDGET_SYMBOLS[notion]


def parse(text: Any, allowed: tuple[str, ...], origin: str, what: str, relation: bool = False):
    """Parse ``text`` (an expression, or a relation when ``relation``) over ``allowed`` symbols; PluginError else.
    The parsing is boundcalc.expressions' (the one parser of the bound language); this names the plugin."""
    from ..expressions import ExpressionError, parse_bound_text

    try:
        return parse_bound_text(text, allowed, what, relation)
    except ExpressionError as exc:
        raise PluginError(origin, str(exc)) from None


class DeclaredBound(Bound):
    """A bound declared once from data (see the module docstring); the formula is its ``source``'s."""

    def __init__(self, *, id: str, title: str, source: str, setting: str, notion: str, kind: str,
                 nonprivate: str, privacy_cost: str, form: str = "explicit", assumptions=(), caveats=(),
                 algorithm: str | None = None, combination: str = "sum", regime_note: str = "",
                 origin: str = "<declared>"):
        self.origin = origin
        where = f"{origin} [bound {id!r}]" if isinstance(id, str) and id else origin
        for key, val in (("id", id), ("title", title), ("source", source)):
            if not isinstance(val, str) or not val.strip():
                raise PluginError(where, f"{key} must be a non-empty string (got {val!r})")
        for key, val, allowed in (("setting", setting, SETTINGS), ("notion", notion, NOTIONS), ("kind", kind, KINDS),
                                  ("form", form, FORMS), ("combination", combination, ("sum", "max"))):
            if val not in allowed:
                raise PluginError(where, f"{key} must be one of {', '.join(allowed)} (got {val!r})")
        if isinstance(assumptions, str) or not all(isinstance(a, str) for a in assumptions):
            raise PluginError(where, f"assumptions must be a list of strings such as \"rho > 0\" (got {assumptions!r})")
        if isinstance(caveats, str) or not all(isinstance(c, str) for c in caveats):
            raise PluginError(where, f"caveats must be a list of strings (got {caveats!r})")
        self.id, self.title, self.source = id, title, source
        self.setting, self.notion, self.kind, self.form = setting, notion, kind, form
        self.combination, self.regime_note = combination, regime_note
        self.seed = "plugin"
        self.algorithm = None if kind.startswith("lower") else (algorithm or f"{id} (declared algorithm)")
        self.caveats = tuple(caveats)
        self.assumptions = tuple(assumptions)
        self.symbols = setting_symbols(setting, notion)
        self.nonprivate_text, self.privacy_cost_text = nonprivate, privacy_cost
        self._np = parse(nonprivate, self.symbols, where, "nonprivate")
        self._pv = parse(privacy_cost, self.symbols, where, "privacy_cost")
        self.assumption_relations = tuple(parse(a, self.symbols, where, f"assumption {a!r}", relation=True)
                                          for a in assumptions)
        import sympy

        used = (self._np + self._pv).free_symbols
        for rel in self.assumption_relations:
            used |= rel.free_symbols
        self.free_names = tuple(sorted(str(s) for s in used))
        self.params = tuple(n for n in INSTANCE_SYMBOLS[setting] if n in self.free_names)
        self._args = [sympy.Symbol(n, real=True) for n in self.free_names]
        self._f_np = sympy.lambdify(self._args, [self._np, self._pv], modules="numpy")
        self._f_mp = overflow_safe_mp(self._args, [self._np, self._pv])
        self._f_cond = [sympy.lambdify(self._args, rel, modules="numpy") for rel in self.assumption_relations]
        try:
            check_metadata(self)
        except AssertionError as exc:
            raise PluginError(where, f"metadata: {exc}") from None
        self.validate(where)

    # -- the Bound interface, derived from the one expression ---------------------------------------------------
    def expression(self):
        """(non-private part, privacy cost): the declared sympy expressions (source: ``self.source``)."""
        return self._np, self._pv

    def symbol_values(self, ctx, budget) -> dict[str, Any]:
        """Values of every free symbol except T: instance parameters from ``ctx``, budget symbols from ``budget``."""
        out: dict[str, Any] = {}
        for n in self.free_names:
            if n == "T":
                continue
            if n in BUDGET_SYMBOLS[self.notion]:
                out[n] = math.inf if budget is None else float(getattr(budget, _BUDGET_ATTR[n]))
            else:
                out[n] = float(ctx[n])
        return out

    def _call(self, f, T, vals):
        return f(*[T if n == "T" else vals[n] for n in self.free_names])

    def terms(self, T, ctx, budget):
        """(non-private part, privacy cost) at T by the numpy lambdification of ``expression()``."""
        T = np.asarray(T, dtype=float)
        with np.errstate(all="ignore"):
            a, b = self._call(self._f_np, T, self.symbol_values(ctx, budget))
        a = np.broadcast_to(np.asarray(a, dtype=float), T.shape)
        b = np.broadcast_to(np.asarray(b, dtype=float), T.shape)
        if self.combination == "max":
            return a, np.maximum(b - a, 0.0)
        return a, b

    def evaluate_mp(self, T, ctx, budget=None, digits: int = 50):
        """(non-private part, privacy cost) at one T as mpmath numbers at ``digits`` digits (mpmath lambdify)."""
        import mpmath

        if budget is None and self.notion != "none":
            budget, why = ctx.budget_for(self)
            if budget is None:
                raise ValueError(f"{self.id}: {why}")
        with mpmath.workdps(digits):
            vals = {k: mpmath.mpf(v) for k, v in self.symbol_values(ctx, budget).items()}
            a, b = self._call(self._f_mp, mpmath.mpf(T), vals)
            if self.combination == "max":
                b = max(b - a, mpmath.mpf(0))
            return +a, +b

    def conditions(self, ctx) -> list[str]:
        """Each declared assumption that fails (or cannot be evaluated) for ``ctx``, as text."""
        out = []
        budget = None
        if self.notion != "none" and ctx.budget is not None:
            budget, _ = ctx.budget_for(self)
        vals = self.symbol_values(ctx, budget) if budget is not None or not BUDGET_SYMBOLS[self.notion] else None
        T = ctx.get("T")
        for text, rel, f in zip(self.assumptions, self.assumption_relations, self._f_cond):
            names = {str(s) for s in rel.free_symbols}
            if "T" in names and T is None:
                continue  # checked per horizon by the caller (the T-dependent assumptions are listed by assumptions)
            if vals is None and names & set(BUDGET_SYMBOLS[self.notion]):
                continue
            try:
                ok = bool(self._call(f, float(T) if T is not None else 1.0, vals or {}))
            except Exception:  # noqa: BLE001
                ok = False
            if not ok:
                out.append(f"assumption {text} fails")
        return out

    # -- load-time validation -----------------------------------------------------------------------------------
    def sample_points(self, n: int = 8) -> list[dict[str, float]]:
        """Points inside the declared assumptions, drawn from :data:`CHECK_GRID` (each symbol's natural range)."""
        names = [s for s in self.free_names if s != "T"]
        grids = [CHECK_GRID.get(s, (0.05, 0.5, 1.0)) for s in names]
        found = []
        for combo in itertools.islice(itertools.product(*grids), 4096):
            vals = dict(zip(names, combo))
            for T in CHECK_GRID["T"]:
                try:
                    inside = all(bool(self._call(f, T, vals)) for f in self._f_cond)
                except Exception:  # noqa: BLE001
                    inside = False
                if inside:
                    found.append({**vals, "T": T})
        if len(found) > n:  # spread over the candidates, first and last included
            idx = np.linspace(0, len(found) - 1, n).round().astype(int)
            found = [found[i] for i in idx]
        return found

    def validate(self, where: str) -> None:
        """The expression must be real and finite at points inside the assumptions' domain; PluginError else."""
        import mpmath

        pts = self.sample_points()
        if not pts:
            raise PluginError(where, "no point of the test grid satisfies the assumptions "
                              f"({'; '.join(self.assumptions)}); the domain is empty or too small to check")
        for p in pts:
            with mpmath.workdps(30):
                try:
                    vals = [mpmath.mpf(p[n]) for n in self.free_names]
                    parts = self._f_mp(*vals)
                except Exception as exc:  # noqa: BLE001
                    raise PluginError(where, f"the expression cannot be evaluated at {p} ({exc})") from None
                for label, v in zip(("nonprivate", "privacy_cost"), parts):
                    if v == mpmath.inf:  # an overflow (beyond exp(EXP_ARG_MAX)): real, shown as ∞ (vacuous)
                        continue
                    if isinstance(v, mpmath.mpc) or not mpmath.isfinite(v):
                        raise PluginError(where, f"{label} is not real and finite at {p} inside the assumptions "
                                          f"({'; '.join(self.assumptions) or 'none'}): value {mpmath.nstr(v, 6)}; "
                                          "declare the assumption under which it is defined")

    def metadata(self) -> dict[str, Any]:
        m = super().metadata()
        m.update(plugin=self.origin, symbols=list(self.symbols),
                 formula={"nonprivate": self.nonprivate_text, "privacy_cost": self.privacy_cost_text})
        return m


# Above this argument exp overflows to +inf in the mpmath evaluation of a declared expression (and a power b**e with
# |e log b| above it likewise). mpmath computes exp(x) exactly for any x, but the cost grows with log2(x) (ln 2 to that
# many bits): exp(exp(T)) at T = 1e9 ran for ever, its memory growing (issue 22 §4). exp(2**40) ~ 10**(4.8e11) is
# computed in microseconds; anything larger is no bound on a regret anyway.
EXP_ARG_MAX = 2.0**40


def _safe_exp(x):
    import mpmath

    if not isinstance(x, mpmath.mpc) and mpmath.isfinite(x) and abs(x) > EXP_ARG_MAX:
        return mpmath.inf if x > 0 else mpmath.mpf(0)
    return mpmath.exp(x)


def _safe_pow(b, e):
    import mpmath

    if (not isinstance(b, mpmath.mpc) and not isinstance(e, mpmath.mpc) and mpmath.isfinite(b) and mpmath.isfinite(e)
            and b > 0 and e != 0):
        growth = e * mpmath.log(b)
        if abs(growth) > EXP_ARG_MAX:
            return mpmath.inf if growth > 0 else mpmath.mpf(0)
    return b**e


def overflow_safe_mp(args, exprs):
    """``sympy.lambdify(args, exprs, modules="mpmath")`` with exp and every power of a non-constant exponent
    overflow-safe: beyond :data:`EXP_ARG_MAX` they give +inf (or 0), at once, instead of an exact value whose
    computation does not end (issue 22 §4: ``exp(exp(T))``)."""
    import sympy

    f_exp, f_pow = sympy.Function("_safe_exp"), sympy.Function("_safe_pow")

    def guard(e):
        if isinstance(e, sympy.exp):
            return f_exp(guard(e.args[0]))
        if isinstance(e, sympy.Pow) and not e.exp.is_number:
            return f_pow(guard(e.base), guard(e.exp))
        if e.args and not isinstance(e, sympy.core.relational.Relational):
            return e.func(*[guard(a) for a in e.args])
        return e

    guarded = [guard(e) for e in exprs]
    return sympy.lambdify(args, guarded, modules=[{"_safe_exp": _safe_exp, "_safe_pow": _safe_pow}, "mpmath"])


# The keys a built-in bound declared as data may add to a plugin's (boundcalc/bounds/*.toml, read by builtin_table):
# the seed, the context parameters it needs, ``requires`` relations over scalars, notes on parameters, the constant
# ``c`` of a quantity, a Python ``expression`` hook where the bound language cannot write the formula and a
# ``check`` hook for a condition that is not a relation (each hook named in the setting module's tables).
# A row's text may also name the setting's ``DEFINITIONS`` (a named sympy piece of the setting's papers, e.g. seed 002's
# σ_{ε,δ}): each is replaced by its expression while the text is built. ``formula_note`` explains such a piece in
# ``bounds show``; ``half_budget`` (seed 002) says the algorithm runs the (ε/2, δ/2) mechanisms; ``horizon`` names a
# function of the setting's ``HORIZONS`` (the smallest horizon, where it depends on the budget); ``values`` names a
# function of the setting's ``VALUES`` giving symbols whose value is computed by code (seed 003 Thm 14's s*);
# ``comparison = true`` marks another paper's bound set beside the seeds' own (base.Bound.comparison).
BUILTIN = ("seed", "params", "requires", "requires_notes", "param_notes", "invalid", "c", "expression", "check",
           "formula_note", "half_budget", "horizon", "values", "comparison")


class TableBound:
    """Mixin of a built-in bound declared as data: one row of a setting's table (:func:`builtin_table`) with the
    setting's Bound class (``class FiniteBound(TableBound, _Finite)``), which gives the values of the symbols and the
    conditions. The row's metadata become attributes; its ``nonprivate`` / ``privacy_cost`` texts are parsed by the
    one parser (boundcalc.expressions, the plugins' bound language) over ``allowed_symbols()`` as positive symbols,
    once, when the expression is first needed (no sympy at import). A row may instead name a Python ``expression`` of
    the class's ``EXPRESSIONS`` (a form the bound language cannot write) and a ``check`` of its ``CHECKS`` (a condition
    that is not a relation). The formulas are the rows' sources' (each row's ``source``)."""

    table_setting = ""
    EXPRESSIONS: dict = {}
    CHECKS: dict = {}
    DEFINITIONS: dict = {}  # name a row's text may use -> function giving its sympy expression (named pieces)
    VALUES: dict = {}  # name -> function (bound, ctx, budget) -> {symbol: value computed by code}

    def __init__(self, *, nonprivate: str | None = None, privacy_cost: str | None = None,
                 expression: str | None = None, check: str | None = None, c: float | None = None,
                 values: str | None = None, **meta):
        for key, val in meta.items():
            setattr(self, key, tuple(val) if isinstance(val, list) else val)
        if self.setting != self.table_setting:
            raise ValueError(f"{self.id}: a {self.table_setting} table declares setting {self.setting!r}")
        self.algorithm = meta.get("algorithm")
        if c is not None:
            self.c = float(c)  # a constant of a registered quantity (finite: H_min's c)
        self.nonprivate_text, self.privacy_cost_text = nonprivate, privacy_cost
        self.expression_hook, self.check_hook, self.values_hook = expression, check, values
        # what the generated numpy code was made from (base.expression_owner compares it)
        self.formula_texts = (nonprivate, privacy_cost) if expression is None else (f"EXPRESSIONS[{expression!r}]",)

    def allowed_symbols(self) -> tuple:
        raise NotImplementedError

    def text_symbol(self, name: str):
        """What a name of a row's text stands for: one of the setting's ``DEFINITIONS`` (its sympy expression, built
        in place) or a positive symbol."""
        if name in self.DEFINITIONS:
            return self.DEFINITIONS[name]()
        from ..expressions import positive_symbol

        return positive_symbol(name)

    def expression(self):
        """(non-private part, privacy cost): the row's texts parsed by boundcalc.expressions, or its Python hook."""
        hit = self.__dict__.get("_expression")
        if hit is None:
            if self.expression_hook is not None:
                hit = self.EXPRESSIONS[self.expression_hook]()
            else:
                from ..expressions import ExpressionError, parse_bound_text

                allowed = self.allowed_symbols() + tuple(self.DEFINITIONS)
                try:
                    hit = tuple(parse_bound_text(t, allowed, f"{self.id} {what}", symbol=self.text_symbol)
                                for what, t in (("nonprivate", self.nonprivate_text),
                                                ("privacy_cost", self.privacy_cost_text)))
                except ExpressionError as exc:
                    raise ValueError(f"boundcalc/bounds ({self.table_setting} table): {exc}") from None
            self.__dict__["_expression"] = hit
        return hit

    def symbol_values(self, ctx, budget):
        """The setting class's values of the symbols, with those of the row's ``values`` hook (computed by code from
        the instance) added to the instance's parameters first."""
        if self.values_hook is not None:
            from .base import Context

            extra = self.VALUES[self.values_hook](self, ctx, budget)
            ctx = Context(params={**ctx.params, **extra}, budget=ctx.budget, instance_name=ctx.instance_name)
        return super().symbol_values(ctx, budget)

    def conditions(self, ctx):
        out = super().conditions(ctx)
        if self.check_hook is not None:
            out += self.CHECKS[self.check_hook](self, ctx)
        return out


def bound_tables(data: Any, origin: str) -> list:
    """The ``[[bound]]`` tables of a parsed TOML document (a plugin's file or a built-in table); PluginError if
    there is any other top-level key or none."""
    extra = sorted(set(data) - {"bound"})
    if extra:
        raise PluginError(origin, f"unknown top-level key(s) {', '.join(extra)}; bounds are [[bound]] tables")
    tables = data.get("bound")
    if not isinstance(tables, list) or not tables:
        raise PluginError(origin, "no [[bound]] table")
    return tables


def builtin_table(name: str) -> list[dict]:
    """The rows of boundcalc/bounds/``name`` (a TOML file of ``[[bound]]`` tables: the built-in bounds declared the way
    plugins are, issue 23 item 4), each checked for its keys: those of a plugin (:data:`REQUIRED`, :data:`OPTIONAL`;
    ``nonprivate`` and ``privacy_cost`` or an ``expression`` hook) and :data:`BUILTIN`. The setting module builds its
    bounds from the rows; the expressions are parsed by boundcalc.expressions when first needed (no sympy at import)."""
    import os
    import tomllib

    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), name)
    with open(path, "rb") as fh:
        rows = bound_tables(tomllib.load(fh), path)
    for row in rows:
        where = f"{path} [bound {row.get('id')!r}]"
        texts = {"nonprivate", "privacy_cost"}
        needed = set(REQUIRED) - (texts if "expression" in row else set())
        missing = sorted(needed - set(row))
        unknown = sorted(set(row) - set(REQUIRED) - set(OPTIONAL) - set(BUILTIN))
        if missing or unknown or ("expression" in row and texts & set(row)):
            raise ValueError(f"{where}: missing {missing}, unknown {unknown} (nonprivate/privacy_cost or expression)")
    return rows


def from_mapping(data: Any, origin: str) -> DeclaredBound:
    """A DeclaredBound from a mapping (one TOML ``[[bound]]`` table); unknown or missing keys are errors."""
    if not isinstance(data, dict):
        raise PluginError(origin, f"a bound must be a table of keys, got {type(data).__name__}")
    where = f"{origin} [bound {data.get('id')!r}]" if data.get("id") else origin
    missing = [k for k in REQUIRED if k not in data]
    if missing:
        raise PluginError(where, f"missing required key(s): {', '.join(missing)}")
    unknown = sorted(set(data) - set(REQUIRED) - set(OPTIONAL))
    if unknown:
        raise PluginError(where, f"unknown key(s): {', '.join(unknown)}; allowed: {', '.join(REQUIRED + OPTIONAL)}")
    return DeclaredBound(origin=origin, **data)
