"""Linear contextual bandits: AdaC-OFUL (seed 003 Thm 5 / Thm 14), AdaR-OFUL (seed 000 Thm 10 / Thm 17),
non-private RS-OFUL (rho -> infinity limit), LinUCB with dynamic global sensitivity (seed 004 Thm 3,
with Lemma 1 / Thm 2 / Lemma 2 in its proof) and LinPriv (Neel & Roth 2018) as rectified in seed 003 App. F-C.

Sources: docs/formulas/zcdp-bandits.md 4, 7, 9, 10; docs/formulas/rdp-bandits.md 2.4, 3.3; docs/formulas/dgs-contextual.md 1-3;
docs/errata.md items 1, 3, 4, 5, 6, 7, 11, 12, 13 and the smaller items (004 Thm 3 "log t for log T").
``log`` is natural unless marked.

Declared as data (issue 23 item 4): every bound whose formula is a closed form is a ``[[bound]]`` table of
boundcalc/bounds/contextual.toml (ContextualBound, declared.TableBound); the corrected OFUL forms stay classes here
(their s* and κ are computed by code).
"""

from __future__ import annotations

import functools
import math
from functools import cached_property

import numpy as np

from .. import validate as v
from ..errors import InputError
from ._linear_common import BaseBound, oful_h_peak, syms
from .declared import TableBound, builtin_table

DEFAULT_INSTANCE = {
    "name": "seed 003 Sec. VII contextual experiment (AdaC-OFUL vs RS-OFUL) made to meet Assumption 1: K fresh "
    "actions per round ~ N((1/sqrt d)1, I/10) projected onto the unit ball, +-1 rewards with mean <theta*, x>, "
    "theta* on the unit sphere (recipe seed 3); C = 1, lambda = 0.1, delta = 1e-3, lambda0 = lambda_min(E xx^T) of "
    "these contexts; L = S = 1, zeta = 0.05 from seed 004 Sec. 4 (LinUCB-DGS)",
    "d": 3,
    "K": 10,
    # "gaussian-003-projected": K i.i.d. N((1/sqrt d) 1, I_d/10) per round, projected onto the unit ball (Assumption 1,
    # docs/formulas/zcdp-bandits.md §0); "gaussian-003": the paper's unprojected contexts (outside Assumption 1)
    "context_distribution": "gaussian-003-projected",
    "reward_noise": "auto",  # "rademacher" (+-1, |r| <= 1) for bounded contexts, "gaussian" N(0, 1) otherwise
    "context_seed": 3,
    "actions": None,  # optionally a fixed action set (K x d), offered every round
    "theta": None,  # optionally theta* (length d); default: uniform on the unit sphere (recipe seed)
    "lam": 0.1,  # ridge lambda (experiments; the proofs need lambda >= 1, ERRATA 11)
    "lam0": "instance",  # "instance": lambda_min(E[x x^T]) of the context distribution (exact); or a number
    "C": 1.0,  # rarely-switching constant (det doubling)
    "delta": 1e-3,  # confidence of seeds 003 / 000
    "theta_norm": 1.0,  # ||theta*|| used in beta_t (when theta* is drawn: it is a unit vector)
    "L": 1.0,  # seed 004: ||x|| <= L
    "S": 1.0,  # seed 004: ||theta*|| <= S
    "zeta": 0.05,  # seed 004: failure probability of the regret statement
    # seed 004 Cor. 1: std of the N(0, sigma^2 I) context perturbation (LinUCB-DGS perturb_sigma; ours, the paper
    # leaves sigma free; only 004-cor1 reads it)
    "perturb_sigma": 0.1,
}
CONTEXT_DISTRIBUTIONS = ("gaussian-003-projected", "gaussian-003")
# What a machine can do: d x d matrices per run in --check and the bounds; K contexts of dimension d per round.
LIMITS = {"d": 1000, "K": 10**6}
# CLI options of `regret` that set an instance parameter of this setting (the others are noted as without effect)
OPTION_KEYS = {"--K": "K", "--d": "d", "--actions": "actions", "--theta": "theta", "--confidence": "delta",
               "--lambda0": "lam0"}
ALIASES = {"lambda0": "lam0", "lambda": "lam"}
# bound parameters an instance key feeds (for the "--X has no effect" notes)
KEY_FEEDS = {"actions": ("K", "d", "lam0"), "theta": ("theta_norm",), "context_distribution": ("lam0",),
             "d": ("d", "lam0")}
