"""CLI commands ``kl``, ``kl-inf`` and ``d-eps`` (information quantities of boundcalc.info).

Only typer/rich/stdlib at import time; numpy/mpmath/sympy are imported inside the command bodies.
Numeric options are read as strings so that ``--digits N`` evaluates the decimal input exactly
(0.3 is 3/10, not the nearest binary double).
"""

from __future__ import annotations

import contextlib
from typing import Annotated, Optional

import typer

from .common import DigitsOpt, JsonOpt, SymbolicOpt, check_digits, command, console, emit_json, kv_table, print_symbolic

FloatStr = dict(metavar="FLOAT")


def _prob(name: str, text: str) -> float:
    from .. import validate

    return validate.probability(name, text)


def _pos(name: str, text: str) -> float:
    from .. import validate

    return validate.positive(name, text)


def _level(text: str) -> float:
    from ..errors import InputError

    try:
        v = float(text)
    except ValueError:
        raise InputError("--level", "a number >= 0", text) from None
    if not v >= 0:  # also rejects NaN
        raise InputError("--level", "a number >= 0", text)
    return v


def _precision(digits):
    """Context: mpmath.workdps(digits) when --digits is given, else a no-op."""
    if digits is None:
        return contextlib.nullcontext(None)
    import mpmath

    return mpmath.workdps(digits)


def _mp(text):
    """The decimal text as an mpmath number at the working precision (0.3 is 3/10). Forms that Python's float
    accepts but mpmath does not ('Infinity', '1_000', ' 0.3 ') go through float; the value was validated."""
    import math

    import mpmath

    t = str(text).strip()
    try:
        return mpmath.mpf(t)
    except (ValueError, TypeError):
        v = float(t)
        return mpmath.inf if math.isinf(v) and v > 0 else (-mpmath.inf if math.isinf(v) else mpmath.mpf(t.replace("_", "")))


def _show(title, rows, caption=None):
    console().print(kv_table(title, rows, caption=caption))


# ----------------------------------------------------------------------------------------------------


def kl_cmd(
    p: Annotated[str, typer.Option("--p", help="First Bernoulli mean p in [0, 1].", **FloatStr)],
    q: Annotated[str, typer.Option("--q", help="Second Bernoulli mean q in [0, 1].", **FloatStr)],
    level: Annotated[
        Optional[str], typer.Option("--level", help="Also show kl-UCB/kl-LCB of p at this level (>= 0).", **FloatStr)
    ] = None,
    sigma: Annotated[
        Optional[str],
        typer.Option("--sigma", help="Also show Gaussian KL(N(p, sigma^2), N(q, sigma_q^2)).", **FloatStr),
    ] = None,
    sigma_q: Annotated[
        Optional[str], typer.Option("--sigma-q", help="Std of the second Gaussian (default: --sigma).", **FloatStr)
    ] = None,
    json_out: JsonOpt = False,
    digits: DigitsOpt = None,
    symbolic: SymbolicOpt = False,
):
    """Bernoulli kl(p, q), TV, and optionally the kl-UCB/LCB indexes and Gaussian KL (seed 001 §2)."""
    from .. import validate

    pv, qv = _prob("--p", p), _prob("--q", q)
    lv = None if level is None else _level(level)
    sv = None if sigma is None else _pos("--sigma", sigma)
    sqv = None if sigma_q is None else _pos("--sigma-q", sigma_q)
    if sqv is not None and sv is None:
        from ..errors import InputError

        raise InputError("--sigma-q", "given together with --sigma", sigma_q)
    check_digits(digits)
    from .. import info

    inputs = {"p": pv, "q": qv, "level": lv, "sigma": sv, "sigma_q": sqv, "digits": digits}
    with _precision(digits):
        if digits is None:
            kl = info.kl_bernoulli(pv, qv)
            tv = info.tv_bernoulli(pv, qv)
            ucb = None if lv is None else info.kl_ucb(pv, lv)
            lcb = None if lv is None else info.kl_lcb(pv, lv)
            gk = None if sv is None else info.kl_gaussian(pv, qv, sv, sqv)
        else:
            P, Q = _mp(p), _mp(q)
            kl = info.kl_bernoulli_mp(P, Q)
            tv = info.tv_bernoulli_mp(P, Q)
            L = None if lv is None else _mp(level)
            ucb = None if lv is None else info.kl_ucb_mp(P, L)
            lcb = None if lv is None else info.kl_lcb_mp(P, L)
            gk = None if sv is None else info.kl_gaussian_mp(P, Q, _mp(sigma), None if sigma_q is None else _mp(sigma_q))
        fields = {"value": kl, "kl": kl, "tv": tv}
        if lv is not None:
            fields.update(kl_ucb=ucb, kl_lcb=lcb)
        if sv is not None:
            fields["kl_gaussian"] = gk
        if symbolic:
            exprs = [("kl(p, q)", info.kl_bernoulli_sym()), ("TV(Ber p, Ber q)", info.tv_bernoulli_sym())]
            if sv is not None:
                exprs.append(("KL(N(μ₁,σ₁²), N(μ₂,σ₂²))", info.kl_gaussian_sym()))
        if json_out:
            if symbolic:
                fields["formula"] = {n: str(e) for n, e in exprs}
            emit_json("kl", inputs, **fields)
            return
        rows = [("kl(p, q)", kl), ("TV = |p − q|", tv)]
        if lv is not None:
            rows += [("kl-UCB: max{x ≥ p : kl(p,x) ≤ level}", ucb), ("kl-LCB: min{x ≤ p : kl(p,x) ≤ level}", lcb)]
        if sv is not None:
            rows.append(("KL(N(p,σ²), N(q,σ_q²))", gk))
        _show(f"kl  (p = {p}, q = {q})", rows, caption="seed 001 §2; kl-UCB: Cappé et al. 2013")
        if symbolic:
            print_symbolic(exprs)


