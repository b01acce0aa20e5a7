"""The prover: certify margin(x) >= 0 for every x in a box by interval enclosures and adaptive bisection.

``prove(margin, box, ...)`` takes ``margin``, a function from a box (dict name -> Interval) to an Interval
enclosing h(x) - g(x) over that box, for the claim g <= h (write ">=" claims as h - g the other way, an
equality within tol as tol - |h - g|). On each box:

* enclosure lower end >= -tol (> -tol for ``strict``): the box is **proven** (every point satisfies it);
* enclosure upper end < -tol: every point violates it; the box midpoint is a **counterexample candidate**;
* otherwise the box is bisected (along the coordinate with the largest width relative to the initial box;
  in log scale for a positive coordinate spanning two decades or more, e.g. eps in [1e-3, 10], T in
  [10, 1e9]). Undecided boxes also get their midpoint evaluated (a degenerate box): a certainly violated
  midpoint is a counterexample candidate.

Where a box's enclosure is infinite or undefined (kl at a corner of [0, 1]², 1/y at y = 0), its corners are
candidates too (up to ``MAX_CORNERS``): an infinite margin is never left to the subdivision alone. A confirmed
counterexample with an infinite margin is kept while ``PENDING_EVALS`` more evaluations look for a finite one.

A candidate is reported only after ``point_margin`` (an mpmath function of the point, run at 50 digits)
confirms margin < -tol there; a candidate that the 50-digit value does not confirm is kept as undecided
with that reason (it would mean a defective enclosure). With ``constraint`` (an enclosure of c(x), the
domain being c >= 0) boxes where c < 0 certainly are dropped as outside the domain.

Limits: ``max_boxes`` evaluated boxes, ``max_depth`` bisections of one box, ``max_seconds`` (also inside a long
evaluation: boundcalc.rigorous.deadline, whose TimeLimit ends the proof as undecided). At a limit the
verdict is "undecided" with the boxes left (all of them in ``undecided``). "proven on the box" is returned
only when every box of the cover is proven: the verdict never rests on samples.
"""

from __future__ import annotations

import heapq
import math
import time
from dataclasses import dataclass, field
from typing import Callable, Mapping

from .deadline import TimeLimit, limit
from ..intervals.interval import INF, DomainError, Interval, backend_name

PENDING_EVALS = 500  # evaluations spent looking for a finite counterexample before reporting an infinite one
MAX_CORNERS = 16  # corners of a box whose enclosure is infinite or undefined, evaluated as candidate points
TINY = 1e-300  # a midpoint enclosure inside [-TINY, TINY] (float underflow: x*y at 1e-200) cannot be signed in float
MAX_APPROACH = 64  # points tried per proof near corners where the margin is undefined (a witness must be defined)
APPROACH = (1e-320, 1e-310, 1e-300, 1e-200, 1e-100, 1e-50, 1e-16, 1e-8)  # fractions of the way to the centre
MAX_TINY_CHECKS = 64  # such candidates re-checked at 50, 100 and 200 digits per proof

PROVEN = "proven on the box"
COUNTEREXAMPLE = "counterexample"
UNDECIDED = "undecided"

Box = dict  # name -> Interval


def boxes_text(n: int) -> str:
    """"1 box", "12 boxes"."""
    return f"{n} box" if n == 1 else f"{n} boxes"


