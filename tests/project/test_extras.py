"""Install extras and the notebook setting of the worksheets (issue 17 §7, §8).

``pip install -e '.[notebooks]'`` must bring JupyterLab and jupytext (whose contents manager serves the percent-format
worksheets as notebooks) and a kernel; ``all`` (what the tests and CI install) must not pull JupyterLab (53 packages,
32 MB: worksheets/README.md) but must have what the suite uses: pytest-xdist for ``-n 2`` and the kernel pieces.
worksheets/jupyter-config/ makes JupyterLab open Python files with jupytext's notebook viewer for one session.
"""

import json
import re
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python >= 3.11
ROOT = Path(__file__).resolve().parents[2]


def _extras():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]


def _resolve(extras, name, seen=None):
    """Requirement names an extra installs, following boundcalc[...] self-references."""
    seen = set() if seen is None else seen
    out = set()
    for req in extras[name]:
        m = re.fullmatch(r"boundcalc\[([^\]]+)\]", req.replace(" ", ""))
        if m:
            for sub in m.group(1).split(","):
                if sub not in seen:
                    seen.add(sub)
                    out |= _resolve(extras, sub, seen)
        else:
            out.add(re.split(r"[<>=!~\[; ]", req, maxsplit=1)[0].lower())
    return out


def test_notebooks_extra_opens_worksheets_in_jupyterlab():
    ex = _extras()
    nb = _resolve(ex, "notebooks")
    assert {"jupyterlab", "jupytext", "ipykernel"} <= nb, nb
    every = _resolve(ex, "all")
    assert "jupyterlab" not in every, "JupyterLab would slow every CI install; keep it in `notebooks` only"
    assert {"pytest", "pytest-xdist", "hypothesis", "jupytext", "nbclient", "ipykernel"} <= every, every
    # mutant: an `all` that names `notebooks` again pulls JupyterLab, and the check above sees it
    bad = dict(ex, all=["boundcalc[test,plot,accounting,proofs,dask,notebooks]"])
    assert "jupyterlab" in _resolve(bad, "all")


def test_jupyter_config_sets_the_python_viewer_to_jupytext():
    path = ROOT / "worksheets" / "jupyter-config" / "labconfig" / "default_setting_overrides.json"
    cfg = json.loads(path.read_text())
    assert cfg["@jupyterlab/docmanager-extension:plugin"]["defaultViewers"]["python"] == "Jupytext Notebook"
    # the documented command names that directory, from both READMEs
    for doc in ("README.md", "worksheets/README.md"):
        assert "JUPYTER_CONFIG_PATH=$PWD/worksheets/jupyter-config jupyter lab worksheets/001_" in \
            (ROOT / doc).read_text(), doc


def test_the_config_layers_through_jupyter_config_path(monkeypatch):
    """jupyter_core (what JupyterLab's settings layer reads ``labconfig`` through) finds the directory when
    JUPYTER_CONFIG_PATH names it, and only then."""
    paths = pytest.importorskip("jupyter_core.paths")
    cfg = str(ROOT / "worksheets" / "jupyter-config")
    monkeypatch.setenv("JUPYTER_CONFIG_PATH", cfg)
    assert cfg in paths.jupyter_config_path()
    monkeypatch.delenv("JUPYTER_CONFIG_PATH")
    assert cfg not in paths.jupyter_config_path()
