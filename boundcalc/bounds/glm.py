"""Regret bounds of generalized linear bandits under local differential privacy (seed 002).

Han, Liang, Wang, Zhang, "Generalized Linear Bandits with Local Differential Privacy" (NeurIPS 2021),
seed file 002_8220a9ba03d6ddfa.txt; formula sheet docs/formulas/ldp-glm-bandits.md; verdicts from docs/errata.md.

Registered (one object per theorem and per estimator; see each docstring):
- seed 002 Thm 3.1 (OLS, SGD; worst case, single parameter), plus the SGD rate of its proof (C.4)
  ("corrected") and the sheet's DERIVED explicit SGD bound ("explicit");
- seed 002 Thm 3.2 (lower bound, Ω(√T/ε), pure ε-LDP, K = 2, Gaussian contexts);
- seed 002 Thm 3.3 (OLS, SGD; (γ, β)-margin, single parameter);
- seed 002 Thm 4.1 (OLS, SGD; multi-parameter), plus the corrected forms that use the (ε/2, δ/2)
  mechanisms the algorithm actually runs (sheet §0, §1.6, 7.8).

Conventions of this module
- ``delta`` in the parameters is the *failure probability* (the paper's α); the privacy δ comes from the
  LocalDP budget. ``sigma_r`` is the reward-noise subgaussian parameter (the paper's σ_ϵ).
- σ_{ε,δ} := 2√(2 ln(1.25/δ))/ε (seed 002 Eq. 3.3); r_{ε,d} = R√π·(e^ε+1)/(e^ε−1)·Γ((d+1)/2)/Γ(d/2)
  with R = 2 c_r C_B (seed 002 Lemma 2.2, sheet §1.3).
- Split: the non-private part is the ε → ∞ limit of the same expression (σ_{ε,δ} → 0;
  r_{ε,d} → r_∞ = R√π Γ((d+1)/2)/Γ(d/2), since (e^ε+1)/(e^ε−1) = 1 + 2/(e^ε−1)); the privacy cost
  is the remainder.
- "paper" forms set the constant C of the statement to 1 and the o(1) terms to 0.
- One definition (issue 15): each bound is its sympy ``expression()``; its numpy and mpmath values are derived
  from it by lambdify (base.Bound.terms), with the registered quantities of bounds/quantities_glm.py (the Γ ratio of
  r_{ε,d}, the burn-in horizon of Lemma C.3). Conditions on scalars are ``requires`` relations (data).
"""

from __future__ import annotations

import math

import numpy as np

from .. import validate as v
from ..errors import InputError
from ..privacy.mechanisms import ldp_sigma
from . import quantities_glm as q
from .base import Bound, Context

# Caveats in the ERRATA vocabulary --------------------------------------------------------------------
CAV_OLS_PRIVACY = (
    "statement violated (Prop 3.1) for C_B ≥ 3–4; proof gap for C_B ≲ 2 (ERRATA 8): the OLS release "
    "under-noises u_t by 2×, scales the matrix noise with C_B not C_B², and uses ln(1.25/δ) not ln(2.5/δ); "
    "at C_B = 1 the pair is still (1, 1.4e-4)-LDP, within (1, 0.01)"
)
CAV_NET = (
    "proof gap (ERRATA 9): Lemma C.3's ε-net step λ_min(A) ≥ 2 inf_net xᵀAx is false (A = I); the lemma "
    "holds with C = 1/2 and a longer burn-in"
)
CAV_PRODUCT = (
    "proof gap: (C.1)/(C.3) multiply the noise terms σ_ϵ·σ_{ε,δ} that (C.5)–(C.8) add, and (C.6) misses "
    "a d² (ERRATA, smaller items); the theorem's sum form is the one registered"
)
CAV_CTILDE = (
    "proof gap: c̃ of Thm 3.1 (2σ(4√d + 2 log(2T/α))) differs from the one in the proof of Lemma C.1 and "
    "does not scale with C_B (sheet 7.2)"
)
CAV_SGD_DROP = (
    "typo: the statement drops the √(κ_u log(KT/α)) factor of its proof (C.4) (ERRATA, smaller items; "
    "sheet 7.6) — the proved rate is registered as 002-thm3.1-sgd-corrected"
)
CAV_SGD_STEP = (
    "proof gap: Lemma C.2 uses strong-monotonicity 2κ_lζp_*/d where only κ_lζp_*/d is shown (sheet 7.5); "
    "with the right constant (C.2) loses its factor 1/4 (UNCERTAIN)"
)
CAV_SGD_CLIP = (
    "proof gap: the L2-ball input bound ‖g‖ ≤ 2c_rC_B needs |μ(xᵀθ̂)| ≤ c_r, which nothing enforces "
    "(sheet 1.5); clip the gradient (post-processing) in an implementation"
)
CAV_TABLE = "typo: Table 1.1 says O(log T/ε²) for β = 1 but the theorem carries (d + log(T/α))·log T (sheet 7.7)"
CAV_41 = (
    "typo: Thm 4.1 prints λ0 = (2γLC_B)⁻¹(p'/2)^{1/β} and s0 with h, Lemmas D.3/D.4 give "
    "(2LC_B)⁻¹(p'/(2γ))^{1/β} and h0 = h_sub/(8LC_B); the SGD step size is garbled (sheet 7.8)"
)
CAV_41_HALF = (
    "typo: the algorithm runs the (ε/2, δ/2) mechanisms (Props 4.1/4.2), so σ_{ε/2,δ/2} / r_{ε/2,d} "
    "belong in the bound (sheet §0 and 7.8); see the corrected form"
)
CAV_ELIM = "typo: rule (4.1) uses linear scores, Lemma D.1 μ-scale scores (same for the linear link; sheet 7.9)"
CAV_LOWER_CTX = (
    "proof gap: the lower-bound instance has unbounded Gaussian contexts, outside the ‖x‖ ≤ C_B model of "
    "the upper bounds (sheet 7.11)"
)

