"""The symbols of the bounds' expressions and ``requires`` relations, with their meaning, one table per setting
(issue 15 item 1: "its symbols with their meaning and domain"), declared once here and used by ``bounds show`` for
built-in and declared (plugin) bounds alike.

Each entry is ``name: (meaning, domain)``. Where a symbol's value comes from is derived, not written:

* ``T``: the horizon;
* a budget symbol of the bound's notion (``BUDGET``): the budget converted to the bound's own notion;
* a registered quantity (boundcalc.bounds.quantities, one registry): computed from the instance, with its
  defining formula (first line of its docstring);
* otherwise: a parameter of the instance (the setting's ``derive`` computes the derived ones: gaps, norms, rank,
  λ_min …) or a per-bound constant of ``symbol_values``.

Sources of the instance parameters: DEFAULT_INSTANCE and derive() of each setting module (boundcalc.bounds.finite,
linear, contextual, glm) and the papers named there (docs/papers.md).
"""

from __future__ import annotations

# Instance parameters of each setting a declared bound (boundcalc.bounds.declared, plugins) may use: scalars of the
# setting's Context (DEFAULT_INSTANCE and derive() of boundcalc.bounds.<setting>); each has its meaning below.
INSTANCE_SYMBOLS = {
    "finite": ("K", "Delta_min", "Delta_max", "mu_star", "n_best"),
    "linear": ("d", "K", "delta", "Delta_min", "theta_norm", "max_action_norm"),
    "contextual": ("d", "K", "delta", "lam", "lam0", "C", "L", "S", "zeta", "theta_norm", "max_action_norm"),
    "glm": ("d", "K", "delta", "C_B", "c_r", "sigma_r", "kappa_u", "kappa_l", "p_star", "zeta", "L", "gamma", "beta",
            "p_prime", "R"),
}
# -- the budget symbols, declared once (issue 23 item 4) -------------------------------------------------------------
# notion -> {symbol of a bound's expression: (attribute of the budget object of boundcalc.privacy.budgets that gives
# its value, keyword of ``check``'s bound("ID", ...) call that sets it)}; a setting whose bounds name a budget symbol
# otherwise has its own (setting, notion) entry (the finite RDP bounds: alpha_rdp / epsilon_rdp; seed 002's GLM
# bounds: the mechanism's delta_p). The (epsilon, delta)-DP delta is ``delta_dp`` since ``delta`` is the confidence of
# the instance. Every other table of budget symbols derives from this one: BUDGET_SYMBOLS and BUDGET_OF_NOTION here,
# declared.BUDGET_ATTR (a declared bound's symbol -> budget attribute), finite._BUDGET_SYMBOLS (a finite bound's
# symbols), _linear_common.BaseBound.symbol_values, rigorous.bound_calls.BUDGET_SYMBOLS (check's keyword ->
# symbol), verify.claims.pairs._budget (a pair's budget from its parameters); tests/bounds/test_budget_symbols.py
# checks each against it.
BUDGET_PARAMETERS = {
    "none": {},
    "pure": {"epsilon": ("epsilon", "epsilon")},
    "zcdp": {"rho": ("rho", "rho")},
    "rdp": {"alpha": ("alpha", "alpha"), "epsilon": ("epsilon", "rdp_epsilon")},
    "approx": {"epsilon": ("epsilon", "epsilon"), "delta_dp": ("delta", "delta")},
    "ldp": {"epsilon": ("epsilon", "ldp_epsilon"), "delta_dp": ("delta", "ldp_delta")},
    ("finite", "rdp"): {"alpha_rdp": ("alpha", "alpha"), "epsilon_rdp": ("epsilon", "rdp_epsilon")},
    ("glm", "ldp"): {"epsilon": ("epsilon", "ldp_epsilon"), "delta_p": ("delta", "ldp_delta")},
}
NOTIONS = tuple(k for k in BUDGET_PARAMETERS if isinstance(k, str))


def budget_parameters(setting: str | None, notion: str) -> dict:
    """{symbol: (budget attribute, check keyword)} of the bounds of ``setting`` (None: a declared bound) in
    ``notion``: the setting's own entry of :data:`BUDGET_PARAMETERS`, else the notion's."""
    return BUDGET_PARAMETERS.get((setting, notion), BUDGET_PARAMETERS[notion])


# Budget symbols of each notion for a declared bound (the budget converted to the bound's own notion by
# Context.budget_for), and the value of each from the budget object.
BUDGET_SYMBOLS = {n: tuple(BUDGET_PARAMETERS[n]) for n in NOTIONS}
BUDGET_ATTR = {s: a for n in NOTIONS for s, (a, _) in BUDGET_PARAMETERS[n].items()}

