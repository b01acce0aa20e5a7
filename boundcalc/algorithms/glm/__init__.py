"""GLM bandits with local DP (seed 002): greedy LDP-OLS and LDP-SGD (single parameter, Algorithm 1) and their
multi-parameter versions (Algorithm 2: warm-up, elimination, greedy steps, synthetic updates); the baselines of its
experiments, LDP-UCB and LDP-GLOC (Zheng et al. NeurIPS 2020, reconstructed: see baselines.py)."""

from .baselines import LDPGLOC, LDPUCB
from .ldp import LDPOLS, LDPSGD, l2_ball_mechanism, l2_ball_radius
from .multi import LDPOLSMulti, LDPSGDMulti

ALGORITHMS = {cls.name: cls for cls in (LDPOLS, LDPSGD, LDPOLSMulti, LDPSGDMulti, LDPUCB, LDPGLOC)}

__all__ = ["LDPOLS", "LDPSGD", "LDPOLSMulti", "LDPSGDMulti", "LDPUCB", "LDPGLOC", "l2_ball_mechanism", "l2_ball_radius",
           "ALGORITHMS"]
