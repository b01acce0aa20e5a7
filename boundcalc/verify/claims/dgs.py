"""Claims of seed 004 (LinUCB with dynamic global sensitivity): Lemma 1 (burn-in, exactness, positivity,
adaptive arms, Δ_t — ERRATA 4, 5), Theorem 3's terms and constants, the Σ(2^k/(2^k − 1))² step, the Δ^safe
wording, and the experiment that cannot be reproduced (docs/formulas/dgs-contextual.md §6, §0). The tree
mechanism's privacy claims (ERRATA 6, 7) are in dgs_privacy.py.
"""

from __future__ import annotations

import math

import numpy as np

from ..box import Param, integer, unit
from .evaluators import Inequality, frequency_below, not_checkable, verdict_of
from .registry import Result, claim

DGS = "docs/formulas/dgs-contextual.md"


def lambda_prime(t, lam0, delta):
    """λ'(t) = λ0 t/4 − 8 log((t+3)/δ) − 2√(t log((t+3)/δ)) (seed 004 Lemma 1, after Gentile et al. 2014)."""
    t = np.asarray(t, dtype=float)
    L = np.log((t + 3) / delta)
    return lam0 * t / 4 - 8 * L - 2 * np.sqrt(t * L)


# ---------------------------------------------------------------------------------------------------
def _sum_log_base(dom) -> Result:
    from fractions import Fraction

    t_max = int(dom.value("t_max"))
    kmax = int(math.floor(math.log2(t_max))) + 2
    partial = [Fraction(0)]
    for k in range(1, kmax + 1):
        partial.append(partial[-1] + Fraction(2**k, 2**k - 1) ** 2)
    t = np.arange(1, t_max + 1)
    m = np.array([int(n).bit_length() - 1 for n in t])  # ⌊log₂ t⌋ exactly
    lhs = np.array([float(partial[j]) for j in m])
    lhs1 = np.array([float(partial[j + 1]) for j in m])
    rhs2, rhse = 2 * np.log2(t) + 2, 2 * np.log(t) + 2
    fail2, faile, fail2_plus1 = t[lhs > rhs2 * (1 + 1e-15)], t[lhs > rhse], t[lhs1 > rhs2]
    literal_ok = faile.size == 0
    return Result(verdict="no counterexample" if literal_ok else ("typo" if fail2.size == 0 else "statement violated"),
                  points=int(t.size), counterexample=None if literal_ok else {"t": 2, "sum": float(lhs[1]),
                                                                              "2 ln t + 2": float(rhse[1])},
                  measured=f"t ≤ {t_max}: log₂ form fails at {fail2.size} t; ln form fails at {faile.size} t "
                  f"(max {int(faile.max()) if faile.size else '—'}); e.g. t = 2: {lhs[1]:.2f} vs 2 ln 2 + 2 = {rhse[1]:.2f}; "
                  f"with ⌊log₂t⌋ + 1 terms even log₂ fails at {fail2_plus1.size} t",
                  evidence={"t_range": [1, t_max], "terms": "k = 1..floor(log2 t)", "fails_log2": fail2.tolist(),
                            "fails_ln": faile.tolist(), "max_failing_t_ln": int(faile.max()) if faile.size else None,
                            "min_slack_log2": float(np.min(rhs2 - lhs)),
                            "fails_log2_with_floor_log2_plus_1_terms": int(fail2_plus1.size)})


claim("004-sum-log-base", "Thm 2 proof, Σ(2^k/(2^k − 1))² ≤ 2 log t + 2 (ERRATA smaller items; sheet check 6.4)",
      "Σ_{k=1}^{⌊log₂ t⌋} (2^k/(2^k − 1))² ≤ 2 log t + 2 (log = ln, the paper's convention)",
      ["seed 004 Thm 2 (proof)", "ERRATA smaller items", f"{DGS} §0, §1.4, §6.4"], "typo", evaluator=_sum_log_base,
      params=(integer("t_max", 4096, minimum=2),), sheet_checks=("docs/formulas/dgs-contextual.md §6.4",),
      smaller=("004's Σ(2^k/(2^k − 1))² ≤ 2 log t + 2 holds with log₂, fails with ln up to t = 64",),
      note="exact rational arithmetic for every t ≤ t_max")


