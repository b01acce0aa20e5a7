"""``boundcalc check "EXPR" --box …``: a proof by interval arithmetic first, the grid when no proof is possible.

One parse (boundcalc.verify.expression, the whitelist walk) feeds both methods:

* **proof** (default when every function of EXPR has an interval enclosure — kl, tv, d_eps, kl_inf, kl_gauss,
  the elementary functions, and registered bounds through their sympy expressions, boundcalc.rigorous.bound_calls):
  boundcalc.rigorous proves the comparisons on the whole box by outward-rounded interval arithmetic and
  adaptive bisection. Verdicts: "proven on the box (N boxes)", "counterexample at …" (re-checked at 50
  digits), "undecided on k boxes" (at the effort limits; the boxes are listed). An undecided proof is followed
  by the grid, whose 50-digit-confirmed counterexample (if any) becomes the verdict (method "grid").
* **grid** (``--method grid``, or a function without an enclosure — the Laplace/binomial/private tails — or a
  bound whose symbols are computed by code): "no counterexample on N points" or "counterexample at …".

The assumptions of the bounds called (relations as data: boundcalc.verify.assumptions) are evaluated over the box by
interval arithmetic first: a part of the box outside them is named with its share ("proven where the assumptions of
ID hold; assumption 'T >= 2' of ID fails where T < 2 (10% of the box)") and dropped from the proof; a box entirely
outside them is "outside the assumptions".

The arguments of kl, tv, d_eps (Bernoulli means in [0, 1], ε > 0) and the keywords of a bound (T >= 1, ρ > 0 …) have
their domains declared once (boundcalc.domains); the parser makes each a domain condition, exactly as for sqrt and
log: proven on the box, or a gap named with its share ("proven where defined"), or "undefined on the box". The
enclosures cover the part of an argument inside its domain only inside the proof (``where_defined``), which names
the rest; a witness must satisfy every condition at 50 digits. Before a proof a small grid (``VALIDATE_POINTS``) runs
the same evaluators (their other one-line errors come first). Integer parameters (counts, d, K) are proven on their
real interval, which contains every integer of it; a counterexample at a non-integer point is rounded and re-checked.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ..errors import InputError, flag
from ..rigorous.prover import boxes_text
from . import assumptions as _assumptions
from .box import exact_number

METHODS = ("auto", "proof", "grid")
VALIDATE_POINTS = 256
MAX_SECONDS = 10.0
MAX_BOXES = 20_000
EQ_TOL = 1e-9  # "==" is proven within this relative tolerance (and said so); identities are exact
MAX_RECHECK = 256  # grid: failing points re-checked at 50 digits (the worst ones, then a spread over all failures)
WORST_RECHECK = 12
FIRST_POINT_SECONDS = 5.0  # extra time for the grid's first point (it pays the lazy imports of the functions)
NAN_RECHECK = 64  # grid points undefined in float (an overflow such as inf - inf, or outside a domain) re-checked
TINY_RECHECK = 64  # grid points whose float margin is 0 or within underflow (|m| <= TINY) re-checked (50-200 digits)
TINY = 1e-300  # below this a float margin may be an underflow (x*y = 1e-398 rounds to 0): its sign is not known
DOMAIN_SAMPLES = 4096  # uniform points estimating the share of the box outside a function's domain
ASSUMPTION_POINTS = 256  # grid points (and every corner) where a bound's assumptions stated as code are evaluated


@dataclass
class CheckOutcome:
    """What ``check`` found. ``verdict`` is the sentence ("proven on the box (12 boxes)", "counterexample at x=…",
    "undecided on 3 boxes", "no counterexample on 4096 points"); ``word`` its first words."""

    method: str
    word: str
    verdict: str
    parsed: Any
    domain: Any
    boxes: int | None = None
    points: int | None = None
    counterexample: dict | None = None
    undecided: list = field(default_factory=list)
    n_undecided: int = 0
    min_margin: float | None = None
    seconds: float | None = None
    notes: list = field(default_factory=list)
    proof: Any = None  # rigorous.prover.ProofResult
    grid: Any = None  # GridResult
    domain_gaps: list = field(default_factory=list)  # DomainGap: parts of the box outside a function's domain
    equality: dict | None = None  # how == was decided: {"tolerance", "kind": "relative" | "exact", ...}
    assumption_gaps: list = field(default_factory=list)  # assumptions.AssumptionGap: a bound's assumption failing
    defaults: dict = field(default_factory=dict)  # bound call (as written) -> values taken from the default instance


def enclosure_obstacles(p) -> tuple[list[str], dict]:
    """Why EXPR has no interval enclosure (empty list: it has one) and the enclosed bound calls by name."""
    from ..rigorous.bound_calls import NotEnclosable, bound_call

    why = [f"{f}() has no interval enclosure" for f in p.no_enclosure]
    calls = {}
    for name, (bid, keys, seg) in p.bound_calls.items():
        try:
            calls[name] = bound_call(bid, keys)
        except NotEnclosable as exc:
            why.append(str(exc))
    return why, calls


def _fmt_point(pt: dict) -> str:
    return ", ".join(f"{k}={v:.6g}" for k, v in pt.items())


def box_texts(box: str | None) -> dict:
    """{name: (lo text, hi text)} of a ``--box`` text as written (parsed and checked by box.parse_box already)."""
    out = {}
    for item in str(box or "").split(","):
        name, _, rng = item.partition("=")
        lo, colon, hi = rng.partition(":")
        out[name.strip()] = (lo.strip(), (hi if colon else lo).strip())
    return out


def mp_point(dom, pt: dict) -> dict:
    """A point of the box at the working mpmath precision: a coordinate at an end of its range is that end as the
    user wrote it (``--box x=0:0.1`` ends at 1/10, as the literal 0.1 of EXPR, not at the double above it), any
    other coordinate is its double exactly."""
    import mpmath

    from .box import outward_double

    texts = getattr(dom, "texts", None) or {}
    out = {}
    for k, x in pt.items():
        v = mpmath.mpf(x)
        for side, t in zip((-1, +1), texts.get(k, ())):
            try:
                # the end as parsed: the nearest double, or the next one outward (box.parse_box) for a range's end
                if t and float(x) in (float(t), outward_double(t, float(t), side)):
                    v = mpmath.mpf(t.replace("_", ""))
                    break
            except (TypeError, ValueError):
                continue
        out[k] = v
    return out


def _fmt_cex(pt: dict) -> str:
    """A counterexample point, every coordinate exact (exact_number)."""
    return ", ".join(f"{k}={exact_number(v)}" for k, v in pt.items())


# ---------------------------------------------------------------------------------------------------
# a witness, confirmed before it is called a counterexample
# ---------------------------------------------------------------------------------------------------
WITNESS_DIGITS = (50, 100, 200)  # the mpmath re-check of a witness: two consecutive margins must agree
WITNESS_AGREE = 1e-10  # relative agreement of the two values (rounding noise changes with the precision)


@dataclass
class Witness:
    """Whether the statement fails at one point, decided without the strict shift (``status`` "fails", "holds" or
    "unknown"), ``how`` it was decided (or why not), ``value`` the margin found (text)."""

    status: str
    how: str
    value: str = ""


def exact_coordinates(dom, pt: dict) -> dict:
    """{name: Fraction}: the point as ``check`` means it. A coordinate at an end of its range is the end as written
    (``--box x=1e-400:1`` starts at 10^-400, not at the double 0; mp_point does the same at working precision); any
    other coordinate is its double exactly."""
    from fractions import Fraction

    from .box import outward_double

    texts = getattr(dom, "texts", None) or {}
    out = {}
    for k, x in pt.items():
        v = Fraction(float(x))
        for side, t in zip((-1, +1), texts.get(k, ())):
            try:
                if t and float(x) in (float(t), outward_double(t, float(t), side)):
                    v = Fraction(t.replace("_", ""))
                    break
            except (TypeError, ValueError, ZeroDivisionError):
                continue
        out[k] = v
    return out


_HOLDS = {"<=": lambda d: d >= 0, "<": lambda d: d > 0, ">=": lambda d: d <= 0, ">": lambda d: d < 0,
          "==": lambda d: d == 0}  # d = rhs - lhs


def _exact_status(p, q: dict) -> Witness | None:
    """The statement at the point ``q`` (exact Fractions) in exact arithmetic: each comparison's rhs − lhs as an exact
    sympy number (decimal literals and the point as rationals), its sign read off a rational or from sympy's evalf
    with ``strict`` (every digit guaranteed, else PrecisionExhausted). None when this cannot decide (a bound call,
    a quantity without an exact form, a value 0 that sympy does not reduce to 0)."""
    import sympy

    try:
        pieces = p.comparisons()
    except Exception:  # noqa: BLE001 - no exact form: the mpmath re-check decides
        return None
    fails = False
    for op, L, R in pieces:
        d = sympy.sympify(R) - sympy.sympify(L)
        if d.atoms(sympy.core.function.AppliedUndef):
            return None
        d = d.xreplace({s: sympy.Rational(q[s.name].numerator, q[s.name].denominator)
                        for s in d.free_symbols if s.name in q})
        if d.free_symbols:
            return None
        if d.is_Rational:
            val = d
        else:
            try:
                val = d.evalf(30, strict=True, maxn=700)
            except Exception:  # noqa: BLE001 - PrecisionExhausted (0 or too close to it), no numeric form
                return None
            if not val.is_Float or val == 0:
                return None
        if not _HOLDS[op](val):
            fails = True
    return Witness("fails" if fails else "holds", "exact rationals")


def _judge_at_witness(res, p, dom, pt: dict, margin: float, v) -> str:
    """A grid point whose 50-digit margin is below -1e-40, confirmed at the point (:func:`confirm_witness`) before it
    is called a counterexample: "fails" (``res.counterexample`` set), "unknown" (counted in ``res.unconfirmed``) or
    "holds"."""
    import mpmath

    w = confirm_witness(p, dom, pt)
    if w.status == "fails":
        res.counterexample = dict(pt, margin=margin, margin_50_digits=mpmath.nstr(v, 12), confirmed=w.how)
    elif w.status == "unknown":
        res.unconfirmed += 1
        res.unconfirmed_why = w.how
    return w.status


def confirm_witness(p, dom, pt: dict) -> Witness:
    """Does the statement really fail at ``pt``? Decided without the strict comparisons' shift (MP_STRICT, which
    makes equality count as a violation in the 50-digit margins): in exact arithmetic where sympy can (the point and
    the literals as rationals: ``x - 1 > -1e-41`` at x = 1 is 10^-41 > 0, it holds; ``x*0.5 > 0`` at x = 5e-324 holds
    although float rounds the product to 0), else by the margin at 50, 100 and 200 digits, two consecutive values of
    which must have one sign and agree to a relative WITNESS_AGREE (a margin of exactly 0, or values that disagree, are not decided: rounded
    arithmetic cannot tell equality from a tiny difference)."""
    import mpmath

    q = exact_coordinates(dom, {k: pt[k] for k in p.variables if k in pt})
    w = _exact_status(p, q)
    if w is not None:
        return w
    if p.margin_mp is None:
        return Witness("unknown", "no arbitrary-precision form")
    prev = None
    for digits in WITNESS_DIGITS:
        with mpmath.workdps(digits):
            env = {k: mpmath.mpf(v.numerator) / v.denominator for k, v in q.items()}
            try:
                v = p.margin_mp(0, **env)
            except (ValueError, ZeroDivisionError):
                return Witness("unknown", f"undefined at {digits} digits")
            except OverflowError:
                return Witness("unknown", "beyond the range of the re-check")
            if isinstance(v, mpmath.mpc) or mpmath.isnan(v):
                return Witness("unknown", f"undefined at {digits} digits")
            if v == 0:
                return Witness("unknown", f"the margin is 0 at {digits} digits (equality, or a difference below the "
                               "precision: rounded arithmetic cannot tell)")
            if prev is not None and (prev[1] < 0) == (v < 0) and (prev[1] == v or
                                                                   abs(prev[1] - v) <= WITNESS_AGREE * abs(v)):
                return Witness("fails" if v < 0 else "holds", f"mpmath at {prev[0]} and {digits} digits",
                               mpmath.nstr(v, 12))
            prev = (digits, v)
    return Witness("unknown", "the margins at " + ", ".join(map(str, WITNESS_DIGITS)) + " digits disagree (rounding "
                   "noise)")


# ---------------------------------------------------------------------------------------------------
# where EXPR is defined
# ---------------------------------------------------------------------------------------------------
@dataclass
class DomainGap:
    """A part of the box outside the domain of one function of EXPR: ``where`` (e.g. "x < 0") fails the condition
    ``condition`` (e.g. "x >= 0") of ``function``; ``fraction`` of the box's volume (from ``samples`` uniform
    points; 0 for a set of measure zero such as y = 0), ``example`` one point of the gap (None if none was
    sampled: the condition is then only not proven on the box), ``everywhere`` if no point of the box is inside."""

    function: str
    condition: str
    where: str
    fraction: float
    samples: int
    example: dict | None
    everywhere: bool = False
    analysed: bool = True  # False: the time limit came first (the condition may fail anywhere)
    only_at_double: str = ""  # the failing point is a box end's double, not the end as written (1e-400 -> 0)

    def text(self) -> str:
        fn = {"division": "a division", "power": "a real power"}.get(self.function, self.function)
        if self.only_at_double:
            return (f"{self.condition} ({fn}) holds at the box's ends as written; it fails at {self.only_at_double}, "
                    "a double outside the box as written (the box end underflows or has more digits than a double)")
        if not self.analysed:
            return f"{self.condition} ({fn}) not analysed (time limit): the box may reach outside its domain"
        if self.example is None:
            return f"{self.condition} ({fn}) is not proven on the box (no sampled point violates it)"
        if self.everywhere:
            return f"outside the domain of {fn} on the whole box ({self.where})"
        if self.fraction > 0:
            pct = 100 * self.fraction
            return f"outside the domain of {fn} where {self.where} ({pct:.3g}% of the box)"
        return (f"outside the domain of {fn} where {self.where} (no uniform sample of {self.samples} fell in it, e.g. "
                f"{_fmt_point(self.example)})")

    def to_json(self) -> dict:
        return {"function": self.function, "condition": self.condition, "outside_where": self.where,
                "fraction_of_box": self.fraction if self.analysed else None, "uniform_samples": self.samples,
                "example": self.example,
                "everywhere": self.everywhere, "analysed": self.analysed, "only_at_double": self.only_at_double or None}


def _uniform_points(dom, names, n: int) -> dict:
    """``n`` uniform points on the box (linear in every coordinate; fixed seed: the same report every run)."""
    import numpy as np

    rng = np.random.default_rng(np.random.SeedSequence(17))
    out = {}
    for k in names:
        lo, hi = dom.range(k)
        u = rng.uniform(size=n)
        out[k] = lo * (1.0 - u) + hi * u  # no hi - lo (it overflows on -1e308:1e308)
    return out


def _corner_points(dom, names, cap: int = 1024) -> dict:
    import itertools

    import numpy as np

    free = [k for k in names if not dom.is_point(k)]
    combos = list(itertools.islice(itertools.product((0, 1), repeat=len(free)), cap))
    out = {k: np.full(len(combos), dom.value(k)) for k in names}
    for j, k in enumerate(free):
        lo, hi = dom.range(k)
        out[k] = np.array([(lo, hi)[c[j]] for c in combos], dtype=float)
    return out


def _fails(kind: str, c):
    import numpy as np

    with np.errstate(all="ignore"):
        return {">=0": c < 0, ">0": c <= 0, "!=0": c == 0}[kind]


def domain_gaps(p, dom, fns: dict | None = None, seconds: float = 1.0) -> list[DomainGap]:
    """The parts of the box outside the domain of EXPR's functions (sqrt, log, log1p, real powers, denominators).
    A condition proven on the whole box (interval arithmetic, boundcalc.rigorous.prover) gives no gap; otherwise
    uniform samples and the corners locate the gap and estimate its share of the box."""
    import numpy as np
    import sympy

    from ..intervals.interval import Interval
    from ..rigorous.prover import prove
    from ..rigorous.sympy_eval import interval_eval

    names = list(p.variables)
    box = {k: dom.range(k) for k in names}
    out: list[DomainGap] = []
    seen = set()
    uni = _uniform_points(dom, names, DOMAIN_SAMPLES)
    cor = _corner_points(dom, names)
    for k in names:  # and the centre of the box (x/x on x=-1:1 is undefined at x = 0 only)
        lo, hi = dom.range(k)
        cor[k] = np.append(cor[k], lo / 2 + hi / 2)
    for cond in p.domain:
        if (cond.kind, cond.source) in seen:
            continue
        seen.add((cond.kind, cond.source))
        c = sympy.sympify(cond.exact())
        margin = (lambda b, c=c: interval_eval(sympy.Abs(c), b, fns)) if cond.kind == "!=0" else \
            (lambda b, c=c: interval_eval(c, b, fns))
        found = None
        try:
            r = prove(margin, box, strict=cond.kind != ">=0", max_seconds=seconds, max_boxes=2000, split="widest",
                      point_margin=_condition_point(c, names, cond.kind))
            if r.proven:
                continue
            if r.verdict == "counterexample":  # a point outside the domain, confirmed at 50 digits
                found = {k: float(r.counterexample["point"][k]) for k in names}
        except (TypeError, KeyError):  # no interval rule for a part of the argument: sample it
            pass
        with np.errstate(all="ignore"):
            cu = np.broadcast_to(np.asarray(cond.np(uni), dtype=float), (DOMAIN_SAMPLES,))
            cc = np.asarray(cond.np(cor), dtype=float)
            cc = np.broadcast_to(cc, next(iter(cor.values())).shape)
        fu, fc = _fails(cond.kind, cu), _fails(cond.kind, cc)
        frac = float(fu.sum()) / DOMAIN_SAMPLES
        example = None
        for pts, f in ((cor, fc), (uni, fu)):
            if f.any():
                i = int(np.flatnonzero(f)[0])
                example = {k: float(pts[k][i]) for k in names}
                break
        if example is None:
            example = found
        only_at_double = ""
        if frac == 0 and example is not None and getattr(dom, "texts", None):
            fails_written = [pt for pt in _failing_points(cor, fc, names) + ([found] if found else [])
                             if _condition_fails_exactly(c, cond.kind, exact_coordinates(dom, pt)) is not False]
            if not fails_written:  # every failure found is at an end's double, where the end as written is inside
                only_at_double = _fmt_point(example)
            else:
                example = fails_written[0]
        everywhere = False
        if frac == 1.0 and fc.all() and cond.kind != "!=0":
            neg = (lambda b, c=c: -interval_eval(c, b, fns))
            try:
                everywhere = prove(neg, box, strict=cond.kind == ">=0", max_seconds=seconds, max_boxes=2000,
                                   split="widest").proven
            except (TypeError, KeyError):
                everywhere = False
        out.append(DomainGap(cond.function, cond.holds_text(), cond.fails_text(), frac, DOMAIN_SAMPLES, example,
                             everywhere, only_at_double=only_at_double))
    _ = Interval
    return out


def _failing_points(pts: dict, fails, names) -> list:
    import numpy as np

    return [{k: float(pts[k][i]) for k in names} for i in np.flatnonzero(fails)[:64]]


def _condition_fails_exactly(c, kind: str, q: dict):
    """Whether the domain condition ``c`` (kind >=0, >0, !=0) fails at the exact point ``q`` (Fractions): True, False,
    or None when sympy cannot decide (then it counts as failing)."""
    import sympy

    try:
        v = c.xreplace({s: sympy.Rational(q[s.name].numerator, q[s.name].denominator) for s in c.free_symbols
                        if s.name in q})
        if v.free_symbols:
            return None
        if not v.is_Rational:
            v = v.evalf(30, strict=True, maxn=700)
            if not v.is_Float or v == 0:
                return None
    except Exception:  # noqa: BLE001 - undecided: counts as failing
        return None
    return bool({">=0": v < 0, ">0": v <= 0, "!=0": v == 0}[kind])


def _condition_point(c, names, kind):
    """The 50-digit value of a domain condition's argument at a point (the prover's re-check of a point outside)."""
    import sympy

    from ..rigorous.sympy_eval import point_function

    made: list = []

    def f(pt):  # lambdified on the first candidate point only (most conditions are proven without one)
        if not made:
            made.append(point_function(sympy.Abs(c) if kind == "!=0" else c, names))
        return made[0](pt)

    return f


def _domain_constraint(p, gaps, fns):
    """The prover's constraint (boxes where a >=/> condition certainly fails are outside the domain, dropped)."""
    import sympy

    from ..intervals.interval import DomainError, Interval, imin
    from ..rigorous.sympy_eval import interval_eval

    conds = [sympy.sympify(c.exact()) for c in p.domain if c.kind in (">=0", ">0")
             and any(g.condition == c.holds_text() for g in gaps)]
    if not conds:
        return None

    def constraint(b):
        try:
            return imin(*(interval_eval(c, b, fns) for c in conds))
        except DomainError:  # a function inside a condition is asked on a box wholly outside its own domain
            return Interval(-1.0)

    return constraint


