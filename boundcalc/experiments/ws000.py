"""Seed 000 (Azize & Basu, AAAI 2023, Rényi-DP bandits): the paper has no experiments (docs/formulas/rdp-bandits.md
§5), so this worksheet draws what stands in for them: the checks of the sheet's §6 as figures. AdaR-UCB against
Theorem 5 and Corollary 6 on the sheet's two-armed instance at its three budgets (check 4), AdaR-GOPE against
Theorem 8 on the sheet's d = 5, K = 50 example (check 7), AdaR-OFUL against Theorem 10 on bounded contexts."""

from __future__ import annotations

from functools import lru_cache

from ..figures import colour, panels_figure, title
from .base import Experiment, Worksheet
from .bounds import comparison_table
from .ws003 import bounds_panel

BETA = 3.1  # AdaR-UCB β (sheet check 4; Theorem 5 needs β > 3)
TWO_ARMS = [0.6, 0.5]  # sheet check 4 fixes Δ = 0.1 only; the means are boundcalc's choice (envs.instances rdp-2arm)
UCB_BUDGETS = ((2.0, 1.0), (2.0, 0.1), (10.0, 0.01))  # (α, ε) of sheet check 4
GOPE_BUDGETS = ((2.0, 1.0), (2.0, 0.1))


@lru_cache(maxsize=None)
def two_arm_env():
    from ..envs import make_env  # deferred: start-up of `worksheet list`

    return make_env("rdp-2arm")


@lru_cache(maxsize=None)
def linear_env():
    from ..bounds import registry
    from ..envs.linear import LinearEnv  # deferred: start-up of `worksheet list`

    ctx = registry.make_context("linear", LINEAR_OV)
    return LinearEnv(ctx["actions"], ctx["theta"], noise="rademacher",
                     name="d = 5, K = 50 actions and θ* uniform on the unit sphere (recipe seed 3), ±1 rewards")


LINEAR_OV = {"d": 5, "K": 50}
CONTEXT_OV = {"context_distribution": "gaussian-003-projected", "lam": 0.1, "C": 1.0, "delta": 1e-3}


def run_ucb(r, s):
    from ..algorithms.finite import AdaRUCB
    from ..privacy import RDP  # deferred: start-up of `worksheet list`

    ids = {"000-thm5": "Thm 5 (gap-dependent)", "000-cor6-explicit": "Cor. 6 (explicit constants)",
           "000-cor6-paper": "Cor. 6 (O-constants = 1)"}
    r.expect(len(UCB_BUDGETS))
    panels, comps = [], []
    for a, e in UCB_BUDGETS:
        p, c = bounds_panel(r, f"adar-ucb/alpha={a:g}/eps={e:g}", AdaRUCB(a, e, beta=BETA), two_arm_env(), s["T"],
                            s["runs"], "finite", RDP(a, e), {"means": TWO_ARMS, "beta_adar": BETA}, ids, tuple(ids), (),
                            f"AdaR-UCB (β = {BETA:g})", f"(α, ε) = ({a:g}, {e:g})", color=colour(0))
        panels.append(p)
        comps += c
    r.figure(panels_figure(panels, ncols=3, suptitle=title("seed 000 stand-in: AdaR-UCB and its bounds",
                                                           "two Bernoulli arms (0.6, 0.5)", "(α, ε)-RDP", s["T"],
                                                           s["runs"])), "adar-ucb.png")
    comparison_table(r, comps, "AdaR-UCB at T against Theorem 5 and Corollary 6")


def run_gope(r, s):
    from ..algorithms.linear import AdaRGOPE
    from ..privacy import RDP  # deferred: start-up of `worksheet list`

    ids = {"000-thm8-explicit": "Thm 8 (explicit minimum over phases)",
           "000-thm8-explicit-closed": "Thm 8 (closed explicit form, E[R_T])",
           "000-thm8-paper": "Thm 8 (appendix form, C1 = C2 = 1)", "000-thm8-paper-main": "Thm 8 (main-text form)"}
    r.expect(len(GOPE_BUDGETS))
    panels, comps = [], []
    for a, e in GOPE_BUDGETS:
        p, c = bounds_panel(r, f"adar-gope/alpha={a:g}/eps={e:g}", AdaRGOPE(a, e, delta=1e-3), linear_env(), s["T"],
                            s["runs"], "linear", RDP(a, e), LINEAR_OV, ids, tuple(ids), (), "AdaR-GOPE",
                            f"(α, ε) = ({a:g}, {e:g})", color=colour(0))
        panels.append(p)
        comps += c
    r.figure(panels_figure(panels, suptitle=title("seed 000 stand-in: AdaR-GOPE and Theorem 8", "d = 5, K = 50",
                                                  "(α, ε)-RDP", s["T"], s["runs"])), "adar-gope.png")
    comparison_table(r, comps, "AdaR-GOPE at T against Theorem 8")


