"""`boundcalc convert`: what a privacy budget implies in the other notions (pure, zCDP, RDP, (ε, δ)).

Budgets: ``--rho R`` (ρ-zCDP), ``--epsilon E`` (pure ε-DP), ``--epsilon E --delta D`` ((ε, δ)-DP), or
``--alpha A --rdp-epsilon E`` ((α, ε)-RDP). ``--delta`` is the target δ for zCDP/RDP (default 1e-6).
The mathematics lives in boundcalc.privacy (imported inside the command).
"""

from __future__ import annotations

import typer

from . import common, options
from .common import command

DEFAULT_DELTA = 1e-6
# privacy.mechanisms.gaussian_epsilon overflows (a RuntimeWarning, then a wrong value) for ρ above about 1e19
# (e^ε Φ(·) in gaussian_delta); its row is shown only up to this ρ until that function is fixed.
GAUSSIAN_EPS_MAX_RHO = 1e15
DEFAULT_ALPHAS = (1.5, 2.0, 4.0, 8.0, 16.0, 32.0)


def parse_budget(rho, epsilon, delta, alpha, rdp_epsilon):
    """Validate the options and build the user's budget; returns (budget, delta or None, alphas list)."""
    from .. import validate
    from ..errors import InputError
    from ..privacy.budgets import RDP, ZCDP, ApproxDP, PureDP

    given = [n for n, x in (("--rho", rho), ("--epsilon", epsilon), ("--rdp-epsilon", rdp_epsilon)) if x is not None]
    if not given:
        raise InputError("--rho/--epsilon/--rdp-epsilon", "given: one budget (--rho R, --epsilon E [--delta D], "
                         "or --alpha A --rdp-epsilon E)")
    if len(given) > 1:
        raise InputError(given[1], f"not combined with {given[0]} (give one budget)")
    d = validate.open_unit("--delta", delta) if delta is not None else None
    alphas = None
    if alpha is not None:
        alphas = validate.float_list("--alpha", alpha, lambda n, x: validate.greater_than(n, x, 1.0))
    if rho is not None:
        return ZCDP(validate.positive("--rho", rho)), d, alphas
    if epsilon is not None:
        e = validate.positive("--epsilon", epsilon)
        return (ApproxDP(e, d) if d is not None else PureDP(e)), d, alphas
    er = validate.positive("--rdp-epsilon", rdp_epsilon)
    if not alphas:
        raise InputError("--alpha", "given (one order > 1) with --rdp-epsilon")
    if len(alphas) != 1:
        raise InputError("--alpha", "a single order > 1 with --rdp-epsilon", alpha)
    return RDP(alphas[0], er), d, None