def _burn_in(dom) -> Result:
    rows = []
    for lam0, delta in ((1.0, 0.1), (0.1, 0.1), (0.05, 0.01), (0.01, 0.1)):
        paper_t = 32 * math.log(1 / delta) / lam0
        lo, hi = 1.0, 1e12
        for _ in range(200):
            mid = math.sqrt(lo * hi)
            lo, hi = (lo, mid) if lambda_prime(mid, lam0, delta) >= lam0 * mid / 16 else (mid, hi)
        rows.append({"lambda0": lam0, "delta": delta, "paper_threshold": paper_t, "true_threshold": hi,
                     "t_lambda0_sq": hi * lam0**2,
                     "lambda_prime_at_paper_t": float(lambda_prime(math.ceil(paper_t), lam0, delta)),
                     "lambda0_t_over_16_at_paper_t": lam0 * math.ceil(paper_t) / 16})
    quoted_fails = any(r["true_threshold"] > r["paper_threshold"] for r in rows)
    seed, runs, d, delta = 4, 2000, 5, 0.1
    rng = np.random.default_rng(seed)
    lam0 = 1.0 / d
    t0 = math.ceil(32 * math.log(1 / delta) / lam0)
    x = rng.standard_normal((runs, t0, d))
    x /= np.linalg.norm(x, axis=2, keepdims=True)
    lmin = np.linalg.eigvalsh(np.einsum("rti,rtj->rij", x, x))[:, 0]
    target = lam0 * t0 / 16
    failures = int(np.sum(lmin < target))
    sq = [r["t_lambda0_sq"] for r in rows]
    return Result(verdict="proof gap" if quoted_fails else "no counterexample", points=len(rows) + runs,
                  counterexample={k: rows[0][k] for k in ("lambda0", "delta", "paper_threshold", "lambda_prime_at_paper_t",
                                                           "lambda0_t_over_16_at_paper_t")} if quoted_fails else None,
                  measured=f"λ'(t) ≥ λ0t/16 needs t·λ0² ≈ {min(sq):.0f}–{max(sq):.0f} (paper: t·λ0 ≈ 74–147); yet real "
                  f"λ_min ≥ λ0t/16 at the paper's t = {t0} in {runs - failures}/{runs} runs (d = {d}, i.i.d. sphere)",
                  evidence={"thresholds": rows, "monte_carlo": {"d": d, "lambda0": lam0, "delta": delta, "t": t0,
                                                                "runs": runs, "seed": seed, "failures": failures,
                                                                "target": target, "min_lambda_min": float(lmin.min()),
                                                                "median_lambda_min": float(np.median(lmin))}})


claim("004-lemma1-burn-in", "Lemma 1 simplification λ'(t) ≥ λ0t/16 for t > 32 log(1/δ)/λ0 (ERRATA 4; sheet check 6.2)",
      "λ'(t) ≥ λ0 t/16 once t > 32 log(1/δ)/λ0 (so Δ_t ≤ 32L/(λ0 t))",
      ["seed 004 Lemma 1", "ERRATA 4", f"{DGS} §1.2, §6.2, §7.2", "ERRATA: corrections to the sheets' wording (dgs)"],
      "proof gap", evaluator=_burn_in, errata=(4,), sheet_checks=("docs/formulas/dgs-contextual.md §6.2",),
      smaller=("dgs: \"the true threshold grows like λ0⁻²\" is about the quoted bound λ′(t), not the eigenvalue",),
      note="verdict about the quoted bound λ'(t) only; the Monte Carlo shows the real eigenvalue is fine")


