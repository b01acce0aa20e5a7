"""Claims for items of seed 003 that had no check of their own (issue 16, the coverage table docs/coverage.md):

* Prop 3: the maximal coupling attains TV (:func:`boundcalc.lower.maximal_coupling` against ½‖p − q‖₁ and against
  the transport linear programme with cost 1{x ≠ y});
* Lemma 1 (a) and (b): parallel composition, checked exactly by enumeration on a discrete mechanism (k-ary randomised
  response on each block's sum) applied to the blocks of a partition of four bits;
* Eq. 19: the expected pulls of each sub-optimal arm of AdaC-UCB against the per-arm bound of App. C-D (Monte Carlo);
* Eq. 25: Σ_t 1/τ_t ≤ (1 + C)(1 + λ) ℓ(T) on AdaC-OFUL's rarely-switching schedule (App. F-B, Step 5);
* App. C-E: AdaC-UCB under (ε, δ)- and (α, ε)-interactive RDP by the constant of the Gaussian mechanism (Thm 18):
  the noise AdaC-UCB adds, its privacy, and Thm 10 with 1/(2ρ) replaced.

Sources: Azize & Basu, "Concentrated Differential Privacy for Bandits" (docs/papers.md), cited as seed 003.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from ..box import above, positive, unit
from .evaluators import f, mean_ci, verdict_of
from .registry import Result, claim

ZCDP_SHEET = "docs/formulas/zcdp-bandits.md"


# ---------------------------------------------------------------------------------------------------
# Prop 3: a maximal coupling attains TV
# ---------------------------------------------------------------------------------------------------
def _law_pairs(rng, n_random=60):
    """Random pairs of laws on 2–6 points (Dirichlet(1)), plus the edge cases p = q, disjoint supports, a point mass."""
    out = [(np.array([0.3, 0.7]), np.array([0.3, 0.7])), (np.array([1.0, 0.0, 0.0]), np.array([0.0, 0.5, 0.5])),
           (np.array([1.0, 0.0]), np.array([0.4, 0.6]))]
    for _ in range(n_random):
        k = int(rng.integers(2, 7))
        out.append((rng.dirichlet(np.ones(k)), rng.dirichlet(np.ones(k))))
    return out


def _prop3(dom) -> Result:
    from ...lower import maximal_coupling, optimal_transport

    rng = np.random.default_rng(3003)
    bad, worst_lp, n = [], 0.0, 0
    for p, q in _law_pairs(rng):
        C, tv = maximal_coupling(p, q)
        tv_ind = 0.5 * float(np.abs(p - q).sum())  # TV(p ‖ q), computed here from its definition
        marg = max(float(np.abs(C.sum(axis=1) - p).max()), float(np.abs(C.sum(axis=0) - q).max()))
        neq = 1.0 - float(np.trace(C))  # P_C(X ≠ Y)
        lp, _ = optimal_transport(p, q, 1.0 - np.eye(p.size))  # min over every coupling of P(X ≠ Y)
        worst_lp = max(worst_lp, abs(lp - tv_ind))
        n += 1
        if marg > 1e-12 or C.min() < -1e-15 or abs(neq - tv_ind) > 1e-12 or abs(tv - tv_ind) > 1e-12 \
                or lp < tv_ind - 1e-9:
            bad.append({"p": p.tolist(), "q": q.tolist(), "tv": tv_ind, "P(X≠Y)": neq, "marginal_error": marg,
                        "lp_min": lp})
    ok = not bad and worst_lp <= 1e-8
    return Result(verdict=verdict_of(ok, "statement violated"), points=n, counterexample=bad[0] if bad else None,
                  measured=f"{n} pairs of laws on 2–6 points: the maximal coupling has marginals p, q and "
                  f"P(X ≠ Y) = ½‖p − q‖₁ in {n - len(bad)} of {n}; the transport LP (cost 1{{x ≠ y}}) equals TV "
                  f"within {worst_lp:.1g}", evidence={"violations": bad[:10], "max_lp_minus_tv": worst_lp})


claim("003-prop3-maximal-coupling", "Prop 3 (a maximal coupling attains TV)",
      "for two laws p, q on a common finite set, the coupling with min(p_x, q_x) on the diagonal is a coupling of p "
      "and q with P(X ≠ Y) = TV(p ‖ q), and no coupling has a smaller P(X ≠ Y)",
      ["seed 003 Prop 3", "seed 003 Thm 7 (proof)", f"{ZCDP_SHEET} §5.1"], "no counterexample", evaluator=_prop3)


# ---------------------------------------------------------------------------------------------------
# Lemma 1: parallel composition, exact on a discrete mechanism
# ---------------------------------------------------------------------------------------------------
N_BITS = 4
PARTITIONS = ([[0], [1, 2, 3]], [[0, 1], [2, 3]], [[0], [1], [2, 3]], [[0, 1, 2, 3]])
KEEP = (0.5, 0.8)


def _rr_law(s: int, m: int, keep: float) -> np.ndarray:
    """k-ary randomised response on a block sum s ∈ {0, …, m}: s with probability ``keep``, else uniform on the rest."""
    law = np.full(m + 1, (1.0 - keep) / m)
    law[s] = keep
    return law


def _g_law(x, blocks, keep) -> np.ndarray:
    """Law of G_x (seed 003 Lemma 1): M applied to each block of the partition, independently (a product)."""
    law = np.array([1.0])
    for b in blocks:
        law = np.kron(law, _rr_law(int(sum(x[i] for i in b)), len(b), keep))
    return law


def _delta(P, Q, eps):
    return float(np.maximum(P - math.exp(eps) * Q, 0.0).sum())


def _renyi(P, Q, a):
    return float(math.log(np.sum(P**a * Q ** (1.0 - a))) / (a - 1.0))


def _lemma1(dom) -> Result:
    epss, alphas = dom.axis("epsilon", 9), dom.axis("alpha", 9)
    xs = list(itertools.product((0, 1), repeat=N_BITS))
    rows, bad, n = [], [], 0
    for blocks, keep in itertools.product(PARTITIONS, KEEP):
        # M's own levels: every pair of neighbouring inputs of every block (sums differing by one)
        m_pairs = [(_rr_law(s, len(b), keep), _rr_law(s + sg, len(b), keep)) for b in blocks for s in range(len(b) + 1)
                   for sg in (-1, 1) if 0 <= s + sg <= len(b)]
        g_pairs = [(_g_law(x, blocks, keep), _g_law(x[:i] + (1 - x[i],) + x[i + 1:], blocks, keep))
                   for x in xs for i in range(N_BITS)]
        for eps in epss:
            dm = max(_delta(P, Q, eps) for P, Q in m_pairs)
            dg = max(_delta(P, Q, eps) for P, Q in g_pairs)
            n += 1
            if dg > dm + 1e-12:
                bad.append({"part": "a", "blocks": blocks, "keep": keep, "epsilon": float(eps), "delta_G": dg,
                            "delta_M": dm})
        for a in alphas:
            rm = max(_renyi(P, Q, a) for P, Q in m_pairs)
            rg = max(_renyi(P, Q, a) for P, Q in g_pairs)
            n += 1
            if rg > rm * (1 + 1e-12) + 1e-15:
                bad.append({"part": "b", "blocks": blocks, "keep": keep, "alpha": float(a), "D_G": rg, "D_M": rm})
        rows.append({"blocks": blocks, "keep": keep})
    ok = not bad
    return Result(verdict=verdict_of(ok, "statement violated"), points=n, counterexample=bad[0] if bad else None,
                  measured=f"k-ary randomised response on each block's sum, {len(PARTITIONS)} partitions of "
                  f"{N_BITS} bits × keep ∈ {KEEP}, every neighbouring pair enumerated: δ_G(ε) ≤ δ_M(ε) for ε in "
                  f"[{epss[0]:g}, {epss[-1]:g}] and D_α(G) ≤ max D_α(M) for α in [{alphas[0]:g}, {alphas[-1]:g}] "
                  f"— {len(bad)} of {n} comparisons fail", evidence={"violations": bad[:10], "cases": rows})


claim("003-lemma1-parallel", "Lemma 1 (a), (b) (parallel composition over a partition of the input)",
      "(a) if M is (ε, δ)-DP then G, M applied to each block of a fixed partition, is (ε, δ)-DP; (b) the same for "
      "ρ-zCDP (every Rényi divergence of G is at most M's)",
      ["seed 003 Lemma 1 (Sec. V-A, App. D-A)", f"{ZCDP_SHEET} §1.4"], "no counterexample", evaluator=_lemma1,
      params=(positive("epsilon", 0.05, 3.0), above("alpha", 1.1, 20.0, 1.0)))


# ---------------------------------------------------------------------------------------------------
# Eq. 19: expected pulls of a sub-optimal arm of AdaC-UCB
# ---------------------------------------------------------------------------------------------------
EQ19_BETA, EQ19_T, EQ19_RUNS = 3.5, 100_000, 60


def eq19_bound(T, rho, gap, beta):
    """seed 003 Eq. 19 (App. C-D): E N_a(T) ≤ (8β/Δ_a²) ln T + 8√(β/(ρΔ_a²))·√(ln T) + 2β/(β − 3)."""
    L = math.log(T)
    return 8 * beta / gap**2 * L + 8 * math.sqrt(beta / (rho * gap**2)) * math.sqrt(L) + 2 * beta / (beta - 3)


def _eq19(dom) -> Result:
    from ...algorithms import lookup
    from ...bounds import registry
    from ...envs.instances import make_env
    from ...montecarlo import run
    from ...privacy import ZCDP

    env = make_env("zcdp-finite")
    gaps = np.asarray(env.gaps, dtype=float)
    ctx = registry.make_context("finite", {"means": list(env.means), "beta_adac": EQ19_BETA})
    rows, bad = [], []
    for rho in dom.axis("rho", 3):
        res = run(lookup("AdaC-UCB")(float(rho), beta=EQ19_BETA), env, EQ19_T, EQ19_RUNS, seed=1903)
        per_arm = []
        for a in np.flatnonzero(gaps > 0):
            m, lo, hi = mean_ci(res.pulls[:, a])
            b = eq19_bound(EQ19_T, float(rho), float(gaps[a]), EQ19_BETA)
            per_arm.append({"arm": int(a), "gap": float(gaps[a]), "mean_pulls": m, "ci": [lo, hi], "eq19": b})
            if lo > b:
                bad.append({"rho": float(rho), **per_arm[-1]})
        # Thm 10 is Σ_a Δ_a × Eq. 19 with Δ_a·2β/(β − 3) raised to 2β/(β − 3): it must dominate the weighted sum
        weighted = sum(r["gap"] * r["eq19"] for r in per_arm)
        thm10 = f(registry.get("003-thm10").evaluate([EQ19_T], ctx, ZCDP(float(rho))).value)
        if weighted > thm10 * (1 + 1e-9):
            bad.append({"rho": float(rho), "sum_gap_eq19": weighted, "thm10": thm10})
        rows.append({"rho": float(rho), "arms": per_arm, "sum_gap_eq19": weighted, "thm10": thm10})
    ok = not bad
    worst = max(r2["mean_pulls"] / r2["eq19"] for r in rows for r2 in r["arms"])
    return Result(verdict=verdict_of(ok, "statement violated"), points=len(rows) * EQ19_RUNS,
                  counterexample=bad[0] if bad else None,
                  measured=f"AdaC-UCB (β = {EQ19_BETA:g}) on the Sec. VII instance, T = {EQ19_T:g}, {EQ19_RUNS} runs, "
                  f"ρ in [{rows[0]['rho']:g}, {rows[-1]['rho']:g}]: the largest mean N_a(T)/Eq. 19 is {worst:.3g}; "
                  f"Σ_a Δ_a·Eq. 19 ≤ Thm 10 at every ρ: {all(r['sum_gap_eq19'] <= r['thm10'] * (1 + 1e-9) for r in rows)}",
                  evidence={"rows": rows, "seed": 1903})


claim("003-eq19-pulls", "Eq. 19 (App. C-D: pulls of a sub-optimal arm of AdaC-UCB)",
      "E N_a(T) ≤ (8β/Δ_a²) ln T + 8√(β/(ρΔ_a²))·√(ln T) + 2β/(β − 3) for every sub-optimal arm (β = 3.5 > 3, "
      "Sec. VII instance, T = 1e5), and Σ_a Δ_a × (that bound) ≤ Thm 10",
      ["seed 003 Eq. 19", "seed 003 Thm 10 (App. C-D)", f"{ZCDP_SHEET} §2.1"], "no counterexample", evaluator=_eq19,
      method="monte-carlo", params=(positive("rho", 0.1, 1.0),))


# ---------------------------------------------------------------------------------------------------
# Eq. 25: Σ_t 1/τ_t ≤ (1 + C)(1 + λ) ℓ(T)
# ---------------------------------------------------------------------------------------------------
EQ25_T, EQ25_C = 3000, 1.0


def eq25_bound(C, lam, n_updates):
    """seed 003 Eq. 25 (App. F-B, Step 5): Σ_t 1/τ_t ≤ (1 + C)(1 + λ) ℓ(T)."""
    return (1.0 + C) * (1.0 + lam) * n_updates


def _unit_sequences(rng, T):
    """Played actions (runs, T, d) with ‖A_t‖ = 1 (the proof's ‖A_t‖²_{V⁻¹} ≥ 1/(λ + t − 1) needs unit actions):
    i.i.d. uniform on the sphere (d = 2, 3, 5), one direction repeated, two directions alternating."""
    seqs = {}
    for d in (2, 3, 5):
        x = rng.standard_normal((T, d))
        seqs[f"iid-d{d}"] = x / np.linalg.norm(x, axis=1, keepdims=True)
    e = np.zeros((T, 3))
    e[:, 0] = 1.0
    seqs["repeated-e1"] = e
    alt = np.zeros((T, 3))
    alt[0::2, 0] = 1.0
    alt[1::2, 1] = 1.0
    seqs["alternating-e1-e2"] = alt
    return seqs


def _eq25(dom) -> Result:
    from .contextual import switching_times

    seqs = _unit_sequences(np.random.default_rng(2525), EQ25_T)
    rows, bad = [], []
    for lam in dom.axis("lam", 4):
        lam = float(lam)
        for name, X in seqs.items():
            taus = switching_times(X[None], lam, EQ25_C)[0]
            ends = np.append(taus[1:], EQ25_T)  # episode ℓ uses θ̃_{τ_ℓ} in rounds τ_ℓ + 1, …, τ_{ℓ+1} (or T)
            s = float(np.sum((ends - taus) / taus))  # Σ_t 1/τ_t over the rounds after the first update
            b = eq25_bound(EQ25_C, lam, taus.size)
            ratio = float((taus[1:] / taus[:-1]).max()) if taus.size > 1 else float("nan")
            rows.append({"lam": lam, "sequence": name, "updates": int(taus.size), "sum_inv_tau": s, "eq25": b,
                         "max_ratio": ratio, "stated_ratio_bound": (1 + EQ25_C) * (1 + lam)})
            if s > b:
                bad.append(rows[-1])
    ok = not bad
    gaps = [r for r in rows if r["max_ratio"] > r["stated_ratio_bound"]]
    return Result(verdict=verdict_of(ok, "statement violated"), points=len(rows), counterexample=bad[0] if bad else None,
                  measured=f"rarely-switching rule (C = {EQ25_C:g}), T = {EQ25_T}, {len(seqs)} unit-action sequences, λ in "
                  f"[{rows[0]['lam']:g}, {rows[-1]['lam']:g}]: Σ 1/τ_t ≤ (1 + C)(1 + λ)ℓ(T) in {len(rows) - len(bad)} of "
                  f"{len(rows)} cases (largest ratio {max(r['sum_inv_tau'] / r['eq25'] for r in rows):.3g}); the step "
                  f"t_{{ℓ+1}}/t_ℓ ≤ (1 + C)(1 + λ) itself fails in {len(gaps)} (ERRATA 11)"
                  + ("; the sum keeps its slack" if ok else ""),
                  evidence={"rows": rows})


claim("003-eq25-sum", "Eq. 25 (App. F-B, Step 5: Σ_t 1/τ_t on AdaC-OFUL's episodes)",
      "Σ_t 1/τ_t = Σ_ℓ (t_{ℓ+1} − t_ℓ)/t_ℓ ≤ (1 + C)(1 + λ) ℓ(T) over the rounds after the first update, for unit "
      "actions and the rarely-switching rule of Alg. 3 (C = 1)",
      ["seed 003 Eq. 25", "seed 003 Eq. 23", "ERRATA 11", f"{ZCDP_SHEET} §4.3"], "no counterexample", evaluator=_eq25,
      params=(positive("lam", 0.1, 1.0),),
      note="ERRATA 11 corrects the ratio step to t_{ℓ+1}/t_ℓ ≤ (1 + C)(1 + λ) + 1 for λ < 1; each term of the sum is "
           "t_{ℓ+1}/t_ℓ − 1, so Eq. 25 itself keeps holding (no counterexample expected)")


# ---------------------------------------------------------------------------------------------------
# App. C-E: AdaC-UCB under (ε, δ)-DP and (α, ε)-RDP through the Gaussian mechanism's constant
# ---------------------------------------------------------------------------------------------------
CE_SIZES = (0.5, 1.0, 2.0, 8.0, 64.0)
CE_BETA, CE_T = 3.5, 1e5


def rho_equivalent_approx(eps, delta):
    """App. C-E with Thm 18: AdaC-UCB's factor 1/(2ρ) becomes (2/ε²) ln(1.25/δ), i.e. ρ = ε²/(4 ln(1.25/δ))."""
    return eps * eps / (4.0 * math.log(1.25 / delta))


def _thm10_substituted(means, beta, T, b):
    """Thm 10 with the Gaussian factor 1/(2ρ) replaced by b (App. C-E): 1/ρ = 2b in the privacy term."""
    mu = np.asarray(means, dtype=float)
    gaps = mu.max() - mu
    L = math.log(T)
    return float(sum(8 * beta / g * L + 8 * math.sqrt(beta * 2 * b) * math.sqrt(L) + 2 * beta / (beta - 3)
                     for g in gaps if g > 0))


def _appce(dom) -> Result:
    from ...algorithms.finite.doubling import AdaCUCB, AdaRUCB
    from ...bounds import registry
    from ...envs.instances import make_env
    from ...privacy import RDP, ZCDP
    from ...privacy.mechanisms import gaussian_delta, gaussian_sigma_classic, gaussian_sigma_rdp

    means = list(make_env("zcdp-finite").means)
    ctx = registry.make_context("finite", {"means": means, "beta_adac": CE_BETA, "beta_adar": CE_BETA})
    n_arr = np.asarray(CE_SIZES)
    bad, n = [], 0

    def z(seed):
        return np.random.default_rng(seed).standard_normal(n_arr.size)

    # (ε, δ): noise, privacy of each release, regret
    for eps, delta in itertools.product(dom.axis("epsilon", 5), dom.axis("delta", 4)):
        eps, delta = float(eps), float(delta)
        rho = rho_equivalent_approx(eps, delta)
        got = AdaCUCB(rho, beta=CE_BETA).noise(n_arr, np.random.default_rng(5), n_arr.size)
        want = np.array([gaussian_sigma_classic(1.0 / k, eps, delta) for k in n_arr]) * z(5)
        # δ(ε) of one release N(0, σ²) at σ = Δ√(2 ln(1.25/δ))/ε (it depends on Δ/σ only): Balle–Wang's exact curve
        priv = float(gaussian_delta(eps, 1.0, gaussian_sigma_classic(1.0, eps, delta)))
        b = (2.0 / eps**2) * math.log(1.25 / delta)
        reg = f(registry.get("003-thm10").evaluate([CE_T], ctx, ZCDP(rho)).value)
        ind = _thm10_substituted(means, CE_BETA, CE_T, b)
        n += 1
        if not np.allclose(got, want, rtol=1e-12, atol=0) or priv > delta * (1 + 1e-9) or abs(reg / ind - 1) > 1e-9:
            bad.append({"notion": "(ε, δ)", "epsilon": eps, "delta": delta, "rho_equivalent": rho,
                        "noise_match": bool(np.allclose(got, want, rtol=1e-12, atol=0)), "exact_delta": priv,
                        "thm10_registry": reg, "thm10_substituted": ind})
    # (α, ε)-RDP: AdaR-UCB is AdaC-UCB at ρ = ε/α; seed 000 Thm 5 is Thm 10 at that ρ
    for alpha, reps in itertools.product(dom.axis("alpha", 4), dom.axis("rdp_epsilon", 4)):
        alpha, reps = float(alpha), float(reps)
        got = AdaRUCB(alpha, reps, beta=CE_BETA).noise(n_arr, np.random.default_rng(6), n_arr.size)
        want = np.array([gaussian_sigma_rdp(1.0 / k, alpha, reps) for k in n_arr]) * z(6)
        same = AdaCUCB(reps / alpha, beta=CE_BETA).noise(n_arr, np.random.default_rng(6), n_arr.size)
        ind = _thm10_substituted(means, CE_BETA, CE_T, alpha / (2.0 * reps))
        r000 = f(registry.get("000-thm5").evaluate([CE_T], ctx, RDP(alpha, reps)).value)
        r003 = f(registry.get("003-thm10").evaluate([CE_T], ctx, ZCDP(reps / alpha)).value)
        n += 1
        if not (np.allclose(got, want, rtol=1e-12, atol=0) and np.array_equal(got, same)) \
                or abs(r000 / ind - 1) > 1e-9 or abs(r003 / ind - 1) > 1e-9:
            bad.append({"notion": "(α, ε)-RDP", "alpha": alpha, "rdp_epsilon": reps, "thm5_000": r000,
                        "thm10_003": r003, "substituted": ind})
    ok = not bad
    return Result(verdict=verdict_of(ok, "statement violated"), points=n, counterexample=bad[0] if bad else None,
                  measured=f"{n} budgets: AdaC-UCB at ρ = ε²/(4 ln(1.25/δ)) adds N(0, (2/ε²) ln(1.25/δ)/n²) — exactly "
                  f"(ε, δ)-DP per release by the Gaussian privacy curve — and AdaR-UCB adds N(0, α/(2εn²)) = AdaC-UCB at "
                  f"ρ = ε/α; Thm 10 with 1/(2ρ) replaced equals the registry's 003-thm10 / 000-thm5: {len(bad)} failures",
                  evidence={"violations": bad[:10], "sizes": list(CE_SIZES)})


claim("003-appCE-calibration", "App. C-E (AdaC-UCB under (ε, δ)-interactive DP and (α, ε)-interactive RDP)",
      "replacing AdaC-UCB's 1/(2ρ) by b = (2/ε²) ln(1.25/δ) (ε < 1) or α/(2ε) gives a Gaussian release per episode "
      "that is (ε, δ)-DP or (α, ε)-RDP, and Thm 10 with the same replacement is its regret bound",
      ["seed 003 App. C-E", "seed 003 Thm 18", "seed 003 Thm 10", "seed 000 Thm 5"], "no counterexample",
      evaluator=_appce,
      params=(positive("epsilon", 0.05, 0.95), unit("delta", 1e-6, 0.1, open_ends=True),
              above("alpha", 1.5, 32.0, 1.0), positive("rdp_epsilon", 0.1, 10.0)))
