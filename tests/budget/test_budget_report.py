"""`budget --report decision.html|.md`: a self-contained decision report, rendered by a real browser (headless
Chromium): the numbers of the rendered DOM equal those of the JSON, the screenshot is not blank, nothing is
loaded from the network."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from html.parser import HTMLParser

import pytest

from clirun import app, runner

# means 0.7, 0.5 (was 0.9, 0.5: T·Δ_max = 240 there, and 60 runs cannot pin the mean down under the unseen-tail floor of
# issue 22 — the search says "not pinned down" and no budget is recommended)
ARGS = ["budget", "--setting", "finite", "--T", "600", "--means", "0.7,0.5", "--max-overhead", "3", "--algo",
        "DP-KLUCB", "--runs", "30", "--max-runs", "60", "--seed", "4"]
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _chromium():
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        if os.environ.get("CI") == "true":
            pytest.fail("chromium is not installed: .ci/run must install it (apt-get install chromium)")
        pytest.skip("chromium not installed (outside CI): the browser test of the decision report is skipped")
    return exe


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """Both reports from the same search: the two invocations differ only in --report's extension and --json, so the
    second one reuses the first one's plan (solve_measured is seeded: the same arguments give the same plan) instead
    of searching again; each report is still rendered by its own `budget` run. The arguments are checked equal."""
    import copy

    from boundcalc.budget import measured

    d = tmp_path_factory.mktemp("report")
    html_path, md_path = d / "decision.html", d / "decision.md"
    real, seen = measured.solve_measured, []

    def once(*a, **k):
        args = (a, {n: v for n, v in k.items() if n not in ("progress", "executor")})
        if seen:
            assert repr(args) == repr(seen[0][0]), "the two report runs asked for different searches"
            return copy.deepcopy(seen[0][1])
        seen.append((args, real(*a, **k)))
        return copy.deepcopy(seen[0][1])

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(measured, "solve_measured", once)
        res = runner.invoke(app, [*ARGS, "--report", str(html_path), "--json"])
        assert res.exit_code == 0, res.output
        obj = json.loads(res.stdout)
        res2 = runner.invoke(app, [*ARGS, "--report", str(md_path)])
        assert res2.exit_code == 0, res2.output
    assert len(seen) == 1
    return d, html_path, md_path, obj


class _Numbers(HTMLParser):
    def __init__(self):
        super().__init__()
        self.found: dict[str, str] = {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "data-key" in a:
            self.found[a["data-key"]] = a.get("data-value")


def _dump_dom(exe, path, profile):
    out = subprocess.run([exe, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--dump-dom", f"file://{path}"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


def test_rendered_numbers_equal_the_json(made):
    exe = _chromium()
    d, html_path, _, obj = made
    dom = _dump_dom(exe, html_path, d / "profile1")
    assert "Privacy budget decision" in dom
    p = _Numbers()
    p.feed(dom)
    nums = {k: (None if v == "null" else float(v)) for k, v in p.found.items()}
    row = next(r for r in obj["rows"] if r["by"] == "simulation")
    assert obj["value"] is not None
    assert nums["value"] == obj["value"]
    assert nums["rows.0.budget"] == row["budget"]
    assert [nums["rows.0.interval.0"], nums["rows.0.interval.1"]] == row["interval"]
    assert nums["rows.0.overhead.value"] == row["overhead"]["value"]
    assert [nums["rows.0.overhead.ci.0"], nums["rows.0.overhead.ci.1"]] == row["overhead"]["ci"]
    assert nums["rows.0.runs_used"] == row["runs"]
    # the guarantee of the chosen pure ε in other notions, computed here: ρ = ε²/2 (Bun–Steinke Prop. 1.4)
    eps = row["own_budget"]["epsilon"]
    assert nums["guarantee.epsilon"] == pytest.approx(eps)
    assert nums["guarantee.rho"] == pytest.approx(eps**2 / 2, rel=1e-12)
    # the rendered text shows the number too (not only the attribute)
    assert re.search(r"ε = <span[^>]*data-key=\"value\"[^>]*>" + re.escape(f"{obj['value']:.4g}"), dom)


def test_screenshot_is_not_blank(made):
    exe = _chromium()
    d, html_path, _, _ = made
    shot = d / "s.png"
    out = subprocess.run([exe, *CHROMIUM_FLAGS, f"--user-data-dir={d / 'profile2'}", f"--screenshot={shot}",
                          "--window-size=1200,2000", f"file://{html_path}"], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0 and shot.exists(), out.stderr[-2000:]
    import matplotlib.image as mpimg
    import numpy as np

    img = mpimg.imread(str(shot))
    assert img.shape[0] >= 1000 and img.shape[1] >= 1000
    colours = np.unique((img[..., :3] * 255).astype(np.uint8).reshape(-1, 3), axis=0)
    assert len(colours) > 20  # text, tables, figures: far more than a blank page's one or two colours
    dark = (img[..., :3].mean(axis=2) < 0.5).mean()
    assert 0.001 < dark < 0.5


def test_self_contained_and_markdown(made):
    _, html_path, md_path, obj = made
    text = html_path.read_text()
    assert "<svg" in text
    assert not re.search(r"<script|<link|@import|<img|<iframe", text, re.I)
    assert not re.search(r"(?:src|href)\s*=\s*[\"']?(?:https?:)?//", text, re.I)
    md = md_path.read_text()
    assert md.startswith("# Privacy budget decision") and "<svg" in md
    assert f"{obj['value']:.4g}" in md and "## Caveats" in md and "boundcalc budget" in md
