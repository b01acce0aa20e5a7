"""The claims registry: every checkable statement of the five papers (and of ERRATA) as a record.

A :class:`Claim` is data — id, paper, item, sources, statement, parameters with their default domain,
evaluators (one per method), expected verdict — like a row of a parametrised test table. An *evaluator*
is a small callable ``evaluator(domain) -> Result``; a claim may hold several, keyed by method:

- ``"grid"``: the statement evaluated on a deterministic grid of its parameters (exact or float
  arithmetic; a float counterexample is re-checked with mpmath at 50 digits before it is reported);
- ``"monte-carlo"``: frequencies with Clopper–Pearson intervals, seeded numpy Generators;
- ``"proof"``: a rigorous proof on the box (interval arithmetic, boundcalc.rigorous; see proofs.py): "holds"
  when every box of a finite cover is certified, the failure word at a 50-digit-confirmed counterexample, and
  for an undecided proof (effort limit) the grid's verdict — never "holds";
- ``"none"``: the claim cannot be checked numerically, and :class:`Result` says why.

The verdict words are ERRATA's ("statement violated", "vacuous", "proof gap", "scaling not shown",
"typo") plus "holds" — reserved for a *proof* — "no counterexample" (a grid or a sample found nothing)
and "not checkable numerically". A :class:`Verdict` is a claim's result with the claim's metadata.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from ...errors import InputError, ParamName, flag
from ..box import Domain, Param, parse_box

ERRATA_WORDS = ("statement violated", "vacuous", "proof gap", "scaling not shown", "typo")
VERDICT_WORDS = ("holds", "no counterexample") + ERRATA_WORDS + ("not checkable numerically",)
METHODS = ("proof", "grid", "monte-carlo", "none")
PAPERS = ("000", "001", "002", "003", "004")
PASS_WORDS = ("holds", "no counterexample")


@dataclass
class Result:
    """What an evaluator found: a verdict word, a one-line ``measured``, the evidence, and the numbers
    that make the verdict reproducible (``points`` evaluated or ``boxes`` proved, the counterexample)."""

    verdict: str
    measured: str
    evidence: dict[str, Any] = field(default_factory=dict)
    points: int | None = None
    boxes: int | None = None
    counterexample: dict[str, Any] | None = None
    finding: str = ""  # "no counterexample on N points", "counterexample at ...", "proven on the box (k boxes)"
    figure: Any = None  # optional: data for a figure (see report.py)
    method: str | None = None  # the method that decided, when not the evaluator's own (an undecided proof -> grid)

    def __post_init__(self):
        if self.verdict not in VERDICT_WORDS:
            raise ValueError(f"verdict {self.verdict!r} is not one of {VERDICT_WORDS}")


@dataclass(frozen=True)
class Claim:
    """One checkable statement. ``evaluators`` maps a method to ``f(domain) -> Result``; the first one is
    the default. ``expected`` is the verdict the independent source (ERRATA or the sheet) leads to."""

    id: str
    paper: str
    item: str
    statement: str
    sources: tuple[str, ...]
    evaluators: dict[str, Callable[[Domain], Result]]
    expected: str
    params: tuple[Param, ...] = ()
    errata: tuple[int, ...] = ()  # ERRATA item numbers this claim covers
    smaller: tuple[str, ...] = ()  # ERRATA "smaller items" / "corrections to the sheets' wording" covered
    sheet_checks: tuple[str, ...] = ()  # e.g. "docs/formulas/zcdp-bandits.md §8.10"
    note: str = ""
    inequality: Any = None  # for pointwise claims: the Inequality (margins) a prover can consume
    # assumptions over the claim's parameters beyond their allowed ranges (issue 22 D4): relation texts over the
    # parameter names ("T >= K - 1"), and bounds whose assumptions (rigorous.bound_calls.assumption_relations)
    # apply, as (bound id, {the bound's name: the parameter's name}, {the bound's name: a fixed value}); a relation
    # with a name that is no parameter (an instance constant) is not the box's. A box where one may fail is refused.
    assumptions: tuple = ()
    assumptions_of: tuple = ()

    def __post_init__(self):
        assert self.paper in PAPERS, (self.id, self.paper)
        assert self.id.startswith(self.paper), self.id
        assert self.expected in VERDICT_WORDS, (self.id, self.expected)
        assert self.evaluators and all(m in METHODS for m in self.evaluators), (self.id, list(self.evaluators))
        assert self.sources, self.id

    @property
    def method(self) -> str:
        return next(iter(self.evaluators))

    def domain(self, box: dict | None = None) -> Domain:
        return Domain.of(self.params, box)

    def metadata(self) -> dict[str, Any]:
        return {"claim_id": self.id, "paper": self.paper, "item": self.item, "statement": self.statement,
                "sources": list(self.sources), "expected": self.expected, "methods": list(self.evaluators),
                "params": [{"name": p.name, "default": list(p.default), "allowed": p.allowed_text()}
                           for p in self.params],
                **({"assumptions": [t for t, _ in assumption_relations(self)]}
                   if self.assumptions or self.assumptions_of else {})}


@dataclass
class Verdict:
    """A claim's outcome with its metadata (what was claimed, where, what was measured, the verdict)."""

    claim_id: str
    paper: str
    item: str
    statement: str
    verdict: str
    measured: str
    method: str
    sources: list[str] = field(default_factory=list)
    expected: str = ""
    evidence: dict[str, Any] = field(default_factory=dict)
    points: int | None = None
    boxes: int | None = None
    counterexample: dict[str, Any] | None = None
    finding: str = ""
    domain: str = ""
    held: bool | None = None  # did the statement as printed survive? (None: not checkable)
    figure: Any = field(default=None, repr=False)

    def __post_init__(self):
        assert self.verdict in VERDICT_WORDS, self.verdict
        assert self.paper in PAPERS, self.paper
        if self.verdict == "holds" and self.method != "proof":
            raise ValueError(f"{self.claim_id}: 'holds' is reserved for a proof (method {self.method})")

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("figure", None)
        if self.boxes is None:
            d.pop("boxes")
        if self.points is None and self.method == "proof":
            d.pop("points")
        return d


