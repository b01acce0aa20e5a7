"""Further contextual bounds (issue 16): seed 004 Corollary 1, LinUCB-DGS with perturbed contexts.

Written once as a sympy expression (bounds/base.py derives the numpy and mpmath evaluations by lambdify); the
assumptions are relations over the context's parameters (``requires``). Declared as data (issue 23 item 4): the
contextual ``[[bound]]`` table of boundcalc/bounds/extra.toml (statement and source in the comment above it), read as a
contextual.ContextualBound whose σ is the instance's perturb_sigma (the named hook "sigma_z_is_perturb_sigma" of
contextual.VALUES). Registered in bounds/registry.py.
"""

from __future__ import annotations

from .contextual import ContextualBound
from .declared import builtin_table

BOUNDS = [ContextualBound(**row) for row in builtin_table("extra.toml") if row["setting"] == "contextual"]
