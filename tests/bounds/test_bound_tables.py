"""Built-in bounds are data (issue 23 item 4): the [[bound]] tables of boundcalc/bounds/*.toml (finite, baselines,
converted, linear, contextual), in the format of a plugin's file, read by the one loader (declared.builtin_table) into
declared.TableBound rows whose expressions are the tables' texts parsed by boundcalc.expressions. Their values are the bound snapshot's
(tests/bounds/test_bound_snapshot.py); here: the table's shape, the loader's refusals and the generated code's guard."""

from __future__ import annotations

import pytest
from mutation import mutate

from boundcalc import expressions
from boundcalc.bounds import (_generated_numpy, base, baselines, contextual, contextual_extra, converted, declared, finite,
                              finite_lower, glm, linear, registry)

ROWS = declared.builtin_table("finite.toml")


TABLES = [("finite.toml", finite.BOUNDS, finite.FiniteBound),
          ("baselines.toml", baselines.BOUNDS,
           (finite.FiniteBound, baselines.ContextualBaseline, baselines.GLMBaseline, linear.LinearBound)),
          ("converted.toml", converted.BOUNDS, (finite.FiniteBound, linear.LinearBound)),
          ("extra.toml", finite_lower.BOUNDS + contextual_extra.BOUNDS,
           (finite_lower.FiniteLowerBound, contextual_extra.ContextualExtraBound)),
          ("linear.toml", linear.BOUNDS, linear.LinearBound), ("contextual.toml", contextual.BOUNDS, contextual.ContextualBound),
          ("glm.toml", glm.BOUNDS, glm.GLMBound)]


@pytest.mark.parametrize("table,bounds,cls", TABLES)
def test_every_bound_of_a_table_is_a_row(table, bounds, cls):
    rows = {r["id"]: r for r in declared.builtin_table(table)}
    mine = {b.id: b for b in bounds if type(b) in (cls if isinstance(cls, tuple) else (cls,))}
    assert list(mine) == [b.id for b in bounds if b.id in rows] and set(mine) == set(rows)
    for bid, b in mine.items():
        row = rows[bid]
        assert registry.get(bid) is b
        for key in ("title", "source", "notion", "kind", "form", "regime_note"):
            assert getattr(b, key) == row.get(key, "")
        assert b.caveats == tuple(row.get("caveats", ())) and b.requires == tuple(row.get("requires", ()))
        if "nonprivate" in row:  # the text is the expression: parsed by the one parser, over positive symbols
            assert b.expression() == tuple(
                expressions.parse_bound_text(row[k], b.allowed_symbols() + tuple(b.DEFINITIONS), k,
                                             symbol=b.text_symbol)
                for k in ("nonprivate", "privacy_cost"))
    # the Python pieces are named, not hidden: one expression (a Piecewise), non-relation conditions, one horizon
    exprs = {"finite.toml": ["003-thm17"], "linear.toml": ["000-thm8-explicit"]}
    assert [r for r in rows if "expression" in rows[r]] == exprs.get(table, [])
    checks = {"finite.toml": ["001-dp-se-explicit"], "glm.toml": ["002-thm3.2"],
              "linear.toml": ["003-thm9", "003-thm9-corrected"]}
    assert [r for r in rows if "check" in rows[r]] == checks.get(table, [])
    assert [r for r in rows if "horizon" in rows[r]] == (["002-thm3.2"] if table == "glm.toml" else [])
    values = {"contextual.toml": ["003-thm5-corrected", "000-thm10-corrected"],
              "baselines.toml": ["oful-abbasi-yadkori2011-thm3"], "extra.toml": ["001-eq9", "004-cor1"]}
    assert [r for r in rows if "values" in rows[r]] == values.get(table, [])


def test_every_builtin_bound_is_a_row():
    """Every built-in bound is declared as data (issue 23 item 4): a row of a table, the code it needs in named hooks
    (EXPRESSIONS, CHECKS, DEFINITIONS, VALUES, HORIZONS of the setting modules)."""
    rows = [b for b in registry._builtin_bounds() if isinstance(b, declared.TableBound)]
    by_setting = {s: sum(b.setting == s for b in rows) for s in ("finite", "linear", "contextual", "glm")}
    assert by_setting == {"finite": 25, "linear": 15, "contextual": 16, "glm": 13}
    assert len(rows) == len(registry._builtin_bounds()) == 69
    tables = ("finite.toml", "baselines.toml", "converted.toml", "linear.toml", "contextual.toml", "glm.toml",
              "extra.toml")
    assert sorted(b.id for b in rows) == sorted(r["id"] for t in tables for r in declared.builtin_table(t))
    # other papers' bounds (the baselines' own papers, seed 003 Table II's conversions) say so on their rows
    others = {r["id"] for t in ("baselines.toml", "converted.toml") for r in declared.builtin_table(t)}
    assert {b.id for b in rows if b.comparison} == others


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


