"""The bound context of a simulated algorithm and environment (verify.regret_check.context_for) against its inverse,
the adapters of regret --check; the overlay of simulate --plot; regret --check --plot (issue 9 §2, §4)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from boundcalc import algorithms as registry
from boundcalc.bounds import registry as bounds
from clirun import app, runner
from boundcalc.envs import DEFAULT_ENV, make_named_env
from boundcalc.privacy import RDP, ZCDP, ApproxDP, LocalDP, PureDP
from boundcalc.montecarlo.settings import Simulation
from boundcalc.verify import overlay
from boundcalc.verify import regret_check as rc


BUDGET = {"pure": PureDP(1.0), "zcdp": ZCDP(0.5), "rdp": RDP(2.0, 1.0), "approx": ApproxDP(1.0, 1e-5),
          "ldp": LocalDP(1.0, 0.01), "none": None}
ADAPTED = sorted(rc._adapters())
# keys of a context that describe the instance or an algorithm parameter (derived keys follow from them)
KEYS = ("means", "alpha_batch", "alpha_adap", "dpse_beta", "beta_adac", "beta_adar", "actions", "theta", "delta", "d",
        "K", "context_distribution", "reward_noise", "lam", "lam0", "C", "L", "S", "zeta", "theta_norm", "context",
        "sigma_r", "C_B", "c_r", "kappa_l", "p_star")


def _setting(name):
    return registry.lookup(name).setting


def _same(a, b):
    return rc._same(a, b)


@pytest.mark.parametrize("name", ADAPTED)
def test_context_for_inverts_the_adapters(name):
    """registry context -> adapter (algorithm, environment) -> context_for -> the same context."""
    s = _setting(name)
    cls = registry.lookup(name)
    b = BUDGET[cls.notion]
    ctx = bounds.make_context(s, {}, b)
    ad = rc._adapters()[name]
    alg, env = ad.build(ctx, b), ad.env(ctx)
    over, why = rc.context_for(alg, env, b)
    assert over is not None, why
    ctx2 = bounds.make_context(s, over, b)
    for k in KEYS:
        if k in ctx.params:
            want = rc.glm_check_theta(ctx) if (s, k) == ("glm", "theta") else ctx.params[k]  # GLM: drawn from a seed
            assert _same(ctx2.params.get(k), want), (k, ctx2.params.get(k), want)


@pytest.mark.parametrize("name", ADAPTED)
def test_adapters_invert_context_for_on_the_simulated_default_instance(name):
    """simulate's default algorithm on simulate's default instance -> context_for -> adapter -> the same algorithm
    (every parameter) on the same instance."""
    cls = registry.lookup(name)
    b = BUDGET[cls.notion]
    alg = registry.build(cls, b)
    env = make_named_env({"contextual": "zcdp-contextual-bounded"}.get(cls.setting, DEFAULT_ENV[cls.setting]))
    over, why = rc.context_for(alg, env, b)
    assert over is not None, why
    ctx = bounds.make_context(cls.setting, over, b)
    ad = rc._adapters()[name]
    alg2, env2 = ad.build(ctx, b), ad.env(ctx)
    p, p2 = rc._effective_params(alg, env), rc._effective_params(alg2, env2)
    assert set(p) == set(p2) and all(_same(p[k], p2[k]) for k in p), (p, p2)
    for a in ("means", "actions", "theta", "K", "d", "contexts_kind", "mean", "scale", "project", "link"):
        assert _same(getattr(env, a, None), getattr(env2, a, None)), a


def test_projected_contextual_instance_is_described_as_projected():
    """The registry's contextual default projects contexts onto the unit ball with +-1 rewards: the overlay of
    zcdp-contextual-bounded says so, and its lambda0 is the instance's, checked by Monte Carlo (an independent
    estimate of lambda_min(E xx^T) from 4e5 drawn contexts)."""
    env = make_named_env("zcdp-contextual-bounded")
    alg = registry.build("AdaC-OFUL", ZCDP(0.5))
    over, why = rc.context_for(alg, env, ZCDP(0.5))
    assert over["context_distribution"] == "gaussian-003-projected" and over["reward_noise"] == "rademacher", why
    ctx = bounds.make_context("contextual", over, ZCDP(0.5))
    x = env.contexts(np.random.default_rng(1), (40000,)).reshape(-1, env.d)
    lam_mc = float(np.linalg.eigvalsh(x.T @ x / len(x))[0])
    assert ctx["lam0"] == pytest.approx(lam_mc, abs=3e-3)
    assert ctx["max_action_norm"] == 1.0
    env_u = make_named_env("zcdp-contextual")
    over_u, _ = rc.context_for(alg, env_u, ZCDP(0.5))
    assert over_u["context_distribution"] == "gaussian-003" and over_u["reward_noise"] == "gaussian"


def _drop(key):
    def f(over):
        over = dict(over)
        over.pop(key, None)
        return over
    return f


def _set(key, val):
    def f(over):
        return {**over, key: val}
    return f


# mutants of the mapping: each must make the round trip fail (the tests above cannot pass with a broken mapping);
# the algorithm's parameters differ from the registry defaults where a mutant drops one (else it changes nothing)
MUTANTS = [
    ("AdaC-OFUL", {}, "zcdp-contextual-bounded",  # the old overlay's bug: the projected instance as the paper's recipe
     lambda o: {**o, "context_distribution": "gaussian-003", "reward_noise": "gaussian"}),
    ("AdaC-OFUL", {}, "zcdp-contextual-bounded", _set("lam", 1.0)),
    ("LinUCB-DGS", {"zeta": 0.1}, "zcdp-contextual-bounded", _drop("zeta")),
    ("DP-KLUCB", {"alpha": 3.0}, "mu2", _drop("alpha_batch")),
    ("DP-KLUCB", {}, "mu2", _set("means", [0.75, 0.7, 0.7, 0.7, 0.7])),
    ("AdaC-GOPE", {}, "zcdp-linear", _set("delta", 0.1)),
    ("LDP-SGD", {}, "ldp-single", _set("kappa_l", 0.05)),
]


@pytest.mark.parametrize("name,params,env_name,mutate", MUTANTS)
def test_round_trip_rejects_a_broken_mapping(name, params, env_name, mutate):
    cls = registry.lookup(name)
    b = BUDGET[cls.notion]
    alg, env = registry.build(cls, b, params), make_named_env(env_name)
    over, why = rc.context_for(alg, env, b)
    assert over is not None, why
    ctx = bounds.make_context(cls.setting, mutate(over), b)
    ad = rc._adapters()[name]
    alg2, env2 = ad.build(ctx, b), ad.env(ctx)
    p, p2 = rc._effective_params(alg, env), rc._effective_params(alg2, env2)
    same_alg = set(p) == set(p2) and all(_same(p[k], p2[k]) for k in p)
    assert not (same_alg and not rc._instance_difference(env, env2))


def test_context_for_says_why_not():
    alg = registry.build("AdaC-OFUL", ZCDP(0.5), {"denominator": "eigen"})  # a parameter no context carries
    over, why = rc.context_for(alg, make_named_env("zcdp-contextual-bounded"), ZCDP(0.5))
    assert over is None and "denominator" in why
    over, why = rc.context_for(registry.build("AdaC-OFUL", ZCDP(0.5)), make_named_env("dgs-synthetic"), ZCDP(0.5))
    assert over is None and "pool" in why
    # issue 16: KL-UCB has a bound (Garivier & Cappé 2011), its c is a context key; the multi-parameter GLM
    # algorithms have no adapter
    over, why = rc.context_for(registry.build("KL-UCB"), make_named_env("mu2"), None)
    assert over is not None and over["klucb_c"] == 0.0, why
    name = "LDP-OLS (multi-parameter)"
    over, why = rc.context_for(registry.build(name, LocalDP(1.0, 0.01)), make_named_env("mu2"), LocalDP(1.0, 0.01))
    assert over is None and name in why
    over, why = rc.context_for(registry.build("DP-KLUCB", PureDP(1.0)), make_named_env("mu2"), ZCDP(1.0))
    assert over is None and "pure" in why


def test_overlay_bounds_equal_direct_evaluation():
    """An overlay curve is the registered bound evaluated in the context of the instance (a direct call)."""
    alg, env = registry.build("DP-KLUCB", PureDP(0.5)), make_named_env("mu1")
    t = np.geomspace(10, 1e4, 20)
    curves, notes = overlay.bound_curves(alg, env, t, PureDP(0.5))
    ctx = bounds.make_context("finite", {"means": list(env.means), "alpha_batch": 2.0}, PureDP(0.5))
    up = [c for c in curves if c.kind == "upper"]
    assert [c.bound_id for c in up] == ["001-thm4.3-dp-klucb"]
    direct = bounds.get("001-thm4.3-dp-klucb").evaluate(t, ctx).value
    np.testing.assert_allclose(up[0].values, direct, rtol=1e-12)
    assert any(c.kind == "lower" for c in curves)


def test_overlay_marks_bounds_outside_their_assumptions():
    """Gaussian rewards on a finite instance break the [0, 1] reward assumption: drawn, marked, with the reason."""
    from boundcalc.envs import make_env

    env = make_env(None, means=[0.75, 0.5], family="gaussian")
    alg = registry.build("AdaC-UCB", ZCDP(1.0))
    up, notes = overlay.upper_curves(alg, env, np.geomspace(10, 1e3, 10), ZCDP(1.0))
    assert up and all(not c.inside and "outside its assumptions" in c.label for c in up)
    assert any("rewards in [0, 1]" in n for n in notes)


# -- regret --check --plot -------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def curve_check():
    """regret --check's rows at T = 2000 (10 runs per algorithm) with the figure's 50 checkpoints: built once for the
    two tests below (each check runs every finite algorithm step by step, ~1 s of CPU)."""
    from boundcalc.bounds.report import regret_report

    rep = regret_report("finite", PureDP(1.0), np.array([2000.0]), {}, {})
    rc.check_rows("finite", rep.ctx, rep.rows, PureDP(1.0), 2000, Simulation(runs=10, seed=0),
                  checkpoints=rc.curve_checkpoints(2000))
    return rep


def test_check_curves_do_not_change_the_check_at_T(curve_check):
    """Recording the regret at 50 checkpoints for the figure draws nothing more: the regret at T is identical.
    (T = 2000 and 10 runs, as the module's shared check: the identity holds draw for draw at any T and number of runs;
    it was T = 3000 with 20 runs, the same 50 checkpoints.)"""
    from boundcalc.bounds.report import regret_report

    rep1 = regret_report("finite", PureDP(1.0), np.array([2000.0]), {}, {})
    rep2 = curve_check
    rc.check_rows("finite", rep1.ctx, rep1.rows, PureDP(1.0), 2000, Simulation(runs=10, seed=0))
    a = [r["empirical"] for r in rep1.rows if "empirical" in r and "mean" in r["empirical"]]
    b = [r["empirical"] for r in rep2.rows if "empirical" in r and "mean" in r["empirical"]]
    assert a and len(a) == len(b)
    for x, y in zip(a, b):  # the same regret at T (its interval agrees to rounding: a column of a wider array)
        assert x["mean"] == y["mean"] and x["ci"] == pytest.approx(y["ci"], rel=1e-13)
        assert y["curve"]["t"][-1] == 2000 and y["curve"]["mean"][-1] == y["mean"]
        assert len(y["curve"]["t"]) >= 40


def test_check_panels_bound_at_T_is_the_row_value(curve_check):
    rep = curve_check
    panels = overlay.check_panels(rep.rows, rep.ctx)
    rows = {r["id"]: r for r in rep.rows}
    assert {p.algorithm for p in panels} == {r["algorithm"] for r in rep.rows if "curve" in r.get("empirical", {})}
    for p in panels:
        for b in p.bounds:
            assert b.values[-1] == pytest.approx(rows[b.bound_id]["value"], rel=1e-9)
            assert overlay.short_verdict(rows[b.bound_id]["empirical"]["verdict"]) in b.label


def test_regret_check_plot_draws_each_curve_beside_its_bounds(tmp_path, monkeypatch):
    from boundcalc import figures

    seen = {}
    real = figures.save

    def spy(fig, path, option="--plot"):
        seen["fig"] = fig
        seen["labels"] = [ax.get_legend_handles_labels()[1] for ax in fig.axes if ax.get_visible()]
        seen["title"] = fig._suptitle.get_text() if fig._suptitle else ""
        return real(fig, path, option)

    monkeypatch.setattr(figures, "save", spy)
    p = tmp_path / "check.svg"
    r = runner.invoke(app, ["regret", "--setting", "finite", "--epsilon", "1", "--check", "--T", "2000", "--runs", "10",
                            "--plot", str(p), "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["plot"]["figure"] == "simulated regret beside the checked bounds"
    assert p.read_bytes()[:5] in (b"<?xml", b"<svg ")
    checked = {x["algorithm"] for x in d["bounds"] if "curve" in (x.get("empirical") or {})}
    assert len(seen["labels"]) == len(checked) >= 4
    for labels in seen["labels"]:
        assert labels[0].endswith("mean regret and 95% interval")
        assert len(labels) >= 2  # the curve and at least one bound form with its verdict
    assert "T = 2000" in seen["title"] and "10 runs" in seen["title"] and "ε = 1" in seen["title"]


def test_regret_plot_accepts_pdf_and_rejects_jpg(tmp_path):
    p = tmp_path / "b.pdf"
    r = runner.invoke(app, ["regret", "--setting", "finite", "--epsilon", "1", "--plot", str(p)])
    assert r.exit_code == 0, r.output
    assert p.read_bytes()[:4] == b"%PDF"
    r = runner.invoke(app, ["regret", "--setting", "finite", "--epsilon", "1", "--plot", str(tmp_path / "b.jpg")])
    assert r.exit_code == 2 and "--plot must be a FILE.png/.svg/.pdf" in r.stderr
