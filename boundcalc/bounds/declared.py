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
:data:`FUNCTIONS`. The text is first walked with Python's ``ast`` against a whitelist (numbers, names, ``+ - * /
**``, unary minus, calls of whitelisted functions, and comparisons in assumptions only), then built with sympy's
parser with no builtins. Anything else is a :class:`PluginError` (an InputError: one line, exit 2) naming the plugin
and the offending symbol.

At construction the expression is checked to be real and finite at a few points inside the assumptions' domain
(:meth:`DeclaredBound.validate`); a bound that is not is rejected with one error naming the plugin and the problem.

The formula of a declared bound is its declaring paper's (the ``source`` field); this module adds none.
"""

from __future__ import annotations

import ast
import itertools
import math
from typing import Any, Iterable

import numpy as np

from ..errors import InputError, PluginError  # noqa: F401  (PluginError re-exported for plugins written against it)
from .base import FORMS, KINDS, NOTIONS, SETTINGS, Bound, check_metadata

# Instance parameters of each setting a declared bound may use, and the budget symbols of each notion: declared
# once, with their meanings, in boundcalc.bounds.symbols (``bounds show`` prints the same table for a plugin).
from .symbols import BUDGET_SYMBOLS, INSTANCE_SYMBOLS  # noqa: E402

_BUDGET_ATTR = {"epsilon": "epsilon", "rho": "rho", "alpha": "alpha", "delta_dp": "delta"}
# Where the load-time check evaluates a declared expression (natural ranges of the symbols; others 0.05, 0.5, 1).
CHECK_GRID = {
    "T": (2.0, 1e3, 1e9), "K": (2.0, 10.0, 1e3), "d": (1.0, 3.0, 50.0), "delta": (1e-3, 0.1),
    "Delta_min": (0.01, 0.5), "Delta_max": (0.1, 1.0), "mu_star": (0.5, 0.9), "n_best": (1.0,),
    "rho": (1e-3, 0.1, 10.0), "epsilon": (0.01, 1.0, 10.0), "alpha": (1.5, 2.0, 10.0), "delta_dp": (1e-6, 0.01),
}
FUNCTIONS = ("log", "sqrt", "exp", "min", "max", "ceiling", "floor")
CONSTANTS = ("pi", "E")
REQUIRED = ("id", "title", "source", "setting", "notion", "kind", "nonprivate", "privacy_cost")
OPTIONAL = ("form", "assumptions", "caveats", "algorithm", "combination", "regime_note")


def setting_symbols(setting: str, notion: str) -> tuple[str, ...]:
    """The symbols a declared bound of ``setting`` and ``notion`` may use: T, instance parameters, budget."""
    return ("T",) + INSTANCE_SYMBOLS[setting] + BUDGET_SYMBOLS[notion]


def _sympy_namespace(names: Iterable[str]) -> dict:
    import sympy

    ns: dict[str, Any] = {n: sympy.Symbol(n, real=True) for n in names}
    ns.update(log=sympy.log, sqrt=sympy.sqrt, exp=sympy.exp, min=sympy.Min, max=sympy.Max,
              ceiling=sympy.ceiling, floor=sympy.floor, pi=sympy.pi, E=sympy.E)
    return ns


_ALLOWED_NODES = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow,
                  ast.USub, ast.UAdd, ast.Constant, ast.Name, ast.Load, ast.Call)
_COMPARE_NODES = (ast.Compare, ast.Lt, ast.LtE, ast.Gt, ast.GtE)


def parse(text: Any, allowed: tuple[str, ...], origin: str, what: str, relation: bool = False):
    """Parse ``text`` (an expression, or a relation when ``relation``) over ``allowed`` symbols; PluginError else."""
    import sympy

    if not isinstance(text, str) or not text.strip():
        raise PluginError(origin, f"{what} must be a non-empty string (got {text!r})")
    if len(text) > 2000:
        raise PluginError(origin, f"{what} is longer than 2000 characters")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        raise PluginError(origin, f"{what} is not a valid expression: {text!r} ({exc.msg})") from None
    ok_nodes = _ALLOWED_NODES + (_COMPARE_NODES if relation else ())
    for node in ast.walk(tree):
        if not isinstance(node, ok_nodes):
            extra = " (use ** for powers)" if isinstance(node, ast.BitXor) else ""
            raise PluginError(origin, f"{what}: {type(node).__name__} is not allowed in {text!r}{extra}")
        if isinstance(node, ast.Constant) and (isinstance(node.value, bool) or not isinstance(node.value, (int, float))):
            raise PluginError(origin, f"{what}: only numbers are allowed as constants, got {node.value!r}")
        if isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS or node.keywords:
                name = node.func.id if isinstance(node.func, ast.Name) else ast.unparse(node.func)
                raise PluginError(origin, f"{what}: unknown function {name!r}; allowed: {', '.join(FUNCTIONS)}")
        elif isinstance(node, ast.Name) and node.id not in allowed and node.id not in CONSTANTS and not any(
                isinstance(c, ast.Call) and c.func is node for c in ast.walk(tree)):
            raise PluginError(origin, f"{what}: unknown symbol {node.id!r}; allowed: {', '.join(allowed)}")
        if isinstance(node, ast.Compare) and len(node.ops) != 1:
            raise PluginError(origin, f"{what}: one comparison per assumption, got {text!r}")
    if relation and not isinstance(tree.body, ast.Compare):
        raise PluginError(origin, f"{what} must be a relation such as 'rho > 0' (got {text!r})")
    ns = _sympy_namespace(allowed)
    try:
        out = _build(tree.body, ns)
    except Exception as exc:  # noqa: BLE001 - any sympy failure is the plugin's problem
        raise PluginError(origin, f"{what}: cannot build {text!r} ({type(exc).__name__}: {exc})") from None
    if out.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo):
        raise PluginError(origin, f"{what}: {text!r} is undefined or infinite as written ({out})")
    if relation and not isinstance(out, sympy.core.relational.Relational):
        raise PluginError(origin, f"{what} is a constant ({out}), not a relation over the symbols")
    return out


MAX_EXPONENT = 1000  # as check's parser: 9**9**9 is never built
_BINOPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
           ast.Div: lambda a, b: a / b, ast.Pow: lambda a, b: a ** b}


def _build(node, ns):
    """The sympy expression of an already whitelisted AST (no text parser: decimals become exact rationals)."""
    import sympy

    if isinstance(node, ast.Constant):
        v = node.value
        return sympy.Integer(v) if isinstance(v, int) else sympy.Rational(repr(v))
    if isinstance(node, ast.Name):
        return ns[node.id]
    if isinstance(node, ast.UnaryOp):
        a = _build(node.operand, ns)
        return -a if isinstance(node.op, ast.USub) else a
    if isinstance(node, ast.BinOp):
        a, b = _build(node.left, ns), _build(node.right, ns)
        if isinstance(node.op, ast.Pow) and b.is_Number and abs(b) > MAX_EXPONENT:
            raise ValueError(f"a constant exponent beyond {MAX_EXPONENT} in magnitude")
        return _BINOPS[type(node.op)](a, b)
    if isinstance(node, ast.Call):
        return ns[node.func.id](*[_build(a, ns) for a in node.args])
    if isinstance(node, ast.Compare):
        rel = {ast.Lt: sympy.Lt, ast.LtE: sympy.Le, ast.Gt: sympy.Gt, ast.GtE: sympy.Ge}[type(node.ops[0])]
        return rel(_build(node.left, ns), _build(node.comparators[0], ns))
    raise TypeError(type(node).__name__)


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