KEY_USES = {"theta": "it sets theta* (assumption checks, the trivial bound and --check)",
            "context_distribution": "it sets the contexts (assumption checks, the trivial bound and --check)",
            "reward_noise": "it sets the rewards of --check", "context_seed": "it draws theta* (--check)"}


def _safe_norm(x) -> float:
    """Euclidean norm without a floating-point overflow for huge entries."""
    x = np.asarray(x, dtype=float)
    m = float(np.max(np.abs(x))) if x.size else 0.0
    return m if m == 0 or not math.isfinite(m) else m * float(np.linalg.norm(x / m))


def instance_lambda0(p: dict) -> float:
    """lambda_min(E[x x^T]) of one context of the instance: for the seed 003 recipe N(mu, I/10), mu = (1/sqrt d) 1,
    exactly 0.1 unprojected (DERIVED, docs/formulas/zcdp-bandits.md §6) and by quadrature projected
    (envs.contextual.projected_gaussian_moments); for a fixed action set, lambda_min of its average A^T A / K."""
    if p.get("actions") is not None:
        A = p["actions"]
        return float(np.linalg.eigvalsh(A.T @ A / A.shape[0])[0])
    d = p["d"]
    if p["context_distribution"] == "gaussian-003":
        return float(np.linalg.eigvalsh(np.outer(np.full(d, 1 / math.sqrt(d)), np.full(d, 1 / math.sqrt(d)))
                                        + np.eye(d) / 10)[0])
    from ..envs.contextual import projected_gaussian_moments

    a, b = projected_gaussian_moments(1.0, math.sqrt(0.1), d)
    return a if d == 1 else min(a, b)


def derive(params: dict) -> dict:
    """Validate (InputError) and add derived quantities: lam0 of the instance (lam0_instance), max ||x||, theta*."""
    p = dict(params)
    p.pop("name", None)
    seed = int(v.count("context_seed", p.get("context_seed", 0), minimum=0))
    p["context_seed"] = seed
    rng = np.random.default_rng(seed)
    for k in ("lam", "C", "L", "S"):
        p[k] = v.positive(k, p.get(k, DEFAULT_INSTANCE[k]))
    p["delta"] = v.open_unit("delta", p.get("delta", 1e-3))
    p["zeta"] = v.open_unit("zeta", p.get("zeta", 0.05))
    p["perturb_sigma"] = v.positive("perturb_sigma", p.get("perturb_sigma", 0.1))
    dist = p.get("context_distribution", "gaussian-003-projected")
    if dist not in CONTEXT_DISTRIBUTIONS:
        raise InputError("context_distribution", "one of " + ", ".join(CONTEXT_DISTRIBUTIONS) + " (or give --actions)",
                         dist)
    p["context_distribution"] = dist
    actions = p.get("actions")
    if actions is not None:
        A = np.asarray(actions, dtype=float)
        if A.ndim == 1:
            A = A.reshape(1, -1)
        if A.ndim != 2 or A.size == 0 or not np.all(np.isfinite(A)):
            raise InputError("actions", "a non-empty finite K x d array", actions)
        if A.shape[0] > LIMITS["K"] or A.shape[1] > LIMITS["d"]:
            raise InputError("actions", f"at most {LIMITS['K']} rows and {LIMITS['d']} columns", A.shape)
        p["actions"] = A
        p["K"], p["d"] = int(A.shape[0]), int(A.shape[1])
        with np.errstate(all="ignore"):
            if not np.all(np.isfinite(A.T @ A)):
                raise InputError("actions", "entries small enough that A^T A is finite in floating point", "overflow")
        p["lam0_empirical"] = instance_lambda0(p)
        m = float(np.max(np.abs(A)))
        p["max_action_norm"] = m * float(np.linalg.norm(A / m, axis=1).max()) if m > 0 else 0.0
        p["context_distribution"] = "fixed action set"
    else:
        p["d"] = v.count("d", p.get("d", 3), minimum=1, maximum=LIMITS["d"])
        p["K"] = v.count("K", p.get("K", 10), minimum=1, maximum=LIMITS["K"])
        p["max_action_norm"] = 1.0 if dist == "gaussian-003-projected" else math.inf
        if dist == "gaussian-003":
            p["lam0_recipe"] = instance_lambda0(p)
    p["lam0_instance"] = instance_lambda0(p)
    lam0 = p.get("lam0", "instance")
    p["lam0"] = p["lam0_instance"] if lam0 in (None, "instance") else v.positive("lam0", lam0)
    noise = p.get("reward_noise", "auto")
    if noise in (None, "auto"):
        noise = "rademacher" if p["max_action_norm"] <= 1 + 1e-12 else "gaussian"
    if noise not in ("rademacher", "gaussian"):
        raise InputError("reward_noise", "one of auto, rademacher, gaussian", noise)
    if noise == "rademacher" and p["max_action_norm"] > 1 + 1e-12:
        raise InputError("reward_noise", "gaussian for contexts with ||x|| > 1 (+-1 rewards need |<theta*, x>| <= 1)",
                         noise)
    p["reward_noise"] = noise
    theta = p.get("theta")
    if theta is not None:
        th = np.asarray(theta, dtype=float).ravel()
        if th.size != p["d"] or not np.all(np.isfinite(th)):
            raise InputError("theta", f"a finite vector of length d = {p['d']}", theta)
        p["theta"] = th
        p["theta_norm"] = _safe_norm(th)
        if noise == "rademacher" and p["theta_norm"] * p["max_action_norm"] > 1 + 1e-12:
            raise InputError("theta", "a vector with ||theta*|| <= 1 for +-1 rewards (|<theta*, x>| <= 1)", theta)
    else:
        x = rng.standard_normal(p["d"])
        p["theta"] = x / np.linalg.norm(x)
        p["theta_norm"] = v.nonnegative("theta_norm", p.get("theta_norm", 1.0))
    return p


