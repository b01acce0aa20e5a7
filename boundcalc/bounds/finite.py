"""Finite-armed bounds of seeds 000, 001 and 003 (plus the results those papers quote), one object each.

Sources (formula sheets in docs/formulas, overridden by docs/errata.md; seed text wins over a sheet):
- seed 001 (ε-global DP, Bernoulli arms): Lai–Robbins (Eq. 3), Thm 3.1 (Eqs. 5–6, d_ε of Eq. 8 /
  Lemma F.1), Eq. 7 (Azize & Basu 2022 Thm 3, c ∈ {6, 1}), Shariff & Sheffet (2018) as quoted in §1,
  Thm 4.3 (= Thm F.7 DP-IMED, Thm F.9 DP-KLUCB), AdaP-UCB / AdaP-KLUCB (Azize & Basu 2022 Thm 7 / 8,
  quoted as Eq. 49), DP-SE (Sajed & Sheffet 2019, baseline of §5 / App. G);
- seed 003 (ρ-zCDP): AdaC-UCB Thm 10 (problem-dependent), Thm 11 (minimax), Thm 17 (minimax lower bound);
- seed 000 ((α, ε)-RDP): AdaR-UCB Thm 5 (gap-dependent), Cor. 6 (gap-independent).

Asymptotic bounds (kind ``*-asymptotic``) are evaluated as (constant)·ln T: the constant of the liminf /
limsup statement times ln T, the o(ln T) remainder dropped. Per-arm sums appear in the sympy expressions
as symbols, e.g. ``H_kl = Σ_{a:Δ_a>0} Δ_a/kl(μ_a, μ*)``: registered quantities of boundcalc.bounds.quantities (numpy,
mpmath and interval implementations, each with its source); every T-dependence and every constant is explicit in
the expression.

One definition (issue 15): each bound declares its sympy ``expression()`` and its assumptions on scalars as
``requires`` relations; the numbers (``terms``) are the lambdified expression (``base.Bound.terms``) with the values of
``_Finite.symbol_values`` (registered quantities, the own budget, scalar instance parameters).
"""

from __future__ import annotations

import re

import numpy as np

from .. import validate as v
from ..errors import InputError
from . import quantities
from .base import Bound, Context, failing_requirements, lambdified

# The default instance: seed 001 §5 / App. G (Sajed & Sheffet 2019 environment μ2), which is also the
# finite-armed environment of seed 003 Sec. VII. Algorithm parameters carry the papers' defaults, except
# AdaC-UCB: its experiments use β = 1, outside Thm 10/11's β > 3, so the default is the sheet's β = 3.5
# (zcdp sheet §9); seed 000 has no experiments, β = 3.1 follows the rdp sheet check 6.4.
DEFAULT_INSTANCE = {
    "name": "seed 001 App. G / Sajed–Sheffet μ2 (= seed 003 Sec. VII finite-armed environment)",
    "means": [0.75, 0.625, 0.5, 0.375, 0.25],
    "K": None,  # None: len(means); a K alone gives the μ2 pattern with K arms (means evenly spaced 0.75 … 0.25)
    "alpha_batch": 2.0,  # DP-KLUCB / DP-IMED batch ratio α (seed 001 §5: α = 2)
    "alpha_adap": 3.1,  # AdaP-UCB / AdaP-KLUCB optimism α (Azize & Basu 2022 experiments; α > 3 needed)
    "dpse_beta": "1/T",  # DP-SE confidence β (seed 001 §5: β = 1/T)
    "beta_adac": 3.5,  # AdaC-UCB β (seed 003 experiments use β = 1 < 3; sheet §9 uses 3.5)
    "beta_adar": 3.1,  # AdaR-UCB β (seed 000 has no experiments; rdp sheet check 6.4)
    "klucb_c": 0.0,  # KL-UCB's c in ln t + c ln ln t (the algorithm's default, practice); its bound needs c >= 3
}
# What a machine can do: per-arm sums in the bounds and runs × K pull counts in --check.
LIMITS = {"K": 10**5}
# CLI options of `regret` that set an instance parameter of this setting (the others are noted as without effect)
OPTION_KEYS = {"--means": "means", "--K": "K"}
ALIASES: dict = {}
KEY_FEEDS = {"means": ("means", "K"), "K": ("K", "means")}
KEY_USES: dict = {}


