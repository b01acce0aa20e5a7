"""One run of every claim of the verifier (``claims.run()``), shared by tests/verify/test_verify_claims.py (its verdicts)
and tests/verify/test_claim_ranges.py (the ranges each evaluator read from its domain): the run is the most expensive
part of both files and computes exactly the same thing twice otherwise; the worksheets' fast runs judge their papers'
claims from it too (tests/worksheet_fast_runs.py). The modules are in the xdist group ``worksheets``
(tests/conftest.py), so under ``-n 2`` the run is done once, on one worker.

The run is ``claims.run`` itself (claim by claim, in registry order); only ``Claim.domain`` is wrapped so that each claim is evaluated on a
``RecordingDomain`` (a Domain that records every range it hands out and returns the same values), which changes
no verdict.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from boundcalc.verify import claims
from boundcalc.verify.box import Domain
from boundcalc.verify.claims import registry


class RecordingDomain(Domain):
    """A Domain that records every range its evaluator reads."""

    def __post_init__(self):
        self.read: dict[str, list[tuple[float, float]]] = {}

    def _rec(self, name, lo, hi):
        self.read.setdefault(name, []).append((float(lo), float(hi)))

    def range(self, name):
        r = super().range(name)
        self._rec(name, *r)
        return r

    def value(self, name):
        v = super().value(name)
        self._rec(name, v, v)
        return v

    def axis(self, name, n):
        a = super().axis(name, n)
        self._rec(name, float(np.min(a)), float(np.max(a)))
        return a

    def grid(self, names=None, points=4096):
        g = super().grid(names, points)
        for k, v in g.items():
            self._rec(k, float(np.min(v)), float(np.max(v)))
        return g


def recording_domain(params, box=None) -> RecordingDomain:
    dom = RecordingDomain.of(params, box)
    dom.__post_init__()  # Domain's dataclass __init__ does not call a subclass's __post_init__
    return dom


def run_recording(ids=None):
    """``claims.run(ids)`` with each claim's domain recording its reads: (verdicts by id, {id: {name: [(lo, hi)]}})."""
    reads: dict[str, dict] = {}
    real = registry.Claim.domain

    def domain(self, box=None):
        dom = recording_domain(self.params, box)
        reads[self.id] = dom.read
        return dom

    registry.Claim.domain = domain
    try:
        verdicts = {v.claim_id: v for v in claims.run(ids)}
    finally:
        registry.Claim.domain = real
    return verdicts, reads


@lru_cache(maxsize=None)
def claim_run(cid: str):
    """``claims.run([cid])`` on a recording domain, once per process: (verdict, {name: [(lo, hi)]})."""
    verdicts, reads = run_recording([cid])
    return verdicts[cid], reads[cid]


def every_claim():
    """The run of every claim, in registry order (what ``claims.run()`` runs: each claim on its default domain with
    its default method), each claim computed once per process (``claim_run``): (verdicts by id, reads by id).
    tests/verify/test_claim_ranges.py asks only for the claims it checks, so run alone it evaluates no more than those."""
    runs = {cid: claim_run(cid) for cid in claims.CLAIMS}
    return {cid: v for cid, (v, _) in runs.items()}, {cid: r for cid, (_, r) in runs.items()}
