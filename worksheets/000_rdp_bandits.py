# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Worksheet 000: Rényi differentially private bandits (AdaR-UCB, AdaR-GOPE, AdaR-OFUL)
#
# A. Azize, D. Basu, AAAI 2023 (seed 000; docs/formulas/rdp-bandits.md).
#
# **The paper has no experiments**: no simulation, data set, figure or table (sheet §5). The figures below
# are boundcalc's own, on the instances the sheet suggests for its checks (§6): each algorithm's simulated regret with
# the paper's bounds on the same axes, judged inside the theorems' assumptions. They are stand-ins, not reproductions.
#
# Run it as a notebook (Jupyter, VS Code: this file is in the percent format), as a script
# (`python worksheets/000_rdp_bandits.py --fast --out DIR`, or `--full` for the paper's scale), or as
# `boundcalc worksheet run 000 [--fast|--full] --out DIR`: all three run the same code,
# `boundcalc.experiments.ws000`, and write `report.md`, `results.json` and the figures into the
# output directory.

# %%
# Setup: use this checkout's boundcalc (also when it is not installed), then read --fast / --full / --out.
import sys
from pathlib import Path

_here = Path(__file__).resolve().parent if "__file__" in globals() else Path.cwd()
for _root in (_here, *_here.parents):
    if (_root / "boundcalc" / "__init__.py").is_file():
        sys.path.insert(0, str(_root))
        break

from boundcalc.experiments.session import start  # noqa: E402

ws = start("000")  # fast mode unless the command line says --full; report and figures go to ws.runner.out

# %% [markdown]
# ## AdaR-UCB against Theorem 5 and Corollary 6
#
# Reproduces: no paper figure (sheet §6 check 4). The cell prints the setup, the tables and the verdicts, and shows the figure.

# %%
adar_ucb = ws.run("adar-ucb")

# %% [markdown]
# ## AdaR-GOPE against Theorem 8
#
# Reproduces: no paper figure (sheet §3.2 example, §6 check 7). The cell prints the setup, the tables and the verdicts, and shows the figure.

# %%
adar_gope = ws.run("adar-gope")

# %% [markdown]
# ## AdaR-OFUL against Theorem 10
#
# Reproduces: no paper figure (sheet §6 check 12). The cell prints the setup, the tables and the verdicts, and shows the figure.

# %%
adar_oful = ws.run("adar-oful")

# %% [markdown]
# ## The paper's claims judged by the verifier
#
# The claims of `boundcalc.verify.claims` for seed 000 (the same as `boundcalc verify --paper 000`):
# each verdict beside the one ERRATA and the formula sheet lead one to expect.

# %%
verdicts = ws.claims()

# %% [markdown]
# ## Not reproduced
#
# - Nothing to reproduce: seed 000 reports no experiment (sheet §5). The figures are stand-ins built from the sheet's checks.

# %% [markdown]
# ## Report
#
# Writes `report.md` and `results.json` beside the figures.

# %%
report = ws.finish()
