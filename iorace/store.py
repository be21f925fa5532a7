"""Every session, cell and run in SQLite; reports and exports are read back from here.

Reading back what was stored (rather than reporting from memory) means `iorace
run` and a later `iorace show` print the same thing, and an interrupted session
still has everything that was committed.
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field, fields
from pathlib import Path

from iorace.cells import cell_label
from iorace.errors import UsageError

SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL,
    finished TEXT,
    status TEXT NOT NULL,            -- running | done | interrupted
    command_line TEXT NOT NULL,
    options TEXT NOT NULL,           -- JSON: size, runs, warmup, sink, ...
    machine TEXT NOT NULL,           -- JSON from iorace.machine
    toolchains TEXT NOT NULL,        -- JSON: name -> version line
    git_revision TEXT NOT NULL,
    iorace_version TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS cells (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    suite TEXT NOT NULL, title TEXT NOT NULL, metric TEXT NOT NULL,
    dataset TEXT NOT NULL, dataset_sha256 TEXT NOT NULL, input_path TEXT NOT NULL,
    params TEXT NOT NULL,            -- JSON
    variant TEXT NOT NULL, language TEXT NOT NULL, kind TEXT NOT NULL, description TEXT NOT NULL,
    toolchain TEXT NOT NULL, toolchain_version TEXT NOT NULL, profile TEXT NOT NULL,
    build_key TEXT NOT NULL,
    command TEXT NOT NULL,           -- JSON argv of a run, as a user can repeat it
    status TEXT NOT NULL, detail TEXT NOT NULL,
    answer TEXT, expected TEXT,      -- JSON
    units TEXT NOT NULL,             -- JSON: work per run, e.g. {"bytes": n}
    known_wrong INTEGER NOT NULL DEFAULT 0,
    instructions INTEGER,            -- cachegrind's count of one run (run --instructions)
    instructions_note TEXT NOT NULL DEFAULT '',
    extra TEXT NOT NULL DEFAULT '{}' -- JSON: figures the program reported beside its answer
);
CREATE TABLE IF NOT EXISTS session_suites (
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    suite TEXT NOT NULL,
    settings TEXT NOT NULL,          -- JSON: the manifest's settings the analysis needs (baseline languages, ...)
    PRIMARY KEY (session_id, suite)
);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY,
    cell_id INTEGER NOT NULL REFERENCES cells(id),
    phase TEXT NOT NULL,             -- verify | warmup | measure
    round INTEGER NOT NULL,
    wall_ns INTEGER NOT NULL, user_ns INTEGER NOT NULL, sys_ns INTEGER NOT NULL,
    max_rss_kb INTEGER NOT NULL, minflt INTEGER NOT NULL, majflt INTEGER NOT NULL,
    nvcsw INTEGER NOT NULL, nivcsw INTEGER NOT NULL,
    inner_ns INTEGER, exit_code INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_by_cell ON runs(cell_id);
CREATE TABLE IF NOT EXISTS counters (  -- one extra run's counters per cell (run --counters, --instructions)
    cell_id INTEGER NOT NULL REFERENCES cells(id),
    name TEXT NOT NULL,              -- SOURCE:EVENT, e.g. perf:cycles, cachegrind:branches
    value REAL,                      -- NULL: not available, see note
    note TEXT NOT NULL DEFAULT '',   -- why there is no value
    PRIMARY KEY (cell_id, name)
);
CREATE INDEX IF NOT EXISTS cells_by_session ON cells(session_id);
"""

# Columns added after the first release of the schema: (table, column, declaration).
MIGRATIONS = [
    ("cells", "instructions", "INTEGER"),
    ("cells", "instructions_note", "TEXT NOT NULL DEFAULT ''"),
    ("cells", "extra", "TEXT NOT NULL DEFAULT '{}'"),
]
# Columns holding JSON text, decoded on load.
JSON_COLUMNS = {"params", "command", "answer", "expected", "units", "extra", "options", "machine", "toolchains",
                "settings"}


@dataclass
class RunData:
    phase: str
    round: int
    wall_ns: int
    user_ns: int
    sys_ns: int
    max_rss_kb: int
    minflt: int
    majflt: int
    nvcsw: int
    nivcsw: int
    inner_ns: int | None
    exit_code: int


