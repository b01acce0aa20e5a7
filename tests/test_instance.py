"""One instance for every command (issue 14 §1): boundcalc.envs.spec (Instance, files, priors) and its CLI options.

Expected values are computed independently here (numpy draws of the recipe, closed forms, scipy tests), never copied
from the code's output; each check is shown to reject a deliberately broken copy (a mutant).
"""

from __future__ import annotations

import json
import math
import tomllib

import numpy as np
import pytest

from boundcalc.envs import spec
from boundcalc.envs.spec import Instance, instance_from_options, load_instance, make_prior, save_instance
from boundcalc.errors import InputError


# -- the value and its file format --------------------------------------------------------------------------------
def _examples():
    rng = np.random.default_rng(11)
    A = rng.standard_normal((6, 4))
    A /= np.linalg.norm(A, axis=1, keepdims=True)
    th = rng.standard_normal(4)
    th /= 2 * np.linalg.norm(th)
    return [
        Instance("finite", name="three arms", means=(0.9, 0.8, 0.5)),
        Instance("finite", means=(1.5, -0.2), family="gaussian", sigma=2.0),
        Instance("linear", actions=A.tolist(), theta=th.tolist()),
        Instance("linear", actions=(3 * A).tolist(), theta=(3 * th).tolist(), noise="gaussian", sigma=0.5),
        Instance("contextual", theta=th.tolist(), K=7),
        Instance("contextual", theta=th.tolist(), K=3, contexts="pool", actions=A.tolist()),
        Instance("contextual", theta=th.tolist(), K=5, contexts="sphere"),
        Instance("glm", theta=th.tolist(), K=4, noise="uniform"),
        Instance("glm", thetas=A[:3].tolist(), link="logistic"),
    ]


@pytest.mark.parametrize("inst", _examples(), ids=lambda i: i.describe())
def test_round_trip_dict_toml_json(inst, tmp_path):
    d = inst.to_dict()
    assert d["schema"] == "boundcalc.instance/1" and d["setting"] == inst.setting
    assert json.loads(json.dumps(d)) == d  # JSON-able as it stands
    assert Instance.from_dict(d) == inst
    assert Instance.from_dict(tomllib.loads(spec.to_toml(d))) == inst
    for ext in (".toml", ".json"):
        p = tmp_path / f"inst{ext}"
        save_instance(inst, str(p))
        back = load_instance(str(p))
        assert back == inst
        assert back.to_dict()["means" if inst.setting == "finite" else "setting"] == d[
            "means" if inst.setting == "finite" else "setting"]
        # the environment of the reloaded instance is the same problem (independent read of its arrays)
        e1, e2 = inst.make_env(), back.make_env()
        for attr in ("means", "actions", "theta", "thetas", "pool", "mean"):
            a, b = getattr(e1, attr, None), getattr(e2, attr, None)
            assert (a is None) == (b is None)
            if a is not None:
                assert np.array_equal(np.asarray(a), np.asarray(b))


def test_make_env_matches_the_data():
    fin, gau, lin, lin_g, ctx, pool, sph, glm, multi = _examples()
    e = fin.make_env()
    assert e.family == "bernoulli" and e.means.tolist() == [0.9, 0.8, 0.5]
    assert np.allclose(e.gaps, [0.0, 0.1, 0.4])
    e = gau.make_env()
    assert e.family == "gaussian" and e.sigma == 2.0
    e = lin.make_env()
    assert e.noise == "rademacher" and e.actions.shape == (6, 4)
    assert np.allclose(e.means, np.asarray(lin.actions) @ np.asarray(lin.theta))
    assert lin_g.make_env().sigma == 0.5 and lin_g.make_env().noise == "gaussian"
    e = ctx.make_env()  # the seed 003 Sec. VII recipe: N((1/sqrt d) 1, I/10), projected
    assert e.contexts_kind == "gaussian" and e.project and np.allclose(e.mean, 0.5) and math.isclose(e.scale**2, 0.1)
    assert pool.make_env().pool.shape == (6, 4) and pool.make_env().K == 3
    assert glm.make_env().noise == "uniform" and glm.make_env().K == 4
    assert multi.make_env().thetas.shape == (3, 4)


