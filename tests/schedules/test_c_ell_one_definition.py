"""c_ℓ of AdaC-GOPE (seed 003 Eq. 4) has one definition, boundcalc.schedules.linear.c_ell_zcdp (issue 23 item 4): the
schedule, the algorithm (AdaC-GOPE and the non-private GOPE limit) and the claims call it, and it equals the paper's
formula computed here independently at 50 digits (mpmath), for the paper's c_ℓ, the noise dimension d' ≠ d of an
approximate design and the sharpened scalar variant of docs/formulas/zcdp-bandits.md 3.6."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from mutation import mutate

from boundcalc.algorithms.linear.gope import GOPE, AdaCGOPE, GOPELimit
from boundcalc.schedules import linear as sched

CASES = [(3, 10, 0.1, 1e-3), (5, 50, 2.0, 0.05), (1, 2, 1e-3, 0.5), (12.5, 400, 30.0, 1e-8)]


def eq4_mp(ell, d, K, rho, delta, d_noise=None, scalar=False):
    """seed 003 Eq. 4 written from the statement at 50 digits: (8d/β²) ln(4/δ_K) + (2d/β) √((2/ρ) f(d', δ_K)),
    β = 2^-ℓ, δ_K = δ/(Kℓ(ℓ+1)), f(d', δ) = d' + 2√(d' ln(2/δ)) + 2 ln(2/δ); scalar: (2d/β) √((4/ρ) ln(4/δ_K))."""
    with mpmath.workdps(50):
        d, rho, delta = mpmath.mpf(d), mpmath.mpf(rho), mpmath.mpf(delta)
        beta = mpmath.mpf(2) ** (-ell)
        dk = delta / (K * ell * (ell + 1))
        first = 8 * d / beta**2 * mpmath.log(4 / dk)
        if rho == mpmath.inf:
            return first
        if scalar:
            return first + 2 * d / beta * mpmath.sqrt(4 / rho * mpmath.log(4 / dk))
        dn = d if d_noise is None else mpmath.mpf(d_noise)
        f = dn + 2 * mpmath.sqrt(dn * mpmath.log(2 / dk)) + 2 * mpmath.log(2 / dk)
        return first + 2 * d / beta * mpmath.sqrt(2 / rho * f)


def _agrees(c_ell, ells=range(1, 13)):
    for d, K, rho, delta in CASES:
        for ell in ells:
            assert float(c_ell(ell, d, K, rho, delta)) == pytest.approx(float(eq4_mp(ell, d, K, rho, delta)),
                                                                        rel=1e-12), (ell, d, K, rho, delta)
            assert float(c_ell(ell, d, K, math.inf, delta)) == pytest.approx(
                float(eq4_mp(ell, d, K, mpmath.inf, delta)), rel=1e-12)


def test_c_ell_is_seed003_eq4_at_50_digits():
    _agrees(sched.c_ell_zcdp)
    vec = sched.c_ell_zcdp(np.arange(1, 13), 3, 10, 0.1, 1e-3)  # vectorised over ℓ: the same numbers
    np.testing.assert_allclose(vec, [float(eq4_mp(l, 3, 10, 0.1, 1e-3)) for l in range(1, 13)], rtol=1e-12)
    for ell in (1, 4, 9):
        assert sched.c_ell_zcdp(ell, 2.7, 10, 0.1, 1e-3, d_noise=2) == pytest.approx(
            float(eq4_mp(ell, 2.7, 10, 0.1, 1e-3, d_noise=2)), rel=1e-12)
        assert sched.c_ell_zcdp(ell, 3, 10, 0.1, 1e-3, variant="scalar") == pytest.approx(
            float(eq4_mp(ell, 3, 10, 0.1, 1e-3, scalar=True)), rel=1e-12)


def test_algorithms_call_the_one_definition():
    for d, K, rho, delta in CASES:
        for ell in (1, 3, 7):
            ref = float(eq4_mp(ell, d, K, rho, delta))
            assert AdaCGOPE(rho, delta=delta).c_ell(ell, d, K) == pytest.approx(ref, rel=1e-12)
            assert AdaCGOPE(rho, delta=delta).c_ell(ell, d + 0.5, K, int(d) or 1) == pytest.approx(
                float(eq4_mp(ell, d + 0.5, K, rho, delta, d_noise=int(d) or 1)), rel=1e-12)
            assert AdaCGOPE(rho, delta=delta, c_variant="scalar").c_ell(ell, d, K) == pytest.approx(
                float(eq4_mp(ell, d, K, rho, delta, scalar=True)), rel=1e-12)
            lim = float(eq4_mp(ell, d, K, mpmath.inf, delta))
            assert GOPELimit(delta=delta).c_ell(ell, d, K) == pytest.approx(lim, rel=1e-12)
            assert GOPE(delta=delta, schedule="limit").c_ell(ell, d, K) == pytest.approx(lim, rel=1e-12)


def test_c_ell_mutants_are_caught(monkeypatch):
    """One-line mistakes in the one definition reach the schedule and the algorithm, and the comparison with the
    independent 50-digit formula rejects each."""
    for old, new in (("8.0 * d / b**2 * (math.log(4.0) - log_dk)", "8.0 * d / b * (math.log(4.0) - log_dk)"),
                     ("np.sqrt(2.0 / rho * f_E(", "np.sqrt(4.0 / rho * f_E("),
                     ("math.log(delta) - np.log(K * ell * (ell + 1.0))", "math.log(delta) - np.log(K * ell * ell)")):
        bad = mutate(sched.c_ell_zcdp, old, new)
        monkeypatch.setattr(sched, "c_ell_zcdp", bad)
        import boundcalc.algorithms.linear.gope as gope

        monkeypatch.setattr(gope, "c_ell_zcdp", bad)
        with pytest.raises(AssertionError):
            _agrees(sched.c_ell_zcdp, ells=(1, 2, 3))
        with pytest.raises(AssertionError):
            _agrees(lambda ell, d, K, rho, delta: AdaCGOPE(rho, delta=delta).c_ell(ell, d, K)
                    if not math.isinf(rho) else GOPELimit(delta=delta).c_ell(ell, d, K), ells=(1, 2, 3))
        monkeypatch.undo()
