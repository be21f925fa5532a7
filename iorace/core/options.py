"""The options of `iorace run`, declared once: each field carries its command-line option and whether the
session stores it, so adding a run option is one field here (the `run` command and the session's stored
options are derived from this declaration)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, TypeVar

import click

CommandFunc = TypeVar("CommandFunc", bound=Callable[..., Any])  # a click command function, as click.option decorates it


def flag(*decls: str, stored: bool = True, **click_kw: Any) -> dict:
    """A field's metadata: its `iorace run` option (click's declarations and keywords), and whether the
    session stores its value with the options (`iorace show` and the exports print them)."""
    return {"click": (decls, click_kw), "stored": stored}


class _NumberOrNone(click.ParamType):
    """A number, or 'none' (None: no target); `parse` reads the text, `check` judges the number."""

    what = "a number"

    def parse(self, text: str) -> float:
        return float(text)

    def check(self, number: float) -> str:
        """Why the number is refused ('' when it is fine)."""
        raise NotImplementedError

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float | None:
        if value is None or isinstance(value, float):
            return value
        text = str(value).strip()
        if text.lower() == "none":
            return None
        try:
            number = self.parse(text)
        except ValueError:
            self.fail(f"{value!r} is not {self.what} or 'none'", param, ctx)
        if why := self.check(number):
            self.fail(f"{value!r} is {why}", param, ctx)
        return number


class Percent(_NumberOrNone):
    """A percentage, with or without its sign ('2%' and '2' are both +-2%: `iorace dimension` prints
    `--precision 2`); 'none' for no target."""

    name = "percent"
    what = "a percentage (e.g. 2%)"

    def parse(self, text: str) -> float:
        return float(text.removesuffix("%")) / 100

    def check(self, number: float) -> str:
        return "" if 0 < number < 1 else "out of range (0% to 100%, exclusive)"


class Milliseconds(_NumberOrNone):
    """A time in ms (at least 1), or 'none'."""

    name = "ms"
    what = "a number of milliseconds (e.g. 100)"

    def check(self, number: float) -> str:
        return "" if number >= 1 else "below 1 ms"


SHARED = {"stored": False}  # set by an option that other commands share too (--db, --export-*, --wide, --suite-dir)


@dataclass
class RunOptions:
    suites: list[str] = field(default_factory=list, metadata=SHARED)  # the command's arguments
    # `iorace seeds`: the seeds whose own configurations (their suites' [seed] blocks) are the cells
    seeds: list[str] = field(default_factory=list, metadata={"stored": True})
    # `iorace seeds --row`: only the seed rows whose label matches one of these globs (and the rows they divide by)
    seed_rows: list[str] = field(default_factory=list, metadata={"stored": True})
    sizes: list[str] = field(
        default_factory=list,
        metadata=flag(  # NAME or SUITE=NAME; none: quick
            "--size",
            multiple=True,
            metavar="NAME|SUITE=NAME",
            help="Dataset: tiny, quick (default), seed, or any other a suite declares (big, edge, ...). "
            "Repeatable; SUITE=NAME applies to one suite only (--size quick --size rdb=seed).",
        ),
    )
    runs: int = field(
        default=10,
        metadata=flag(
            "--runs",
            type=click.IntRange(1),
            show_default=True,
            help="Rounds (one timed run of every cell each) at least, for a cell that may still be among its table's "
            "fastest three (racing stops a cell many times behind from the second round, a settled or trailing one "
            "from the third): 10 give a t-interval over rounds 9 degrees of "
            "freedom (t = 2.26, against 2.78 for 5).",
        ),
    )
    max_runs: int | None = field(
        default=None,
        metadata=flag(
            "--max-runs",
            type=click.IntRange(1),
            help="Rounds at most, while --precision is not reached [default: 3 x --runs; with --budget, the rounds the "
            "noisiest of each table's three fastest needed in this machine's latest quiet session of the suite, or "
            "until the budget ends them].",
        ),
    )
    precision: float | None = field(
        default=0.02,
        metadata=flag(
            "--precision",
            type=Percent(),
            metavar="PERCENT",
            show_default="2%",
            help="Go on past --runs until every cell still timed has a ratio whose 95% interval is within this "
            "(+-PERCENT), up to --max-runs rounds or the --budget; 'none' for exactly --runs rounds.",
        ),
    )
    metric: str | None = field(
        default=None,
        metadata=flag(
            "--metric",
            type=click.Choice(["inner", "wall", "cpu"]),
            help="What cells are compared on, instead of each suite's own: inner (the program's timing of its work), "
            "wall (the whole process), cpu (user + system: for cells whose work is one thread, a wait for the CPU "
            "does not count; a cell of several threads counts them all, and its notes say so).",
        ),
    )
    target_ms: float | None = field(
        default=100.0,
        metadata=flag(
            "--target-ms",
            type=Milliseconds(),
            metavar="MS|none",
            show_default="100",
            help="Size each cell's work per run (the suite's work_param, e.g. readbytes' passes) so that a run takes "
            "about MS ms: verified first at a tenth of the manifest's work, then sized from that run and verified "
            "again; cells compare per unit of work. 'none': the manifest's sizes (as `iorace seeds` always runs).",
        ),
    )
    budget: float | None = field(
        default=None,
        metadata=flag(
            "--budget",
            type=click.FloatRange(min=0, min_open=True),
            metavar="SECONDS",
            help="Measuring time per suite at most, whatever --precision asks (never below --runs rounds); the "
            "one run of a cell that leaves after the first round far behind (a bound) is not counted.",
        ),
    )
    budget_per_table: float | None = field(
        default=None,
        metadata=flag(
            "--budget-per-table",
            type=click.FloatRange(min=0, min_open=True),
            metavar="SECONDS",
            help="Measuring time per table of a suite: a suite of 30 tables gets 30 x SECONDS, one of a single "
            "table SECONDS (with --budget, the larger of the two: --budget is then each suite's floor). With "
            "--precision and no --max-runs, a table whose rounds are cheap is timed whole (no cell of it stops) "
            "for a quarter of SECONDS (20 rounds at most; over K layouts, 20 turns of them in K quarters), so `compare` can see "
            "a 10% change in any of its cells.",
        ),
    )
    race: bool = field(
        default=True,
        metadata=flag(
            "--race/--no-race",
            show_default=True,
            help="Stop timing a cell once its interval overlaps no other cell's of its table: its place is settled.",
        ),
    )
    aa: bool = field(
        default=True,
        metadata=flag(
            "--aa/--no-aa",
            show_default=True,
            help="Measure each table's fastest cell twice, as two cells (the A/A check: their ratio must cover 1.00).",
        ),
    )
    layouts: int = field(
        default=4,
        metadata=flag(
            "--layouts",
            type=click.IntRange(1),
            show_default=True,
            metavar="K",
            help="Code layouts per compiled cell: its as-linked build and K - 1 relinks (C, C++, D, Rust: lld, functions "
            "shuffled by a seed each, placed so that the hot function (perf) lies in each of its four places mod 64 "
            "alike; Go: -randlayout). Each timed run uses the next, in turn; the intervals are over pairs of layouts; "
            "a cell that layouts alone move by more than 5% is flagged placement-sensitive. 1: the as-linked build only (the "
            "figures of one build, as before). "
            "Java and Python rows have one.",
        ),
    )
    one_cpu: bool = field(
        default=True,
        metadata=flag(
            "--one-cpu/--no-one-cpu",
            show_default=True,
            help="Run the cells a suite confines to one CPU (its [one_cpu]: capnp's pipe configs, a client and a server "
            "process whose wake-ups across vCPUs cost this VM's hypervisor more than the work) on one CPU; "
            "--no-one-cpu lets the kernel place them, as the seed's machine did.",
        ),
    )
    warmup: int = field(
        default=0,
        metadata=flag(
            "--warmup",
            type=click.IntRange(0),
            show_default=True,
            help="Untimed runs per cell first, besides its verification run, which runs just before its suite's "
            "rounds at their size and so is the warm-up (binary and data in the page cache).",
        ),
    )
    timeout: float = field(
        default=300.0,
        metadata=flag(
            "--timeout",
            type=click.FloatRange(min=0, min_open=True),
            show_default=True,
            metavar="SECONDS",
            help="Per run; the whole process group is killed after it.",
        ),
    )
    sink: str = field(
        default="null",
        metadata=flag(
            "--sink",
            type=click.Choice(["null", "pipe"]),
            show_default=True,
            help="Where timed runs write stdout: /dev/null, or a pipe drained by iorace.",
        ),
    )
    check_only: bool = field(
        default=False, metadata=flag("--check-only", is_flag=True, help="Build and verify every answer; measure nothing.")
    )
    build_jobs: int | None = field(
        default=None,
        metadata=flag(
            "--build-jobs",
            stored=False,  # how fast the builds went, not what was measured
            type=click.IntRange(1),
            metavar="N",
            help="Builds run at once (each build key is built once, in its own thread), and verification runs "
            "(checked, not timed) [default: one per CPU].",
        ),
    )
    seed: int | None = field(
        default=None, metadata=flag("--seed", type=int, help="Seed of the interleaving order (default: random, stored).")
    )
    machine_name: str | None = field(
        default=None,
        metadata=flag(
            "--machine",
            stored=False,  # a column of the session, beside the machine's fingerprint
            metavar="NAME",
            help="This machine's name, stored with the session beside its fingerprint (CPU, cores, memory) "
            "[default: $IORACE_MACHINE, else the host's name]",
        ),
    )
    inputs: list[Path] = field(
        default_factory=list,
        metadata=flag(
            "--input",
            multiple=True,
            type=click.Path(path_type=Path),
            metavar="PATH",
            help="Your own input file instead of generated data (the reference computes the answer). Repeatable.",
        ),
    )
    variants: list[str] = field(
        default_factory=list,
        metadata=flag(
            "--variant",
            multiple=True,
            metavar="GLOB",
            help="Only variants whose name or language/name matches (e.g. 'cpp/*', 'mmap'). Repeatable.",
        ),
    )
    toolchains: list[str] = field(
        default_factory=list, metadata=flag("--toolchain", multiple=True, metavar="NAME", help="Only this toolchain. Repeatable.")
    )
    profiles: list[str] = field(
        default_factory=list,
        metadata=flag(
            "--profile",
            multiple=True,
            metavar="NAME",
            help="Build profile (release, debug, ...; 'all' for every one). Repeatable. Default: each variant's own default profiles.",
        ),
    )
    params: list[str] = field(
        default_factory=list,
        metadata=flag(
            "--param",
            multiple=True,
            metavar="KEY=VALUE",
            help="Fix a parameter (e.g. mode=sum); a key given twice takes each value (config=pipe --param config=pipe-reuse).",
        ),
    )
    instructions: bool = field(
        default=False,
        metadata=flag(
            "--instructions", is_flag=True, help="Also count each cell's instructions once under valgrind (repeatable on a noisy machine)."
        ),
    )
    counters: bool = field(
        default=False,
        metadata=flag(
            "--counters",
            is_flag=True,
            help="Also record perf stat's counters of one run per cell (task-clock, context switches, page faults, "
            "and cycles, instructions, branches where the machine has hardware counters).",
        ),
    )
    replace_pages: bool = field(
        default=True,
        metadata=flag(
            "--replace-pages/--no-replace-pages",
            show_default=True,
            help="Before each round, drop each input file's cached pages and read it back, so every round gets a new "
            "physical placement instead of one per session.",
        ),
    )
    pad_env: bool = field(
        default=True,
        metadata=flag(
            "--pad-env/--no-pad-env",
            show_default=True,
            help="Pad each timed run's environment by a random length (0-4095 bytes), so every run gets another "
            "stack alignment instead of one per session.",
        ),
    )
    order: str = field(
        default="shuffle",
        metadata=flag(
            "--order",
            type=click.Choice(["shuffle", "rivals"]),
            show_default=True,
            help="A round's order: shuffle (every cell in a fresh random order) or rivals (each table's cells side "
            "by side, from the fastest so far, the direction alternating round by round, the tables shuffled): "
            "a cell's runs are next to its nearest rivals' in time, neither always first.",
        ),
    )
    idle_spinners: bool = field(
        default=False,
        metadata=flag(
            "--idle-spinners/--no-idle-spinners",
            show_default=True,
            help="While measuring, keep every CPU busy with a SCHED_IDLE, nice 19 loop that yields at once to any "
            "other task, so a VM's idle vCPUs do not halt between runs (run/spinners.py). Off: on this project's VM "
            "they took a third of the programs' time (docs/results/2026-11-26-noise-levers).",
        ),
    )
    db: Path | None = field(default=None, metadata=SHARED)
    exports: dict[str, Path | None] = field(default_factory=dict, metadata=SHARED)  # Exporter.dest -> file
    wide: bool = field(default=True, metadata=SHARED)  # every column in the printed report (terminal: compact)
    suite_dirs: list[Path] = field(default_factory=list, metadata=SHARED)

    def suite_budget(self, tables: int) -> float | None:
        """Seconds of measuring for a suite of this many tables: --budget, --budget-per-table x tables, the
        larger when both are given (capnp's 30 tables need more than lines' one), None without either."""
        per_table = None if self.budget_per_table is None else self.budget_per_table * tables
        budgets = [b for b in (self.budget, per_table) if b is not None]
        return max(budgets) if budgets else None

    def stored(self, seed: int) -> dict:
        """The options the session stores, in declaration order: what was asked, with the defaults that
        were used (the quick size, the drawn seed; a check-only session timed no run)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            if f.metadata.get("stored"):
                value = getattr(self, f.name)
                out[f.name] = [str(v) for v in value] if f.name == "inputs" else value
        sizes = self.sizes or (["each seed's own"] if self.seeds else ["quick"])
        out.update(sizes=sizes, runs=0 if self.check_only else self.runs, seed=seed)
        return out


