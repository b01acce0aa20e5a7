"""Linear contextual bandits: rarely-switching OFUL family (seeds 000, 003) and LinUCB with DGS (seed 004).

``ALGORITHMS``: display name -> module.Class, imported on first lookup (``boundcalc.algorithms.Registered``); the
classes are attributes of the package, imported on first access."""

from .. import Registered, lazy_exports

ALGORITHMS = Registered(__name__, {
    "OFUL": "oful.OFUL",
    "RS-OFUL": "oful.RSOFUL",
    "AdaC-OFUL": "oful.AdaCOFUL",
    "AdaR-OFUL": "oful.AdaROFUL",
    "LinUCB": "linucb.LinUCB",
    "LinUCB-DGS": "linucb.LinUCBDGS",
    "Private-LinUCB": "linucb.PrivateLinUCB",
})

__getattr__ = lazy_exports(__name__, ALGORITHMS, {})

__all__ = ["OFUL", "RSOFUL", "AdaCOFUL", "AdaROFUL", "LinUCB", "LinUCBDGS", "PrivateLinUCB", "ALGORITHMS"]
