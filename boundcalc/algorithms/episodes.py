"""The episode schedules of ``boundcalc episodes``, read from the algorithms' cards (``episode_schedule``;
base.Algorithm).

``phased()``: {lower-case name: class} of every algorithm whose card has a schedule (built-in, registered or plugin),
in registry order; ``reads(cls)``: the keyword parameters its schedule reads (what the command uses; the others get
a note); ``build(name, T, **params)``: the schedule up to T (a missing budget of the algorithm's notion is an
InputError naming the parameter; cli.flags names its flag). The schedules themselves are boundcalc.schedules' pure functions.
"""

from __future__ import annotations

import inspect

from ..errors import InputError, ParamName, flag

# Every parameter a schedule may read (the episodes command's options), in the command's order.
PARAMS = ("epsilon", "rho", "alpha", "rdp_epsilon", "d", "K", "delta", "beta", "n1", "ratio", "lam", "C", "lam0")


def phased() -> dict[str, type]:
    """{lower-case name: class} of the algorithms whose card declares an ``episode_schedule``."""
    from . import all_algorithms

    return {n.lower(): c for n, c in all_algorithms().items() if getattr(c, "episode_schedule", None) is not None}


def lookup(name: str) -> type:
    """The phased algorithm named ``name`` (case-insensitive)."""
    algs = phased()
    key = str(name).strip().lower()
    if key not in algs:
        raise InputError(ParamName("algo"), "one of " + ", ".join(algs), name)
    return algs[key]


def reads(cls) -> tuple[str, ...]:
    """The keyword parameters the card's schedule reads, in its signature's order (budget first)."""
    sig = inspect.signature(cls.episode_schedule)
    return tuple(p.name for p in sig.parameters.values() if p.kind is inspect.Parameter.KEYWORD_ONLY)


def build(name, T, *, epsilon=None, rho=None, alpha=None, rdp_epsilon=None, d=10, K=10, delta=1e-3, n1=1, ratio=2.0,
          beta=None, lam=1.0, C=1.0, lam0=None):
    """The schedule of the phased algorithm ``name`` (a name or a class) up to T. Missing budget parameters raise
    InputError.

    Extreme budgets (ε = 1e308, ε = 1e-320, ρ = 1e308) are computed in IEEE arithmetic on purpose: a noise scale
    1/(ε n) that overflows is +inf (infinite noise), one that underflows is 0, an epoch length R_e = inf is an
    epoch longer than any horizon; those limits are the correct values, so overflow, underflow and division by
    zero are not warned about here. An invalid operation (NaN) still is."""
    import numpy as np

    cls = lookup(name) if isinstance(name, str) else name
    key = cls.name.lower()
    if cls.notion == "pure" and epsilon is None:
        raise InputError(ParamName("epsilon"), f"a number > 0 (required by {key})", None)
    if cls.notion == "zcdp" and rho is None:
        raise InputError(ParamName("rho"), f"a number > 0 (required by {key})", None)
    if cls.notion == "rdp" and (alpha is None or rdp_epsilon is None):
        raise InputError(f"{flag('alpha')}/{flag('rdp_epsilon')}", f"both given, α > 1 and ε > 0 (required by {key})", None)
    given = dict(epsilon=epsilon, rho=rho, alpha=alpha, rdp_epsilon=rdp_epsilon, d=d, K=K, delta=delta, n1=n1,
                 ratio=ratio, beta=beta, lam=lam, C=C, lam0=lam0)
    with np.errstate(over="ignore", under="ignore", divide="ignore"):
        return cls.episode_schedule(T, **{p: given[p] for p in reads(cls)})
