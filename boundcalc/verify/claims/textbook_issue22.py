"""Restated textbook results of the five papers, each checked as stated on exact finite examples (issue 22 §3: every
numbered result has a row in docs/coverage.md, restated ones included):

* post-processing (seed 000 Lemma 18, 002 Lemma 2.3, 003 Lemmas 3 and 4, 001 Prop H.1): random output laws and random
  randomised maps, hockey-stick divergences and Rényi divergences before and after the map;
* composition (002 Lemma 2.4, 001 Prop H.3): product laws, (ε₁ + ε₂, δ₁ + δ₂) and Rényi additivity (zCDP);
* group privacy (001 Prop H.2, Eq. 50) and the Laplace mechanism (001 Thm H.5): exact density ratios;
* Markov (000 Lemma 19, 003 Lemma 5), sub-Gaussian facts (000 Lemmas 21–22, 003 Lemmas 8–9: the tail, scaling,
  sums and Hoeffding's lemma), Zhang 2011 Thm 7.8 (000 Lemma 23), Bretagnolle–Huber and Pinsker (003 Lemmas 6, 7);
* Tropp 2011 Thm 3.1 (002 Lemma D.6), matrix Chernoff, by Monte Carlo on i.i.d. rank-one matrices.

A universal statement checked on examples can refute, not prove: each verdict is "no counterexample" at best.
Sources: docs/papers.md (seeds 000–003), the textbooks they cite (Dwork–Roth 2014, Tropp 2011, Zhang 2011).
"""

from __future__ import annotations

import math

import numpy as np

from ..box import Param, above, integer, positive
from .evaluators import frequency_below, verdict_of
from .registry import Result, claim


def _laws(rng, n, kmin=2, kmax=6, sparse=0.2):
    """``n`` pairs of laws on 2–6 points (Dirichlet; some with zeros)."""
    out = []
    for _ in range(n):
        k = int(rng.integers(kmin, kmax + 1))
        a = 0.3 if rng.random() < sparse else 1.0
        out.append((rng.dirichlet(np.ones(k) * a), rng.dirichlet(np.ones(k) * a)))
    return out


def hockey_stick(p, q, eps):
    """δ_{P,Q}(ε) = Σ_x max(p_x − e^ε q_x, 0) = max over events E of P(E) − e^ε Q(E) (the (ε, δ)-DP curve)."""
    return float(np.maximum(np.asarray(p) - math.exp(eps) * np.asarray(q), 0.0).sum())


def renyi(p, q, a):
    """D_α(P ‖ Q) = log(Σ p^α q^{1−α})/(α − 1) on a finite set (∞ when P is not ≪ Q, α > 1)."""
    p, q = np.asarray(p, float), np.asarray(q, float)
    if np.any((q == 0) & (p > 0)):
        return math.inf
    m = p > 0
    return float(math.log(np.sum(p[m] ** a * q[m] ** (1.0 - a))) / (a - 1.0))


# ---------------------------------------------------------------------------------------------------
# post-processing
# ---------------------------------------------------------------------------------------------------
def _post_processing(dom) -> Result:
    rng = np.random.default_rng(2218)
    epss, alphas = dom.axis("epsilon", 8), dom.axis("alpha", 8)
    bad, n = [], 0
    for p, q in _laws(rng, 60):
        F = rng.dirichlet(np.ones(int(rng.integers(1, 6))) * 0.7, p.size)  # a randomised map: rows are laws
        fp, fq = p @ F, q @ F
        for e in epss:
            n += 1
            if hockey_stick(fp, fq, e) > hockey_stick(p, q, e) + 1e-12:
                bad.append({"kind": "(ε, δ)", "epsilon": float(e), "p": p.tolist(), "q": q.tolist()})
        for a in alphas:
            n += 1
            before, after = renyi(p, q, a), renyi(fp, fq, a)
            if after > before * (1 + 1e-10) + 1e-12:
                bad.append({"kind": "Rényi", "alpha": float(a), "p": p.tolist(), "q": q.tolist()})
    return Result(verdict=verdict_of(not bad, "statement violated"), points=n, counterexample=bad[0] if bad else None,
                  measured=f"60 pairs of output laws (2–6 points) through random randomised maps: δ_{{fM(D), fM(D')}}(ε) ≤ "
                  f"δ_{{M(D), M(D')}}(ε) for ε in [{epss[0]:g}, {epss[-1]:g}] and D_α after ≤ D_α before for α in "
                  f"[{alphas[0]:g}, {alphas[-1]:g}]: {len(bad)} of {n} comparisons fail", evidence={"violations": bad[:5]})


