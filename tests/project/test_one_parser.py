"""One parser of expression text (issue 23 item 4): boundcalc.expressions reads the text of ``check``'s expressions
(boundcalc.verify.expression), the plugins' bound language (boundcalc.bounds.declared), the built-in bounds declared
as data (boundcalc/bounds/finite.toml), the ``requires`` relations and the claims' assumptions; no other module of the
package reads text into an expression (no ast.parse, sympify or parse_expr of text elsewhere)."""

from __future__ import annotations

import ast
from pathlib import Path

import mpmath
import pytest
import sympy
from mutation import mutate

import boundcalc
from boundcalc import expressions
from boundcalc.bounds import declared, finite
from boundcalc.bounds.base import requirement_relations
from boundcalc.errors import InputError, PluginError
from boundcalc.verify import expression as check_expr

PKG = Path(boundcalc.__file__).parent


def _text_readers(path: Path) -> list[str]:
    """Calls in ``path`` that read text into an expression: ast.parse, parse_expr, sympify with a namespace."""
    src = path.read_text(encoding="utf-8")
    if not any(w in src for w in ("parse(", "parse_expr", "sympify(")):  # only these files can call one
        return []
    tree = ast.parse(src)
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
        owner = f.value.id if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) else ""
        if (owner, name) == ("ast", "parse") or name == "parse_expr" or (
                name == "sympify" and "locals" in {k.arg for k in node.keywords}):
            out.append(f"{path.relative_to(PKG)}:{node.lineno} {owner}.{name}")
    return out


def test_only_boundcalc_expressions_reads_text():
    found = [r for p in sorted(PKG.rglob("*.py")) if p.name != "expressions.py" or p.parent != PKG
             for r in _text_readers(p)]
    assert found == []
    assert _text_readers(PKG / "expressions.py")  # the scan does see a reader


def _value(e, env):
    with mpmath.workdps(50):
        subs = {s: sympy.Rational(env[s.name]) for s in e.free_symbols}
        return sympy.N(e.xreplace(subs), 40)


TEXT = "sqrt(2*x) + log(y)/3 - 0.1*x**2 + exp(-y)"


def test_the_readers_agree():
    """The same text read by the plugins' language, by check's and as a relation's side: the same exact value
    (decimals exact as written: 0.1 is 1/10 in all three)."""
    env = {"x": "0.37", "y": "2.5"}
    plug = declared.parse(TEXT, ("x", "y"), "test", "nonprivate")
    chk = check_expr.to_sympy(TEXT)
    rel = expressions.parse_relation(f"{TEXT} <= 1")
    rel_lhs = rel.lhs.xreplace({f: sympy.Rational(str(f)) for f in rel.lhs.atoms(sympy.Float)})
    ref = sympy.sqrt(2 * sympy.Rational(37, 100)) + sympy.log(sympy.Rational(5, 2)) / 3 \
        - sympy.Rational(1, 10) * sympy.Rational(37, 100) ** 2 + sympy.exp(-sympy.Rational(5, 2))
    for e in (plug, chk, rel_lhs):
        assert abs(_value(e, env) - sympy.N(ref, 40)) < sympy.Float(1e-35)
    # the built-in table's texts go through the same parser: equal to the bound's expression
    b = next(b for b in finite.BOUNDS if b.id == "001-dp-se-explicit")
    assert expressions.parse_bound_text(b.nonprivate_text, None, "t", symbol=expressions.positive_symbol) \
        == b.expression()[0]


def test_exact_decimals_come_from_the_one_parser(monkeypatch):
    """Mutant: a parser that takes the double nearest a decimal (0.1 != 1/10) changes check's exact form, a
    plugin's expression and a built-in table's in one place: every reader goes through boundcalc.expressions."""
    assert check_expr.to_sympy("0.1 + x") - sympy.Symbol("x") == sympy.Rational(1, 10)
    assert declared.parse("0.1*T", ("T",), "t", "e") == sympy.Symbol("T", real=True) / 10
    bad = mutate(expressions.exact_number, 'return sympy.Rational(src.replace("_", ""))', "return sympy.Rational(value)")
    monkeypatch.setattr(expressions, "exact_number", bad)
    assert check_expr.to_sympy("0.1 + x") - sympy.Symbol("x") != sympy.Rational(1, 10)
    assert declared.parse("0.1*T", ("T",), "t", "e") != sympy.Symbol("T", real=True) / 10


@pytest.mark.parametrize("text,fragment", [
    ("T ^ 2", "BitXor is not allowed in 'T ^ 2' (use ** for powers)"),
    ("T +", "is not a valid expression: 'T +' (invalid syntax)"),
    ("gamma(T)", "unknown function 'gamma'"),
    ("T*mu", "unknown symbol 'mu'"),
    ("log(0)", "is undefined or infinite as written"),
])
def test_plugin_errors_name_the_plugin(text, fragment):
    with pytest.raises(PluginError) as e:
        declared.parse(text, ("T",), "my.toml [bound 'x']", "nonprivate")
    assert "my.toml [bound 'x']" in str(e.value) and fragment in str(e.value)


@pytest.mark.parametrize("text,allowed", [("x <= (", "valid syntax"), ("max(" + ", ".join(["x"] * 450) + ") <= 1", "at most 400"),
                                          ("-(" * 60 + "x" + ")" * 60 + " <= 1", "nested at most 40")])
def test_check_errors_keep_their_words(text, allowed):
    with pytest.raises(InputError) as e:
        check_expr.parse(text)
    assert e.value.parameter == "expression" and allowed in str(e.value.allowed)


def test_relations_are_the_package_own_texts():
    """requires: decimals as sympify gave them (printed as written), names of any symbol, functions whitelisted."""
    b = next(b for b in finite.BOUNDS if b.id == "003-thm17")
    assert [str(r) for r in requirement_relations(b)] == ["K > 1", "rho <= 1", "T >= K - 1"]
    r = expressions.parse_relation("max_action_norm <= L + 0.000000001")
    assert r.rhs.atoms(sympy.Float) == {sympy.Float("0.000000001")}
    with pytest.raises(ValueError, match="unknown function '__import__'"):
        expressions.parse_relation("__import__('os') > 0")
