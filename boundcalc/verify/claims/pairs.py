"""Every registered lower ≤ upper pair as a claim (one per pair, id ``<upper>-ge-<lower>``, paper of the upper
bound): the lower bound (as registered) never exceeds the upper bound (as registered) on a box of instance,
budget and horizon. The pairs are boundcalc.rigorous.bound_pairs.registered_pairs (the rule of the registry's own
tests: same setting, no O-constant "paper" form, minimax with minimax).

Methods: **proof** (default; the two registered sympy expressions enclosed over the box, finite-armed per-arm
sums through the kl / d_eps enclosures) and **grid** (the registry's own float code at grid points; a violation
is re-checked at 50 digits through the sympy expressions, d_eps from its definition). A pair whose bounds need
different privacy notions with no conversion between them (e.g. a pure-DP lower bound and a zCDP upper bound)
is registered as "not checkable numerically", with that reason.

Boxes: the natural boxes of bound_pairs.default_box; finite-armed pairs are two-armed instances (optimal mean
``mu_star``, suboptimal ``mu_1 < mu_star``), the algorithms' constants (α, β) fixed at the default instance.
"""

from __future__ import annotations

import math

import numpy as np

from ..box import Param, integer, positive, unit
from .evaluators import Inequality, not_checkable
from .proofs import proof_evaluator
from .registry import claim

SHEETS = {"000": "docs/formulas/rdp-bandits.md", "001": "docs/formulas/eps-global-dp-bernoulli.md", "002": "docs/formulas/ldp-glm-bandits.md",
          "003": "docs/formulas/zcdp-bandits.md", "004": "docs/formulas/dgs-contextual.md"}
GRID_POINTS = 1500


def claim_id(lower, upper) -> str:
    return f"{upper.id}-ge-{lower.id}"


def _params(lower, upper, notion) -> tuple[Param, ...]:
    from ...rigorous import bound_pairs as bp

    box = bp.default_box(lower, upper)
    ps: list[Param] = []
    if lower.setting == "finite":
        ps += [unit("mu_star", *box["mu_star"], open_ends=True, doc="the optimal arm's mean"),
               unit("mu_1", *box["mu_1"], open_ends=True, doc="the suboptimal arm's mean (below mu_star)")]
    ps.append(Param("T", *box["T"], (1.0, math.inf, False, True), doc="horizon"))
    if lower.setting == "linear":
        used = set(lower.params) | set(upper.params)
        ps += [integer("d", *box["d"], minimum=1, doc="dimension"), integer("K", *box["K"], minimum=2, doc="arms")]
        if "delta" in used:
            ps.append(unit("delta", *box["delta"], open_ends=True, doc="confidence δ"))
    rho_max = 1.0 if lower.id.startswith(("003-thm17", "003-thm9")) else math.inf  # their proofs need ρ ≤ 1
    for k, (lo, hi) in bp.BUDGET_BOX.get((lower.setting, notion), {}).items():
        if k == "rho":
            ps.append(Param(k, lo, hi, (0.0, rho_max, True, rho_max == math.inf), doc="zCDP budget ρ"))
        elif k.startswith("alpha"):
            ps.append(Param(k, lo, hi, (1.0, math.inf, True, True), doc="Rényi order α"))
        else:
            ps.append(positive(k, lo, hi, doc="privacy budget"))
    return tuple(ps)


def _pair_box(dom, lower, upper) -> dict:
    from ...errors import InputError, flag

    box = {p.name: dom.range(p.name) for p in dom.params}
    if lower.setting == "finite" and box["mu_1"][1] >= box["mu_star"][0]:
        raise InputError(f"{flag('box')} mu_1", f"a range below mu_star's range (mu_star from {box['mu_star'][0]:g})",
                         f"{box['mu_1'][0]:g}:{box['mu_1'][1]:g}")
    return box


def _proof_parts(lower, upper, assumptions: bool = False):
    """The proof of a pair; with ``assumptions`` (a pair with a plugin bound) the assumptions of both bounds, as
    data, are evaluated over the box (boundcalc.verify.assumptions.over_box) and the proof covers the part of the box
    where they hold (the label names each failing assumption); a box entirely outside them is not proven."""
    def parts(dom):
        from ...rigorous import bound_pairs as bp
        from ...rigorous.prover import UNDECIDED, ProofResult

        box = _pair_box(dom, lower, upper)
        c = bp.pair_claim(lower, upper, box)
        label = f"{lower.id} <= {upper.id}"
        if assumptions:
            from .. import assumptions as asm

            an = asm.over_box((lower, upper), c.box)
            if an.everywhere:  # _outside_assumptions answers first; kept for a direct call
                why = "outside the assumptions on the whole box: " + "; ".join(g.text() for g in an.everywhere)
                return [(label, lambda **lim: ProofResult(claim=c.name, verdict=UNDECIDED, box=dict(c.box), boxes=0,
                                                          reason=why))]
            c.constraint = an.constraint()
            if an.gaps:
                label += " where the assumptions hold (" + "; ".join(g.text() for g in an.gaps) + ")"
        return [(label, lambda **lim: c.prove(None, **lim))]

    return parts


