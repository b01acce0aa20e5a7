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
# # Worksheet 002: Generalized linear bandits with local differential privacy (LDP-OLS, LDP-SGD)
#
# Y. Han, Z. Liang, Y. Wang, J. Zhang, NeurIPS 2021 (seed 002; docs/formulas/ldp-glm-bandits.md).
#
# Section 5 simulates linear bandits with contexts Unif(S^{d−1}) in a single-parameter and a multi-parameter
# setting, ε ∈ {1, 5}, 10 replications, and reports that LDP-OLS and LDP-SGD outperform LDP-UCB and LDP-GLOC. **Not stated
# in the paper**: d, K, T, θ*, δ and the noise law (they appear only in the figures, not in the text). Used here: the
# authors' public code defaults as the sheet reports them (T = 10^6, d = 2, K = 10 single / K = 3 multi, δ = 0.01 / 0.1).
# The paper's figures show mean ± 0.5 s.d.; the ribbons here are 95% intervals of the mean.
#
# Run it as a notebook (Jupyter, VS Code: this file is in the percent format), as a script
# (`python worksheets/002_ldp_glm.py --fast --out DIR`, or `--full` for the paper's scale), or as
# `boundcalc worksheet run 002 [--fast|--full] --out DIR`: all three run the same code,
# `boundcalc.experiments.ws002`, and write `report.md`, `results.json` and the figures into the
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

ws = start("002")  # fast mode unless the command line says --full; report and figures go to ws.runner.out

# %% [markdown]
# ## Figure 5.1: single-parameter synthetic experiment
#
# Reproduces: seed 002 Sec. 5, Figure 5.1. The cell prints the setup, the tables and the verdicts, and shows the figure.

# %%
single = ws.run("single")

# %% [markdown]
# ## Figure 5.1: multi-parameter synthetic experiment
#
# Reproduces: seed 002 Sec. 5, Figure 5.1. The cell prints the setup, the tables and the verdicts, and shows the figure.

# %%
multi = ws.run("multi")

# %% [markdown]
# ## Figure F.1: auto-loan data (user-supplied file)
#
# Reproduces: seed 002 App. F, Figure F.1. Runs only with your copy of the CPRM-12-001 file
# (`python worksheets/002_ldp_glm.py --data autoloan=FILE.csv`; format in docs/real_data.md); otherwise the cell says so.

# %%
autoloan = ws.run("autoloan")

# %% [markdown]
# ## Logistic path of LDP-SGD at scale (synthetic)
#
# Reproduces: seed 002 App. F (synthetic stand-in). The cell prints the setup, the tables and the verdicts, and shows the figure.

# %%
logistic = ws.run("logistic")

# %% [markdown]
# ## The paper's claims judged by the verifier
#
# The claims of `boundcalc.verify.claims` for seed 002 (the same as `boundcalc verify --paper 002`):
# each verdict beside the one ERRATA and the formula sheet lead one to expect.

# %%
verdicts = ws.claims()

# %% [markdown]
# ## Not reproduced
#
# - Appendix F, Figure F.1 (On-Line Auto Lending data, CPRM-12-001): the data set cannot be downloaded here. Experiment `autoloan` runs the paper's preprocessing and both methods on a file you supply (--data autoloan=FILE, docs/real_data.md); the tests run it on a small synthetic file of that format only, so no figure of the real data is shown. Experiment `logistic` exercises the logistic path on synthetic data.
# - d, K, T, θ*, δ and the noise law of the synthetic experiments are not in the paper's text: the values used are the authors' code defaults (sheet §5), which may differ from the published figures.

# %% [markdown]
# ## Report
#
# Writes `report.md` and `results.json` beside the figures.

# %%
report = ws.finish()
