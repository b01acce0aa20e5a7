"""Library errors name their own parameters, the CLI names the flag (issue 23 §1): errors.ParamName, cli/flags.py FLAGS
(the one parameter -> flag table) and the CLI's error printing (common.command -> flags.message)."""

import ast
import pickle
from pathlib import Path

from clirun import invoke, one_line_error
from mutation import mutate

import boundcalc
from boundcalc.cli import flags
from boundcalc.errors import InputError, ParamName

LIB = Path(boundcalc.__file__).parent


def test_a_library_error_names_the_parameter_and_the_cli_the_flag():
    exc = InputError(ParamName("best_mean"), "a number in [0, 1]", 2.0)
    assert str(exc) == "best_mean must be a number in [0, 1] (got 2.0)"  # the library's own words
    assert flags.message(exc) == "--best-mean must be a number in [0, 1] (got 2.0)"
    # a plain str parameter (a file's key, a bound's keyword) is printed as written, even when it spells a parameter
    assert flags.message(InputError("means", "finite numbers")) == "means must be finite numbers"
    assert flags.message(InputError("instance means", "in [0, 1]")) == "instance means must be in [0, 1]"
    back = pickle.loads(pickle.dumps(exc))  # an error raised in a worker process reaches the parent as itself
    assert isinstance(back.parameter, ParamName) and flags.message(back) == flags.message(exc)


def test_every_param_named_in_the_library_has_its_flag():
    """Every ``ParamName("x")`` below cli/ is a key of FLAGS (else the user would read the library's name)."""
    names = set()
    for p in LIB.rglob("*.py"):
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "ParamName" and node.args
                    and isinstance(node.args[0], ast.Constant)):
                names.add(node.args[0].value)
    assert names, "the library names parameters with ParamName"
    assert not names - set(flags.FLAGS), sorted(names - set(flags.FLAGS))
    assert all(f.startswith("--") for f in flags.FLAGS.values())


def test_the_one_line_names_the_flag_the_user_typed(monkeypatch):
    """envs.setting_of names its parameter "env"; `regret --env nope` still says --env. Mutant: the CLI printing the
    library's message as it is."""
    args = ["regret", "--setting", "finite", "--epsilon", "1", "--T", "1e4", "--env", "nope"]
    line = one_line_error(invoke(args))
    assert line.startswith("boundcalc: error: --env must be one of mu1, ") and line.endswith("(got 'nope')"), line
    monkeypatch.setattr(flags, "message", mutate(flags.message, "return FLAGS[str(p)] + text[len(str(p)):]",
                                                 "return text"))
    assert one_line_error(invoke(args)).startswith("boundcalc: error: env must be"), "mutant not caught"