# --------------------------------------------------------------------------------------------------
# instance
# --------------------------------------------------------------------------------------------------
def derive(params: dict) -> dict:
    """Validate a finite-armed instance and add K, mu_star, mu_min, Delta, Delta_min, n_sub, unique_best, eps_a.

    ``K`` given with the default means: the μ2 pattern with K arms, means evenly spaced from 0.75 to 0.25
    (μ2 itself is this pattern with K = 5); ``K`` given with explicit means must equal their number.
    Raises InputError for means outside [0, 1], an empty list, a batch ratio ≤ 1, non-positive β/α, a
    DP-SE β outside (0, 1) (other than the string "1/T") or K outside [2, LIMITS["K"]].
    """
    p = dict(params)
    given = p.pop("_given", None)  # keys the caller set (registry.make_context), None: unknown
    raw = p.get("means", DEFAULT_INSTANCE["means"])
    K_req = p.get("K")
    if K_req is not None:
        K_req = v.count("K", K_req, minimum=2, maximum=LIMITS["K"])
    means_default = ("means" not in given) if given is not None else _is_default_means(raw)
    if K_req is not None and means_default:
        if K_req != len(DEFAULT_INSTANCE["means"]):
            raw = list(np.linspace(0.75, 0.25, K_req))
            p["instance_name"] = (f"μ2 pattern with K = {K_req} arms: means evenly spaced from 0.75 to 0.25 "
                                  "(seed 001 App. G μ2 is the case K = 5)")
    means = np.asarray(v.means("means", raw), dtype=float)
    if means.size > LIMITS["K"]:
        raise InputError("means", f"at most {LIMITS['K']} arm means", means.size)
    if K_req is not None and K_req != means.size:
        raise InputError("K", f"equal to the number of arm means given ({means.size})", K_req)
    p["means"] = [float(m) for m in means]
    p["alpha_batch"] = v.greater_than("alpha_batch", p.get("alpha_batch", 2.0), 1.0)
    p["alpha_adap"] = v.positive("alpha_adap", p.get("alpha_adap", 3.1))
    p["beta_adac"] = v.positive("beta_adac", p.get("beta_adac", 3.5))
    p["beta_adar"] = v.positive("beta_adar", p.get("beta_adar", 3.1))
    p["klucb_c"] = v.nonnegative("klucb_c", p.get("klucb_c", 0.0))
    b = p.get("dpse_beta", "1/T")
    if isinstance(b, str) and b.replace(" ", "").upper() == "1/T":
        p["dpse_beta"] = "1/T"
    else:
        try:
            p["dpse_beta"] = v.open_unit("dpse_beta", b)
        except InputError:
            raise InputError("dpse_beta", "'1/T' or a number in (0, 1)", b) from None
    K = len(means)
    mu_star = float(means.max())
    gaps = mu_star - means
    sub = gaps > 0
    p["K"] = K
    p["mu_star"] = mu_star
    p["mu_min"] = float(means.min())
    p["Delta"] = [float(g) for g in gaps]
    p["n_sub"] = int(sub.sum())
    p["Delta_min"] = float(gaps[sub].min()) if sub.any() else 0.0
    p["Delta_max"] = float(gaps.max())
    p["n_best"] = int((~sub).sum())
    p["unique_best"] = bool(p["n_best"] == 1)
    p["eps_a"] = [float(e) for e in _eps_threshold(means, mu_star)]
    return p


def _is_default_means(raw) -> bool:
    try:
        return [float(x) for x in raw] == [float(x) for x in DEFAULT_INSTANCE["means"]]
    except (TypeError, ValueError):
        return False


def _eps_threshold(means, mu_star):
    """ε_a = logit(μ*) − logit(μ_a): d_ε(μ_a, μ*) = kl iff ε ≥ ε_a (seed 001 Eq. 8); 0 for optimal arms."""
    from ..info import epsilon_threshold

    return np.asarray(epsilon_threshold(np.asarray(means, float), mu_star), dtype=float)


def _sym(*names):
    import sympy

    return [sympy.Symbol(n, positive=True) for n in names]


def _Tsym():
    import sympy

    return sympy.Symbol("T", positive=True)


# the own budget's parameters as the expressions' symbols: symbol -> attribute of the budget
_BUDGET_SYMBOLS = {"pure": {"epsilon": "epsilon"}, "zcdp": {"rho": "rho"},
                   "rdp": {"alpha_rdp": "alpha", "epsilon_rdp": "epsilon"}}

# how ``conditions`` words a failing ``requires`` relation ({values}: the names' values, e.g. "beta_adac = 1")
_READABLE = {
    "mu_min > 0": "needs means in the open interval (0, 1): smallest mean > 0 ({values})",
    "mu_star < 1": "needs means in the open interval (0, 1): largest mean < 1 ({values})",
    "n_best < 2": "needs a unique best arm ({values} arms with the largest mean)",
    "n_sub >= 1": "no suboptimal arm: every arm is optimal, regret is 0 ({values})",
    "beta_adac > 3": "needs β > 3 ({values})",
    "beta_adar > 3": "needs β > 3 ({values})",
    "alpha_adap > 3": "needs α > 3 ({values})",
    "K > 1": "needs K > 1 arms ({values})",
    "rho <= 1": "needs ρ ≤ 1 ({values}); for ρ > 1 only the non-private term holds",
}
_MEANS_OPEN = ("mu_min > 0", "mu_star < 1")  # Bernoulli means in (0, 1): kl and d_ε finite


