"""The seeds' own configurations ([seed] blocks, `iorace seeds`): every seed row of every manifest maps to one
cell or states why it cannot run, a broken mapping is caught, and the then-and-now table (no builds)."""

import dataclasses
import json
import shutil
from pathlib import Path

import pytest
from sessions import cell, session

from iorace.analyse.analysis import then_and_now
from iorace.core.errors import UsageError
from iorace.core.paths import REPO_SUITES
from iorace.manifest import seeds
from iorace.manifest.suites import find_suite_dirs, load_suite, load_suites
from iorace.report import tables
from iorace.report.document import build

SEEDS = ["readbytes", "lines", "serialize", "readexact", "capnp"]  # in the write-ups' order, 000 to 004


@pytest.mark.parametrize("suite_dir", sorted(find_suite_dirs([]).values()), ids=lambda d: d.name)
def test_every_seed_row_maps_to_one_cell_or_says_why(suite_dir):
    suite = load_suite(suite_dir)
    assert seeds.unmapped(suite) == []
    for row, found in seeds.mapping(suite):
        assert (len(found) == 1) if row.cell else (not found and row.why.strip()), row.label


def test_the_five_seeds_in_their_order():
    chosen = seeds.select(load_suites([], []), [])
    assert [cfg.name for _, cfg in chosen] == SEEDS
    assert [s.name for s, _ in chosen] == ["readbytes", "lines", "serialize", "readexact", "capnp"]
    # each seed's rows: the seed's table, not an empty block (readbytes: 65 rows and 42 as written; capnp: 36 and libgreen)
    counts = {cfg.name: len(s.manifest.seed_rows()) for s, cfg in chosen}
    assert counts == {"readbytes": 107, "lines": 20, "serialize": 18, "readexact": 4, "capnp": 37}


def test_rows_that_cannot_run_say_why():
    chosen = dict((cfg.name, s) for s, cfg in seeds.select(load_suites([], []), []))
    capnp = {r.label: r for r in chosen["capnp"].manifest.seed_rows()}
    assert "libgreen" in capnp["eval pipe Rust on libgreen"].why
    # dmd's rows map to dmd cells; where dmd is missing the run skips them with the toolchain's reason
    dmd = [r for r in chosen["readbytes"].manifest.seed_rows() if "Digital Mars" in r.label]
    assert len(dmd) == 14 and {r.toolchain for r in dmd} == {"dmd"}
    assert "not packaged" in chosen["readbytes"].toolchains["dmd"].install


def test_lines_rows_are_built_as_dcat_builds_and_ours_are_named_departures():
    """dcat's ten tests at dcat's own build (ldc2:dcat-lto-pgo: its dub flags, -boundscheck=off among them),
    then at ours (ldc2:lto-pgo), each of ours with its departure named; the iopipe tests' final newline too,
    and every row with dcat's own instructions per byte beside it."""
    chosen = dict((cfg.name, s) for s, cfg in seeds.select(load_suites([], []), []))
    rows = chosen["lines"].manifest.seed_rows()
    assert [r.profile for r in rows] == ["dcat-lto-pgo"] * 10 + ["lto-pgo"] * 10
    assert rows[0].label == "byLineInRawOut (ldc2:dcat-lto-pgo)" and rows[10].label == "byLineInRawOut (ldc2:lto-pgo)"
    assert all(r.baseline == "byLineInRawOut (ldc2:dcat-lto-pgo)" for r in rows[:10])
    assert all("-boundscheck=off" in r.note for r in rows[10:])
    assert [r.label.split(" ")[0] for r in rows[:10] if r.note] == [
        "iopipeByLineInRawOut",
        "iopipeByLineInBufOut",
        "iopipeByLineInIOOut",
        "iopipeByLineInBufIOOut",
    ]
    assert all("only where the input had one" in r.note for r in rows if r.label.startswith("iopipe"))
    # dcat's own count beside each row, the same for both builds of a test, and where it comes from
    assert all(r.original is not None and r.original > 0 and "dcat-perf c6290e7" in r.original_source for r in rows)
    assert [r.original for r in rows[:10]] == [r.original for r in rows[10:]]
    assert chosen["lines"].manifest.seed_config.folded_below == 0  # the chunk copies' bytes move in the kernel
    profile = chosen["lines"].toolchains["ldc2"].profiles["dcat-lto-pgo"]
    assert "-boundscheck=off" in profile["cflags"] and "-flto=thin" in profile["cflags"]
    # one program as dcat is, each test picked by -t, built once per toolchain and profile
    variants = {v.name: v for v in chosen["lines"].manifest.variants if v.language == "d" and v.name != "read-window"}
    assert len(variants) == 10 and {v.bin for v in variants.values()} == {"dcat"}
    assert all(v.sources[0] == "d/dcat.d" and v.args == ["-t", name, "{input}"] for name, v in variants.items())


