"""Issue 22 §5: an audit of a plugin whose design has little power says so, and ``audit --param`` reaches a plugin's
own constructor parameters.

The plugin is a toy ε-greedy (written to a temporary file): one Laplace release per arm after its first pull, then at
step t it explores uniformly at random with probability min(1, c K / t), else plays the larger noisy mean. At the
audit's first decision (K = 2, t = 3) it explores with probability 2/3 when c = 1, so even a copy without noise moves
the event's probability by at most 1/3 between the neighbouring inputs: the ε lower bound of a noise-free copy is at
most ln((1/3 + 1/3)/(1/3)) = ln 2 < 1, the claimed ε (computed here, not by the audit) — the design cannot catch it.
With c = 0 (``--param c=0`` or ``audit_fixed``) the first decision is greedy and the noise-free copy is caught."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

from boundcalc.cli.app import app

runner = CliRunner()

PLUGIN = '''
import numpy as np
from boundcalc.algorithms.base import Algorithm, BlockResult


class ToyEpsGreedy(Algorithm):
    """A toy for the audit's power (tests/audit/test_audit_power.py), not a private algorithm beyond its first decision."""

    name = "Toy-EpsGreedy"
    source = "test toy"
    setting = "finite"
    notion = "pure"
    budget_params = ("epsilon",)
    granularity = "step"
    audit_scenario = "first-decision"
    audit_budget = {"epsilon": 1.0}
    FIXED

    def __init__(self, epsilon, c=1.0, noise_mult=1.0):
        self.epsilon, self.c, self.noise_mult = float(epsilon), float(c), float(noise_mult)

    def params(self):
        return {"c": self.c, "noise_mult": self.noise_mult}

    def simulate(self, env, T, runs, rng, checkpoints):
        K, T = int(env.K), int(T)
        gaps = np.asarray(env.gaps, dtype=float)
        cps = np.asarray(checkpoints, dtype=np.int64)
        mean = np.zeros((runs, K))
        R = np.zeros(runs)
        reg = np.zeros((runs, cps.size))
        pulls = np.zeros((runs, K), dtype=np.int64)
        rows = np.arange(runs)
        for t in range(1, T + 1):
            if t <= K:
                arm = np.full(runs, t - 1)
            else:
                explore = rng.random(runs) < min(1.0, self.c * K / t)
                arm = np.where(explore, rng.integers(0, K, runs), np.argmax(mean, axis=1))
            s = env.sum_rewards(arm, np.ones(runs, dtype=np.int64), rng)
            if t <= K:
                mean[:, t - 1] = s + rng.laplace(0.0, self.noise_mult / self.epsilon, runs)
            R += gaps[arm]
            pulls[rows, arm] += 1
            reg[:, cps == t] = R[:, None]
        return BlockResult(regret=reg, pulls=pulls, episodes=np.zeros(runs, dtype=np.int64))

    def reference(self, env, T, rng, checkpoints):
        raise NotImplementedError("a toy for the audit only")


ALGORITHMS = [ToyEpsGreedy]
'''


@pytest.fixture(autouse=True)
def _clean_plugins():
    from boundcalc.algorithms import plugins as alg_plugins
    from boundcalc.bounds import plugins as bound_plugins

    yield
    alg_plugins.reset()
    bound_plugins.reset()


def _write(tmp_path, fixed=""):
    f = tmp_path / ("toy_greedy_fixed.py" if fixed else "toy_greedy.py")
    f.write_text(PLUGIN.replace("FIXED", fixed or "pass"))
    return str(f)


def _audit(path, *extra):
    r = runner.invoke(app, ["audit", "--algorithms-file", path, "--algo", "Toy-EpsGreedy", "--trials", "2000",
                            *extra, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_audit_of_a_blind_design_says_little_power(tmp_path, monkeypatch):
    """c = 1: the audit passes, and says it has little power — its noise-free copy is not caught, as computed in the
    module docstring (ε lower bound ≤ ln 2 < 1). Mutant (no power check: the note's old text only) is rejected by
    the 'Little power' assertion; the JSON's ``power`` says what was run."""
    path = _write(tmp_path)
    out = _audit(path)
    assert out["passed"] and out["power"]["mutant"] == "no-noise" and out["power"]["caught"] is False
    assert out["power"]["epsilon_lower"] <= math.log(2) + 1e-9
    assert "Little power" in out["note"]
    text = runner.invoke(app, ["audit", "--algorithms-file", path, "--algo", "Toy-EpsGreedy", "--trials", "2000"])
    assert text.exit_code == 0 and "Little power" in text.output and "little power" in text.output
    # mutant: no power check (the audit as before): the pass comes without the warning
    from boundcalc.audit import run as audit_run

    from mutation import mutate

    monkeypatch.setattr(audit_run, "run_audit", mutate(audit_run.run_audit, 'if getattr(sc, "plugin", False) and '
                                                       'mutant == "none":', "if False:"))
    bad = _audit(path)
    assert bad["passed"] and not (bad["power"] and "Little power" in bad["note"])


def test_audit_param_reaches_the_plugin_and_gives_power(tmp_path, monkeypatch):
    """``--param c=0`` reaches the plugin's constructor (params in the JSON; before, --param was refused for every
    plugin): the first decision is greedy, the noise-free copy is caught (power) and the no-noise mutant audit
    itself reports a violation. ``audit_fixed = {"c": 0.0}`` does the same without --param. Unknown parameters and
    the budget or noise_mult through --param are refused in one line naming --param."""
    path = _write(tmp_path)
    out = _audit(path, "--param", "c=0")
    assert out["params"]["c"] == 0.0 and out["power"]["caught"] is True and "Little power" not in out["note"]
    assert not _audit(path, "--param", "c=0", "--mutant", "no-noise")["passed"]
    from boundcalc.algorithms import plugins as alg_plugins

    alg_plugins.reset()  # the same class name from another file
    fixed = _write(tmp_path, 'audit_fixed = {"c": 0.0}')
    assert _audit(fixed)["power"]["caught"] is True
    alg_plugins.reset()
    for bad in ("zz=1", "noise_mult=0", "epsilon=5"):
        r = runner.invoke(app, ["audit", "--algorithms-file", path, "--algo", "Toy-EpsGreedy", "--param", bad])
        assert r.exit_code == 2 and "--param" in r.stderr and r.stderr.strip().count("\n") == 0, (bad, r.output)
    # mutant: --param refused for every plugin (no tunable parameters, as before)
    from boundcalc.audit import scenarios

    from mutation import mutate

    monkeypatch.setattr(scenarios, "card_scenario", mutate(
        scenarios.card_scenario,
        'attrs["tunable"] = tuple(p for p in constructor_params(cls) if p not in budget_kwargs(cls) and p != "noise_mult")',
        'attrs["tunable"] = ()'))
    r = runner.invoke(app, ["audit", "--algorithms-file", path, "--algo", "Toy-EpsGreedy", "--param", "c=0"])
    assert r.exit_code == 2
    monkeypatch.undo()
    listed = {a["algorithm"]: a for a in json.loads(runner.invoke(app, ["audit", "--algorithms-file", path, "--list",
                                                                        "--json"]).stdout)["algorithms"]}
    assert listed["Toy-EpsGreedy"]["tunable_params"] == ["c"]
