"""Every claim that states a range evaluates that range, not a narrower one (issue 17 §4: "every claim's stated range
gets a test that fails when it is dropped or replaced").

A claim states its range in its data: the default domain of its parameters (``Claim.params``; what ``verify --list``
prints and ``Verdict.domain`` reports). What is *evaluated* is recorded where the evaluation happens:

* proof evaluators: the box each part was proved on (``evidence["parts"][i]["box"]``, written by the prover);
* ``Inequality`` grid evaluators: the smallest and largest value of each parameter the margin function received;
* every other evaluator: the ranges it read from its domain (``Domain.axis``/``grid``/``range``/``value``).

For each ranged parameter the evaluated range must equal the stated one. Mutants kept below: a narrowed proof box,
a narrowed Inequality grid, and an evaluator that reads a fixed sub-range instead of its domain.
"""

from __future__ import annotations

import inspect
import re
import math
import textwrap

import numpy as np
import pytest

from boundcalc.verify import claims as C
from boundcalc.verify.box import Domain
from boundcalc.verify.claims import proofs
from boundcalc.verify.claims.evaluators import Inequality

from _every_claim import claim_run, recording_domain, run_recording

# one pytest-xdist worker with tests/verify/test_verify_claims.py and the worksheets' fast runs: all read the one run of
# every claim (tests/_every_claim.py)
pytestmark = pytest.mark.xdist_group("worksheets")

# claims whose evaluator deliberately reads only part of a stated range, with the reason
EXEMPT: dict[str, str] = {}
# grid claims too slow for this test (tens of seconds on 2 cores); their full runs are in tests/verify/test_verify_claims.py
SLOW = {"001-private-chernoff", "001-laplace-tail"}


def _ranged(c) -> dict:
    return {p.name: p.default for p in c.params if p.default[0] != p.default[1]}


def _hull(ranges):
    return (min(r[0] for r in ranges), max(r[1] for r in ranges))


def _same(a, b):
    return all(math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12) for x, y in zip(a, b))


def _shared(c, evaluator) -> bool:
    """The registered claim with its default evaluator, which is neither a proof nor an Inequality grid: what it
    reads from its domain is recorded by the shared run of every claim (``claims.run()`` on recording domains,
    tests/_every_claim.py), the same call on the same default domain as below, so it is not run a second time."""
    return (evaluator is None and C.CLAIMS.get(c.id) is c and c.method != "proof"
            and not isinstance(c.evaluators[c.method], Inequality))


_PROOF_RANGES: dict[str, dict] = {}  # the registered proof claims' boxes: both tests below read them


def evaluated_ranges(c, evaluator=None, reads=None) -> dict[str, tuple[float, float]]:
    """{parameter: (lo, hi)} actually evaluated by the claim's default evaluator (or ``evaluator``); ``reads``: the
    domain reads of a run already done (the shared run of every claim, or a mutant's run)."""
    if reads is None and _shared(c, evaluator):
        reads = claim_run(c.id)[1]
    if reads is not None:
        return {k: _hull(v) for k, v in reads.items()}
    cache = evaluator is None and C.CLAIMS.get(c.id) is c and c.method == "proof"
    if cache and c.id in _PROOF_RANGES:
        return dict(_PROOF_RANGES[c.id])
    got = _evaluated_ranges(c, evaluator)
    if cache:
        _PROOF_RANGES[c.id] = dict(got)
    return got


def _evaluated_ranges(c, evaluator=None) -> dict[str, tuple[float, float]]:
    ev = evaluator or c.evaluators[c.method]
    dom = recording_domain(c.params)
    if isinstance(ev, Inequality):
        seen: dict[str, list] = {}
        real = ev.margin

        def margin(**kw):
            for k, v in kw.items():
                a = np.asarray(v, dtype=float)
                seen.setdefault(k, []).append((float(a.min()), float(a.max())))
            return real(**kw)

        type(ev)(**{**ev.__dict__, "margin": margin}).evaluate(dom)
        return {k: _hull(v) for k, v in seen.items()}
    real_combine = proofs.combine

    def boxes_only(results, dom, on_fail="statement violated", grid=None, what=""):
        return real_combine(results, dom, on_fail, None, what)  # no grid fallback: only the proved boxes matter here

    proofs.combine = boxes_only
    try:
        with proofs.limits(max_seconds=0.05, max_boxes=1):  # the box is recorded whatever the effort
            r = ev(dom)
    finally:
        proofs.combine = real_combine
    if c.method == "proof" and "parts" in r.evidence:
        out: dict[str, list] = {}
        for part in r.evidence["parts"]:
            for k, v in (part.get("box") or {}).items():
                out.setdefault(k, []).append(tuple(v))
        return {k: _hull(v) for k, v in out.items()}
    return {k: _hull(v) for k, v in dom.read.items()}