@dataclass
class ProofResult:
    """Outcome of ``prove``. ``verdict`` in {"proven on the box", "counterexample", "undecided"}."""

    claim: str
    verdict: str
    box: dict  # the box proven over: name -> [lo, hi]
    boxes: int  # boxes in the final cover (proven + undecided + outside the domain)
    undecided: list = field(default_factory=list)  # list of {name: [lo, hi]} (at most ``max_listed``)
    n_undecided: int = 0
    counterexample: dict | None = None  # {"point": {name: float}, "value": "50-digit string", "value_float": f}
    seconds: float = 0.0
    evaluations: int = 0
    max_depth: int = 0
    outside: int = 0  # boxes dropped as outside the domain constraint
    statement: str = ""  # what exactly is proven (the claim's own words)
    backend: str = ""
    tol: float = 0.0
    reason: str = ""  # why undecided (limit reached, enclosure disagreement, ...)
    method: str = "proof"

    @property
    def proven(self) -> bool:
        return self.verdict == PROVEN

    def summary(self) -> str:
        if self.verdict == PROVEN:
            return f"proven on the box ({boxes_text(self.boxes)}, {self.seconds:.2f} s)"
        if self.verdict == COUNTEREXAMPLE:
            pt = ", ".join(f"{k}={v:.6g}" for k, v in self.counterexample["point"].items())
            return f"counterexample at {pt}: margin = {self.counterexample['value'][:24]} (50 digits)"
        return f"undecided on {boxes_text(self.n_undecided)} ({self.reason})"

    def to_json(self) -> dict:
        return {
            "claim": self.claim,
            "verdict": self.verdict,
            "method": self.method,
            "box": self.box,
            "boxes": self.boxes,
            "undecided": self.undecided,
            "n_undecided": self.n_undecided,
            "counterexample": self.counterexample,
            "seconds": self.seconds,
            "evaluations": self.evaluations,
            "max_depth": self.max_depth,
            "outside": self.outside,
            "statement": self.statement,
            "backend": self.backend,
            "tol": self.tol,
            "reason": self.reason,
        }


def as_box(box: Mapping) -> dict:
    """Normalise {name: (lo, hi) | Interval | number} to {name: Interval} (validated: finite order)."""
    out = {}
    for k, v in box.items():
        if isinstance(v, Interval):
            iv = v
        elif isinstance(v, (tuple, list)):
            if len(v) != 2:
                raise ValueError(f"box entry {k!r} must be (lo, hi), got {v!r}")
            iv = Interval(float(v[0]), float(v[1]))
        else:
            iv = Interval(float(v))
        if math.isnan(iv.lo) or math.isnan(iv.hi):
            raise ValueError(f"box entry {k!r} is nan")
        out[k] = iv
    return out


def default_scales(box: Mapping[str, Interval]) -> dict:
    """'log' for a positive coordinate spanning a factor >= 100, else 'lin'."""
    return {k: ("log" if v.lo > 0 and not math.isinf(v.hi) and v.hi >= 100 * v.lo else "lin") for k, v in box.items()}


def _split_point(iv: Interval, scale: str) -> float:
    if scale == "log" and iv.lo > 0:
        m = math.sqrt(iv.lo) * math.sqrt(iv.hi)
    else:
        m = iv.mid
    if not (iv.lo < m < iv.hi):
        m = iv.mid
    return m


def _measure(iv: Interval, scale: str) -> float:
    if iv.is_point():
        return 0.0
    if scale == "log" and iv.lo > 0:
        return math.log(iv.hi / iv.lo)
    return iv.hi - iv.lo


def _midpoint(box: dict, scales: dict) -> dict:
    return {k: (v.lo if v.is_point() else _split_point(v, scales[k])) for k, v in box.items()}


def _nstr(v, digits: int) -> str:
    """mpmath.nstr, except for magnitudes beyond 10^±900 (printing 10^(10^8000) in decimal never ends): sign and
    decimal exponent only."""
    import mpmath

    if v == 0 or mpmath.isinf(v) or mpmath.isnan(v) or abs(mpmath.mag(v)) < 3000:
        return mpmath.nstr(v, digits)
    return ("-" if v < 0 else "") + "10^(" + mpmath.nstr(mpmath.log10(abs(v)), 20) + ")"


def _box_json(box: dict) -> dict:
    return {k: [v.lo, v.hi] for k, v in box.items()}


