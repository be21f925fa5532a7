"""Whole-output golden files: every report format of one hand-built session that has every part a report
can have (groups with limit, peer and bulk rows, scaled cells, a same-language reference, instructions,
extra figures, a grid, a seed table, counters, failures), and compare/history of two stored sessions.

A change to any output shows up here as a diff against `tests/unit/golden/`. After a change that is meant
to alter an output, regenerate with `IORACE_UPDATE_GOLDEN=1 pytest tests/unit/test_golden.py` and read the
diff before committing it (hyperfine's export tests compare whole texts the same way).
"""

from __future__ import annotations

import io
import json
import os
import re
from pathlib import Path

import pytest
from rich.console import Console
from sessions import cell, save, session

from iorace.report.document import build

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = bool(os.environ.get("IORACE_UPDATE_GOLDEN"))

# Floats are compared to 12 significant digits: numpy's results differ in the last digits between versions
# and between CPUs (it picks its SIMD paths at run time), and a full-precision float in a JSON export is
# printed with all 17. Every other character, and every shorter number, must match exactly.
SIGNIFICANT = 12
FLOAT = re.compile(r"-?\d+\.(\d+)(?:[eE][-+]?\d+)?")


def at_precision(text: str) -> str:
    """`text` with each float longer than SIGNIFICANT digits rounded to SIGNIFICANT digits."""

    def rounded(m: re.Match[str]) -> str:
        digits = len(m.group(0).split("e")[0].split("E")[0].replace("-", "").replace(".", "").lstrip("0"))
        return f"{float(m.group(0)):.{SIGNIFICANT}g}" if digits > SIGNIFICANT else m.group(0)

    return FLOAT.sub(rounded, text)


def check(name: str, text: str) -> None:
    """The whole text equals the golden file, floats to SIGNIFICANT digits (written anew with
    IORACE_UPDATE_GOLDEN=1)."""
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)
    assert path.exists(), f"no golden file {path} (run once with IORACE_UPDATE_GOLDEN=1)"
    assert at_precision(text) == at_precision(path.read_text()), f"{name} differs from its golden file"


def test_floats_agree_to_the_stated_precision_and_no_further():
    """Another machine's last digits pass; a change in a digit that matters, or in a short number, fails."""
    assert at_precision('"r": 3.9825761370035546') == at_precision('"r": 3.982576137003554')
    assert at_precision("[0.2068885054258664,") == at_precision("[0.20688850542586643,")
    assert at_precision('"r": 3.9825761370035546') != at_precision('"r": 3.9825761470035546')
    assert at_precision("1.25 s") != at_precision("1.26 s")
    assert at_precision("x 1.0000000000000002e-05") == at_precision("x 1.0000000000000000e-05")


def full_session(sid: int = 7, factor: float = 1.0, git: str = "abc123"):
    """Every part a report can draw. `factor` scales the slow gcc cell (for compare and history)."""
    cells = [
        cell("fast", inner=[10, 10, 11, 10, 10], instructions=4000),
        cell(
            "slow",
            inner=[30 * factor, 31 * factor, 30 * factor, 29 * factor, 30 * factor],
            instructions=12000,
            extra={"alloc_bytes_per_op": 48},
        ),
        cell("fast", toolchain="clang", inner=[20, 20, 21, 20, 19], instructions=7000),
        cell("fast~aa", kind="control", inner=[10, 11, 10, 10, 10]),
        cell("simd", kind="limit", inner=[2, 2, 2, 2, 2], instructions=500),
        cell("tool", language="python", toolchain="python", kind="peer", inner=[90, 95, 91, 92, 90]),
        cell("chunks", kind="bulk", inner=[5, 5, 6, 5, 5]),
        cell(
            "onepass",
            language="python",
            toolchain="python",
            inner=[4, 4, 4, 5, 4],
            params={"mode": "count", "passes": 1},
            units={"bytes": 100},
        ),
        cell("untimed", language="go", toolchain="go", wall=[40, 41, 40, 42, 40]),
        cell("broken", status="wrong", detail="answered 1001, expected 1000"),
        cell("crash", language="go", toolchain="go", status="failed", detail="exit code 2: panic"),
        cell("nodmd", language="d", toolchain="dmd", status="skipped", detail="dmd is not installed"),
    ]
    for c in cells:
        if c.variant != "onepass":
            c.params = {"mode": "count", "passes": 10}
    cells[1].timing_note = "stopped after 5 rounds: its place is settled (race)"
    for c, cycles in zip(cells[:5], (5200, 15900, 8100, None, 650), strict=True):  # cachegrind's cache simulation
        c.estimated_cycles = cycles
    cells[0].counters = {"perf:task-clock": 10.5, "perf:context-switches": 2, "cachegrind:branches": 900}
    cells[0].counter_notes = {"perf:cycles": "no hardware counters on this VM"}
    cells[2].instructions_note = ""
    cells[8].instructions_note = "valgrind cannot run go binaries here"
    # capnp-like grid and dcat-like seed table in a second suite
    for config, cpp, rust in (("object", [10, 10, 10], [14, 14, 14]), ("bytes", [20, 20, 20], [30, 30, 30])):
        p = {"case": "carsales", "config": config}
        cells += [
            cell("capnp", "cpp", "g++", inner=cpp, params=p, suite="grid"),
            cell("capnp", "rust", "cargo", inner=rust, params=p, suite="grid"),
        ]
    for tc, k in (("gdc", 1), ("ldc2", 2)):
        for name, w in (("rawOut", 20), ("bufOut", 10), ("chunk", 5)):
            cells.append(cell(name, "d", tc, wall=[w * k] * 3, params={}, suite="lines", metric="wall"))
    suites = {
        "toy": {
            "baseline_languages": ["c"],
            "scale_params": ["passes"],
            "throughput": "bytes",
            "same_language_reference": {"label": "in-memory", "variants": ["c/fast", "python/onepass"]},
        },
        "grid": {
            "grids": [
                {
                    "title": "capnp grid",
                    "split": "case",
                    "rows": "config",
                    "columns": ["cpp/capnp@g++:release", "rust/capnp@cargo:release"],
                    "ratio": ["rust/capnp@cargo:release", "cpp/capnp@g++:release"],
                }
            ],
            "param_order": {"config": ["object", "bytes"]},
            # its ratios moved 3% from one session to the next on this machine: its intervals hold that too
            "session_sd": 0.03,
            "session_sd_from": [3, 4, 5],
        },
        "lines": {
            "seed_tables": [
                {
                    "title": "dcat's tests",
                    "rows": ["d/rawOut", "d/bufOut", "d/chunk"],
                    "baseline": "d/rawOut",
                    "seed_figures": {"d/rawOut": 22.41, "d/bufOut": 9.32},
                    "seed_figures_source": "MacOS, 5 runs",
                }
            ],
            # `iorace seeds`: the seed's rows at its own configuration (ldc2), one it cannot run here
            "seed": {
                "name": "dcat",
                "title": "dcat's tests",
                "file": "001.txt",
                "size": "tiny",
                "baseline": "rawOut",
                "figures": "MacOS, 5 runs",
                "rows": [
                    {"label": "rawOut", "cell": "d/rawOut@ldc2:release", "seconds": 22.41},
                    {"label": "bufOut", "cell": "d/bufOut@ldc2:release", "seconds": 9.32},
                    {"label": "chunk", "cell": "d/chunk@ldc2:release"},
                    {"label": "rawOut dmd", "why": "dmd is not packaged here", "seconds": 25.0},
                ],
            },
        },
    }
    return session(cells, suites=suites, sid=sid, git=git)