# -- budgets, by symbol: every notion's symbols (finite rdp uses alpha_rdp / epsilon_rdp) ---------------------------
BUDGET = {
    "epsilon": ("privacy parameter ε of the bound's notion (pure, approximate, local DP; RDP order's ε)", "ε > 0"),
    "rho": ("zCDP parameter ρ", "ρ > 0"),
    "alpha": ("Rényi order α of the RDP budget", "α > 1"),
    "alpha_rdp": ("Rényi order α of the RDP budget", "α > 1"),
    "epsilon_rdp": ("RDP ε at order α", "ε > 0"),
    "delta_dp": ("δ of an (ε, δ)-DP budget (``delta`` is the instance's confidence)", "0 ≤ δ < 1"),
    "delta_p": ("δ of the (ε, δ)-LDP budget of the mechanism (seed 002 Lemma 2.1)", "0 ≤ δ < 1"),
}
# which symbols are the budget, per notion (the rest of BUDGET can also be a per-bound constant): every setting's
BUDGET_OF_NOTION = {
    n: tuple(dict.fromkeys(s for k, m in BUDGET_PARAMETERS.items() if k == n or (isinstance(k, tuple) and k[1] == n)
                           for s in m))
    for n in NOTIONS
}

HORIZON = ("horizon T (number of rounds)", "T ≥ 1")

FINITE = {
    "K": ("number of arms (optimal ones included)", "integer ≥ 2"),
    "mu_star": ("largest arm mean μ*", "(0, 1) for Bernoulli arms"),
    "mu_min": ("smallest arm mean", "(0, 1) for Bernoulli arms"),
    "H_kl_inf": ("Σ_{a:Δ_a>0} Δ_a/KL_inf(ν_a, μ*): the Lai–Robbins constant for arms on [0, 1] (seed 001 Eq. 3; "
                 "computed by boundcalc.bounds.finite_lower)", "> 0"),
    "H_eps_inf": ("Σ_{a:Δ_a>0} Δ_a/d_{ε,inf}(ν_a, μ*) (seed 001 Eq. 9; computed by boundcalc.bounds.finite_lower)",
                  "> 0"),
    "n_best": ("number of arms with mean μ*", "integer ≥ 1"),
    "n_sub": ("number of suboptimal arms #{a : Δ_a > 0}", "integer ≥ 0"),
    "Delta_min": ("smallest positive gap Δ_a = μ* − μ_a", "(0, 1)"),
    "Delta_max": ("largest gap max_a Δ_a", "[0, 1)"),
    "alpha_batch": ("batch ratio α of DP-KLUCB / DP-IMED (seed 001 §5)", "α > 1"),
    "alpha_adap": ("optimism α of AdaP-UCB / AdaP-KLUCB (Azize & Basu 2022)", "α > 3"),
    "beta_adac": ("β of AdaC-UCB (seed 003 Thm 10/11)", "β > 3"),
    "beta_adar": ("β of AdaR-UCB (seed 000 Thm 5)", "β > 3"),
    "klucb_c": ("c of KL-UCB's exploration ln t + c ln ln t (Garivier & Cappé 2011 Thm 1: c = 3)", "c ≥ 0; the bound "
                "needs c ≥ 3"),
}

LINEAR = {
    "d": ("dimension of the actions", "integer ≥ 1"),
    "K": ("number of actions", "integer ≥ 2"),
    "delta": ("confidence δ of the high-probability statements", "(0, 1)"),
    "Delta_min": ("smallest positive gap of the actions", "> 0"),
    "theta_norm": ("‖θ*‖", "≤ 1 under Assumption 1"),
    "max_action_norm": ("max_a ‖x_a‖", "≤ 1 under Assumption 1"),
    "rank": ("rank of the action matrix", "= d (actions span R^d)"),
}

CONTEXTUAL = {
    "d": ("dimension of the contexts", "integer ≥ 1"),
    "K": ("number of actions per round", "integer ≥ 1"),
    "delta": ("confidence δ of seeds 003 / 000", "(0, 1)"),
    "lam": ("ridge regularisation λ", "λ > 0 (the proofs: λ ≥ 1, ERRATA 11)"),
    "lam0": ("λ_0 = λ_min(E[x xᵀ]) of the context distribution", "λ_0 > 0"),
    "C": ("rarely-switching constant (det doubling)", "C > 0"),
    "L": ("bound on ‖x‖ (seed 004)", "L > 0"),
    "S": ("bound on ‖θ*‖ (seed 004)", "S > 0"),
    "zeta": ("failure probability ζ of the regret statement (seed 004)", "(0, 1)"),
    "theta_norm": ("‖θ*‖", "≤ 1 under Assumption 1"),
    "max_action_norm": ("largest context norm", "≤ 1 under Assumption 1"),
    "perturb_sigma": ("std σ of the N(0, σ² I) context perturbation (LinUCB-DGS, seed 004 Cor. 1)", "σ > 0"),
    "sigma_z": ("σ of the context perturbation in seed 004 Cor. 1 (= perturb_sigma)", "σ > 0"),
    "kappa": ("κ = (1+C)(1+λ) (+1 if λ < 1): the rarely-switching update-count factor (seed 003 Thm 14)", "> 0"),
    "s_star": ("the horizon where h(s) = s l(s)/(λ + max(0, g(s))) peaks (contextual.py _s_star; seed 003 Thm 14)",
               "≥ 1"),
}

