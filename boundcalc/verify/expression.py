"""A restricted expression language for ``boundcalc check``: inequalities over the registered quantities.

The text is parsed with Python's ``ast`` module and then *walked against a whitelist* — it is never
evaluated as Python (no eval, no sympy parser on text). Allowed: numbers, box parameters, the constants
``pi``, ``+ − * / **``, unary minus, comparisons (``<, <=, >, >=, ==``, chains, ``and``) and calls
of the functions in :data:`FUNCTIONS`; ``bound("ID", T=..., rho=..., d=...)`` evaluates a registered bound.
Anything else (attributes, subscripts, lambdas, comprehensions, other names or calls) is a one-line
:class:`~boundcalc.errors.InputError`. The walk builds three evaluators from the same tree: numpy
(vectorised over the box grid), mpmath (the 50-digit re-check of a counterexample) and sympy (display).

A comparison ``a OP b`` becomes a normalised margin (b − a)/max(1, |a|, |b|) (≥ 0 where it holds; strict
comparisons are shifted so that equality counts as a violation), and the claim's :class:`Inequality`
evaluator does the rest: grid, candidates, re-check at 50 digits.

Size limits, checked before any work (one-line InputError naming the limit): MAX_LENGTH characters, MAX_NODES
nodes, MAX_DEPTH levels, MAX_VARIABLES parameters; every constant sub-expression is folded in floating point first
(so ``9**9**9`` is never built) and must be finite, real and at most MAX_CONSTANT in magnitude; constant exponents
(nested powers multiplying) at most MAX_EXPONENT; a constant outside a function's domain (``1/0``, ``log(0)``,
``sqrt(-1)``, ``(-8)**(1/3)``) is an error. The walk also records where each sqrt, log, log1p, real power and
denominator of a parameter is defined (:class:`DomainCondition`; boundcalc.verify.check reports the part of the
box outside), and every evaluator checks the clock (boundcalc.rigorous.deadline). The mpmath evaluator refuses
complex values (ValueError: undefined) and exponentials beyond MP_EXP_LIMIT (OverflowError: beyond its range).

The text is read by boundcalc.expressions (boundcalc's one parser of expression text: the syntax tree with the size
limits, exact literals), shared with the plugins' bound language and the claims' relations. The same walk also builds exact sympy expressions of both
sides of every comparison (decimal literals as exact rationals, ``bound(...)`` calls as named functions of their
keyword expressions): the rigorous prover (boundcalc.rigorous, via boundcalc.verify.check) encloses those,
and :func:`to_sympy` gives the sympy form of a single arithmetic expression.
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from .. import domains as _domains
from ..errors import InputError, ParamName
from .box import Param
from .functions import ALLOWED, CONSTANTS, FUNCTIONS, _bound_mp, _bound_values  # noqa: F401

MAX_LENGTH = 2000  # characters
MAX_DEPTH = 40  # nesting levels of the expression tree
MAX_NODES = 400  # nodes of the expression tree (numbers, names, operators, calls)
MAX_VARIABLES = 10  # box parameters (a grid of 2 points per axis has 2**10 points)
MAX_CONSTANT = 1.7976931348623157e308  # magnitude of any constant (literal or folded): the largest double
_BIG = f"made of constants at most {MAX_CONSTANT!r} in magnitude (the largest double)"
MAX_EXPONENT = 1000  # magnitude of a constant exponent (x**(10**8) is refused, 9**9**9 is never built)
MP_EXP_LIMIT = 1e300  # the 50-digit re-check refuses exp / powers of larger arguments (more than 350 digits of ln 2)
FLOAT_STRICT = 2e-12  # strict comparisons: equality (to float noise) counts as a violation
MP_STRICT = 2e-40


# ---------------------------------------------------------------------------------------------------
@dataclass
class Parsed:
    """A checked expression: its variables, and evaluators built from the AST."""

    text: str
    variables: tuple[str, ...]
    margin_np: Callable[..., np.ndarray]
    margin_mp: Callable[..., Any] | None
    sympy_text: str
    float_only: tuple[str, ...] = ()  # functions without an arbitrary-precision form
    bounds: tuple[str, ...] = field(default=())
    integers: tuple[str, ...] = ()  # parameters used as counts (integer grid values)
    no_enclosure: tuple[str, ...] = ()  # functions without an interval enclosure (the prover cannot use them)
    bound_calls: dict = field(default_factory=dict)  # "bound0" -> (bound id, keyword names, source text)
    exact: Callable[[], list] | None = None  # -> [(op, lhs, rhs)] exact sympy comparisons (op "<=", "<", ...)
    domain: tuple = ()  # DomainCondition: where each sqrt / log / log1p / real power / denominator is defined
    equalities: int = 0  # how many comparisons are "=="
    eq_rel_diff_mp: Callable[..., Any] | None = None  # largest relative |lhs - rhs| of the "==" pieces (mpmath)

    def comparisons(self) -> list:
        """The comparisons as exact sympy expressions [(op, lhs, rhs)], for the prover."""
        return self.exact()


LIMITS = {"characters": MAX_LENGTH, "depth": MAX_DEPTH, "nodes": MAX_NODES, "variables": MAX_VARIABLES,
          "constant": MAX_CONSTANT, "exponent": MAX_EXPONENT}


@dataclass
class DomainCondition:
    """Where a function of EXPR is defined: ``arg > 0`` (log), ``arg >= 0`` (sqrt, a real power), ``arg != 0``
    (a denominator). ``np(env)`` evaluates ``arg`` on arrays, ``exact()`` gives it as an exact sympy expression."""

    function: str  # "sqrt", "log", "log1p", "power", "division"
    kind: str  # ">=0", ">0", "!=0"
    source: str  # the argument as written
    np: Callable[..., Any]
    exact: Callable[[], Any]
    holds: str = ""  # the condition as written for a declared range ("x <= 1"; boundcalc.domains), else derived
    fails: str = ""

    def holds_text(self) -> str:
        if self.holds:
            return self.holds
        return {">=0": f"{self.source} >= 0", ">0": f"{self.source} > 0", "!=0": f"{self.source} != 0"}[self.kind]

    def fails_text(self) -> str:
        if self.fails:
            return self.fails
        return {">=0": f"{self.source} < 0", ">0": f"{self.source} <= 0", "!=0": f"{self.source} = 0"}[self.kind]


def _tick():
    from ..rigorous.deadline import tick

    tick()


def _real_mp(v):
    """An mpmath value of the 50-digit re-check must be real (sqrt(-1), log(-1), (-8)**(1/3) are undefined)."""
    import mpmath

    if isinstance(v, mpmath.mpc):
        if v.imag != 0:
            raise ValueError("not real at this point")
        return v.real
    return v


def _mp_pow(a, b):
    """a**b at 50 digits, refusing results that would need more than MP_EXP_LIMIT in the exponent (OverflowError:
    the re-check cannot be done there) and negative bases with non-integer exponents (ValueError: not real)."""
    import mpmath

    _tick()
    a, b = mpmath.mpf(a) if not isinstance(a, mpmath.mpc) else a, mpmath.mpf(b) if not isinstance(b, mpmath.mpc) else b
    if a < 0 and b != mpmath.floor(b):
        raise ValueError("a negative number to a non-integer power is not real")
    if a == 0:
        if b < 0:
            raise ZeroDivisionError("0 to a negative power")
        return mpmath.mpf(0) if b > 0 else mpmath.mpf(1)
    if not mpmath.isinf(a) and not mpmath.isinf(b) and abs(b * mpmath.log(abs(a))) > MP_EXP_LIMIT:
        raise OverflowError("beyond the range of the 50-digit re-check")
    return _real_mp(a**b)


def _const_text(node, text):
    return ast.get_source_segment(text, node) or ast.dump(node)[:40]


def _err(rule: str, node: ast.AST | None, text: str) -> InputError:
    """One-line error: 'expression must be <rule> (got <the offending piece>)'."""
    seg = ast.get_source_segment(text, node) if node is not None else None
    return InputError("expression", rule, seg if seg else None)


class _Builder:
    """Walks the AST against the whitelist and builds numpy / mpmath / sympy evaluators (closures)."""

    def __init__(self, text: str):
        self.text = text
        self.names: list[str] = []
        self.float_only: set[str] = set()
        self.bounds: set[str] = set()
        self.integers: set[str] = set()
        self.no_enclosure: set[str] = set()
        self.bound_calls: dict[str, tuple[str, tuple[str, ...], str]] = {}
        self.domain: list[DomainCondition] = []
        self._consts: dict[int, float | None] = {}

    # -- constants: folded in float before anything is built (no huge integer is ever made) -----------------
    def const(self, node) -> float | None:
        """The float value of a constant sub-expression (None if it depends on a parameter or is not folded).
        Refuses (one-line InputError) constants beyond MAX_CONSTANT, non-finite or non-real ones, division by
        zero and exponents beyond MAX_EXPONENT, before any sympy, numpy or mpmath work."""
        key = id(node)
        if key in self._consts:
            return self._consts[key]
        v = self._const(node)
        if v is not None:
            if isinstance(v, complex) or math.isnan(v):
                raise _err("real-valued (a constant here is not a real number)", node, self.text)
            if not math.isfinite(v) or abs(v) > MAX_CONSTANT:
                raise _err(_BIG, node, self.text)
        self._consts[key] = v
        return v

    def power_of(self, node) -> float:
        """The product of the constant exponents of the powers nested in ``node`` (1 without any): what its exact
        (sympy) form raises its literals to, bounded by MAX_EXPONENT so that no huge integer is ever built."""
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            e = self.const(node.right)
            return max(abs(e) if e is not None else 1.0, 1.0) * self.power_of(node.left)
        return max((self.power_of(c) for c in ast.iter_child_nodes(node)), default=1.0)

    def _const(self, node) -> float | None:
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
                return None
            if isinstance(node.value, int) and node.value.bit_length() > 1100:
                raise _err(_BIG, node, self.text)
            try:
                return float(node.value)
            except OverflowError:
                raise _err(_BIG, node, self.text) from None
        if isinstance(node, ast.Name):
            return CONSTANTS.get(node.id)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            v = self.const(node.operand)
            return None if v is None else (-v if isinstance(node.op, ast.USub) else v)
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.Pow):
                e = self.const(node.right)
                if e is not None and abs(e) * self.power_of(node.left) > MAX_EXPONENT:
                    raise _err(f"using exponents at most {MAX_EXPONENT} in magnitude (nested powers multiply)", node,
                               self.text)
                b = self.const(node.left)
                if b is None or e is None:
                    return None
                if b == 0 and e < 0:
                    raise _err("free of division by zero (0 to a negative power)", node, self.text)
                if b < 0 and not float(e).is_integer():
                    raise _err("real-valued (a negative number to a non-integer power is not real)", node, self.text)
                try:
                    return float(b) ** float(e)
                except OverflowError:
                    raise _err(_BIG, node, self.text) from None
            a, b = self.const(node.left), self.const(node.right)
            if a is None or b is None:
                return None
            if isinstance(node.op, ast.Div):
                if b == 0:
                    raise _err("free of division by zero", node, self.text)
                return a / b
            if isinstance(node.op, ast.Add):
                return a + b
            if isinstance(node.op, ast.Sub):
                return a - b
            if isinstance(node.op, ast.Mult):
                return a * b
            return None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
            elementary = {"log": math.log, "exp": math.exp, "sqrt": math.sqrt, "abs": abs, "log1p": math.log1p,
                          "expm1": math.expm1, "min": min, "max": max}
            fn = elementary.get(node.func.id)
            if fn is None:
                return None
            args = [self.const(a) for a in node.args]
            if any(a is None for a in args) or len(args) != len(FUNCTIONS[node.func.id].args):
                return None
            name = node.func.id
            if name == "sqrt" and args[0] < 0:
                raise _err("real-valued (sqrt of a negative constant is not real)", node, self.text)
            if name == "log" and args[0] <= 0:
                raise _err("finite and real (log of a constant <= 0)", node, self.text)
            if name == "log1p" and args[0] <= -1:
                raise _err("finite and real (log1p of a constant <= -1)", node, self.text)
            try:
                return float(fn(*args))
            except OverflowError:
                raise _err(_BIG, node, self.text) from None
        return None

    def _domain(self, function: str, kind: str, node, built) -> None:
        """Record where ``function`` is defined (its argument ``node``), unless the argument is a constant."""
        if self.const(node) is not None:
            return
        self.domain.append(DomainCondition(function, kind, _const_text(node, self.text), built[0], built[3]))

    def _ranges(self, function: str, declared, nodes, parts, label) -> None:
        """Record the declared range (boundcalc.domains) of each argument as domain conditions: ``x >= 0`` and
        ``x <= 1`` for a Bernoulli mean, ``epsilon > 0`` ... A constant argument outside its range is an error."""
        import sympy

        for (an, rng), node, part in zip(declared, nodes, parts):
            cv = self.const(node)
            if cv is not None:
                if not rng.admits(cv):
                    raise InputError(label(an), rng.allowed_text(), _const_text(node, self.text))
                continue
            src = _const_text(node, self.text)
            for side, bound, op in rng.conditions():
                b_exact = sympy.Rational(bound)
                bad = {">=": "<", ">": "<=", "<=": ">", "<": ">="}[op]
                if side == "lo":
                    npf = (lambda env, n=part[0], b=bound: n(env) - b)
                    exf = (lambda x=part[3], b=b_exact: x() - b)
                else:
                    npf = (lambda env, n=part[0], b=bound: b - n(env))
                    exf = (lambda x=part[3], b=b_exact: b - x())
                self.domain.append(DomainCondition(function, ">=0" if op in (">=", "<=") else ">0",
                                                   f"{src} {op} {bound:g}", npf, exf, holds=f"{src} {op} {bound:g}",
                                                   fails=f"{src} {bad} {bound:g}"))

    # each build returns (np_fn(env), mp_fn(env), display_sympy_fn(), exact_sympy_fn())
    def expr(self, node, depth=0):
        if depth > MAX_DEPTH:
            raise _err(f"nested at most {MAX_DEPTH} levels deep", node, self.text)
        cv = self.const(node)
        if cv is not None and not isinstance(node, (ast.Constant, ast.Name)):
            # a folded constant: one number (the exact form keeps the literals exactly when it is small)
            exact = (lambda: self._exact_const(node, cv))
            return (lambda env: cv), _mp_of_exact(exact, cv), (lambda: _sym_num(cv)), exact
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
                raise _err("made of numbers (a string only as a bound id)", node, self.text)
            v = float(node.value)
            if not math.isfinite(v):
                raise _err("made of finite numbers", node, self.text)
            src = ast.get_source_segment(self.text, node) or repr(v)
            lit = node.value
            return (lambda env: v), (lambda env: _mp_literal(src, lit)), (lambda: _sym_literal(src, v)), \
                (lambda: _exact_num(src, v))
        if isinstance(node, ast.Name):
            if node.id in CONSTANTS:
                v = CONSTANTS[node.id]
                return (lambda env: v), (lambda env: _mp_const(node.id)), (lambda: _sym_const(node.id)), \
                    (lambda: _sym_const(node.id))
            if node.id in FUNCTIONS or node.id == "bound":
                raise _err(f"calling '{node.id}' with arguments", node, self.text)
            if node.id.startswith("_"):
                raise _err("using only box parameters and pi as names", node, self.text)
            if node.id not in self.names:
                self.names.append(node.id)
            name = node.id
            return (lambda env: env[name]), (lambda env: env[name]), (lambda: _sym_var(name)), (lambda: _sym_var(name))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            n, m, s, x = self.expr(node.operand, depth + 1)
            sign = -1.0 if isinstance(node.op, ast.USub) else 1.0
            isign = -1 if sign < 0 else 1
            return (lambda env: sign * n(env)), (lambda env: sign * m(env)), (lambda: sign * s()), (lambda: isign * x())
        if isinstance(node, ast.BinOp):
            ops = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
                   ast.Div: lambda a, b: a / b, ast.Pow: lambda a, b: a**b}
            op = ops.get(type(node.op))
            if op is None:
                raise _err("using only the operators + - * / **", node, self.text)
            left = self.expr(node.left, depth + 1)
            right = self.expr(node.right, depth + 1)
            ln, lm, ls, lx = left
            rn, rm, rs, rx = right
            mop = op
            if isinstance(node.op, ast.Div):
                if self.const(node.right) == 0:
                    raise _err("free of division by zero", node, self.text)
                self._domain("division", "!=0", node.right, right)
            elif isinstance(node.op, ast.Pow):
                e = self.const(node.right)
                mop = _mp_pow
                if e is None or not float(e).is_integer():
                    self._domain("power", ">0" if (e is None or e < 0) else ">=0", node.left, left)
                elif e < 0:
                    self._domain("power", "!=0", node.left, left)

            def np_fn(env):
                _tick()
                return op(ln(env), rn(env))

            def mp_fn(env):
                _tick()
                return _real_mp(mop(lm(env), rm(env)))

            return np_fn, mp_fn, (lambda: op(ls(), rs())), (lambda: op(lx(), rx()))
        if isinstance(node, ast.Call):
            return self.call(node, depth)
        kind = {ast.Attribute: "attribute access", ast.Subscript: "subscripts", ast.Lambda: "lambda",
                ast.ListComp: "comprehensions", ast.SetComp: "comprehensions", ast.DictComp: "comprehensions",
                ast.GeneratorExp: "comprehensions", ast.Compare: "a comparison inside an expression"}.get(type(node))
        raise _err(f"free of {kind or type(node).__name__}", node, self.text)

    def call(self, node: ast.Call, depth):
        if not isinstance(node.func, ast.Name):
            raise _err("calling only " + ", ".join(sorted(FUNCTIONS)) + ", bound", node, self.text)
        fname = node.func.id
        if fname == "bound":
            return self.bound_call(node, depth)
        if fname not in FUNCTIONS:
            raise _err("calling only " + ", ".join(sorted(FUNCTIONS)) + ", bound", node.func, self.text)
        fn = FUNCTIONS[fname]
        if node.keywords or len(node.args) != len(fn.args):
            raise _err(f"calling {fname}({', '.join(fn.args)})", node, self.text)
        parts = [self.expr(a, depth + 1) for a in node.args]
        declared = _domains.quantity_args(fname)  # kl, tv, d_eps, kl_inf: a domain condition as for sqrt and log
        self._ranges(fname, declared, node.args, parts, lambda an: f"{fname}() argument {an}")
        kinds = {"sqrt": ">=0", "log": ">0"}
        if fname in kinds:
            self._domain(fname, kinds[fname], node.args[0], parts[0])
        elif fname == "log1p" and self.const(node.args[0]) is None:
            one = self._plus_one(parts[0])
            self.domain.append(DomainCondition("log1p", ">0", _const_text(node.args[0], self.text) + " + 1", one[0],
                                               one[3]))
        for an, a in zip(fn.args, node.args):
            if an in fn.integer_args and isinstance(a, ast.Name):
                self.integers.add(a.id)
        if fn.mp is None:
            self.float_only.add(fname)
        if fn.exact is None:
            self.no_enclosure.add(fname)

        def np_fn(env):
            _tick()
            vals = [p[0](env) for p in parts]
            vals, outside = _mask_outside(vals, declared)
            try:
                with np.errstate(all="ignore"):
                    out = fn.np(*vals)
            except InputError as exc:
                raise InputError(f"{fname}() argument {exc.parameter}", exc.allowed, exc.got) from None
            return out if outside is None else np.where(outside, np.nan, out)  # undefined there, as sqrt(-1)

        def mp_fn(env):
            _tick()
            vals = [_real_mp(p[1](env)) for p in parts]
            for (an, rng), v in zip(declared, vals):
                if not rng.admits(v):  # at 50 digits (1 + 1e-30 is outside [0, 1])
                    raise ValueError(f"{fname}() argument {an} outside its domain ({rng.allowed_text()})")
            if fname in ("exp", "expm1") and abs(vals[0]) > MP_EXP_LIMIT:
                raise OverflowError("beyond the range of the 50-digit re-check")
            if (fname == "log" and vals[0] <= 0) or (fname == "log1p" and vals[0] <= -1):
                raise ValueError(f"{fname} outside its domain at this point")  # mpmath's log(0) = -inf is no value
            if fn.mp is None:
                return _mpf(float(np.asarray(fn.np(*[float(v) for v in vals])).reshape(-1)[0]))
            return _real_mp(fn.mp(*vals))

        def sym_fn():
            import sympy

            return sympy.Function(fname)(*[p[2]() for p in parts])

        def exact_fn():
            if fn.exact is None:
                import sympy

                return sympy.Function(fname)(*[p[3]() for p in parts])  # no interval rule: the prover refuses it
            return fn.exact(*[p[3]() for p in parts])

        return np_fn, mp_fn, sym_fn, exact_fn

    def _plus_one(self, part):
        n, m, sy, x = part
        return (lambda env: n(env) + 1.0), (lambda env: m(env) + 1), (lambda: sy() + 1), (lambda: x() + 1)

    def _exact_const(self, node, cv):
        """The exact sympy value of a folded constant sub-expression (literals as exact rationals)."""
        if isinstance(node, ast.Constant):
            src = ast.get_source_segment(self.text, node) or repr(float(node.value))
            return _exact_num(src, float(node.value))
        if isinstance(node, ast.Name):
            return _sym_const(node.id)
        if isinstance(node, ast.UnaryOp):
            v = self._exact_const(node.operand, None)
            return -v if isinstance(node.op, ast.USub) else v
        if isinstance(node, ast.BinOp):
            a, b = self._exact_const(node.left, None), self._exact_const(node.right, None)
            return {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b, ast.Div: lambda: a / b,
                    ast.Pow: lambda: a**b}[type(node.op)]()
        if isinstance(node, ast.Call):
            return _exact_fn(node.func.id)(*[self._exact_const(a, None) for a in node.args])
        return _exact_num(repr(cv), cv)

    def bound_call(self, node: ast.Call, depth):
        from ..bounds import registry

        if len(node.args) != 1 or not isinstance(node.args[0], ast.Constant) or not isinstance(node.args[0].value, str):
            raise _err("calling bound with the id as a string, then keywords: bound(\"003-thm9\", T=T, rho=rho)", node, self.text)
        b = registry.get(node.args[0].value)
        self.bounds.add(b.id)
        kws = {}
        for k in node.keywords:
            if k.arg is None:
                raise _err("calling bound with keyword arguments only", node, self.text)
            kws[k.arg] = self.expr(k.value, depth + 1)
            if k.arg in ("d", "K") and isinstance(k.value, ast.Name):
                self.integers.add(k.value.id)
        if "T" not in kws:
            raise _err("calling bound with a horizon T=...", node, self.text)
        bid = b.id

        declared = [(k, _domains.keyword_range(k)) for k in kws if _domains.keyword_range(k) is not None]
        kw_nodes = {k.arg: k.value for k in node.keywords}
        for k, rng in declared:
            self._ranges(f"keyword {k} of {b.id}", [(k, rng)], [kw_nodes[k]], [kws[k]],
                         lambda an: f"bound() keyword {an}")

        def np_fn(env):
            vals = {k: np.asarray(v[0](env), dtype=float) for k, v in kws.items()}
            keys = list(vals)
            arrs, outside = _mask_outside([vals[k] for k in keys],
                                          [(k, _domains.keyword_range(k)) for k in keys])
            out = _bound_values(bid, dict(zip(keys, [np.asarray(a, dtype=float) for a in arrs])))
            return out if outside is None else np.where(outside, np.nan, out)

        def mp_fn(env):
            vals = {k: v[1](env) for k, v in kws.items()}
            for k, v in vals.items():
                rng = _domains.keyword_range(k)
                if rng is not None and not rng.admits(v):
                    raise ValueError(f"bound() keyword {k} outside its domain ({rng.allowed_text()})")
            return _bound_mp(bid, vals)

        seg = ast.get_source_segment(self.text, node) or f"bound({bid!r}, ...)"
        fname = f"bound{len(self.bound_calls)}"  # one sympy function per call site: bound0(T, rho, ...)
        keys = tuple(sorted(kws))
        self.bound_calls[fname] = (bid, keys, seg)

        def sym_fn():
            import sympy

            return sympy.Symbol(seg)

        def exact_fn():
            import sympy

            return sympy.Function(fname)(*[kws[k][3]() for k in keys])

        return np_fn, mp_fn, sym_fn, exact_fn


def _mask_outside(vals, declared):
    """(values, mask): the points where an argument with a declared Range (boundcalc.domains) lies outside it (NaN
    included) get an inside value before a vectorised call, and the mask says where (None: nowhere). The caller
    makes the result NaN there (undefined, as sqrt of a negative number)."""
    pairs = [(i, rng) for i, (_, rng) in enumerate(declared) if rng is not None]
    if not pairs:
        return vals, None
    arrs = np.broadcast_arrays(*[np.asarray(v, dtype=float) for v in vals])
    bad = np.zeros(arrs[0].shape, dtype=bool)
    for i, rng in pairs:
        bad |= ~rng.admits_array(arrs[i])
    if not bad.any():
        return vals, None
    arrs = [np.where(bad, declared[i][1].inside(), a) if declared[i][1] is not None else a
            for i, a in enumerate(arrs)]
    return arrs, bad


def _mpf(v):
    import mpmath

    return mpmath.mpf(v)


def _mp_literal(src: str, value):
    """A literal at the working mpmath precision from the text as written (0.1 is 1/10 rounded at 50 digits, not
    the double nearest 0.1): the 50-digit re-check evaluates the expression as written, as the prover does."""
    import mpmath

    if isinstance(value, int):
        return mpmath.mpf(value)
    try:
        return mpmath.mpf(src.replace("_", ""))
    except (TypeError, ValueError):
        return mpmath.mpf(value)


def _mp_of_exact(exact, cv):
    """The mpmath evaluator of a folded constant sub-expression (``0.3 - 0.2``): its exact sympy value (literals
    as exact rationals) at the working precision plus 10 digits, cached per precision; the float fold ``cv``
    (0.09999999999999998) only if sympy cannot evaluate it."""
    cache: dict = {}

    def mp_fn(env):
        import mpmath

        key = mpmath.mp.prec
        if key not in cache:
            try:
                import sympy

                x = sympy.N(exact(), mpmath.mp.dps + 10)
                if not x.is_real or not x.is_finite:
                    raise ValueError("not a finite real")
                cache[key] = mpmath.mpf(x._mpf_) if isinstance(x, sympy.Float) else mpmath.mpf(sympy.Float(x, mpmath.mp.dps + 10)._mpf_)
            except Exception:  # noqa: BLE001 - the float fold is still a value (the old behaviour)
                cache[key] = mpmath.mpf(cv)
        return +cache[key]

    return mp_fn


def _mp_const(name):
    import mpmath

    return mpmath.pi if name == "pi" else mpmath.e


def _sym_num(v):
    import sympy

    return sympy.Float(v) if v != int(v) else sympy.Integer(int(v))


def _sym_literal(src: str, v: float):
    """The displayed literal: the double's short form (``_sym_num``) when it is the literal exactly as written,
    else the literal with all its digits (0.1000000000000000000001 is not shown as 0.1)."""
    import sympy

    exact = _exact_num(src, v)
    if exact == sympy.Rational(repr(float(v))):
        return _sym_num(v) if float(f"{v:.15g}") == v else sympy.Float(repr(float(v)), 17)
    digits = sum(ch.isdigit() for ch in src.lower().split("e")[0].lstrip("0.") or "0")
    return sympy.Float(src.replace("_", ""), max(15, digits + 1))


def _exact_num(src: str, v: float):
    """The literal exactly as written (0.1 is 1/10, not the nearest double): what the prover encloses."""
    from ..expressions import exact_number

    return exact_number(src, v)


def _exact_fn(name):
    return FUNCTIONS[name].exact


def _sym_const(name):
    import sympy

    return sympy.pi if name == "pi" else sympy.E


def _sym_var(name):
    import sympy

    return sympy.Symbol(name)


# ---------------------------------------------------------------------------------------------------
def _parse_tree(text: str, rule: str):
    """The syntax tree of ``text`` by boundcalc.expressions.parse_tree (the one parser), with check's size limits
    (nesting depth, number of nodes) checked iteratively before any walk; worded as check's InputErrors."""
    from ..expressions import ExpressionError, parse_tree

    try:
        return parse_tree(text, max_depth=MAX_DEPTH, max_nodes=MAX_NODES)
    except ExpressionError as exc:
        if exc.kind == "syntax":
            raise InputError("expression", rule, f"syntax error at column {exc.offset}") from None
        if exc.kind == "nodes":
            raise InputError("expression", f"at most {MAX_NODES} numbers, names, operators and calls",
                             "a larger expression") from None
        raise InputError("expression", f"nested at most {MAX_DEPTH} levels deep", "a deeper expression") from None


