"""Claims of seed 001 (ε-global DP, Bernoulli) about d_ε: its closed form (ERRATA 14), the sandwich, its
behaviour in ε, its derivatives and the coupled-vs-separate exponent (formula sheet
docs/formulas/eps-global-dp-bernoulli.md §2, checks 9.1–9.6). The lower bounds are in lower_bounds.py,
the concentration results in concentration.py.

Every evaluator computes its evidence with boundcalc's functions *and* an independent route (brute-force
minimisation, the dual, exact tails, mpmath at 50 digits); numbers a sheet prints are recomputed and
compared at the sheet's printed precision.
"""

from __future__ import annotations

import math

import numpy as np

from ..box import positive, unit
from .evaluators import Inequality, f, verdict_of
from .proofs import proof_evaluator
from .registry import Result, claim

SHEET = "docs/formulas/eps-global-dp-bernoulli.md"
ENVS = ("mu1", "mu2", "mu3", "mu4")
X = unit("x", 0.0, 1.0, doc="first argument (the mean that is moved)")
Y = unit("y", 0.0, 1.0, doc="second argument (the target mean)")
EPS = positive("epsilon", 1e-3, 10.0, doc="privacy budget ε")

# test vectors of the sheet (§2.6), mpmath 30 digits: (x, y, ε, d_ε) — the sheet's numbers, recomputed below
DEPS_VECTORS = [
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


def deps_definition_mp(x, y, e):
    """d_ε(x, y) from its definition (seed 001 Eq. 6), inf_z ε|z − x| + kl(z, y), at mpmath precision:
    golden-section search on the convex objective over [min(x, y), max(x, y)] (independent of Eq. 8)."""
    import mpmath

    from ...info import kl_bernoulli_mp

    lo, hi = (x, y) if x <= y else (y, x)
    obj = lambda z: e * abs(z - x) + kl_bernoulli_mp(z, y)  # noqa: E731
    best = min(obj(lo), obj(hi))
    a, b = mpmath.mpf(lo), mpmath.mpf(hi)
    g = (mpmath.sqrt(5) - 1) / 2
    for _ in range(int(mpmath.mp.prec * 1.5)):
        c1, c2 = b - g * (b - a), a + g * (b - a)
        if obj(c1) <= obj(c2):
            b = c2
        else:
            a = c1
    return min(best, obj((a + b) / 2))


# ---------------------------------------------------------------------------------------------------
def _closed_form(dom) -> Result:
    from ...info import d_epsilon, d_epsilon_by_optimisation, d_epsilon_dual, d_epsilon_mp

    if dom.changed():
        g = dom.grid(("x", "y", "epsilon"), 700)
        X_, Y_, E_ = g["x"], g["y"], g["epsilon"]
    else:  # the sheet §2.6 grid, plus the edges {0, 1}
        xs = np.array([0.0, 0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 0.99, 1.0])
        X_, Y_, E_ = (a.ravel() for a in np.meshgrid(xs, xs, np.array([1e-3, 0.1, 1.0, 10.0]), indexing="ij"))
    closed = np.asarray(d_epsilon(X_, Y_, E_))
    brute = np.asarray(d_epsilon_by_optimisation(X_, Y_, E_))
    err = np.abs(closed - brute)
    inner = (X_ > 0) & (X_ < 1) & (Y_ > 0) & (Y_ < 1)
    dual = np.asarray(d_epsilon_dual(X_[inner], Y_[inner], E_[inner]))
    err_dual = np.abs(closed[inner] - dual)
    k = int(np.argmax(err))
    tol = 1e-12
    vec_err = max(abs(f(d_epsilon(x, y, e)) - ref) for x, y, e, ref in DEPS_VECTORS)
    cex = None
    if err.max() > tol:  # re-check the worst case at 50 digits against the definition
        import mpmath

        with mpmath.workdps(50):
            x, y, e = (mpmath.mpf(float(a[k])) for a in (X_, Y_, E_))
            gap = abs(d_epsilon_mp(x, y, e) - deps_definition_mp(x, y, e))
        if gap > 1e-30:
            cex = {"x": float(X_[k]), "y": float(Y_[k]), "epsilon": float(E_[k]), "closed": float(closed[k]),
                   "definition_50_digits": float(gap)}
    ok = cex is None and err_dual.max() <= tol and vec_err <= 1e-13
    return Result(
        verdict=verdict_of(ok, "statement violated"), points=int(X_.size), counterexample=cex,
        measured=f"max |closed − brute force| = {err.max():.2e} over {X_.size} cases; "
        f"max |closed − dual| = {err_dual.max():.2e}; sheet vectors {vec_err:.1e}",
        evidence={"grid_cases": int(X_.size), "max_abs_err_bruteforce": float(err.max()),
                  "worst_case": {"x": float(X_[k]), "y": float(Y_[k]), "epsilon": float(E_[k]),
                                 "closed": float(closed[k]), "bruteforce": float(brute[k])},
                  "dual_cases": int(inner.sum()), "max_abs_err_dual": float(err_dual.max() if err_dual.size else 0.0),
                  "sheet_test_vectors": len(DEPS_VECTORS), "max_abs_err_test_vectors": float(vec_err),
                  "tolerance": tol})


def _box(dom, names=("x", "y", "epsilon")) -> dict:
    return {n: dom.range(n) for n in names}


def _closed_form_parts(dom):
    from ...rigorous import provers

    return [("closed form (Eq. 8) = definition (Eq. 6)",
             lambda **lim: provers.prove_d_eps_closed_form(_box(dom), **lim))]


_CLOSED_SCOPE = ("proven: |closed form − definition| = 0 at every point of the box, by the weak-duality sandwich "
                 "phi(lam*) <= d_eps <= G(z*) with the certificates of Lemma F.1 (sympy reduces both gaps to 0; the "
                 "certificates' feasibility is enclosed); the x >= y half on the mirror box. Not proven here: the "
                 "capped-Chernoff dual's numerical code and the sheet's printed test vectors (the grid method checks them)")

claim("001-deps-closed-form", "Eq. 8 / Lemma F.1, Eqs. 30-32 (ERRATA 14)",
      "d_ε(x, y) = kl(x, y) if ε ≥ |logit y − logit x|, else −εx − ln(1 − y + y e^{−ε}) (x < y; mirror for "
      "x > y), equal to the definition inf_z ε|z − x| + kl(z, y) and to the capped-Chernoff dual",
      ["seed 001 Eq. 8 / Lemma F.1 (Eqs. 30-32)", "ERRATA 14", f"{SHEET} §9.1, §9.2, §2.6"],
      "holds", evaluators={"proof": proof_evaluator(_closed_form_parts, grid=_closed_form, what=_CLOSED_SCOPE),
                           "grid": _closed_form}, params=(X, Y, EPS), errata=(14,),
      sheet_checks=("docs/formulas/eps-global-dp-bernoulli.md §9.1", "docs/formulas/eps-global-dp-bernoulli.md §9.2"))


# ---------------------------------------------------------------------------------------------------
def _sandwich_margin(x, y, epsilon):
    from ...info import d_epsilon, kl_bernoulli

    d = np.asarray(d_epsilon(x, y, epsilon))
    cap = np.minimum(np.asarray(kl_bernoulli(x, y)), epsilon * np.abs(x - y))
    return np.minimum(d, cap - d)


def _sandwich_margin_mp(x, y, epsilon):
    from ...info import d_epsilon_mp, kl_bernoulli_mp

    d = d_epsilon_mp(x, y, epsilon)
    return min(d, min(kl_bernoulli_mp(x, y), epsilon * abs(x - y)) - d)


_SANDWICH = Inequality(("x", "y", "epsilon"), _sandwich_margin, _sandwich_margin_mp,
                       text="0 ≤ d_ε ≤ min{kl, ε|x − y|}", points=20_000)


def _sandwich_parts(dom):
    from ...rigorous import provers

    b = _box(dom)
    return [("d_eps <= kl", lambda **lim: provers.prove_d_eps_le_kl(b, **lim)),
            ("d_eps <= eps*TV", lambda **lim: provers.prove_d_eps_le_eps_tv(b, 1.0, **lim))]


_SANDWICH_SCOPE = ("proven: d_ε ≤ kl (margin kl − d_ε = kl(x, z*) ≥ 0, seed 001 Eq. 30) and d_ε ≤ ε|x − y| (margin "
                   "(ε − λ*)|x − y| + ψ(ỹ, λ*) ≥ 0, the capped Chernoff dual) on every box of the cover; 0 ≤ d_ε "
                   "(an infimum of non-negative terms) and ε|x − y| ≤ ε (|x − y| ≤ 1) need no computation")

claim("001-deps-sandwich", "Eq. 6 and the sentence after it; sheet §2.5, check 9.3",
      "0 ≤ d_ε(x, y) ≤ min{kl(x, y), ε|x − y|} ≤ ε",
      ["seed 001 Eq. 6 (sentence after it)", f"{SHEET} §2.3, §9.3", "ERRATA 15"], "holds",
      evaluators={"proof": proof_evaluator(_sandwich_parts, grid=_SANDWICH, what=_SANDWICH_SCOPE), "grid": _SANDWICH},
      params=(X, Y, positive("epsilon", 1e-3, 10**1.5)), inequality=_SANDWICH,
      sheet_checks=("docs/formulas/eps-global-dp-bernoulli.md §9.3",))


def _regimes(dom) -> Result:
    from ...info import d_epsilon, epsilon_threshold, kl_bernoulli

    g = dom.grid(("x", "y", "epsilon"), 20_000)
    x, y, e = g["x"], g["y"], g["epsilon"]
    d = np.asarray(d_epsilon(x, y, e))
    kl = np.asarray(kl_bernoulli(x, y))
    th = np.asarray(epsilon_threshold(x, y))
    with np.errstate(invalid="ignore", divide="ignore"):
        away = np.abs(e / th - 1) > 1e-6
    is_kl = np.isfinite(kl) & (np.abs(d - kl) <= 1e-12 * np.maximum(1.0, np.where(np.isfinite(kl), kl, 1.0)))
    cap = np.minimum(kl, e * np.abs(x - y))
    mismatch = int(np.sum(away & (is_kl != (e >= th)) & (kl - cap > 1e-9)))
    zero_bad = int(np.sum((d == 0) != (x == y)))
    ok = mismatch == 0 and zero_bad == 0
    return Result(verdict=verdict_of(ok, "statement violated"), points=int(x.size),
                  measured=f"{x.size} grid points: {mismatch} regime mismatches (d_ε = kl iff ε ≥ ε_0, away from the "
                  f"threshold), {zero_bad} failures of d_ε = 0 iff x = y",
                  evidence={"grid_points": int(x.size), "regime_mismatches": mismatch, "zero_iff_x_eq_y_failures": zero_bad,
                            "domain": dom.describe()})


claim("001-deps-regimes", "Eq. 6 and the sentence after it: the equality cases (sheet §2.5, check 9.3)",
      "d_ε(x, y) = 0 iff x = y; d_ε = kl iff ε ≥ |logit y − logit x| (where kl > ε|x − y| could differ)",
      ["seed 001 Eq. 6 (sentence after it), Eq. 8", f"{SHEET} §2.3, §9.3"], "no counterexample", evaluator=_regimes,
      params=(X, Y, positive("epsilon", 1e-3, 10**1.5)), sheet_checks=("docs/formulas/eps-global-dp-bernoulli.md §9.3",),
      note="an 'iff' is not an inequality: no interval proof; the closed form (001-deps-closed-form, proven) "
      "implies the 'if' directions")


# ---------------------------------------------------------------------------------------------------
def _in_epsilon(dom) -> Result:
    import mpmath

    from ...info import d_epsilon, d_epsilon_mp, epsilon_threshold, kl_bernoulli

    g = dom.grid(("x", "y"), 400)
    eps = np.geomspace(1e-4, 1e2, 2001)
    worst_mono, worst_conc, n = 0.0, 0.0, 0
    kl_bad = 0
    for x, y in zip(g["x"], g["y"]):
        if x == y:
            continue
        d = np.asarray(d_epsilon(x, y, eps))
        scale = max(float(d.max()), 1e-300)
        dd = np.diff(d)
        worst_mono = min(worst_mono, float(dd.min()) / scale)
        # concavity on the log grid: slopes (d_{i+1} − d_i)/(ε_{i+1} − ε_i) must not increase
        s = dd / np.diff(eps)
        worst_conc = max(worst_conc, float(np.max(np.diff(s)) / max(float(np.abs(s).max()), 1e-300)))
        n += eps.size
        if 0 < x < 1 and 0 < y < 1:
            th = float(epsilon_threshold(x, y))
            big = eps >= th * (1 + 1e-9)
            kl = float(kl_bernoulli(x, y))
            kl_bad += int(np.sum(np.abs(d[big] - kl) > 1e-12 * max(kl, 1.0)))
    # small-ε limits (sheet §2.5 example x = .3, y = .7: (d − εΔ)/ε² → −y(1−y)/2 = −0.105), at 50 digits
    with mpmath.workdps(50):
        x, y = mpmath.mpf("0.3"), mpmath.mpf("0.7")
        lim = []
        for k in (3, 5, 8):
            e = mpmath.mpf(10) ** -k
            dm = d_epsilon_mp(x, y, e)
            lim.append({"epsilon": float(e), "d_over_eps": float(dm / e),
                        "second_order": float((dm - e * (y - x)) / e**2)})
    target = -0.7 * 0.3 / 2
    limit_ok = abs(lim[-1]["second_order"] - target) < 1e-6 and abs(lim[-1]["d_over_eps"] - 0.4) < 1e-7
    ok = worst_mono >= -1e-13 and worst_conc <= 1e-6 and kl_bad == 0 and limit_ok
    return Result(
        verdict=verdict_of(ok, "statement violated"), points=n,
        measured=f"{len(g['x'])} (x, y) pairs × {eps.size} ε in [1e-4, 100]: worst decrease {worst_mono:.1e}, "
        f"worst convexity {worst_conc:.1e} (relative), {kl_bad} points with ε ≥ ε_0 and d_ε ≠ kl; "
        f"(d − εΔ)/ε² → {lim[-1]['second_order']:.6f} (sheet: −y(1−y)/2 = {target})",
        evidence={"pairs": len(g["x"]), "epsilons": int(eps.size), "worst_relative_decrease": worst_mono,
                  "worst_relative_convexity": worst_conc, "d_ne_kl_above_threshold": kl_bad,
                  "small_eps_limits_x.3_y.7": lim, "second_order_target": target})


claim("001-deps-in-epsilon", "Eq. 6 (properties, sheet §2.5, check 9.4)",
      "d_ε is nondecreasing and concave in ε; d_ε/ε → |y − x| and (d_ε − ε|y − x|)/ε² → −y(1 − y)/2 as ε → 0; "
      "d_ε = kl for all ε ≥ ε_0 when 0 < x, y < 1",
      ["seed 001 Eq. 6", f"{SHEET} §2.5, §9.4"], "no counterexample", evaluator=_in_epsilon,
      params=(unit("x", 0.0, 1.0), unit("y", 0.0, 1.0)), sheet_checks=("docs/formulas/eps-global-dp-bernoulli.md §9.4",))


# ---------------------------------------------------------------------------------------------------
_H = 1e-6


def _deriv_margin(x, y, epsilon):
    from ...info import d_epsilon

    def d(a, b):
        return np.asarray(d_epsilon(np.clip(a, 0, 1), np.clip(b, 0, 1), epsilon))

    dx = (d(x + _H, y) - d(x - _H, y)) / (2 * _H)
    dy = (d(x, y + _H) - d(x, y - _H)) / (2 * _H)
    mx = np.where(x < y, np.minimum(epsilon + dx, -dx), np.minimum(dx, epsilon - dx))
    my = np.where(x <= y, np.minimum(dy, np.expm1(epsilon) - dy), np.inf)
    m = np.minimum(mx, my) / np.maximum(epsilon, 1e-300)
    return np.where(np.abs(x - y) > 4 * _H, m, np.nan)


def _deriv_margin_mp(x, y, epsilon):
    import mpmath

    from ...info import d_epsilon_mp

    with mpmath.workdps(90):
        h = mpmath.mpf(10) ** -30
        x, y, e = mpmath.mpf(x), mpmath.mpf(y), mpmath.mpf(epsilon)
        dx = (d_epsilon_mp(x + h, y, e) - d_epsilon_mp(x - h, y, e)) / (2 * h)
        dy = (d_epsilon_mp(x, y + h, e) - d_epsilon_mp(x, y - h, e)) / (2 * h)
        mx = min(e + dx, -dx) if x < y else min(dx, e - dx)
        my = min(dy, mpmath.expm1(e) - dy) if x <= y else mpmath.inf
        return min(mx, my) / e


_DERIV = Inequality(("x", "y", "epsilon"), _deriv_margin, _deriv_margin_mp,
                    text="−ε ≤ ∂_x d_ε ≤ 0 (x < y; mirror), 0 ≤ ∂_y d_ε ≤ e^ε − 1 (x ≤ y)", points=8000,
                    mp_tol=1e-20, max_recheck=20)
claim("001-deps-derivatives", "Lemma F.3 (reading) and Lemma F.5 (sheet §2.5, check 9.5)",
      "|∂_x d_ε| ≤ ε with the sign of x − y (d_ε(·, y) is ε-Lipschitz), and 0 ≤ ∂_y d_ε ≤ e^ε − 1 for x ≤ y",
      ["seed 001 Lemma F.3 (statement reconstructed, UNCERTAIN)", f"{SHEET} §2.5, §9.5"], "no counterexample",
      inequality=_DERIV, params=(unit("x", 0.01, 0.99), unit("y", 0.01, 0.99), positive("epsilon", 1e-2, 10.0)),
      sheet_checks=("docs/formulas/eps-global-dp-bernoulli.md §9.5",),
      note="central differences (h = 1e-6); a float violation is re-checked with h = 1e-30 at 90 digits")


# ---------------------------------------------------------------------------------------------------
def _coupled_v(x, y, e):
    from scipy.optimize import brentq

    from ...info import kl_bernoulli

    fz = lambda z: e * (z - x) - f(kl_bernoulli(z, y))  # noqa: E731  (< 0 at z = x, > 0 at z = y)
    z = brentq(fz, x, y, xtol=1e-15, rtol=1e-15)
    return e * (z - x)


def _coupled(dom) -> Result:
    from ...info import d_epsilon

    if dom.changed():
        g = dom.grid(("x", "y", "epsilon"), 1200)
        pts = [(a, b, c) for a, b, c in zip(g["x"], g["y"], g["epsilon"]) if a < b and 0 < b < 1]
    else:  # the sheet's grid (check 9.6); it spans the default x, y range [0.02, 0.98] (stated as [0, 1] before)
        vals = np.array([0.02, 0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.9, 0.98])
        (xl, xh), (yl, yh) = dom.range("x"), dom.range("y")
        xs, ys = vals[(vals >= xl) & (vals <= xh)], vals[(vals >= yl) & (vals <= yh)]
        pts = [(x, y, e) for x in xs for y in ys[ys > x] for e in dom.axis("epsilon", 13)]
    rmin, rmax, low, high, worst = math.inf, 0.0, 0, 0, None
    for x, y, e in pts:
        v = _coupled_v(float(x), float(y), float(e))
        r = f(d_epsilon(x, y, e)) / v
        if r < rmin:
            rmin = r
        if r > rmax:
            rmax = r
        if r < 1 - 1e-9 or r > 2 + 1e-9:
            low += r < 1 - 1e-9
            high += r > 2 + 1e-9
            worst = worst or {"x": float(x), "y": float(y), "epsilon": float(e), "ratio": r}
    ex_v = _coupled_v(0.5, 0.6, 0.2)
    ex_d = f(d_epsilon(0.5, 0.6, 0.2))
    ok = low == 0 and high == 0
    return Result(
        verdict=verdict_of(ok, "statement violated"), points=len(pts), counterexample=None if ok else worst,
        measured=f"{len(pts)} cases: d_ε/v in [{rmin:.4f}, {rmax:.4f}]; example v = {ex_v:.5f}, d_ε = {ex_d:.5f}",
        evidence={"cases": len(pts), "min_ratio": rmin, "max_ratio": rmax, "below_1": int(low), "above_2": int(high),
                  "example": {"x": 0.5, "y": 0.6, "epsilon": 0.2, "v": ex_v, "d_eps": ex_d, "sheet_v": 0.00773,
                              "sheet_d_eps": 0.01514}})


claim("001-coupled-vs-separate", "Prop 4.1 rate d_ε vs separate treatment (sheet §2.5, check 9.6)",
      "v ≤ d_ε(x, y) ≤ 2v, v = ε(z − x) at the crossing ε(z − x) = kl(z, y), z ∈ (x, y) (the coupled exponent "
      "beats the naive union bound by at most 2×)",
      ["seed 001 Prop 4.1, Discussion (c)", f"{SHEET} §2.5, §4.5, §9.6"], "no counterexample", evaluator=_coupled,
      params=(unit("x", 0.02, 0.98, doc=X.doc), unit("y", 0.02, 0.98, doc=Y.doc), EPS),
      sheet_checks=("docs/formulas/eps-global-dp-bernoulli.md §9.6",))
