"""A bound's assumptions over a box of ``boundcalc check``: where each one holds, where it fails, and the prover's
constraint (issue 15: "each assumption, as data, is used by the prover").

For every ``bound("ID", …)`` call of EXPR, each assumption relation of the bound
(``rigorous.bound_calls.assumption_relations``: a built-in bound's ``requires``, a declared bound's ``assumptions``)
becomes a function of the box: each of its names is replaced by the call's keyword argument (an expression of the
box parameters: ``T=T``, ``rho=rho``, ``T=10*S`` …) or, for a name the call does not give, by the instance's value
(the setting's default instance, as the bound's value itself; when the call overrides instance parameters, a name
computed from the instance — the rank of the actions with d= — is taken from the registry's context at every corner
of the keywords' ranges and must be the same at all of them, else ``check`` says so and uses the grid). Written g ≥ 0 (g > 0 for a strict relation), g is
enclosed by the sound interval arithmetic of boundcalc.rigorous (both backends) on sub-boxes: a sub-box where g
surely satisfies the relation holds, one where it surely fails is outside the assumptions, a mixed one is bisected
(along the relation's own variables, in log scale where the prover splits in log scale) until the effort limits.
The volumes of the two kinds give the share of the box outside the assumption, as an interval [lo, hi] (the mixed
sub-boxes left at the limits make up the difference; linear volume, as the uniform samples of the domain gaps).

The prover then gets the relations as its ``constraint`` (boundcalc.rigorous.prover: sub-boxes where a relation
surely fails are dropped, a counterexample is only reported at a point where every relation holds); its verdict
becomes "proven where the assumptions of ID hold" with each failing assumption named — or, when one assumption
fails on the whole box, "outside the assumptions" (neither proven nor a counterexample). The vocabulary follows
the domain gaps of ``check`` ("proven where defined", docs/verify.md).
"""

from __future__ import annotations

import heapq
import math
import re
import time
from dataclasses import dataclass, field

MAX_BOXES = 4000  # sub-boxes per relation
MAX_DEPTH = 80
FLIP = {">=": "<", ">": "<=", "<=": ">", "<": ">="}


@dataclass
class AssumptionGap:
    """One assumption of one bound call, over the box: ``fraction`` = [lo, hi] of the box's volume where it fails
    (proven by interval arithmetic: at least ``lo`` surely fails, at most ``hi`` may), ``example`` a point where it
    surely fails (None if none was found), ``everywhere`` if it fails at every point of the box."""

    bound: str
    assumption: str
    where: str  # e.g. "T < 2"
    fraction: tuple
    example: dict | None
    everywhere: bool = False
    call: str = ""
    at: str = ""  # the call's keyword arguments when they are not the names themselves ("T = 10*S")
    boxes: int = 0
    constant: bool = False  # the relation does not depend on the box (instance values or constant keywords)
    margin: object = None  # sympy g (holds where g >= 0, or > 0 if strict)
    strict: bool = False

    @property
    def holds_everywhere(self) -> bool:
        return self.fraction[1] == 0

    def share(self) -> str:
        lo, hi = self.fraction
        if self.everywhere:
            return "the whole box"
        if lo == 0 and self.example is not None:
            return f"a set of measure zero, e.g. {_fmt_point(self.example)}"
        if hi - lo <= 1e-3 * max(hi, 1e-12) or hi - lo < 5e-7:
            return f"{_pct((lo + hi) / 2)} of the box"
        return f"between {_pct(lo)} and {_pct(hi)} of the box"

    def text(self) -> str:
        at = f" (with {self.at})" if self.at else ""
        if self.everywhere:
            return f"assumption '{self.assumption}' of {self.bound} fails on the whole box ({self.where}{at})"
        if self.fraction[0] == 0 and self.example is None:
            return (f"assumption '{self.assumption}' of {self.bound} is not proven on the box (it may fail where "
                    f"{self.where}{at}, on at most {_pct(self.fraction[1])} of the box)")
        return f"assumption '{self.assumption}' of {self.bound} fails where {self.where}{at} ({self.share()})"

    def to_json(self) -> dict:
        return {"bound": self.bound, "assumption": self.assumption, "fails_where": self.where,
                "fraction_of_box": (self.fraction[0] + self.fraction[1]) / 2,
                "fraction_bounds": list(self.fraction), "example": self.example, "everywhere": self.everywhere,
                "call": self.call, "with": self.at or None, "boxes": self.boxes}


