"""Linear contextual bandits: rarely-switching OFUL family (seeds 000, 003) and LinUCB with DGS (seed 004)."""

from .linucb import LinUCB, LinUCBDGS, PrivateLinUCB
from .oful import OFUL, RSOFUL, AdaCOFUL, AdaROFUL

ALGORITHMS = {cls.name: cls for cls in (OFUL, RSOFUL, AdaCOFUL, AdaROFUL, LinUCB, LinUCBDGS, PrivateLinUCB)}

__all__ = ["OFUL", "RSOFUL", "AdaCOFUL", "AdaROFUL", "LinUCB", "LinUCBDGS", "PrivateLinUCB", "ALGORITHMS"]
