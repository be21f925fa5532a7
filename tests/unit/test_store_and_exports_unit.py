"""The store keeps a session exactly (read back by column name), and every exporter renders a hand-built
session as expected (hyperfine's export tests do the same). The store's tests take the database from the
`store_db` fixture: a SQLite file here, a real PostgreSQL server in tests/test_pgstore.py."""

import csv
import dataclasses
import json
import sqlite3
import uuid

import pytest
from sessions import toy_session

from iorace.core import machine
from iorace.export import EXPORTERS
from iorace.export.json_export import document
from iorace.export.tsv import HEADER, rows
from iorace.report.document import build
from iorace.run.recording import SessionRecorder
from iorace.store.db import Store


class FakeCell:
    """What the pipeline's one mapping (iorace.run.recording.cell_record) reads from an iorace.manifest.cells.Cell,
    made from a stored CellData: saving it and reading it back must give the CellData again."""

    def __init__(self, c, db_id=None):
        from types import SimpleNamespace as NS

        self.suite = NS(name=c.suite, manifest=NS(title=c.title, metric=c.metric))
        self.dataset = NS(name=c.dataset, sha256=c.dataset_sha256, path=c.input_path)
        self.variant = NS(name=c.variant, language=c.language, kind=c.kind, description=c.description)
        self.toolchain = NS(name=c.toolchain)
        for k in (
            "params",
            "toolchain_version",
            "profile",
            "build_key",
            "status",
            "detail",
            "answer",
            "expected",
            "units",
            "known_wrong",
            "instructions",
            "instructions_note",
            "estimated_cycles",
            "extra",
            "timing_note",
            "sizing_note",
            "cpus",
            "cpus_note",
        ):
            setattr(self, k, getattr(c, k))
        self.argv = c.command
        self.metric = c.metric
        self.layouts = NS(names=tuple(c.layout_names), note=c.layout_note)
        self.counters, self.counter_notes = dict(c.counters), dict(c.counter_notes)
        self.db_id = db_id


@pytest.fixture
def store_db(tmp_path):
    """Where a store test keeps its sessions (tests/test_pgstore.py: a fresh PostgreSQL database)."""
    return tmp_path / "s.sqlite"


def test_round_trip(store_db):
    original = toy_session()
    store = Store(store_db)
    sid = store.begin_session(
        original.started,
        original.command_line,
        original.options,
        original.machine,
        original.toolchains,
        original.git_revision,
        original.iorace_version,
    )
    store.save_suite_settings(sid, "toy", original.suites["toy"])
    recorder = SessionRecorder(store, sid)
    for c in original.cells:
        fake = FakeCell(c)
        recorder.save(fake)  # what a live cell has, no more
        for r in c.runs:
            recorder.add_run(fake, r.phase, r.round, r)
    store.finish_session(sid, original.finished, "done")
    back = Store(store_db).load(sid)
    assert back.suites == original.suites
    assert (back.command_line, back.options, back.machine, back.toolchains) == (
        original.command_line,
        original.options,
        original.machine,
        original.toolchains,
    )
    for a, b in zip(back.cells, original.cells, strict=True):
        assert (a.label, a.status, a.answer, a.params, a.units, a.extra, a.instructions, a.command) == (
            b.label,
            b.status,
            b.answer,
            b.params,
            b.units,
            b.extra,
            b.instructions,
            b.command,
        )
        assert a.runs == b.runs


def test_a_whole_session_is_stored_and_loaded_as_it_was(store_db):
    """Store.add_session (tests' hand-built sessions) writes every stored field through the same tables."""
    original = toy_session()
    original.cells[0].counters = {"perf:cycles": 5.0, "perf:task-clock": 10.5}
    original.cells[0].counter_notes = {"perf:instructions": "no hardware counters here"}
    original.cells[1].runs[0].wall_ns = 3_000_000_000  # a 3 s run: more than a 32-bit integer holds
    original.cells[1].runs[0].env_pad = 4095
    store = Store(store_db)
    sid = store.add_session(original)
    assert Store(store_db).load(sid) == dataclasses.replace(original, id=sid)


def test_a_cell_and_its_counters_are_updated_in_place(store_db):
    """save_cell writes a cell again as a session goes on (status, counters): the row is replaced, not added."""
    original = toy_session()
    store = Store(store_db)
    sid = store.begin_session("t", "iorace run toy", {}, {}, {}, "abc", "0.1")
    fake, recorder = FakeCell(original.cells[0]), SessionRecorder(store, sid)
    recorder.save(fake)
    fake.status, fake.detail, fake.known_wrong = "wrong", "answered 1001", True
    fake.counters, fake.counter_notes = {"perf:cycles": 1.0}, {"perf:instructions": "not here"}
    recorder.save(fake)
    fake.counters = {"perf:cycles": 2.0, "perf:instructions": 3.0}
    recorder.save(fake)
    store.commit()
    (cell,) = Store(store_db).load(sid).cells
    assert (cell.id, cell.status, cell.detail, cell.known_wrong) == (fake.db_id, "wrong", "answered 1001", True)
    assert (cell.counters, cell.counter_notes) == ({"perf:cycles": 2.0, "perf:instructions": 3.0}, {"perf:instructions": "not here"})


