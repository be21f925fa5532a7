"""Option types of `iorace run` and friends (core/options.py): what a user types and what it means."""

from __future__ import annotations

import click
import pytest

from iorace.core.options import Percent


@pytest.mark.parametrize("text, value", [("2", 0.02), ("2%", 0.02), ("0.5", 0.005), ("5%", 0.05), ("none", None), ("None", None)])
def test_a_precision_is_a_percentage_with_or_without_its_sign(text, value):
    """`iorace dimension` suggests `--precision 2`: that must be +-2%, not 200%."""
    assert Percent().convert(text, None, None) == value


@pytest.mark.parametrize("text", ["0", "100", "150%", "-1", "two"])
def test_a_precision_outside_0_to_100_percent_or_not_a_number_is_refused_in_one_line(text):
    with pytest.raises(click.BadParameter) as e:
        Percent().convert(text, None, None)
    assert "\n" not in str(e.value.message)
