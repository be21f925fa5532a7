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
