"""`boundcalc verify`: evaluate the papers' claims (boundcalc.verify.claims) and show the verdicts.

``--paper 001`` keeps one paper's claims, ``--claim ID`` one claim; ``--box name=lo:hi,...`` evaluates that
claim over the user's box (only parameters the claim declares); ``--method`` picks one of a claim's
evaluators (proof, grid, monte-carlo; a claim with a proof uses it by default: "holds" means proven on the
box by interval arithmetic, see docs/verify.md); ``--max-seconds`` caps each proof; ``--list`` lists the claims without running them; ``--report FILE.md``
writes the verdicts per paper with their evidence and figures. ``--json`` prints one JSON object: ``claims``
(each with ``method``, ``boxes`` for proofs / ``points`` for grids, ``counterexample``, ``verdict``, ``finding``,
evidence) and
``value`` = how many statements survived as printed. ``--bounds-file FILE`` adds a user's bounds: each forms a
lower <= upper pair claim with every comparable built-in bound (``<built-in>-le-<plugin>`` for a plugin upper bound,
``<built-in>-ge-<plugin>`` for a plugin lower bound, listed under the built-in's paper), proven where the
assumptions of both hold. The mathematics is imported inside the command.
"""

from __future__ import annotations

import typer

from . import common, options, plugin_options
from .common import command

_STYLE = {"holds": "green", "no counterexample": "green", "typo": "yellow", "proof gap": "yellow",
          "scaling not shown": "yellow", "vacuous": "red", "statement violated": "red",
          "not checkable numerically": "dim"}


def _styled(word: str) -> str:
    s = _STYLE.get(word, "")
    return f"[{s}]{word}[/{s}]" if s else word


def _summary(verdicts, n_held: int, written) -> None:
    """The terminal default for several claims: counts by paper and verdict, then one line for each claim whose
    statement did not survive as printed (verdicts outside PASS_WORDS); the evidence is in --details, --claim ID,
    --report FILE.md and --json."""
    from collections import Counter

    from rich.table import Table

    from ..verify.claims.registry import PASS_WORDS, VERDICT_WORDS

    counts = Counter((v.paper, v.verdict) for v in verdicts)
    papers = sorted({v.paper for v in verdicts})
    words = [w for w in VERDICT_WORDS if any(counts[(p, w)] for p in papers)]
    t = Table(title="verify — verdicts by paper", header_style="bold")
    t.add_column("verdict", no_wrap=True)
    for p in papers:
        t.add_column(p, justify="right", no_wrap=True)
    if len(papers) > 1:
        t.add_column("all", justify="right", no_wrap=True)
    for w in words:
        t.add_row(_styled(w), *[str(counts[(p, w)]) if counts[(p, w)] else "·" for p in papers],
                  *([str(sum(counts[(p, w)] for p in papers))] if len(papers) > 1 else []))
    t.add_row("[bold]claims[/bold]", *[str(sum(counts[(p, w)] for w in words)) for p in papers],
              *([str(len(verdicts))] if len(papers) > 1 else []))
    con = common.console()
    con.print(t)
    con.print(f"{n_held} of {len(verdicts)} statements survived as printed; verdicts in the ERRATA vocabulary ('holds' "
              "only from a proof; grids and samples say 'no counterexample').")
    bad = [v for v in verdicts if v.verdict not in PASS_WORDS]
    if bad:
        con.print(f"[bold]{len(bad)} claims that do not hold as printed, or cannot be checked numerically:[/bold]")
        for w in words:
            for v in (x for x in bad if x.verdict == w):
                con.print(f"  {_styled(v.verdict)}: [cyan]{v.claim_id}[/cyan] — {v.paper} {v.item}")
    con.print("Evidence of every claim: --details; one claim: --claim ID; a report with figures: --report FILE.md; "
              "everything: --json.")
    if written:
        con.print(f"report written to {written['report']} ({written['figure_note']})")