DEFAULT_INSTANCE = {
    "name": "seed 002 §5 synthetic single-parameter linear bandit (authors' code defaults: d = 2, K = 10, "
    "T = 1e6, δ_LDP = 0.01; contexts uniform on S^{d-1}; κ_l, p_* estimated by Monte Carlo)",
    "d": 2,
    "K": 10,
    "C_B": 1.0,  # ‖x‖ ≤ C_B (unit sphere)
    "c_r": 1.0,  # |r| ≤ c_r
    "sigma_r": 0.1,  # reward-noise subgaussian parameter σ_ϵ (not stated in the paper; UNCERTAIN)
    "context": "sphere",  # Unif(S^{d-1}) per arm; "gaussian" = N(0, I_d/d) (Thm 3.2's instance)
    "kappa_u": 1.0,  # Σ = I/d for Unif(S^{d-1}) so λ_max(Σ) = κ_u/d with κ_u = 1 (A2)
    # A3 for Unif(S^1), K = 10: P((x_{a*}ᵀv)² > κ_l/d) ≥ 1/2 with κ_l ≈ 0.087 (DERIVED: 4e5 draws,
    # worst direction v); rounded down.
    "kappa_l": 0.085,
    "p_star": 0.5,
    "zeta": 1.0,  # inf μ' (linear link)
    "L": 1.0,  # Lipschitz constant of μ (linear link)
    "delta": 0.05,  # failure probability (the paper's α); ≤ 1/e for Lemma C.2
    "gamma": 1.0,  # margin constant γ (A4/A6)
    "beta": 1.0,  # margin exponent β
    "p_prime": 0.5,  # A5 diversity probability p' (multi-parameter)
    "h_sub": 0.1,  # A5 sub-optimality gap (multi-parameter)
    "theta": None,  # theta* of --check (the bounds hold for every ||theta*|| <= 1); default: drawn from theta_seed
    "theta_seed": 3,
}
# What a machine can do: K contexts of dimension d per round and run in --check.
LIMITS = {"d": 1000, "K": 10**6}
# CLI options of `regret` that set an instance parameter of this setting (the others are noted as without effect)
OPTION_KEYS = {"--K": "K", "--d": "d", "--confidence": "delta", "--theta": "theta"}
ALIASES: dict = {}
KEY_FEEDS = {"theta": (), "theta_seed": ()}
KEY_USES = {"theta": "it sets theta* of --check", "theta_seed": "it draws theta* of --check"}


def derive(params: dict) -> dict:
    """Validate the GLM instance (raises InputError) and add derived quantities (seed 002 §2–§4)."""
    p = dict(params)
    p.pop("_given", None)
    p["d"] = v.count("d", p["d"], maximum=LIMITS["d"])
    p["K"] = v.count("K", p["K"], minimum=2, maximum=LIMITS["K"])
    p["theta_seed"] = v.count("theta_seed", p.get("theta_seed", 3), minimum=0)
    th = p.get("theta")
    if th is not None:
        th = np.asarray(th, dtype=float).ravel()
        if th.size != p["d"] or not np.all(np.isfinite(th)) or np.max(np.abs(th)) > 1 or np.linalg.norm(th) > 1 + 1e-12:
            raise InputError("theta", f"a finite vector of length d = {p['d']} with ||theta*|| <= 1", list(th)[:8])
        p["theta"] = th
    for key in ("C_B", "c_r", "kappa_u", "kappa_l", "zeta", "L", "gamma", "h_sub"):
        p[key] = v.positive(key, p[key])
    p["sigma_r"] = v.nonnegative("sigma_r", p["sigma_r"])
    p["delta"] = v.open_unit("delta", p["delta"])
    p["p_star"] = v.greater_than("p_star", p["p_star"], 0.0)
    if p["p_star"] > 1:
        raise InputError("p_star", "in (0, 1]", p["p_star"])
    p["p_prime"] = v.greater_than("p_prime", p["p_prime"], 0.0)
    if p["p_prime"] > 1:
        raise InputError("p_prime", "in (0, 1]", p["p_prime"])
    p["beta"] = v.nonnegative("beta", p["beta"])
    if p["beta"] > 1:
        raise InputError("beta", "in [0, 1]", p["beta"])
    if p.get("context", "sphere") not in ("sphere", "gaussian"):
        raise InputError("context", "'sphere' or 'gaussian'", p.get("context"))
    # Derived (seed 002 §2.2 Eq. 3.5, Lemma D.3 (sheet §2.4)).
    p["R"] = 2.0 * p["c_r"] * p["C_B"]  # L2-ball radius of the SGD gradient (Eq. 3.5)
    p["r_inf"] = r_ball(math.inf, p["d"], p["R"])
    p["h0"] = p["h_sub"] / (8.0 * p["L"] * p["C_B"])  # Lemma D.1
    if p["beta"] > 0:
        p["lambda0"] = (p["p_prime"] / (2.0 * p["gamma"])) ** (1.0 / p["beta"]) / (2.0 * p["L"] * p["C_B"])  # D.3
    return p