@pytest.mark.parametrize(
    ("edit", "error"),
    [
        ('"byChunkInRawOut (ldc2:lto-pgo)" = 0.159', r"originals 'byChunkInRawOut \(ldc2:lto\)' is not a row"),
        ("original_source = ", "originals without original_source"),
    ],
)
def test_original_counts_name_rows_and_say_where_they_come_from(tmp_path, edit, error):
    d = copy_suite(tmp_path, "lines")
    toml = d / "suite.toml"
    text = toml.read_text()
    assert edit in text
    if edit.startswith("original_source"):
        start = text.index(edit)
        text = text[:start] + text[text.index("\n", start) + 1 :]
    else:
        text = text.replace(edit, edit.replace("lto-pgo", "lto"))
    toml.write_text(text)
    with pytest.raises(UsageError, match=error):
        load_suite(d)


def test_serialize_rows_have_the_seeds_programs_as_written_beside_ours():
    """Each gdc row of Cerealed's designs has an as-written twin (the seed's program: Cerealed v0.4.1 / v0.5.0 as it
    ran then), both carrying the count of Cerealed's own code built here; ours name their departure, the twins
    divide by the as-written baseline; dmd's rows stay (not packaged here), with no count."""
    chosen = dict((cfg.name, s) for s, cfg in seeds.select(load_suites([], []), []))
    rows = {r.label: r for r in chosen["serialize"].manifest.seed_rows()}
    designs = ["ser-classes", "ser-array", "ser-appender", "ser-scopebuffer", "deser-classes", "deser-structs"]
    for d in designs:
        ours, written, dmd = rows[f"{d} (gdc)"], rows[f"{d} (gdc, as written)"], rows[f"{d} (dmd)"]
        assert written.cell == f"d/{d}-as-written@gdc:seed-flags" and written.seconds == ours.seconds
        assert ours.original is not None and written.original == ours.original and "gdc 12" in ours.original_source
        assert ours.note.startswith("departure (ours):") and written.note.startswith("the seed's program as written")
        assert written.baseline.endswith("(gdc, as written)") and ours.baseline.endswith("(gdc)")
        assert dmd.toolchain == "dmd" and dmd.original is None
    assert len(rows) == 18


def copy_suite(tmp_path: Path, name: str) -> Path:
    d = tmp_path / name
    shutil.copytree(REPO_SUITES / name, d, ignore=shutil.ignore_patterns("target", "__pycache__"))
    return d


def test_a_row_naming_a_cell_that_does_not_exist_is_caught(tmp_path):
    d = copy_suite(tmp_path, "readexact")
    toml = d / "suite.toml"
    toml.write_text(toml.read_text().replace('cell = "rust/bytewise@cargo:seed-noopt"', 'cell = "rust/bytewise@cargo:fast"'))
    problems = seeds.unmapped(load_suite(d))
    assert problems == ["readexact: seed row 'new-io (make FLAGS=)' (rust/bytewise@cargo:fast ): no cell"]
    with pytest.raises(UsageError, match="new-io"):
        seeds.cells(load_suite(d), [])


