"""Where a compiled cell spends its time: the hottest function of its own program, from one run under
`perf record` (a software clock: no hardware counter is needed, so it works in this VM).

Code layouts use it to balance placement instead of drawing it (run/layouts.py, `balance`): a loop's start mod 64
is its function's start mod 64 plus a fixed offset, so placing the hot function once in each of its four
16-byte places mod 64 balances the loop too, whichever it is. The field's evidence for doing so: the same
21-byte loop cost 1.55x where it crossed a 64-byte line, and with the loop's start equalised over layouts the
seed's C++ programs and ours came within 0.955-1.030x of each other (docs/results/2026-11-27-seed-fidelity-layouts).

A function found is kept in the build cache beside the cell's layouts (by its program, data set and parameters
other than the scale ones, which --target-ms sizes anew each session), so a warm cache profiles nothing.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass

from iorace.manifest.cells import Cell
from iorace.run.launcher import SINK_NULL, run_once
from iorace.run.verify import env_for

SAMPLE_HZ = 4999  # samples a second: a 20 ms run gives about a hundred
MIN_SHARE = 10.0  # percent of the run's samples below which a function is not worth balancing by
REPORT_TIMEOUT = 120


@dataclass(frozen=True)
class Hotspot:
    """The hottest function of the program itself (not of a library it calls), or why there is none."""

    symbol: str = ""  # its name as `nm` prints it (not demangled)
    share: float = 0.0  # its percentage of the run's samples
    why_not: str = ""
    settled: bool = False  # why_not comes from a profile that ran (kept in the cache), not from a failure

    def text(self) -> str:
        return f"{self.symbol} ({self.share:.0f}% of the samples)" if self.symbol else self.why_not


def hotspot(cell: Cell, program: str, timeout: float) -> Hotspot:
    """The hottest function in `program` (the cell's as-linked build) over one run of the cell's command line;
    found in the cache when this command line was profiled before."""
    # by what the cell runs, not by the work a session sizes it to (--target-ms moves the scale parameters)
    fixed = sorted((k, str(v)) for k, v in cell.params.items() if k not in cell.suite.manifest.scale_params)
    key = hashlib.sha256(repr((program, cell.dataset.name, fixed)).encode()).hexdigest()[:16]
    assert cell.build_dir is not None
    cached = cell.build_dir / "layouts" / "hot" / key
    if cached.exists():
        symbol, share, why_not = [*cached.read_text().split("\t"), "", ""][:3]
        return Hotspot(symbol, float(share or 0), why_not)
    found = _profile(cell, program, timeout)
    if found.symbol or found.settled:
        # a profile that found no function worth balancing by is an answer too: kept, a warm make bench
        # profiled 270 such cells anew each session; a failed perf run is not (it may work next time)
        cached.parent.mkdir(parents=True, exist_ok=True)
        cached.write_text(f"{found.symbol}\t{found.share}\t{found.why_not}")
    return found


def _profile(cell: Cell, program: str, timeout: float) -> Hotspot:
    perf = shutil.which("perf")
    if perf is None:
        return Hotspot(why_not="no perf here (scripts/setup installs linux-perf)")
    with tempfile.TemporaryDirectory(prefix="iorace-hot-") as tmp:
        data = os.path.join(tmp, "perf.data")
        # --no-bpf-event: perf's side-band thread for BPF events otherwise keeps every record open a second longer
        argv = [perf, "record", "-q", "--no-bpf-event", "-e", "cpu-clock", "-F", str(SAMPLE_HZ), "-o", data, "--", *cell.argv]
        run = run_once(argv, timeout=timeout, sink=SINK_NULL, env=env_for(cell), cwd=str(cell.build_dir), cpus=cell.cpus)
        if run.timed_out or run.exit_code != 0 or not os.path.exists(data):
            return Hotspot(why_not=f"the run under perf record failed: {run.failure() or 'no profile written'}")
        report = [perf, "report", "-i", data, "--stdio", "-q", "--no-children", "--no-demangle", "--sort", "dso,sym"]
        proc = subprocess.run(report, capture_output=True, text=True, timeout=REPORT_TIMEOUT, check=False)
    return hottest_own(proc.stdout, os.path.basename(program))


_LINE = re.compile(r"^\s*([\d.]+)%\s+(\S+)\s+\[\.\]\s+(\S+)")


def hottest_own(report: str, dso: str) -> Hotspot:
    """From `perf report --sort dso,sym` text: the hottest user-space function of the program `dso` itself."""
    for line in report.splitlines():
        m = _LINE.match(line)
        if m and m.group(2) == dso and "@plt" not in m.group(3):  # a PLT stub is the library's call, not a function to place
            share, symbol = float(m.group(1)), m.group(3)
            if symbol.startswith("0x"):
                return Hotspot(why_not=f"its hottest code has no symbol ({symbol})", settled=True)
            if share < MIN_SHARE:
                why = f"no function of its own takes {MIN_SHARE:.0f}% of the time ({symbol}: {share:.1f}%)"
                return Hotspot(why_not=why, settled=True)
            return Hotspot(symbol, share)
    why = "its time is spent outside its own code (in a library or the kernel), which no relink moves"
    return Hotspot(why_not=why, settled=True)
