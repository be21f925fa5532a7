"""A suite's work_param (what --target-ms sizes) must be an integer scale parameter: cells sized differently
share a table only through scale_params."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from iorace.manifest.schema import SuiteManifest

BASE = {"name": "s", "title": "t", "datasets": {"tiny": {"description": "d"}}, "params": {"passes": 10, "mode": "count"}}


def test_a_work_param_is_an_integer_scale_parameter():
    assert SuiteManifest.model_validate({**BASE, "scale_params": ["passes"], "work_param": "passes"}).work_param == "passes"
    with pytest.raises(ValidationError, match="not one of scale_params"):
        SuiteManifest.model_validate({**BASE, "work_param": "passes"})
    with pytest.raises(ValidationError, match="not an integer parameter"):
        SuiteManifest.model_validate({**BASE, "scale_params": ["mode"], "work_param": "mode"})


def test_a_work_param_may_be_a_list_each_an_integer_scale_parameter():
    params = {"ser_ops": 10, "deser_ops": 30, "op": "ser"}
    two = {**BASE, "params": params, "scale_params": ["ser_ops", "deser_ops"], "work_param": ["ser_ops", "deser_ops"]}
    assert SuiteManifest.model_validate(two).work_params == ("ser_ops", "deser_ops")
    with pytest.raises(ValidationError, match="'op' is not one of scale_params"):
        SuiteManifest.model_validate({**two, "work_param": ["ser_ops", "op"]})


def test_target_ms_takes_a_number_of_at_least_one_ms_or_none():
    import click

    from iorace.core.options import Milliseconds

    ms = Milliseconds()
    assert ms.convert("100", None, None) == 100.0 and ms.convert("none", None, None) is None
    for bad, why in (("0.5", "below 1 ms"), ("x", "is not a number of milliseconds")):
        with pytest.raises(click.BadParameter, match=why):
            ms.convert(bad, None, None)