def test_a_row_with_parameters_that_pick_two_cells_is_caught(tmp_path):
    d = copy_suite(tmp_path, "readbytes")
    rows = d / "seed-rows.tsv"
    text = rows.read_text()
    assert "cpp/mmap@g++:release\tcount\t" in text
    rows.write_text(text.replace("cpp/mmap@g++:release\tcount\t", "cpp/mmap@g++:release\t\t", 1))
    problems = seeds.unmapped(load_suite(d))
    assert len(problems) == 1 and "g++-2(count)" in problems[0] and "mode=count" in problems[0] and "mode=sum" in problems[0]


@pytest.mark.parametrize(
    ("old", "new", "error"),
    [
        ('cell = "rust/old-io-vec@cargo:release"', "", "give either `cell`"),
        ('cell = "rust/old-io-vec@cargo:release"', 'cell = "rust/old-io-vec@cargo:release"\nwhy = "gone"', "give either `cell`"),
        ('cell = "rust/old-io-vec@cargo:release"', 'cell = "rust/old-io-vec"', "is not language/variant@toolchain:profile"),
        ('cell = "rust/old-io-vec@cargo:release"', 'cell = "rust/gone@cargo:release"', "rust/gone is not a declared variant"),
        ('size = "seed-size"', 'size = "huge"', "size 'huge' is not a declared dataset"),
        ('baseline = "old-io"\n', 'baseline = "older-io"\n', "baseline 'older-io' is not a row"),
        ('label = "new-io"\n', 'label = "old-io"\n', "row 'old-io' is declared twice"),
    ],
)
def test_manifest_errors_of_a_seed_block(tmp_path, old, new, error):
    d = copy_suite(tmp_path, "readexact")
    toml = d / "suite.toml"
    text = toml.read_text()
    assert old in text
    toml.write_text(text.replace(old, new, 1))
    with pytest.raises(UsageError, match=error):
        load_suite(d)


def test_seed_rows_from_a_table_file_equal_inline_ones(tmp_path):
    """`[seed] rows = "seed-rows.tsv"` and the same rows inline as [[seed.rows]] make the same manifest."""
    d = copy_suite(tmp_path, "capnp")
    from_file = load_suite(d).manifest
    toml = d / "suite.toml"
    inline = "".join(
        "\n[[seed.rows]]\n" + "".join(f"{k} = {json.dumps(v) if not isinstance(v, dict) else inline_table(v)}\n" for k, v in row.items())
        for row in (r.model_dump(exclude_defaults=True) for r in from_file.seed_config.rows)
    )
    text = toml.read_text()
    assert 'rows = "seed-rows.tsv"' in text
    toml.write_text(text.replace('rows = "seed-rows.tsv"', "", 1).replace("\n[params]\n", inline + "\n[params]\n", 1))
    (d / "seed-rows.tsv").unlink()
    assert load_suite(d).manifest.model_dump() == from_file.model_dump()


def test_a_parameter_cell_is_a_toml_value_or_text(tmp_path):
    d = copy_suite(tmp_path, "readexact")
    toml = d / "suite.toml"
    text = toml.read_text()
    start, end = text.index("[[seed.rows]]"), text.index("[params]")
    toml.write_text(text[:start] + 'rows = "rows.tsv"\n\n' + text[end:])
    (d / "rows.tsv").write_text(
        "label\tcell\tparams.len\tparams.note\tseconds\tbaseline\n"
        'old-io\trust/old-io-vec@cargo:release\t10\t"10"\t0.066669576\n'
        "new-io\trust/bytewise@cargo:release\t10\tsee the seed's README\t0.195592509\told-io\n"
    )
    old_io, new_io = load_suite(d).manifest.seed_config.rows
    assert old_io.params == {"len": 10, "note": "10"} and old_io.seconds == 0.066669576 and old_io.baseline == ""
    assert new_io.params == {"len": 10, "note": "see the seed's README"} and new_io.baseline == "old-io"
    assert type(old_io.params["len"]) is int


def inline_table(d: dict) -> str:
    return "{ " + ", ".join(f"{k} = {json.dumps(v)}" for k, v in d.items()) + " }"


ROWS = "label\tcell\tparams.mode\tseconds\ng++-1(count)\tcpp/fread-buffer@g++:release\tcount\t0.115\n"


