"""``boundcalc verify --report FILE.md``: the verdicts per paper with their evidence, and figures.

:func:`check_path` validates the destination before any work; :func:`write` renders Markdown and writes it
atomically (a temporary file in the same directory, then ``os.replace``). Figures (claims whose Result has
``figure`` data, e.g. γ_t against t for ERRATA 3 and 12) go to ``<stem>_figures/<claim>.png`` beside the
report when matplotlib is installed; otherwise the report says they were skipped.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections import Counter
from typing import Any

from ..errors import InputError, ParamName

PAPER_TITLES = {
    "000": ("Rényi Differentially Private Bandits (Azize & Basu, AAAI 2023)", "docs/formulas/rdp-bandits.md"),
    "001": ("Optimal Regret of Bernoulli Bandits under Global Differential Privacy (Azize et al. 2025)",
            "docs/formulas/eps-global-dp-bernoulli.md"),
    "002": ("Generalized Linear Bandits with Local Differential Privacy (Han et al., NeurIPS 2021)",
            "docs/formulas/ldp-glm-bandits.md"),
    "003": ("Concentrated Differential Privacy for Bandits (Azize & Basu, SaTML 2024)", "docs/formulas/zcdp-bandits.md"),
    "004": ("Dynamic Global Sensitivity for Differentially Private Contextual Bandits (Wang et al., RecSys 2022)",
            "docs/formulas/dgs-contextual.md"),
}


def check_path(path: str) -> str:
    """A writable FILE.md in an existing directory, else a one-line InputError (before any work is done)."""
    if not str(path).lower().endswith(".md"):
        raise InputError(ParamName("report"), "a FILE.md path", path)
    full = os.path.abspath(path)
    folder = os.path.dirname(full)
    if os.path.isdir(full):
        raise InputError(ParamName("report"), "a file path, not a directory", path)
    if not os.path.isdir(folder):
        raise InputError(ParamName("report"), "a path in an existing directory", path)
    if not os.access(folder, os.W_OK) or (os.path.exists(full) and not os.access(full, os.W_OK)):
        raise InputError(ParamName("report"), "a writable location", path)
    figs = os.path.join(folder, f"{os.path.splitext(os.path.basename(full))[0]}_figures")
    if os.path.exists(figs) and not os.path.isdir(figs):  # the report's figures go there (``write``)
        raise InputError(ParamName("report"), f"a FILE.md whose figure folder {os.path.basename(figs)}/ is not a file", path)
    return full


def _atomic_write_bytes(path: str, data: bytes) -> None:
    folder = os.path.dirname(path)
    fd, tmp = tempfile.mkstemp(prefix=".boundcalc-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _figure(spec: dict, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    ax.plot(spec["x"], spec["y"], lw=1.5)
    if spec.get("hline") is not None:
        ax.axhline(spec["hline"], color="tab:red", ls="--", lw=1, label=spec.get("hline_label"))
        ax.legend()
    if spec.get("logx"):
        ax.set_xscale("log")
    if spec.get("logy"):
        ax.set_yscale("log")
    ax.set_xlabel(spec.get("xlabel", ""))
    ax.set_ylabel(spec.get("ylabel", ""))
    ax.set_title(spec.get("title", ""))
    fig.tight_layout()
    folder = os.path.dirname(path)
    fd, tmp = tempfile.mkstemp(prefix=".boundcalc-", suffix=".png", dir=folder)
    os.close(fd)
    try:
        fig.savefig(tmp, dpi=110)
        os.replace(tmp, path)
    finally:
        plt.close(fig)
        if os.path.exists(tmp):
            os.unlink(tmp)


def _jsonable(x: Any) -> Any:
    """Plain JSON types for the evidence block (numpy scalars/arrays, nested containers); long lists trimmed."""
    try:
        import numpy as np
    except ImportError:  # pragma: no cover
        np = None
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        items = [_jsonable(v) for v in x[:12]]
        return items + [f"… {len(x) - 12} more"] if len(x) > 12 else items
    if np is not None and isinstance(x, np.ndarray):
        return _jsonable(x.tolist())
    if np is not None and isinstance(x, np.generic):
        return x.item()
    if isinstance(x, float):
        return float(f"{x:.6g}") if x == x and abs(x) != float("inf") else str(x)
    if isinstance(x, (int, str, bool)) or x is None:
        return x
    return str(x)


def _method(v) -> str:
    """"proof (12 boxes)", "grid (4096 points)", "monte-carlo"."""
    if v.boxes is not None and v.method == "proof":
        return f"proof ({v.boxes} box{'' if v.boxes == 1 else 'es'})"
    if v.points is not None and v.method == "grid":
        return f"grid ({v.points} points)"
    return v.method


def render(verdicts: list, figures: dict[str, str | None], figure_note: str, generated: str = "") -> str:
    """The Markdown text: a summary, then per paper a table and one section per claim."""
    lines = ["# boundcalc verify — the papers' claims, checked", ""]
    if generated:
        lines += [generated, ""]
    lines += ["Verdicts use the ERRATA vocabulary (docs/errata.md): *statement violated*, *vacuous*, *proof gap*, "
              "*scaling not shown*, *typo*; *holds* is reserved for a proof (interval arithmetic over a cover of the box "
              "by sub-boxes, see docs/verify.md); a grid or Monte Carlo evaluation that "
              "finds nothing says *no counterexample* (on how many points), and a claim no computation can decide "
              "says *not checkable numerically* with the reason.", "",
              f"Figures: {figure_note}", ""]
    by_paper: dict[str, list] = {}
    for v in verdicts:
        by_paper.setdefault(v.paper, []).append(v)
    lines += ["| paper | claims | " + " | ".join(["no counterexample", "holds", "statement violated", "vacuous",
                                                 "proof gap", "scaling not shown", "typo", "not checkable numerically"])
              + " |", "|---|---|" + "---|" * 8]
    for p, vs in sorted(by_paper.items()):
        c = Counter(v.verdict for v in vs)
        lines.append(f"| {p} | {len(vs)} | " + " | ".join(str(c.get(w, 0)) for w in (
            "no counterexample", "holds", "statement violated", "vacuous", "proof gap", "scaling not shown", "typo",
            "not checkable numerically")) + " |")
    lines.append("")
    for p, vs in sorted(by_paper.items()):
        title, sheet = PAPER_TITLES.get(p, (p, ""))
        lines += [f"## Seed {p} — {title}", "", f"Formula sheet: {sheet}.", "",
                  "| claim | item | method | verdict | finding |", "|---|---|---|---|---|"]
        for v in vs:
            lines.append(f"| [{v.claim_id}](#{v.claim_id}) | {v.item} | {_method(v)} | **{v.verdict}** | {v.finding} |")
        lines.append("")
        for v in vs:
            lines += [f"### {v.claim_id}", "", f"- **Statement:** {v.statement}", f"- **Sources:** {'; '.join(v.sources)}",
                      f"- **Method:** {_method(v)}" + (f"; domain `{v.domain}`" if v.domain else ""),
                      f"- **Verdict:** {v.verdict} (expected from the sources: {v.expected})",
                      f"- **Finding:** {v.finding}", f"- **Measured:** {v.measured}"]
            if v.counterexample:
                lines.append(f"- **Counterexample:** `{json.dumps(_jsonable(v.counterexample), ensure_ascii=False)}`")
            if v.claim_id in figures:
                f = figures[v.claim_id]
                lines.append(f"- **Figure:** ![{v.claim_id}]({f})" if f else f"- **Figure:** skipped ({figure_note})")
            ev = json.dumps(_jsonable(v.evidence), ensure_ascii=False, indent=1)
            lines += ["", "<details><summary>evidence</summary>", "", "```json", ev, "```", "", "</details>", ""]
    return "\n".join(lines) + "\n"


def write(path: str, verdicts: list, generated: str = "") -> dict[str, Any]:
    """Write the report (and its figures) atomically; returns what was written."""
    full = check_path(path)
    stem = os.path.splitext(os.path.basename(full))[0]
    fig_dir_name = f"{stem}_figures"
    fig_dir = os.path.join(os.path.dirname(full), fig_dir_name)
    wanted = [v for v in verdicts if getattr(v, "figure", None)]
    figures: dict[str, str | None] = {}
    try:
        import matplotlib  # noqa: F401

        have_mpl = True
    except ImportError:
        have_mpl = False
    if wanted and have_mpl:
        os.makedirs(fig_dir, exist_ok=True)
        for v in wanted:
            _figure(v.figure, os.path.join(fig_dir, f"{v.claim_id}.png"))
            figures[v.claim_id] = f"{fig_dir_name}/{v.claim_id}.png"
        note = f"{len(wanted)} written to {fig_dir_name}/"
    else:
        figures = {v.claim_id: None for v in wanted}
        note = "none requested" if not wanted else "skipped — matplotlib is not installed (pip install 'boundcalc[plot]')"
    text = render(verdicts, figures, note, generated)
    _atomic_write_bytes(full, text.encode("utf-8"))
    return {"report": full, "figures": [os.path.join(os.path.dirname(full), f) for f in figures.values() if f],
            "figure_note": note, "claims": len(verdicts)}