def test_from_env_is_the_inverse_of_make_env_on_named_instances():
    from boundcalc.envs import instances_by_setting, make_named_env

    for setting, names in instances_by_setting().items():
        for n in names:
            env = make_named_env(n, seed=5)
            inst = Instance.from_env(env)
            assert inst.setting == setting
            env2 = inst.make_env()
            for attr in ("means", "actions", "theta", "pool", "mean", "scale", "project", "K", "d", "noise", "link",
                         "contexts_kind", "family"):
                a, b = getattr(env, attr, None), getattr(env2, attr, None)
                if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
                    assert np.array_equal(a, b), (n, attr)
                else:
                    assert a == b, (n, attr)


def test_context_overrides_agree_with_the_adapters_reading_of_the_env():
    """verify.adapters.instance_for reads the bound registry's instance off an environment; the Instance's own
    context_overrides must say the same for every named instance the bounds describe."""
    from boundcalc.bounds import registry
    from boundcalc.envs import instances_by_setting, make_named_env
    from boundcalc.verify.adapters import instance_for

    checked = 0
    for setting, names in instances_by_setting().items():
        for n in names:
            env = make_named_env(n, seed=4)
            want, _ = instance_for(env, setting)
            inst = Instance.from_env(env)
            if want is None:
                with pytest.raises(InputError):
                    inst.context_overrides()
                continue
            got = inst.context_overrides()
            assert set(got) == set(want), n
            for k in want:
                if isinstance(want[k], str):
                    assert got[k] == want[k]
                else:
                    assert np.allclose(np.asarray(got[k], float), np.asarray(want[k], float)), (n, k)
            registry.make_context(setting, got)  # the registry accepts them
            checked += 1
    assert checked >= 8


def test_finite_and_linear_overrides_reach_the_bound_context():
    from boundcalc.bounds import registry

    inst = Instance("finite", means=(0.9, 0.6, 0.6, 0.3))
    ctx = registry.make_context("finite", inst.context_overrides())
    assert ctx["K"] == 4 and np.allclose(ctx["Delta"], [0, 0.3, 0.3, 0.6])
    lin = instance_from_options("linear", K=50, d=5, env_seed=3)
    ctx = registry.make_context("linear", lin.context_overrides())
    assert (ctx["K"], ctx["d"]) == (50, 5)
    assert np.allclose(ctx["gaps"], (np.asarray(lin.actions) @ lin.theta).max() - np.asarray(lin.actions) @ lin.theta)


def test_schema_errors_name_the_problem(tmp_path):
    good = Instance("finite", means=(0.9, 0.5)).to_dict()
    cases = [
        ({**good, "schema": "boundcalc.instance/0"}, "schema"),
        ({k: v for k, v in good.items() if k != "schema"}, "schema"),
        ({**good, "setting": "bandit"}, "setting"),
        ({**good, "theta": [1.0]}, "unknown: theta"),
        ({**good, "means": [0.9, 1.5]}, "[0, 1]"),
        ({**good, "means": [0.9]}, "at least 2"),
        ({**good, "means": "0.9,0.5"}, "means"),
        ({"schema": spec.SCHEMA, "setting": "linear", "actions": [[1, 0], [0, 1]], "theta": [1, 0, 0]}, "length d"),
        ({"schema": spec.SCHEMA, "setting": "linear", "actions": [[1, 0], [0]], "theta": [1, 0]}, "K x d"),
        ({"schema": spec.SCHEMA, "setting": "glm", "K": 3}, "theta"),
        ({**good, "source": [1]}, "source"),
    ]
    for d, needle in cases:
        with pytest.raises(InputError) as ei:
            Instance.from_dict(d, where="f.json")
        msg = str(ei.value)
        assert "f.json" in msg and needle in msg and "\n" not in msg, msg
    p = tmp_path / "bad.toml"
    p.write_text("schema = 'boundcalc.instance/1'\nsetting = \n")
    with pytest.raises(InputError, match="bad.toml.*valid TOML"):
        load_instance(str(p))
    with pytest.raises(InputError, match=r"\.toml or \.json"):
        load_instance(str(tmp_path / "x.yaml"))
    with pytest.raises(InputError, match="readable"):
        load_instance(str(tmp_path / "missing.json"))


