"""The regret report: every bound of a setting at horizons T for one budget, as plain data.

The trivial bound it compares every bound with is T × the largest per-round regret, from the regret decomposition
Reg_T = Σ_a Δ_a E[N_a(T)] ≤ T max_a Δ_a (seed 001 Eq. 2); the bounds' own formulas cite their Theorem / Eq.

``regret_report(setting, budget, T, overrides)`` evaluates every registered bound of the setting (through the
budget conversion each bound needs), per horizon, and returns a :class:`RegretReport`: one row (a JSON-ready dict)
per bound with its value, split (non-private part + privacy cost), privacy overhead in %, the regime words that
follow that number, short caveat tags and vacuity against the trivial bound; the headline value; notes on options
without effect; the instance values actually used. It never prints and never imports the CLI: ``boundcalc regret``
renders it, and a budget search can call it for each budget.

Definitions used here:
- trivial bound: T × (largest possible per-round regret of the instance): the largest gap Δ_max (finite), the
  largest action gap max_a Δ_a (linear), 2 max‖x‖ ‖θ*‖ (contextual: any two actions of a decision set differ by
  at most that in mean reward; for unbounded Gaussian contexts the expected range of the K mean rewards), the
  reward range 2 c_r (GLM: |r| ≤ c_r, seed 002 §2). An upper bound at or above it is "vacuous at this T".
- privacy overhead = privacy cost ÷ non-private part × 100 %. For a "sum" bound privacy dominates iff the overhead
  exceeds 100 %; for a "max" bound (seed 003 Thm 9, Thm 17: value = max of the two terms) the private term is the
  larger one as soon as the overhead is > 0.
- headline: the smallest applicable upper bound with explicit constants (forms exact/explicit/corrected; kinds
  upper-problem-dependent and upper-minimax; not vacuous, not marked invalid) at the largest T; when a budget is
  given, only private bounds qualify.
"""

from __future__ import annotations

import math
import re
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import InputError, flag, render
from .base import Bound, Context

OVERHEAD_LOWER_ORDER = 10.0  # % at or below which privacy is called "lower order"
HEADLINE_KINDS = ("upper-problem-dependent", "upper-minimax")
HEADLINE_FORMS = ("exact", "explicit", "corrected")
HEADLINE_LABEL = ("smallest applicable finite-T upper bound with explicit constants at the largest T (paper forms with "
                  "O-constants set to 1, asymptotic bounds, bounds marked invalid and bounds at or above the trivial "
                  "bound excluded; with a budget, private bounds only)")


@dataclass
class Headline:
    """The one number of the report: value and the bound that gives it, or None and why."""

    value: float | None
    bound_id: str | None
    T: float
    label: str = HEADLINE_LABEL
    reason: str = ""
    delta: float | None = None  # a high-probability headline holds with probability >= 1 - delta (None: E[R_T])
    high_probability: bool = False


@dataclass
class Trivial:
    """Largest possible regret per round of the instance (the trivial bound at T is T × per_step)."""

    per_step: float
    label: str


@dataclass
class RegretReport:
    setting: str
    T: np.ndarray
    ctx: Context
    rows: list[dict]
    trivial: Trivial
    headline: Headline
    notes: list[str] = field(default_factory=list)
    instance_values: dict = field(default_factory=dict)


# -- trivial bound ---------------------------------------------------------------------------------------------
def _expected_max_std_normal(K: int) -> float:
    """E[max of K i.i.d. N(0, 1)] = ∫ x K φ(x) Φ(x)^{K-1} dx (Gauss–Legendre on [-12, 12])."""
    from scipy import special

    x, w = np.polynomial.legendre.leggauss(400)
    x, w = 12 * x, 12 * w
    phi = np.exp(-x * x / 2) / math.sqrt(2 * math.pi)
    Phi = special.ndtr(x)
    return float(np.sum(w * x * K * phi * Phi ** (K - 1)))


def trivial_regret_per_step(setting: str, ctx) -> Trivial:
    """The largest possible (expected) regret per round of the instance, with a label saying what it is."""
    if setting == "finite":
        return Trivial(float(ctx["Delta_max"]), "T × largest gap Δ_max")
    if setting == "linear":
        return Trivial(float(np.max(ctx["gaps"])), "T × largest action gap max_a Δ_a")
    if setting == "contextual":
        xmax, th = float(ctx.get("max_action_norm", math.inf)), float(ctx["theta_norm"])
        if math.isfinite(xmax):
            return Trivial(2.0 * xmax * th, "T × 2 max‖x‖ ‖θ*‖ (largest mean-reward gap in a decision set)")
        d, K = int(ctx["d"]), int(ctx["K"])  # N(mu, I/10) contexts: <θ, x> ~ N(<θ, mu>, ‖θ‖²/10) i.i.d. over K
        return Trivial(2.0 * math.sqrt(0.1) * th * _expected_max_std_normal(K),
                       "T × E[range of the K mean rewards] (unbounded Gaussian contexts)")
    if setting == "glm":
        return Trivial(2.0 * float(ctx["c_r"]), "T × reward range 2 c_r (|r| ≤ c_r)")
    raise InputError(flag("setting"), "one of finite, linear, contextual, glm", setting)