def convert_rows(budget, delta, alphas):
    """Pure function: (main value, main label, rows) for the budget; each row is (quantity, value, source)."""
    import math

    from ..privacy import conversions as c
    from ..privacy import mechanisms as m

    rows: list[tuple[str, object, str]] = []
    alphas = list(alphas) if alphas else list(DEFAULT_ALPHAS)
    dl = delta if delta is not None else DEFAULT_DELTA
    dtag = f"δ = {dl:g}" + ("" if delta is not None else " (default)")

    if budget.notion == "zcdp":
        rho = budget.rho
        es = float(c.zcdp_to_approx_simple(rho, dl))
        et, a_opt = c.zcdp_to_approx_tight(rho, dl, return_alpha=True)
        rows.append((f"(ε, δ)-DP simple, {dtag}", es, "Bun–Steinke 2016 Prop. 1.3: ρ + 2√(ρ ln 1/δ)"))
        rows.append((f"(ε, δ)-DP tight, {dtag}", et, "Canonne–Kamath–Steinke 2020 Cor. 13 (optimised over α)"))
        if not math.isnan(a_opt):
            rows.append(("  optimal order α", a_opt, "argmin of the CKS expression"))
        rows.append((f"δ at ε = {es:.6g} (tight)", c.zcdp_delta_tight(rho, es), "CKS 2020 Cor. 13: δ(ε)"))
        sig = m.gaussian_sigma_zcdp(1.0, rho)
        if rho <= GAUSSIAN_EPS_MAX_RHO:
            rows.append((f"Gaussian mechanism at this ρ: exact ε, {dtag}", m.gaussian_epsilon(dl, 1.0, sig),
                         "Balle–Wang 2018 Thm 8 (Gaussian only; lower limit for any conversion)"))
        else:
            rows.append((f"Gaussian mechanism at this ρ: exact ε, {dtag}", "not computed",
                         f"Balle–Wang 2018 Thm 8: computed for ρ ≤ {GAUSSIAN_EPS_MAX_RHO:g} only (float overflow)"))
        for a in alphas:
            rows.append((f"RDP ε at α = {a:g}", float(c.zcdp_to_rdp(rho, a)), "Bun–Steinke Def. 1.1: αρ"))
        rows.append(("pure ε-DP implied", "none", "ρ-zCDP does not imply pure DP"))
        rows.append(("ε-DP algorithms meeting this ρ: ε ≤", math.sqrt(2 * rho), "Bun–Steinke Prop. 1.4: ε²/2 ≤ ρ"))
        rows.append(("Gaussian σ per unit L2 sensitivity", sig, "Bun–Steinke Prop. 1.6: Δ/√(2ρ)"))
        return et, "epsilon (tight, CKS) at delta", rows, dl

    if budget.notion == "pure":
        eps = budget.epsilon
        rho = float(c.pure_to_zcdp(eps))
        rows.append(("zCDP ρ", rho, "Bun–Steinke 2016 Prop. 1.4: ε²/2"))
        rows.append(("(ε, δ)-DP", f"({eps:.6g}, 0)", "pure DP is (ε, 0)-DP"))
        rows.append((f"(ε', δ)-DP tight, {dtag}", c.pure_to_approx_tight_epsilon(eps, dl),
                     "Kairouz–Oh–Viswanath 2015 Thm 2.1: ln(e^ε − δ(1+e^ε))"))
        for a in alphas:
            rows.append((f"RDP ε at α = {a:g}", float(c.pure_to_rdp(eps, a)), "min(ε, αε²/2) (Bun–Steinke Prop. 1.4)"))
            rows.append((f"  exact at α = {a:g}", c.pure_to_rdp_exact(eps, a), "Bun–Steinke Prop. 3.3 (randomised response)"))
        rows.append(("Laplace scale per unit L1 sensitivity", m.laplace_scale(1.0, eps), "Dwork–Roth Thm 3.6: Δ/ε"))
        return rho, "rho (zCDP implied, Bun-Steinke Prop 1.4)", rows, dl

    if budget.notion == "approx":
        eps, d = budget.epsilon, budget.delta
        rs = float(c.approx_to_zcdp_calibration(eps, d))
        rt = c.approx_to_zcdp_calibration_tight(eps, d)
        rows.append(("largest ρ meeting (ε, δ), simple", rs, "inverse of Bun–Steinke Prop. 1.3"))
        rows.append(("largest ρ meeting (ε, δ), tight", rt, "inverse of CKS 2020 Cor. 13 (bisection)"))
        res = c.approx_to_rdp_calibration_tight(eps, d)
        if res is not None:
            rows.append(("RDP budget meeting (ε, δ): α", res[0], "CKS 2020 Prop. 12, α maximising ε_R/α"))
            rows.append(("RDP budget meeting (ε, δ): ε_R", res[1], "CKS 2020 Prop. 12"))
        for a in alphas:
            er = c.approx_to_rdp_epsilon(eps, d, a)
            if er is not None:
                rows.append((f"RDP ε_R meeting (ε, δ) at α = {a:g}", er, "CKS 2020 Prop. 12"))
            else:
                rows.append((f"RDP ε_R meeting (ε, δ) at α = {a:g}", "none", "no ε_R > 0 works at this order"))
        rows.append(("ε-DP algorithms meeting it: ε ≤", eps, "ε-DP ⇒ (ε, δ)-DP"))
        rows.append(("Gaussian σ (Δ = 1), classical", m.gaussian_sigma_classic(1.0, eps, d),
                     "Dwork–Roth Thm A.1" + ("" if eps < 1 else " (proved for ε < 1 only)")))
        rows.append(("Gaussian σ (Δ = 1), analytic", m.gaussian_sigma_analytic(1.0, eps, d), "Balle–Wang 2018 Thm 8"))
        rows.append(("Gaussian σ (Δ = 1) via tight ρ", m.gaussian_sigma_zcdp(1.0, rt), "Bun–Steinke Prop. 1.6 at tight ρ"))
        rows.append(("pure / zCDP implied", "none", "(ε, δ)-DP with δ > 0 implies neither"))
        return rt, "rho (largest, tight CKS calibration)", rows, d

    # RDP
    a0, er = budget.alpha, budget.epsilon
    es = float(c.rdp_to_approx_simple(a0, er, dl))
    et = c.rdp_to_approx_tight(a0, er, dl)
    rows.append((f"(ε, δ)-DP simple, {dtag}", es, "Mironov 2017 Prop. 3: ε + ln(1/δ)/(α−1)"))
    rows.append((f"(ε, δ)-DP tight, {dtag}", et, "Canonne–Kamath–Steinke 2020 Prop. 12"))
    rows.append(("zCDP implied", "none", "one Rényi order does not imply zCDP"))
    rho = er / a0
    rows.append(("ρ-zCDP algorithms meeting it: ρ ≤", rho, "ρ-zCDP ⇒ (α, αρ)-RDP"))
    rows.append((f"if Gaussian (e.g. AdaR-*): ρ = ε/α, tight ε, {dtag}", c.zcdp_to_approx_tight(rho, dl),
                 "seed 000 sheet §1.5 (DERIVED) + CKS 2020 Cor. 13"))
    rows.append(("ε-DP algorithms meeting it: ε ≤", c.rdp_to_pure_calibration(a0, er, tight=True),
                 "Bun–Steinke Prop. 3.3 (tight)"))
    rows.append(("  simple: ε ≤", c.rdp_to_pure_calibration(a0, er, tight=False), "min(ε, αε²/2) ≤ ε_R"))
    rows.append(("Gaussian σ per unit L2 sensitivity", m.gaussian_sigma_rdp(1.0, a0, er), "Mironov 2017 Prop. 7: √(α/(2ε))"))
    return et, "epsilon (tight, CKS Prop 12) at delta", rows, dl


