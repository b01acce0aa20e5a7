"""Seed 003 Table II, right column: upper bounds of the pure-DP literature "converted" to ρ-zCDP by the paper.

seed 003 Table II compares each of its own regret upper bounds (left column, registered elsewhere: 003-thm10,
003-thm11-paper, 003-thm4-paper) with a bound of the pure ε-DP literature converted to ρ-zCDP (right column).
The three converted bounds, as printed in Table II (``log`` natural, hidden O-constants set to 1):

* row "finite-armed", problem-dependent (Azize & Basu 2022 Thm 7, the AdaP-UCB bound, converted):
  Σ_{a:Δ_a>0} (8β log(T)/Δ_a + 8 √(β/ρ) log(T));
* row "finite-armed", minimax (Azize & Basu 2022 Thm 12, converted): O(√(K T log T)) + O((K/√ρ) log T);
* row "linear bandits" (Hanna, Girgis, Fragouli & Diggavi 2022, arXiv 2207.03445, Eq. 17, converted):
  O(√(d T log(KT))) + O((d²/√ρ) log²(KT)).

The conversion is the one of an ε-DP algorithm run at ε = √(2ρ), which is ρ-zCDP (ε-DP ⇒ ε²/2-zCDP, Bun & Steinke
2016 Prop. 3.3): the privacy terms scale as 1/ε ∝ 1/√ρ. Table II prints the results without their derivation
(constants included), so each bound carries the caveat "scaling not shown". The privacy cost of the converted
finite-armed bounds is log T per arm against √(log T) for AdaC-UCB (seed 003 Thm 10 / 11), and of the linear one
d² log²(KT) against d log^{3/2}(KT) for AdaC-GOPE (seed 003 Thm 4): the comparison of seed 003 App. E-C.

New bounds are declared once: ``expression()`` (sympy) + ``requires``; the numpy ``terms``, the symbols' values and
``conditions`` are derived by the setting's base classes (finite._Finite: the registered per-arm quantity H_inv of
boundcalc.bounds.quantities; _linear_common.BaseBound: ``symbol_names``). The finite-armed rows are data
(boundcalc/bounds/converted.toml, read as finite.FiniteBound objects; issue 23 item 4).
"""

from __future__ import annotations

from ._linear_common import BaseBound
from .base import Bound
from .declared import builtin_table
from .finite import FiniteBound
from .linear import _ASSUMPTION_1, _ASSUMPTION_1_NOTES, _ASSUMPTION_1_REQUIRES

_CONVERSION = ("scaling not shown: seed 003 Table II prints this converted form without its derivation from the "
               "pure-DP statement (ε = √(2ρ) makes an ε-DP algorithm ρ-zCDP, Bun–Steinke 2016 Prop. 3.3); evaluated "
               "as printed")


def _syms(*names):
    import sympy

    return [sympy.Symbol(n, positive=True) for n in names]


# the two finite-armed rows (Azize & Basu 2022 Thm 7 and Thm 12, converted): the [[bound]] tables of
# boundcalc/bounds/converted.toml (issue 23 item 4), each with its source, statement and caveats
FINITE_BOUNDS = [FiniteBound(**row) for row in builtin_table("converted.toml")]


class Table2HannaEq17(BaseBound):
    """seed 003 Table II, row linear bandits, right column: Hanna, Girgis, Fragouli & Diggavi 2022 (arXiv
    2207.03445) Eq. 17 converted to ρ-zCDP: O(√(d T log(KT))) + O((d²/√ρ) log²(KT)), hidden constants set to 1.

    Its algorithm adds the noise to the per-action reward sums of phased elimination (seed 003 App. E-C2), the
    mechanism of AdaR-GOPE-Var (seed 003 App. H), to which it is attached here; seed 003 proves no bound for
    AdaR-GOPE-Var itself (see the caveats)."""

    id = "003-table2-hanna-eq17"
    seed = "003"
    notion = "zcdp"
    title = "Hanna et al. 2022 linear regret converted to ρ-zCDP, O(√(dT ln KT)) + O(d² ln²(KT)/√ρ) (seed 003 Table II)"
    algorithm = "AdaR-GOPE-Var"
    setting = "linear"
    source = "seed 003 Table II, row linear bandits, right column (Hanna et al. 2022 Eq. 17, converted; App. E-C2)"
    kind = "upper-minimax"
    form = "paper"
    params = ("d", "K")
    assumptions = (_ASSUMPTION_1, "actions span R^d")
    requires = _ASSUMPTION_1_REQUIRES
    requires_notes = _ASSUMPTION_1_NOTES
    symbol_names = ("d", "K", "rho")
    caveats = (
        "paper form: constants hidden in O(·) set to 1",
        _CONVERSION,
        "proof gap: Hanna et al. prove it for their algorithm (Laplace noise on the per-action reward sums, a "
        "design with support ≤ 4d log log d + 16); AdaR-GOPE-Var keeps AdaC-GOPE's G-optimal design (support up to "
        "d(d+1)/2) and Gaussian noise: seed 003 App. E-C2 identifies the noise placement but proves no bound for it",
    )
    regime_note = ("privacy cost d² ln²(KT)/√ρ against d ln^{3/2}(KT)/√ρ for AdaC-GOPE (003-thm4-paper): quadratic "
                   "against linear in d (seed 003 App. E-C)")

    def expression(self):
        import sympy

        d, K, rho, T = _syms("d", "K", "rho", "T")
        lkt = sympy.log(K * T)
        return sympy.sqrt(d * T * lkt), d**2 / sympy.sqrt(rho) * lkt**2


BOUNDS: list[Bound] = [*FINITE_BOUNDS, Table2HannaEq17()]

for _bound in BOUNDS:  # every bound here is another paper's than the seeds' own (Bound.comparison)
    _bound.comparison = True
