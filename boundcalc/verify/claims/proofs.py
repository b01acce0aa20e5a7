"""The "proof" method of a claim: boundcalc.rigorous's interval-arithmetic prover behind the evaluator interface
(``evaluator(domain) -> Result``), with the prover's verdicts mapped onto the registry's vocabulary:

* "proven on the box" (every box of a finite cover certified by outward-rounded enclosures) -> **holds**, with
  the number of boxes; the only way a claim gets "holds";
* "counterexample" (a point whose margin is negative at 50 digits) -> the claim's failure word (ERRATA
  vocabulary, "statement violated" by default), with the point and its 50-digit margin;
* "undecided" (the effort limit was reached; the boxes left are listed) -> the claim's grid evaluator decides
  between "no counterexample" and a confirmed counterexample; never "holds". The finding says
  "undecided on k boxes".

A claim may need several proofs (its *parts*: e.g. d_eps <= kl and d_eps <= eps TV for the sandwich); it holds
when every part is proven. Effort per part is capped by ``LIMITS`` (``max_seconds``, ``max_boxes``), which
``verify --max-seconds`` sets for a run through :func:`limits`.
"""

from __future__ import annotations

import contextlib
from typing import Callable, Iterable

from ...rigorous.prover import boxes_text
from .registry import Result

LIMITS = {"max_seconds": 10.0, "max_boxes": 20_000}


@contextlib.contextmanager
def limits(max_seconds: float | None = None, max_boxes: int | None = None):
    """Run a block with other proof-effort caps (per part of a claim)."""
    old = dict(LIMITS)
    if max_seconds is not None:
        LIMITS["max_seconds"] = float(max_seconds)
    if max_boxes is not None:
        LIMITS["max_boxes"] = int(max_boxes)
    try:
        yield LIMITS
    finally:
        LIMITS.clear()
        LIMITS.update(old)


def _pt_exact(point: dict) -> str:
    """The point with digits that read back as it (the finding names a counterexample that is one)."""
    from ..box import exact_number

    return ", ".join(f"{k}={exact_number(v)}" for k, v in point.items())


def _pt(point: dict) -> str:
    return ", ".join(f"{k}={v:.6g}" for k, v in point.items())


def proof_evaluator(parts: Callable, on_fail: str = "statement violated", grid: Callable | None = None,
                    what: str = "") -> Callable:
    """An evaluator proving every part on the domain.

    ``parts(dom)`` returns [(label, prove)] where ``prove(**limits)`` returns a rigorous ProofResult;
    ``grid`` is the claim's sampled evaluator, run when a part is undecided; ``what`` adds what the proof
    covers (and what it does not) to the evidence."""

    def ev(dom) -> Result:
        results = []
        for label, prove in parts(dom):
            r = prove(max_seconds=LIMITS["max_seconds"], max_boxes=LIMITS["max_boxes"])
            results.append((label, r))
            if r.verdict == "counterexample":
                break
        return combine(results, dom, on_fail, grid, what)

    return ev


def combine(results: Iterable, dom, on_fail: str = "statement violated", grid: Callable | None = None,
            what: str = "") -> Result:
    """One Result from the ProofResults of a claim's parts (see the module docstring)."""
    results = list(results)
    parts = [{"part": label, "verdict": r.verdict, "boxes": r.boxes, "seconds": round(r.seconds, 4),
              "evaluations": r.evaluations, "max_depth": r.max_depth, "box": r.box, "statement": r.statement,
              "backend": r.backend, **({"undecided": r.undecided, "n_undecided": r.n_undecided, "reason": r.reason}
                                       if r.verdict == "undecided" else {}),
              **({"counterexample": r.counterexample} if r.counterexample else {})} for label, r in results]
    boxes = sum(r.boxes for _, r in results)
    evidence = {"method": "interval arithmetic (outward-rounded floats; python-flint arb or mpmath.iv balls)",
                "parts": parts, "boxes": boxes, "domain": dom.describe(), "limits": dict(LIMITS)}
    if what:
        evidence["scope"] = what
    cex = [(label, r) for label, r in results if r.verdict == "counterexample"]
    if cex:
        label, r = cex[0]
        point = dict(r.counterexample["point"])
        ce = dict(point, margin=r.counterexample["value_float"], margin_50_digits=r.counterexample["value"], part=label)
        if r.counterexample.get("note"):
            ce["note"] = r.counterexample["note"]
        return Result(verdict=on_fail, boxes=boxes, counterexample=ce, evidence=evidence,
                      measured=f"{label}: counterexample at {_pt(point)} (margin {r.counterexample['value_float']:.3g}, "
                      f"50 digits: {r.counterexample['value'][:20]})",
                      finding=f"counterexample at {_pt_exact(point)}")
    undecided = [(label, r) for label, r in results if r.verdict == "undecided"]
    if not undecided:
        secs = sum(r.seconds for _, r in results)
        return Result(verdict="holds", boxes=boxes, evidence=evidence,
                      measured="proven on the box: " + "; ".join(f"{label} ({boxes_text(r.boxes)})" for label, r in results)
                      + f" — {secs:.2f} s, {results[0][1].backend} balls",
                      finding=f"proven on the box ({boxes_text(boxes)})")
    n_und = sum(r.n_undecided for _, r in undecided)
    reason = "; ".join(f"{label}: {r.reason}" for label, r in undecided)
    head = f"undecided on {boxes_text(n_und)} ({reason})"
    if grid is None:
        return Result(verdict="no counterexample", boxes=boxes, evidence=evidence, measured=head + "; no grid",
                      finding=f"undecided on {boxes_text(n_und)}")
    g = grid(dom)
    evidence["grid"] = g.evidence
    if g.counterexample is not None or g.verdict not in ("no counterexample", "holds"):
        return Result(verdict=g.verdict, points=g.points, boxes=boxes, counterexample=g.counterexample,
                      evidence=evidence, measured=f"{head}; grid: {g.measured}", method="grid",
                      finding=g.finding or (f"counterexample at {_pt(g.counterexample)}" if g.counterexample else g.verdict))
    return Result(verdict="no counterexample", points=g.points, boxes=boxes, evidence=evidence,
                  measured=f"{head}; grid: {g.measured}",
                  finding=f"undecided on {boxes_text(n_und)}; no counterexample on {g.points} grid points")
