"""CLI commands ``kl``, ``kl-inf`` and ``d-eps`` (information quantities of boundcalc.info).

Only typer/rich/stdlib at import time; numpy/mpmath/sympy are imported inside the command bodies.
Numeric options are read as strings so that ``--digits N`` evaluates the decimal input exactly
(0.3 is 3/10, not the nearest binary double).

Every numeric option also takes a list (``0.1,0.2``) or a range (``0.01:0.99:50``, log-spaced across decades;
see boundcalc.cli.sweep): lists of equal length zip, single values repeat. One value keeps the single-point
table and JSON; several give a table with one row per point and JSON ``values`` (one object per point with its
inputs and outputs). Each point is computed exactly as the single-point command computes it.
"""

from __future__ import annotations

import contextlib

import typer

from . import options, sweep
from .common import check_digits, command, console, emit_json, fmt, kv_table, print_symbolic, track

FloatStr = dict(metavar="FLOAT")
LIST_HELP = f" Also {sweep.SYNTAX}."


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


def _sweeps(options: dict, integer=()):
    """{option: Sweep} for the options given (None: not given)."""
    return {o: sweep.parse(o, t, integer=o in integer) for o, t in options.items() if t is not None}


def _rows(sw: dict) -> list[dict]:
    return sweep.broadcast(list(sw.values()))


def _emit_many(command_name: str, sw: dict, inputs: dict, points: list[dict], columns: list[tuple[str, str]],
               json_out: bool, title: str, caption: str, symbolic_exprs=None) -> None:
    """Several points: JSON ``values`` (row objects) or a table with one row per point."""
    swept = {o: s.spec for o, s in sw.items() if s.many}
    ins = dict(inputs, **{o.lstrip("-").replace("-", "_"): spec for o, spec in swept.items()})  # swept: the spec
    if json_out:
        extra = {}
        if symbolic_exprs:
            extra["formula"] = {n: str(e) for n, e in symbolic_exprs}
        emit_json(command_name, ins, values=points, n_values=len(points), swept=sorted(swept), **extra)
        return
    from rich.table import Table

    t = Table(title=title, caption=caption, header_style="bold")
    for key, label in columns:
        t.add_column(label, justify="right", style="cyan" if key in ("_in",) else None)
    for p in points:
        t.add_row(*[fmt(p.get(k)) if not isinstance(p.get(k), str) else p.get(k) for k, _ in columns])
    console().print(t)
    if symbolic_exprs:
        print_symbolic(symbolic_exprs)


# ----------------------------------------------------------------------------------------------------
def _kl_point(tx: dict, digits):
    """One point of ``kl``: validated inputs and computed fields (tx: option -> text)."""
    from .. import info
    from ..errors import InputError

    pv, qv = _prob("--p", tx["--p"]), _prob("--q", tx["--q"])
    lv = None if tx.get("--level") is None else _level(tx["--level"])
    sv = None if tx.get("--sigma") is None else _pos("--sigma", tx["--sigma"])
    sqv = None if tx.get("--sigma-q") is None else _pos("--sigma-q", tx["--sigma-q"])
    if sqv is not None and sv is None:
        raise InputError("--sigma-q", "given together with --sigma", tx["--sigma-q"])
    inputs = {"p": pv, "q": qv, "level": lv, "sigma": sv, "sigma_q": sqv, "digits": digits}

    def compute():
        with _precision(digits):
            if digits is None:
                kl = info.kl_bernoulli(pv, qv)
                tv = info.tv_bernoulli(pv, qv)
                ucb = None if lv is None else info.kl_ucb(pv, lv)
                lcb = None if lv is None else info.kl_lcb(pv, lv)
                gk = None if sv is None else info.kl_gaussian(pv, qv, sv, sqv)
            else:
                P, Q = _mp(tx["--p"]), _mp(tx["--q"])
                kl = info.kl_bernoulli_mp(P, Q)
                tv = info.tv_bernoulli_mp(P, Q)
                L = None if lv is None else _mp(tx["--level"])
                ucb = None if lv is None else info.kl_ucb_mp(P, L)
                lcb = None if lv is None else info.kl_lcb_mp(P, L)
                gk = None if sv is None else info.kl_gaussian_mp(
                    P, Q, _mp(tx["--sigma"]), None if tx.get("--sigma-q") is None else _mp(tx["--sigma-q"]))
        fields = {"value": kl, "kl": kl, "tv": tv}
        if lv is not None:
            fields.update(kl_ucb=ucb, kl_lcb=lcb)
        if sv is not None:
            fields["kl_gaussian"] = gk
        return fields

    return inputs, compute


