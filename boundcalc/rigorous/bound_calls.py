"""Interval enclosures of registered bounds called by keyword, as ``boundcalc check`` writes them:
``bound("003-thm9", T=T, rho=rho)`` (see boundcalc.verify.functions for the keywords).

A bound's value is its registered sympy expression (``bound_pairs.total_expression``: nonprivate + privacy
cost, the same expression ``bounds show`` prints), enclosed by ``sympy_eval.interval_eval`` once every free
symbol has an interval:

* ``T`` and the budget symbols come from the call's keywords, when the budget keywords are the bound's own
  notion (``BUDGET_SYMBOLS``; a budget that the registry would convert first, e.g. ε for a zCDP bound, has no
  enclosure here);
* an instance parameter named by a keyword (``d=``, ``K=``, ``confidence=`` for δ, ``alpha_batch=`` …) comes
  from that keyword; otherwise a *raw* parameter of the setting's default instance (its declared value);
* the finite-armed summary symbols (H_kl, H_eps, H_min, H_inv, S_1 … of the default instance) come from
  ``bound_pairs.finite_symbol_intervals`` (per-arm enclosures through kl / d_eps, seed 001 Eq. 3, Thm 3.1);
* any other symbol is computed by code in the registry (no sympy form): ``NotEnclosable`` with the reason.

The 50-digit point value (to re-check a counterexample) uses the same mapping in mpmath
(``finite_symbol_values_mp`` with d_eps from its definition).

Assumptions as data (issue 15): :func:`assumption_relations` gives every relation of a bound in one list — the
``requires`` texts of the built-in bounds (``bounds.base.requirement_relations``) and the ``assumptions`` of a declared
(plugin) bound (``DeclaredBound.assumption_relations``). ``BoundCall.relations`` holds them with, for each name, where
its value comes from (:meth:`BoundCall.name_source`: a keyword of the call, or the instance's value);
boundcalc.verify.assumptions evaluates them by interval arithmetic over the box, sub-box by sub-box. Only a bound
whose ``conditions`` is code beyond those relations (a built-in not yet converted) still has that code evaluated
at every corner of the keywords' ranges (``check_conditions``; a failure at a corner is ``NotEnclosable`` and the
grid then skips the points outside the assumptions).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Callable

from ..bounds import quantities
from ..bounds.symbols import budget_parameters
from ..intervals.interval import Interval

BUDGET_KEYS = ("epsilon", "delta", "rho", "alpha", "rdp_epsilon", "ldp_epsilon", "ldp_delta")

# (setting, notion) -> {keyword: symbol of the bound's expression}, for the pairs whose calls the prover encloses;
# the maps derive from the one declaration of the budget symbols (boundcalc.bounds.symbols.BUDGET_PARAMETERS)
ENCLOSED_PAIRS = (("finite", "pure"), ("finite", "zcdp"), ("finite", "rdp"), ("linear", "zcdp"), ("linear", "rdp"),
                  ("contextual", "zcdp"), ("contextual", "pure"), ("contextual", "approx"))
BUDGET_SYMBOLS = {pair: {kw: sym for sym, (_, kw) in budget_parameters(*pair).items()} for pair in ENCLOSED_PAIRS}
# the finite module's per-arm symbols: its registered quantities (boundcalc.bounds.quantities) and K
FINITE_SUMMARIES = quantities.names("finite") + ("K",)
FINITE_INSTANCE_KEYWORDS = ("alpha_batch", "alpha_adap", "beta_adac", "beta_adar")


class NotEnclosable(ValueError):
    """This bound call has no interval enclosure here; the message says why (the caller falls back to a grid)."""


def confidence_delta(setting: str, keys) -> bool:
    """Is a call's ``delta=`` the instance's confidence δ (the symbol ``delta`` the bounds of ``setting`` declare,
    as ``confidence=``) rather than the δ of an (ε, δ) budget? It is the budget's δ only beside ``epsilon=``; the
    linear, contextual and GLM instances have a confidence δ (their default instance's ``delta``)."""
    from ..bounds import registry

    k = set(keys)
    if "delta" not in k or "epsilon" in k:
        return False
    return "delta" in registry.setting_module(setting).DEFAULT_INSTANCE


def budget_keywords(setting: str, keys) -> tuple:
    """The keywords of a call that form its budget (``delta=`` as a confidence is an instance keyword)."""
    conf = confidence_delta(setting, keys)
    return tuple(k for k in keys if k in BUDGET_KEYS and not (conf and k == "delta"))


def keyword_notion(keys) -> str | None:
    """The budget notion the call's budget keywords describe (as boundcalc.verify.functions._budget builds it)."""
    k = set(keys)
    if "rho" in k:
        return "zcdp"
    if "alpha" in k or "rdp_epsilon" in k:
        return "rdp"
    if "ldp_epsilon" in k or "ldp_delta" in k:
        return "ldp"
    if "epsilon" in k:
        return "approx" if "delta" in k else "pure"
    return None


@dataclass
class BoundCall:
    """One ``bound(ID, **keywords)`` call: ``interval(*keyword_intervals)`` and ``mp(*keyword_values)`` take the
    keywords in the order ``keys``; ``symbols`` says where each symbol of the expression comes from."""

    bid: str
    keys: tuple[str, ...]
    interval: Callable
    mp: Callable
    symbols: dict = field(default_factory=dict)
    expression: object = None
    has_conditions: bool = False
    relations: tuple = ()  # ((text, sympy relation), ...): the bound's assumptions as data (assumption_relations)
    sources: dict = field(default_factory=dict)  # relation name -> ("keyword", kw) | ("instance", value) | ("code", None)

    def name_source(self, name: str):
        """Where a relation's name takes its value: ("keyword", keyword of the call), ("instance", float: the default
        instance's value, when the call overrides no instance parameter) or ("code", None) (computed by the bound's
        code from the context at the keywords' values: a symbol of the budget, or an instance value that an instance
        keyword may change, such as the rank of the actions with d=)."""
        return self.sources.get(name, ("code", None))

    def code_value(self, name: str, keyword_values: dict) -> float:
        """The value of a name computed by code, in the registry context at ``keyword_values``."""
        from ..bounds import base, registry

        b = registry.get(self.bid)
        vals = base.requirement_values(b, _context(b, keyword_values))
        if name not in vals:
            raise NotEnclosable(f"{self.bid}: the name {name} of its assumptions has no value")
        return vals[name]

    def failing_conditions(self, vals: dict) -> list:
        """The bound's assumptions stated as code (``conditions``) that fail at the keyword values ``vals`` (a failing
        relation of ``requires`` counts too: the point is outside the assumptions either way); [] where they hold,
        None where the context cannot be built."""
        from ..bounds import base, registry
        from ..errors import InputError

        b = registry.get(self.bid)
        try:
            ctx = _context(b, vals)
            rel = base.failing_requirements(b, ctx) if b.requires else []
            return list(rel) + list(b.conditions(ctx)) if self.has_conditions else list(rel)
        except (InputError, ValueError):
            return None

    def check_conditions(self, keyword_ranges: dict) -> None:
        """Evaluate the bound's assumptions that are code (``conditions`` beyond its relations) at every corner of
        the keyword ranges (NotEnclosable on a failure). The relations are left to boundcalc.verify.assumptions."""
        if not self.has_conditions:
            return
        from ..bounds import base, registry
        from ..errors import InputError

        b = registry.get(self.bid)
        names = list(self.keys)
        ends = [sorted({keyword_ranges[k].lo, keyword_ranges[k].hi}) for k in names]
        for corner in itertools.product(*ends):
            vals = dict(zip(names, corner))
            try:
                ctx = _context(b, vals)
                if b.requires and base.failing_requirements(b, ctx):
                    continue  # outside a relation here: the relations are evaluated over the box, not at corners
                bad = b.conditions(ctx)
            except (InputError, ValueError) as exc:
                raise NotEnclosable(f"{self.bid} at {vals}: {exc}") from None
            if bad:
                raise NotEnclosable(f"{self.bid} is outside its assumptions at the corner "
                                    + ", ".join(f"{k}={v:g}" for k, v in vals.items() if v is not None) + f": {bad[0]}")


def _context(b, vals: dict):
    """The registry context of a bound at keyword values (budget from the budget keywords)."""
    from ..bounds import registry
    from ..privacy import RDP, ZCDP, ApproxDP, LocalDP, PureDP

    bk = budget_keywords(b.setting, list(vals))
    g = {k: float(v) for k, v in vals.items() if k in bk and v is not None}
    budget = None
    if "rho" in g:
        budget = ZCDP(g["rho"])
    elif "alpha" in g and "rdp_epsilon" in g:
        budget = RDP(g["alpha"], g["rdp_epsilon"])
    elif "ldp_epsilon" in g:
        budget = LocalDP(g["ldp_epsilon"], g.get("ldp_delta", 0.0))
    elif "epsilon" in g:
        budget = ApproxDP(g["epsilon"], g["delta"]) if "delta" in g else PureDP(g["epsilon"])
    over = {("delta" if k == "confidence" else k): float(v) for k, v in vals.items()
            if k not in bk and k != "T" and v is not None}
    for k in ("d", "K"):
        if k in over:
            over[k] = int(round(over[k]))
    ctx = registry.make_context(b.setting, over, budget=budget)
    if vals.get("T") is not None:
        ctx = type(ctx)(params=dict(ctx.params, T=float(vals["T"])), budget=ctx.budget,
                        instance_name=getattr(ctx, "instance_name", ""))
    return ctx


def bound_call(bid: str, keys) -> BoundCall:
    """The enclosure of ``bound(bid, **keys)`` (keys: the keyword names of the call), or NotEnclosable."""
    import mpmath
    import sympy

    from ..bounds import registry
    from ..bounds.base import Bound
    from . import bound_pairs as bp
    from .sympy_eval import _mp_functions, interval_eval

    b = registry.get(bid)
    keys = tuple(keys)
    if "T" not in keys:
        raise NotEnclosable(f"{bid}: no horizon T=")
    bkeys = budget_keywords(b.setting, keys)  # delta= is the confidence unless beside epsilon= (confidence_delta)
    user = keyword_notion(bkeys)
    expr = bp.total_expression(b)
    needed = sorted(s.name for s in expr.free_symbols)
    budget_map: dict[str, str] = {}
    if b.notion != "none":
        if user != b.notion:
            raise NotEnclosable(f"{bid} is a {b.notion} bound and the call gives a {user or 'missing'} budget: the "
                                "registry converts it first, and the conversion has no enclosure here")
        budget_map = BUDGET_SYMBOLS.get((b.setting, b.notion), {})
        if not budget_map or set(budget_map) != set(bkeys):
            raise NotEnclosable(f"{bid}: no enclosure for its {b.notion} budget in the {b.setting} setting")
    mod = registry.setting_module(b.setting)
    raw = {k: v for k, v in mod.DEFAULT_INSTANCE.items() if k != "name"}
    default_ctx = registry.make_context(b.setting, {})
    inst_keys = [k for k in keys if k not in bkeys and k != "T"]
    if b.setting == "finite":
        odd = [k for k in inst_keys if k not in FINITE_INSTANCE_KEYWORDS]
        if odd:
            raise NotEnclosable(f"{bid}: the finite-armed instance keyword {odd[0]} has no enclosure "
                                f"(only {', '.join(FINITE_INSTANCE_KEYWORDS)})")
    kw_of = {("delta" if k == "confidence" else k): k for k in inst_keys}
    sym_to_budget = {v: k for k, v in budget_map.items()}
    source: dict[str, str] = {}
    finite_needed = set()
    for s in needed:
        if s == "T":
            source[s] = "keyword T"
        elif s in sym_to_budget:
            source[s] = f"keyword {sym_to_budget[s]}"
        elif s in kw_of:
            source[s] = f"keyword {kw_of[s]}"
        elif b.setting == "finite" and (s in FINITE_SUMMARIES or s.startswith("H_min__c")):
            source[s] = "default instance (per-arm enclosure)"
            finite_needed.add(s)
        elif s in raw and s in default_ctx.params and _is_number(raw[s]) and float(raw[s]) == float(default_ctx[s]):
            source[s] = f"default instance ({float(raw[s]):g})"
        else:
            raise NotEnclosable(f"{bid}: its symbol {s} is computed by code from the instance (no sympy form to enclose)")
    means = None
    if finite_needed:
        ms = [float(m) for m in default_ctx["means"]]
        best = max(ms)
        if sum(m == best for m in ms) != 1:
            raise NotEnclosable(f"{bid}: the default instance has several best arms")
        means = (best, sorted((m for m in ms if m < best), reverse=True))
    key_index = {k: i for i, k in enumerate(keys)}
    syms = sorted(expr.free_symbols, key=lambda t: t.name)
    f_mp = sympy.lambdify(syms, expr, modules=[_mp_functions(), "mpmath"])

    def value_of(s, vals, const):
        if s == "T":
            return vals[key_index["T"]]
        if s in sym_to_budget:
            return vals[key_index[sym_to_budget[s]]]
        if s in kw_of:
            return vals[key_index[kw_of[s]]]
        return const(float(raw[s]))

    def env_intervals(ivs):
        env = {s: value_of(s, ivs, Interval) for s in needed if s not in finite_needed}
        if finite_needed:
            arms = {"mu_star": Interval(means[0])}
            arms.update({f"mu_{i}": Interval(m) for i, m in enumerate(means[1], 1)})
            if "epsilon" in key_index:  # H_eps, H_min depend on the pure budget
                arms["epsilon"] = ivs[key_index["epsilon"]]
            env.update({k: v for k, v in bp.finite_symbol_intervals(arms, finite_needed).items() if k in finite_needed})
        return env

    def interval(*ivs):
        return interval_eval(expr, env_intervals(ivs))

    def mp(*vals):
        env = {s: value_of(s, vals, mpmath.mpf) for s in needed if s not in finite_needed}
        if finite_needed:
            arms = {"mu_star": mpmath.mpf(means[0])}
            arms.update({f"mu_{i}": mpmath.mpf(m) for i, m in enumerate(means[1], 1)})
            if "epsilon" in key_index:
                arms["epsilon"] = vals[key_index["epsilon"]]
            env.update({k: v for k, v in bp.finite_symbol_values_mp(arms, finite_needed).items() if k in finite_needed})
        return f_mp(*(env[t.name] for t in syms))

    from ..bounds.base import conditions_code
    from ..bounds.declared import DeclaredBound

    # a declared bound's conditions are exactly its assumptions (relations); a built-in's base conditions are its
    # ``requires``: only code beyond the relations is evaluated at corners
    has_cond = conditions_code(b) is not Bound.conditions and not isinstance(b, DeclaredBound)
    rels = assumption_relations(b)
    inst_vals = {k: float(v) for k, v in default_ctx.params.items() if _is_number(v) and not isinstance(v, bool)}
    sources: dict = {}
    for _, rel in rels:
        for s in rel.free_symbols:
            n = s.name
            if n == "T":
                sources[n] = ("keyword", "T")
            elif n in sym_to_budget:
                sources[n] = ("keyword", sym_to_budget[n])
            elif n in kw_of:
                sources[n] = ("keyword", kw_of[n])
            elif n in inst_vals and not inst_keys:
                sources[n] = ("instance", inst_vals[n])
            else:  # computed by code, or an instance value that the call's instance keywords may change (rank with d=)
                sources[n] = ("code", None)
    return BoundCall(bid=bid, keys=keys, interval=interval, mp=mp, symbols=source, expression=expr,
                     has_conditions=has_cond, relations=tuple(rels), sources=sources)


def defaulted_values(bid: str, keys) -> dict:
    """The values a call ``bound(bid, **keys)`` takes from the setting's default instance because no keyword gives
    them (issue 24 item 5: said, not silent): {symbol of the bound's expression: its value} for the instance's
    scalars (d, K, delta, …), and ``means`` (the default arms) when the bound's per-arm sums (H_kl, …) come from
    them. The budget symbols and T come from the call (or its budget's conversion) and are not listed."""
    import math

    from ..bounds import registry
    from . import bound_pairs as bp

    b = registry.get(bid)
    keys = tuple(keys)
    bk = budget_keywords(b.setting, keys)
    given = {("delta" if k == "confidence" else k) for k in keys if k not in bk and k != "T"}
    budget_syms = {v for (st, _), m in BUDGET_SYMBOLS.items() if st == b.setting for v in m.values()}
    ctx = registry.make_context(b.setting, {})
    out: dict = {}
    per_arm = False
    for s in sorted(bp.total_expression(b).free_symbols, key=lambda t: t.name):
        n = s.name
        if n == "T" or n in given or n in budget_syms:
            continue
        v = ctx.params.get(n)
        if _is_number(v) and math.isfinite(float(v)):
            out[n] = int(v) if float(v).is_integer() and n in ("d", "K") else float(v)
        elif b.setting == "finite" and (n in FINITE_SUMMARIES or n.startswith("H_min__c")):
            per_arm = True
        else:
            out[n] = "from the default instance"
    if per_arm:
        out["means"] = [float(m) for m in ctx["means"]]
    return out


def assumption_relations(b) -> list:
    """Every assumption of the bound ``b`` that is data, as (text, sympy relation) pairs, in one list: the
    ``requires`` of a built-in bound (``bounds.base.requirement_relations``: relations over scalar context parameters
    and the symbols of ``symbol_values``) and the ``assumptions`` of a declared bound
    (``DeclaredBound.assumption_relations``: relations over T, the instance parameters and the budget symbols)."""
    from ..bounds.base import requirement_relations

    out = []
    if getattr(b, "requires", ()):
        out += list(zip(b.requires, requirement_relations(b)))
    rels = getattr(b, "assumption_relations", None)
    if rels:
        out += list(zip(b.assumptions, rels))
    return out


def _is_number(v) -> bool:
    try:
        float(v)
    except (TypeError, ValueError):
        return False
    return not isinstance(v, bool)
