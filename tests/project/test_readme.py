"""The README's Python examples run as written (each ```python block, in order, in one namespace), and the commands
named in its command table exist."""

from __future__ import annotations

import contextlib
import io
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _blocks():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def test_readme_python_examples_run():
    blocks = _blocks()
    assert len(blocks) >= 2
    ns: dict = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for code in blocks:
            exec(compile(code, "README.md", "exec"), ns)  # noqa: S102 - the project's own documentation
    text = out.getvalue()
    assert "003-thm4-explicit" in text and "proven on the box" in text
    assert abs(ns["plan"].value - ns["plan"].row("003-thm4-explicit").user_budget) == 0


def test_readme_commands_exist():
    from boundcalc.cli.app import app

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    named = set(re.findall(r"^\| `([a-z-]+)` \|", text, flags=re.M))
    import typer.main

    cmd = typer.main.get_command(app)
    assert named and named <= set(cmd.commands), named - set(cmd.commands)
