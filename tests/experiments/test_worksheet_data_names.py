"""`worksheet run NAME --data KEY=PATH` with a KEY that no experiment of the worksheet reads is a one-line error naming
--data and which worksheets take which KEY (an adversarial review after issue 24: ``worksheet run 001 --data
autoloan=FILE`` was accepted and the file silently ignored). The readers are declared once, ``Experiment.data``
(seed 002 App. F: autoloan in worksheet 002; seed 004 Sec. 4: lastfm in worksheet 004).
Mutant kept: check_data without the worksheet's readers -> the error is about the path, not the worksheet.
"""

from __future__ import annotations

import pytest

from boundcalc.errors import InputError
from boundcalc.experiments import base, get
from clirun import invoke, one_line_error
from mutation import mutate


def test_readers_are_declared_per_experiment():
    assert base.data_readers() == {"autoloan": ["002"], "lastfm": ["004"]}


def test_a_data_file_the_worksheet_does_not_read_is_refused(tmp_path):
    f = tmp_path / "loans.csv"
    f.write_text("x\n")
    line = one_line_error(invoke("worksheet", "run", "001", "--data", f"autoloan={f}", "--out", str(tmp_path / "o")))
    assert "--data" in line and "worksheet 001" in line and "autoloan=PATH for worksheet 002" in line \
        and "lastfm=PATH for worksheet 004" in line, line
    # the worksheet that reads it goes on to check the file itself (its path / format), not the name
    line = one_line_error(invoke("worksheet", "run", "002", "--data", f"autoloan={tmp_path / 'missing.csv'}",
                                 "--out", str(tmp_path / "o")))
    assert "existing path" in line, line


def test_mutant_without_the_readers_is_caught(tmp_path):
    missing = {"autoloan": str(tmp_path / "missing.csv")}
    with pytest.raises(InputError, match="worksheet 001 reads"):
        base.check_data(missing, get("001"))
    bad = mutate(base.check_data, "if ws is not None and name not in", "if False and name not in")
    with pytest.raises(InputError, match="existing path"):
        bad(missing, get("001"))
