"""Loaders for the real data sets of the papers' experiments (files the user supplies; nothing is downloaded).

* :mod:`boundcalc.data.autoloan`: On-Line Auto Lending (CPRM-12-001), seed 002 App. F, Figure F.1;
* :mod:`boundcalc.data.lastfm`: HetRec 2011 Last.fm, seed 004 Sec. 4, Figures 1(b) and 2(c).

The expected file formats and the preprocessing (as each paper describes it) are in docs/real_data.md. Each loader
returns an environment the Monte Carlo engine runs like any synthetic one.
"""

from __future__ import annotations

NAMES = ("autoloan", "lastfm")

__all__ = ["NAMES"]
