"""Checks of the papers' claims: each computes its evidence and returns a :class:`Verdict`.

Every check cites its source (seed file + item, ERRATA.md number) in its docstring. The evidence is
computed here, with boundcalc's own functions or an independent computation (brute force, Monte Carlo with
an explicit seed, root finding); no conclusion is hard-coded: the verdict word is chosen from what was
measured. Vocabulary (ERRATA.md): "holds", "statement violated", "vacuous", "proof gap",
"scaling not shown", "typo". ``held`` is True iff the paper's statement, as printed, survived the check.

Registry: ``CLAIMS = {claim_id: function}`` (each function takes no required argument and takes < ~5 s);
``CLAIM_PAPERS = {claim_id: paper}`` lets a caller filter by paper without running anything.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

import numpy as np

from ..errors import InputError

VERDICT_WORDS = ("holds", "statement violated", "vacuous", "proof gap", "scaling not shown", "typo")
PAPERS = ("000", "001", "002", "003", "004")


@dataclass
class Verdict:
    """Outcome of one claim check: what was claimed, what was measured, the verdict and its evidence."""

    claim_id: str
    paper: str  # seed number, e.g. "001"
    item: str  # e.g. "Eq. 8 / Lemma F.1 (ERRATA 14)"
    statement: str  # the claim as the paper states it
    verdict: str  # one of VERDICT_WORDS
    measured: str  # one line: what was computed
    evidence: dict[str, Any] = field(default_factory=dict)  # numbers, grid sizes, worst case, counterexample
    held: bool = True  # did the statement as printed survive?

    def __post_init__(self):
        assert self.verdict in VERDICT_WORDS, self.verdict
        assert self.paper in PAPERS, self.paper

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


CLAIMS: dict[str, Callable[..., Verdict]] = {}
CLAIM_PAPERS: dict[str, str] = {}


def _claim(claim_id: str, paper: str):
    def deco(fn):
        CLAIMS[claim_id] = fn
        CLAIM_PAPERS[claim_id] = paper
        fn.claim_id = claim_id
        fn.paper = paper
        return fn

    return deco


def select(paper: str | None = None, claim: str | None = None) -> list[str]:
    """Claim ids matching ``paper`` and/or ``claim``; InputError for an unknown paper or claim id."""
    if paper is not None:
        p = str(paper).strip()
        if p.isdigit() and len(p) < 3:
            p = p.zfill(3)
        if p not in PAPERS:
            raise InputError("--paper", "one of " + ", ".join(PAPERS), paper)
        paper = p
    if claim is not None and claim not in CLAIMS:
        raise InputError("--claim", "one of " + ", ".join(CLAIMS), claim)
    ids = [c for c in CLAIMS if (paper is None or CLAIM_PAPERS[c] == paper) and (claim is None or c == claim)]
    return ids


def run(ids: list[str] | None = None) -> list[Verdict]:
    """Run the given checks (all by default) in registry order."""
    return [CLAIMS[c]() for c in (ids if ids is not None else list(CLAIMS))]


def _f(x) -> float:
    """A scalar float from a scalar or a one-element array."""
    a = np.asarray(x, dtype=float)
    return float(a.reshape(-1)[0]) if a.size == 1 else float(a)


# =====================================================================================================
# seed 001 (ε-global DP, Bernoulli)
# =====================================================================================================
# test vectors of the sheet (eps-global-dp-bernoulli.md §2.6), mpmath 30 digits: (x, y, ε, d_ε)
_DEPS_VECTORS = [
    (0.25, 0.75, 0.1, 0.0490469825230445),
    (0.25, 0.75, 1.0, 0.392625980491211),
    (0.25, 0.75, 2.0, 0.545541407206759),
    (0.25, 0.75, 5.0, 0.549306144334055),
    (0.70, 0.75, 0.1, 0.00404698252304449),
    (0.70, 0.75, 0.5, 0.00640145699732038),
    (0.50, 0.75, 0.5, 0.0997021748871944),
    (0.00, 0.50, 1.0, 0.379885493041722),
    (0.30, 1.00, 0.7, 0.49),
    (0.90, 0.60, 0.5, 0.121248374730593),
    (0.90, 0.60, 3.0, 0.226289161185359),
    (0.10, 0.80, 0.3, 0.202367742981726),
]


@_claim("001-deps-closed-form", "001")
def check_deps_closed_form() -> Verdict:
    """seed 001 Eq. 8 / Lemma F.1 (Eqs. 30-32), ERRATA 14: the closed form of d_ε equals its definition
    (Eq. 6, inf over z of ε|z − x| + kl(z, y)).

    Evidence: boundcalc.info.d_epsilon (closed form) against d_epsilon_by_optimisation (grid + Brent on the
    definition) and d_epsilon_dual (capped Chernoff, sheet §2.4) on the sheet §2.6 grid (x, y in 11 values
    plus the edges {0, 1}, ε in {1e-3, 0.1, 1, 10}), and against the sheet's 30-digit test vectors.
    """
    from ..info import d_epsilon, d_epsilon_by_optimisation, d_epsilon_dual

    xs = np.array([0.0, 0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 0.99, 1.0])
    eps = np.array([1e-3, 0.1, 1.0, 10.0])
    X, Y, E = np.meshgrid(xs, xs, eps, indexing="ij")
    X, Y, E = X.ravel(), Y.ravel(), E.ravel()
    closed = np.asarray(d_epsilon(X, Y, E))
    brute = np.asarray(d_epsilon_by_optimisation(X, Y, E))
    err_brute = np.abs(closed - brute)
    inner = (X > 0) & (X < 1) & (Y > 0) & (Y < 1)
    dual = np.asarray(d_epsilon_dual(X[inner], Y[inner], E[inner]))
    err_dual = np.abs(closed[inner] - dual)
    k = int(np.argmax(err_brute))
    vec_err = max(abs(_f(d_epsilon(x, y, e)) - ref) for x, y, e, ref in _DEPS_VECTORS)
    tol = 1e-12
    ok = err_brute.max() <= tol and err_dual.max() <= tol and vec_err <= 1e-13
    return Verdict(
        claim_id="001-deps-closed-form",
        paper="001",
        item="Eq. 8 / Lemma F.1, Eqs. 30-32 (ERRATA 14)",
        statement="d_ε(x, y) = kl(x, y) if ε ≥ |logit y − logit x|, else −εx − ln(1 − y + y e^{−ε}) (x < y; mirror for x > y)",
        verdict="holds" if ok else "statement violated",
        measured=f"max |closed − brute force| = {err_brute.max():.2e} over {X.size} cases; "
        f"max |closed − dual| = {err_dual.max():.2e}; sheet vectors {vec_err:.1e}",
        evidence={
            "grid_cases": int(X.size),
            "max_abs_err_bruteforce": float(err_brute.max()),
            "worst_case": {"x": float(X[k]), "y": float(Y[k]), "epsilon": float(E[k]),
                           "closed": float(closed[k]), "bruteforce": float(brute[k])},
            "dual_cases": int(inner.sum()),
            "max_abs_err_dual": float(err_dual.max()),
            "sheet_test_vectors": len(_DEPS_VECTORS),
            "max_abs_err_test_vectors": float(vec_err),
            "tolerance": tol,
        },
        held=bool(ok),
    )


@_claim("001-deps-sandwich", "001")
def check_deps_sandwich(seed: int = 1) -> Verdict:
    """seed 001, sentence after Eq. 6 and sheet §2.3/2.5 check 3: 0 ≤ d_ε(x, y) ≤ min{kl(x, y), ε|x − y|},
    with d_ε = kl exactly when ε ≥ ε_0 = |logit y − logit x|.

    Evidence: 20 000 random (x, y) ~ U(0,1)², log10 ε ~ U(−3, 1.5) (numpy Generator, ``seed``); the kl and
    d_ε of boundcalc.info; regime agreement checked away from the threshold (|ε/ε_0 − 1| > 1e-6).
    """
    from ..info import d_epsilon, epsilon_threshold, kl_bernoulli

    rng = np.random.default_rng(seed)
    n = 20_000
    x, y = rng.uniform(size=n), rng.uniform(size=n)
    e = 10 ** rng.uniform(-3, 1.5, size=n)
    d = np.asarray(d_epsilon(x, y, e))
    kl = np.asarray(kl_bernoulli(x, y))
    cap = np.minimum(kl, e * np.abs(x - y))
    slack_low = d.min()
    excess = d - cap  # must be <= 0 (up to rounding)
    tol = 1e-12 * np.maximum(1.0, cap)
    th = np.asarray(epsilon_threshold(x, y))
    away = np.abs(e / th - 1) > 1e-6
    is_kl = np.abs(d - kl) <= 1e-12 * np.maximum(1.0, kl)
    regime_mismatch = int(np.sum(away & (is_kl != (e >= th)) & (kl - cap > 1e-9)))
    n_viol = int(np.sum(excess > tol)) + int(np.sum(d < 0))
    ok = n_viol == 0 and regime_mismatch == 0
    k = int(np.argmax(excess))
    return Verdict(
        claim_id="001-deps-sandwich",
        paper="001",
        item="Eq. 6 and the sentence after it; sheet §2.5, check 9.3",
        statement="0 ≤ d_ε(μ_a, μ*) ≤ min{kl(μ_a, μ*), ε Δ_a}; d_ε = kl iff ε ≥ ε_a",
        verdict="holds" if ok else "statement violated",
        measured=f"{n} random cases: {n_viol} sandwich violations, {regime_mismatch} regime mismatches; "
        f"max (d_ε − min(kl, ε|x−y|)) = {excess.max():.2e}",
        evidence={
            "cases": n,
            "seed": seed,
            "min_d_eps": float(slack_low),
            "max_excess_over_cap": float(excess.max()),
            "worst_case": {"x": float(x[k]), "y": float(y[k]), "epsilon": float(e[k]), "d_eps": float(d[k]),
                           "kl": float(kl[k])},
            "violations": n_viol,
            "regime_mismatches": regime_mismatch,
        },
        held=bool(ok),
    )


_EPS_GRID_001 = np.geomspace(1e-3, 20.0, 81)


@_claim("001-thm31-vs-eq7", "001")
def check_thm31_vs_eq7() -> Verdict:
    """seed 001 Thm 3.1 (Eq. 5) vs Eq. 7 (Azize & Basu 2022, c ∈ {1, 6}), ERRATA 15: the new lower bound
    is at least the old one, LB_ε ≥ Σ Δ_a/min{kl, cεΔ_a}, with equality once ε ≥ max_a ε_a.

    Evidence: the registry bounds 001-thm3.1, 001-eq7-c1, 001-eq7-c6 evaluated (liminf constants) on the
    four App. G environments mu1..mu4 over 81 values of ε in [1e-3, 20].
    """
    from ..bounds import registry
    from ..envs.instances import INSTANCES
    from ..privacy import PureDP

    T = np.array([math.e])  # evaluate at ln T = 1: the value is the liminf constant
    b31 = registry.get("001-thm3.1")
    rows, worst, n_viol, n_eq_bad = [], None, 0, 0
    for env in ("mu1", "mu2", "mu3", "mu4"):
        ctx = registry.make_context("finite", {"means": list(INSTANCES[env]["means"])})
        eps_max = max(ctx["eps_a"])
        for c in (1, 6):
            bc = registry.get(f"001-eq7-c{c}")
            min_ratio = math.inf
            for e in _EPS_GRID_001:
                bud = PureDP(float(e))
                lb31 = _f(b31.evaluate(T, ctx, bud).value)
                lb7 = _f(bc.evaluate(T, ctx, bud).value)
                r = lb31 / lb7
                if r < min_ratio:
                    min_ratio = r
                if r < 1 - 1e-12:
                    n_viol += 1
                    if worst is None or r < worst["ratio"]:
                        worst = {"env": env, "c": c, "epsilon": float(e), "ratio": r}
                if e >= eps_max and abs(r - 1) > 1e-12:
                    n_eq_bad += 1
            rows.append({"env": env, "c": c, "max_eps_a": eps_max, "min_ratio_thm31_over_eq7": min_ratio})
    ok = n_viol == 0 and n_eq_bad == 0
    return Verdict(
        claim_id="001-thm31-vs-eq7",
        paper="001",
        item="Thm 3.1 (Eq. 5) vs Eq. 7, c ∈ {1, 6} (ERRATA 15)",
        statement="Σ Δ_a/d_ε(μ_a, μ*) ≥ Σ Δ_a/min{kl(μ_a, μ*), c ε Δ_a}, equal once ε ≥ max_a ε_a",
        verdict="holds" if ok else "statement violated",
        measured=f"4 envs × 2 constants × {_EPS_GRID_001.size} ε: {n_viol} violations, "
        f"{n_eq_bad} inequalities above max ε_a; min ratio {min(r['min_ratio_thm31_over_eq7'] for r in rows):.6g}",
        evidence={"grid": {"envs": 4, "c": [1, 6], "epsilons": int(_EPS_GRID_001.size)}, "per_env": rows,
                  "violations": n_viol, "not_equal_above_threshold": n_eq_bad, "worst_violation": worst},
        held=bool(ok),
    )


@_claim("001-privacy-for-free", "001")
def check_privacy_for_free() -> Verdict:
    """seed 001 Eq. 8 / Thm 3.1 discussion: LB_ε(ν) equals the Lai–Robbins constant Σ Δ_a/kl (privacy is
    free) iff ε ≥ max_a ε_a, ε_a = logit(μ*) − logit(μ_a).

    Evidence: on mu1..mu4, max_a ε_a computed from the means (not from the package), then the registry
    bounds 001-thm3.1 and 001-lai-robbins compared at ε = max ε_a × {1 + 1e-9, 1.01, 2, 10} (must be equal)
    and × {0.999, 0.9, 0.5, 0.01} (must be strictly larger).
    """
    from ..bounds import registry
    from ..envs.instances import INSTANCES
    from ..privacy import PureDP

    T = np.array([math.e])
    b31, blr = registry.get("001-thm3.1"), registry.get("001-lai-robbins")
    above, below = (1 + 1e-9, 1.01, 2.0, 10.0), (0.999, 0.9, 0.5, 0.01)
    rows, bad = [], []
    for env in ("mu1", "mu2", "mu3", "mu4"):
        means = np.array(INSTANCES[env]["means"])
        ctx = registry.make_context("finite", {"means": list(means)})
        ms = means.max()
        sub = means[means < ms]
        eps_a = float(np.max(np.log(ms / (1 - ms)) - np.log(sub / (1 - sub))))
        lr = _f(blr.evaluate(T, ctx).value)
        for f in above + below:
            lb = _f(b31.evaluate(T, ctx, PureDP(eps_a * f)).value)
            free = abs(lb - lr) <= 1e-12 * lr
            if free != (f > 1):
                bad.append({"env": env, "epsilon": eps_a * f, "LB_eps": lb, "lai_robbins": lr})
        rows.append({"env": env, "max_eps_a": eps_a, "lai_robbins": lr,
                     "LB_eps_at_0.999_max_eps_a": _f(b31.evaluate(T, ctx, PureDP(eps_a * 0.999)).value)})
    ok = not bad
    return Verdict(
        claim_id="001-privacy-for-free",
        paper="001",
        item="Eq. 8 / Thm 3.1 (regimes)",
        statement="LB_ε(ν) = Σ Δ_a/kl(μ_a, μ*) iff ε ≥ max_a ε_a",
        verdict="holds" if ok else "statement violated",
        measured=f"mu1..mu4 × 8 ε around max_a ε_a: {len(bad)} mismatches "
        "(max ε_a = " + ", ".join(f"{r['max_eps_a']:.4g}" for r in rows) + ")",
        evidence={"per_env": rows, "mismatches": bad, "factors_above": list(above), "factors_below": list(below)},
        held=bool(ok),
    )


@_claim("001-coupled-vs-separate", "001")
def check_coupled_vs_separate() -> Verdict:
    """seed 001 sheet §2.5 / check 9.6 (the coupled Laplace–Bernoulli analysis of Prop 4.1 beats the naive
    union bound): v ≤ d_ε(x, y) ≤ 2v, where v = ε(z − x) at the crossing ε(z − x) = kl(z, y), z ∈ (x, y).

    Evidence: crossing solved by brentq on a grid x < y in (0, 1) × ε in [1e-3, 10]; d_ε from boundcalc;
    the sheet's example (x = .5, y = .6, ε = .2: v = .00773, d_ε = .01514).
    """
    from scipy.optimize import brentq

    from ..info import d_epsilon, kl_bernoulli

    def v_of(x, y, e):
        f = lambda z: e * (z - x) - _f(kl_bernoulli(z, y))  # noqa: E731  (< 0 at z = x, > 0 at z = y)
        z = brentq(f, x, y, xtol=1e-15, rtol=1e-15)
        return e * (z - x)

    vals = np.array([0.02, 0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.9, 0.98])
    eps = np.geomspace(1e-3, 10, 13)
    n, low_viol, high_viol, rmin, rmax = 0, 0, 0, math.inf, 0.0
    for x in vals:
        for y in vals[vals > x]:
            for e in eps:
                v = v_of(float(x), float(y), float(e))
                dd = _f(d_epsilon(x, y, e))
                r = dd / v
                rmin, rmax = min(rmin, r), max(rmax, r)
                low_viol += r < 1 - 1e-9
                high_viol += r > 2 + 1e-9
                n += 1
    ex_v = v_of(0.5, 0.6, 0.2)
    ex_d = _f(d_epsilon(0.5, 0.6, 0.2))
    ok = low_viol == 0 and high_viol == 0
    return Verdict(
        claim_id="001-coupled-vs-separate",
        paper="001",
        item="Prop 4.1 rate d_ε vs separate treatment (sheet §2.5, check 9.6)",
        statement="v ≤ d_ε(x, y) ≤ 2v (coupled exponent beats the naive union bound by at most 2×)",
        verdict="holds" if ok else "statement violated",
        measured=f"{n} cases: d_ε/v in [{rmin:.4f}, {rmax:.4f}]; example v = {ex_v:.5f}, d_ε = {ex_d:.5f}",
        evidence={"cases": n, "min_ratio": rmin, "max_ratio": rmax, "below_1": int(low_viol),
                  "above_2": int(high_viol), "example": {"x": 0.5, "y": 0.6, "epsilon": 0.2, "v": ex_v, "d_eps": ex_d}},
        held=bool(ok),
    )