def _budget(notion, p):
    """The budget of ``notion`` from a pair's parameters ``p``, by the one declaration of the budget symbols
    (boundcalc.bounds.symbols.BUDGET_PARAMETERS: symbol -> budget attribute): a setting's own symbols first (the finite
    RDP bounds' alpha_rdp, epsilon_rdp), else the notion's. None for a notion without a pair budget."""
    from ...bounds.symbols import BUDGET_PARAMETERS
    from ...privacy import RDP, ZCDP, PureDP

    cls = {"pure": PureDP, "zcdp": ZCDP, "rdp": RDP}.get(notion)
    if cls is None:
        return None
    own = [m for k, m in BUDGET_PARAMETERS.items() if isinstance(k, tuple) and k[1] == notion]
    m = next((m for m in own if all(s in p for s in m)), BUDGET_PARAMETERS[notion])
    return cls(**{attr: p[s] for s, (attr, _) in m.items()})


def _registry_value(bound, T, ctx):
    budget = ctx.budget_for(bound)[0] if bound.notion != "none" else None
    return float(bound.evaluate(np.array([T]), ctx, budget).value[0])


def _grid(lower, upper, notion):
    """The registry's float values at grid points; a float violation is re-checked at 50 digits through the
    sympy expressions (bound_pairs.pair_claim's point margin)."""
    names = tuple(p.name for p in _params(lower, upper, notion))

    def margin(**g):
        from ...bounds import registry
        from ...bounds.base import Context

        n = next(iter(g.values())).size
        out = np.empty(n)
        base = registry.make_context(lower.setting, {})
        cache = {}
        for i in range(n):
            p = {k: float(v[i]) for k, v in g.items()}
            key = tuple(sorted((k, v) for k, v in p.items() if k != "T"))
            if key not in cache:
                budget = _budget(notion, p)
                if lower.setting == "finite":
                    ctx = registry.make_context("finite", {"means": [p["mu_star"], p["mu_1"]]}, budget=budget)
                else:
                    ctx = Context(params=dict(base.params, d=int(p["d"]), K=int(p["K"]),
                                              **({"delta": p["delta"]} if "delta" in p else {})), budget=budget)
                cache[key] = ctx
            ctx = cache[key]
            at_T = Context(params=dict(ctx.params, T=p["T"]), budget=ctx.budget)  # assumptions over T (T >= 2)
            if lower.conditions(at_T) or upper.conditions(at_T):
                out[i] = np.nan  # outside the assumptions: not evaluated
                continue
            out[i] = _registry_value(upper, p["T"], ctx) - _registry_value(lower, p["T"], ctx)
        return out

    def margin_mp(**p):
        from ...rigorous import bound_pairs as bp

        box = {k: (float(v), float(v)) for k, v in p.items()}
        return bp.pair_claim(lower, upper, box).point_margin(dict(p))

    return Inequality(names, margin, margin_mp, points=GRID_POINTS,
                      text=f"{lower.id} ≤ {upper.id} (registry values)")


def _outside_assumptions(ev, lower, upper):
    """The evaluator ``ev`` of a plugin pair, answering "not checkable numerically" when an assumption of either
    bound fails on the whole box (nothing to prove or sample there)."""
    def wrapped(dom):
        from .. import assumptions as asm
        from .registry import Result

        an = asm.over_box((lower, upper), _pair_box(dom, lower, upper))
        if an.everywhere:
            why = "outside the assumptions on the whole box: " + "; ".join(g.text() for g in an.everywhere)
            return Result(verdict="not checkable numerically", measured=why, finding=why,
                          evidence={"assumption_gaps": [g.to_json() for g in an.everywhere]})
        return ev(dom)

    return wrapped