def _pct(x: float) -> str:
    return f"{100 * x:.3g}%"


def _fmt_point(pt: dict) -> str:
    return ", ".join(f"{k}={v:.6g}" for k, v in pt.items())


def relation_margin(rel):
    """(g, strict) with the relation equivalent to g >= 0 (g > 0 when strict)."""
    op = rel.rel_op
    if op in (">=", ">"):
        return rel.lhs - rel.rhs, op == ">"
    if op in ("<=", "<"):
        return rel.rhs - rel.lhs, op == "<"
    raise ValueError(f"the relation {rel} is not one of < <= > >=")


def fails_text(text: str, rel) -> str:
    """'T >= 2' -> 'T < 2' (the text's own operands; sympy's negation if the text has no single operator)."""
    m = re.fullmatch(r"\s*(.+?)\s*(<=|>=|<|>)\s*(.+?)\s*", text)
    if m is not None and not re.search(r"[<>]", m.group(1) + m.group(3)):
        return f"{m.group(1)} {FLIP[m.group(2)]} {m.group(3)}"
    import sympy

    return str(sympy.Not(rel))


def holds(iv, strict: bool) -> bool:
    return iv.lo > 0 if strict else iv.lo >= 0


def fails(iv, strict: bool) -> bool:
    return iv.hi <= 0 if strict else iv.hi < 0


def measure(g, strict: bool, box: dict, scales: dict, seconds: float = 1.0, max_boxes: int = MAX_BOXES):
    """Bisect the box along g's variables: (fraction surely failing, fraction not surely holding, example point of
    a sure failure or None, sub-boxes evaluated, fails everywhere). Fractions are of the box's linear volume;
    "everywhere" when every sub-box of the cover surely fails."""
    from ..intervals.interval import DomainError, Interval
    from ..rigorous.prover import _measure, _split_point
    from ..rigorous.sympy_eval import interval_eval

    names = sorted({s.name for s in g.free_symbols})
    root = {k: (v if isinstance(v, Interval) else Interval(float(v[0]), float(v[1]))) for k, v in box.items()}
    width = {k: root[k].hi - root[k].lo for k in names}
    init = {k: (_measure(root[k], scales.get(k, "lin")) or 1.0) for k in names}

    def frac(b):
        out = 1.0
        for k in names:
            if width[k] > 0:
                out *= (b[k].hi - b[k].lo) / width[k]
        return out

    t0 = time.perf_counter()
    fail = 0.0
    mixed = 0.0
    example = None
    evals = 0
    heap = [(-1.0, 0, 0, root)]
    counter = 0
    anywhere_else = False
    while heap:
        negf, depth, _, b = heapq.heappop(heap)
        f = -negf
        evals += 1
        try:
            c = interval_eval(g, b)
        except (DomainError, ValueError, ZeroDivisionError, OverflowError):
            c = None
        if c is not None and holds(c, strict):
            anywhere_else = True
            continue
        if c is not None and fails(c, strict):
            fail += f
            if example is None:
                example = {k: (b[k].lo if b[k].is_point() else _split_point(b[k], scales.get(k, "lin")))
                           for k in root}
            continue
        split = [k for k in names if _measure(b[k], scales.get(k, "lin")) > 0]
        if (not split or depth >= MAX_DEPTH or evals >= max_boxes or time.perf_counter() - t0 > seconds):
            mixed += f
            anywhere_else = True
            continue
        k = max(split, key=lambda n: _measure(b[n], scales.get(n, "lin")) / init[n])
        s = _split_point(b[k], scales.get(k, "lin"))
        for part in (Interval(b[k].lo, s), Interval(s, b[k].hi)):
            nb = dict(b)
            nb[k] = part
            counter += 1
            heapq.heappush(heap, (-frac(nb), depth + 1, counter, nb))
    if example is None and mixed > 0:  # a failure on a set of measure zero (rho > 0 at rho = 0): the corners
        example = _failing_corner(g, strict, root, names)
    fail = min(fail, 1.0)
    return fail, min(fail + mixed, 1.0), example, evals, not anywhere_else


