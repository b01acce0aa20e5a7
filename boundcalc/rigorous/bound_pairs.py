"""Rigorous lower <= upper proofs for the registered bounds, through each bound's sympy ``expression()``.

Generic route: a bound's total nonprivate + privacy_cost (``Bound.expression()``) is a sympy expression in
T, the budget and the instance's symbols; ``sympy_eval.interval_eval`` encloses it over a box, so every
registered bound gets an enclosure without its formula being written again. The margin of a pair is
upper - lower, expanded by sympy first so that common terms cancel (e.g. (H_eps - H_kl) ln T + H_kl ln T).
Two things are handled explicitly (they are numbers computed from the instance in ``symbol_values``):

* finite-armed per-arm sums (boundcalc/bounds/finite.py): H_kl = sum Delta_a/kl(mu_a, mu*), H_eps = sum
  Delta_a/d_eps, H_min = sum Delta_a/min(kl, c eps Delta_a) (c of the bound: 6 or 1 for seed 001 Eq. 7),
  H_inv, H_min_eps = sum 1/min(Delta_a, eps), n_sub, K, sum_Delta, Delta_max and DP-SE's S_1, S_2, S_3 with
  e_a = floor(log2(1/Delta_a)) + 1: the registered quantities of boundcalc.bounds.quantities (their interval
  and mpmath implementations; the registry evaluates the numpy ones). The box has one coordinate per arm: mu_star and mu_1 … mu_{K-1}
  (each suboptimal arm's range lies below mu_star's, so the gaps are positive and the best arm unique);
  these sums are enclosed from the arms' intervals with ``enclosures``.
* the max-type lower bounds (seed 003 Thm 9, Thm 17) split as np + max(0, priv - np): rewritten to
  max(np, priv) before enclosure (same value, no dependency on np twice).

Budgets: a pair is proven over the bounds' own budget parameter (epsilon for pure DP, rho for zCDP,
(alpha, epsilon) for RDP). When one bound is non-private the box covers every user budget whose conversion
lands in it; two different private notions (no budget makes both apply, as in tests/bounds/test_bounds_registry.py)
are reported as not comparable. Integer parameters (d, K) are boxed as real intervals: the proof covers
every real value, so every integer one. The asymptotic lower bounds are compared as (constant)·ln T, as
the registry evaluates them.
"""

from __future__ import annotations

from dataclasses import dataclass

from .claims import Claim
from .prover import ProofResult

# natural parameter ranges (each bound's assumptions hold on them)
FINITE_BOX = {
    "mu_star": (0.5, 0.99),
    "T": (1e3, 1e9),
    "alpha_batch": (2.0, 2.0),  # finite.DEFAULT_INSTANCE
    "alpha_adap": (3.1, 3.1),
    "beta_adac": (3.5, 3.5),
    "beta_adar": (3.1, 3.1),
}
SUBOPTIMAL_RANGE = (0.01, 0.45)
LINEAR_BOX = {"T": (1e3, 1e9), "d": (1.0, 50.0), "K": (2.0, 2.0**20), "delta": (1e-9, 0.1)}
BUDGET_BOX = {
    ("finite", "pure"): {"epsilon": (0.01, 10.0)},
    ("finite", "zcdp"): {"rho": (1e-4, 1.0)},  # seed 003 Thm 17 needs rho <= 1
    ("finite", "rdp"): {"alpha_rdp": (1.5, 64.0), "epsilon_rdp": (0.01, 10.0)},
    ("linear", "zcdp"): {"rho": (1e-8, 1.0)},  # seed 003 Thm 9's proof uses rho <= 1
    ("linear", "rdp"): {"alpha": (1.5, 64.0), "epsilon": (0.01, 10.0)},
    ("linear", "pure"): {"epsilon": (0.01, 10.0)},
}


