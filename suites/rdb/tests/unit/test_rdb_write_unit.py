"""rdb's dataset writer (python/rdb_write.py) beside the suite protocol (suite.py): it is part of the data cache
key of rdb and of readexact (whose datasets it writes too), and the suite's TARGET sizes what it grows."""

from __future__ import annotations

import shutil

from suite_code import suite_module

from conftest import REPO
from iorace.manifest.suites import load_suite


def test_the_writer_is_in_the_data_cache_key_of_both_suites_that_use_it(tmp_path):
    for name in ("rdb", "readexact"):
        shutil.copytree(REPO / "suites" / name, tmp_path / name, ignore=shutil.ignore_patterns("target", "__pycache__", "tests"))
    rdb, readexact = load_suite(tmp_path / "rdb"), load_suite(tmp_path / "readexact")
    keys = rdb.module_hash(), readexact.module_hash()
    writer = tmp_path / "rdb" / "python" / "rdb_write.py"
    writer.write_text(writer.read_text() + "# edited\n")
    # a session hashes a suite once (Suite.module_hash): the next session's load sees the edit
    rdb, readexact = load_suite(tmp_path / "rdb"), load_suite(tmp_path / "readexact")
    assert rdb.module_hash() != keys[0] and readexact.module_hash() != keys[1]


def test_generate_grows_quick_and_seed_to_the_suites_target(tmp_path, monkeypatch):
    """readexact's seed-size is rdb's seed cut at another TARGET, set in its own copy of suite.py."""
    rdb = suite_module("rdb")
    monkeypatch.setattr(rdb, "TARGET", {"quick": 300_000, "seed": 50_000})
    for name, size in (("quick", 300_000), ("seed", 50_000)):
        rdb.generate(name, tmp_path / name)
        assert size <= (tmp_path / name).stat().st_size < size + 100_000, name
    rdb.generate("tiny", tmp_path / "tiny")  # a fixed dataset: no size
    assert rdb.expected(tmp_path / "tiny", {})["keys"] > 0
