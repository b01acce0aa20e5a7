#!/usr/bin/env python3
"""Worksheet, seed 000 (Rényi-DP bandits: AdaR-UCB, AdaR-GOPE, AdaR-OFUL): the registry bounds at an
(α, ε)-RDP budget, the AdaR-UCB and AdaR-GOPE schedules, and the claim checks (ERRATA 1: Assumption 2)."""

from _ws import bounds_table, claims_table, heading, schedule_table

from boundcalc.privacy import RDP
from boundcalc.schedules import build

budget = RDP(2.0, 1.0)
heading("seed 000 finite-armed bounds (AdaR-UCB Thm 5 / Cor. 6), (α, ε) = (2, 1)")
bounds_table("000", "finite", budget, [1e4, 1e6])
heading("seed 000 linear bounds (AdaR-GOPE Thm 8)")
bounds_table("000", "linear", budget, [1e4, 1e6])
heading("seed 000 contextual bounds (AdaR-OFUL Thm 10; vacuous by ERRATA 1)")
bounds_table("000", "contextual", budget, [1e4, 1e6])
heading("Schedules")
schedule_table(build("adar-ucb", 100_000, alpha=2.0, rdp_epsilon=1.0), "AdaR-UCB per-arm doubling, T = 1e5")
schedule_table(build("adar-gope", 1_000_000, alpha=2.0, rdp_epsilon=1.0, d=3, K=10), "AdaR-GOPE phases (Eq. 8), T = 1e6")
claims_table("000")