def printed(width: int, wide: bool) -> str:
    from iorace.report.terminal import print_session

    out = io.StringIO()
    print_session(build(full_session()), Console(file=out, width=width, color_system=None, highlight=False), wide=wide)
    return out.getvalue()


@pytest.mark.parametrize(("width", "wide"), [(80, False), (120, False), (260, True)])
def test_terminal(width, wide):
    check(f"terminal-{width}-{'wide' if wide else 'compact'}.txt", printed(width, wide))


def test_markdown():
    from iorace.report.markdown import render

    check("report.md", render(build(full_session())))


def test_json():
    from iorace.export.json_export import document

    check("report.json", json.dumps(document(build(full_session())), indent=2, sort_keys=True) + "\n")


def test_hyperfine2():
    from iorace.export.hyperfine2 import document

    check("hyperfine2.json", json.dumps(document(build(full_session())), indent=2, sort_keys=True) + "\n")


def test_bmf():
    from iorace.export.bmf import metrics

    check("bmf.json", json.dumps(metrics(build(full_session())), indent=2) + "\n")


def test_benchfmt(tmp_path):
    from iorace.export.benchfmt import write_benchfmt

    write_benchfmt(build(full_session()), tmp_path / "session.txt")
    check("benchfmt.txt", (tmp_path / "session.txt").read_text())


def test_tsv(tmp_path):
    from iorace.export.tsv import write_tsv

    write_tsv(build(full_session()), tmp_path / "runs.tsv")
    check("runs.tsv", (tmp_path / "runs.tsv").read_text())


def test_html_without_chart_drawings():
    """The page less its SVG drawings (their ids depend on how many charts were drawn before)."""
    from iorace.export.html import render

    page = render(build(full_session()))
    charts = len(re.findall(r"<svg", page))
    check("report.html", re.sub(r"<svg.*?</svg>", "<svg/>", page, flags=re.S) + f"\n<!-- {charts} charts -->\n")


def stored(db: Path | str) -> Path | str:
    """Two sessions of the full session, the slow gcc cell 30% slower in the second, in the database db."""
    save(db, full_session(sid=1, git="1111111"))
    save(db, full_session(sid=2, factor=1.3, git="2222222"))
    return db


@pytest.fixture
def golden_db(tmp_path):
    """The database compare and history read (tests/test_pgstore.py: a PostgreSQL server they were pushed to)."""
    return stored(tmp_path / "s.sqlite")


def test_compare_terminal_and_markdown(iorace_inprocess, golden_db):
    term = iorace_inprocess("compare", "1", "2", "--db", str(golden_db))
    md = iorace_inprocess("compare", "1", "2", "--db", str(golden_db), "--markdown")
    check("compare.txt", f"exit {term.returncode}\n{term.stdout}---stderr\n{term.stderr}")
    check("compare.md", f"exit {md.returncode}\n{md.stdout}")


def test_history_terminal(iorace_inprocess, golden_db):
    out = iorace_inprocess("history", "toy", "--db", str(golden_db))
    check("history.txt", f"exit {out.returncode}\n{out.stdout}---stderr\n{out.stderr}")