class _Finite(Bound):
    """A finite-armed bound: ``expression()`` and ``requires`` declared; values and conditions derived here."""

    setting = "finite"
    params = ("means",)

    def symbol_values(self, ctx, budget):
        """Values of the expression's symbols: the own budget's parameters (ε; ρ; α_rdp, ε_rdp), the registered
        quantities of the instance's arms (boundcalc.bounds.quantities: H_kl, H_eps, … with this bound's ε and
        constant ``c``) and scalar instance parameters (K, β, α, …)."""
        names = [n for n in lambdified(self, "numpy")[1] if n != "T"]
        out = {}
        if budget is not None:
            out.update({s: float(getattr(budget, a)) for s, a in _BUDGET_SYMBOLS.get(self.notion, {}).items()})
        qnames = [n for n in names if n in quantities.QUANTITIES]
        if qnames:
            arms = quantities.arms_numpy(ctx["means"], ctx["K"])
            out.update(quantities.values(qnames, arms, epsilon=out.get("epsilon"), c=getattr(self, "c", None)))
        out.update({n: float(ctx[n]) for n in names if n not in out})
        return {n: out[n] for n in names}

    def conditions(self, ctx):
        """Each failing ``requires`` relation, worded by ``_READABLE``.

        Relations on instance parameters only are checked without the budget (no conversion computed). A budget
        with no conversion to the bound's notion is not this bound's budget: relations on the budget are then
        skipped like those of an absent budget (the missing conversion is reported by the caller)."""
        if self.notion != "none" and ctx.budget is not None:
            used = set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", " ".join(self.requires)))
            if not used & set(_BUDGET_SYMBOLS.get(self.notion, {})) or ctx.budget_for(self)[0] is None:
                ctx = Context(params=ctx.params, budget=None, instance_name=ctx.instance_name)
        out = []
        for r in failing_requirements(self, ctx):
            text = next((t for t in self.requires if r.startswith(f"needs {t} (")), None)
            if text in _READABLE:
                r = _READABLE[text].format(values=r[len(f"needs {text} ("):-1])
            out.append(r)
        return out


# ==================================================================================================
# seed 001: lower bounds (ε-global DP, Bernoulli)
# ==================================================================================================
class LaiRobbins(_Finite):
    """Lai–Robbins (1985) for Bernoulli arms: liminf Reg_T/ln T ≥ Σ Δ_a/kl(μ_a, μ*) (seed 001 Eq. 3)."""

    id = "001-lai-robbins"
    title = "Lai–Robbins asymptotic lower bound (Bernoulli, non-private)"
    algorithm = None
    seed = "001"
    source = "seed 001 Eq. 3 (Lai & Robbins 1985; KL_inf = kl for Bernoulli arms)"
    notion = "none"
    kind = "lower-asymptotic"
    form = "exact"
    assumptions = ("Bernoulli arms with means in (0, 1)", "consistent policy (Reg_T = o(T^s) for all s > 0)")
    caveats = ("asymptotic: evaluated as (Σ_a Δ_a/kl(μ_a, μ*))·ln T, the liminf constant times ln T",)
    regime_note = "non-private: the ε → ∞ limit of seed 001 Thm 3.1"
    requires = _MEANS_OPEN

    def expression(self):
        import sympy

        (Hk,) = _sym("H_kl")
        return Hk * sympy.log(_Tsym()), sympy.Integer(0)


class Thm31(_Finite):
    """seed 001 Thm 3.1 (Eq. 5): liminf Reg_T/ln T ≥ LB_ε(ν) = Σ_{a:Δ_a>0} Δ_a/d_ε(μ_a, μ*)."""

    id = "001-thm3.1"
    title = "ε-global-DP asymptotic lower bound with d_ε (Bernoulli)"
    algorithm = None
    seed = "001"
    source = "seed 001 Thm 3.1 (Eq. 5, d_ε of Eq. 6 / closed form Eq. 8)"
    notion = "pure"
    kind = "lower-asymptotic"
    form = "exact"
    assumptions = (
        "Bernoulli arms with means in (0, 1)",
        "policy ε-global DP and consistent over the class of Bernoulli bandits",
    )
    caveats = (
        "asymptotic: evaluated as LB_ε(ν)·ln T (liminf constant times ln T)",
        "correct (ERRATA #14, #15): closed form of d_ε verified; Thm 3.1 ≥ Eq. 7 for c ∈ {1, 6}",
    )
    regime_note = (
        "privacy is free (LB_ε = Lai–Robbins constant) iff ε ≥ max_a ε_a, ε_a = logit(μ*) − logit(μ_a) "
        "(seed 001 Eq. 8); for ε → 0, LB_ε ≈ (#suboptimal arms)/ε"
    )
    requires = _MEANS_OPEN

    def expression(self):
        import sympy

        Hk, He = _sym("H_kl", "H_eps")
        L = sympy.log(_Tsym())
        return Hk * L, (He - Hk) * L


