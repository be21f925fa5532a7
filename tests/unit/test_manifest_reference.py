"""docs/MANIFEST.md is made from the manifest's models (iorace/manifest/reference.py): it must be current, cover
every table a manifest can hold, and describe every field (a field without a docstring stops the generator)."""

from __future__ import annotations

import typing
from pathlib import Path

import pytest
from pydantic import BaseModel

from iorace.manifest import reference, schema

MANIFEST_MD = Path(__file__).resolve().parents[2] / "docs" / "MANIFEST.md"


def test_the_committed_reference_is_current():
    assert MANIFEST_MD.read_text() == reference.markdown(), "docs/MANIFEST.md is out of date with schema.py: run make docs"


def _models_inside(model: type[BaseModel]) -> set[type[BaseModel]]:
    """Every model a manifest's tables can hold, from SuiteManifest down."""
    found = {model}
    for info in model.model_fields.values():
        stack = [info.annotation]
        while stack:
            t = stack.pop()
            if isinstance(t, type) and issubclass(t, BaseModel) and t not in found:
                found |= _models_inside(t)
            stack += typing.get_args(t)
    return found


def test_every_table_of_a_manifest_has_a_section():
    documented = {model for _, model, _ in reference.SECTIONS if model is not None}
    # [defaults] is VariantFields plus its [defaults.LANG] tables; the toolchains' table is read as Toolchain
    inside = _models_inside(schema.SuiteManifest) - {schema.Defaults} | {schema.VariantFields, schema.Toolchain}
    assert inside <= documented, inside - documented


def test_a_field_without_a_description_stops_the_generator(monkeypatch):
    monkeypatch.setattr(schema.Dataset.model_fields["members"], "description", None)
    with pytest.raises(reference.Undescribed, match=r"Dataset\.members has no docstring"):
        reference.markdown()


def test_work_param_and_suite_wide_defaults_are_in_it():
    text = reference.markdown()
    assert "| `work_param` | string or list of string |" in text and "`iorace run --target-ms` (on by default" in text
    assert "## [defaults] and [defaults.LANG]" in text and "{kit}" in text
