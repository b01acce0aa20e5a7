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