@pytest.mark.parametrize(
    ("table", "error"),
    [
        (ROWS + "g++-2(count)\tcpp/mmap@g++:release\tcount\tfast\n", "seed-rows.tsv: line 3: seconds: Input should be a valid number"),
        (ROWS + "g++-2(count)\tcpp/mmap@g++:release\tcount\t0.1\t9\n", "seed-rows.tsv: line 3: 5 cells, but the header names 4 columns"),
        (ROWS + "g++-2(count)\n", "seed-rows.tsv: line 3: seed row 'g++-2(count)': give either `cell`"),
        (
            ROWS + "g++-2(count)\tcpp/mmap\tcount\n",
            "seed-rows.tsv: line 3: seed row 'g++-2(count)': cell 'cpp/mmap' is not language/variant",
        ),
        (
            ROWS.replace("seconds", "secs", 1),
            "seed-rows.tsv: line 1: column 'secs' is none of baseline, cell, label, note, original, original_source, seconds, why"
            " or params.NAME",
        ),
        (ROWS.replace("label\t", "name\t", 1), "seed-rows.tsv: line 1: column 'name' is none of"),
        (ROWS.replace("seconds", "cell", 1), "seed-rows.tsv: line 1: the header names each column once, label among them"),
        ("", "seed-rows.tsv: line 1: the header names each column once, label among them"),
        (b"label\n\xff\n", "seed-rows.tsv: cannot read it"),
        (None, "suite.toml: seed: rows: "),
    ],
    ids=[
        "not-a-number",
        "too-many-cells",
        "no-cell-no-why",
        "bad-cell",
        "unknown-column",
        "no-label",
        "repeated-column",
        "empty-file",
        "not-utf8",
        "missing-file",
    ],
)
def test_a_malformed_seed_row_table_is_one_line_naming_it(tmp_path, table, error):
    d = copy_suite(tmp_path, "readbytes")
    rows = d / "seed-rows.tsv"
    if table is None:
        rows.unlink()
    elif isinstance(table, bytes):
        rows.write_bytes(table)
    else:
        rows.write_text(table)
    with pytest.raises(UsageError) as e:
        load_suite(d)
    assert error in str(e.value) and "\n" not in str(e.value), str(e.value)
    assert str(e.value).startswith(str(rows if table is not None else d / "suite.toml")), str(e.value)


def test_a_malformed_seed_row_table_through_the_cli(tmp_path, iorace_inprocess):
    d = copy_suite(tmp_path, "readbytes")
    rows = d / "seed-rows.tsv"
    rows.write_text(ROWS + "g++-2(count)\tcpp/mmap@g++:release\tcount\tfast\n")
    out = iorace_inprocess("list", "readbytes", "--suite-dir", str(tmp_path))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.strip().splitlines() == [
        f"iorace: error: {rows}: line 3: seconds: Input should be a valid number, unable to parse string as a number"
    ]


def test_unknown_seed_name():
    with pytest.raises(UsageError, match=r"no seed 'rdb' \(seeds: readbytes, lines, serialize, readexact, capnp\)"):
        seeds.select(load_suites([], []), ["rdb"])


def test_seed_cells_are_the_rows_cells_at_the_seeds_size_or_another():
    suite = next(s for s, cfg in seeds.select(load_suites([], []), ["readexact"]))
    at_seed = seeds.cells(suite, [])
    assert sorted(c.label for c in at_seed) == sorted(
        f"rust/{v}@cargo:{p}[len=10]" for v in ("bytewise", "old-io-vec") for p in ("release", "seed-noopt")
    )
    assert {c.dataset.name for c in at_seed} == {"seed-size"}
    assert {c.dataset.name for c in seeds.cells(suite, ["tiny"])} == {"tiny"}
    assert {c.dataset.name for c in seeds.cells(suite, ["readexact=quick"])} == {"quick"}
    # a size for another seed's suite leaves this one at its own size
    assert {c.dataset.name for c in seeds.cells(suite, ["capnp=tiny"])} == {"seed-size"}


