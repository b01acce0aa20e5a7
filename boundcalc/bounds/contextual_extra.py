"""Further contextual bounds (issue 16): seed 004 Corollary 1, LinUCB-DGS with perturbed contexts.

Written once as a sympy expression (bounds/base.py derives the numpy and mpmath evaluations by lambdify); the
assumptions are relations over the context's parameters (``requires``). Registered in bounds/registry.py.
"""

from __future__ import annotations

from ._linear_common import syms
from .base import Bound
from .symbols import BUDGET_ATTR


class DGSCor1(Bound):
    """seed 004 Cor. 1 (Eq. 6), w.p. >= 1 - 2 zeta, every context perturbed by z ~ N(0, sigma^2 I), (eps, delta)-DP:

        R_T <= 2 (sqrt(d log((1 + T L^2 lam)/zeta)) + sqrt(lam) S)/sigma^2 * sqrt(d T log(lam + L T/d))
               + 2 3^{1.5} L/(e^{1.5} sigma^2 eps) log(1/zeta) sqrt(d T log(lam + L T/d)) + 32 log(1/delta)/sigma^2.

    Theorem 3 (seed 004 Eq. 5) with lam0 replaced by sigma^2 (Kannan et al. 2018 Lemma 3.7: lambda_min of the
    perturbed contexts' second moment is Omega(sigma^2)) and the non-private term divided by sigma^2 (the proof cites
    Kannan et al. Lemma 3.3). Split as Thm 3: the first term is the non-private part; privacy cost = noise term +
    burn-in. sigma is ``perturb_sigma`` of the contextual instance (the LinUCB-DGS option of the same name)."""

    id = "004-cor1"
    title = "LinUCB-DGS with perturbed contexts, Cor. 1 (as stated)"
    algorithm = "LinUCB-DGS"
    seed = "004"
    source = "seed 004 Cor. 1 (Eq. 6; proof in the appendix, via Thm 3 and Kannan et al. 2018 Lemmas 3.3, 3.7)"
    setting = "contextual"
    notion = "approx"
    kind = "upper-minimax"
    form = "exact"
    params = ("d", "lam", "L", "S", "zeta", "perturb_sigma")
    assumptions = ("no distributional assumption on the contexts (Assumption 1 dropped); every context the algorithm "
                   "sees is perturbed by N(0, sigma^2 I) (LinUCB-DGS perturb_sigma)",
                   "||x|| <= L, ||theta*|| <= S, |r| <= 1")
    requires = ("perturb_sigma > 0", "perturb_sigma**2 <= L**2/d", "max_action_norm <= L", "theta_norm <= S")
    caveats = (
        "proof gap: lambda0 >= Omega(sigma^2) (Kannan et al. 2018 Lemma 3.7) is used as lambda0 = sigma^2, constant 1; "
        "and x + z is unbounded, so Lemma 1's ||x|| <= L (its sensitivity 2L/lambda) fails for the perturbed contexts: "
        "LinUCB-DGS's perturb_sigma projects x + z onto ||x|| <= L (our reading), whose second moment is not shown to "
        "keep lambda_min >= sigma^2 (`regret --check` estimates it and says so)",
        "proof gap: the non-private term divided by sigma^2 cites Kannan et al. Lemma 3.3; it is uncertain that lemma "
        "supports it (docs/formulas/dgs-contextual.md 7.11); the order in T is Theorem 3's",
        "proof gap: sigma^2 <= L^2/d is needed for sigma^2 to be a lambda_min of contexts with ||x|| <= L "
        "(the trace of E(x x^T) is <= L^2); the corollary does not say it (required here)",
        "typo: as Thm 3, log t for log T in the privacy term (max_t log^{1.5} t/sqrt t), 1 + T L^2 lam for "
        "1 + T L^2/lam, the noise scale R omitted (ERRATA, smaller items; docs/formulas/dgs-contextual.md 7.8)",
        "proof gap: the burn-in 32 log(1/delta)/sigma^2 inherits ERRATA 4 (the threshold of Lemma 1's lambda'(t)), and "
        "the privacy claim inherits ERRATA 6 (Thm 1 counts only the tree nodes containing the changed reward); "
        "Laplace per coordinate scaled to the L2 sensitivity with eps/log2 T per node: the pure-DP worst case per node "
        "is sqrt(d) larger (docs/formulas/dgs-contextual.md 7.4); stated for that calibration (LinUCB-DGS "
        "sensitivity='paper'), not for the 'strict' one",
    )
    regime_note = ("Thm 3 with lam0 -> sigma^2 and the non-private term also divided by sigma^2: every term grows like "
                   "1/sigma^2, so a small perturbation makes the bound large (seed 004 says so after Cor. 1)")

    def expression(self):
        import sympy

        T, d, lam, L, S, z, sig, eps, dl = syms("T", "d", "lam", "L", "S", "zeta", "sigma_z", "epsilon", "delta_dp")
        root = sympy.sqrt(d * T * sympy.log(lam + L * T / d))
        nonpriv = 2 * (sympy.sqrt(d * sympy.log((1 + T * L**2 * lam) / z)) + sympy.sqrt(lam) * S) / sig**2 * root
        priv = (2 * 3 ** sympy.Rational(3, 2) * L / (sympy.E ** sympy.Rational(3, 2) * sig**2 * eps) * sympy.log(1 / z)
                * root + 32 * sympy.log(1 / dl) / sig**2)
        return nonpriv, priv

    def symbol_values(self, ctx, budget):
        sig = ctx.get("perturb_sigma")
        return {"d": ctx["d"], "lam": ctx["lam"], "L": ctx["L"], "S": ctx["S"], "zeta": ctx["zeta"],
                "sigma_z": float("nan") if sig is None else float(sig), "epsilon": float(budget.epsilon),
                "delta_dp": float(getattr(budget, BUDGET_ATTR["delta_dp"]))}


BOUNDS = [DGSCor1()]