def register(app: typer.Typer) -> None:
    @app.command("verify")
    @command
    def verify(
        paper: options.PaperOpt = None,
        claim: options.ClaimOpt = None,
        box: options.BoxOpt = None,
        method: options.MethodOpt = None,
        max_seconds: options.MaxSecondsOpt = None,
        list_: options.ListOpt = False,
        report: options.ReportOpt = None,
        details: options.DetailsOpt = False,
        bounds_file: options.BoundsFileOpt = None,
        json_out: options.JsonOpt = False,
    ):
        """Check the papers' claims (every ERRATA item and sheet check): verdict, method and evidence."""
        from ..errors import InputError
        from ..verify import claims as cl
        from ..verify.claims import pairs as plugin_pairs

        plugin_options.load(bounds_file)
        plugin_pairs.refresh_plugin_pairs()  # each plugin bound against the built-in bounds it pairs with
        if report is not None:
            from ..verify import report as rep

            common.check_output_path("--report", report, (".md",))  # a file can be created there (probe)
            rep.check_path(report)  # a missing directory or an unwritable place fails before any work
        if box is not None and claim is None:
            raise InputError("--box", "used together with --claim ID", box)
        secs = None
        if max_seconds is not None:
            from .. import validate

            secs = validate.positive("--max-seconds", max_seconds)
            if secs > 3600:
                raise InputError("--max-seconds", "a number in (0, 3600]", max_seconds)
        if method is not None and method not in cl.METHODS:
            raise InputError("--method", "one of " + ", ".join(m for m in cl.METHODS if m != "none"), method)
        ids = cl.select(paper=paper, claim=claim)
        inputs = {"paper": paper, "claim": claim, "box": box, "method": method, "report": report, "max_seconds": secs}
        if list_:
            meta = [cl.get(i).metadata() for i in ids]
            if json_out:
                common.emit_json("verify", inputs, value=len(meta), claims=meta)
                return
            from rich.table import Table

            t = Table(title="verify — registered claims", header_style="bold")
            for col in ("claim", "item", "methods", "expected", "parameters (default domain)"):
                t.add_column(col, style="cyan" if col == "claim" else None)
            for m in meta:
                ps = ", ".join(f"{p['name']}={p['default'][0]:g}" + (f":{p['default'][1]:g}" if p['default'][0] != p['default'][1] else "")
                               for p in m["params"])
                t.add_row(m["claim_id"], m["item"], ", ".join(m["methods"]), m["expected"], ps or "—")
            common.console().print(t)
            return
        if method is not None and claim is None:  # keep the claims that have this evaluator
            ids = [i for i in ids if method in cl.get(i).evaluators]
            if not ids:
                raise InputError("--method", "a method some selected claim has (see --list)", method)
        from ..verify.claims import proofs

        with proofs.limits(max_seconds=secs):
            if box is not None:
                verdicts = [cl.evaluate(claim, box, method)]
            else:
                verdicts = [cl.evaluate(i, None, method) for i in common.track(ids, "checking claims", enabled=not json_out)]
        written = None
        if report is not None:
            import datetime

            from .. import __version__
            from ..verify import report as rep

            try:
                written = rep.write(report, verdicts, generated=f"boundcalc {__version__}, "
                                    f"{datetime.date.today().isoformat()}; {len(verdicts)} claims")
            except OSError as exc:  # checked before the work; a disk that fills or a folder removed meanwhile
                raise InputError("--report", "a writable FILE.md path", f"{report}: {exc.strerror or exc}") from None
        n_held = sum(bool(v.held) for v in verdicts)
        if json_out:
            extra = {}
            if len(verdicts) == 1:
                v = verdicts[0]
                extra = {"method": v.method, "points": v.points, "counterexample": v.counterexample,
                         "verdict": v.verdict, "finding": v.finding}
                if v.boxes is not None:
                    extra["boxes"] = v.boxes
            common.emit_json("verify", inputs, value=n_held, n_claims=len(verdicts),
                             claims=[v.as_dict() for v in verdicts], report=written, **extra)
            return
        if len(verdicts) > 1 and not details:
            _summary(verdicts, n_held, written)
            return
        from rich.table import Table

        t = Table(title="verify — claims of the papers", header_style="bold",
                  caption=f"{n_held} of {len(verdicts)} statements survived as printed; verdicts in the ERRATA vocabulary "
                  "('holds' only from a proof; grids and samples say 'no counterexample')")
        t.add_column("claim", style="cyan", no_wrap=True)
        t.add_column("paper / item")
        t.add_column("method", no_wrap=True)
        t.add_column("verdict", no_wrap=True)
        t.add_column("evidence")
        for v in verdicts:
            how = v.method + (f" ({v.boxes} box{'' if v.boxes == 1 else 'es'})" if v.boxes is not None else
                              f" ({v.points} points)" if v.points is not None else "")
            t.add_row(v.claim_id, f"{v.paper} {v.item}", how, _styled(v.verdict), v.measured)
        con = common.console()
        con.print(t)
        if len(verdicts) == 1 and verdicts[0].domain:
            con.print(f"domain: {verdicts[0].domain} — {verdicts[0].finding}")
        if written:
            con.print(f"report written to {written['report']} ({written['figure_note']})")