_ASSUMPTION_1 = "Assumption 1 (seed 003 Sec. V-A / seed 000): ||a|| <= 1, |r_t| <= 1, ||theta*|| <= 1"
_ASSUMPTION_2 = ("Assumption 2 (stochastic contexts, Gentile et al.): i.i.d. unit-norm actions, lambda_min(E AA^T) = "
                 "lam0 > 0, Var[(z^T A)^2] <= lam0^2/(8 log 4k)")
_VACUOUS = "vacuous: Assumption 2 cannot hold for d >= 2 (ERRATA 1)"
_NOT_BOUNDED = ("the seed 003 experiments' N(0,1) rewards and unprojected Gaussian contexts break Assumption 1 (needed "
                "for privacy); the default instance projects contexts onto the unit ball and uses +-1 rewards "
                "(docs/formulas/zcdp-bandits.md §0)")


# Assumption 1 on the instance (norms with floating-point tolerances) and lam0 <= tr E[AA^T]/d <= 1/d, which
# ||A|| <= 1 implies; the explicit forms add the proof's lambda >= 1 (seed 003 Eq. 25, ERRATA 11)
_NORMS = ("max_action_norm <= 1.000000001", "theta_norm <= 1.000000001")
_OFUL_REQUIRES = _NORMS + ("lam0 <= 1/d + 0.000000000001",)
_LAM_GE_1 = "lam >= 1"
_OFUL_NOTES = {
    "max_action_norm <= 1.000000001": "Assumption 1 (seed 003 Sec. V-A / seed 000), ||a|| <= 1 "
                                      "(context_distribution = gaussian-003 is unprojected)",
    "theta_norm <= 1.000000001": "Assumption 1 (seed 003 Sec. V-A / seed 000), ||theta*|| <= 1",
    "lam0 <= 1/d + 0.000000000001": "lam0 <= tr E[AA^T]/d <= 1/d for ||A|| <= 1",
    _LAM_GE_1: "the proof (Eq. 25, t_(l+1)/t_l <= (1+C)(1+lambda)) uses lambda >= 1 (ERRATA 11; see the corrected form)",
}


# ---- AdaC-OFUL / AdaR-OFUL -----------------------------------------------------------------------------
def _ofu_pieces_sym(T, d, lam, lam0, C, delta, th):
    """(l(T), pre, beta_T, f_F(d, delta/T)) of seed 003 Thm 14 / App. F-B (seed 000 Thm 17): l(T) <= d log(1 + T/(lam d))
    / log(1 + C) (Step 5), pre = 2 sqrt(1+C) sqrt(2 d log(1 + T/(lam d))), beta_T = sqrt(2 log(1/delta) + d log(1 +
    T/(lam d))) + sqrt(lam) ||theta*||, f_F(d, x) = d + 2 sqrt(d log(1/x)) + 2 log(1/x) (seed 003 Lemma 10, App. F)."""
    import sympy

    ell = d * sympy.log(1 + T / (lam * d)) / sympy.log(1 + C)
    pre = 2 * sympy.sqrt(1 + C) * sympy.sqrt(2 * d * sympy.log(1 + T / (lam * d)))
    beta = sympy.sqrt(2 * sympy.log(1 / delta) + d * sympy.log(1 + T / (lam * d))) + sympy.sqrt(lam) * th
    LT = sympy.log(T / delta)
    fF = d + 2 * sympy.sqrt(d * LT) + 2 * LT
    return ell, pre, beta, fF