CLAIMS: dict[str, Claim] = {}
CLAIM_PAPERS: dict[str, str] = {}


def register(claim: Claim) -> Claim:
    if claim.id in CLAIMS:
        raise ValueError(f"duplicate claim id {claim.id}")
    CLAIMS[claim.id] = claim
    CLAIM_PAPERS[claim.id] = claim.paper
    return claim


def add_evaluator(claim_id: str, method: str, evaluator: Callable[[Domain], Result], default: bool = False) -> None:
    """Wire another evaluator (e.g. an interval-arithmetic proof) into a registered claim."""
    if method not in METHODS:
        raise ValueError(f"method {method!r} not in {METHODS}")
    c = CLAIMS[claim_id]
    evs = dict(c.evaluators)
    evs.pop(method, None)
    evs = ({method: evaluator} | evs) if default else (evs | {method: evaluator})
    object.__setattr__(c, "evaluators", evs)


def get(claim_id: str) -> Claim:
    if claim_id not in CLAIMS:
        raise InputError(ParamName("claim"), f"a registered claim id (see 'boundcalc verify {flag('list')}')", claim_id)
    return CLAIMS[claim_id]


def _paper(paper: str) -> str:
    p = str(paper).strip()
    if p.isdigit() and len(p) < 3:
        p = p.zfill(3)
    if p not in PAPERS:
        raise InputError(ParamName("paper"), "one of " + ", ".join(PAPERS), paper)
    return p


def select(paper: str | None = None, claim: str | None = None) -> list[str]:
    """Claim ids matching ``paper`` and/or ``claim``; InputError for an unknown paper or claim id."""
    if paper is not None:
        paper = _paper(paper)
    if claim is not None:
        get(claim)
    return [c for c in CLAIMS if (paper is None or CLAIM_PAPERS[c] == paper) and (claim is None or c == claim)]


