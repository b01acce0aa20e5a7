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


# -- axis scales: each figure's own (the paper's), overridden by figures.scales (issue 24 item 7) -----------------------
def test_scales_override_every_drawing_function():
    t = np.geomspace(10, 1e4, 30)
    c = [F.Curve("a", t, np.sqrt(t), np.sqrt(t) - 1, np.sqrt(t) + 1)]
    ln = [F.Line("b", t, 2 * np.sqrt(t))]
    own = {"regret": lambda: F.regret_figure(c, ln), "regret-linear-x": lambda: F.regret_figure(c, ln, x_scale="linear"),
           "lines": lambda: F.lines_figure(ln), "panels": lambda: F.panels_figure([F.Panel(c, ln, x_scale="linear")]),
           "ccdf": lambda: F.ccdf_figure({"a": t}), "interval": lambda: F.interval_figure({"a": [(1, 2, 1, 3)]})}
    default = {"regret": ("log", "linear"), "regret-linear-x": ("linear", "linear"), "lines": ("log", "linear"),
               "panels": ("linear", "linear"), "ccdf": ("linear", "log"), "interval": ("log", "linear")}
    for name, draw in own.items():
        fig = draw()
        assert F.axes_scales(fig) == [default[name]], name
        F.pyplot().close(fig)
        for x, y in (("linear", "log"), ("log", "linear"), ("log", None), (None, "log")):
            with F.scales(x, y):
                fig = draw()
            want = (x or default[name][0], y or default[name][1])
            assert F.axes_scales(fig) == [want], (name, x, y)
            F.pyplot().close(fig)
    fig = F.regret_figure(c, ln)  # left the block: the figure's own scales again
    assert F.axes_scales(fig) == [("log", "linear")]
    F.pyplot().close(fig)


@pytest.mark.parametrize("args, want", [((None, None, False), (None, None)), (("LOG", None, False), ("log", None)),
                                        ((None, None, True), (None, "log")), ((None, "log", True), (None, "log")),
                                        (("linear", "linear", False), ("linear", "linear"))])
def test_scale_options(args, want):
    assert F.scale_options(*args) == want


@pytest.mark.parametrize("args, option", [(("lin", None, False), "--x-scale"), ((None, "", False), "--y-scale"),
                                          ((None, "linear", True), "--log-y")])
def test_scale_options_refuse(args, option):
    from boundcalc.cli.flags import message

    with pytest.raises(InputError) as e:
        F.scale_options(*args)
    assert message(e.value).startswith(option + " must be")  # the library names its parameter, the CLI the flag


def test_y_focus_keeps_the_low_curves_readable():
    """Two close low curves and one 30 times higher: fitted to the focus curves, the y axis ends at FOCUS_HEADROOM ×
    their largest upper ribbon value (not at the high curve's top), and the panel names the curve above it."""
    t = np.geomspace(10, 1e4, 30)
    low1, low2, high = 2 * np.log(t), 3 * np.log(t), 90 * np.log(t)
    c = [F.Curve("A", t, low1, low1 - 1, low1 + 1), F.Curve("B", t, low2, low2 - 1, low2 + 1), F.Curve("C", t, high)]
    fig = F.regret_figure(c, [F.Line("far bound", t, 50 * low2)], y_focus=("A", "B"))
    ax = fig.axes[0]
    top = F.FOCUS_HEADROOM * float(np.max(low2 + 1))
    assert ax.get_ylim()[1] == pytest.approx(top, rel=1e-9)
    assert [tx.get_text() for tx in ax.texts] == ["above the axes: C"]
    assert "far bound (off scale)" in ax.get_legend_handles_labels()[1]
    F.pyplot().close(fig)
    # a curve whose mean stays below the cut and only its ribbon reaches above: nothing cut, nothing named
    mid = 6 * np.log(t)
    fig = F.regret_figure(c[:2] + [F.Curve("D", t, mid, mid / 2, 4 * mid)], y_focus=("A", "B"))
    assert not fig.axes[0].texts and fig.axes[0].get_ylim()[1] >= float(np.max(4 * mid))
    F.pyplot().close(fig)
    fig = F.regret_figure(c, y_focus=())  # without a focus: fitted to every curve
    assert fig.axes[0].get_ylim()[1] >= float(np.max(high)) and not fig.axes[0].texts
    F.pyplot().close(fig)


def _captured_scales(monkeypatch, argv, tmp_path):
    """Run a command in-process with --plot; the axes of the figure it saves, read back from matplotlib."""
    from typer.testing import CliRunner

    from boundcalc.cli.app import app

    seen, real = [], F.save

    def save(fig, path, option="--plot"):
        seen.append(F.axes_scales(fig))
        return real(fig, path, option)

    monkeypatch.setattr(F, "save", save)
    r = CliRunner().invoke(app, [*argv, "--plot", str(tmp_path / "p.png"), "--json"])
    assert r.exit_code == 0, r.output
    assert len(seen) == 1
    return seen[0]


CMDS = {"regret": ["regret", "--setting", "finite", "--epsilon", "1", "--T", "1e4"],
        "budget": ["budget", "--setting", "finite", "--max-overhead", "0.5"],
        "simulate": ["simulate", "--algo", "UCB", "--means", "0.9,0.5", "--T", "200", "--runs", "4"]}


@pytest.mark.parametrize("cmd", list(CMDS))
def test_cli_scale_options_reach_the_figure(cmd, monkeypatch, tmp_path):
    """--x-scale and --y-scale of simulate --plot, regret --plot and budget --plot: every
    axes of the saved figure (read back from matplotlib) takes the scales asked, whatever the figure's own (log t or
    budget; linear regret, or log where bounds span decades); --log-y is --y-scale log (simulate's own y is linear)."""
    for x, y in (("linear", "log"), ("log", "linear")):
        got = _captured_scales(monkeypatch, [*CMDS[cmd], "--x-scale", x, "--y-scale", y], tmp_path)
        assert got and all(s == (x, y) for s in got), (x, y, got)
    if cmd == "simulate":
        assert _captured_scales(monkeypatch, CMDS[cmd], tmp_path) == [("log", "linear")]
        assert _captured_scales(monkeypatch, [*CMDS[cmd], "--log-y"], tmp_path) == [("log", "log")]


@pytest.mark.parametrize("mutant", ["x dropped", "y dropped"])
def test_dropped_scale_override_is_caught(mutant, monkeypatch, tmp_path):
    """Mutants kept: the override dropped in figures (x_scale_of / log_y_of return the figure's own scale) must fail
    the check above (regret --plot, whose own scales are log x, log y here)."""
    from mutation import mutate

    if mutant == "x dropped":
        monkeypatch.setattr(F, "x_scale_of", mutate(F.x_scale_of, "_SCALES.get()[0] or default", "default"))
    else:
        monkeypatch.setattr(F, "log_y_of", mutate(F.log_y_of, 'default if y is None else y == "log"', "default"))
    got = _captured_scales(monkeypatch, [*CMDS["regret"], "--x-scale", "linear", "--y-scale", "linear"], tmp_path)
    assert got and not all(s == ("linear", "linear") for s in got), got