claim("000-lemma18-post-processing", "Lemma 18 (post-processing; = 002 Lemma 2.3, 003 Lemmas 3 and 4, 001 Prop H.1)",
      "a randomised map f applied to the output of an (ε, δ)-DP mechanism is (ε, δ)-DP, and D_α(f(P) ‖ f(Q)) ≤ "
      "D_α(P ‖ Q) (Rényi post-processing): pairwise for every neighbouring pair, so for the mechanism",
      ["seed 000 Lemma 18", "seed 002 Lemma 2.3", "seed 003 Lemma 3", "seed 003 Lemma 4", "seed 001 Prop H.1"],
      "no counterexample", evaluator=_post_processing,
      params=(Param("epsilon", 0.0, 3.0, (0.0, math.inf, False, True)), above("alpha", 1.1, 20.0, 1.0)))


# ---------------------------------------------------------------------------------------------------
# composition
# ---------------------------------------------------------------------------------------------------
def _composition(dom) -> Result:
    rng = np.random.default_rng(2224)
    epss, alphas = dom.axis("epsilon", 5), dom.axis("alpha", 6)
    bad, n = [], 0
    pairs = _laws(rng, 40, 2, 4)
    for (p1, q1), (p2, q2) in zip(pairs[::2], pairs[1::2]):
        P, Q = np.kron(p1, p2), np.kron(q1, q2)  # the two mechanisms' outputs, independent given the input
        for e1 in epss:
            for e2 in epss:
                n += 1
                d1, d2 = hockey_stick(p1, q1, e1), hockey_stick(p2, q2, e2)
                if hockey_stick(P, Q, e1 + e2) > d1 + d2 + 1e-12:
                    bad.append({"kind": "(ε, δ)", "eps1": float(e1), "eps2": float(e2)})
        for a in alphas:
            n += 1
            r1, r2, r = renyi(p1, q1, a), renyi(p2, q2, a), renyi(P, Q, a)
            if math.isfinite(r) and r > (r1 + r2) * (1 + 1e-10) + 1e-12:
                bad.append({"kind": "Rényi (zCDP)", "alpha": float(a), "sum": r1 + r2, "product": r})
    return Result(verdict=verdict_of(not bad, "statement violated"), points=n, counterexample=bad[0] if bad else None,
                  measured=f"20 pairs of mechanisms (laws on 2–4 points) composed as products: δ(ε₁ + ε₂) ≤ δ₁(ε₁) + "
                  f"δ₂(ε₂) for ε₁, ε₂ in [{epss[0]:g}, {epss[-1]:g}], and D_α(product) ≤ D_α,1 + D_α,2 (so ρ₁ + ρ₂ "
                  f"for zCDP) for α in [{alphas[0]:g}, {alphas[-1]:g}]: {len(bad)} of {n} fail",
                  evidence={"violations": bad[:5]})


claim("002-lemma2.4-composition", "Lemma 2.4 (composition; = 001 Prop H.3, pure and zCDP)",
      "(M₁, M₂) is (ε₁ + ε₂, δ₁ + δ₂)-(L)DP when M_i is (ε_i, δ_i)-(L)DP; k mechanisms ε_i-DP (ρ_i-zCDP) compose to "
      "Σ ε_i-DP (Σ ρ_i-zCDP)", ["seed 002 Lemma 2.4", "seed 001 Prop H.3"], "no counterexample",
      evaluator=_composition,
      params=(Param("epsilon", 0.0, 2.0, (0.0, math.inf, False, True)), above("alpha", 1.1, 20.0, 1.0)))


# ---------------------------------------------------------------------------------------------------
# group privacy and the Laplace mechanism
# ---------------------------------------------------------------------------------------------------
def rr_bits_law(bits, eps):
    """Law of per-bit randomised response on a bit vector (each bit kept w.p. e^ε/(1 + e^ε)): ε-DP per bit."""
    keep = math.exp(eps) / (1 + math.exp(eps))
    law = np.array([1.0])
    for b in bits:
        law = np.kron(law, np.array([keep, 1 - keep]) if b == 0 else np.array([1 - keep, keep]))
    return law