def parse(text: str) -> Parsed:
    """Parse and check ``text`` (a comparison, a chain of them, or an ``and`` of comparisons)."""
    if not isinstance(text, str) or not text.strip():
        raise InputError("expression", "a non-empty inequality, e.g. \"d_eps(x, y, epsilon) <= kl(x, y)\"", text)
    if len(text) > MAX_LENGTH:
        raise InputError("expression", f"at most {MAX_LENGTH} characters", f"{len(text)} characters")
    tree = _parse_tree(text, "valid syntax (a comparison of arithmetic expressions)")
    text = text.strip()
    body = tree.body
    comps = body.values if isinstance(body, ast.BoolOp) and isinstance(body.op, ast.And) else [body]
    b = _Builder(text)
    _count_variables(tree, text)
    pieces = []
    for c in comps:
        if not isinstance(c, ast.Compare):
            raise _err("a comparison (<, <=, >, >=, ==), a chain of them or an 'and' of them", c, text)
        terms = [c.left] + list(c.comparators)
        built = [b.expr(t) for t in terms]
        for i, op in enumerate(c.ops):
            if not isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq)):
                raise _err("comparing with <, <=, >, >= or == only", c, text)
            pieces.append((type(op), built[i], built[i + 1]))

    def margin_np(**env):
        out = None
        for op, (ln, *_), (rn, *_) in pieces:
            a, bb = np.asarray(ln(env), dtype=float), np.asarray(rn(env), dtype=float)
            m = _margin(op, a, bb, np.abs, np.maximum, FLOAT_STRICT, 1e-9)
            out = m if out is None else np.minimum(out, m)
        return out

    def margin_mp(strict_shift=MP_STRICT, /, **env):  # margin_mp(0, **pt): the margin without the strict shift
        import mpmath

        out = None
        for op, (_, lm, *_), (_, rm, *_) in pieces:
            a, bb = lm(env), rm(env)
            if mpmath.isnan(a) or mpmath.isnan(bb):
                raise ValueError("undefined at this point")
            m = _margin(op, a, bb, abs, max, strict_shift, 1e-30)
            out = m if out is None else min(out, m)
        return out

    def eq_rel_diff_mp(**env):
        """max over the "==" pieces of |rhs - lhs| / max(1, |lhs|, |rhs|) at the current mpmath precision."""
        out = None
        for op, (_, lm, *_), (_, rm, *_) in pieces:
            if op is not ast.Eq:
                continue
            a, bb = lm(env), rm(env)
            if mpmath_isnan(a) or mpmath_isnan(bb):
                raise ValueError("undefined at this point")
            if a == bb:
                d = 0
            else:
                scale = max(abs(a), abs(bb), 1)
                d = abs(bb - a) / scale if not _mp_isinf(scale) else 1
            out = d if out is None else max(out, d)
        return out

    def sym_text():
        import sympy

        rel = {ast.Lt: sympy.Lt, ast.LtE: sympy.Le, ast.Gt: sympy.Gt, ast.GtE: sympy.Ge, ast.Eq: sympy.Eq}
        return " ∧ ".join(sympy.sstr(rel[op](l[2](), r[2](), evaluate=False)) for op, l, r in pieces)

    def exact():
        ops = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "=="}
        return [(ops[op], l[3](), r[3]()) for op, l, r in pieces]

    try:
        stext = sym_text()
    except Exception:  # noqa: BLE001 - display only
        stext = text
    return Parsed(text=text, variables=tuple(b.names), margin_np=margin_np, margin_mp=margin_mp, sympy_text=stext,
                  float_only=tuple(sorted(b.float_only)), bounds=tuple(sorted(b.bounds)),
                  integers=tuple(sorted(b.integers)), no_enclosure=tuple(sorted(b.no_enclosure)),
                  bound_calls=dict(b.bound_calls), exact=exact, domain=tuple(b.domain),
                  equalities=sum(op is ast.Eq for op, _, _ in pieces), eq_rel_diff_mp=eq_rel_diff_mp)