def _delta_t(dom) -> Result:
    lam0, delta, L, T = 0.2, 0.1, 1.0, 2**16
    t = np.arange(1, T + 1, dtype=float)
    lp = lambda_prime(t, lam0, delta)
    valid = lp >= lam0 * t / 16  # where the simplification is true
    main, appendix = 32 * L / lam0, 32 * L / (lam0 * t)
    dyn = 2 * L / lp[valid]
    holds_appendix = bool(np.all(dyn <= appendix[valid] * (1 + 1e-12)))
    holds_main = bool(np.all(dyn <= main))
    # Thm 2's O(1/t) noise needs the appendix form: tree noise ∝ Σ_i Δ_{e_i}; with the main-text Δ it is t-free
    ts = np.array([2**10 - 1, 2**13 - 1, 2**16 - 1])
    def noise(sens_of):
        return np.array([math.sqrt(sum(sens_of((int(x) >> i) << i) ** 2 for i in range(int(x).bit_length())
                                       if int(x) >> i & 1)) for x in ts])
    n_main = noise(lambda e: main)
    n_app = noise(lambda e: 32 * L / (lam0 * e))
    decay_main, decay_app = n_main[-1] / n_main[0], n_app[-1] / n_app[0]
    typo = holds_appendix and holds_main and decay_main > 0.5 and decay_app < 0.05
    return Result(verdict="typo" if typo else "no counterexample", points=int(valid.sum()) + ts.size,
                  measured=f"where λ'(t) ≥ λ0t/16, 2L/λ'(t) ≤ 32L/(λ0t) ≤ 32L/λ0 (both true); but the tree noise with the "
                  f"main-text Δ = 32L/λ0 does not decay (ratio {decay_main:.2f} from t ≈ 1e3 to 6.6e4) while the appendix's "
                  f"32L/(λ0t) gives {decay_app:.4f} — Theorem 2's O(1/t) needs the 1/t the main text drops",
                  evidence={"lambda0": lam0, "delta": delta, "valid_from_t": float(t[np.argmax(valid)]),
                            "noise_main_text": n_main.tolist(), "noise_appendix": n_app.tolist(), "t": ts.tolist()})


claim("004-delta-t-typo", "Lemma 1: Δ_t ≤ 32L/λ0 (ERRATA 5)",
      "Δ_t ≤ 32L/λ0 when t > 32 log(1/δ)/λ0 (main text; the appendix uses 32L/(λ0 t))",
      ["seed 004 Lemma 1 (main text) and Thm 2 proof (appendix)", "ERRATA 5", f"{DGS} §1.2, §7.2"], "typo",
      evaluator=_delta_t, errata=(5,))


# ---------------------------------------------------------------------------------------------------
def _exactness(dom) -> Result:
    rng = np.random.default_rng(81)
    rows, worst = 0, -math.inf
    lam_bad = 0
    for d in (2, 5, 10):
        X = rng.standard_normal((20, 600, d))
        X /= np.linalg.norm(X, axis=2, keepdims=True)
        X *= rng.uniform(0.2, 1.0, (20, 600, 1))  # ‖x‖ ≤ L = 1
        for t in (10, 100, 600):
            A = np.einsum("rti,rtj->rij", X[:, :t], X[:, :t]) + np.eye(d)
            Ai = np.linalg.inv(A)
            sens = 2 * np.linalg.norm(np.einsum("rij,rtj->rti", Ai, X[:, :t]), axis=2).max(axis=1)
            bound = 2 / np.linalg.eigvalsh(A)[:, 0]
            worst = max(worst, float(np.max(sens / bound)))
            lam_bad += int(np.sum(np.linalg.eigvalsh(A)[:, 0] < lambda_prime(t, 1.0 / d, 0.1)))
            rows += 20
    ok = worst <= 1 + 1e-12
    return Result(verdict=verdict_of(ok, "statement violated"), points=rows,
                  measured=f"{rows} random context sequences: max_j 2‖A_t⁻¹x_j‖ / (2L/λ_min(A_t)) ≤ {worst:.4f} "
                  f"(deterministic bound); λ_min(A_t) < λ'(t) in {lam_bad} cases (λ' is negative at these t)",
                  evidence={"max_ratio": worst, "lambda_min_below_lambda_prime": lam_bad, "seed": 81})