# -- instance_from_options ------------------------------------------------------------------------------------
def test_options_build_the_instance_they_describe():
    assert instance_from_options("finite") is None and instance_from_options("linear") is None
    inst = instance_from_options("finite", means="0.9,0.8,0.5")
    assert inst.means == (0.9, 0.8, 0.5)
    # one gap for K - 1 arms, centred on 1/2 by default; an explicit best mean
    inst = instance_from_options("finite", K=4, gaps="0.2")
    assert np.allclose(inst.means, [0.6, 0.4, 0.4, 0.4])
    inst = instance_from_options("finite", gaps="0.1,0.3", best_mean=0.9)
    assert np.allclose(inst.means, [0.9, 0.8, 0.6])
    # K alone: the mu2 pattern of `regret --K` (bounds/finite.py derive)
    assert np.allclose(instance_from_options("finite", K=3).means, [0.75, 0.5, 0.25])
    # linear K, d, seed: the recipe drawn here independently (actions then theta*, unit sphere)
    rng = np.random.default_rng(7)
    A = rng.standard_normal((50, 5))
    A /= np.linalg.norm(A, axis=1, keepdims=True)
    th = rng.standard_normal(5)
    th /= np.linalg.norm(th)
    inst = instance_from_options("linear", K=50, d=5, env_seed=7)
    assert np.allclose(inst.actions, A) and np.allclose(inst.theta, th)
    inst = instance_from_options("linear", K=50, d=5, env_seed=7, theta="0.1,0.2,0.3,0.4,0.5")
    assert np.allclose(inst.actions, A) and np.allclose(inst.theta, [0.1, 0.2, 0.3, 0.4, 0.5])
    # the default linear instance (K = 10, d = 3, seed 3) is the bound registry's default one
    from boundcalc.bounds import registry

    ctx = registry.make_context("linear", {})
    inst = instance_from_options("linear", env_seed=3)
    assert np.allclose(inst.actions, ctx["actions"]) and np.allclose(inst.theta, ctx["theta"])


def test_conflicting_options_are_refused(tmp_path):
    p = tmp_path / "i.json"
    save_instance(Instance("finite", means=(0.9, 0.5)), str(p))
    bad = [
        dict(setting="finite", instance_file=str(p), means="0.5,0.4"),
        dict(setting="linear", instance_file=str(p)),  # setting mismatch
        dict(setting="finite", means="0.5,0.4", gaps="0.1"),
        dict(setting="finite", means="0.5,0.4", K=3),
        dict(setting="finite", means="0.5,0.4", d=3),
        dict(setting="finite", K=3, env_seed=2),
        dict(setting="linear", means="0.5,0.4"),
        dict(setting="linear", env="zcdp-linear", K=4),
        dict(setting="linear", env="mu2"),
        dict(setting="linear", K=4, d=3, theta="1,0"),
        dict(setting="glm", actions=[[1.0, 0.0]]),
        dict(setting="finite", gaps="0.2"),  # one gap needs K
    ]
    for kw in bad:
        s = kw.pop("setting")
        with pytest.raises(InputError):
            instance_from_options(s, **kw)


# -- priors --------------------------------------------------------------------------------------------------------
def test_priors_are_deterministic_in_the_seed_and_prefix_stable():
    for name, setting in (("sphere", "linear"), ("sphere", "contextual"), ("sphere", "glm"),
                          ("uniform-gaps", "finite"), ("uniform-means", "finite")):
        pr = make_prior(name, setting)
        a, b = pr.sample(5, seed=7), pr.sample(5, seed=7)
        assert a == b
        assert pr.sample(3, seed=7) == a[:3]  # instance i does not depend on n (SeedSequence.spawn)
        assert pr.sample(5, seed=8) != a
        assert len({x.to_dict()["source"]["index"] for x in a}) == 5
        assert all(x.setting == setting for x in a)


def _sphere_moments_ok(thetas: np.ndarray, radius: float) -> bool:
    """Independent check of 'uniform on the sphere of radius r in R^d': every norm is r, the mean is 0 and the
    second moment is r^2/d I (each within 5 standard errors)."""
    n, d = thetas.shape
    if not np.allclose(np.linalg.norm(thetas, axis=1), radius, rtol=1e-9):
        return False
    u = thetas / radius
    se_mean = math.sqrt(1 / d / n)
    if np.any(np.abs(u.mean(axis=0)) > 5 * se_mean):
        return False
    M = u.T @ u / n
    se2 = math.sqrt(2 / (d * (d + 2)) / n) * 2
    return bool(np.all(np.abs(M - np.eye(d) / d) < 5 * se2))


