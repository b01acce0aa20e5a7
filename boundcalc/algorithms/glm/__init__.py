"""GLM bandits with local DP (seed 002): greedy LDP-OLS and LDP-SGD (single parameter, Algorithm 1) and their
multi-parameter versions (Algorithm 2: warm-up, elimination, greedy steps, synthetic updates); the baselines of its
experiments, LDP-UCB and LDP-GLOC (Zheng et al. NeurIPS 2020, reconstructed: see baselines.py).

``ALGORITHMS``: display name -> module.Class, imported on first lookup (``boundcalc.algorithms.Registered``); the
classes are attributes of the package, imported on first access."""

from .. import Registered, lazy_exports

ALGORITHMS = Registered(__name__, {
    "LDP-OLS": "ldp.LDPOLS",
    "LDP-SGD": "ldp.LDPSGD",
    "LDP-OLS (multi-parameter)": "multi.LDPOLSMulti",
    "LDP-SGD (multi-parameter)": "multi.LDPSGDMulti",
    "LDP-UCB": "baselines.LDPUCB",
    "LDP-GLOC": "baselines.LDPGLOC",
})

__getattr__ = lazy_exports(__name__, ALGORITHMS, {"l2_ball_mechanism": "ldp", "l2_ball_radius": "ldp"})

__all__ = ["LDPOLS", "LDPSGD", "LDPOLSMulti", "LDPSGDMulti", "LDPUCB", "LDPGLOC", "l2_ball_mechanism", "l2_ball_radius",
           "ALGORITHMS"]
