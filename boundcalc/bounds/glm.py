"""Regret bounds of generalized linear bandits under local differential privacy (seed 002).

Han, Liang, Wang, Zhang, "Generalized Linear Bandits with Local Differential Privacy" (NeurIPS 2021),
seed file 002_8220a9ba03d6ddfa.txt; formula sheet docs/formulas/ldp-glm-bandits.md; verdicts from docs/errata.md.

Registered (one table per theorem and per estimator in glm.toml; see each comment):
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
- Declared as data (issue 23 item 4): every bound is a ``[[bound]]`` table of boundcalc/bounds/glm.toml (GLMBound,
  declared.TableBound), its texts written with the named pieces of :data:`DEFINITIONS` (σ_{ε,δ}, r_∞, r_{ε,d} − r_∞,
  S(T)); what stays code: the instance (``derive``), the symbols' values and the budget conversion
  (``_GLMBound``), Thm 3.2's Gaussian-context check (:data:`CHECKS`) and its budget-dependent horizon
  (:data:`HORIZONS`).
"""

from __future__ import annotations

import math

import numpy as np

from .. import validate as v
from ..errors import InputError, flag
from ..privacy.mechanisms import ldp_sigma
from . import quantities_glm as q
from .base import Bound, Context
from .declared import TableBound, builtin_table

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
# The parameters of `regret` (its options: cli/flags.py FLAGS) that set an instance parameter of this setting -> that
# parameter (the others are noted as without effect)
OPTION_KEYS = {"K": "K", "d": "d", "confidence": "delta", "theta": "theta"}
ALIASES: dict = {}
KEY_FEEDS = {"theta": (), "theta_seed": ()}
KEY_USES = {"theta": f"it sets theta* of {flag('check')}", "theta_seed": f"it draws theta* of {flag('check')}"}


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


class GLMBound(TableBound, _GLMBound):
    """A seed 002 bound declared as data: one ``[[bound]]`` table of boundcalc/bounds/glm.toml (metadata, ``requires``
    and their readings ``requires_notes``, the expression texts over the GLM symbols and the named pieces of
    :data:`DEFINITIONS`; declared.TableBound), with _GLMBound's values of the symbols and conditions. Each table
    cites its source (seed 002 Thm 3.1, 3.2, 3.3, 4.1 and the proof steps it uses)."""

    table_setting = "glm"
    half_budget = False
    horizon = None  # a function of HORIZONS: the smallest horizon (burn-ins) where it is not 1

    def allowed_symbols(self) -> tuple:
        from .symbols import GLM, budget_parameters

        return ("T",) + tuple(GLM) + ("alpha",) + tuple(budget_parameters("glm", self.notion))

    def min_horizon(self, ctx: Context) -> float:
        return HORIZONS[self.horizon](self, ctx) if self.horizon is not None else 1.0

    def terms(self, T, ctx, budget):
        # Kept as a guard only: a row that requires delta_p > 0 runs the Gaussian mechanism (the OLS estimators,
        # seed 002 Lemma 2.1); at δ = 0 it does not exist (σ_{ε,0} = ∞), so there is no value to lambdify — an
        # error, as the OLS bounds have always raised, not an infinite bound.
        if "delta_p > 0" in self.requires and not self._eps_delta(budget)[1] > 0:
            raise ValueError(f"{self.id}: the OLS mechanism needs δ > 0")
        return super().terms(T, ctx, budget)


def _thm32_proof_horizon(bound, ctx) -> float:
    """seed 002 Thm 3.2: T ≥ d²/(e^ε − 1)² of the proof (sheet §3.3), at the local-DP ε (1 without one: a budget that
    does not convert to local DP makes the bound inapplicable anyway)."""
    b = ctx.budget_for(bound)[0] if ctx.budget is not None else None
    eps = b.epsilon if b is not None else 1.0
    em1 = math.expm1(min(float(eps), 700.0))
    return math.inf if em1 == 0 or (float(ctx["d"]) / em1) ** 2 > 1e308 else (float(ctx["d"]) / em1) ** 2


def _gaussian_contexts(bound, ctx) -> list[str]:
    """seed 002 Thm 3.2's instance has N(0, I_d/d) contexts: a named predicate on a non-numeric parameter."""
    if ctx.get("context", "sphere") != "gaussian":
        return ["Thm 3.2's instance has contexts N(0, I_d/d) (set context = 'gaussian')"]
    return []


def _sigma_ldp():
    return _sigma_sym(*_sym("epsilon", "delta_p"))


def _r_inf():
    return _r_parts_sym()[0]


def _r_priv():
    return _r_parts_sym()[1]


def _S_T():
    return _S_sym(*_sym("T", "beta"))


# the Python pieces glm.toml may name: sympy pieces of the papers a text uses by name (seed 002 Eq. 3.3, Lemma 2.2,
# Thm 3.3 / 4.1), a condition that is no relation, a horizon that depends on the budget
DEFINITIONS = {"sigma_ldp": _sigma_ldp, "r_inf": _r_inf, "r_priv": _r_priv, "S_T": _S_T}
CHECKS = {"gaussian_contexts": _gaussian_contexts}
HORIZONS = {"thm32_proof": _thm32_proof_horizon}
GLMBound.DEFINITIONS, GLMBound.CHECKS = DEFINITIONS, CHECKS

# every bound of seed 002: one table each in glm.toml, read by the one loader
BOUNDS: list[Bound] = [GLMBound(**row) for row in builtin_table("glm.toml")]