# -- mechanisms' scales (numbers of the instance; the bounds carry them as sympy expressions below) ----------
sigma_ldp = ldp_sigma  # σ_{ε,δ} = 2√(2 ln(1.25/δ))/ε (seed 002 Eq. 3.3; sheet §1.4): one definition, privacy.mechanisms


def r_ball(epsilon, d: int, R: float = 1.0):
    """Radius r_{ε,d} = R√π (e^ε+1)/(e^ε−1) Γ((d+1)/2)/Γ(d/2) of the L2-ball mechanism (seed 002 Lemma 2.2), with
    (e^ε+1)/(e^ε−1) = 1/tanh(ε/2) (1 at ε = ∞) and the registered quantity gamma_ratio (bounds/quantities_glm.py)."""
    return R * math.sqrt(math.pi) / math.tanh(float(epsilon) / 2.0) * q.gamma_ratio_numpy(d)


# -- the bounds' building blocks in sympy (sympy imported lazily) --------------------------------------------
def _sym(*names):
    import sympy

    return [sympy.Symbol(n, positive=True) for n in names]


def _sigma_sym(eps, delta_p):
    """σ_{ε,δ} = 2√(2 ln(1.25/δ))/ε (seed 002 Eq. 3.3)."""
    import sympy

    return 2 * sympy.sqrt(2 * sympy.log(sympy.Rational(5, 4) / delta_p)) / eps


def _r_parts_sym():
    """(r_∞, r_{ε,d} − r_∞) of the L2-ball radius (seed 002 Lemma 2.2): r_∞ = R√π Γ((d+1)/2)/Γ(d/2) and
    r_{ε,d} − r_∞ = r_∞·2/(e^ε − 1), written with expm1 (exact for small ε, 0 at large ε)."""
    import sympy
    from sympy.codegen.cfunctions import expm1

    eps, d, R = _sym("epsilon", "d", "R")
    r_inf = R * sympy.sqrt(sympy.pi) * q.sympy_function("gamma_ratio")(d)
    return r_inf, r_inf * 2 / expm1(eps)


def _S_sym(T, beta):
    """S(T) = log T (β = 1), T^{(1−β)/2}/(1−β) (β < 1) (seed 002 Thm 3.3 / 4.1)."""
    import sympy

    return sympy.Piecewise((sympy.log(T), sympy.Eq(beta, 1)), (T ** ((1 - beta) / 2) / (1 - beta), True))


# -- base class -----------------------------------------------------------------------------------------
class _GLMBound(Bound):
    """A seed 002 bound: ``expression()`` is the one definition (numpy and mpmath by lambdify, base.Bound.terms);
    ``requires`` holds the conditions on scalars. What stays code in ``conditions``: the conversion of the user's
    budget to local DP, the horizon conditions (they depend on T: ``min_horizon``) and named predicates on
    non-numeric instance parameters (Thm 3.2's Gaussian contexts).

    Symbols: ``epsilon``, ``delta_p`` — the local-DP (ε, δ) of the mechanism the algorithm runs (ε/2, δ/2 for the
    corrected multi-parameter forms); ``alpha`` — the failure probability (instance parameter ``delta``); the others
    are the instance parameters of the same name (R = 2 c_r C_B).
    """

    seed = "002"
    setting = "glm"
    notion = "ldp"
    half_budget = False  # the multi-parameter corrected forms run the (ε/2, δ/2) mechanisms
    # the human reading of a ``requires`` relation, shown before it when it fails (the relation is the data)
    requires_notes: dict = {}

    def min_horizon(self, ctx: Context) -> float:
        """Smallest horizon at which the bound's own requirements hold (burn-ins, T ≥ 4, …)."""
        return 1.0

    def conditions(self, ctx: Context) -> list[str]:
        out, failing = [], []
        for msg in super().conditions(ctx):  # the ``requires`` relations
            note = next((n for t, n in self.requires_notes.items() if msg.startswith(f"needs {t} (")), None)
            failing.append(f"{note}: {msg}" if note else msg)
        # The budget in this bound's own notion (local DP), through the registry's conversion: an (ε, δ)-LDP
        # algorithm is central (ε, δ)-DP, so a central budget the LDP algorithm meets is fine for the upper
        # bounds; for the lower bound the user's guarantee must imply LDP (only a local budget does).
        if ctx.budget is not None:
            b, why = ctx.budget_for(self)
            if b is None:
                out.append(why)
                failing = [r for r in failing if not r.endswith("not given)")]  # no budget symbols without it
        out.extend(failing)
        T = ctx.get("T")
        if T is not None and float(T) < self.min_horizon(ctx):
            out.append(f"T = {float(T):g} is below the horizon {self.min_horizon(ctx):g} this bound requires")
        return out

    def _eps_delta(self, budget):
        eps, dl = float(budget.epsilon), float(budget.delta)
        if self.half_budget:
            eps, dl = eps / 2.0, dl / 2.0
        return eps, dl

    def symbol_values(self, ctx: Context, budget) -> dict:
        eps, dl = self._eps_delta(budget)
        return {"epsilon": eps, "delta_p": dl, "alpha": ctx["delta"], **{k: ctx[k] for k in _INSTANCE_SYMBOLS}}


