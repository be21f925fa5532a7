"""The suite manifest (suite.toml) and the toolchain table, as validated models.

Every model forbids unknown fields, so a typo in a manifest is an error that
names the file and the field instead of a silently ignored setting.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, ValidationError, field_validator, model_validator

from iorace.core.errors import UsageError
from iorace.core.kind import Kind
from iorace.core.paths import VARIANT_KIT
from iorace.manifest import validation

ParamValue = str | int | float | bool


class Strict(BaseModel):
    # a field's docstring is its description: docs/MANIFEST.md is made from them (iorace/manifest/reference.py)
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class Toolchain(Strict):
    name: str = ""
    """The toolchain's name (its key in the table; set by the harness)."""
    language: str
    """The variant language it builds ("c", "cpp", "d", "rust", "go", "java", "python", "sh", ...)."""
    command: str
    """The executable whose presence decides whether its cells can run (else they are skipped, saying why)."""
    version: str
    """The command that prints its version; the first non-empty line is kept, stored and hashed into the build key."""
    install: str = ""
    """What installs it (shown by `iorace doctor` and in a skipped cell's reason)."""
    build: str = ""
    """A bash command template that builds a cell into {out}; empty: nothing to build. Variables: toolchains.toml's
    header ({src} {dir} {sources} {main} {stem} {bin} {out} {work} {flags} {link} {python}, and the profile's)."""
    run: list[str]
    """The argv template of the program (no shell); the variant's `args` follow."""
    profiles: dict[str, dict[str, str]] = Field(default_factory=lambda: {"release": dict[str, str]()})
    """Named build profiles, each a table of template variables (a profile may carry its own `build`)."""
    default_profiles: list[str] = Field(default_factory=lambda: ["release"])
    """The profiles run when `--profile` is not given."""


class Dataset(Strict):
    description: str = ""
    """What the dataset is, in one line (`iorace list` shows it)."""
    params: dict[str, ParamValue] = Field(default_factory=dict)
    """Parameter overrides for this dataset (big data: `{ passes = 1 }`)."""
    members: list[str] = Field(default_factory=list)
    """One dataset made of several inputs, generated as "NAME:MEMBER"."""


class VariantFields(Strict):
    """Fields [defaults] may preset for every variant of the suite, and [defaults.<language>] for every variant
    of that language (a variant's own field wins, then its language's, then the suite's)."""

    args: list[str] | None = None
    deps: list[str] | None = None
    toolchains: list[str] | None = None
    profiles: list[str] | None = None
    flags: str | None = None
    link: str | None = None
    env: dict[str, str] | None = None
    params: dict[str, ParamValue] | None = None
    dir: str | None = None


class Defaults(VariantFields):
    """[defaults]: VariantFields for every variant of the suite; each [defaults.<language>] table under it
    (its extra keys) presets them for one language, over the suite's."""

    model_config = ConfigDict(extra="allow")
    __pydantic_extra__: dict[str, VariantFields] = Field(init=False)

    @model_validator(mode="before")
    @classmethod
    def _languages_are_tables(cls, data: Any) -> Any:
        if isinstance(data, dict):
            if "all" in data:
                raise ValueError("[defaults.all] is now [defaults] itself: move its fields up")
            for key, value in data.items():
                if key not in VariantFields.model_fields and not isinstance(value, dict):
                    fields = ", ".join(VariantFields.model_fields)
                    raise ValueError(f"{key!r} is neither a field every variant takes ({fields}) nor a [defaults.<language>] table")
        return data


KIT = "{kit}"  # in a variant's sources, deps, flags, link and env: the variant kit's folder (iorace/variant_kit)


def _with_kit(variant: dict) -> dict:
    """The variant's fields with {kit} replaced by the kit's absolute path (only those fields, only that word:
    the rest of a flag keeps its braces)."""

    def put(value: Any) -> Any:
        if isinstance(value, str):
            return value.replace(KIT, str(VARIANT_KIT))
        if isinstance(value, list):
            return [put(x) for x in value]
        if isinstance(value, dict):
            return {k: put(x) for k, x in value.items()}
        return value

    return {k: put(v) if k in {"sources", "deps", "flags", "link", "env"} else v for k, v in variant.items()}


