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

Declared as data (issue 23 item 4): the bounds are the ``[[bound]]`` tables of boundcalc/bounds/finite.toml, the
format of a plugin's file (docs/plugins.md) plus the keys of a built-in bound (``declared.BUILTIN``), read by the one
loader ``declared.builtin_table`` into :class:`FiniteBound` objects; their expression texts are parsed by the one
parser, boundcalc.expressions. What stays code here: the instance (``derive``), the values of the symbols
(``_Finite.symbol_values``), the wording of failing relations (``_READABLE``), and the two pieces the bound language
cannot write (:data:`EXPRESSIONS`: seed 003 Thm 17's Piecewise; :data:`CHECKS`: DP-SE's β = 1/T).
"""

from __future__ import annotations

import re

import numpy as np

from .. import validate as v
from ..errors import InputError
from . import quantities
from .base import Bound, Context, failing_requirements, lambdified
from .declared import TableBound, builtin_table
from .symbols import budget_parameters

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
# The parameters of `regret` (its options: cli/flags.py FLAGS) that set an instance parameter of this setting -> that
# parameter (the others are noted as without effect)
OPTION_KEYS = {"means": "means", "K": "K"}
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


# the own budget's parameters as the expressions' symbols: symbol -> attribute of the budget, for the notions of the
# finite bounds (derived from the one declaration, boundcalc.bounds.symbols.BUDGET_PARAMETERS)
_BUDGET_SYMBOLS = {n: {s: a for s, (a, _) in budget_parameters("finite", n).items()} for n in ("pure", "zcdp", "rdp")}

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


class FiniteBound(TableBound, _Finite):
    """A finite-armed bound declared as data: one ``[[bound]]`` table of boundcalc/bounds/finite.toml (or
    baselines.toml, converted.toml): its metadata, ``requires`` and the sympy expression texts ``nonprivate`` /
    ``privacy_cost``, or the name of a Python ``expression`` of :data:`EXPRESSIONS` (declared.TableBound). Each table
    cites its source (seed and Theorem / Eq.); values and conditions are _Finite's."""

    table_setting = "finite"

    def allowed_symbols(self) -> tuple:
        return _allowed_symbols(self.notion)


def _allowed_symbols(notion: str) -> tuple:
    """The symbols a finite table may use: T, the setting's documented symbols (boundcalc.bounds.symbols.FINITE), its
    registered quantities and the budget symbols of the notion."""
    from .symbols import BUDGET_OF_NOTION, FINITE

    return ("T",) + tuple(FINITE) + quantities.names("finite") + BUDGET_OF_NOTION[notion]


def _thm17_expression():
    """seed 003 Thm 17: (√(T(K−1))/27, max{0, √((K−1)/ρ)/124 − √(T(K−1))/27}) as a Piecewise (max-type bound)."""
    import sympy

    K, rho = _sym("K", "rho")
    T = _Tsym()
    npv = sympy.sqrt(T * (K - 1)) / 27
    x = sympy.sqrt((K - 1) / rho) / 124 - npv
    return npv, sympy.Piecewise((x, x > 0), (0, True))


def _dpse_beta_one_over_T(bound, ctx) -> list[str]:
    """dpse_beta is the string "1/T" or a number: not a relation on scalars, so it stays code (seed 001 App. G:
    the explicit DP-SE bound is registered for β = 1/T only)."""
    if ctx["dpse_beta"] != "1/T":
        return [f"explicit DP-SE form is registered for β = 1/T only (got dpse_beta = {ctx['dpse_beta']!r})"]
    return []


# the Python pieces a table may name: an expression the bound language cannot write, a condition that is no relation
EXPRESSIONS = {"thm17": _thm17_expression}
CHECKS = {"dpse_beta_one_over_T": _dpse_beta_one_over_T}
FiniteBound.EXPRESSIONS, FiniteBound.CHECKS = EXPRESSIONS, CHECKS

# every finite-armed bound of seeds 000, 001 and 003: one table each in finite.toml, read by the one loader
BOUNDS: list[Bound] = [FiniteBound(**row) for row in builtin_table("finite.toml")]