def test_row_picks_the_seed_rows_that_match_and_the_rows_they_divide_by():
    """`iorace seeds serialize --row 'deser-classes*as written*'`: that row's cell and its baseline's (its ratio
    needs it), none of the seed's other 16 rows; a glob matches case-insensitively."""
    suite = next(s for s, cfg in seeds.select(load_suites([], []), ["serialize"]))
    assert seeds.rows_matching(suite, ["deser-classes (gdc, as*"]) == {"deser-classes (gdc, as written)", "deser-structs (gdc, as written)"}
    picked = seeds.cells(suite, ["tiny"], ["DESER-CLASSES (GDC, AS*"])
    assert sorted(c.variant.key for c in picked) == ["d/deser-classes-as-written", "d/deser-structs-as-written"]
    # the baseline of a row without its own is the seed's: ser-scopebuffer (gdc)
    assert seeds.rows_matching(suite, ["ser-array (gdc)"]) == {"ser-array (gdc)", "ser-scopebuffer (gdc)"}
    assert len(seeds.cells(suite, ["tiny"], [])) == len(seeds.cells(suite, ["tiny"]))  # no --row: every row
    assert seeds.rows_matching(suite, ["nothing*"]) == set()


def test_a_row_glob_that_matches_nothing_is_one_line_naming_the_rows(tmp_path, iorace_inprocess):
    out = iorace_inprocess("seeds", "readexact", "--row", "nothing*", "--size", "tiny", "--check-only", "--db", str(tmp_path / "s.sqlite"))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    [line] = out.stderr.strip().splitlines()
    assert line.startswith("iorace: error: --row nothing*: no seed row matches (rows: ") and "new-io" in line, line


SEED_SETTING = {
    "name": "dcat",
    "title": "dcat's tests",
    "file": "001.txt",
    "size": "tiny",
    "baseline": "rawOut",
    "figures": "MacOS, 5 runs",
    "rows": [
        {"label": "rawOut", "cell": "d/rawOut@gdc:release", "params": {}, "seconds": 22.41, "baseline": "", "why": ""},
        {"label": "bufOut", "cell": "d/bufOut@gdc:release", "params": {}, "seconds": 9.32, "baseline": "", "why": ""},
        {"label": "chunk", "cell": "d/chunk@gdc:release", "params": {}, "seconds": None, "baseline": "", "why": ""},
        {"label": "dmd rawOut", "cell": "", "params": {}, "seconds": 30.0, "baseline": "", "why": "dmd is not packaged here"},
        {"label": "nodmd", "cell": "d/nodmd@dmd:release", "params": {}, "seconds": 40.0, "baseline": "", "why": ""},
    ],
}


def seed_session():
    timed = (("rawOut", 20), ("bufOut", 10))
    cells = [cell(name, "d", "gdc", wall=[w, w, w * 1.1], params={}, suite="lines", metric="wall") for name, w in timed]
    cells.append(cell("chunk", "d", "gdc", wall=[5, 5, 5], params={}, suite="lines", metric="wall"))
    cells.append(cell("nodmd", "d", "dmd", params={}, suite="lines", status="skipped", detail="dmd: not packaged by Debian 12\nmore"))
    return session(cells, suites={"lines": {"seed": SEED_SETTING}}, options={"runs": 3, "seeds": ["dcat"]})


def test_then_and_now_rows_in_the_seeds_order_with_ratios_and_reasons():
    [t] = then_and_now(seed_session())
    assert t.title == "dcat: then and now · lines · tiny" and t.shared_baseline == "rawOut"
    by = {r.label: r for r in t.rows}
    assert [r.label for r in t.rows] == ["rawOut", "bufOut", "chunk", "dmd rawOut", "nodmd"]
    assert by["bufOut"].now is not None and by["bufOut"].now.value == pytest.approx(0.5, rel=1e-6)
    assert by["bufOut"].then == pytest.approx(9.32 / 22.41)
    assert by["rawOut"].then == pytest.approx(1.0) and by["chunk"].then is None
    assert by["chunk"].now is not None and by["chunk"].now.value == pytest.approx(5 / 20.667, rel=0.05)
    assert by["dmd rawOut"].row is None and by["dmd rawOut"].why == "dmd is not packaged here"
    assert by["nodmd"].why == "skipped: dmd: not packaged by Debian 12" and by["nodmd"].now is None


