"""Every session, cell and run in a database; reports and exports are read back from here.

Reading back what was stored (rather than reporting from memory) means `iorace
run` and a later `iorace show` print the same thing, and an interrupted session
still has everything that was committed.

Each table is declared once, as the record class it holds (iorace/records.py): its columns are the
class's `column` fields, so CREATE TABLE, INSERT, reading a row back by column name and the columns an
older database lacks all follow from the class. Every SQL statement of iorace is in this module and
records.py (what differs between SQLite and PostgreSQL: iorace/dialect.py): the commands that look sessions
up (compare, history) call the methods here.

The database is a SQLite file (the default) or a PostgreSQL server (`--db postgresql://...`), one schema
for both. A session is measured into SQLite, on the machine that measures (no network between rounds);
`iorace push` copies it to a shared store later (Store.push), in one transaction there, its rows numbered
anew: a session is known everywhere by its uuid, so a session pushed twice is there once.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import sqlite3
import uuid as uuidlib
from pathlib import Path
from typing import Any

from iorace.core import machine
from iorace.core.errors import UsageError
from iorace.core.host import Host, host_of
from iorace.core.ids import CellId, cell_label
from iorace.store import dialect
from iorace.store.records import ROWID, SchemaError, SqlTable, column, json_column, json_names, record, transient
from iorace.store.run import Run


@record
class CellData:
    id: int = column(ROWID)
    suite: str = column("TEXT NOT NULL")
    title: str = column("TEXT NOT NULL")
    metric: str = column("TEXT NOT NULL")
    dataset: str = column("TEXT NOT NULL")
    dataset_sha256: str = column("TEXT NOT NULL")
    input_path: str = column("TEXT NOT NULL")
    params: dict = json_column("TEXT NOT NULL")
    variant: str = column("TEXT NOT NULL")
    language: str = column("TEXT NOT NULL")
    kind: str = column("TEXT NOT NULL")
    description: str = column("TEXT NOT NULL")
    toolchain: str = column("TEXT NOT NULL")
    toolchain_version: str = column("TEXT NOT NULL")
    profile: str = column("TEXT NOT NULL")
    build_key: str = column("TEXT NOT NULL")
    command: list[str] = json_column("TEXT NOT NULL")  # argv of a run, as a user can repeat it
    status: str = column("TEXT NOT NULL")
    detail: str = column("TEXT NOT NULL")
    answer: object = json_column("TEXT")
    expected: object = json_column("TEXT")
    units: dict = json_column("TEXT NOT NULL")  # work per run, e.g. {"bytes": n}
    known_wrong: bool = column("INTEGER NOT NULL DEFAULT 0")
    # Columns declared after the first release are nullable or have a DEFAULT: records.SqlTable adds them to an
    # older database.
    instructions: int | None = column("INTEGER", default=None)  # cachegrind's count of one run (run --instructions)
    instructions_note: str = column("TEXT NOT NULL DEFAULT ''", default="")
    timing_note: str = column("TEXT NOT NULL DEFAULT ''", default="")  # why timing stopped early (race, precision)
    extra: dict = json_column("TEXT NOT NULL DEFAULT '{}'", default_factory=dict)  # figures reported beside the answer
    sizing_note: str = column("TEXT NOT NULL DEFAULT ''", default="")  # how --target-ms sized its work per run
    # its code layouts' names (run/layouts.py; a run's `layout` indexes them) and how they were made, or why one
    layout_names: list = json_column("TEXT NOT NULL DEFAULT '[]'", default_factory=list)
    layout_note: str = column("TEXT NOT NULL DEFAULT ''", default="")
    # the CPUs its runs were confined to (a suite's [one_cpu]; []: wherever the kernel put them) and why
    cpus: list = json_column("TEXT NOT NULL DEFAULT '[]'", default_factory=list)
    cpus_note: str = column("TEXT NOT NULL DEFAULT ''", default="")
    # cachegrind's cache simulation of the same run (run --instructions): L1 hits + 5 x LL hits + 35 x RAM hits
    # (iai-callgrind's estimate), exact like the instruction count
    estimated_cycles: int | None = column("INTEGER", default=None)
    runs: list[Run] = transient(default_factory=list)
    counters: dict[str, float] = transient(default_factory=dict)  # counters table: SOURCE:EVENT -> value
    counter_notes: dict[str, str] = transient(default_factory=dict)  # SOURCE:EVENT -> why it has no value

    @property
    def key(self) -> str:
        return f"{self.language}/{self.variant}"

    @property
    def label(self) -> str:
        return cell_label(self.key, self.toolchain, self.profile, self.params)

    def ident(self, scale_params: list[str] | tuple[str, ...] = ()) -> CellId:
        """Its identity across sessions, its scale parameters left out (--target-ms sizes them anew each time)."""
        return CellId.of(self.suite, self.dataset, self.params, self.key, self.toolchain, self.profile, scale_params)

    def measured(self) -> list[Run]:
        return [r for r in self.runs if r.phase == "measure"]

    def json_fields(self) -> dict[str, str]:
        """Field -> NAME of each field of its runs' class declared with json="NAME": the JSON export lists
        its values per run under NAME."""
        return json_names(type(self.runs[0]) if self.runs else Run)


@dataclasses.dataclass(frozen=True)
class SuiteSettings:
    """One suite's settings as stored with a session, typed: its manifest's (manifest.schema's
    analysis_settings) and the session level the measure stage fitted (analyse/session_spread.py's
    as_setting). What the analysis reads of a suite; SessionData.settings builds it once per suite."""

    baseline_languages: list[str] = dataclasses.field(default_factory=list)
    scale_params: list[str] = dataclasses.field(default_factory=list)  # parameters that only scale the work (passes)
    throughput: str = ""
    same_language_reference: dict | None = None  # {"label": ..., "variants": [...]}
    grids: list[dict] = dataclasses.field(default_factory=list)
    seed_tables: list[dict] = dataclasses.field(default_factory=list)
    seed: dict | None = None  # its [seed] block with its rows
    param_order: dict[str, list] = dataclasses.field(default_factory=dict)  # parameter -> its values in the manifest's order
    session_sd: float = 0.0  # the session level: sd of a log ratio from session to session
    session_sd_per_round: float = 0.0  # ... relative to each ratio's own noise

    @classmethod
    def of(cls, raw: dict) -> SuiteSettings:
        """From the stored JSON object (a setting not stored, or null: its default)."""
        return cls(
            baseline_languages=raw.get("baseline_languages") or [],
            scale_params=raw.get("scale_params") or [],
            throughput=raw.get("throughput") or "",
            same_language_reference=raw.get("same_language_reference"),
            grids=raw.get("grids") or [],
            seed_tables=raw.get("seed_tables") or [],
            seed=raw.get("seed"),
            param_order=raw.get("param_order") or {},
            session_sd=float(raw.get("session_sd") or 0.0),
            session_sd_per_round=float(raw.get("session_sd_per_round") or 0.0),
        )


SUITE_SETTINGS = tuple(f.name for f in dataclasses.fields(SuiteSettings))


@record
class SessionData:
    id: int = column(ROWID)
    started: str = column("TEXT NOT NULL")
    finished: str | None = column("TEXT")
    status: str = column("TEXT NOT NULL")  # running | done | interrupted
    command_line: str = column("TEXT NOT NULL")
    options: dict = json_column("TEXT NOT NULL")  # size, runs, warmup, sink, ...
    machine: dict = json_column("TEXT NOT NULL")  # from iorace.core.machine
    toolchains: dict = json_column("TEXT NOT NULL")  # name -> version line
    git_revision: str = column("TEXT NOT NULL")
    iorace_version: str = column("TEXT NOT NULL")
    cells: list[CellData] = transient()
    suites: dict[str, dict] = transient(default_factory=dict)  # suite -> its manifest settings (SuiteSettings)
    # The session's name in every store it is copied to (push); an older database's sessions get one on opening.
    uuid: str = column("TEXT", default_factory=lambda: str(uuidlib.uuid4()))
    # Which machine measured it: the name it was given (run --machine) and machine.fingerprint of its facts;
    # an older database's sessions get their host's name and the fingerprint of their stored facts on opening.
    machine_name: str = column("TEXT", default="")
    machine_fingerprint: str = column("TEXT", default="")
    # What it ran on besides the hardware (machine.context: kernel, mitigations, data filesystem, toolchains),
    # kept apart from what does not break a history (load, clock), and its hash (machine.context_fingerprint).
    machine_context: dict = json_column("TEXT NOT NULL DEFAULT '{}'", default_factory=dict)
    context_fingerprint: str = column("TEXT", default="")
    # Each suite's typed settings, built from `suites` on first asking (settings); a copy (dataclasses.replace) starts anew.
    _settings: dict[str, SuiteSettings] = dataclasses.field(init=False, default_factory=dict, repr=False, compare=False)

    @property
    def machine_label(self) -> str:
        """Which machine measured it, as reports name it: 'NAME, HOST (FINGERPRINT)' (HOST: core/host.py's label,
        since hosts of one name differ), '' when unknown."""
        fingerprint = f"({self.machine_fingerprint})" if self.machine_fingerprint else ""
        host = self.host.label if self.machine.get("cpu_model") else ""
        return " ".join(p for p in (", ".join(p for p in (self.machine_name, host) if p), fingerprint) if p)

    @property
    def host(self) -> Host:
        """The host it ran on (core/host.py): answers of sessions on different hosts are kept apart."""
        return host_of(self.machine, self.machine_name)

    def settings(self, suite: str) -> SuiteSettings:
        """One suite's settings as stored with the session (older databases kept them in options, per setting
        by suite), built once."""
        if suite not in self._settings:
            if suite in self.suites:
                raw = self.suites[suite]
            else:
                raw = {name: v[suite] for name in SUITE_SETTINGS if isinstance(v := self.options.get(name), dict) and suite in v}
            self._settings[suite] = SuiteSettings.of(raw)
        return self._settings[suite]

    def suite_setting(self, suite: str, name: str, default: Any = None) -> Any:
        """One stored setting by name, as stored (what the experiments frozen in docs/results read; the harness
        reads the typed settings)."""
        if suite in self.suites:
            return self.suites[suite].get(name, default)
        return self.options.get(name, {}).get(suite, default)


@record
class SuiteRow:
    """One suite's manifest settings that the analysis needs (baseline languages, ...), per session."""

    suite: str = column("TEXT NOT NULL")
    settings: dict = json_column("TEXT NOT NULL")


