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

Declared as data (issue 23 item 4): every baseline is a ``[[bound]]`` table of boundcalc/bounds/baselines.toml, with
its statement and source in the comment above it; the row classes give the values of the symbols (finite.FiniteBound,
:class:`ContextualBound`, :class:`GLMBaseline`, linear.LinearBound).
"""

from __future__ import annotations

from .base import Bound, lambdified
from .declared import TableBound, builtin_table
from .finite import FiniteBound

# the rows of baselines.toml, each read by its setting's row class (below)
_ROWS = builtin_table("baselines.toml")

# ==================================================================================================
# finite-armed (non-private and pure DP)
# ==================================================================================================
# UCB1 (Auer et al. 2002 Thm 1), KL-UCB (Garivier & Cappé 2011 Thm 1 / Cor. 1), IMED (Honda & Takemura 2015) and
# Lazy-DP-TS (Hu & Hegde 2022): the [[bound]] tables of boundcalc/bounds/baselines.toml (issue 23 item 4), each with
# its source and its statement.
FINITE_BOUNDS = [FiniteBound(**row) for row in _ROWS if row["setting"] == "finite"]


# ==================================================================================================
# contextual linear: OFUL (Abbasi-Yadkori et al. 2011 Thm 3), LinUCB (seed 004 Thm 3's first term), Private-LinUCB
# (Neel & Roth 2018 as seeds 004 / 000 quote it)
# ==================================================================================================
class _ContextualValues(Bound):
    """The symbols of a contextual baseline: scalar context parameters (as floats) and the budget's (ε, δ)."""

    def symbol_values(self, ctx, budget):
        from .symbols import BUDGET_ATTR, BUDGET_OF_NOTION

        own = BUDGET_OF_NOTION[self.notion]
        out = {n: float(ctx[n]) for n in lambdified(self, "numpy")[1] if n != "T" and n not in own}
        if budget is not None and self.notion != "none":
            out.update({n: float(getattr(budget, BUDGET_ATTR[n])) for n in own})
        return out


class ContextualBaseline(TableBound, _ContextualValues):
    """A contextual baseline declared as data (a contextual row of baselines.toml), with _ContextualValues' values of
    the symbols; a row may add symbols computed by code by a named hook of :data:`VALUES` (declared.TableBound)."""

    table_setting = "contextual"

    def allowed_symbols(self) -> tuple:
        from .symbols import BUDGET_OF_NOTION, CONTEXTUAL

        return ("T",) + tuple(CONTEXTUAL) + BUDGET_OF_NOTION[self.notion]


def _S_is_theta_norm(bound, ctx, budget) -> dict:
    """OFUL's Thm 3 (Abbasi-Yadkori et al. 2011) with S = the instance's ||theta*|| (the OFUL adapter's S)."""
    return {"S": ctx["theta_norm"]}


# ==================================================================================================
# GLM, local DP: Zheng et al. 2020 (seed 002 Table 1.1 row 1)
# ==================================================================================================
class GLMBaseline(TableBound, Bound):
    """A GLM baseline declared as data (a glm row of baselines.toml): its one symbol besides T is the budget's ε."""

    table_setting = "glm"

    def allowed_symbols(self) -> tuple:
        return ("T", "epsilon")

    def symbol_values(self, ctx, budget):
        return {"epsilon": float(budget.epsilon)}


# the Python piece baselines.toml may name: symbol values computed by code
VALUES = {"S_is_theta_norm": _S_is_theta_norm}
ContextualBaseline.VALUES = VALUES


# ==================================================================================================
# linear (finite action set): GOPE, Lattimore & Szepesvári 2020 Ch. 22 (Thm 22.1 and its DERIVED explicit form)
# ==================================================================================================
def _row_bound(row):
    from .linear import LinearBound

    cls = {"finite": FiniteBound, "contextual": ContextualBaseline, "glm": GLMBaseline, "linear": LinearBound}
    return cls[row["setting"]](**row)


# every baseline, in the order of baselines.toml
BOUNDS = [*FINITE_BOUNDS] + [_row_bound(row) for row in _ROWS if row["setting"] != "finite"]
