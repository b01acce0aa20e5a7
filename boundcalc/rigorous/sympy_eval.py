"""Evaluate a sympy expression over intervals (its natural interval extension), and at a point in mpmath.

``interval_eval(expr, env)`` walks the expression tree: numbers become tight enclosures (a Float or
Rational that is not a double gets its neighbours), Add/Mul/Pow/log/exp/sqrt/Abs/floor/ceiling/Max/Min
use ``interval``'s outward-rounded operations, Piecewise takes the hull of the pieces whose condition may
hold on the box (stopping at the first certainly true one), and an applied function (``kl``, ``d_eps``,
``tv`` …) is looked up in ``functions`` (default: the range enclosures of ``enclosures``). Every bound of
the registry has a sympy ``expression()``; this gives each an enclosure without writing its formula again.

``rewrite_identities(expr)`` replaces the sub-sums ``kl(a,b) - d_eps(a,b,e)`` and ``c e tv(a,b) - d_eps(a,b,e)``
(c >= 1; also with ``Abs(a - b)`` for tv) by the identity margins of ``enclosures`` (their difference is 0
on whole regions, which no subtraction of enclosures can certify).

``point_function(expr, names)`` returns an mpmath function of a point (used to re-check counterexamples at
50 digits), with ``kl``/``d_eps``/``tv`` evaluated by boundcalc.info's mpmath views.
"""

from __future__ import annotations

import math
import sys
from contextlib import contextmanager

from ..intervals import enclosures as en
from ..intervals import interval as iv
from .deadline import tick
from ..intervals.interval import INF, Interval


# ----------------------------------------------------------------------------------------------------
# the quantity functions a claim may use (names as `boundcalc check` parses them)
# ----------------------------------------------------------------------------------------------------
def _kl(X, Y):
    return en.kl_range(X, Y)


def _d_eps(X, Y, E):
    return en.d_eps_range(X, Y, E)


def _tv(X, Y):
    return en.tv_range(X, Y)


def _margin_kl_d(X, Y, E):
    return en.margin_kl_minus_d_eps(X, Y, E)


def _margin_tv_d(X, Y, E, C=None):
    c = 1.0 if C is None else C.lo
    return en.margin_eps_tv_minus_d_eps(X, Y, E, c)


def _log1p(X: Interval) -> Interval:
    """log1p with a tight enclosure (interval.log1p: no cancellation of log(1 + x) at tiny x); inside
    ``where_defined`` over the part of X >= -1 (as log over its part >= 0)."""
    if _WHERE_DEFINED[0] and X.lo < -1 <= X.hi:
        X = Interval(-1.0, X.hi)
    return iv.log1p(X)


def _series(P: Interval, coeffs, tail: Interval) -> Interval:
    """P^2 (sum_k coeffs[k] P^k + tail), coeffs exact rationals (num, den) enclosed by outward-rounded division."""
    acc = Interval(0.0)
    for num, den in reversed(coeffs):
        acc = acc * P + Interval(float(num)) / Interval(float(den))
    return P * P * (acc + tail)


def _expm1_minus_at(p: float) -> Interval:
    """Enclosure of f(p) = e^p - 1 - p at one float p. For |p| <= 1/2 the Taylor series f(p) = p^2 sum_{k>=0}
    p^k/(k+2)! to k = 3, remainder sum_{k>=4} |p|^k/(k+2)! <= (|p|^4/720) / (1 - |p|/7) <= 2|p|^4/720 (no
    cancellation at tiny p, where expm1(p) - p loses every digit); else expm1(p) - p."""
    P = Interval(p)
    if abs(p) <= 0.5:
        r = (Interval(abs(p)) ** 4 * 2 / 720).hi
        return _series(P, ((1, 2), (1, 6), (1, 24), (1, 120)), Interval(-r, r))
    return iv.expm1(P) - P


def _minus_log1p_at(p: float) -> Interval:
    """Enclosure of g(p) = p - log1p(p), p > -1. For |p| <= 1/2 the series g(p) = p^2 sum_{k>=0} (-1)^k p^k/(k+2)
    to k = 3, remainder <= sum_{k>=4} |p|^k/(k+2) <= (|p|^4/6) / (1 - |p|) <= |p|^4/3; else p - log1p(p)."""
    P = Interval(p)
    if abs(p) <= 0.5:
        r = (Interval(abs(p)) ** 4 / 3).hi
        return _series(P, ((1, 2), (-1, 3), (1, 4), (-1, 5)), Interval(-r, r))
    return P - iv.log1p(P)


