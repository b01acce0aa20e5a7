#!/usr/bin/env python3
"""Worksheet, seed 004 (LinUCB with dynamic global sensitivity): Thm 3 as stated and log T-corrected at
(ε, δ) = (2, 0.1) on the synthetic configuration (sheet §3), the Lemma 1 thresholds, and the claim checks
(ERRATA 4 and the Σ(2^k/(2^k − 1))² item)."""

import math

from _ws import bounds_table, claims_table, console, fmt, heading
from rich.table import Table

from boundcalc.privacy import ApproxDP

heading("seed 004 bounds (Thm 3), (ε, δ) = (2, 0.1), d = 10, λ0 = 0.0227 (synthetic experiment)")
bounds_table("004", "contextual", ApproxDP(2.0, 0.1), [1e4, 1e5, 1e6],
             overrides={"d": 10, "lam0": 0.0227, "lam": 1.0})

heading("Lemma 1: the paper's burn-in 32 log(1/δ)/λ0 vs λ'(t) at that t")
t = Table(header_style="bold")
for c in ("λ0", "δ", "paper t", "λ'(t)", "λ0 t/16"):
    t.add_column(c, justify="right")
for lam0, dl in ((1.0, 0.1), (0.1, 0.1), (0.05, 0.01)):
    t0 = math.ceil(32 * math.log(1 / dl) / lam0)
    L = math.log((t0 + 3) / dl)
    lp = lam0 * t0 / 4 - 8 * L - 2 * math.sqrt(t0 * L)
    t.add_row(fmt(lam0), fmt(dl), str(t0), fmt(lp, 4), fmt(lam0 * t0 / 16, 4))
console.print(t)
claims_table("004")
