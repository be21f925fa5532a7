"""What `iorace compare` and `iorace history` say of a cell's change: a closed set, like iorace.core.status."""

from __future__ import annotations

import enum


class Verdict(enum.StrEnum):
    REGRESSED = "regressed"  # significantly slower beyond the threshold
    IMPROVED = "improved"  # significantly faster beyond the threshold
    SAME = "~"  # no significant change beyond the threshold
    NOT_TIMED = "not timed"  # a side has no timed runs
    OTHER_METRIC = "other metric"  # the sides measured different metrics (inner vs wall)
    MOVED = "table moved"  # the table's reference, when every cell of its table moved alike (compare's TableMove)

    @property
    def style(self) -> str:
        """The verdict's colour in the terminal (rich style)."""
        return {Verdict.REGRESSED: "bold red", Verdict.IMPROVED: "green", Verdict.MOVED: "yellow"}.get(self, "")

    @property
    def emphasis(self) -> bool:
        """Whether text formats set it off (a regression in bold in a pull request's Markdown comment)."""
        return self is Verdict.REGRESSED

    @property
    def arrow(self) -> str:
        """The mark `history` puts beside a changed point ('' for no change)."""
        return {Verdict.REGRESSED: "▲", Verdict.IMPROVED: "▼"}.get(self, "")

    @classmethod
    def of(cls, value: str) -> Verdict | None:
        try:
            return cls(value)
        except ValueError:
            return None
