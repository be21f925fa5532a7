"""One run of a program as the launcher reports it and the runs table stores it: declared here, below the
pipeline, so that the store reads and writes runs without importing the launcher that makes them."""

from __future__ import annotations

import signal

from iorace.store.records import column, record, transient

RESULT_PREFIX = "iorace-result "  # a program's result line starts with it (its answer, inner time, extras)


def timeout_text(seconds: float) -> str:
    """The one wording of a timeout, wherever a run's status or a counter's note reports it."""
    return f"timed out after {seconds:g} s (killed, with every process it started)"


@record(kw_only=True)
class Run:
    """One run of a program: what the launcher measured and what the program said. The column fields are
    the store's runs table (store.add_run stores one, with its phase and round); the others are what the
    launcher and the judge need, not stored. The launcher's report names its fields (spawn.c,
    REPORT_FIELDS) and each value goes to the field of that name, so a new measured value is measured and
    printed there and declared here: as a column that older databases can get (nullable or with a
    DEFAULT), with json="NAME" to list it in the JSON export as NAME: [value per run]."""

    phase: str = column("TEXT NOT NULL", default="")  # verify | warmup | measure
    round: int = column("INTEGER NOT NULL", default=0)
    wall_ns: int = column("INTEGER NOT NULL")
    user_ns: int = column("INTEGER NOT NULL")
    sys_ns: int = column("INTEGER NOT NULL")
    max_rss_kb: int = column("INTEGER NOT NULL")
    minflt: int = column("INTEGER NOT NULL")
    majflt: int = column("INTEGER NOT NULL")
    nvcsw: int = column("INTEGER NOT NULL")
    nivcsw: int = column("INTEGER NOT NULL")
    inner_ns: int | None = column("INTEGER", default=None)  # the program's own timing, from its result line
    exit_code: int = column("INTEGER NOT NULL")  # negative: killed by that signal
    env_pad: int | None = column("INTEGER", default=None)  # bytes its environment was padded by (measure.Randomize)
    # which of its cell's code layouts ran (an index into the cell's layout names); None: the as-linked build
    layout: int | None = column("INTEGER", default=None, json="layouts")
    # the CPU time the whole machine used (busy) and the hypervisor stole while it ran (/proc/stat, in 10 ms
    # ticks; None where it could not be read, and in runs stored before it was recorded)
    host_busy_ns: int | None = column("INTEGER", default=None)
    host_steal_ns: int | None = column("INTEGER", default=None)
    # not stored
    timed_out: bool = transient(default=False)
    result: dict | None = transient(default=None)  # the parsed iorace-result object
    stderr_tail: str = transient(default="")
    stdout_sha256: str = transient(default="")
    stdout_bytes: int = transient(default=0)
    timeout_s: float = transient(default=0.0)
    leftovers: int = transient(default=0)  # processes the run left behind (the launcher killed them)

    @property
    def cpu_ns(self) -> int:
        """Its own CPU time: user + system, over all its threads and the children it waited for."""
        return self.user_ns + self.sys_ns

    @property
    def cpu_share(self) -> float | None:
        """(user + system) / wall: the fraction of its run it was running (a program of several threads can
        exceed 1). A single-threaded program well below its usual share was runnable but not running."""
        return self.cpu_ns / self.wall_ns if self.wall_ns > 0 else None

    def metric_ns(self, metric: str) -> int | None:
        """What a metric reads of this run: "inner" the program's own timing (None when it gave none), "cpu"
        user + system (one thread's work: a scheduler that makes it wait does not count), "wall" the whole
        process from spawn to reaping."""
        if metric == "inner":
            return self.inner_ns
        return self.cpu_ns if metric == "cpu" else self.wall_ns

    def failure(self) -> str:
        """'' for a clean exit, else a one-line reason with the last stderr line."""
        if self.timed_out:
            return timeout_text(self.timeout_s)
        if self.exit_code == 0:
            return ""
        if self.exit_code < 0:
            try:
                why = f"killed by {signal.Signals(-self.exit_code).name}"
            except ValueError:
                why = f"killed by signal {-self.exit_code}"
        else:
            why = f"exit code {self.exit_code}"
        last = [ln for ln in self.stderr_tail.splitlines() if ln.strip() and not ln.startswith(RESULT_PREFIX)]
        return f"{why}: {last[-1].strip()}" if last else why
