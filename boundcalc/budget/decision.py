"""``budget --report decision.html|.md``: one self-contained file to hand over with a measured budget decision.

Sections: the question (target, horizon, notion), the instance, the measured answers (per algorithm, on this
instance) beside the bound-based ones (every instance of the class) and the lower-bound limit, the guarantee of
the chosen budget in every notion (ρ, ε, (ε, δ) at ``delta``, the RDP curve: boundcalc.budget.notions.equivalents,
Bun & Steinke 2016, Mironov 2017, Canonne–Kamath–Steinke 2020), the evidence (overhead against budget with its
intervals, regret curves and the regret distribution at the chosen budget), the caveats, and the command and
versions that reproduce it. Figures are inline SVG (matplotlib, fonts as paths); nothing is loaded from the
network (no scripts, no stylesheets, no images by URL). Every number that the JSON also gives carries
``data-key`` (its JSON path) and ``data-value`` (repr of the float), so a test can compare the rendered DOM with
the JSON.
"""

from __future__ import annotations

import html
import math
import os
import platform
from typing import Any

from ..errors import InputError, ParamName, flag, render


def _num(x, digits: int = 4) -> str:
    if x is None:
        return "—"
    if isinstance(x, float) and not math.isfinite(x):
        return "∞" if x > 0 else "−∞"
    return f"{x:.{digits}g}"


def _span(key: str, x, digits: int = 4, html_mode: bool = True) -> str:
    text = _num(x, digits)
    if not html_mode:
        return text
    val = "null" if x is None else repr(float(x))
    return f'<span class="num" data-key="{html.escape(key)}" data-value="{val}">{html.escape(text)}</span>'


def _versions() -> dict[str, str]:
    import numpy
    import scipy

    from .. import __version__

    out = {"boundcalc": __version__, "python": platform.python_version(), "numpy": numpy.__version__,
           "scipy": scipy.__version__}
    try:
        import matplotlib

        out["matplotlib"] = matplotlib.__version__
    except ImportError:  # pragma: no cover
        pass
    return out


def _figures(plan, sym: str) -> list[tuple[str, str]]:
    """(caption, svg) of the evidence figures."""
    from .. import figures as F

    figs = []
    ans = plan.answers[0] if plan.answers else []
    series = {}
    for a in ans:
        pts = [(e["budget"], e["estimate"], e["ci"][0], e["ci"][1]) for e in a.evaluations]
        if pts:
            series[f"{a.algorithm} vs {a.counterpart['name']}"] = pts
    what = "overhead" if plan.target["kind"] == "overhead" else "regret"
    qtxt = "mean" if plan.quantile is None else f"q = {plan.quantile:g} quantile"
    if series:
        fig = F.interval_figure(series, target=plan.target["value"], xlabel=f"user budget {sym}",
                                ylabel=f"measured {what} ({qtxt}) with 95% interval",
                                markers=[(f"measured answer ({plan.value_algorithm})", plan.value)]
                                if plan.value else [],
                                title_text="Every decision of the search (search seeds and fresh seeds)")
        figs.append((f"Measured {what} against the budget, with 95% intervals: every budget the search decided.",
                     F.svg_text(fig)))
    curves = []
    samples = {}
    for a in ans:
        c = a.curves
        if not c:
            continue
        curves.append(F.Curve(f"{a.algorithm} at {sym} = {_num(a.budget)}", c["t"], c["private"], c["private_lo"],
                              c["private_hi"]))
        curves.append(F.Curve(f"{a.counterpart['name']} (non-private counterpart of {a.algorithm})", c["t"],
                              c["nonprivate"], c["nonprivate_lo"], c["nonprivate_hi"]))
        if a.final_regrets:
            samples[f"{a.algorithm} at {sym} = {_num(a.budget)}"] = a.final_regrets["private"]
            samples[f"{a.counterpart['name']}"] = a.final_regrets["nonprivate"]
    if curves:
        fig = F.regret_figure(curves, title_text="Mean pseudo-regret with 95% ribbons at the measured answer",
                              log_y=None)
        figs.append(("Regret curves at the measured answer, private and non-private counterpart.", F.svg_text(fig)))
    if samples:
        marks = [("regret cap", plan.target["value"])] if plan.target["kind"] == "regret" else []
        fig = F.ccdf_figure(samples, title_text="Distribution of the regret at T over runs (CCDF)", markers=marks)
        figs.append(("The regret distribution at T: the fraction of runs whose regret exceeds x.", F.svg_text(fig)))
    return figs


