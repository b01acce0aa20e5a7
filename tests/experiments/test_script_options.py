"""A worksheet script's command line (experiments/session.py parse_args, its options declared once in
experiments/options.py) reports bad input in one line naming the script's option, as the CLI does (issue 23 §1)."""

import pytest
from mutation import mutate

from boundcalc.experiments import session
from boundcalc.experiments.options import OPTIONS


@pytest.mark.parametrize("argv, head", [(["--data", "foo=bar"], "--data must be NAME=PATH"),  # a ParamName
                                        (["--only", "nope"], "--only must be experiment ids"),
                                        (["--log-y", "--y-scale", "linear"], "--log-y must be without --y-scale linear")])
def test_a_script_names_its_option(argv, head, capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(session, "in_notebook", lambda: False)
    code, err = _error(session.start, argv + ["--out", str(tmp_path / "out")], capsys)
    assert code == 2 and err.startswith("boundcalc: error: " + head) and err.count("\n") == 1, err


def _error(start, argv, capsys):
    with pytest.raises(SystemExit) as e:
        start("001", argv)
    return e.value.code, capsys.readouterr().err


def test_the_parser_reads_the_declared_options(monkeypatch, capsys, tmp_path):
    """The parser's options are OPTIONS' (all but the executor's); mutant: the error printed as the library's words."""
    got = session.parse_args([OPTIONS["full"], OPTIONS["step_cap"], "5", OPTIONS["only"], "fig1", OPTIONS["no_claims"]])
    assert (got["mode"], got["step_cap"], got["only"], got["claims"]) == ("full", 5.0, ["fig1"], False)
    monkeypatch.setattr(session, "in_notebook", lambda: False)
    bad = mutate(session.start, "{exc.text(OPTIONS)}", "{exc}")
    code, err = _error(bad, ["--data", "foo=bar", "--out", str(tmp_path / "out")], capsys)
    assert code == 2 and err.startswith("boundcalc: error: data must be"), err  # the test above fails on it