claim("004-lemma1-exactness", "Lemma 1 exactness (sheet check 6.1)",
      "max_j ‖θ̂_{t+1} − θ̂'_{t+1}‖ = max_j 2‖A_t⁻¹x_j‖ ≤ 2L/λ_min(A_t) for every context sequence (deterministic)",
      ["seed 004 Lemma 1 (proof)", f"{DGS} §1.2, §4, §6.1"], "no counterexample", evaluator=_exactness,
      sheet_checks=("docs/formulas/dgs-contextual.md §6.1",))


def _adaptive(dom) -> Result:
    rng = np.random.default_rng(82)
    d, K, runs, T, delta, lam = 2, 100, 20, 6000, 0.1, 1.0
    lam0 = 0.5  # candidates uniform on the circle: E[xxᵀ] = I/2 (Assumption 1)
    checks = [5000, 6000]
    out = {}
    for mode in ("random", "ucb"):
        g11, g12, g22 = np.full(runs, lam), np.zeros(runs), np.full(runs, lam)  # A_t (2 × 2, symmetric)
        b = np.zeros((runs, d))
        if mode == "random":  # a uniformly chosen candidate is a uniform angle: no loop needed
            ang = rng.uniform(0, 2 * np.pi, (runs, T))
            X = np.stack([np.cos(ang), np.sin(ang)], axis=2)
        else:
            X = np.zeros((runs, T, d))
            rows_ = np.arange(runs)
            for t in range(1, T + 1):
                if (t - 1) % 500 == 0:
                    block = rng.uniform(0, 2 * np.pi, (500, runs, K))
                    C1, C2 = np.cos(block), np.sin(block)
                    noise = 0.1 * rng.standard_normal((500, runs))
                c1, c2 = C1[(t - 1) % 500], C2[(t - 1) % 500]
                det = g11 * g22 - g12 * g12
                i11, i12, i22 = g22 / det, -g12 / det, g11 / det
                th1, th2 = i11 * b[:, 0] + i12 * b[:, 1], i12 * b[:, 0] + i22 * b[:, 1]
                width = np.sqrt(i11[:, None] * c1**2 + 2 * i12[:, None] * c1 * c2 + i22[:, None] * c2**2)
                a = np.argmax(c1 * th1[:, None] + c2 * th2[:, None] + width, axis=1)
                x1, x2 = c1[rows_, a], c2[rows_, a]
                X[:, t - 1, 0], X[:, t - 1, 1] = x1, x2
                g11 += x1 * x1
                g12 += x1 * x2
                g22 += x2 * x2
                r = x1 + noise[(t - 1) % 500]  # θ* = e1
                b[:, 0] += x1 * r
                b[:, 1] += x2 * r
        eig_fail, sens_fail = {}, {}
        for t in checks:
            lp = float(lambda_prime(t, lam0, delta))
            A = np.einsum("rti,rtj->rij", X[:, :t], X[:, :t]) + lam * np.eye(d)
            lm = np.linalg.eigvalsh(A)[:, 0]
            Ai = np.linalg.inv(A)
            sens = 2 * np.linalg.norm(np.einsum("rij,rtj->rti", Ai, X[:, :t]), axis=2).max(axis=1)
            eig_fail[t] = frequency_below(int(np.sum(lm < lp)), runs, delta)
            sens_fail[t] = frequency_below(int(np.sum(sens > 2 / lp)), runs, delta)
        out[mode] = {"eigen": eig_fail, "sensitivity": sens_fail}
    ucb_bad = any(v["violated"] for v in out["ucb"]["eigen"].values())
    rnd_bad = any(v["violated"] for v in out["random"]["eigen"].values())
    verdict = "proof gap" if ucb_bad and not rnd_bad else ("no counterexample" if not ucb_bad else "statement violated")
    fr = lambda m, w: ", ".join(f"{v['frequency']:.2f}" for v in out[m][w].values())  # noqa: E731
    return Result(verdict=verdict, points=2 * runs * len(checks),
                  measured=f"d = 2, K = {K} candidates on the circle (λ0 = 1/2), δ = 0.1, {runs} runs: P(λ_min(A_t) < λ'(t)) at "
                  f"t = {checks}: random arms {fr('random', 'eigen')}, UCB arms {fr('ucb', 'eigen')}; actual sensitivity > "
                  f"2L/λ'(t): random {fr('random', 'sensitivity')}, UCB {fr('ucb', 'sensitivity')} — the quoted bound "
                  "needs non-adaptive arms (or Gentile et al.'s variance condition)",
                  evidence={"rows": out, "seed": 82, "lambda0": lam0, "delta": delta})


