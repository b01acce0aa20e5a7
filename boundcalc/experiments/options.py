"""The command line of a worksheet run, declared once (issue 23 §1: flags below cli/ only where a front end of its own
lives, in one place).

A worksheet runs as ``boundcalc worksheet run NNN [options]`` (cli/worksheet_cmd.py) and as a plain script
(``python worksheets/NNN_*.py [options]``, whose parser is :func:`boundcalc.experiments.session.parse_args`): the
same option names in both. The script's parser, its errors, the report and the worksheets' notes name the options
from :data:`OPTIONS`; tests/project/test_flag_literals.py checks each against the CLI's table (cli/flags.py FLAGS).
:data:`COMMANDS` are the boundcalc command lines that worksheet text tells the user to run. Module level: no imports.
"""

# parameter (as the Runner and Session name it) -> the option of a worksheet run (the scripts take all but the
# executor's, which only `boundcalc worksheet run` has)
OPTIONS = {
    "fast": "--fast", "full": "--full", "out": "--out", "seed": "--seed", "step_cap": "--step-cap", "data": "--data",
    "only": "--only", "no_claims": "--no-claims", "x_scale": "--x-scale", "y_scale": "--y-scale", "log_y": "--log-y",
    "executor": "--executor",
}

# boundcalc command lines worksheet text documents ({...}: filled by str.format)
COMMANDS = {
    "verify_paper": "boundcalc verify --paper {paper}",  # the paper's claims alone
    "run_with_data": "boundcalc worksheet run {worksheet} " + OPTIONS["data"] + " {name}={path}",  # a real-data experiment
    "regret_check": "regret --check",  # the bounds' own instance, as the `regret` command's check builds it
}


def option(parameter: str, value: str = "") -> str:
    """The option of ``parameter`` as typed, with ``value`` after a space when given ("--data lastfm=DIR")."""
    return OPTIONS[parameter] + (f" {value}" if value else "")
