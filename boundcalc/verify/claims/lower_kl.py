"""Claims of seed 003's KL decomposition (Sec. VI-A, App. G-A; issue 16 item 4), each checked against an exact
computation for an explicit ρ-zCDP mechanism or policy (boundcalc.lower holds the bounds):

* Thm 8 and Thm 1: an explore-then-commit policy that commits on a Gaussian-mechanism release of its exploration
  sum (σ² = 1/(2ρ), sensitivity 1: ρ-zCDP, and each reward enters once, so ρ-Interactive zCDP); its action law is
  enumerated exactly;
* Thm 6: the Gaussian mechanism on the sum of n bits, data i.i.d. Bernoulli per coordinate; KL between the two
  Gaussian mixtures by quadrature against ρ·(transport LP);
* Thm 16: Rényi divergences of the Gaussian mechanism at Hamming distance k (equality case);
* Thm 15: randomised response, four f-divergences (KL, TV, χ², squared Hellinger).
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from ..box import above, positive, unit
from .evaluators import verdict_of
from .registry import Result, claim

SHEET = "docs/formulas/zcdp-bandits.md §5.1"


def _etc_commit_prob(p, m, sigma):
    from scipy import stats

    k = np.arange(m + 1)
    return float(np.sum(stats.binom.pmf(k, m, p) * stats.norm.sf((m / 2 - k) / sigma)))


def _kl2(a, b):
    return a * math.log(a / b) + (1 - a) * math.log((1 - a) / (1 - b))


def _thm8(dom) -> Result:
    from ...lower import thm8_kl_bound

    rhos = dom.axis("rho", 12)
    bad, n = [], 0
    for rho, p, p2, m, T in itertools.product(rhos, (0.1, 0.4), (0.6, 0.95), (1, 4), (10, 60)):
        sigma = math.sqrt(1 / (2 * rho))
        q, q2 = _etc_commit_prob(p, m, sigma), _etc_commit_prob(p2, m, sigma)
        exact = _kl2(q, q2)
        t = abs(p - p2)
        en = m + (T - m) * q
        bound = thm8_kl_bound([0.0, t], T, rho, pulls=[T - en, en], variance=t**2 * (T - m) ** 2 * q * (1 - q))["bound"]
        n += 1
        if exact > bound * (1 + 1e-12):
            bad.append({"rho": float(rho), "p": p, "p_alt": p2, "m": m, "T": T, "kl": exact, "bound": bound})
    ok = not bad
    return Result(verdict=verdict_of(ok, "statement violated"), points=n, counterexample=bad[0] if bad else None,
                  measured=f"explore-then-commit with a Gaussian-mechanism commit, {n} cases (ρ in "
                  f"[{rhos[0]:g}, {rhos[-1]:g}]): {len(bad)} with exact KL above the Thm 8 bound",
                  evidence={"violations": bad[:20]})


RHO = positive("rho", 0.01, 8.0, doc="ρ of ρ-(Interactive) zCDP")
claim("003-thm8", "Thm 8 (KL decomposition for ρ-Interactive zCDP)",
      "KL(m_νπ ‖ m_ν'π) ≤ ρ([E Σ t_{a_t}]² + E Σ t_{a_t}(1 − t_{a_t}) + Var Σ t_{a_t}) for a ρ-Interactive zCDP π",
      ["seed 003 Thm 8", SHEET], "no counterexample", evaluator=_thm8, params=(RHO,))


def _thm1(dom) -> Result:
    rhos = dom.axis("rho", 12)
    bad, n = [], 0
    for rho in rhos:
        sigma = math.sqrt(1 / (2 * rho))
        for m in (1, 2, 3, 4):
            for r in itertools.product((0, 1), repeat=m):
                for r2 in itertools.product((0, 1), repeat=m):
                    from scipy import stats

                    q = stats.norm.sf((m / 2 - sum(r)) / sigma)
                    q2 = stats.norm.sf((m / 2 - sum(r2)) / sigma)
                    kl = _kl2(q, q2) if 0 < q < 1 and 0 < q2 < 1 else 0.0  # only the commit step depends on r
                    dh = sum(a != b for a, b in zip(r, r2))
                    n += 1
                    if kl > rho * dh**2 * (1 + 1e-12) + 1e-300:
                        bad.append({"rho": float(rho), "r": r, "r_alt": r2, "kl_sum": kl, "bound": rho * dh**2})
    ok = not bad
    return Result(verdict=verdict_of(ok, "statement violated"), points=n, counterexample=bad[0] if bad else None,
                  measured=f"explore-then-commit (Gaussian commit), every pair of reward sequences of length ≤ 4, "
                  f"ρ in [{rhos[0]:g}, {rhos[-1]:g}]: {n} pairs, {len(bad)} above ρ·d_Ham²",
                  evidence={"violations": bad[:20]})


claim("003-thm1", "Thm 1 (group privacy for ρ-Interactive zCDP)",
      "Σ_t KL(π_t(·|H_{t−1}) ‖ π_t(·|H'_{t−1})) ≤ ρ·d_Ham(r, r')² for a fixed action sequence",
      ["seed 003 Thm 1", "docs/formulas/zcdp-bandits.md §1.4"], "no counterexample", evaluator=_thm1, params=(RHO,))


def _mixture_kl(p1, p2, sigma):
    """KL between Σ_s Binom-Poisson(s; p1) N(s, σ²) and the same for p2 (quadrature)."""
    from scipy import integrate, stats

    def pmf(ps):
        w = np.array([1.0])
        for p in ps:
            w = np.convolve(w, [1 - p, p])
        return w

    w1, w2 = pmf(p1), pmf(p2)
    s = np.arange(w1.size)

    def dens(x, w):
        return float(np.sum(w * stats.norm.pdf(x, s, sigma)))

    def f(x):
        a, b = dens(x, w1), dens(x, w2)
        return a * math.log(a / b) if a > 0 and b > 0 else 0.0

    lo, hi = -12 * sigma - 1, s[-1] + 12 * sigma + 1
    return integrate.quad(f, lo, hi, limit=400, points=list(s))[0]


def _thm6(dom) -> Result:
    from ...lower import kl_decomposition as kd

    rhos = dom.axis("rho", 8)
    bad, n = [], 0
    for rho in rhos:
        sigma = math.sqrt(1 / (2 * rho))
        for p1, p2 in (((0.2, 0.5, 0.7), (0.6, 0.5, 0.3)), ((0.1, 0.1), (0.9, 0.4)), ((0.5,), (0.8,))):
            d1 = list(itertools.product((0, 1), repeat=len(p1)))
            w1 = [math.prod(p if x else 1 - p for p, x in zip(p1, d)) for d in d1]
            w2 = [math.prod(p if x else 1 - p for p, x in zip(p2, d)) for d in d1]
            bound = kd.thm6_kl_bound(d1, w1, d1, w2, rho)
            exact = _mixture_kl(p1, p2, sigma)
            n += 1
            if exact > bound * (1 + 1e-7) + 1e-10:
                bad.append({"rho": float(rho), "p1": p1, "p2": p2, "kl": exact, "bound": bound})
    ok = not bad
    return Result(verdict=verdict_of(ok, "statement violated"), points=n, counterexample=bad[0] if bad else None,
                  measured=f"Gaussian mechanism on a sum of bits, {n} data-law pairs, ρ in [{rhos[0]:g}, {rhos[-1]:g}]:"
                  f" {len(bad)} with KL(M_1 ‖ M_2) above ρ·inf_C E d_Ham²", evidence={"violations": bad[:20]})


claim("003-thm6", "Thm 6 (KL upper bound as a transport problem)",
      "KL(M_1 ‖ M_2) ≤ ρ·inf_{C ∈ Π(P_1, P_2)} E_C[d_Ham(d, d')²] for a ρ-zCDP mechanism",
      ["seed 003 Thm 6", "seed 003 Eq. 9", SHEET], "no counterexample", evaluator=_thm6,
      params=(positive("rho", 0.01, 10.0, doc="ρ of the Gaussian mechanism"),))


def _thm16(dom) -> Result:
    from scipy import integrate, stats

    from ...lower import group_privacy_renyi

    rhos, als = dom.axis("rho", 4), dom.axis("alpha", 4)
    worst, n = 0.0, 0
    for rho, a, k in itertools.product(rhos, als, (1, 3)):
        sigma = math.sqrt(1 / (2 * rho))

        def logf(x):
            return a * stats.norm.logpdf(x, k, sigma) + (1 - a) * stats.norm.logpdf(x, 0, sigma)

        c = k * a  # the integrand is a Gaussian density (times a constant) centred at k·α; scaled by its value there
        M = logf(c)
        integral = integrate.quad(lambda x: math.exp(logf(x) - M), c - 40 * sigma, c + 40 * sigma, points=[c],
                                  limit=400)[0]
        ren = (M + math.log(integral)) / (a - 1)
        b = float(group_privacy_renyi(rho, k, a))
        worst = max(worst, (ren - b) / b)
        n += 1
    ok = worst <= 1e-6
    return Result(verdict=verdict_of(ok, "statement violated"), points=n,
                  measured=f"Gaussian mechanism, d_Ham = k ∈ {{1, 3}}, {n} (ρ, α, k): max (D_α − ρk²α)/(ρk²α) = "
                  f"{worst:.2g} (equality up to quadrature)", evidence={"max_relative_excess": worst})


claim("003-thm16", "Thm 16 (group privacy of ρ-zCDP, Bun–Steinke Prop. 27)",
      "D_α(M_d ‖ M_d') ≤ ρ·d_Ham(d, d')²·α for every α > 1", ["seed 003 Thm 16", "docs/formulas/zcdp-bandits.md §1.5"],
      "no counterexample", evaluator=_thm16,
      params=(positive("rho", 0.05, 5.0), above("alpha", 1.1, 20.0, 1.0)))


def _thm15(dom) -> Result:
    from ...lower import thm15_f_divergence_bound

    flips = dom.axis("flip", 9)
    fdivs = {
        "KL": lambda a, b: a * math.log(a / b) + (1 - a) * math.log((1 - a) / (1 - b)),
        "TV": lambda a, b: abs(a - b),
        "chi2": lambda a, b: (a - b) ** 2 / b + (a - b) ** 2 / (1 - b),
        "hellinger2": lambda a, b: (math.sqrt(a) - math.sqrt(b)) ** 2 + (math.sqrt(1 - a) - math.sqrt(1 - b)) ** 2,
    }
    bad, n = [], 0
    for fl in flips:
        out = {0: fl, 1: 1 - fl}  # P(output 1 | bit)
        for name, D in fdivs.items():
            div = [[D(out[x], out[y]) for y in (0, 1)] for x in (0, 1)]
            for p, q in ((0.3, 0.8), (0.0, 1.0), (0.5, 0.45), (0.9, 0.1)):
                m1, m2 = p * out[1] + (1 - p) * out[0], q * out[1] + (1 - q) * out[0]
                b = thm15_f_divergence_bound([1 - p, p], [1 - q, q], div)
                n += 1
                if D(m1, m2) > b + 1e-12:
                    bad.append({"flip": float(fl), "f": name, "p": p, "q": q, "mixture": D(m1, m2), "bound": b})
    ok = not bad
    return Result(verdict=verdict_of(ok, "statement violated"), points=n, counterexample=bad[0] if bad else None,
                  measured=f"randomised response, flip in [{flips[0]:g}, {flips[-1]:g}], KL/TV/χ²/Hellinger², {n} "
                  f"cases: {len(bad)} above inf_C E_C D_f(M_d ‖ M_d')", evidence={"violations": bad[:20]})


claim("003-thm15", "Thm 15 (Eq. 26: f-divergence of marginals through couplings)",
      "D_f(M_1 ‖ M_2) ≤ inf_{C ∈ Π(P_1, P_2)} E_{(d, d') ~ C}[D_f(M_d ‖ M_d')]", ["seed 003 Thm 15", "seed 003 Eq. 26",
                                                                                  SHEET],
      "no counterexample", evaluator=_thm15, params=(unit("flip", 0.05, 0.45, doc="randomised-response flip prob."),))
