"""Progress in a log: a line when a stage starts, every few seconds with the time left, and when it ends."""

from __future__ import annotations

import io

from rich.console import Console

from iorace.run.progress import LineProgress, stages_for


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_lines_at_start_every_few_seconds_and_at_the_end():
    out, clock = io.StringIO(), Clock()
    p = LineProgress(Console(file=out, width=200), every_s=10.0, clock=clock)
    with p:
        task = p.add_task("measure readbytes", total=100, what="")
        for _ in range(40):  # 40 runs in 20 s: two lines on the way
            clock.now += 0.5
            p.update(task, what="c/fread")
            p.advance(task)
        for _ in range(60):
            p.advance(task)
    lines = out.getvalue().splitlines()
    assert lines[0] == "measure readbytes: started, 0/100, 0s"
    assert lines[1] == "measure readbytes: 20/100, 10s, about 40s left at most"
    assert lines[2] == "measure readbytes: 40/100, 20s, about 30s left at most"
    assert lines[-1] == "measure readbytes: done, 100/100, 20s" and len(lines) == 4


def test_a_bar_on_a_terminal_and_lines_elsewhere():
    assert isinstance(stages_for(Console(file=io.StringIO())), LineProgress)
    assert not isinstance(stages_for(Console(file=io.StringIO(), force_terminal=True)), LineProgress)


def test_a_stage_that_grows_past_its_plan_ends_once_at_exit():
    """An A/A cell joins and displaced rounds are repeated: more runs than planned, one "done" line at the end."""
    out = io.StringIO()
    with LineProgress(Console(file=out, width=200), clock=Clock()) as p:
        task = p.add_task("measure spin", total=2)
        for _ in range(2):
            p.advance(task)
        p.advance(task)
    lines = out.getvalue().splitlines()
    assert [line for line in lines if "done" in line] == ["measure spin: done, 2/2, 0s", "measure spin: done, 3/3, 0s"]


def test_a_stage_stopped_early_says_done_when_stopped_not_at_exit():
    """A race ends a suite's measuring below its planned rounds: its "done" line comes when the suite is over
    (before its tables are printed), once."""
    out = io.StringIO()
    with LineProgress(Console(file=out, width=200), clock=Clock()) as p:
        task = p.add_task("measure spin", total=10, what="")
        for _ in range(6):
            p.advance(task)
        p.stop_task(task)
        out.write("the tables\n")
    lines = out.getvalue().splitlines()
    assert lines == ["measure spin: started, 0/10, 0s", "measure spin: done, 6/10, 0s", "the tables"]


def test_an_open_ended_stage_says_done_once_when_stopped_past_its_guess():
    """A budget ends a suite's rounds: the planned total is a guess, passed or not reached; one "done" line,
    when the suite is over, and no time left once past the guess."""
    out = io.StringIO()
    clock = Clock()
    with LineProgress(Console(file=out, width=200), clock=clock, every_s=1) as p:
        task = p.add_task("measure spin", total=2, what="", open_ended=True)
        for _ in range(5):
            clock.now += 2
            p.advance(task)
        p.stop_task(task)
    lines = out.getvalue().splitlines()
    assert [line for line in lines if "done" in line] == ["measure spin: done, 5/5, 10s"]
    assert not any("left" in line for line in lines)  # its total is a guess: no time left from it
