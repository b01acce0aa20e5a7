"""One algorithm on two neighbouring reward tapes with every random draw shared: seed 004's arm-selection
sensitivity experiment (Sec. 4, Fig. 2(b); docs/formulas/dgs-contextual.md §5, §6.8).

Seed 004 Sec. 4: "we fix the sequence of context and arms and only change reward feedback on one particular arm.
... the feedback noise in simulation is also fixed for all arms ahead of time ... We compare how many arms are
selected differently after the reward change"; synthetic data: 500 iterations, the reward at iteration 0, 100 or
200 raised by 0.5. The sheet (§0) adds that the privacy noise draws are shared between the original and the
perturbed run.

:func:`neighbouring_runs` runs ``alg.simulate`` once on the original tape and once per changed round on
:class:`boundcalc.envs.tape.ChangedRewardEnv`, each time from a Generator built from the same SeedSequence. For the
LinUCB family (boundcalc.algorithms.contextual.linucb: LinUCB, LinUCB-DGS, Private-LinUCB) the contexts, the reward
noise and the tree noise come from three separate streams whose draws do not depend on the data, so the two runs
share every draw and differ only in the one reward (tests/montecarlo/test_neighbours.py checks the decision sets and the tree
noise draw for draw). An algorithm whose draws depend on the data (e.g. the OFUL family's noise at data-dependent
switches, from one stream) gets the same seed but not the same draws after its first data-dependent draw.

Arms are compared through the mean <x, theta*> each run asked a reward for: on a shared decision set two arms with
different means are different arms, and for continuous contexts the means within a set are distinct almost surely.

Seed 004 Fig. 2(c) (LastFM: "we run 5,000 iterations, and flip reward on the selected item at iteration {0, 1000,
2000}"): ``change="flip"`` replaces the reward r of the changed round by 1 − r, and ``compare="index"`` compares the
chosen arms by their index in the shared decision set, which the algorithm reports to the tape (``record_arms``; the
LinUCB family does) -- on LastFM 24 of the 25 arms of a pool have mean (payoff) 0, so equal means do not mean the
same arm there.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .. import validate
from ..envs.tape import ChangedRewardEnv
from ..errors import InputError

MEAN_TOL = 1e-12  # two chosen means closer than this (relative to 1) are the same arm


@dataclass
class NeighbourRuns:
    """The original run and one changed run per round in ``steps`` (all arrays have one row per run).

    ``changed[s]``: number of rounds whose arm differs from the original run's when the reward of round s is
    raised by ``shift`` (``change="shift"``) or flipped to 1 − r (``change="flip"``); ``first_change[s]``: the first
    such round (−1: none); ``means``: (runs, T) the mean of the arm played in the original run; ``arms``: (runs, T)
    its index (``compare="index"``; else None); ``regret`` / ``regret_changed[s]``: pseudo-regret at T."""

    algorithm: str
    T: int
    runs: int
    seed: int
    shift: float
    steps: tuple[int, ...]
    means: np.ndarray
    regret: np.ndarray
    change: str = "shift"
    compare: str = "mean"
    arms: np.ndarray | None = None
    changed: dict[int, np.ndarray] = field(default_factory=dict)
    first_change: dict[int, np.ndarray] = field(default_factory=dict)
    regret_changed: dict[int, np.ndarray] = field(default_factory=dict)

    def summary(self) -> list[dict]:
        """One row per changed round: mean, standard deviation (n − 1; 0 for one run), min and max of the count."""
        out = []
        for s in self.steps:
            c = self.changed[s].astype(float)
            out.append({"step": s, "mean": float(c.mean()), "sd": float(c.std(ddof=1)) if c.size > 1 else 0.0,
                        "min": int(c.min()), "max": int(c.max()), "runs": int(c.size)})
        return out


def differing_rounds(means_a: np.ndarray, means_b: np.ndarray) -> np.ndarray:
    """(runs, T) boolean: the two runs played different arms (different means <x, theta*>) at the round."""
    a, b = np.asarray(means_a, dtype=float), np.asarray(means_b, dtype=float)
    return np.abs(a - b) > MEAN_TOL * np.maximum(1.0, np.maximum(np.abs(a), np.abs(b)))


def differing_arms(arms_a: np.ndarray, arms_b: np.ndarray) -> np.ndarray:
    """(runs, T) boolean: the two runs played arms of different index at the round (shared decision sets)."""
    return np.asarray(arms_a) != np.asarray(arms_b)


def _one(alg, env, T, runs, seed, step, shift, change="shift", compare="mean"):
    """(chosen means, chosen arm indices or None, regret at T) of one run of ``alg`` on the (changed) tape."""
    tape = ChangedRewardEnv(env, step, shift, change)
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    res = alg.simulate(tape, T, runs, rng, np.array([T]))
    m = tape.chosen_means()
    if m.shape != (runs, T):
        raise InputError("algorithm", "one that asks one reward per step for every run (a contextual algorithm)",
                         getattr(alg, "name", alg))
    arms = tape.chosen_arms() if compare == "index" else None
    if compare == "index" and (arms is None or arms.shape != (runs, T)):
        raise InputError("algorithm", "one that reports its chosen arm to the tape (record_arms: the LinUCB family) "
                         "for compare='index'", getattr(alg, "name", alg))
    return m, arms, np.asarray(res.regret, dtype=float)[:, -1]


CHANGES = ("shift", "flip")
COMPARES = ("mean", "index")


def neighbouring_runs(alg, env, T=500, runs: int = 5, steps=(0, 100, 200), shift: float = 0.5,
                      seed: int = 0, change: str = "shift", compare: str = "mean") -> NeighbourRuns:
    """Run ``alg`` on ``env`` and on the tapes with the reward of round s (0-based) raised by ``shift``
    (``change="shift"``, seed 004 Fig. 2(b)) or flipped to 1 − r (``change="flip"``, seed 004 Fig. 2(c)), for each s
    in ``steps``, every run with the same seed (shared contexts, reward noise and privacy noise; see the module
    docstring); rounds compared by the chosen arm's mean (``compare="mean"``) or index (``compare="index"``).
    Defaults: seed 004 Sec. 4's synthetic study (500 rounds, rounds 0, 100, 200, +0.5, 5 runs)."""
    if change not in CHANGES:
        raise InputError("change", "one of " + ", ".join(CHANGES), change)
    if compare not in COMPARES:
        raise InputError("compare", "one of " + ", ".join(COMPARES), compare)
    T = validate.horizon("T", T)
    runs = validate.count("runs", runs)
    seed = int(validate.count("seed", seed, minimum=0))
    if isinstance(steps, (int, np.integer)):
        steps = (steps,)
    st = []
    for s in steps:
        if isinstance(s, bool) or not float(s).is_integer() or not 0 <= s < T:
            raise InputError("steps", f"round indices in [0, T - 1 = {T - 1}]", s)
        st.append(int(s))
    if not st:
        raise InputError("steps", "at least one round index", steps)
    if getattr(env, "setting", None) != "contextual":
        raise InputError("env", "a contextual environment (seed 004's setting)", getattr(env, "name", env))
    means, arms, reg = _one(alg, env, T, runs, seed, None, shift, change, compare)
    out = NeighbourRuns(algorithm=alg.name, T=T, runs=runs, seed=seed, shift=float(shift), steps=tuple(st),
                        means=means, regret=reg, change=change, compare=compare, arms=arms)
    for s in st:
        m2, a2, r2 = _one(alg, env, T, runs, seed, s, shift, change, compare)
        diff = differing_arms(arms, a2) if compare == "index" else differing_rounds(means, m2)
        out.changed[s] = diff.sum(axis=1)
        out.first_change[s] = np.where(diff.any(axis=1), diff.argmax(axis=1), -1)
        out.regret_changed[s] = r2
    return out
