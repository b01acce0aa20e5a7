"""Linear bandits with a fixed finite action set: phased elimination with G-optimal design.

``ALGORITHMS``: display name -> module.Class, imported on first lookup (``boundcalc.algorithms.Registered``); the
classes are attributes of the package, imported on first access."""

from .. import Registered, lazy_exports

ALGORITHMS = Registered(__name__, {
    "GOPE": "gope.GOPE",
    "GOPE-limit": "gope.GOPELimit",
    "AdaC-GOPE": "gope.AdaCGOPE",
    "AdaR-GOPE": "gope.AdaRGOPE",
    "AdaR-GOPE-Var": "gope.AdaRGOPEVar",
})

__getattr__ = lazy_exports(__name__, ALGORITHMS, {})

__all__ = ["GOPE", "GOPELimit", "AdaCGOPE", "AdaRGOPE", "AdaRGOPEVar", "ALGORITHMS"]