class Variant(Strict):
    name: str
    """Unique within its language; no '/', '@' or spaces."""
    language: str
    """Its language: the toolchains of that language build it, and its folder is `<language>/` unless `dir` says
    otherwise."""
    description: str
    """The strategy it shows, in one line (a `limit` row's starts with LIMIT, a peer's with PEER)."""
    sources: list[str]
    """Its source files, relative to the suite's folder ({kit} names the variant kit's folder); the first is {main}."""
    kind: Kind = Kind.VARIANT
    """How the row takes part in its table: variant | peer (someone else's program) | bulk (shown, never the
    fastest) | limit (a different method on purpose; ratios ignore it)."""
    args: list[str] = Field(default_factory=list)
    """Its command-line arguments after the toolchain's run template: {input}, any {param}, and the template
    variables."""
    deps: list[str] = Field(default_factory=list)
    """Extra inputs hashed into the build key, not compiled (a shared header, Cargo.toml, {kit}/LANG)."""
    toolchains: list[str] | None = None
    """The toolchains that build it (default: every toolchain of its language)."""
    profiles: list[str] | None = None
    """The profiles run by default (else the suite's or the toolchain's default_profiles); `--profile` picks others."""
    flags: str = ""
    """Extra compile words ({flags} in the build template)."""
    link: str = ""
    """Extra link words ({link} in the build template)."""
    bin: str | None = None
    """Cargo's binary name (default: the variant's name)."""
    env: dict[str, str] = Field(default_factory=dict)
    """Extra environment for its builds and runs."""
    params: dict[str, ParamValue] = Field(default_factory=dict)
    """Parameter overrides for this variant (a 1-pass Python loop: `{ passes = 1 }`)."""
    known_wrong: list[str] = Field(default_factory=list)
    """Datasets where this strategy cannot be right: run and shown as wrong, without failing the session."""
    skip: dict[str, str] = Field(default_factory=dict)
    """Datasets it is not run on, each with why (shown as skipped)."""
    skip_params: dict[str, dict[str, str]] = Field(default_factory=dict)
    """Parameter values it is not run with, each with why (shown as skipped): `{ op = { read = "no zero-copy
    reader" } }` leaves out the cells whose `op` is `read` (a value the suite's [params] list has)."""
    dir: str | None = None
    """Its language folder, when not `<language>/` ({dir} in the templates)."""

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
    """The column's name ("x in-memory")."""
    variants: list[str]
    """The reference variants, as language/name, at most one per language."""


class OneCpu(Strict):
    """Cells whose every run (verification and timed) is confined to one CPU, and why: the launcher sets the
    affinity before it starts the program, and the program's own children (a pipe config's server) inherit it.
    For work whose speed is a wake-up across CPUs, which a virtual machine's idle vCPUs make a hypervisor's
    latency, not the code's (capnp's pipe configs). `iorace run --no-one-cpu` lets the scheduler place them."""

    params: dict[str, list[ParamValue]] = Field(default_factory=dict)
    """The cells it applies to: each named parameter has one of its values (none named: every cell)."""
    why: str
    """Why, in one line: shown in the cell's notes."""


class Grid(Strict):
    """The seed's own view of a suite whose cells vary by two parameters (capnp: case x configuration):
    one table per value of `split`, a row per value of `rows`, a column per cell named in `columns`
    (`language/variant@toolchain:profile`), and the ratio of two of those columns with its 95% interval."""

    title: str
    """The grid's title."""
    split: str
    """A parameter: one table per value (capnp: case)."""
    rows: str
    """A parameter: one row per value, in [params] order (capnp: config)."""
    columns: list[str]
    """Cells as language/variant@toolchain:profile."""
    ratio: list[str] = Field(default_factory=list)
    """[numerator, denominator] among `columns`: their ratio with its 95% interval."""

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
    """The table's title."""
    rows: list[str]
    """Variants as language/variant, in the seed's order."""
    baseline: str
    """One of `rows`: the "x baseline" column divides by it."""
    seed_figures: dict[str, float] = Field(default_factory=dict)
    """language/variant -> the seed's published seconds."""
    seed_figures_by_toolchain: dict[str, dict[str, float]] = Field(default_factory=dict)
    """Where the seed timed several compilers: toolchain -> its figures, used for that toolchain's table in place of
    seed_figures."""
    seed_figures_source: str = ""
    """Where those figures come from (machine, runs)."""

    @model_validator(mode="after")
    def _baseline_is_a_row(self) -> SeedTable:
        if self.baseline not in self.rows:
            raise ValueError(f"baseline {self.baseline!r} is not one of rows")
        for figures in [self.seed_figures, *self.seed_figures_by_toolchain.values()]:
            unknown = [k for k in figures if k not in self.rows]
            if unknown:
                raise ValueError(f"seed figures name {unknown[0]!r}, which is not one of rows")
        return self