def kl_cmd(
    p: options.POpt,
    q: options.QOpt,
    level: options.LevelOpt = None,
    sigma: options.SigmaOpt = None,
    sigma_q: options.SigmaQOpt = None,
    json_out: options.JsonOpt = False,
    digits: options.DigitsOpt = None,
    symbolic: options.SymbolicOpt = False,
):
    """Bernoulli kl(p, q), TV, and optionally the kl-UCB/LCB indexes and Gaussian KL (seed 001 §2).

    Every numeric option takes one value, a list a,b,c or a range lo:hi:n (n points; log-spaced when lo > 0 and
    hi/lo >= 100, or lo:hi:n:log / lo:hi:n:lin). Lists of equal length are zipped, single values repeated;
    several points give a table (JSON: "values", one object per point).
    """
    sw = _sweeps({"--p": p, "--q": q, "--level": level, "--sigma": sigma, "--sigma-q": sigma_q})
    rows = _rows(sw)
    check_digits(digits)
    points = [_kl_point(r, digits) for r in rows]  # every point validated before any work
    from .. import info

    exprs = []
    if symbolic:
        exprs = [("kl(p, q)", info.kl_bernoulli_sym()), ("TV(Ber p, Ber q)", info.tv_bernoulli_sym())]
        if sigma is not None:
            exprs.append(("KL(N(μ₁,σ₁²), N(μ₂,σ₂²))", info.kl_gaussian_sym()))
    if sweep.any_many(sw.values()):
        out = [dict({k: v for k, v in ins.items() if v is not None and k != "digits"}, **compute())
               for ins, compute in track(points, "kl", enabled=not json_out and len(points) > 200)]
        cols = [(k, k) for k in ("p", "q", "level", "sigma", "sigma_q") if out[0].get(k) is not None]
        cols += [(k, lab) for k, lab in (("kl", "kl(p, q)"), ("tv", "TV"), ("kl_ucb", "kl-UCB"), ("kl_lcb", "kl-LCB"),
                                          ("kl_gaussian", "KL Gauss")) if k in out[0]]
        _emit_many("kl", sw, points[0][0], out, cols, json_out, f"kl  ({len(out)} points)",
                   "seed 001 §2; kl-UCB: Cappé et al. 2013", exprs)
        return
    inputs, compute = points[0]
    fields = compute()
    kl, tv = fields["kl"], fields["tv"]
    if json_out:
        if symbolic:
            fields["formula"] = {n: str(e) for n, e in exprs}
        emit_json("kl", inputs, **fields)
        return
    rows_ = [("kl(p, q)", kl), ("TV = |p − q|", tv)]
    if level is not None:
        rows_ += [("kl-UCB: max{x ≥ p : kl(p,x) ≤ level}", fields["kl_ucb"]),
                  ("kl-LCB: min{x ≤ p : kl(p,x) ≤ level}", fields["kl_lcb"])]
    if sigma is not None:
        rows_.append(("KL(N(p,σ²), N(q,σ_q²))", fields["kl_gaussian"]))
    _show(f"kl  (p = {p}, q = {q})", rows_, caption="seed 001 §2; kl-UCB: Cappé et al. 2013")
    if symbolic:
        print_symbolic(exprs)