# symbols whose value is the instance parameter of the same name (R = 2 c_r C_B is derived, glm.derive)
_INSTANCE_SYMBOLS = ("d", "K", "C_B", "c_r", "R", "sigma_r", "kappa_l", "kappa_u", "p_star", "p_prime", "zeta", "L",
                     "gamma", "beta")


# T > t_1(T) = 8(d log 9 + log(T/α))/p_*² with α the instance's delta (seed 002 Lemma C.3)
GREEDY_BURN_IN = "T > 8*(d*log(9) + log(T/delta))/p_star**2"


class _OLSCommon(_GLMBound):
    # the Gaussian mechanism of Lemma 2.1 needs δ > 0; its classical calibration fails beyond ε ≈ 5.74–8.42
    # (sheet 1.2): ε < 6.77 is the range checked here
    requires = ("delta_p > 0", "epsilon < 6.77")
    requires_notes = {
        "delta_p > 0": "the OLS Gaussian mechanism needs δ > 0 (seed 002 Lemma 2.1): give an (ε, δ)-LDP budget",
        "epsilon < 6.77": "the classical Gaussian calibration of Lemma 2.1 fails beyond ε ≈ 5.74–8.42 (sheet 1.2); "
                          "checked here for ε < 6.77",
        "2*epsilon < 6.77": "the classical Gaussian calibration of Lemma 2.1 fails beyond ε ≈ 5.74–8.42 (sheet 1.2); "
                            "checked here for the budget's ε = 2·epsilon < 6.77",
        "beta > 0": "Thm 4.1 needs β > 0 (β = 0 is left open by the paper)",
    }

    def terms(self, T, ctx, budget):
        # Kept as a guard only: at δ = 0 the Gaussian mechanism (σ_{ε,0} = ∞) does not exist, so there is no value
        # to lambdify — an error, as the OLS bounds have always raised, not an infinite bound.
        if not self._eps_delta(budget)[1] > 0:
            raise ValueError(f"{self.id}: the OLS mechanism needs δ > 0")
        return super().terms(T, ctx, budget)


class _SGDCommon(_GLMBound):
    formula_note = ("r_{ε,d} = R√π(1 + 2/expm1(ε))·Γ((d+1)/2)/Γ(d/2), expm1(ε) = e^ε − 1 (seed 002 Lemma 2.2); "
                    "non-private part: r_∞ = R√π Γ((d+1)/2)/Γ(d/2)")


# -- Theorem 3.1 ----------------------------------------------------------------------------------------
class Thm31OLS(_OLSCommon):
    """seed 002 Thm 3.1 (OLS): Reg ≤ C√T(C_B(σ_{ε,δ}+σ_ϵ) d √((d+log(T/α)) log(KT/α))/(κ_l p_*) + o(1)).

    Paper form: C = 1, o(1) = 0. Non-private part: the σ_ϵ term; privacy cost: the σ_{ε,δ} term.
    Horizon: T > t_1(T), the burn-in of Lemma C.3 (registered quantity ``greedy_horizon``).
    """

    id = "002-thm3.1-ols"
    title = "LDP-OLS (Algorithm 1) worst-case regret, single parameter, linear link"
    algorithm = "LDP-OLS"
    source = "seed 002 Thm 3.1 (OLS part); proof App. C, (C.3)"
    kind = "upper-minimax"
    form = "paper"
    params = ("d", "K", "C_B", "sigma_r", "kappa_l", "p_star", "delta")
    assumptions = ("A2 (upper diversity κ_u)", "A3 (greedy lower diversity κ_l, p_*)", "linear link μ(z) = z",
                   "c̃ = 2σ_{ε,δ}(4√d + 2 log(2T/α))", "probability ≥ 1 − α")
    caveats = (CAV_OLS_PRIVACY, CAV_NET, CAV_PRODUCT, CAV_CTILDE)
    # the horizon as data: T > t_1(T) (Lemma C.3), i.e. T > greedy_horizon(d, α, p_*) for T ≥ 1 (t_1(1) > 1, so
    # T = 1 lies between the two roots of T = t_1(T)); checked per horizon (base.failing_requirements)
    requires = _OLSCommon.requires + (GREEDY_BURN_IN,)
    requires_notes = {**_OLSCommon.requires_notes,
                      GREEDY_BURN_IN: "the burn-in of Lemma C.3: T > t_1(T) (T > greedy_horizon(d, α, p_*))"}

    def expression(self):
        import sympy

        T, d, K, C_B, sr, kl, ps, al, eps, dp = _sym("T", "d", "K", "C_B", "sigma_r", "kappa_l", "p_star", "alpha",
                                                     "epsilon", "delta_p")
        base = sympy.sqrt(T) * C_B * d * sympy.sqrt((d + sympy.log(T / al)) * sympy.log(K * T / al)) / (kl * ps)
        return base * sr, base * _sigma_sym(eps, dp)