@record
class CounterRow:
    """One counter of a cell's extra run (run --counters, --instructions)."""

    name: str = column("TEXT NOT NULL")  # SOURCE:EVENT, e.g. perf:cycles, cachegrind:branches
    value: float | None = column("REAL")  # NULL: not available, see note
    note: str = column("TEXT NOT NULL DEFAULT ''", default="")  # why there is no value


def _in(table: str) -> str:
    return f"INTEGER NOT NULL REFERENCES {table}(id)"


SESSIONS = SqlTable("sessions", SessionData, key=("uuid",))
CELLS = SqlTable(
    "cells",
    CellData,
    links={"session_id": _in("sessions")},
    indexes={"cells_by_session": "session_id", "cells_by_suite": "suite, session_id"},
)
SUITES = SqlTable("session_suites", SuiteRow, links={"session_id": _in("sessions")}, key=("session_id", "suite"))
COUNTERS = SqlTable("counters", CounterRow, links={"cell_id": _in("cells")}, key=("cell_id", "name"))


def runs_table(run_type: type[Run]) -> SqlTable[Run]:
    return SqlTable("runs", run_type, links={"id": ROWID, "cell_id": _in("cells")}, indexes={"runs_by_cell": "cell_id"})


class StillRunning(UsageError):
    """A session that is not finished (push copies finished ones only)."""


