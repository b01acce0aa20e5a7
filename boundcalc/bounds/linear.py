"""Linear bandits with a fixed finite action set: AdaC-GOPE (seed 003 Thm 4, with Thm 13 / Cor. 1 / Eq. 4
in its proof), the minimax lower bound of seed 003 Thm 9, AdaR-GOPE (seed 000 Thm 8) and the non-private
GOPE baseline (the rho -> infinity limit, docs/formulas/zcdp-bandits.md section 0).

Sources: docs/formulas/zcdp-bandits.md (sections 3, 5.3, 9), docs/formulas/rdp-bandits.md (2.3, 3.2),
docs/errata.md items 10 and 16 and the "smaller items" (000 Thm 8 main text vs appendix).
``log`` is natural everywhere.

Declared as data (issue 23 item 4): every bound whose formula is a closed form is a ``[[bound]]`` table of
boundcalc/bounds/linear.toml (LinearBound, declared.TableBound); seed 003 Thm 9 (and its correction) and
000-thm8-explicit (the registered quantity R_phases) stay classes here.
"""

from __future__ import annotations

import math
from functools import cached_property

import numpy as np

from .. import validate as v
from ..errors import InputError
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
# CLI options of `regret` that set an instance parameter of this setting (the others are noted as without effect)
OPTION_KEYS = {"--K": "K", "--d": "d", "--actions": "actions", "--theta": "theta", "--confidence": "delta"}
ALIASES: dict = {}
KEY_FEEDS = {"actions": ("K", "d"), "theta": ()}
KEY_USES = {"theta": "it sets theta* (gaps, assumption checks, the trivial bound T·max gap and --check)",
            "actions": "it sets the actions (gaps, assumption checks, the trivial bound and --check)",
            "action_seed": "it draws the actions and theta* (gaps, the trivial bound and --check)"}


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
            raise InputError("action_distribution", "'unit-sphere' (or pass --actions)", dist)
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
_COMPARABILITY = (
    "comparability: Thm 9's hard instance is the hypercube [-1,1]^d with Gaussian rewards and Theta = R^d, "
    "outside Assumption 1 and with no finite K; lower <= upper comparisons with it are heuristic "
    "(docs/formulas/zcdp-bandits.md 5.3)"
)


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


_ROWS = {row["id"]: LinearBound(**row) for row in builtin_table("linear.toml")}


# -- minimax lower bound, seed 003 Thm 9 ---------------------------------------------------------------
class Thm9(BaseBound):
    """seed 003 Thm 9: for A = [-1,1]^d, Theta = R^d and every rho-Interactive zCDP policy,
    Reg^minimax >= max{ (e^{-2}/8) d sqrt(T), c_priv d / sqrt(rho) } with c_priv = e^{-2.25}/4 (as stated).

    Split: non-private part = (e^{-2}/8) d sqrt(T); privacy cost = max(0, c_priv d/sqrt(rho) - that),
    so that the total is the max."""

    id = "003-thm9"
    title = "Linear minimax lower bound, Thm 9 (as stated, e^{-2.25}/4)"
    algorithm = None
    seed = "003"
    source = "seed 003 Thm 9 (App. G-B2)"
    setting = "linear"
    notion = "zcdp"
    kind = "lower-minimax"
    form = "exact"
    params = ("d",)
    assumptions = (
        "A = [-1,1]^d, Theta = R^d, N(0,1) reward noise (not Assumption 1, no finite K)",
        "rho-Interactive zCDP policies (the proof uses seed 003 Thm 8); rho <= 1 used in the proof",
    )
    caveats = (
        "proof gap (constant): Markov at T/2 in App. G-B2 Step 1 loses a factor 1/2; the proof supports "
        "(e^{-2.25}/8) d/sqrt(rho) and the threshold rho < e^{-0.5}/T; use 003-thm9-corrected where a valid "
        "lower bound is needed (ERRATA 16)",
        _COMPARABILITY,
    )
    threshold_const = 4 * math.exp(-0.5)
    combination = "max"  # privacy dominates iff the private term is the max (privacy cost > 0)
    regime_note = "privacy term dominates (high-privacy regime) iff rho < 4 e^{-0.5}/T ≈ 2.426/T; otherwise Omega(d sqrt T)"
    symbol_names = ("d", "rho")

    def threshold_rho(self, T):
        """rho below which the private term is the larger: rho < threshold_const / T."""
        return self.threshold_const / np.asarray(T, dtype=float)

    def conditions(self, ctx):
        # kept as code: "rho <= 1 or T >= 3", with T checked only where the context names one, is a disjunction over
        # an optional parameter, not one relation of ``requires``
        out = []
        b = self.own_budget(ctx)
        T = ctx.get("T")
        if b is not None and self.rho_of(b) > 1 and T is not None and float(T) < 3:
            out.append("the proof needs rho <= 1; for rho > 1 the max is the non-private term only when T >= 3")
        return out

    def _sym_priv_c(self):
        import sympy

        return sympy.exp(sympy.Rational(-9, 4)) / 4

    def expression(self):
        import sympy

        T, d, rho = syms("T", "d", "rho")
        np_part = sympy.exp(-2) / 8 * d * sympy.sqrt(T)
        return np_part, sympy.Max(0, self._sym_priv_c() * d / sympy.sqrt(rho) - np_part)


