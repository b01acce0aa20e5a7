"""boundcalc.figures: path checks, formats by extension, legends that list only what is drawn, fitted axes."""

from __future__ import annotations

import numpy as np
import pytest

from boundcalc import figures as F
from boundcalc.errors import InputError

MAGIC = {".png": b"\x89PNG\r\n\x1a\n", ".pdf": b"%PDF", ".svg": b"<?xml"}


@pytest.mark.parametrize("bad", ["x.jpg", "x", "/no/such/dir/x.png"])
def test_check_path_rejects(bad, tmp_path):
    with pytest.raises(InputError):
        F.check_path(bad if bad.startswith("/") else str(tmp_path / bad))


def test_check_path_rejects_a_directory(tmp_path):
    d = tmp_path / "d.png"
    d.mkdir()
    with pytest.raises(InputError):
        F.check_path(str(d))


@pytest.mark.parametrize("ext", F.FORMATS)
def test_save_writes_the_format_of_the_extension(ext, tmp_path):
    t = np.geomspace(10, 1e4, 50)
    fig = F.regret_figure([F.Curve("A", t, np.sqrt(t), np.sqrt(t) - 1, np.sqrt(t) + 1)],
                          [F.Line("bound", t, 3 * np.sqrt(t))], title_text=F.title("x", "mu1", "ε = 1", 1e4, 20))
    path = tmp_path / f"f{ext}"
    F.save(fig, str(path))
    head = path.read_bytes()[:8]
    assert head.startswith(MAGIC[ext]) or (ext == ".svg" and b"<svg" in path.read_bytes()[:400])
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary file left


def test_legend_lists_only_what_is_drawn():
    t = np.geomspace(10, 1e4, 50)
    fig = F.regret_figure([F.Curve("drawn", t, t ** 0.5), F.Curve("all nan", t, np.full_like(t, np.nan))],
                          [F.Line("nan bound", t, np.full_like(t, np.nan)), F.Line("lower", t, t ** 0.4, kind="lower"),
                           F.Line("huge", t, 1e9 * t)])
    labels = fig.axes[0].get_legend_handles_labels()[1]
    assert "drawn" in labels and "lower" in labels
    assert "all nan" not in labels and "nan bound" not in labels
    assert "huge (off scale)" in labels  # listed as off scale, not silently dropped
    ylo, yhi = fig.axes[0].get_ylim()
    assert yhi < 1e3  # the off-scale bound does not flatten the curves
    F.pyplot().close(fig)


def test_title_names_instance_budget_T_runs():
    s = F.title("DP-KLUCB vs DP-IMED", "mu1", "ε = 0.5", 1e7, 100)
    assert "mu1" in s and "ε = 0.5" in s and "10^7" in s and "100 runs" in s
    assert "non-private" in F.title("x")


def test_palette_starts_with_okabe_ito_and_cycles():
    assert F.colour(0) == "#0072B2" and F.colour(len(F.PALETTE)) == F.colour(0)
    assert len(set(F.PALETTE)) == len(F.PALETTE)


def test_lines_figure_marks_and_log_axes(tmp_path):
    b = np.geomspace(1e-4, 10, 40)
    fig = F.lines_figure([F.Line("U", b, 1e3 + 10 / b), F.Line("L", b, 50 + 1 / b, kind="lower")],
                         markers=[("chosen ρ", 0.01)], xlabel="ρ", title_text="t")
    ax = fig.axes[0]
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    assert "chosen ρ" in ax.get_legend_handles_labels()[1]
    F.save(fig, str(tmp_path / "b.png"))


def test_long_titles_wrap_between_parts_and_keep_each_part_whole():
    inst = "seed 003 Sec. VII contextual experiment made to meet Assumption 1: K fresh actions per round, projected"
    s = F.title("AdaC-OFUL, RS-OFUL", inst, "ρ-zCDP, ρ = 0.5", 1e5, 100)
    lines = s.split("\n")
    assert len(lines) >= 2 and all(len(x) <= F.TITLE_WIDTH for x in lines)
    assert "ρ-zCDP, ρ = 0.5" in lines[-1] or any("ρ-zCDP, ρ = 0.5" in x for x in lines)
    assert "T = 10^5" in s and "100 runs" in s
    assert "\n" not in F.title("x", "mu1", "ε = 1", 1e3, 5)  # a short title stays on one line


class _Bound:  # duck-typed like boundcalc.verify.overlay.BoundCurve
    def __init__(self, label, kind, inside=True):
        self.label, self.kind, self.inside = label, kind, inside
        self.t = np.geomspace(10, 1e4, 20)
        self.values = 5 * np.sqrt(self.t)


def test_bound_line_styles():
    up = F.bound_line(_Bound("U", "upper"))
    lo = F.bound_line(_Bound("L", "lower"))
    out = F.bound_line(_Bound("O", "upper", inside=False))
    tied = F.bound_line(_Bound("A", "upper"), F.colour(2))
    assert up.kind == "upper" and "color" not in up.style  # the palette's next colour in regret_figure
    assert lo.style["color"] == F.LOWER_COLOUR
    assert out.style["ls"] == ":"  # outside its theorem's assumptions: dotted
    assert tied.style["color"] == F.colour(2) and tied.style["ls"] == "-."


def test_many_legend_entries_go_outside_and_panels_hide_unused_cells(tmp_path):
    t = np.geomspace(10, 1e4, 50)
    curves = [F.Curve(f"c{i}", t, (i + 1) * np.sqrt(t)) for i in range(F.LEGEND_INSIDE_MAX + 1)]
    fig = F.regret_figure(curves)
    leg = fig.axes[0].get_legend()
    assert leg is not None and leg._loc == 6  # center left, anchored outside the axes
    F.pyplot().close(fig)
    fig, axes = F.panels(3, ncols=2)
    assert len(axes) == 3 and len(fig.axes) == 4 and not fig.axes[3].get_visible()
    for ax in axes:
        F.regret_figure([F.Curve("a", t, np.sqrt(t))], ax=ax)
    F.save(fig, str(tmp_path / "p.png"))


def test_check_path_probes_the_directory(tmp_path, monkeypatch):
    import tempfile

    def refuse(*a, **k):
        raise PermissionError(13, "Read-only file system")

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    with pytest.raises(InputError, match="writable"):
        F.check_path(str(tmp_path / "x.png"))
