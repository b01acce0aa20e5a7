"""Bounds of the baseline algorithms the five papers simulate (issue 16 item 6): one object per published bound.

Every curve of the papers' figures belongs to an algorithm; the algorithms of the seeds have their bounds in the
setting modules (finite, linear, contextual, glm). The baselines here are the others, each with the bound its own
paper publishes, in the form the seeds quote where they quote one:

* finite (Bernoulli arms, rewards in [0, 1]):
  - UCB1: Auer, Cesa-Bianchi & Fischer 2002, "Finite-time Analysis of the Multiarmed Bandit Problem", Thm 1;
  - KL-UCB: Garivier & Cappé 2011, "The KL-UCB Algorithm for Bounded Stochastic Bandits and Beyond", Thm 1 / Cor. 1
    (the asymptotic constant Σ Δ_a / kl(μ_a, μ*), o(ln T) dropped as for the other asymptotic bounds);
  - IMED: Honda & Takemura 2015, "Non-asymptotic analysis of a new bandit algorithm for semi-bounded rewards"
    (JMLR 16), asymptotic optimality (D_inf = kl for Bernoulli arms), the non-private benchmark of seed 001 §5;
  - Lazy-DP-TS: Hu & Hegde 2022, "Near-optimal Thompson sampling-based algorithms for differentially private
    stochastic bandits" (UAI 2022), O(Σ_a ln T / min{Δ_a, ε}) as docs/formulas/eps-global-dp-bernoulli.md §7 (item 7.3)
    states it (a secondary summary; the O(·) constant set to 1);
* contextual:
  - OFUL: Abbasi-Yadkori, Pál & Szepesvári 2011, "Improved Algorithms for Linear Stochastic Bandits", Thm 3;
  - LinUCB (Li et al. 2010; Chu et al. 2011): the first term of seed 004 Thm 3 (Eq. 5), which seed 004 §3.3 calls
    "the same as the regret of non-private LinUCB";
  - Private-LinUCB (Neel & Roth 2018, "Mitigating bias in adaptive data gathering via differential privacy"):
    Õ(d√T) (seed 000 Remark 3) plus the added Õ(log^{2.5} T √T / ε) seed 004 §1 / §3.3 quotes;
* linear (finite action set):
  - GOPE (phased elimination with G-optimal design, Lattimore & Szepesvári 2020, "Bandit Algorithms", Cambridge
    University Press, Algorithm 12 of Ch. 22): Thm 22.1, R_n ≤ C sqrt(n d log(k n)) with δ = 1/n (C universal, not
    given), and an explicit form DERIVED from the proof of Thm 22.1 for the schedule boundcalc's GOPE runs;
* glm (local DP): LDP-UCB and LDP-GLOC (Zheng, Cai, Huang, Li & Wang 2020, "Locally Differentially Private
  (Contextual) Bandits Learning", NeurIPS 2020): Õ(T^{3/4}/ε), seed 002 Table 1.1 row 1.

One definition (issue 15): each bound declares ``expression()`` (sympy), ``symbol_values`` and ``requires``; the numbers
are the lambdified expression (``base.Bound.terms``); the per-arm sums are the registered quantities of
``bounds/quantities.py`` (H_inv, H_kl, H_min_eps, sum_Delta). The module exposes ``BOUNDS``; the registry adds each to
its settings (``registry.EXTRA_MODULES``: finite, linear, contextual, glm).
"""

from __future__ import annotations

from ._linear_common import BaseBound, syms
from .base import Bound
from .declared import builtin_table
from .finite import FiniteBound, _Tsym

_ASYMPTOTIC = ("scaling not shown: asymptotic statement (limsup of R_T / ln T); evaluated as the constant times ln T, "
               "the o(ln T) remainder dropped")
_O_FORM = "paper form: constants hidden in Õ(·) set to 1 and its logarithmic factors dropped; not a numeric bound"


# ==================================================================================================
# finite-armed (non-private and pure DP)
# ==================================================================================================
# UCB1 (Auer et al. 2002 Thm 1), KL-UCB (Garivier & Cappé 2011 Thm 1 / Cor. 1), IMED (Honda & Takemura 2015) and
# Lazy-DP-TS (Hu & Hegde 2022): the [[bound]] tables of boundcalc/bounds/baselines.toml (issue 23 item 4), each with
# its source and its statement.
FINITE_BOUNDS = [FiniteBound(**row) for row in builtin_table("baselines.toml")]


