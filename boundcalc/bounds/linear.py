"""Linear bandits with a fixed finite action set: AdaC-GOPE (seed 003 Thm 4, with Thm 13 / Cor. 1 / Eq. 4
in its proof), the minimax lower bound of seed 003 Thm 9, AdaR-GOPE (seed 000 Thm 8) and the non-private
GOPE baseline (the rho -> infinity limit, docs/formulas/zcdp-bandits.md section 0).

Sources: docs/formulas/zcdp-bandits.md (sections 3, 5.3, 9), docs/formulas/rdp-bandits.md (2.3, 3.2),
docs/errata.md items 10 and 16 and the "smaller items" (000 Thm 8 main text vs appendix).
``log`` is natural everywhere.

Declared as data (issue 23 item 4): every bound is a ``[[bound]]`` table of boundcalc/bounds/linear.toml
(LinearBound, declared.TableBound); the Python pieces the tables name are :data:`CHECKS` (seed 003 Thm 9's
"rho <= 1 or T >= 3") and :data:`EXPRESSIONS` (000-thm8-explicit, the registered quantity R_phases).
"""

from __future__ import annotations

import math
from functools import cached_property

import numpy as np

from .. import validate as v
from ..errors import InputError, flag
from ._linear_common import BaseBound, syms
from .declared import TableBound, builtin_table
from .quantities_linear import r_phases_float, sympy_function

DEFAULT_INSTANCE = {
    "name": "seed 003 Sec. VII linear experiment (AdaC-GOPE vs GOPE): K = 10 actions uniform on the unit "
    "sphere of R^3, theta* uniform on the unit sphere, delta = 1e-3, N(0,1) reward noise (recipe seed 3)",
    "d": 3,
    "K": 10,
    "action_distribution": "unit-sphere",  # recipe: K i.i.d. points uniform on S^{d-1}
    "action_seed": 3,  # numpy default_rng seed of the recipe (actions first, then theta)
    "actions": None,  # or an explicit K x d array
    "theta": None,  # or an explicit length-d vector
    "delta": 1e-3,  # confidence of the high-probability statements
}

# What a machine can do: the K x d action matrix (and the G-optimal design over it in --check) must fit in memory.
LIMITS = {"K": 10**6, "d": 1000, "Kd": 10**7}
# The parameters of `regret` (its options: cli/flags.py FLAGS) that set an instance parameter of this setting -> that
# parameter (the others are noted as without effect)
OPTION_KEYS = {"K": "K", "d": "d", "actions": "actions", "theta": "theta", "confidence": "delta"}
ALIASES: dict = {}
KEY_FEEDS = {"actions": ("K", "d"), "theta": ()}
KEY_USES = {"theta": f"it sets theta* (gaps, assumption checks, the trivial bound T·max gap and {flag('check')})",
            "actions": f"it sets the actions (gaps, assumption checks, the trivial bound and {flag('check')})",
            "action_seed": f"it draws the actions and theta* (gaps, the trivial bound and {flag('check')})"}


def _norm(x) -> float:
    """Euclidean norm without overflow for huge entries (scaled by the largest |x_i|); inf only if it is inf."""
    x = np.asarray(x, dtype=float)
    m = float(np.max(np.abs(x))) if x.size else 0.0
    if m == 0 or not math.isfinite(m):
        return m
    return m * float(np.linalg.norm(x / m))


def _row_norms(A) -> np.ndarray:
    """Row norms without overflow (scaled by the largest |entry|)."""
    m = float(np.max(np.abs(A))) if A.size else 0.0
    if m == 0 or not math.isfinite(m):
        return np.full(A.shape[0], m)
    return m * np.linalg.norm(A / m, axis=1)


