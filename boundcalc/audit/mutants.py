"""The deliberately broken copies an audit can run ("mutants"), so that a user can watch the audit catch them.

Each mutant is a set of constructor parameters applied to the algorithm the audit builds; the claimed guarantee
stays the one of the unbroken algorithm (a mutant claims what the original claims).

* ``noise-halved`` — ``noise_mult=0.5``: every privacy-noise draw halved (true privacy loss doubled for Laplace
  noise, ρ quadrupled for Gaussian noise).
* ``no-noise`` — ``noise_mult=0``: no privacy noise at all (not private at any ε). For LDP-SGD (both variants) the
  copy releases the clipped gradient itself (the ε = ∞ limit of Ψ_{ε,R}); their ``noise_mult`` scales the radius
  of Ψ's sphere, which is post-processing and changes no privacy, so LDP-SGD has no ``noise-halved`` mutant.
* ``fresh-tree`` — LinUCB-DGS with ``tree="fresh"``: every tree node redrawn at every step (ERRATA 7: the
  (ε, δ) claim fails).
* ``l2-laplace`` — Private-LinUCB with ``sensitivity="paper"`` audited against its label ε: Laplace noise
  calibrated to the L2 value L with ε/log2 T per node, which is not ε-DP (``PrivateLinUCB.privacy_epsilon``).
"""

from __future__ import annotations

from ..errors import InputError, ParamName

MUTANTS = ("none", "noise-halved", "no-noise", "fresh-tree", "l2-laplace")

DESCRIPTIONS = {
    "none": "the algorithm as implemented",
    "noise-halved": "every privacy-noise draw multiplied by 0.5 (noise_mult=0.5)",
    "no-noise": "no privacy noise (noise_mult=0; for LDP-SGD the mechanism's eps = inf limit, the message Z = g)",
    "fresh-tree": "tree nodes redrawn at every step (tree='fresh'; ERRATA 7)",
    "l2-laplace": "Laplace noise scaled to the L2 sensitivity with eps/log2 T per node (sensitivity='paper'), "
                  "audited against the label eps",
}

_PARAMS = {
    "none": {},
    "noise-halved": {"noise_mult": 0.5},
    "no-noise": {"noise_mult": 0.0},
    "fresh-tree": {"tree": "fresh"},
    "l2-laplace": {"sensitivity": "paper"},
}


def applicable(scenario) -> tuple[str, ...]:
    """The mutants a scenario supports (``scenario.mutants``), "none" first."""
    return ("none",) + tuple(m for m in scenario.mutants if m != "none")


def check(scenario, mutant: str) -> str:
    """``mutant`` if the scenario supports it, else InputError naming the ones that apply."""
    key = str(mutant).strip().lower()
    ok = applicable(scenario)
    if key not in ok:
        raise InputError(ParamName("mutant"), f"one of {', '.join(ok)} for {scenario.algo}", mutant)
    return key


def params(mutant: str) -> dict:
    """Constructor parameters of a mutant."""
    return dict(_PARAMS[mutant])