claim("004-eigen-adaptive", "Lemma 1's eigenvalue bound for UCB-selected arms (sheet check 6.2, §7.3)",
      "under Assumption 1 alone (i.i.d. context sets, λ_min(E xxᵀ) = λ0), P(λ_min(A_t) ≥ λ'(t)) ≥ 1 − δ for the arms "
      "a UCB rule selects (Lemma 1 applies Gentile et al.'s bound to Algorithm 2's A_t)",
      ["seed 004 Lemma 1, Assumption 1", f"{DGS} §3, §4, §6.2, §7.3"], "proof gap", evaluator=_adaptive,
      method="monte-carlo", sheet_checks=("docs/formulas/dgs-contextual.md §6.2",),
      note="UCB = noise-free LinUCB selection (width ‖x‖_{A⁻¹}); random choice is the non-adaptive control")


def _positivity_margin(delta, lam0):
    thr = 2 * math.log(3) / (np.sqrt(1 + 2 * lam0) + 1)
    return np.where(delta > thr, lambda_prime(1.0, lam0, delta), np.nan)


def _positivity_margin_mp(delta, lam0):
    import mpmath

    thr = 2 * mpmath.log(3) / (mpmath.sqrt(1 + 2 * lam0) + 1)
    if not delta > thr:
        raise ValueError("outside the claim's condition")
    L = mpmath.log(4 / delta)
    return lam0 / 4 - 8 * L - 2 * mpmath.sqrt(L)


_POS = Inequality(("delta", "lam0"), _positivity_margin, _positivity_margin_mp, points=4000,
                  text="λ'(1) > 0 when δ > 2 log 3/(√(1+2λ0) + 1)")


def _positivity(dom) -> Result:
    r = _POS.evaluate(dom)
    thr = {l0: 2 * math.log(3) / (math.sqrt(1 + 2 * l0) + 1) for l0 in (0.01, 0.1, 0.217, 1.0)}
    r.evidence.update({"threshold_by_lambda0": thr, "sheet_thresholds": {0.01: 1.093, 0.1: 1.049},
                       "lambda_prime_1_at_delta_0.1_lambda0_1": float(lambda_prime(1.0, 1.0, 0.1)), "sheet_value": -33.1})
    r.measured += f"; λ'(1) = {float(lambda_prime(1.0, 1.0, 0.1)):.1f} at δ = 0.1, λ0 = 1 (sheet −33.1); the threshold exceeds 1 " \
                  f"for λ0 < 0.217 ({thr[0.01]:.3f} at 0.01, {thr[0.1]:.3f} at 0.1)"
    return r


claim("004-positivity", "Lemma 1 remark: positive sensitivity for small t (sheet check 6.3)",
      "choosing δ > 2 log 3/(√(1 + 2λ0) + 1) makes λ'(t) (hence the sensitivity) positive for small t",
      ["seed 004 Sec. 3.2 (after Lemma 1)", f"{DGS} §6.3, §7.2"], "statement violated", evaluator=_positivity,
      inequality=_POS, params=(unit("delta", 0.01, 0.999, open_ends=True), Param("lam0", 0.01, 1.0, (0.0, 1.0, True, False))),
      sheet_checks=("docs/formulas/dgs-contextual.md §6.3",))


