"""Expand suites into cells: suite x dataset x parameters x variant x toolchain x profile."""

from __future__ import annotations

import fnmatch
import itertools
from dataclasses import dataclass, field
from pathlib import Path

from iorace.core.errors import UsageError
from iorace.core.ids import TableId, cell_label
from iorace.core.layout import LayoutSet
from iorace.core.status import BAD_STATES, Status
from iorace.manifest.schema import ParamValue, Toolchain, Variant
from iorace.manifest.suites import Suite

# The states by name, for the pipeline's stages (iorace.core.status.Status is the one definition).
PLANNED, SKIPPED, BUILD_FAILED, OK, WRONG, FAILED, TIMEOUT = (
    Status.PLANNED,
    Status.SKIPPED,
    Status.BUILD_FAILED,
    Status.OK,
    Status.WRONG,
    Status.FAILED,
    Status.TIMEOUT,
)
__all__ = [
    "BAD_STATES",
    "BUILD_FAILED",
    "FAILED",
    "OK",
    "PLANNED",
    "SKIPPED",
    "TIMEOUT",
    "WRONG",
    "Cell",
    "DatasetRef",
    "Status",
    "cell_label",
    "dataset_refs",
    "expand",
    "sizes_for",
]


@dataclass
class DatasetRef:
    """One input of a session: a generated dataset (or one member of it) or a user file."""

    name: str  # "quick", "edge:crlf", or "input:FILE"
    suite_dataset: str | None  # the manifest dataset it comes from (None for --input)
    param_overrides: dict[str, ParamValue]
    user_path: Path | None = None
    path: Path | None = None  # filled once generated
    sha256: str = ""


@dataclass
class Cell:
    suite: Suite
    dataset: DatasetRef
    params: dict[str, ParamValue]
    variant: Variant
    toolchain: Toolchain
    profile: str
    status: Status = PLANNED
    detail: str = ""  # why skipped/failed/wrong, last lines of output
    toolchain_version: str = ""
    build_dir: Path | None = None
    build_key: str = ""
    argv: list[str] = field(default_factory=list)
    expected: object = None
    answer: object = None
    units: dict[str, int] = field(default_factory=dict)
    instructions: int | None = None  # cachegrind's count (run --instructions)
    instructions_note: str = ""  # why there is no count
    estimated_cycles: int | None = None  # cachegrind's cache simulation: L1 + 5 x LL + 35 x RAM hits (run --instructions)
    counters: dict[str, float] = field(default_factory=dict)  # "perf:cycles", "cachegrind:branches", ... (counters.py)
    counter_notes: dict[str, str] = field(default_factory=dict)  # same keys: why a counter has no value
    extra: dict[str, float] = field(default_factory=dict)  # figures the program reports (result line "extra")
    timing_note: str = ""  # why its timing stopped early (race), or the precision it did not reach
    layouts: LayoutSet = field(default_factory=LayoutSet)  # its code layouts (run/layouts.py); none: the as-linked build
    layout_order: list[int] = field(default_factory=list)  # the order its timed runs use them in, over and over
    layout_runs: int = 0  # timed runs scheduled so far: the next one uses layout_order[layout_runs % len]
    layout_redo: list[int] = field(default_factory=list)  # layouts of displaced runs, to run again before the next in turn
    hot_symbol: str = ""  # its program's hottest function (run/hotspot.py), by which its layouts are balanced
    verify_ns: int | None = None  # its verification run's time on its metric (what --target-ms sizes its work from)
    sizing_note: str = ""  # how --target-ms sized its work per run (run.calibrate)
    db_id: int | None = None
    cpus: tuple[int, ...] = ()  # the CPUs its runs are confined to (the suite's [one_cpu]); (): wherever the kernel puts them
    cpus_note: str = ""  # which CPU and why, or that --no-one-cpu left a cell of [one_cpu] free
    metric: str = ""  # what it is compared on: the suite's metric, or `run --metric` (Run.metric_ns)

    def __post_init__(self) -> None:
        self.metric = self.metric or self.suite.manifest.metric

    @property
    def label(self) -> str:
        return cell_label(self.variant.key, self.toolchain.name, self.profile, self.params)

    @property
    def table(self) -> TableId:
        """The table it is ranked in (the race decides rounds per table, the report draws them)."""
        return TableId.of(self.suite.name, self.dataset.name, self.params, self.suite.manifest.scale_params)

    @property
    def one_cpu_why(self) -> str:
        """Why its suite runs it on one CPU ([one_cpu] matches its parameters), else ''."""
        rule = self.suite.manifest.one_cpu
        if rule is None or any(self.params.get(k) not in values for k, values in rule.params.items()):
            return ""
        return rule.why

    @property
    def known_wrong(self) -> bool:
        return self.dataset.name in self.variant.known_wrong or (
            self.dataset.suite_dataset is not None and self.dataset.suite_dataset in self.variant.known_wrong
        )


