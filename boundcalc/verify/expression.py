"""A restricted expression language for ``boundcalc check``: inequalities over the registered quantities.

The text is parsed with Python's ``ast`` module and then *walked against a whitelist* — it is never
evaluated as Python (no ``eval``, no ``sympy.parse_expr``). Allowed: numbers, box parameters, the constants
``pi``, ``+ − * / **``, unary minus, comparisons (``<, <=, >, >=, ==``, chains, ``and``) and calls
of the functions in :data:`FUNCTIONS`; ``bound("ID", T=..., rho=..., d=...)`` evaluates a registered bound.
Anything else (attributes, subscripts, lambdas, comprehensions, other names or calls) is a one-line
:class:`~boundcalc.errors.InputError`. The walk builds three evaluators from the same tree: numpy
(vectorised over the box grid), mpmath (the 50-digit re-check of a counterexample) and sympy (display).

A comparison ``a OP b`` becomes a normalised margin (b − a)/max(1, |a|, |b|) (≥ 0 where it holds; strict
comparisons are shifted so that equality counts as a violation), and the claim's :class:`Inequality`
evaluator does the rest: grid, candidates, re-check at 50 digits.
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from ..errors import InputError
from .box import Param

MAX_LENGTH = 2000
MAX_DEPTH = 40
FLOAT_STRICT = 2e-12  # strict comparisons: equality (to float noise) counts as a violation
MP_STRICT = 2e-40
BUDGET_KEYS = ("epsilon", "delta", "rho", "alpha", "rdp_epsilon", "ldp_epsilon", "ldp_delta")


# ---------------------------------------------------------------------------------------------------
# the whitelist of functions: name -> (numpy implementation, mpmath implementation or None, arg names, doc)
def _np_info(name):
    def f(*args):
        from .. import info

        return np.asarray(getattr(info, name)(*args), dtype=float)

    return f


def _mp_info(name):
    def f(*args):
        from .. import info

        return getattr(info, name)(*args)

    return f


def _pointwise(fn):
    """Vectorise a scalar-only function over broadcast arrays."""

    def f(*args):
        b = np.broadcast_arrays(*[np.asarray(a, dtype=float) for a in args])
        out = np.empty(b[0].shape)
        for idx in np.ndindex(out.shape):
            out[idx] = fn(*(float(a[idx]) for a in b))
        return out

    return f


def _laplace_tail(x, m, eps):
    from ..concentration.laplace_sum import laplace_sum_logsf

    return float(np.exp(laplace_sum_logsf(x, int(m), eps)))


def _laplace_tail_mp(x, m, eps):
    from .claims.info import _laplace_exact_mp

    return _laplace_exact_mp(x, int(m), eps)


def _laplace_chernoff(x, m, eps):
    from ..concentration import laplace_sum_chernoff

    return float(laplace_sum_chernoff(x, m, eps).value)


def _laplace_chernoff_mp(x, m, eps):
    import mpmath

    if x <= 0:
        return mpmath.mpf(1)
    lam = (mpmath.sqrt(m**2 + eps**2 * x**2) - m) / x
    return mpmath.exp(-lam * x) * (1 - lam**2 / eps**2) ** (-m)


def _binom_tail(n, p, x):
    from ..concentration.exact import binomial_tail_exact

    return float(binomial_tail_exact(int(n), p, x).value)


def _binom_tail_mp(n, p, x):
    import mpmath

    n = int(n)
    return mpmath.fsum(mpmath.binomial(n, k) * p**k * (1 - p) ** (n - k) for k in range(0, int(mpmath.floor(n * x)) + 1))


def _chernoff(n, p, x):
    from ..concentration import chernoff

    return float(chernoff.chernoff_kl(int(n), p, x).value)


def _private_tail(n, m, eps, mu, x):
    from ..concentration.exact import private_tail_exact

    return float(private_tail_exact(int(n), int(m), eps, mu, x).value)


def _private(which):
    def f(n, m, eps, mu, x):
        from ..concentration import private_sum as ps

        fn = {"c0": ps.private_tail_c0, "c1": ps.private_tail_c1_best, "c2": ps.private_tail_c2,
              "c3": ps.private_tail_c3}[which]
        return float(fn(int(n), int(m), eps, mu, x).value)

    return f


def _private_c2_mp(n, m, eps, mu, x):
    from ..concentration.mp import private_tail_c2_mp

    return private_tail_c2_mp(int(n), int(m), eps, mu, x)


def _mp_math(name):
    def f(*a):
        import mpmath

        return {"log": mpmath.log, "exp": mpmath.exp, "sqrt": mpmath.sqrt, "abs": mpmath.fabs, "log1p": mpmath.log1p,
                "expm1": mpmath.expm1, "min": min, "max": max}[name](*a)

    return f


@dataclass(frozen=True)
class Function:
    np: Callable
    mp: Callable | None
    args: tuple[str, ...]
    doc: str

    @property
    def integer_args(self) -> tuple[str, ...]:
        return tuple(a for a in self.args if a in ("m", "n"))


FUNCTIONS: dict[str, Function] = {
    "kl": Function(_np_info("kl_bernoulli"), _mp_info("kl_bernoulli_mp"), ("x", "y"), "Bernoulli KL kl(x, y) (seed 001 §2)"),
    "tv": Function(_np_info("tv_bernoulli"), _mp_info("tv_bernoulli_mp"), ("x", "y"), "TV(Ber(x), Ber(y)) = |x − y|"),
    "kl_inf": Function(_np_info("kl_inf_bernoulli"), _mp_info("kl_inf_bernoulli_mp"), ("mu", "mu_star"),
                       "KL_inf for Bernoulli arms (= kl(μ, μ*), seed 001 Eq. 3)"),
    "d_eps": Function(_np_info("d_epsilon"), _mp_info("d_epsilon_mp"), ("x", "y", "epsilon"),
                      "d_ε(x, y) (seed 001 Eq. 6 / Eq. 8)"),
    "kl_gauss": Function(_np_info("kl_gaussian"), _mp_info("kl_gaussian_mp"), ("mu1", "mu2"),
                         "KL(N(μ1, 1), N(μ2, 1)) = (μ1 − μ2)²/2"),
    "laplace_tail": Function(_pointwise(_laplace_tail), _laplace_tail_mp, ("x", "m", "epsilon"),
                             "exact P(L_m ≥ x), L_m a sum of m Lap(1/ε) (seed 001 Lemma D.1 setting)"),
    "laplace_chernoff": Function(_pointwise(_laplace_chernoff), _laplace_chernoff_mp, ("x", "m", "epsilon"),
                                 "Chernoff bound on P(L_m ≥ x) (seed 001 Lemma D.1)"),
    "binom_tail": Function(_pointwise(_binom_tail), _binom_tail_mp, ("n", "p", "x"), "exact P(Bin(n, p) ≤ nx)"),
    "chernoff": Function(_pointwise(_chernoff), None, ("n", "p", "x"), "exp(−n kl(x, p)) (seed 001 Lemma H.6, lower tail)"),
    "private_tail": Function(_pointwise(_private_tail), None, ("n", "m", "epsilon", "mu", "x"),
                             "exact P(S_n + L_m ≤ nx) (seed 001 Lemma D.3 setting)"),
    "private_c0": Function(_pointwise(_private("c0")), None, ("n", "m", "epsilon", "mu", "x"), "coupled Chernoff C0"),
    "private_c1": Function(_pointwise(_private("c1")), None, ("n", "m", "epsilon", "mu", "x"), "C1 at the best η"),
    "private_c2": Function(_pointwise(_private("c2")), _private_c2_mp, ("n", "m", "epsilon", "mu", "x"), "closed form C2"),
    "private_c3": Function(_pointwise(_private("c3")), None, ("n", "m", "epsilon", "mu", "x"), "convolution route C3"),
}
for _n, _f in (("log", np.log), ("exp", np.exp), ("sqrt", np.sqrt), ("abs", np.abs), ("log1p", np.log1p),
               ("expm1", np.expm1)):
    FUNCTIONS[_n] = Function(_f, _mp_math(_n), ("x",), f"{_n}(x)")
FUNCTIONS["min"] = Function(np.minimum, _mp_math("min"), ("a", "b"), "min(a, b)")
FUNCTIONS["max"] = Function(np.maximum, _mp_math("max"), ("a", "b"), "max(a, b)")
CONSTANTS = {"pi": math.pi}  # e is left free as a parameter name; write exp(1)
ALLOWED = ("numbers, box parameters, pi, + - * / **, comparisons (<, <=, >, >=, ==, and) and calls of "
           + ", ".join(sorted(FUNCTIONS)) + ", bound(\"ID\", T=..., ...)")


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

    # each build_* returns (np_fn(env), mp_fn(env), sympy_fn())
    def expr(self, node, depth=0):
        if depth > MAX_DEPTH:
            raise _err(f"nested at most {MAX_DEPTH} levels deep", node, self.text)
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
                raise _err("made of numbers (a string only as a bound id)", node, self.text)
            v = float(node.value)
            if not math.isfinite(v):
                raise _err("made of finite numbers", node, self.text)
            return (lambda env: v), (lambda env: _mpf(v)), (lambda: _sym_num(v))
        if isinstance(node, ast.Name):
            if node.id in CONSTANTS:
                v = CONSTANTS[node.id]
                return (lambda env: v), (lambda env: _mp_const(node.id)), (lambda: _sym_const(node.id))
            if node.id in FUNCTIONS or node.id == "bound":
                raise _err(f"calling '{node.id}' with arguments", node, self.text)
            if node.id.startswith("_"):
                raise _err("using only box parameters and pi as names", node, self.text)
            if node.id not in self.names:
                self.names.append(node.id)
            name = node.id
            return (lambda env: env[name]), (lambda env: env[name]), (lambda: _sym_var(name))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            n, m, s = self.expr(node.operand, depth + 1)
            sign = -1.0 if isinstance(node.op, ast.USub) else 1.0
            return (lambda env: sign * n(env)), (lambda env: sign * m(env)), (lambda: sign * s())
        if isinstance(node, ast.BinOp):
            ops = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
                   ast.Div: lambda a, b: a / b, ast.Pow: lambda a, b: a**b}
            op = ops.get(type(node.op))
            if op is None:
                raise _err("using only the operators + - * / **", node, self.text)
            ln, lm, ls = self.expr(node.left, depth + 1)
            rn, rm, rs = self.expr(node.right, depth + 1)
            return (lambda env: op(ln(env), rn(env))), (lambda env: op(lm(env), rm(env))), (lambda: op(ls(), rs()))
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
        for an, a in zip(fn.args, node.args):
            if an in fn.integer_args and isinstance(a, ast.Name):
                self.integers.add(a.id)
        if fn.mp is None:
            self.float_only.add(fname)

        def np_fn(env):
            vals = [p[0](env) for p in parts]
            try:
                with np.errstate(all="ignore"):
                    return fn.np(*vals)
            except InputError as exc:
                raise InputError(f"{fname}() argument {exc.parameter}", exc.allowed, exc.got) from None

        def mp_fn(env):
            vals = [p[1](env) for p in parts]
            if fn.mp is None:
                return _mpf(float(np.asarray(fn.np(*[float(v) for v in vals])).reshape(-1)[0]))
            return fn.mp(*vals)

        def sym_fn():
            import sympy

            return sympy.Function(fname)(*[p[2]() for p in parts])

        return np_fn, mp_fn, sym_fn

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

        def np_fn(env):
            vals = {k: np.asarray(v[0](env), dtype=float) for k, v in kws.items()}
            return _bound_values(bid, vals)

        def mp_fn(env):
            vals = {k: v[1](env) for k, v in kws.items()}
            return _bound_mp(bid, vals)

        seg = ast.get_source_segment(self.text, node) or f"bound({bid!r}, ...)"

        def sym_fn():
            import sympy

            return sympy.Symbol(seg)

        return np_fn, mp_fn, sym_fn


def _mpf(v):
    import mpmath

    return mpmath.mpf(v)


def _mp_const(name):
    import mpmath

    return mpmath.pi if name == "pi" else mpmath.e


def _sym_num(v):
    import sympy

    return sympy.Float(v) if v != int(v) else sympy.Integer(int(v))


def _sym_const(name):
    import sympy

    return sympy.pi if name == "pi" else sympy.E


def _sym_var(name):
    import sympy

    return sympy.Symbol(name)


def _budget(vals: dict):
    from ..privacy import RDP, ZCDP, ApproxDP, LocalDP, PureDP

    g = {k: float(v) for k, v in vals.items() if k in BUDGET_KEYS}
    if "rho" in g:
        return ZCDP(g["rho"])
    if "alpha" in g or "rdp_epsilon" in g:
        if "alpha" not in g or "rdp_epsilon" not in g:
            raise InputError("bound()", "alpha= and rdp_epsilon= together (an RDP budget)", sorted(g))
        return RDP(g["alpha"], g["rdp_epsilon"])
    if "ldp_epsilon" in g:
        return LocalDP(g["ldp_epsilon"], g.get("ldp_delta", 0.0))
    if "epsilon" in g:
        return ApproxDP(g["epsilon"], g["delta"]) if "delta" in g else PureDP(g["epsilon"])
    return None


def _context(bid: str, vals: dict):
    from ..bounds import registry

    b = registry.get(bid)
    over = {("delta" if k == "confidence" else k): float(v) for k, v in vals.items() if k not in BUDGET_KEYS + ("T",)}
    for k in ("d", "K"):
        if k in over:
            over[k] = int(round(over[k]))
    return b, registry.make_context(b.setting, over, budget=_budget(vals))


def _bound_values(bid: str, vals: dict) -> np.ndarray:
    """Registered bound ``bid`` at every point of broadcast keyword arrays (T vectorised; one context per
    distinct combination of the other keywords). NaN where the bound's conditions fail (outside its assumptions)."""
    arrs = np.broadcast_arrays(*vals.values())
    keys = list(vals)
    flat = {k: a.ravel() for k, a in zip(keys, arrs)}
    out = np.full(arrs[0].size, np.nan)
    others = [k for k in keys if k != "T"]
    combo = np.stack([flat[k] for k in others], axis=1) if others else np.zeros((out.size, 0))
    uniq, inv = np.unique(combo, axis=0, return_inverse=True)
    for i, row in enumerate(uniq):
        sel = np.flatnonzero(inv.ravel() == i)
        b, ctx = _context(bid, dict(zip(others, row)))
        if b.conditions(ctx):
            continue
        try:
            out[sel] = b.evaluate(flat["T"][sel], ctx).value
        except ValueError as exc:
            raise InputError("bound()", f"a budget {b.id} can use ({b.notion})", str(exc)) from None
    return out.reshape(arrs[0].shape)