class SeedRow(Strict):
    """One row of a seed's published table, mapped to the cell that answers it here, or to why none can
    (`iorace seeds`: a row never disappears silently; tests/unit/test_seeds_unit.py checks every manifest)."""

    label: str
    """The seed's own name of the row ("g++-1(count)")."""
    cell: str = ""
    """language/variant@toolchain:profile that answers it here (or give `why`)."""
    params: dict[str, ParamValue] = Field(default_factory=dict)
    """The cell's parameters that pick it (`{ mode = "count" }`)."""
    seconds: float | None = None
    """The seed's published figure, in seconds."""
    baseline: str = ""
    """The row (label) its ratio divides by; default: the seed's baseline."""
    why: str = ""
    """Why no cell answers it here (a compiler not packaged, a library gone)."""
    note: str = ""
    """How the cell departs from the seed's program, or that it is the program as written."""
    original: float | None = None
    """The seed's program's instructions per unit: counted here, or as published if it cannot be built."""
    original_source: str = ""
    """Where `original` comes from (the command, the results file)."""

    @model_validator(mode="after")
    def _cell_or_why(self) -> SeedRow:
        if bool(self.cell) == bool(self.why):
            raise ValueError(f"seed row {self.label!r}: give either `cell` (what runs it here) or `why` (why nothing can)")
        if self.cell and not re.fullmatch(r"[^/@:\s]+/[^/@:\s]+@[^@:\s]+:[^@:\s]+", self.cell):
            raise ValueError(f"seed row {self.label!r}: cell {self.cell!r} is not language/variant@toolchain:profile")
        return self

    @property
    def variant_key(self) -> str:
        return self.cell.split("@", 1)[0]

    @property
    def toolchain(self) -> str:
        return self.cell.split("@", 1)[1].split(":", 1)[0]

    @property
    def profile(self) -> str:
        return self.cell.split(":", 1)[1]


class SeedConfig(Strict):
    """The seed's own configuration (`iorace seeds NAME`): its data size, its rows (each a cell at its
    parameters, toolchain and profile, or why it cannot run here) and its published figures. Rows of the
    suite's [[seed_tables]] at the `from_tables` toolchain:profile pairs are rows too, with their figures."""

    file: str
    """The write-up it reproduces (what `seed = "..."` says where a suite has no [seed] block)."""
    name: str
    """What `iorace seeds NAME` takes."""
    title: str
    """The seed, in a few words."""
    size: str = "seed"
    """The dataset at the seed's own size."""
    baseline: str = ""
    """The row every ratio divides by (unless a row names its own)."""
    figures: str = ""
    """What the seed's figures are: what was timed, where, how often."""
    from_tables: list[str] = Field(default_factory=list)
    """toolchain:profile pairs: the [[seed_tables]] rows at each are rows too."""
    departures: dict[str, str] = Field(default_factory=dict)
    """A from_tables pair -> the note of each of its rows."""
    notes: dict[str, str] = Field(default_factory=dict)
    """A row's label -> its note (for rows from_tables makes)."""
    originals: dict[str, float] = Field(default_factory=dict)
    """A row's label -> the seed's own program's instructions per unit, counted here (rows from_tables makes; a row
    of its own says `original` itself)."""
    original_source: str = ""
    """Where the `originals` counts come from."""
    folded_below: float | None = Field(default=None, ge=0)
    """Instructions per unit under which a row shows FOLDED (default: the harness's 0.5); 0 where no row can be
    (lines: the bytes pass through the kernel, which cachegrind does not count)."""
    rows: list[SeedRow] = Field(default_factory=list)
    """The seed's rows, in its order ([[seed.rows]]), or `rows = "FILE"`: a tab-separated table of them beside the
    manifest (a header of these fields, a parameter as params.NAME)."""


# a seed block's fields its rows carry once made
SEED_APPLIED = {"rows", "from_tables", "departures", "notes", "originals", "original_source"}


