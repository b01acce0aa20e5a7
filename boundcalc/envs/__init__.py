"""Bandit instances (finite-armed Bernoulli and Gaussian; generic base for linear/contextual/GLM)."""

from .base import BernoulliEnv, Env, FiniteArmedEnv, GaussianEnv
from .instances import FAMILIES, INSTANCES, make_env

__all__ = ["Env", "FiniteArmedEnv", "BernoulliEnv", "GaussianEnv", "INSTANCES", "FAMILIES", "make_env"]