def _gap_suffix(gaps) -> str:
    return "; ".join(g.text() for g in gaps)


# ---------------------------------------------------------------------------------------------------
# the grid: time-limited evaluation, enough re-checks at 50 digits, undefined points reported
# ---------------------------------------------------------------------------------------------------
@dataclass
class GridResult:
    points: int  # grid points where the float margin is defined
    total: int  # grid points laid
    evaluated: int  # grid points evaluated before the time limit
    undefined: int  # evaluated points where the float margin is undefined (NaN)
    fails: int  # defined points with a negative float margin
    rechecked: int = 0
    holds_50: int = 0  # re-checked failures that hold at 50 digits (float noise)
    undefined_50: int = 0  # re-checked failures undefined at 50 digits (division by zero, outside a domain)
    beyond_50: int = 0  # re-checked failures beyond the 50-digit re-check's range (exp of more than 1e300)
    counterexample: dict | None = None
    min_margin: float | None = None
    time_limited: bool = False
    seconds: float = 0.0
    order: str = ""  # how the grid was ordered when a time limit cut it (", smallest counts first")
    nan_rechecked: int = 0  # points undefined in float, re-checked at 50 digits ...
    nan_holds: int = 0  # ... where the statement holds
    nan_undefined: int = 0  # ... undefined there too (outside a domain)
    nan_beyond: int = 0  # ... beyond the range of the 50-digit re-check
    tiny_rechecked: int = 0  # points with a float margin of 0 or within underflow, re-checked at 50 to 200 digits
    unconfirmed: int = 0  # failing at 50 digits (strict shift included) but not confirmed without it (confirm_witness)
    unconfirmed_why: str = ""
    holds_confirmed: int = 0  # failing at 50 digits with the strict shift, holding at the witness without it
    variables: tuple = ()  # the point's coordinates (the keys of ``counterexample`` that are not margins)

    def nan_note(self) -> str:
        if not self.nan_rechecked:
            return ""
        return (f"; of {self.nan_rechecked} of them re-checked at 50 digits, {self.nan_holds} hold, "
                f"{self.nan_undefined} are undefined and {self.nan_beyond} beyond its range")

    @property
    def unchecked(self) -> int:
        return self.fails - self.rechecked if self.counterexample is None else 0

    def to_json(self) -> dict:
        return {k: getattr(self, k) for k in ("points", "total", "evaluated", "undefined", "fails", "rechecked",
                                               "holds_50", "undefined_50", "beyond_50", "time_limited")}