def kl_inf_cmd(
    mu_star: Annotated[str, typer.Option("--mu-star", help="Target mean μ* in [0, 1].", **FloatStr)],
    mu: Annotated[Optional[str], typer.Option("--mu", help="Bernoulli mean μ (Bernoulli form).", **FloatStr)] = None,
    support: Annotated[
        Optional[str], typer.Option("--support", help="Support points in [0,1], e.g. 0,0.5,1.", metavar="LIST")
    ] = None,
    weights: Annotated[
        Optional[str], typer.Option("--weights", help="Probabilities of the support points (sum 1).", metavar="LIST")
    ] = None,
    json_out: JsonOpt = False,
    digits: DigitsOpt = None,
    symbolic: SymbolicOpt = False,
):
    """KL_inf(ν, μ*) = inf{KL(ν, ν') : mean(ν') > μ*} (seed 001 Eq. 3; Honda–Takemura dual for finite support)."""
    from .. import validate
    from ..errors import InputError

    msv = _prob("--mu-star", mu_star)
    if (mu is None) == (support is None):
        raise InputError("--mu / --support", "exactly one of them (Bernoulli form or finite support)", None)
    check_digits(digits)
    from .. import info

    with _precision(digits):
        if mu is not None:
            if weights is not None:
                raise InputError("--weights", "used only with --support", weights)
            muv = _prob("--mu", mu)
            inputs = {"mu": muv, "mu_star": msv, "digits": digits}
            val = info.kl_inf_bernoulli(muv, msv) if digits is None else info.kl_inf_bernoulli_mp(_mp(mu), _mp(mu_star))
            fields = {"value": val, "form": "bernoulli", "mean": muv}
            rows = [("form", "Bernoulli: kl(μ, μ*) if μ < μ*, else 0"), ("KL_inf", val)]
            exprs = [("KL_inf(Ber μ, μ*)", info.kl_inf_bernoulli_sym())] if symbolic else []
        else:
            if weights is None:
                raise InputError("--weights", "given with --support", None)
            xs = validate.float_list("--support", support, validate.probability)
            ws = validate.float_list("--weights", weights, validate.nonnegative)
            if len(ws) != len(xs):
                raise InputError("--weights", f"{len(xs)} entries (one per support point)", len(ws))
            if abs(sum(ws) - 1.0) > 1e-9:
                raise InputError("--weights", "weights summing to 1", sum(ws))
            mean = sum(x * w for x, w in zip(xs, ws))
            inputs = {"support": xs, "weights": ws, "mu_star": msv, "digits": digits}
            val, lam = info.kl_inf_finite(xs, ws, msv, return_lambda=True)
            if digits is not None:
                sx = [s.strip() for s in support.replace(";", ",").split(",") if s.strip()]
                sw = [s.strip() for s in weights.replace(";", ",").split(",") if s.strip()]
                val = info.kl_inf_finite_mp([_mp(s) for s in sx], [_mp(s) for s in sw], _mp(mu_star))
            fields = {"value": val, "form": "finite support (Honda–Takemura dual)", "mean": mean, "lambda_star": lam}
            rows = [
                ("form", "finite support, dual max_λ E ln(1 − λ(X − μ*))"),
                ("mean of ν", mean),
                ("λ* (dual maximiser)", lam),
                ("λ range", f"[0, {'∞' if msv == 1 else f'{1 / (1 - msv):.6g}'}]"),
                ("KL_inf", val),
            ]
            if symbolic:
                from ..info.kl_inf import kl_inf_dual_sym

                exprs = [("Honda–Takemura dual objective (maximise over λ)", kl_inf_dual_sym())]
            else:
                exprs = []
        if json_out:
            if symbolic:
                fields["formula"] = {n: str(e) for n, e in exprs}
            emit_json("kl-inf", inputs, **fields)
            return
        _show(f"KL_inf  (μ* = {mu_star})", rows, caption="seed 001 Eq. 3; Honda & Takemura 2010/2015")
        if symbolic:
            print_symbolic(exprs)


