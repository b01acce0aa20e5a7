"""CLI command ``concentration``: tail bounds for a private Bernoulli sum S̃ = S_n + noise
(seed 001 Lemma D.1, Lemma D.3, Prop. 4.1, Lemma H.6; formula sheet 001 §4.3 C0–C3 (DERIVED)).

Only typer/rich/stdlib at import time; numpy/scipy/mpmath come in through boundcalc.concentration inside
the command body. Numeric options take lists and ranges (boundcalc.cli.sweep): one row per point.
"""

from __future__ import annotations

import time

import typer

from . import options, sweep
from .common import check_digits, command, console, emit_json, fmt, print_symbolic, track

FloatStr = dict(metavar="FLOAT")
LIST_HELP = f" Also {sweep.SYNTAX}."
EXACT_MAX_N = 20_000
EXACT_MAX_NM = 2_000_000
MAX_POINTS = 1000  # points of a list/range (each computes C0–C3 and the exact tail)


def _run_mc(conc, rng, n, m, mu, x, runs, tail, eps, sigma, show_progress: bool):
    """Monte Carlo in blocks; a rich progress bar (on stderr) once the run is predicted to exceed 1 s."""
    block = 100_000
    kw = dict(epsilon=eps, sigma=sigma, tail=tail, alpha=0.05)
    from ..progress import on_terminal

    if runs <= block or not show_progress or not on_terminal():
        return conc.mc_private_tail(rng, n, m, mu, x, runs, block=block, **kw)
    # time a first block, then decide on a progress bar for the rest
    t0 = time.perf_counter()
    first = conc.mc_private_tail(rng, n, m, mu, x, block, block=block, **kw)
    per_block = time.perf_counter() - t0
    rest = runs - block
    if per_block * rest / block > 1.0:
        from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

        with Progress(TextColumn("Monte Carlo"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                      TimeRemainingColumn(), console=console(stderr=True), transient=True) as prog:
            task = prog.add_task("mc", total=runs, completed=block)
            second = conc.mc_private_tail(rng, n, m, mu, x, rest, block=block,
                                          progress=lambda d: prog.update(task, completed=block + d), **kw)
    else:
        second = conc.mc_private_tail(rng, n, m, mu, x, rest, block=block, **kw)
    hits = first.hits + second.hits
    lo, hi = conc.clopper_pearson(hits, runs, 0.05)
    return conc.MCResult(hits / runs, lo, hi, hits, runs, 0.05)


def _point(tx: dict, digits, runs, seed, show_progress: bool):
    """One point of ``concentration`` (tx: option -> text): validated inputs and a function computing the fields."""
    from .. import validate
    from ..errors import InputError

    nv = validate.count("--n", tx["--n"])
    mv = validate.count("--m", tx["--m"])
    muv = validate.probability("--mu", tx["--mu"])
    xv = validate.probability("--x", tx["--x"])
    epsilon, sigma = tx.get("--epsilon"), tx.get("--sigma")
    if sigma is not None and epsilon is not None:
        raise InputError("--sigma", "not given together with --epsilon (Laplace or Gaussian noise)", sigma)
    if sigma is None and epsilon is None:
        raise InputError("--epsilon", "a number > 0 (required unless --sigma is given)", None)
    epsv = None if epsilon is None else validate.positive("--epsilon", epsilon)
    sigv = None if sigma is None else validate.positive("--sigma", sigma)
    if digits is not None and sigv is not None:
        raise InputError("--digits", "used with Laplace noise (--epsilon) only", digits)
    tail = "lower" if xv <= muv else "upper"
    inputs = {"n": nv, "m": mv, "epsilon": epsv, "sigma": sigv, "mu": muv, "x": xv, "tail": tail,
              "mc_runs": runs, "seed": seed if runs is not None else None, "digits": digits}

    def compute():
        import numpy as np

        from .. import concentration as conc
        from ..info import d_epsilon, kl_bernoulli

        xl, mul = (xv, muv) if tail == "lower" else (1 - xv, 1 - muv)
        kl = float(kl_bernoulli(xl, mul))
        args = (nv, mv)
        bounds: dict[str, object] = {}
        logs: dict[str, float] = {}
        notes: dict[str, str] = {}

        def put(key, res, note):
            bounds[key] = float(res.value)
            logs[key] = float(res.log)
            notes[key] = note

        if sigv is None:
            d = float(d_epsilon(xl, mul, epsv))
            put("C0", conc.private_tail_c0(*args, epsv, muv, xv, tail), "exact coupled Chernoff (sheet 001 §4.3 C0)")
            put("C1_best_eta", conc.private_tail_c1_best(*args, epsv, muv, xv, tail), "C1 at its minimising η (§4.3 C1)")
            put("C2", conc.private_tail_c2(*args, epsv, muv, xv, tail), "closed form (§4.3 C2)")
            put("C3", conc.private_tail_c3(*args, epsv, muv, xv, tail), "convolution route (§4.3 C3, Proof D.4)")
            put("naive", conc.private_tail_naive(*args, epsv, muv, xv, tail), "separate treatment (§4.5)")
            main_key = "C0"
            exponent = {"d_eps": d, "kl": kl}
        else:
            put("gaussian_chernoff", conc.gaussian_private_tail_chernoff(*args, sigv, muv, xv, tail),
                "coupled Chernoff, Gaussian noise (seed 003 Lemma 2 setting)")
            main_key = "gaussian_chernoff"
            exponent = {"gaussian_rate": -logs[main_key] / nv, "kl": kl}
        put("nonprivate_chernoff", conc.chernoff_kl(nv, muv, xv, tail),
            "exp(−n kl), Lemma H.6 — noise ignored, NOT a bound on S̃")

        exact = None
        if nv <= EXACT_MAX_N and nv * mv <= EXACT_MAX_NM:
            ex = (conc.private_tail_exact(*args, epsv, muv, xv, tail) if sigv is None
                  else conc.gaussian_private_tail_exact(*args, sigv, muv, xv, tail))
            exact = {"value": float(ex.value), "log": float(ex.log)}

        c2_mp = None
        if digits is not None:
            from ..concentration.mp import private_tail_c2_mp

            c2_mp_log, c2_mp_val = private_tail_c2_mp(str(nv), str(mv), epsilon, tx["--mu"], tx["--x"], tail, dps=digits)
            import mpmath

            c2_mp = {"value": mpmath.nstr(c2_mp_val, digits), "log": mpmath.nstr(c2_mp_log, digits)}

        mc = None
        if runs is not None:
            rng = np.random.default_rng(seed)
            r = _run_mc(conc, rng, nv, mv, muv, xv, runs, tail, epsv, sigv, show_progress=show_progress)
            mc = {"frequency": r.frequency, "cp_lower": r.lower, "cp_upper": r.upper, "hits": r.hits, "runs": r.runs,
                  "level": 1 - r.alpha}
        fields = dict(value=bounds[main_key], log_value=logs[main_key], main=main_key, tail=tail,
                      bounds=bounds, log_bounds=logs, exponent=exponent, exact=exact, monte_carlo=mc)
        if c2_mp is not None:
            fields["C2_mp"] = c2_mp
        return fields, notes

    return inputs, compute


def concentration_cmd(
    n: options.NOpt,
    m: options.MOpt,
    mu: options.MuOpt,
    x: options.XOpt,
    epsilon: options.EpsilonArgOpt = None,
    sigma: options.NoiseSigmaOpt = None,
    mc_runs: options.McRunsOpt = None,
    seed: options.SeedIntOpt = 0,
    json_out: options.JsonOpt = False,
    digits: options.DigitsOpt = None,
    symbolic: options.SymbolicOpt = False,
):
    """Tail bounds for S̃ = S_n + Σ_{j≤m} noise: C0–C3, naive, Chernoff, exact and Monte Carlo.

    Lower tail P(S̃ ≤ n x) when x < μ, upper tail P(S̃ ≥ n x) when x > μ (seed 001 Lemma D.3 / Prop. 4.1;
    evaluable forms DERIVED in formula sheet 001 §4.3).

    --n, --m, --mu, --x, --epsilon and --sigma take one value, a list a,b,c or a range lo:hi:n (n points;
    log-spaced when lo > 0 and hi/lo >= 100, or lo:hi:n:log / lo:hi:n:lin; counts are rounded). Lists of equal
    length are zipped, single values repeated (at most 1000 points here); several points give a table (JSON:
    "values", one object per point).
    """
    from .. import validate
    from ..errors import InputError

    sw = {o: sweep.parse(o, t, integer=o in ("--n", "--m")) for o, t in
          (("--n", n), ("--m", m), ("--mu", mu), ("--x", x), ("--epsilon", epsilon), ("--sigma", sigma))
          if t is not None}
    rows = sweep.broadcast(list(sw.values()))
    if len(rows) > MAX_POINTS:
        raise InputError("/".join(o for o, s_ in sw.items() if s_.many), f"at most {MAX_POINTS} points for "
                         "concentration (each point computes the exact tail)", f"{len(rows)} points")
    if sigma is not None and epsilon is not None:
        raise InputError("--sigma", "not given together with --epsilon (Laplace or Gaussian noise)", sigma)
    runs = None if mc_runs is None else validate.count("--mc-runs", mc_runs, maximum=1e10)
    validate.count("--seed", seed, minimum=0, maximum=2**63 - 1)
    check_digits(digits)
    many = sweep.any_many(sw.values())
    points = [_point(r, digits, runs, seed, show_progress=not json_out and not many) for r in rows]

    if many:
        out = []
        for ins, compute in track(points, "concentration", enabled=not json_out):
            fields, _ = compute()
            fields["trivial"] = trivial_bounds(fields["bounds"])
            row = {k: v for k, v in ins.items() if v is not None and k not in ("digits", "mc_runs", "seed")}
            out.append(dict(row, **fields))
        swept = {o.lstrip("-"): s_.spec for o, s_ in sw.items() if s_.many}
        if json_out:
            base = {k: v for k, v in points[0][0].items() if k != "tail"}  # the tail is per point
            emit_json("concentration", dict(base, **swept), values=out, n_values=len(out),
                      swept=sorted("--" + k for k in swept))
            return
        from rich.table import Table

        gaussian = sigma is not None
        t = Table(title=f"concentration  ({len(out)} points)", header_style="bold",
                  caption=("seed 001 Lemma D.3 / Prop. 4.1; C0–C3 DERIVED (sheet 001 §4.3)" if not gaussian
                           else "Gaussian noise: seed 003 Lemma 2 setting; coupled Chernoff DERIVED")
                  + ("; † trivial: ≥ 1, says nothing about the tail" if any(r["trivial"] for r in out) else ""))
        ins_cols = ["n", "m", "sigma" if gaussian else "epsilon", "mu", "x", "tail"]
        bound_cols = list(out[0]["bounds"])
        for c in ins_cols + bound_cols + ["exact"] + (["Monte Carlo"] if runs is not None else []):
            t.add_column(c, justify="right", style="cyan" if c in ins_cols else None, overflow="fold")  # never "…"
        for r in out:
            cells = [fmt(r[c]) if not isinstance(r[c], str) else r[c] for c in ins_cols]
            cells += [fmt(r["bounds"][k]) + ("†" if k in r["trivial"] else "") for k in bound_cols]
            cells.append(fmt(r["exact"]["value"]) if r["exact"] else "—")
            if runs is not None:
                cells.append(fmt(r["monte_carlo"]["frequency"]))
            t.add_row(*cells)
        console().print(t)
        if symbolic:
            print_symbolic(_formulas(gaussian))
        return

    inputs, compute = points[0]
    fields, notes = compute()
    fields["trivial"] = trivial_bounds(fields["bounds"])
    nv, mv, muv, xv, epsv, sigv, tail = (inputs[k] for k in ("n", "m", "mu", "x", "epsilon", "sigma", "tail"))
    bounds, logs, main_key, exponent = fields["bounds"], fields["log_bounds"], fields["main"], fields["exponent"]
    exact, mc, c2_mp = fields["exact"], fields["monte_carlo"], fields.get("C2_mp")
    if json_out:
        emit_json("concentration", inputs, **fields)
        return

    from rich.table import Table

    event = f"S̃ ≤ n·{xv:g}" if tail == "lower" else f"S̃ ≥ n·{xv:g}"
    noise = f"Lap(1/{epsv:g})" if sigv is None else f"N(0, {sigv:g}²)"
    t = Table(title=f"P({event}),  n = {nv}, m = {mv} × {noise}, μ = {muv:g}  ({tail} tail)",
              caption=("seed 001 Lemma D.3 / Prop. 4.1; C0–C3 DERIVED (sheet 001 §4.3)" if sigv is None
                       else "Gaussian noise: seed 003 Lemma 2 setting; coupled Chernoff DERIVED"), header_style="bold")
    t.add_column("quantity", style="cyan", no_wrap=True)
    t.add_column("value", justify="right")
    t.add_column("ln value", justify="right")
    t.add_column("source")
    for k in bounds:
        label = f"[bold]{k}[/bold]" if k == main_key else k
        t.add_row(label, fmt(bounds[k]) + (" (trivial)" if k in fields["trivial"] else ""), fmt(logs[k]),
                  notes[k] + (TRIVIAL_NOTE if k in fields["trivial"] else ""))
    if c2_mp is not None:
        t.add_row(f"C2 ({digits} digits)", c2_mp["value"], c2_mp["log"], "mpmath")
    if exact is not None:
        t.add_row("exact", fmt(exact["value"]), fmt(exact["log"]), "Σ_k Binom(k)·P(noise tail)")
    else:
        t.add_row("exact", "—", "—", f"skipped (n > {EXACT_MAX_N} or n·m > {EXACT_MAX_NM:g})")
    if mc is not None:
        t.add_row("Monte Carlo", fmt(mc["frequency"]), "",
                  f"{mc['hits']}/{mc['runs']}, 95% CP [{fmt(mc['cp_lower'])}, {fmt(mc['cp_upper'])}]")
    for k, v in exponent.items():
        t.add_row(f"exponent {k}", fmt(v), "", "rate per sample" + (" (private, seed 001 Eq. 8)" if k == "d_eps" else ""))
    console().print(t)
    if symbolic:
        print_symbolic(_formulas(sigv is not None))


TRIVIAL_NOTE = " — trivial: ≥ 1, says nothing about the tail"


def trivial_bounds(bounds: dict) -> list[str]:
    """Names of the tail bounds that are trivial: a bound on a probability that is ≥ 1 (e.g. C2 and C3 of sheet 001
    §4.3 when n ε (μ − x)/m is small, where the e·max(1, ·) factor exceeds the exponential) says nothing."""
    out = []
    for k, v in bounds.items():
        try:
            if float(v) >= 1.0:
                out.append(k)
        except (TypeError, ValueError):
            continue
    return out


def _formulas(gaussian: bool):
    """sympy views of the lower-tail bounds (upper tail: replace x, μ by 1 − x, 1 − μ)."""
    import sympy

    from ..info import d_epsilon_sym

    n, m, x, mu, lam, eps, sig = sympy.symbols("n m x mu lambda epsilon sigma", positive=True)
    mgf = n * (lam * x + sympy.log(1 - mu + mu * sympy.exp(-lam)))
    if gaussian:
        return [("Gaussian coupled Chernoff: inf over λ ≥ 0 of", sympy.exp(mgf + m * lam**2 * sig**2 / 2))]
    return [
        ("C0 (sheet 001 §4.3): inf over 0 ≤ λ < ε of", sympy.exp(mgf - m * sympy.log(1 - lam**2 / eps**2))),
        ("C2 (sheet 001 §4.3), d_ε by seed 001 Eq. 8",
         (sympy.E * sympy.Max(1, n * eps * (mu - x) / m)) ** m * sympy.exp(-n * d_epsilon_sym(x, mu, eps))),
    ]


def register(app: typer.Typer) -> None:
    app.command("concentration")(command(concentration_cmd))