class Thm31SGD(_SGDCommon):
    """seed 002 Thm 3.1 (SGD), as stated: Reg ≤ C√T(r_{ε,d}√d/(ζκ_l p_*)·log log(T/α) + o(1)).

    Paper form: C = 1, o(1) = 0. The statement drops the √(κ_u log(KT/α)) of its proof (C.4).
    """

    id = "002-thm3.1-sgd"
    title = "LDP-SGD (Algorithm 1) worst-case regret, single parameter, GLM — as stated"
    algorithm = "LDP-SGD"
    source = "seed 002 Thm 3.1 (SGD part)"
    kind = "upper-minimax"
    form = "paper"
    params = ("d", "c_r", "C_B", "zeta", "kappa_l", "p_star", "delta")
    assumptions = ("A1 (link: L-Lipschitz, μ' ≥ ζ)", "A2", "A3", "η_t = c'd/(κ_l ζ p_* t), c' > 1",
                   "probability ≥ 1 − α")
    caveats = (CAV_SGD_DROP, CAV_SGD_STEP, CAV_SGD_CLIP, CAV_NET)
    requires = ("T > exp(1)*delta",)  # log log(T/α) > 0, α = delta
    requires_notes = {"T > exp(1)*delta": "log log(T/α) > 0 needs T > eα"}

    def expression(self):
        import sympy

        T, d, z, kl, ps, al = _sym("T", "d", "zeta", "kappa_l", "p_star", "alpha")
        base = sympy.sqrt(T) * sympy.sqrt(d) / (z * kl * ps) * sympy.log(sympy.log(T / al))
        r0, r1 = _r_parts_sym()
        return base * r0, base * r1


class Thm31SGDCorrected(_SGDCommon):
    """Rate proved for LDP-SGD in seed 002 App. C, (C.4) (sheet §3.2), constant of the maximal inequality = 1:

    Reg ≤ 2c_r + √(624 log(log T/α) + 1)·r_{ε,d}√d/(2ζκ_l p_*)·√(κ_u log(KT/α))·√T.
    """

    id = "002-thm3.1-sgd-corrected"
    title = "LDP-SGD worst-case regret, single parameter — rate of the proof (C.4), factor √(κ_u log(KT/α)) restored"
    algorithm = "LDP-SGD"
    source = "seed 002 Thm 3.1 (SGD), proof (C.4) with Lemma C.2"
    kind = "upper-minimax"
    form = "corrected"
    params = ("d", "K", "c_r", "C_B", "zeta", "kappa_l", "kappa_u", "p_star", "delta")
    assumptions = ("A1", "A2 (subgaussian proxy κ_u/d)", "A3", "α ≤ 1/e, T ≥ 4 (Lemma C.2)", "probability ≥ 1 − α")
    # Lemma C.2 needs α ≤ 1/e (α: the instance's failure probability delta); 1/e as its float (the relations are
    # arithmetic over names, base.requirement_relations)
    requires = ("delta <= 0.36787944117144233", "T >= 4")
    requires_notes = {"delta <= 0.36787944117144233": "Lemma C.2 needs α ≤ 1/e (delta)", "T >= 4": "Lemma C.2 needs T ≥ 4"}
    caveats = (
        "corrected: not the paper's statement — the statement drops √(κ_u log(KT/α)) of (C.4) (ERRATA, smaller "
        "items); the constant of the maximal inequality is set to 1",
        "typo: (C.4)'s last step bounds Σ_{t=3}^T t^{-1/2} by √T, false from T = 10 on (the sum tends to 2√T; "
        "claim 002-c4-sum-step), and this form keeps that last line: it is about half of (C.4)'s own first line. "
        "002-thm3.1-sgd-explicit carries the factor 2",
        CAV_SGD_STEP, CAV_SGD_CLIP, CAV_NET,
    )

    def expression(self):
        import sympy

        T, d, K, cr, z, kl, ku, ps, al = _sym("T", "d", "K", "c_r", "zeta", "kappa_l", "kappa_u", "p_star", "alpha")
        base = (sympy.sqrt(624 * sympy.log(sympy.log(T) / al) + 1) * sympy.sqrt(d) / (2 * z * kl * ps)
                * sympy.sqrt(ku * sympy.log(K * T / al)) * sympy.sqrt(T))
        r0, r1 = _r_parts_sym()
        return 2 * cr + base * r0, base * r1


