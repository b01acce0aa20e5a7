"""Claims on the relations between DP definitions for bandits: seed 001 Prop. 2.4 and Prop. B.5, seed 003
Props. 1(a)–(e) and 2 (issue 16 item 8). Each is checked exactly on random three-step, two-armed policies with
{0, 1} rewards (boundcalc.privacy.bandit_definitions enumerates every neighbouring input and adversary): the pure ε,
δ(ε) and D_α of each definition's family of output-law pairs are compared. These are relations between the privacy
levels of one policy under several definitions, not inequalities between budget conversion formulas, so no
interval proof applies; the check is an exhaustive grid over inputs for each sampled policy ("no counterexample").
"""

from __future__ import annotations

import numpy as np

from ..box import above, positive
from .evaluators import verdict_of
from .registry import Result, claim

N_POLICIES = 12
SEED = 20261126
SHEETS = ("docs/formulas/eps-global-dp-bernoulli.md §1.4", "docs/formulas/zcdp-bandits.md §1.4")


def _policies(n=N_POLICIES):
    from ...privacy import bandit_definitions as B

    rng = np.random.default_rng(SEED)
    return [B.random_policy(rng) for _ in range(n)]


def _families(pol, kinds):
    from ...privacy import bandit_definitions as B

    return {k: B.family(pol, k) for k in kinds}


def _pure_equal(dom) -> Result:
    from ...privacy import bandit_definitions as B

    rows, worst = [], 0.0
    for i, pol in enumerate(_policies()):
        F = _families(pol, ("table", "view"))
        et, ev = B.pure_eps(*F["table"]), B.pure_eps(*F["view"])
        worst = max(worst, abs(et - ev))
        rows.append({"policy": i, "eps_table": et, "eps_view": ev})
    ok = worst <= 1e-12
    return Result(verdict=verdict_of(ok, "statement violated"), points=len(rows),
                  measured=f"{len(rows)} random policies (T = 3, K = 2): max |ε_table − ε_view| = {worst:.3g}",
                  evidence={"per_policy": rows}, counterexample=None if ok else max(
                      rows, key=lambda r: abs(r["eps_table"] - r["eps_view"])))


claim("001-prop2.4", "Prop. 2.4 (Table DP ⇔ View DP for pure ε-DP)",
      "a policy is ε-Table DP iff it is ε-View DP: the two pure-DP levels of every policy are equal",
      ["seed 001 Prop. 2.4 (Azize & Basu 2024 Prop. 1)", SHEETS[0]], "no counterexample", evaluator=_pure_equal)
claim("003-prop1a", "Prop. 1(a) (Table DP ⇔ View DP for pure ε-DP)",
      "M^π is ε-DP ⇔ V^π is ε-DP: the two pure-DP levels of every policy are equal",
      ["seed 003 Prop. 1(a)", SHEETS[1]], "no counterexample", evaluator=_pure_equal)


def _delta_relation(which):
    def ev(dom) -> Result:
        from ...privacy import bandit_definitions as B

        eps = dom.axis("epsilon", 25)
        kinds = {"b": ("table", "view"), "d": ("table", "view"), "e": ("table", "view"),
                 "B.5": ("table", "view", "tree")}[which]
        bad, rows, gap = [], [], 0.0
        for i, pol in enumerate(_policies()):
            F = _families(pol, kinds)
            dt, dv = B.delta(*F["table"], eps), B.delta(*F["view"], eps)
            if which == "b":  # View δ ≤ Table δ
                viol = dv > dt + 1e-13
            elif which == "d":  # Table δ ≤ K^T · View δ
                viol = dt > (B.K ** B.T) * dv + 1e-13
            elif which == "e":  # strictness: some (policy, ε) with View δ < Table δ
                gap = max(gap, float(np.max(dt - dv)))
                viol = np.zeros_like(eps, dtype=bool)
            else:  # B.5: Table δ ≤ tree δ, Table ε ≤ tree ε, and pure levels all equal
                dtr = B.delta(*F["tree"], eps)
                et, ev_, etr = (B.pure_eps(*F[k]) for k in ("table", "view", "tree"))
                viol = (dt > dtr + 1e-13) | (max(abs(et - ev_), abs(et - etr)) > 1e-12)
            for j in np.flatnonzero(viol):
                bad.append({"policy": i, "epsilon": float(eps[j]), "delta_table": float(dt[j]),
                            "delta_view": float(dv[j])})
            rows.append({"policy": i, "max_delta_table_minus_view": float(np.max(dt - dv))})
        ok = not bad if which != "e" else gap > 1e-6
        extra = f"; largest δ_table − δ_view = {gap:.4g} (a strict gap exhibits Prop. 1(e))" if which == "e" else ""
        return Result(verdict=verdict_of(ok, "statement violated"), points=len(rows) * eps.size,
                      counterexample=bad[0] if bad else None,
                      measured=f"{len(rows)} random policies × {eps.size} ε in [{eps[0]:g}, {eps[-1]:g}]: "
                      f"{len(bad)} violations{extra}", evidence={"per_policy": rows, "violations": bad[:20]})
    return ev


