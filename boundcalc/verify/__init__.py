"""Verification: computations that confront the papers' claims and bounds.

``claims``: every ERRATA item, sheet check and registered lower <= upper pair as a Claim record (evaluators by
method: proof — boundcalc.rigorous, see claims/proofs.py —, grid, monte-carlo); ``box``: parameter domains and
grids (``--box``); ``expression`` / ``functions``: the restricted inequality language (the one parser: the grid
and the prover consume its output); ``check``: ``boundcalc check`` (a proof first, the grid otherwise);
``report``: ``verify --report FILE.md``; ``regret_check``: bounds against simulated regret. docs/verify.md says
what each verdict means.
"""