def _thm3_table(dom) -> Result:
    from ...bounds import registry
    from ...privacy import ApproxDP

    over = {"d": 10, "L": 1.0, "S": 1.0, "lam": 1.0, "zeta": 0.05, "lam0": 0.0227}
    ctx = registry.make_context("contextual", over)
    b = registry.get("004-thm3")
    rows = []
    burn = 32 * math.log(1 / 0.1) / 0.0227
    sheet = {1e4: (2.0e4, 1.27e5), 1e5: (7.9e4, 4.64e5), 1e6: (3.0e5, 1.64e6)}
    for T, (np_ref, pr_ref) in sheet.items():
        v = b.evaluate([T], ctx, ApproxDP(2.0, 0.1))
        rows.append({"T": T, "nonprivate": float(v.nonprivate[0]), "privacy": float(v.privacy_cost[0]) - burn,
                     "burn_in": burn, "total_over_2T": float(v.value[0]) / (2 * T), "sheet": [np_ref, pr_ref, 3.2e3]})
    match = all(abs(r["nonprivate"] / r["sheet"][0] - 1) < 0.05 and abs(r["privacy"] / r["sheet"][1] - 1) < 0.01
                for r in rows) and abs(burn - 3.2e3) < 60
    vacuous_until = [r["T"] for r in rows if r["total_over_2T"] >= 1]
    return Result(verdict=verdict_of(match, "statement violated"), points=len(rows),
                  measured="Thm 3 terms (d = 10, ε = 2, δ = 0.1, λ0 = 0.0227): " + "; ".join(
                      f"T = {r['T']:.0e}: {r['nonprivate']:.3g} / {r['privacy']:.3g} / {r['burn_in']:.3g}" for r in rows)
                  + f" (sheet table; burn-in 3.2e3 per §0); ≥ 2T — vacuous, no simulation can exceed it — at T = "
                  + ", ".join(f"{t:.0e}" for t in vacuous_until),
                  evidence={"rows": rows, "vacuous_at": vacuous_until})


claim("004-thm3-terms", "Thm 3 evaluation (sheet §3 table, §0, check 6.6)",
      "the three terms of Thm 3 at the synthetic-experiment parameters are ≈ 2.0e4 / 1.27e5 / 3.2e3 (T = 1e4), "
      "7.9e4 / 4.64e5 (1e5), 3.0e5 / 1.64e6 (1e6); the bound is vacuous (≥ 2T) until T ≈ 1e6",
      ["seed 004 Thm 3", f"{DGS} §0, §3, §6.6"], "no counterexample", evaluator=_thm3_table,
      sheet_checks=("docs/formulas/dgs-contextual.md §6.6",),
      note="since per-round regret ≤ 2LS = 2, a simulated regret can never exceed a bound ≥ 2T: the simulation half of "
           "check 6.6 is decided by the vacuity")


def _ellip_const(dom) -> Result:
    from scipy.optimize import minimize_scalar

    res = minimize_scalar(lambda u: -(u**1.5) * math.exp(-u / 2), bounds=(0.1, 30), method="bounded",
                          options={"xatol": 1e-12})
    tmax, vmax = math.exp(res.x), -res.fun
    t = np.linspace(1.01, 400, 20000)
    f2 = np.gradient(np.gradient(np.log(t) ** 1.5 / np.sqrt(t), t), t)
    concave = bool(np.all(f2 <= 1e-9))
    rng = np.random.default_rng(84)
    worst = -math.inf
    for d, lam, T in ((5, 1.0, 3000), (10, 0.5, 3000)):
        X = rng.standard_normal((T, d))
        X /= np.linalg.norm(X, axis=1, keepdims=True)
        A, s = lam * np.eye(d), 0.0
        for x in X:
            s += min(1.0, float(x @ np.linalg.solve(A, x)))
            A += np.outer(x, x)
        worst = max(worst, s / (2 * d * math.log1p(T / (d * lam))))
    ok = abs(vmax - (3 / math.e) ** 1.5) < 1e-9 and abs(tmax - math.e**3) < 1e-3 and worst <= 1
    return Result(verdict=verdict_of(ok, "statement violated"), points=20000 + 6000,
                  measured=f"max_t log^1.5 t/√t = {vmax:.6f} at t = {tmax:.4f} (= (3/e)^1.5 at e³ = {math.e**3:.4f}); "
                  f"the function is {'concave' if concave else 'not concave'} (the text says concave; the maximiser is right); "
                  f"Σ min(1, ‖x‖²_{{A⁻¹}}) / (2d log(1 + TL²/(dλ))) ≤ {worst:.3f}",
                  evidence={"max": vmax, "argmax": tmax, "concave": concave, "elliptical_worst_ratio": worst, "seed": 84})