# ----------------------------------------------------------------------------------------------------
def _kl_inf_point(tx: dict, digits, xs=None, ws=None, support=None, weights=None):
    from .. import info

    msv = _prob("--mu-star", tx["--mu-star"])
    ev = None if tx.get("--epsilon") is None else _pos("--epsilon", tx["--epsilon"])
    if tx.get("--mu") is not None:
        muv = _prob("--mu", tx["--mu"])
        inputs = {"mu": muv, "mu_star": msv, "digits": digits}
        if ev is not None:
            inputs["epsilon"] = ev

        def compute():
            with _precision(digits):
                val = info.kl_inf_bernoulli(muv, msv) if digits is None else \
                    info.kl_inf_bernoulli_mp(_mp(tx["--mu"]), _mp(tx["--mu-star"]))
                out = {"value": val, "form": "bernoulli", "mean": muv}
                if ev is not None:  # seed 001 Eq. 9: d_eps,inf(Ber μ, μ*) = d_eps(μ, μ*) below μ*, else 0
                    if muv >= msv:
                        out["d_eps_inf"] = 0.0
                    elif digits is None:
                        out["d_eps_inf"] = info.d_epsilon(muv, msv, ev)
                    else:
                        out["d_eps_inf"] = info.d_epsilon_mp(_mp(tx["--mu"]), _mp(tx["--mu-star"]), _mp(tx["--epsilon"]))
            return out

        return inputs, compute
    mean = sum(x * w for x, w in zip(xs, ws))
    inputs = {"support": xs, "weights": ws, "mu_star": msv, "digits": digits}
    if ev is not None:
        inputs["epsilon"] = ev

    def compute():
        from ..info import d_eps_inf

        with _precision(digits):
            val, lam = info.kl_inf_finite(xs, ws, msv, return_lambda=True)
            de = None if ev is None else d_eps_inf.d_eps_inf_finite(xs, ws, msv, ev)
            if digits is not None:
                sx = [s.strip() for s in support.replace(";", ",").split(",") if s.strip()]
                sw_ = [s.strip() for s in weights.replace(";", ",").split(",") if s.strip()]
                val = info.kl_inf_finite_mp([_mp(s) for s in sx], [_mp(s) for s in sw_], _mp(tx["--mu-star"]))
                if ev is not None:
                    de = d_eps_inf.d_eps_inf_finite_mp([_mp(s) for s in sx], [_mp(s) for s in sw_],
                                                       _mp(tx["--mu-star"]), _mp(tx["--epsilon"]))
        out = {"value": val, "form": "finite support (Honda–Takemura dual)", "mean": mean, "lambda_star": lam}
        if de is not None:  # seed 001 Eq. 9 (info/d_eps_inf.py)
            out["d_eps_inf"] = de
        return out

    return inputs, compute


D_EPS_INF_MAX_DIGITS = 50


