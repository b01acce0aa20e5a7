"""GLM bandits with local DP (seed 002): greedy LDP-OLS and LDP-SGD (single parameter, Algorithm 1) and their
multi-parameter versions (Algorithm 2: warm-up, elimination, greedy steps, synthetic updates)."""

from .ldp import LDPOLS, LDPSGD, l2_ball_mechanism, l2_ball_radius
from .multi import LDPOLSMulti, LDPSGDMulti

ALGORITHMS = {cls.name: cls for cls in (LDPOLS, LDPSGD, LDPOLSMulti, LDPSGDMulti)}

__all__ = ["LDPOLS", "LDPSGD", "LDPOLSMulti", "LDPSGDMulti", "l2_ball_mechanism", "l2_ball_radius", "ALGORITHMS"]