claim("004-elliptical-constant", "Thm 3 ingredients: elliptical potential and max log^{1.5}t/√t (sheet check 6.7)",
      "Σ_t min(1, ‖x_{a_t}‖²_{A_t⁻¹}) ≤ 2d log(1 + TL²/(dλ)); max_{t≥1} log^{1.5}t/√t = (3/e)^{1.5} ≈ 1.1594 at t = e³",
      ["seed 004 Thm 3 (proof), Abbasi-Yadkori et al. 2011 Lemma 11", f"{DGS} §4, §6.7"], "no counterexample",
      evaluator=_ellip_const, sheet_checks=("docs/formulas/dgs-contextual.md §6.7",))


# ---------------------------------------------------------------------------------------------------
def _dsafe(dom) -> Result:
    """Context sets with E[xxᵀ] = I/2 (the only candidate is e1 or e2, each w.p. 1/2, so λ0 = 1/2) and the
    realisation e2 at round 1, then e1 at every later round: A_t = diag(λ + t − 1, λ + 1), so changing r_1 moves
    θ̂_{t+1} by 2‖A_t⁻¹e2‖ = 2/(λ + 1), while Δ^safe_t = 2L/(λ + λ'(t)) is far smaller once λ'(t) > 1. The 2L/λ
    branch never fails (A_t ⪰ λI); the λ' branch holds only with probability ≥ 1 − δ."""
    lam, lam0, delta, d = 1.0, 0.5, 0.1, 2
    rows = []
    for t in (2000, 5000, 20000):
        X = np.zeros((t, d))
        X[0, 1] = 1.0
        X[1:, 0] = 1.0
        Ai = np.linalg.inv(X.T @ X + lam * np.eye(d))
        exact = float(2 * np.linalg.norm(X @ Ai, axis=1).max())  # max_j 2‖A_t⁻¹x_j‖ (L = 1)
        lp = float(lambda_prime(t, lam0, delta))
        rows.append({"t": t, "lambda_prime": lp, "delta_safe": 2.0 / max(lam, lam + lp), "exact_sensitivity": exact,
                     "branch_2L_over_lam": 2.0 / lam})
    cex = next((r for r in rows if r["delta_safe"] < r["exact_sensitivity"]), None)
    rng = np.random.default_rng(85)
    worst = 0.0
    for _ in range(200):
        X = rng.standard_normal((50, 3))
        X /= np.linalg.norm(X, axis=1, keepdims=True)
        Ai = np.linalg.inv(X.T @ X + lam * np.eye(3))
        worst = max(worst, float(2 * np.linalg.norm(X @ Ai, axis=1).max() / (2.0 / lam)))
    worst = max([worst] + [r["exact_sensitivity"] / r["branch_2L_over_lam"] for r in rows])
    return Result(verdict="statement violated" if cex else "no counterexample", points=len(rows) + 200,
                  counterexample=cex,
                  measured=(f"realisation e2, then e1 (E[xxᵀ] = I/2): at t = {cex['t']} the exact sensitivity is "
                            f"{cex['exact_sensitivity']:.3g} > Δ^safe = 2L/(λ + λ'(t)) = {cex['delta_safe']:.3g}"
                            if cex else "no realisation beat Δ^safe")
                  + f"; the 2L/λ branch is always valid (max exact/(2L/λ) = {worst:.3f} ≤ 1)",
                  evidence={"rows": rows, "worst_ratio_2L_over_lambda_branch": worst, "seed": 85})


claim("004-dsafe-always-valid", "Sheet wording: \"Δ^safe is always valid\" (ERRATA corrections)",
      "Δ^safe_t = 2L/max{λ, λ + λ'(t)} bounds the exact sensitivity for every context sequence (because A_t ⪰ λI)",
      [f"{DGS} §1.2", "ERRATA: corrections to the sheets' wording (dgs)"], "statement violated", evaluator=_dsafe,
      smaller=("dgs: \"Δ^safe is always valid\" holds for the 2L/λ branch only",))


