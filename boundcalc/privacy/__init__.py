"""Privacy budgets (typed), conversions between notions, and mechanism noise scales."""

from .budgets import ApproxDP, Budget, LocalDP, PureDP, RDP, ZCDP

__all__ = ["Budget", "PureDP", "ZCDP", "RDP", "ApproxDP", "LocalDP"]
