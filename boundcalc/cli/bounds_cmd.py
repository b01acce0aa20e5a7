"""`boundcalc bounds` (the registry: list, show) and, through regret_cmd, `boundcalc regret`."""

from __future__ import annotations

from typing import Annotated

import typer

from . import common, options, plugin_options
from .common import command


def register(app: typer.Typer) -> None:
    from . import regret_cmd

    regret_cmd.register(app)

    bounds_app = typer.Typer(help="List the bound registry, or show one bound.", no_args_is_help=False)

    @bounds_app.callback(invoke_without_command=True)
    @command
    def bounds_list(
        ctx: typer.Context,
        setting: options.SettingOpt = None,
        notion: options.BoundsNotionOpt = None,
        kind: options.KindOpt = None,
        bounds_file: options.BoundsFileOpt = None,
        json_out: options.JsonOpt = False,
    ):
        """List the registered bounds (filter by setting, notion, kind)."""
        if ctx.invoked_subcommand is not None:
            plugin_options.load(bounds_file)  # `bounds --bounds-file F show ID`
            return
        from rich.table import Table

        from ..bounds import registry
        from ..bounds.base import NOTIONS
        from ..errors import InputError

        if notion is not None and notion not in NOTIONS:
            raise InputError("--notion", "one of " + ", ".join(NOTIONS), notion)
        if kind is not None and not any(k.startswith(kind) for k in ("upper-problem-dependent", "upper-minimax", "upper-asymptotic", "lower-problem-dependent", "lower-minimax", "lower-asymptotic")):
            raise InputError("--kind", "upper, lower or a full kind such as upper-minimax", kind)
        plugin_options.load(bounds_file)
        bs = registry.select(setting, notion, kind)
        if json_out:
            common.emit_json("bounds", {"setting": setting, "notion": notion, "kind": kind}, value=len(bs),
                             bounds=[b.metadata() for b in bs])
            return
        t = Table(title=f"boundcalc bound registry ({len(bs)} bounds)", header_style="bold")
        for c in ("id", "algorithm", "setting", "notion", "kind", "form", "source"):
            t.add_column(c, style="cyan" if c == "id" else None, no_wrap=c == "id")
        for b in bs:
            t.add_row(b.id, b.algorithm or "(any)", b.setting, b.notion, b.kind, b.form, b.source)
        common.console().print(t)

    @bounds_app.command("show")
    @command
    def bounds_show(
        bound_id: Annotated[str, typer.Argument(metavar="ID", help="Bound id, see 'boundcalc bounds'.")],
        bounds_file: options.BoundsFileOpt = None,
        json_out: options.JsonOpt = False,
    ):
        """Formula, assumptions, source, form and caveats of one bound."""
        import sympy

        plugin_options.load(bounds_file)

        from ..bounds import registry
        from ..bounds.base import FORM_LABELS

        from rich.table import Table

        from ..bounds.symbols import bound_symbols, relations_as_data

        b = registry.get(bound_id)
        npx, pvx = b.expression()
        symbols = bound_symbols(b)
        relations = list(b.requires) or [str(r) for r in relations_as_data(b)]
        if json_out:
            common.emit_json("bounds show", {"id": bound_id}, value=None, bound=b.metadata(),
                             formula={"nonprivate": str(npx), "privacy_cost": str(pvx),
                                      "latex": sympy.latex(npx + pvx), "note": b.formula_note},
                             symbols=symbols,
                             assumptions={"text": list(b.assumptions), "requires": relations},
                             regime_note=b.regime_note, invalid=b.invalid)
            return
        con = common.console()
        con.print(f"[bold cyan]{common.esc(b.id)}[/bold cyan] — {common.esc(b.title)}")
        con.print(f"source: {common.esc(b.source)}   setting: {b.setting}   notion: {b.notion}   kind: {b.kind}")
        con.print(f"form: {b.form} — {FORM_LABELS.get(b.form, '')}")
        con.print(f"algorithm: {common.esc(b.algorithm or '(every algorithm of the class)')}")
        con.print(f"parameters: {', '.join(b.params) or '—'}")
        if getattr(b, "symbols", None):
            con.print(f"plugin: {b.origin}   symbols of {b.setting}/{b.notion}: {', '.join(b.symbols)}")
        if b.combination == "max":
            con.print("combination: max-type (value = max of the non-private and the private term)")
        if b.invalid:
            con.print(f"[red]not a valid bound[/red]: {b.invalid}")
        for a in b.assumptions:
            con.print(f"  assumption: {common.esc(a)}")
        for r in relations:
            con.print(f"  requires (as data): {r}")
        if b.regime_note:
            con.print(f"regime: {common.esc(b.regime_note)}")
        from ..bounds.report import caveat_tags

        tags = caveat_tags(b)
        if tags:
            con.print(f"tags: {', '.join(tags)}")
        for c in b.caveats:
            con.print(f"  [yellow]caveat[/yellow]: {common.esc(c)}")
        common.print_symbolic([("non-private part", npx), ("privacy cost", pvx), ("total", npx + pvx)])
        if b.formula_note:
            con.print(f"where {b.formula_note}")
        t = Table(title="symbols", header_style="bold")
        for c in ("symbol", "meaning", "domain", "where it comes from"):
            t.add_column(c, style="cyan" if c == "symbol" else None, no_wrap=c == "symbol")
        for r in symbols:
            t.add_row(r["symbol"], r["meaning"] or "[red](undocumented)[/red]", r["domain"], r["where"])
        con.print(t)

    app.add_typer(bounds_app, name="bounds")