def kl_inf_cmd(
    mu_star: options.MuStarOpt,
    mu: options.MuOpt = None,
    support: options.SupportOpt = None,
    weights: options.WeightsOpt = None,
    epsilon: options.EpsilonArgOpt = None,
    json_out: options.JsonOpt = False,
    digits: options.DigitsOpt = None,
    symbolic: options.SymbolicOpt = False,
):
    """KL_inf(ν, μ*) = inf{KL(ν, ν') : mean(ν') > μ*} (seed 001 Eq. 3; Honda–Takemura dual for finite support);
    with --epsilon also d_ε,inf(ν, μ*) of seed 001 Eq. 9 (ν finitely supported on [0, 1], Q any law on [0, 1]).

    --mu-star and --mu take one value, a list a,b,c or a range lo:hi:n (log-spaced across decades; lo:hi:n:log /
    :lin); lists of equal length are zipped, single values repeated (JSON: "values", one object per point).
    """
    from .. import validate
    from ..errors import InputError

    if (mu is None) == (support is None):
        raise InputError("--mu / --support", "exactly one of them (Bernoulli form or finite support)", None)
    sw = _sweeps({"--mu-star": mu_star, "--mu": mu, "--epsilon": epsilon})
    rows = _rows(sw)
    check_digits(digits)
    xs = ws = None
    if mu is not None:
        if weights is not None:
            raise InputError("--weights", "used only with --support", weights)
    else:
        if weights is None:
            raise InputError("--weights", "given with --support", None)
        xs = validate.float_list("--support", support, validate.probability)
        ws = validate.float_list("--weights", weights, validate.nonnegative)
        if len(ws) != len(xs):
            raise InputError("--weights", f"{len(xs)} entries (one per support point)", len(ws))
        if abs(sum(ws) - 1.0) > 1e-9:
            raise InputError("--weights", "weights summing to 1", sum(ws))
        if epsilon is not None and digits is not None and digits > D_EPS_INF_MAX_DIGITS:
            raise InputError("--digits", f"at most {D_EPS_INF_MAX_DIGITS} with --support and --epsilon (d_ε,inf by a "
                             "golden-section search, each step a KL_inf bisection)", digits)
    points = [_kl_inf_point(r, digits, xs, ws, support, weights) for r in rows]
    from .. import info

    exprs = []
    if symbolic:
        if mu is not None:
            exprs = [("KL_inf(Ber μ, μ*)", info.kl_inf_bernoulli_sym())]
        else:
            from ..info.kl_inf import kl_inf_dual_sym

            exprs = [("Honda–Takemura dual objective (maximise over λ)", kl_inf_dual_sym())]
    if sweep.any_many(sw.values()):
        out = []
        for ins, compute in track(points, "kl-inf", enabled=not json_out and len(points) > 200):
            f = compute()
            row = {"mu_star": ins["mu_star"]}
            for k in ("mu", "epsilon"):
                if k in ins:
                    row[k] = ins[k]
            out.append(dict(row, **{k: v for k, v in f.items() if k != "form"}))
        cols = [(k, k) for k in ("mu", "mu_star", "epsilon") if k in out[0]] + [("value", "KL_inf")]
        if "d_eps_inf" in out[0]:
            cols.append(("d_eps_inf", "d_ε,inf"))
        if "lambda_star" in out[0]:
            cols.append(("lambda_star", "λ*"))
        _emit_many("kl-inf", sw, points[0][0], out,
                   cols, json_out, f"KL_inf  ({len(out)} points)", "seed 001 Eq. 3; Honda & Takemura 2010/2015", exprs)
        return
    inputs, compute = points[0]
    fields = compute()
    msv = inputs["mu_star"]
    if mu is not None:
        rows_ = [("form", "Bernoulli: kl(μ, μ*) if μ < μ*, else 0"), ("KL_inf", fields["value"])]
    else:
        rows_ = [
            ("form", "finite support, dual max_λ E ln(1 − λ(X − μ*))"),
            ("mean of ν", fields["mean"]),
            ("λ* (dual maximiser)", fields["lambda_star"]),
            ("λ range", f"[0, {'∞' if msv == 1 else f'{1 / (1 - msv):.6g}'}]"),
            ("KL_inf", fields["value"]),
        ]
    if "d_eps_inf" in fields:
        rows_.append((f"d_ε,inf at ε = {inputs['epsilon']:g} (seed 001 Eq. 9)", fields["d_eps_inf"]))
    if json_out:
        if symbolic:
            fields["formula"] = {n: str(e) for n, e in exprs}
        emit_json("kl-inf", inputs, **fields)
        return
    _show(f"KL_inf  (μ* = {mu_star})", rows_, caption="seed 001 Eq. 3; Honda & Takemura 2010/2015")
    if symbolic:
        print_symbolic(exprs)


# ----------------------------------------------------------------------------------------------------
def _d_eps_point(tx: dict, digits):
    from .. import info, validate
    from ..errors import InputError

    x, y, e = _prob("--mu", tx["--mu"]), _prob("--mu-star", tx["--mu-star"]), _pos("--epsilon", tx["--epsilon"])
    n_pulls, t = tx.get("--N"), tx.get("--t")
    if (n_pulls is None) != (t is None):
        raise InputError("--N / --t", "given together (DP-KLUCB index)", None)
    Nv = None if n_pulls is None else validate.count("--N", n_pulls)
    tv_ = None if t is None else validate.count("--t", t)
    inputs = {"mu": x, "mu_star": y, "epsilon": e, "N": Nv, "t": tv_, "digits": digits}

    def compute():
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
                X, Y, E = _mp(tx["--mu"]), _mp(tx["--mu-star"]), _mp(tx["--epsilon"])
                val = info.d_epsilon_mp(X, Y, E)
                kl = info.kl_bernoulli_mp(X, Y)
                etv = E * info.tv_bernoulli_mp(X, Y)
                eps0 = info.epsilon_threshold_mp(X, Y)
                z = info.d_epsilon_minimiser_mp(X, Y, E)
                idx = None if Nv is None else info.dp_klucb_index_mp(X, Nv, tv_, E)
        fields = {"value": val, "d_eps": val, "kl": kl, "eps_tv": etv, "regime": regime, "eps_0": eps0, "z_star": z}
        if Nv is not None:
            fields["dp_klucb_index"] = idx
        return fields

    return inputs, compute