def evaluate(claim_id: str, box: str | dict | None = None, method: str | None = None) -> Verdict:
    """Evaluate one claim on its default domain, or on ``box`` (text ``name=lo:hi,...`` or a dict)."""
    c = get(claim_id)
    if method is None:
        method = c.method
    elif method not in c.evaluators:
        raise InputError(ParamName("method"), f"a method of claim {claim_id} ({', '.join(c.evaluators)})", method)
    if isinstance(box, str) or box is None:
        if box is not None and not c.params:
            raise InputError(ParamName("box"), f"used with a claim that has parameters ({claim_id} has none)", box)
        texts = _box_texts(box)
        box = parse_box(box, c.params, owner=f"claim {claim_id}")
    else:
        texts = {}
    dom = c.domain(box)
    dom.texts = texts  # the ends as written (an end with more digits than a double: check_assumptions reads it)
    check_assumptions(c, dom)
    r = c.evaluators[method](dom)
    method = r.method or method
    finding = r.finding or _default_finding(r, method)
    held = None if r.verdict == "not checkable numerically" else r.verdict in PASS_WORDS
    return Verdict(claim_id=c.id, paper=c.paper, item=c.item, statement=c.statement, verdict=r.verdict,
                   measured=r.measured, method=method, sources=list(c.sources), expected=c.expected,
                   evidence=r.evidence, points=r.points, boxes=r.boxes, counterexample=r.counterexample,
                   finding=finding, domain=dom.describe(), held=held, figure=r.figure)


def assumption_relations(c: Claim) -> list:
    """[(text, sympy relation over the claim's parameter names)]: ``c.assumptions`` and, for each bound of
    ``c.assumptions_of``, its relations (rigorous.bound_calls.assumption_relations, the one reader) renamed to the
    parameters, fixed names substituted, kept when every name left is a parameter of the claim."""
    if not (c.assumptions or c.assumptions_of):
        return []
    import sympy

    names = {p.name for p in c.params}
    out = []
    from ...expressions import parse_relation  # the one parser of relations (never sympify on text)

    for text in c.assumptions:
        out.append((text, parse_relation(text, sorted(names))))
    from ...bounds import registry as bounds
    from ...rigorous.bound_calls import assumption_relations as relations_of

    for bid, rename, fixed in c.assumptions_of:
        for text, rel in relations_of(bounds.get(bid)):
            sub = {s: (sympy.Symbol(rename[s.name], real=True) if s.name in rename else
                       sympy.Symbol(s.name, real=True)) for s in rel.free_symbols}
            rel2 = rel.xreplace(sub)
            rel2 = rel2.subs({sympy.Symbol(k, real=True): v for k, v in fixed.items()})
            if rel2 is sympy.true:
                continue
            if rel2 is sympy.false or not {s.name for s in rel2.free_symbols} <= names:
                if rel2 is sympy.false:
                    out.append((f"{text} ({bid})", rel2))
                continue
            shown = text if not rename and not fixed else str(rel2)
            out.append((f"{shown} ({bid})", rel2))
    return out


def check_assumptions(c: Claim, dom: Domain) -> None:
    """Refuse (one-line InputError on --box) a domain where an assumption of the claim may fail: each relation is
    proven on the whole box by interval arithmetic (boundcalc.rigorous), else the box is not inside it."""
    rels = assumption_relations(c)
    if not rels:
        return
    import sympy

    from ...rigorous.prover import prove
    from ...rigorous.sympy_eval import interval_eval

    box = {p.name: dom.range(p.name) for p in c.params}
    for text, rel in rels:
        if rel is sympy.false:
            raise InputError(ParamName("box"), f"a box inside the assumptions of claim {c.id} ({text} fails for this claim)",
                             dom.describe(exact=True))
        op = rel.rel_op
        g = (rel.lhs - rel.rhs) if op in (">=", ">") else (rel.rhs - rel.lhs)
        ok = False
        if not g.free_symbols:
            ok = bool(rel)
        else:
            try:
                r = prove(lambda b, g=g: interval_eval(g, b), {k: box[k] for k in sorted(s.name for s in g.free_symbols)},
                          strict=op in (">", "<"), max_seconds=1.0, max_boxes=2000, split="widest")
                ok = r.proven
            except (TypeError, KeyError, ValueError, ZeroDivisionError):
                ok = False
        # a relation in one parameter, linear, holds at the ends as written (beta > 3 on 3.0…01:4)
        ok = ok or _holds_at_written_ends(g, op, dom)
        if not ok:
            raise InputError(ParamName("box"), f"a box inside the assumptions of claim {c.id}: {text} on the whole box",
                             dom.describe(exact=True))


