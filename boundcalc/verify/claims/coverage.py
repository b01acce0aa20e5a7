"""Confidence sets checked by Monte Carlo coverage (issue 16 item 5): does θ* stay in the set the algorithm uses?

* seed 003 Thm 14 (AdaC-OFUL, ρ-zCDP) and seed 000 Thm 17 (AdaR-OFUL, (α, ε)-RDP): with probability 1 − O(δ)
  (the proof's union of E1, E2, E3: 1 − 3δ, ERRATA 13), for all t, ‖θ̃_t − θ*‖_{V_t} ≤ β̃_t = β_t + γ_t/√t — with the
  explicit β_t, γ_t/√t of docs/formulas/zcdp-bandits.md §4.2 / rdp-bandits.md §2.4 as the algorithms compute them
  (``RSOFUL.beta`` and ``RSOFUL.gamma_over_sqrt``: the actual number of noise vectors, the max(0, ·) safeguard of the
  denominator). Assumption 2 (i.i.d. contexts, ‖A‖ = 1, Var[(zᵀA)²] ≤ λ0²/(8 log 4k)) cannot hold for d ≥ 2
  (ERRATA 1), so the instance inside the assumptions is d = 1: every arm's context ±1 with probability 1/2
  (‖A‖ = 1, (zA)² = 1 has variance 0, λ0 = 1), θ* = 0.5, ±1 rewards of mean xθ*, λ = 1 (ERRATA 11), C = 1.
* seed 004 Lemma 2 (LinUCB-DGS): with probability ≥ 1 − 2ζ, ‖θ̂ᵖ_t − θ*‖_{A_t} ≤ α_t. Two widths: the printed one
  (Eq. 4, :func:`lemma2_alpha_printed`) and the DERIVED consistent width the algorithm uses
  (``LinUCB.widths``: √(λ + L²t) η̄_{t−1} + R √(d log((1 + tL²/λ)/ζ)) + √λ S, docs/formulas/dgs-contextual.md §2).
  Instance: the contextual default (seed 003 Sec. VII contexts projected on the unit ball, d = 3, K = 10, ‖θ*‖ = 1,
  ±1 rewards), inside Assumption 1 (i.i.d. contexts with λ_min(E xxᵀ) = λ0 > 0, ‖x‖ ≤ L = 1, ‖θ*‖ ≤ S = 1).

Each claim runs the algorithm (its own arm selection, so the actions are adapted as in the theorems) for ``runs``
independent runs of ``T`` rounds from a fixed seed, counts the runs in which θ* leaves the set at some round and
the (run, round) pairs outside, and compares the run frequency with the stated failure probability by a
Clopper–Pearson interval (``evaluators.frequency_below``: violated only if the whole 95% interval lies above it).
``width_scale`` and ``drop_gamma`` / ``noise_mult`` exist for the tests' mutants (a set too small must fail).
"""

from __future__ import annotations

import math

import numpy as np

from ..box import integer, positive, unit
from .evaluators import frequency_below
from .registry import Result, claim

ZCDP = "docs/formulas/zcdp-bandits.md"
RDP = "docs/formulas/rdp-bandits.md"
DGS = "docs/formulas/dgs-contextual.md"