def test_a_named_piece_of_a_glm_row_is_the_papers_formula():
    """glm.toml's texts name seed 002's pieces (glm.DEFINITIONS): here σ_{ε,δ} = 2√(2 ln(1.25/δ))/ε (seed 002 Eq. 3.3)
    in Thm 3.1 (OLS), checked against the formula in floats; Thm 3.2's horizon T ≥ d²/(e^ε − 1)² is its named hook.
    Mutants: a text whose names are not replaced keeps a free symbol sigma_ldp; without the hook the horizon is 1."""
    import math

    from boundcalc.privacy import LocalDP

    b = registry.get("002-thm3.1-ols")
    ctx = registry.make_context("glm", {})
    p, (T, eps, dl) = ctx.params, (1e5, 0.5, 1e-3)
    al = p["delta"]
    base_ = (math.sqrt(T) * p["C_B"] * p["d"] * math.sqrt((p["d"] + math.log(T / al)) * math.log(p["K"] * T / al))
             / (p["kappa_l"] * p["p_star"]))
    a, c = b.terms(T, ctx, LocalDP(eps, dl))
    assert float(a) == pytest.approx(base_ * p["sigma_r"], rel=1e-12)
    assert float(c) == pytest.approx(base_ * 2 * math.sqrt(2 * math.log(1.25 / dl)) / eps, rel=1e-12)
    row = next(r for r in declared.builtin_table("glm.toml") if r["id"] == b.id)
    fresh = glm.GLMBound(**row)
    assert "sigma_ldp" not in {s.name for s in fresh.expression()[1].free_symbols}
    fresh = glm.GLMBound(**row)
    fresh.text_symbol = mutate(declared.TableBound.text_symbol, "if name in self.DEFINITIONS:", "if False:").__get__(fresh)
    assert "sigma_ldp" in {s.name for s in fresh.expression()[1].free_symbols}
    low = registry.get("002-thm3.2")
    lctx = registry.make_context("glm", {"K": 2, "context": "gaussian"})
    from boundcalc.bounds.base import Context

    at = Context(params={**lctx.params, "T": 10.0}, budget=LocalDP(0.01, 0.0))
    assert low.min_horizon(at) == pytest.approx((lctx["d"] / math.expm1(0.01)) ** 2, rel=1e-12)
    assert any("below the horizon" in m for m in low.conditions(at))
    broken = glm.GLMBound(**{k: v for k, v in declared.builtin_table("glm.toml")[4].items() if k != "horizon"})
    assert broken.id == "002-thm3.2" and not any("below the horizon" in m for m in broken.conditions(at))


def test_thm9_rows_name_their_condition_and_derive_their_threshold():
    """seed 003 Thm 9's rows: the condition "rho <= 1 or T >= 3" is the named check of linear.CHECKS, and the regime
    threshold rho < const/T is solved from the row's expression: 4 e^{-0.5} as stated, e^{-0.5} corrected (ERRATA 16;
    here by hand: (c_priv/c_np)^2 with c_np = e^{-2}/8). Mutant: a check that ignores T fails at T = 10."""
    import math

    from boundcalc.bounds.base import Context
    from boundcalc.privacy.budgets import ZCDP

    for bid, c_priv in (("003-thm9", math.exp(-2.25) / 4), ("003-thm9-corrected", math.exp(-2.25) / 8)):
        b = registry.get(bid)
        assert b.threshold_rho(10.0) == pytest.approx((c_priv / (math.exp(-2) / 8)) ** 2 / 10, rel=1e-12)
        ctx = registry.make_context("linear", {})
        at = lambda T: Context(params={**ctx.params, "T": T}, budget=ZCDP(2.0))  # noqa: E731
        assert b.conditions(at(2.0)) and not b.conditions(at(10.0))
        assert not b.conditions(Context(params={**ctx.params, "T": 2.0}, budget=ZCDP(0.5)))
    broken = mutate(linear._thm9_rho_le_1_or_T_ge_3, "float(T) < 3", "True")
    assert broken(b, at(10.0)) and not linear._thm9_rho_le_1_or_T_ge_3(b, at(10.0))