# -- privacy overhead and regime words ---------------------------------------------------------------------------
def privacy_overhead_pct(nonprivate: float, privacy_cost: float) -> float | None:
    """privacy cost ÷ non-private part × 100 (0 when there is no cost, +inf when the non-private part is 0 or only
    the cost is infinite; None when the non-private part itself is infinite: no number can be given)."""
    if not privacy_cost > 0:
        return 0.0
    if math.isinf(nonprivate):
        return None
    if not nonprivate > 0 or math.isinf(privacy_cost):
        return math.inf
    with np.errstate(over="ignore"):
        return float(100.0 * np.float64(privacy_cost) / np.float64(nonprivate))


def regime_words(bound: Bound, overhead_pct: float | None) -> str:
    """Words that follow the overhead number (see the module docstring); short, for a table column."""
    if bound.notion == "none":
        return "non-private"
    if overhead_pct is None:
        return "unknown (infinite terms)"
    if overhead_pct == 0:
        return "privacy free"
    if bound.combination == "max":
        return "dominates (max)"
    if overhead_pct <= OVERHEAD_LOWER_ORDER:
        return "lower order"
    if overhead_pct <= 100.0:
        return "sizeable"
    return "dominates"


REGIME_MEANING = {
    "non-private": "non-private bound: no privacy cost",
    "unknown (infinite terms)": "the non-private part exceeds the floating-point range: no overhead can be given",
    "privacy free": "the privacy cost is 0 at this budget and T",
    "dominates (max)": "max-type bound: the private term is the larger of the two",
    "lower order": f"the privacy cost is at most {OVERHEAD_LOWER_ORDER:g}% of the non-private part",
    "sizeable": f"the privacy cost is {OVERHEAD_LOWER_ORDER:g}–100% of the non-private part",
    "dominates": "the privacy cost exceeds the non-private part (overhead > 100%)",
}


# -- caveat tags ----------------------------------------------------------------------------------------------
_TAG_RULES = (
    (r"^statement violated", "statement violated"),
    (r"^vacuous", "vacuous"),
    (r"^proof gap", "proof gap"),
    (r"^scaling not shown", "scaling not shown"),
    (r"^typo", "typo"),
    (r"^DERIVED", "DERIVED"),
    (r"^UNCERTAIN", "UNCERTAIN"),
    (r"^corrected|^rectified", "corrected form"),
    (r"^asymptotic", "asymptotic"),
    (r"^paper form", "paper form"),
    (r"^high-probability", "w.h.p."),
    (r"^correct \(ERRATA", "checked correct"),
    (r"^comparability|crosses environment", "other instance class"),
)


def caveat_tags(bound: Bound) -> list[str]:
    """Short tags for a bound's caveats, in the ERRATA vocabulary (full texts: `regret --explain`, `bounds show`);
    a caveat that matches no rule (a plain remark) gets no tag."""
    tags: list[str] = []
    if bound.invalid:
        tags.append("not a valid bound")
    if bound.form == "paper":
        tags.append("paper form")
    for c in bound.caveats:
        for pat, tag in _TAG_RULES:
            if re.search(pat, c):
                if tag not in tags:
                    tags.append(tag)
                break
    return tags


# -- evaluation ------------------------------------------------------------------------------------------------
def _conditions_at(b: Bound, ctx: Context, t: float) -> list[str]:
    ctx.params["T"] = float(t)
    try:
        return list(b.conditions(ctx))
    except (ArithmeticError, ValueError) as exc:  # a condition that cannot even be evaluated here
        return [f"its conditions cannot be evaluated here ({exc})"]


def quiet_floats(fn):
    """Decorator: ``fn`` runs with floating-point warnings off (numpy errstate and RuntimeWarning): the callers report
    non-finite values per bound (∞, "not defined here"); a RuntimeWarning on stderr at exit 0 said nothing more
    (issue 22 §4: ``--means 1e-320,0``, ``--lambda0 1e308``)."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            with np.errstate(all="ignore"):
                return fn(*args, **kwargs)

    return wrapper


def _evaluate_quietly(b: Bound, T: np.ndarray, ctx: Context, own):
    """Evaluate with floating-point warnings off: non-finite results are reported per horizon instead."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        with np.errstate(all="ignore"):
            return b.evaluate(T, ctx, own)