def _failing_corner(g, strict, root, names):
    import itertools

    from ..intervals.interval import DomainError, Interval
    from ..rigorous.sympy_eval import interval_eval

    free = [k for k in names if not root[k].is_point()][:10]
    for ends in itertools.product((0, 1), repeat=len(free)):
        pt = {k: (root[k].lo, root[k].hi)[ends[free.index(k)]] if k in free else root[k].lo for k in root}
        try:
            c = interval_eval(g, {k: Interval(v) for k, v in pt.items()})
        except (DomainError, ValueError, ZeroDivisionError, OverflowError):
            continue
        if fails(c, strict):
            return pt
    return None


@dataclass
class Analysis:
    """The assumptions of every bound call of EXPR over the box."""

    gaps: list = field(default_factory=list)  # AssumptionGap with some part of the box failing (or not proven)
    checked: list = field(default_factory=list)  # every AssumptionGap (those holding on the whole box too)
    skipped: list = field(default_factory=list)  # relations not evaluated (a name with no value: computed by code)

    @property
    def everywhere(self) -> list:
        return [g for g in self.gaps if g.everywhere]

    def bounds_with_gaps(self) -> list:
        return list(dict.fromkeys(g.bound for g in self.gaps))

    def clipper(self):
        """A function shrinking a sub-box to the part allowed by the assumptions that are thresholds on one box
        parameter (``rho > 0.01``, ``T >= 2``, ``2*S - 3 >= 0``: g linear in one variable), or None when there is none.

        The prover encloses the margin over the clipped sub-box: it covers every point of the sub-box inside the
        assumptions (the clipping end is rounded outward, so no such point is lost), and a sub-box straddling a
        threshold where the bound is singular (1/(alpha - 3) at alpha = 3) is no longer undecided for ever. An empty
        clip (the sub-box is outside) leaves the sub-box as it is (the constraint drops it)."""
        import sympy

        from ..intervals.interval import Interval
        from ..rigorous.sympy_eval import interval_eval

        cuts = []  # (name, root enclosure, True: allowed above the root / False: below)
        for g in self.gaps:
            if g.constant or len(g.margin.free_symbols) != 1:
                continue
            (x,) = g.margin.free_symbols
            try:
                poly = sympy.Poly(g.margin, x)
            except sympy.PolynomialError:
                continue
            if poly.degree() != 1:
                continue
            a, b = poly.all_coeffs()
            if not (a.is_number and b.is_number) or a == 0:
                continue
            root = interval_eval(-b / a, {})
            cuts.append((x.name, root, bool(a > 0)))
        if not cuts:
            return None

        def clip(box):
            out = dict(box)
            for name, root, above in cuts:
                iv = out[name]
                lo, hi = (max(iv.lo, root.lo), iv.hi) if above else (iv.lo, min(iv.hi, root.hi))
                if lo > hi:
                    return box
                out[name] = Interval(lo, hi)
            return out

        return clip

    def constraint(self):
        """The prover's constraint (c >= 0 inside every assumption), or None when every assumption holds."""
        parts = [g for g in self.gaps if not g.constant]
        if not parts:
            return None
        from ..intervals.interval import INF, DomainError, Interval, imin
        from ..rigorous.sympy_eval import interval_eval

        def one(g, b):
            try:
                c = interval_eval(g.margin, b)
            except (DomainError, ValueError, ZeroDivisionError, OverflowError):
                return Interval(-INF, INF)
            if g.strict:  # g > 0: a box where g <= 0 surely fails; a point with g = 0 is outside
                lo = c.lo if c.lo > 0 else min(c.lo, -5e-324)
                hi = c.hi if c.hi > 0 else -5e-324
                return Interval(lo, hi)
            return c

        def constraint(b):
            return imin(*(one(g, b) for g in parts))

        return constraint


