"""Linear bandits with a fixed finite action set: phased elimination with G-optimal design."""

from .gope import GOPE, AdaCGOPE, AdaRGOPE, AdaRGOPEVar, GOPELimit

ALGORITHMS = {cls.name: cls for cls in (GOPE, GOPELimit, AdaCGOPE, AdaRGOPE, AdaRGOPEVar)}

__all__ = ["GOPE", "GOPELimit", "AdaCGOPE", "AdaRGOPE", "AdaRGOPEVar", "ALGORITHMS"]