def _horizon_entry(t, v, n, p, per_step, is_upper) -> dict:
    e = {"T": float(t), "value": float(v), "nonprivate": float(n), "privacy_cost": float(p), "defined": True,
         "reason": ""}
    if not (np.isfinite(v) or v == math.inf) or np.isnan(n) or np.isnan(p):
        e.update(defined=False, value=None, nonprivate=None, privacy_cost=None,
                 reason=f"not defined at T = {t:g}: the formula has no real value there (e.g. the log of a "
                        "number ≤ 0 or log log T ≤ 0)")
        return e
    if v == math.inf:
        e["reason"] = "exceeds the floating-point range (> 1.8e308): stated as infinity"
    e["overhead_pct"] = privacy_overhead_pct(n, p)
    e["trivial_bound"] = per_step * float(t)
    e["vacuous"] = bool(is_upper and v >= per_step * float(t))
    return e


def evaluate_row(b: Bound, ctx: Context, T: np.ndarray, trivial: Trivial) -> dict:
    """One bound at horizons T: metadata + applicability + per-horizon values, overhead, regime, tags, vacuity."""
    row = b.metadata()
    row.update(applicable=True, reason="", conversion="", regime="", regime_note=b.regime_note,
               tags=caveat_tags(b), invalid=b.invalid, values=[], value=None, nonprivate=None, privacy_cost=None,
               overhead_pct=None, trivial_bound=None, vacuous=False, informative=True)
    own = None
    if b.notion == "none":
        row["conversion"] = "non-private"
    else:
        try:
            own, conv = ctx.budget_for(b)
        except InputError as exc:  # e.g. ε = 1e-320 gives ρ = ε²/2 = 0 in floating point
            own, conv = None, f"the budget cannot be converted to this bound's notion ({b.notion}) in floating point: {exc}"
        row["conversion"] = conv
        if own is None:
            row.update(applicable=False, reason=conv)
            return row
    why = [_conditions_at(b, ctx, t) for t in T]
    ctx.params["T"] = float(T[-1])
    if why[-1]:
        row.update(applicable=False, reason="; ".join(why[-1]))
        return row
    try:
        val = _evaluate_quietly(b, T, ctx, own)
    except (ArithmeticError, ValueError) as exc:  # safety net: a formula that cannot be evaluated here
        row.update(applicable=False, reason=f"cannot be evaluated here: {exc}")
        return row
    row["budget_used"] = own.as_dict() if own is not None else None
    entries = []
    for i, t in enumerate(T):
        if why[i]:
            entries.append({"T": float(t), "value": None, "nonprivate": None, "privacy_cost": None, "defined": False,
                            "reason": "; ".join(why[i])})
        else:
            entries.append(_horizon_entry(t, val.value[i], val.nonprivate[i], val.privacy_cost[i], trivial.per_step,
                                          b.is_upper))
    row["values"] = entries
    last = entries[-1]
    if not last["defined"]:
        row.update(applicable=False, reason=last["reason"])
        return row
    row.update(value=last["value"], nonprivate=last["nonprivate"], privacy_cost=last["privacy_cost"],
               overhead_pct=last["overhead_pct"], trivial_bound=last["trivial_bound"], vacuous=last["vacuous"],
               informative=not last["vacuous"])
    if last["reason"]:
        row["note"] = last["reason"]
    row["regime"] = regime_words(b, last["overhead_pct"])
    if last["vacuous"]:
        row["tags"] = row["tags"] + ["vacuous at this T"]
    return row


def rows_for(setting: str, budget, T, overrides: dict | None = None):
    """(ctx, rows): every registered bound of ``setting`` evaluated at horizons T for the user's budget."""
    from . import registry

    T = np.asarray(T, dtype=float)
    ctx = registry.make_context(setting, overrides or {}, budget)
    trivial = trivial_regret_per_step(setting, ctx.params)
    rows = quiet_floats(lambda: [evaluate_row(b, ctx, T, trivial) for b in registry.select(setting=setting)])()
    ctx.params["T"] = float(T[-1])
    return ctx, rows


# -- headline -------------------------------------------------------------------------------------------------
def headline_delta(row: dict, T: float, ctx_delta) -> tuple[bool, float | None]:
    """(high-probability?, its δ) of a report row: its caveat "high-probability bound on R_T ..." (tag "w.h.p.")
    says the bound holds with probability ≥ 1 − δ, δ = 1/T where the caveat says "1 - 1/T" (seed 000 Thm 8's
    explicit form, docs/formulas/rdp-bandits.md), else the instance's δ (``delta``, e.g. seed 003 Thm 4's hp forms)."""
    if "w.h.p." not in row.get("tags", ()):
        return False, None
    from . import registry

    text = " ".join(registry.get(row["id"]).caveats)
    if "1 - 1/T" in text:
        return True, 1.0 / T
    return True, (float(ctx_delta) if ctx_delta is not None and "delta" in row.get("params", ()) else None)