class Thm31SGDExplicit(Thm31SGDCorrected):
    """DERIVED explicit LDP-SGD bound (sheet §3.2, from (C.2) as printed and the subgaussian maximal inequality):

    Reg ≤ 6c_r + L·2r_{ε,d}/(κ_l ζ p_*)·√(2κ_u d log(2KT/α)(624 log(log T/α) + 1))·√T, probability ≥ 1 − 2α.
    """

    id = "002-thm3.1-sgd-explicit"
    title = "LDP-SGD worst-case regret, single parameter — explicit constants (DERIVED)"
    source = "seed 002 Thm 3.1 (SGD), Lemma C.2 and (C.4); sheet §3.2 DERIVED"
    form = "explicit"
    params = ("d", "K", "c_r", "C_B", "zeta", "L", "kappa_l", "kappa_u", "p_star", "delta")
    assumptions = ("A1", "A2 (subgaussian proxy κ_u/d)", "A3", "α ≤ 1/e, T ≥ 4", "probability ≥ 1 − 2α")
    caveats = (
        "DERIVED: constants from (C.2) as printed + max_a|x_aᵀv| ≤ ‖v‖√(2(κ_u/d) log(2KT/α)); 6c_r covers rounds "
        "1–3; L converts score gaps into μ-gaps",
        "proof gap: double the second term if the factor-4 issue of Lemma C.2 (sheet 7.5) is corrected",
        CAV_SGD_CLIP, CAV_NET,
    )

    def expression(self):
        import sympy

        T, d, K, cr, z, L, kl, ku, ps, al = _sym("T", "d", "K", "c_r", "zeta", "L", "kappa_l", "kappa_u", "p_star",
                                                 "alpha")
        base = (L * 2 / (kl * z * ps) * sympy.sqrt(2 * ku * d * sympy.log(2 * K * T / al)
                                                   * (624 * sympy.log(sympy.log(T) / al) + 1)) * sympy.sqrt(T))
        r0, r1 = _r_parts_sym()
        return 6 * cr + base * r0, base * r1


# -- Theorem 3.2 (lower bound) ----------------------------------------------------------------------------
class Thm32Lower(_GLMBound):
    """seed 002 Thm 3.2: for every ε-LDP algorithm (ε ≤ 1), K = 2, x_{t,a} ~ N(0, I_d/d):
    sup_{‖θ*‖ ≤ 1} E Reg(T) = Ω(√T/ε). Paper form: constant 1; all of it is the cost of privacy.

    The proof (App. E) gives the stronger Ω(√(dT)/(e^ε − 1)), valid for T ≳ d²/(e^ε − 1)² (sheet §3.3).
    """

    id = "002-thm3.2"
    title = "Lower bound for ε-LDP linear contextual bandits (K = 2, Gaussian contexts)"
    algorithm = None
    source = "seed 002 Thm 3.2; proof App. E"
    kind = "lower-minimax"
    form = "paper"
    params = ("K", "d", "context")
    assumptions = ("K = 2", "x_{t,a} ~ N(0, I_d/d) independent over arms", "rewards xᵀθ + N(0, 1)",
                   "pure ε-LDP, ε ≤ 1")
    # pure ε-LDP only (δ = 0), ε ≤ 1, the instance's K = 2 (K ≥ 2 holds for every instance)
    requires = ("delta_p <= 0", "epsilon <= 1", "K <= 2")
    requires_notes = {"delta_p <= 0": "Thm 3.2 covers pure ε-LDP algorithms only (δ = 0)",
                      "epsilon <= 1": "Thm 3.2 needs ε ≤ 1", "K <= 2": "Thm 3.2's instance has K = 2"}
    param_notes = {"K": "a condition only: the theorem's instance has K = 2",
                   "context": "a condition only: the theorem's instance has N(0, I_d/d) contexts",
                   "d": "enters only the horizon condition T ≥ d²/(e^ε − 1)² of the proof, not the stated Ω(√T/ε)"}
    caveats = (CAV_LOWER_CTX,)
    regime_note = "the proof gives √(dT)/(e^ε − 1) once T ≳ d²/(e^ε − 1)² (stronger in d than stated)"

    def min_horizon(self, ctx):
        """T ≥ d²/(e^ε − 1)² of the proof (sheet §3.3), at the local-DP ε (1 without one: a budget that does not
        convert to local DP makes the bound inapplicable anyway)."""
        b = ctx.budget_for(self)[0] if ctx.budget is not None else None
        eps = b.epsilon if b is not None else 1.0
        em1 = math.expm1(min(float(eps), 700.0))
        return math.inf if em1 == 0 or (float(ctx["d"]) / em1) ** 2 > 1e308 else (float(ctx["d"]) / em1) ** 2

    def conditions(self, ctx):
        out = super().conditions(ctx)
        if ctx.get("context", "sphere") != "gaussian":  # a named predicate on a non-numeric instance parameter
            out.append("Thm 3.2's instance has contexts N(0, I_d/d) (set context = 'gaussian')")
        return out

    def expression(self):
        import sympy

        T, eps = _sym("T", "epsilon")
        return sympy.Integer(0), sympy.sqrt(T) / eps