GLM = {
    "d": ("dimension of the contexts", "integer ≥ 1"),
    "K": ("number of arms", "integer ≥ 2"),
    "delta": ("failure probability (the paper's α)", "(0, 1/e]"),
    "C_B": ("bound on ‖x‖ (seed 002 A1)", "> 0"),
    "c_r": ("bound on |r| (seed 002 A1)", "> 0"),
    "sigma_r": ("reward-noise subgaussian parameter", "> 0"),
    "kappa_u": ("λ_max(Σ) = κ_u/d (seed 002 A2)", "> 0"),
    "kappa_l": ("diversity constant κ_l of A3 (seed 002)", "> 0"),
    "p_star": ("probability p_* of A3 (seed 002)", "(0, 1]"),
    "zeta": ("inf μ' of the link (seed 002)", "> 0"),
    "L": ("Lipschitz constant of the link μ", "> 0"),
    "gamma": ("margin constant γ (seed 002 A4/A6)", "> 0"),
    "beta": ("margin exponent β (seed 002 A4/A6)", "≥ 0"),
    "p_prime": ("diversity probability p' of A5 (multi-parameter)", "(0, 1]"),
    "R": ("L2-ball radius 2 c_r C_B of the SGD gradient (seed 002 Eq. 3.5)", "> 0"),
}

SETTINGS = {"finite": FINITE, "linear": LINEAR, "contextual": CONTEXTUAL, "glm": GLM}


def meaning(setting: str, name: str, notion: str | None = None) -> dict | None:
    """{symbol, meaning, domain, where} of one symbol of a ``setting`` bound, or None if it is not documented.

    ``where`` says where its value comes from: "horizon", "budget (<notion>)", "registered quantity: <formula>"
    or "instance parameter"."""
    from . import quantities

    if name == "T":
        return {"symbol": name, "meaning": HORIZON[0], "domain": HORIZON[1], "where": "horizon"}
    table = SETTINGS.get(setting, {})
    try:
        q = quantities.get(name)
    except KeyError:
        q = None
    if q is not None and (q.setting == setting or not q.args):
        return {"symbol": name, "meaning": q.summary, "domain": "computed",
                "where": f"registered quantity {q.signature()}"}
    if notion is not None and name in BUDGET_OF_NOTION.get(notion, ()) and name in BUDGET:
        m, dom = BUDGET[name]
        if setting == "glm" and name == "alpha":
            m = "failure probability α (= the instance's delta; seed 002)"
        return {"symbol": name, "meaning": m, "domain": dom, "where": f"budget ({notion})"}
    if name in table:
        m, dom = table[name]
        return {"symbol": name, "meaning": m, "domain": dom, "where": "instance parameter"}
    if name in BUDGET:
        m, dom = BUDGET[name]
        if setting == "glm" and name == "alpha":
            return {"symbol": name, "meaning": "failure probability α (= the instance's delta; seed 002)",
                    "domain": "(0, 1/e]", "where": "instance parameter"}
        return {"symbol": name, "meaning": m, "domain": dom, "where": "budget"}
    return None


def relations_as_data(bound) -> tuple:
    """The bound's assumptions as sympy relations: its ``requires`` (built-in bounds), else the parsed
    ``assumption_relations`` of a declared (plugin) bound."""
    from .base import requirement_relations

    return tuple(requirement_relations(bound)) or tuple(getattr(bound, "assumption_relations", ()) or ())


def bound_symbols(bound) -> list[dict]:
    """The table of a bound's symbols (expression and ``requires``), T first then by name; an undocumented symbol
    has meaning "" (tests/bounds/test_symbols.py requires none)."""
    import sympy

    from . import quantities

    names: set[str] = set()
    for e in bound.expression():
        names |= {s.name for s in sympy.sympify(e).free_symbols}
    funcs: set[str] = set()
    for e in bound.expression():
        funcs |= {type(f).__name__ for f in sympy.sympify(e).atoms(sympy.Function)}
    for r in relations_as_data(bound):
        names |= {s.name for s in r.free_symbols}
    rows = []
    for n in sorted(funcs):
        try:
            q = quantities.get(n)
        except KeyError:
            continue
        rows.append({"symbol": q.signature(), "meaning": q.summary, "domain": "computed",
                     "where": "registered quantity (a function of the expression)"})
    for n in sorted(names, key=lambda s: (s != "T", s.lower())):
        row = meaning(bound.setting, n, bound.notion)
        rows.append(row or {"symbol": n, "meaning": "", "domain": "", "where": "undocumented"})
    return rows