def _sweep(params: dict[str, ParamValue | list[ParamValue]]) -> list[dict[str, ParamValue]]:
    keys = list(params)
    axes = [v if isinstance(v, list) else [v] for v in params.values()]
    return [dict(zip(keys, combo, strict=True)) for combo in itertools.product(*axes)]


def sizes_for(suite: Suite, sizes: list[str]) -> list[str]:
    """The dataset names --size selects for one suite: `NAME` applies to every suite, `SUITE=NAME` to one
    suite only (and then replaces the plain names for it). Default: quick."""
    own = [v.split("=", 1)[1] for v in sizes if v.startswith(f"{suite.name}=")]
    plain = [v for v in sizes if "=" not in v]
    return list(dict.fromkeys(own or plain or ["quick"]))


def dataset_refs(suite: Suite, sizes: list[str], inputs: list[Path]) -> list[DatasetRef]:
    if inputs:
        return [DatasetRef(f"input:{p.name}", None, {}, user_path=p) for p in inputs]
    refs = []
    for size in sizes_for(suite, sizes):
        ds = suite.manifest.datasets.get(size)
        if ds is None:
            raise UsageError(f"suite {suite.name} has no dataset {size!r} (has: {', '.join(suite.manifest.datasets)})")
        refs += [DatasetRef(f"{size}:{m}", size, ds.params) for m in ds.members] if ds.members else [DatasetRef(size, size, ds.params)]
    return refs


def _parse_param_overrides(items: list[str]) -> dict[str, list[str]]:
    """KEY=VALUE items; a key given twice takes each of its values (--param config=pipe --param config=pipe-reuse)."""
    out: dict[str, list[str]] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError(f"--param {item!r}: expected KEY=VALUE")
        out.setdefault(key, []).append(value)
    return out


def _fixed(suite: Suite, overrides: dict[str, list[str]]) -> dict[str, ParamValue | list[ParamValue]]:
    """--param's values typed as the manifest's: one value fixes a parameter, several sweep it."""
    out: dict[str, ParamValue | list[ParamValue]] = {}
    for k, values in overrides.items():
        typed = [_coerce(v, suite.manifest.params[k]) for v in dict.fromkeys(values)]
        out[k] = typed if len(typed) > 1 else typed[0]
    return out


def _coerce(value: str, like: ParamValue | list[ParamValue]) -> ParamValue:
    """Give a --param string the type of the manifest's value (int for passes = 10, ...)."""
    sample = like[0] if isinstance(like, list) and like else like
    if isinstance(sample, bool):
        return value.lower() in {"1", "true", "yes"}
    for t in (int, float):
        if isinstance(sample, t):
            try:
                return t(value)
            except ValueError:
                raise UsageError(f"--param: {value!r} is not a valid {t.__name__}") from None
    return value


def matches(variant: Variant, globs: list[str]) -> bool:
    return not globs or any(fnmatch.fnmatchcase(variant.name, g) or fnmatch.fnmatchcase(variant.key, g) for g in globs)