def d_eps_cmd(
    mu: Annotated[str, typer.Option("--mu", help="Mean μ being moved (first argument of d_ε), in [0, 1].", **FloatStr)],
    mu_star: Annotated[str, typer.Option("--mu-star", help="Target mean μ* (second argument), in [0, 1].", **FloatStr)],
    epsilon: Annotated[str, typer.Option("--epsilon", help="Privacy budget ε > 0.", **FloatStr)],
    n_pulls: Annotated[
        Optional[str], typer.Option("--N", help="Pulls N: also show the DP-KLUCB index (needs --t).", metavar="COUNT")
    ] = None,
    t: Annotated[Optional[str], typer.Option("--t", help="Round t for the DP-KLUCB index (ln t).", metavar="COUNT")] = None,
    json_out: JsonOpt = False,
    digits: DigitsOpt = None,
    symbolic: SymbolicOpt = False,
):
    """d_ε(μ, μ*) = inf_z ε|z − μ| + kl(z, μ*) (seed 001 Eq. 6; closed form Eq. 8 / Lemma F.1)."""
    from .. import validate
    from ..errors import InputError

    x, y, e = _prob("--mu", mu), _prob("--mu-star", mu_star), _pos("--epsilon", epsilon)
    if (n_pulls is None) != (t is None):
        raise InputError("--N / --t", "given together (DP-KLUCB index)", None)
    Nv = None if n_pulls is None else validate.count("--N", n_pulls)
    tv_ = None if t is None else validate.count("--t", t)
    check_digits(digits)
    from .. import info

    inputs = {"mu": x, "mu_star": y, "epsilon": e, "N": Nv, "t": tv_, "digits": digits}
    regime = info.d_epsilon_regime(x, y, e)
    with _precision(digits):
        if digits is None:
            val = info.d_epsilon(x, y, e)
            kl = info.kl_bernoulli(x, y)
            etv = e * info.tv_bernoulli(x, y)
            eps0 = info.epsilon_threshold(x, y)
            z = info.d_epsilon_minimiser(x, y, e)
            idx = None if Nv is None else info.dp_klucb_index(x, Nv, tv_, e)
        else:
            X, Y, E = _mp(mu), _mp(mu_star), _mp(epsilon)
            val = info.d_epsilon_mp(X, Y, E)
            kl = info.kl_bernoulli_mp(X, Y)
            etv = E * info.tv_bernoulli_mp(X, Y)
            eps0 = info.epsilon_threshold_mp(X, Y)
            z = info.d_epsilon_minimiser_mp(X, Y, E)
            idx = None if Nv is None else info.dp_klucb_index_mp(X, Nv, tv_, E)
        fields = {"value": val, "d_eps": val, "kl": kl, "eps_tv": etv, "regime": regime, "eps_0": eps0, "z_star": z}
        if Nv is not None:
            fields["dp_klucb_index"] = idx
        if symbolic:
            exprs = [
                ("definition (Eq. 6): minimise over z between μ and μ*", info.d_epsilon_definition_sym()),
                ("closed form for x < y (Eq. 8 / Lemma F.1, Eq. 31)", info.d_epsilon_sym()),
            ]
            if Nv is not None:
                exprs.append(("DP-KLUCB high-privacy inverse (sheet §5)", info.dp_klucb_index_sym()))
        if json_out:
            if symbolic:
                fields["formula"] = {n: str(ex) for n, ex in exprs}
            emit_json("d-eps", inputs, **fields)
            return
        rows = [
            ("d_ε(μ, μ*)", val),
            ("kl(μ, μ*)", kl),
            ("ε·TV = ε|μ − μ*|", etv),
            ("regime", regime),
            ("threshold ε₀ = |logit μ* − logit μ|", eps0),
            ("minimiser z*", z),
        ]
        if Nv is not None:
            rows.append((f"DP-KLUCB index (N = {Nv}, t = {tv_})", idx))
        _show(f"d_ε  (μ = {mu}, μ* = {mu_star}, ε = {epsilon})", rows, caption="seed 001 Eq. 6, Eq. 8, Eq. 12")
        if symbolic:
            print_symbolic(exprs)


def register(app: typer.Typer) -> None:
    app.command("kl")(command(kl_cmd))
    app.command("kl-inf")(command(kl_inf_cmd))
    app.command("d-eps")(command(d_eps_cmd))