class Eq7(_Finite):
    """seed 001 Eq. 7 = Azize & Basu (2022) Thm 3 for Bernoulli: Σ Δ_a / min{kl(μ_a, μ*), c·ε·Δ_a}."""

    algorithm = None
    seed = "001"
    notion = "pure"
    kind = "lower-asymptotic"
    form = "exact"
    assumptions = (
        "Bernoulli arms with means in (0, 1)",
        "policy ε-global DP and consistent over the class of Bernoulli bandits",
    )
    regime_note = "privacy matters for arm a iff c·ε·Δ_a < kl(μ_a, μ*)"
    requires = _MEANS_OPEN

    def __init__(self, c: float):
        self.c = float(c)
        self.id = f"001-eq7-c{int(c)}"
        self.title = f"Azize–Basu 2022 asymptotic lower bound, min(kl, {int(c)}·ε·Δ) (Bernoulli)"
        self.source = f"seed 001 Eq. 7 (Azize & Basu 2022 Thm 3 specialised to Bernoulli, c = {int(c)})"
        which = (
            "c = 6 is the constant printed in Azize & Basu 2022 Thm 3 (Karwa–Vadhan lemma)"
            if c == 6
            else "c = 1 is the first author's later restatement (coupling-based KL bound)"
        )
        self.caveats = (
            "asymptotic: evaluated as (Σ_a Δ_a/min{kl, c·ε·Δ_a})·ln T",
            f"UNCERTAIN (sheet): which constant seed 001 prints in Eq. 7 (stripped); {which}; both registered",
            "correct (ERRATA #15): Thm 3.1 ≥ Eq. 7 for c ∈ {1, 6}",
        )

    def expression(self):
        import sympy

        Hk, Hc = _sym("H_kl", "H_min")  # H_min with this bound's c (symbol_values passes self.c)
        L = sympy.log(_Tsym())
        return Hk * L, (Hc - Hk) * L


class _InvGapsPlusKOverEps(_Finite):
    """(Σ_{a:Δ_a>0} 1/Δ_a + K/ε)·ln T: the shape shared by Shariff–Sheffet's lower bound and DP-SE's upper
    bound in paper form (formula sheet 001 §3.3 and §7.1, as cited in seed 001 §1 and §5; constants set to 1)."""

    requires = ("n_sub >= 1",)

    def expression(self):
        import sympy

        Hi, K, eps = _sym("H_inv", "K", "epsilon")
        L = sympy.log(_Tsym())
        return Hi * L, K / eps * L


class ShariffSheffet(_InvGapsPlusKOverEps):
    """Shariff & Sheffet (2018) as quoted in seed 001 §1: Ω(Σ_{a≠a*} ln T/Δ_a + K ln T/ε)."""

    id = "001-shariff-sheffet"
    title = "Shariff–Sheffet ε-DP lower bound, Ω(Σ ln T/Δ_a + K ln T/ε) (paper form)"
    algorithm = None
    seed = "001"
    source = "seed 001 §1 / Eq. 7 discussion (Shariff & Sheffet 2018 lower bound, as quoted; sheet §3.3)"
    notion = "pure"
    kind = "lower-asymptotic"
    form = "paper"
    assumptions = ("Bernoulli arms", "policy ε-global DP and consistent")
    caveats = (
        "paper form: Ω(·) with its hidden constant set to 1; no explicit constants are given",
        "asymptotic: evaluated as (Σ_{a:Δ_a>0} 1/Δ_a + K/ε)·ln T",
        "seed 001 (Eq. 7 and Thm 3.1 Cor.) gives explicit-constant refinements: LB_ε ≥ (#suboptimal)/ε",
    )
    regime_note = "privacy matters when K/ε exceeds Σ_a 1/Δ_a"



# ==================================================================================================
# seed 001: upper bounds (ε-global DP)
# ==================================================================================================
class Thm43(_Finite):
    """seed 001 Thm 4.3 (Thm F.7 DP-IMED, Thm F.9 DP-KLUCB): limsup Reg_T/ln T ≤ α·LB_ε(ν)."""

    seed = "001"
    notion = "pure"
    kind = "upper-asymptotic"
    form = "exact"
    params = ("means", "alpha_batch")
    assumptions = (
        "Bernoulli arms",
        "geometric batches of ratio α > 1 (Eq. 14), α = alpha_batch",
    )
    regime_note = "as seed 001 Thm 3.1: privacy is free iff ε ≥ max_a ε_a"
    requires = _MEANS_OPEN + ("n_best < 2",)

    def __init__(self, algo: str):
        self.algorithm = algo
        thm = "Thm F.7" if algo == "DP-IMED" else "Thm F.9"
        self.id = f"001-thm4.3-{algo.lower()}"
        self.title = f"{algo} asymptotic upper bound α·LB_ε(ν)·ln T"
        self.source = f"seed 001 Thm 4.3 ({thm})"
        self.caveats = (
            "asymptotic: evaluated as α·LB_ε(ν)·ln T; the o(ln T) remainder has no explicit constant "
            "(the proof ends with a slack δ → 0)",
            "UNCERTAIN (sheet): the assumption line of Thm 4.3 is stripped; read as means in (0, 1) with a "
            "unique optimal arm",
        )

    def expression(self):
        import sympy

        a, Hk, He = _sym("alpha_batch", "H_kl", "H_eps")
        L = sympy.log(_Tsym())
        return a * Hk * L, a * (He - Hk) * L