def _convex_at_zero(X: Interval, at) -> Interval:
    """Range over X of a function that is 0 at 0, decreasing on x < 0 and increasing on x > 0 (e^x - 1 - x and
    x - log(1 + x): convex with derivative e^x - 1, resp. x / (1 + x)), from enclosures ``at`` of its end points."""
    if X.lo >= 0:
        return Interval(max(at(X.lo).lo, 0.0), at(X.hi).hi)
    if X.hi <= 0:
        return Interval(max(at(X.hi).lo, 0.0), at(X.lo).hi)
    return Interval(0.0, max(at(X.lo).hi, at(X.hi).hi))


def _expm1_minus(X: Interval) -> Interval:
    """Identity margin expm1(x) - x over X (what ``rewrite_identities`` makes of c expm1(u) - c u): exact range
    from the monotone pieces, so ``check "expm1(x) >= x"`` is provable at tiny x, where expm1(X) - X is not."""
    if X.hi == INF or X.lo == -INF:
        return Interval(0.0, INF)
    return _convex_at_zero(X, _expm1_minus_at)


def _minus_log1p(X: Interval) -> Interval:
    """Identity margin x - log1p(x) over X, x >= -1 (x = -1: +inf), as ``_expm1_minus``."""
    if _WHERE_DEFINED[0] and X.lo < -1 <= X.hi:
        X = Interval(-1.0, X.hi)
    if X.lo < -1:
        raise iv.DomainError(f"log1p of {X}")
    if X.lo == -1 or X.hi == INF:
        return Interval(0.0, INF)
    return _convex_at_zero(X, _minus_log1p_at)


QUANTITY_FUNCTIONS = {
    "expm1": iv.expm1,
    "log1p": _log1p,
    "_expm1_minus": _expm1_minus,
    "_minus_log1p": _minus_log1p,
    "kl": _kl,
    "kl_bernoulli": _kl,
    "d_eps": _d_eps,
    "d_epsilon": _d_eps,
    "tv": _tv,
    "tv_bernoulli": _tv,
    "_margin_kl_d_eps": _margin_kl_d,
    "_margin_eps_tv_d_eps": _margin_tv_d,
}


def _registered_enclosures() -> dict:
    """The interval implementations of the registered quantities with positional arguments (R_phases, gamma_ratio,
    greedy_horizon: boundcalc.bounds.quantities, the one registry), under their names."""
    from ..bounds import quantities

    return {q.name: q.interval for q in quantities.all_quantities() if q.args and q.interval is not None}


QUANTITY_FUNCTIONS.update(_registered_enclosures())


def mp_function_table(d_eps_mp):
    """The registered quantities and identity margins as mpmath functions, with ``d_eps_mp`` as d_ε (the closed form
    for point checks; the claims of the closed form itself pass the definition, an optimisation)."""
    import mpmath

    from ..info import kl_bernoulli_mp, tv_bernoulli_mp

    def mkl(a, b):
        return kl_bernoulli_mp(a, b)

    def md(a, b, e):
        return d_eps_mp(a, b, e)

    def mtv(a, b):
        return tv_bernoulli_mp(a, b)

    def mm1(a, b, e):
        return kl_bernoulli_mp(a, b) - d_eps_mp(a, b, e)

    def mm2(a, b, e, c=1):
        return c * e * mpmath.fabs(a - b) - d_eps_mp(a, b, e)

    return {"kl": mkl, "kl_bernoulli": mkl, "d_eps": md, "d_epsilon": md, "tv": mtv, "tv_bernoulli": mtv,
            "_margin_kl_d_eps": mm1, "_margin_eps_tv_d_eps": mm2, "expm1": mpmath.expm1, "log1p": mpmath.log1p,
            "_expm1_minus": lambda x: mpmath.expm1(x) - x, "_minus_log1p": lambda x: x - mpmath.log1p(x)}


def _mp_functions():
    from ..info import d_epsilon_mp

    return mp_function_table(d_epsilon_mp)


