"""`simulate --param NAME=VALUE` with a value the algorithm refuses names the option, "--param NAME", not the bare
constructor keyword (an adversarial review after issue 24: ``--param beta=abc`` said "beta must be ..."). Mutant kept:
_build without the renaming -> the bare name.
"""

from __future__ import annotations

from boundcalc.cli import simulate_cmd
from clirun import invoke, one_line_error
from mutation import mutate

ARGS = ("simulate", "--algo", "AdaP-UCB", "--T", "100", "--runs", "2", "--epsilon", "1", "--param", "beta=abc")


def test_a_refused_param_names_the_option():
    line = one_line_error(invoke(*ARGS))
    assert line.startswith("boundcalc: error: --param beta must be"), line


def test_mutant_bare_name_is_caught(monkeypatch):
    bad = mutate(simulate_cmd._build, "if type(exc) is InputError and exc.parameter in option_of:", "if False:")
    monkeypatch.setattr(simulate_cmd, "_build", bad)
    line = one_line_error(invoke(*ARGS))
    assert line.startswith("boundcalc: error: beta must be"), line
