"""The base class's derived evaluation (issue 15): ``Bound.terms`` from ``expression()``, ``requires`` as data."""

from __future__ import annotations

import math

import numpy as np
import pytest

from boundcalc.bounds import base, registry
from boundcalc.bounds.base import Bound, Context


class _Toy(Bound):
    """A toy bound 3·sqrt(K·T) + K/rho, requiring K >= 2 and rho > 0 (no source: test only)."""

    id, title, seed, source = "toy", "toy", "test", "test"
    setting, notion, kind, form, algorithm = "finite", "zcdp", "upper-minimax", "exact", "toy"
    requires = ("K >= 2", "rho > 0")

    def expression(self):
        import sympy

        K, T, rho = sympy.symbols("K T rho", positive=True)
        return 3 * sympy.sqrt(K * T), K / rho

    def symbol_values(self, ctx, budget):
        return {"K": float(ctx["K"]), "rho": float(budget.rho)}


class _Budget:
    rho = 0.25


def test_derived_terms_equal_the_formula_written_out():
    T = np.array([1.0, 10.0, 1e15])
    a, b = _Toy().terms(T, Context({"K": 5}), _Budget())
    np.testing.assert_allclose(a, [3 * math.sqrt(5 * t) for t in T], rtol=1e-15)
    np.testing.assert_allclose(b, [5 / 0.25] * 3, rtol=1e-15)


def test_failing_requirements_name_the_relation_and_value():
    toy = _Toy()
    assert base.failing_requirements(toy, Context({"K": 5}, budget=None)) == []
    out = base.failing_requirements(toy, Context({"K": 1}))
    assert out == ["needs K >= 2 (K = 1)"]
    rels = base.requirement_relations(toy)
    assert [str(r) for r in rels] == ["K >= 2", "rho > 0"]


def test_failing_requirements_rejects_a_mutant_that_ignores_the_operator(monkeypatch):
    """Mutant: every relation read as '>=' (K > 2 would then hold at K = 2)."""
    toy = _Toy()
    toy.requires = ("K > 2",)
    assert base.failing_requirements(toy, Context({"K": 2})) != []
    monkeypatch.setitem(base._OPS, ">", np.greater_equal)
    assert base.failing_requirements(toy, Context({"K": 2})) == []  # the mutant passes K = 2: the check above catches it


@pytest.mark.parametrize("b", [b for b in registry.all_bounds() if b.requires], ids=lambda b: b.id)
def test_every_declared_requirement_parses(b):
    assert len(base.requirement_relations(b)) == len(b.requires)


class _Shadow(_Toy):
    """A symbol named ``gamma`` beside the gamma function Γ(d): lambdify must not let one hide the other."""

    id = "toy-shadow"
    requires = ()

    def expression(self):
        import sympy

        g, d, T = sympy.symbols("gamma d T", positive=True)
        return g * sympy.sqrt(T), sympy.gamma(d)

    def symbol_values(self, ctx, budget):
        return {"gamma": 2.0, "d": 5.0}


@pytest.mark.parametrize("backend", ["numpy", "mpmath"])
def test_a_symbol_named_like_a_function_does_not_hide_it(backend):
    f, names = base.lambdified(_Shadow(), backend)
    vals = {"gamma": 2.0, "d": 5.0, "T": 4.0}
    a, b = f(*[vals[n] for n in names])
    assert float(a) == 4.0 and float(b) == math.gamma(5.0)  # Γ(5) = 24; the shadowed version calls 2.0(5.0)
