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

Before a proof a small grid (``VALIDATE_POINTS``) runs the same evaluators, so that arguments outside a
quantity's domain give the same one-line errors as the grid (the enclosures themselves only cover the points
where every function is defined). Integer parameters (counts, d, K) are proven on their real interval, which
contains every integer of it; a counterexample at a non-integer point is rounded and re-checked.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ..errors import InputError
from ..rigorous.prover import boxes_text

METHODS = ("auto", "proof", "grid")
VALIDATE_POINTS = 256
MAX_SECONDS = 10.0
MAX_BOXES = 20_000


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
    grid: Any = None  # claims.registry.Result


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


def _grid_outcome(p, dom, points, notes, proof=None) -> CheckOutcome:
    from .expression import grid

    res = grid(p, dom, points)
    if res.evidence.get("undefined"):
        notes.append(f"{res.evidence['undefined']} grid points undefined (outside a function's or bound's domain or "
                     "assumptions) were skipped")
    if p.float_only:
        notes.append("re-check in float for " + ", ".join(p.float_only) + " (no arbitrary-precision form)")
    if p.bounds:
        notes.append("bounds re-checked through their sympy expressions (instance constants in float)")
    word = "counterexample" if res.counterexample else "no counterexample"
    out = CheckOutcome(method="grid", word=word, verdict=res.finding, parsed=p, domain=dom, points=res.points,
                       counterexample=res.counterexample, min_margin=res.evidence.get("min_margin"), notes=notes,
                       grid=res)
    if proof is not None:
        out.proof = proof
        out.undecided, out.n_undecided = proof.undecided, proof.n_undecided
    return out


def run(text: str, box: str | None, method: str = "auto", points: int = 4096, max_seconds: float = MAX_SECONDS,
        max_boxes: int = MAX_BOXES) -> CheckOutcome:
    """Check EXPR over the box: a proof when possible (``method`` "auto" or "proof"), else / or the grid."""
    from .expression import domain_of, grid, parse

    if method not in METHODS:
        raise InputError("--method", "one of " + ", ".join(METHODS), method)
    p = parse(text)
    dom = domain_of(p, box)
    notes: list[str] = []
    if method == "grid":
        return _grid_outcome(p, dom, points, notes)
    why, calls = enclosure_obstacles(p)
    if why:
        if method == "proof":
            raise InputError("--method", "grid for this expression (no proof: " + "; ".join(why) + ")", "proof")
        notes.append("no proof possible: " + "; ".join(why) + "; sampled on a grid instead")
        return _grid_outcome(p, dom, points, notes)
    grid(p, dom, min(points, VALIDATE_POINTS))  # the grid's one-line domain errors, before any proof
    pieces = p.comparisons()
    box_iv = {v: dom.range(v) for v in p.variables}
    try:
        _check_bound_assumptions(pieces, calls, box_iv)
    except ValueError as exc:  # NotEnclosable
        if method == "proof":
            raise InputError("--method", f"grid for this box (no proof: {exc})", "proof") from None
        notes.append(f"no proof possible: {exc}; sampled on a grid instead")
        return _grid_outcome(p, dom, points, notes)
    r = _prove_pieces(pieces, box_iv, calls, max_seconds, max_boxes, p.integers)
    if calls:
        notes.append("bounds enclosed through their sympy expressions (" + ", ".join(sorted({c.bid for c in calls.values()}))
                     + "); their assumptions were checked at the corners of the keyword ranges")
    if p.integers:
        notes.append("integer parameters (" + ", ".join(p.integers) + ") proven on their real intervals")
    if r.verdict == "proven on the box":
        return CheckOutcome(method="proof", word="proven", verdict=f"proven on the box ({boxes_text(r.boxes)})", parsed=p,
                            domain=dom, boxes=r.boxes, seconds=r.seconds, notes=notes, proof=r)
    if r.verdict == "counterexample":
        pt = r.counterexample["point"]
        cex = dict(pt, margin=r.counterexample["value_float"], margin_50_digits=r.counterexample["value"])
        return CheckOutcome(method="proof", word="counterexample", verdict="counterexample at " + _fmt_point(pt),
                            parsed=p, domain=dom, boxes=r.boxes, counterexample=cex, seconds=r.seconds, notes=notes,
                            proof=r)
    # undecided: the grid may still find a counterexample (confirmed at 50 digits)
    g = _grid_outcome(p, dom, points, list(notes), proof=r)
    if g.counterexample is not None:
        g.notes.append(f"the proof was undecided on {boxes_text(r.n_undecided)} ({r.reason}); the grid found the counterexample")
        return g
    notes.append(f"the proof stopped at its limit ({r.reason}); the grid found no counterexample on {g.points} points")
    return CheckOutcome(method="proof", word="undecided", verdict=f"undecided on {boxes_text(r.n_undecided)}", parsed=p,
                        domain=dom, boxes=r.boxes, undecided=r.undecided, n_undecided=r.n_undecided,
                        seconds=r.seconds, notes=notes, proof=r, grid=g.grid, points=None)


def _prove_pieces(pieces, box_iv, calls, max_seconds, max_boxes, integers):
    """Prove each comparison separately (its own strictness), within one time budget; one ProofResult back:
    proven if every piece is, the first counterexample, else undecided with every piece's boxes left."""
    import time

    from ..rigorous.claims import comparisons_claim

    t0 = time.perf_counter()
    results = []
    for piece in pieces:
        claim = comparisons_claim([piece], box_iv, functions={n: c.interval for n, c in calls.items()},
                                  mp_functions={n: c.mp for n, c in calls.items()})
        left = max(max_seconds - (time.perf_counter() - t0), 1e-3)
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
            ranges = {k: interval_eval(a, env) for k, a in zip(c.keys, f.args)}
            for k, r in ranges.items():
                if not (math.isfinite(r.lo) and math.isfinite(r.hi)):
                    from ..rigorous.bound_calls import NotEnclosable

                    raise NotEnclosable(f"{c.bid}: keyword {k} is not finite on the box")
            c.check_conditions(ranges)


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
