"""Linear bandits with a fixed finite action set: phased elimination with G-optimal design."""

from .gope import GOPE, AdaCGOPE, AdaRGOPE

ALGORITHMS = {cls.name: cls for cls in (GOPE, AdaCGOPE, AdaRGOPE)}

__all__ = ["GOPE", "AdaCGOPE", "AdaRGOPE", "ALGORITHMS"]