@dataclass
class CellData:
    id: int
    suite: str
    title: str
    metric: str
    dataset: str
    dataset_sha256: str
    input_path: str
    params: dict
    variant: str
    language: str
    kind: str
    description: str
    toolchain: str
    toolchain_version: str
    profile: str
    build_key: str
    command: list[str]
    status: str
    detail: str
    answer: object
    expected: object
    units: dict
    known_wrong: bool
    instructions: int | None = None
    instructions_note: str = ""
    extra: dict = field(default_factory=dict)
    runs: list[RunData] = field(default_factory=list)
    counters: dict[str, float] = field(default_factory=dict)   # counters table: SOURCE:EVENT -> value
    counter_notes: dict[str, str] = field(default_factory=dict)  # SOURCE:EVENT -> why it has no value

    @property
    def key(self) -> str:
        return f"{self.language}/{self.variant}"

    @property
    def label(self) -> str:
        return cell_label(self.key, self.toolchain, self.profile, self.params)

    def measured(self) -> list[RunData]:
        return [r for r in self.runs if r.phase == "measure"]


@dataclass
class SessionData:
    id: int
    started: str
    finished: str | None
    status: str
    command_line: str
    options: dict
    machine: dict
    toolchains: dict
    git_revision: str
    iorace_version: str
    cells: list[CellData]
    suites: dict[str, dict] = field(default_factory=dict)  # suite -> its manifest settings (SuiteSettings)

    def suite_setting(self, suite: str, name: str, default=None):
        """A manifest setting of one suite as stored with the session (older databases kept them in options)."""
        if suite in self.suites:
            return self.suites[suite].get(name, default)
        return self.options.get(name, {}).get(suite, default)


def _json(value) -> str:
    return json.dumps(value, sort_keys=False)


def _decode(row: sqlite3.Row, into) -> dict:
    """The columns of `row` that the dataclass `into` has, JSON columns decoded: rows are read by name."""
    names = {f.name for f in fields(into)}
    out = {}
    for key in row.keys():
        if key in names:
            value = row[key]
            out[key] = json.loads(value) if key in JSON_COLUMNS and value is not None else value
    return out


