"""One registry of quantities (issue 15 item 1): every setting's non-closed-form quantities are one ``Quantity`` type
behind one lookup (boundcalc.bounds.quantities.get / all_quantities), used by the prover; the GLM quantities'
interval enclosures (gamma_ratio, greedy_horizon) checked against 50-digit mpmath computed here from the
definitions (mpmath.gamma; mpmath.findroot on T = t_1(T)), on point and wide boxes, in both interval backends."""

from __future__ import annotations

import math

import mpmath
import pytest

from boundcalc.bounds import quantities as Q
from boundcalc.bounds import quantities_glm as G
from boundcalc.intervals import interval as iv
from boundcalc.intervals.interval import Interval

BACKENDS = iv.available_backends()


# -- the registry ------------------------------------------------------------------------------------------------
def test_one_registry_lists_every_setting():
    names = set(Q.names())
    assert {"H_kl", "H_eps", "S_1", "R_phases", "gamma_ratio", "greedy_horizon"} <= names
    assert set(Q.names("finite")) == set(Q.QUANTITIES)  # the finite view
    for q in Q.all_quantities():
        assert Q.get(q.name) is q and isinstance(q, Q.Quantity)
        assert callable(q.numpy) and callable(q.mpmath) and callable(q.interval), q.name
        assert q.summary and ("seed 00" in q.doc or "Sajed" in q.doc or "seed 00" in q.source), q.name
    with pytest.raises(KeyError, match="no registered quantity"):
        Q.get("nope")


def test_prover_tables_are_derived_from_the_registry(monkeypatch):
    """bound_calls.FINITE_SUMMARIES and sympy_eval.QUANTITY_FUNCTIONS come from the registry. Mutant: a finite
    quantity registered after the fact shows up in a re-derived table (a hand list would not have it)."""
    from boundcalc.rigorous import bound_calls, sympy_eval

    assert set(bound_calls.FINITE_SUMMARIES) == set(Q.names("finite")) | {"K"}
    for n in ("R_phases", "gamma_ratio", "greedy_horizon"):
        assert sympy_eval.QUANTITY_FUNCTIONS[n] is Q.get(n).interval
    h = Q.QUANTITIES["H_inv"]
    extra = Q.Quantity("H_extra", h.numpy, h.mpmath, h.interval)
    monkeypatch.setitem(Q._REGISTRY, "H_extra", extra)
    monkeypatch.setitem(Q.QUANTITIES, "H_extra", extra)
    assert "H_extra" in Q.names("finite")


def test_quantity_dispatches_on_argument_type():
    q = Q.get("gamma_ratio")
    assert isinstance(q(Interval(4.0)), Interval)
    assert isinstance(q(mpmath.mpf(4)), mpmath.mpf)
    assert isinstance(q(4.0), float)


# -- interval enclosures of the GLM quantities, against 50-digit references ---------------------------------------
def ref_gamma_ratio(d):
    with mpmath.workdps(50):
        d = mpmath.mpf(d)
        return mpmath.gamma((d + 1) / 2) / mpmath.gamma(d / 2)


def ref_greedy_horizon(d, alpha, p):
    """The larger root of T = 8(d log 9 + log(T/α))/p² by mpmath.findroot from a start right of the maximum of
    g(T) = a + b log T − T (at T = b), at 50 digits (independent of the Lambert-W form of the package)."""
    with mpmath.workdps(50):
        d, alpha, p = mpmath.mpf(d), mpmath.mpf(alpha), mpmath.mpf(p)
        t1 = lambda T: 8 * (d * mpmath.log(9) + mpmath.log(T / alpha)) / p ** 2  # noqa: E731
        b = 8 / p ** 2
        lo, hi = b, b
        while hi - t1(hi) < 0:
            hi *= 2
        return mpmath.findroot(lambda T: T - t1(T), (lo, hi), solver="anderson")


def inside(x: Interval, v) -> bool:
    return mpmath.mpf(x.lo) <= v <= mpmath.mpf(x.hi)


