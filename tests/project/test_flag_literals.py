"""Flag literals below cli/ (issue 23 §1, "CLI below the CLI"): library code names its own parameters, cli/flags.py
names the flags. tools/flag_literals.py counts the string constants that are exactly a flag ("--rho") per package;
the total outside boundcalc/cli/ may not grow past CEILING (lower it when you remove some). Its *mentions* (a flag inside
text: "given with --gaps", f"--data {name}"; docstrings aside) are held to MENTION_CEILING: such text names the
parameter with errors.flag("gaps") and the CLI renders the flag."""

import functools
import importlib.util
from pathlib import Path

import pytest

pytestmark = pytest.mark.xdist_group("flag_literals")  # one worker: the tree is scanned once (_real)

ROOT = Path(__file__).resolve().parents[2]
# 234 at 10a85d6 (218 counting only lowercase flags, as issue 23 did; "--K" and "--T" are flags too); 68 after issue 23 §1, 67 with worksheet --data named by its parameter;
# 13 with errors.flag placeholders: the 12 options of a worksheet run (experiments/options.py OPTIONS, the worksheet
# scripts' own command line) and the argparse option of `python -m boundcalc.bounds.codegen --check`
CEILING = 13
# 85 at e415e89; 2: the boundcalc command lines worksheet text documents (experiments/options.py COMMANDS)
MENTION_CEILING = 2


def _tool():
    spec = importlib.util.spec_from_file_location("flag_literals", ROOT / "tools" / "flag_literals.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@functools.lru_cache(maxsize=None)
def _real(kind: str):
    """The tree's counts, scanned once per process (``count`` or ``count_mentions`` of boundcalc/): each scan parses
    every module of the package, and four tests read them."""
    return getattr(_tool(), kind)(ROOT / "boundcalc")


def _over(below: int, ceiling: int = CEILING) -> bool:
    return below > ceiling


def test_flag_literals_below_cli_at_most_the_ceiling():
    per, below = _real("count")
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
    _, real = _real("count")
    assert _over(max(real, CEILING) + below)  # the tree at its ceiling plus the added literal


def test_flag_mentions_below_cli_at_most_the_ceiling():
    per, below = _real("count_mentions")
    assert per.get("cli", 0) > 0, "the counter finds the CLI's own texts naming flags (it reads the tree)"
    assert not _over(below, MENTION_CEILING), f"{below} strings below cli/ name a flag in their text (ceiling " \
        f"{MENTION_CEILING}): write errors.flag('name') and let the CLI render it; per package: " + str(per)


def test_an_added_mention_is_counted_and_fails_the_ceiling(tmp_path):
    """Mutant: a flag inside a library text or an f-string piece (a copy of the tree with one module added) fails;
    a docstring and an exact literal (counted by ``count``) do not count as mentions."""
    tool = _tool()
    lib = tmp_path / "boundcalc"
    (lib / "envs").mkdir(parents=True)
    (lib / "envs" / "added.py").write_text('def f(x):\n    "Uses --rho."\n    raise ValueError("--rho", f"--rho {x}", '
                                           '"uses --rho", "a---b", "x--y")\n')
    per, below = tool.count_mentions(lib)
    assert per == {"envs": 2} and below == 2  # the f-string piece and the text
    _, real = _real("count_mentions")
    assert _over(max(real, MENTION_CEILING) + 1, MENTION_CEILING)


def test_the_worksheet_options_are_the_clis():
    """experiments/options.py declares a worksheet run's options for the scripts' parser and the report; `boundcalc
    worksheet run` takes the same (cli/flags.py FLAGS): a renamed CLI option would leave the report naming a stale one."""
    from boundcalc.cli.flags import FLAGS
    from boundcalc.experiments.options import OPTIONS

    assert OPTIONS and {k: FLAGS.get(k) for k in OPTIONS} == OPTIONS
