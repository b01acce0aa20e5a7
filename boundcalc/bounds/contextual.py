"""Linear contextual bandits: AdaC-OFUL (seed 003 Thm 5 / Thm 14), AdaR-OFUL (seed 000 Thm 10 / Thm 17),
non-private RS-OFUL (rho -> infinity limit), LinUCB with dynamic global sensitivity (seed 004 Thm 3,
with Lemma 1 / Thm 2 / Lemma 2 in its proof) and LinPriv (Neel & Roth 2018) as rectified in seed 003 App. F-C.

Sources: docs/formulas/zcdp-bandits.md 4, 7, 9, 10; docs/formulas/rdp-bandits.md 2.4, 3.3; docs/formulas/dgs-contextual.md 1-3;
docs/errata.md items 1, 3, 4, 5, 6, 7, 11, 12, 13 and the smaller items (004 Thm 3 "log t for log T").
``log`` is natural unless marked.

Declared as data (issue 23 item 4): every bound is a ``[[bound]]`` table of boundcalc/bounds/contextual.toml
(ContextualBound, declared.TableBound); the corrected OFUL forms take s* and κ, computed by code, from the named
hook of :data:`VALUES`.
"""

from __future__ import annotations

import functools
import math
from functools import cached_property

import numpy as np

from .. import validate as v
from ..errors import InputError, flag
from ._linear_common import BaseBound, oful_h_peak
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
# The parameters of `regret` (its options: cli/flags.py FLAGS) that set an instance parameter of this setting -> that
# parameter (the others are noted as without effect)
OPTION_KEYS = {"K": "K", "d": "d", "actions": "actions", "theta": "theta", "confidence": "delta", "lambda0": "lam0"}
ALIASES = {"lambda0": "lam0", "lambda": "lam"}
# bound parameters an instance key feeds (for the "--X has no effect" notes)
KEY_FEEDS = {"actions": ("K", "d", "lam0"), "theta": ("theta_norm",), "context_distribution": ("lam0",),
             "d": ("d", "lam0")}
KEY_USES = {"theta": f"it sets theta* (assumption checks, the trivial bound and {flag('check')})",
            "context_distribution": f"it sets the contexts (assumption checks, the trivial bound and {flag('check')})",
            "reward_noise": f"it sets the rewards of {flag('check')}", "context_seed": f"it draws theta* ({flag('check')})"}


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
        raise InputError("context_distribution", "one of " + ", ".join(CONTEXT_DISTRIBUTIONS) + f" (or give {flag('actions')})",
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


# ---- AdaC-OFUL / AdaR-OFUL, corrected forms: s* and kappa computed by code ---------------------------------------
@functools.lru_cache(maxsize=64)
def _s_star(d, lam, lam0, delta, C) -> float:
    """``oful_h_peak`` once per instance (symbol_values runs at every evaluation and every ``conditions``)."""
    return oful_h_peak(d, lam, lam0, delta, C)


def _oful_s_star_kappa(bound, ctx, budget) -> dict:
    """The symbols of the corrected OFUL forms (ERRATA 11-13; seed 003 Thm 14, seed 000 Thm 17) whose values are
    computed by code: s*, the first peak of h(s) (``_linear_common.oful_h_peak``, at delta/3), and
    kappa = (1+C)(1+lam) (+1 if lam < 1) (ERRATA 11)."""
    C, lam = ctx["C"], ctx["lam"]
    return {"s_star": _s_star(ctx["d"], lam, ctx["lam0"], ctx["delta"] / 3, C),
            "kappa": (1 + C) * (1 + lam) + (1.0 if lam < 1 else 0.0)}


# the Python piece contextual.toml may name: symbol values computed by code
VALUES = {"oful_s_star_kappa": _oful_s_star_kappa}


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


ContextualBound.VALUES = VALUES
_ROWS = {row["id"]: ContextualBound(**row) for row in builtin_table("contextual.toml")}

BOUNDS = [
    _ROWS["003-thm5-paper"],
    _ROWS["003-thm5-explicit"],
    _ROWS["003-thm5-corrected"],
    _ROWS["000-thm10-paper"],
    _ROWS["000-thm10-explicit"],
    _ROWS["000-thm10-corrected"],
    _ROWS["003-rsoful-explicit"],
    _ROWS["003-oful-paper"],
    _ROWS["004-thm3"],
    _ROWS["004-thm3-corrected"],
    _ROWS["003-appF-linpriv-claimed"],
    _ROWS["003-appF-linpriv-rectified"],
]
assert len(BOUNDS) == len(_ROWS), "every row of contextual.toml is registered"