# The schema of the first release (iorace/store.py before run --instructions, c2f94bf^): no instructions,
# instructions_note or extra column, no session_suites or counters table.
OLD_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL,
    finished TEXT,
    status TEXT NOT NULL,            -- running | done | interrupted
    command_line TEXT NOT NULL,
    options TEXT NOT NULL,           -- JSON: size, runs, warmup, sink, ...
    machine TEXT NOT NULL,           -- JSON from iorace.core.machine
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
    known_wrong INTEGER NOT NULL DEFAULT 0
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
CREATE INDEX IF NOT EXISTS cells_by_session ON cells(session_id);
"""


OLD_FACTS = {"hostname": "old-box", "cpu_model": "Old CPU", "cores": 4, "memory_gb": 15.6, "kernel": "5.10"}


def test_a_database_of_the_first_schema_gets_the_columns_it_lacks_and_its_sessions_load(tmp_path):
    path = tmp_path / "old.sqlite"
    old = sqlite3.connect(path)
    old.executescript(OLD_SCHEMA)
    old.execute(
        "INSERT INTO sessions VALUES (1, 't0', 't1', 'done', 'iorace run toy', ?, ?, ?, 'abc', '0.1')",
        ('{"baseline_languages": {"toy": ["c"]}}', json.dumps(OLD_FACTS), '{"gcc": "gcc 12"}'),
    )
    old.execute(
        "INSERT INTO cells VALUES (1, 1, 'toy', 'A toy job', 'inner', 'tiny', 'ab', '/d', '{\"mode\": \"count\"}',"
        " 'fast', 'c', 'variant', 'd', 'gcc', 'gcc 12', 'release', 'k', '[\"prog\"]', 'ok', '', '5', '5',"
        " '{\"bytes\": 10}', 0)"
    )
    old.executemany("INSERT INTO runs VALUES (?, 1, 'measure', ?, 100, 90, 1, 2048, 10, 0, 1, 2, 50, 0)", [(1, 0), (2, 1)])
    old.commit()
    old.close()
    store = Store(path)
    have = {r[1] for r in sqlite3.connect(path).execute("PRAGMA table_info(cells)")}
    assert {"instructions", "instructions_note", "extra", "timing_note"} <= have
    s = store.load(1)
    (c,) = s.cells
    assert (c.label, c.params, c.command, c.answer, c.units, c.known_wrong) == (
        "c/fast@gcc:release[mode=count]",
        {"mode": "count"},
        ["prog"],
        5,
        {"bytes": 10},
        False,
    )
    assert (c.instructions, c.instructions_note, c.extra, c.counters) == (None, "", {}, {})
    assert [(r.round, r.wall_ns, r.inner_ns) for r in c.measured()] == [(0, 100, 50), (1, 100, 50)]
    assert s.settings("toy").baseline_languages == ["c"] and s.toolchains == {"gcc": "gcc 12"}
    # its session got a uuid (push knows a session by it), once, and its machine's name and fingerprint
    assert str(uuid.UUID(s.uuid)) == s.uuid and Store(path).load(1).uuid == s.uuid
    assert (s.machine_name, s.machine_fingerprint) == ("old-box", machine.fingerprint(OLD_FACTS)) and s.machine_fingerprint
    # and the database takes new sessions, with the tables it did not have
    sid = store.begin_session("t2", "iorace run", {}, {}, {}, "def", "0.2")
    store.save_suite_settings(sid, "toy", {"baseline_languages": ["cpp"]})
    store.commit()
    assert Store(path).load(sid).settings("toy").baseline_languages == ["cpp"]
    assert Store(path).load(sid).uuid not in {s.uuid, None}


def test_unknown_session_is_a_usage_error(store_db):
    from iorace.core.errors import UsageError

    store = Store(store_db)
    with pytest.raises(UsageError, match="no session stored yet"):
        store.load()
    with pytest.raises(UsageError, match="no session 3"):
        store.load(3)


def test_an_unopenable_database_is_a_usage_error(tmp_path):
    from iorace.core.errors import UsageError

    (tmp_path / "dir.sqlite").mkdir()
    with pytest.raises(UsageError, match="cannot open the database"):
        Store(tmp_path / "dir.sqlite")


def test_json_export_is_hyperfine_shaped_with_iorace_fields():
    doc = document(build(toy_session()))
    slow = next(r for r in doc["results"] if r.get("variant") == "slow")
    assert slow["command"] == "/cache/slow/prog /data/tiny count"
    assert slow["times"] == pytest.approx([0.031, 0.032, 0.031, 0.030, 0.031])
    assert slow["median"] == pytest.approx(0.031) and slow["min"] == pytest.approx(0.030)
    assert slow["inner_median"] == pytest.approx(0.030)
    assert slow["ratio"] == pytest.approx(2.9427, abs=1e-4) and slow["ratio_to_limit"] == pytest.approx(15.0)
    assert slow["memory_usage_byte"] == [2048 * 1024] * 5 and slow["exit_codes"] == [0] * 5
    assert doc["iorace"]["session"] == 7 and doc["iorace"]["git_revision"] == "abc123"
    json.dumps(doc)  # serialisable as it is


def test_tsv_export_is_one_row_per_timed_run():
    got = list(rows(toy_session()))
    assert len(got) == 4 * 5  # the wrong cell was never timed
    assert got[0] == ["c/fast@gcc:release[mode=count]", "0.0110", "0.0099", "0.0000", "90%", "2048", "", ""]  # one layout, not flagged
    assert HEADER == ["test", "elapsed", "user", "system", "cpu_pct", "mem", "layout", "placement"]  # the seed's six first


def test_every_registered_exporter_writes_a_file(tmp_path):
    for e in EXPORTERS:
        path = tmp_path / f"out.{e.name}"
        e.write(build(toy_session()), path)
        assert path.stat().st_size > 100, e.name
    tsv = list(csv.reader((tmp_path / "out.tsv").read_text().splitlines(), delimiter="\t"))
    assert tsv[0] == HEADER and len(tsv) == 21


def test_an_export_named_gz_is_the_same_text_gzipped(iorace_inprocess, tmp_path):
    """--export-json X.json.gz (any --export-NAME FILE.gz) writes gzip, the same bytes as X.json once gunzipped,
    and the same bytes every time (no name, no time in its header): studies commit exports small."""
    import gzip

    from sessions import save

    from iorace.export import write_export

    report = build(toy_session())
    for e in EXPORTERS:
        if e.name in ("json", "tsv", "markdown"):
            e.write(report, tmp_path / f"plain.{e.name}")
            write_export(e, report, tmp_path / f"packed.{e.name}.gz")
            packed = (tmp_path / f"packed.{e.name}.gz").read_bytes()
            assert packed[:2] == b"\x1f\x8b" and gzip.decompress(packed) == (tmp_path / f"plain.{e.name}").read_bytes(), e.name
            write_export(e, report, tmp_path / f"again.{e.name}.gz")
            assert (tmp_path / f"again.{e.name}.gz").read_bytes() == packed, e.name
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(  # no temporary file left behind
        [f"{kind}.{name}{gz}" for name in ("json", "tsv", "markdown") for kind, gz in (("plain", ""), ("packed", ".gz"), ("again", ".gz"))]
    )
    db = tmp_path / "s.sqlite"
    save(db, toy_session())
    out = iorace_inprocess("show", "--db", str(db), "--export-json", str(tmp_path / "s.json.gz"))
    assert out.returncode == 0, out.stderr
    assert json.loads(gzip.decompress((tmp_path / "s.json.gz").read_bytes()))["results"]  # a whole JSON export


def test_old_sessions_without_suite_settings_load(tmp_path):
    store = Store(tmp_path / "s.sqlite")
    sid = store.begin_session("t", "iorace run", {"baseline_languages": {"toy": ["c"]}}, {}, {}, "", "0")
    assert store.load(sid).settings("toy").baseline_languages == ["c"]
    sqlite3.connect(tmp_path / "s.sqlite").close()


def test_show_analyses_a_session_once_whatever_it_exports(iorace_inprocess, tmp_path, monkeypatch):
    """The terminal, Markdown, HTML and JSON all draw one report document: one analysis, not one per format."""
    from sessions import save

    from iorace.report import document

    db = tmp_path / "s.sqlite"
    save(db, toy_session())
    calls = []
    real = document.analyse
    monkeypatch.setattr(document, "analyse", lambda s: calls.append(s.id) or real(s))
    out = iorace_inprocess("show", "--db", str(db), *(a for e in EXPORTERS for a in (e.option, str(tmp_path / e.name))))
    assert out.returncode == 0, out.stderr
    assert all((tmp_path / e.name).stat().st_size > 100 for e in EXPORTERS)
    assert len(calls) == 1
