"""Progress of a session's stages: a redrawn bar on a terminal, plain lines in a log.

On a terminal, rich's bar, redrawn when it changes and never by rich's timer thread (nothing of the harness
wakes while the launcher times a list of runs). When the output is not a terminal (CI, `make bench > log`,
a nightly job), a bar cannot be redrawn, so each stage prints a line when it starts, at most every
`LINE_EVERY_S` seconds while it goes (the harness wakes between chunks of rounds, about every 2 s), and when
it ends: done of total, the time it took so far and the time left at its pace so far. Both answer the
pipeline's three calls (add_task, update, advance), so the pipeline does not know which it has."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Protocol

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

LINE_EVERY_S = 10.0


class Stages(Protocol):
    def __enter__(self) -> Stages: ...

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None) -> None: ...

    def add_task(
        self, description: str, start: bool = ..., total: float | None = ..., completed: int = ..., visible: bool = ..., **fields: Any
    ) -> TaskID: ...

    def update(self, task_id: TaskID, **fields: Any) -> None: ...

    def advance(self, task_id: TaskID, advance: float = ...) -> None: ...

    def stop_task(self, task_id: TaskID) -> None: ...


class _QuietProgress(Progress):
    """Redrawn when it changes, never by rich's 10 Hz timer thread."""

    def update(self, *args: Any, **kwargs: Any) -> None:
        super().update(*args, **kwargs)
        self.refresh()

    def advance(self, *args: Any, **kwargs: Any) -> None:
        super().advance(*args, **kwargs)
        self.refresh()


def _minutes(seconds: float) -> str:
    m, s = divmod(round(seconds), 60)
    return f"{m}m{s:02d}s" if m else f"{s}s"


@dataclass
class _Stage:
    name: str
    total: int
    started: float
    done: int = 0
    said: float = 0.0  # when its last line was printed
    ended: bool = False  # its "done" line is printed
    grew: bool = False  # it went past its planned total
    open_ended: bool = False  # its total is a guess (a budget ends it): its "done" line comes from stop_task only


@dataclass
class LineProgress:
    """A line per stage when it starts, every LINE_EVERY_S seconds, and when it ends."""

    console: Console
    every_s: float = LINE_EVERY_S
    clock: Any = time.monotonic
    stages: list[_Stage] = field(default_factory=list)

    def __enter__(self) -> LineProgress:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None) -> None:
        for stage in self.stages:  # one that grew past its total (an A/A cell, repeated rounds) or ended early (a race)
            if not stage.ended and kind is None:
                self._say(stage, "done")

    def add_task(
        self, description: str, start: bool = True, total: float | None = None, completed: int = 0, visible: bool = True, **fields: Any
    ) -> TaskID:
        now = self.clock()
        self.stages.append(_Stage(description, int(total or 0), now, said=now, open_ended=bool(fields.get("open_ended"))))
        self._say(self.stages[-1], "started")
        return TaskID(len(self.stages) - 1)

    def update(self, task_id: TaskID, **fields: Any) -> None:
        return None  # the cell being worked on: a terminal shows it, a log would drown in it

    def advance(self, task_id: TaskID, advance: float = 1) -> None:
        stage = self.stages[task_id]
        stage.done += int(advance)
        if stage.done > stage.total:  # more than planned (an A/A cell joined, rounds were repeated): its end is at exit
            stage.total, stage.grew, stage.ended = stage.done, True, False
        if stage.done == stage.total and not stage.grew and not stage.open_ended:
            self._say(stage, "done")
        elif self.clock() - stage.said >= self.every_s:
            self._say(stage, "")

    def stop_task(self, task_id: TaskID) -> None:
        """The stage is over (its suite is measured, the race stopped it early): its "done" line now, before
        the suite's tables, not at the end of the session."""
        stage = self.stages[task_id]
        if not stage.ended:
            self._say(stage, "done")

    def _say(self, stage: _Stage, what: str) -> None:
        now = self.clock()
        stage.said, stage.ended = now, what == "done"
        elapsed = now - stage.started
        parts = [f"{stage.done}/{stage.total}", _minutes(elapsed)]
        if what == "" and stage.done and not stage.grew and not stage.open_ended:  # a budget, not a count, ends an open one
            parts.append(f"about {_minutes(elapsed / stage.done * (stage.total - stage.done))} left at most")
        line = f"{stage.name}: {what + ', ' if what else ''}{', '.join(parts)}"
        self.console.print(escape(line), highlight=False, soft_wrap=True)


def stages_for(console: Console) -> Stages:
    """A bar on a terminal, lines elsewhere."""
    if not console.is_terminal:
        return LineProgress(console)
    return _QuietProgress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[what]}"),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        auto_refresh=False,
    )
