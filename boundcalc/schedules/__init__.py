"""Episode, batch and phase schedules of the phased private bandit algorithms (pure functions).

``build(name, T, **params)`` dispatches on the algorithm name (case-insensitive); ``ALGORITHMS`` lists
the names with the budget each needs ("pure": ε, "zcdp": ρ, "rdp": α and ε).
"""

from __future__ import annotations

import numpy as np

from ..errors import InputError
from .base import Schedule, truncate
from .finite import adac_ucb, adap_klucb, adar_ucb, dp_klucb, dp_se, geometric_batches, per_arm_doubling
from .linear import (adac_gope, adac_oful, adar_gope, adar_oful, c_ell_rdp, c_ell_zcdp, det_doubling_ends,
                     simulate_det_switches)

ALGORITHMS = {
    "adac-gope": "zcdp",
    "adar-gope": "rdp",
    "dp-klucb": "pure",
    "dp-imed": "pure",
    "adap-klucb": "pure",
    "dp-se": "pure",
    "adac-ucb": "zcdp",
    "adar-ucb": "rdp",
    "adac-oful": "zcdp",
    "adar-oful": "rdp",
}


def normalise_name(name: str) -> str:
    key = str(name).strip().lower()
    if key not in ALGORITHMS:
        raise InputError("--algo", "one of " + ", ".join(ALGORITHMS), name)
    return key


def build(name: str, T, *, epsilon=None, rho=None, alpha=None, rdp_epsilon=None, d=10, K=10, delta=1e-3,
          n1=1, ratio=2.0, beta=None, lam=1.0, C=1.0, lam0=None) -> Schedule:
    """The schedule of algorithm ``name`` up to T. Missing budget parameters raise InputError.

    Extreme budgets (ε = 1e308, ε = 1e-320, ρ = 1e308) are computed in IEEE arithmetic on purpose: a noise scale
    1/(ε n) that overflows is +inf (infinite noise), one that underflows is 0, an epoch length R_e = inf is an
    epoch longer than any horizon; those limits are the correct values, so overflow, underflow and division by
    zero are not warned about here. An invalid operation (NaN) still is."""
    with np.errstate(over="ignore", under="ignore", divide="ignore"):
        return _build(name, T, epsilon=epsilon, rho=rho, alpha=alpha, rdp_epsilon=rdp_epsilon, d=d, K=K,
                      delta=delta, n1=n1, ratio=ratio, beta=beta, lam=lam, C=C, lam0=lam0)


def _build(name: str, T, *, epsilon=None, rho=None, alpha=None, rdp_epsilon=None, d=10, K=10, delta=1e-3,
           n1=1, ratio=2.0, beta=None, lam=1.0, C=1.0, lam0=None) -> Schedule:
    key = normalise_name(name)
    notion = ALGORITHMS[key]
    if notion == "pure" and epsilon is None:
        raise InputError("--epsilon", f"a number > 0 (required by {key})", None)
    if notion == "zcdp" and rho is None:
        raise InputError("--rho", f"a number > 0 (required by {key})", None)
    if notion == "rdp" and (alpha is None or rdp_epsilon is None):
        raise InputError("--alpha/--rdp-epsilon", f"both given, α > 1 and ε > 0 (required by {key})", None)
    if key in ("dp-klucb", "dp-imed"):
        return dp_klucb(T, epsilon, n1=n1, ratio=ratio, algo=key)
    if key == "adap-klucb":
        return adap_klucb(T, epsilon)
    if key == "dp-se":
        return dp_se(T, K, epsilon, beta)
    if key == "adac-ucb":
        return adac_ucb(T, rho)
    if key == "adar-ucb":
        return adar_ucb(T, alpha, rdp_epsilon)
    if key == "adac-gope":
        return adac_gope(T, d, K, rho, delta)
    if key == "adar-gope":
        return adar_gope(T, d, K, alpha, rdp_epsilon, delta)
    if key == "adac-oful":
        return adac_oful(T, d, rho, lam, C, lam0)
    return adar_oful(T, d, alpha, rdp_epsilon, lam, C, lam0)


__all__ = [
    "ALGORITHMS", "Schedule", "build", "normalise_name", "truncate", "adac_gope", "adar_gope", "dp_klucb",
    "adap_klucb", "dp_se", "adac_ucb", "adar_ucb", "adac_oful", "adar_oful", "c_ell_zcdp", "c_ell_rdp",
    "geometric_batches", "per_arm_doubling", "det_doubling_ends", "simulate_det_switches",
]
