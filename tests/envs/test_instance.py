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
from boundcalc.cli.problem import instance_from_options
from boundcalc.envs.spec import Instance, load_instance, make_prior, save_instance
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
    assert Instance.from_dict(d) == inst and Instance.from_dict(d).to_dict() == d
    assert Instance.from_dict(tomllib.loads(spec.to_toml(d))) == inst
    assert Instance.from_dict(tomllib.loads(spec.to_toml(d))).to_dict() == d
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


# -- the CLI: one instance for every command --------------------------------------------------------------------
from typer.testing import CliRunner  # noqa: E402

from boundcalc.cli.app import app  # noqa: E402

runner = CliRunner()

COMMANDS = {  # small T / runs; each command with the instance options appended
    "finite": [
        ["regret", "--setting", "finite", "--epsilon", "1", "--T", "1e4"],
        # T = 500: what is checked is the instance each command reports, not the simulation (at T = 2000 the per-step
        # KL-UCB/IMED loops of --check cost ~1 s more per pass, and the instance tests make three passes)
        ["regret", "--setting", "finite", "--epsilon", "1", "--T", "500", "--check", "--runs", "4"],
        ["budget", "--by", "bound", "--setting", "finite", "--max-overhead", "1", "--T", "1e4"],
        ["budget", "--by", "bound", "--setting", "finite", "--max-overhead", "1", "--T", "2000", "--check", "--runs", "4"],
        ["simulate", "--algo", "DP-IMED", "--epsilon", "1", "--T", "500", "--runs", "4"],
        ["audit", "--algo", "DP-SE", "--trials", "100"],
        ["audit", "--algo", "DP-IMED", "--trials", "100"],  # a scenario that simulates the instance (instance_audit)
        ["budget", "--by", "simulation", "--setting", "finite", "--max-regret", "1e6", "--T", "300", "--algo",
         "DP-KLUCB", "--runs", "4", "--max-runs", "4"],
    ],
    "linear": [
        ["regret", "--setting", "linear", "--rho", "1", "--T", "1e4"],
        ["regret", "--setting", "linear", "--rho", "1", "--T", "2000", "--check", "--runs", "4"],
        ["budget", "--by", "bound", "--setting", "linear", "--max-overhead", "0.5", "--T", "1e4"],
        ["budget", "--by", "bound", "--setting", "linear", "--max-overhead", "0.5", "--T", "2000", "--check", "--runs", "4"],
        ["simulate", "--algo", "AdaC-GOPE", "--rho", "1", "--T", "500", "--runs", "4"],
        ["audit", "--algo", "AdaC-GOPE", "--rho", "1", "--trials", "100"],
        ["budget", "--by", "simulation", "--setting", "linear", "--max-regret", "1e6", "--T", "300", "--algo",
         "AdaC-GOPE", "--runs", "4", "--max-runs", "4"],
    ],
}


def _run(args, code=0):
    r = runner.invoke(app, [*args, "--json"])
    assert r.exit_code == code, (args, r.output, r.stderr)
    return json.loads(r.stdout) if code == 0 else r


def _instances_in_every_json(setting, path):
    return [_run([*c, "--instance", str(path)])["instance"] for c in COMMANDS[setting]]


@pytest.mark.parametrize("setting,ext", [("finite", ".json"), ("linear", ".toml")])
def test_one_instance_file_through_every_command(setting, ext, tmp_path):
    if setting == "finite":
        inst = Instance("finite", name="user arms", means=(0.8, 0.7, 0.45, 0.3))
    else:
        rng = np.random.default_rng(5)
        A = rng.standard_normal((7, 4))
        A /= np.linalg.norm(A, axis=1, keepdims=True)
        inst = Instance("linear", name="user actions", actions=A.tolist(), theta=[0.3, -0.2, 0.5, 0.1])
    path = tmp_path / f"inst{ext}"
    save_instance(inst, str(path))
    got = _instances_in_every_json(setting, path)
    want = load_instance(str(path)).to_dict()
    assert all(g == want for g in got), [g for g in got if g != want]
    assert Instance.from_dict(got[0]) == inst
    # the table titles name it too (no "(modified)" default name)
    r = runner.invoke(app, [*COMMANDS[setting][0], "--instance", str(path)])
    assert r.exit_code == 0 and inst.name in r.stdout and "(modified)" not in r.stdout
    # --save-instance from any command writes the instance that command used; it reads back identically
    out = tmp_path / "again.json"
    d = _run([*COMMANDS[setting][4], "--instance", str(path), "--save-instance", str(out)])
    assert load_instance(str(out)) == inst and d["saved_instance"] == str(out)