def d_eps_cmd(
    mu: options.MuOpt,
    mu_star: options.MuStarOpt,
    epsilon: options.EpsilonArgOpt,
    n_pulls: options.NPullsOpt = None,
    t: options.RoundOpt = None,
    json_out: options.JsonOpt = False,
    digits: options.DigitsOpt = None,
    symbolic: options.SymbolicOpt = False,
):
    """d_ε(μ, μ*) = inf_z ε|z − μ| + kl(z, μ*) (seed 001 Eq. 6; closed form Eq. 8 / Lemma F.1).

    Every numeric option takes one value, a list a,b,c or a range lo:hi:n (n points; log-spaced when lo > 0 and
    hi/lo >= 100, or lo:hi:n:log / lo:hi:n:lin), e.g. --epsilon 1e-3:10:50. Lists of equal length are zipped,
    single values repeated; several points give a table (JSON: "values", one object per point).
    """
    from ..errors import InputError

    if (n_pulls is None) != (t is None):
        raise InputError("--N / --t", "given together (DP-KLUCB index)", None)
    sw = _sweeps({"--mu": mu, "--mu-star": mu_star, "--epsilon": epsilon, "--N": n_pulls, "--t": t},
                 integer=("--N", "--t"))
    rows = _rows(sw)
    check_digits(digits)
    points = [_d_eps_point(r, digits) for r in rows]
    from .. import info

    exprs = []
    if symbolic:
        exprs = [
            ("definition (Eq. 6): minimise over z between μ and μ*", info.d_epsilon_definition_sym()),
            ("closed form for x < y (Eq. 8 / Lemma F.1, Eq. 31)", info.d_epsilon_sym()),
        ]
        if n_pulls is not None:
            exprs.append(("DP-KLUCB high-privacy inverse (sheet §5)", info.dp_klucb_index_sym()))
    if sweep.any_many(sw.values()):
        out = [dict({k: v for k, v in ins.items() if v is not None and k != "digits"}, **compute())
               for ins, compute in track(points, "d-eps", enabled=not json_out and len(points) > 200)]
        cols = [(k, lab) for k, lab in (("mu", "μ"), ("mu_star", "μ*"), ("epsilon", "ε"), ("N", "N"), ("t", "t"))
                if k in out[0]]
        cols += [("d_eps", "d_ε"), ("kl", "kl"), ("eps_tv", "ε·TV"), ("regime", "regime"), ("eps_0", "ε₀"),
                 ("z_star", "z*")] + ([("dp_klucb_index", "DP-KLUCB")] if "dp_klucb_index" in out[0] else [])
        _emit_many("d-eps", sw, points[0][0], out, cols, json_out, f"d_ε  ({len(out)} points)",
                   "seed 001 Eq. 6, Eq. 8, Eq. 12", exprs)
        return
    inputs, compute = points[0]
    fields = compute()
    if json_out:
        if symbolic:
            fields["formula"] = {n: str(ex) for n, ex in exprs}
        emit_json("d-eps", inputs, **fields)
        return
    rows_ = [
        ("d_ε(μ, μ*)", fields["d_eps"]),
        ("kl(μ, μ*)", fields["kl"]),
        ("ε·TV = ε|μ − μ*|", fields["eps_tv"]),
        ("regime", fields["regime"]),
        ("threshold ε₀ = |logit μ* − logit μ|", fields["eps_0"]),
        ("minimiser z*", fields["z_star"]),
    ]
    if inputs["N"] is not None:
        rows_.append((f"DP-KLUCB index (N = {inputs['N']}, t = {inputs['t']})", fields["dp_klucb_index"]))
    _show(f"d_ε  (μ = {mu}, μ* = {mu_star}, ε = {epsilon})", rows_, caption="seed 001 Eq. 6, Eq. 8, Eq. 12")
    if symbolic:
        print_symbolic(exprs)


def register(app: typer.Typer) -> None:
    app.command("kl")(command(kl_cmd))
    app.command("kl-inf")(command(kl_inf_cmd))
    app.command("d-eps")(command(d_eps_cmd))