# ==================================================================================================
# contextual linear
# ==================================================================================================
class _ContextualBaseline(Bound):
    """A contextual baseline bound: symbols are scalar context parameters and the budget's ε."""

    setting = "contextual"
    params = ("d", "lam", "L", "S")
    # symbol -> context parameter it reads
    symbol_params: dict = {}

    def symbol_values(self, ctx, budget):
        out = {s: float(ctx[p]) for s, p in self.symbol_params.items()}
        if budget is not None and self.notion != "none":
            out["epsilon"] = float(budget.epsilon)
        return out


def _csym(*names):
    import sympy

    return [sympy.Symbol(n, positive=True) for n in names]


class OFULAbbasiYadkori(_ContextualBaseline):
    """OFUL, Abbasi-Yadkori, Pál & Szepesvári 2011 ("Improved Algorithms for Linear Stochastic Bandits", NeurIPS 2011)
    Thm 3: if ⟨x, θ*⟩ ∈ [−1, 1] for every context, ‖x‖ ≤ L, ‖θ*‖ ≤ S and the noise is R-sub-Gaussian, then with
    probability at least 1 − δ, for all T,

        R_T ≤ 4 sqrt(T d log(λ + T L / d)) (λ^{1/2} S + R sqrt(2 log(1/δ) + d log(1 + T L / (λ d)))),

    as printed (L, not L², inside the logarithms; the same at L = 1). The proof uses the paper's Lemma 11, stated for
    λ ≥ max(1, L²): that is a requirement here. R = 1 (±1 rewards and N(0, 1) noise are both 1-sub-Gaussian);
    S is the instance's ‖θ*‖ (the OFUL adapter's S)."""

    id = "oful-abbasi-yadkori2011-thm3"
    title = "OFUL high-probability regret (Abbasi-Yadkori, Pál & Szepesvári 2011, Thm 3)"
    algorithm = "OFUL"
    seed = "ext"
    source = "Abbasi-Yadkori, Pál & Szepesvári 2011, Improved Algorithms for Linear Stochastic Bandits, Thm 3"
    notion = "none"
    kind = "upper-minimax"
    form = "exact"
    params = ("d", "lam", "L", "theta_norm", "delta")
    assumptions = ("⟨x, θ*⟩ ∈ [−1, 1], ‖x‖ ≤ L, ‖θ*‖ ≤ S", "1-sub-Gaussian reward noise (R = 1)",
                   "λ ≥ max(1, L²) (Lemma 11, used in the proof)", "holds with probability ≥ 1 − δ")
    requires = ("max_action_norm <= L + 0.000000001", "max_action_norm*theta_norm <= 1.000000001", "lam >= 1",
                "lam >= L**2")
    symbol_params = {"d": "d", "lam": "lam", "L": "L", "S": "theta_norm", "delta": "delta"}

    def expression(self):
        import sympy

        d, lam, L, S, delta = _csym("d", "lam", "L", "S", "delta")
        T = _Tsym()
        width = sympy.sqrt(lam) * S + sympy.sqrt(2 * sympy.log(1 / delta) + d * sympy.log(1 + T * L / (lam * d)))
        return 4 * sympy.sqrt(T * d * sympy.log(lam + T * L / d)) * width, sympy.Integer(0)


