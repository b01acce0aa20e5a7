"""Flag literals below cli/ (issue 23 §1, "CLI below the CLI"): library code names its own parameters, cli/flags.py
names the flags. tools/flag_literals.py counts the string constants that are exactly a flag ("--rho") per package;
the total outside boundcalc/cli/ may not grow past CEILING (lower it when you remove some)."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# 234 at 10a85d6 (218 counting only lowercase flags, as issue 23 did; "--K" and "--T" are flags too); 68 after issue 23 §1, 67 with worksheet --data named by its parameter
CEILING = 67


def _tool():
    spec = importlib.util.spec_from_file_location("flag_literals", ROOT / "tools" / "flag_literals.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _over(below: int) -> bool:
    return below > CEILING


def test_flag_literals_below_cli_at_most_the_ceiling():
    per, below = _tool().count(ROOT / "boundcalc")
    assert per.get("cli", 0) > 0, "the counter finds the CLI's own flags (it reads the tree)"
    assert not _over(below), f"{below} flag literals below cli/ (ceiling {CEILING}): name the parameter " \
        "(errors.ParamName) and its flag in cli/flags.py FLAGS instead; per package: " + str(per)


def test_an_added_literal_is_counted_and_fails_the_ceiling(tmp_path):
    """Mutant: one more flag literal in a library package (a copy of the tree with one module added) fails."""
    tool = _tool()
    lib = tmp_path / "boundcalc"
    (lib / "envs").mkdir(parents=True)
    (lib / "cli").mkdir()
    (lib / "envs" / "added.py").write_text('def f(x):\n    raise ValueError("--rho", f"--rho {x}", "uses --rho")\n')
    (lib / "cli" / "cmd.py").write_text('OPT = "--rho"\n')
    per, below = tool.count(lib)
    assert per == {"envs": 1, "cli": 1} and below == 1  # the exact constant only; the f-string and the text not
    _, real = tool.count(ROOT / "boundcalc")
    assert _over(max(real, CEILING) + below)  # the tree at its ceiling plus the added literal
