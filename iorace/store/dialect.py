"""The two databases a store can be: a SQLite file (the default: embedded, nothing to start) or a PostgreSQL
server named by a `postgresql://` URL (a store shared by several machines; psycopg 3, the `pg` extra).

What differs between them is here and nowhere else: how to connect, the column types (a declaration in
iorace/records.py is written with SQLite's INTEGER, REAL and TEXT; PostgreSQL gets BIGINT, DOUBLE PRECISION
and TEXT, and the row id `INTEGER PRIMARY KEY` becomes an identity column), which columns and indexes a table
has, the placeholder (`?` in every statement of iorace; psycopg's `%s` on PostgreSQL), how schema changes of
concurrent processes are kept apart, and which errors are the user's (a bad URL, a refused connection, a
wrong password, a server that went away: one line and exit 2) rather than iorace's.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol

from iorace.core.errors import UsageError

URL_SCHEMES = ("postgresql", "postgres")  # what libpq takes
ROWID = "INTEGER PRIMARY KEY"  # SQLite's row id: left out of an INSERT (the database numbers the row), the key of UPDATE
CONNECT_TIMEOUT_S = 10  # libpq waits for ever by default on a host that does not answer


def is_url(db: Path | str) -> bool:
    """Whether --db names a server (scheme://...) rather than a SQLite file."""
    return isinstance(db, str) and "://" in db


def parse_location(value: str) -> Path | str:
    """--db's value: a postgresql:// URL as it is, anything without a scheme a SQLite file."""
    if "://" not in value:
        return Path(value)
    scheme = value.split("://", 1)[0].lower()
    if scheme not in URL_SCHEMES:
        raise UsageError(f"{redact(value)}: not a postgresql:// URL (nor a SQLite file: a path has no scheme)")
    return value


def redact(text: str) -> str:
    """A URL, or a message quoting one (libpq's do), with every password masked."""
    return re.sub(r"(://[^\s/@:]*:)[^\s/@]*@", r"\1***@", text)


class Cursor(Protocol):
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...
    def __iter__(self) -> Iterator[Any]: ...


class Db:
    """One open database. Rows are read by column name (row["id"]); statements use `?` placeholders."""

    where: str  # the file or the URL (password masked), as messages name it
    conn: Any  # the driver's connection (sqlite3's or psycopg's: both commit, roll back and close alike)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor:
        raise NotImplementedError

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        raise NotImplementedError

    def decl(self, decl: str) -> str:
        """A column's declaration (as records.py writes it, in SQLite's words) in this database's words."""
        return decl

    def columns(self, table: str) -> set[str]:
        raise NotImplementedError

    def has_index(self, name: str) -> bool:
        raise NotImplementedError

    def lock_schema(self) -> None:
        """Keep other processes from changing the schema until this transaction ends."""

    def commit(self) -> None:
        self.conn.commit()

    def rollback(self) -> None:
        self.conn.rollback()

    def close(self) -> None:
        self.conn.close()


SQLITE_BUSY_S = 120.0


class SqliteDb(Db):
    def __init__(self, path: Path):
        self.where = str(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        # Another iorace writing to the same file (two sessions at once) holds its lock for one cell's save or
        # one round's runs at a time: a writer waits for it rather than failing after sqlite's default 5 s.
        self.conn = sqlite3.connect(path, timeout=SQLITE_BUSY_S)
        self.conn.row_factory = sqlite3.Row

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor:
        return self.conn.execute(sql, tuple(params))

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self.conn.executemany(sql, rows)

    def columns(self, table: str) -> set[str]:
        return {row["name"] for row in self.conn.execute(f"PRAGMA table_info({table})")}

    def has_index(self, name: str) -> bool:
        return self.conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?", (name,)).fetchone() is not None


_servers: list[str] = []  # the servers connected to, for the message of an error that comes later
_PG_TYPES = {"INTEGER": "BIGINT", "REAL": "DOUBLE PRECISION"}  # wall_ns of a 3 s run does not fit PostgreSQL's INTEGER
_SCHEMA_LOCK = 0x696F72616365  # "iorace": the advisory lock held while a process creates or extends the tables


class PostgresDb(Db):
    def __init__(self, url: str):
        try:
            import psycopg
            from psycopg.rows import dict_row
        except ImportError:
            raise UsageError(
                f"--db {redact(url)}: PostgreSQL needs the psycopg driver: pip install 'iorace[pg]' (scripts/setup installs it)"
            ) from None
        self.where = redact(url)
        _servers.append(self.where)
        timeout: dict[str, Any] = {} if "connect_timeout" in url else {"connect_timeout": CONNECT_TIMEOUT_S}
        try:
            self.conn: Any = psycopg.connect(url, row_factory=dict_row, **timeout)
        except psycopg.Error as e:
            raise UsageError(f"{self.where}: cannot connect: {redact(one_line(e))}") from None

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor:
        cur: Cursor = self.conn.execute(_pg(sql), tuple(params))
        return cur

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with self.conn.cursor() as cur:
            cur.executemany(_pg(sql), rows)

    def decl(self, decl: str) -> str:
        if decl == ROWID:
            return "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"
        return re.sub(r"\b(INTEGER|REAL)\b", lambda m: _PG_TYPES[m.group(1)], decl)

    def columns(self, table: str) -> set[str]:
        rows = self.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ?", (table,)
        )
        return {r["column_name"] for r in rows}

    def has_index(self, name: str) -> bool:
        # Looked up rather than CREATE INDEX IF NOT EXISTS, which locks the table even when the index is there.
        return self.execute("SELECT to_regclass(?) IS NOT NULL AS found", (name,)).fetchone()["found"]

    def lock_schema(self) -> None:
        # Two processes creating the same table at once collide in PostgreSQL's catalog (a duplicate key of
        # pg_type): the first to come creates, the others wait and then find it there.
        self.execute("SELECT pg_advisory_xact_lock(?)", (_SCHEMA_LOCK,))


def _pg(sql: str) -> str:
    assert "%" not in sql, sql  # psycopg would read it as a placeholder
    return sql.replace("?", "%s")


def connect(db: Path | str) -> Db:
    """Open a SQLite file or connect to a PostgreSQL server (UsageError, one line, when it cannot)."""
    if is_url(db):
        return PostgresDb(str(parse_location(str(db))))
    path = Path(db)
    try:
        return SqliteDb(path)
    except (OSError, sqlite3.Error) as e:
        raise UsageError(f"--db {path}: cannot open the database: {e}") from None


def one_line(e: BaseException) -> str:
    """An error's message on one line (libpq's span several)."""
    return " ".join(str(e).split()) or type(e).__name__


def user_error(e: BaseException) -> str | None:
    """The one line to print for an error that is the database's or the user's rather than a bug of iorace
    (the server went away, refused, ran out of room, denied a permission; a SQLite file another process kept
    locked): None for anything else."""
    import sys

    if isinstance(e, sqlite3.OperationalError) and "locked" in str(e):
        return f"the database stayed locked by another process for {SQLITE_BUSY_S:.0f} s: {one_line(e)}"
    psycopg = sys.modules.get("psycopg")  # only loaded when a URL was given
    if psycopg is None or not isinstance(e, psycopg.Error):
        return None
    if isinstance(e, psycopg.OperationalError | psycopg.errors.InsufficientPrivilege):
        return f"{_servers[-1] if _servers else 'PostgreSQL'}: {redact(one_line(e))}"
    return None