# -- seed 003 Thm 14 / seed 000 Thm 17 -------------------------------------------------------------------------
def oful_coverage(alg, T: int, runs: int, seed: int, theta=(0.5,), K: int = 2, width_scale: float = 1.0,
                  drop_gamma: bool = False) -> dict:
    """Coverage of AdaC-OFUL / AdaR-OFUL's confidence set on the d = 1 instance of the module docstring.

    A vectorised replay of seed 003 Algorithm 3 / seed 000 Algorithm 4 (the same steps as ``RSOFUL.reference``):
    V_0 = λ, θ̃ = 0, τ = 0; at round t, if log det V_{t−1} > log det V_τ + log(1 + C): a noise vector
    Y ~ N(0, s² I) joins the sum, θ̃ = V_{t−1}^{−1}(Σ x_s r_s + Σ Y), τ = t − 1 and β̃ = β_τ + γ_τ/√τ (``alg``'s own
    functions). The set in force at round t is {θ : ‖θ̃ − θ‖_{V_τ} ≤ β̃}; θ* outside it counts for (run, t).
    Returns counts and the largest ratio ‖θ̃ − θ*‖_{V_τ} / β̃ seen (the slack of the set)."""
    theta = np.asarray(theta, dtype=float)
    d = theta.size
    rng = np.random.default_rng(seed)
    lam0 = 1.0  # E[x x^T] for x = +-1
    V = np.broadcast_to(alg.lam * np.eye(d), (runs, d, d)).copy()
    b = np.zeros((runs, d))
    Nsum = np.zeros((runs, d))
    th = np.zeros((runs, d))
    Vtau = V.copy()
    ld_tau = np.full(runs, d * math.log(alg.lam))
    bt = np.full(runs, float(alg.beta(0, d)) * width_scale)
    n_upd = np.zeros(runs)
    out_any = np.zeros(runs, dtype=bool)
    out_rounds = 0
    worst = 0.0
    s = math.sqrt(alg.noise_var) * alg.noise_mult
    for t in range(1, T + 1):
        ld = np.linalg.slogdet(V)[1]
        sw = ld > ld_tau + math.log1p(alg.C)
        if sw.any():
            n_upd[sw] += 1
            Nsum[sw] += s * rng.standard_normal((int(sw.sum()), d))
            th[sw] = np.linalg.solve(V[sw], (b[sw] + Nsum[sw])[..., None])[..., 0]
            Vtau[sw] = V[sw]
            ld_tau[sw] = ld[sw]
            g = 0.0 if drop_gamma else alg.gamma_over_sqrt(np.full(int(sw.sum()), t - 1.0), n_upd[sw], d, T, lam0)
            bt[sw] = (alg.beta(np.full(int(sw.sum()), t - 1.0), d) + g) * width_scale
        e = th - theta
        err = np.sqrt(np.einsum("ni,nij,nj->n", e, Vtau, e))
        outside = err > bt
        out_any |= outside
        out_rounds += int(outside.sum())
        worst = max(worst, float(np.max(err / bt)))
        X = rng.choice([-1.0, 1.0], size=(runs, K, d))
        Vinv = np.linalg.inv(Vtau)
        score = np.einsum("nkd,nd->nk", X, th) + bt[:, None] * np.sqrt(np.einsum("nkd,nde,nke->nk", X, Vinv, X))
        a = score.argmax(axis=1)
        x = X[np.arange(runs), a]
        m = x @ theta
        r = np.where(rng.random(runs) < (1 + m) / 2, 1.0, -1.0)
        V += np.einsum("ni,nj->nij", x, x)
        b += x * r[:, None]
    return {"runs": runs, "T": T, "runs_outside": int(out_any.sum()), "rounds_outside": out_rounds,
            "round_fraction": out_rounds / (runs * T), "max_ratio": worst, "seed": seed,
            "updates_mean": float(n_upd.mean())}


def _oful_claim_evaluator(make, paper_label: str, budget_text: str):
    def ev(dom) -> Result:
        T, runs, delta = int(dom.value("T")), int(dom.value("runs")), float(dom.value("delta"))
        alg = make(dom, delta)
        cov = oful_coverage(alg, T, runs, seed=int(dom.value("seed")))
        return coverage_result(cov, 3 * delta, f"{paper_label}: θ* outside the set of {alg.name} ({budget_text(dom)}, "
                               f"d = 1, K = 2, λ = {alg.lam:g}, C = {alg.C:g}, δ = {delta:g})", "3δ (stated 1 − O(δ); the proof's good event "
                               "has probability ≥ 1 − 3δ, ERRATA 13)")

    return ev


def coverage_result(cov: dict, level: float, what: str, level_text: str) -> Result:
    """The verdict of a coverage count: 'statement violated' iff the 95% Clopper–Pearson interval of the fraction of
    runs in which θ* left the set lies above ``level``; else 'no counterexample'."""
    fb = frequency_below(cov["runs_outside"], cov["runs"], level)
    ok = not fb["violated"]
    ev = dict(cov, level=level, clopper_pearson_95=[fb["ci_low"], fb["ci_high"]], frequency=fb["frequency"])
    measured = (f"{what}: {cov['runs_outside']}/{cov['runs']} runs (95% CP [{fb['ci_low']:.3g}, {fb['ci_high']:.3g}]) "
                f"vs failure probability {level:.3g} = {level_text}; {cov['rounds_outside']} of {cov['runs'] * cov['T']} "
                f"(run, round) pairs outside; largest ‖estimate − θ*‖/width {cov['max_ratio']:.3g}")
    return Result(verdict="no counterexample" if ok else "statement violated", measured=measured, evidence=ev,
                  points=cov["runs"], finding=("covered" if ok else "undercovers") + f": {cov['runs_outside']}/{cov['runs']} "
                  "runs outside")


def _adac(dom, delta):
    from ...algorithms.contextual.oful import AdaCOFUL

    return AdaCOFUL(float(dom.value("rho")), lam=1.0, C=1.0, delta=delta, S=0.5, lambda0=1.0)