def prove(
    margin: Callable[[dict], Interval],
    box: Mapping,
    *,
    point_margin: Callable[[dict], object] | None = None,
    claim: str = "",
    statement: str = "",
    tol: float = 0.0,
    strict: bool = False,
    constraint: Callable[[dict], Interval] | None = None,
    scales: Mapping[str, str] | None = None,
    max_boxes: int = 200_000,
    max_depth: int = 80,
    max_seconds: float = 120.0,
    max_listed: int = 50,
    point_digits: int = 50,
    split: str = "influence",
) -> ProofResult:
    """Prove margin >= -tol (or > -tol if strict) on the box, find a counterexample, or give up at a limit.

    ``margin(box) -> Interval`` must enclose the margin over every point of the box (and may raise
    ``DomainError`` for a box entirely outside its domain: that box then stays undecided with the reason).
    ``point_margin(point) -> mpmath number`` is the same margin at a point, used only to re-check a
    counterexample at ``point_digits`` digits (required for a counterexample to be reported).
    ``split``: "influence" (default) bisects the coordinate whose halves give the best worst lower end
    (the two halves of each coordinate are evaluated; the chosen pair is kept, so nothing is evaluated
    twice); "widest" bisects the coordinate widest relative to the initial box (cheaper per box).
    """
    if split not in ("influence", "widest"):
        raise ValueError("split must be 'influence' or 'widest'")
    import mpmath

    t0 = time.perf_counter()
    root = as_box(box)
    names = list(root)
    sc = dict(default_scales(root))
    if scales:
        sc.update(scales)
    init_measure = {k: (_measure(root[k], sc[k]) or 1.0) for k in names}

    proven = 0
    outside = 0
    evals = 0
    deepest = 0
    undecided: list[dict] = []
    reasons: list[str] = []
    counter = 0  # heap tie-breaker
    heap: list = []

    def ok(iv: Interval) -> bool:
        return iv.lo > -tol if strict else iv.lo >= -tol

    def violated(iv: Interval) -> bool:
        return iv.hi <= -tol if strict else iv.hi < -tol

    def confirm(point: dict):
        """50-digit check of a candidate point: (confirmed, value string, float value)."""
        if point_margin is None:
            return False, "", float("nan")
        with mpmath.workdps(point_digits):
            try:
                v = point_margin({k: mpmath.mpf(x) for k, x in point.items()})
            except (ValueError, ZeroDivisionError, OverflowError, DomainError):
                return False, "", float("nan")
            if isinstance(v, mpmath.mpc) or mpmath.isnan(v):
                return False, "", float("nan")
            if mpmath.isinf(v):  # an infinite side (kl at the boundary): violated exactly when it is -inf
                return bool(v < 0), mpmath.nstr(v, point_digits), float(v)
            if mpmath.mag(v) > 3000:  # far beyond float: the sign decides (a huge value is far from -tol)
                return bool(v < 0), _nstr(v, point_digits), float(v)
            thr = -mpmath.mpf(tol)
            conf = (v <= thr) if strict else (v < thr)
            # beyond the 50-digit noise: the margin must be below -tol by more than 10^-(digits - 10) (relative)
            noise = mpmath.mpf(10) ** (-(point_digits - 10)) * max(1, abs(v))
            conf = bool(conf and (thr - v) > noise)
            return conf, _nstr(v, point_digits), float(v)

    tiny_checks = [0]

    def confirm_tiny(point: dict):
        """A candidate whose margin may be far below 0 relative to its own size but within the absolute 50-digit
        noise floor of ``confirm``: x*y = 1e-398 at x = y = 1e-199 (float rounds it to 0), x - expm1(x) = -5e-89.
        Evaluated at point_digits, twice and four times as many digits: confirmed when two consecutive values are
        below -tol and agree to 20 digits (so the value is the margin's own, not the rounding noise of a
        cancellation: x - expm1(x) at x = 5e-44 loses 43 of the 50 digits)."""
        if point_margin is None or tiny_checks[0] >= MAX_TINY_CHECKS:
            return False, "", float("nan")
        tiny_checks[0] += 1
        thr = -mpmath.mpf(tol)
        prev = None
        for digits in (point_digits, 2 * point_digits, 4 * point_digits):
            with mpmath.workdps(digits):
                try:
                    v = point_margin({k: mpmath.mpf(x) for k, x in point.items()})
                except (ValueError, ZeroDivisionError, OverflowError, DomainError):
                    return False, "", float("nan")
                if isinstance(v, mpmath.mpc) or not mpmath.isfinite(v):
                    return False, "", float("nan")
                below = (v <= thr) if strict else (v < thr)
                if not below:
                    return False, "", float("nan")
                if prev is not None and abs(prev - v) <= mpmath.mpf(10) ** -20 * abs(v):
                    return True, _nstr(+v, point_digits), float(v)
                prev = v
        return False, "", float("nan")

    tried: set = set()

    def corner_candidates(b: dict) -> list:
        """Candidate points of a box whose enclosure is infinite or undefined (kl at a corner, 1/y at y = 0): its
        corners (all of them up to MAX_CORNERS, else the two extreme ones and a fixed spread) not tried before."""
        if MAX_CORNERS <= 0:
            return []
        free = [k for k in names if not b[k].is_point()]
        ends = {k: (b[k].lo, b[k].hi) for k in names}
        if 2 ** len(free) <= MAX_CORNERS:
            picks = [[(i >> j) & 1 for j in range(len(free))] for i in range(2 ** len(free))]
        else:
            picks = [[0] * len(free), [1] * len(free)] + [[(i >> (j % 16)) & 1 ^ (j & 1) for j in range(len(free))]
                                                          for i in range(1, MAX_CORNERS - 1)]
        out = []
        for pk in picks:
            pt = {k: (ends[k][pk[free.index(k)]] if k in free else b[k].lo) for k in names}
            key = tuple(pt[k] for k in names)
            if key in tried or not all(math.isfinite(v) for v in key):
                continue
            tried.add(key)
            out.append(pt)
        return out

    approached = [0]

    def approach(pt: dict, b: dict) -> list:
        """Points moving from a corner where the 50-digit margin is undefined (log(x) at x = 0, outside a domain)
        toward the box's centre, by the fractions APPROACH of the way (then the next float): a counterexample must
        be a point where the margin is defined (issue 22: log(log(x)) >= -800 gave the witness x = 1)."""
        out = []
        centre = {k: b[k].lo / 2 + b[k].hi / 2 for k in names}
        for f in APPROACH + (0.0,):
            if approached[0] >= MAX_APPROACH:
                break
            q = {k: (pt[k] + f * (centre[k] - pt[k])) if f else
                 (math.nextafter(pt[k], centre[k]) if centre[k] != pt[k] else pt[k]) for k in names}
            key = tuple(q[k] for k in names)
            if key in tried or not all(math.isfinite(v) for v in key):
                continue
            tried.add(key)
            approached[0] += 1
            out.append(q)
        return out

    def point_violated(pt: dict) -> bool:
        try:
            mm = margin({k: Interval(v) for k, v in pt.items()})
        except DomainError:
            return False
        return violated(mm)

    def in_domain_point(point: dict) -> bool:
        if constraint is None:
            return True
        c = constraint({k: Interval(v) for k, v in point.items()})
        return c.lo >= 0

    def result(verdict, cex=None, reason=""):
        ud = undecided[:max_listed]
        return ProofResult(
            claim=claim, verdict=verdict, box=_box_json(root),
            boxes=proven + len(undecided) + outside, undecided=[_box_json(b) for b in ud],
            n_undecided=len(undecided), counterexample=cex, seconds=time.perf_counter() - t0,
            evaluations=evals, max_depth=deepest, outside=outside, statement=statement,
            backend=backend_name(), tol=tol, reason=reason,
        )

    def push(b: dict, depth: int, known=None):
        nonlocal counter
        counter += 1
        heapq.heappush(heap, (depth, counter, b, known))

    def evaluate(b):
        nonlocal evals
        evals += 1
        try:
            return margin(b), ""
        except DomainError as exc:
            return None, f"outside the domain of the margin: {exc}"

    push(root, 0)
    limit_reason = ""
    current: list = [None]
    pending: list = [None]  # (a counterexample with an infinite margin at a corner, evaluations when found)

    def _loop():
        nonlocal proven, outside, evals, deepest, limit_reason
        while heap:
            depth, _, b, known = heapq.heappop(heap)
            current[0] = b
            deepest = max(deepest, depth)
            if constraint is not None:
                c = constraint(b)
                if c.hi < 0:
                    outside += 1
                    continue
            m, why = known if known is not None else evaluate(b)
            if m is not None and ok(m):
                proven += 1
                continue
            # counterexample search: the whole box violated, or its midpoint
            mid = _midpoint(b, sc)
            cand = None
            if m is not None and violated(m):
                cand = mid
            else:
                try:
                    mm = margin({k: Interval(v) for k, v in mid.items()})
                    evals += 1
                    if violated(mm):
                        cand = mid
                    elif (mm.lo < -tol and -TINY <= mm.lo and mm.hi <= TINY and tiny_checks[0] < MAX_TINY_CHECKS
                          and in_domain_point(mid)):
                        conf, sval, fval = confirm_tiny(mid)  # float underflow hides the sign: 50/100 digits
                        if conf:
                            return result(COUNTEREXAMPLE, {"point": mid, "value": sval, "value_float": fval})
                except DomainError:
                    pass
            if cand is None and pending[0] is None and (m is None or m.lo == -INF):
                # an infinite or undefined enclosure (kl at a corner, 1/y at y = 0): try the box's corners
                for pt in corner_candidates(b):
                    evals += 1
                    if point_violated(pt) and in_domain_point(pt):
                        conf, sval, fval = confirm(pt)
                        if not conf and fval != fval:  # undefined at the corner: try points next to it
                            for q in approach(pt, b):
                                evals += 1
                                if point_violated(q) and in_domain_point(q):
                                    conf, sval, fval = confirm(q)
                                    if conf:
                                        pt = q
                                        break
                        if conf and math.isinf(fval):  # kept; a finite counterexample found soon is preferred
                            pending[0] = ({"point": pt, "value": sval, "value_float": fval}, evals)
                            break
                        if conf:
                            cand = pt
                            break
            if pending[0] is not None and evals - pending[0][1] > PENDING_EVALS:
                return result(COUNTEREXAMPLE, pending[0][0])
            if cand is not None and in_domain_point(cand):
                conf, sval, fval = confirm(cand)
                if not conf and m is not None and violated(m):
                    conf, sval, fval = confirm_tiny(cand)  # a violation below the 1e-40 floor (x - expm1(x) = -5e-89)
                if conf:
                    return result(COUNTEREXAMPLE, {"point": cand, "value": sval, "value_float": fval})
                if m is not None and violated(m):
                    undecided.append(b)
                    reasons.append("an enclosure below the bound was not confirmed at 50 digits"
                                   if point_margin is not None else "violated on a box; no point check given")
                    continue
            # split
            elapsed = time.perf_counter() - t0
            if depth >= max_depth or evals >= max_boxes or elapsed >= max_seconds:
                undecided.append(b)
                if m is None:
                    reasons.append(why)
                limit_reason = (f"max_depth {max_depth}" if depth >= max_depth else
                                f"max_boxes {max_boxes}" if evals >= max_boxes else f"max_seconds {max_seconds:g}")
                continue
            splittable = [n for n in names if _measure(b[n], sc[n]) > 0]
            if not splittable:
                undecided.append(b)
                reasons.append("cannot split further (a point box is undecided)")
                continue

            def halves(n):
                iv = b[n]
                s = _split_point(iv, sc[n])
                left, right = dict(b), dict(b)
                left[n] = Interval(iv.lo, s)
                right[n] = Interval(s, iv.hi)
                return left, right

            if split == "widest" or len(splittable) == 1:
                k = max(splittable, key=lambda n: _measure(b[n], sc[n]) / init_measure[n])
                left, right = halves(k)
                push(left, depth + 1)
                push(right, depth + 1)
                continue
            best = None
            for n in splittable:
                left, right = halves(n)
                ml, ml_why = evaluate(left)
                mr, mr_why = evaluate(right)
                score = min(ml.lo if ml is not None else -INF, mr.lo if mr is not None else -INF)
                key = (score, _measure(b[n], sc[n]) / init_measure[n])
                if best is None or key > best[0]:
                    best = (key, left, (ml, ml_why), right, (mr, mr_why))
            _, left, kl_, right, kr_ = best
            push(left, depth + 1, kl_)
            push(right, depth + 1, kr_)
        if pending[0] is not None:
            return result(COUNTEREXAMPLE, pending[0][0])
        if undecided:
            reason = limit_reason or (reasons[0] if reasons else "undecided")
            if reasons and limit_reason and reasons[0] not in limit_reason:
                reason = f"{limit_reason}; {reasons[0]}"
            return result(UNDECIDED, reason=reason)
        return result(PROVEN)

    try:
        with limit(max_seconds * 1.5 + 1.0, alarm=False):  # the limit holds inside a long evaluation too
            return _loop()
    except TimeLimit:
        pass
    if pending[0] is not None:
        return result(COUNTEREXAMPLE, pending[0][0])
    limit_reason = f"max_seconds {max_seconds:g} (time limit reached inside an evaluation)"
    if current[0] is not None:
        undecided.append(current[0])
    undecided.extend(item[2] for item in heap)
    heap.clear()
    return result(UNDECIDED, reason=limit_reason)