class SuiteManifest(Strict):
    name: str
    """The suite's name: must equal its folder's name."""
    title: str
    """The job, in one line."""
    seed: Annotated[
        Annotated[SeedConfig, Tag("block")] | Annotated[str, Tag("file")],
        Discriminator(lambda v: "block" if isinstance(v, dict | SeedConfig) else "file"),
    ] = ""
    """The write-up it reproduces (`seed = "FILE"`), or a [seed] block: that and the seed's own configuration
    (`iorace seeds`)."""
    module: str = "suite.py"
    """The Python module with generate(dataset, path), expected(path, params) and optionally units(path, params)."""
    answer: Literal["result", "stdout"] = "result"
    """"result": each program's last stderr line `iorace-result {"answer": ...}` is compared with expected();
    "stdout": its stdout's sha256 is."""
    metric: Literal["inner", "wall", "cpu"] = "wall"
    """What ratios compare: "inner" the programs' own timing (the result line's inner_ns), "wall" the whole process,
    "cpu" user + system."""
    throughput: str = ""
    """The unit of work of units() shown as a rate ("bytes": MB/s)."""
    baseline_languages: list[str] = Field(default_factory=list)
    """Languages of the "x best c/cpp" column in the best-per-toolchain table."""
    data_deps: list[str] = Field(default_factory=list)
    """Code outside this folder that generate() and expected() run (part of the data cache's key)."""
    scale_params: list[str] = Field(default_factory=list)
    """Parameters that only scale the work (passes): cells that differ only in them share a table, compared per unit
    of `throughput` (a 1-pass Python loop against 10-pass C)."""
    work_param: str | list[str] = ""
    """The scale parameter(s) whose work per run grows in proportion without changing the data's footprint
    (readbytes: passes; serialize: ser_ops and deser_ops, whichever a cell's op uses): `iorace run --target-ms`
    (on by default, 100 ms) sizes them per cell, all by one factor, so that a run takes about that long. Without
    it every cell runs the manifest's size. Must be an integer parameter of [params] and one of scale_params."""
    encoded_args: list[str] = Field(default_factory=list)
    """Arguments (in place of a variant's args) that make a cell's program write the bytes it encodes to {output},
    untimed: the harness runs each verified cell so once and reports the bytes' size, zlib and zstd size beside its
    time (run/encoded.py; formats: `["--emit", "{input}", "{output}"]`)."""
    one_cpu: OneCpu | None = None
    """[one_cpu]: cells run on one CPU (their runs' affinity), and why (capnp: the pipe configs)."""
    same_language_reference: SameLanguageReference | None = None
    """An "x in-memory" column: each cell against the reference variant of its own language, toolchain and profile
    (rdb)."""
    grids: list[Grid] = Field(default_factory=list)
    """The seed's own tables from the per-group rows (capnp: configurations x implementations)."""
    seed_tables: list[SeedTable] = Field(default_factory=list)
    """The seed's own tables of named tests in its order (lines: dcat)."""
    default_profiles: list[str] | None = None
    """Profiles run by default, over the toolchains'."""
    params: dict[str, ParamValue | list[ParamValue]] = Field(default_factory=dict)
    """Parameters: a scalar is fixed, a list is swept (each value makes its own cells); {name} in a variant's args."""
    datasets: dict[str, Dataset]
    """The named inputs generate() writes (at least tiny and quick); `--size` picks them."""
    defaults: Defaults = Field(default_factory=lambda: Defaults())
    """[defaults]: fields for every variant of the suite (args, deps, ...); [defaults.LANG]: for every variant of
    one language, over the suite's; a variant's own fields win."""
    toolchains: dict[str, dict[str, Any]] = Field(default_factory=dict)
    """Toolchains or profiles of the suite's own, merged over iorace/manifest/toolchains.toml (the Toolchain fields
    below)."""
    variants: list[Variant] = Field(default_factory=list)
    """The programs ([[variants]], fields below)."""

    @property
    def work_params(self) -> tuple[str, ...]:
        """work_param as a tuple of names (one name or a list in suite.toml)."""
        if isinstance(self.work_param, str):
            return (self.work_param,) if self.work_param else ()
        return tuple(self.work_param)

    def analysis_settings(self) -> dict:
        """The settings the analysis of a stored session needs, stored with the session per suite."""
        return {
            "baseline_languages": self.baseline_languages,
            "scale_params": self.scale_params,
            "throughput": self.throughput,
            "same_language_reference": self.same_language_reference.model_dump() if self.same_language_reference else None,
            "grids": [g.model_dump() for g in self.grids],
            "seed_tables": [t.model_dump() for t in self.seed_tables],
            "seed": (
                {**self.seed_config.model_dump(exclude=SEED_APPLIED), "rows": [r.model_dump() for r in self.seed_rows()]}
                if self.seed_config
                else None
            ),
            "param_order": {k: v for k, v in self.params.items() if isinstance(v, list)},
        }

    @model_validator(mode="before")
    @classmethod
    def _apply_defaults(cls, data: Any) -> Any:
        """Fill each variant's missing fields from [defaults.<language>], then from [defaults] itself; then
        put the variant kit's folder where a field says {kit}."""
        if not isinstance(data, dict):
            return data
        defaults = data.get("defaults") or {}
        variants = data.get("variants") or []
        if isinstance(defaults, dict) and isinstance(variants, list):
            suite_wide = {k: v for k, v in defaults.items() if k in VariantFields.model_fields}
            merged = []
            for v in variants:
                if isinstance(v, dict):
                    language = defaults.get(v.get("language"))
                    v = _with_kit({**suite_wide, **(language if isinstance(language, dict) else {}), **v})
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
        for name in self.work_params:
            if name not in self.scale_params:
                raise ValueError(f"work_param {name!r} is not one of scale_params (cells it sizes differently must share a table)")
            value = self.params.get(name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"work_param {name!r} is not an integer parameter of [params]")
        for t in self.seed_tables:
            for key in t.rows:
                if key not in seen:
                    raise ValueError(f"seed_tables {t.title!r}: {key} is not a declared variant")
        self._check_one_cpu()
        self._check_seed(seen)
        return self

    def _check_one_cpu(self) -> None:
        """[one_cpu] names parameters of [params] and values they take: a misspelt value would confine nothing."""
        if self.one_cpu is None:
            return
        for name, values in self.one_cpu.params.items():
            if name not in self.params:
                raise ValueError(f"one_cpu: {name!r} is not a parameter of [params] (has: {', '.join(self.params) or 'none'})")
            value = self.params[name]
            declared: list[Any] = list(value) if isinstance(value, list) else [value]
            if bad := [v for v in values if v not in declared]:
                raise ValueError(f"one_cpu: {name} = {bad[0]!r} is not one of its values in [params]")

    def _check_seed(self, variants: set[str]) -> None:
        """The [seed] block names a dataset, declared variants, and rows it has, each row once."""
        if (cfg := self.seed_config) is not None:
            if cfg.size not in self.datasets:
                raise ValueError(f"seed: size {cfg.size!r} is not a declared dataset")
            rows = self.seed_rows()
            labels = [r.label for r in rows]
            if len(set(labels)) != len(labels):
                raise ValueError(f"seed: row {next(x for x in labels if labels.count(x) > 1)!r} is declared twice")
            for r in rows:
                if r.cell and r.variant_key not in variants:
                    raise ValueError(f"seed: row {r.label!r}: {r.variant_key} is not a declared variant")
                if r.baseline and r.baseline not in labels:
                    raise ValueError(f"seed: row {r.label!r}: baseline {r.baseline!r} is not a row")
            if cfg.baseline not in labels:
                raise ValueError(f"seed: baseline {cfg.baseline!r} is not a row")
            if bad := [p for p in cfg.from_tables if p.count(":") != 1]:
                raise ValueError(f"seed: from_tables {bad[0]!r} is not toolchain:profile")
            self._check_seed_notes(cfg, labels)

    @staticmethod
    def _check_seed_notes(cfg: SeedConfig, labels: list[str]) -> None:
        """Each departure names a from_tables pair, each note and each original count a row, and original
        counts say where they come from."""
        if bad := [p for p in cfg.departures if p not in cfg.from_tables]:
            raise ValueError(f"seed: departures {bad[0]!r} is not one of from_tables")
        if bad := [label for label in cfg.notes if label not in labels]:
            raise ValueError(f"seed: notes {bad[0]!r} is not a row")
        if bad := [label for label in cfg.originals if label not in labels]:
            raise ValueError(f"seed: originals {bad[0]!r} is not a row")
        if cfg.originals and not cfg.original_source.strip():
            raise ValueError("seed: originals without original_source (where the counts come from)")

    @property
    def seed_config(self) -> SeedConfig | None:
        return self.seed if isinstance(self.seed, SeedConfig) else None

    def seed_rows(self) -> list[SeedRow]:
        """The seed's rows in its order: its own, then each [[seed_tables]] row at each `from_tables`
        toolchain:profile, with that toolchain's figures and its table's baseline."""
        cfg = self.seed_config
        if cfg is None:
            return []
        rows = list(cfg.rows)
        toolchains = [pair.split(":", 1)[0] for pair in cfg.from_tables]
        for spec in self.seed_tables:
            for pair, toolchain in zip(cfg.from_tables, toolchains, strict=True):
                figures = spec.seed_figures_by_toolchain.get(toolchain) or spec.seed_figures
                # one pair: no suffix; one pair per toolchain: the toolchain; two profiles of one: the pair
                where = toolchain if len(set(toolchains)) == len(toolchains) else pair
                suffix = f" ({where})" if len(cfg.from_tables) > 1 else ""
                for key in spec.rows:
                    rows.append(
                        SeedRow(
                            label=key.split("/", 1)[1] + suffix,
                            cell=f"{key}@{pair}",
                            seconds=figures.get(key),
                            baseline=spec.baseline.split("/", 1)[1] + suffix,
                            note=cfg.departures.get(pair, ""),
                        )
                    )
        noted = {label: (f"{r.note}; {note}" if r.note else note) for r in rows if (note := cfg.notes.get(label := r.label))}
        rows = [r.model_copy(update={"note": noted[r.label]}) if r.label in noted else r for r in rows]
        counted = {"original_source": cfg.original_source}
        return [r.model_copy(update={"original": cfg.originals[r.label], **counted}) if r.label in cfg.originals else r for r in rows]