def _group(dom) -> Result:
    import itertools

    epss = dom.axis("epsilon", 8)
    bad, n, tight = [], 0, 0
    for m in (1, 2, 3):
        for x in itertools.product((0, 1), repeat=m):
            for y in itertools.product((0, 1), repeat=m):
                k = sum(a != b for a, b in zip(x, y))
                for e in epss:
                    P, Q = rr_bits_law(x, float(e)), rr_bits_law(y, float(e))
                    ratio = float(np.max(P / Q))  # max over events of P(E)/Q(E) is the largest point ratio
                    n += 1
                    tight += math.isclose(ratio, math.exp(k * e), rel_tol=1e-9)
                    if ratio > math.exp(k * e) * (1 + 1e-12):
                        bad.append({"x": x, "y": y, "epsilon": float(e), "ratio": ratio, "e^(kε)": math.exp(k * e)})
    return Result(verdict=verdict_of(not bad, "statement violated"), points=n, counterexample=bad[0] if bad else None,
                  measured=f"per-bit randomised response (ε-DP) on 1–3 bits, every pair of inputs, ε in "
                  f"[{epss[0]:g}, {epss[-1]:g}]: max_E P(M(D) ∈ E)/P(M(D') ∈ E) ≤ e^{{ε·d_Ham(D, D')}} in "
                  f"{n - len(bad)} of {n} (attained in {tight})", evidence={"violations": bad[:5], "tight": tight})


claim("001-propH2-group-privacy", "Prop H.2 (group privacy, Eq. 50)",
      "if M is ε-DP then P(M(D) ∈ E) ≤ e^{ε·d_Ham(D, D')} P(M(D') ∈ E) for every event E and datasets D, D'",
      ["seed 001 Prop H.2, Eq. 50", "docs/formulas/eps-global-dp-bernoulli.md §1"], "no counterexample",
      evaluator=_group, params=(positive("epsilon", 0.01, 3.0),))


def laplace_log_ratio(z, f1, f2, sens, eps):
    """log of p_{f1}(z)/p_{f2}(z) for the Laplace mechanism f + Lap(sens/ε)^d (seed 001 Thm H.5)."""
    b = sens / eps
    return (np.abs(z - f2).sum(axis=-1) - np.abs(z - f1).sum(axis=-1)) / b


def _laplace(dom) -> Result:
    rng = np.random.default_rng(2205)
    epss, sens = dom.axis("epsilon", 6), dom.axis("sensitivity", 4)
    bad, n, worst = [], 0, 0.0
    for d in (1, 2, 3):
        z = rng.uniform(-6, 6, (4000, d))
        for s in sens:
            for e in epss:
                f1 = rng.uniform(-1, 1, d)
                u = rng.standard_normal(d)
                f2 = f1 + u / np.abs(u).sum() * float(s) * rng.uniform(0.5, 1.0)  # ‖f1 − f2‖₁ ≤ sensitivity
                lr = laplace_log_ratio(z, f1, f2, float(s), float(e))
                n += z.shape[0]
                worst = max(worst, float(lr.max() / e))
                if lr.max() > float(e) * (1 + 1e-12):
                    bad.append({"d": d, "epsilon": float(e), "sensitivity": float(s), "max_log_ratio": float(lr.max())})
    return Result(verdict=verdict_of(not bad, "statement violated"), points=n, counterexample=bad[0] if bad else None,
                  measured=f"Laplace mechanism f + Lap(Δ/ε)^d, d = 1–3, ‖f(D) − f(D')‖₁ ≤ Δ, ε in [{epss[0]:g}, "
                  f"{epss[-1]:g}]: the largest log density ratio over {n} outputs is {worst:.4g}·ε (≤ ε: ε-DP)",
                  evidence={"violations": bad[:5], "max_log_ratio_over_eps": worst})


claim("001-thmH5-laplace", "Thm H.5 (the Laplace mechanism)",
      "if f has L1-sensitivity Δ, then f(D) + (Y_1, …, Y_d), Y_i i.i.d. Lap(Δ/ε), is ε-DP",
      ["seed 001 Thm H.5", "docs/formulas/eps-global-dp-bernoulli.md §1"], "no counterexample", evaluator=_laplace,
      params=(positive("epsilon", 0.05, 5.0), positive("sensitivity", 0.5, 2.0)))