def _adar(dom, delta):
    from ...algorithms.contextual.oful import AdaROFUL

    return AdaROFUL(float(dom.value("alpha")), float(dom.value("epsilon")), lam=1.0, C=1.0, delta=delta, S=0.5,
                    lambda0=1.0)


_COMMON = (integer("T", 300, minimum=2, doc="rounds per run"), integer("runs", 400, doc="independent runs"),
           integer("seed", 16, minimum=0, doc="numpy seed"))

claim("003-thm14-coverage", "Thm 14: private least-squares confidence set of AdaC-OFUL, Monte Carlo coverage",
      "with probability 1 − O(δ) (the proof: 1 − 3δ), for all t ≤ T, ‖θ̃_t − θ*‖_{V_t} ≤ β_t + γ_t/√t (explicit "
      "β_t, γ_t of the sheet, as AdaC-OFUL computes them) — on d = 1, contexts ±1 (inside Assumptions 1–2)",
      ["seed 003 Thm 14 (App. F-A)", "ERRATA 13", "ERRATA 1", f"{ZCDP} §4.2"], "no counterexample",
      evaluator=_oful_claim_evaluator(_adac, "seed 003 Thm 14", lambda dom: f"ρ = {dom.value('rho'):g}"),
      method="monte-carlo", errata=(13,), sheet_checks=(f"{ZCDP} §4.2",),
      params=_COMMON + (positive("rho", 0.01), unit("delta", 0.05, open_ends=True)),
      note="Assumption 2 cannot hold for d ≥ 2 (ERRATA 1): d = 1 is the only dimension inside the assumptions")

claim("000-thm17-coverage", "Thm 17: private least-squares confidence set of AdaR-OFUL, Monte Carlo coverage",
      "with probability 1 − O(δ) (the proof: 1 − 3δ), for all t ≤ T, ‖θ̃_t − θ*‖_{V_t} ≤ β_t + γ_t/√t (explicit "
      "β_t, γ_t of the sheet, as AdaR-OFUL computes them) — on d = 1, contexts ±1 (inside Assumptions 1–2)",
      ["seed 000 Thm 17 (App. D.1)", "ERRATA 1", f"{RDP} §3.3"], "no counterexample",
      evaluator=_oful_claim_evaluator(_adar, "seed 000 Thm 17",
                                      lambda dom: f"α = {dom.value('alpha'):g}, ε = {dom.value('epsilon'):g}"),
      method="monte-carlo", sheet_checks=(f"{RDP} §3.3",),
      params=_COMMON + (positive("alpha", 2.0), positive("epsilon", 0.05), unit("delta", 0.05, open_ends=True)),
      note="Assumption 2 cannot hold for d ≥ 2 (ERRATA 1): d = 1 is the only dimension inside the assumptions")


# -- seed 004 Lemma 2 ----------------------------------------------------------------------------------------
def lemma2_alpha_printed(t, T, d, L, lam, S, eps, zeta):
    """α_t as printed in seed 004 Lemma 2 (Eq. 4), the width of ‖θ̂ᵖ_t − θ*‖_{A_t} with probability ≥ 1 − 2ζ:

        α_t = (L/ε) log T √(log t · log(1/ζ)) / √t + √(d log((1 + t L² λ)/ζ)) + √λ S.

    docs/formulas/dgs-contextual.md §2 (as printed; the sheet's §7 item 7: the first term drops the 32, one L and
    1/λ0 of Theorem 2's noise bound, and λ should divide in the second term)."""
    t = np.asarray(t, dtype=float)
    return ((L / eps) * math.log(T) * np.sqrt(np.log(t) * math.log(1 / zeta)) / np.sqrt(t)
            + np.sqrt(d * np.log((1 + t * L**2 * lam) / zeta)) + math.sqrt(lam) * S)


