"""Finite-armed algorithms (episode-level simulation + step-by-step references) and their registry.

``ALGORITHMS`` maps the display name to the class, each registered by the module that defines it (imported on first
lookup: ``boundcalc.algorithms.Registered``); ``make(name, **options)`` builds one from CLI-style options
(``epsilon``, ``rho``, ``alpha``/``rdp_epsilon`` and algorithm parameters). The classes are attributes of the
package, imported on first access.
"""

from __future__ import annotations

from ...errors import InputError, flag
from .. import Registered, lazy_exports

# one line per algorithm: display name -> module.Class (the order is the order of every listing)
ALGORITHMS = Registered(__name__, {
    "UCB": "nonprivate.UCB",
    "KL-UCB": "nonprivate.KLUCB",
    "IMED": "nonprivate.IMED",
    "DP-SE": "dp_se.DPSE",
    "AdaP-UCB": "doubling.AdaPUCB",
    "AdaP-KLUCB": "doubling.AdaPKLUCB",
    "Lazy-DP-TS": "lazy_dp_ts.LazyDPTS",
    "DP-KLUCB": "dp_batched.DPKLUCB",
    "DP-IMED": "dp_batched.DPIMED",
    "AdaC-UCB": "doubling.AdaCUCB",
    "AdaR-UCB": "doubling.AdaRUCB",
})

__getattr__ = lazy_exports(__name__, ALGORITHMS, {"FiniteAlgorithm": "_common", "batch_size": "dp_batched"})


def lookup(name: str):
    """Case-insensitive lookup ignoring '-' and '_' (``dp-imed``, ``DPIMED`` and ``DP-IMED`` all work)."""
    key = name.replace("-", "").replace("_", "").lower()
    for n in ALGORITHMS:
        if n.replace("-", "").lower() == key:
            return ALGORITHMS[n]
    raise InputError(flag("algo"), "one of " + ", ".join(ALGORITHMS), name)


def make(name: str, **options):
    return lookup(name).from_options(**options)


__all__ = ["ALGORITHMS", "lookup", "make", "FiniteAlgorithm", "UCB", "KLUCB", "IMED", "DPSE", "AdaPUCB",
           "AdaPKLUCB", "LazyDPTS", "DPKLUCB", "DPIMED", "AdaCUCB", "AdaRUCB", "batch_size"]