def range_problems(c, evaluator=None, reads=None) -> list[str]:
    got = evaluated_ranges(c, evaluator, reads)
    problems = []
    for name, stated in _ranged(c).items():
        if name not in got:
            if c.method == "proof":
                continue  # the prover names its variables itself (x, y for two means); their boxes are checked below
            problems.append(f"{c.id}: {name} stated {stated} but never evaluated")
        elif not _same(got[name], stated):
            problems.append(f"{c.id}: {name} evaluated on {got[name]}, stated {stated}")
    return problems


RANGED = [cid for cid, c in C.CLAIMS.items() if _ranged(c) and c.method != "none" and cid not in EXEMPT]
QUICK = [cid for cid in RANGED if C.CLAIMS[cid].method != "monte-carlo" and cid not in SLOW]
MC = [cid for cid in RANGED if C.CLAIMS[cid].method == "monte-carlo"]


@pytest.mark.parametrize("cid", QUICK)
def test_claim_evaluates_its_stated_range(cid):
    assert range_problems(C.CLAIMS[cid]) == []


@pytest.mark.parametrize("cid", MC)
def test_monte_carlo_claim_reads_its_stated_range(cid, monkeypatch):
    """Monte Carlo claims: the ranges they read from their domain (their sampling loops are their own tests)."""
    assert range_problems(C.CLAIMS[cid]) == []


def test_proof_claims_name_their_parameters():
    """Each proof claim's parts prove on boxes keyed by the claim's own parameter names for at least one ranged
    parameter (so the check above is not vacuous for proofs)."""
    vacuous = []
    for cid in QUICK:
        c = C.CLAIMS[cid]
        if c.method != "proof":
            continue
        got = evaluated_ranges(c)
        if not set(got) & set(_ranged(c)):
            vacuous.append(cid)
    assert not vacuous, vacuous


# -- mutants --------------------------------------------------------------------------------------------------------
def _mutate(func, old, new):
    src = textwrap.dedent(inspect.getsource(func))
    assert src.count(old) == 1, (func, old)
    ns = dict(func.__globals__)
    exec(compile(src.replace(old, new), inspect.getsourcefile(func), "exec"), ns)  # noqa: S102 - test mutant
    return ns[func.__name__]


def test_narrowed_proof_box_is_caught():
    """Mutant: ERRATA 15's proof box `"epsilon": dom.range("epsilon")` -> `(lo, 2.0)`."""
    from boundcalc.verify.claims import lower_bounds

    c = C.CLAIMS["001-thm31-vs-eq7"]
    parts = _mutate(lower_bounds._thm31_parts, '"epsilon": dom.range("epsilon")}',
                    '"epsilon": (dom.range("epsilon")[0], 2.0)}')
    assert range_problems(c, proofs.proof_evaluator(parts, grid=lower_bounds._thm31_vs_eq7)) != []


def test_narrowed_inequality_grid_is_caught():
    """Mutant: an Inequality whose grid is laid on half of each range (`dom.grid(...)` on a shrunk domain)."""
    cid = next(i for i in QUICK if isinstance(C.CLAIMS[i].evaluators[C.CLAIMS[i].method], Inequality))
    c = C.CLAIMS[cid]
    ev = c.evaluators[c.method]

    class Narrow(Inequality):
        def evaluate(self, dom, points=None):
            half = {k: (lo, lo + (hi - lo) / 2) for k, (lo, hi) in dom.ranges.items()}
            return super().evaluate(Domain.of(dom.params, half), points)

    assert range_problems(c, Narrow(**ev.__dict__)) != []


def test_evaluator_ignoring_its_domain_is_caught():
    """Mutant: ERRATA 15's grid evaluator on a hard-coded ε range instead of its domain
    (`lo, hi = dom.range("epsilon")` / `dom.axis("epsilon", 81)` -> `1e-3, 2.0` / `np.geomspace(lo, hi, 81)`).
    (A hard-coded axis after reading the domain is caught by the registry-level spy of
    tests/project/test_mutants_across_packages.py::test_errata15_grid_range_mutant_is_caught.)"""
    from boundcalc.verify.claims import lower_bounds

    c = C.CLAIMS["001-thm31-vs-eq7"]
    bad = _mutate(lower_bounds._thm31_vs_eq7, 'lo, hi = dom.range("epsilon")\n    eps = dom.axis("epsilon", 81)',
                  'lo, hi = 1e-3, 2.0\n    eps = np.geomspace(lo, hi, 81)')
    c_grid = type(c)(**{**c.__dict__, "evaluators": {"grid": bad}})
    assert range_problems(c_grid) != []