def dgs_coverage(T: int, runs: int, seed: int, eps: float = 2.0, delta: float = 0.1, zeta: float = 0.05,
                 width_scale: float = 1.0, noise_mult: float = 1.0) -> dict:
    """Coverage of LinUCB-DGS's ‖θ̂ᵖ_t − θ*‖_{A_t} by the printed α_t (Lemma 2) and by the algorithm's own width,
    on the contextual default instance (module docstring), t = 2..T (θ̂ᵖ_1 = 0 carries no noise yet).

    The algorithm runs unchanged (``simulate``); a subclass records, after each step t, θ̂ᵖ_{t+1} (``_estimate``)
    and A_{t+1}⁻¹ (its argument), and the widths α_t it computed for its arm choices (``widths``)."""
    from ...algorithms.contextual.linucb import LinUCBDGS
    from ..adapters import _contextual_env
    from ...bounds import registry

    ctx = registry.make_context("contextual", {})
    env = _contextual_env(ctx)
    d = env.d

    class Recording(LinUCBDGS):
        def _estimate(self, A_inv, b, eta):
            th = super()._estimate(A_inv, b, eta)
            e = th - env.theta
            err.append(np.sqrt(np.einsum("ni,ni->n", e, np.linalg.solve(A_inv, e[..., None])[..., 0])))
            return th

        def widths(self, t, d, etabar_prev):
            w = super().widths(t, d, etabar_prev)
            own.append(np.asarray(w, dtype=float))
            return w

    err: list = []
    own: list = []
    alg = Recording(eps, delta, lam=1.0, L=1.0, S=1.0, zeta=zeta, noise_mult=noise_mult)
    alg.simulate(env, T, runs, np.random.default_rng(seed), np.array([float(T)]))
    E = np.stack(err[:-1], axis=1)  # (runs, T-1): ‖θ̂ᵖ_t − θ*‖_{A_t} for t = 2..T
    t = np.arange(2, T + 1)
    widths = {"printed": lemma2_alpha_printed(t, T, d, 1.0, 1.0, 1.0, eps, zeta) * width_scale,
              "algorithm": np.concatenate(own)[1:T] * width_scale}
    out = {}
    for k, w in widths.items():
        outside = E > w[None, :]
        out[k] = {"runs": runs, "T": T, "runs_outside": int(outside.any(axis=1).sum()),
                  "rounds_outside": int(outside.sum()), "round_fraction": float(outside.mean()),
                  "max_ratio": float((E / w[None, :]).max()), "seed": seed,
                  "first_round_outside": int(t[outside.any(axis=0)][0]) if outside.any() else None}
    return out


def _dgs_evaluator(which: str):
    def ev(dom) -> Result:
        T, runs, zeta = int(dom.value("T")), int(dom.value("runs")), float(dom.value("zeta"))
        eps = float(dom.value("epsilon"))
        cov = dgs_coverage(T, runs, int(dom.value("seed")), eps=eps, zeta=zeta)[which]
        label = "printed α_t (Eq. 4)" if which == "printed" else "LinUCB-DGS's own width (DERIVED, sheet §2)"
        return coverage_result(cov, 2 * zeta, f"seed 004 Lemma 2, {label}: θ* outside (ε = {eps:g}, δ = 0.1, d = 3, "
                               "K = 10, λ = L = S = 1)", "2ζ (stated 1 − 2ζ)")

    return ev


_DGS_PARAMS = (integer("T", 200, minimum=2, doc="rounds per run"), integer("runs", 100, doc="independent runs"),
               integer("seed", 16, minimum=0, doc="numpy seed"), positive("epsilon", 2.0),
               unit("zeta", 0.05, open_ends=True))

claim("004-lemma2-alpha-printed", "Lemma 2 (Eq. 4): the printed α_t covers θ* with probability ≥ 1 − 2ζ",
      "‖θ̂ᵖ_t − θ*‖_{A_t} ≤ (L/ε) log T √(log t log(1/ζ))/√t + √(d log((1 + tL²λ)/ζ)) + √λ S for all t, with "
      "probability ≥ 1 − 2ζ (LinUCB-DGS on the contextual default instance, inside Assumption 1)",
      ["seed 004 Lemma 2 (Eq. 4)", f"{DGS} §2", f"{DGS} §7 item 7"], "statement violated",
      evaluator=_dgs_evaluator("printed"), method="monte-carlo", sheet_checks=(f"{DGS} §7",), params=_DGS_PARAMS,
      note="the sheet (§7 item 7): the printed privacy term drops the 32, one L and 1/λ0 of Theorem 2's noise bound")

claim("004-lemma2-alpha-derived", "Lemma 2, the consistent width LinUCB-DGS uses: coverage ≥ 1 − 2ζ",
      "‖θ̂ᵖ_t − θ*‖_{A_t} ≤ √(λ + L²t) η̄_{t−1} + R √(d log((1 + tL²/λ)/ζ)) + √λ S for all t, with probability "
      "≥ 1 − 2ζ (DERIVED, sheet §2; LinUCB-DGS on the contextual default instance)",
      ["seed 004 Lemma 2", f"{DGS} §2 (DERIVED consistent version)", f"{DGS} §1.4"], "no counterexample",
      evaluator=_dgs_evaluator("algorithm"), method="monte-carlo", sheet_checks=(f"{DGS} §2",), params=_DGS_PARAMS)
