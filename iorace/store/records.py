"""Stored records: one dataclass per concept whose fields say which of them are columns of its table.

A field declared with `column("INTEGER NOT NULL")` is a column with that declaration (`json_column`: one
whose value is stored as JSON text); a `transient()` field, or one without either, is not stored. A
declaration is written in SQLite's words (the types INTEGER, REAL and TEXT; ROWID, the row id); each
database of iorace/dialect.py reads it in its own (PostgreSQL: BIGINT, DOUBLE PRECISION, an identity column).
`SqlTable` derives everything the store does with a record from that one declaration, for either database:
CREATE TABLE, the columns a database made by an older iorace lacks (added with ALTER TABLE, so every column
declared after the first release must be nullable or have a DEFAULT), INSERT (or an upsert on the table's
key), UPDATE, and reading a row back by column name. Adding a stored value is then one field (pyperf's Run
and Benchmark own their serialisation alike).
"""

from __future__ import annotations

import dataclasses
import json as jsonlib
import typing
from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar, dataclass_transform, overload

from iorace.store.dialect import ROWID, Db

_COLUMN, _JSON_TEXT, _EXPORT = "iorace_column", "iorace_json_text", "iorace_json"


def _field(default: Any, default_factory: Any, metadata: dict) -> Any:
    kw: dict[str, Any] = {"metadata": metadata}
    if default is not dataclasses.MISSING:
        kw["default"] = default
    if default_factory is not dataclasses.MISSING:
        kw["default_factory"] = default_factory
    return dataclasses.field(**kw)


def column(decl: str, *, json: str | None = None, default: Any = dataclasses.MISSING, default_factory: Any = dataclasses.MISSING) -> Any:
    """A stored field; `decl` is its column's declaration (in SQLite's words: INTEGER, REAL, TEXT). json (runner.Run's fields): the name of
    the per-run array under which the JSON export lists the field's values for each cell."""
    return _field(default, default_factory, {_COLUMN: decl, _JSON_TEXT: False, _EXPORT: json})


def json_column(decl: str, *, default: Any = dataclasses.MISSING, default_factory: Any = dataclasses.MISSING) -> Any:
    """A stored field whose value (a dict, a list, any JSON value; None is NULL) is kept as JSON text."""
    return _field(default, default_factory, {_COLUMN: decl, _JSON_TEXT: True, _EXPORT: None})


def transient(*, default: Any = dataclasses.MISSING, default_factory: Any = dataclasses.MISSING) -> Any:
    """A field that is not stored (what the launcher and the judge need of a run, what is loaded from
    another table)."""
    return _field(default, default_factory, {})


_T = TypeVar("_T")


@overload
def record(cls: type[_T], /) -> type[_T]: ...
@overload
def record(*, kw_only: bool = False) -> Callable[[type[_T]], type[_T]]: ...
@dataclass_transform(field_specifiers=(column, json_column, transient, dataclasses.field))
def record(cls: Any = None, /, *, kw_only: bool = False) -> Any:
    """A dataclass whose fields may be declared with column, json_column and transient (so that type
    checkers see which fields have defaults)."""

    def wrap(c: Any) -> Any:
        return dataclasses.dataclass(c, kw_only=kw_only)

    return wrap if cls is None else wrap(cls)


def stored(record_type: type) -> tuple[dataclasses.Field, ...]:
    """The fields of a record class that are columns, in declaration order."""
    return tuple(f for f in dataclasses.fields(record_type) if _COLUMN in f.metadata)


def json_names(record_type: type) -> dict[str, str]:
    """Field name -> NAME for each field of record_type declared with json="NAME"."""
    return {f.name: f.metadata[_EXPORT] for f in stored(record_type) if f.metadata[_EXPORT]}


def _decoders(record_type: type) -> dict[str, Callable[[Any], Any]]:
    """Column name -> how its stored value becomes the field's (JSON text decoded, 0/1 made a bool)."""
    hints = typing.get_type_hints(record_type)
    out: dict[str, Callable[[Any], Any]] = {}
    for f in stored(record_type):
        if f.metadata[_JSON_TEXT]:
            out[f.name] = jsonlib.loads
        elif hints[f.name] is bool:
            out[f.name] = bool
    return out


R = TypeVar("R")


class SchemaError(Exception):
    """A table that cannot be made what its record declares (a column declared later that is NOT NULL
    without a DEFAULT, which a database with rows cannot get)."""