def run_oful(r, s):
    from ..algorithms.contextual.oful import AdaROFUL
    from ..bounds import registry
    from ..privacy import RDP  # deferred: start-up of `worksheet list`
    from ..verify.regret_check import _contextual_env

    ctx = registry.make_context("contextual", CONTEXT_OV)
    env = _contextual_env(ctx)
    ids = {"000-thm10-corrected": "Thm 10 (corrected explicit form)", "000-thm10-paper": "Thm 10 (O-constants = 1)"}
    a, e = s["budget"]
    r.expect(1)
    p, c = bounds_panel(r, f"adar-oful/alpha={a:g}/eps={e:g}",
                        AdaROFUL(a, e, lam=0.1, C=1.0, delta=1e-3, lambda0=float(ctx["lam0"]), S=1.0), env, s["T"],
                        s["runs"], "contextual", RDP(a, e), CONTEXT_OV, ids,
                        ("000-thm10-corrected", "000-thm10-explicit", "000-thm10-paper"), (), "AdaR-OFUL",
                        f"(α, ε) = ({a:g}, {e:g})", color=colour(0))
    r.figure(panels_figure([p], ncols=1, panel_size=(7.5, 4.2),
                           suptitle=title("seed 000 stand-in: AdaR-OFUL and Theorem 10", "K = 10, d = 3 projected "
                                          "Gaussian contexts", "(α, ε)-RDP", s["T"], s["runs"])), "adar-oful.png")
    comparison_table(r, c, "AdaR-OFUL at T against Theorem 10")


WORKSHEET = Worksheet(
    name="000", slug="rdp_bandits", title="Rényi differentially private bandits (AdaR-UCB, AdaR-GOPE, AdaR-OFUL)",
    paper="A. Azize, D. Basu, AAAI 2023 (seed 000; docs/formulas/rdp-bandits.md)",
    summary="""**The paper has no experiments**: no simulation, data set, figure or table (sheet §5). The figures below
are boundcalc's own, on the instances the sheet suggests for its checks (§6): each algorithm's simulated regret with
the paper's bounds on the same axes, judged inside the theorems' assumptions. They are stand-ins, not reproductions.""",
    experiments=[
        Experiment("adar-ucb", "AdaR-UCB against Theorem 5 and Corollary 6", "no paper figure (sheet §6 check 4)",
                   """Two Bernoulli arms with Δ = 0.1 (means 0.6 and 0.5: the sheet fixes only the gap), β = 3.1, at the
three budgets of check 4: (α, ε) = (2, 1), (2, 0.1), (10, 0.01); T = 10^5 and 200 runs as in the sheet's reference.""",
                   {"fast": {"T": 10**4, "runs": 50}, "full": {"T": 10**5, "runs": 200}}, run_ucb),
        Experiment("adar-gope", "AdaR-GOPE against Theorem 8", "no paper figure (sheet §3.2 example, §6 check 7)",
                   """d = 5, K = 50 actions and θ* uniform on the unit sphere (recipe seed 3), ±1 rewards (Assumption 1),
δ = 10^-3, exact G-optimal design.""",
                   {"fast": {"T": 10**5, "runs": 20}, "full": {"T": 10**6, "runs": 100}}, run_gope),
        Experiment("adar-oful", "AdaR-OFUL against Theorem 10", "no paper figure (sheet §6 check 12)",
                   """The seed 003 contextual recipe projected onto the unit ball (K = 10, d = 3, ±1 rewards), C = 1,
λ = 0.1, δ = 10^-3, λ0 = λ_min(E xx^T) of these contexts. Assumption 2 cannot hold for d ≥ 2 (ERRATA 1: vacuous), so the
verdicts are "outside the assumptions" whatever the numbers; the figure shows how far the bound is from the regret.""",
                   {"fast": {"T": 5 * 10**3, "runs": 10, "budget": (2.0, 1.0)},
                    "full": {"T": 10**5, "runs": 100, "budget": (2.0, 1.0)}}, run_oful),
    ],
    not_reproduced=["Nothing to reproduce: seed 000 reports no experiment (sheet §5). The figures are stand-ins built "
                    "from the sheet's checks."],
)