def test_a_dropped_instance_reaches_no_json(tmp_path, monkeypatch):
    """Mutant: a command that forgets the instance (resolves it, then runs its default) is caught by the check of
    the test above. The commands run one by one until one reports another instance (the check fails at the first;
    running the other eight, budget searches and audits among them, cost ~4 s and decided nothing more)."""
    inst = Instance("finite", means=(0.8, 0.7, 0.45, 0.3))
    path = tmp_path / "i.json"
    save_instance(inst, str(path))
    from boundcalc.cli import instance_options

    real = instance_options.resolve
    monkeypatch.setattr(instance_options, "resolve", lambda setting, **kw: real(setting, **{**kw, "instance_file": None}))
    want = load_instance(str(path)).to_dict()
    got = (_run([*c, "--instance", str(path)])["instance"] for c in COMMANDS["finite"])  # lazily: up to the first miss
    assert any(g != want for g in got)


def _independent_linear(K, d, seed):
    """The K x d recipe drawn here: actions then theta*, uniform on the unit sphere (seed 003 Sec. VII / App. H)."""
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((K, d))
    A /= np.linalg.norm(A, axis=1, keepdims=True)
    th = rng.standard_normal(d)
    return A, th / np.linalg.norm(th)


def _simulated_env_is(args, env, algo_budget):
    """The CLI simulation with instance options equals a direct run of the same algorithm on ``env`` built here."""
    from boundcalc import algorithms as registry
    from boundcalc.montecarlo import log_checkpoints, run

    out = _run(["simulate", *algo_budget[0], "--T", "300", "--runs", "6", *args])
    alg = registry.build(algo_budget[1], algo_budget[2], {})
    res = run(alg, env, 300, 6, seed=0, checkpoints=log_checkpoints(300, 12), block_runs=50)
    want = {k: v for k, v in env.describe().items() if k != "name"}
    got = {k: out["environment"].get(k) for k in want}
    same_env = all(np.allclose(got[k], v) if isinstance(v, (list, float)) else got[k] == v for k, v in want.items())
    return bool(same_env and np.allclose(out["regret_mean"], res.mean()[-1])
                and len(out["pulls_mean"]) == np.size(res.pulls_mean()) and np.allclose(out["pulls_mean"],
                                                                                        res.pulls_mean()))


