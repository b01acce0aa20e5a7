"""boundcalc/bounds/_generated_numpy.py is current, and base.lambdified uses it only where it applies (issue 15).

The generated module holds the numpy source sympy's lambdify gives every built-in bound's expression, so that
``regret`` need not import sympy; if a bound's expression changes and the module is not regenerated
(``python -m boundcalc.bounds.codegen``), ``regret`` would evaluate the old formula: the first test fails then.
"""

from __future__ import annotations

import functools

import pytest

import numpy as np

from boundcalc.bounds import _generated_numpy, base, codegen, registry


_GENERATE = codegen.generate  # the real one (test_check_flag patches codegen.generate with generated_now)


@functools.lru_cache(maxsize=1)
def generated_now() -> str:
    return _GENERATE()


def test_generated_module_is_current_for_every_builtin_bound():
    assert codegen.TARGET.read_text(encoding="utf-8") == generated_now(), (
        "boundcalc/bounds/_generated_numpy.py is stale: run  python -m boundcalc.bounds.codegen")


def test_every_finite_bound_is_generated():
    ids = {b.id for b in registry.select(setting="finite")}
    assert ids <= set(_generated_numpy.FUNCTIONS)


@pytest.mark.parametrize("setting", ["finite", "linear", "contextual", "glm"])
def test_regret_imports_no_sympy(setting):
    """`regret` in a fresh process evaluates every bound of the setting (the extra modules' too) without sympy: the
    generated module covers them (a bound left out is lambdified at run time, which imports sympy: the mutant)."""
    import subprocess
    import sys

    code = ("import sys; from boundcalc.cli.app import main; sys.argv=['boundcalc','regret','--setting',"
            f"'{setting}','--rho','0.1','--T','1e6','--json']\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print('SYMPY' if 'sympy' in sys.modules else 'NO-SYMPY', file=sys.stderr)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.stderr.strip().splitlines()[-1] == "NO-SYMPY", r.stderr[-2000:]


def test_mutant_changed_expression_makes_the_module_stale(monkeypatch):
    """A bound's expression changed in the class (here 003-thm17's privacy term × 2): generate() differs from the
    file, and base.lambdified no longer takes the generated function for it (the class's expression is not the
    recorded one), so the value follows the changed expression."""
    b = registry.get("003-thm17")
    orig = type(b).expression

    def expression(self):
        a, p = orig(self)
        return a, 2 * p

    monkeypatch.setattr(type(b), "expression", expression)
    monkeypatch.setattr(base, "_LAMBDIFIED", {})
    assert codegen.generate() != codegen.TARGET.read_text(encoding="utf-8")
    assert base.generated_numpy(b) is None
    f, names = base.lambdified(b, "numpy")
    args = {"K": 5.0, "rho": 1e-4, "T": np.array([10.0])}
    np.testing.assert_allclose(f(*[args[n] for n in names])[1], 2 * _generated_numpy.FUNCTIONS[b.id][4](
        *[args[n] for n in _generated_numpy.FUNCTIONS[b.id][3]])[1], rtol=1e-15)


def test_generated_function_used_for_builtin_not_for_patched_instance(monkeypatch):
    b = registry.get("001-thm3.1")
    f, names = base.generated_numpy(b)
    assert f is _generated_numpy.FUNCTIONS[b.id][4] and names == ("H_eps", "H_kl", "T")
    monkeypatch.setattr(b, "expression", lambda: type(b).expression(b))
    assert base.generated_numpy(b) is None


def test_check_flag(capsys, monkeypatch):
    monkeypatch.setattr(codegen, "generate", generated_now)
    assert codegen.main(["--check"]) == 0 and "current" in capsys.readouterr().out