class AdaPUCB(_Finite):
    """Azize & Basu (2022) Thm 7, quoted in seed 001 §4 / Eq. 49: Σ_a (16α ln T/min{Δ_a, ε} + α/(α−3))."""

    id = "001-adap-ucb"
    title = "AdaP-UCB upper bound Σ (16α ln T/min{Δ_a, ε} + α/(α−3))"
    algorithm = "AdaP-UCB"
    seed = "001"
    source = "seed 001 Eq. 49 context (Azize & Basu 2022 Thm 7, as quoted in the sheet §6)"
    notion = "pure"
    kind = "upper-problem-dependent"
    form = "exact"
    params = ("means", "alpha_adap")
    assumptions = ("rewards in [0, 1]", "optimism parameter α > 3 (alpha_adap)")
    caveats = ("non-private part = the ε → ∞ limit Σ_a (16α ln T/Δ_a + α/(α−3))",)
    regime_note = "privacy matters for arm a iff ε < Δ_a"
    requires = ("alpha_adap > 3", "n_sub >= 1")

    def expression(self):
        import sympy

        a, Hi, Hm, n = _sym("alpha_adap", "H_inv", "H_min_eps", "n_sub")
        L = sympy.log(_Tsym())
        return 16 * a * Hi * L + n * a / (a - 3), 16 * a * (Hm - Hi) * L


class AdaPKLUCB(_Finite):
    """Azize & Basu (2022) Thm 8 = seed 001 Eq. 49: Σ_a [C1 Δ_a/min{kl, C2 ε Δ_a} ln T + α/(α−3)]."""

    id = "001-adap-klucb-paper"
    title = "AdaP-KLUCB upper bound Σ [C1·Δ_a ln T/min{kl, C2·ε·Δ_a} + α/(α−3)] (paper form, C1 = C2 = 1)"
    algorithm = "AdaP-KLUCB"
    seed = "001"
    source = "seed 001 Eq. 49 (Azize & Basu 2022 Thm 8)"
    notion = "pure"
    kind = "upper-problem-dependent"
    form = "paper"
    params = ("means", "alpha_adap")
    assumptions = ("Bernoulli arms with means in (0, 1)", "optimism parameter α > 3 (alpha_adap)")
    caveats = (
        "paper form: C1(α) and C2 set to 1",
        "UNCERTAIN (sheet): the definitions of C1(α), C2 in Eq. 49 are stripped; seed 001 says they may "
        "depend on ν and T, so they are not universal constants",
        "UNCERTAIN (sheet): additive α/(α−3) read as per arm (inside the sum)",
    )
    regime_note = "privacy matters for arm a iff C2·ε·Δ_a < kl(μ_a, μ*)"
    requires = ("alpha_adap > 3",) + _MEANS_OPEN

    def expression(self):
        import sympy

        a, Hk, Hc, n = _sym("alpha_adap", "H_kl", "H_min", "n_sub")  # H_min with c = C2 = 1
        L = sympy.log(_Tsym())
        return Hk * L + n * a / (a - 3), (Hc - Hk) * L


class DPSEPaper(_InvGapsPlusKOverEps):
    """Sajed & Sheffet (2019) DP-SE, quoted in seed 001 §5: O(Σ_a ln T/Δ_a + K ln T/ε)."""

    id = "001-dp-se-paper"
    title = "DP-SE upper bound O(Σ ln T/Δ_a + K ln T/ε) (paper form)"
    algorithm = "DP-SE"
    seed = "001"
    source = "seed 001 App. G baseline DP-SE (Sajed & Sheffet 2019 regret theorem, as quoted; sheet §7.1)"
    notion = "pure"
    kind = "upper-problem-dependent"
    form = "paper"
    assumptions = ("rewards in [0, 1]", "confidence β = 1/T")
    caveats = ("paper form: constants hidden in O(·) set to 1",)
    regime_note = "privacy matters when K/ε exceeds Σ_a 1/Δ_a"