# ---------------------------------------------------------------------------------------------------
# Markov, sub-Gaussian facts, Zhang, Bretagnolle–Huber and Pinsker
# ---------------------------------------------------------------------------------------------------
def _markov(dom) -> Result:
    rng = np.random.default_rng(2219)
    epss = dom.axis("epsilon", 12)
    bad, n = [], 0
    for _ in range(100):
        k = int(rng.integers(2, 8))
        x, p = rng.normal(0, 2, k), rng.dirichlet(np.ones(k))
        for e in epss:
            n += 1
            lhs, rhs = float(p[np.abs(x) >= e].sum()), float(p @ np.abs(x)) / float(e)
            if lhs > rhs * (1 + 1e-12):
                bad.append({"x": x.tolist(), "p": p.tolist(), "epsilon": float(e)})
    return Result(verdict=verdict_of(not bad, "statement violated"), points=n, counterexample=bad[0] if bad else None,
                  measured=f"100 discrete laws, ε in [{epss[0]:g}, {epss[-1]:g}]: P(|X| ≥ ε) ≤ E|X|/ε in "
                  f"{n - len(bad)} of {n}", evidence={"violations": bad[:5]})


claim("000-lemma19-markov", "Lemma 19 (Markov's inequality; = 003 Lemma 5)", "P(|X| ≥ ε) ≤ E|X|/ε for every ε > 0",
      ["seed 000 Lemma 19", "seed 003 Lemma 5"], "no counterexample", evaluator=_markov,
      params=(positive("epsilon", 0.01, 10.0),))


LAMBDAS = np.linspace(-12, 12, 241)


def log_mgf(x, p, lam=LAMBDAS):
    """log E exp(λX) of a discrete law (values ``x``, weights ``p``) at each λ (log-sum-exp)."""
    z = np.outer(lam, np.asarray(x, float))
    mx = z.max(axis=1)
    return np.log(np.exp(z - mx[:, None]) @ np.asarray(p, float)) + mx


def _mean_zero_law(rng):
    """A discrete law on [a, b] (both end points in its support) with mean 0, or None."""
    k = int(rng.integers(2, 6))
    a, b = -rng.uniform(0.1, 2.0), rng.uniform(0.1, 2.0)
    x = rng.uniform(a, b, k)
    x[0], x[1] = a, b
    p = rng.dirichlet(np.ones(k))
    # move mass τ = |mean|/(b − a) between the end points a and b: the mean becomes 0 (None if there is too little)
    m = float(p @ x)
    src, dst = (1, 0) if m > 0 else (0, 1)
    tau = abs(m) / (b - a)
    if tau > p[src]:
        return None
    p[src] -= tau
    p[dst] += tau
    return x, p, a, b


def _subgaussian(dom) -> Result:
    from scipy.stats import norm

    rng = np.random.default_rng(2221)
    epss = dom.axis("epsilon", 10)
    bad, n = [], 0
    # Lemma 21, tail: N(0, σ²) (exactly σ-sub-Gaussian) and σ·Rademacher (σ-sub-Gaussian), exact tails
    for s in (0.5, 1.0, 2.0):
        for e in epss:
            n += 2
            bound = math.exp(-e * e / (2 * s * s))
            if norm.sf(e / s) > bound or (0.5 if e <= s else 0.0) > bound * (1 + 1e-12):
                bad.append({"lemma": "21", "sigma": s, "epsilon": float(e)})
    laws = [law for law in (_mean_zero_law(rng) for _ in range(80)) if law is not None]
    for i, (x, p, a, b) in enumerate(laws):
        sig = (b - a) / 2
        lm = log_mgf(x, p)
        n += 3 + len(epss)
        # Lemma 22 (3), Hoeffding's lemma: the MGF bound of a (b − a)/2-sub-Gaussian variable at every λ of the grid
        if np.any(lm > LAMBDAS**2 * sig * sig / 2 + 1e-12):
            bad.append({"lemma": "22(3)", "x": x.tolist(), "p": p.tolist()})
        # Lemma 21 on this law with σ = (b − a)/2: the exact tail
        for e in epss:
            if float(p[x >= e].sum()) > math.exp(-e * e / (2 * sig * sig)) * (1 + 1e-12):
                bad.append({"lemma": "21", "x": x.tolist(), "p": p.tolist(), "epsilon": float(e)})
        # Lemma 22 (1): cX is |c|σ-sub-Gaussian
        c = float(rng.uniform(-3, 3))
        if np.any(log_mgf(c * x, p) > LAMBDAS**2 * c * c * sig * sig / 2 + 1e-12):
            bad.append({"lemma": "22(1)", "c": c})
        # Lemma 22 (2): X₁ + X₂ (independent; X₂ the next law) is √(σ₁² + σ₂²)-sub-Gaussian
        x2, p2, a2, b2 = laws[(i + 1) % len(laws)]
        xs, ps = np.add.outer(x, x2).ravel(), np.outer(p, p2).ravel()
        if np.any(log_mgf(xs, ps) > LAMBDAS**2 * (sig * sig + ((b2 - a2) / 2) ** 2) / 2 + 1e-12):
            bad.append({"lemma": "22(2)", "i": i})
    return Result(verdict=verdict_of(not bad, "statement violated"), points=n, counterexample=bad[0] if bad else None,
                  measured=f"Lemma 21 on Gaussian and Rademacher laws and on {len(laws)} mean-zero discrete laws on "
                  f"[a, b] (exact tails, ε in [{epss[0]:g}, {epss[-1]:g}]); Lemma 22 (1)–(3) as MGF bounds "
                  f"E e^{{λX}} ≤ e^{{λ²σ²/2}} at 241 values of λ in [−12, 12]: {len(bad)} of {n} fail",
                  evidence={"violations": bad[:5], "laws": len(laws)})