# ----------------------------------------------------------------------------------------------------
# numbers
# ----------------------------------------------------------------------------------------------------
def _number(x) -> Interval:
    import sympy

    if x is sympy.pi:
        return iv.const("pi")
    if x is sympy.E:
        return iv.const("e")
    if x.is_Integer:
        n = int(x)
        try:
            f = float(n)
        except OverflowError:  # beyond the doubles (10**309 written exactly): between the largest double and inf
            big = sys.float_info.max
            return Interval(big, math.inf) if n > 0 else Interval(-math.inf, -big)
        if int(f) == n:
            return Interval(f)
        return Interval(math.nextafter(f, -math.inf), math.nextafter(f, math.inf))
    if x.is_Rational:
        from fractions import Fraction

        try:
            f = x.p / x.q  # Python's int / int is correctly rounded (also for huge p, q, and into the subnormals)
        except OverflowError:
            return _number(sympy.Integer(x.p)) / _number(sympy.Integer(x.q))
        exact, got = Fraction(x.p, x.q), Fraction(f)
        if got == exact:
            return Interval(f)
        return Interval(f, math.nextafter(f, math.inf)) if got < exact else Interval(math.nextafter(f, -math.inf), f)
    if x.is_Float:
        f = float(x)
        if sympy.Float(f, x._prec) == x:
            return Interval(f)
        return Interval(math.nextafter(f, -math.inf), math.nextafter(f, math.inf))
    if x is sympy.oo:
        return Interval(math.inf)
    if x is sympy.S.NegativeInfinity:
        return Interval(-math.inf)
    if x.is_number:
        # any other constant (exp(-9/4), log(4), …): evaluate its tree
        return None
    raise TypeError(f"not a number: {x!r}")


# ----------------------------------------------------------------------------------------------------
# tri-state relations
# ----------------------------------------------------------------------------------------------------
def _truth(cond, env, functions):
    """True / False / None (undecided on the box) for a sympy condition."""
    import sympy

    if cond is sympy.true or cond is True:
        return True
    if cond is sympy.false or cond is False:
        return False
    if isinstance(cond, sympy.And):
        vals = [_truth(c, env, functions) for c in cond.args]
        if all(v is True for v in vals):
            return True
        if any(v is False for v in vals):
            return False
        return None
    if isinstance(cond, sympy.Or):
        vals = [_truth(c, env, functions) for c in cond.args]
        if any(v is True for v in vals):
            return True
        if all(v is False for v in vals):
            return False
        return None
    if isinstance(cond, sympy.Not):
        v = _truth(cond.args[0], env, functions)
        return None if v is None else not v
    if isinstance(cond, sympy.core.relational.Relational):
        d = interval_eval(cond.lhs - cond.rhs, env, functions)
        op = cond.rel_op
        if op in (">=", ">"):
            if (d.lo >= 0 if op == ">=" else d.lo > 0):
                return True
            if (d.hi < 0 if op == ">=" else d.hi <= 0):
                return False
            return None
        if op in ("<=", "<"):
            if (d.hi <= 0 if op == "<=" else d.hi < 0):
                return True
            if (d.lo > 0 if op == "<=" else d.lo >= 0):
                return False
            return None
        if op == "==":
            if d.is_point() and d.lo == 0:
                return True
            if d.lo > 0 or d.hi < 0:
                return False
            return None
        if op == "!=":
            if d.lo > 0 or d.hi < 0:
                return True
            if d.is_point() and d.lo == 0:
                return False
            return None
    raise TypeError(f"unsupported condition {cond!r}")


# ----------------------------------------------------------------------------------------------------
# the evaluator
# ----------------------------------------------------------------------------------------------------
_WHERE_DEFINED = iv.WHERE_DEFINED  # one flag, read by the enclosures of kl, tv, d_eps too (interval.inside)


@contextmanager
def where_defined():
    """Within this block, log and real powers of an interval reaching below 0 are enclosed over its part >= 0 (the
    points where they are defined, as ``interval.sqrt`` always does) instead of the whole line: the enclosure is
    then over the points of the box where the expression is defined, and the caller must report the rest of the
    box as outside the domain (``boundcalc check`` does: "proven where defined; outside the domain of …")."""
    old = _WHERE_DEFINED[0]
    _WHERE_DEFINED[0] = True
    try:
        yield
    finally:
        _WHERE_DEFINED[0] = old