# ----------------------------------------------------------------------------------------------------
# which pairs
# ----------------------------------------------------------------------------------------------------
def comparable(lower, upper) -> bool:
    """The rule of tests/bounds/test_bounds_registry.py: same setting, no 'paper' form (O-constants set to 1),
    minimax with minimax, problem-dependent/asymptotic lower with problem-dependent/asymptotic upper."""
    if lower.setting != upper.setting:
        return False
    if "ext" in (lower.seed, upper.seed):
        return False  # a baseline's published bound (bounds/baselines.py, no seed): its pairs are not the papers'
    if "paper" in (lower.form, upper.form):
        return False
    if lower.kind == "lower-minimax":
        return upper.kind == "upper-minimax"
    return upper.kind in ("upper-problem-dependent", "upper-asymptotic")


def registered_pairs() -> list:
    """Every (lower, upper) pair of the registry that the registry tests compare."""
    from ..bounds import registry

    out = []
    for setting in registry.SETTING_MODULES:
        bs = registry.select(setting=setting)
        for lo in bs:
            for up in bs:
                if lo.kind.startswith("lower") and up.kind.startswith("upper") and comparable(lo, up):
                    out.append((lo, up))
    return out


def common_notion(lower, upper) -> str | None:
    """The budget notion the pair is proven over ('none' if both are non-private), or None if none exists."""
    notions = {lower.notion, upper.notion} - {"none"}
    if not notions:
        return "none"
    if len(notions) == 1:
        return notions.pop()
    return None


# ----------------------------------------------------------------------------------------------------
# expressions
# ----------------------------------------------------------------------------------------------------
def _max_rewrite(np_part, priv):
    """np + max(0, E) with E = P - np (Max or Piecewise form) -> max(np, P); else None."""
    import sympy

    E = None
    if isinstance(priv, sympy.Max) and len(priv.args) == 2 and sympy.S.Zero in priv.args:
        E = [a for a in priv.args if a != 0][0]
    elif isinstance(priv, sympy.Piecewise) and len(priv.args) == 2 and priv.args[1][0] == 0:
        e0, c0 = priv.args[0]
        if isinstance(c0, sympy.core.relational.Relational) and sympy.simplify(c0.lhs - c0.rhs - e0) == 0:
            E = e0
    if E is None:
        return None
    P = sympy.expand(E + np_part)
    return sympy.Max(np_part, P)


def total_expression(bound):
    """nonprivate + privacy_cost of ``bound`` as one sympy expression (H_min renamed per c, max rewritten)."""
    import sympy

    np_part, priv = (sympy.sympify(a) for a in bound.expression())
    c = getattr(bound, "c", None)
    if c is not None:  # seed 001 Eq. 7: H_min depends on the bound's own c
        ren = {s: sympy.Symbol(f"H_min__c{c:g}", positive=True) for s in np_part.free_symbols | priv.free_symbols
               if s.name == "H_min"}
        np_part, priv = np_part.xreplace(ren), priv.xreplace(ren)
    # seed 001 Eq. 9 (bounds/finite_lower.py) on the pair boxes' Bernoulli instances: d_eps,inf = d_eps and
    # KL_inf = kl (tests/info/test_d_eps_inf.py), so its per-arm sums are the quantities H_eps and H_kl
    ren = {s: sympy.Symbol(s.name[:-4], positive=True) for s in np_part.free_symbols | priv.free_symbols
           if s.name in ("H_eps_inf", "H_kl_inf")}
    if ren:
        np_part, priv = np_part.xreplace(ren), priv.xreplace(ren)
    mx = _max_rewrite(np_part, priv)
    if mx is not None:
        return mx
    return _expand(np_part + priv)


