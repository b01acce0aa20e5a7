"""Registered quantities of the linear bounds (boundcalc.bounds.quantities_linear) against an independent mpmath
computation at 50 digits, written here from docs/formulas/rdp-bandits.md §3.2 (seed 000 Thm 8, proof App. C.3).

The reference below is not the module's code: it counts the phases with the sheet's lengths T_l >= 8 d 4^l L_l
(§2.3), takes every m = 1..l(T) + 3 and the cap 2T, in mpmath at 50 digits. Mutants (kept here, each rejected):
the privacy term without its factor 2 under the root (a one-line slip in the numpy and in the mpmath form), and a
dispatch that sends mpmath arguments to the float implementation (the 50-digit check sees only ~16 digits), and
R_phases not importable by name (the generated numpy module could not carry 000-thm8-explicit).
"""

from __future__ import annotations

import inspect
import textwrap

import mpmath
import numpy as np
import pytest

from boundcalc.bounds import base, quantities_linear as Q, registry
from boundcalc.privacy import RDP

POINTS = [  # (T, d, K, r = alpha/eps): r = 0 is the non-private part
    (150.0, 1, 2, 0.0), (1e4, 2, 5, 3.0), (1e5, 5, 50, 2.0), (1e6, 5, 50, 0.0), (1e6, 3, 10, 0.25),
    (7.0e6, 10, 1000, 16.0), (1e9, 20, 1000, 1e-3), (1e15, 3, 10, 2.0),
]


def ref_mp(T, d, K, r, dps=50):
    """R_phases of docs/formulas/rdp-bandits.md §3.2 in mpmath at ``dps`` digits (delta = 1/T)."""
    with mpmath.workdps(dps):
        T, r = mpmath.mpf(T), mpmath.mpf(r)
        lengths = []
        while mpmath.fsum(lengths) < T:
            l = len(lengths) + 1
            lengths.append(8 * d * mpmath.log(4 * K * l * (l + 1) * T) * mpmath.power(4, l))
        lT = len(lengths)
        cost = []
        for l in range(1, lT + 1):
            Ll = mpmath.log(4 * K * l * (l + 1) * T)
            inner = mpmath.mpf(d * (d + 1)) / 2 + 8 * d * mpmath.power(4, l) * Ll \
                + 2 * d * mpmath.power(2, l) * mpmath.sqrt(2 * r * d * (d + 1) * Ll)
            cost.append(mpmath.power(2, 3 - l) * min(T, inner))
        cands = [2 * T, mpmath.fsum(cost)]
        cands += [T * mpmath.power(2, 2 - m) + mpmath.fsum(cost[:min(m, lT)]) for m in range(1, lT + 4)]
        return +min(cands)


def mutate(func, old: str, new: str):
    """``func`` recompiled from its source with ``old`` replaced by ``new`` (exactly once): a kept mutant."""
    src = textwrap.dedent(inspect.getsource(func))
    assert src.count(old) == 1, old
    ns = dict(func.__globals__)
    exec(compile(src.replace(old, new), inspect.getsourcefile(func), "exec"), ns)  # noqa: S102 - test mutant
    return ns[func.__name__]


def numpy_ok(f) -> bool:
    """The numpy implementation ``f`` equals the 50-digit reference to 1e-12 relative at every point (vectorised over
    T as the bound calls it: one array of T per (d, K, r))."""
    for T, d, K, r in POINTS:
        got = np.asarray(f(np.array([T, 2 * T]), float(d), float(K), r), dtype=float)
        for t, g in zip((T, 2 * T), got):
            want = ref_mp(t, d, K, r)
            if not abs(g - float(want)) <= 1e-12 * float(want):
                return False
    return True