class DPSEExplicit(_Finite):
    """DP-SE with the constants of sheet §7.1, regret bound derived from the elimination argument.

    Derivation (DERIVED; R_e, h_e, c_e as in sheet §7.1): R_e ≥ 32 ln(8|S|e²/β)/Δ_e² and
    R_e ≥ 8 ln(4|S|e²/β)/(εΔ_e) give h_e ≤ Δ_e/8 and c_e ≤ Δ_e/8. Good event: every epoch mean is within
    h_e (Hoeffding, prob. ≥ 1 − β/(4|S|e²) per arm) and the Laplace noise within c_e (prob. ≥ 1 − β/(4|S|e²));
    its complement has probability ≤ Σ_e β/(2e²) = βπ²/12. On it the best arm survives and arm a is
    eliminated by the end of epoch e_a = ⌊log2(1/Δ_a)⌋ + 1 (first Δ_e < Δ_a, so Δ_a > 4(h_e + c_e)).
    Using max ≤ sum, Σ_{e≤e_a} 4^e ≤ (16/3)/Δ_a², Σ_{e≤e_a} 2^e ≤ 4/Δ_a and |S| ≤ K:
        Reg_T ≤ Σ_a [ (512/3)·ln(8K e_a²/β)/Δ_a + 32·ln(4K e_a²/β)/ε + e_a·Δ_a ] + T·Δ_max·β·π²/12.
    Registered for β = 1/T (seed 001's regret experiments), where the last term is Δ_max·π²/12.
    """

    id = "001-dp-se-explicit"
    title = "DP-SE upper bound with explicit constants (DERIVED from the elimination argument)"
    algorithm = "DP-SE"
    seed = "001"
    source = "seed 001 App. G baseline DP-SE (Sajed & Sheffet 2019; constants of sheet §7.1)"
    notion = "pure"
    kind = "upper-problem-dependent"
    form = "explicit"
    params = ("means", "dpse_beta")
    assumptions = ("rewards in [0, 1]", "confidence β (dpse_beta; default 1/T)", "epoch lengths of sheet §7.1")
    param_notes = {"dpse_beta": "registered for β = 1/T only: any other β makes the bound not applicable"}
    caveats = (
        "DERIVED: Σ_a[(512/3) ln(8K e_a²/β)/Δ_a + 32 ln(4K e_a²/β)/ε + e_a Δ_a] + TΔ_max βπ²/12, "
        "e_a = ⌊log2(1/Δ_a)⌋ + 1, from the elimination argument with the sheet's R_e, h_e, c_e",
        "UNCERTAIN (sheet): constants taken from the first author's DP-SE implementation; whether "
        "Sajed & Sheffet use max or sum inside R_e (max used; the bound bounds max by the sum)",
    )
    regime_note = "privacy cost Σ_a 32 ln(4K e_a²/β)/ε vs non-private (512/3) Σ_a ln(8K e_a²/β)/Δ_a"
    requires = ("n_sub >= 1",)

    def conditions(self, ctx):
        # dpse_beta is the string "1/T" or a number: not a relation on scalars, so it stays code
        out = super().conditions(ctx)
        if ctx["dpse_beta"] != "1/T":
            out.append(f"explicit DP-SE form is registered for β = 1/T only (got dpse_beta = {ctx['dpse_beta']!r})")
        return out

    def expression(self):
        # β = 1/T: ln(8K e²/β) = ln(8K e²) + ln T, and T·Δ_max·β·π²/12 = Δ_max·π²/12; S_1, S_2, S_3, H_inv, n_sub,
        # Delta_max are registered quantities (boundcalc.bounds.quantities)
        import sympy

        T = _Tsym()
        S1, S2, Hi, S3, n, eps, dmax = _sym("S_1", "S_2", "H_inv", "S_3", "n_sub", "epsilon", "Delta_max")
        L = sympy.log(T)
        nonpriv = sympy.Rational(512, 3) * (S1 + Hi * L) + S3 + dmax * sympy.pi**2 / 12
        priv = 32 / eps * (S2 + n * L)
        return nonpriv, priv


# ==================================================================================================
# seeds 003 and 000: AdaC-UCB (ρ-zCDP) and AdaR-UCB ((α, ε)-RDP) share their bounds' shape; the budget
# enters only through r = 1/ρ (seed 003 Thm 10, 11) or r = α/ε (seed 000 Thm 5, Cor. 6).
# ==================================================================================================
class _AdaUCB(_Finite):
    """Common part of the AdaC-UCB / AdaR-UCB bounds: the optimism β (``beta_key``) and r(budget) = 1/ρ or α/ε."""

    beta_key = ""

    def _r_sym(self):
        if self.notion == "zcdp":
            (rho,) = _sym("rho")
            return 1 / rho
        a, e = _sym("alpha_rdp", "epsilon_rdp")
        return a / e


class _AdaUCBGapDependent(_AdaUCB):
    """Σ_{a:Δ_a>0} (8β ln T/Δ_a + 8√(β r)·√(ln T) + 2β/(β−3))  (seed 003 Thm 10 / seed 000 Thm 5)."""

    kind = "upper-problem-dependent"
    form = "exact"

    def expression(self):
        import sympy

        b, Hi, n = _sym(self.beta_key, "H_inv", "n_sub")
        L = sympy.log(_Tsym())
        return 8 * b * Hi * L + n * 2 * b / (b - 3), n * 8 * sympy.sqrt(b * self._r_sym()) * sympy.sqrt(L)


class _AdaUCBMinimaxPaper(_AdaUCB):
    """O(√(K T ln T)) + O(K √(r ln T)) with the hidden constants set to 1 (seed 003 Thm 11 / seed 000 Cor. 6)."""

    kind = "upper-minimax"
    form = "paper"
    params = ("K",)
    requires = ("K > 1",)

    def expression(self):
        import sympy

        (K,) = _sym("K")
        T = _Tsym()
        L = sympy.log(T)
        return sympy.sqrt(K * T * L), K * sympy.sqrt(self._r_sym() * L)


class _AdaUCBMinimaxExplicit(_AdaUCB):
    """4√(2βKT ln T) + 8K√(β r ln T) + (additive term of the subclass) (seed 003 Thm 11 proof / seed 000 Cor. 6)."""

    kind = "upper-minimax"
    form = "explicit"

    def additive_sym(self):
        """sympy form of the β-dependent additive term of the non-private part (set by the subclass)."""
        raise NotImplementedError

    def expression(self):
        import sympy

        K, b = _sym("K", self.beta_key)
        T = _Tsym()
        L = sympy.log(T)
        return (4 * sympy.sqrt(2 * b * K * T * L) + self.additive_sym(),
                8 * K * sympy.sqrt(b * self._r_sym() * L))