def _unit_sphere(rng, n, d):
    x = rng.standard_normal((n, d))
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def derive(params: dict) -> dict:
    """Validate the instance and add K, d, gaps, Delta_min, norms and rank (InputError on bad input)."""
    p = dict(params)
    p.pop("name", None)
    p["delta"] = v.open_unit("delta", p.get("delta", 1e-3))
    seed = int(v.count("action_seed", p.get("action_seed", 0), minimum=0))
    p["action_seed"] = seed
    rng = np.random.default_rng(seed)
    actions = p.get("actions")
    if actions is not None:
        A = np.asarray(actions, dtype=float)
        if A.ndim == 1:
            A = A.reshape(1, -1)
        if A.ndim != 2 or A.size == 0:
            raise InputError("actions", "a non-empty K x d array", actions)
        if not np.all(np.isfinite(A)):
            raise InputError("actions", "finite numbers", actions)
        if A.shape[0] > LIMITS["K"] or A.shape[1] > LIMITS["d"] or A.size > LIMITS["Kd"]:
            raise InputError("actions", f"at most {LIMITS['K']} rows, {LIMITS['d']} columns and {LIMITS['Kd']:g} "
                             "entries (what fits in memory)", A.shape)
        p["K"], p["d"] = int(A.shape[0]), int(A.shape[1])
    else:
        d = v.count("d", p.get("d", 3), minimum=1, maximum=LIMITS["d"])
        K = v.count("K", p.get("K", 10), minimum=1, maximum=LIMITS["K"])
        if K * d > LIMITS["Kd"]:
            raise InputError("K", f"an integer with K·d ≤ {LIMITS['Kd']:g} (the K×d action matrix must fit in memory; "
                             f"d = {d})", K)
        dist = p.get("action_distribution", "unit-sphere")
        if dist != "unit-sphere":
            raise InputError("action_distribution", f"'unit-sphere' (or pass {flag('actions')})", dist)
        A = _unit_sphere(rng, K, d)
        p["K"], p["d"] = K, d
    theta = p.get("theta")
    if theta is not None:
        th = np.asarray(theta, dtype=float).ravel()
        if th.size != p["d"] or not np.all(np.isfinite(th)):
            raise InputError("theta", f"a finite vector of length d = {p['d']}", theta)
    else:
        th = _unit_sphere(rng, 1, p["d"])[0]
    p["actions"] = A
    p["theta"] = th
    with np.errstate(all="ignore"):  # huge entries: checked below instead of a RuntimeWarning
        means = A @ th
        gaps = means.max() - means
        norms = _row_norms(A)
        th_norm = _norm(th)
    if not (np.all(np.isfinite(gaps)) and np.all(np.isfinite(norms)) and math.isfinite(th_norm)):
        raise InputError("theta" if theta is not None else "actions",
                         "values small enough that the mean rewards <a, theta*> and the norms are finite in floating point",
                         "overflow")
    p["means"] = means
    p["gaps"] = gaps
    pos = p["gaps"][p["gaps"] > 1e-12]
    p["Delta_min"] = float(pos.min()) if pos.size else 0.0
    p["max_action_norm"] = float(norms.max())
    p["theta_norm"] = th_norm
    p["rank"] = int(np.linalg.matrix_rank(A))
    return p


# ------------------------------------------------------------------------------------------------
_ASSUMPTION_1 = "Assumption 1 (seed 003 Sec. V-A): ||a||_2 <= 1, |r_t| <= 1, ||theta*||_2 <= 1"


# Assumption 1 of seed 003 Sec. V-A on the instance (norms with a 1e-9 floating-point tolerance) and the spanning
# actions the G-optimal design needs (seed 003 Thm 2), as relations over the instance's scalars
_ASSUMPTION_1_REQUIRES = ("max_action_norm <= 1.000000001", "theta_norm <= 1.000000001", "rank >= d")
_ASSUMPTION_1_NOTES = {
    "max_action_norm <= 1.000000001": "Assumption 1 (seed 003 Sec. V-A), ||a|| <= 1",
    "theta_norm <= 1.000000001": "Assumption 1 (seed 003 Sec. V-A), ||theta*|| <= 1",
    "rank >= d": "the actions must span R^d (G-optimal design, seed 003 Thm 2)",
}


class _UpperLinear(BaseBound):
    setting = "linear"
    seed = "003"
    notion = "zcdp"
    kind = "upper-minimax"
    algorithm = "AdaC-GOPE"
    params = ("d", "K")
    assumptions = (_ASSUMPTION_1, "1-sub-Gaussian reward noise", "actions span R^d")
    requires = _ASSUMPTION_1_REQUIRES
    requires_notes = _ASSUMPTION_1_NOTES