def analyse(pieces, calls: dict, box_iv: dict, seconds: float = 1.0) -> Analysis:
    """Every assumption relation of every bound call of the comparisons ``pieces`` over the box (see the module
    docstring). Raises ``NotEnclosable`` (a ValueError) for a relation that cannot be evaluated over the box."""
    import sympy

    from ..rigorous.bound_calls import NotEnclosable
    from ..intervals.interval import DomainError
    from ..rigorous.prover import as_box, default_scales
    from ..rigorous.sympy_eval import interval_eval

    out = Analysis()
    if not calls:
        return out
    env = as_box(box_iv)
    scales = default_scales(env)
    seen = set()
    for _, L, R in pieces:
        for f in sorted((L - R).atoms(sympy.core.function.AppliedUndef), key=str):
            name = type(f).__name__
            if name not in calls or (name, f.args) in seen:
                continue
            seen.add((name, f.args))
            c = calls[name]
            args = dict(zip(c.keys, f.args))
            call_text = f'bound("{c.bid}", ' + ", ".join(f"{k}={a}" for k, a in args.items()) + ")"
            for text, rel in c.relations:
                subs, shown = {}, []
                for s in rel.free_symbols:
                    kind, v = c.name_source(s.name)
                    if kind == "keyword":
                        subs[s] = args[v]
                        if args[v] != sympy.Symbol(s.name) and str(args[v]) != s.name:
                            shown.append(f"{s.name} = {args[v]}")
                    elif kind == "instance":
                        subs[s] = sympy.Rational(v)
                        shown.append(f"{s.name} = {v:g}")
                    else:
                        subs[s] = sympy.Rational(_code_value(c, s.name, args, env))
                        shown.append(f"{s.name} = {float(subs[s]):g}")
                g, strict = relation_margin(rel)
                g = sympy.sympify(g).xreplace(subs)
                # decimals of a relation parsed by sympify (the built-in ``requires``) as the exact decimal they
                # print (0.01 is 1/100, as in check's own expressions); a declared bound's are exact already
                g = g.xreplace({x: sympy.Rational(str(x)) for x in g.atoms(sympy.Float)})
                at = ", ".join(sorted(shown))
                where = fails_text(text, rel)
                if not g.free_symbols:
                    try:
                        cv = interval_eval(g, {})
                    except (DomainError, ValueError, ZeroDivisionError, OverflowError) as exc:
                        raise NotEnclosable(f"{c.bid}: its assumption {text!r} cannot be evaluated ({exc})") from None
                    if holds(cv, strict):
                        frac, ex = (0.0, 0.0), None
                    elif fails(cv, strict):
                        frac, ex = (1.0, 1.0), {k: v.mid for k, v in env.items()}
                    else:
                        raise NotEnclosable(f"{c.bid}: its assumption {text!r} is not decided at {at}")
                    gap = AssumptionGap(c.bid, text, where, frac, ex, everywhere=frac[0] == 1.0, call=call_text,
                                        at=at, constant=True, margin=g, strict=strict)
                else:
                    missing = [s.name for s in g.free_symbols if s.name not in env]
                    if missing:
                        raise NotEnclosable(f"{c.bid}: its assumption {text!r} needs {', '.join(missing)}")
                    lo, hi, ex, n, every = measure(g, strict, env, scales, seconds=seconds)
                    if every:
                        lo = hi = 1.0
                    gap = AssumptionGap(c.bid, text, where, (lo, hi), ex, everywhere=every, call=call_text,
                                        at=at, boxes=n, margin=g, strict=strict)
                out.checked.append(gap)
                if gap.fraction[1] > 0:
                    out.gaps.append(gap)
    return out