# ==================================================================================================
# seed 003: AdaC-UCB (ρ-zCDP) and the minimax lower bound
# ==================================================================================================
class Thm10(_AdaUCBGapDependent):
    """seed 003 Thm 10: Reg_T ≤ Σ_{a:Δ_a>0} (8β ln T/Δ_a + 8√(β/ρ)·√(ln T) + 2β/(β−3))."""

    id = "003-thm10"
    title = "AdaC-UCB problem-dependent upper bound (ρ-zCDP)"
    algorithm = "AdaC-UCB"
    seed = "003"
    source = "seed 003 Thm 10 (App. C-D, Eq. 19)"
    notion = "zcdp"
    kind = "upper-problem-dependent"
    form = "exact"
    params = ("means", "beta_adac")
    assumptions = ("rewards in [0, 1]", "optimism parameter β > 3 (beta_adac)")
    caveats = (
        "per-arm additive term: the proof gives Δ_a·2β/(β−3); the statement uses 2β/(β−3) (Δ_a ≤ 1)",
        "UNCERTAIN (sheet): n_a = N_a/2 = 1/2 right after initialisation (algorithmic, not the bound)",
        "default β = 3.5: seed 003's experiments use β = 1, outside the theorem's β > 3",
    )
    regime_note = (
        "privacy cost 8√(β/ρ)·√(ln T) per arm is additive and o(ln T): its ratio to the non-private part "
        "→ 0 as T → ∞ (seed 003 Table II)"
    )
    beta_key = "beta_adac"
    requires = ("beta_adac > 3", "n_sub >= 1")


class Thm11Paper(_AdaUCBMinimaxPaper):
    """seed 003 Thm 11 as stated: O(√(K T ln T)) + O(K √(ln(T)/ρ)), constants set to 1."""

    id = "003-thm11-paper"
    title = "AdaC-UCB minimax upper bound O(√(KT ln T)) + O(K√(ln T/ρ)) (paper form)"
    algorithm = "AdaC-UCB"
    seed = "003"
    source = "seed 003 Thm 11"
    notion = "zcdp"
    kind = "upper-minimax"
    form = "paper"
    params = ("K",)
    assumptions = ("rewards in [0, 1]", "β > 3")
    caveats = ("paper form: constants hidden in O(·) set to 1",)
    regime_note = "privacy cost K√(ln T/ρ) vs √(KT ln T): vanishes relative to it as T → ∞"


class Thm11Explicit(_AdaUCBMinimaxExplicit):
    """seed 003 Thm 11, end of its proof (Δ = √(8βK ln T/T)):
    Reg_T ≤ 4√(2βKT ln T) + 8K√(β ln T/ρ) + (3β/(β−3))·Σ_a Δ_a."""

    id = "003-thm11-explicit"
    title = "AdaC-UCB minimax upper bound, explicit constants from the proof of Thm 11"
    algorithm = "AdaC-UCB"
    seed = "003"
    source = "seed 003 Thm 11 (proof, App. C-D, last display)"
    notion = "zcdp"
    kind = "upper-minimax"
    form = "explicit"
    params = ("K", "means", "beta_adac")
    assumptions = ("rewards in [0, 1]", "optimism parameter β > 3 (beta_adac)")
    caveats = (
        "DERIVED: constants read off the last display of the paper's own proof of Thm 11 "
        "(4√(2βKT ln T) + 8K√(β ln T/ρ) + 3β/(β−3)·Σ_a Δ_a); the proof is labelled AdaP-UCB (leftover name)",
        "the additive term uses this instance's Σ_a Δ_a (≤ K − 1 over all Bernoulli instances)",
    )
    regime_note = "privacy cost 8K√(β ln T/ρ) is o(√(T ln T)): negligible for large T (seed 003 Table I)"
    beta_key = "beta_adac"
    requires = ("beta_adac > 3", "K > 1")

    def additive_sym(self):
        b, sd = _sym(self.beta_key, "sum_Delta")  # sum_Delta = Σ_a Δ_a, a registered quantity
        return 3 * b / (b - 3) * sd


class Thm17(_Finite):
    """seed 003 Thm 17: inf_π sup_ν Reg_T ≥ max{√(T(K−1))/27, √((K−1)/ρ)/124} (K > 1, T ≥ K−1, ρ ≤ 1)."""

    id = "003-thm17"
    title = "zCDP minimax lower bound, finite-armed"
    algorithm = None
    seed = "003"
    source = "seed 003 Thm 17 (App. G-B1)"
    notion = "zcdp"
    kind = "lower-minimax"
    form = "exact"
    params = ("K",)
    assumptions = ("K > 1", "T ≥ K − 1", "0 < ρ ≤ 1", "class E^K: unit-variance Gaussian arms in the proof")
    caveats = (
        "non-private part √(T(K−1))/27 (Lattimore–Szepesvári Thm 15.2); privacy cost = "
        "max{0, √((K−1)/ρ)/124 − √(T(K−1))/27}",
        "UNCERTAIN (sheet): statement says ρ-zCDP policies, the proof uses ρ-Interactive zCDP (Thm 8)",
        "hard instances are Gaussian: comparing with [0, 1]-reward upper bounds crosses environment classes",
        "T ≥ K − 1 is required: checked per horizon (a requires relation in T)",
    )
    regime_note = "privacy term dominates iff ρ·T < (27/124)² ≈ 0.0474 (docs/formulas/zcdp-bandits.md §5.2)"
    # max-type: the private term √((K−1)/ρ)/124 is the larger one iff the privacy cost is > 0
    combination = "max"
    requires = ("K > 1", "rho <= 1", "T >= K - 1")  # the T relation: checked where the context has a T

    def expression(self):
        import sympy

        K, rho = _sym("K", "rho")
        T = _Tsym()
        npv = sympy.sqrt(T * (K - 1)) / 27
        x = sympy.sqrt((K - 1) / rho) / 124 - npv
        return npv, sympy.Piecewise((x, x > 0), (0, True))


