"""Linear bandits with a fixed finite action set: AdaC-GOPE (seed 003 Thm 4, with Thm 13 / Cor. 1 / Eq. 4
in its proof), the minimax lower bound of seed 003 Thm 9, AdaR-GOPE (seed 000 Thm 8) and the non-private
GOPE baseline (the rho -> infinity limit, docs/formulas/zcdp-bandits.md section 0).

Sources: docs/formulas/zcdp-bandits.md (sections 3, 5.3, 9), docs/formulas/rdp-bandits.md (2.3, 3.2),
docs/errata.md items 10 and 16 and the "smaller items" (000 Thm 8 main text vs appendix).
``log`` is natural everywhere.
"""

from __future__ import annotations

import math

import numpy as np

from .. import validate as v
from ..errors import InputError
from ._linear_common import BaseBound, syms
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


# -- AdaC-GOPE, seed 003 Thm 4 ---------------------------------------------------------------------
class AdaCGOPEPaper(_UpperLinear):
    """seed 003 Thm 4, expected-regret form with delta = 1/T and hidden constants set to 1 (Table I):
    sqrt(d T log(KT)) + (d/sqrt(rho)) log^{3/2}(KT)."""

    id = "003-thm4-paper"
    title = "AdaC-GOPE regret, Thm 4 (E[R_T], delta = 1/T, O-constants = 1)"
    source = "seed 003 Thm 4 (Table I)"
    form = "paper"
    caveats = (
        "scaling not shown: as written c_l contains f(d, .) >= d, so the privacy cost is "
        "Theta(d sqrt(d + log) log T / sqrt(rho)), not linear in d; ratio to the stated term 1.1-1.9 for d <= 50 "
        "(ERRATA 10)",
    )
    regime_note = "privacy cost dominates iff rho < d log^2(KT) / T (paper form); for fixed rho it is o(sqrt T)"
    symbol_names = ("d", "K", "rho")

    def expression(self):
        T, d, K, rho = syms("T", "d", "K", "rho")
        import sympy

        lkt = sympy.log(K * T)
        return sympy.sqrt(d * T * lkt), d / sympy.sqrt(rho) * lkt ** sympy.Rational(3, 2)


class AdaCGOPEPaperHP(_UpperLinear):
    """seed 003 Thm 4 as stated, w.p. >= 1 - delta, with A = B = 1:
    sqrt(d T log(K log(T)/delta)) + (d/sqrt(rho)) sqrt(log(K log(T)/delta)) log T."""

    id = "003-thm4-paper-hp"
    title = "AdaC-GOPE regret, Thm 4 statement (w.p. >= 1 - delta, A = B = 1)"
    source = "seed 003 Thm 4"
    form = "paper"
    params = ("d", "K", "delta")
    caveats = AdaCGOPEPaper.caveats + ("high-probability bound on R_T, not on E[R_T]",)
    regime_note = "privacy cost dominates iff rho < d log^2(T) / T (up to the log(K log T/delta) factors)"
    symbol_names = ("d", "K", "rho", "delta")

    def expression(self):
        import sympy

        T, d, K, rho, delta = syms("T", "d", "K", "rho", "delta")
        a = sympy.log(K * sympy.log(T) / delta)
        return sympy.sqrt(d * T * a), d / sympy.sqrt(rho) * sympy.sqrt(a) * sympy.log(T)


def _gope_explicit_sym(T, d, K, delta):
    """(L_T, Lambda, F) of docs/formulas/zcdp-bandits.md 3.6: L_T = floor(log_4(4 + 3T/(8 d log(8K/delta)))) (DERIVED
    from T_l >= c_l >= 8 d 4^l log(8K/delta)), Lambda = log(4 K L_T (L_T+1)/delta), F = f(d, delta/(K L_T (L_T+1)))
    with f(d, x) = d + 2 sqrt(d log(2/x)) + 2 log(2/x) (seed 003 Lemma 10, log(2/.) as in App. E)."""
    import sympy

    L = sympy.floor(sympy.log(4 + 3 * T / (8 * d * sympy.log(8 * K / delta))) / sympy.log(4))
    Lam = sympy.log(4 * K * L * (L + 1) / delta)
    Lf = sympy.log(2 * K * L * (L + 1) / delta)
    F = d + 2 * sympy.sqrt(d * Lf) + 2 * Lf
    return L, Lam, F


