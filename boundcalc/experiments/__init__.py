"""The five papers' experiments as data and code: one module per paper (``ws000`` … ``ws004``), each defining a
:class:`~boundcalc.experiments.base.Worksheet` (instances, budgets, horizons, algorithm lists, which paper figure
each experiment reproduces, fast and full scales).

``names()`` lists them, ``get(name)`` returns one ("001", "1", "001_eps_global_dp" or "eps_global_dp"),
``run(name, mode, out)`` runs it and writes the report. The percent-format notebooks in ``worksheets/`` and
``boundcalc worksheet run`` call the same code (:mod:`boundcalc.experiments.session`).
"""

from __future__ import annotations

import importlib

from ..errors import InputError

MODULES = {"000": "ws000", "001": "ws001", "002": "ws002", "003": "ws003", "004": "ws004"}


def names() -> list[str]:
    return list(MODULES)


def all_worksheets():
    return [get(n) for n in MODULES]


def get(name: str):
    """The Worksheet called ``name`` (its number, with or without leading zeros, its script name or its slug)."""
    key = str(name).strip().lower().removesuffix(".py")
    if key.isdigit() and key.zfill(3) in MODULES:
        return importlib.import_module(f"{__name__}.{MODULES[key.zfill(3)]}").WORKSHEET
    for n, mod in MODULES.items():
        ws = importlib.import_module(f"{__name__}.{mod}").WORKSHEET
        if key in (n, n.lstrip("0") or "0", ws.slug, f"{n}_{ws.slug}", ws.slug.replace("_", "-")):
            return ws
    allowed = ", ".join(f"{n} ({importlib.import_module(f'{__name__}.{m}').WORKSHEET.slug})" for n, m in MODULES.items())
    raise InputError("NAME", "one of " + allowed, name)


def run(name: str, mode: str = "fast", out: str | None = None, seed: int = 0, step_cap: int | None = None,
        echo: bool = False, progress: bool = False, data: dict[str, str] | None = None):
    """Run every experiment of worksheet ``name`` and its claims; write report.md and results.json. Returns the
    Report. ``data``: the user's real-data files ({"autoloan": CSV, "lastfm": directory}; docs/real_data.md)."""
    from ..montecarlo.settings import Simulation  # deferred: start-up of `worksheet list` (as the session)
    from .session import Session  # deferred: start-up of `worksheet list`

    return Session(name, mode=mode, out=out, simulation=Simulation(seed=seed), step_cap=step_cap, echo=echo,
                   progress=progress, data=data).run_all()


__all__ = ["MODULES", "names", "get", "run", "all_worksheets"]