def test_the_corrected_oful_rows_take_s_star_and_kappa_from_their_hook(monkeypatch):
    """003-thm5-corrected / 000-thm10-corrected name contextual.VALUES["oful_s_star_kappa"]: kappa = (1+C)(1+lam) + 1
    for lam < 1 (ERRATA 11) and s* a local maximum of h(s) at delta/3 (seed 003 Thm 14), checked here by hand.
    Mutant: the hook without ERRATA 11's +1 for lam < 1 gives another kappa, and the row uses it."""
    from boundcalc.bounds._linear_common import oful_h
    from boundcalc.privacy.budgets import ZCDP

    b = registry.get("003-thm5-corrected")
    ctx = registry.make_context("contextual", {})
    vals = b.symbol_values(ctx, ZCDP(0.5))
    C, lam = ctx["C"], ctx["lam"]
    assert lam < 1 and vals["kappa"] == pytest.approx((1 + C) * (1 + lam) + 1, rel=1e-15) and vals["rho"] == 0.5
    h = [float(oful_h(vals["s_star"] * f, ctx["d"], lam, ctx["lam0"], ctx["delta"] / 3, C)) for f in (0.99, 1, 1.01)]
    assert h[1] >= h[0] and h[1] >= h[2]
    monkeypatch.setitem(contextual.VALUES, "oful_s_star_kappa",
                        mutate(contextual._oful_s_star_kappa, "(1.0 if lam < 1 else 0.0)", "0.0"))
    assert b.symbol_values(ctx, ZCDP(0.5))["kappa"] == pytest.approx((1 + C) * (1 + lam), rel=1e-15)


def test_ofuls_baseline_row_reads_s_from_theta_norm(monkeypatch):
    """oful-abbasi-yadkori2011-thm3 (Abbasi-Yadkori et al. 2011 Thm 3) with S = the instance's ||theta*|| (the named
    hook baselines.VALUES["S_is_theta_norm"]), against the theorem's formula in floats at an instance whose S differs.
    Mutant: a hook reading the instance's S gives another value."""
    import math

    b = registry.get("oful-abbasi-yadkori2011-thm3")
    ctx = registry.make_context("contextual", {"lam": 2.0, "S": 3.0})
    T, d, lam, L, S, dl = 1e4, ctx["d"], ctx["lam"], ctx["L"], ctx["theta_norm"], ctx["delta"]
    want = 4 * math.sqrt(T * d * math.log(lam + T * L / d)) * (
        math.sqrt(lam) * S + math.sqrt(2 * math.log(1 / dl) + d * math.log(1 + T * L / (lam * d))))
    assert S != ctx["S"] and float(b.terms(T, ctx, None)[0]) == pytest.approx(want, rel=1e-12)
    monkeypatch.setitem(baselines.VALUES, "S_is_theta_norm",
                        mutate(baselines._S_is_theta_norm, 'ctx["theta_norm"]', 'ctx["S"]'))
    assert float(b.terms(T, ctx, None)[0]) != pytest.approx(want, rel=1e-3)


def test_the_extra_rows_take_their_computed_symbols_from_their_hooks(monkeypatch):
    """extra.toml: 001-eq9 (seed 001 Eq. 9) equals 001-thm3.1 on Bernoulli arms (d_ε,inf = d_ε; two codes: the
    registered quantities and finite_lower's sums), with the budget's ε reaching the hook; 004-cor1 (seed 004
    Cor. 1) scales as 1/σ² with σ the instance's perturb_sigma. Mutants: the hook at ε = 1, σ fixed to 1."""
    from boundcalc.privacy.budgets import ApproxDP, PureDP

    eq9, thm31 = registry.get("001-eq9"), registry.get("001-thm3.1")
    ctx = registry.make_context("finite", {})
    for eps in (0.05, 0.3):
        a, b = eq9.terms(1e4, ctx, PureDP(eps)), thm31.terms(1e4, ctx, PureDP(eps))
        assert float(a[0]) == pytest.approx(float(b[0]), rel=1e-9) and float(a[1]) == pytest.approx(float(b[1]), rel=1e-9)
    monkeypatch.setitem(finite_lower.VALUES, "H_inf_sums", mutate(finite_lower._h_inf_sums, "float(budget.epsilon)", "1.0"))
    assert float(eq9.terms(1e4, ctx, PureDP(0.05))[1]) != pytest.approx(float(thm31.terms(1e4, ctx, PureDP(0.05))[1]),
                                                                       rel=1e-3)
    cor1 = registry.get("004-cor1")

    def parts(sig):
        c = registry.make_context("contextual", {"perturb_sigma": sig})
        return [float(x) for x in cor1.terms(1e5, c, ApproxDP(1.0, 1e-6))]

    small, big = parts(0.05), parts(0.1)
    assert small[0] == pytest.approx(4 * big[0], rel=1e-12) and small[1] == pytest.approx(4 * big[1], rel=1e-12)
    monkeypatch.setitem(contextual_extra.VALUES, "sigma_z_is_perturb_sigma",
                        mutate(contextual_extra._sigma_z_is_perturb_sigma, "float(sig)", "1.0"))
    assert parts(0.05) == parts(0.1)
