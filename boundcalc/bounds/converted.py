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
boundcalc.bounds.quantities; _linear_common.BaseBound: ``symbol_names``). The three rows are data
(boundcalc/bounds/converted.toml, read as finite.FiniteBound and linear.LinearBound objects; issue 23 item 4).
"""

from __future__ import annotations

from .base import Bound
from .declared import builtin_table
from .finite import FiniteBound
from .linear import LinearBound

_ROWS = builtin_table("converted.toml")

# the two finite-armed rows (Azize & Basu 2022 Thm 7 and Thm 12, converted) and the linear one (Hanna et al. 2022
# Eq. 17, converted; attached to AdaR-GOPE-Var, seed 003 App. E-C2 / App. H): the [[bound]] tables of
# boundcalc/bounds/converted.toml (issue 23 item 4), each with its source, statement and caveats
FINITE_BOUNDS = [FiniteBound(**row) for row in _ROWS if row["setting"] == "finite"]

BOUNDS: list[Bound] = [*FINITE_BOUNDS] + [LinearBound(**row) for row in _ROWS if row["setting"] == "linear"]
