"""A cell's identity and the identity of the table it is ranked in, with their display forms: the one place
that says what makes two cells (across sessions, machines, exports) the same cell, or two cells rivals.

A table holds the cells of one suite and dataset whose parameters agree apart from the suite's scale
parameters (a scale parameter changes the work per run, not the job: passes = 1 and passes = 10 race in one
table, their times scaled). Parameters are held as sorted JSON text, so an identity is hashable, ordered and
the same whether it was read from a live cell, the store or a JSON export."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass


def params_json(params: Mapping[str, object]) -> str:
    return json.dumps(dict(params), sort_keys=True)


def cell_label(variant_key: str, toolchain: str, profile: str, params: Mapping[str, object]) -> str:
    """A stable name for a cell, used in tables, TSV rows and JSON: lang/variant@toolchain:profile[k=v,...]."""
    return f"{short_label(variant_key, toolchain, profile)}[{','.join(f'{k}={v}' for k, v in params.items())}]"


def short_label(variant_key: str, toolchain: str, profile: str) -> str:
    """lang/variant@toolchain:profile: how a manifest's grids and seed rows name a cell."""
    return f"{variant_key}@{toolchain}:{profile}"


def variant_key_of(label: str) -> str:
    """'cpp/capnp@g++:release[...]' -> 'cpp/capnp' (a label without '@' is a variant key already)."""
    return label.partition("@")[0]


@dataclass(frozen=True, order=True)
class TableId:
    """The table a cell is ranked in."""

    suite: str
    dataset: str
    params: str  # the parameters the table's cells share, as sorted JSON

    @classmethod
    def of(cls, suite: str, dataset: str, params: Mapping[str, object], scale_params: Iterable[str] = ()) -> TableId:
        """The table of a cell with these parameters, the scale parameters left out."""
        scaling = set(scale_params)
        return cls(suite, dataset, params_json({k: v for k, v in params.items() if k not in scaling}))


@dataclass(frozen=True, order=True)
class CellId:
    """One cell wherever it was measured: compare, history and fleet match cells across sessions by it."""

    suite: str
    dataset: str
    params: str  # every parameter, as sorted JSON
    key: str  # language/variant
    toolchain: str
    profile: str

    @classmethod
    def of(
        cls,
        suite: str,
        dataset: str,
        params: Mapping[str, object],
        key: str,
        toolchain: str,
        profile: str,
        scale_params: Iterable[str] = (),
    ) -> CellId:
        """The cell with these parameters, its scale parameters left out (as TableId.of): --target-ms sizes a
        cell's work anew in a session, and 12 passes and 14 are the same cell."""
        scaling = set(scale_params)
        return cls(suite, dataset, params_json({k: v for k, v in params.items() if k not in scaling}), key, toolchain, profile)

    @property
    def label(self) -> str:
        return cell_label(self.key, self.toolchain, self.profile, json.loads(self.params))