# -- Theorem 3.3 (margin) ---------------------------------------------------------------------------------
class Thm33OLS(Thm31OLS):
    """seed 002 Thm 3.3 (OLS), margin (γ, β), paper form (C = 1, o(1) = 0):
    Reg ≤ γ C_B S(T)·[C_B d (C_B σ_ϵ + σ_{ε,δ}) √(d + log(T/α))/(κ_l p_*)]^{1+β},
    S(T) = log T (β = 1), T^{(1−β)/2}/(1 − β) (0 ≤ β < 1).
    """

    id = "002-thm3.3-ols"
    title = "LDP-OLS regret under a (γ, β)-margin condition, single parameter"
    source = "seed 002 Thm 3.3 (OLS part); Lemma C.4"
    kind = "upper-problem-dependent"
    params = ("d", "C_B", "sigma_r", "kappa_l", "p_star", "delta", "gamma", "beta")
    assumptions = ("A2", "A3", "A4 ((γ, β)-margin)", "linear link", "probability ≥ 1 − α")
    caveats = (CAV_OLS_PRIVACY, CAV_NET, CAV_PRODUCT, CAV_TABLE)

    def expression(self):
        T, d, C_B, sr, kl, ps, al, g, b, eps, dp = _sym("T", "d", "C_B", "sigma_r", "kappa_l", "p_star", "alpha",
                                                        "gamma", "beta", "epsilon", "delta_p")
        import sympy

        def inner(s):
            return C_B * d * (C_B * sr + s) * sympy.sqrt(d + sympy.log(T / al)) / (kl * ps)

        pre = g * C_B * _S_sym(T, b)
        np_part = pre * inner(0) ** (1 + b)
        return np_part, pre * inner(_sigma_sym(eps, dp)) ** (1 + b) - np_part


class Thm33SGD(_SGDCommon):
    """seed 002 Thm 3.3 (SGD), paper form (C = 1, o(1) = 0):
    Reg ≤ γ L C_B S(T)·[r_{ε,d} L d C_B √(log(log T/α))/(ζ κ_l p_*)]^{1+β}.
    """

    id = "002-thm3.3-sgd"
    title = "LDP-SGD regret under a (γ, β)-margin condition, single parameter, GLM"
    algorithm = "LDP-SGD"
    source = "seed 002 Thm 3.3 (SGD part); Lemmas C.2, C.4"
    kind = "upper-problem-dependent"
    form = "paper"
    params = ("d", "c_r", "C_B", "zeta", "L", "kappa_l", "p_star", "delta", "gamma", "beta")
    assumptions = ("A1", "A2", "A3", "A4 ((γ, β)-margin)", "probability ≥ 1 − α")
    caveats = (CAV_SGD_STEP, CAV_SGD_CLIP, CAV_NET)
    requires = ("T >= 4",)
    requires_notes = {"T >= 4": "Lemma C.2 needs T ≥ 4"}

    def expression(self):
        import sympy

        T, d, C_B, z, L, kl, ps, al, g, b = _sym("T", "d", "C_B", "zeta", "L", "kappa_l", "p_star", "alpha", "gamma",
                                                 "beta")
        r0, r1 = _r_parts_sym()

        def inner(r):
            return r * L * d * C_B * sympy.sqrt(sympy.log(sympy.log(T) / al)) / (z * kl * ps)

        pre = g * L * C_B * _S_sym(T, b)
        np_part = pre * inner(r0) ** (1 + b)
        return np_part, pre * inner(r0 + r1) ** (1 + b) - np_part


# -- Theorem 4.1 (multi-parameter) ------------------------------------------------------------------------
class Thm41OLS(_OLSCommon):
    """seed 002 Thm 4.1 (OLS), paper form (C = 1, o(1) = 0):
    Reg ≤ γ C_B [K C_B (C_B σ_ϵ + σ_{ε,δ}) √(d + log(TK/α))/(κ_l p')]^{1+β} S(T), 0 < β ≤ 1.
    """

    id = "002-thm4.1-ols"
    title = "LDP-OLS multi-parameter regret (Algorithm 2: warm-up, elimination, greedy) — as stated"
    algorithm = "LDP-OLS (multi-parameter)"
    source = "seed 002 Thm 4.1 (OLS part); Lemmas D.2–D.4"
    kind = "upper-problem-dependent"
    form = "paper"
    params = ("d", "K", "C_B", "sigma_r", "kappa_l", "p_prime", "delta", "gamma", "beta")
    assumptions = ("A1", "A5 (multi-parameter diversity)", "A6 (margin)", "warm-up s0 as in Thm 4.1",
                   "probability ≥ 1 − α")
    # Thm 4.1 needs β > 0 (β = 0 is left open by the paper), plus the Gaussian mechanism's range
    requires = ("beta > 0",) + _OLSCommon.requires
    caveats = (CAV_OLS_PRIVACY, CAV_41_HALF, CAV_41, CAV_ELIM)

    def expression(self):
        import sympy

        T, d, K, C_B, sr, kl, pp, al, g, b, eps, dp = _sym("T", "d", "K", "C_B", "sigma_r", "kappa_l", "p_prime",
                                                           "alpha", "gamma", "beta", "epsilon", "delta_p")

        def inner(s):
            return K * C_B * (C_B * sr + s) * sympy.sqrt(d + sympy.log(T * K / al)) / (kl * pp)

        pre = g * C_B * _S_sym(T, b)
        np_part = pre * inner(0) ** (1 + b)
        return np_part, pre * inner(_sigma_sym(eps, dp)) ** (1 + b) - np_part


