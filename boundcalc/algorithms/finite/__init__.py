"""Finite-armed algorithms (episode-level simulation + step-by-step references) and their registry.

``ALGORITHMS`` maps the display name to the class; ``make(name, **options)`` builds one from CLI-style
options (``epsilon``, ``rho``, ``alpha``/``rdp_epsilon`` and algorithm parameters).
"""

from __future__ import annotations

from ...errors import InputError
from ._common import FiniteAlgorithm
from .doubling import AdaCUCB, AdaPKLUCB, AdaPUCB, AdaRUCB
from .dp_batched import DPIMED, DPKLUCB, batch_size
from .dp_se import DPSE
from .lazy_dp_ts import LazyDPTS
from .nonprivate import IMED, KLUCB, UCB

ALGORITHMS: dict[str, type[FiniteAlgorithm]] = {
    cls.name: cls
    for cls in (UCB, KLUCB, IMED, DPSE, AdaPUCB, AdaPKLUCB, LazyDPTS, DPKLUCB, DPIMED, AdaCUCB, AdaRUCB)
}


def lookup(name: str) -> type[FiniteAlgorithm]:
    """Case-insensitive lookup ignoring '-' and '_' (``dp-imed``, ``DPIMED`` and ``DP-IMED`` all work)."""
    key = name.replace("-", "").replace("_", "").lower()
    for n, cls in ALGORITHMS.items():
        if n.replace("-", "").lower() == key:
            return cls
    raise InputError("--algo", "one of " + ", ".join(ALGORITHMS), name)


def make(name: str, **options) -> FiniteAlgorithm:
    return lookup(name).from_options(**options)


__all__ = ["ALGORITHMS", "lookup", "make", "FiniteAlgorithm", "UCB", "KLUCB", "IMED", "DPSE", "AdaPUCB",
           "AdaPKLUCB", "LazyDPTS", "DPKLUCB", "DPIMED", "AdaCUCB", "AdaRUCB", "batch_size"]