EPS = positive("epsilon", 0.05, 3.0, doc="the ε of (ε, δ)-DP")
claim("003-prop1b", "Prop. 1(b) (Table (ε, δ)-DP ⇒ View (ε, δ)-DP)",
      "for every ε: δ_view(ε) ≤ δ_table(ε), the smallest δ of each definition", ["seed 003 Prop. 1(b)", SHEETS[1]],
      "no counterexample", evaluator=_delta_relation("b"), params=(EPS,))
claim("003-prop1d", "Prop. 1(d) (View (ε, δ)-DP ⇒ Table (ε, K^T δ)-DP)",
      "for every ε: δ_table(ε) ≤ K^T · δ_view(ε)", ["seed 003 Prop. 1(d)", SHEETS[1]], "no counterexample",
      evaluator=_delta_relation("d"), params=(EPS,))
claim("001-propB.5", "Prop. B.5 (adaptive continual release ⇒ Table DP; all equal for pure DP)",
      "(a) δ_table(ε) ≤ δ_tree(ε) for every ε; (b) ε_tree = ε_table = ε_view (pure DP)",
      ["seed 001 Prop. B.5", "seed 001 Remark B.4", SHEETS[0]], "no counterexample",
      evaluator=_delta_relation("B.5"), params=(EPS,))


def _renyi_relation(which):
    def ev(dom) -> Result:
        from ...privacy import bandit_definitions as B

        al = dom.axis("alpha", 30)
        kinds = ("table", "view") if which == "1c" else ("table", "interactive")
        bad, rows, eq = [], [], 0.0
        for i, pol in enumerate(_policies(N_POLICIES if which == "1c" else 4)):
            F = _families(pol, kinds)
            a, b = (B.renyi(*F["view"], al), B.renyi(*F["table"], al)) if which == "1c" else \
                (B.renyi(*F["table"], al), B.renyi(*F["interactive"], al))
            for j in np.flatnonzero(a > b + 1e-12):
                bad.append({"policy": i, "alpha": float(al[j]), "smaller_side": float(a[j]), "larger_side": float(b[j])})
            if which == "2":  # (b): the Interactive level is the largest Table level of the post-processed π^B
                rb = np.max([B.renyi(*B.family(B.policy_B(pol, Badv), "table"), al) for Badv in B.adversaries()],
                            axis=0)
                eq = max(eq, float(np.max(np.abs(rb - b) / b)))
            rows.append({"policy": i, "rho_lower_side": float(np.max(a / al)), "rho_upper_side": float(np.max(b / al))})
        ok = not bad and eq <= 1e-12
        extra = (f"; (b) max relative |max_B D_α(Table π^B) − D_α(Interactive π)| = {eq:.2g}" if which == "2" else "")
        return Result(verdict=verdict_of(ok, "statement violated"), points=len(rows) * al.size,
                      counterexample=bad[0] if bad else None,
                      measured=f"{len(rows)} random policies × {al.size} α in [{al[0]:g}, {al[-1]:g}]: {len(bad)} "
                      f"violations{extra}", evidence={"per_policy": rows, "violations": bad[:20]})
    return ev


ALPHA = above("alpha", 1.01, 100.0, 1.0, doc="Rényi order α > 1 (ρ-zCDP: D_α ≤ ρα for all α)")
claim("003-prop1c", "Prop. 1(c) (Table ρ-zCDP ⇒ View ρ-zCDP)",
      "for every α > 1: max D_α over View neighbours ≤ max D_α over Table neighbours (so ρ_view ≤ ρ_table)",
      ["seed 003 Prop. 1(c)", SHEETS[1]], "no counterexample", evaluator=_renyi_relation("1c"), params=(ALPHA,))
claim("003-prop2", "Prop. 2 (Interactive zCDP ⇒ Table zCDP; π^B characterisation)",
      "(a) for every α > 1: max D_α over Table neighbours ≤ max D_α over Interactive views (every deterministic "
      "adversary); (b) for every α, the Interactive D_α of π equals the largest Table D_α of π^B over deterministic B",
      ["seed 003 Prop. 2", "seed 003 Def. 4", "docs/formulas/zcdp-bandits.md §1.4 (Prop. 2)"], "no counterexample",
      evaluator=_renyi_relation("2"), params=(ALPHA,))
