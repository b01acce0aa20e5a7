"""cli/problem.py: the instance of a command's options, resolved at the CLI's edge (issue 23 §1), and an instance file
that carries its setting: `regret --instance f.toml --epsilon 1 --T 1e4` needs no --setting."""

from clirun import invoke, json_of, one_line_error
from mutation import mutate

from boundcalc.envs.spec import Instance, save_instance


def test_regret_with_a_finite_instance_file_needs_no_setting(tmp_path, monkeypatch):
    """The issue's own command; the answer is that of the same means given with --setting finite --means (an
    independent route to the instance). Mutant: setting_of ignoring the file -> the one line asking for --setting."""
    path = save_instance(Instance("finite", means=(0.9, 0.6, 0.5)), str(tmp_path / "f.toml"))
    args = ["regret", "--instance", path, "--epsilon", "1", "--T", "1e4"]
    a = json_of(args)
    b = json_of(["regret", "--setting", "finite", "--means", "0.9,0.6,0.5", "--epsilon", "1", "--T", "1e4"])
    assert a["inputs"]["setting"] == "finite" and a["instance"]["means"] == [0.9, 0.6, 0.5]
    assert a["value"] == b["value"] and [r["value"] for r in a["bounds"]] == [r["value"] for r in b["bounds"]]
    from boundcalc.cli import instance_options

    monkeypatch.setattr(instance_options, "setting_of", mutate(instance_options.setting_of,
                                                               "if instance_file is not None:", "if False:"))
    assert "--setting must be one of" in one_line_error(invoke(args))


def test_instance_options_errors_name_the_flags():
    """cli/problem.py keeps the flags in its messages (as envs/spec.py did before the move)."""
    from boundcalc.cli.problem import instance_from_options
    from boundcalc.errors import InputError

    for kw, flag in (({"means": "0.9,0.8", "gaps": "0.1"}, "--means"), ({"K": 4, "means": "0.9,0.8"}, "--K"),
                     ({"theta": "1,0", "d": 3}, "--theta"), ({"env": "mu1", "means": "0.5,0.4"}, "--env")):
        setting = "linear" if "theta" in kw else "finite"
        try:
            instance_from_options(setting, **kw)
        except InputError as exc:
            assert str(exc).startswith(flag + " must be"), (kw, str(exc))
        else:
            raise AssertionError(kw)
