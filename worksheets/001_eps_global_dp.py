#!/usr/bin/env python3
"""Worksheet, seed 001 (Azize et al. 2025, ε-global DP Bernoulli bandits): d_ε, the lower bounds of
Thm 3.1 vs Eq. 7 on the App. G environments, privacy-for-free thresholds, Thm 4.3 upper bounds, the
DP-KLUCB batch schedule, and the claim checks (ERRATA 14, 15)."""

from _ws import bounds_table, claims_table, console, heading, schedule_table, fmt

import numpy as np

from boundcalc.bounds import registry
from boundcalc.envs.instances import INSTANCES
from boundcalc.info import d_epsilon, kl_bernoulli
from boundcalc.privacy import PureDP
from boundcalc.schedules import build
from rich.table import Table

heading("seed 001: d_ε (Eq. 6 / Eq. 8) at (x, y) = (0.25, 0.75)")
t = Table(header_style="bold")
for c in ("ε", "d_ε", "kl", "ε|x − y|"):
    t.add_column(c, justify="right")
for e in (0.1, 0.5, 1.0, 2.0, 5.0):
    t.add_row(fmt(e), fmt(d_epsilon(0.25, 0.75, e), 10), fmt(kl_bernoulli(0.25, 0.75), 10), fmt(0.5 * e))
console.print(t)

heading("Lower-bound constants LB/ln T on mu1..mu4 (Thm 3.1 vs Eq. 7, Lai–Robbins)")
t = Table(header_style="bold")
for c in ("env", "max ε_a", "ε", "Lai–Robbins", "Thm 3.1", "Eq. 7 c=1", "Eq. 7 c=6"):
    t.add_column(c, justify="right")
for env in ("mu1", "mu2", "mu3", "mu4"):
    ctx = registry.make_context("finite", {"means": list(INSTANCES[env]["means"])})
    for e in (0.1, 1.0, 10.0):
        vals = [float(registry.get(b).evaluate([np.e], ctx, PureDP(e)).value[0])
                for b in ("001-thm3.1", "001-eq7-c1", "001-eq7-c6")]
        lr = float(registry.get("001-lai-robbins").evaluate([np.e], ctx).value[0])
        t.add_row(env, fmt(max(ctx["eps_a"]), 4), fmt(e), fmt(lr, 5), *(fmt(v, 5) for v in vals))
console.print(t)

heading("All seed 001 bounds on mu2 (ε = 1)")
bounds_table("001", "finite", PureDP(1.0), [1e4, 1e6])

heading("DP-KLUCB geometric batches (seed 001 Eq. 14), T = 1e5, ε = 1")
schedule_table(build("dp-klucb", 100_000, epsilon=1.0), "DP-KLUCB schedule (per arm)")

claims_table("001")