def _box_texts(box: str | None) -> dict:
    from ..check import box_texts

    return box_texts(box) if box else {}


def _holds_at_written_ends(g, op: str, dom: Domain) -> bool:
    """Whether ``g >= 0`` (``> 0`` for a strict op) on the box as written, for ``g`` linear in one parameter: its
    extremes are at the range's ends, read as written (exact rationals; the box of doubles was rounded outward, so
    ``beta > 3`` fails at its double 3 but holds on ``beta=3.00000000000000000001:4``). False otherwise."""
    from fractions import Fraction

    import sympy

    syms = list(g.free_symbols)
    if len(syms) != 1 or not g.is_polynomial(syms[0]) or sympy.degree(g, syms[0]) > 1:
        return False
    name = syms[0].name
    texts = (getattr(dom, "texts", None) or {}).get(name)
    lo, hi = dom.range(name)
    ends = []
    for v, t in zip((lo, hi), texts or (None, None)):
        try:
            ends.append(Fraction(t.replace("_", "")) if t else Fraction(v))
        except (ValueError, ZeroDivisionError):
            ends.append(Fraction(v))
    for e in ends:
        val = g.xreplace({syms[0]: sympy.Rational(e.numerator, e.denominator)})
        if not val.is_Rational or not (val > 0 if op in (">", "<") else val >= 0):
            return False
    return True


def _default_finding(r: Result, method: str) -> str:
    if r.verdict == "not checkable numerically":
        return "not checkable numerically"
    if r.counterexample is not None:
        return "counterexample at " + ", ".join(f"{k}={_short(v)}" for k, v in r.counterexample.items()
                                                if not isinstance(v, dict))
    if method == "proof" and r.verdict == "holds":
        return f"proven on the box ({r.boxes} box{'' if r.boxes == 1 else 'es'})"
    if r.points is not None and r.verdict == "no counterexample":
        return f"no counterexample on {r.points} points"
    first = r.measured.split("; ")[0]
    return f"{r.verdict}: {first if len(first) <= 160 else first[:157] + '…'}"



def _short(v) -> str:
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


def run(ids: list[str] | None = None, method: str | None = None) -> list[Verdict]:
    """Run the given claims (all by default) on their default domains, in registry order."""
    return [evaluate(c, None, method if method in CLAIMS[c].evaluators else None)
            for c in (ids if ids is not None else list(CLAIMS))]


def claim(id: str, item: str, statement: str, sources, expected: str, evaluators=None, *, params=(),
          errata=(), smaller=(), sheet_checks=(), note: str = "", inequality=None, method: str = "grid",
          evaluator=None, assumptions=(), assumptions_of=()) -> Claim:
    """Register a claim (``evaluator`` + ``method`` is the short form of ``evaluators={method: evaluator}``)."""
    if evaluators is None:
        evaluators = {method: evaluator if evaluator is not None else inequality}
    return register(Claim(id=id, paper=id[:3], item=item, statement=statement, sources=tuple(sources),
                          evaluators=dict(evaluators), expected=expected, params=tuple(params),
                          errata=tuple(errata), smaller=tuple(smaller), sheet_checks=tuple(sheet_checks),
                          note=note, inequality=inequality, assumptions=tuple(assumptions),
                          assumptions_of=tuple(assumptions_of)))
