"""λ0 = λ_min(E[x xᵀ]) of projected Gaussian contexts (envs.contextual.projected_gaussian_moments) against Monte
Carlo and against the unprojected closed form (the default contextual instance of the bounds uses it)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from boundcalc.envs.contextual import ContextualLinearEnv, projected_gaussian_moments


@pytest.mark.parametrize("d,mean_norm,scale", [(1, 1.0, math.sqrt(0.1)), (2, 1.0, math.sqrt(0.1)),
                                               (3, 1.0, math.sqrt(0.1)), (5, 0.5, 1.0), (10, 1.0, math.sqrt(0.1))])
def test_moments_against_monte_carlo(d, mean_norm, scale):
    rng = np.random.default_rng(d)
    n = 400_000
    u = np.zeros(d)
    u[0] = 1.0
    y = mean_norm * u + scale * rng.standard_normal((n, d))
    x = y / np.maximum(1.0, np.linalg.norm(y, axis=1, keepdims=True))
    along_mc = np.mean(x[:, 0] ** 2)
    a, b = projected_gaussian_moments(mean_norm, scale, d)
    se = np.std(x[:, 0] ** 2) / math.sqrt(n)
    assert abs(a - along_mc) < 5 * se
    if d > 1:
        perp = x[:, 1:] ** 2
        across_mc = perp.mean()
        se = perp.mean(axis=1).std() / math.sqrt(n) * math.sqrt(d - 1)  # conservative
        assert abs(b - across_mc) < 5 * se


def test_moments_without_projection_effect_are_the_closed_form():
    """Tiny scale and mean norm 0.5: no vector leaves the unit ball, so E xxᵀ = m mᵀ + s² I exactly."""
    a, b = projected_gaussian_moments(0.5, 0.01, 3)
    assert a == pytest.approx(0.25 + 1e-4, rel=1e-9) and b == pytest.approx(1e-4, rel=1e-9)


def test_env_lambda0_is_exact_for_the_bounded_seed_003_instance():
    d = 3
    env = ContextualLinearEnv(np.ones(d) / math.sqrt(d), 10, contexts="gaussian", mean=np.full(d, 1 / math.sqrt(d)),
                              scale=math.sqrt(0.1), project=True, noise="rademacher")
    x = env.contexts(np.random.default_rng(5), (40_000,)).reshape(-1, d)
    mc = np.linalg.eigvalsh(x.T @ x / x.shape[0])[0]
    assert env.lambda0 == pytest.approx(mc, rel=0.01)
    assert env.lambda0 < 0.1 - 0.02  # projection lowers it from the unprojected 0.1 (the bounds' old default)
    assert env.max_context_norm == 1.0
