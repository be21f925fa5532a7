"""Instruction counts: each verified cell once under valgrind's cachegrind (`run --instructions`).

Hardware counters (`perf stat -e instructions`) are not available on many VMs,
and wall times on a shared machine drift; the number of instructions a program
executes does not. It is the rdb seed's `perf stat` "instructions" line, made
repeatable: the same binary, input and environment give the same count whatever
else the machine is doing. It counts user-space instructions only (not the
kernel's share of a read(2)), and a JIT (Java) or interpreter (Python) is
counted with its start-up.
"""
from __future__ import annotations

import os
import shutil
import tempfile

from iorace.cells import Cell
from iorace.runner import SINK_NULL, run_once
from iorace.verify import env_for

VALGRIND_INSTALL = "apt-get install valgrind"


def available() -> str:
    """'' when counting is possible here, else why not."""
    return "" if shutil.which("valgrind") else f"valgrind not found ({VALGRIND_INSTALL})"


def count(cell: Cell, timeout: float) -> tuple[int | None, str]:
    """(instructions, '') or (None, why not) for one run of the cell under cachegrind."""
    fd, out = tempfile.mkstemp(prefix="iorace-cg-")
    os.close(fd)
    try:
        argv = ["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={out}", "--quiet",
                *cell.argv]
        run = run_once(argv, timeout=timeout, sink=SINK_NULL, env=env_for(cell), cwd=str(cell.build_dir))
        if run.timed_out:
            return None, f"timed out under valgrind after {timeout:g} s"
        if run.exit_code != 0:
            return None, f"failed under valgrind: {run.failure()}"
        with open(out) as f:
            for line in f:
                if line.startswith("summary:"):
                    return int(line.split()[1]), ""
        return None, "cachegrind wrote no summary"
    finally:
        os.unlink(out)
