"""The commands about suites and this machine: list, doctor."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.markup import escape
from rich.table import Table

from iorace.cli.common import SUITE_DIR_OPTION, console, err_console
from iorace.core import machine
from iorace.core.errors import EXIT_USAGE, UsageError
from iorace.manifest.schema import SuiteManifest
from iorace.manifest.suites import Suite, base_toolchains, find_suite_dirs, load_each_suite, load_suite, load_suites
from iorace.manifest.toolchains import harness_python, probe
from iorace.run import counters


@click.command("list")
@click.argument("suite", required=False)
@SUITE_DIR_OPTION
def list_cmd(suite: str | None, suite_dirs: tuple[Path, ...]) -> None:
    """Suites, their variants and toolchains, and whether each cell can run here. A suite whose manifest
    is broken is named at the end with its error, the others listed all the same; the exit code is then 2."""
    broken: dict[str, str] = {}
    if suite:  # a suite named: its error is the one line, as `run` says it
        listed = load_suites([suite], list(suite_dirs))
    else:
        listed, broken = load_each_suite(list(suite_dirs))
    for s in listed:
        _print_suite(s)
    # after the others, where a reader of the list looks last; bad input, so exit 2 as a broken `run` would
    for name, error in broken.items():
        print(f"iorace: error: suite {name!r} not listed: {error}", file=sys.stderr)
    if broken:
        sys.exit(EXIT_USAGE)


def _print_suite(s: Suite) -> None:
    """One suite as `list` shows it: title, parameters, datasets, seed lines, and a row per variant x toolchain."""
    m = s.manifest
    params = " ".join(f"{k}={'|'.join(map(str, v)) if isinstance(v, list) else v}" for k, v in m.params.items())
    console.print(f"[bold]{escape(s.name)}[/] - {escape(m.title)}")
    console.print(escape(f"  params: {params or '-'} · answer: {m.answer} · metric: {m.metric} · {s.dir}"))
    # The manifest's description is the one place a dataset is described (a suite's README points here).
    for name, ds in m.datasets.items():
        console.print(escape(f"  dataset {name}: {ds.description or '-'}"), highlight=False)
    for line in _seed_lines(m):
        console.print(escape(line), highlight=False)
    t = Table(show_header=True, header_style="bold", box=None, padding=(0, 2, 0, 2))
    for col in ("variant", "kind", "toolchain", "profiles", "here", "description"):
        t.add_column(col, overflow="fold", no_wrap=col in {"variant", "toolchain"})
    for v in m.variants:
        names = v.toolchains or [n for n, tc in s.toolchains.items() if tc.language == v.language]
        for i, name in enumerate(names):
            tc = s.toolchains.get(name)
            pr = probe(tc) if tc else None
            here = "[green]ready[/]" if pr and pr.available else f"[yellow]{escape(pr.reason if pr else 'unknown toolchain')}[/]"
            profiles = ", ".join(v.profiles or m.default_profiles or (tc.default_profiles if tc else []))
            t.add_row(
                escape(v.key) if i == 0 else "",
                v.kind if i == 0 else "",
                escape(name),
                profiles,
                here,
                escape(v.description) if i == 0 else "",
            )
    console.print(t)
    # Toolchains the suite declares for a language it cannot run here (capnp's Java and Go): say why.
    used = {n for v in m.variants for n in (v.toolchains or [n for n, tc in s.toolchains.items() if tc.language == v.language])}
    for name in sorted(set(m.toolchains) - used):
        tc = s.toolchains[name]
        pr = probe(tc)
        if not pr.available:
            console.print(escape(f"  no {tc.language} row: toolchain {name}: {pr.reason}"), highlight=False)
    console.print()


def _seed_lines(m: SuiteManifest) -> list[str]:
    """A suite's seed (`iorace seeds NAME`): its rows, and those that cannot run here with why."""
    cfg = m.seed_config
    if cfg is None:
        return []
    rows = m.seed_rows()
    out = [f"  seed {cfg.name}: {len(rows)} rows at dataset {cfg.size} (iorace seeds {cfg.name})"]
    return out + [f"  seed row {row.label!r} cannot run here: {row.why}" for row in rows if row.why]


@click.command()
@SUITE_DIR_OPTION
def doctor(suite_dirs: tuple[Path, ...]) -> None:
    """Every toolchain with its version (or what installs it), the machine, and what threatens timing."""
    toolchains = dict(base_toolchains())
    for d in find_suite_dirs(list(suite_dirs)).values():
        try:
            toolchains.update(load_suite(d).toolchains)
        except UsageError as e:
            err_console.print(f"[yellow]warning:[/] {escape(str(e))}")
    t = Table(title="toolchains", title_justify="left", header_style="bold")
    for col in ("toolchain", "language", "found", "version or how to install"):
        t.add_column(col, overflow="fold")
    for name, tc in sorted(toolchains.items(), key=lambda kv: (kv[1].language, kv[0])):
        pr = probe(tc)
        t.add_row(
            escape(name), tc.language, "[green]yes[/]" if pr.available else "[red]no[/]", escape(pr.version if pr.available else pr.reason)
        )
    console.print(t)
    console.print(
        escape(
            f"python variants run on {harness_python()} (the harness's own interpreter, with the "
            "suites' Python packages), whatever `python3` comes first on PATH"
        ),
        highlight=False,
    )
    m = machine.info()
    mt = Table(title="machine", title_justify="left", show_header=False)
    for k in ("cpu_model", "cores", "cpu_mhz", "memory_gb", "kernel", "governor", "load", "python", "aslr", "data_fs"):
        mt.add_row(k, escape(str(m[k])))
    console.print(mt)
    for line in counters.doctor_lines():
        console.print(escape(line), highlight=False)
    warnings = machine.warnings(m, machine.busy_processes())
    for w in warnings:
        console.print(f"[yellow]warning:[/] {escape(w)}")
    if not warnings:
        console.print("[green]nothing on this machine should disturb timings[/]")


COMMANDS = [list_cmd, doctor]
