"""Library errors name their own parameters, the CLI names the flag (issue 23 §1): errors.ParamName, cli/flags.py FLAGS
(the one parameter -> flag table) and the CLI's error printing (common.command -> flags.message)."""

import ast
import pickle
from pathlib import Path

from clirun import invoke, one_line_error
from mutation import mutate

import boundcalc
from boundcalc.cli import flags
from boundcalc.errors import InputError, ParamName, flag, front_end_names, render

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


def _named(func_names) -> set[str]:
    names = set()
    for p in LIB.rglob("*.py"):
        if "cli" in p.relative_to(LIB).parts[:1]:
            continue
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) in func_names and node.args
                    and isinstance(node.args[0], ast.Constant)):
                names.add(node.args[0].value)
    return names


def test_every_param_named_in_the_library_has_its_flag():
    """Every ``ParamName("x")`` and ``flag("x")`` (errors.flag, also imported as ``_flag``) below cli/ is a key of
    FLAGS (else the user would read the library's name)."""
    names, pointed = _named({"ParamName"}), _named({"flag", "_flag"})
    assert names and pointed, "the library names parameters with ParamName and points at them with errors.flag"
    assert not names - set(flags.FLAGS), sorted(names - set(flags.FLAGS))
    assert not pointed - set(flags.FLAGS), sorted(pointed - set(flags.FLAGS))
    assert all(f.startswith("--") for f in flags.FLAGS.values())


def test_the_one_line_names_the_flag_the_user_typed(monkeypatch):
    """envs.setting_of names its parameter "env"; `regret --env nope` still says --env. Mutant: the CLI printing the
    library's message as it is."""
    args = ["regret", "--setting", "finite", "--epsilon", "1", "--T", "1e4", "--env", "nope"]
    line = one_line_error(invoke(args))
    assert line.startswith("boundcalc: error: --env must be one of mu1, ") and line.endswith("(got 'nope')"), line
    monkeypatch.setattr(flags, "message", mutate(flags.message, "return text(FLAGS) if callable(text) else str(exc)",
                                                 "return str(exc)"))
    assert one_line_error(invoke(args)).startswith("boundcalc: error: env must be"), "mutant not caught"


def test_a_placeholder_names_the_parameter_and_the_front_end_its_option():
    """errors.flag in library text: the parameter's own name without a front end, the front end's option inside
    front_end_names or through InputError.text; an error raised again with another parameter keeps the placeholders
    of its allowed text."""
    text = f"lower {flag('T')} or {flag('runs')}"
    assert render(text) == "lower T or runs" and render(text, {}) == "lower T or runs"
    assert render(text, flags.FLAGS) == "lower --T or --runs"
    with front_end_names(flags.FLAGS):
        assert render(text) == "lower --T or --runs"
    assert render(text) == "lower T or runs"  # the front end's table does not outlive it
    exc = InputError(f"{flag('T')} x {flag('runs')}", f"at most 10; {text}", f"{flag('y_scale')} linear")
    assert str(exc) == "T x runs must be at most 10; lower T or runs (got 'y_scale linear')"
    assert flags.message(exc) == "--T x --runs must be at most 10; lower --T or --runs (got '--y-scale linear')"
    with front_end_names(flags.FLAGS):
        assert str(exc) == flags.message(exc)  # quoted inside another text ("cannot simulate here: {exc}")
    again = InputError(ParamName("max_runs"), exc.allowed, exc.got)
    assert flags.message(again).startswith("--max-runs must be at most 10; lower --T or --runs")
    assert flags.message(pickle.loads(pickle.dumps(exc))) == flags.message(exc)  # from a worker process


def test_library_text_names_the_flags_in_the_cli(monkeypatch):
    """A library note (bounds' KEY_USES) and a library error's text (audit's budget) name the flags the user typed:
    the CLI runs every command inside front_end_names(FLAGS). Mutant: a CLI that installs no table (the note then
    names the parameter)."""
    import contextlib

    from boundcalc import errors

    note_args = ["regret", "--setting", "glm", "--epsilon", "1", "--T", "1e4", "--param", "theta_seed=4", "--json"]
    err_args = ["audit", "--algo", "DP-SE", "--epsilon", "1", "--rho", "0.5", "--trials", "100"]

    def seen():
        import json

        notes = " ".join(json.loads(invoke(note_args).stdout).get("notes", []))
        return notes, one_line_error(invoke(err_args))

    notes, line = seen()
    assert "it draws theta* of --check" in notes, notes
    assert "exactly one of --epsilon, --rho, --alpha/--rdp-epsilon (got '--epsilon, --rho')" in line, line
    monkeypatch.setattr(errors, "front_end_names", lambda names: contextlib.nullcontext())
    notes, line = seen()
    assert "it draws theta* of check" in notes, notes  # (the error's line is rendered by flags.message: above)