class AdaCGOPEExplicit(_UpperLinear):
    """Explicit form of seed 003 Thm 4 (proof App. E-B with Thm 13, Cor. 1 and c_l of Eq. 4), for
    E[R_T] with delta = 1/T (as in the theorem's expectation statement):
    E[R_T] <= 64 sqrt(d T Lambda) + 4 d (d+1) + 2  +  16 d L_T sqrt(2 F / rho),
    Lambda = log(4 K L_T (L_T+1) T), F = f(d, 1/(T K L_T (L_T+1))), L_T <= log_4(4 + 3T/(8 d log(8KT))).
    The "+2" is 2 delta T (per-step regret <= 2 under Assumption 1)."""

    id = "003-thm4-explicit"
    title = "AdaC-GOPE regret, explicit constants (E[R_T], delta = 1/T)"
    source = "seed 003 Thm 4 (proof App. E-B; Thm 13, Cor. 1, Eq. 4)"
    form = "explicit"
    caveats = (
        "DERIVED: constants from the proof steps of App. E-B (docs/formulas/zcdp-bandits.md 3.6): A = 64 w.r.t. Lambda, "
        "support rounding 4d(d+1), E[R_T] <= R_T(delta) + 2 delta T",
        "scaling not shown: the privacy term here is 16 d L_T sqrt(2F/rho) with F >= d, i.e. d^{3/2} for "
        "d >> log(K log T/delta), not the stated linear d (ERRATA 10)",
        _COMPARABILITY,
    )
    regime_note = (
        "privacy cost dominates iff 16 d L_T sqrt(2F/rho) > 64 sqrt(dT Lambda), i.e. rho < d L_T^2 F/(8 T Lambda); "
        "for fixed rho it is O(log^{3/2} T) against sqrt(T log T)"
    )
    symbol_names = ("d", "K", "rho")

    def expression(self):
        import sympy

        T, d, K, rho = syms("T", "d", "K", "rho")
        L, Lam, F = _gope_explicit_sym(T, d, K, 1 / T)
        return 64 * sympy.sqrt(d * T * Lam) + 4 * d * (d + 1) + 2, 16 * d * L * sympy.sqrt(2 * F / rho)


class AdaCGOPEExplicitHP(_UpperLinear):
    """Explicit high-probability form (w.p. >= 1 - delta, delta from the instance), docs/formulas/zcdp-bandits.md 3.6:
    R_T <= 64 sqrt(d T Lambda) + 4 d (d+1)  +  16 d L_T sqrt(2 F/rho)."""

    id = "003-thm4-explicit-hp"
    title = "AdaC-GOPE regret, explicit constants (w.p. >= 1 - delta)"
    source = "seed 003 Thm 4 (proof App. E-B; Thm 13, Cor. 1, Eq. 4)"
    form = "explicit"
    params = ("d", "K", "delta")
    caveats = AdaCGOPEExplicit.caveats + ("high-probability bound on R_T, not on E[R_T]",)
    regime_note = AdaCGOPEExplicit.regime_note
    symbol_names = ("d", "K", "rho", "delta")

    def expression(self):
        import sympy

        T, d, K, rho, delta = syms("T", "d", "K", "rho", "delta")
        L, Lam, F = _gope_explicit_sym(T, d, K, delta)
        return 64 * sympy.sqrt(d * T * Lam) + 4 * d * (d + 1), 16 * d * L * sympy.sqrt(2 * F / rho)


# -- non-private GOPE (rho -> infinity limit) -----------------------------------------------------------
class GOPENonPrivateExplicit(_UpperLinear):
    """rho -> infinity limit of the explicit AdaC-GOPE bound (same phases, no noise; docs/formulas/zcdp-bandits.md sec. 0):
    E[R_T] <= 64 sqrt(d T Lambda) + 4 d (d+1) + 2 with delta = 1/T."""

    id = "003-gope-explicit"
    title = "GOPE (non-private phased elimination), explicit constants (E[R_T], delta = 1/T)"
    source = "seed 003 Thm 4 (rho -> infinity limit of AdaC-GOPE; the algorithm GOPE-limit)"
    algorithm = "GOPE-limit"
    notion = "none"
    form = "explicit"
    caveats = (
        "DERIVED: the non-private baseline is the rho -> infinity limit of AdaC-GOPE (docs/formulas/zcdp-bandits.md section 0); "
        "L_T keeps the private schedule's bound, which is also valid without the privacy term of c_l",
        _COMPARABILITY,
    )
    regime_note = "non-private: no privacy cost"
    symbol_names = ("d", "K")

    def expression(self):
        import sympy

        T, d, K = syms("T", "d", "K")
        L, Lam, F = _gope_explicit_sym(T, d, K, 1 / T)
        return 64 * sympy.sqrt(d * T * Lam) + 4 * d * (d + 1) + 2, sympy.Integer(0)


class GOPENonPrivatePaper(_UpperLinear):
    """Non-private part of seed 003 Thm 4 (rho -> infinity), constants 1: sqrt(d T log(KT))."""

    id = "003-gope-paper"
    title = "GOPE (non-private), O-form sqrt(dT log(KT))"
    source = "seed 003 Thm 4 (rho -> infinity limit, Table I)"
    algorithm = "GOPE-limit"
    notion = "none"
    form = "paper"
    caveats = ()
    regime_note = "non-private: no privacy cost"
    symbol_names = ("d", "K")

    def expression(self):
        import sympy

        T, d, K = syms("T", "d", "K")
        return sympy.sqrt(d * T * sympy.log(K * T)), sympy.Integer(0)


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


