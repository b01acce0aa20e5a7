"""The functions ``boundcalc check`` may call (the whitelist of boundcalc.verify.expression), each with a
numpy implementation (vectorised over a grid) and, where one exists, an mpmath one (the 50-digit re-check),
and the evaluation of registered bounds for ``bound("ID", T=..., ...)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..errors import InputError

BUDGET_KEYS = ("epsilon", "delta", "rho", "alpha", "rdp_epsilon", "ldp_epsilon", "ldp_delta")


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
            _tick()  # a time limit holds between points (boundcalc.rigorous.deadline)
            out[idx] = fn(*(float(a[idx]) for a in b))
        return out

    return f


def _tick():
    from ..rigorous.deadline import tick

    tick()


def _laplace_tail_np(x, m, eps):
    """Exact P(L_m >= x) on broadcast arrays, vectorised in x and epsilon for each distinct count m (the exact
    finite sum of boundcalc.concentration.laplace_sum costs O(m) per point; the time limit is checked between
    counts)."""
    from ..concentration.laplace_sum import laplace_sum_logsf

    xb, mb, eb = np.broadcast_arrays(*[np.asarray(a, dtype=float) for a in (x, m, eps)])
    out = np.empty(xb.shape)
    flat_m = mb.ravel()
    for mm in np.unique(flat_m):
        _tick()
        sel = (mb == mm)
        out[sel] = np.exp(np.asarray(laplace_sum_logsf(xb[sel], int(mm), eb[sel]), dtype=float))
    return out


def _laplace_tail(x, m, eps):
    from ..concentration.laplace_sum import laplace_sum_logsf

    return float(np.exp(laplace_sum_logsf(x, int(m), eps)))


def _laplace_tail_mp(x, m, eps):
    """P(L_m >= x) at mpmath precision, L_m = G_1 - G_2 with G_i ~ Gamma(m, rate eps) (a sum of m Lap(1/eps) is a
    difference of two Gamma(m) sums; seed 001 Lemma D.1 setting): the integral of P(G_1 >= x + g) f_{G_2}(g)."""
    import mpmath

    m = int(m)
    x, eps = mpmath.mpf(x), mpmath.mpf(eps)

    def sf(t):  # P(G_1 >= t): the upper regularised incomplete gamma function
        return mpmath.gammainc(m, eps * t, mpmath.inf, regularized=True) if t > 0 else mpmath.mpf(1)

    def pdf(g):
        return mpmath.exp(m * mpmath.log(eps) + (m - 1) * mpmath.log(g) - eps * g - mpmath.loggamma(m)) if g > 0 else \
            (eps if m == 1 else mpmath.mpf(0))

    lo = max(mpmath.mpf(0), -x)
    val = mpmath.quad(lambda g: sf(x + g) * pdf(g), [lo, lo + m / eps, lo + 10 * m / eps, mpmath.inf])
    if x < 0:
        val += mpmath.gammainc(m, 0, eps * lo, regularized=True)
    return val


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


BINOM_MP_TERMS = 10**5  # most terms of the exact 50-digit sum P(Bin(n, p) <= nx) (~0.3 s); beyond: out of range


def _binom_tail_mp(n, p, x):
    """Exact P(Bin(n, p) ≤ ⌊nx⌋) = Σ_{k ≤ nx} C(n, k) p^k (1 − p)^(n − k), summed by the ratio of consecutive terms
    (the time limit is checked as it goes). More than BINOM_MP_TERMS terms (n = 1e18 ran for ever, issue 22 §4):
    OverflowError, "beyond the range of the 50-digit re-check"."""
    import mpmath

    n = int(n)
    kmax = min(int(mpmath.floor(n * x)), n)
    if kmax < 0:
        return mpmath.mpf(0)
    if kmax >= n or p == 0:
        return mpmath.mpf(1)
    if p == 1:
        return mpmath.mpf(0)
    if kmax + 1 > BINOM_MP_TERMS:
        raise OverflowError("beyond the range of the 50-digit re-check")
    term = (1 - p) ** n
    total = term
    ratio = p / (1 - p)
    for k in range(kmax):
        if k % 1000 == 0:
            _tick()
        term = term * (n - k) / (k + 1) * ratio
        total += term
    return total


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


def _exact(name):
    """The exact sympy form of a call (what the prover encloses; see boundcalc.rigorous.sympy_eval):
    kl, tv, d_eps, expm1, log1p are named functions with interval enclosures; the others are written out."""

    def f(*a):
        import sympy

        if name in ("kl", "tv", "d_eps"):
            return sympy.Function(name)(*a)
        if name == "kl_inf":  # KL_inf(Ber mu, mu*) = kl(min(mu, mu*), mu*) (seed 001 Eq. 3; 0 when mu >= mu*)
            return sympy.Function("kl")(sympy.Min(a[0], a[1]), a[1])
        if name == "kl_gauss":
            return (a[0] - a[1]) ** 2 / 2
        if name in ("log1p", "expm1"):  # kept as functions: enclosed tightly (interval.log1p / expm1), not as
            return sympy.Function(name)(*a)  # log(1 + x) / exp(x) - 1, which lose every digit at tiny x
        return {"log": sympy.log, "exp": sympy.exp, "sqrt": sympy.sqrt, "abs": sympy.Abs, "min": sympy.Min,
                "max": sympy.Max}[name](*a)

    return f


@dataclass(frozen=True)
class Function:
    np: Callable
    mp: Callable | None
    args: tuple[str, ...]
    doc: str
    exact: Callable | None = None  # exact sympy form (None: no interval enclosure, the prover cannot use it)

    @property
    def integer_args(self) -> tuple[str, ...]:
        return tuple(a for a in self.args if a in ("m", "n"))


FUNCTIONS: dict[str, Function] = {
    "kl": Function(_np_info("kl_bernoulli"), _mp_info("kl_bernoulli_mp"), ("x", "y"), "Bernoulli KL kl(x, y) (seed 001 §2)",
                   _exact("kl")),
    "tv": Function(_np_info("tv_bernoulli"), _mp_info("tv_bernoulli_mp"), ("x", "y"), "TV(Ber(x), Ber(y)) = |x − y|",
                   _exact("tv")),
    "kl_inf": Function(_np_info("kl_inf_bernoulli"), _mp_info("kl_inf_bernoulli_mp"), ("mu", "mu_star"),
                       "KL_inf for Bernoulli arms (= kl(μ, μ*), seed 001 Eq. 3)", _exact("kl_inf")),
    "d_eps": Function(_np_info("d_epsilon"), _mp_info("d_epsilon_mp"), ("x", "y", "epsilon"),
                      "d_ε(x, y) (seed 001 Eq. 6 / Eq. 8)", _exact("d_eps")),
    "kl_gauss": Function(_np_info("kl_gaussian"), _mp_info("kl_gaussian_mp"), ("mu1", "mu2"),
                         "KL(N(μ1, 1), N(μ2, 1)) = (μ1 − μ2)²/2", _exact("kl_gauss")),
    "laplace_tail": Function(_laplace_tail_np, _laplace_tail_mp, ("x", "m", "epsilon"),
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
    FUNCTIONS[_n] = Function(_f, _mp_math(_n), ("x",), f"{_n}(x)", _exact(_n))
FUNCTIONS["min"] = Function(np.minimum, _mp_math("min"), ("a", "b"), "min(a, b)", _exact("min"))
FUNCTIONS["max"] = Function(np.maximum, _mp_math("max"), ("a", "b"), "max(a, b)", _exact("max"))
CONSTANTS = {"pi": math.pi}  # e is left free as a parameter name; write exp(1)
ALLOWED = ("numbers, box parameters, pi, + - * / **, comparisons (<, <=, >, >=, ==, and) and calls of "
           + ", ".join(sorted(FUNCTIONS)) + ", bound(\"ID\", T=..., ...)")



def _budget(vals: dict, keys=BUDGET_KEYS):
    from ..privacy import RDP, ZCDP, ApproxDP, LocalDP, PureDP

    g = {k: float(v) for k, v in vals.items() if k in keys}
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

    from ..rigorous.bound_calls import budget_keywords

    b = registry.get(bid)
    bk = budget_keywords(b.setting, list(vals))  # delta= is the bound's confidence unless beside epsilon=
    if "delta" in bk and "epsilon" not in vals:  # neither a budget's δ nor a confidence: it would be ignored
        raise InputError(f'bound("{bid}") keyword delta', "used with epsilon= (an (ε, δ) budget) or, as the "
                         "confidence δ, with a linear, contextual or GLM bound", "delta")
    over = {("delta" if k == "confidence" else k): float(v) for k, v in vals.items() if k not in bk and k != "T"}
    for k in ("d", "K"):
        if k in over:
            over[k] = int(round(over[k]))
    return b, registry.make_context(b.setting, over, budget=_budget(vals, bk))


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
        Ts = flat["T"][sel]
        try:
            v = np.asarray(b.evaluate(Ts, ctx).value, dtype=float)
        except ValueError as exc:
            raise InputError("bound()", f"a budget {b.id} can use ({b.notion})", str(exc)) from None
        # the assumptions in T ("T >= 2" of a declared bound, "T >= K - 1", Thm 9's "rho <= 1 or T >= 3") at each
        # horizon: NaN outside them (never a counterexample there)
        if not _t_dependent(b):
            out[sel] = v
            continue
        uT, invT = np.unique(Ts, return_inverse=True)
        ok = np.array([not b.conditions(_at_T(ctx, t)) for t in uT], dtype=bool)
        out[sel] = np.where(ok[invT.ravel()], v, np.nan)
    return out.reshape(arrs[0].shape)


_GENERIC_CONDITIONS = ("Bound.conditions", "BaseBound.conditions", "_Finite.conditions", "DeclaredBound.conditions")


def _t_dependent(b) -> bool:
    """May the bound's conditions depend on the horizon? Yes when a relation of its ``requires`` (a declared bound:
    its ``assumptions``) names T, or when its ``conditions`` is code of its own (seed 003 Thm 9: "rho <= 1 or
    T >= 3"); the generic conditions read only the relations."""
    import re

    from ..bounds.declared import DeclaredBound

    texts = tuple(getattr(b, "requires", ()) or ())
    if isinstance(b, DeclaredBound):
        texts += tuple(b.assumptions or ())
    if any("T" in re.findall(r"[A-Za-z_][A-Za-z_0-9]*", t) for t in texts):
        return True
    from ..bounds.base import conditions_code

    return conditions_code(b).__qualname__ not in _GENERIC_CONDITIONS


def _at_T(ctx, T):
    """The context at horizon ``T`` (a bound's relations in T are checked only where the context names one)."""
    return type(ctx)(params=dict(ctx.params, T=float(T)), budget=ctx.budget,
                     instance_name=getattr(ctx, "instance_name", ""))


def _bound_mp(bid: str, vals: dict):
    """The bound at one point, from its sympy expression lambdified to mpmath (symbol values in float)."""
    import mpmath
    import sympy

    b, ctx = _context(bid, {k: float(v) for k, v in vals.items()})
    if b.conditions(ctx) or ("T" in vals and b.conditions(_at_T(ctx, float(vals["T"])))):
        return mpmath.nan
    budget, _ = ctx.budget_for(b) if b.notion != "none" else (None, "")
    npart, ppart = b.expression()
    expr = npart + ppart
    sv = b.symbol_values(ctx, budget)
    syms = sorted(expr.free_symbols, key=lambda s: s.name)
    f = sympy.lambdify(syms, expr, "mpmath")
    from ..rigorous.bound_calls import BUDGET_SYMBOLS, budget_keywords

    # a keyword that is the symbol itself keeps its working-precision value (delta=1e-6 as written, not its double):
    # T, an instance keyword other than the integers d, K, and a budget keyword that is the bound's own symbol
    bk = budget_keywords(b.setting, list(vals))
    own = {k for k, sym in BUDGET_SYMBOLS.get((b.setting, b.notion), {}).items() if k == sym and k in bk}
    same = {k for k in vals if (k not in bk and k not in ("d", "K")) or k in own}
    args = [vals[s.name] if s.name in same else mpmath.mpf(float(sv[s.name])) for s in syms]
    return f(*args)