def _nonnegative_part(a: Interval) -> Interval:
    """a ∩ [0, ∞) inside ``where_defined`` (else a unchanged). Entirely below 0: unchanged (DomainError follows)."""
    if _WHERE_DEFINED[0] and a.lo < 0 <= a.hi:
        return Interval(0.0, a.hi)
    return a


def interval_eval(expr, env: dict, functions: dict | None = None) -> Interval:
    """Enclosure of the sympy expression ``expr`` when each symbol s ranges over env[s.name]."""
    import sympy

    tick()
    fns = QUANTITY_FUNCTIONS if functions is None else functions
    e = expr

    if e.is_Symbol:
        try:
            return env[e.name]
        except KeyError:
            raise KeyError(f"no interval for the symbol {e.name!r}") from None
    if e.is_Number or e is sympy.pi or e is sympy.E or e is sympy.oo:
        r = _number(e)
        if r is not None:
            return r
    if e.is_Add:
        out = interval_eval(e.args[0], env, fns)
        for a in e.args[1:]:
            out = out + interval_eval(a, env, fns)
        return out
    if e.is_Mul:
        out = interval_eval(e.args[0], env, fns)
        for a in e.args[1:]:
            out = out * interval_eval(a, env, fns)
        return out
    if e.is_Pow:
        base, ex = e.args
        b = interval_eval(base, env, fns)
        if ex.is_Integer:
            return b ** int(ex)
        if ex == sympy.Rational(1, 2):
            return iv.sqrt(b)
        if ex == sympy.Rational(-1, 2):
            return iv.sqrt(b).reciprocal()
        if ex.is_Rational and ex.q == 2:  # b^(p/2) = sqrt(b)^p
            return iv.sqrt(b) ** int(ex.p)
        if base is sympy.E:
            return iv.exp(interval_eval(ex, env, fns))
        return iv.pow_real(_nonnegative_part(b), interval_eval(ex, env, fns))
    if isinstance(e, sympy.exp):
        return iv.exp(interval_eval(e.args[0], env, fns))
    if isinstance(e, sympy.log):
        if len(e.args) == 2:
            return iv.log(interval_eval(e.args[0], env, fns)) / iv.log(interval_eval(e.args[1], env, fns))
        return iv.log(_nonnegative_part(interval_eval(e.args[0], env, fns)))
    if isinstance(e, sympy.Abs):
        return iv.abs_(interval_eval(e.args[0], env, fns))
    if isinstance(e, sympy.re):  # every box variable is real (sympy writes Abs(exp(x)) as exp(re(x)))
        return interval_eval(e.args[0], env, fns)
    if isinstance(e, sympy.im):
        return Interval(0.0)
    if isinstance(e, sympy.floor):
        return iv.floor(interval_eval(e.args[0], env, fns))
    if isinstance(e, sympy.ceiling):
        return iv.ceil(interval_eval(e.args[0], env, fns))
    if isinstance(e, sympy.Max):
        return iv.imax(*(interval_eval(a, env, fns) for a in e.args))
    if isinstance(e, sympy.Min):
        return iv.imin(*(interval_eval(a, env, fns) for a in e.args))
    if isinstance(e, sympy.Piecewise):
        parts = []
        for piece, cond in e.args:
            t = _truth(cond, env, fns)
            if t is False:
                continue
            parts.append(interval_eval(piece, env, fns))
            if t is True:
                break
        if not parts:
            raise iv.DomainError(f"no piece of {e} applies on the box")
        return Interval.hull(*parts)
    if isinstance(e, sympy.Function) or isinstance(e, sympy.core.function.AppliedUndef):
        name = type(e).__name__
        if name in fns:
            return fns[name](*(interval_eval(a, env, fns) for a in e.args))
    raise TypeError(f"no interval rule for {type(e).__name__}: {e}")


# ----------------------------------------------------------------------------------------------------
# identity rewrites for tight margins
# ----------------------------------------------------------------------------------------------------
def _is_fn(t, names):
    import sympy

    return isinstance(t, sympy.core.function.AppliedUndef) or isinstance(t, sympy.Function) and type(t).__name__ in names