claim("000-lemma21-22-subgaussian", "Lemmas 21–22 (sub-Gaussian tail and properties; = 003 Lemmas 8–9)",
      "σ-sub-Gaussian X: P(X ≥ ε) ≤ exp(−ε²/(2σ²)); cX is |c|σ-sub-Gaussian; X₁ + X₂ (independent) is "
      "√(σ₁² + σ₂²)-sub-Gaussian; mean-zero X ∈ [a, b] is (b − a)/2-sub-Gaussian (Hoeffding's lemma)",
      ["seed 000 Lemmas 21, 22", "seed 003 Lemmas 8, 9"], "no counterexample", evaluator=_subgaussian,
      params=(Param("epsilon", 0.0, 6.0, (0.0, math.inf, False, True)),))


def _zhang(dom) -> Result:
    rng = np.random.default_rng(2223)
    bad, n = [], 0
    for d in [int(v) for v in dom.axis("d", 6)]:
        for _ in range(30):
            G = rng.standard_normal((d, d))
            B = G @ G.T + 1e-3 * np.eye(d)
            H = rng.standard_normal((d, int(rng.integers(1, d + 1))))
            A = B + H @ H.T  # A ≥ B ≥ 0
            n += 2
            if np.linalg.slogdet(A)[1] < np.linalg.slogdet(B)[1] - 1e-10:
                bad.append({"d": d, "part": "det"})
            gap = np.linalg.eigvalsh(np.linalg.inv(B) - np.linalg.inv(A))
            if gap.min() < -1e-8 * max(1.0, float(np.abs(gap).max())):
                bad.append({"d": d, "part": "inverse", "min_eig": float(gap.min())})
    return Result(verdict=verdict_of(not bad, "statement violated"), points=n, counterexample=bad[0] if bad else None,
                  measured=f"{n // 2} pairs A = B + HHᵀ ≥ B > 0 (d = {int(dom.axis('d', 6)[0])}–"
                  f"{int(dom.axis('d', 6)[-1])}): det A ≥ det B and B⁻¹ − A⁻¹ ⪰ 0 — {len(bad)} failures",
                  evidence={"violations": bad[:5]})


claim("000-lemma23-zhang", "Lemma 23 (Zhang 2011 Thm 7.8)", "A ⪰ B ⪰ 0 ⇒ det A ≥ det B, and A⁻¹ ⪯ B⁻¹ when both "
      "are non-singular", ["seed 000 Lemma 23"], "no counterexample", evaluator=_zhang, params=(integer("d", 1, 6),))


