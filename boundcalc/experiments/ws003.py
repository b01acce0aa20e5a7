"""Seed 003 (Azize & Basu, SaTML 2024, zCDP bandits), Section VII: Figure 4 (a) finite-armed, (b) linear,
(c) contextual, and Appendix H Figure 5 (AdaC-GOPE against AdaR-GOPE-Var, with Table II's linear row); each panel pair plots Reg_priv − Reg_nonpriv against ρ for three horizons and the price of
privacy PoP = (Reg_priv − Reg_nonpriv)/Reg_nonpriv against t for three budgets (docs/formulas/zcdp-bandits.md §6).
Axes as the paper draws them: ρ on a log axis, t on a linear axis (Figure 4's right panels, Figure 5), Figure 5's
regret on a log axis.

The paper's instances break its theorems' assumptions (β = 1 < 3 for Thm 10; N(0, 1) rewards and Gaussian
contexts for Assumption 1; ERRATA 1 for Assumption 2), so each figure is followed by a companion at the same scale
on which the registered bounds are drawn and judged: AdaC-UCB with β = 3.5, the linear instance with ±1 rewards, the
contextual instance projected onto the unit ball.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..figures import Curve, Panel, colour, panels_figure, title
from .base import Experiment, Worksheet
from .bounds import bound_lines, compare, comparison_table, difference, price_of_privacy, record_curves
from .common import checkpoints_with, curve, final

BETA_PAPER = 1.0  # seed 003 Sec. VII: β = 1 (Theorem 10 needs β > 3)
BETA_THM = 3.5  # sheet §8.6 / §9: the smallest round value the theorem allows, used to check Thm 10 / 11
MU2 = [0.75, 0.625, 0.5, 0.375, 0.25]


def _grid(lo: float, hi: float, per_decade: int) -> list[float]:
    n = int(round(np.log10(hi / lo) * per_decade)) + 1
    return [float(x) for x in np.geomspace(lo, hi, n)]


# -- instances -------------------------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def finite_env():
    from ..envs import make_env  # deferred: start-up of `worksheet list`

    return make_env("zcdp-finite")


@lru_cache(maxsize=None)
def linear_env(noise: str):
    """The Sec. VII linear instance of the bounds' default context (10 unit actions, θ* unit, recipe seed 3) with
    N(0, 1) rewards (the paper) or ±1 rewards of the same means (Assumption 1)."""
    from ..bounds import registry
    from ..envs.linear import LinearEnv  # deferred: start-up of `worksheet list`

    ctx = registry.make_context("linear", {})
    return LinearEnv(ctx["actions"], ctx["theta"], noise=noise, sigma=1.0,
                     name="seed 003 Sec. VII linear instance (recipe seed 3), "
                          + ("N(0, 1) rewards" if noise == "gaussian" else "±1 rewards"))


def contextual_overrides(projected: bool) -> dict:
    return {"context_distribution": "gaussian-003-projected" if projected else "gaussian-003", "lam": 0.1, "C": 1.0,
            "delta": 1e-3, **({} if projected else {"lam0": 0.1})}


@lru_cache(maxsize=None)
def contextual_env(projected: bool):
    from ..bounds import registry
    from ..verify.regret_check import _contextual_env

    return _contextual_env(registry.make_context("contextual", contextual_overrides(projected)))


def oful(rho: float | None, lam0: float):
    from ..algorithms.contextual import oful as o

    kw = dict(lam=0.1, C=1.0, delta=1e-3, lambda0=lam0, S=1.0)
    return o.RSOFUL(**kw) if rho is None else o.AdaCOFUL(rho, **kw)


# -- the Figure 4 pattern --------------------------------------------------------------------------------------
def priv_vs_nonpriv(r, key: str, make_priv, make_nonpriv, env, rho_grid, Ts, pop_rhos, T_pop, runs, what: str,
                    fig_name: str, setting_title: str, why: str = ""):
    """Left: Reg_priv − Reg_nonpriv against ρ at horizons Ts; right: PoP against t for the budgets pop_rhos. Returns
    {rho: Results} and the non-private Results. ``why``: why no regret bound is drawn on this figure (recorded for
    both algorithms' curves, runner.curve_bounds)."""
    T_max = max(max(Ts), T_pop)
    cps = checkpoints_with(T_max, Ts)
    rhos = sorted(set(rho_grid) | set(pop_rhos))
    r.expect(1 + len(rhos))
    nonpriv = r.simulate(f"{key}/nonprivate", make_nonpriv(), env, T_max, runs, checkpoints=cps)
    priv = {rho: r.simulate(f"{key}/rho={rho:.6g}", make_priv(rho), env, T_max, runs, checkpoints=cps)
            for rho in rhos}
    idx = {T: int(np.searchsorted(cps, T)) for T in Ts}
    for name in dict.fromkeys([make_priv(rhos[0]).name, make_nonpriv().name]):
        r.curve_bounds(name, reason=why or "the figure plots Reg_priv − Reg_nonpriv and the price of privacy, not "
                                           "regret: no regret bound applies to its curves")
    left = []
    rows = []
    for T in Ts:
        d = [difference(priv[rho], nonpriv) for rho in rho_grid]
        m = np.array([x[0][idx[T]] for x in d])
        lo = np.array([x[1][idx[T]] for x in d])
        hi = np.array([x[2][idx[T]] for x in d])
        left.append(Curve(f"T = {T:g}", np.array(rho_grid), m, lo, hi))
        rows.append((T, m, lo, hi))
    right = []
    pops = {}
    for rho in pop_rhos:
        p, lo, hi = price_of_privacy(priv[rho], nonpriv)
        keep = cps >= 10
        right.append(Curve(f"ρ = {rho:g}", cps[keep], p[keep], lo[keep], hi[keep]))
        pops[rho] = (p, lo, hi)
    fig = panels_figure([Panel(left, (), title="Reg_priv − Reg_nonpriv against ρ", xlabel="ρ",
                               ylabel="Reg_priv − Reg_nonpriv"),
                         # the paper's right panels have a linear t axis ("Step t ×10^7"; seed 003 Figure 4)
                         Panel(right, (), title="price of privacy against t", xlabel="t", x_scale="linear",
                               ylabel="PoP = (Reg_priv − Reg_nonpriv) / Reg_nonpriv")],
                        ncols=2, shared_legend=False,
                        suptitle=title(f"seed 003 Figure 4{fig_name[-1]}: {what}", setting_title, "ρ-zCDP", T_max, runs))
    r.figure(fig, f"{fig_name}.png")
    r.table(f"Reg_priv − Reg_nonpriv (mean [95% CI]) against ρ", ["ρ", *[f"T = {T:g}" for T in Ts]],
            [[rho, *[f"{m[i]:.4g} [{lo[i]:.4g}, {hi[i]:.4g}]" for (_, m, lo, hi) in rows]]
             for i, rho in enumerate(rho_grid)])
    r.table("Price of privacy at the three horizons (mean [95% CI])", ["ρ", *[f"t = {T:g}" for T in Ts]],
            [[rho, *[f"{pops[rho][0][idx[T]]:.3g} [{pops[rho][1][idx[T]]:.3g}, {pops[rho][2][idx[T]]:.3g}]"
                     for T in Ts]] for rho in pop_rhos])
    # claim (1): the difference vanishes as ρ grows, for each T
    ok1, ev1 = [], []
    for (T, m, lo, hi) in rows:
        nonp = float(nonpriv.mean()[idx[T]])
        small = lo[-1] <= 0 <= hi[-1] or abs(m[-1]) <= 0.05 * nonp
        fell = m[-1] < m[0]
        ok1.append(small and fell)
        ev1.append(f"T = {T:g}: {m[0]:.3g} at ρ = {rho_grid[0]:g} → {m[-1]:.3g} [{lo[-1]:.3g}, {hi[-1]:.3g}] at "
                   f"ρ = {rho_grid[-1]:g} (Reg_nonpriv {nonp:.3g})")
    r.figure_claim("For a fixed T, Reg_priv − Reg_nonpriv → 0 as ρ grows", f"seed 003 Sec. VII, Figure 4{fig_name[-1]} "
                   "(left)", "reproduced" if all(ok1) else "not reproduced", "; ".join(ev1) +
                   " (vanished = interval contains 0 or |difference| ≤ 5% of Reg_nonpriv at the largest ρ)")
    # claim (2): PoP falls as T grows, for each ρ
    ok2, sig2, ev2 = [], [], []
    T1, T3 = min(Ts), max(Ts)
    for rho in pop_rhos:
        p, lo, hi = pops[rho]
        a, b = idx[T1], idx[T3]
        ok2.append(p[b] < p[a])
        sig2.append(hi[b] < lo[a])
        ev2.append(f"ρ = {rho:g}: PoP {p[a]:.3g} at t = {T1:g} → {p[b]:.3g} at t = {T3:g}")
    word = "reproduced" if all(sig2) else ("inconclusive" if all(ok2) else "not reproduced")
    r.figure_claim("For a fixed ρ, the price of privacy → 0 as T grows", f"seed 003 Sec. VII, Figure 4{fig_name[-1]} "
                   "(right)", word, "; ".join(ev2) + " (reproduced = the intervals at the first and last horizon are "
                   "separated)")
    return priv, nonpriv


def bounds_panel(r, key, alg, env, T, runs, setting, budget, overrides, ids_labels, upper_ids, lower_ids,
                 label: str, config: str, assumptions=None, draw=None, color=None):
    """A regret curve with its registered bounds on the same axes (``draw``: which of ``ids_labels``), and the
    comparisons at T."""
    res = r.simulate(key, alg, env, T, runs)
    lines, missing = bound_lines(setting, budget, res.checkpoints, ids_labels, overrides, draw=draw)
    for bid, why in missing.items():
        r.note(f"{bid} not drawn for {config}: {why}")
    comps = compare(r, config, setting, budget, alg.name, res, env, overrides, bound_ids=upper_ids,
                    lower_ids=lower_ids, assumptions=assumptions)
    record_curves(r, [alg.name], ids_labels, missing, comps, lines, draw=draw, where=config)
    c = curve(res, label)
    c.color = color
    return Panel([c], lines, title=config), comps


# -- (a) finite-armed ------------------------------------------------------------------------------------------
def run_fig4a(r, s):
    from ..algorithms.finite import AdaCUCB

    priv_vs_nonpriv(r, "fig4a", lambda rho: AdaCUCB(rho, beta=BETA_PAPER),
                    lambda: AdaCUCB(float("inf"), beta=BETA_PAPER), finite_env(), s["rho_grid"], s["Ts"],
                    s["pop_rhos"], max(s["Ts"]), s["runs"], "finite-armed, AdaC-UCB vs UCB with adaptive episodes",
                    "fig4a", "K = 5 Bernoulli (0.75 … 0.25), β = 1",
                    why="the figure plots Reg_priv − Reg_nonpriv and the price of privacy, not regret; outside the "
                        "assumptions: β = 1 < 3 (Thm 10, Thm 11 need β > 3); drawn and judged at β = 3.5 in "
                        "fig4a-bounds")
    r.note("β = 1 as in the paper: Theorem 10 needs β > 3, so no bound applies to this figure; the companion figure "
           "draws and judges them at β = 3.5.")


def run_fig4a_bounds(r, s):
    from ..algorithms.finite import AdaCUCB
    from ..privacy import ZCDP  # deferred: start-up of `worksheet list`

    ov = {"means": MU2, "beta_adac": BETA_THM}
    ids = {"003-thm10": "Thm 10 (problem-dependent)", "003-thm11-explicit": "Thm 11 (explicit constants)",
           "003-thm11-paper": "Thm 11 (O-constants = 1)", "003-thm17": "Thm 17 minimax lower bound"}
    r.expect(len(s["rhos"]))
    panels, comps = [], []
    for rho in s["rhos"]:
        p, c = bounds_panel(r, f"fig4a-bounds/rho={rho:g}", AdaCUCB(rho, beta=BETA_THM), finite_env(), s["T"],
                            s["runs"], "finite", ZCDP(rho), ov, ids, ("003-thm10", "003-thm11-explicit",
                                                                      "003-thm11-paper"), ("003-thm17",),
                            f"AdaC-UCB (β = {BETA_THM:g})", f"ρ = {rho:g}")
        panels.append(p)
        comps += c
    r.figure(panels_figure(panels, suptitle=title("seed 003 Sec. VII finite-armed instance: AdaC-UCB and its bounds",
                                                  "K = 5 Bernoulli, β = 3.5", "ρ-zCDP", s["T"], s["runs"])),
             "fig4a-bounds.png")
    comparison_table(r, comps, "AdaC-UCB (β = 3.5) at T against Thm 10, Thm 11 and the Thm 17 lower bound")


# -- (b) linear ------------------------------------------------------------------------------------------------
WHY_4B = ("the figure plots Reg_priv − Reg_nonpriv and the price of privacy, not regret; outside the assumptions: "
          "N(0, 1) rewards break Assumption 1 (|r| ≤ 1) of Thm 4 and of the GOPE-limit bound; Thm 4, GOPE-limit's "
          "bound and GOPE's own (Lattimore–Szepesvári Thm 22.1, explicit form DERIVED) are drawn and judged with ±1 "
          "rewards in fig4b-bounds")
def run_fig4b(r, s):
    from ..algorithms.linear import GOPE, AdaCGOPE, GOPELimit

    priv, gope_res = priv_vs_nonpriv(r, "fig4b", lambda rho: AdaCGOPE(rho, delta=1e-3),
                              lambda: GOPE(delta=1e-3, schedule="ls"), linear_env("gaussian"), s["rho_grid"], s["Ts"],
                              s["pop_rhos"], s["T_pop"], s["runs"], "linear, AdaC-GOPE vs GOPE (LS Alg. 12)", "fig4b",
                              "K = 10, d = 3, N(0, 1) rewards", why=WHY_4B)
    from ..privacy import ZCDP  # deferred: start-up of `worksheet list`

    # the same claim (1) against AdaC-GOPE's own ρ → ∞ limit (sheet §0), which the paper's claim presupposes
    T_max = max(max(s["Ts"]), s["T_pop"])
    cps = checkpoints_with(T_max, s["Ts"])
    r.expect(1)
    limit = r.simulate("fig4b/nonprivate-limit", GOPELimit(delta=1e-3), linear_env("gaussian"), T_max, s["runs"],
                       checkpoints=cps)
    r.curve_bounds("GOPE-limit", reason=WHY_4B)
    rho_max = max(s["rho_grid"])
    parts = []
    for T in s["Ts"]:
        i = int(np.searchsorted(cps, T))
        d, lo, hi = (x[i] for x in difference(priv[rho_max], limit))
        parts.append(f"T = {T:g}: {d:.4g} [{lo:.4g}, {hi:.4g}]")
    r.note(f"Baseline: GOPE as the paper names it, Lattimore–Szepesvári's Algorithm 12 (boundcalc GOPE). "
           f"Against AdaC-GOPE's own ρ → ∞ limit instead (boundcalc GOPE-limit: same phases, no noise; sheet §0), Reg_priv − Reg_nonpriv at "
           f"ρ = {rho_max:g} is " + "; ".join(parts) + " (95% intervals).")

    rho = 0.1 if 0.1 in priv else sorted(priv)[0]
    compare(r, f"paper instance (N(0, 1) rewards), ρ = {rho:g}", "linear", ZCDP(rho), "AdaC-GOPE", priv[rho],
            linear_env("gaussian"), {}, lower_ids=("003-thm9-corrected",))
    # GOPE's own bounds (Lattimore–Szepesvári Thm 22.1) assume 1-sub-Gaussian noise only: N(0, 1) is inside
    compare(r, "paper instance (N(0, 1) rewards), GOPE (Lattimore–Szepesvári Alg. 12)", "linear", None, "GOPE",
            gope_res, linear_env("gaussian"), {})
    comparison_table(r, r.current.comparisons, "AdaC-GOPE and GOPE on the paper's instance against their bounds")


def run_fig4b_bounds(r, s):
    from ..algorithms.linear import GOPE, AdaCGOPE, GOPELimit
    from ..privacy import ZCDP  # deferred: start-up of `worksheet list`

    ls_ex, ls_paper = "gope-lattimore-szepesvari2020-thm22-1-explicit", "gope-lattimore-szepesvari2020-thm22-1-paper"
    ids = {"003-thm4-explicit": "Thm 4 (explicit, E[R_T], δ = 1/T)", "003-thm4-paper": "Thm 4 (O-constants = 1)",
           "003-gope-explicit": "GOPE (ρ → ∞ limit of Thm 4, explicit)",
           "003-thm9-corrected": "Thm 9 minimax lower bound (proved constant)",
           ls_ex: "Lattimore–Szepesvári Thm 22.1 (explicit, DERIVED)", ls_paper: "Lattimore–Szepesvári Thm 22.1 (C = 1)"}
    gope_ids = ("003-gope-explicit", ls_ex, ls_paper)
    env = linear_env("rademacher")
    r.expect(2 + len(s["rhos"]))
    panels, comps = [], []
    for rho in s["rhos"]:
        p, c = bounds_panel(r, f"fig4b-bounds/rho={rho:g}", AdaCGOPE(rho, delta=1e-3), env, s["T"], s["runs"],
                            "linear", ZCDP(rho), {}, ids, ("003-thm4-explicit", "003-thm4-paper"),
                            ("003-thm9-corrected", "003-thm9"), "AdaC-GOPE", f"AdaC-GOPE, ρ = {rho:g}",
                            draw=[k for k in ids if k not in gope_ids], color=colour(0))
        panels.append(p)
        comps += c
    p, c = bounds_panel(r, "fig4b-bounds/GOPE", GOPELimit(delta=1e-3), env, s["T"], s["runs"], "linear", ZCDP(1.0), {},
                        ids, ("003-gope-explicit",), (), "GOPE-limit", "GOPE-limit (AdaC-GOPE at ρ → ∞)", draw=["003-gope-explicit"],
                        color=colour(1))
    panels.append(p)
    comps += c
    # GOPE as the paper runs it (Lattimore–Szepesvári Alg. 12, boundcalc GOPE) with its own bounds (bounds/baselines.py)
    p, c = bounds_panel(r, "fig4b-bounds/GOPE-LS", GOPE(delta=1e-3, schedule="ls"), env, s["T"], s["runs"], "linear",
                        ZCDP(1.0), {}, ids, (ls_ex, ls_paper), (), "GOPE", "GOPE (Lattimore–Szepesvári Alg. 12)",
                        draw=[ls_ex, ls_paper], color=colour(2))
    panels.append(p)
    comps += c
    r.figure(panels_figure(panels, suptitle=title("seed 003 Sec. VII linear instance with ±1 rewards: bounds",
                                                  "K = 10, d = 3", "ρ-zCDP", s["T"], s["runs"])), "fig4b-bounds.png")
    comparison_table(r, comps, "AdaC-GOPE, GOPE-limit and GOPE at T against Thm 4, Lattimore–Szepesvári Thm 22.1 and "
                               "the Thm 9 lower bound (±1 rewards)")


# -- Appendix H, Figure 5: AdaC-GOPE against AdaR-GOPE-Var --------------------------------------------------------
def run_fig5(r, s):
    """seed 003 App. H, Figure 5: AdaC-GOPE and AdaR-GOPE-Var (noise on the per-action reward sums, App. E-C2) on the
    Sec. VII linear instance, one panel per ρ, log-scale regret; Table II's row "linear bandits" (Thm 4 for AdaC-GOPE,
    Hanna et al. Eq. 17 converted for the per-sum noising) drawn on the same axes with O-constants 1. AdaR-GOPE-Var in
    its two readings (boundcalc.algorithms.linear.AdaRGOPEVar): AdaC-GOPE's phases (App. H: Step 4 changes only) and
    AdaR-GOPE's phases at α/ε = 1/ρ (the name)."""
    from ..algorithms.linear import AdaCGOPE, AdaRGOPEVar
    from ..privacy import ZCDP  # deferred: start-up of `worksheet list`

    env = linear_env("gaussian")
    ids = {"003-thm4-paper": "Thm 4, AdaC-GOPE (Table II, O-constants = 1)",
           "003-table2-hanna-eq17": "Hanna et al. Eq. 17 converted (Table II, O-constants = 1)"}
    readings = {"adac": "AdaR-GOPE-Var (AdaC-GOPE's phases)", "adar": "AdaR-GOPE-Var (AdaR-GOPE's phases)"}
    r.expect(3 * len(s["rhos"]))
    panels, ends, comps = [], {}, []
    for rho in s["rhos"]:
        ac = r.simulate(f"fig5/adac/rho={rho:g}", AdaCGOPE(rho, delta=1e-3), env, s["T"], s["runs"])
        var = {k: r.simulate(f"fig5/var-{k}/rho={rho:g}", AdaRGOPEVar(rho, delta=1e-3, schedule=k), env, s["T"],
                             s["runs"]) for k in readings}
        lines, missing = bound_lines("linear", ZCDP(rho), ac.checkpoints, ids, {})
        for bid, why in missing.items():
            r.note(f"{bid} not drawn at ρ = {rho:g}: {why}")
        curves = [curve(var[k], readings[k]) for k in readings] + [curve(ac, "AdaC-GOPE")]  # AdaC-GOPE drawn on top
        for i, c in enumerate(curves):
            c.color = colour(i + 1 if i < len(readings) else 0)
        # the paper's scales: linear t ("Step t ×10^6"), log regret (seed 003 App. H, Figure 5)
        panels.append(Panel(curves, lines, title=f"ρ = {rho:g}", log_y=True, x_scale="linear"))
        ends[rho] = {"AdaC-GOPE": final(ac), **{k: final(var[k]) for k in readings}}
        comps += compare(r, f"AdaC-GOPE, ρ = {rho:g}", "linear", ZCDP(rho), "AdaC-GOPE", ac, env, {},
                         bound_ids=("003-thm4-paper",))
        for k in readings:
            comps += compare(r, f"{readings[k]}, ρ = {rho:g}", "linear", ZCDP(rho), "AdaR-GOPE-Var", var[k], env, {},
                             bound_ids=("003-table2-hanna-eq17",))
        record_curves(r, ("AdaC-GOPE", "AdaR-GOPE-Var"), ids, missing,
                      [c for c in comps if c.config.endswith(f"ρ = {rho:g}")], lines, where=f"ρ = {rho:g}")
    r.figure(panels_figure(panels, suptitle=title("seed 003 Appendix H, Figure 5: AdaC-GOPE against AdaR-GOPE-Var",
                                                  "K = 10, d = 3, N(0, 1) rewards", "ρ-zCDP", s["T"], s["runs"])),
             "fig5.png")
    fmt = lambda e: f"{e[0]:.4g} [{e[1]:.4g}, {e[2]:.4g}]"  # noqa: E731
    r.table(f"Regret at T = {s['T']:g} (mean [95% CI])", ["ρ", "AdaC-GOPE", *readings.values()],
            [[rho, fmt(e["AdaC-GOPE"]), *[fmt(e[k]) for k in readings]] for rho, e in ends.items()])
    r.note("AdaR-GOPE-Var with AdaC-GOPE's phases differs from AdaC-GOPE only in the noise of the estimate (covariance "
           "(2/ρ) V⁻¹(Σ_S a aᵀ)V⁻¹ against (2d/(ρ c_l)) V⁻¹, a factor |S|/d ≤ (d+1)/2 for a uniform design), which changes "
           "only the eliminations: its curve lies on AdaC-GOPE's.")
    comparison_table(r, comps, "AdaC-GOPE against Thm 4 and AdaR-GOPE-Var against Hanna et al. Eq. 17 (converted), "
                     "both O-forms of Table II; N(0, 1) rewards break Assumption 1")
    # claim: AdaC-GOPE has less regret, most visibly in the high-privacy regime (small ρ); judged for each reading
    small = min(ends)
    for k, label in readings.items():
        lower = {rho: (e["AdaC-GOPE"][0] < e[k][0], e["AdaC-GOPE"][2] < e[k][1]) for rho, e in ends.items()}
        gap = {rho: e[k][0] - e["AdaC-GOPE"][0] for rho, e in ends.items()}
        all_lower = all(v[0] for v in lower.values())
        word = "reproduced" if (all_lower and lower[small][1] and gap[small] >= max(gap.values())) else (
            "inconclusive" if all_lower else "not reproduced")
        r.figure_claim(f"AdaC-GOPE has less regret than AdaR-GOPE-Var, especially in the high-privacy regime (small ρ); "
                       f"reading: {label}", "seed 003 App. H, Figure 5", word,
                       "; ".join(f"ρ = {rho:g}: {e['AdaC-GOPE'][0]:.4g} against {e[k][0]:.4g}"
                                 f"{' (separated)' if lower[rho][1] else ''}" for rho, e in ends.items())
                       + f" (reproduced = lower at every ρ, the intervals separated at ρ = {small:g}, and the difference "
                       "largest there)")
    # the dimension dependence of Table II's row "linear bandits": privacy costs of the two bounds against d
    from ..bounds import registry

    drows = []
    for d in s["dims"]:
        ctx = registry.make_context("linear", {"d": d, "K": 10 * d}, budget=ZCDP(0.1))
        a = registry.get("003-thm4-paper").evaluate([1e6], ctx).privacy_cost[0]
        b = registry.get("003-table2-hanna-eq17").evaluate([1e6], ctx).privacy_cost[0]
        drows.append([d, 10 * d, f"{a:.4g}", f"{b:.4g}", f"{b / a:.3g}"])
    r.table("Privacy cost of Table II's linear row at T = 10^6, ρ = 0.1 (K = 10 d): linear against quadratic in d",
            ["d", "K", "Thm 4 (AdaC-GOPE): d log^{3/2}(KT)/√ρ", "Hanna et al. Eq. 17 converted: d² log²(KT)/√ρ",
             "ratio"], drows,
            note="seed 003 App. E-C: the noise on the per-action sums grows with the design's support, hence d².")


# -- (c) contextual --------------------------------------------------------------------------------------------
def run_fig4c(r, s):
    from ..privacy import ZCDP  # deferred: start-up of `worksheet list`

    priv, _ = priv_vs_nonpriv(r, "fig4c", lambda rho: oful(rho, 0.1), lambda: oful(None, 0.1), contextual_env(False),
                              s["rho_grid"], s["Ts"], s["pop_rhos"], max(s["Ts"]), s["runs"],
                              "contextual, AdaC-OFUL vs RS-OFUL", "fig4c",
                              "K = 10, d = 3, contexts N(1/√3·1, I/10), N(0, 1) rewards",
                              why="the figure plots Reg_priv − Reg_nonpriv and the price of privacy, not regret; "
                                  "outside the assumptions: N(0, 1) rewards and unbounded Gaussian contexts break "
                                  "Assumption 1, and Assumption 2 cannot hold for d ≥ 2 (ERRATA 1); Thm 5 and RS-OFUL's "
                                  "bound are drawn and judged on projected contexts in fig4c-bounds")
    rho = sorted(priv)[0]
    compare(r, f"paper instance, ρ = {rho:g}", "contextual", ZCDP(rho), "AdaC-OFUL", priv[rho],
            contextual_env(False), contextual_overrides(False))
    comparison_table(r, r.current.comparisons, "AdaC-OFUL on the paper's instance against its bounds")


def run_fig4c_bounds(r, s):
    from ..privacy import ZCDP  # deferred: start-up of `worksheet list`

    env = contextual_env(True)
    ov = contextual_overrides(True)
    from ..bounds import registry

    lam0 = float(registry.make_context("contextual", ov)["lam0"])
    ids = {"003-thm5-corrected": "Thm 5 (corrected explicit form)", "003-thm5-paper": "Thm 5 (O-constants = 1)",
           "003-rsoful-explicit": "RS-OFUL (ρ → ∞ limit, explicit)"}
    rho = s["rho"]
    r.expect(2)
    p1, c1 = bounds_panel(r, f"fig4c-bounds/rho={rho:g}", oful(rho, lam0), env, s["T"], s["runs"], "contextual",
                          ZCDP(rho), ov, ids, ("003-thm5-corrected", "003-thm5-explicit", "003-thm5-paper"), (),
                          "AdaC-OFUL", f"AdaC-OFUL, ρ = {rho:g}", draw=["003-thm5-corrected", "003-thm5-paper"],
                          color=colour(0))
    p2, c2 = bounds_panel(r, "fig4c-bounds/RS-OFUL", oful(None, lam0), env, s["T"], s["runs"], "contextual",
                          ZCDP(rho), ov, ids, ("003-rsoful-explicit",), (), "RS-OFUL", "RS-OFUL (non-private)",
                          draw=["003-rsoful-explicit"], color=colour(1))
    r.figure(panels_figure([p1, p2], suptitle=title("seed 003 contextual instance projected onto the unit ball: bounds",
                                                    "K = 10, d = 3, ±1 rewards", "ρ-zCDP", s["T"], s["runs"])),
             "fig4c-bounds.png")
    comparison_table(r, c1 + c2, "AdaC-OFUL and RS-OFUL at T against Thm 5 (projected contexts, ±1 rewards)")


COMMON = """Reg_priv − Reg_nonpriv and PoP are computed from independent runs of the private algorithm and of its
non-private baseline (normal 95% intervals; PoP by the delta method). All horizons of a panel come from the same
runs at the largest T (the algorithms are anytime: their schedules do not depend on T)."""

WORKSHEET = Worksheet(
    name="003", slug="zcdp_bandits", title="Concentrated differential privacy for bandits (AdaC-UCB, AdaC-GOPE, "
    "AdaC-OFUL)",
    paper="A. Azize, D. Basu, SaTML 2024 (seed 003; docs/formulas/zcdp-bandits.md)",
    summary="""Section VII of the paper runs each of its three algorithms against a non-private baseline (100 runs) and
plots, in Figure 4, the regret difference against ρ at three horizons and the price of privacy against t at three
budgets. Its claims: (1) for fixed T the difference vanishes as ρ → ∞; (2) for fixed ρ the PoP vanishes as T grows.
Each figure is redrawn at the paper's instance and parameters, then a companion figure draws the registered bounds on
an instance (and with a β) inside the theorems' assumptions, where they can be judged.""",
    experiments=[
        Experiment("fig4a", "Figure 4(a): finite-armed, AdaC-UCB vs non-private UCB", "seed 003 Sec. VII, Figure 4(a)",
                   f"""K = 5 Bernoulli arms (0.75, 0.625, 0.5, 0.375, 0.25) as in Sajed–Sheffet, β = 1 (the paper's value),
AdaC-UCB against its ρ → ∞ limit "UCB with adaptive episodes and forgetting" (no noise, no privacy bonus). Left:
Reg_priv − Reg_nonpriv against ρ ∈ [0.1, 1000] for T ∈ {{10^5, 10^6, 10^7}}; right: PoP against t for
ρ ∈ {{0.1, 0.5, 1}}. {COMMON}""",
                   {"fast": {"Ts": [10**3, 10**4, 10**5], "rho_grid": _grid(0.1, 1000, 1), "pop_rhos": [0.1, 0.5, 1.0],
                             "runs": 30},
                    "full": {"Ts": [10**5, 10**6, 10**7], "rho_grid": _grid(0.1, 1000, 3), "pop_rhos": [0.1, 0.5, 1.0],
                             "runs": 100}}, run_fig4a),
        Experiment("fig4a-bounds", "Figure 4(a) companion: AdaC-UCB (β = 3.5) and Theorems 10, 11, 17",
                   "seed 003 Thm 10, Thm 11, Thm 17 on the Sec. VII finite-armed instance",
                   """The same instance with β = 3.5 (Theorem 10 needs β > 3), at two budgets; the upper bounds of
Theorems 10 and 11 and the minimax lower bound of Theorem 17 on the same axes.""",
                   {"fast": {"T": 10**5, "runs": 30, "rhos": [0.1, 1.0]},
                    "full": {"T": 10**7, "runs": 100, "rhos": [0.1, 1.0]}}, run_fig4a_bounds),
        Experiment("fig4b", "Figure 4(b): linear, AdaC-GOPE vs GOPE", "seed 003 Sec. VII, Figure 4(b)",
                   f"""K = 10 actions and θ* uniform on the unit sphere of R^3 (recipe seed 3), N(0, 1) reward noise,
δ = 0.001, exact G-optimal design; the baseline GOPE is Lattimore–Szepesvári's Algorithm 12 as the paper says (the
sheet's §0 uses AdaC-GOPE's ρ → ∞ limit instead; the paper wins, and the limit is reported beside it). Left: the difference against ρ ∈ [0.1, 1000] for T ∈ {{10^4, 10^5, 10^6}};
right: PoP against t up to 10^7 for ρ ∈ {{0.01, 0.1, 1}}. {COMMON}""",
                   {"fast": {"Ts": [10**3, 10**4, 10**5], "T_pop": 10**5, "rho_grid": _grid(0.1, 1000, 1),
                             "pop_rhos": [0.01, 0.1, 1.0], "runs": 30},
                    "full": {"Ts": [10**4, 10**5, 10**6], "T_pop": 10**7, "rho_grid": _grid(0.1, 1000, 3),
                             "pop_rhos": [0.01, 0.1, 1.0], "runs": 100}}, run_fig4b),
        Experiment("fig4b-bounds", "Figure 4(b) companion: AdaC-GOPE with ±1 rewards and Theorems 4, 9",
                   "seed 003 Thm 4, Thm 9 on the Sec. VII linear instance",
                   """The same actions and θ* with ±1 rewards of mean ⟨a, θ*⟩ (Assumption 1 holds), AdaC-GOPE at two
budgets and GOPE-limit, with Theorem 4 (explicit constants and the O-form) and the Theorem 9 lower bounds; GOPE
(Lattimore–Szepesvári Algorithm 12) with its own bound, Lattimore & Szepesvári (2020) Thm 22.1 (explicit constants
DERIVED from its proof, and the O-form with C = 1).""",
                   {"fast": {"T": 10**5, "runs": 30, "rhos": [0.1, 1.0]},
                    "full": {"T": 10**7, "runs": 100, "rhos": [0.1, 1.0]}}, run_fig4b_bounds),
        Experiment("fig4c", "Figure 4(c): contextual, AdaC-OFUL vs RS-OFUL", "seed 003 Sec. VII, Figure 4(c)",
                   f"""K = 10 fresh actions per round, each ~ N((1/√3)·1, I_3/10) (the sheet's reading of the text), θ*
uniform on the unit sphere, N(0, 1) rewards, C = 1, λ = 0.1, δ = 0.001, λ0 = 0.1. Left: the difference against
ρ ∈ [1, 100] for T ∈ {{10^3, 10^4, 10^5}}; right: PoP against t up to 10^5 for ρ ∈ {{0.1, 0.5, 1}} (the text says
T = 10^7 for every setting; the panels stop at 10^5, sheet §6). {COMMON}""",
                   {"fast": {"Ts": [10**2, 10**3, 5 * 10**3], "rho_grid": _grid(1, 100, 1), "pop_rhos": [0.1, 0.5, 1.0],
                             "runs": 10},
                    "full": {"Ts": [10**3, 10**4, 10**5], "rho_grid": _grid(1, 100, 3), "pop_rhos": [0.1, 0.5, 1.0],
                             "runs": 100}}, run_fig4c),
        Experiment("fig4c-bounds", "Figure 4(c) companion: projected contexts and Theorem 5",
                   "seed 003 Thm 5 on the Sec. VII contextual instance projected onto the unit ball",
                   """The contexts projected onto the unit ball and ±1 rewards (Assumption 1 holds; λ0 = λ_min(E xx^T)
of these contexts); AdaC-OFUL and RS-OFUL with Theorem 5's bounds. Assumption 2 cannot hold for d ≥ 2 (ERRATA 1:
vacuous), so AdaC-OFUL's verdicts are "outside the assumptions" whatever the numbers.""",
                   {"fast": {"T": 5 * 10**3, "runs": 10, "rho": 0.1},
                    "full": {"T": 10**5, "runs": 100, "rho": 0.1}}, run_fig4c_bounds),
        Experiment("fig5", "Appendix H, Figure 5: AdaC-GOPE vs AdaR-GOPE-Var", "seed 003 App. H, Figure 5; App. E-C; "
                   "Table II (row linear bandits)",
                   """The Sec. VII linear instance (K = 10, d = 3, N(0, 1) rewards, δ = 0.001) as App. H says, AdaC-GOPE
against AdaR-GOPE-Var, whose Step 4 adds N(0, 2/ρ) to each support action's reward sum instead of noising V^{-1/2}Σ a r
(App. E-C2), for ρ ∈ {0.001, 0.01, 0.1, 1}, t up to 10^6, log-scale regret. Drawn with each panel: Table II's row
"linear bandits", Thm 4 (AdaC-GOPE, privacy cost linear in d) and Hanna et al. Eq. 17 as converted there (the per-sum
noising, quadratic in d), both with O-constants 1. A table evaluates the two privacy costs against d. AdaR-GOPE-Var
is run in its two readings: AdaC-GOPE's phases (App. H: "Step 4 changes"; the regrets then differ only through the
eliminations the noisier estimate gets wrong) and AdaR-GOPE's phases (seed 000 Eq. 8 at α/ε = 1/ρ, which carry
d(d+1) where AdaC-GOPE's carry f(d, δ): the name's reading); the paper does not say which it ran. Independent runs per
algorithm; 95% Student-t intervals.""",
                   {"fast": {"T": 10**5, "runs": 20, "rhos": [0.001, 0.01, 0.1, 1.0], "dims": [3, 10, 30]},
                    "full": {"T": 10**6, "runs": 100, "rhos": [0.001, 0.01, 0.1, 1.0], "dims": [3, 10, 30, 100]}},
                   run_fig5),
    ],
    not_reproduced=[
        "The paper's curve values cannot be read from the text (sheet §6): the figures reproduce the setup and the "
        "claims, not numbers to compare against.",
    ],
)
