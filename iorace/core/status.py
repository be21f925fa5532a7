"""A cell's status: the one closed set every module asks (its order in tables, whether it is bad, its colours).

Adding a status is one edit here: the tables, the terminal's colours, the HTML's CSS, `compare`'s "broke"
and `run`'s exit code all read these properties.
"""

from __future__ import annotations

import enum


class Status(enum.StrEnum):
    """A str (it equals its value: "ok", "wrong", ...), as stored and exported.

    A cell starts `planned`; the manifest or a missing toolchain makes it `skipped`, the build
    `build-failed`; its verification run (and each timed run) makes it `ok`, `wrong`, `failed` or
    `timeout`. The member order is the order reports list cells that have no time.
    """

    OK = "ok"
    WRONG = "wrong"
    FAILED = "failed"
    TIMEOUT = "timeout"
    BUILD_FAILED = "build-failed"
    SKIPPED = "skipped"
    PLANNED = "planned"

    @property
    def order(self) -> int:
        """Sort key of the status in tables: ok first, then the bad ones, then skipped and planned."""
        return list(Status).index(self)

    @property
    def bad(self) -> bool:
        """Whether the status makes `iorace run` exit 1 (unless the manifest expects the cell to be wrong),
        and an ok cell that becomes it has broken (`iorace compare`)."""
        return self in (Status.WRONG, Status.FAILED, Status.TIMEOUT, Status.BUILD_FAILED)

    @property
    def style(self) -> str:
        """The status's colour in the terminal (rich style)."""
        return "green" if self is Status.OK else "bold red" if self.bad else "yellow" if self is Status.SKIPPED else ""

    @property
    def css(self) -> str:
        """The status cell's CSS declarations in the HTML report ('' for none)."""
        if self is Status.OK:
            return "color: #1a7f37;"
        if self.bad:
            return "color: #c62828; font-weight: 600;"
        return "color: #9a6700;" if self is Status.SKIPPED else ""

    @classmethod
    def of(cls, value: str) -> Status | None:
        """The Status of a stored string, None for one this version does not know."""
        try:
            return cls(value)
        except ValueError:
            return None

    @classmethod
    def sort_key(cls, value: str) -> int:
        """`order` of a stored string; a status this version does not know sorts last."""
        status = cls.of(value)
        return status.order if status is not None else len(cls)


BAD_STATES = frozenset(s for s in Status if s.bad)
