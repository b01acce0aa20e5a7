"""Further contextual bounds (issue 16): seed 004 Corollary 1, LinUCB-DGS with perturbed contexts.

Written once as a sympy expression (bounds/base.py derives the numpy and mpmath evaluations by lambdify); the
assumptions are relations over the context's parameters (``requires``). Declared as data (issue 23 item 4): the
contextual ``[[bound]]`` table of boundcalc/bounds/extra.toml (statement and source in the comment above it), read as a
:class:`ContextualExtraBound` whose σ is the instance's perturb_sigma (the named hook "sigma_z_is_perturb_sigma" of
:data:`VALUES`). Registered in bounds/registry.py.
"""

from __future__ import annotations

from .baselines import _ContextualValues
from .declared import TableBound, builtin_table


class ContextualExtraBound(TableBound, _ContextualValues):
    """A contextual row of extra.toml (declared.TableBound): scalar context parameters (floats) and the budget's
    (ε, δ) as symbol values (baselines._ContextualValues), plus those of the row's named hook of :data:`VALUES`."""

    table_setting = "contextual"

    def allowed_symbols(self) -> tuple:
        from .symbols import BUDGET_OF_NOTION, CONTEXTUAL

        return ("T",) + tuple(CONTEXTUAL) + BUDGET_OF_NOTION[self.notion]


def _sigma_z_is_perturb_sigma(bound, ctx, budget) -> dict:
    """seed 004 Cor. 1's σ: the instance's ``perturb_sigma`` (the LinUCB-DGS option of the same name), NaN when the
    instance has none (its ``requires`` perturb_sigma > 0 then fails)."""
    sig = ctx.get("perturb_sigma")
    return {"sigma_z": float("nan") if sig is None else float(sig)}


# the Python piece extra.toml's contextual rows name: symbol values computed by code
VALUES = {"sigma_z_is_perturb_sigma": _sigma_z_is_perturb_sigma}
ContextualExtraBound.VALUES = VALUES

BOUNDS = [ContextualExtraBound(**row) for row in builtin_table("extra.toml") if row["setting"] == "contextual"]
