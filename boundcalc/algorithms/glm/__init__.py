"""GLM bandits with local DP (seed 002): greedy LDP-OLS and LDP-SGD (single parameter, Algorithm 1)."""

from .ldp import LDPOLS, LDPSGD, l2_ball_mechanism, l2_ball_radius

ALGORITHMS = {cls.name: cls for cls in (LDPOLS, LDPSGD)}

__all__ = ["LDPOLS", "LDPSGD", "l2_ball_mechanism", "l2_ball_radius", "ALGORITHMS"]