def _bound_mp(bid: str, vals: dict):
    """The bound at one point, from its sympy expression lambdified to mpmath (symbol values in float)."""
    import mpmath
    import sympy

    b, ctx = _context(bid, {k: float(v) for k, v in vals.items()})
    if b.conditions(ctx):
        return mpmath.nan
    budget, _ = ctx.budget_for(b) if b.notion != "none" else (None, "")
    npart, ppart = b.expression()
    expr = npart + ppart
    sv = b.symbol_values(ctx, budget)
    syms = sorted(expr.free_symbols, key=lambda s: s.name)
    f = sympy.lambdify(syms, expr, "mpmath")
    args = [vals["T"] if s.name == "T" else mpmath.mpf(float(sv[s.name])) for s in syms]
    return f(*args)


# ---------------------------------------------------------------------------------------------------
def parse(text: str) -> Parsed:
    """Parse and check ``text`` (a comparison, a chain of them, or an ``and`` of comparisons)."""
    if not isinstance(text, str) or not text.strip():
        raise InputError("expression", "a non-empty inequality, e.g. \"d_eps(x, y, epsilon) <= kl(x, y)\"", text)
    if len(text) > MAX_LENGTH:
        raise InputError("expression", f"at most {MAX_LENGTH} characters", f"{len(text)} characters")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        raise InputError("expression", "valid syntax (a comparison of arithmetic expressions)",
                         f"syntax error at column {exc.offset}") from None
    text = text.strip()
    body = tree.body
    comps = body.values if isinstance(body, ast.BoolOp) and isinstance(body.op, ast.And) else [body]
    b = _Builder(text)
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
        for op, (ln, _, _), (rn, _, _) in pieces:
            a, bb = np.asarray(ln(env), dtype=float), np.asarray(rn(env), dtype=float)
            m = _margin(op, a, bb, np.abs, np.maximum, FLOAT_STRICT, 1e-9)
            out = m if out is None else np.minimum(out, m)
        return out

    def margin_mp(**env):
        import mpmath

        out = None
        for op, (_, lm, _), (_, rm, _) in pieces:
            a, bb = lm(env), rm(env)
            if mpmath.isnan(a) or mpmath.isnan(bb):
                raise ValueError("undefined at this point")
            m = _margin(op, a, bb, abs, max, MP_STRICT, 1e-30)
            out = m if out is None else min(out, m)
        return out

    def sym_text():
        import sympy

        rel = {ast.Lt: sympy.Lt, ast.LtE: sympy.Le, ast.Gt: sympy.Gt, ast.GtE: sympy.Ge, ast.Eq: sympy.Eq}
        return " ∧ ".join(sympy.sstr(rel[op](l[2](), r[2](), evaluate=False)) for op, l, r in pieces)

    try:
        stext = sym_text()
    except Exception:  # noqa: BLE001 - display only
        stext = text
    return Parsed(text=text, variables=tuple(b.names), margin_np=margin_np, margin_mp=margin_mp, sympy_text=stext,
                  float_only=tuple(sorted(b.float_only)), bounds=tuple(sorted(b.bounds)),
                  integers=tuple(sorted(b.integers)))


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


def check(text: str, box: str | None, points: int = 4096):
    """``boundcalc check``: parse ``text``, lay a grid on ``box`` over its variables and evaluate.

    Returns (Result of the Inequality evaluator, Parsed, Domain)."""
    from .box import Domain, parse_box
    from .claims.evaluators import Inequality

    p = parse(text)
    if not p.variables:
        raise InputError("expression", "at least one box parameter (a name that is not a function or constant)", text)
    params = [Param(v, 1.0, 1.0, (1.0, math.inf, False, True), integer=True) if v in p.integers else Param(v, 0.0, 0.0)
              for v in p.variables]
    if box is None:
        raise InputError("--box", f"a range for every parameter of the expression ({', '.join(p.variables)})", None)
    rng = parse_box(box, params, owner="the expression")
    missing = [v for v in p.variables if v not in rng]
    if missing:
        raise InputError("--box", f"a range for every parameter of the expression (missing: {', '.join(missing)})", box)
    dom = Domain.of(params, rng)
    ineq = Inequality(p.variables, p.margin_np, p.margin_mp, text=p.text, points=points, mp_tol=1e-40)
    res = ineq.evaluate(dom)
    return res, p, dom