def _sensitivity_experiment(dom) -> Result:
    """Seed 004 Fig. 2(b) replayed (boundcalc.verify.dgs_sensitivity.sensitivity_study: 500 rounds, the reward of round 0,
    100 or 200 raised by 0.5, 5 runs per method, every random draw shared between the original and the changed run)
    and judged part by part (dgs_sensitivity.judge_sensitivity): a part fails only when the runs separate it the other way."""
    from .. import dgs_sensitivity as study_004

    seed = 4
    study = study_004.sensitivity_study(study_004.SENS_T, 5, seed=seed)
    word, parts, text = study_004.judge_sensitivity(study)
    failed = [k for k, v in parts.items() if v == "fails"]
    return Result(verdict="statement violated" if failed else "no counterexample",
                  points=sum(r.runs * (1 + len(r.steps)) for r in study.values()),
                  counterexample={"parts_failed": failed} if failed else None, measured=text,
                  evidence={"parts": parts, "worksheet_word": word, "seed": seed, "T": study_004.SENS_T, "runs": 5,
                            "steps": list(study_004.SENS_STEPS), "shift": study_004.SENS_SHIFT,
                            "summary": {a: r.summary() for a, r in study.items()},
                            "reading": "alpha = 1 shared by the methods, LinUCB-DGS paper schedule (Delta_t = 2L/lambda "
                                       "throughout 500 rounds, sheet §7.9), memoised tree, lambda0 of the pool"})


claim("004-sensitivity-experiment", "Fig. 2(b/c) arm-selection sensitivity (sheet check 6.8)",
      "LinUCB-DGS changes fewer selected arms than LinUCB after one reward change; Private LinUCB changes a similar "
      "number with larger variance; later changes alter fewer arms for every method (synthetic panel, Fig. 2(b))",
      ["seed 004 Sec. 4, Fig. 2", f"{DGS} §5, §6.8, §7.9"], "no counterexample", method="monte-carlo",
      evaluator=_sensitivity_experiment, sheet_checks=("docs/formulas/dgs-contextual.md §6.8",),
      note="our reading of the unstated settings (α, Δ_t, feature normalisation; sheet §5, §7.9), so the verdict tests "
           "that reading. Expected: with the paper's Δ_t still 2L/λ at 500 rounds (sheet §7.9) LinUCB-DGS's tree noise "
           "(Laplace scale 2 log2(500)/ε ≈ 9 per coordinate) dwarfs the 0.5 ||A_t^{-1} x|| <= 0.5 shift of θ̂ that one "
           "changed reward causes, and the noise is shared, so its arms barely move while noise-free LinUCB's do. "
           "Fig. 2(c) (LastFM) is not reproduced (no data set here); \"similar in average\" has no tolerance and is "
           "reported, not judged")


def _register_cor1_audit():
    """seed 004 Cor. 1's privacy statement ("by perturbing every context vector ... Algorithm 2 is (ε, δ)-DP") by the
    LinUCB-DGS audit (boundcalc.audit.scenarios.TreeSigns) with perturb_sigma = 0.1."""
    from ...audit.scenarios import SCENARIOS
    from .audit import _evaluator, _params

    claim("004-audit-linucb-dgs-perturbed", "Cor. 1: LinUCB-DGS with perturbed contexts satisfies its claimed (ε, δ) "
          "guarantee (empirical audit)",
          "LinUCB-DGS whose contexts are perturbed by N(0, 0.1² I) (and projected onto ||x|| <= L) is private as "
          "claimed: on the audit's neighbouring inputs no output event has P_D(E) > e^ε P_D'(E) + δ",
          ["seed 004 Cor. 1", f"{DGS} §2 (Corollary 1 variant)", "docs/audit.md"], "no counterexample",
          evaluator=_evaluator("LinUCB-DGS", "none", {"perturb_sigma": 0.1}), method="monte-carlo",
          params=_params(SCENARIOS["LinUCB-DGS"]),
          note="a lower-bound audit: 'no counterexample' means this audit found none, not that the claim holds; the "
               "noise-halved copy is caught on the same inputs (tests/algorithms/test_dgs_perturbed.py)")


_register_cor1_audit()