def _register(lower, upper, cid: str | None = None):
    """Register the pair's claim (id ``cid``, default ``<upper>-ge-<lower>``; its first three characters are the
    paper the claim is listed under)."""
    from ...rigorous import bound_pairs as bp

    cid = cid or claim_id(lower, upper)
    plugin = cid != claim_id(lower, upper)
    notion = bp.common_notion(lower, upper)
    paper = cid[:3]
    sheet = SHEETS.get(paper, "")
    sources = [lower.source, upper.source, f"docs/formulas/{sheet} (formula index)"]
    if notion is None:
        why = (f"{lower.id} is a lower bound for {lower.notion} algorithms and {upper.id} an upper bound for "
               f"{upper.notion} algorithms: no user budget makes both apply (no conversion between the notions "
               "in that direction), so the pair compares nothing")
        claim(cid, f"registered pair {lower.id} ≤ {upper.id}",
              f"{lower.id} ≤ {upper.id} (registered lower and upper bounds, {lower.setting} setting)", sources,
              "not checkable numerically", evaluator=not_checkable(why), method="none",
              note="registered lower ≤ upper pair (rigorous.bound_pairs.registered_pairs)")
        return
    arms = "; two-armed instances (mu_1 < mu_star), the algorithms' α, β at the default instance" \
        if lower.setting == "finite" else "; d and K real intervals (so every integer value)"
    params = _params(lower, upper, notion)
    grid = _grid(lower, upper, notion)
    where = " where the assumptions of both hold (their relations, as data, over the box)" if plugin else ""

    def wrap(ev):
        return _outside_assumptions(ev, lower, upper) if plugin else ev

    # the bounds' assumptions over the box (their requires, through rigorous.bound_calls.assumption_relations; K = 2
    # arms on the finite box): a --box where one may fail is refused (a plugin pair proves where they hold instead)
    fixed = {"K": 2} if lower.setting == "finite" else {}
    assumptions_of = () if plugin else ((lower.id, {}, fixed), (upper.id, {}, fixed))
    claim(cid, f"{'plugin' if plugin else 'registered'} pair {lower.id} ≤ {upper.id}",
          f"{lower.id} ({lower.source}) ≤ {upper.id} ({upper.source}) for every instance, budget ({notion}) and "
          f"horizon of the box{where}, both as registered (nonprivate + privacy cost){arms}",
          sources, "holds",
          evaluators={"proof": wrap(proof_evaluator(_proof_parts(lower, upper, plugin), grid=grid, what=(
              "proven on the box with the registered sympy expressions (boundcalc bounds show); finite-armed "
              "per-arm sums through the kl / d_eps enclosures. Not proven: that the registry's float code equals "
              "those expressions (tests/rigorous/test_proofs.py checks it at points; the grid method uses the float code)"))),
              "grid": wrap(grid)},
          params=params, note="registered lower ≤ upper pair (rigorous.bound_pairs.registered_pairs)",
          assumptions_of=assumptions_of)


def register_all() -> list[str]:
    """The pairs of built-in bounds (a plugin bound's pairs: :func:`refresh_plugin_pairs`)."""
    from ...bounds import registry
    from ...rigorous import bound_pairs as bp

    plugin_ids = {b.id for b in registry.plugin_bounds()}
    ids = []
    for lower, upper in bp.registered_pairs():
        if lower.id in plugin_ids or upper.id in plugin_ids:
            continue
        _register(lower, upper)
        ids.append(claim_id(lower, upper))
    return ids


PAIR_CLAIMS = register_all()
PLUGIN_CLAIMS: list[str] = []  # the pair claims of the plugin bounds registered now (refresh_plugin_pairs)


def plugin_claim_id(builtin, plugin) -> str:
    """``<built-in id>-le-<plugin id>`` (plugin upper) or ``<built-in id>-ge-<plugin id>`` (plugin lower): listed
    under the built-in bound's paper."""
    return f"{builtin.id}-{'le' if plugin.kind.startswith('upper') else 'ge'}-{plugin.id}"


def refresh_plugin_pairs() -> list[str]:
    """Register a claim for every plugin bound (``--bounds-file``, entry points) and every built-in bound it forms a
    lower <= upper pair with (bound_pairs.comparable: same setting, no "paper" form, minimax with minimax), after
    removing the claims of plugins no longer registered. Two plugin bounds are not paired (no paper to list them
    under). Returns the ids registered."""
    from ...bounds import registry
    from ...rigorous import bound_pairs as bp
    from .registry import CLAIM_PAPERS, CLAIMS

    for cid in PLUGIN_CLAIMS:
        CLAIMS.pop(cid, None)
        CLAIM_PAPERS.pop(cid, None)
    PLUGIN_CLAIMS.clear()
    plugins = registry.plugin_bounds()
    plugin_ids = {b.id for b in plugins}
    for p in plugins:
        if p.setting not in ("finite", "linear"):
            continue  # no natural pair box in the other settings (bound_pairs.default_box)
        for b in registry.select(setting=p.setting):
            if b.id in plugin_ids:
                continue
            if p.kind.startswith("upper") and b.kind.startswith("lower"):
                lower, upper = b, p
            elif p.kind.startswith("lower") and b.kind.startswith("upper"):
                lower, upper = p, b
            else:
                continue
            if not bp.comparable(lower, upper):
                continue
            cid = plugin_claim_id(b, p)
            _register(lower, upper, cid)
            PLUGIN_CLAIMS.append(cid)
    return list(PLUGIN_CLAIMS)