@dataclasses.dataclass
class Pushed:
    session: SessionData  # as it was copied
    there: int  # its id in the store it was pushed to
    copied: bool  # False: it was there already (the same uuid), and was left as it is


class Store:
    def __init__(self, location: Path | str, run_type: type[Run] = Run):
        """location: a SQLite file or a postgresql:// URL. run_type: the class of the runs stored and loaded
        (its columns are the runs table's): runner.Run, or in a test a subclass of it with one more declared
        field."""
        self.runs = runs_table(run_type)
        self.db = dialect.connect(location)
        self.where = self.db.where
        try:
            self.db.lock_schema()
            for table in (SESSIONS, CELLS, SUITES, self.runs, COUNTERS):  # an older database gets the columns it lacks
                table.create(self.db)
            for row in self.db.execute("SELECT id FROM sessions WHERE uuid IS NULL").fetchall():  # made before push
                SESSIONS.set(self.db, row["id"], {"uuid": str(uuidlib.uuid4())})
            for row in self.db.execute("SELECT id, machine FROM sessions WHERE machine_fingerprint IS NULL").fetchall():
                facts = json.loads(row["machine"])  # made before machine names: the host's name, its facts' fingerprint
                name = {"machine_name": facts.get("hostname") or ""}
                SESSIONS.set(self.db, row["id"], {**name, "machine_fingerprint": machine.fingerprint(facts)})
            for row in self.db.execute("SELECT id, machine, toolchains FROM sessions WHERE context_fingerprint IS NULL").fetchall():
                ctx = machine.context(json.loads(row["machine"]), json.loads(row["toolchains"]))  # made before contexts
                SESSIONS.set(self.db, row["id"], {"machine_context": ctx, "context_fingerprint": machine.context_fingerprint(ctx)})
            self.db.commit()
        except (OSError, sqlite3.Error, SchemaError) as e:
            raise UsageError(f"--db {self.where}: cannot open the database: {e}") from None

    def close(self) -> None:
        self.db.close()

    def begin_session(
        self,
        started: str,
        command_line: str,
        options: dict,
        facts: dict,
        toolchains: dict,
        git_revision: str,
        version: str,
        machine_name: str = "",
    ) -> int:
        """A new session, running; facts: machine.info(), whose fingerprint is stored beside machine_name."""
        session = SessionData(
            id=0,
            started=started,
            finished=None,
            status="running",
            command_line=command_line,
            options=options,
            machine=facts,
            toolchains=toolchains,
            git_revision=git_revision,
            iorace_version=version,
            cells=[],
            machine_name=machine_name,
            machine_fingerprint=machine.fingerprint(facts),
            machine_context=(ctx := machine.context(facts, toolchains)),
            context_fingerprint=machine.context_fingerprint(ctx),
        )
        session_id = SESSIONS.insert(self.db, session)
        self.db.commit()
        return session_id

    def save_suite_settings(self, session_id: int, suite: str, settings: dict) -> None:
        SUITES.insert(self.db, SuiteRow(suite, settings), replace=True, session_id=session_id)

    def set_toolchains(self, session_id: int, toolchains: dict) -> None:
        """The toolchains' versions, in the session's facts and its context alike."""
        row = self.db.execute("SELECT machine_context FROM sessions WHERE id = ?", (session_id,)).fetchone()
        ctx = {**json.loads(row["machine_context"] or "{}"), "toolchains": toolchains}
        SESSIONS.set(self.db, session_id, {"toolchains": toolchains, "machine_context": ctx})

    def save_cell(self, session_id: int, cell: CellData) -> int:
        """Insert one cell (id 0) or update it (its id) with its counters; returns its id. The pipeline makes
        the record from its live cell (iorace.run.recording: the one mapping)."""
        if not cell.id:
            cell.id = CELLS.insert(self.db, cell, session_id=session_id)
        else:
            CELLS.update(self.db, cell, session_id=session_id)
        self._save_counters(cell.id, cell.counters, cell.counter_notes)
        return cell.id

    def _save_counters(self, cell_id: int, counters: dict[str, float], notes: dict[str, str]) -> None:
        for name in {**dict.fromkeys(notes), **dict.fromkeys(counters)}:
            COUNTERS.insert(self.db, CounterRow(name, counters.get(name), notes.get(name, "")), replace=True, cell_id=cell_id)

    def _load_counters(self, cell: CellData) -> None:
        for counter in COUNTERS.select(self.db, cell_id=cell.id, order_by="name"):
            if counter.value is not None:
                cell.counters[counter.name] = counter.value
            if counter.note:
                cell.counter_notes[counter.name] = counter.note

    def add_run(self, cell_id: int, phase: str, round_no: int, run: Run) -> None:
        self.runs.insert(self.db, dataclasses.replace(run, phase=phase, round=round_no), cell_id=cell_id)

    def add_session(self, session: SessionData) -> int:
        """Store a whole session (its suites' settings, cells, runs, counters) as a new one, numbered by this
        database (a session built elsewhere: the tests' hand-built ones); returns its id."""
        session_id, _ = self._add(session, skip_existing=False)
        return session_id

    def push(self, session_id: int, to: Store) -> Pushed:
        """Copy one stored session into another store (a shared one), in one transaction there: all of it or,
        should anything fail on the way (the server goes away), nothing. A session already there (the same
        uuid, pushed before or by a concurrent push) is left as it is."""
        session = self.load(session_id)
        if session.status == "running":
            raise StillRunning(
                f"session {session_id} of {self.where} is still running (or the process measuring it died): "
                "a session is pushed once it is finished"
            )
        there, copied = to._add(session, skip_existing=True)
        return Pushed(session, there, copied)

    def _add(self, session: SessionData, *, skip_existing: bool) -> tuple[int, bool]:
        try:
            if skip_existing:
                new_id = SESSIONS.insert_new(self.db, session)
                if new_id is None:  # there already: leave it, and say where
                    self.db.rollback()
                    return self.session_with_uuid(session.uuid), False
                session_id = new_id
            else:
                session_id = SESSIONS.insert(self.db, session)
            for suite, settings in session.suites.items():
                SUITES.insert(self.db, SuiteRow(suite, settings), session_id=session_id)
            for cell in session.cells:
                cell_id = CELLS.insert(self.db, cell, session_id=session_id)
                self.runs.insert_many(self.db, cell.runs, cell_id=cell_id)
                self._save_counters(cell_id, cell.counters, cell.counter_notes)
            self.db.commit()
        except BaseException:
            with contextlib.suppress(Exception):  # a server that went away cannot roll back: it has, by itself
                self.db.rollback()
            raise
        return session_id, True

    def session_with_uuid(self, uuid: str) -> int:
        row = self.db.execute("SELECT id FROM sessions WHERE uuid = ?", (uuid,)).fetchone()
        if row is None:
            raise UsageError(f"{self.where}: no session {uuid}")
        return int(row["id"])

    def commit(self) -> None:
        self.db.commit()

    def finish_session(self, session_id: int, finished: str, status: str) -> None:
        SESSIONS.set(self.db, session_id, {"finished": finished, "status": status})
        self.db.commit()

    def session_ids(self) -> list[int]:
        return [r["id"] for r in self.db.execute("SELECT id FROM sessions ORDER BY id")]

    def revisions(self) -> list[tuple[int, str]]:
        """(id, git revision) of every session, the latest first."""
        return [(r["id"], r["git_revision"]) for r in self.db.execute("SELECT id, git_revision FROM sessions ORDER BY id DESC")]

    def suites_of_session(self, session_id: int) -> set[str]:
        return {r["suite"] for r in self.db.execute("SELECT DISTINCT suite FROM cells WHERE session_id = ?", (session_id,))}

    def sessions_with_suite(self, suite: str) -> list[int]:
        """The ids of the sessions that have a cell of this suite, the oldest first."""
        rows = self.db.execute("SELECT DISTINCT session_id FROM cells WHERE suite = ? ORDER BY session_id", (suite,))
        return [r["session_id"] for r in rows]

    def suites(self) -> list[str]:
        """Every suite of a stored cell, sorted."""
        return sorted({r["suite"] for r in self.db.execute("SELECT DISTINCT suite FROM cells")})

    def machines(self) -> list[dict]:
        """Each machine the store has seen, by name and fingerprint (oldest first): its sessions' count, first
        and last start, and the facts (CPU model, cores, ...) of its latest session."""
        rows = self.db.execute(
            "SELECT machine_name, machine_fingerprint, COUNT(*) AS sessions, MIN(started) AS first_started, MAX(started) AS last_started,"
            " MAX(id) AS latest FROM sessions GROUP BY machine_name, machine_fingerprint ORDER BY MIN(started), machine_name"
        ).fetchall()
        out = [dict(r) for r in rows]
        for m in out:
            found = self.db.execute("SELECT machine FROM sessions WHERE id = ?", (m["latest"],)).fetchone()
            m["facts"] = json.loads(found["machine"]) if found else {}
        return out

    def machine_names(self) -> dict[int, str]:
        """Each session's machine name, by session id."""
        return {int(r["id"]): r["machine_name"] or "" for r in self.db.execute("SELECT id, machine_name FROM sessions")}

    def hosts(self) -> dict[int, Host]:
        """Each session's host (core/host.py), by session id: what the planner and the session level match on."""
        rows = self.db.execute("SELECT id, machine, machine_name FROM sessions")
        return {int(r["id"]): host_of(json.loads(r["machine"] or "{}"), r["machine_name"] or "") for r in rows}

    def latest_by_machine(self, suite: str) -> list[int]:
        """The id of the latest finished session (by its start: a shared store gets them in the order they
        are pushed) of each machine that has a cell of this suite, by machine name: each host of a name its
        own (core/host.py: one name, `vm`, is served by hosts whose ratios differ)."""
        rows = self.db.execute(
            "SELECT s.machine_name, s.machine, s.id, s.started FROM sessions s WHERE s.status <> 'running'"
            " AND EXISTS (SELECT 1 FROM cells c WHERE c.session_id = s.id AND c.suite = ?)",
            (suite,),
        ).fetchall()
        latest: dict[tuple[str, str], tuple[str, int]] = {}
        for r in rows:
            key = (r["machine_name"] or "", host_of(json.loads(r["machine"] or "{}")).label)
            latest[key] = max(latest.get(key, ("", 0)), (r["started"], int(r["id"])))
        return [latest[key][1] for key in sorted(latest)]

    def latest(self) -> int:
        """The id of the latest session."""
        row = self.db.execute("SELECT id FROM sessions ORDER BY id DESC LIMIT 1").fetchone()
        if row is None:
            raise UsageError(f"{self.where}: no session stored yet (run `iorace run` first)")
        return int(row["id"])

    def load(self, session_id: int | None = None) -> SessionData:
        """One session with its cells and runs; the latest when no id is given."""
        if session_id is None:
            session_id = self.latest()
        found = SESSIONS.rows(self.db, id=session_id)
        if not found:
            have = ", ".join(map(str, self.session_ids())) or "none"
            raise UsageError(f"{self.where}: no session {session_id} (have: {have})")
        cells = CELLS.select(self.db, session_id=session_id, order_by="id")
        for cell in cells:
            cell.extra = cell.extra or {}
            cell.runs = self.runs.select(self.db, cell_id=cell.id, order_by="id")
            self._load_counters(cell)
        suites = {s.suite: s.settings for s in SUITES.select(self.db, session_id=session_id)}
        return SESSIONS.from_row(found[0], cells=cells, suites=suites)


def open_existing(db: Path | str, what: str = "") -> Store:
    """The store of a command that reads sessions: a SQLite file must exist (a server is asked)."""
    if not dialect.is_url(db) and not Path(db).exists():
        raise UsageError(f"{what}{db}: no database yet (run `iorace run` first, or pass --db)")
    return Store(db)
