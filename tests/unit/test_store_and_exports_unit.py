"""The store keeps a session exactly (read back by column name), and every exporter renders a hand-built
session as expected (hyperfine's export tests do the same)."""
import csv
import json
import sqlite3

import pytest
from sessions import toy_session

from iorace.document import build
from iorace.export import EXPORTERS
from iorace.export.json_export import document
from iorace.export.tsv import HEADER, rows
from iorace.store import Store


class FakeCell:
    """What Store.save_cell reads from an iorace.cells.Cell, from a stored CellData."""

    def __init__(self, c, db_id=None):
        from types import SimpleNamespace as NS
        self.suite = NS(name=c.suite, manifest=NS(title=c.title, metric=c.metric))
        self.dataset = NS(name=c.dataset, sha256=c.dataset_sha256, path=c.input_path)
        self.variant = NS(name=c.variant, language=c.language, kind=c.kind, description=c.description)
        self.toolchain = NS(name=c.toolchain)
        for k in ("params", "toolchain_version", "profile", "build_key", "status", "detail", "answer", "expected",
                  "units", "known_wrong", "instructions", "instructions_note", "extra"):
            setattr(self, k, getattr(c, k))
        self.argv = c.command
        self.db_id = db_id


def test_round_trip(tmp_path):
    original = toy_session()
    store = Store(tmp_path / "s.sqlite")
    sid = store.begin_session(original.started, original.command_line, original.options, original.machine,
                              original.toolchains, original.git_revision, original.iorace_version)
    store.save_suite_settings(sid, "toy", original.suites["toy"])
    for c in original.cells:
        fake = FakeCell(c)
        store.save_cell(sid, fake)
        for r in c.runs:
            store.add_run(fake, r.phase, r.round, r)
    store.finish_session(sid, original.finished, "done")
    back = Store(tmp_path / "s.sqlite").load(sid)
    assert back.suites == original.suites
    assert (back.command_line, back.options, back.machine, back.toolchains) == \
        (original.command_line, original.options, original.machine, original.toolchains)
    for a, b in zip(back.cells, original.cells, strict=True):
        assert (a.label, a.status, a.answer, a.params, a.units, a.extra, a.instructions, a.command) == \
            (b.label, b.status, b.answer, b.params, b.units, b.extra, b.instructions, b.command)
        assert a.runs == b.runs


def test_unknown_session_is_a_usage_error(tmp_path):
    from iorace.errors import UsageError
    store = Store(tmp_path / "s.sqlite")
    with pytest.raises(UsageError, match="no session stored yet"):
        store.load()
    with pytest.raises(UsageError, match="no session 3"):
        store.load(3)


def test_an_unopenable_database_is_a_usage_error(tmp_path):
    from iorace.errors import UsageError
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
    assert slow["ratio"] == pytest.approx(3.0) and slow["ratio_to_limit"] == pytest.approx(15.0)
    assert slow["memory_usage_byte"] == [2048 * 1024] * 5 and slow["exit_codes"] == [0] * 5
    assert doc["iorace"]["session"] == 7 and doc["iorace"]["git_revision"] == "abc123"
    json.dumps(doc)  # serialisable as it is


def test_tsv_export_is_one_row_per_timed_run():
    got = list(rows(toy_session()))
    assert len(got) == 4 * 5  # the wrong cell was never timed
    assert got[0] == ["c/fast@gcc:release[mode=count]", "0.0110", "0.0099", "0.0000", "90%", "2048"]
    assert HEADER == ["test", "elapsed", "user", "system", "cpu_pct", "mem"]


def test_every_registered_exporter_writes_a_file(tmp_path):
    for e in EXPORTERS:
        path = tmp_path / f"out.{e.name}"
        e.write(build(toy_session()), path)
        assert path.stat().st_size > 100, e.name
    tsv = list(csv.reader(open(tmp_path / "out.tsv"), delimiter="\t"))
    assert tsv[0] == HEADER and len(tsv) == 21


def test_old_sessions_without_suite_settings_load(tmp_path):
    store = Store(tmp_path / "s.sqlite")
    sid = store.begin_session("t", "iorace run", {"baseline_languages": {"toy": ["c"]}}, {}, {}, "", "0")
    assert store.load(sid).suite_setting("toy", "baseline_languages") == ["c"]
    sqlite3.connect(tmp_path / "s.sqlite").close()


def test_show_analyses_a_session_once_whatever_it_exports(iorace_inprocess, tmp_path, monkeypatch):
    """The terminal, Markdown, HTML and JSON all draw one report document: one analysis, not one per format."""
    from sessions import save

    from iorace import document

    db = tmp_path / "s.sqlite"
    save(db, toy_session())
    calls = []
    real = document.analyse
    monkeypatch.setattr(document, "analyse", lambda s: calls.append(s.id) or real(s))
    out = iorace_inprocess("show", "--db", str(db), *(a for e in EXPORTERS for a in (e.option, str(tmp_path / e.name))))
    assert out.returncode == 0, out.stderr
    assert all((tmp_path / e.name).stat().st_size > 100 for e in EXPORTERS)
    assert len(calls) == 1