def _rdp_svg(eq: dict) -> str | None:
    from .. import figures as F

    if not eq or not eq.get("rdp") or len(eq["rdp"]) < 2:
        return None
    a = [x[0] for x in eq["rdp"]]
    e = [x[1] for x in eq["rdp"]]
    fig = F.lines_figure([F.Line("ε(α)", a, e, kind="other")], xlabel="Rényi order α", ylabel="RDP ε(α)",
                         title_text="RDP curve of the chosen budget", log_y=False)
    return F.svg_text(fig)


def build(plan, command: str, delta: float = 1e-6, fmt: str = "html") -> str:
    """The report text (``fmt`` = html or md) of a MeasuredPlan."""
    from .notions import UserNotion, equivalents

    H = fmt == "html"
    notion = UserNotion(plan.notion["name"], alpha=plan.notion.get("alpha"), delta=plan.notion.get("delta"))
    sym = notion.symbol
    esc = html.escape if H else (lambda s: s)
    tgt = plan.target
    q = plan.quantile
    if tgt["kind"] == "overhead":
        question = (f"the strongest privacy ({notion.describe()}) at which the privacy overhead "
                    f"(Reg_private − Reg_non-private) / Reg_non-private of the "
                    f"{'mean' if q is None else f'q = {q:g} quantile of the'} regret at T = {plan.T:,} is at most "
                    f"{100 * tgt['value']:g}%, with 95% confidence, measured on this instance")
    else:
        question = (f"the strongest privacy ({notion.describe()}) at which the "
                    f"{'mean' if q is None else f'q = {q:g} quantile of the'} regret at T = {plan.T:,} is at most "
                    f"{tgt['value']:g}, with 95% confidence, measured on this instance")
    out: list[str] = []
    P = out.append

    def h(level: int, text: str):
        P(f"<h{level}>{esc(text)}</h{level}>" if H else f"{'#' * level} {text}\n")

    def para(text: str):
        P(f"<p>{text}</p>" if H else f"{text}\n")

    if H:
        P("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>boundcalc budget decision</title>"
          "<style>body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#111;background:#fff}"
          "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #999;padding:4px 8px;text-align:left}"
          "th{background:#e8eef7}.answer{font-size:1.3em;background:#eaf6ea;padding:.6em;border-left:6px solid #2a7}"
          ".warn{background:#fff4e0;padding:.4em;border-left:6px solid #e90}pre{background:#f3f3f3;padding:.6em;"
          "white-space:pre-wrap}figure{margin:1em 0}svg{max-width:100%;height:auto}</style></head><body>")
    h(1, "Privacy budget decision")
    h(2, "The question")
    para(esc(question[0].upper() + question[1:] + "."))
    h(2, "The instance")
    import json

    inst = json.dumps(plan.instances[0] if len(plan.instances) == 1 else plan.instances, default=str)[:4000]
    P(f"<pre id=\"instance\">{esc(inst)}</pre>" if H else f"```json\n{inst}\n```\n")
    h(2, "Answer")
    if plan.value is not None:
        para((f'<div class="answer" id="answer">Measured on this instance: {esc(sym)} = '
              f'{_span("value", plan.value)} with {esc(plan.value_algorithm)}</div>') if H else
             f"**Measured on this instance: {sym} = {_num(plan.value)} with {plan.value_algorithm}**")
    else:
        para((f'<div class="warn" id="answer">No budget recommended: {esc(plan.reason)}</div>') if H else
             f"**No budget recommended**: {plan.reason}")
    # measured rows
    h(3, "Measured, per algorithm (on your instance)")
    head = ["algorithm", "non-private counterpart", "status", f"answer {sym}", "interval [missed, met]",
            "measured overhead (95%)", f"{'mean' if q is None else f'q={q:g}'} target quantity (95%)", "runs used",
            "seconds"]
    rows = []
    for j, a in enumerate(plan.answers[0] if len(plan.answers) == 1 else []):
        k = f"rows.{j}"
        iv = a.interval or [None, None]
        ov = a.overhead or {}
        ms = a.measure or {}
        oc = ov.get("ci") or [None, None]
        mc = ms.get("ci") or [None, None]
        rows.append([esc(a.algorithm), esc(a.counterpart["name"] + (" " + " ".join(render(f"{flag('param')} {x}={y}") for x, y in
                                                                                    a.counterpart["params"].items())
                                                                   if a.counterpart["params"] else "")),
                     esc(a.status), _span(f"{k}.budget", a.budget, html_mode=H),
                     f"[{_span(f'{k}.interval.0', iv[0], html_mode=H)}, {_span(f'{k}.interval.1', iv[1], html_mode=H)}]",
                     (f"{_span(f'{k}.overhead.value', ov.get('value'), html_mode=H)} "
                      f"[{_span(f'{k}.overhead.ci.0', oc[0], html_mode=H)}, "
                      f"{_span(f'{k}.overhead.ci.1', oc[1], html_mode=H)}]") if ov else "—",
                     (f"{_span(f'{k}.measure.estimate', ms.get('estimate'), html_mode=H)} "
                      f"[{_span(f'{k}.measure.ci.0', mc[0], html_mode=H)}, "
                      f"{_span(f'{k}.measure.ci.1', mc[1], html_mode=H)}]") if ms else "—",
                     _span(f"{k}.runs_used", a.runs_used, 10, html_mode=H), _num(a.seconds, 3)])
    _table(P, head, rows, H, "measured")
    if plan.prior:
        h(3, "Over the instances drawn from the prior")
        prow = [[esc(k), str(v["instances"]), str(v["met"]), _num(v["worst"]), f"{_num(v['at_quantile'])} "
                 f"(q = {v['quantile']:g})"] for k, v in plan.prior.items()]
        _table(P, ["algorithm", "instances", "met", f"worst {sym}", f"quantile of {sym}"], prow, H, "prior")
    h(3, "Bound-based (every instance of the class) and the lower-bound limit")
    brow = []
    for j, b in enumerate(plan.bound):
        brow.append([esc(b["algorithm"]), esc(b.get("bound_id") or "—"),
                     _span(f"bound.{j}.budget", b.get("budget"), html_mode=H),
                     (f"loose by {_span(f'bound.{j}.loose_by', b.get('loose_by'), 3, html_mode=H)}× on yours "
                      f"({esc(b.get('loose_bound_id') or '')}"
                      + ("" if b.get("loose_bound_rigorous") else ", indicative form") + ")"
                      if b.get("loose_by") else esc(b.get("note") or "—"))])
    _table(P, ["algorithm", "bound", f"bound-based {sym}", "looseness (bound ÷ measured mean regret at the measured "
               "answer)"], brow, H, "bound")
    if plan.lower_limit is not None:
        para(f"No algorithm can do better: below {esc(sym)} = {_span('lower_limit', plan.lower_limit, html_mode=H)} "
             f"every algorithm misses the target ({esc(plan.lower_id or '')}).")
    # guarantee
    h(2, "The guarantee in every notion")
    best = next((a for a in (plan.answers[0] if plan.answers else []) if a.algorithm == plan.value_algorithm), None)
    if best is not None and best.own_budget:
        from ..privacy import RDP, ZCDP, ApproxDP, LocalDP, PureDP

        ob = dict(best.own_budget)
        kind = ob.pop("notion", None)
        cls = {"pure": PureDP, "zcdp": ZCDP, "rdp": RDP, "approx": ApproxDP, "ldp": LocalDP}[kind]
        budget = cls(**ob)
        eq = equivalents(budget, delta)
        para(esc(f"{best.algorithm} runs at {budget.describe()} ({best.conversion})."))
        grow = [["ρ (zCDP)", _span("guarantee.rho", eq.get("rho"), html_mode=H)],
                ["ε (pure DP)", _span("guarantee.epsilon", eq.get("epsilon"), html_mode=H)]]
        if eq.get("approx_tight"):
            grow.append([esc(f"(ε, δ) at δ = {eq['approx_tight'][1]:g}, tight"),
                         _span("guarantee.approx_tight", eq["approx_tight"][0], html_mode=H)])
        if eq.get("approx_simple"):
            grow.append([esc(f"(ε, δ) at δ = {eq['approx_simple'][1]:g}, simple"),
                         _span("guarantee.approx_simple", eq["approx_simple"][0], html_mode=H)])
        for a_, e_ in eq.get("rdp") or []:
            grow.append([esc(f"RDP ε(α) at α = {a_:g}"), _num(e_)])
        _table(P, ["notion", "value"], grow, H, "guarantee")
        svg = _rdp_svg(eq) if H else None
        if svg:
            P(f"<figure>{svg}<figcaption>The RDP curve ε(α) of the chosen budget.</figcaption></figure>")
    else:
        para("No budget chosen, so no guarantee to state.")
    # evidence
    h(2, "Evidence")
    for cap, svg in _figures(plan, sym):
        P(f"<figure>{svg}<figcaption>{esc(cap)}</figcaption></figure>" if H else f"<figure>{svg}</figure>\n\n*{cap}*\n")
    for a in (plan.answers[0] if plan.answers else []):
        if a.regret:
            r, n = a.regret, a.regret_nonprivate
            para(esc(f"{a.algorithm} at {sym} = {_num(a.budget)}: mean {_num(r['mean'])} [{_num(r['ci'][0])}, "
                     f"{_num(r['ci'][1])}], median {_num(r['median'])}, p90 {_num(r['p90'])}, p99 {_num(r['p99'])}, "
                     f"still linear at T: {_num(r['linear_fraction'])}; {a.counterpart['name']}: mean "
                     f"{_num(n['mean'])}, median {_num(n['median'])}, p90 {_num(n['p90'])}, p99 {_num(n['p99'])} "
                     f"({r['runs']} runs each)."))
    # caveats
    h(2, "Caveats")
    cav = [
        "Measured on this instance only: another instance (other means, gaps, θ*) can need a weaker or allow a "
        "stronger budget; the bound-based answer covers every instance of the class.",
        "Each decision is at 95% confidence on its own (no correction across the search's decisions); the chosen "
        "budget was confirmed on fresh seeds.",
        ("The private and non-private runs draw from independent seeds (independent pairing): every run is its own "
         "unit of the overhead interval (delta method for the ratio of means, or a bootstrap for a quantile)."
         if all((a.counterpart or {}).get("pairing", "independent") == "independent"
                for row in plan.answers for a in row) else
         "The private and non-private runs share their seeds batch by batch (common pairing), not their reward "
         "tapes (both draw sufficient statistics): the overhead interval is the cluster-robust delta method with "
         "engine blocks as clusters (or a bootstrap of whole blocks for a quantile), valid whatever the dependence "
         "within a block."),
        "The regret is the pseudo-regret Σ Δ_a N_a(T) that the simulator records.",
        "A heavy-tailed regret (rare runs that stop pulling the best arm: see p99 and the CCDF) can carry the mean "
        "while no run of the sample shows it: a mean's interval therefore includes the most the unseen runs could add "
        "(the rule of three, ≈ 3.7/runs of them, up to T·Δ_max each); when the runs a budget gets cannot pin the "
        "mean down, no budget is recommended for it ('not pinned down'); a quantile target "
        + render(f"({flag('quantile')} 0.9)") + " is distribution-free and answers.",
    ]
    for a in (plan.answers[0] if plan.answers else []):
        cav += [f"{a.algorithm}: {n}" for n in a.notes]
    cav += list(plan.notes)
    P("<ul>" + "".join(f"<li>{esc(c)}</li>" for c in cav) + "</ul>" if H else "\n".join(f"- {c}" for c in cav) + "\n")
    h(2, "Reproduce")
    ver = ", ".join(f"{k} {v}" for k, v in _versions().items())
    P(f"<pre id=\"command\">{esc(command)}</pre><p id=\"versions\">{esc(ver)}</p>" if H else
      f"```\n{command}\n```\n\n{ver}\n")
    if H:
        P("</body></html>")
    return "\n".join(out)


def _table(P, head, rows, H, ident):
    if H:
        P(f'<table id="{ident}"><tr>' + "".join(f"<th>{html.escape(x)}</th>" for x in head) + "</tr>"
          + "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows) + "</table>")
    else:
        P("| " + " | ".join(head) + " |\n|" + "---|" * len(head) + "\n"
          + "\n".join("| " + " | ".join(str(c) for c in r) + " |" for r in rows) + "\n")


def write(plan, path: str, command: str, delta: float = 1e-6) -> str:
    """Write the report to ``path`` (.html or .md, atomically)."""
    ext = os.path.splitext(path)[1].lower()
    if ext not in (".html", ".htm", ".md"):
        raise InputError(ParamName("report"), "a file name ending in .html or .md", path)
    text = build(plan, command, delta, "md" if ext == ".md" else "html")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise InputError(ParamName("report"), "a path in an existing directory", path)
    tmp = os.path.join(folder, f".{os.path.basename(path)}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        raise InputError(ParamName("report"), "a writable path", f"{path}: {exc.strerror}") from None
    return path
