"""Restated textbook results checked on exact examples (boundcalc/verify/claims/textbook_issue22.py, issue 22 §3).

The helpers are checked against independent computations (events enumerated, scipy's densities, typed formulas), and
each claim has a kept mutant — a one-line mistake in the evaluator or in the statement's constant — that must turn its
verdict into "statement violated" (or lose the expected verdict). The verdicts themselves are checked with every other
claim in tests/verify/test_verify_claims.py.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats

from boundcalc.verify import claims as C
from boundcalc.verify.claims import textbook_issue22 as tb

from mutation import mutate


def test_hockey_stick_is_the_largest_event_gap():
    rng = np.random.default_rng(1)
    for _ in range(20):
        p, q = rng.dirichlet(np.ones(4)), rng.dirichlet(np.ones(4))
        for eps in (0.0, 0.3, 1.0):
            best = max(p[list(E)].sum() - math.exp(eps) * q[list(E)].sum()
                       for r in range(5) for E in itertools.combinations(range(4), r))
            assert math.isclose(tb.hockey_stick(p, q, eps), max(best, 0.0), abs_tol=1e-12)


def test_renyi_against_the_bernoulli_formula():
    p, q, a = 0.3, 0.6, 2.5
    typed = math.log(p**a * q ** (1 - a) + (1 - p) ** a * (1 - q) ** (1 - a)) / (a - 1)
    assert math.isclose(tb.renyi([p, 1 - p], [q, 1 - q], a), typed, rel_tol=1e-12)
    assert tb.renyi([0.5, 0.5], [1.0, 0.0], 2.0) == math.inf


def test_laplace_log_ratio_against_scipy():
    z = np.array([[0.3, -1.2], [2.0, 0.5]])
    f1, f2, s, e = np.array([0.1, 0.2]), np.array([-0.4, 0.6]), 1.0, 0.7
    want = (stats.laplace.logpdf(z, f1, s / e).sum(axis=1) - stats.laplace.logpdf(z, f2, s / e).sum(axis=1))
    assert np.allclose(tb.laplace_log_ratio(z, f1, f2, s, e), want)


def test_rr_bits_law_and_log_mgf_typed_again():
    k = math.exp(1.0) / (1 + math.exp(1.0))
    assert np.allclose(tb.rr_bits_law((0, 1), 1.0), [k * (1 - k), k * k, (1 - k) ** 2, (1 - k) * k])
    x, p = np.array([-1.0, 2.0]), np.array([2 / 3, 1 / 3])
    lam = np.array([-0.5, 0.7])
    assert np.allclose(tb.log_mgf(x, p, lam), np.log(p[0] * np.exp(-lam) + p[1] * np.exp(2 * lam)))
    assert math.isclose(tb.tropp_bound(3, 4.0, 1.0, 0.5), 3 * (math.exp(-0.5) / 0.5**0.5) ** 4)


@pytest.mark.parametrize("cid,func,old,new", [
    ("000-lemma18-post-processing", "_post_processing", "fp, fq = p @ F, q @ F", "fp, fq = p @ F, q @ F[::-1]"),
    ("002-lemma2.4-composition", "_composition", "hockey_stick(P, Q, e1 + e2)", "hockey_stick(P, Q, max(e1, e2))"),
    ("001-propH2-group-privacy", "_group", "if ratio > math.exp(k * e)", "if ratio > math.exp(e)"),
    ("001-thmH5-laplace", "laplace_log_ratio", "b = sens / eps", "b = sens / (2 * eps)"),
    ("000-lemma19-markov", "_markov", "/ float(e)", "/ float(e) ** 2"),
    ("000-lemma21-22-subgaussian", "_subgaussian", "sig = (b - a) / 2", "sig = (b - a) / 4"),
    ("000-lemma23-zhang", "_zhang", "A = B + H @ H.T", "A = B - 0.5 * H @ H.T"),
    ("003-lemma6-7-bh-pinsker", "_bh_pinsker", "if kl < 2 * tv * tv - 1e-12", "if kl < 4 * tv * tv - 1e-12"),
    ("002-lemma-d6-tropp", "tropp_bound", "** (mu / R2)", "** (3 * mu / R2)"),
])
def test_mutant_is_caught(monkeypatch, cid, func, old, new):
    """Each mutant breaks the statement the claim checks; the claim must report it (its evaluator is looked up again
    through the module, so patching the module's function reaches it)."""
    m = mutate(getattr(tb, func), old, new)
    monkeypatch.setattr(tb, func, m)
    c = C.CLAIMS[cid]
    if func.startswith("_"):  # the evaluator itself: run the mutant directly on the claim's default domain
        v = m(c.domain())
    else:
        v = c.evaluators[c.method](c.domain())
    assert v.verdict == "statement violated", (cid, v.measured)