def test_each_instance_option_reaches_the_simulated_env(monkeypatch):
    from boundcalc.envs.base import BernoulliEnv
    from boundcalc.envs.linear import LinearEnv
    from boundcalc.privacy import PureDP, ZCDP

    fin = (["--algo", "DP-IMED", "--epsilon", "1"], "DP-IMED", PureDP(1.0))
    lin = (["--algo", "AdaC-GOPE", "--rho", "1"], "AdaC-GOPE", ZCDP(1.0))
    A, th = _independent_linear(50, 5, 4)
    cases = [
        (["--means", "0.9,0.6,0.55"], BernoulliEnv([0.9, 0.6, 0.55]), fin),
        (["--K", "4", "--gaps", "0.3"], BernoulliEnv([0.65, 0.35, 0.35, 0.35]), fin),
        (["--gaps", "0.1,0.2", "--best-mean", "0.7"], BernoulliEnv([0.7, 0.6, 0.5]), fin),
        (["--K", "50", "--d", "5", "--env-seed", "4"], LinearEnv(A, th, noise="rademacher"), lin),
        (["--K", "50", "--d", "5", "--env-seed", "4", "--noise", "gaussian"], LinearEnv(A, th, noise="gaussian"), lin),
        (["--K", "50", "--d", "5", "--env-seed", "4", "--theta", "0.1,0.2,0.3,0.4,0.1"],
         LinearEnv(A, [0.1, 0.2, 0.3, 0.4, 0.1], noise="rademacher"), lin),
    ]
    for args, env, ab in cases:
        assert _simulated_env_is(args, env, ab), args
    # mutants: an option dropped on its way to the environment -> the comparison fails
    from boundcalc.cli import problem as problem_mod

    real = problem_mod.instance_from_options
    for drop, (args, env, ab) in (("d", cases[3]), ("means", cases[0]), ("env_seed", cases[3]), ("noise", cases[4]),
                                  ("best_mean", cases[2])):
        monkeypatch.setattr(problem_mod, "instance_from_options", lambda s, _d=drop, **kw: real(s, **{**kw, _d: None}))
        assert not _simulated_env_is(args, env, ab), drop
        monkeypatch.setattr(problem_mod, "instance_from_options", real)


def test_contextual_and_glm_options_reach_the_env():
    out = _run(["simulate", "--algo", "AdaC-OFUL", "--rho", "1", "--T", "50", "--runs", "2", "--K", "7", "--d", "4"])
    inst = Instance.from_dict(out["instance"])
    assert (inst.K, inst.d) == (7, 4) and inst.contexts == "gaussian" and inst.project
    assert (out["environment"]["K"], out["environment"]["d"]) == (7, 4)  # the environment simulated
    assert out["inputs"]["env"] == inst.label
    out = _run(["simulate", "--algo", "LDP-OLS", "--ldp-epsilon", "1", "--ldp-delta", "0.01", "--T", "50", "--runs",
                "2", "--K", "6", "--d", "3"])
    inst = Instance.from_dict(out["instance"])
    assert (inst.K, inst.d, inst.noise) == (6, 3, "uniform")
    assert math.isclose(np.linalg.norm(inst.theta), 1 - math.sqrt(3) * 0.1)  # |r| <= 1 (seed 002 §2)


def test_regret_and_simulate_agree_on_the_instance_of_the_same_options():
    for args in (["--K", "50", "--d", "5"], ["--K", "20", "--d", "3", "--env-seed", "8"]):
        r = _run(["regret", "--setting", "linear", "--rho", "1", "--T", "1e4", *args])
        s = _run(["simulate", "--algo", "AdaC-GOPE", "--rho", "1", "--T", "100", "--runs", "2", *args])
        a, b = Instance.from_dict(r["instance"]), Instance.from_dict(s["instance"])
        assert a == b and a.name == b.name and (a.n_arms, a.d) == (int(args[1]), int(args[3]))
        assert "K = 10" not in r["inputs"]["instance"] and "modified" not in r["inputs"]["instance"]