class Store:
    def __init__(self, path: Path):
        self.path = path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(path)
            self.db.row_factory = sqlite3.Row
            self.db.executescript(SCHEMA)
            self._migrate()
        except (OSError, sqlite3.Error) as e:
            raise UsageError(f"--db {path}: cannot open the database: {e}") from None

    def _migrate(self) -> None:
        """Add the columns a database made by an older iorace lacks, so old sessions stay readable."""
        for table, column, decl in MIGRATIONS:
            have = {row[1] for row in self.db.execute(f"PRAGMA table_info({table})")}
            if column not in have:
                self.db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {decl}")
        self.db.commit()

    def begin_session(self, started: str, command_line: str, options: dict, machine: dict, toolchains: dict,
                      git_revision: str, version: str) -> int:
        cur = self.db.execute(
            "INSERT INTO sessions (started, status, command_line, options, machine, toolchains, git_revision, iorace_version)"
            " VALUES (?, 'running', ?, ?, ?, ?, ?, ?)",
            (started, command_line, _json(options), _json(machine), _json(toolchains), git_revision, version))
        self.db.commit()
        assert cur.lastrowid is not None
        return cur.lastrowid

    def save_suite_settings(self, session_id: int, suite: str, settings: dict) -> None:
        self.db.execute("INSERT OR REPLACE INTO session_suites (session_id, suite, settings) VALUES (?, ?, ?)",
                        (session_id, suite, _json(settings)))

    def set_toolchains(self, session_id: int, toolchains: dict) -> None:
        self.db.execute("UPDATE sessions SET toolchains = ? WHERE id = ?", (_json(toolchains), session_id))

    def save_cell(self, session_id: int, cell) -> None:
        """Insert or update one cell (an iorace.cells.Cell)."""
        row = dict(
            session_id=session_id, suite=cell.suite.name, title=cell.suite.manifest.title,
            metric=cell.suite.manifest.metric, dataset=cell.dataset.name, dataset_sha256=cell.dataset.sha256,
            input_path=str(cell.dataset.path or ""), params=_json(cell.params), variant=cell.variant.name,
            language=cell.variant.language, kind=cell.variant.kind, description=cell.variant.description,
            toolchain=cell.toolchain.name, toolchain_version=cell.toolchain_version, profile=cell.profile,
            build_key=cell.build_key, command=_json(cell.argv), status=cell.status, detail=cell.detail,
            answer=None if cell.answer is None else _json(cell.answer),
            expected=None if cell.expected is None else _json(cell.expected),
            units=_json(cell.units), known_wrong=int(cell.known_wrong), instructions=cell.instructions,
            instructions_note=cell.instructions_note, extra=_json(cell.extra))
        if cell.db_id is None:
            cols = ", ".join(row)
            cur = self.db.execute(f"INSERT INTO cells ({cols}) VALUES ({', '.join('?' * len(row))})", tuple(row.values()))
            cell.db_id = cur.lastrowid
        else:
            sets = ", ".join(f"{k} = ?" for k in row)
            self.db.execute(f"UPDATE cells SET {sets} WHERE id = ?", (*row.values(), cell.db_id))
        self._save_counters(cell)

    def _save_counters(self, cell) -> None:
        names = {**dict.fromkeys(getattr(cell, "counter_notes", {})), **dict.fromkeys(getattr(cell, "counters", {}))}
        self.db.executemany(
            "INSERT OR REPLACE INTO counters (cell_id, name, value, note) VALUES (?, ?, ?, ?)",
            [(cell.db_id, n, cell.counters.get(n), cell.counter_notes.get(n, "")) for n in names])

    def _load_counters(self, cell: CellData) -> None:
        for name, value, note in self.db.execute("SELECT name, value, note FROM counters WHERE cell_id = ?"
                                                 " ORDER BY rowid", (cell.id,)):
            if value is not None:
                cell.counters[name] = value
            if note:
                cell.counter_notes[name] = note

    def add_run(self, cell, phase: str, round_no: int, run) -> None:
        self.db.execute(
            "INSERT INTO runs (cell_id, phase, round, wall_ns, user_ns, sys_ns, max_rss_kb, minflt, majflt, nvcsw,"
            " nivcsw, inner_ns, exit_code) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (cell.db_id, phase, round_no, run.wall_ns, run.user_ns, run.sys_ns, run.max_rss_kb, run.minflt,
             run.majflt, run.nvcsw, run.nivcsw, run.inner_ns, run.exit_code))

    def commit(self) -> None:
        self.db.commit()

    def finish_session(self, session_id: int, finished: str, status: str) -> None:
        self.db.execute("UPDATE sessions SET finished = ?, status = ? WHERE id = ?", (finished, status, session_id))
        self.db.commit()

    def session_ids(self) -> list[int]:
        return [r[0] for r in self.db.execute("SELECT id FROM sessions ORDER BY id")]

    def load(self, session_id: int | None = None) -> SessionData:
        """One session with its cells and runs; the latest when no id is given."""
        if session_id is None:
            row = self.db.execute("SELECT id FROM sessions ORDER BY id DESC LIMIT 1").fetchone()
            if row is None:
                raise UsageError(f"{self.path}: no session stored yet (run `iorace run` first)")
            session_id = row["id"]
        s = self.db.execute("SELECT * FROM sessions WHERE id = ?", (session_id,)).fetchone()
        if s is None:
            have = ", ".join(map(str, self.session_ids())) or "none"
            raise UsageError(f"{self.path}: no session {session_id} (have: {have})")
        cells = []
        for c in self.db.execute("SELECT * FROM cells WHERE session_id = ? ORDER BY id", (session_id,)):
            cell = CellData(**_decode(c, CellData))
            cell.known_wrong = bool(cell.known_wrong)
            cell.extra = cell.extra or {}
            cell.runs = [RunData(**_decode(r, RunData))
                         for r in self.db.execute("SELECT * FROM runs WHERE cell_id = ? ORDER BY id", (cell.id,))]
            self._load_counters(cell)
            cells.append(cell)
        suites = {r["suite"]: json.loads(r["settings"]) for r in
                  self.db.execute("SELECT suite, settings FROM session_suites WHERE session_id = ?", (session_id,))}
        return SessionData(**_decode(s, SessionData), cells=cells, suites=suites)
