"""boundcalc: compute, explain and verify regret bounds of differentially private bandits.

Kept import-light on purpose: ``import boundcalc`` must not pull numpy/scipy/sympy so the CLI starts fast.
"""

__version__ = "0.1.0"
SCHEMA_VERSION = 1