class LinUCBSeed004(_ContextualBaseline):
    """Non-private LinUCB (Li et al. 2010; Chu et al. 2011) as seed 004 states it: the first term of seed 004 Thm 3
    (Eq. 5), "the same as the regret of non-private LinUCB" (seed 004 §3.3): with probability ≥ 1 − ζ,

        Regret(T) ≤ 2 (sqrt(d log((1 + T L² λ)/ζ)) + sqrt(λ) S) sqrt(d T log(λ + L T / d)).

    The elliptical-potential factor is the paper's misquotation of Abbasi-Yadkori et al. 2011 Lemma 11
    (docs/formulas/dgs-contextual.md §4); implemented as stated."""

    id = "linucb-seed004-thm3-nonprivate"
    title = "LinUCB regret as seed 004 Thm 3 states its non-private term"
    algorithm = "LinUCB"
    seed = "004"
    source = "seed 004 Thm 3 (Eq. 5), first term: non-private LinUCB (Li et al. 2010; Abbasi-Yadkori et al. 2011)"
    notion = "none"
    kind = "upper-minimax"
    form = "exact"
    params = ("d", "lam", "L", "S", "zeta")
    assumptions = ("‖x‖ ≤ L, ‖θ*‖ ≤ S, sub-Gaussian reward noise", "holds with probability ≥ 1 − ζ")
    requires = ("max_action_norm <= L + 0.000000001", "theta_norm <= S + 0.000000001")
    caveats = ("proof gap: the sum of confidence widths uses Abbasi-Yadkori et al. 2011 Lemma 11 misquoted as "
               "sqrt(d log(λ + LT/d)) (docs/formulas/dgs-contextual.md §4)",)
    symbol_params = {"d": "d", "lam": "lam", "L": "L", "S": "S", "zeta": "zeta"}

    def expression(self):
        import sympy

        d, lam, L, S, z = _csym("d", "lam", "L", "S", "zeta")
        T = _Tsym()
        a = sympy.sqrt(d * sympy.log((1 + T * L ** 2 * lam) / z)) + sympy.sqrt(lam) * S
        return 2 * a * sympy.sqrt(d * T * sympy.log(lam + L * T / d)), sympy.Integer(0)


class PrivateLinUCBNeelRoth(_ContextualBaseline):
    """Private LinUCB (Neel & Roth 2018, "Mitigating bias in adaptive data gathering via differential privacy", ICML
    2018), the baseline of seed 004 §4: ε-DP (tree mechanism on b_t) with regret Õ(d√T) (the non-private part, seed
    000 Remark 3) plus the added Õ(log^{2.5} T · √T / ε) seed 004 §1 and §3.3 quote. Paper form, constants 1:
    d √T + log^{2.5}(T) √T / ε."""

    id = "private-linucb-neel-roth2018-paper"
    title = "Private LinUCB regret (Neel & Roth 2018) as seeds 004/000 quote it, O-form"
    algorithm = "Private-LinUCB"
    seed = "004"
    source = ("Neel & Roth 2018 Thm 5 as seed 004 §1 / §3.3 quote its added regret Õ(log^2.5 T √T/ε) and seed 000 "
              "Remark 3 its non-private part Õ(d√T)")
    notion = "pure"
    kind = "upper-minimax"
    form = "paper"
    params = ("d",)
    assumptions = ("‖x‖ ≤ L, ‖θ*‖ ≤ S, |r| ≤ 1", "ε-DP calibration of the tree (boundcalc's sensitivity='strict')")
    requires = ("max_action_norm <= L + 0.000000001", "theta_norm <= S + 0.000000001")
    caveats = (_O_FORM,
               "proof gap: seed 000 App. D.3 (Remark 4) finds an error in Neel & Roth's Thm 5 (the private part "
               "should be Õ(Kd√T/ε)); the quotes of seeds 000 and 004 disagree (docs/formulas/dgs-contextual.md §4)")
    symbol_params = {"d": "d"}

    def expression(self):
        import sympy

        d, eps = _csym("d", "epsilon")
        T = _Tsym()
        return d * sympy.sqrt(T), sympy.log(T) ** sympy.Rational(5, 2) * sympy.sqrt(T) / eps


# ==================================================================================================
# GLM, local DP: Zheng et al. 2020 (seed 002 Table 1.1 row 1)
# ==================================================================================================
class _Zheng2020(Bound):
    """Zheng, Cai, Huang, Li & Wang 2020 ("Locally Differentially Private (Contextual) Bandits Learning", NeurIPS
    2020): Õ(T^{3/4}/ε) for adversarial contexts, both parameter settings, no margin — seed 002 Table 1.1 row 1.
    Paper form, constant 1: T^{3/4}/ε, all of it counted as the cost of privacy (the table gives no non-private
    part)."""

    setting = "glm"
    notion = "ldp"
    kind = "upper-minimax"
    form = "paper"
    seed = "002"
    params = ()
    assumptions = ("(ε, δ)-LDP", "adversarial contexts, ‖x‖ ≤ 1, bounded rewards (Zheng et al. 2020)")
    caveats = (_O_FORM,)

    def expression(self):
        import sympy

        (eps,) = _csym("epsilon")
        return sympy.Integer(0), _Tsym() ** sympy.Rational(3, 4) / eps

    def symbol_values(self, ctx, budget):
        return {"epsilon": float(budget.epsilon)}