def choose_headline(rows: list[dict], budget, T: float, ctx_delta=None) -> Headline:
    """The smallest qualifying upper bound (see the module docstring), or None with the reason. ``ctx_delta``: the
    instance's δ, which a high-probability headline's probability ≥ 1 − δ refers to (``headline_delta``)."""
    ok = [r for r in rows if r["applicable"] and r["kind"] in HEADLINE_KINDS and r["form"] in HEADLINE_FORMS
          and not r.get("invalid") and not r.get("vacuous") and r.get("value") is not None
          and math.isfinite(r["value"]) and (budget is None or r["notion"] != "none")]
    if not ok:
        what = "private " if budget is not None else ""
        return Headline(None, None, float(T), reason=f"no applicable {what}upper bound with explicit constants "
                                                     f"below the trivial bound at T = {T:g}")
    best = min(ok, key=lambda r: r["value"])
    hp, delta = headline_delta(best, float(T), ctx_delta)
    return Headline(best["value"], best["id"], float(T), delta=delta, high_probability=hp)


# -- values used and options without effect -------------------------------------------------------------------------
_SUMMARY_KEYS = {
    "finite": ("K", "means", "mu_star", "Delta_min", "Delta_max", "alpha_batch", "alpha_adap", "dpse_beta",
               "beta_adac", "beta_adar"),
    "linear": ("K", "d", "delta", "theta_norm", "max_action_norm", "Delta_min", "max_gap", "rank"),
    "contextual": ("K", "d", "context_distribution", "reward_noise", "lam", "lam0", "lam0_instance", "C", "delta",
                   "theta_norm", "max_action_norm", "L", "S", "zeta"),
    "glm": ("d", "K", "C_B", "c_r", "sigma_r", "context", "kappa_l", "kappa_u", "p_star", "zeta", "L", "delta",
            "gamma", "beta", "p_prime", "h_sub"),
}


def instance_values(setting: str, ctx: Context) -> dict[str, Any]:
    """The instance parameters as evaluated (numbers and short strings, JSON-ready)."""
    out: dict[str, Any] = {}
    p = dict(ctx.params)
    if setting == "linear":
        p["max_gap"] = float(np.max(p["gaps"]))
    for k in _SUMMARY_KEYS[setting]:
        if k not in p or p[k] is None:
            continue
        x = p[k]
        if isinstance(x, (list, tuple, np.ndarray)):
            x = [float(y) for y in np.ravel(x)]
        elif isinstance(x, (bool, np.bool_)):
            x = bool(x)
        elif isinstance(x, (int, np.integer)):
            x = int(x)
        elif isinstance(x, (float, np.floating)):
            x = float(x)
        out[k] = x
    return out


def option_notes(setting: str, given: dict[str, str | None], rows: list[dict]) -> list[str]:
    """Notes for options that no applicable bound uses.

    ``given`` maps each option the user gave (e.g. "--K", "--param beta_adac") to the instance key it sets in this
    setting, or None when the setting has no such parameter.
    """
    from . import registry

    mod = registry.setting_module(setting)
    feeds, uses = getattr(mod, "KEY_FEEDS", {}), getattr(mod, "KEY_USES", {})
    used = set()
    for r in rows:
        if r["applicable"]:
            used.update(r["params"])
    notes = []
    for opt, key in given.items():
        if key is None:
            notes.append(f"{opt} has no effect on the {setting} bounds (the {setting} instance has no such parameter)")
            continue
        fed = feeds.get(key, (key,))
        if used.intersection(fed):
            continue
        where = f"; {render(uses[key])}" if key in uses else ""
        notes.append(f"{opt} has no effect on any applicable {setting} bound (none depends on {key}){where}")
    return notes


def regret_report(setting: str, budget, T, overrides: dict | None = None,
                  given: dict[str, str | None] | None = None) -> RegretReport:
    """Evaluate every bound of ``setting`` at horizons T (see the module docstring); pure, no printing."""
    T = np.atleast_1d(np.asarray(T, dtype=float))
    ctx, rows = rows_for(setting, budget, T, overrides)
    trivial = trivial_regret_per_step(setting, ctx.params)
    return RegretReport(setting=setting, T=T, ctx=ctx, rows=rows, trivial=trivial,
                        headline=choose_headline(rows, budget, float(T[-1]), ctx.params.get("delta")),
                        notes=option_notes(setting, given or {}, rows), instance_values=instance_values(setting, ctx))
