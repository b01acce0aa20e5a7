"""The KL decomposition under ρ-(Interactive) zCDP of seed 003 (Sec. VI-A/B, App. G-A) as evaluable functions,
and the regret lower bound it implies for two bandit instances the user gives (finite or linear).

Sources (Azize & Basu, zCDP bandits — docs/papers.md; sheet docs/formulas/zcdp-bandits.md §1.4, §5.1):

* seed 003 Thm 1 (group privacy for ρ-Interactive zCDP): for a fixed action sequence and two reward sequences
  r, r', Σ_t KL(π_t(·|H_{t−1}) ‖ π_t(·|H'_{t−1})) ≤ ρ·d_Ham(r, r')²  → :func:`group_privacy_kl`;
* seed 003 Thm 16 (Bun–Steinke Prop. 27): D_α(M_d ‖ M_d') ≤ ρ·d_Ham(d, d')²·α  → :func:`group_privacy_renyi`;
* seed 003 Thm 15 (Eq. 26): D_f(M_1 ‖ M_2) ≤ inf_{C ∈ Π(P_1, P_2)} E_C[D_f(M_d ‖ M_d')]
  → :func:`thm15_f_divergence_bound` (the infimum over couplings of two finite data distributions is a linear
  programme, :func:`optimal_transport`);
* seed 003 Thm 6 (Eq. 9): KL(M_1 ‖ M_2) ≤ ρ·inf_C E_C[d_Ham(d, d')²]  → :func:`thm6_kl_bound`;
* seed 003 Thm 7 (Eq. 10): product distributions, t_i = TV(p_{1,i}, p_{2,i}):
  KL ≤ ρ(Σ t_i)² + ρ Σ t_i(1 − t_i)  → :func:`product_kl_bound`;
* seed 003 Thm 8: for a ρ-Interactive zCDP policy π and instances ν, ν' with t_a = TV(P_a, P'_a),
  KL(m_νπ ‖ m_ν'π) ≤ ρ([E Σ_t t_{a_t}]² + E Σ_t t_{a_t}(1 − t_{a_t}) + Var(Σ_t t_{a_t}))  → :func:`thm8_kl_bound`;
* the lower bound: Bretagnolle–Huber (seed 003 Lemma 6) with the event {N_{S}(T) ≤ T/2}, S the optimal arms
  of ν, exactly as in the proof of seed 003 Thm 17 (App. G-B1, Steps 2–3):
  Reg_T(π, ν) + Reg_T(π, ν') ≥ (T·c/4)·exp(−KL(m_νπ ‖ m_ν'π)), c = min(Δ_min(ν), min_{i ∈ S} Δ_i(ν'))
  → :func:`implied_lower_bound`. The non-private divergence decomposition (Lattimore–Szepesvári Lemma 15.1,
  KL ≤ Σ_a E[N_a] KL(P_a, P'_a), used in seed 003 App. G for the non-private terms) holds for the same
  policies; the smaller of the two KL bounds is the one used.

Arm reward laws of an :class:`boundcalc.envs.spec.Instance` (docs/instances.md): finite Bernoulli(μ_a) or
N(μ_a, σ²); linear: rewards of mean ⟨a, θ*⟩, ``rademacher`` (±1 with P(+1) = (1 + m)/2) or N(m, σ²).
Pure numpy/scipy; nothing here imports the CLI.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np
from scipy.special import erf

from ..errors import InputError, ParamName, flag
from ..info import kl_bernoulli


# ----------------------------------------------------------------------------------------------------
# group privacy (seed 003 Thm 1, Thm 16) and product couplings (Thm 7)
# ----------------------------------------------------------------------------------------------------
def _rho(rho) -> float:
    try:
        r = float(rho)
    except (TypeError, ValueError):
        raise InputError("rho", "a number > 0", rho) from None
    if not (r > 0 and math.isfinite(r)):
        raise InputError("rho", "a finite number > 0", rho)
    return r


def group_privacy_kl(rho, d_ham):
    """seed 003 Thm 1: Σ_t KL(π_t(·|H_{t−1}) ‖ π_t(·|H'_{t−1})) ≤ ρ·d_Ham(r, r')² (ρ-Interactive zCDP policy)."""
    return _rho(rho) * np.asarray(d_ham, dtype=float) ** 2


def group_privacy_renyi(rho, d_ham, alpha):
    """seed 003 Thm 16 (Bun–Steinke 2016 Prop. 27): D_α(M_d ‖ M_d') ≤ ρ·d_Ham(d, d')²·α for α ≥ 1."""
    a = np.asarray(alpha, dtype=float)
    if np.any(~(a >= 1)):
        raise InputError("alpha", "α ≥ 1 (seed 003 Thm 16)", alpha)
    return _rho(rho) * np.asarray(d_ham, dtype=float) ** 2 * a


def product_kl_bound(t, rho):
    """seed 003 Thm 7 (Eq. 10): KL(M_1 ‖ M_2) ≤ ρ(Σ_i t_i)² + ρ Σ_i t_i(1 − t_i), t_i = TV(p_{1,i}, p_{2,i}).

    Under the product of maximal couplings d_Ham ~ Σ_i Bernoulli(t_i), whose second moment is this bracket.
    """
    t = np.asarray(t, dtype=float)
    if t.ndim != 1 or np.any(~((t >= 0) & (t <= 1))):
        raise InputError("t", "total variations in [0, 1]", t.tolist() if t.ndim else float(t))
    return _rho(rho) * (float(t.sum()) ** 2 + float(np.sum(t * (1 - t))))


# ----------------------------------------------------------------------------------------------------
# transport (seed 003 Thm 6, Thm 15)
# ----------------------------------------------------------------------------------------------------
def _prob_vector(name, p):
    p = np.asarray(p, dtype=float)
    if p.ndim != 1 or p.size == 0 or np.any(~(p >= 0)) or abs(p.sum() - 1) > 1e-9:
        raise InputError(name, "probabilities (≥ 0, summing to 1)", p.tolist() if p.ndim else float(p))
    return p / p.sum()


def optimal_transport(p, q, cost):
    """(min_C Σ C_ij cost_ij, C) over couplings C of p and q (row sums p, column sums q): a linear programme.

    The infimum of seed 003 Eq. 9 / Eq. 26 for finitely supported data distributions (scipy.optimize.linprog,
    HiGHS). ``cost`` is the len(p) × len(q) matrix.
    """
    from scipy.optimize import linprog

    p, q = _prob_vector("p", p), _prob_vector("q", q)
    c = np.asarray(cost, dtype=float)
    if c.shape != (p.size, q.size) or not np.all(np.isfinite(c)):
        raise InputError("cost", f"a finite {p.size} × {q.size} matrix", c.shape)
    n, m = c.shape
    A = np.zeros((n + m, n * m))
    for i in range(n):
        A[i, i * m:(i + 1) * m] = 1.0
    for j in range(m):
        A[n + j, j::m] = 1.0
    res = linprog(c.ravel(), A_eq=A, b_eq=np.concatenate([p, q]), bounds=(0, None), method="highs")
    if not res.success:  # pragma: no cover - a transport problem with these marginals is always feasible
        raise RuntimeError(res.message)
    return float(res.fun), res.x.reshape(n, m)


def maximal_coupling(p, q):
    """(C, TV): the maximal coupling c_∞(p, q) of seed 003 Prop 3 for two laws on one finite set, and TV(p ‖ q).

    Mass m_x = min(p_x, q_x) on the diagonal and the residuals (p − m)(q − m)ᵀ/TV off it (Lindvall 1992; Levin,
    Peres & Wilmer, Markov Chains and Mixing Times, Prop. 4.7): its marginals are p and q and, the residuals having
    disjoint supports, P_C(X ≠ Y) = 1 − Σ_x m_x = TV(p ‖ q) = ½‖p − q‖₁, the smallest value over all couplings (the
    coupling seed 003 Thm 7 and Thm 8 take per coordinate / per round).
    """
    p, q = _prob_vector("p", p), _prob_vector("q", q)
    if p.size != q.size:
        raise InputError("q", f"a law on the same {p.size} points as p", q.size)
    m = np.minimum(p, q)
    tv = float(max(0.0, 1.0 - m.sum()))
    C = np.diag(m)
    if tv > 0:
        C = C + np.outer(p - m, q - m) / tv
    return C, tv


def hamming(d1, d2) -> int:
    """d_Ham: the number of positions where two equal-length datasets differ (seed 003 Thm 1 / Thm 6)."""
    a, b = np.asarray(d1), np.asarray(d2)
    if a.shape != b.shape:
        raise InputError("datasets", "datasets of the same length", f"{a.shape} vs {b.shape}")
    return int(np.sum(a != b))


def thm6_kl_bound(datasets1: Sequence, p1, datasets2: Sequence, p2, rho) -> float:
    """seed 003 Thm 6: KL(M_1 ‖ M_2) ≤ ρ·inf_{C ∈ Π(P_1, P_2)} E_C[d_Ham(d, d')²] for any ρ-zCDP mechanism M.

    P_ν = Σ_k p_ν[k]·δ_{datasets_ν[k]}: finitely supported data distributions; the infimum is solved exactly.
    """
    cost = np.array([[hamming(x, y) ** 2 for y in datasets2] for x in datasets1], dtype=float)
    return _rho(rho) * optimal_transport(p1, p2, cost)[0]


def thm15_f_divergence_bound(p1, p2, divergences) -> float:
    """seed 003 Thm 15 (Eq. 26): D_f(M_1 ‖ M_2) ≤ inf_C E_{(d, d') ~ C}[D_f(M_d ‖ M_d')].

    ``divergences[i][j]`` = D_f(M_{d_i} ‖ M_{d'_j}) for the support points of P_1 (rows) and P_2 (columns).
    """
    return optimal_transport(p1, p2, divergences)[0]


# ----------------------------------------------------------------------------------------------------
# arm laws of an Instance
# ----------------------------------------------------------------------------------------------------
def _arm_laws(inst):
    """(kind, means, sigma) of the arms' reward laws: kind ∈ {bernoulli, gaussian, rademacher}."""
    if inst.setting == "finite":
        fam = inst.family or "bernoulli"
        return fam, inst.array("means"), float(inst.sigma or 1.0)
    if inst.setting == "linear":
        m = inst.array("actions") @ inst.array("theta")
        return inst.noise, m, float(inst.sigma or 1.0)
    raise InputError(ParamName("setting"), "finite or linear (seed 003 Thm 8 needs a fixed arm set)", inst.setting)


def _check_pair(a, b):
    if a.setting != b.setting:
        raise InputError(ParamName("alt"), f"an instance of the same setting as {flag('instance_file')} ({a.setting})", b.setting)
    ka, ma, sa = _arm_laws(a)
    kb, mb, sb = _arm_laws(b)
    if ka != kb or (ka == "gaussian" and sa != sb):
        raise InputError(ParamName("alt"), f"the same reward family as {flag('instance_file')} ({ka}, σ = {sa:g})", f"{kb}, σ = {sb:g}")
    if ma.size != mb.size:
        raise InputError(ParamName("alt"), f"{ma.size} arms (as {flag('instance_file')})", mb.size)
    if a.setting == "linear" and not np.array_equal(a.array("actions"), b.array("actions")):
        raise InputError(ParamName("alt"), f"the same action set as {flag('instance_file')} (only θ* may differ)", "other actions")
    return ka, ma, mb, sa


def arm_tv(kind: str, m1, m2, sigma: float = 1.0):
    """Per-arm TV(P_a, P'_a) (the t_a of seed 003 Thm 8).

    Bernoulli: |μ − μ'|; Rademacher (±1, mean m): |m − m'|/2; Gaussian with equal σ: 2Φ(|μ − μ'|/(2σ)) − 1
    = erf(|μ − μ'|/(2√2 σ)) (the densities cross at the midpoint).
    """
    d = np.abs(np.asarray(m1, float) - np.asarray(m2, float))
    if kind == "bernoulli":
        return d
    if kind == "rademacher":
        return d / 2
    if kind == "gaussian":
        return erf(d / (2 * math.sqrt(2) * sigma))
    raise InputError("family", "bernoulli, gaussian or rademacher", kind)


def arm_kl(kind: str, m1, m2, sigma: float = 1.0):
    """Per-arm KL(P_a, P'_a): Bernoulli kl(μ, μ'); Rademacher kl((1+m)/2, (1+m')/2); Gaussian (μ − μ')²/(2σ²)."""
    m1, m2 = np.asarray(m1, float), np.asarray(m2, float)
    if kind == "bernoulli":
        return np.asarray(kl_bernoulli(m1, m2), float)
    if kind == "rademacher":
        return np.asarray(kl_bernoulli((1 + m1) / 2, (1 + m2) / 2), float)
    if kind == "gaussian":
        return ((m1 - m2) / np.float64(sigma)) ** 2 / 2  # numpy floats: σ = 1e300 gives 0, not OverflowError
    raise InputError("family", "bernoulli, gaussian or rademacher", kind)


# ----------------------------------------------------------------------------------------------------
# Thm 8 and the lower bound it implies
# ----------------------------------------------------------------------------------------------------
def thm8_kl_bound(t, T, rho, pulls=None, variance=None) -> dict:
    """seed 003 Thm 8: KL(m_νπ ‖ m_ν'π) ≤ ρ([E s]² + E Σ_t t_{a_t}(1 − t_{a_t}) + Var s), s = Σ_t t_{a_t}.

    ``pulls``: the policy's expected pull counts E_νπ[N_a(T)] (summing to T); then E s = Σ_a n_a t_a and
    E Σ t(1 − t) = Σ_a n_a t_a(1 − t_a). ``variance``: Var_νπ(s) if known; otherwise the Bhatia–Davis bound
    Var s ≤ (E s − T t_min)(T t_max − E s) (s ∈ [T t_min, T t_max]; seed 003 App. G-B1 uses its one-arm case
    Var N_a ≤ E N_a (T − E N_a)). Without ``pulls``: the worst case over all policies,
    E[s²] ≤ (T t_max)² and E Σ t(1 − t) ≤ T max_a t_a(1 − t_a). Returns the bound and its three terms.
    """
    t = np.asarray(t, dtype=float)
    rho = _rho(rho)
    T = float(T)
    if not (T >= 1):
        raise InputError("T", "a horizon ≥ 1", T)
    if pulls is None:
        if variance is not None:
            raise InputError(ParamName("variance"), f"given together with {flag('pulls')}", variance)
        es2 = (T * t.max()) ** 2
        e1 = T * float(np.max(t * (1 - t)))
        return {"bound": rho * (es2 + e1), "mean_sq": es2, "sum_t_one_minus_t": e1, "variance": None,
                "form": "worst case over policies: ρ((T·max t_a)² + T·max t_a(1 − t_a))"}
    n = np.asarray(pulls, dtype=float)
    if n.shape != t.shape or np.any(~(n >= 0)) or abs(n.sum() - T) > 1e-6 * max(T, 1):
        raise InputError(ParamName("pulls"), f"{t.size} expected pull counts ≥ 0 summing to T = {T:g}",
                         n.tolist() if n.ndim else float(n))
    es = np.float64(n @ t)  # numpy: es**2 beyond float is inf (a Python float raised OverflowError)
    e1 = float(n @ (t * (1 - t)))
    if variance is None:
        var = max(0.0, (es - T * t.min()) * (T * t.max() - es))
        form = "Var s by Bhatia–Davis (E s − T t_min)(T t_max − E s)"
    else:
        var = float(variance)
        if not (var >= 0 and math.isfinite(var)):
            raise InputError(ParamName("variance"), "a finite number ≥ 0", variance)
        form = "Var s as given"
    return {"bound": float(rho * (es**2 + e1 + var)), "mean_sq": float(es**2), "sum_t_one_minus_t": e1, "variance": var,
            "form": form}


def _gaps(m):
    return float(np.max(m)) - m


def implied_lower_bound(m1, m2, T, kl) -> dict:
    """Reg_T(π, ν) + Reg_T(π, ν') ≥ (T·c/4)·exp(−KL) (Bretagnolle–Huber, seed 003 Lemma 6, as in App. G-B1).

    S = the optimal arms of ν (means m1), E = {N_S(T) ≤ T/2}: Reg(ν) ≥ (T/2)Δ_min(ν)P_ν(E) and
    Reg(ν') ≥ (T/2)min_{i ∈ S}Δ_i(ν')P_ν'(E^c); P(E) + Q(E^c) ≥ exp(−KL)/2. c = 0 (no bound) when an optimal
    arm of ν is optimal in ν' too, or ν has no suboptimal arm. Also max(Reg(ν), Reg(ν')) ≥ half the sum.
    """
    m1, m2 = np.asarray(m1, float), np.asarray(m2, float)
    g1, g2 = _gaps(m1), _gaps(m2)
    S = g1 == 0
    pos = g1[~S]
    c = 0.0 if pos.size == 0 else float(min(pos.min(), g2[S].min()))
    # c/2 from the halved means: finite even where c overflows (means ±1e308); c/2·exp(−KL) first, then the factors,
    # so that a c beyond float times exp(−KL) = 0 is 0, not inf·0 = NaN (issue 22 §4); KL = ∞: no information, 0
    h1, h2 = _gaps(m1 / 2), _gaps(m2 / 2)
    half = 0.0 if pos.size == 0 else float(min(h1[~S].min(), h2[S].min()))
    total = 0.0 if math.isinf(kl) or c == 0 else half * math.exp(-kl) * 2 * T / 4
    return {"c": c, "sum_lower": total, "max_lower": total / 2}


def lower_bound_report(inst, alt, rho, T, pulls=None, variance=None) -> dict:
    """Everything `boundcalc lower` prints for instances ν = ``inst``, ν' = ``alt``, budget ρ and horizon T.

    KL bounds in both directions (Thm 8 private, divergence decomposition non-private, the smaller used), and
    the lower bound on Reg(ν) + Reg(ν') and on max(Reg(ν), Reg(ν')) for every ρ-Interactive zCDP policy
    (with ``pulls``: for the policies with those expected pull counts under ν).
    """
    with np.errstate(over="ignore", invalid="ignore"):  # extreme inputs (|μ| ~ 1e308, ρ ~ 1e308) give ∞, not warnings
        return _report(inst, alt, rho, T, pulls, variance)


def _report(inst, alt, rho, T, pulls, variance) -> dict:
    kind, m1, m2, sigma = _check_pair(inst, alt)
    T = float(T)
    t = np.asarray(arm_tv(kind, m1, m2, sigma), float)
    kl_arm = np.asarray(arm_kl(kind, m1, m2, sigma), float)
    priv = thm8_kl_bound(t, T, rho, pulls, variance)
    if pulls is None:
        nonpriv = float(T * kl_arm.max())
    else:
        n = np.asarray(pulls, float)
        nonpriv = float(np.sum(np.where(n > 0, n * kl_arm, 0.0)))  # 0 pulls of an arm with KL = ∞ cost nothing
    kl_used = min(priv["bound"], nonpriv)
    lb = implied_lower_bound(m1, m2, T, kl_used)
    # reverse direction (ν' as the reference; the worst-case Thm 8 bound is symmetric in t)
    priv_r = thm8_kl_bound(t, T, rho) if pulls is None else None
    out = {
        "family": kind, "T": T, "rho": float(rho),
        "tv_per_arm": t.tolist(), "kl_per_arm": kl_arm.tolist(),
        "kl_bound_private": priv["bound"], "kl_bound_private_terms": priv,
        "kl_bound_nonprivate": nonpriv, "kl_bound_used": kl_used,
        "privacy_binds": bool(priv["bound"] < nonpriv),
        "lower_bound": lb,
        "sources": ["seed 003 Thm 8", "seed 003 Thm 1", "seed 003 Lemma 6 (Bretagnolle–Huber)",
                    "seed 003 App. G-B1 (proof of Thm 17, Steps 2–3)"],
    }
    if priv_r is not None:
        kl_r = min(priv_r["bound"], float(T * np.max(np.asarray(arm_kl(kind, m2, m1, sigma), float))))
        out["lower_bound_reversed"] = implied_lower_bound(m2, m1, T, kl_r)
        best = max(lb["sum_lower"], out["lower_bound_reversed"]["sum_lower"])
        out["best_sum_lower"] = best
        out["best_max_lower"] = best / 2
    else:
        out["best_sum_lower"] = lb["sum_lower"]
        out["best_max_lower"] = lb["max_lower"]
    return out
