"""The suite manifest (suite.toml) and the toolchain table, as validated models.

Every model forbids unknown fields, so a typo in a manifest is an error that
names the file and the field instead of a silently ignored setting.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from iorace.errors import UsageError
from iorace.kind import Kind

ParamValue = str | int | float | bool


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Toolchain(Strict):
    name: str = ""
    language: str
    command: str
    version: str
    install: str = ""
    build: str = ""
    run: list[str]
    profiles: dict[str, dict[str, str]] = Field(default_factory=lambda: {"release": dict[str, str]()})
    default_profiles: list[str] = Field(default_factory=lambda: ["release"])


class Dataset(Strict):
    description: str = ""
    params: dict[str, ParamValue] = Field(default_factory=dict)
    members: list[str] = Field(default_factory=list)


class VariantFields(Strict):
    """Fields a [defaults.<language>] table may preset for every variant of that language."""

    args: list[str] | None = None
    deps: list[str] | None = None
    toolchains: list[str] | None = None
    profiles: list[str] | None = None
    flags: str | None = None
    link: str | None = None
    env: dict[str, str] | None = None
    params: dict[str, ParamValue] | None = None
    dir: str | None = None


class Variant(Strict):
    name: str
    language: str
    description: str
    sources: list[str]
    kind: Kind = Kind.VARIANT  # how the row takes part in its table (iorace.kind)
    args: list[str] = Field(default_factory=list)
    deps: list[str] = Field(default_factory=list)
    toolchains: list[str] | None = None
    profiles: list[str] | None = None
    flags: str = ""
    link: str = ""
    bin: str | None = None
    env: dict[str, str] = Field(default_factory=dict)
    params: dict[str, ParamValue] = Field(default_factory=dict)
    known_wrong: list[str] = Field(default_factory=list)
    skip: dict[str, str] = Field(default_factory=dict)  # dataset -> why this variant is not run on it
    dir: str | None = None

    @field_validator("name")
    @classmethod
    def _plain_name(cls, v: str) -> str:
        if not v or any(c in v for c in "/@ \t"):
            raise ValueError("must be non-empty, without '/', '@' or spaces")
        return v

    @field_validator("sources")
    @classmethod
    def _some_sources(cls, v: list[str]) -> list[str]:
        if not v:
            raise ValueError("lists no source file")
        return v

    @property
    def key(self) -> str:
        return f"{self.language}/{self.name}"


class SameLanguageReference(Strict):
    """Compare each cell with the reference variant of its own language, toolchain and profile
    (rdb: every read strategy against that language's in-memory cursor)."""

    label: str
    variants: list[str]  # language/name keys, at most one per language


class Grid(Strict):
    """The seed's own view of a suite whose cells vary by two parameters (capnp: case x configuration):
    one table per value of `split`, a row per value of `rows`, a column per cell named in `columns`
    (`language/variant@toolchain:profile`), and the ratio of two of those columns with its 95% interval."""

    title: str
    split: str  # a parameter: one table per value (e.g. case)
    rows: str  # a parameter: one row per value, in the manifest's order (e.g. config)
    columns: list[str]  # cells as language/variant@toolchain:profile
    ratio: list[str] = Field(default_factory=list)  # [numerator, denominator] among `columns`

    @field_validator("ratio")
    @classmethod
    def _two(cls, v: list[str]) -> list[str]:
        if v and len(v) != 2:
            raise ValueError("names two columns: [numerator, denominator]")
        return v


class SeedTable(Strict):
    """The seed's own table of named tests (dcat: its ten tests, in its order, each column's median as its
    tsv-summarize printed), per toolchain and profile, with each test's time over a baseline test's, ours
    beside the seed's own published figures where it gave some (ratios travel between machines; seconds do
    not)."""

    title: str
    rows: list[str]  # cells as language/variant, in the seed's order
    baseline: str  # one of `rows`: the "x baseline" column divides by it
    seed_figures: dict[str, float] = Field(default_factory=dict)  # language/variant -> the seed's seconds
    # where the seed timed several compilers (serialize: dmd and gdc): toolchain -> its figures, used for
    # that toolchain's table in place of seed_figures
    seed_figures_by_toolchain: dict[str, dict[str, float]] = Field(default_factory=dict)
    seed_figures_source: str = ""  # where those figures come from (machine, runs)

    @model_validator(mode="after")
    def _baseline_is_a_row(self) -> SeedTable:
        if self.baseline not in self.rows:
            raise ValueError(f"baseline {self.baseline!r} is not one of rows")
        for figures in [self.seed_figures, *self.seed_figures_by_toolchain.values()]:
            unknown = [k for k in figures if k not in self.rows]
            if unknown:
                raise ValueError(f"seed figures name {unknown[0]!r}, which is not one of rows")
        return self


class SuiteManifest(Strict):
    name: str
    title: str
    seed: str = ""
    module: str = "suite.py"
    answer: Literal["result", "stdout"] = "result"
    metric: Literal["inner", "wall"] = "wall"
    throughput: str = ""
    baseline_languages: list[str] = Field(default_factory=list)  # "x best c/cpp" in the best-per-toolchain table
    data_deps: list[str] = Field(default_factory=list)  # code outside this folder that generate()/expected() run (cache key)
    # Parameters that only scale the amount of work (passes): cells that differ only in them are compared
    # in one table per unit of `throughput` (per byte), e.g. a 1-pass Python loop against 10-pass C.
    scale_params: list[str] = Field(default_factory=list)
    same_language_reference: SameLanguageReference | None = None  # "x in-memory" (rdb)
    grids: list[Grid] = Field(default_factory=list)  # the seed's own tables (capnp: configurations x implementations)
    seed_tables: list[SeedTable] = Field(default_factory=list)  # the seed's own tables of named tests (dcat)
    default_profiles: list[str] | None = None
    params: dict[str, ParamValue | list[ParamValue]] = Field(default_factory=dict)
    datasets: dict[str, Dataset]
    defaults: dict[str, VariantFields] = Field(default_factory=dict)
    toolchains: dict[str, dict[str, Any]] = Field(default_factory=dict)
    variants: list[Variant] = Field(default_factory=list)

    def analysis_settings(self) -> dict:
        """The settings the analysis of a stored session needs, stored with the session per suite."""
        return {
            "baseline_languages": self.baseline_languages,
            "scale_params": self.scale_params,
            "throughput": self.throughput,
            "same_language_reference": self.same_language_reference.model_dump() if self.same_language_reference else None,
            "grids": [g.model_dump() for g in self.grids],
            "seed_tables": [t.model_dump() for t in self.seed_tables],
            "param_order": {k: v for k, v in self.params.items() if isinstance(v, list)},
        }

    @model_validator(mode="before")
    @classmethod
    def _apply_language_defaults(cls, data: Any) -> Any:
        """Fill each variant's missing fields from [defaults.<language>] (then [defaults.all])."""
        if not isinstance(data, dict):
            return data
        defaults = data.get("defaults") or {}
        variants = data.get("variants") or []
        if isinstance(defaults, dict) and isinstance(variants, list):
            merged = []
            for v in variants:
                if isinstance(v, dict):
                    base = {**(defaults.get("all") or {}), **(defaults.get(v.get("language"), {}) or {})}
                    v = {**base, **v}
                merged.append(v)
            data = {**data, "variants": merged}
        return data

    @model_validator(mode="after")
    def _unique_variants(self) -> SuiteManifest:
        seen = set()
        for v in self.variants:
            if v.key in seen:
                raise ValueError(f"variant {v.key} is declared twice")
            seen.add(v.key)
        if not self.datasets:
            raise ValueError("declares no dataset")
        for t in self.seed_tables:
            for key in t.rows:
                if key not in seen:
                    raise ValueError(f"seed_tables {t.title!r}: {key} is not a declared variant")
        return self


def _format_validation_error(path: Path, err: ValidationError) -> str:
    first = err.errors()[0]
    loc = ".".join(str(p) for p in first["loc"]) or "(top level)"
    msg = first["msg"].removeprefix("Value error, ")
    more = f" (and {err.error_count() - 1} more problems)" if err.error_count() > 1 else ""
    return f"{path}: {loc}: {msg}{more}"


def read_toml(path: Path) -> dict:
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise UsageError(f"{path}: file not found") from None
    except tomllib.TOMLDecodeError as e:
        raise UsageError(f"{path}: not valid TOML: {e}") from None


def load_manifest(path: Path) -> SuiteManifest:
    data = read_toml(path)
    try:
        manifest = SuiteManifest.model_validate(data)
    except ValidationError as e:
        raise UsageError(_format_validation_error(path, e)) from None
    if manifest.name != path.parent.name:
        raise UsageError(f"{path}: name: is {manifest.name!r} but the folder is {path.parent.name!r}")
    for v in manifest.variants:
        for src in v.sources:
            if not (path.parent / src).exists():
                raise UsageError(f"{path}: variants {v.key}: source {src} does not exist")
    return manifest


def parse_toolchains(path: Path, data: dict) -> dict[str, Toolchain]:
    out = {}
    for name, fields in data.items():
        try:
            out[name] = Toolchain.model_validate({**fields, "name": name})
        except ValidationError as e:
            raise UsageError(_format_validation_error(path, e).replace(": ", f": toolchains.{name}.", 1)) from None
    return out
