"""Claims: an inequality with its margin enclosure, its 50-digit point margin, its natural box and its
statement; ``Claim.prove(box)`` runs the prover (``prover.prove``).

``inequality(lhs, rhs, op, box)`` builds a claim from two sympy expressions over the registered quantities
(``kl``, ``d_eps``, ``tv``) and plain arithmetic, and ``comparisons_claim(pieces, box)`` one from the
comparisons that ``boundcalc check "…" --box …`` parsed (boundcalc.verify.expression is the only parser of
such text; this module parses nothing): the margin is
rhs - lhs (or lhs - rhs for >=, tol - |lhs - rhs| for ==), rewritten by ``sympy_eval.rewrite_identities``
and enclosed by ``sympy_eval.interval_eval``; the point margin is the same expression in mpmath with
d_eps taken from its definition (seed 001 Eq. 6) by a 50-digit minimisation, independent of the closed form.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping

from ..info.d_eps import d_eps_definition_mp  # noqa: F401  (re-exported: the claims' 50-digit reference)
from ..intervals.interval import Interval
from .prover import ProofResult, as_box, prove


@dataclass
class Claim:
    """An inequality margin(x) >= 0 (or > 0, or >= -tol) to prove over a box of named parameters."""

    name: str
    statement: str
    margin: Callable[[dict], Interval]
    point_margin: Callable[[dict], object] | None
    box: dict  # natural box: name -> (lo, hi)
    source: str = ""
    tol: float = 0.0
    strict: bool = False
    constraint: Callable[[dict], Interval] | None = None
    scales: dict = field(default_factory=dict)

    @property
    def variables(self) -> list[str]:
        return list(self.box)

    def full_box(self, box: Mapping | None = None) -> dict:
        """The natural box with the given entries replaced (unknown names are an error)."""
        out = dict(self.box)
        for k, v in (box or {}).items():
            if k not in out:
                raise ValueError(f"{self.name}: unknown box variable {k!r} (variables: {', '.join(out)})")
            out[k] = v
        return out

    def prove(self, box: Mapping | None = None, **limits) -> ProofResult:
        """Prove on ``box`` (default: the natural box; entries given replace the natural ones)."""
        b = self.full_box(box)
        return prove(self.margin, b, point_margin=self.point_margin, claim=self.name, statement=self.statement,
                     tol=self.tol, strict=self.strict, constraint=self.constraint, scales=self.scales or None,
                     **limits)


def _mp_quantities():
    """The mpmath function table with d_ε from its definition (independent of the closed form)."""
    from .sympy_eval import mp_function_table

    return mp_function_table(d_eps_definition_mp)


def margin_expression(lhs, rhs, op: str, eq_tol=None):
    """The sympy margin of ``lhs op rhs`` (>= 0 exactly where it holds): rhs - lhs for <=/<, lhs - rhs for
    >=/>, and for == ``eq_tol * max(1, |lhs|, |rhs|) - |lhs - rhs|`` (a relative tolerance; None: exact, 0)."""
    import sympy

    if op in ("<=", "<"):
        return rhs - lhs
    if op in (">=", ">"):
        return lhs - rhs
    if op == "==":
        d = sympy.Abs(lhs - rhs)
        if eq_tol is None or eq_tol == 0:
            return -d
        return sympy.Float(eq_tol) * sympy.Max(1, sympy.Abs(lhs), sympy.Abs(rhs)) - d
    raise ValueError(f"op must be one of <=, <, >=, >, == (got {op!r})")


def comparisons_claim(pieces, box: Mapping, *, functions: dict | None = None, mp_functions: dict | None = None,
                      eq_tol: float | None = 1e-9, name: str = "", statement: str = "", rewrite: bool = True,
                      definition_mp: bool = True) -> Claim:
    """Claim: every comparison ``(op, lhs, rhs)`` of ``pieces`` (exact sympy expressions, e.g. from the single
    parser boundcalc.verify.expression) holds at every point of ``box``.

    The margin is the minimum of the pieces' margins (``margin_expression``), each rewritten by
    ``sympy_eval.rewrite_identities`` (kl - d_eps and c eps tv - d_eps become the identity margins of
    ``enclosures``) and enclosed by ``sympy_eval.interval_eval``; ``functions`` adds interval rules (name ->
    f(*Intervals) -> Interval, e.g. registered bounds), ``mp_functions`` the matching mpmath functions for the
    50-digit point margin. With ``definition_mp`` the point margin takes d_eps from its definition (seed 001
    Eq. 6, a 50-digit minimisation), independent of the closed form the enclosures use. A strict piece makes the
    whole claim strict (> 0: conservative for the non-strict pieces, never a false counterexample: a
    counterexample needs the 50-digit margin below 0)."""
    import mpmath
    import sympy

    from ..intervals.interval import imin
    from .sympy_eval import QUANTITY_FUNCTIONS, _mp_functions, interval_eval, rewrite_identities

    pieces = [(op, sympy.sympify(L), sympy.sympify(R)) for op, L, R in pieces]
    if not pieces:
        raise ValueError("no comparison given")
    ms = [margin_expression(L, R, op, eq_tol) for op, L, R in pieces]
    ms_iv = [rewrite_identities(m) if rewrite else m for m in ms]
    syms = sorted(set().union(*(m.free_symbols for m in ms)), key=lambda t: t.name)
    missing = [t.name for t in syms if t.name not in box]
    if missing:
        raise ValueError(f"no box range for {', '.join(missing)}")
    fns = dict(QUANTITY_FUNCTIONS, **(functions or {}))
    mp_base = _mp_quantities() if definition_mp else _mp_functions()
    mods = [dict(mp_base, **(mp_functions or {})), "mpmath"]
    f_mp = [sympy.lambdify(syms, m, modules=mods) for m in ms]

    def margin(b):
        return imin(*(interval_eval(m, b, fns) for m in ms_iv))

    def point_margin(p):
        args = [p[t.name] for t in syms]
        vals = [f(*args) for f in f_mp]
        if any(isinstance(v, mpmath.mpc) and v.imag != 0 for v in vals):
            raise ValueError("not real at this point (outside the domain)")
        return min(mpmath.mpf(v.real if isinstance(v, mpmath.mpc) else v) for v in vals)

    ops = " and ".join(f"{L} {op} {R}" for op, L, R in pieces)
    if any(op == "==" for op, _, _ in pieces) and eq_tol:
        ops += f" (== within a relative tolerance of {eq_tol:g})"
    return Claim(name=name or ops, statement=statement or f"for every point of the box: {ops}",
                 margin=margin, point_margin=point_margin,
                 box={k: tuple(v) if not isinstance(v, Interval) else (v.lo, v.hi) for k, v in box.items()},
                 strict=any(op in ("<", ">") for op, _, _ in pieces))


def inequality(lhs, rhs, op: str = "<=", box: Mapping | None = None, *, tol: float = 0.0, name: str = "",
               statement: str = "", rewrite: bool = True) -> Claim:
    """Claim ``lhs op rhs`` (op in <=, <, >=, >, ==; == means |lhs - rhs| <= tol) over ``box``.

    lhs/rhs are sympy expressions (text goes through the one restricted parser first:
    ``boundcalc.verify.expression.to_sympy``). Every free symbol needs a box entry.
    """
    import mpmath
    import sympy

    from .sympy_eval import interval_eval, rewrite_identities

    if isinstance(lhs, str) or isinstance(rhs, str):
        raise TypeError("inequality() takes sympy expressions; parse text with boundcalc.verify.expression.to_sympy")
    L, R = sympy.sympify(lhs), sympy.sympify(rhs)
    if op not in ("<=", "<", ">=", ">", "=="):
        raise ValueError(f"op must be one of <=, <, >=, >, == (got {op!r})")
    m = None if op == "==" else margin_expression(L, R, op)
    names = sorted({s.name for s in (L.free_symbols | R.free_symbols)})
    box = dict(box or {})
    missing = [n for n in names if n not in box]
    if missing:
        raise ValueError(f"no box range for {', '.join(missing)}")
    if m is not None:
        m_iv = rewrite_identities(m) if rewrite else m
        diff = None
    else:
        diff = L - R
        m_iv = None
    syms = sorted(L.free_symbols | R.free_symbols, key=lambda s: s.name)
    mods = [_mp_quantities(), "mpmath"]
    f_m = sympy.lambdify(syms, m if m is not None else diff, modules=mods)

    def margin(b):
        if m_iv is not None:
            return interval_eval(m_iv, b)
        d = interval_eval(diff, b)
        from ..intervals.interval import abs_

        return Interval(tol) - abs_(d)

    def point_margin(p):
        v = f_m(*(p[s.name] for s in syms))
        if m is None:
            return mpmath.mpf(tol) - abs(v)
        return v

    title = name or f"{L} {op} {R}"
    what = statement or (f"for every point of the box: {L} {op} {R}" +
                         (f" (within {tol:g})" if (op == "==" or tol) else ""))
    return Claim(name=title, statement=what, margin=margin, point_margin=point_margin,
                 box={k: tuple(v) if not isinstance(v, Interval) else (v.lo, v.hi) for k, v in box.items()},
                 tol=0.0 if op == "==" else tol, strict=op in ("<", ">"))


__all__ = ["Claim", "inequality", "comparisons_claim", "margin_expression", "d_eps_definition_mp", "as_box"]