# What a seed's configuration fixes: `iorace seeds` does not take these options of `run`.
SEED_FIXED = {"inputs", "variants", "toolchains", "profiles", "params", "target_ms"}  # target_ms: the seeds' own sizes


SEED_HELP = {
    "sizes": "Dataset for every seed instead of its own size (tiny, quick, seed, ...). Repeatable; SUITE=NAME "
    "applies to one seed's suite only. Default: each seed's own size (its [seed] block's size).",
    "race": "Stop timing a cell once its place is settled. Off by default here: every seed row is published, "
    "so each gets --runs rounds, not the two or three that decide it is far behind.",
}
SEED_DEFAULTS = {"race": False}  # every seed row keeps its row, with the interval of all its rounds


def run_options(command: CommandFunc) -> CommandFunc:
    """Decorate the `run` command with one option per declared field (click applies them bottom-up)."""
    return _options(command, set(), {})


def seeds_options(command: CommandFunc) -> CommandFunc:
    """The `seeds` command's options: `run`'s, less those the seeds' configurations fix."""
    return _options(command, SEED_FIXED, SEED_HELP, SEED_DEFAULTS)


def _options(command: CommandFunc, leave_out: set[str], helps: dict[str, str], defaults: dict[str, Any] | None = None) -> CommandFunc:
    for f in reversed(fields(RunOptions)):
        if "click" in f.metadata and f.name not in leave_out:
            decls, kw = f.metadata["click"]
            kw = {**kw, "help": helps.get(f.name, kw.get("help"))}
            default = f.default if "multiple" not in kw and not kw.get("is_flag") else None
            if defaults and f.name in defaults:
                default = defaults[f.name]
            extra = {"default": default} if default is not None else {}
            command = click.option(*decls, f.name, **extra, **kw)(command)
    return command


def from_command(suites: tuple[str, ...], **values: Any) -> RunOptions:
    """RunOptions from the `run` command's values (click gives tuples for repeatable options)."""
    given: dict[str, Any] = {k: list(v) if isinstance(v, tuple) else v for k, v in values.items()}
    return RunOptions(suites=list(suites), **given)
