#!/usr/bin/env python3
"""Worksheet, seed 002 (GLM bandits under local DP): Thm 3.1 / 3.2 / 3.3 / 4.1 bounds at a local (ε, δ)
budget, the ψ^OLS noise calibration (paper vs safe), and the claim checks (ERRATA 8: OLS release)."""

from _ws import bounds_table, claims_table, console, fmt, heading
from rich.table import Table

from boundcalc.privacy import LocalDP
from boundcalc.privacy.mechanisms import gaussian_delta, ldp_ols_noise_stds

for eps in (0.5, 1.0):
    heading(f"seed 002 bounds, local (ε, δ) = ({eps}, 0.01)")
    bounds_table("002", "glm", LocalDP(eps, 0.01), [1e4, 1e6])

heading("ψ^OLS noise (Eq. 3.3): paper vs safe calibration, C_B = c_r = 1")
t = Table(header_style="bold")
for c in ("ε", "δ", "std W paper", "std ξ paper", "std W safe", "std ξ safe", "δ_u(ε/2) paper (needs ≤ δ/2)"):
    t.add_column(c, justify="right")
for eps, dl in ((0.5, 0.01), (1.0, 0.01), (2.0, 0.01), (1.0, 0.1)):
    w, xi = ldp_ols_noise_stds(eps, dl)
    ws, xis = ldp_ols_noise_stds(eps, dl, safe=True)
    t.add_row(fmt(eps), fmt(dl), fmt(w, 4), fmt(xi, 4), fmt(ws, 4), fmt(xis, 4), fmt(gaussian_delta(eps / 2, 2.0, xi), 4))
console.print(t)
claims_table("002")