def _recheck_order(bad, m, counts=()):
    """Failing points to re-check at 50 digits, in order: the WORST_RECHECK worst, then a spread over the ranks
    of all failures (the worst ones may all sit where the 50-digit value is undefined, e.g. y = 0 in x/y). With
    count parameters (a tail's n, m: its 50-digit cost grows with them) the selection is re-checked smallest
    counts first."""
    import numpy as np

    order = bad[np.argsort(m[bad])]
    if order.size > MAX_RECHECK:
        head = order[:WORST_RECHECK]
        ranks = np.unique(np.linspace(WORST_RECHECK, order.size - 1, MAX_RECHECK - WORST_RECHECK).round().astype(int))
        order = np.concatenate([head, order[ranks]])
    if len(counts):
        order = order[np.argsort(sum(c[order] for c in counts), kind="stable")]
    return order


def sample(p, dom, points: int = 4096, max_seconds: float = MAX_SECONDS) -> GridResult:
    """Evaluate EXPR's margin on a grid of about ``points`` points (in a fixed random order, in growing chunks, up to
    ``max_seconds``), then re-check failing points at 50 digits (up to MAX_RECHECK, also within ``max_seconds``)."""
    import time

    import mpmath
    import numpy as np

    from ..rigorous.deadline import TimeLimit, limit

    t0 = time.perf_counter()
    names = list(p.variables)
    g = dom.grid(names, points)
    total = next(iter(g.values())).size
    m = np.full(total, np.nan)
    done = np.zeros(total, dtype=bool)
    order = np.random.default_rng(np.random.SeedSequence(17)).permutation(total)
    counts = [k for k in p.integers if k in g]
    if counts:  # the work of a tail grows with its counts: smallest counts first, so a time limit drops the largest
        order = order[np.argsort(sum(g[k][order] for k in counts), kind="stable")]
    time_limited = False
    pos, chunk = 0, 1
    try:
        with limit(max_seconds + FIRST_POINT_SECONDS):  # the first point also pays the functions' imports
            with np.errstate(all="ignore"):
                m[order[0]] = np.asarray(p.margin_np(**{k: g[k][order[:1]] for k in names}), dtype=float).ravel()[0]
            done[order[0]] = True
            pos = 1
        with limit(max_seconds):
            while pos < total:
                t1 = time.perf_counter()
                idx = np.sort(order[pos:pos + chunk])
                with np.errstate(all="ignore"):
                    mm = np.asarray(p.margin_np(**{k: g[k][idx] for k in names}), dtype=float)
                m[idx] = np.broadcast_to(mm, idx.shape)
                done[idx] = True
                pos += idx.size
                # growing chunks while they are cheap (vectorised functions), single points when they are not
                chunk = min(chunk * 4, 1 << 16) if time.perf_counter() - t1 < max_seconds / 50 else max(chunk // 2, 1)
    except TimeLimit:
        time_limited = True
    defined = done & ~np.isnan(m)
    bad = np.flatnonzero(defined & (m < 0))
    res = GridResult(points=int(defined.sum()), total=int(total), evaluated=int(done.sum()),
                     undefined=int(done.sum() - defined.sum()), fails=int(bad.size), time_limited=time_limited,
                     variables=tuple(names))
    if defined.any():
        res.min_margin = float(np.min(m[defined]))
    try:
        with limit(max(max_seconds, 1.0)):
            for idx in _recheck_order(bad, m, [g[k] for k in counts]):
                pt = {k: float(g[k][idx]) for k in names}
                res.rechecked += 1
                if p.margin_mp is None:
                    res.counterexample = dict(pt, margin=float(m[idx]),
                                              recheck="float only (no arbitrary-precision form)")
                    break
                with mpmath.workdps(50):
                    try:
                        v = p.margin_mp(**mp_point(dom, pt))
                    except (ValueError, ZeroDivisionError):
                        res.undefined_50 += 1
                        continue
                    except OverflowError:
                        res.beyond_50 += 1
                        continue
                    if v < -mpmath.mpf(10) ** -40:
                        status = _judge_at_witness(res, p, dom, pt, float(m[idx]), v)
                        if status == "fails":
                            break
                        if status == "unknown":
                            continue
                        res.holds_confirmed += 1
                    elif v < 0 and res.tiny_rechecked < TINY_RECHECK:  # below the 50-digit floor: x <= 0 at x = 1e-400
                        res.tiny_rechecked += 1
                        w = confirm_witness(p, dom, pt)
                        if w.status == "fails":
                            res.counterexample = dict(pt, margin=float(m[idx]), margin_50_digits=mpmath.nstr(v, 12),
                                                      recheck="50-digit margin below its noise floor; confirmed at the "
                                                      "point", confirmed=w.how)
                            break
                res.holds_50 += 1
        if res.counterexample is None and res.undefined:  # points undefined in float (overflow?): a spread of them
            nan_idx = np.flatnonzero(done & np.isnan(m))
            pick = nan_idx[np.unique(np.linspace(0, nan_idx.size - 1, min(nan_idx.size, NAN_RECHECK)).round()
                                     .astype(int))]
            for idx in pick:
                pt = {k: float(g[k][idx]) for k in names}
                if p.margin_mp is None:
                    break
                res.nan_rechecked += 1
                with mpmath.workdps(50):
                    try:
                        v = p.margin_mp(**mp_point(dom, pt))
                    except (ValueError, ZeroDivisionError):
                        res.nan_undefined += 1
                        continue
                    except OverflowError:
                        res.nan_beyond += 1
                        continue
                    if v < -mpmath.mpf(10) ** -40:
                        status = _judge_at_witness(res, p, dom, pt, float(v), v)
                        if status == "fails":
                            break
                        if status == "unknown":
                            continue
                res.nan_holds += 1
        if res.counterexample is None and p.margin_mp is not None:  # float underflow hides the sign
            tiny = np.flatnonzero(defined & (np.abs(m) <= TINY) & ~(m < 0))
            pick = tiny[np.unique(np.linspace(0, tiny.size - 1, min(tiny.size, TINY_RECHECK)).round().astype(int))] \
                if tiny.size else tiny
            for idx in pick:
                pt = {k: float(g[k][idx]) for k in names}
                res.tiny_rechecked += 1
                v = _underflow_recheck(p, pt, dom)
                if v is not None:
                    w = confirm_witness(p, dom, pt)
                    if w.status != "fails":
                        res.unconfirmed += w.status == "unknown"
                        res.unconfirmed_why = w.how if w.status == "unknown" else res.unconfirmed_why
                        continue
                    res.counterexample = dict(pt, margin=float(m[idx]), margin_50_digits=mpmath.nstr(v, 12),
                                              recheck="float margin within underflow; negative at 50 digits and beyond",
                                              confirmed=w.how)
                    break
    except TimeLimit:
        res.time_limited = True
    if counts:
        res.order = ", smallest counts (" + ", ".join(counts) + ") first"
    res.seconds = time.perf_counter() - t0
    return res


def _underflow_recheck(p, pt: dict, dom=None):
    """The margin at a grid point whose float margin is 0 or within underflow, when it is negative at 50, 100 (and
    200) digits and two consecutive values agree to 20 digits (so it is the margin's own value, not the noise of a
    cancellation, which the grid's absolute floor of 1e-40 would reject for a value this small); else None."""
    import mpmath

    prev = None
    for digits in (50, 100, 200):
        with mpmath.workdps(digits):
            try:
                v = p.margin_mp(**mp_point(dom, pt))
            except (ValueError, ZeroDivisionError, OverflowError):
                return None
            if isinstance(v, mpmath.mpc) or not mpmath.isfinite(v) or not v < 0:
                return None
            if prev is not None and abs(prev - v) <= mpmath.mpf(10) ** -20 * abs(v):
                return v
            prev = v
    return None


def _grid_verdict(res: GridResult) -> tuple[str, str]:
    """(word, sentence) of a grid: a counterexample; "no counterexample" only when every failing float point was
    re-checked and holds (or is undefined) at 50 digits; else "undecided" with the counts."""
    part = "" if res.evaluated == res.total else \
        f" (evaluated {res.evaluated} of {res.total} grid points before the time limit{res.order})"
    und = (f"; {res.undefined} points undefined in float (outside a function's domain or a bound's assumptions, or "
           f"an overflow such as inf - inf){res.nan_note()}") if res.undefined else ""
    if res.counterexample is not None:
        pt = {k: v for k, v in res.counterexample.items() if k in res.variables}
        return "counterexample", "counterexample at " + _fmt_cex(pt)
    if res.points == 0 and res.fails == 0:
        why = "before the time limit" if res.time_limited else "(the expression is undefined at every grid point)"
        return "undecided", f"undecided: no grid point evaluated {why}" + part + und
    if res.fails == 0:
        return "no counterexample", f"no counterexample on {res.points} points" + part + und
    unresolved = res.unchecked + res.beyond_50 + res.unconfirmed
    if unresolved == 0 and res.undefined_50 == 0:
        conf = (f"; {res.holds_confirmed} of them fail at 50 digits only through the strict comparison's shift and hold "
                "at the point in exact arithmetic or at 50-200 digits") if res.holds_confirmed else ""
        return "no counterexample", (f"no counterexample on {res.points} points ({res.fails} float failures hold at "
                                     f"50 digits{conf})" + part + und)
    if unresolved == 0:
        return "no counterexample where defined", (
            f"no counterexample where defined on {res.points} points; {res.undefined_50} points failing in float are "
            f"undefined at 50 digits (division by zero or outside a function's domain)" + part + und)
    why = "the time limit" if res.time_limited else f"the re-check limit of {MAX_RECHECK} points"
    unc = (f", {res.unconfirmed} fail at 50 digits only through the strict comparison's shift or are not confirmed "
           f"exactly ({res.unconfirmed_why})") if res.unconfirmed else ""
    return "undecided", (f"undecided: {res.fails} of {res.points} grid points fail in float; {res.rechecked} "
                         "re-checked "
                         f"at 50 digits ({res.undefined_50} undefined there, {res.beyond_50} beyond its range, "
                         f"{res.holds_50} hold{unc}), {res.unchecked} not re-checked ({why})" + part + und)


def _outside_everywhere(p, dom, points: int = ASSUMPTION_POINTS) -> str | None:
    """Where no grid point was defined: the first bound call whose assumptions (its ``requires`` relations and those
    stated as code, ``conditions``: rigorous.bound_calls.BoundCall.failing_conditions) fail at every corner of the box
    and at every point of a grid of about ``points`` points, as "ID: the reason"; else None. (The relations alone
    are decided over the whole box by interval arithmetic before any grid: boundcalc.verify.assumptions.)"""
    import itertools

    import sympy

    try:
        _, calls = enclosure_obstacles(p)
        pieces = p.comparisons()
    except Exception:  # noqa: BLE001 - no enclosed call: nothing to say
        return None
    if not calls:
        return None
    names = list(p.variables)
    g = dom.grid(names, points)
    pts = [{k: float(g[k][i]) for k in names} for i in range(next(iter(g.values())).size)]
    pts += [dict(zip(names, c)) for c in itertools.islice(itertools.product(*(dom.range(k) for k in names)), 1024)]
    seen = set()
    for _, L, R in pieces:
        for f in (sympy.sympify(L) - sympy.sympify(R)).atoms(sympy.core.function.AppliedUndef):
            name = type(f).__name__
            if name not in calls or (name, f.args) in seen:
                continue
            seen.add((name, f.args))
            c = calls[name]
            fs = [sympy.lambdify([sympy.Symbol(k) for k in names], a, "math") for a in f.args]
            first = None
            for pt in pts:
                try:
                    vals = {k: float(fa(*(pt[n] for n in names))) for k, fa in zip(c.keys, fs)}
                except (ValueError, ZeroDivisionError, OverflowError, TypeError):
                    first = None
                    break
                bad = c.failing_conditions(vals)
                if not bad:
                    first = None
                    break
                first = first or bad[0]
            if first:
                return f"{c.bid}: {first}"
    return None


def _grid_outcome(p, dom, points, notes, proof=None, max_seconds: float = MAX_SECONDS, gaps=None) -> CheckOutcome:
    res = sample(p, dom, points, max_seconds)
    if res.points == 0 and res.evaluated == res.total and p.bound_calls:
        why = _outside_everywhere(p, dom)
        if why is not None:
            return CheckOutcome(
                method="assumptions", word="outside the assumptions",
                verdict=f"outside the assumptions on the whole box: {why} (at every corner and every point of a grid of "
                        f"{ASSUMPTION_POINTS}; every one of the {res.total} grid points is undefined)",
                parsed=p, domain=dom, notes=notes, grid=res, points=0, domain_gaps=list(gaps or []))
    if p.float_only:
        notes.append("re-check in float for " + ", ".join(p.float_only) + " (no arbitrary-precision form)")
    if p.bounds:
        notes.append("bounds re-checked through their sympy expressions (instance constants in float)")
    word, verdict = _grid_verdict(res)
    cex = res.counterexample
    if cex is None and p.equalities:
        cex = _equality_counterexample(p, dom, _grid_sample_points(dom, p.variables))
        if cex is not None:
            word = "counterexample"
            verdict = ("counterexample at " + _fmt_cex({k: cex[k] for k in p.variables})
                       + f" (the sides of == differ by {cex['difference_50_digits']} at 50 digits)")
    if p.equalities:
        notes.append(f"== holds within a relative tolerance of {EQ_TOL:g} in float (|lhs - rhs| <= {EQ_TOL:g} "
                     "max(1, |lhs|, |rhs|)) and 1e-30 at 50 digits")
    if gaps and word != "counterexample":
        verdict += "; " + _gap_suffix(gaps)
    out = CheckOutcome(method="grid", word=word, verdict=verdict, parsed=p, domain=dom, points=res.points,
                       counterexample=cex, min_margin=res.min_margin, notes=notes, grid=res,
                       domain_gaps=list(gaps or []))
    if p.equalities:
        out.equality = {"tolerance": EQ_TOL, "kind": "relative", "tolerance_50_digits": 1e-30}
    if proof is not None:
        out.proof = proof
        out.undecided, out.n_undecided = proof.undecided, proof.n_undecided
    return out


def _grid_sample_points(dom, names, n: int = 16) -> list:
    """A few points for the exact (50-digit) check of ==: the centre and up to ``n`` corners of the box."""
    cor = _corner_points(dom, names, cap=n)
    pts = [{k: float(sum(dom.range(k)) / 2) for k in names}]
    size = next(iter(cor.values())).size if cor else 0
    pts += [{k: float(cor[k][i]) for k in names} for i in range(size)]
    return pts


def _equality_counterexample(p, dom, pts) -> dict | None:
    """A point where the sides of an == differ at 50 digits by more than 1e-40 (relative): the exact equality
    fails there even if it holds within the tolerance. None if every point agrees (or is undefined)."""
    import mpmath

    from ..rigorous.deadline import TimeLimit

    try:
        for pt in pts:
            with mpmath.workdps(50):
                try:
                    d = p.eq_rel_diff_mp(**mp_point(dom, pt))
                except (ValueError, ZeroDivisionError, OverflowError):
                    continue
                if d is not None and d > mpmath.mpf(10) ** -40:
                    return dict(pt, margin=-float(d), margin_50_digits=mpmath.nstr(-d, 12),
                                difference_50_digits=mpmath.nstr(d, 12))
    except TimeLimit:
        return None
    return None


def bound_defaults(p) -> dict:
    """{bound call as written: {name: value}} for the calls that take values from the setting's default instance
    (no keyword for them: K = 10, delta = 1e-3 of the linear instance, …; rigorous.bound_calls.defaulted_values)."""
    from ..rigorous.bound_calls import defaulted_values

    out = {}
    for bid, keys, seg in p.bound_calls.values():
        try:
            got = defaulted_values(bid, keys)
        except Exception:  # noqa: BLE001 - a report only; the evaluation says what is wrong with the call
            continue
        if got:
            out[seg] = got
    return out


def _defaults_note(defaults: dict) -> str:
    def val(v):
        if isinstance(v, list):
            return "[" + ", ".join(f"{x:g}" for x in v) + "]"
        return f"{v:g}" if isinstance(v, (int, float)) else str(v)

    parts = [f"{seg}: " + ", ".join(f"{k} = {val(v)}" for k, v in d.items()) for seg, d in defaults.items()]
    return ("values from the default instance (no keyword gives them; pass e.g. K=, delta= to set them): "
            + "; ".join(parts))


def run(text: str, box: str | None, method: str = "auto", points: int = 4096, max_seconds: float = MAX_SECONDS,
        max_boxes: int = MAX_BOXES) -> CheckOutcome:
    """Check EXPR over the box (:func:`_run`); the values that bound calls take from the default instance are
    reported in ``defaults`` and a note (issue 24 item 5)."""
    out = _run(text, box, method, points, max_seconds, max_boxes)
    _confirm_outcome(out, max_seconds)
    _written_ends(out, box)
    defaults = bound_defaults(out.parsed) if out.parsed.bound_calls else {}
    if defaults:
        out.defaults = defaults
        out.notes.append(_defaults_note(defaults))
    return out


def _confirm_outcome(out: CheckOutcome, max_seconds: float = MAX_SECONDS) -> None:
    """Every counterexample, whichever route found it (proof, grid, integer rounding, pair route, ==), is confirmed at
    its witness by :func:`confirm_witness` before it is reported; one that the statement satisfies there, or that
    cannot be decided, makes the verdict "undecided" with the reason. (A float-only re-check, for functions without
    an arbitrary-precision form, says so in ``recheck`` and stays.)"""
    cex = out.counterexample
    if out.word != "counterexample" or not cex or "confirmed" in cex or str(cex.get("recheck", "")).startswith(
            "float only"):
        return
    p = out.parsed
    pt = {k: cex[k] for k in p.variables if k in cex}
    from ..rigorous.deadline import TimeLimit, limit

    try:
        with limit(max(max_seconds, 1.0)):
            w = confirm_witness(p, out.domain, pt)
    except TimeLimit:
        w = Witness("unknown", "the time limit came first")
    except Exception as exc:  # noqa: BLE001 - a witness that cannot be re-checked is not confirmed
        w = Witness("unknown", f"the re-check failed: {exc}")
    if w.status == "fails" or (w.status == "unknown" and "difference_50_digits" in cex):
        cex["confirmed"] = w.how if w.status == "fails" else "sides of == differ at 50 digits"
        return
    if w.status == "holds":
        why = f"the statement holds there in {w.how} (the 50-digit margin failed only through the strict shift)"
    else:
        why = f"not confirmed: {w.how}"
    out.word = "undecided"
    out.verdict = f"undecided: the candidate witness {_fmt_cex(pt)} is no counterexample ({why})"
    out.notes.append(f"candidate witness {_fmt_cex(pt)} not reported as a counterexample: {why}")
    out.counterexample = None


def _written_ends(out: CheckOutcome, box: str | None) -> None:
    """A counterexample at a box end whose double is not the number written is reported at the end as written: the
    50-digit re-check and the witness confirmation evaluated it there (mp_point, exact_coordinates), and the double
    may lie outside the user's box (moved outward by box.parse_box) or even outside the domain (``1e-400``
    underflows to 0, where log is undefined). In JSON the coordinate is the nearest double when that is a normal
    one, else the text as written; ``as_written`` lists every such end. A box end that underflows is said in a note."""
    from .box import outward_double, underflows, written_end

    texts = box_texts(box)
    for k, (lo_t, hi_t) in texts.items():
        for t in dict.fromkeys((lo_t, hi_t)):
            if underflows(t):
                try:
                    d = float(t)
                except ValueError:
                    continue
                out.notes.append(f"the box end {k}={t} underflows as a double (to {exact_number(d)}): the proof covers "
                                 "the box of doubles, which contains the box as written; the re-checks and a "
                                 f"counterexample use {t} as written")
    cex = getattr(out, "counterexample", None)
    if not cex:
        return
    for k, (lo_t, hi_t) in texts.items():
        x = cex.get(k)
        if not isinstance(x, float):
            continue
        for side, t in ((-1, lo_t), (+1, hi_t)):
            try:
                near = float(t)
            except ValueError:
                continue
            w = written_end(t, x, side)
            moved = outward_double(t, near, side)
            if w is not None:
                cex[k] = t.strip() if underflows(t) else near
                cex.setdefault("as_written", {})[k] = w
                out.verdict = out.verdict.replace(f"{k}={exact_number(x)}", f"{k}={w}")
                break
            if x == moved != near:
                cex[k] = near
                out.verdict = out.verdict.replace(f"{k}={exact_number(moved)}", f"{k}={exact_number(near)}")
                break


def _run(text: str, box: str | None, method: str = "auto", points: int = 4096, max_seconds: float = MAX_SECONDS,
         max_boxes: int = MAX_BOXES) -> CheckOutcome:
    """Check EXPR over the box: a proof when possible (``method`` "auto" or "proof"), else / or the grid.

    ``max_seconds`` bounds the proof (with the domain analysis and the 50-digit re-checks; the limit holds inside
    an evaluation) and, separately, the grid's evaluation and its re-check."""
    from ..rigorous.deadline import TimeLimit, limit
    from .expression import domain_of, parse

    if method not in METHODS:
        raise InputError(flag("method"), "one of " + ", ".join(METHODS), method)
    p = parse(text)
    dom = domain_of(p, box)
    dom.texts = box_texts(box)  # the ends as written: the 50-digit re-checks read them exactly (mp_point)
    notes: list[str] = []
    why, calls = enclosure_obstacles(p)
    fns = _interval_functions(calls)
    try:
        with limit(max_seconds):
            gaps = domain_gaps(p, dom, fns, seconds=min(1.0, max_seconds / 4)) if p.domain else []
    except TimeLimit:
        gaps = [DomainGap(c.function, c.holds_text(), c.fails_text(), math.nan, 0, None, analysed=False)
                for c in {(c.kind, c.source): c for c in p.domain}.values()]
        notes.append("the domain analysis stopped at the time limit")
    if any(g.everywhere for g in gaps):
        bad = [g for g in gaps if g.everywhere]
        return CheckOutcome(method="domain", word="undefined", verdict="undefined on the box: " + _gap_suffix(bad),
                            parsed=p, domain=dom, notes=notes, domain_gaps=gaps)
    if method == "grid":
        return _grid_outcome(p, dom, points, notes, max_seconds=max_seconds, gaps=gaps)
    if why:
        if method == "proof":
            raise InputError(flag("method"), "grid for this expression (no proof: " + "; ".join(why) + ")", "proof")
        notes.append("no proof possible: " + "; ".join(why) + "; sampled on a grid instead")
        return _grid_outcome(p, dom, points, notes, max_seconds=max_seconds, gaps=gaps)
    routed = _pair_route(p, dom, calls, max_seconds, max_boxes, notes, gaps)
    if routed is not None:
        return routed
    try:
        with limit(max_seconds):
            _validate(p, dom)  # the grid's one-line domain errors, before any proof
            pieces = p.comparisons()
    except TimeLimit:
        notes.append(f"the preparation of the proof reached the time limit ({max_seconds:g} s)")
        return _grid_outcome(p, dom, points, notes, max_seconds=max_seconds, gaps=gaps)
    box_iv = {v: dom.range(v) for v in p.variables}
    try:
        _check_bound_assumptions(pieces, calls, box_iv)
        with limit(max_seconds):
            assumed = _assumptions.analyse(pieces, calls, box_iv, seconds=min(1.0, max_seconds / 4))
    except TimeLimit:
        notes.append("the analysis of the bounds' assumptions reached the time limit; sampled on a grid instead")
        return _grid_outcome(p, dom, points, notes, max_seconds=max_seconds, gaps=gaps)
    except ValueError as exc:  # NotEnclosable
        if method == "proof":
            raise InputError(flag("method"), f"grid for this box (no proof: {exc})", "proof") from None
        notes.append(f"no proof possible: {exc}; sampled on a grid instead")
        return _grid_outcome(p, dom, points, notes, max_seconds=max_seconds, gaps=gaps)
    if assumed.everywhere:
        bad = assumed.everywhere
        return CheckOutcome(method="assumptions", word="outside the assumptions",
                            verdict="outside the assumptions on the whole box: " + _gap_suffix(bad), parsed=p,
                            domain=dom, notes=notes, domain_gaps=gaps, assumption_gaps=assumed.gaps)
    pieces, identities = _split_identities(pieces)
    if identities:
        what = "comparisons are identities" if identities > 1 else "comparison is an identity"
        notes.append(f"{identities} == {what}: both sides are the same expression (exact, no tolerance)")
    if not pieces:  # where part of the box is outside a domain, the identity holds where defined (issue 22 D2)
        word, where = _assumption_words(*_proven_words(bool(gaps), False), assumed.bounds_with_gaps())
        allgaps = list(gaps) + list(assumed.gaps)
        return CheckOutcome(method="proof", word=word, verdict=f"{where} (an identity: both sides are the same "
                            "expression)" + ("; " + _gap_suffix(allgaps) if allgaps else ""), parsed=p, domain=dom,
                            boxes=0, seconds=0.0, notes=notes, domain_gaps=gaps, assumption_gaps=assumed.gaps,
                            equality={"identities": identities, "tolerance": 0.0, "kind": "exact"})
    constraint = _and_constraints(_domain_constraint(p, gaps, fns) if gaps else None, assumed.constraint())
    r = _prove_pieces(pieces, box_iv, calls, max_seconds, max_boxes, p.integers, constraint, assumed.clipper(),
                      _point_domain(p) if gaps else None, lambda pt: mp_point(dom, pt))
    if calls:
        notes.append("bounds enclosed through their sympy expressions (" + ", ".join(sorted({c.bid for c in calls.values()}))
                     + ")" + _assumption_note(calls, assumed))
    allgaps = list(gaps) + list(assumed.gaps)  # the verdict names both kinds of gap (a domain, an assumption)
    if p.integers:
        notes.append("integer parameters (" + ", ".join(p.integers) + ") proven on their real intervals")
    tol_eq = any(op == "==" for op, _, _ in pieces)
    eq_info = {"tolerance": EQ_TOL, "kind": "relative", "identities": identities} if tol_eq else None
    if r.verdict == "proven on the box":
        if tol_eq:
            pts = _grid_sample_points(dom, p.variables)
            with limit(max(max_seconds, 1.0)):
                cex = _equality_counterexample(p, dom, pts)
            if cex is not None:
                return CheckOutcome(
                    method="proof", word="counterexample",
                    verdict="counterexample at " + _fmt_cex({k: cex[k] for k in p.variables})
                    + f" (the sides of == differ by {cex['difference_50_digits']} (relative) at 50 digits; they agree "
                    f"within the relative tolerance {EQ_TOL:g} on the whole box)",
                    parsed=p, domain=dom, boxes=r.boxes, counterexample=cex, seconds=r.seconds, notes=notes, proof=r,
                    domain_gaps=gaps, equality=dict(eq_info, exact=False), assumption_gaps=assumed.gaps)
            eq_info.update(points_checked_at_50_digits=len(pts), exact=None)
            notes.append(f"== proven within a relative tolerance of {EQ_TOL:g}: |lhs - rhs| <= {EQ_TOL:g} "
                         f"max(1, |lhs|, |rhs|) on the whole box; at {len(pts)} points (centre, corners) the sides agree to 1e-40 "
                         "at 50 digits (not a proof of exact equality)")
        word, where = _assumption_words(*_proven_words(bool(gaps), tol_eq), assumed.bounds_with_gaps())
        verdict = f"{where} ({boxes_text(r.boxes)})" + ("; " + _gap_suffix(allgaps) if allgaps else "")
        if r.outside:
            notes.append(f"{boxes_text(r.outside)} of the cover lie entirely outside the domain"
                         + (" or the assumptions" if assumed.gaps else ""))
        return CheckOutcome(method="proof", word=word, verdict=verdict, parsed=p, domain=dom, boxes=r.boxes,
                            seconds=r.seconds, notes=notes, proof=r, domain_gaps=gaps, equality=eq_info,
                            assumption_gaps=assumed.gaps)
    if r.verdict == "counterexample":
        pt = r.counterexample["point"]
        cex = dict(pt, margin=r.counterexample["value_float"], margin_50_digits=r.counterexample["value"])
        if assumed.gaps:
            notes.append("the counterexample lies inside the assumptions of every bound; " + _gap_suffix(assumed.gaps))
        return CheckOutcome(method="proof", word="counterexample", verdict="counterexample at " + _fmt_cex(pt),
                            parsed=p, domain=dom, boxes=r.boxes, counterexample=cex, seconds=r.seconds, notes=notes,
                            proof=r, domain_gaps=gaps, equality=eq_info, assumption_gaps=assumed.gaps)
    # undecided: the grid may still find a counterexample (confirmed at 50 digits)
    g = _grid_outcome(p, dom, points, list(notes), proof=r, max_seconds=max_seconds, gaps=gaps)
    g.assumption_gaps = assumed.gaps
    if g.counterexample is not None:
        g.notes.append(f"the proof was undecided on {boxes_text(r.n_undecided)} ({r.reason}); the grid found the counterexample")
        return g
    notes.append(f"the proof stopped at its limit ({r.reason}); " + (
        f"the grid found no counterexample on {g.points} points"
        if g.verdict == f"no counterexample on {g.points} points" else f"the grid: {g.verdict}"))
    verdict = f"undecided on {boxes_text(r.n_undecided)}" + ("; " + _gap_suffix(allgaps) if allgaps else "")
    return CheckOutcome(method="proof", word="undecided", verdict=verdict, parsed=p,
                        domain=dom, boxes=r.boxes, undecided=r.undecided, n_undecided=r.n_undecided,
                        seconds=r.seconds, notes=notes, proof=r, grid=g.grid, points=None, domain_gaps=gaps,
                        equality=eq_info or g.equality, assumption_gaps=assumed.gaps)


def _pair_route(p, dom, calls: dict, max_seconds: float, max_boxes: int, notes: list, gaps=()):
    """``bound(A, …) >= bound(B, …)`` (or <=) between linear bounds whose calls give K or d from the box: the route
    of ``verify``'s pair claims (rigorous.bound_pairs.pair_claim: the two registered sympy expressions over the box,
    K and d real intervals), so that no K×d instance is built at any point of the box (issue 24 item 5). The
    assumptions of both bounds over box names (T, rho, d, K, …) are evaluated by interval arithmetic
    (assumptions.over_box) and the proof covers the part of the box inside them; those about the instance's actions
    (their norms, their rank) are checked at a counterexample, on the instance built there. None when the
    statement is not of that form, or when part of the box is outside a quantity's or keyword's declared domain
    (``gaps``: then the usual route, which names that part)."""
    import sympy

    from ..bounds import registry
    from ..rigorous import bound_pairs as bp
    from ..rigorous.bound_calls import NotEnclosable
    from ..rigorous.deadline import TimeLimit, limit

    if len(calls) != 2 or gaps:
        return None
    if not any(registry.get(c.bid).setting == "linear" and {"K", "d"} & set(c.keys) for c in calls.values()):
        return None
    try:
        pieces = p.comparisons()
    except Exception:  # noqa: BLE001 - the usual route reports it
        return None
    if len(pieces) != 1 or pieces[0][0] not in ("<=", ">="):
        return None
    op, L, R = pieces[0]
    names = [type(f).__name__ if isinstance(f, sympy.core.function.AppliedUndef) else None for f in (L, R)]
    if any(n not in calls for n in names) or names[0] == names[1]:
        return None
    (lo_f, lo_n), (up_f, up_n) = ((L, names[0]), (R, names[1])) if op == "<=" else ((R, names[1]), (L, names[0]))
    lower, upper = registry.get(calls[lo_n].bid), registry.get(calls[up_n].bid)
    if lower.setting != "linear" or upper.setting != "linear" or bp.common_notion(lower, upper) is None:
        return None
    inst = registry.setting_module("linear").DEFAULT_INSTANCE
    box: dict = {}
    for f, c in ((lo_f, calls[lo_n]), (up_f, calls[up_n])):
        args = dict(zip(c.keys, f.args))
        for sym, src in c.symbols.items():
            if src.startswith("keyword "):
                a = args[src[len("keyword "):]]
                if not isinstance(a, sympy.Symbol) or a.name != sym:  # T=T, rho=rho, K=K, d=d: the box's own names
                    return None
                val = tuple(float(x) for x in dom.range(sym))
            elif src.startswith("default instance (") and sym in inst:
                val = (float(inst[sym]), float(inst[sym]))
            else:
                return None
            if box.setdefault(sym, val) != val:
                return None  # one name, two values (d from the box in one call, the default d in the other)
    try:
        # code conditions at the corners only for the calls that build no instance there (Thm 9's "rho <= 1 or T >= 3")
        small = {n: c for n, c in calls.items() if not {"K", "d"} & set(c.keys)}
        _check_bound_assumptions(pieces, small, {v: dom.range(v) for v in p.variables})
        c = bp.pair_claim(lower, upper, box)
        an = _assumptions.over_box((lower, upper), c.box, seconds=min(1.0, max_seconds / 4), instance=False)
    except (NotEnclosable, InputError, ValueError, TimeLimit):
        return None
    route = (f"the route of verify's pair claims: {lower.id} <= {upper.id} through their sympy expressions over the "
             "box (rigorous.bound_pairs.pair_claim; K and d real intervals, so every integer value; no K×d instance "
             "is built)")
    notes.append(route)
    if an.skipped:
        notes.append("assumptions on the instance's actions (" + ", ".join(an.skipped) + ") are not evaluated over the "
                     "box (they are checked on the instance built at a counterexample)")
    if an.everywhere:
        return CheckOutcome(method="assumptions", word="outside the assumptions",
                            verdict="outside the assumptions on the whole box: " + _gap_suffix(an.everywhere), parsed=p,
                            domain=dom, notes=notes, assumption_gaps=an.gaps)
    c.constraint = an.constraint()
    with limit(max_seconds + 0.5):
        try:
            r = c.prove(None, max_seconds=max_seconds, max_boxes=max_boxes)
        except TimeLimit:
            del notes[-(1 + bool(an.skipped)):]  # the usual route then (its own notes)
            return None
    if r.verdict == "counterexample" and p.integers:
        r = _integer_counterexample(r, c, p.integers)
    if r.verdict == "counterexample":
        pt = {k: r.counterexample["point"][k] for k in p.variables if k in r.counterexample["point"]}
        bad = _instance_failures((lower, upper), pt)
        if bad:
            r.verdict, r.n_undecided = "undecided", max(r.n_undecided, 1)
            r.reason = f"the counterexample at {_fmt_cex(pt)} is outside the assumptions: {bad}"
        else:
            cex = dict(pt, margin=r.counterexample["value_float"], margin_50_digits=r.counterexample["value"])
            return CheckOutcome(method="proof", word="counterexample", verdict="counterexample at " + _fmt_cex(pt),
                                parsed=p, domain=dom, boxes=r.boxes, counterexample=cex, seconds=r.seconds,
                                notes=notes, proof=r, assumption_gaps=an.gaps)
    if r.verdict == "proven on the box":
        word, where = _assumption_words(*_proven_words(False, False), an.bounds_with_gaps())
        verdict = f"{where} ({boxes_text(r.boxes)})" + ("; " + _gap_suffix(an.gaps) if an.gaps else "")
        return CheckOutcome(method="proof", word=word, verdict=verdict, parsed=p, domain=dom, boxes=r.boxes,
                            seconds=r.seconds, notes=notes, proof=r, assumption_gaps=an.gaps)
    notes.append(f"the proof stopped at its limit ({r.reason}); no grid on this route (the grid evaluates the "
                 "registry's code, which builds the K×d instance at every point)")
    return CheckOutcome(method="proof", word="undecided", verdict=f"undecided on {boxes_text(r.n_undecided)}"
                        + ("; " + _gap_suffix(an.gaps) if an.gaps else ""), parsed=p, domain=dom, boxes=r.boxes,
                        undecided=r.undecided, n_undecided=r.n_undecided, seconds=r.seconds, notes=notes, proof=r,
                        assumption_gaps=an.gaps)


def _instance_failures(bounds, pt: dict) -> str:
    """The bounds' assumptions on the instance built at the point ``pt`` (K, d, T, budget keywords): "" when they
    hold, else what fails (or why the instance cannot be built there)."""
    from ..rigorous.bound_calls import _context

    out = []
    for b in bounds:
        vals = {k: v for k, v in pt.items() if k in ("T", "rho", "d", "K", "delta", "alpha", "rdp_epsilon")}
        if "delta" in vals:
            vals["confidence"] = vals.pop("delta")
        try:
            bad = b.conditions(_context(b, vals))
        except InputError as exc:
            return f"{b.id}: the instance cannot be built there ({exc})"
        out += [f"{b.id}: {x}" for x in bad]
    return "; ".join(out)


def limits() -> dict:
    """The size and effort limits of ``check`` (for --json and docs/verify.md)."""
    from . import expression as ex

    return dict(ex.LIMITS, equality_tolerance=EQ_TOL, grid_recheck=MAX_RECHECK, max_boxes=MAX_BOXES)


def _interval_functions(calls: dict) -> dict:
    from ..rigorous.sympy_eval import QUANTITY_FUNCTIONS

    return dict(QUANTITY_FUNCTIONS, **{n: c.interval for n, c in calls.items()})


def _validate(p, dom) -> None:
    """Evaluate the float margin on a small grid: arguments outside a quantity's allowed range (kl of 2) are the
    grid's one-line errors, raised before any proof."""
    import numpy as np

    g = dom.grid(p.variables, VALIDATE_POINTS)
    with np.errstate(all="ignore"):
        p.margin_np(**g)


def _proven_words(gaps: bool, tolerance: bool) -> tuple[str, str]:
    """(word, opening of the sentence) of a proof: "proven", "proven where defined" (part of the box is outside a
    function's domain), "proven within tolerance" (an == proven to the relative EQ_TOL, stated in the sentence)."""
    where = "proven where defined on the box" if gaps else "proven on the box"
    word = "proven where defined" if gaps else "proven"
    if tolerance:
        where = where.replace("proven", f"proven within a relative tolerance of {EQ_TOL:g}", 1)
        word = word.replace("proven", "proven within tolerance", 1)
    return word, where


def _assumption_words(word: str, where: str, bounds) -> tuple[str, str]:
    """The words of ``_proven_words`` when part of the box is outside the assumptions of ``bounds``: "proven where
    the assumptions hold" ("proven where the assumptions of my-linear-ub hold", "proven where defined and where the
    assumptions of … hold", "proven within a relative tolerance of 1e-09 where the assumptions of … hold")."""
    if not bounds:
        return word, where
    whose = " and ".join(bounds)
    if where.endswith(" on the box"):
        where = where[: -len(" on the box")]
    joint = " and" if "where defined" in where else ""
    return word + (" and the assumptions hold" if "where defined" in word else " where the assumptions hold"), \
        f"{where}{joint} where the assumptions of {whose} hold"


def _and_constraints(*cs):
    """One prover constraint (c >= 0 inside) from several (None: no constraint): their minimum."""
    cs = [c for c in cs if c is not None]
    if not cs:
        return None
    if len(cs) == 1:
        return cs[0]
    from ..intervals.interval import imin

    return lambda b: imin(*(c(b) for c in cs))


def _assumption_note(calls, assumed) -> str:
    """The note on the bounds' assumptions: relations evaluated over the box, code at the corners."""
    rel = sorted({c.bid for c in calls.values() if c.relations})
    code = sorted({c.bid for c in calls.values() if c.has_conditions})
    parts = []
    if rel:
        held = len(assumed.checked) - len(assumed.gaps)
        parts.append(f"the assumptions of {', '.join(rel)} evaluated by interval arithmetic over the box "
                     f"({held} of {len(assumed.checked)} hold on the whole box)")
    if code:
        parts.append(f"the conditions of {', '.join(code)} (code) checked at the corners of the keyword ranges")
    return ("; " + "; ".join(parts)) if parts else ""


def _split_identities(pieces):
    """Drop the == comparisons whose sides are the same expression (sympy's canonical form of lhs - rhs is 0): those
    hold exactly, with no tolerance. Returns (the other pieces, how many were dropped)."""
    out, n = [], 0
    for op, L, R in pieces:
        if op == "==" and (L - R) == 0:
            n += 1
            continue
        out.append((op, L, R))
    return out, n


def _point_domain(p):
    """A test of one point (dict name -> mpf) against every domain condition of EXPR at the current mpmath precision
    (None without conditions): a counterexample must lie where EXPR is defined (log(log(x)) at x = 1 is not one)."""
    if not p.domain:
        return None
    import mpmath
    import sympy

    from ..rigorous.sympy_eval import point_function

    names = list(p.variables)
    tests = [(c.kind, point_function(sympy.sympify(c.exact()), names)) for c in p.domain]

    def inside(pt) -> bool:
        for kind, f in tests:
            try:
                v = f(pt)
            except (ValueError, ZeroDivisionError, OverflowError, TypeError):
                return False
            if isinstance(v, mpmath.mpc) or mpmath.isnan(v):
                return False
            if not {">=0": v >= 0, ">0": v > 0, "!=0": v != 0}[kind]:
                return False
        return True

    return inside


def _prove_pieces(pieces, box_iv, calls, max_seconds, max_boxes, integers, constraint=None, clip=None,
                  point_domain=None, exact_point=None):
    """Prove each comparison separately (its own strictness), within one time budget; one ProofResult back:
    proven if every piece is, the first counterexample, else undecided with every piece's boxes left. ``clip``
    (assumptions.Analysis.clipper) shrinks each sub-box to the part inside the assumptions before the margin is
    enclosed."""
    import time

    from ..rigorous.claims import comparisons_claim
    from ..rigorous.deadline import limit
    from ..rigorous.sympy_eval import where_defined

    t0 = time.perf_counter()
    results = []
    for piece in pieces:
        claim = comparisons_claim([piece], box_iv, functions={n: c.interval for n, c in calls.items()},
                                  mp_functions={n: c.mp for n, c in calls.items()}, eq_tol=EQ_TOL)
        claim.constraint = constraint
        if exact_point is not None:  # a box end is the number as written (mp_point), not its double
            claim.point_margin = (lambda pm: (lambda pt: pm(exact_point(pt))))(claim.point_margin)
        if point_domain is not None:  # a point outside a domain is never a counterexample (its margin is undefined)
            claim.point_margin = (lambda pm: (lambda pt: pm(pt) if point_domain(pt) else _undefined()))(
                claim.point_margin)
        if clip is not None:
            claim.margin = (lambda m: (lambda b: m(clip(b))))(claim.margin)
        left = max(max_seconds - (time.perf_counter() - t0), 1e-3)
        with where_defined(), limit(left + 0.5):
            r = claim.prove(None, max_seconds=left, max_boxes=max_boxes)
        if r.verdict == "counterexample" and integers:
            r = _integer_counterexample(r, claim, integers)
        results.append(r)
        if r.verdict == "counterexample":
            break
    out = results[-1] if results[-1].verdict == "counterexample" else results[0]
    total = sum(r.boxes for r in results)
    und = [r for r in results if r.verdict == "undecided"]
    if out.verdict != "counterexample" and und:
        out = und[0]
        out.undecided = [b for r in und for b in r.undecided][:50]
        out.n_undecided = sum(r.n_undecided for r in und)
        out.reason = "; ".join(dict.fromkeys(r.reason for r in und))
    out.boxes = total
    out.seconds = time.perf_counter() - t0
    return out


def _undefined():
    raise ValueError("outside the domain at this point")


def _check_bound_assumptions(pieces, calls: dict, box_iv: dict) -> None:
    """Each bound call's assumptions at the corners of its keyword ranges over the box (NotEnclosable if not)."""
    if not calls:
        return
    import sympy

    from ..rigorous.prover import as_box
    from ..rigorous.sympy_eval import interval_eval

    env = as_box(box_iv)
    seen = set()
    for _, L, R in pieces:
        for f in (L - R).atoms(sympy.core.function.AppliedUndef):
            name = type(f).__name__
            if name not in calls or (name, f.args) in seen:
                continue
            seen.add((name, f.args))
            c = calls[name]
            ranges = {k: _declared_part(k, interval_eval(a, env)) for k, a in zip(c.keys, f.args)}
            for k, r in ranges.items():
                if not (math.isfinite(r.lo) and math.isfinite(r.hi)):
                    from ..rigorous.bound_calls import NotEnclosable

                    raise NotEnclosable(f"{c.bid}: keyword {k} is not finite on the box")
            c.check_conditions(ranges)


def _declared_part(keyword: str, r):
    """The part of a keyword's range inside its declared domain (boundcalc.domains; an open end moved to the next
    float): the rest of the box is a domain gap, named and dropped from the proof, so the corners of the bound's
    code conditions are taken inside (rho = 0:1 is checked from the smallest positive rho)."""
    from ..domains import keyword_range
    from ..intervals.interval import Interval

    d = keyword_range(keyword)
    if d is None:
        return r
    lo = max(r.lo, math.nextafter(d.lo, math.inf) if d.lo_open else d.lo)
    hi = min(r.hi, math.nextafter(d.hi, -math.inf) if d.hi_open else d.hi)
    return Interval(lo, hi) if lo <= hi else r


def _integer_counterexample(r, claim, integers):
    """A counterexample of the real relaxation at a non-integer value of an integer parameter is re-checked at the
    rounded point (50 digits); if the rounded point satisfies the statement the proof is undecided there."""
    import mpmath

    pt = dict(r.counterexample["point"])
    if all(float(pt[k]).is_integer() for k in integers if k in pt):
        return r
    lo_hi = claim.box
    for k in integers:
        if k in pt:
            v = float(round(pt[k]))
            lo, hi = lo_hi[k]
            pt[k] = min(max(v, math.ceil(lo)), math.floor(hi))
    with mpmath.workdps(50):
        try:
            v = claim.point_margin({k: mpmath.mpf(x) for k, x in pt.items()})
        except (ValueError, ZeroDivisionError):
            v = None
        if v is not None and v < -mpmath.mpf(10) ** -40 * max(1, abs(v)):
            r.counterexample = {"point": pt, "value": mpmath.nstr(v, 50), "value_float": float(v)}
            return r
    r.verdict = "undecided"
    r.reason = "a counterexample of the real relaxation at a non-integer count; rounded, it satisfies the statement"
    r.n_undecided = max(r.n_undecided, 1)
    r.counterexample = None
    return r
