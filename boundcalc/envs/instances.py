"""Named finite-armed instances from the papers' experiments.

* ``mu1``..``mu4``: the four 5-armed Bernoulli instances of Sajed & Sheffet (2019) used in seed 001
  Section 5 / Appendix G (formula sheet docs/formulas/eps-global-dp-bernoulli.md §8).
* ``zcdp-finite``: seed 003 Sec. VII (Fig. 4a) finite-armed experiment, K = 5 Bernoulli means
  {0.75, 0.625, 0.5, 0.375, 0.25} "as in Sajed–Sheffet" (= mu2; docs/formulas/zcdp-bandits.md §6). Seed 003 App. H
  (Fig. 5) is a linear instance (random actions on the sphere of R^3); it belongs to the linear envs.
* ``rdp-2arm``: seed 000 check 4 (docs/formulas/rdp-bandits.md §6): two Bernoulli arms with Delta = 0.1. The sheet fixes
  only the gap; the means (0.6, 0.5) are our choice (variance-maximal around 1/2).
"""

from __future__ import annotations

from ..errors import InputError
from .base import BernoulliEnv, FiniteArmedEnv, GaussianEnv

INSTANCES: dict[str, dict] = {
    "mu1": {"means": (0.75, 0.70, 0.70, 0.70, 0.70), "source": "seed 001 §5 / App. G (Sajed–Sheffet mu1)"},
    "mu2": {"means": (0.75, 0.625, 0.5, 0.375, 0.25), "source": "seed 001 §5 / App. G (Sajed–Sheffet mu2)"},
    "mu3": {"means": (0.75, 0.53125, 0.375, 0.28125, 0.25), "source": "seed 001 §5 / App. G (Sajed–Sheffet mu3)"},
    "mu4": {"means": (0.75, 0.71875, 0.625, 0.46875, 0.25), "source": "seed 001 §5 / App. G (Sajed–Sheffet mu4)"},
    "zcdp-finite": {"means": (0.75, 0.625, 0.5, 0.375, 0.25), "source": "seed 003 Sec. VII, Fig. 4a"},
    "rdp-2arm": {"means": (0.6, 0.5), "source": "seed 000 check 4 (Delta = 0.1; means chosen here)"},
}

FAMILIES = ("bernoulli", "gaussian")


def make_env(name: str | None = None, means=None, family: str = "bernoulli", sigma: float = 1.0) -> FiniteArmedEnv:
    """An environment from a named instance and/or explicit means (explicit means win)."""
    if family not in FAMILIES:
        raise InputError("family", "one of " + ", ".join(FAMILIES), family)
    label = name or "custom"
    if means is None:
        if name is None:
            raise InputError("env", "a named instance or explicit means", None)
        if name not in INSTANCES:
            raise InputError("env", "one of " + ", ".join(INSTANCES), name)
        means = INSTANCES[name]["means"]
    else:
        label = "custom" if name is None else f"{name} (means overridden)"
    if family == "bernoulli":
        return BernoulliEnv(means, name=label)
    return GaussianEnv(means, sigma=sigma, name=label)