# -- AdaC-GOPE (seed 003 Thm 4), its non-private limit GOPE and AdaR-GOPE (seed 000 Thm 8): data ----------------
class LinearBound(TableBound, _UpperLinear):
    """A linear bound declared as data: one ``[[bound]]`` table of boundcalc/bounds/linear.toml (metadata, ``requires``,
    the expression texts; declared.TableBound), with _UpperLinear's readings of Assumption 1 and BaseBound's values of
    the symbols. Each table cites its source (seed 003 Thm 4 / seed 000 Thm 8 and the proof steps it uses)."""

    table_setting = "linear"

    def allowed_symbols(self) -> tuple:
        from .symbols import BUDGET_OF_NOTION, LINEAR

        return ("T",) + tuple(LINEAR) + BUDGET_OF_NOTION[self.notion]

    @cached_property
    def symbol_names(self) -> tuple[str, ...]:
        """The expression's symbols besides T (what BaseBound.symbol_values fills), from the expression itself."""
        from .base import lambdified

        return tuple(n for n in lambdified(self, "numpy")[1] if n != "T")

    def threshold_rho(self, T):
        """rho below which the private term of a max-type bound (seed 003 Thm 9: privacy cost
        max(0, c_priv d/sqrt(rho) − c_np d sqrt(T))) is the larger: rho < const/T, const solved once from the
        expression (4 e^{-0.5} as stated, e^{-0.5} corrected; ERRATA 16)."""
        if self.combination != "max":
            raise ValueError(f"{self.id}: no regime threshold (not a max-type bound)")
        const = self.__dict__.get("_threshold_const")
        if const is None:
            import sympy

            npart, cost = self.expression()
            T_, rho = syms("T", "rho")
            private = next(a for a in cost.args if a != 0) + npart  # Max(0, private − npart)
            const = self.__dict__["_threshold_const"] = float(sympy.solve(sympy.Eq(private, npart), rho)[0] * T_)
        return const / np.asarray(T, dtype=float)


def _thm9_rho_le_1_or_T_ge_3(bound, ctx) -> list[str]:
    """seed 003 Thm 9 (and its correction): the proof needs rho <= 1; for rho > 1 the max is still the non-private
    term when T >= 3. Kept as code: "rho <= 1 or T >= 3", with T checked only where the context names one, is a
    disjunction over an optional parameter, not one relation of ``requires``."""
    b = bound.own_budget(ctx)
    T = ctx.get("T")
    if b is not None and bound.rho_of(b) > 1 and T is not None and float(T) < 3:
        return ["the proof needs rho <= 1; for rho > 1 the max is the non-private term only when T >= 3"]
    return []


def _thm8_phases_expression():
    """seed 000 Thm 8, explicit proof-level bound (docs/formulas/rdp-bandits.md §3.2; App. C.3 Steps 3-5, Eq. 8):
    (R_phases(T, d, K, 0), R_phases(T, d, K, alpha/epsilon) − R_phases(T, d, K, 0)), R_phases the registered
    quantity (numpy, mpmath; the prover's enclosure) of a function of four arguments the bound language cannot call."""
    T, d, K, al, ep = syms("T", "d", "K", "alpha", "epsilon")
    R = sympy_function("R_phases")
    return R(T, d, K, 0), R(T, d, K, al / ep) - R(T, d, K, 0)


# the Python pieces linear.toml may name: a condition that is no relation, an expression of a registered quantity
CHECKS = {"thm9_rho_le_1_or_T_ge_3": _thm9_rho_le_1_or_T_ge_3}
EXPRESSIONS = {"thm8_phases": _thm8_phases_expression}
LinearBound.CHECKS, LinearBound.EXPRESSIONS = CHECKS, EXPRESSIONS

_ROWS = {row["id"]: LinearBound(**row) for row in builtin_table("linear.toml")}


_phase_min_reference = r_phases_float  # the scalar form (tests/intervals/test_proofs_enclosures.py uses this name)


BOUNDS = [
    _ROWS["003-thm4-paper"],
    _ROWS["003-thm4-paper-hp"],
    _ROWS["003-thm4-explicit"],
    _ROWS["003-thm4-explicit-hp"],
    _ROWS["003-thm9"],
    _ROWS["003-thm9-corrected"],
    _ROWS["000-thm8-paper"],
    _ROWS["000-thm8-paper-main"],
    _ROWS["000-thm8-explicit"],
    _ROWS["000-thm8-explicit-closed"],
    _ROWS["003-gope-explicit"],
    _ROWS["003-gope-paper"],
]
assert len(BOUNDS) == len(_ROWS), "every row of linear.toml is registered"
