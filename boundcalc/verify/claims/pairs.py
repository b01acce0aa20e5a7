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
    from ...errors import InputError

    box = {p.name: dom.range(p.name) for p in dom.params}
    if lower.setting == "finite" and box["mu_1"][1] >= box["mu_star"][0]:
        raise InputError("--box mu_1", f"a range below mu_star's range (mu_star from {box['mu_star'][0]:g})",
                         f"{box['mu_1'][0]:g}:{box['mu_1'][1]:g}")
    return box


def _proof_parts(lower, upper):
    def parts(dom):
        from ...rigorous import bound_pairs as bp

        c = bp.pair_claim(lower, upper, _pair_box(dom, lower, upper))
        return [(f"{lower.id} <= {upper.id}", lambda **lim: c.prove(None, **lim))]

    return parts


def _budget(notion, p):
    from ...privacy import RDP, ZCDP, PureDP

    if notion == "pure":
        return PureDP(p["epsilon"])
    if notion == "zcdp":
        return ZCDP(p["rho"])
    if notion == "rdp":
        return RDP(p["alpha_rdp"], p["epsilon_rdp"]) if "alpha_rdp" in p else RDP(p["alpha"], p["epsilon"])
    return None


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
            if lower.conditions(ctx) or upper.conditions(ctx):
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


def _register(lower, upper):
    from ...rigorous import bound_pairs as bp

    notion = bp.common_notion(lower, upper)
    paper = upper.seed
    sheet = SHEETS.get(paper, "")
    sources = [lower.source, upper.source, f"docs/formulas/{sheet} (formula index)"]
    if notion is None:
        why = (f"{lower.id} is a lower bound for {lower.notion} algorithms and {upper.id} an upper bound for "
               f"{upper.notion} algorithms: no user budget makes both apply (no conversion between the notions "
               "in that direction), so the pair compares nothing")
        claim(claim_id(lower, upper), f"registered pair {lower.id} ≤ {upper.id}",
              f"{lower.id} ≤ {upper.id} (registered lower and upper bounds, {lower.setting} setting)", sources,
              "not checkable numerically", evaluator=not_checkable(why), method="none",
              note="registered lower ≤ upper pair (rigorous.bound_pairs.registered_pairs)")
        return
    arms = "; two-armed instances (mu_1 < mu_star), the algorithms' α, β at the default instance" \
        if lower.setting == "finite" else "; d and K real intervals (so every integer value)"
    params = _params(lower, upper, notion)
    grid = _grid(lower, upper, notion)
    claim(claim_id(lower, upper), f"registered pair {lower.id} ≤ {upper.id}",
          f"{lower.id} ({lower.source}) ≤ {upper.id} ({upper.source}) for every instance, budget ({notion}) and "
          f"horizon of the box, both as registered (nonprivate + privacy cost){arms}",
          sources, "holds",
          evaluators={"proof": proof_evaluator(_proof_parts(lower, upper), grid=grid, what=(
              "proven on the box with the registered sympy expressions (boundcalc bounds show); finite-armed "
              "per-arm sums through the kl / d_eps enclosures. Not proven: that the registry's float code equals "
              "those expressions (tests/test_proofs.py checks it at points; the grid method uses the float code)")),
              "grid": grid},
          params=params, note="registered lower ≤ upper pair (rigorous.bound_pairs.registered_pairs)")


def register_all() -> list[str]:
    from ...rigorous import bound_pairs as bp

    ids = []
    for lower, upper in bp.registered_pairs():
        _register(lower, upper)
        ids.append(claim_id(lower, upper))
    return ids


PAIR_CLAIMS = register_all()