def expand(
    suite: Suite,
    datasets: list[DatasetRef],
    variant_globs: list[str],
    toolchain_names: list[str],
    profile_names: list[str],
    param_items: list[str],
) -> list[Cell]:
    """Every cell of one suite that the filters select; cells of missing toolchains are kept (skipped later)."""
    overrides = _parse_param_overrides(param_items)
    unknown = [k for k in overrides if k not in suite.manifest.params]
    if unknown:
        raise UsageError(
            f"--param {unknown[0]}: suite {suite.name} has no such parameter (has: {', '.join(suite.manifest.params) or 'none'})"
        )
    cells: list[Cell] = []
    for variant in suite.manifest.variants:
        if not matches(variant, variant_globs):
            continue
        for tc in _toolchains(suite, variant):
            if toolchain_names and tc.name not in toolchain_names:
                continue
            profiles = _profiles(suite, variant, tc, profile_names)
            for ds in datasets:
                base = {**suite.manifest.params, **ds.param_overrides, **variant.params, **_fixed(suite, overrides)}
                for params in _sweep(base):
                    skipped = _skipped(suite, variant, ds, params)
                    for profile in profiles:
                        cell = Cell(suite, ds, params, variant, tc, profile)
                        if skipped:
                            cell.status, cell.detail = SKIPPED, skipped
                        cells.append(cell)
    return cells


def _skipped(suite: Suite, variant: Variant, ds: DatasetRef, params: dict[str, ParamValue]) -> str:
    """Why the manifest leaves out a cell (its dataset in the variant's skip, else a parameter value in its
    skip_params), or ""."""
    skip = variant.skip.get(ds.name) or variant.skip.get(ds.suite_dataset or "")
    if skip:
        return f"not run on {ds.name}: {skip} (suite.toml)"
    return _skipped_param(suite, variant, params)


def _skipped_param(suite: Suite, variant: Variant, params: dict[str, ParamValue]) -> str:
    """Why the variant's skip_params leaves out a cell with these parameters ("" if it does not). A name that is
    no parameter of the suite, or a value its [params] never takes, is a manifest error: a typo would else run
    the cells it meant to leave out."""
    for name, values in variant.skip_params.items():
        if name not in suite.manifest.params:
            raise UsageError(f"{suite.dir / 'suite.toml'}: variant {variant.key}: skip_params: the suite has no parameter {name!r}")
        known = suite.manifest.params[name]
        known_values = {str(x) for x in (known if isinstance(known, list) else [known])}
        for value in values:
            if value not in known_values:
                raise UsageError(
                    f"{suite.dir / 'suite.toml'}: variant {variant.key}: skip_params: {name} never is {value!r} "
                    f"(its values: {', '.join(sorted(known_values))})"
                )
        reason = values.get(str(params.get(name)))
        if reason:
            return f"not run with {name}={params[name]}: {reason} (suite.toml)"
    return ""


def _toolchains(suite: Suite, variant: Variant) -> list[Toolchain]:
    """The toolchains that build a variant: its own list, else every toolchain of its language."""
    names = variant.toolchains or [n for n, t in suite.toolchains.items() if t.language == variant.language]
    if not names:
        raise UsageError(f"{suite.dir / 'suite.toml'}: variant {variant.key}: no toolchain builds language {variant.language!r}")
    unknown = [n for n in names if n not in suite.toolchains]
    if unknown:
        raise UsageError(f"{suite.dir / 'suite.toml'}: variant {variant.key}: unknown toolchain {unknown[0]!r}")
    return [suite.toolchains[n] for n in names]


def _profiles(suite: Suite, variant: Variant, tc: Toolchain, asked: list[str]) -> list[str]:
    """--profile all: every profile of the toolchain; --profile NAME: those it has; else the variant's,
    the suite's or the toolchain's default profiles (the toolchain's first when none of them exists)."""
    if asked == ["all"]:
        return list(tc.profiles)
    if asked:
        return [p for p in asked if p in tc.profiles]
    wanted = variant.profiles or suite.manifest.default_profiles or tc.default_profiles
    return [p for p in wanted if p in tc.profiles] or list(tc.profiles)[:1]