class AdaRGOPEPaper(_AdaR):
    """seed 000 Thm 8 (appendix version, log T outside the root), C1 = C2 = 1, w.p. >= 1 - delta:
    sqrt(d T log(K log T/delta)) + d^2 sqrt((alpha/eps) log(K log T/delta)) log T."""

    id = "000-thm8-paper"
    title = "AdaR-GOPE regret, Thm 8 (appendix form, C1 = C2 = 1, w.p. >= 1 - delta)"
    source = "seed 000 Thm 8 (App. C.3)"
    form = "paper"
    params = ("d", "K", "delta")
    caveats = ("high-probability bound on R_T, not on E[R_T]",)
    regime_note = "privacy cost dominates iff eps/alpha < d^3 log^2(T)/T (up to log(K log T/delta)); vanishes relative to sqrt T"

    def expression(self):
        import sympy

        T, d, K, delta, al, ep = syms("T", "d", "K", "delta", "alpha", "epsilon")
        a = sympy.log(K * sympy.log(T) / delta)
        return sympy.sqrt(d * T * a), d**2 * sympy.sqrt(al / ep * a) * sympy.log(T)


class AdaRGOPEPaperMain(_AdaR):
    """seed 000 Thm 8 as printed in the main text (log T inside the root), C1 = C2 = 1."""

    id = "000-thm8-paper-main"
    title = "AdaR-GOPE regret, Thm 8 main-text form (log T inside the root)"
    source = "seed 000 Thm 8 (main text)"
    form = "paper"
    params = ("d", "K", "delta")
    caveats = (
        "typo: the main text puts log T inside the square root; the appendix proves it outside "
        "(000-thm8-paper); the main-text form is stronger than what is proved (ERRATA, smaller items)",
        "high-probability bound on R_T, not on E[R_T]",
    )
    regime_note = AdaRGOPEPaper.regime_note

    def expression(self):
        import sympy

        T, d, K, delta, al, ep = syms("T", "d", "K", "delta", "alpha", "epsilon")
        a = sympy.log(K * sympy.log(T) / delta)
        return sympy.sqrt(d * T * a), d**2 * sympy.sqrt(al / ep * a * sympy.log(T))


class AdaRGOPEExplicitClosed(_AdaR):
    """Closed (looser) explicit form of seed 000 Thm 8 for E[R_T] with delta = 1/T, same steps as
    docs/formulas/zcdp-bandits.md §3.6 with the sample counts of seed 000 Eq. 8 (L_l = log(4 K l (l+1)/delta) <= Lambda for
    l <= L_T):
    E[R_T] <= 64 sqrt(d T Lambda) + 4 d (d+1) + 2  +  16 d L_T sqrt(2 (alpha/eps) d (d+1) Lambda).
    1.4-1.5x above the phase-by-phase minimum of 000-thm8-explicit; kept for its closed form."""

    id = "000-thm8-explicit-closed"
    title = "AdaR-GOPE regret, closed explicit form (E[R_T], delta = 1/T; looser than 000-thm8-explicit)"
    source = "seed 000 Thm 8 (proof App. C.3, Eq. 8)"
    form = "explicit"
    params = ("d", "K")
    caveats = (
        "DERIVED: phase l costs 8 beta_l T_l with T_l <= d(d+1)/2 + 8 d 4^l L_l + 2 d 2^l sqrt(2 (alpha/eps) d(d+1) L_l) "
        "(docs/formulas/rdp-bandits.md §2.3, §3.2); summed as in docs/formulas/zcdp-bandits.md §3.6 "
        "(64 sqrt(dT Lambda)); L_T from T_l >= 8 d 4^l log(8K/delta); 1.4-1.5x looser than 000-thm8-explicit",
    )
    regime_note = "privacy cost dominates iff eps/alpha < d^2 (d+1) L_T^2 / (8 T); O(d^2 log^{3/2} T) vs sqrt(T log T)"
    symbol_names = ("d", "K", "alpha", "epsilon")

    def expression(self):
        import sympy

        T, d, K, al, ep = syms("T", "d", "K", "alpha", "epsilon")
        L, Lam, _ = _gope_explicit_sym(T, d, K, 1 / T)
        return (64 * sympy.sqrt(d * T * Lam) + 4 * d * (d + 1) + 2,
                16 * d * L * sympy.sqrt(2 * al / ep * d * (d + 1) * Lam))


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
    AdaCGOPEPaper(),
    AdaCGOPEPaperHP(),
    AdaCGOPEExplicit(),
    AdaCGOPEExplicitHP(),
    Thm9(),
    Thm9Corrected(),
    AdaRGOPEPaper(),
    AdaRGOPEPaperMain(),
    AdaRGOPEExplicit(),
    AdaRGOPEExplicitClosed(),
    GOPENonPrivateExplicit(),
    GOPENonPrivatePaper(),
]