class Thm41OLSCorrected(Thm41OLS):
    """seed 002 Thm 4.1 (OLS) with σ_{ε/2,δ/2} in place of σ_{ε,δ} (sheet §0: the multi-parameter algorithm runs
    the (ε/2, δ/2) mechanisms, Prop 4.1; c̃ of Thm 4.1 already uses σ_{ε/2,δ/2}). Constants as the paper form.

    Its symbols epsilon, delta_p are the mechanisms' ε/2, δ/2; the calibration range is kept on the budget's ε
    (2·epsilon < 6.77, as the statement it corrects), which also covers ε/2 < 6.77.
    """

    id = "002-thm4.1-ols-corrected"
    title = "LDP-OLS multi-parameter regret — corrected: noise of the (ε/2, δ/2) mechanisms"
    source = "seed 002 Thm 4.1 (OLS part), Prop 4.1; sheet §0"
    form = "corrected"
    half_budget = True
    requires = ("beta > 0", "delta_p > 0", "2*epsilon < 6.77")
    caveats = (
        "corrected: not the paper's statement — σ_{ε/2,δ/2} replaces σ_{ε,δ} (sheet §0, 1.6, 7.8); C = 1, o(1) = 0",
        CAV_OLS_PRIVACY, CAV_41, CAV_ELIM,
    )


class Thm41SGD(_SGDCommon):
    """seed 002 Thm 4.1 (SGD), paper form (C = 1, o(1) = 0):
    Reg ≤ γ L C_B [K r_{ε,d} L C_B √(log(TK log T/α))/(ζ κ_l p')]^{1+β} S(T), 0 < β ≤ 1.
    """

    id = "002-thm4.1-sgd"
    title = "LDP-SGD multi-parameter regret (Algorithm 2) — as stated"
    algorithm = "LDP-SGD (multi-parameter)"
    source = "seed 002 Thm 4.1 (SGD part); Lemmas D.2–D.4, D.12"
    kind = "upper-problem-dependent"
    form = "paper"
    params = ("d", "K", "c_r", "C_B", "zeta", "L", "kappa_l", "p_prime", "delta", "gamma", "beta")
    assumptions = ("A1", "A5", "A6", "step size as in Thm 4.1 (garbled; sheet 2.4)", "probability ≥ 1 − α")
    requires = ("beta > 0", "T >= 3")
    requires_notes = {"beta > 0": "Thm 4.1 needs β > 0 (β = 0 is left open by the paper)",
                      "T >= 3": "log(TK log T/α) > 0 needs log T > 0"}
    caveats = (CAV_41_HALF, CAV_41, CAV_ELIM, CAV_SGD_CLIP)

    def expression(self):
        import sympy

        T, d, K, C_B, z, L, kl, pp, al, g, b = _sym("T", "d", "K", "C_B", "zeta", "L", "kappa_l", "p_prime", "alpha",
                                                    "gamma", "beta")
        r0, r1 = _r_parts_sym()

        def inner(r):
            return K * r * L * C_B * sympy.sqrt(sympy.log(T * K * sympy.log(T) / al)) / (z * kl * pp)

        pre = g * L * C_B * _S_sym(T, b)
        np_part = pre * inner(r0) ** (1 + b)
        return np_part, pre * inner(r0 + r1) ** (1 + b) - np_part


class Thm41SGDCorrected(Thm41SGD):
    """seed 002 Thm 4.1 (SGD) with r_{ε/2,d} (the Ψ_{ε/2,R} mechanism of Prop 4.2) in place of r_{ε,d}."""

    id = "002-thm4.1-sgd-corrected"
    title = "LDP-SGD multi-parameter regret — corrected: radius of the ε/2 L2-ball mechanism"
    source = "seed 002 Thm 4.1 (SGD part), Prop 4.2; sheet §0"
    form = "corrected"
    half_budget = True
    caveats = (
        "corrected: not the paper's statement — r_{ε/2,d} replaces r_{ε,d} (sheet §0, 1.6, 7.8); C = 1, o(1) = 0",
        CAV_41, CAV_ELIM, CAV_SGD_CLIP,
    )


BOUNDS = [
    Thm31OLS(),
    Thm31SGD(),
    Thm31SGDCorrected(),
    Thm31SGDExplicit(),
    Thm32Lower(),
    Thm33OLS(),
    Thm33SGD(),
    Thm41OLS(),
    Thm41OLSCorrected(),
    Thm41SGD(),
    Thm41SGDCorrected(),
]