def _rewrite_expm1_log1p(terms: list) -> list:
    """In a sum, c expm1(u) + (terms of -c u) -> c _expm1_minus(u) and c log1p(u) + (terms of -c u) ->
    -c _minus_log1p(u): the identity margins enclosed without the cancellation of expm1(x) - x at tiny x."""
    import sympy

    terms = list(terms)
    changed = True
    while changed:
        changed = False
        for t in terms:
            coeff, rest = t.as_coeff_Mul()
            fname = type(rest).__name__
            if fname not in ("expm1", "log1p") or len(rest.args) != 1:
                continue
            u = rest.args[0]
            need = list(sympy.Add.make_args(sympy.expand(-coeff * u)))
            others = list(terms)
            others.remove(t)
            ok = True
            for n in need:
                if n in others:
                    others.remove(n)
                else:
                    ok = False
                    break
            if not ok:
                continue
            if fname == "expm1":
                others.append(coeff * sympy.Function("_expm1_minus")(u))
            else:
                others.append(-coeff * sympy.Function("_minus_log1p")(u))
            terms = others
            changed = True
            break
    return terms


def rewrite_identities(expr):
    """Replace kl(a,b) - d_eps(a,b,e) and c*e*tv(a,b) - d_eps(a,b,e) (c >= 1, tv or Abs(a - b)) inside sums
    by single identity margins (see the module docstring of ``enclosures``)."""
    import sympy

    margin1 = sympy.Function("_margin_kl_d_eps")
    margin2 = sympy.Function("_margin_eps_tv_d_eps")

    def name(t):
        return type(t).__name__

    def rw(e):
        if not e.args:
            return e
        e = e.func(*[rw(a) for a in e.args]) if not e.is_Atom else e
        if not e.is_Add:
            return e
        terms = list(e.args)
        changed = True
        while changed:
            changed = False
            negs = [t for t in terms if t.could_extract_minus_sign() and name(-t) in ("d_eps", "d_epsilon")]
            for nt in negs:
                d = -nt
                a, b, eps = d.args
                for t in terms:
                    if t is nt:
                        continue
                    if name(t) in ("kl", "kl_bernoulli") and tuple(t.args) == (a, b):
                        terms.remove(t)
                        terms.remove(nt)
                        terms.append(margin1(a, b, eps))
                        changed = True
                        break
                    # c * eps * tv(a, b)  or  c * eps * Abs(a - b)
                    if t.is_Mul:
                        coeff, rest = t.as_coeff_Mul()
                        facs = list(sympy.Mul.make_args(rest))
                        if eps in facs and coeff >= 1:
                            others = list(facs)
                            others.remove(eps)
                            if len(others) == 1:
                                o = others[0]
                                is_tv = name(o) in ("tv", "tv_bernoulli") and tuple(o.args) == (a, b)
                                is_abs = isinstance(o, sympy.Abs) and sympy.expand(o.args[0] - (a - b)) == 0
                                is_abs = is_abs or (isinstance(o, sympy.Abs) and sympy.expand(o.args[0] + (a - b)) == 0)
                                if is_tv or is_abs:
                                    terms.remove(t)
                                    terms.remove(nt)
                                    terms.append(margin2(a, b, eps, coeff))
                                    changed = True
                                    break
                if changed:
                    break
        if not changed:
            terms = _rewrite_expm1_log1p(terms)
        return sympy.Add(*terms)

    return rw(sympy.sympify(expr))


# ----------------------------------------------------------------------------------------------------
# point evaluation in mpmath (for the 50-digit re-check of a counterexample)
# ----------------------------------------------------------------------------------------------------
def point_function(expr, names=None):
    """mpmath function point(dict name -> mpf) -> mpf evaluating ``expr`` at the current mpmath precision."""
    import sympy

    syms = sorted(expr.free_symbols, key=lambda s: s.name) if names is None else [sympy.Symbol(n) for n in names]
    by_name = {s.name: s for s in expr.free_symbols}
    syms = [by_name.get(s.name, s) for s in syms]
    f = sympy.lambdify(syms, expr, modules=[_mp_functions(), "mpmath"])

    def point(p):
        return f(*(p[s.name] for s in syms))

    return point
