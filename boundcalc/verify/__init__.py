"""Verification: checks that confront the papers' claims and bounds with computations.

``claims``: paper inequalities / ERRATA items over grids, each returning a Verdict with its evidence.
"""
