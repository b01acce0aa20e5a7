"""G-optimal design: Kiefer–Wolfowitz identity g(pi*) = d (seed 003 Thm 2), support <= d(d+1)/2, bad input.

Independent checks: g is recomputed from the weights with a pseudo-inverse (not the solver's rank-one
updates); the lower bound g(pi) >= d holds for *every* design (sum_a pi_a ||a||^2_{V^-1} = tr(I) = d), so
g close to d certifies near-optimality; on an orthonormal basis the optimum is uniform (closed form).
"""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from boundcalc.algorithms.design import g_optimal_design, g_value
from boundcalc.errors import InputError


@settings(max_examples=25, deadline=None)
@given(K=st.integers(2, 60), d=st.integers(1, 6), seed=st.integers(0, 2**31 - 1))
def test_kiefer_wolfowitz_identity_random(K, d, seed):
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((K, d)) * rng.uniform(0.2, 2.0, size=(K, 1))
    r = np.linalg.matrix_rank(A)
    des = g_optimal_design(A)
    g = g_value(A, des.weights)  # independent recomputation
    assert des.rank == r
    assert r - 1e-9 <= g <= r * (1 + 1e-5)
    assert abs(g - des.g) <= 1e-8 * r
    assert des.support_size <= r * (r + 1) // 2
    assert np.all(des.weights >= 0) and abs(des.weights.sum() - 1) < 1e-12


def test_any_design_has_g_at_least_d():
    rng = np.random.default_rng(0)
    A = rng.standard_normal((30, 4))
    for _ in range(20):
        w = rng.dirichlet(np.ones(30))
        assert g_value(A, w) >= 4 - 1e-9
    assert g_optimal_design(A).g <= g_value(A, np.full(30, 1 / 30))


def test_orthonormal_basis_uniform():
    A = np.eye(5)
    des = g_optimal_design(A)
    assert np.allclose(des.weights, 0.2, atol=1e-6)
    # rotated basis plus interior points (never in the support of an optimal design: ||x||^2_{V^-1} < d)
    Q, _ = np.linalg.qr(np.random.default_rng(1).standard_normal((5, 5)))
    B = np.vstack([Q, 0.5 * Q[:2]])
    des = g_optimal_design(B)
    assert np.allclose(des.weights[:5], 0.2, atol=1e-5) and des.weights[5:].sum() < 1e-5


def test_large_action_set_support_reduction():
    rng = np.random.default_rng(2)
    A = rng.standard_normal((600, 8))
    A /= np.linalg.norm(A, axis=1, keepdims=True)
    des = g_optimal_design(A)
    assert des.support_size <= 36
    assert g_value(A, des.weights) <= 8 * (1 + 1e-5)


def test_non_spanning_actions_use_span():
    A = np.array([[1.0, 0, 0], [0, 1, 0], [1, 1, 0], [2, -1, 0]])
    des = g_optimal_design(A)
    assert des.rank == 2 and des.basis.shape == (3, 2)
    assert 2 - 1e-9 <= g_value(A, des.weights) <= 2 * (1 + 1e-5)


@pytest.mark.parametrize(
    "bad",
    [np.zeros((0, 3)), np.zeros((3, 0)), np.array([[1.0, np.nan]]), np.array([[np.inf, 1.0]]), np.zeros((3, 2))],
)
def test_bad_input(bad):
    with pytest.raises(InputError):
        g_optimal_design(bad)


def test_bad_tol():
    with pytest.raises(InputError):
        g_optimal_design(np.eye(2), tol=0)
