"""The budget planner's cost (issue 24 items 8-10) and the CLI's start-up (issue 23, item 5).

* AdaC-GOPE's G-optimal designs are cached by content (the surviving action vectors and the tolerance), per process:
  an algorithm unpickled in a worker process (``--executor processes``) with an unpickled env finds the design
  its parent computed, instead of an empty cache keyed by ``id(env)``.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from boundcalc.algorithms.design import g_value
from boundcalc.algorithms.linear import gope
from boundcalc.envs.linear import LinearEnv
from tests.test_mutants_issue17 import mutate


def _env(seed=0, K=8, d=3):
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((K, d))
    A /= np.linalg.norm(A, axis=1, keepdims=True)
    return LinearEnv(A, np.eye(d)[0], sigma=1.0, noise="gaussian")


@pytest.fixture
def counted(monkeypatch):
    """An empty design cache and a counter of the designs actually computed."""
    calls = []
    real = gope.g_optimal_design

    def spy(A, tol):
        calls.append(np.asarray(A).shape)
        return real(A, tol=tol)

    monkeypatch.setattr(gope, "g_optimal_design", spy)
    monkeypatch.setattr(gope, "_DESIGNS", {})
    return calls


def _hits_across_copies(calls) -> int:
    """Designs computed for: the original algorithm and env, then an unpickled copy of both (what a worker process
    receives with each block), then another algorithm object at another budget on an equal env built anew."""
    env, act = _env(), np.arange(8)
    alg = gope.AdaCGOPE(rho=1.0)
    d1 = alg.design(env, act)
    alg2, env2 = pickle.loads(pickle.dumps((alg, env)))
    d2 = alg2.design(env2, act)
    d3 = gope.AdaCGOPE(rho=0.01).design(_env(), act)
    # the design is right for its action set (Kiefer-Wolfowitz: g(pi*) = d = 3, checked directly)
    assert g_value(env.actions, d1.weights) <= 3 * (1 + 1e-5)
    assert np.array_equal(d1.weights, d2.weights) and np.array_equal(d1.weights, d3.weights)
    return len(calls)


def test_design_cache_hits_across_pickled_copies_and_budgets(counted):
    assert _hits_across_copies(counted) == 1


def test_design_cache_keyed_by_id_env_is_caught(counted, monkeypatch):
    """Mutant: the old key (id(env), surviving set) — every unpickled copy computes its designs again."""
    bad = mutate(gope._PhasedElimination.design, "key = design_key(sub, self.design_tol)",
                 "key = (id(env), active.tobytes())")
    monkeypatch.setattr(gope._PhasedElimination, "design", bad)
    assert _hits_across_copies(counted) > 1


def test_design_cache_tells_action_sets_and_tolerances_apart(counted):
    """Different surviving sets, different action vectors (same id-like shapes) or another tolerance: no false hit;
    each design is G-optimal for its own actions (g = rank, computed directly)."""
    a = gope.AdaCGOPE(rho=1.0)
    for seed in range(4):
        env = _env(seed)
        for act in (np.arange(8), np.array([0, 2, 3, 5, 7])):
            des = a.design(env, act)
            assert g_value(env.actions[act], des.weights) <= 3 * (1 + 1e-5)
    gope.AdaCGOPE(rho=1.0, design_tol=1e-3).design(_env(0), np.arange(8))
    assert len(counted) == 9
    with pytest.raises(ValueError):  # a shared design cannot be changed by one of its users
        a.design(_env(0), np.arange(8)).weights[0] = 0.0