class SqlTable(Generic[R]):
    """A table holding records of one class: its columns are the class's stored fields, after the table's
    own `links` (a row id that is no field of the record, the id of the row it belongs to). `key`: the
    columns that name a row, the PRIMARY KEY of a table without a row id, a UNIQUE index of one with a
    row id; an upsert, and an insert that skips a row already there, go by it."""

    def __init__(
        self,
        name: str,
        record_type: type[R],
        *,
        links: dict[str, str] | None = None,
        key: tuple[str, ...] = (),
        indexes: dict[str, str] | None = None,
    ):
        self.name, self.record_type = name, record_type
        self.links = links or {}
        self.key, self.indexes = key, indexes or {}
        self.fields = stored(record_type)
        self._decode = _decoders(record_type)
        own = {f.name: f.metadata[_COLUMN] for f in self.fields}
        every = {**self.links, **own}
        self.columns = dict(sorted(every.items(), key=lambda kv: kv[1] != ROWID))  # the row id first
        self.rowid = next((k for k, decl in self.columns.items() if decl == ROWID), None)
        if self.key and self.rowid:  # the row id is the primary key; the key is a unique index
            self.indexes = {**self.indexes, f"{name}_by_key": "UNIQUE " + ", ".join(key)}
        self._json = {f.name for f in self.fields if f.metadata[_JSON_TEXT]}
        self._names = {f.name for f in self.fields}

    def create(self, db: Db) -> None:
        """Make the table, or add the columns that a database made by an older iorace lacks; then its indexes."""
        lines = [f"{k} {db.decl(decl)}" for k, decl in self.columns.items()]
        if self.key and not self.rowid:
            lines.append(f"PRIMARY KEY ({', '.join(self.key)})")
        db.execute(f"CREATE TABLE IF NOT EXISTS {self.name} ({', '.join(lines)})")
        have = db.columns(self.name)
        for k, decl in self.columns.items():
            if k not in have:
                try:
                    db.execute(f"ALTER TABLE {self.name} ADD COLUMN {k} {db.decl(decl)}")
                except Exception as e:
                    raise SchemaError(
                        f"cannot add the column {self.name}.{k} ({decl}) to a database made by an older iorace: {e}"
                        " (a column declared later must be nullable or have a DEFAULT)"
                    ) from None
        for index, cols in self.indexes.items():
            if not db.has_index(index):
                unique, cols = ("UNIQUE ", cols.removeprefix("UNIQUE ")) if cols.startswith("UNIQUE ") else ("", cols)
                db.execute(f"CREATE {unique}INDEX IF NOT EXISTS {index} ON {self.name}({cols})")

    def _sql(self, name: str, value: Any) -> Any:
        """A field's value as stored: JSON fields as text (None is NULL), a bool as 0 or 1 (an INTEGER column
        on either database), the others as they are."""
        if name in self._json and value is not None:
            return jsonlib.dumps(value)
        return int(value) if isinstance(value, bool) else value

    def encode(self, rec: R) -> dict[str, Any]:
        """The record's stored fields as SQL values, by column name."""
        return {f.name: self._sql(f.name, getattr(rec, f.name)) for f in self.fields}

    def _row(self, rec: R, links: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in {**self.encode(rec), **links}.items() if k != self.rowid}

    def _insert_sql(self, cols: Iterable[str], conflict: str = "") -> str:
        names = list(cols)
        sql = f"INSERT INTO {self.name} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})"
        if conflict:
            sql += f" ON CONFLICT ({', '.join(self.key)}) DO {conflict}"
        return sql + (f" RETURNING {self.rowid}" if self.rowid else "")

    def insert(self, db: Db, rec: R, *, replace: bool = False, **links: Any) -> int:
        """Insert one record (its row id left to the database) with the given link columns; returns the row
        id (0 for a table without one). replace: a row of the same key is overwritten."""
        row = self._row(rec, links)
        conflict = ""
        if replace:
            assert self.key, f"{self.name}: an upsert needs the table's key"
            changes = [k for k in row if k not in self.key]
            conflict = f"UPDATE SET {', '.join(f'{k} = excluded.{k}' for k in changes)}" if changes else "NOTHING"
        cur = db.execute(self._insert_sql(row, conflict), tuple(row.values()))
        return cur.fetchone()[self.rowid] if self.rowid else 0

    def insert_new(self, db: Db, rec: R, **links: Any) -> int | None:
        """Insert one record unless a row of the same key is there (or comes first from a concurrent
        transaction: the database waits for it); its new row id, or None when it was there."""
        assert self.key and self.rowid, f"{self.name}: needs a key and a row id"
        row = self._row(rec, links)
        found = db.execute(self._insert_sql(row, "NOTHING"), tuple(row.values())).fetchone()
        return found[self.rowid] if found else None

    def insert_many(self, db: Db, recs: Iterable[R], **links: Any) -> None:
        """Insert records (row ids left to the database) in one batch, each with the given link columns."""
        rows = [self._row(rec, links) for rec in recs]
        if rows:
            sql = f"INSERT INTO {self.name} ({', '.join(rows[0])}) VALUES ({', '.join('?' * len(rows[0]))})"
            db.executemany(sql, [tuple(r.values()) for r in rows])

    def update(self, db: Db, rec: R, **links: Any) -> None:
        """Write every stored field of a record (and the given link columns) over its row, found by row id."""
        assert self.rowid is not None
        values = {f.name: getattr(rec, f.name) for f in self.fields if f.name != self.rowid}
        self.set(db, getattr(rec, self.rowid), {**values, **links})

    def set(self, db: Db, rowid: int, changes: dict[str, Any]) -> None:
        """Change some columns (name -> field value) of the row with this id."""
        values = {k: self._sql(k, v) for k, v in changes.items()}
        db.execute(f"UPDATE {self.name} SET {', '.join(f'{k} = ?' for k in values)} WHERE {self.rowid} = ?", (*values.values(), rowid))

    def rows(self, db: Db, *, order_by: str | None = None, **where: Any) -> list[Any]:
        """Every row whose columns equal the given values, all columns, in order_by's order."""
        sql = f"SELECT * FROM {self.name}"
        if where:
            sql += " WHERE " + " AND ".join(f"{k} = ?" for k in where)
        if order_by:
            sql += f" ORDER BY {order_by}"
        return db.execute(sql, tuple(where.values())).fetchall()

    def select(self, db: Db, *, order_by: str | None = None, **where: Any) -> list[R]:
        return [self.from_row(r) for r in self.rows(db, order_by=order_by, **where)]

    def from_row(self, row: Any, **extra: Any) -> R:
        """The record of a row (a sqlite3.Row or a dict), read by column name (a column the record does not
        declare is ignored); `extra`: the fields that are not stored."""
        values = {}
        for k in row.keys():  # noqa: SIM118  (a sqlite3.Row iterates over its values, not its column names)
            if k in self._names:
                v = row[k]
                values[k] = self._decode[k](v) if k in self._decode and v is not None else v
        return self.record_type(**values, **extra)