def margin_expression(lower, upper, lower_scale: float = 1.0):
    import sympy

    lower_total = total_expression(lower)
    if lower_scale != 1:
        lower_total = sympy.Float(lower_scale) * lower_total
    upper_total = total_expression(upper)
    # one symbol per name: a declared bound's symbols are real, a built-in's often positive (T, rho, d, K)
    by_name = {s.name: s for s in lower_total.free_symbols}
    upper_total = upper_total.xreplace({s: by_name[s.name] for s in upper_total.free_symbols
                                        if s.name in by_name and s != by_name[s.name]})
    return _expand(upper_total - lower_total)


def _expand(expr):
    """Distribute products over sums (so that common terms cancel) without splitting logs or powers, then
    pull common factors out of the sum (H_eps ln T (alpha - 1) instead of alpha H_eps ln T - H_eps ln T)."""
    import sympy

    e = sympy.expand(expr, log=False, power_base=False, power_exp=False, multinomial=False)
    return sympy.factor_terms(e)


# ----------------------------------------------------------------------------------------------------
# finite-armed per-arm sums: intervals and 50-digit values
# ----------------------------------------------------------------------------------------------------
def _arms(b: dict):
    return sorted((k for k in b if k.startswith("mu_") and k != "mu_star"), key=lambda s: int(s[3:]))


def _finite_symbols(b: dict, needed: set, backend: str) -> dict:
    """The finite module's summary symbols at the box / point ``b`` from the registered quantities
    (boundcalc.bounds.quantities, one implementation per backend); ``H_min__c<c>`` is H_min with that c."""
    from ..bounds import quantities as qs

    env = dict(b)
    names = _arms(b)
    make = qs.arms_interval if backend == "interval" else qs.arms_mpmath
    arms = make(b["mu_star"], [b[k] for k in names], len(names) + 1)  # the box's best arm is unique
    eps = b.get("epsilon")
    for name in needed:
        if name in env:
            continue
        if name == "K":
            env[name] = arms.K
        elif name.startswith("H_min__c"):
            env[name] = qs.evaluate("H_min", arms, backend, epsilon=eps, c=float(name[len("H_min__c"):]))
        elif name in qs.QUANTITIES:
            env[name] = qs.evaluate(name, arms, backend, epsilon=eps)
    return env


def finite_symbol_intervals(b: dict, needed: set) -> dict:
    """Enclosures of the finite module's summary symbols over the box ``b`` (see the module docstring)."""
    return _finite_symbols(b, needed, "interval")


def finite_symbol_values_mp(p: dict, needed: set) -> dict:
    """The same summary symbols at a point, in mpmath (d_eps from its definition, Eq. 6)."""
    return _finite_symbols(p, needed, "mpmath")


# ----------------------------------------------------------------------------------------------------
# the pair claim
# ----------------------------------------------------------------------------------------------------
@dataclass
class PairSpec:
    lower: object
    upper: object
    notion: str | None
    reason: str = ""  # why not comparable (notion None)


def default_box(lower, upper, arms: int = 2) -> dict:
    """The natural box of a pair: the setting's instance ranges, the common notion's budget range, T."""
    setting = lower.setting
    notion = common_notion(lower, upper)
    if setting == "finite":
        box = dict(FINITE_BOX)
        for i in range(1, arms):
            box[f"mu_{i}"] = SUBOPTIMAL_RANGE
    elif setting == "linear":
        box = dict(LINEAR_BOX)
    else:
        raise ValueError(f"no natural box for the {setting} setting (no comparable pair there)")
    if notion not in (None, "none"):
        box.update(BUDGET_BOX[(setting, notion)])
    return box


