"""A cell's code layouts as data: which program each layout runs, and how they were made (iorace/run/layouts.py
makes them). Here, below the pipeline, because a cell carries them from the build to the rounds."""

from __future__ import annotations

from dataclasses import dataclass

AS_LINKED = "as-linked"  # the name of a cell's first layout: its plain build, as --layouts 1 times it
PLACEMENT_SENSITIVE = 0.05  # layouts alone moving a cell by more than this flag it placement-sensitive


@dataclass(frozen=True)
class LayoutSet:
    """A cell's layouts: the program each one runs instead of the as-linked one, and how they were made (or why
    the cell has one layout). An empty set is one layout: the as-linked build."""

    programs: tuple[str, ...] = ()  # absolute path of each layout's program
    names: tuple[str, ...] = ()  # "s3+16": shuffle seed 3, shifted by 16 bytes; "go7": -randlayout=7
    replaces: str = ""  # the as-linked program (a word of the cell's argv) that a layout's program replaces
    note: str = ""  # how they were made, or why there is one layout

    def __len__(self) -> int:
        return len(self.programs)

    def argv(self, argv: list[str], index: int) -> list[str]:
        """A run's command line in layout `index`: the as-linked program replaced by that layout's."""
        return [self.programs[index] if word == self.replaces else word for word in argv]
