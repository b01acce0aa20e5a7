"""Every registered bound equals its snapshot (tests/data/bound_snapshot.json.gz) to 1e-12 relative (issue 15).

The snapshot was taken before the one-definition refactor of boundcalc/bounds by tests/data/make_bound_snapshot.py
(it records the commit). Each case is recomputed from the inputs recorded in the file (instance overrides, user
budget, horizons): applicability, the converted budget, value / nonprivate / privacy_cost and the sympy expression
(lambdified with symbol_values) at the same T. Finite numbers must agree to 1e-12 relative, NaN / ±inf exactly, and
"no conversion" / "raises" must stay so. A new bound must be pinned deliberately (see test_every_bound_is_pinned).
"""

from __future__ import annotations

import importlib.util
import math
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from boundcalc.bounds import registry

DATA = Path(__file__).resolve().parents[1] / "data"
RTOL = 1e-12
ARRAYS = ("value", "nonprivate", "privacy_cost", "sym_nonprivate", "sym_privacy_cost")
HOW_TO_ADD = ("pin it deliberately, on the commit that adds it: "
              "PYTHONPATH=. python tests/data/make_bound_snapshot.py --add {ids}  (existing entries stay untouched)")


@lru_cache(maxsize=1)
def gen():
    spec = importlib.util.spec_from_file_location("make_bound_snapshot", DATA / "make_bound_snapshot.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@lru_cache(maxsize=1)
def snapshot() -> dict:
    return gen().load(DATA / "bound_snapshot.json.gz")


def _by_bound() -> dict:
    out: dict = {}
    for e in snapshot()["cases"]:
        out.setdefault(e["bound"], []).append(e)
    return out


BY_BOUND = _by_bound()


def _same_number(exp: float, got: float) -> bool:
    if math.isnan(exp) or math.isinf(exp):
        return (math.isnan(exp) and math.isnan(got)) or exp == got
    return math.isfinite(got) and abs(got - exp) <= RTOL * abs(exp)


def compare(expected: dict, got: dict, T: np.ndarray) -> list[str]:
    """Differences between a recorded case and its recomputation, one readable line each (empty: equal)."""
    where = f"{expected['bound']} | instance {expected['instance']} | budget {expected['budget']}"
    out = []
    if expected["applicable"] != got["applicable"]:
        out.append(f"{where}: applicable {expected['applicable']} -> {got['applicable']} (conditions changed)")
    eb, gb = expected.get("own_budget"), got.get("own_budget")
    if (eb is None) != (gb is None) or (eb and (eb.keys() != gb.keys() or any(
            not (_same_number(float(eb[k]), float(gb[k])) if isinstance(eb[k], (int, float)) else eb[k] == gb[k])
            for k in eb))):
        out.append(f"{where}: budget in the bound's notion {eb} -> {gb} (conversion changed)")
    if ("no_conversion" in expected) != ("no_conversion" in got):  # the reason's wording may change, not its presence
        out.append(f"{where}: no conversion {expected.get('no_conversion')!r} -> {got.get('no_conversion')!r}")
    for key in ("error", "sym_error"):  # the exception's type
        if expected.get(key) != got.get(key):
            out.append(f"{where}: {key} {expected.get(key)!r} -> {got.get(key)!r}")
    for key in ARRAYS:
        e, g = expected.get(key), got.get(key)
        if e is None and g is None:
            continue
        if isinstance(e, dict) or isinstance(g, dict) or e is None or g is None:
            if e != g:
                out.append(f"{where}: {key} {e!r} -> {g!r}")
            continue
        ea, ga = gen().dec_array(e), gen().dec_array(g)
        for t, x, y in zip(T, ea, ga):
            if not _same_number(x, y):
                rel = abs(y - x) / abs(x) if x and math.isfinite(x) and math.isfinite(y) else float("nan")
                out.append(f"{where} | T = {t:g}: {key} {float(x)!r} -> {float(y)!r} "
                           f"(relative change {rel:.3g} > {RTOL:g})")
    return out


def recompute(bound_id: str) -> list[str]:
    """Recompute every recorded case of one bound; the list of differences."""
    snap = snapshot()
    g = gen()
    T = g.dec_array(snap["T"])
    b = registry.get(bound_id)
    got = g.cases_for(b, T, snap["instances"], snap["user_budgets"])
    exp = BY_BOUND[bound_id]
    keys = [(e["instance"], repr(e["budget"])) for e in exp]
    got_keys = [(e["instance"], repr(e["budget"])) for e in got]
    if keys != got_keys:
        return [f"{bound_id}: the recorded cases {len(keys)} and the recomputed ones {len(got_keys)} differ "
                f"(instances / budgets of the grid changed?)"]
    out = []
    for e, r in zip(exp, got):
        out.extend(compare(e, r, T))
    return out


def _report(diffs: list[str]) -> str:
    head = "\n".join(diffs[:25])
    more = f"\n… and {len(diffs) - 25} more" if len(diffs) > 25 else ""
    return (f"{len(diffs)} value(s) differ from the snapshot taken at {snapshot()['generated_from']}:\n"
            f"{head}{more}")


@pytest.mark.parametrize("bound_id", sorted(BY_BOUND))
def test_bound_equals_snapshot(bound_id):
    if bound_id not in {b.id for b in registry.all_bounds()}:
        pytest.fail(f"{bound_id} is in the snapshot but no longer registered: a bound was removed or renamed")
    diffs = recompute(bound_id)
    assert not diffs, _report(diffs)


def missing_and_extra(registered: list[str], pinned: list[str]) -> list[str]:
    msgs = []
    new = [i for i in registered if i not in pinned]
    gone = [i for i in pinned if i not in registered]
    if new:
        msgs.append(f"registered bound(s) not in the snapshot: {new}; " + HOW_TO_ADD.format(ids=" ".join(new)))
    if gone:
        msgs.append(f"snapshot bound(s) no longer registered (removed or renamed): {gone}")
    return msgs


def test_every_bound_is_pinned():
    registered = [b.id for b in registry.all_bounds()]
    msgs = missing_and_extra(registered, snapshot()["bound_ids"])
    assert not msgs, "\n".join(msgs)
    # every bound has at least one evaluated case on every instance of its setting
    insts = snapshot()["instances"]
    for b in registry.all_bounds():
        evaluated = {e["instance"] for e in BY_BOUND[b.id] if "value" in e}
        want = {k for k in insts if k.startswith(b.setting + "/")}
        assert evaluated == want, f"{b.id}: no evaluated case on {sorted(want - evaluated)}"


def test_snapshot_grid_is_the_issues_grid():
    """T from 1e2 to 1e15, budgets in the five notions, every setting with at least three instances."""
    snap = snapshot()
    T = gen().dec_array(snap["T"])
    assert {10.0 ** k for k in range(2, 16)} <= set(T.tolist())
    assert {b["notion"] for b in snap["user_budgets"]} == {"pure", "zcdp", "rdp", "approx", "ldp"}
    settings = [k.split("/")[0] for k in snap["instances"]]
    assert all(settings.count(s) >= 3 for s in ("finite", "linear", "contextual", "glm"))
    assert len(snap["generated_from"]["commit"]) == 40 and not snap["generated_from"]["boundcalc_dirty"]


# -- mutants: the check must reject them ---------------------------------------------------------------------
def test_mutant_privacy_cost_rejected(monkeypatch):
    """privacy_cost × (1 + 1e-9) in one bound: every evaluated case of it is reported, naming the part and T."""
    b = registry.get("003-thm4-paper")
    orig = type(b).terms

    def terms(self, T, ctx, budget):
        npv, priv = orig(self, T, ctx, budget)
        return npv, np.asarray(priv, dtype=float) * (1 + 1e-9)

    monkeypatch.setattr(b, "terms", terms.__get__(b))
    diffs = recompute(b.id)
    assert diffs and any("privacy_cost" in d and "T = 1e+15" in d and "003-thm4-paper" in d for d in diffs)
    assert not any("nonprivate" in d for d in diffs)


def test_mutant_expression_rejected(monkeypatch):
    """The sympy form is pinned too: a privacy-cost expression × (1 + 1e-9) is reported (sym_privacy_cost; since
    issue 15 the value is derived from the expression, so value and privacy_cost move with it, the non-private part
    not)."""
    from boundcalc.bounds import base

    b = registry.get("000-cor6-paper")
    orig = type(b).expression

    def expression(self):
        npart, priv = orig(self)
        return npart, priv * (1 + 1e-9)

    monkeypatch.setattr(b, "expression", expression.__get__(b))
    monkeypatch.setattr(gen(), "_LAMBDIFIED", {})
    monkeypatch.setattr(base, "_LAMBDIFIED", {})
    diffs = recompute(b.id)
    assert diffs and any("sym_privacy_cost" in d for d in diffs)
    assert not any("nonprivate" in d for d in diffs)  # only value / privacy_cost / sym_privacy_cost moved


def test_mutant_conversion_and_applicability_rejected(monkeypatch):
    """A changed condition (applicability) or a changed converted budget is reported, not only a changed value."""
    b = registry.get("003-thm17")
    monkeypatch.setattr(b, "conditions", (lambda self, ctx: []).__get__(b))
    exp = BY_BOUND[b.id]
    if all(e["applicable"] for e in exp):  # pragma: no cover - the grid has ρ = 10 > 1, outside Thm 17
        pytest.skip("no non-applicable case of 003-thm17 in the grid")
    diffs = recompute(b.id)
    assert any("applicable False -> True" in d for d in diffs)
    e = next(e for e in exp if e.get("own_budget"))
    g = dict(e, own_budget={**e["own_budget"], **{k: v * (1 + 1e-9) for k, v in e["own_budget"].items()
                                                 if isinstance(v, float)}})
    assert any("conversion changed" in d for d in compare(e, g, gen().dec_array(snapshot()["T"])))


def test_nonfinite_compared_exactly():
    T = np.array([1.0, 2.0])
    e = {"bound": "x", "instance": "i", "budget": None, "applicable": True, "own_budget": None,
         "value": ["nan", "inf"]}
    assert not compare(e, dict(e), T)
    assert compare(e, dict(e, value=["nan", 1e308]), T)
    assert compare(e, dict(e, value=[1.0, "inf"]), T)
    assert compare(e, dict(e, value=["nan", "-inf"]), T)
    assert compare(dict(e, value=[0.0, 1.0]), dict(e, value=[1e-300, 1.0]), T)  # 0 stays exactly 0


def test_new_bound_must_be_added_deliberately():
    msgs = missing_and_extra(["a", "b", "new-ub"], ["a", "b"])
    assert msgs and "new-ub" in msgs[0] and "--add new-ub" in msgs[0]
    assert missing_and_extra(["a"], ["a", "gone"])


def test_generator_refuses_to_overwrite(tmp_path, capsys):
    out = tmp_path / "s.json.gz"
    out.write_bytes(b"keep")
    assert gen().main(["--out", str(out)]) == 2
    assert out.read_bytes() == b"keep" and "--force" in capsys.readouterr().err


def test_generator_add_pins_a_new_bound_only(tmp_path):
    """--add appends a bound missing from the snapshot (on the snapshot's own grid) and touches nothing else."""
    g = gen()
    snap = snapshot()
    bid = "003-thm11-paper"
    reduced = dict(snap, bound_ids=[i for i in snap["bound_ids"] if i != bid],
                   cases=[e for e in snap["cases"] if e["bound"] != bid], additions=[],
                   expressions={k: v for k, v in snap["expressions"].items() if k != bid})
    out = tmp_path / "s.json.gz"
    g.save(reduced, out)
    assert g.main(["--add", bid, "--out", str(out)]) == 0
    added = g.load(out)
    assert added["bound_ids"][-1] == bid and added["additions"][0]["bound"] == bid
    assert [e for e in added["cases"] if e["bound"] != bid] == reduced["cases"]
    T = g.dec_array(snap["T"])
    new = [e for e in added["cases"] if e["bound"] == bid]
    assert len(new) == len(BY_BOUND[bid])
    assert not [d for e, n in zip(BY_BOUND[bid], new) for d in compare(e, n, T)]
    with pytest.raises(SystemExit, match="already in the snapshot"):
        g.main(["--add", bid, "--out", str(out)])