def mpmath_ok(f, dps=50) -> bool:
    """The mpmath implementation ``f`` (called with mpf arguments) equals the reference to 1e-40 relative."""
    for T, d, K, r in POINTS:
        with mpmath.workdps(dps):
            got = f(mpmath.mpf(T), mpmath.mpf(d), mpmath.mpf(K), mpmath.mpf(r))
            want = ref_mp(T, d, K, r, dps)
            if not abs(got - want) <= mpmath.mpf(10) ** -40 * want:
                return False
    return True


def test_r_phases_numpy_against_50_digit_reference():
    assert numpy_ok(Q.r_phases_numpy)
    assert numpy_ok(Q.QUANTITIES["R_phases"])  # the registered object dispatches float arguments to numpy


def test_r_phases_mpmath_at_50_digits():
    assert mpmath_ok(Q.r_phases_mpmath)
    assert mpmath_ok(Q.QUANTITIES["R_phases"])  # mpf arguments reach the mpmath implementation


def test_mutants_rejected(monkeypatch):
    bad_float = mutate(Q.r_phases_float, "math.sqrt(2 * r * d", "math.sqrt(r * d")
    monkeypatch.setattr(Q, "r_phases_float", bad_float)  # r_phases_numpy calls it through the module
    assert not numpy_ok(Q.r_phases_numpy)
    monkeypatch.undo()
    assert not mpmath_ok(mutate(Q.r_phases_mpmath, "mpmath.sqrt(2 * r * d", "mpmath.sqrt(r * d"))
    floats_only = Q.Quantity("R_phases", Q.r_phases_numpy, Q.r_phases_numpy, None, setting="linear", args=("T", "d", "K", "r"))
    assert not mpmath_ok(floats_only)


def test_bound_uses_the_quantity_in_both_backends():
    """000-thm8-explicit is declared with R_phases: its numpy value (the derived terms) and its lambdified mpmath
    expression at 50 digits both equal the reference (nonprivate part: r = 0; total: r = alpha/eps)."""
    b = registry.get("000-thm8-explicit")
    ctx = registry.make_context("linear", {"d": 5, "K": 50})
    bud = RDP(2.0, 1.0)
    T = np.array([1e5, 1e6, 1e12])
    v = b.evaluate(T, ctx, bud)
    for t, npv, tot in zip(T, v.nonprivate, v.value):
        assert npv == pytest.approx(float(ref_mp(t, 5, 50, 0.0)), rel=1e-12)
        assert tot == pytest.approx(float(ref_mp(t, 5, 50, 2.0)), rel=1e-12)
    f, names = base.lambdified(b, "mpmath")
    vals = b.symbol_values(ctx, bud)
    with mpmath.workdps(50):
        a, c = f(*[mpmath.mpf(1e6) if n == "T" else mpmath.mpf(vals[n]) for n in names])
        assert abs(a - ref_mp(1e6, 5, 50, 0.0)) <= mpmath.mpf(10) ** -40 * a
        assert abs(a + c - ref_mp(1e6, 5, 50, 2.0)) <= mpmath.mpf(10) ** -40 * (a + c)


def test_every_linear_and_contextual_bound_is_generated(monkeypatch):
    """`regret` evaluates these bounds without sympy: each has a generated numpy function (bounds/codegen.py), also
    000-thm8-explicit, whose R_phases the generated module imports by name from the registry module
    (boundcalc.bounds.quantities, its module ``__getattr__``). Mutant: without that lookup the bound cannot be
    generated (it would be lambdified at run time, importing sympy)."""
    from boundcalc.bounds import _generated_numpy, codegen

    ids = {b.id for b in registry.all_bounds() if b.setting in ("linear", "contextual")}
    assert ids <= set(_generated_numpy.FUNCTIONS)
    b = registry.get("000-thm8-explicit")
    assert base.generated_numpy(b) is not None
    assert codegen.entry(b, 0) is not None
    from boundcalc.bounds import quantities

    monkeypatch.delattr(quantities, "__getattr__")
    with pytest.raises(ValueError):
        codegen.entry(b, 0)