class Thm9Corrected(Thm9):
    """seed 003 Thm 9 with the constant its proof supports (ERRATA 16): e^{-2.25}/8."""

    id = "003-thm9-corrected"
    title = "Linear minimax lower bound, Thm 9 with the proved constant e^{-2.25}/8"
    form = "corrected"
    caveats = (
        "corrected form (ERRATA 16): private term (e^{-2.25}/8) d/sqrt(rho), as the proof supports, "
        "not the paper's printed e^{-2.25}/4; threshold rho < e^{-0.5}/T",
        _COMPARABILITY,
    )
    threshold_const = math.exp(-0.5)
    regime_note = "privacy term dominates (high-privacy regime) iff rho < e^{-0.5}/T ≈ 0.607/T; otherwise Omega(d sqrt T)"

    def _sym_priv_c(self):
        import sympy

        return sympy.exp(sympy.Rational(-9, 4)) / 8


# -- AdaR-GOPE, seed 000 Thm 8 ---------------------------------------------------------------------------
class _AdaR(_UpperLinear):
    seed = "000"
    notion = "rdp"
    algorithm = "AdaR-GOPE"
    symbol_names = ("d", "K", "delta", "alpha", "epsilon")


class AdaRGOPEExplicit(_AdaR):
    """seed 000 Thm 8, explicit proof-level bound of docs/formulas/rdp-bandits.md §3.2 (minimum over the phase m after which the
    arms with gap > 2^{2-m} are gone), w.p. >= 1 - delta with delta = 1/T (so E[R_T] <= this + 2):
    R_T <= min{ sum_{l<=l(T)} 2^{3-l} Tb_l, min_m [T 2^{2-m} + sum_{l<=min(m,l(T))} 2^{3-l} Tb_l], 2T }.
    Non-private part: the same with alpha/eps -> 0 (the sheet's "without the privacy term" column)."""

    id = "000-thm8-explicit"
    title = "AdaR-GOPE regret, explicit minimum over phases (w.p. >= 1 - 1/T)"
    source = "seed 000 Thm 8 (proof App. C.3 Steps 3-5, Eq. 8)"
    form = "explicit"
    params = ("d", "K")
    caveats = (
        "DERIVED: docs/formulas/rdp-bandits.md §3.2 from App. C.3 Steps 3-5: phase l costs <= 8 beta_l T_l, arms with "
        "gap > 2^{2-m} are gone after phase m; l(T) = min{L : sum_{l<=L} 8 d L_l 4^l >= T}; delta = 1/T",
        "high-probability bound on R_T (probability >= 1 - 1/T); E[R_T] <= value + 2 (per-step regret <= 2)",
    )
    regime_note = ("privacy cost = the rise of the phase minimum when the 2 d 2^l sqrt(2 (alpha/eps) d (d+1) L_l) "
                   "term enters the phase lengths; O(d^2 log^{3/2} T) against sqrt(d T log T)")
    formula_note = ("R_phases(T, d, K, r) = min{ Σ_{l≤l(T)} 2^{3−l} T̄_l,  min_{m≥1} [T 2^{2−m} + Σ_{l≤min(m,l(T))} "
                    "2^{3−l} T̄_l],  2T },  T̄_l = min{T, d(d+1)/2 + 8d 4^l L_l + 2d 2^l √(2 r d(d+1) L_l)},  "
                    "L_l = log(4Kl(l+1)T),  l(T) = min{L : Σ_{l≤L} 8d L_l 4^l ≥ T},  r = α/ε "
                    "(non-private part: r = 0)")
    symbol_names = ("d", "K", "alpha", "epsilon")

    def expression(self):
        T, d, K, al, ep = syms("T", "d", "K", "alpha", "epsilon")
        R = sympy_function("R_phases")  # a registered quantity (numpy, mpmath; the prover's enclosure)
        return R(T, d, K, 0), R(T, d, K, al / ep) - R(T, d, K, 0)


_phase_min_reference = r_phases_float  # the scalar form (tests/intervals/test_proofs_enclosures.py uses this name)


BOUNDS = [
    _ROWS["003-thm4-paper"],
    _ROWS["003-thm4-paper-hp"],
    _ROWS["003-thm4-explicit"],
    _ROWS["003-thm4-explicit-hp"],
    Thm9(),
    Thm9Corrected(),
    _ROWS["000-thm8-paper"],
    _ROWS["000-thm8-paper-main"],
    AdaRGOPEExplicit(),
    _ROWS["000-thm8-explicit-closed"],
    _ROWS["003-gope-explicit"],
    _ROWS["003-gope-paper"],
]
assert len(BOUNDS) == len(_ROWS) + 3, "every row of linear.toml is registered"
