"""Numbers and durations in tables: what is printed reads back as the number (to the digits shown)."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boundcalc.textformat import duration, number


@given(st.floats(-1e300, 1e300, allow_nan=False), st.integers(2, 12))  # near 1.8e308 rounding up overflows
def test_number_reads_back_to_its_digits(x, digits):
    s = number(x, digits)
    assert float(s) == pytest.approx(x, rel=10.0 ** (1 - digits), abs=0.0) or x == 0


def test_number_special_values():
    assert number(None) == "—" and number("text") == "text" and number(float("nan")) == "nan"
    assert number(math.inf) == "∞" and number(-math.inf) == "-∞" and number(0.0) == "0"
    assert number(1234567.0, 4) == "1.235e+06" and number(1234567.0, 4, whole=True) == "1234567"
    assert number(1e7, 4, whole=True) == "1.000e+07"  # whole numbers in full only below 1e7
    assert number(5e-5, 3) == "5.00e-05" and number(1e-4, 3) == "0.0001"


@pytest.mark.parametrize("sec, text", [(0.04, "0.0 s"), (89.9, "89.9 s"), (90, "2 min"), (5399, "90 min"),
                                       (5400, "1.5 h"), (36000, "10.0 h")])
def test_duration_units(sec, text):
    assert duration(sec) == text