def pair_claim(lower, upper, box=None, *, arms: int = 2, lower_scale: float = 1.0) -> Claim:
    """Claim: lower_scale * lower(T, budget, instance) <= upper(T, budget, instance) on the box.

    ``lower``/``upper`` are Bound objects or registry ids. Raises ValueError for a pair with no common budget.
    """
    import mpmath
    import sympy

    from ..bounds import registry
    from .sympy_eval import interval_eval

    lower = registry.get(lower) if isinstance(lower, str) else lower
    upper = registry.get(upper) if isinstance(upper, str) else upper
    notion = common_notion(lower, upper)
    if notion is None:
        raise ValueError(f"{lower.id} ({lower.notion}) and {upper.id} ({upper.notion}): no user budget makes both "
                         "apply (different private notions without a conversion between them)")
    m_expr = margin_expression(lower, upper, lower_scale)
    needed = {s.name for s in m_expr.free_symbols}
    nat = default_box(lower, upper, arms=arms)
    full = dict(nat)
    for k, v in (box or {}).items():
        full[k] = v
    if lower.setting == "finite":
        ms_lo = float(full["mu_star"][0])
        for k in _arms(full):
            if float(full[k][1]) >= ms_lo:
                raise ValueError(f"{k} must lie below mu_star's range (got {full[k]} vs mu_star {full['mu_star']})")
    needed_box = needed - set(full)
    if lower.setting == "linear" and needed_box:
        raise ValueError(f"no box range for {', '.join(sorted(needed_box))}")
    syms = sorted(m_expr.free_symbols, key=lambda s: s.name)
    f_mp = sympy.lambdify(syms, m_expr, modules="mpmath")

    def env_of(b):
        return finite_symbol_intervals(b, needed) if lower.setting == "finite" else b

    def margin(b):
        return interval_eval(m_expr, env_of(b))

    def point(p):
        env = finite_symbol_values_mp(p, needed) if lower.setting == "finite" else p
        return f_mp(*(env[s.name] for s in syms))

    scale = "" if lower_scale == 1 else f"{lower_scale:g} x "
    budget_vars = set(BUDGET_BOX.get((lower.setting, notion), {}))  # H_eps etc. depend on epsilon implicitly
    keep = {k: v for k, v in full.items()
            if k in needed or k in budget_vars or k.startswith("mu_") or k == "T" or k in (box or {})}
    return Claim(
        name=f"{scale}{lower.id} <= {upper.id}",
        statement=(f"for every point of the box: {scale}{lower.id} ({lower.source}) <= {upper.id} ({upper.source}), "
                   f"both as registered (nonprivate + privacy cost; budget notion: {notion})"
                   + (f"; instances with {arms} arms (one optimal, mean mu_star; suboptimal means mu_i)"
                      if lower.setting == "finite" else "; d and K as real intervals (so every integer value)")),
        margin=margin, point_margin=point, box=keep, source=f"{lower.source}; {upper.source}",
    )


def prove_pair(lower, upper, box=None, *, arms: int = 2, lower_scale: float = 1.0, **limits) -> ProofResult:
    return pair_claim(lower, upper, box, arms=arms, lower_scale=lower_scale).prove(None, **limits)


def prove_registered_pairs(*, arms: int = 2, progress=None, **limits) -> list[dict]:
    """Prove every registered lower <= upper pair on its natural box. One dict per pair: lower, upper and
    either ``result`` (a ProofResult) or ``not_comparable`` (the reason)."""
    out = []
    for lo, up in registered_pairs():
        try:
            claim = pair_claim(lo, up, arms=arms)
        except ValueError as exc:
            out.append({"lower": lo.id, "upper": up.id, "not_comparable": str(exc)})
            continue
        out.append({"lower": lo.id, "upper": up.id, "result": claim.prove(**limits)})
        if progress is not None:
            progress(out[-1])
    return out


def prove_thm9_le_thm4(corrected: bool = False, hp: bool = False, box=None, **limits) -> ProofResult:
    """seed 003 Thm 9 (as printed, or corrected per ERRATA 16) <= Thm 4 explicit (E[R_T] with delta = 1/T, or
    the high-probability form) over (rho, T, d, K[, delta])."""
    lower = "003-thm9-corrected" if corrected else "003-thm9"
    upper = "003-thm4-explicit-hp" if hp else "003-thm4-explicit"
    return prove_pair(lower, upper, box, **limits)


