"""`boundcalc check "EXPR" --box ...`: check an inequality over the registered quantities on a box.

EXPR is parsed by a whitelist over Python's ``ast`` (boundcalc.verify.expression), never evaluated as
Python: numbers, box parameters, pi, + - * / **, comparisons (chains, ``and``) and calls of kl, tv, kl_inf,
d_eps, kl_gauss, the Laplace/binomial/private tails and bounds, log/exp/sqrt/abs/min/max, and
``bound("ID", T=..., rho=..., d=...)`` for a registered bound (budget keywords epsilon, delta, rho, alpha,
rdp_epsilon, ldp_epsilon, ldp_delta; ``confidence`` is the bound's δ; other keywords override its instance).
The verdict of a grid evaluation is "no counterexample on N points" or "counterexample at …" (re-checked
with mpmath at 50 digits) — never "holds", which needs a proof.
"""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from . import common
from .common import command


def register(app: typer.Typer) -> None:
    @app.command("check")
    @command
    def check(
        expression: Annotated[str, typer.Argument(help="An inequality, e.g. \"d_eps(mu, mu_star, epsilon) <= kl(mu, mu_star)\".")],
        box: Annotated[Optional[str], typer.Option("--box", help="Ranges of every parameter: 'mu=0.01:0.99,epsilon=1e-3:10' "
                                                                 "(log spacing for ranges spanning two decades or more).")] = None,
        points: Annotated[str, typer.Option("--points", help="About this many grid points in total (e.g. 1e4).")] = "4096",
        json_out: common.JsonOpt = False,
    ):
        """Check an inequality over a box: no counterexample on N points, or the counterexample (50 digits).

        EXPR is parsed against a whitelist, never run as Python. Allowed: numbers, the box parameters, pi, + - * / **, comparisons < <= > >= == (chains, 'and'), and calls of kl(x, y), tv(x, y), kl_inf(mu, mu_star), d_eps(x, y, epsilon), kl_gauss(mu1, mu2), laplace_tail and laplace_chernoff(x, m, epsilon), binom_tail and chernoff(n, p, x), private_tail and private_c0 ... private_c3(n, m, epsilon, mu, x), log, exp, sqrt, abs, log1p, expm1, min, max.

        bound("ID", T=..., ...) evaluates a registered bound (see 'boundcalc bounds'): budget keywords epsilon (with delta), rho, alpha with rdp_epsilon, ldp_epsilon (with ldp_delta); confidence= is the bound's own δ; other keywords (d=, K=, lam0=, ...) override its instance.

        Example: boundcalc check "d_eps(mu, mu_star, epsilon) <= kl(mu, mu_star)" --box mu=0.01:0.99,mu_star=0.02:1,epsilon=1e-3:10

        A grid never proves an inequality: the verdict is "no counterexample on N points" or "counterexample at ...", re-checked with mpmath at 50 digits.
        """
        from .. import validate
        from ..verify import expression as ex

        n = validate.count("--points", points, maximum=1e6)
        res, parsed, dom = ex.check(expression, box, n)
        verdict = res.finding
        inputs = {"expression": expression, "box": box, "points": n}
        notes = []
        if parsed.float_only:
            notes.append("re-check in float for " + ", ".join(parsed.float_only) + " (no arbitrary-precision form)")
        if parsed.bounds:
            notes.append("bounds re-checked through their sympy expressions (instance constants in float)")
        if res.evidence.get("undefined"):
            notes.append(f"{res.evidence['undefined']} grid points undefined (outside a function's or bound's domain or "
                         "assumptions) were skipped")
        if json_out:
            common.emit_json("check", inputs, method="grid", points=res.points, counterexample=res.counterexample,
                             verdict=verdict, expression=parsed.sympy_text, domain=dom.describe(),
                             min_margin=res.evidence.get("min_margin"), notes=notes)
            return
        rows = [("expression", parsed.sympy_text), ("box", dom.describe()), ("method", "grid"),
                ("points", str(res.points)), ("verdict", verdict)]
        if res.counterexample:
            rows.append(("margin (float / 50 digits)", f"{res.counterexample['margin']:.6g} / "
                         f"{res.counterexample.get('margin_50_digits', res.counterexample.get('recheck', '—'))}"))
        else:
            rows.append(("smallest margin", common.fmt(res.evidence.get("min_margin"))))
        con = common.console()
        con.print(common.kv_table("check", rows, caption="margin = normalised (rhs − lhs); a grid never proves 'holds'"))
        for note in notes:
            con.print(f"note: {note}")