def test_evaluator_ignoring_its_domain_is_caught_in_the_shared_run():
    """The same mutant as above, installed as the registered claim's default evaluator and read through the shared
    run's path (``claims.run`` on recording domains, tests/_every_claim.py), which the range tests of the non-proof,
    non-Inequality claims use: it is rejected there too, and the unmutated grid evaluator passes that path."""
    from boundcalc.verify.claims import lower_bounds

    cid = "001-thm31-vs-eq7"
    c = C.CLAIMS[cid]
    bad = _mutate(lower_bounds._thm31_vs_eq7, 'lo, hi = dom.range("epsilon")\n    eps = dom.axis("epsilon", 81)',
                  'lo, hi = 1e-3, 2.0\n    eps = np.geomspace(lo, hi, 81)')
    saved = c.evaluators
    try:
        object.__setattr__(c, "evaluators", {"grid": c.evaluators["grid"]})
        assert _shared(c, None)
        assert range_problems(c, reads=run_recording([cid])[1][cid]) == []
        object.__setattr__(c, "evaluators", {"grid": bad})
        assert range_problems(c, reads=run_recording([cid])[1][cid]) != []
    finally:
        object.__setattr__(c, "evaluators", saved)


# -- ranges stated in a claim's text ------------------------------------------------------------------------------------
SYMBOLS = {"ε": "epsilon", "ρ": "rho", "δ": "delta", "λ": "lam", "α": "alpha", "β": "beta", "T": "T", "d": "d",
           "K": "K", "x": "x", "n": "n", "m": "m", "t": "t"}
_NUM = r"(-?\d+(?:\.\d+)?(?:e-?\d+)?)"
_IN = re.compile(r"(?<![\w_])([A-Za-zρεδλαβ])\s*∈\s*\[\s*" + _NUM + r"\s*,\s*" + _NUM + r"\s*\]")
_CMP = re.compile(r"(?<![\w_(])([A-Za-zρεδλαβ])\s*(≤|≥)\s*" + _NUM + r"(?![\w.^/])")


def text_range_problems(c) -> list[str]:
    """Ranges written in the statement ('ρ ∈ [1e-8, 1e3]', 'T ≤ 1e9', 'x ≥ 0') against the parameters' stated
    default domain, which the tests above hold the evaluation to."""
    rng = {p.name: p.default for p in c.params}
    problems = []
    for m in _IN.finditer(c.statement):
        name = SYMBOLS.get(m.group(1))
        if name in rng and not _same(rng[name], (float(m.group(2)), float(m.group(3)))):
            problems.append(f"{c.id}: text says {m.group(0)}, domain {name} = {rng[name]}")
    for m in _CMP.finditer(c.statement):
        name = SYMBOLS.get(m.group(1))
        if name not in rng:
            continue
        end = rng[name][1] if m.group(2) == "≤" else rng[name][0]
        if not _same((end,), (float(m.group(3)),)):
            problems.append(f"{c.id}: text says {m.group(0)}, domain {name} = {rng[name]}")
    return problems


def test_ranges_in_the_text_match_the_domain():
    """Kills: a claim's box narrowed below what its statement says (e.g. 003-trivial-cap's T up to 1e4 while the
    statement says 'every T ≤ 1e5'); at least the claims with explicit ranges are parsed."""
    checked = [cid for cid, c in C.CLAIMS.items() if _IN.search(c.statement) or _CMP.search(c.statement)]
    assert {"003-lower-le-upper-linear", "003-trivial-cap", "003-thm17-constant"} <= set(checked)
    problems = [p for cid in checked for p in text_range_problems(C.CLAIMS[cid])]
    assert problems == []
    c = C.CLAIMS["003-trivial-cap"]
    from boundcalc.verify.box import Param

    narrowed = tuple(Param(p.name, p.lo, 1e4, p.allowed, p.integer, p.doc) if p.name == "T" else p for p in c.params)
    assert text_range_problems(type(c)(**{**c.__dict__, "params": narrowed})) != []