def test_schema_errors_exit_2_with_one_line(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"schema": "boundcalc.instance/9", "setting": "finite", "means": [0.5, 0.4]}))
    wrong = tmp_path / "wrong.toml"
    wrong.write_text('schema = "boundcalc.instance/1"\nsetting = "finite"\nmeans = [0.5, 0.4]\ntheta = [1.0]\n')
    for f in (bad, wrong):
        for c in COMMANDS["finite"]:
            r = _run([*c, "--instance", str(f)], code=2)
            assert r.stderr.count("\n") == 1 and f.name in r.stderr and "Traceback" not in r.stderr, r.stderr
    # conflicts and misuse: one line too
    good = tmp_path / "good.json"
    save_instance(Instance("finite", means=(0.6, 0.5)), str(good))
    for args in (["regret", "--setting", "finite", "--epsilon", "1", "--instance", str(good), "--means", "0.5,0.4"],
                 ["regret", "--setting", "linear", "--rho", "1", "--instance", str(good)],
                 ["simulate", "--algo", "AdaC-GOPE", "--rho", "1", "--instance", str(good)],
                 ["regret", "--setting", "finite", "--epsilon", "1", "--prior", "uniform-gaps", "--instances", "0"],
                 ["budget", "--setting", "finite", "--max-overhead", "1", "--prior", "uniform-gaps",
                  "--prior-quantile", "1.5"],
                 ["regret", "--setting", "finite", "--epsilon", "1", "--prior", "sphere"],
                 ["regret", "--setting", "finite", "--epsilon", "1", "--instances", "5"],
                 ["simulate", "--algo", "UCB", "--prior", "uniform-gaps"],
                 ["audit", "--algo", "DP-SE", "--prior", "uniform-gaps"],
                 ["regret", "--setting", "finite", "--epsilon", "1", "--save-instance", str(tmp_path / "x.yaml")]):
        r = _run(args, code=2)
        assert r.stderr.count("\n") == 1 and r.stderr.startswith("boundcalc: error:"), (args, r.stderr)


def _prior_summary_ok(out, per_instance_values, q) -> bool:
    xs = np.array(per_instance_values, dtype=float)
    s = out["prior_summary"]
    return bool(math.isclose(out["value"], xs.max()) and math.isclose(s["at_quantile"], np.quantile(xs, q)))


def test_prior_answers_are_the_worst_and_quantile_of_the_instances(tmp_path, monkeypatch):
    """Each drawn instance, saved and run on its own with --instance, gives the per-instance answer; the reported
    worst is their maximum and the quantile numpy's."""
    pr = make_prior("uniform-gaps", "finite", K=4)
    draws = pr.sample(4, seed=3)
    base_r = ["regret", "--setting", "finite", "--epsilon", "1", "--T", "1e5"]
    base_b = ["budget", "--by", "bound", "--setting", "finite", "--max-overhead", "1", "--T", "1e5"]
    prior_opts = ["--prior", "uniform-gaps", "--K", "4", "--instances", "4", "--prior-seed", "3", "--prior-quantile",
                  "0.75"]
    for base in (base_r, base_b):
        out = _run([*base, *prior_opts])
        assert [Instance.from_dict(x) for x in out["instances"]] == draws
        singles = []
        for i, inst in enumerate(draws):
            p = tmp_path / f"d{i}.json"
            save_instance(inst, str(p))
            singles.append(_run([*base, "--instance", str(p)])["value"])
        assert [r["value"] for r in out["per_instance"]] == singles
        assert _prior_summary_ok(out, singles, 0.75)
        # mutant: the best instance reported as the worst -> rejected
        bad = dict(out, value=min(singles))
        assert not _prior_summary_ok(bad, singles, 0.75)


def test_budget_solve_takes_an_instance(monkeypatch):
    """budget.solve(..., instance=inst, by="bound") answers on the instance: the same as its bound-registry overrides written by
    hand (means for finite arms), not the default instance; a solve that drops it is caught."""
    from boundcalc.budget import Target, solve

    inst = Instance("finite", name="mine", means=(0.9, 0.85, 0.2))
    tgt = Target("overhead", 1.0)
    p = solve("finite", 1e5, tgt, "epsilon", instance=inst, by="bound")  # an instance alone: by="simulation"
    by_hand = solve("finite", 1e5, tgt, "epsilon", overrides={"means": [0.9, 0.85, 0.2]})
    default = solve("finite", 1e5, tgt, "epsilon")

    def answers_on_instance(plan) -> bool:
        return plan.value == by_hand.value and plan.value != default.value and plan.instance == "mine"

    assert answers_on_instance(p)
    assert not answers_on_instance(default)  # the mutant "instance dropped" gives the default instance's answer
    with pytest.raises(InputError):
        solve("linear", 1e5, tgt, "rho", instance=inst, by="bound")
