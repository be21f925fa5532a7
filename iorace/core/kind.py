"""A variant's kind: the one closed set that says how a row takes part in its table.

Adding a kind is one edit here: the manifest accepts it, and the ratios, notes, chart shapes and the HTML
row style all read these properties.
"""

from __future__ import annotations

import enum


class Kind(enum.StrEnum):
    """variant: does the job the suite names; peer: someone else's tool doing it; bulk: part of the study
    but not the job's method (dcat's chunk copies: not line by line); limit: a different method on purpose,
    the physical limit; control: the A/A cell, the table's reference measured again as a cell of its own (added
    by `iorace run`, never declared), whose ratio to the reference must cover 1.00. Ratios "x fastest"
    compare with the fastest variant or peer only."""

    VARIANT = "variant"
    PEER = "peer"
    LIMIT = "limit"
    BULK = "bulk"
    CONTROL = "control"

    @property
    def compared(self) -> bool:
        """Whether a row of this kind can be "the fastest" a ratio refers to (limit and bulk use another method)."""
        return self in (Kind.VARIANT, Kind.PEER)

    @property
    def note(self) -> str:
        """What the report's notes column says of a row of this kind."""
        return {
            Kind.VARIANT: "",
            Kind.PEER: "peer",
            Kind.LIMIT: "LIMIT (other method)",
            Kind.BULK: "bulk: not the job's method, not compared",
            Kind.CONTROL: "A/A: the reference again, as its own cell (not ranked)",
        }[self]

    @property
    def tag(self) -> str:
        """The short mark after a cell's name in charts ('' for a plain variant)."""
        return {Kind.VARIANT: "", Kind.LIMIT: "LIMIT", Kind.CONTROL: "A/A"}.get(self, self.value)

    @property
    def chart_shape(self) -> str:
        """The point's shape in the ratio chart (a Vega-Lite shape)."""
        return {Kind.VARIANT: "circle", Kind.PEER: "diamond", Kind.LIMIT: "triangle-up", Kind.BULK: "square", Kind.CONTROL: "cross"}[self]

    @property
    def marked(self) -> bool:
        """Whether the HTML report shades its rows (every kind but a plain variant)."""
        return self is not Kind.VARIANT

    @classmethod
    def of(cls, value: str) -> Kind:
        """The Kind of a stored string; one this version does not know is read as a plain variant."""
        try:
            return cls(value)
        except ValueError:
            return cls.VARIANT