def _count_variables(tree, text):
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} - set(FUNCTIONS) - set(CONSTANTS) - {"bound"}
    if len(names) > MAX_VARIABLES:
        raise InputError("expression", f"at most {MAX_VARIABLES} box parameters", f"{len(names)} parameters")


def mpmath_isnan(v):
    import mpmath

    return mpmath.isnan(v)


def _mp_isinf(v):
    import mpmath

    return mpmath.isinf(v)


def to_sympy(text: str):
    """The exact sympy form of one arithmetic expression written in the same restricted language (no
    comparison), e.g. ``to_sympy("d_eps(x, y, epsilon) - kl(x, y)")``: the whitelist walk, never ``eval``."""
    if not isinstance(text, str) or not text.strip():
        raise InputError("expression", "a non-empty arithmetic expression", text)
    if len(text) > MAX_LENGTH:
        raise InputError("expression", f"at most {MAX_LENGTH} characters", f"{len(text)} characters")
    tree = _parse_tree(text, "valid syntax (an arithmetic expression)")
    b = _Builder(text.strip())
    node = b.expr(tree.body)
    if b.bound_calls:
        raise InputError("expression", "free of bound(...) calls here (use boundcalc check)", text)
    return node[3]()


def _margin(op, a, b, abs_, max_, strict_shift, eq_tol):
    """Normalised margin (≥ 0 where ``a op b`` holds); strict comparisons are shifted so equality fails; ``==``
    holds to the relative tolerance ``eq_tol`` (1e-9 in float, 1e-30 at 50 digits). An infinite side (kl at the
    boundary) gives ±1 (or NaN for ∞ − ∞: undefined)."""
    scale = max_(max_(abs_(a), abs_(b)), 1.0)
    if op in (ast.LtE, ast.Lt, ast.Eq):
        diff = b - a
    else:
        diff = a - b
    if isinstance(scale, np.ndarray) or isinstance(diff, np.ndarray):
        with np.errstate(invalid="ignore"):
            m = np.where(np.isinf(scale), np.sign(diff), diff / np.where(np.isinf(scale), 1.0, scale))
    else:
        import mpmath

        m = (mpmath.sign(diff) if mpmath.isinf(scale) else diff / scale)
    if op is ast.Eq:
        return eq_tol - abs_(m)
    return m - strict_shift if op in (ast.Lt, ast.Gt) else m


