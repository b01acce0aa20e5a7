"""Every symbol of every registered bound has a meaning (boundcalc.bounds.symbols, one table per setting), and
``bounds show`` prints it (table and --json) beside the assumptions as data, for built-in and plugin bounds alike."""

from __future__ import annotations

import json
from pathlib import Path

import sympy

from boundcalc.bounds import declared, plugins, registry, symbols
from boundcalc.bounds.base import requirement_relations
from clirun import app, runner

import pytest


@pytest.fixture(autouse=True)
def _clean_registry():
    """No plugin bound survives a test (the registry is shared by the whole test session)."""
    plugins.reset()
    yield
    plugins.reset()
EXAMPLE = str(Path(__file__).resolve().parents[2] / "examples" / "my_bound.toml")


def undocumented(bounds) -> list[tuple[str, str]]:
    """(bound id, symbol) for each free symbol of an expression or a requires relation without a meaning."""
    out = []
    for b in bounds:
        names = {s.name for e in b.expression() for s in sympy.sympify(e).free_symbols}
        names |= {s.name for r in requirement_relations(b) for s in r.free_symbols}
        for n in sorted(names):
            row = symbols.meaning(b.setting, n, b.notion)
            if row is None or not row["meaning"] or not row["domain"]:
                out.append((b.id, n))
    return out


def test_every_symbol_of_every_registered_bound_has_a_meaning():
    assert undocumented(registry.all_bounds()) == []


def test_mutant_bound_with_an_undocumented_symbol_is_caught(monkeypatch):
    """Mutant: 003-thm10 with a made-up symbol in its privacy cost; the check names it."""
    b = registry.get("003-thm10")
    npx, pvx = b.expression()
    monkeypatch.setattr(type(b), "expression", lambda self: (npx, pvx * sympy.Symbol("zz_secret")))
    assert undocumented([b]) == [("003-thm10", "zz_secret")]
    assert any(r["where"] == "undocumented" for r in symbols.bound_symbols(b))


def test_plugin_symbols_are_declared_once_with_meanings():
    """declared.py's namespace for plugins is the table's (same objects), and each of its names has a meaning."""
    assert declared.INSTANCE_SYMBOLS is symbols.INSTANCE_SYMBOLS
    assert declared.BUDGET_SYMBOLS is symbols.BUDGET_SYMBOLS
    for setting, names in symbols.INSTANCE_SYMBOLS.items():
        for notion, budget in symbols.BUDGET_SYMBOLS.items():
            for n in ("T",) + names + budget:
                assert symbols.meaning(setting, n, notion) is not None, (setting, notion, n)


def test_bounds_show_prints_symbols_and_requires():
    r = runner.invoke(app, ["bounds", "show", "003-thm10", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    rows = {row["symbol"]: row for row in d["symbols"]}
    assert rows["H_inv"]["where"].startswith("registered quantity") and "1/Δ_a" in rows["H_inv"]["meaning"]
    assert rows["beta_adac"]["where"] == "instance parameter"
    assert rows["T"]["where"] == "horizon"
    assert "beta_adac > 3" in d["assumptions"]["requires"] and d["assumptions"]["text"]
    r = runner.invoke(app, ["bounds", "show", "003-thm10"], env={"COLUMNS": "200"})
    assert r.exit_code == 0 and "requires (as data): beta_adac > 3" in r.output and "H_inv" in r.output
    r = runner.invoke(app, ["bounds", "show", "000-thm8-explicit", "--json"])
    assert any(row["symbol"].startswith("R_phases(") for row in json.loads(r.stdout)["symbols"])


def test_bounds_show_for_a_plugin_prints_the_same_meanings():
    r = runner.invoke(app, ["bounds", "show", "my-linear-ub", "--bounds-file", EXAMPLE, "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    rows = {row["symbol"]: row for row in d["symbols"]}
    builtin = {row["symbol"]: row for row in symbols.bound_symbols(registry.get("003-thm9"))}
    for n in ("T", "d", "rho"):
        assert rows[n] == builtin[n], n
    assert rows["K"] == symbols.meaning("linear", "K", "zcdp")
    assert d["assumptions"]["requires"] == ["rho > 0", "T >= 2"]