# ==================================================================================================
# seed 000: AdaR-UCB ((α, ε)-RDP)
# ==================================================================================================
class Thm5RDP(_AdaUCBGapDependent):
    """seed 000 Thm 5: Reg_T ≤ Σ_{a:Δ_a>0} (8β ln T/Δ_a + 8√(βα/ε)·√(ln T) + 2β/(β−3))."""

    id = "000-thm5"
    title = "AdaR-UCB gap-dependent upper bound ((α, ε)-RDP)"
    algorithm = "AdaR-UCB"
    seed = "000"
    source = "seed 000 Thm 5 (App. B.2)"
    notion = "rdp"
    kind = "upper-problem-dependent"
    form = "exact"
    params = ("means", "beta_adar")
    assumptions = ("rewards in [0, 1]", "optimism parameter β > 3 (beta_adar)")
    caveats = (
        "per-arm additive term: the proof gives Δ_a·2β/(β−3); the statement uses 2β/(β−3) (Δ_a ≤ 1)",
        "typo: the proof of Thm 5 uses ε both for the privacy level and a gap slack (rdp sheet §7.7)",
        "UNCERTAIN (sheet): n_a right after initialisation (algorithmic, not the bound)",
    )
    regime_note = (
        "privacy cost 8√(βα/ε)·√(ln T) per arm is additive and negligible against ln T/Δ as T → ∞ "
        "(seed 000 §4 'RDP for almost free')"
    )
    beta_key = "beta_adar"
    requires = ("beta_adar > 3", "n_sub >= 1")


class Cor6Paper(_AdaUCBMinimaxPaper):
    """seed 000 Cor. 6 as stated: O(√(KT ln T)) + O(K√((α/ε) ln T)), constants set to 1."""

    id = "000-cor6-paper"
    title = "AdaR-UCB gap-independent upper bound O(√(KT ln T)) + O(K√((α/ε) ln T)) (paper form)"
    algorithm = "AdaR-UCB"
    seed = "000"
    source = "seed 000 Cor. 6"
    notion = "rdp"
    kind = "upper-minimax"
    form = "paper"
    params = ("K",)
    assumptions = ("rewards in [0, 1]", "β > 3")
    caveats = (
        "paper form: constants hidden in O(·) set to 1",
        "Table 1 / introduction print the looser K√(α/ε)·ln T (rdp sheet §7.2); Cor. 6's form used",
    )
    regime_note = "privacy cost K√((α/ε) ln T) vs √(KT ln T): vanishes relative to it as T → ∞"


class Cor6Explicit(_AdaUCBMinimaxExplicit):
    """seed 000 Cor. 6, explicit: 4√(2βKT ln T) + 8K√(β(α/ε) ln T) + 2βK/(β−3) (rdp sheet §3.1, DERIVED)."""

    id = "000-cor6-explicit"
    title = "AdaR-UCB gap-independent upper bound, explicit constants (DERIVED)"
    algorithm = "AdaR-UCB"
    seed = "000"
    source = "seed 000 Cor. 6 (explicit constants derived from Thm 5, App. B.2)"
    notion = "rdp"
    kind = "upper-minimax"
    form = "explicit"
    params = ("K", "beta_adar")
    assumptions = ("rewards in [0, 1]", "optimism parameter β > 3 (beta_adar)")
    caveats = (
        "DERIVED: seed 000 gives no proof of Cor. 6; split arms at Δ = √(8βK ln T/T) and apply the per-arm "
        "form of Thm 5: TΔ + 8βK ln T/Δ + 8K√(β(α/ε) ln T) + 2βK/(β−3) (rdp sheet §3.1; Δ_a ≤ 1)",
        "seed 003's analogous proof (Thm 11) writes 3β/(β−3)·Σ_a Δ_a for the last term (looser)",
    )
    regime_note = "privacy cost 8K√(β(α/ε) ln T) is o(√(T ln T))"
    beta_key = "beta_adar"
    requires = ("beta_adar > 3", "K > 1")

    def additive_sym(self):
        b, K = _sym(self.beta_key, "K")
        return 2 * b * K / (b - 3)


BOUNDS: list[Bound] = [
    LaiRobbins(),
    Thm31(),
    Eq7(6),
    Eq7(1),
    ShariffSheffet(),
    Thm43("DP-KLUCB"),
    Thm43("DP-IMED"),
    AdaPUCB(),
    AdaPKLUCB(),
    DPSEPaper(),
    DPSEExplicit(),
    Thm10(),
    Thm11Paper(),
    Thm11Explicit(),
    Thm17(),
    Thm5RDP(),
    Cor6Paper(),
    Cor6Explicit(),
]