def _format_validation_error(path: Path, err: ValidationError, data: Any = None) -> str:
    """One line naming the file, the place (a variant by its name) and the problem (manifest.validation)."""
    known = {
        name
        for model in (Toolchain, Dataset, Variant, SameLanguageReference, Grid, SeedTable, SeedRow, SeedConfig, SuiteManifest)
        for name in model.model_fields
    }
    return validation.one_line(path, err, data, known)


def read_toml(path: Path) -> dict:
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise UsageError(f"{path}: file not found") from None
    except tomllib.TOMLDecodeError as e:
        raise UsageError(f"{path}: not valid TOML: {e}") from None


def read_seed_rows(path: Path, data: dict) -> dict:
    """The manifest's data with `[seed] rows = "FILE"` read from FILE beside it: a table of the seed's rows,
    tab-separated, its first line the header, one SeedRow per line. Columns are SeedRow's fields (label, cell,
    seconds, baseline, why) and `params.NAME` for a parameter; an empty or missing trailing cell leaves its
    field out; a parameter's cell is read as a TOML number, boolean or string when it is one (10, 0.5, true,
    "quoted") and as text otherwise (count). A bad file is one line naming it (and the line)."""
    seed = data.get("seed")
    if not (isinstance(seed, dict) and isinstance(seed.get("rows"), str)):
        return data
    table = path.parent / seed["rows"]
    if not table.is_file():
        raise UsageError(f"{path}: seed: rows: {table} does not exist")
    try:
        lines = table.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"{table}: cannot read it: {e}") from None
    header = lines[0].split("\t") if lines else []
    fields = set(SeedRow.model_fields) - {"params"}
    if bad := [c for c in header if c not in fields and not (c.startswith("params.") and c != "params.")]:
        raise UsageError(f"{table}: line 1: column {bad[0]!r} is none of {', '.join(sorted(fields))} or params.NAME")
    if "label" not in header or len(set(header)) != len(header):
        raise UsageError(f"{table}: line 1: the header names each column once, label among them")
    rows = [_seed_row(table, n, header, line.split("\t")) for n, line in enumerate(lines[1:], start=2) if line.strip()]
    return {**data, "seed": {**seed, "rows": rows}}


def _seed_row(table: Path, n: int, header: list[str], cells: list[str]) -> SeedRow:
    """Line n of a seed's row table (read_seed_rows)."""
    if len(cells) > len(header):
        raise UsageError(f"{table}: line {n}: {len(cells)} cells, but the header names {len(header)} columns")
    row: dict[str, Any] = {}
    for column, text in zip(header, cells, strict=False):
        if text and column.startswith("params."):
            try:
                value = tomllib.loads(f"v = {text}")["v"]
            except tomllib.TOMLDecodeError:
                value = text
            row.setdefault("params", {})[column.removeprefix("params.")] = value if isinstance(value, ParamValue) else text
        elif text:
            row[column] = text
    try:
        return SeedRow.model_validate(row)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) + ": " if first["loc"] else ""
        more = f" (and {e.error_count() - 1} more problems)" if e.error_count() > 1 else ""
        raise UsageError(f"{table}: line {n}: {where}{first['msg'].removeprefix('Value error, ')}{more}") from None


def load_manifest(path: Path) -> SuiteManifest:
    data = read_seed_rows(path, read_toml(path))
    try:
        manifest = SuiteManifest.model_validate(data)
    except ValidationError as e:
        raise UsageError(_format_validation_error(path, e, data)) from None
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
