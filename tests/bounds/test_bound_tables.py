"""Built-in bounds are data (issue 23 item 4): the [[bound]] tables of boundcalc/bounds/*.toml (finite, baselines,
converted, linear, contextual), in the format of a plugin's file, read by the one loader (declared.builtin_table) into
declared.TableBound rows whose expressions are the tables' texts parsed by boundcalc.expressions. Their values are the bound snapshot's
(tests/bounds/test_bound_snapshot.py); here: the table's shape, the loader's refusals and the generated code's guard."""

from __future__ import annotations

import pytest
from mutation import mutate

from boundcalc import expressions
from boundcalc.bounds import _generated_numpy, base, baselines, contextual, converted, declared, finite, linear, registry

ROWS = declared.builtin_table("finite.toml")


TABLES = [("finite.toml", finite.BOUNDS, finite.FiniteBound), ("baselines.toml", baselines.FINITE_BOUNDS, finite.FiniteBound),
          ("converted.toml", converted.FINITE_BOUNDS, finite.FiniteBound),
          ("linear.toml", linear.BOUNDS, linear.LinearBound), ("contextual.toml", contextual.BOUNDS, contextual.ContextualBound)]


@pytest.mark.parametrize("table,bounds,cls", TABLES)
def test_every_bound_of_a_table_is_a_row(table, bounds, cls):
    rows = {r["id"]: r for r in declared.builtin_table(table)}
    mine = {b.id: b for b in bounds if type(b) is cls}
    assert list(mine) == [b.id for b in bounds if b.id in rows] and set(mine) == set(rows)
    for bid, b in mine.items():
        row = rows[bid]
        assert registry.get(bid) is b
        for key in ("title", "source", "notion", "kind", "form", "regime_note"):
            assert getattr(b, key) == row[key]
        assert b.caveats == tuple(row["caveats"]) and b.requires == tuple(row["requires"])
        if "nonprivate" in row:  # the text is the expression: parsed by the one parser, over positive symbols
            assert b.expression() == tuple(
                expressions.parse_bound_text(row[k], b.allowed_symbols(), k, symbol=expressions.positive_symbol)
                for k in ("nonprivate", "privacy_cost"))
    # the Python pieces are named, not hidden: one expression (a Piecewise), one non-relation condition
    assert [r for r in rows if "expression" in rows[r]] == (["003-thm17"] if table == "finite.toml" else [])
    assert [r for r in rows if "check" in rows[r]] == (["001-dp-se-explicit"] if table == "finite.toml" else [])


def test_most_builtin_bounds_are_rows():
    """The share of built-in bounds declared as data (issue 23 item 4): every finite-armed one, the linear and
    contextual closed forms; the rest are classes whose formula needs code (quantities computed by code, GLM)."""
    rows = [b for b in registry._builtin_bounds() if isinstance(b, declared.TableBound)]
    by_setting = {s: sum(b.setting == s for b in rows) for s in ("finite", "linear", "contextual")}
    assert by_setting == {"finite": 24, "linear": 9, "contextual": 10}
    assert all(isinstance(b, declared.TableBound) for b in registry._builtin_bounds()
               if isinstance(b, finite._Finite))


def _write(tmp_path, body):
    p = tmp_path / "t.toml"
    p.write_text(body, encoding="utf-8")
    return str(p)


ROW = ('[[bound]]\nid = "x"\ntitle = "t"\nsource = "s"\nsetting = "finite"\nnotion = "none"\nkind = "upper-minimax"\n'
       'nonprivate = "sqrt(K*T)"\nprivacy_cost = "0"\n')


def test_the_loader_refuses_a_bad_table(tmp_path):
    assert declared.builtin_table(_write(tmp_path, ROW))[0]["nonprivate"] == "sqrt(K*T)"
    with pytest.raises(ValueError, match="unknown \\['colour'\\]"):
        declared.builtin_table(_write(tmp_path, ROW + 'colour = "red"\n'))
    with pytest.raises(ValueError, match="missing \\['privacy_cost'\\]"):
        declared.builtin_table(_write(tmp_path, ROW.replace('privacy_cost = "0"\n', "")))
    with pytest.raises(ValueError, match="nonprivate/privacy_cost or expression"):
        declared.builtin_table(_write(tmp_path, ROW + 'expression = "thm17"\n'))
    with pytest.raises(declared.PluginError, match="no \\[\\[bound\\]\\] table"):
        declared.builtin_table(_write(tmp_path, "x = 1\n".replace("x = 1", "")))
    b = finite.FiniteBound(**declared.builtin_table(_write(tmp_path, ROW.replace("sqrt(K*T)", "sqrt(K*T*nu)")))[0])
    with pytest.raises(ValueError, match="unknown symbol 'nu'"):  # the finite setting's symbols only
        b.expression()


def test_a_changed_text_never_runs_stale_generated_code(monkeypatch):
    """The generated numpy code is keyed by a digest of the table's texts: a bound whose text changed is lambdified
    afresh. Mutant: without the digest the stale code would give the old numbers."""
    b = registry.get("003-thm11-paper")
    row = next(r for r in ROWS if r["id"] == b.id)
    assert base.generated_numpy(b) is not None  # the built-in row uses the generated code
    changed = finite.FiniteBound(**{**row, "nonprivate": "2*sqrt(K*T*log(T))"})
    assert base.generated_numpy(changed) is None
    ctx = registry.make_context("finite", {})
    from boundcalc.privacy.budgets import ZCDP

    a, _ = b.terms(1e4, ctx, ZCDP(0.1))
    c, _ = changed.terms(1e4, ctx, ZCDP(0.1))
    assert float(c) == pytest.approx(2 * float(a), rel=1e-14)
    # mutant: the owner without the digest (and the code generated by it) would run the old code for the new text
    entry = _generated_numpy.FUNCTIONS[b.id]
    monkeypatch.setitem(_generated_numpy.FUNCTIONS, b.id, entry[:2] + (type(b).expression.__qualname__,) + entry[3:])
    assert base.generated_numpy(changed) is None
    monkeypatch.setattr(base, "expression_owner", mutate(base.expression_owner, "if texts:", "if False:"))
    assert base.generated_numpy(changed) is not None
