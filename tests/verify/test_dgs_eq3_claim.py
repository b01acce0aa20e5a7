"""Claim 004-eq3-confidence-bound (seed 004 Eq. 3, coverage table): the per-arm confidence bound of Lemma 2.

Independent checks: the ellipsoid counts recorded here equal those of coverage.dgs_coverage (a separate
implementation of Eq. 4 on the same seed), Cauchy–Schwarz orders the two, and the per-arm ratios equal a plain loop
over the recorded arms. Mutants: a Euclidean ‖x‖ in place of ‖x‖_{A_t⁻¹} (rejected by the plain loop), the contexts
of the previous round (rejected by the plain loop on the true contexts), and a width 10⁴ times larger (the claim
then finds nothing, so its verdict is not fixed in advance).
"""

from __future__ import annotations

import numpy as np

from boundcalc.verify import claims
from boundcalc.verify.claims import dgs_cb
from boundcalc.verify.claims.coverage import dgs_coverage
from mutation import mutate


def _plain_loop(raw) -> np.ndarray:
    X, E, Ainv, w = raw["X"], raw["E"], raw["A_inv"], raw["alpha"]
    out = np.zeros(E.shape[:2])
    for i in range(X.shape[0]):
        for r in range(X.shape[1]):
            worst = 0.0
            for x in X[i, r]:
                worst = max(worst, abs(float(x @ E[i, r])) / (w[i] * float(np.sqrt(x @ Ainv[i, r] @ x))))
            out[i, r] = worst
    return out


def test_ellipsoid_agrees_with_coverage_and_cauchy_schwarz_orders_them():
    res = dgs_cb.dgs_confidence_bound(40, 12, seed=3, raw=True)
    ref = dgs_coverage(40, 12, 3)["printed"]
    for k in ("runs_outside", "rounds_outside", "first_round_outside"):
        assert res["eq4"][k] == ref[k], k
    assert np.isclose(res["eq4"]["max_ratio"], ref["max_ratio"], rtol=1e-9)
    assert res["cauchy_schwarz_holds"] and res["eq3"]["rounds_outside"] <= res["eq4"]["rounds_outside"]
    assert np.allclose(_plain_loop(res["raw"]), res["raw"]["eq3_ratio"], rtol=1e-9)


def test_mutants_are_rejected_by_the_plain_loop(monkeypatch):
    euclid = mutate(dgs_cb.dgs_confidence_bound, 'np.einsum("trkd,trde,trke->trk", X, Ainv, X)',
                    'np.einsum("trkd,trkd->trk", X, X)')
    bad = euclid(30, 6, seed=5, raw=True)
    assert not np.allclose(_plain_loop(bad["raw"]), bad["raw"]["eq3_ratio"], rtol=1e-6)
    shifted = mutate(dgs_cb.dgs_confidence_bound, "np.concatenate(seen, axis=0)[1:T]",
                     "np.concatenate(seen, axis=0)[0:T - 1]")
    good = dgs_cb.dgs_confidence_bound(30, 6, seed=5, raw=True)
    bad = shifted(30, 6, seed=5, raw=True)
    truth = _plain_loop(good["raw"])  # the true contexts of each round
    assert np.allclose(truth, good["raw"]["eq3_ratio"], rtol=1e-9)
    assert not np.allclose(truth, bad["raw"]["eq3_ratio"], rtol=1e-6)


def test_claim_verdict_and_a_wide_width_passes():
    v = claims.evaluate("004-eq3-confidence-bound", "T=60,runs=30")
    assert v.verdict == "statement violated" == v.expected and v.evidence["cauchy_schwarz_holds"]
    wide = dgs_cb.dgs_confidence_bound(60, 30, seed=16, width_scale=1e4)
    assert wide["eq3"]["runs_outside"] == 0 and wide["eq4"]["runs_outside"] == 0
