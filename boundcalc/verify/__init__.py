"""Verification: computations that confront the papers' claims and bounds.

``claims``: every ERRATA item and sheet check as a Claim record (evaluators by method: grid, monte-carlo,
proof); ``box``: parameter domains and grids (``--box``); ``expression`` / ``functions``: the restricted
inequality language of ``boundcalc check``; ``report``: ``verify --report FILE.md``; ``regret_check``: bounds
against simulated regret; ``adapters``: a bound's context -> its algorithm and environment, and back
(``context_for``); ``overlay``: the bounds drawn beside a simulation.
"""
