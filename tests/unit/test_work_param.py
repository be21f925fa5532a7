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