def domain_of(p: Parsed, box: str | None):
    """The Domain of ``box`` over the expression's variables (every variable needs a range)."""
    from .box import Domain, parse_box

    if not p.variables:
        raise InputError("expression", "at least one box parameter (a name that is not a function or constant)", p.text)
    c = _domains.COUNT  # a count (n, m, d, K) >= 1: the declared range
    count = (c.lo, c.hi, c.lo_open, c.hi_open)
    params = [Param(v, 1.0, 1.0, count, integer=True) if v in p.integers else Param(v, 0.0, 0.0)
              for v in p.variables]
    if box is None:
        raise InputError(ParamName("box"), f"a range for every parameter of the expression ({', '.join(p.variables)})", None)
    rng = parse_box(box, params, owner="the expression")
    missing = [v for v in p.variables if v not in rng]
    if missing:
        raise InputError(ParamName("box"), f"a range for every parameter of the expression (missing: {', '.join(missing)})", box)
    return Domain.of(params, rng)


def grid(p: Parsed, dom, points: int = 4096):
    """The sampled evaluation: the claim's :class:`Inequality` evaluator on a grid of about ``points`` points."""
    from .claims.evaluators import Inequality

    ineq = Inequality(p.variables, p.margin_np, p.margin_mp, text=p.text, points=points, mp_tol=1e-40)
    return ineq.evaluate(dom)


def check(text: str, box: str | None, points: int = 4096):
    """The grid evaluation of ``boundcalc check --method grid``: parse ``text``, lay a grid on ``box`` over its
    variables and evaluate (boundcalc.verify.check runs the proof first).

    Returns (Result of the Inequality evaluator, Parsed, Domain)."""
    p = parse(text)
    dom = domain_of(p, box)
    return grid(p, dom, points), p, dom
