"""Episode, batch and phase schedules of the phased private bandit algorithms (pure functions).

Which algorithm has which schedule is on its card (``episode_schedule``, boundcalc.algorithms.base.Algorithm);
``boundcalc.algorithms.episodes.build(name, T, **params)`` finds it by name.
"""

from __future__ import annotations

from .base import Schedule, truncate
from .finite import adac_ucb, adap_klucb, adar_ucb, dp_klucb, dp_se, geometric_batches, per_arm_doubling
from .linear import (adac_gope, adac_oful, adar_gope, adar_oful, c_ell_rdp, c_ell_zcdp, det_doubling_ends,
                     simulate_det_switches)

__all__ = [
    "Schedule", "truncate", "adac_gope", "adar_gope", "dp_klucb",
    "adap_klucb", "dp_se", "adac_ucb", "adar_ucb", "adac_oful", "adar_oful", "c_ell_zcdp", "c_ell_rdp",
    "geometric_batches", "per_arm_doubling", "det_doubling_ends", "simulate_det_switches",
]
