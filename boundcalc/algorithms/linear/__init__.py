"""Linear bandits with a fixed finite action set: phased elimination with G-optimal design."""

from .gope import GOPE, AdaCGOPE, AdaRGOPE, GOPELimit

ALGORITHMS = {cls.name: cls for cls in (GOPE, GOPELimit, AdaCGOPE, AdaRGOPE)}

__all__ = ["GOPE", "GOPELimit", "AdaCGOPE", "AdaRGOPE", "ALGORITHMS"]