def _code_value(c, name: str, args: dict, env: dict) -> float:
    """A name computed by the bound's code (not a keyword, not an instance parameter): its value must be the same at
    every corner of the keyword ranges, up to a relative 1e-9 (the float noise of the code: a norm of 1 + 2e-16); else
    the relation is not enclosed (NotEnclosable)."""
    import itertools

    from ..rigorous.bound_calls import NotEnclosable
    from ..rigorous.sympy_eval import interval_eval

    ranges = {k: interval_eval(a, env) for k, a in args.items()}
    ends = [sorted({r.lo, r.hi}) for r in ranges.values()]
    vals = set()
    for corner in itertools.islice(itertools.product(*ends), 64):
        v = c.code_value(name, dict(zip(ranges, corner)))
        if not math.isfinite(v):
            raise NotEnclosable(f"{c.bid}: the name {name} of its assumptions is not finite on the box")
        vals.add(v)
    lo, hi = min(vals), max(vals)
    if hi - lo > 1e-9 * max(abs(lo), abs(hi)):  # more than the float noise of the code (a norm of 1 + 2e-16)
        raise NotEnclosable(f"{c.bid}: the name {name} of its assumptions is computed by code and changes over the box")
    return hi if hi == lo else (lo + hi) / 2


def over_box(bounds, box: dict, seconds: float = 1.0, instance: bool = True) -> Analysis:
    """The assumptions of ``bounds`` over a box whose parameters carry the bounds' own symbol names (the box of a
    lower <= upper pair: T, rho, d, K, …); a name the box does not carry takes the setting's default-instance value
    (with ``instance`` False it does not: the instance's K and d are the box's, so its computed values such as the
    rank of the actions are not the default instance's).
    A relation over a name with neither (a symbol computed by code) is not evaluated: it is listed under
    ``Analysis.skipped``."""
    import sympy

    from ..bounds import registry
    from ..rigorous.bound_calls import assumption_relations
    from ..intervals.interval import DomainError
    from ..rigorous.prover import as_box, default_scales
    from ..rigorous.sympy_eval import interval_eval

    out = Analysis()
    env = as_box(box)
    scales = default_scales(env)
    for b in bounds:
        inst = {k: float(v) for k, v in registry.make_context(b.setting).params.items()
                if isinstance(v, (int, float)) and not isinstance(v, bool)} if instance else {}
        for text, rel in assumption_relations(b):
            subs, shown, skip = {}, [], False
            for s in rel.free_symbols:
                if s.name in env:
                    subs[s] = sympy.Symbol(s.name, real=True)
                elif s.name in inst:
                    subs[s] = sympy.Rational(inst[s.name])
                    shown.append(f"{s.name} = {inst[s.name]:g}")
                else:
                    skip = True
            if skip:
                out.skipped.append(f"{b.id}: '{text}'")
                continue
            g, strict = relation_margin(rel)
            g = sympy.sympify(g).xreplace(subs)
            g = g.xreplace({x: sympy.Rational(str(x)) for x in g.atoms(sympy.Float)})
            where, at = fails_text(text, rel), ", ".join(sorted(shown))
            if not g.free_symbols:
                try:
                    cv = interval_eval(g, {})
                except (DomainError, ValueError, ZeroDivisionError, OverflowError):
                    out.skipped.append(f"{b.id}: '{text}'")
                    continue
                if holds(cv, strict):
                    frac, every = (0.0, 0.0), False
                elif fails(cv, strict):
                    frac, every = (1.0, 1.0), True
                else:
                    out.skipped.append(f"{b.id}: '{text}'")
                    continue
                gap = AssumptionGap(b.id, text, where, frac, None, everywhere=every, at=at, constant=True, margin=g,
                                    strict=strict)
            else:
                lo, hi, ex, n, every = measure(g, strict, env, scales, seconds=seconds)
                if every:
                    lo = hi = 1.0
                gap = AssumptionGap(b.id, text, where, (lo, hi), ex, everywhere=every, at=at, boxes=n, margin=g,
                                    strict=strict)
            out.checked.append(gap)
            if gap.fraction[1] > 0:
                out.gaps.append(gap)
    return out