class LDPUCBZheng(_Zheng2020):
    __doc__ = _Zheng2020.__doc__ + " LDP-UCB (the LinUCB variant)."
    id = "ldp-ucb-zheng2020-paper"
    title = "LDP-UCB regret (Zheng et al. 2020) as seed 002 Table 1.1 quotes it, O-form"
    algorithm = "LDP-UCB"
    source = "seed 002 Table 1.1 row 1 (the regret Theorem of Zheng et al. 2020 for LDP-UCB, as quoted)"


class LDPGLOCZheng(_Zheng2020):
    __doc__ = _Zheng2020.__doc__ + " LDP-GLOC (the GLOC variant)."
    id = "ldp-gloc-zheng2020-paper"
    title = "LDP-GLOC regret (Zheng et al. 2020) as seed 002 Table 1.1 quotes it, O-form"
    algorithm = "LDP-GLOC"
    source = "seed 002 Table 1.1 row 1 (the regret Theorem of Zheng et al. 2020 for LDP-GLOC, as quoted)"


# ==================================================================================================
# linear (finite action set): GOPE, Lattimore & Szepesvári 2020 Ch. 22
# ==================================================================================================
_LS = "Lattimore & Szepesvári 2020, Bandit Algorithms (Cambridge University Press), Thm 22.1 (Algorithm 12, Ch. 22)"


class _GOPELattimoreSzepesvari(BaseBound):
    """GOPE (boundcalc.algorithms.linear.GOPE, schedule "ls"): Lattimore & Szepesvári 2020 ("Bandit Algorithms"),
    Algorithm 12 — phase ℓ = 1, 2, …, ε_ℓ = 2^{-ℓ}, G-optimal design π on the survivors, each support action played
    T_ℓ(a) = ⌈2 d π(a) log(k ℓ(ℓ+1)/δ) / ε_ℓ²⌉ times, least squares on the phase, eliminate a when
    max_b ⟨θ̂, b − a⟩ > 2 ε_ℓ. Setting of Ch. 22: k actions in R^d, rewards ⟨a, θ*⟩ + η_t with conditionally
    1-sub-Gaussian η_t and mean rewards in [−1, 1]."""

    setting = "linear"
    seed = "ext"
    algorithm = "GOPE"
    notion = "none"
    kind = "upper-minimax"
    params = ("d", "K", "delta")
    regime_note = "non-private: no privacy cost"


class GOPELattimoreSzepesvariPaper(_GOPELattimoreSzepesvari):
    """Lattimore & Szepesvári 2020, Bandit Algorithms, Thm 22.1: with δ = 1/n, the phased elimination algorithm
    (Algorithm 12) has R_n ≤ C sqrt(n d log(k n)), C a universal constant the theorem does not give. Paper form,
    C = 1: sqrt(T d log(K T))."""

    id = "gope-lattimore-szepesvari2020-thm22-1-paper"
    title = "GOPE regret (Lattimore & Szepesvári 2020, Thm 22.1), O-form sqrt(dT log(KT))"
    source = _LS
    form = "paper"
    params = ("d", "K")  # δ = 1/n in the theorem: the instance's δ does not enter
    assumptions = ("mean rewards ⟨a, θ*⟩ ∈ [−1, 1] (here ‖a‖ ‖θ*‖ ≤ 1)", "conditionally 1-sub-Gaussian reward noise",
                   "the theorem sets δ = 1/n; the algorithm here runs with the instance's δ (--confidence)")
    requires = ("max_action_norm*theta_norm <= 1.000000001",)
    requires_notes = {"max_action_norm*theta_norm <= 1.000000001":
                      "mean rewards in [-1, 1] (Lattimore & Szepesvári Ch. 22), ||a|| ||theta*|| <= 1"}
    caveats = ("paper form: the universal constant C of Thm 22.1 set to 1; not a numeric bound",
               "scaling not shown: Thm 22.1's constant C is universal but not given (set to 1); with δ = 1/n, "
               "not the algorithm's δ; explicit constants: gope-lattimore-szepesvari2020-thm22-1-explicit")
    symbol_names = ("d", "K")

    def expression(self):
        import sympy

        T, d, K = syms("T", "d", "K")
        return sympy.sqrt(d * T * sympy.log(K * T)), sympy.Integer(0)


