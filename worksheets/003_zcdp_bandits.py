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
# # Worksheet 003: Concentrated differential privacy for bandits (AdaC-UCB, AdaC-GOPE, AdaC-OFUL)
#
# A. Azize, D. Basu, SaTML 2024 (seed 003; docs/formulas/zcdp-bandits.md).
#
# Section VII of the paper runs each of its three algorithms against a non-private baseline (100 runs) and
# plots, in Figure 4, the regret difference against ρ at three horizons and the price of privacy against t at three
# budgets. Its claims: (1) for fixed T the difference vanishes as ρ → ∞; (2) for fixed ρ the PoP vanishes as T grows.
# Each figure is redrawn at the paper's instance and parameters, then a companion figure draws the registered bounds on
# an instance (and with a β) inside the theorems' assumptions, where they can be judged.
#
# Run it as a notebook (Jupyter, VS Code: this file is in the percent format), as a script
# (`python worksheets/003_zcdp_bandits.py --fast --out DIR`, or `--full` for the paper's scale), or as
# `boundcalc worksheet run 003 [--fast|--full] --out DIR`: all three run the same code,
# `boundcalc.experiments.ws003`, and write `report.md`, `results.json` and the figures into the
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

ws = start("003")  # fast mode unless the command line says --full; report and figures go to ws.runner.out

# %% [markdown]
# ## Figure 4(a): finite-armed, AdaC-UCB vs non-private UCB
#
# Reproduces: seed 003 Sec. VII, Figure 4(a). The cell prints the setup, the tables and the verdicts, and shows the figure.

# %%
fig4a = ws.run("fig4a")

# %% [markdown]
# ## Figure 4(a) companion: AdaC-UCB (β = 3.5) and Theorems 10, 11, 17
#
# Reproduces: seed 003 Thm 10, Thm 11, Thm 17 on the Sec. VII finite-armed instance. The cell prints the setup, the tables and the verdicts, and shows the figure.

# %%
fig4a_bounds = ws.run("fig4a-bounds")

# %% [markdown]
# ## Figure 4(b): linear, AdaC-GOPE vs GOPE
#
# Reproduces: seed 003 Sec. VII, Figure 4(b). The cell prints the setup, the tables and the verdicts, and shows the figure.

# %%
fig4b = ws.run("fig4b")

# %% [markdown]
# ## Figure 4(b) companion: AdaC-GOPE with ±1 rewards and Theorems 4, 9
#
# Reproduces: seed 003 Thm 4, Thm 9 on the Sec. VII linear instance. The cell prints the setup, the tables and the verdicts, and shows the figure.

# %%
fig4b_bounds = ws.run("fig4b-bounds")

# %% [markdown]
# ## Figure 4(c): contextual, AdaC-OFUL vs RS-OFUL
#
# Reproduces: seed 003 Sec. VII, Figure 4(c). The cell prints the setup, the tables and the verdicts, and shows the figure.

# %%
fig4c = ws.run("fig4c")

# %% [markdown]
# ## Figure 4(c) companion: projected contexts and Theorem 5
#
# Reproduces: seed 003 Thm 5 on the Sec. VII contextual instance projected onto the unit ball. The cell prints the setup, the tables and the verdicts, and shows the figure.

# %%
fig4c_bounds = ws.run("fig4c-bounds")

# %% [markdown]
# ## Appendix H, Figure 5: AdaC-GOPE vs AdaR-GOPE-Var
#
# Reproduces: seed 003 App. H, Figure 5; App. E-C; Table II (row linear bandits). The cell prints the setup, the tables and the verdicts, and shows the figure.

# %%
fig5 = ws.run("fig5")

# %% [markdown]
# ## The paper's claims judged by the verifier
#
# The claims of `boundcalc.verify.claims` for seed 003 (the same as `boundcalc verify --paper 003`):
# each verdict beside the one ERRATA and the formula sheet lead one to expect.

# %%
verdicts = ws.claims()

# %% [markdown]
# ## Not reproduced
#
# - The paper's curve values cannot be read from the text (sheet §6): the figures reproduce the setup and the claims, not numbers to compare against.

# %% [markdown]
# ## Report
#
# Writes `report.md` and `results.json` beside the figures.

# %%
report = ws.finish()
