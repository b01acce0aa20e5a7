"""`boundcalc check "EXPR" --box ...`: prove an inequality over the registered quantities on a box, or sample it.

EXPR is parsed by a whitelist over Python's ``ast`` (boundcalc.verify.expression, the one parser), never
evaluated as Python. The default method tries a proof by interval arithmetic (boundcalc.verify.check): "proven
on the box (N boxes)", "counterexample at …" (re-checked at 50 digits) or "undecided on k boxes" (listed). A
function without an interval enclosure (the tails), a bound whose symbols are code, or ``--method grid`` gives
the grid: "no counterexample on N points", "counterexample at …" or "undecided: …" — never "proven". An ``==``
is proven within a stated relative tolerance unless it is an identity; a box partly outside the domain of
sqrt/log/a power/a denominator gives "proven where defined; outside the domain of …", and a box partly outside the
assumptions of a bound called gives "proven where the assumptions of ID hold; assumption '…' of ID fails where …"
(or "outside the assumptions" on the whole box) (docs/verify.md).
"""

from __future__ import annotations

from typing import Annotated

import typer

from . import common, options, plugin_options
from .common import command


def register(app: typer.Typer) -> None:
    @app.command("check")
    @command
    def check(
        expression: Annotated[str, typer.Argument(help="An inequality, e.g. \"d_eps(mu, mu_star, epsilon) <= kl(mu, mu_star)\".")],
        box: options.BoxOpt = None,
        method: options.MethodOpt = "auto",
        points: options.PointsOpt = "4096",
        max_seconds: options.MaxSecondsOpt = "10",
        bounds_file: options.BoundsFileOpt = None,
        json_out: options.JsonOpt = False,
    ):
        """Check an inequality over a box: a proof by interval arithmetic when possible, else a grid.

        EXPR is parsed against a whitelist, never run as Python. Allowed: numbers, the box parameters, pi, + - * / **, comparisons < <= > >= == (chains, 'and'), and calls of kl(x, y), tv(x, y), kl_inf(mu, mu_star), d_eps(x, y, epsilon), kl_gauss(mu1, mu2), laplace_tail and laplace_chernoff(x, m, epsilon), binom_tail and chernoff(n, p, x), private_tail and private_c0 ... private_c3(n, m, epsilon, mu, x), log, exp, sqrt, abs, log1p, expm1, min, max.

        bound("ID", T=..., ...) evaluates a registered bound (see 'boundcalc bounds'): budget keywords epsilon (with delta), rho, alpha with rdp_epsilon, ldp_epsilon (with ldp_delta); confidence= (or delta= without epsilon=) is the bound's own δ; other keywords (d=, K=, lam0=, ...) override its instance, and the values taken from the default instance instead are said (a note; 'defaults' in --json).

        Example: boundcalc check "d_eps(mu, mu_star, epsilon) <= kl(mu, mu_star)" --box mu=0.01:0.99,mu_star=0.02:1,epsilon=1e-3:10

        Verdicts. Proof (outward-rounded interval arithmetic over a cover of the box by sub-boxes): "proven on the box (N boxes)", "counterexample at ..." (re-checked with mpmath at 50 digits and confirmed at the witness: exact rationals, else 50/100/200 digits) or "undecided on k boxes" (the effort limit; the boxes are listed in --json, and the grid then looks for a counterexample). Grid (the tails have no enclosure, or --method grid): "no counterexample on N points", "counterexample at ..." or "undecided: k grid points fail in float ..." (failures not confirmed at 50 digits). A grid never proves.

        == is proven within a relative tolerance of 1e-9 and says so ("proven within a relative tolerance of 1e-09"), unless both sides are the same expression (exact); a point where the sides differ at 50 digits is a counterexample. Where part of the box lies outside the domain of sqrt, log, a real power or a denominator, the verdict says so ("proven where defined ...; outside the domain of sqrt where x < 0 (99% of the box)"); likewise outside a bound's assumptions ("proven where the assumptions of my-linear-ub hold ...; assumption 'T >= 2' of my-linear-ub fails where T < 2 (10% of the box)"; "outside the assumptions" when one fails on the whole box). Limits: 2000 characters, 400 nodes, depth 40, 10 parameters, constants up to 1e308, exponents up to 1000; --max-seconds holds inside evaluations. See docs/verify.md.
        """
        from .. import validate
        from ..errors import InputError
        from ..verify import check as ck

        n = validate.count("--points", points, maximum=1e6)
        secs = validate.positive("--max-seconds", max_seconds)
        if secs > 600:
            raise InputError("--max-seconds", "a number in (0, 600]", max_seconds)
        if method not in ck.METHODS:
            raise InputError("--method", "one of " + ", ".join(ck.METHODS), method)
        plugin_options.load(bounds_file)
        out = ck.run(expression, box, method=method, points=n, max_seconds=secs)
        inputs = {"expression": expression, "box": box, "method": method, "points": n, "max_seconds": secs}
        backend = out.proof.backend if out.proof is not None else None  # the interval backend of the proof
        if json_out:
            fields = {"method": out.method, "verdict": out.verdict, "counterexample": out.counterexample,
                      "expression": out.parsed.sympy_text, "domain": out.domain.describe(exact=True), "notes": out.notes,
                      "backend": backend}
            if out.boxes is not None:
                fields["boxes"] = out.boxes
            if out.points is not None:
                fields["points"] = out.points
            if out.method == "grid":
                fields["min_margin"] = out.min_margin
            if out.n_undecided:
                fields["undecided"] = out.undecided
                fields["n_undecided"] = out.n_undecided
            if out.seconds is not None:
                fields["seconds"] = round(out.seconds, 4)
            fields["word"] = out.word
            fields["domain_gaps"] = [g.to_json() for g in out.domain_gaps]
            fields["assumption_gaps"] = [g.to_json() for g in out.assumption_gaps]
            if out.equality is not None:
                fields["equality"] = out.equality
            if out.grid is not None:
                fields["grid"] = out.grid.to_json()
            fields["defaults"] = out.defaults  # values bound calls take from the default instance (no keyword)
            fields["limits"] = ck.limits()
            common.emit_json("check", inputs, **fields)
            return
        rows = [("expression", out.parsed.sympy_text), ("box", out.domain.describe(exact=True)), ("method", out.method)]
        if backend:
            rows.append(("interval backend", backend))
        if out.boxes is not None:
            rows.append(("boxes", str(out.boxes)))
        if out.points is not None:
            rows.append(("points", str(out.points)))
        rows.append(("verdict", out.verdict))
        if out.counterexample:
            rows.append(("margin (float / 50 digits)", f"{out.counterexample['margin']:.6g} / "
                         f"{out.counterexample.get('margin_50_digits', out.counterexample.get('recheck', '—'))}"))
        elif out.method == "grid" and out.min_margin is not None:
            rows.append(("smallest margin", common.fmt(out.min_margin)))
        for g in out.domain_gaps:
            rows.append(("domain", g.text()))
        for g in out.assumption_gaps:
            rows.append(("assumption", g.text()))
        if out.equality is not None:
            rows.append(("==", "exact (an identity)" if out.equality.get("kind") == "exact" else
                         f"within a relative tolerance of {out.equality['tolerance']:g}"))
        for b in out.undecided[:5]:
            rows.append(("undecided box", ", ".join(f"{k}={v[0]:.6g}:{v[1]:.6g}" for k, v in b.items())))
        if out.n_undecided > 5:
            rows.append(("undecided boxes", f"… {out.n_undecided - 5} more (--json lists up to 50)"))
        con = common.console()
        caption = ("proof: outward-rounded interval arithmetic on every box of a cover" if out.method == "proof" else
                   "margin = normalised (rhs − lhs); a grid never proves" if out.method == "grid" else
                   "an assumption of a bound fails at every point of the box" if out.method == "assumptions" else
                   "no point of the box is in the expression's domain")
        con.print(common.kv_table("check", rows, caption=caption))
        for note in out.notes:
            con.print(f"note: {note}")
