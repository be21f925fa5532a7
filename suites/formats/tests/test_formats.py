"""formats: every cell answers the reference digest on the tiny dataset, through the harness (as `iorace run
--check-only`), and the interop matrix: for each format, the bytes each language's program writes decode in
every language's program of that format to the reference digest. A pair that fails is listed with its evidence.
A native format (each language's own: native, native-bitcode) is in no matrix: its own program reads its bytes back.
And the Cap'n Proto programs' op read answers suite.py's visit checksum."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

SUITE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(SUITE))
import interop  # noqa: E402

ALL = {"cpp", "go", "java", "python", "rust"}
# each format's languages: Cap'n Proto has no Go or Java row (suite.toml's capnpc-go and capnpc-java say why)
FORMATS = {"avro": ALL, "cbor": ALL, "json": ALL, "msgpack": ALL, "protobuf": ALL, "flatbuffers": ALL, "capnp": {"cpp", "python", "rust"}}
# Each language's fast JSON library (json-fast: simdjson, sonic-rs, sonic, fastjson2, orjson) writes and reads JSON:
# in the matrix, its bytes go to every JSON decoder and it reads every JSON encoder's bytes.
VARIANTS = {(lang, fmt) for fmt, langs in FORMATS.items() for lang in langs} | {(lang, "json-fast") for lang in ALL}
# Each language's own format (native; Rust's second, native-bitcode): language-local, in no interop matrix (its bytes
# are read back by its own program only: test_native_round_trip), in the truncation and mutant runs.
NATIVE = {(lang, "native") for lang in ALL} | {("rust", "native-bitcode")}
VARIANTS |= NATIVE
ZERO_COPY = {"flatbuffers", "capnp"}  # the formats with op=read (a visit in place); the others skip it, saying why
READ_FILE = {"flatbuffers"}  # their programs also read a file in place (`--read FILE`): the interop matrix reads with it


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> interop.Checked:
    return interop.check_only("tiny", tmp_path_factory.mktemp("formats"))


def _left_out(c: dict) -> bool:
    """A cell the manifest leaves out on purpose: op=read of a format that is parsed, not read in place."""
    return (
        c["status"] == "skipped"
        and c["parameters"]["op"] == "read"
        and c["variant"] not in ZERO_COPY
        and "not run with op=read" in c["detail"]
    )


def test_every_cell_is_ok(checked: interop.Checked) -> None:
    cells = checked.cells
    bad = [(c["label"], c["status"], c["detail"]) for c in cells if c["status"] != "ok" and not _left_out(c)]
    assert cells and not bad, bad
    made = {(c["language"], c["variant"], c["parameters"]["op"]) for c in cells if c["status"] == "ok"}
    assert made >= {(lang, var, op) for lang, var in VARIANTS for op in ("encode", "decode")}
    assert made >= {(lang, fmt, "read") for fmt in ZERO_COPY for lang in FORMATS[fmt]}
    skipped = {(c["language"], c["variant"]) for c in cells if _left_out(c)}
    assert skipped == {(lang, var) for lang, var in VARIANTS if var not in ZERO_COPY}


def test_fast_json_is_full_tier_only() -> None:
    """quick is make bench's first tier and does not grow: the json-fast cells skip it (their reason says full tier),
    run on full, and on tiny, where make test checks them (CBOR's and Avro's too: full tier)."""
    from iorace.manifest.suites import load_suite

    variants = load_suite(SUITE).manifest.variants
    fast = [v for v in variants if v.name == "json-fast"]
    assert {v.language for v in fast} == ALL
    assert all(v.skip == {"quick": "full tier"} for v in fast), [(v.key, v.skip) for v in fast]
    native = [v for v in variants if interop.is_native(v.name)]
    assert {(v.language, v.name) for v in native} == NATIVE
    assert all(v.skip == {"quick": "full tier"} for v in native), [(v.key, v.skip) for v in native]
    others = [v for v in variants if v.name not in ("json-fast", "cbor", "avro") and not interop.is_native(v.name)]
    assert all(not v.skip for v in others), [(v.key, v.skip) for v in others if v.skip]
    avro = [v for v in variants if v.name == "avro"]
    assert {v.language for v in avro} == ALL
    assert all(v.skip == {"quick": "full tier"} for v in avro), [(v.key, v.skip) for v in avro]


def _by_format(checked: interop.Checked) -> dict[str, dict[str, interop.Program]]:
    """{wire format: {program key (language, or language/json-fast): program}}."""
    programs = {(p.language, p.variant): p for p in checked.programs}
    assert set(programs) == VARIANTS
    out: dict[str, dict[str, interop.Program]] = {}
    for p in checked.programs:
        out.setdefault(p.format, {})[p.key] = p
    assert set(out) == set(FORMATS) | {interop.wire_format(var, lang) for lang, var in NATIVE}
    return out


def test_read_checksum_is_the_reference(checked: interop.Checked) -> None:
    """op=read answers the visit checksum computed by suite.py on the canonical data (not the digest)."""
    sys.path.insert(0, str(SUITE))
    import suite

    assert checked.checksum == str(suite.visit_sum(json.loads(checked.canonical.read_bytes())))


def test_interop_matrix(checked: interop.Checked, tmp_path: Path) -> None:
    by_format = _by_format(checked)
    assert len(by_format["json"]) == 2 * len(ALL)  # json and json-fast: 10 writers, 10 readers
    pairs = []
    for fmt in sorted(FORMATS):
        for writer, program in sorted(by_format[fmt].items()):
            path = tmp_path / f"{writer.replace('/', '-')}.{fmt}"
            interop.emit(program, checked.canonical, path)
            pairs += [(fmt, writer, reader, path) for reader in sorted(by_format[fmt])]
    # a zero-copy format's bytes are also read in place by every language (--read): the visit checksum
    reads = [(fmt, writer, reader, path) for fmt, writer, reader, path in pairs if fmt in READ_FILE]
    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:  # untimed: one decoder per CPU at a time
        answers = list(pool.map(lambda pair: interop.decode(by_format[pair[0]][pair[2]], pair[3]), pairs))
        sums = list(pool.map(lambda pair: interop.decode(by_format[pair[0]][pair[2]], pair[3], read=True), reads))
    failures = [
        f"{fmt}: {writer}'s bytes ({path.stat().st_size} B) read by {reader}: {got or error}"
        for (fmt, writer, reader, path), (got, error) in zip(pairs, answers, strict=True)
        if got != checked.expected
    ]
    failures += [
        f"{fmt}: {writer}'s bytes read in place by {reader}: {got or error}, not the checksum {checked.checksum}"
        for (fmt, writer, reader, path), (got, error) in zip(reads, sums, strict=True)
        if got != checked.checksum
    ]
    assert checked.checksum and not failures, "\n".join(failures)


def test_native_round_trip(checked: interop.Checked, tmp_path: Path) -> None:
    """A native format is language-local: one program writes and reads it (no other program of any language has its
    wire format, so no interop pair), and its own bytes decode in it to the reference digest."""
    by_format = _by_format(checked)
    local = {fmt: programs for fmt, programs in by_format.items() if interop.language_local(fmt)}
    assert {(p.language, p.variant) for programs in local.values() for p in programs.values()} == NATIVE
    bad = []
    for fmt, programs in sorted(local.items()):
        assert len(programs) == 1, (fmt, sorted(programs))
        (program,) = programs.values()
        path = tmp_path / f"{program.key.replace('/', '-')}.bin"
        interop.emit(program, checked.canonical, path)
        got, error = interop.decode(program, path)
        if got != checked.expected:
            bad.append(f"{fmt}: its own bytes ({path.stat().st_size} B): {got or error}")
    assert not bad, "\n".join(bad)


def _protobuf_field_ends(raw: bytes) -> set[int]:
    """The offsets where a top-level field of a protobuf message ends. Protobuf has no end marker: bytes cut at one
    of these are a valid, shorter Catalog, which every decoder must accept, so a truncation case must cut elsewhere."""

    def varint(i: int) -> tuple[int, int]:
        value = shift = 0
        while True:
            byte = raw[i]
            value |= (byte & 0x7F) << shift
            i, shift = i + 1, shift + 7
            if byte < 0x80:
                return value, i

    ends, i = {0}, 0
    while i < len(raw):
        key, i = varint(i)
        assert key & 7 == 2, f"field {key >> 3} at {i}: every field of Catalog is length-delimited"
        size, i = varint(i)
        i += size
        ends.add(i)
    assert i == len(raw)
    return ends


def test_truncated_bytes_refused(checked: interop.Checked, tmp_path: Path) -> None:
    """A first taste of the mutant corpus: each decoder fed a truncated encoding refuses it cleanly (exit 1
    and one error line), no crash and no digest. (Protobuf: the cuts are checked to fall inside a top-level field;
    a cut between two is a valid message, see _protobuf_field_ends. Cap'n Proto: its segment table says the
    message's length, so every cut is short of it. FlatBuffers: the second cut is inside the last string, not in
    the padding after it. A native format: its own program's bytes, cut, read by that program.)"""
    by_format = _by_format(checked)
    cases = []
    for fmt in sorted(by_format):  # the shared formats (Python's bytes) and each native one (its own program's)
        writer = by_format[fmt]["python"] if fmt in FORMATS else next(iter(by_format[fmt].values()))
        whole = interop.emit(writer, checked.canonical, tmp_path / f"whole.{fmt}")
        cuts = [len(whole) // 2, len(whole) - 1]
        if fmt == "flatbuffers":
            # the last bytes are the first string written, its 0 terminator and padding: a buffer cut in the padding
            # is whole, so the second cut takes that string's last byte (its length then says more than there is)
            cuts[1] = len(whole.rstrip(b"\0")) - 1
        for cut in cuts:
            if fmt == "protobuf":
                assert cut not in _protobuf_field_ends(whole), f"protobuf cut at {cut} B is a field boundary: a valid message"
            path = tmp_path / f"cut{cut}.{fmt}"
            path.write_bytes(whole[:cut])
            cases += [(fmt, cut, reader, path) for reader in sorted(by_format[fmt])]
    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        runs = list(pool.map(lambda case: interop.run_decode(by_format[case[0]][case[2]], case[3]), cases))
    bad = [
        f"{fmt} cut at {cut} B, read by {reader}: exit {proc.returncode}, {proc.stdout.strip()[:16]} {proc.stderr.strip()[-200:]}"
        for (fmt, cut, reader, _), proc in zip(cases, runs, strict=True)
        if proc.returncode != 1 or proc.stdout.strip() or not proc.stderr.strip().splitlines()[-1].startswith("error")
    ]
    assert not bad, "\n".join(bad)


def _visit_answer(program: interop.Program, canonical: Path) -> dict:
    """The answer of `PROG CANON read 2` (op read: not in suite.toml's op list yet, so called directly)."""
    proc = subprocess.run([*program.argv, str(canonical), "read", "2"], capture_output=True, text=True, timeout=120, check=False)
    lines = [line for line in proc.stderr.splitlines() if line.startswith("iorace-result ")]
    assert proc.returncode == 0 and len(lines) == 1, (program.language, proc.returncode, proc.stderr[-500:])
    return json.loads(lines[0].removeprefix("iorace-result "))


def test_capnp_read_answers_the_visit_checksum(checked: interop.Checked) -> None:
    """Op read (bytes -> a visit of every field through the reader, no plain objects) answers the decimal visit checksum,
    suite.py's visit_checksum of the canonical data, in each Cap'n Proto program."""
    import suite  # the suite folder is on sys.path (above)

    want = str(suite.visit_sum(json.loads(checked.canonical.read_bytes())))
    readers = [p for p in checked.programs if p.format == "capnp"]
    assert {p.language for p in readers} == FORMATS["capnp"]
    for p in readers:
        result = _visit_answer(p, checked.canonical)
        assert result["answer"] == want, p.language
        assert result["inner_ns"] > 0 and result["extra"]["encoded_bytes"] > 0


EDGES = {  # what the tiny dataset lacks: a present empty string, keys whose UTF-8 order is not their first letter's
    "areaNames": {"b": "", "é": "x", "Z": "ü"},
    "events": {
        "9": {"id": -1, "name": "", "description": "", "logo": None, "subTopicIds": [], "topicIds": [(1 << 63) - 1]},
        "10": {"id": 1 << 62, "name": "n", "description": None, "logo": "", "subTopicIds": [-(1 << 63)], "topicIds": []},
    },
    "performances": [{"id": 0, "eventId": 9, "name": "", "logo": None, "start": -5, "venueCode": "", "prices": [], "seatCategories": []}],
    "topicSubTopics": {"": [], "t": [1, 2]},
    "venueNames": {},
}


def test_capnp_edges_across_languages(checked: interop.Checked, tmp_path: Path) -> None:
    """A present empty string is not an absent one, keys are ordered by their UTF-8 bytes, the i64 extremes: each
    Cap'n Proto program's bytes decode in every other to suite.py's digest, and read answers its visit checksum."""
    import suite  # the suite folder is on sys.path (above)

    canonical = tmp_path / "edges.json"
    canonical.write_text(json.dumps(EDGES, ensure_ascii=False), encoding="utf-8")
    want, visit = suite.digest(EDGES), str(suite.visit_sum(EDGES))
    programs = [p for p in checked.programs if p.format == "capnp"]
    bad = []
    for writer in programs:
        path = tmp_path / f"{writer.language}.capnp"
        interop.emit(writer, canonical, path)
        bad += [f"{writer.language} -> {r.language}: {interop.decode(r, path)}" for r in programs if interop.decode(r, path)[0] != want]
        if _visit_answer(writer, canonical)["answer"] != visit:
            bad.append(f"{writer.language} read: {_visit_answer(writer, canonical)['answer']} != {visit}")
    assert not bad, "\n".join(bad)


def test_avro_edges_across_languages(checked: interop.Checked, tmp_path: Path) -> None:
    """Avro's zigzag varints at the i64 extremes, a present empty string beside a null (branch 1 and branch 0 of the
    union), empty arrays and maps, non-ASCII keys: each Avro program's bytes of EDGES decode in every other to
    suite.py's digest."""
    import suite  # the suite folder is on sys.path (above)

    canonical = tmp_path / "edges.json"
    canonical.write_text(json.dumps(EDGES, ensure_ascii=False), encoding="utf-8")
    want = suite.digest(EDGES)
    programs = [p for p in checked.programs if p.format == "avro"]
    assert {p.language for p in programs} == FORMATS["avro"]
    pairs = []
    for writer in programs:
        path = tmp_path / f"{writer.language}.avro"
        interop.emit(writer, canonical, path)
        pairs += [(writer, reader, path) for reader in programs]
    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        answers = list(pool.map(lambda pair: interop.decode(pair[1], pair[2]), pairs))
    bad = [f"{w.language} -> {r.language}: {got or error}" for (w, r, _), (got, error) in zip(pairs, answers, strict=True) if got != want]
    assert not bad, "\n".join(bad)


def test_json_ints_past_2_53_stay_exact(checked: interop.Checked, tmp_path: Path) -> None:
    """Every JSON decoder (json and json-fast) keeps 64-bit ints exact: the canonical file with its ints past 2^53
    (odd ones, which no double holds: a reader through doubles rounds them to even) moved to other odd values, and
    the largest and smallest i64, decodes to suite.py's digest of those values."""
    # suite.py by its path: every suite has a module named suite, and another may be imported already
    spec = importlib.util.spec_from_file_location("formats_suite", SUITE / "suite.py")
    assert spec is not None and spec.loader is not None
    suite = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(suite)

    data = json.loads(checked.canonical.read_bytes())
    moved = 0
    for e in data["events"].values():
        if abs(e["id"]) > 1 << 53:
            e["id"], moved = -(1 << 63), moved + 1  # the smallest i64 (even, but past any double's exact range)
    for p in data["performances"]:
        if abs(p["id"]) > 1 << 53:
            p["id"], moved = (1 << 62) + 12_345 if p["id"] > 0 else -(1 << 55) - 1, moved + 1
        if abs(p["eventId"]) > 1 << 53:
            p["eventId"] = (1 << 63) - 3
        if p["start"] == (1 << 63) - 1:
            p["start"], moved = (1 << 63) - 7, moved + 1
    assert moved >= 2, "the tiny data has no ids past 2^53 any more: this test checks nothing"
    path = tmp_path / "big-ints.json"
    path.write_bytes(json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode())
    want = suite.digest(data)
    assert want != checked.expected
    readers = _by_format(checked)["json"]
    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        answers = dict(zip(readers, pool.map(lambda p: interop.decode(p, path), readers.values()), strict=True))
    wrong = {key: got or error for key, (got, error) in answers.items() if got != want}
    assert not wrong, wrong