def _bh_pinsker(dom) -> Result:
    rng = np.random.default_rng(2206)
    bad, n = [], 0
    for p, q in _laws(rng, 300, 2, 6, sparse=0.0):
        kl = float(np.sum(p * np.log(p / q)))
        tv = 0.5 * float(np.abs(p - q).sum())
        n += 2
        if 1 - tv < 0.5 * math.exp(-kl) - 1e-12:  # min over events of P(A) + Q(Aᶜ) is 1 − TV
            bad.append({"lemma": "6 (Bretagnolle–Huber)", "kl": kl, "tv": tv})
        if kl < 2 * tv * tv - 1e-12:
            bad.append({"lemma": "7 (Pinsker)", "kl": kl, "tv": tv})
    return Result(verdict=verdict_of(not bad, "statement violated"), points=n, counterexample=bad[0] if bad else None,
                  measured=f"300 pairs of laws on 2–6 points: min_A P(A) + Q(Aᶜ) = 1 − TV ≥ ½ e^{{−KL}} and KL ≥ 2 TV² — "
                  f"{len(bad)} of {n} fail", evidence={"violations": bad[:5]})


claim("003-lemma6-7-bh-pinsker", "Lemmas 6–7 (Bretagnolle–Huber, Pinsker)",
      "P(A) + Q(Aᶜ) ≥ ½ exp(−KL(P ‖ Q)) for every event A; KL(P ‖ Q) ≥ 2 TV(P ‖ Q)²",
      ["seed 003 Lemma 6", "seed 003 Lemma 7"], "no counterexample", evaluator=_bh_pinsker)


# ---------------------------------------------------------------------------------------------------
# seed 002 Lemma D.6 (Tropp 2011 Thm 3.1), Monte Carlo
# ---------------------------------------------------------------------------------------------------
D6_RUNS = 1500


def tropp_bound(d, mu, R2, a):
    """seed 002 Lemma D.6: d (1/(e^a (1 − a)^{1−a}))^{μ/R²}."""
    return d * (1.0 / (math.exp(a) * (1.0 - a) ** (1.0 - a))) ** (mu / R2)


def _tropp(dom) -> Result:
    rng = np.random.default_rng(2206)
    alphas = dom.axis("alpha", 6)
    rows, bad = [], []
    for d in (2, 3, 5):
        for t in (10, 40, 100):
            x = rng.standard_normal((D6_RUNS, t, d))
            x /= np.linalg.norm(x, axis=2, keepdims=True)  # z^i = x xᵀ, λ_max = R² = 1, E z^i = I/d
            lmin = np.linalg.eigvalsh(np.einsum("nti,ntj->nij", x, x))[:, 0]
            mu = t / d  # λ_min(Z̃_t) = t/d ≥ μ surely
            for a in alphas:
                fb = frequency_below(int(np.sum(lmin <= (1 - a) * mu)), D6_RUNS, min(1.0, tropp_bound(d, mu, 1.0, a)))
                rows.append({"d": d, "t": t, "alpha": float(a), **fb})
                if fb["violated"]:
                    bad.append(rows[-1])
    informative = [r for r in rows if r["level"] < 1]  # where the bound is below 1
    top = max((r["frequency"] / r["level"] for r in informative), default=float("nan"))
    return Result(verdict=verdict_of(not bad, "statement violated"), points=len(rows) * D6_RUNS,
                  counterexample=bad[0] if bad else None,
                  measured=f"i.i.d. z^i = xxᵀ, x uniform on the sphere (R² = 1, Z̃_t = tI/d, μ = t/d), d ∈ {{2, 3, 5}}, "
                  f"t ∈ {{10, 40, 100}}, α in [{alphas[0]:g}, {alphas[-1]:g}], {D6_RUNS} runs: largest frequency/bound "
                  f"{top:.3g} where the bound is below 1 ({len(informative)} cases); {len(bad)} of {len(rows)} with the 95% Clopper–Pearson interval above the bound",
                  evidence={"rows": rows, "runs": D6_RUNS})


claim("002-lemma-d6-tropp", "Lemma D.6 (Tropp 2011 Thm 3.1, matrix Chernoff for adapted sequences)",
      "P[λ_min(Z_t) ≤ (1 − α)μ, λ_min(Z̃_t) ≥ μ] ≤ d (1/(e^α (1 − α)^{1−α}))^{μ/R²} for PSD z^i with λ_max(z^i) ≤ R²",
      ["seed 002 Lemma D.6"], "no counterexample", evaluator=_tropp, method="monte-carlo",
      params=(Param("alpha", 0.1, 0.9, (0.0, 1.0, True, True)),))