def _precise_rows(budget, delta, digits):
    """The main closed-form conversions at ``digits`` significant digits, as decimal strings."""
    import mpmath

    from ..privacy import conversions_mp as cm

    with mpmath.workdps(digits + 5):
        if budget.notion == "zcdp":
            vals = [("(ε, δ) simple", cm.zcdp_to_approx_simple_mp(budget.rho, delta)),
                    ("(ε, δ) tight", cm.zcdp_to_approx_tight_mp(budget.rho, delta))]
        elif budget.notion == "pure":
            vals = [("zCDP ρ", cm.pure_to_zcdp_mp(budget.epsilon))]
        elif budget.notion == "approx":
            vals = [("largest ρ, simple", cm.approx_to_zcdp_calibration_mp(budget.epsilon, budget.delta))]
        else:
            vals = [("(ε, δ) simple", cm.rdp_to_approx_simple_mp(budget.alpha, budget.epsilon, delta)),
                    ("(ε, δ) tight", cm.rdp_to_approx_tight_mp(budget.alpha, budget.epsilon, delta))]
        return [(q, mpmath.nstr(v, digits)) for q, v in vals]


def register(app: typer.Typer) -> None:
    @app.command("convert")
    @command
    def convert(
        rho: options.RhoOpt = None,
        epsilon: options.EpsilonOpt = None,
        delta: options.DeltaOpt = None,
        alpha: options.AlphaListOpt = None,
        rdp_epsilon: options.RdpEpsilonOpt = None,
        json_out: options.JsonOpt = False,
        digits: options.DigitsOpt = None,
        symbolic: options.SymbolicOpt = False,
    ):
        """Show what a privacy budget implies: (ε, δ) simple and tight, RDP curve, zCDP/pure equivalents."""
        common.check_digits(digits)
        budget, d, alphas = parse_budget(rho, epsilon, delta, alpha, rdp_epsilon)
        value, label, rows, dl = convert_rows(budget, d, alphas)
        inputs = {"rho": rho, "epsilon": epsilon, "delta": delta, "alpha": alpha, "rdp_epsilon": rdp_epsilon,
                  "digits": digits}
        precise = _precise_rows(budget, dl, digits) if digits is not None else []
        if json_out:
            extra = {"precise": [{"quantity": q, "value": v} for q, v in precise]} if digits is not None else {}
            common.emit_json(
                "convert", inputs, value=value, value_label=label, budget=budget.as_dict(), delta_used=dl,
                rows=[{"quantity": q, "value": v, "source": s} for q, v, s in rows], **extra,
            )
            return
        from rich.table import Table

        t = Table(title=f"convert — {budget.describe()}", header_style="bold",
                  caption=f"main value ({label}): {common.fmt(value)}")
        t.add_column("quantity", style="cyan")
        t.add_column("value", justify="right")
        t.add_column("source")
        for q, v, s in rows:
            t.add_row(q, common.fmt(v), s)
        for q, v in precise:
            t.add_row(f"{q} ({digits} digits)", v, "mpmath (boundcalc.privacy.conversions_mp)")
        common.console().print(t)
        if symbolic:
            from ..privacy.conversions_mp import formulas_sym

            common.print_symbolic(formulas_sym(budget.notion))