def _g_sym(s, lam0, delta, d):
    """lam0 s/4 - 8 log((s+3) d/delta) - 2 sqrt(s log((s+3) d/delta)) (seed 003 Lemma 12, seed 000 Lemma 27)."""
    import sympy

    Lg = sympy.log((s + 3) * d / delta)
    return lam0 * s / 4 - 8 * Lg - 2 * sympy.sqrt(s * Lg)


class _OFULExplicit(BaseBound):
    """Explicit form of the proof (seed 003 App. F-B Step 6 / seed 000 App. D.2 Eq. 14-18), as the paper uses it:
    R_T <= pre * (beta_T sqrt(T) + gamma_T sqrt((1+C)(1+lam) l(T))), pre = 2 sqrt(1+C) sqrt(2 d log(1+T/(lam d))),
    gamma_T = sqrt(T) sqrt((2 l(T)/rho) f_F(d, delta/T) / (lam + max(0, g(T)))) (max(0, .) safeguard, DERIVED)."""

    setting = "contextual"
    kind = "upper-minimax"
    form = "explicit"
    params = ("d", "lam", "lam0", "C", "delta", "theta_norm")
    assumptions = (_ASSUMPTION_1, _ASSUMPTION_2, "lambda >= 1 (proof Step 5)")
    requires = _OFUL_REQUIRES + (_LAM_GE_1,)
    requires_notes = _OFUL_NOTES
    symbol_names = ("d", "lam", "lam0", "C", "delta", "theta_norm", "rho")


@functools.lru_cache(maxsize=64)
def _s_star(d, lam, lam0, delta, C) -> float:
    """``oful_h_peak`` once per instance (symbol_values runs at every evaluation and every ``conditions``)."""
    return oful_h_peak(d, lam, lam0, delta, C)


class _OFULCorrected(_OFULExplicit):
    """Corrected explicit form (ERRATA 11, 12, 13 and the tau = 0 episode):
    R_T <= 2 (C lam + 1) + pre * beta_T(delta/3) sqrt(T)  +  pre * gammabar_T sqrt(kappa l(T)),
    gammabar_T = max_{s <= T} gamma_s = sqrt((2/rho) f_F(d, delta/(3T)) H(T)), H(T) = max(h(min(T, s*)), h(T)),
    h(s) = s l(s)/(lam + max(0, g(s; delta/3))), kappa = (1+C)(1+lam) (+1 if lam < 1).
    2 (C lam + 1) bounds the regret of the first episode: det V_t >= lam^{d-1}(lam + t) for unit actions, so the
    first update happens by t = C lam + 1 (DERIVED)."""

    form = "corrected"
    assumptions = (_ASSUMPTION_1, _ASSUMPTION_2)
    requires = _OFUL_REQUIRES

    @staticmethod
    def _kappa(C, lam):
        return (1 + C) * (1 + lam) + (1.0 if lam < 1 else 0.0)

    @staticmethod
    def _sstar(ctx):
        """s*: the first peak of h(s) (``_linear_common.oful_h_peak``), a number of the instance (delta/3)."""
        return _s_star(ctx["d"], ctx["lam"], ctx["lam0"], ctx["delta"] / 3, ctx["C"])

    def expression(self):
        import sympy

        T, d, lam, lam0, C, delta, th, rho, s_star, kappa = syms(
            "T", "d", "lam", "lam0", "C", "delta", "theta_norm", "rho", "s_star", "kappa")
        dl = delta / 3
        ell, pre, beta, fF = _ofu_pieces_sym(T, d, lam, lam0, C, dl, th)

        def h(s):
            return s * (d * sympy.log(1 + s / (lam * d)) / sympy.log(1 + C)) / (lam + sympy.Max(0, _g_sym(s, lam0, dl, d)))

        H = sympy.Max(h(sympy.Min(T, s_star)), h(T))
        gbar = sympy.sqrt(2 / rho * fF * H)
        return 2 * (C * lam + 1) + pre * beta * sympy.sqrt(T), pre * gbar * sympy.sqrt(kappa * ell)

    def symbol_values(self, ctx, budget):
        out = super().symbol_values(ctx, budget)
        out["s_star"] = self._sstar(ctx)
        out["kappa"] = self._kappa(ctx["C"], ctx["lam"])
        return out


