"""Information quantities: kl, Gaussian KL, TV, KL-inf, d_eps (numpy, mpmath and sympy views)."""

from .kl import kl_bernoulli, tv_bernoulli
from .d_eps import d_epsilon

__all__ = ["kl_bernoulli", "tv_bernoulli", "d_epsilon"]
