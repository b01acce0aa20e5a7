"""`boundcalc verify`: run the checks of the papers' claims (boundcalc.verify.claims) and show the verdicts.

``--paper 001`` keeps one paper's claims, ``--claim ID`` one claim; ``--json`` prints one JSON object whose
``value`` is the number of claims that held (statement as printed survived) and ``claims`` the verdicts with
their evidence. The mathematics is imported inside the command.
"""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from . import common
from .common import command

_STYLE = {"holds": "green", "typo": "yellow", "proof gap": "yellow", "scaling not shown": "yellow",
          "vacuous": "red", "statement violated": "red"}


def register(app: typer.Typer) -> None:
    @app.command("verify")
    @command
    def verify(
        paper: Annotated[Optional[str], typer.Option("--paper", help="Only this paper's claims: 000, 001, 002, 003 or 004.")] = None,
        claim: Annotated[Optional[str], typer.Option("--claim", help="Only this claim id (see the table).")] = None,
        json_out: common.JsonOpt = False,
    ):
        """Check the papers' claims (ERRATA items, inequalities over grids, Monte Carlo): verdict + evidence."""
        from ..verify import claims as cl

        ids = cl.select(paper=paper, claim=claim)
        verdicts = [cl.run([c])[0] for c in common.track(ids, "checking claims", enabled=not json_out)]
        n_held = sum(v.held for v in verdicts)
        inputs = {"paper": paper, "claim": claim}
        if json_out:
            common.emit_json("verify", inputs, value=n_held, n_claims=len(verdicts),
                             claims=[v.as_dict() for v in verdicts])
            return
        from rich.table import Table

        t = Table(title="verify — claims of the papers", header_style="bold",
                  caption=f"{n_held} of {len(verdicts)} statements held as printed (verdicts: ERRATA vocabulary)")
        t.add_column("claim", style="cyan", no_wrap=True)
        t.add_column("paper")
        t.add_column("verdict", no_wrap=True)
        t.add_column("held")
        t.add_column("key evidence")
        for v in verdicts:
            style = _STYLE.get(v.verdict, "")
            t.add_row(v.claim_id, f"{v.paper} {v.item}", f"[{style}]{v.verdict}[/{style}]" if style else v.verdict,
                      "yes" if v.held else "no", v.measured)
        common.console().print(t)