def test_a_cell_verified_but_not_timed_says_so():
    s = seed_session()
    s.cells[1].runs = []  # bufOut, as --check-only leaves it
    by = {r.label: r for r in then_and_now(s)[0].rows}
    assert by["bufOut"].why == "answered right; not timed" and by["bufOut"].now is None
    assert by["rawOut"].why == ""


def test_then_now_table_shows_the_seeds_figures_and_why():
    [t] = then_and_now(seed_session())
    table = tables.then_now_table(t)
    headers = [c.header for c in table.columns]
    assert headers == ["seed's row", "cell here", "status", "now", "now x rawOut [95% CI]", "then (seed)", "then x rawOut", "why no time"]
    rows = {r[0]: r for r in table.rows}
    assert rows["bufOut"][5:7] == ["9.32 s", "0.42x"]
    assert rows["dmd rawOut"][1:3] == ["-", "not run"] and rows["dmd rawOut"][-1] == "dmd is not packaged here"


def test_the_report_opens_with_the_overview():
    report = build(seed_session())
    assert [s.kind for s in report.sections][:2] == ["overview", "group"]


def test_another_sessions_overview_shows_the_rows_it_has_and_counts_the_rest():
    s = seed_session()
    s.options = {"runs": 3}  # `iorace run lines`, not `iorace seeds`
    [t] = then_and_now(s)
    assert [r.label for r in t.rows] == ["rawOut", "bufOut", "chunk", "nodmd"] and t.left_out == 1
    caption = tables.then_now_table(t).caption
    assert caption.endswith("1 of the seed's rows have no cell in this session: `iorace seeds dcat` runs them all.")
    [whole] = then_and_now(seed_session())
    assert whole.left_out == 0 and "have no cell" not in tables.then_now_table(whole).caption


def test_no_overview_without_a_seed_row_in_the_session():
    s = seed_session()
    for c in s.cells:
        c.toolchain = "ldc2"
    assert then_and_now(s) == []
    assert "overview" not in [x.kind for x in build(s).sections]


def test_list_names_the_seed_and_the_rows_that_cannot_run():
    from iorace.cli.suites import _seed_lines

    capnp = next(s for s, cfg in seeds.select(load_suites([], []), ["capnp"]))
    lines = _seed_lines(capnp.manifest)
    assert lines[0] == "  seed capnp: 37 rows at dataset seed (iorace seeds capnp)"
    assert len(lines) == 2 and lines[1].startswith("  seed row 'eval pipe Rust on libgreen' cannot run here: libgreen")
    rdb = load_suite(REPO_SUITES / "rdb")
    assert _seed_lines(rdb.manifest) == []  # rdb shares seed 003 with readexact, whose table it is


def test_seeds_takes_runs_options_but_not_the_selection():
    from iorace.cli.measure import run as run_cmd
    from iorace.cli.measure import seeds_cmd

    run_names = {p.name for p in run_cmd.params}
    names = {p.name for p in seeds_cmd.params}
    assert run_names - names == {"inputs", "variants", "toolchains", "profiles", "params", "target_ms", "suites"}
    assert names - run_names == {"names", "rows"}
    size = next(p for p in seeds_cmd.params if p.name == "sizes")
    assert "each seed's own size" in (size.help or "")


def test_the_json_export_carries_each_seeds_table():
    from iorace.export.json_export import document

    [doc] = document(build(seed_session()))["iorace_seeds"]
    assert (doc["seed"], doc["suite"], doc["dataset"], doc["rows_left_out"]) == ("dcat", "lines", "tiny", 0)
    by = {r["label"]: r for r in doc["rows"]}
    assert list(by) == ["rawOut", "bufOut", "chunk", "dmd rawOut", "nodmd"]
    assert by["bufOut"]["now_ratio"] == pytest.approx(0.5) and by["bufOut"]["then_ratio"] == pytest.approx(9.32 / 22.41)
    assert by["dmd rawOut"] | {"then_ratio": None} == {
        "label": "dmd rawOut",
        "cell": None,
        "status": "not run",
        "now_median": None,
        "now_ratio": None,
        "now_ratio_ci95": None,
        "then_seconds": 30.0,
        "then_ratio": None,
        "baseline": "rawOut",
        "why": "dmd is not packaged here",
        "note": None,
        "instructions_per_unit": None,
        "original_instructions_per_unit": None,
        "folded": False,
    }