def test_sphere_prior_distribution(monkeypatch):
    pr = make_prior("sphere", "linear", K=4, d=3, radius=0.7)
    draws = pr.sample(1500, seed=1)
    th = np.array([x.theta for x in draws])
    acts = np.concatenate([np.asarray(x.actions) for x in draws])
    assert _sphere_moments_ok(th, 0.7)
    assert _sphere_moments_ok(acts, 1.0)
    assert all(np.asarray(x.actions).shape == (4, 3) for x in draws)
    # mutant: theta* not scaled to the radius -> rejected
    orig = spec.Prior._draw

    def unscaled(self, rng):
        inst = orig(self, rng)
        return Instance("linear", actions=inst.actions, theta=(np.asarray(inst.theta) / 0.7).tolist())

    monkeypatch.setattr(spec.Prior, "_draw", unscaled)
    assert not _sphere_moments_ok(np.array([x.theta for x in pr.sample(1500, seed=1)]), 0.7)

    # mutant: Gaussian coordinates in a box rather than on the sphere (normalised to the radius but not uniform)
    def cube(self, rng):
        inst = orig(self, rng)
        v = rng.uniform(0, 1, 3)
        return Instance("linear", actions=inst.actions, theta=(0.7 * v / np.linalg.norm(v)).tolist())

    monkeypatch.setattr(spec.Prior, "_draw", cube)
    assert not _sphere_moments_ok(np.array([x.theta for x in pr.sample(1500, seed=1)]), 0.7)


def _gaps_ok(draws, K, best, gaps) -> bool:
    """Independent check of uniform-gaps: arm 0 is the best, best mean ~ U[best] and every gap ~ U[gaps]
    (Kolmogorov-Smirnov at level 1e-4)."""
    from scipy.stats import kstest

    m = np.array([x.means for x in draws])
    if m.shape[1] != K or np.any(m.argmax(axis=1) != 0):
        return False
    g = (m[:, :1] - m[:, 1:]).ravel()
    b = m[:, 0]
    if b.min() < best[0] or b.max() > best[1] or g.min() < gaps[0] or g.max() > gaps[1]:
        return False
    p1 = kstest(b, "uniform", args=(best[0], best[1] - best[0])).pvalue
    p2 = kstest(g, "uniform", args=(gaps[0], gaps[1] - gaps[0])).pvalue
    return p1 > 1e-4 and p2 > 1e-4


def test_uniform_gaps_prior_distribution(monkeypatch):
    pr = make_prior("uniform-gaps", "finite", K=6, best_low=0.6, best_high=0.95, gap_low=0.1, gap_high=0.5)
    draws = pr.sample(800, seed=2)
    assert _gaps_ok(draws, 6, (0.6, 0.95), (0.1, 0.5))
    # mutant: gaps drawn from the wrong range (the best mean's) -> rejected
    orig = spec.Prior._draw

    def wrong(self, rng):
        best = rng.uniform(0.6, 0.95)
        g = rng.uniform(0.1, 0.3, 5)  # the upper end of the range dropped
        return Instance("finite", means=(best, *(best - g)))

    monkeypatch.setattr(spec.Prior, "_draw", wrong)
    assert not _gaps_ok(pr.sample(800, seed=2), 6, (0.6, 0.95), (0.1, 0.5))
    monkeypatch.setattr(spec.Prior, "_draw", orig)
    from scipy.stats import kstest

    m = np.array([x.means for x in make_prior("uniform-means", "finite", K=5, low=0.2, high=0.6).sample(600, 3)])
    assert m.min() >= 0.2 and m.max() <= 0.6
    assert kstest(m.ravel(), "uniform", args=(0.2, 0.4)).pvalue > 1e-4


def test_prior_errors():
    for args, kw in ((("sphere", "finite"), {}), (("nope", "linear"), {}), (("uniform-gaps", "finite"), {"radius": 1}),
                     (("uniform-gaps", "finite"), {"best_low": 0.3, "gap_high": 0.5}),
                     (("sphere", "linear"), {"K": 0}), (("sphere", "linear"), {"radius": -1.0})):
        with pytest.raises(InputError):
            make_prior(*args, **kw)
    with pytest.raises(InputError):
        make_prior("sphere", "linear").sample(0, 1)