class GOPELattimoreSzepesvariExplicit(_GOPELattimoreSzepesvari):
    """Explicit form of Lattimore & Szepesvári 2020 Thm 22.1 for the schedule boundcalc's GOPE runs (DERIVED here from
    the book's proof; the book gives no constant), for the expected regret at any confidence δ (the instance's δ):

        E[R_n] ≤ Δ̄ (s + 8 d Λ_1) + 4 s + 16 d Λ (2^{L+1} − 4) + δ n Δ̄,

    s = min(K, d(d+1)/2), Λ_1 = log(2K/δ), L = ⌊log_4(4 + 3n/(2 d Λ_1))⌋, Λ = log(K L (L+1)/δ),
    Δ̄ = 2 max‖a‖ ‖θ*‖ ≥ Δ_max (the largest gap).

    DERIVED (the proof of Thm 22.1 with the implementation's choices, boundcalc.algorithms.linear.gope):
    1. Confidence. Λ_ℓ = log(Kℓ(ℓ+1)/δ), c_ℓ = 2 d 4^ℓ Λ_ℓ (d → g(π) when the design is approximate, g > d; the
       code's d_eff). V_ℓ = Σ T_ℓ(a) a aᵀ ⪰ c_ℓ V(π), so ‖b‖²_{V_ℓ^{-1}} ≤ g(π)/c_ℓ ≤ ε_ℓ²/(2 Λ_ℓ) for every
       survivor b (Kiefer–Wolfowitz, g(π) ≤ d_eff; in the survivors' span when they do not span R^d). The phase
       uses only its own rewards on a design fixed before it, so ⟨θ̂_ℓ − θ*, b⟩ is ‖b‖_{V_ℓ^{-1}}-sub-Gaussian
       (the fixed-design tail bound of LS Ch. 20 used in the proof of Thm 22.1): P(⟨θ̂_ℓ − θ*, b⟩ ≥ ε_ℓ) ≤ exp(−Λ_ℓ) = δ/(Kℓ(ℓ+1)).
    2. Good event G: in every completed phase ℓ, ⟨θ̂_ℓ − θ*, a*⟩ > −ε_ℓ and ⟨θ̂_ℓ − θ*, b⟩ < ε_ℓ for every other
       survivor b: at most K one-sided events per phase, so P(Gᶜ) ≤ Σ_ℓ δ/(ℓ(ℓ+1)) = δ.
    3. On G, a* is never eliminated (max_b ⟨θ̂, b − a*⟩ < 2ε_ℓ − Δ_b ≤ 2ε_ℓ; ties are kept) and every a with
       Δ_a > 4ε_ℓ is (⟨θ̂, a* − a⟩ > Δ_a − 2ε_ℓ > 2ε_ℓ). So in phase ℓ ≥ 2 every played action has
       Δ ≤ 4ε_{ℓ−1} = 2^{3−ℓ}; in phase 1, Δ ≤ Δ_max ≤ Δ̄. A single survivor (a* on G) costs nothing.
    4. Phase length: T_ℓ = Σ_{a∈Supp} ⌈c_ℓ π(a)⌉ ≤ c_ℓ + |Supp| ≤ c_ℓ + s (the ceiling terms; the solver's
       support reduction keeps |Supp| ≤ r(r+1)/2 ≤ d(d+1)/2, and |Supp| ≤ K), and T_ℓ ≥ c_ℓ.
    5. Number of phases: phase L starts only if n > Σ_{ℓ<L} T_ℓ ≥ Σ_{ℓ<L} 2 d 4^ℓ Λ_1 = 2 d Λ_1 (4^L − 4)/3, so
       4^L < 4 + 3n/(2 d Λ_1), L ≤ ⌊log_4(4 + 3n/(2 d Λ_1))⌋, and Λ_ℓ ≤ Λ for ℓ ≤ L.
    6. Sum on G: Δ̄ (s + c_1) + Σ_{ℓ=2}^{L} 2^{3−ℓ} (s + 2 d 4^ℓ Λ) ≤ Δ̄ (s + 8 d Λ_1) + 4 s + 16 d Λ (2^{L+1} − 4)
       (Σ_{ℓ≥2} 2^{3−ℓ} < 4, Σ_{ℓ=2}^{L} 2^ℓ = 2^{L+1} − 4; the truncated last phase counts whole).
    7. E[R_n] ≤ (sum on G) + P(Gᶜ) n Δ_max ≤ … + δ n Δ̄; with δ = 1/n (Thm 22.1) the last term is Δ̄ ≤ 2, and the
       bound is O(sqrt(n d log(k n))) as the theorem states (2^L ≤ sqrt(4 + 3n/(2 d Λ_1)), so
       16 d Λ 2^{L+1} ≤ 32 Λ sqrt(1.5 n d/Λ_1) + 64 d Λ)."""

    id = "gope-lattimore-szepesvari2020-thm22-1-explicit"
    title = "GOPE regret, explicit constants DERIVED from Lattimore & Szepesvári 2020 Thm 22.1 (E[R_T], δ of the instance)"
    source = _LS + "; constants DERIVED from its proof for boundcalc's GOPE schedule"
    form = "explicit"
    assumptions = ("conditionally 1-sub-Gaussian reward noise (±1 rewards, or N(0, σ²) with σ ≤ 1)",
                   "Δ_max ≤ 2 max‖a‖ ‖θ*‖ (always true)",
                   "the algorithm runs with the instance's δ (--confidence)")
    caveats = (
        "DERIVED: constants from the proof of Lattimore & Szepesvári Thm 22.1 (the book gives none) for the schedule "
        "T_ℓ(a) = ⌈2dπ(a) log(Kℓ(ℓ+1)/δ)/ε_ℓ²⌉, ε_ℓ = 2^-ℓ: one-sided good event of probability ≥ 1 − δ, phase ℓ ≥ 2 "
        "costs ≤ 2^{3−ℓ} T_ℓ, T_ℓ ≤ c_ℓ + min(K, d(d+1)/2) (ceilings, support of the design), phase count from "
        "T_ℓ ≥ c_ℓ, failure term δ n Δ̄",
        "the design solver stops at g(π) ≤ d(1 + 10⁻⁶) and the schedule then uses g(π) for d: the phase lengths "
        "may exceed the bound's c_ℓ by that relative 10⁻⁶, not counted",
    )
    formula_note = ("E[R_T] ≤ Δ̄ (s + 8dΛ_1) + 4s + 16dΛ (2^{L+1} − 4) + δ T Δ̄,  s = min(K, d(d+1)/2),  "
                    "Λ_1 = log(2K/δ),  L = ⌊log_4(4 + 3T/(2dΛ_1))⌋,  Λ = log(K L (L+1)/δ),  "
                    "Δ̄ = 2 max‖a‖ ‖θ*‖ (= 2·max_action_norm·theta_norm)")
    symbol_names = ("d", "K", "delta", "max_action_norm", "theta_norm")

    def expression(self):
        import sympy

        T, d, K, delta, an, tn = syms("T", "d", "K", "delta", "max_action_norm", "theta_norm")
        Lam1 = sympy.log(2 * K / delta)
        L = sympy.floor(sympy.log(4 + 3 * T / (2 * d * Lam1)) / sympy.log(4))
        Lam = sympy.log(K * L * (L + 1) / delta)
        s = sympy.Min(K, d * (d + 1) / 2)
        Db = 2 * an * tn
        return Db * (s + 8 * d * Lam1) + 4 * s + 16 * d * Lam * (2 ** (L + 1) - 4) + delta * T * Db, sympy.Integer(0)


BOUNDS = [*FINITE_BOUNDS, OFULAbbasiYadkori(),
          LinUCBSeed004(), PrivateLinUCBNeelRoth(), LDPUCBZheng(), LDPGLOCZheng(),
          GOPELattimoreSzepesvariPaper(), GOPELattimoreSzepesvariExplicit()]

for _bound in BOUNDS:  # every bound here is another paper's than the seeds' own (Bound.comparison)
    _bound.comparison = True