def test_a_folded_row_says_folded_beside_the_seed_programs_count():
    """A seed row's cell under FOLDED_BELOW instructions per unit is marked FOLDED (the compiler dropped the
    work: the seed's mmap count loop under today's g++), and the seed program's own count stands beside ours."""
    from iorace.analyse.analysis import FOLDED_BELOW, ThenNowRow, ThenNowTable

    def row(label: str, per_byte: float | None, note: str = "", original: float | None = None) -> ThenNowRow:
        return ThenNowRow(label, "cpp/x@g++:release", None, "base", None, None, None, "", note, per_byte, "bytes", original, "fidelity")

    rows = [row("base", 7.3), row("as written", 0.01, "the seed's program as written", 0.01), row("ours", 5.01, "departure (ours)")]
    assert [r.folded for r in rows] == [False, True, False] and FOLDED_BELOW == 0.5
    t = tables.then_now_table(ThenNowTable("readbytes", "t", "readbytes", "quick", "inner", "", rows))
    headers = [c.header for c in t.columns]
    assert "instr/byte" in headers and "seed program's instr/byte" in headers and "as the seed wrote it?" in headers
    note = headers.index("as the seed wrote it?")
    assert t.rows[1][note] == "FOLDED (0.01 instr/byte); the seed's program as written"
    assert t.rows[0][note] == "" and t.rows[2][note] == "departure (ours)"
    assert t.rows[1][headers.index("seed program's instr/byte")] == "0.01" and "fidelity" in t.caption
    # a table with neither counts nor notes keeps its columns as before
    plain = tables.then_now_table(ThenNowTable("x", "t", "x", "quick", "inner", "", [row("base", None)]))
    assert "instr/byte" not in [c.header for c in plain.columns]
    # a seed whose rows cannot fold (folded_below = 0: lines' chunk copies, their bytes moved by the kernel)
    bulk = [dataclasses.replace(r, folded_below=0.0) for r in rows]
    assert not any(r.folded for r in bulk)
    t = tables.then_now_table(ThenNowTable("lines", "t", "lines", "quick", "wall", "", bulk))
    assert "FOLDED" not in t.caption and not any("FOLDED" in str(cell) for r in t.rows for cell in r)


def test_without_instructions_an_as_written_row_is_folded_by_its_seed_programs_count_and_an_honest_one_is_not():
    """`iorace seeds` counts no instructions by default: a row that is the seed's program as written is judged
    by that program's own count (the manifest's), so the seed table still says FOLDED; a departing row with the
    same seed program beside it is not (ours does the work: the barrier)."""
    from iorace.analyse.analysis import ThenNowRow, ThenNowTable

    def row(note: str, original: float) -> ThenNowRow:
        return ThenNowRow("r", "cpp/x@g++:release", None, "base", None, None, None, "", note, None, "bytes", original, "fidelity")

    as_written, honest = row("the seed's program as written (no barrier)", 0.01), row("departure (ours): a barrier", 0.01)
    assert as_written.folded and as_written.counted == 0.01 and not honest.folded and honest.counted is None
    assert not row("the seed's program as written", 5.26).folded
    t = tables.then_now_table(ThenNowTable("readbytes", "t", "readbytes", "seed", "inner", "", [as_written, honest]))
    note = [c.header for c in t.columns].index("as the seed wrote it?")
    assert t.rows[0][note].startswith("FOLDED (0.01 instr/byte, the seed's program's count)") and "FOLDED" not in t.rows[1][note]


def test_seeds_do_not_race_by_default_and_run_does():
    # every seed row is published: it gets --runs rounds, not the two that decide it is far behind
    import click

    from iorace.cli.measure import run, seeds_cmd

    def default(command: click.Command, name: str):
        return next(p.default for p in command.params if p.name == name)

    assert default(seeds_cmd, "race") is False and default(run, "race") is True
