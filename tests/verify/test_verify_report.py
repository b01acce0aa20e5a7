"""`boundcalc verify --report FILE.md` (boundcalc.verify.report)."""

import builtins
import os

import pytest
from typer.testing import CliRunner

from boundcalc.cli.app import app
from boundcalc.errors import InputError
from boundcalc.verify import claims
from boundcalc.verify import report as rep


@pytest.fixture(scope="module")
def some_verdicts():
    ids = ["003-gamma-increasing", "003-thm9-constant", "003-good-event", "000-min-log"]
    return [claims.evaluate(i) for i in ids]


def test_report_per_paper_with_evidence_and_figure(tmp_path, some_verdicts):
    pytest.importorskip("matplotlib")
    out = rep.write(str(tmp_path / "r.md"), some_verdicts)
    text = (tmp_path / "r.md").read_text()
    assert "## Seed 000" in text and "## Seed 003" in text
    for v in some_verdicts:
        assert f"### {v.claim_id}" in text and v.finding in text
    assert "not checkable numerically" in text and "proof gap" in text
    png = tmp_path / "r_figures" / "003-gamma-increasing.png"
    assert png.exists() and png.read_bytes()[:4] == b"\x89PNG"
    assert "![003-gamma-increasing](r_figures/003-gamma-increasing.png)" in text
    assert out["figures"] == [str(png)]
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".boundcalc-")]  # no temporary file left


def test_report_without_matplotlib_says_figures_were_skipped(tmp_path, some_verdicts, monkeypatch):
    real_import = builtins.__import__

    def no_mpl(name, *args, **kwargs):
        if name.startswith("matplotlib"):
            raise ImportError("no matplotlib")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_mpl)
    rep.write(str(tmp_path / "r.md"), some_verdicts)
    text = (tmp_path / "r.md").read_text()
    assert "skipped — matplotlib is not installed" in text
    assert not (tmp_path / "r_figures").exists()


@pytest.mark.parametrize("name", ["missing-dir/r.md", "r.txt", "."])
def test_report_path_errors(tmp_path, name):
    with pytest.raises(InputError):
        rep.check_path(str(tmp_path / name))


def test_report_unwritable_directory(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        if os.access(ro, os.W_OK):  # running as root: permissions are not enforced
            pytest.skip("permissions not enforced for this user")
        with pytest.raises(InputError):
            rep.check_path(str(ro / "r.md"))
    finally:
        ro.chmod(0o700)


def test_cli_report_written_and_checked_first(tmp_path):
    path = tmp_path / "v.md"
    r = CliRunner().invoke(app, ["verify", "--claim", "000-min-log", "--report", str(path), "--json"])
    assert r.exit_code == 0, r.output
    assert path.exists() and "000-min-log" in path.read_text()
    r = CliRunner().invoke(app, ["verify", "--paper", "003", "--report", str(tmp_path / "nope" / "v.md")])
    assert r.exit_code == 2  # fails before running the 003 claims
    out = (r.stderr if hasattr(r, "stderr") else r.output).strip()
    assert len(out.splitlines()) == 1 and "--report" in out
