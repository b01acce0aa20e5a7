#!/usr/bin/env python3
"""Worksheet, seed 003 (zCDP bandits: AdaC-UCB, AdaC-GOPE, AdaC-OFUL, lower bounds): the registry bounds at
ρ = 0.1 (sheet §9 reference evaluations), the AdaC-GOPE and AdaC-OFUL schedules, and the claim checks
(ERRATA 1, 12, 16)."""

from _ws import bounds_table, claims_table, heading, schedule_table

from boundcalc.privacy import ZCDP
from boundcalc.schedules import build

budget = ZCDP(0.1)
heading("seed 003 finite-armed bounds (AdaC-UCB Thm 10/11, Thm 17), ρ = 0.1")
bounds_table("003", "finite", budget, [1e4, 1e6])
heading("seed 003 linear bounds (AdaC-GOPE Thm 4, Thm 9 as stated and corrected)")
bounds_table("003", "linear", budget, [1e4, 1e6])
heading("seed 003 contextual bounds (AdaC-OFUL Thm 5; λ = 1 as in the sheet's reference evaluation)")
bounds_table("003", "contextual", budget, [1e4, 1e6], overrides={"lam": 1.0, "lam0": 0.1})  # the sheet's λ0 (unprojected recipe)
heading("Schedules")
schedule_table(build("adac-gope", 1_000_000, rho=0.1, d=3, K=10), "AdaC-GOPE phases (Eq. 4), T = 1e6")
schedule_table(build("adac-oful", 100_000, rho=0.1, d=3, lam=1.0, C=1.0), "AdaC-OFUL det-doubling episodes, T = 1e5")
claims_table("003")
