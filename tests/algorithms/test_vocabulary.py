"""One vocabulary across commands (issue 17 §5, docs/vocabulary.md): every deprecated spelling warns on stderr and
makes the same library call as its canonical option; GOPE is the paper's baseline, GOPE-limit the ρ → ∞ limit."""

from __future__ import annotations

import json
import math
import re

import pytest

from boundcalc.cli import common
from clirun import app, runner

# one invocation per alias: (command, old flag) -> (base arguments, value given, library function to record)
CASES = {
    ("episodes", "--delta"): (["episodes", "--algo", "adac-gope", "--rho", "0.1", "--T", "1e5"], "0.2",
                              "boundcalc.algorithms.episodes.build"),
    ("episodes", "--lam0"): (["episodes", "--algo", "adac-oful", "--rho", "0.1", "--T", "1e5"], "0.02",
                             "boundcalc.algorithms.episodes.build"),
    ("audit", "--confidence"): (["audit", "--algo", "dp-se", "--trials", "300"], "0.8",
                                "boundcalc.audit.run.run_audit"),
}


def test_every_alias_has_a_case_and_a_row_in_the_vocabulary_table():
    assert set(CASES) == set(common.DEPRECATED_ALIASES)
    import pathlib

    doc = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "vocabulary.md").read_text()
    for (cmd, old), new in common.DEPRECATED_ALIASES.items():
        row = [ln for ln in doc.splitlines() if f"`{old}`" in ln and f"`{new}`" in ln and cmd in ln]
        assert row, (cmd, old, new)


def _recorded(monkeypatch, target: str, args: list[str]):
    """Run the CLI with the library function ``target`` wrapped: its positional and keyword arguments, the JSON and
    the stderr."""
    import importlib

    modname, fn = target.rsplit(".", 1)
    mod = importlib.import_module(modname)
    real = getattr(mod, fn)
    calls = []

    def spy(*a, **kw):
        calls.append((a, kw))
        return real(*a, **kw)

    monkeypatch.setattr(mod, fn, spy)
    res = runner.invoke(app, [*args, "--json"])
    monkeypatch.setattr(mod, fn, real)
    assert res.exit_code == 0, res.output
    return calls, json.loads(res.stdout), res.stderr


def _check_alias(monkeypatch, key):
    """The alias warns (naming old and new), the canonical spelling does not, and both make the same library call
    with the given value, which differs from the default's call (so a dropped value is seen)."""
    base, value, target = CASES[key]
    old, new = key[1], common.DEPRECATED_ALIASES[key]
    c_old, j_old, err_old = _recorded(monkeypatch, target, [*base, old, value])
    c_new, j_new, err_new = _recorded(monkeypatch, target, [*base, new, value])
    c_def, _, _ = _recorded(monkeypatch, target, base)
    assert re.search(rf"warning: {re.escape(old)} is deprecated.*use {re.escape(new)}", err_old), err_old
    assert "warning" not in err_new, err_new
    assert c_old == c_new, (c_old, c_new)
    assert c_new != c_def  # the value reaches the library
    assert j_old == j_new


@pytest.mark.parametrize("key", sorted(CASES))
def test_alias_warns_and_maps_to_the_same_library_call(monkeypatch, key):
    _check_alias(monkeypatch, key)


@pytest.mark.parametrize("key", sorted(CASES))
def test_alias_and_canonical_together_is_an_error(key):
    base, value, _ = CASES[key]
    res = runner.invoke(app, [*base, key[1], value, common.DEPRECATED_ALIASES[key], value])
    assert res.exit_code == 2
    lines = [x for x in res.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and key[1] in lines[0], res.stderr


def test_mutant_alias_that_drops_the_old_value_is_rejected(monkeypatch):
    """A broken alias (warns but keeps the canonical option's default) fails the check above."""
    real = common.alias

    def broken(ctx, command_name, old, old_value, new_value):
        real(ctx, command_name, old, old_value, new_value)
        return new_value

    monkeypatch.setattr(common, "alias", broken)
    with pytest.raises(AssertionError):
        _check_alias(monkeypatch, ("episodes", "--delta"))


def test_alias_errors_name_the_flag_the_user_typed():
    res = runner.invoke(app, ["audit", "--algo", "dp-se", "--confidence", "0.3"])
    assert res.exit_code == 2 and "--confidence" in res.stderr
    res = runner.invoke(app, ["episodes", "--algo", "adac-gope", "--rho", "1", "--delta", "1"])
    assert res.exit_code == 2 and "--delta" in res.stderr


# -- GOPE: the paper's non-private baseline (seed 003 Sec. VII, Fig. 4(b)) -------------------------------------
def test_gope_is_the_papers_baseline_and_gope_limit_the_rho_to_infinity_limit():
    """GOPE's phase length is Lattimore–Szepesvári Alg. 12's, T_l = 2 d 4^l log(K l (l+1) / δ) (recomputed here);
    GOPE-limit's is AdaC-GOPE's c_l without its privacy term, 8 d 4^l log(4 K l (l+1) / δ) (seed 003 Eq. 4),
    which AdaC-GOPE approaches as ρ → ∞."""
    from boundcalc.algorithms import lookup
    from boundcalc.algorithms.linear import AdaCGOPE, GOPE, GOPELimit

    assert lookup("GOPE") is GOPE and lookup("gope-limit") is GOPELimit
    d, K, delta = 3, 10, 1e-3
    for ell in (1, 2, 5):
        ls = 2 * d * 4.0**ell * math.log(K * ell * (ell + 1) / delta)
        lim = 8 * d * 4.0**ell * math.log(4 * K * ell * (ell + 1) / delta)
        assert GOPE(delta=delta).c_ell(ell, d, K) == pytest.approx(ls, rel=1e-12)
        assert GOPELimit(delta=delta).c_ell(ell, d, K) == pytest.approx(lim, rel=1e-12)
        assert AdaCGOPE(1e30, delta=delta).c_ell(ell, d, K) == pytest.approx(lim, rel=1e-9)
    out = json.loads(runner.invoke(app, ["simulate", "--algo", "GOPE", "--T", "1e3", "--runs", "4", "--json"]).stdout)
    assert out["inputs"]["params"]["schedule"] == "ls" and out["algorithm"]["name"] == "GOPE"
    out = json.loads(runner.invoke(app, ["simulate", "--algo", "GOPE-limit", "--T", "1e3", "--runs", "4",
                                         "--json"]).stdout)
    assert out["inputs"]["params"]["schedule"] == "limit" and out["algorithm"]["name"] == "GOPE-limit"


def test_mutant_old_gope_meaning_is_rejected(monkeypatch):
    """The pre-issue-17 GOPE (the ρ → ∞ limit under the name GOPE) fails the test above."""
    from boundcalc.algorithms.linear import gope

    monkeypatch.setattr(gope.GOPE.__init__, "__defaults__", (1e-3, "limit", 1e-6))
    with pytest.raises(AssertionError):
        test_gope_is_the_papers_baseline_and_gope_limit_the_rho_to_infinity_limit()
