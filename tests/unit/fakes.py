"""Fakes for verify and measure, as hyperfine tests its benchmark loop with a MockExecutor: a runner that
answers each scheduled run with a scripted Run (no process is started) and a recorder that keeps the
runs in a list. The cells come from a real toy suite.toml (written to a temporary folder, never built)."""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from iorace.manifest.cells import OK, Cell, dataset_refs, expand
from iorace.manifest.suites import load_suite
from iorace.run.launcher import Job
from iorace.store.run import Run

MS = 1_000_000  # ns
ANSWER = 1000  # every toy cell's expected answer


def record(
    answer: object = ANSWER,
    *,
    wall_ms: float = 10.0,
    exit_code: int = 0,
    timed_out: bool = False,
    result: dict | str | None = "answer",
    stderr: str = "",
    extra: dict | None = None,
) -> Run:
    """A run as the launcher reports it; result="answer" makes the result line {"answer": answer}."""
    if result == "answer":
        result = {"answer": answer, **({"extra": extra} if extra else {})}
    assert not isinstance(result, str)
    return Run(
        wall_ns=int(wall_ms * MS),
        user_ns=int(wall_ms * MS * 0.9),
        sys_ns=0,
        max_rss_kb=2048,
        minflt=100,
        majflt=0,
        nvcsw=1,
        nivcsw=2,
        exit_code=exit_code,
        timed_out=timed_out,
        inner_ns=None,
        result=result,
        stderr_tail=stderr,
        timeout_s=5.0,
    )


@dataclass
class Call:
    """One list of runs handed to the runner."""

    jobs: list[Job]
    schedule: list[int]
    on_stdout: Callable | None

    @property
    def names(self) -> list[str]:
        """The scheduled runs as the names of their programs (argv[0] is the toy variant's name)."""
        return [self.jobs[j].argv[0] for j in self.schedule]


@dataclass
class FakeRunner:
    """run_batch's signature; every run is ok with wall_ms, unless `script` has an entry for (program, n),
    n counting that program's runs so far (over every call, warm-up included): a record to return, None for a
    run the launcher reports nothing of, or an exception to raise (OSError: the launcher could not start).

    Like the launcher, it does not start a job again after the job failed (non-zero exit or timeout) earlier
    in the same list: those runs are None. interrupt=(call, n): Ctrl-C comes in that call (0 for the first)
    after n runs; the rest of it is None and the call says it was interrupted. stdout: the bytes a digest
    sink reads (given to on_stdout when there is one).
    wall_ms may be a function of the call's number (0 for the first call).
    """

    script: dict[tuple[str, int], Run | Exception | None] = field(default_factory=dict)
    wall_ms: float | Callable[[int], float] = 10.0
    interrupt: tuple[int, int] | None = None
    stdout: bytes = b""
    calls: list[Call] = field(default_factory=list)
    made: dict[str, int] = field(default_factory=dict)

    def __call__(
        self, jobs: list[Job], schedule: list[int], *, on_stdout: Callable[[IO[bytes]], None] | None = None
    ) -> tuple[list[Run | None], bool]:
        call_no = len(self.calls)
        self.calls.append(Call(jobs, list(schedule), on_stdout))
        if on_stdout is not None:
            on_stdout(io.BytesIO(self.stdout))
        wall = self.wall_ms(call_no) if callable(self.wall_ms) else self.wall_ms
        stop = self.interrupt[1] if self.interrupt is not None and self.interrupt[0] == call_no else None
        failed: set[str] = set()
        records: list[Run | None] = []
        for i, j in enumerate(schedule):
            name = jobs[j].argv[0]
            if name in failed or (stop is not None and i >= stop):
                records.append(None)
                continue
            n = self.made.get(name, 0)
            self.made[name] = n + 1
            scripted = self.script.get((name, n), record(wall_ms=wall))
            if isinstance(scripted, Exception):
                raise scripted
            if scripted is None:
                records.append(None)
                continue
            run = scripted
            if run.exit_code != 0 or run.timed_out:
                failed.add(name)
            records.append(run)
        return records, stop is not None


@dataclass
class Added:
    name: str
    phase: str
    round_no: int
    run: Run


COMMIT = "commit"


@dataclass
class ListRecorder:
    """The Recorder protocol (the Store's add_run and commit), in a list: Added for each run, COMMIT for each commit."""

    events: list[Added | str] = field(default_factory=list)

    def add_run(self, cell: Cell, phase: str, round_no: int, run: Run) -> None:
        self.events.append(Added(cell.variant.name, phase, round_no, run))

    def commit(self) -> None:
        self.events.append(COMMIT)

    @property
    def runs(self) -> list[Added]:
        return [e for e in self.events if isinstance(e, Added)]

    def of(self, name: str, phase: str = "measure") -> list[Added]:
        return [a for a in self.runs if a.name == name and a.phase == phase]


def toy_cells(
    tmp_path: Path,
    names: tuple[str, ...] = ("a", "b", "c"),
    *,
    answer: str = "result",
    known_wrong: tuple[str, ...] = (),
    env: dict[str, str] | None = None,
) -> list[Cell]:
    """One verified-looking (status ok) gcc release cell per name, on dataset tiny; argv[0] is the name.

    known_wrong: the names whose manifest entry says they cannot be right on tiny. answer="stdout": the
    expected answer is the sha256 of b"right\\n"."""
    d = tmp_path / "toy"
    (d / "c").mkdir(parents=True, exist_ok=True)
    variants = []
    for name in names:
        (d / "c" / f"{name}.c").write_text("/* a toy strategy */\n")
        variants.append(
            f'[[variants]]\nname = "{name}"\nlanguage = "c"\ndescription = "toy {name}"\n'
            f'sources = ["c/{name}.c"]\n'
            + ('known_wrong = ["tiny"]\n' if name in known_wrong else "")
            + (f"env = {{ {', '.join(f'{k} = {v!r}' for k, v in env.items())} }}\n" if env else "")
        )
    (d / "suite.toml").write_text(
        f'name = "toy"\ntitle = "A toy job"\nanswer = "{answer}"\nmetric = "inner"\n'
        '[datasets.tiny]\ndescription = "small"\n' + "\n".join(variants)
    )
    (d / "suite.py").write_text("def generate(name, path): path.write_bytes(b'x')\ndef expected(path, params): return 1000\n")
    suite = load_suite(d)
    cells = expand(suite, dataset_refs(suite, ["tiny"], []), [], ["gcc"], ["release"], [])
    assert [c.variant.name for c in cells] == list(names)
    for cell in cells:
        cell.status = OK
        cell.argv = [cell.variant.name, "/data/tiny"]
        cell.build_dir = tmp_path / "build" / cell.variant.name
        cell.expected = hashlib.sha256(b"right\n").hexdigest() if answer == "stdout" else ANSWER
    return cells