GR_POINTS = [1, 2, 3, 5, 10, 37, 100, 343, 1000]
GH_POINTS = [(1, 0.05, 0.5), (5, 0.01, 0.3), (10, 1e-6, 0.1), (50, 0.5, 0.9), (1000, 0.05, 0.05)]


def gr_ok(enclose) -> bool:
    for d in GR_POINTS:
        if not inside(enclose(Interval(float(d))), ref_gamma_ratio(d)):
            return False
    for lo, hi in [(1, 10), (3, 343), (2.5, 7.5), (0.5, 4)]:
        box = enclose(Interval(float(lo), float(hi)))
        for d in [lo, hi, (lo + hi) / 2, lo + 0.1]:
            if not inside(box, ref_gamma_ratio(d)):
                return False
    return True


def gh_ok(enclose) -> bool:
    for d, a, p in GH_POINTS:
        if not inside(enclose(Interval(d), Interval(a), Interval(p)), ref_greedy_horizon(d, a, p)):
            return False
    for (d0, d1), (a0, a1), (p0, p1) in [((1, 10), (0.01, 0.1), (0.2, 0.5)), ((5, 5), (1e-6, 0.5), (0.1, 0.9))]:
        box = enclose(Interval(d0, d1), Interval(a0, a1), Interval(p0, p1))
        for d in (d0, d1):
            for a in (a0, a1):
                for p in (p0, p1):
                    if not inside(box, ref_greedy_horizon(d, a, p)):
                        return False
    return True


@pytest.mark.parametrize("backend", BACKENDS)
def test_gamma_ratio_interval_encloses_the_50_digit_value(backend):
    with iv.using_backend(backend):
        assert gr_ok(G.gamma_ratio_interval)
        tight = G.gamma_ratio_interval(Interval(100.0))
        assert tight.hi - tight.lo <= 1e-12 * tight.hi
        with pytest.raises(iv.DomainError):
            G.gamma_ratio_interval(Interval(-1.0, 2.0))


@pytest.mark.parametrize("backend", BACKENDS)
def test_greedy_horizon_interval_encloses_the_50_digit_value(backend):
    with iv.using_backend(backend):
        assert gh_ok(G.greedy_horizon_interval)
        t = G.greedy_horizon_interval(Interval(5.0), Interval(0.01), Interval(0.3))
        assert t.hi - t.lo <= 1e-11 * t.hi


def test_mutants_of_the_enclosures_are_rejected():
    """Mutants: the float value as a point interval (no outward rounding); the recurrence factor upside down;
    the monotone corners of greedy_horizon swapped (α's direction wrong)."""
    no_round = lambda D: Interval(G.gamma_ratio_numpy(D.lo), G.gamma_ratio_numpy(D.hi))  # noqa: E731
    assert not gr_ok(no_round)

    def wrong_corners(D, A, P):
        lo = G._greedy_bracket(D.lo, A.lo, P.hi, True)
        hi = G._greedy_bracket(D.hi, A.hi, P.lo, False)
        return Interval(min(lo, hi), max(lo, hi))

    assert not gh_ok(wrong_corners)
    no_round_gh = lambda D, A, P: Interval(G.greedy_horizon_numpy(D.lo, A.hi, P.hi),  # noqa: E731
                                           G.greedy_horizon_numpy(D.hi, A.lo, P.lo))
    assert not gh_ok(no_round_gh)


def test_mutant_recurrence_is_rejected(monkeypatch):
    orig = G._gamma_ratio_at_integer

    def flipped(n, lower):  # r(n+2) = r(n)·n/(n+1): wrong from n = 3 on
        v = orig(n, lower)
        return v if n <= 2 else v * (n - 1) / n * (n - 1) / n
    monkeypatch.setattr(G, "_gamma_ratio_at_integer", flipped)
    assert not gr_ok(G.gamma_ratio_interval)
    assert math.isfinite(G.gamma_ratio_interval(Interval(3.0)).hi)
