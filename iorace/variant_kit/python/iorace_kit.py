"""iorace's variant kit for Python: the argument checks, the passes loop, the monotonic timer and the result
line of the variant protocol (docs/ARCHITECTURE.md), so that a variant is its loop:

    from iorace.variant_kit.python import iorace_kit
    iorace_kit.run(lambda job: len(open(job.input, "rb").read()))

The program takes `FILE PASSES [PARAM...]`; the function runs PASSES times, timed as one block, and every pass
must give the same answer. Python variants run on the harness's own interpreter ({python}), where iorace is
installed, so the import needs no path; list `{kit}/python` in the variant's deps (what `iorace new` writes).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import NoReturn


@dataclass(frozen=True)
class Job:
    input: str  # the input file
    passes: int  # how many times the function runs (the suite's work parameter)
    params: list[str]  # the arguments after PASSES, as given


def fail(code: int, message: str) -> NoReturn:
    """One line on stderr, then exit `code`: for bad input and failed I/O."""
    print(f"error: {message}", file=sys.stderr)
    sys.exit(code)


def run(one_pass: Callable[[Job], object], argv: list[str] | None = None) -> NoReturn:
    """Parse `FILE PASSES [PARAM...]`, run one_pass PASSES times, print the result line and exit."""
    args = sys.argv if argv is None else argv
    if len(args) < 3:
        fail(2, f"usage: {args[0]} FILE PASSES [PARAM...]")
    try:
        passes = int(args[2])
    except ValueError:
        passes = 0
    if passes < 1:
        fail(2, f"PASSES must be a positive integer, not {args[2]!r}")
    job = Job(args[1], passes, args[3:])
    start = time.perf_counter_ns()  # monotonic
    try:
        answer = one_pass(job)
        for p in range(2, passes + 1):
            again = one_pass(job)
            if again != answer:
                fail(1, f"pass {p} answered {again!r}, the first pass {answer!r}")
    except OSError as e:
        fail(1, f"{e.filename or job.input}: {e.strerror or e}")
    inner_ns = time.perf_counter_ns() - start
    print("iorace-result " + json.dumps({"answer": answer, "inner_ns": inner_ns}), file=sys.stderr)
    sys.exit(0)