_CORR_CAVEATS = (
    "corrected form: running maximum of gamma instead of gamma_T (ERRATA 12/3), delta -> delta/3 so the "
    "statement holds w.p. >= 1 - delta (ERRATA 13), constant (1+C)(1+lambda)+1 for lambda < 1 (ERRATA 11), plus "
    "2(C lambda + 1) for the tau = 0 episode (DERIVED); not the paper's statement",
    _VACUOUS,
    _NOT_BOUNDED,
)


class AdaCOFULCorrected(_OFULCorrected):
    id = "003-thm5-corrected"
    title = "AdaC-OFUL regret, corrected explicit form (running-max gamma, delta/3)"
    algorithm = "AdaC-OFUL"
    seed = "003"
    source = "seed 003 Thm 5 (proof App. F-B; Thm 14), corrected per ERRATA 11-13"
    notion = "zcdp"
    caveats = _CORR_CAVEATS
    regime_note = ("privacy cost dominates until very large T (burn-in of the eigenvalue bound, ≈ 1.4e5 rounds at "
                   "lam0 = 0.1); its ratio to the non-private part -> 0 as T grows")


class AdaROFULCorrected(_OFULCorrected):
    id = "000-thm10-corrected"
    title = "AdaR-OFUL regret, corrected explicit form (running-max gamma, delta/3)"
    algorithm = "AdaR-OFUL"
    seed = "000"
    source = "seed 000 Thm 10 (proof App. D.2; Thm 17), corrected per ERRATA 3 / 11-13"
    notion = "rdp"
    caveats = _CORR_CAVEATS
    regime_note = AdaCOFULCorrected.regime_note


# ---- LinUCB with dynamic global sensitivity, seed 004 Thm 3 --------------------------------------------------
# ---- LinPriv (Neel & Roth 2018), as quoted and as rectified in seed 003 App. F-C ----------------------------
class ContextualBound(TableBound, BaseBound):
    """A contextual bound declared as data: one ``[[bound]]`` table of boundcalc/bounds/contextual.toml (metadata,
    ``requires`` and their readings ``requires_notes``, the expression texts; declared.TableBound), with BaseBound's
    values of the symbols (ρ of a zCDP budget, ε/α of an RDP one; ε, δ of an (ε, δ) one). Each table cites its
    source (seed 003 Thm 5, seed 000 Thm 10, seed 004 Thm 3, seed 003 App. F-C)."""

    table_setting = "contextual"

    def allowed_symbols(self) -> tuple:
        from .symbols import BUDGET_OF_NOTION, CONTEXTUAL

        rho = ("rho",) if self.notion in ("zcdp", "rdp") else ()  # BaseBound.rho_of
        return ("T",) + tuple(CONTEXTUAL) + BUDGET_OF_NOTION[self.notion] + rho

    @cached_property
    def symbol_names(self) -> tuple[str, ...]:
        """The expression's symbols besides T (what BaseBound.symbol_values fills), from the expression itself."""
        from .base import lambdified

        return tuple(n for n in lambdified(self, "numpy")[1] if n != "T")


_ROWS = {row["id"]: ContextualBound(**row) for row in builtin_table("contextual.toml")}

BOUNDS = [
    _ROWS["003-thm5-paper"],
    _ROWS["003-thm5-explicit"],
    AdaCOFULCorrected(),
    _ROWS["000-thm10-paper"],
    _ROWS["000-thm10-explicit"],
    AdaROFULCorrected(),
    _ROWS["003-rsoful-explicit"],
    _ROWS["003-oful-paper"],
    _ROWS["004-thm3"],
    _ROWS["004-thm3-corrected"],
    _ROWS["003-appF-linpriv-claimed"],
    _ROWS["003-appF-linpriv-rectified"],
]
assert len(BOUNDS) == len(_ROWS) + 2, "every row of contextual.toml is registered"
