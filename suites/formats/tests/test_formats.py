"""formats: every cell answers the reference digest on the tiny dataset, through the harness (as `iorace run
--check-only`), and the interop matrix: for each format, the bytes each language's program writes decode in
every language's program of that format to the reference digest. A pair that fails is listed with its evidence.
And the Cap'n Proto programs' op read answers suite.py's visit checksum."""

from __future__ import annotations

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
FORMATS = {"cbor": ALL, "json": ALL, "msgpack": ALL, "protobuf": ALL, "flatbuffers": ALL, "capnp": {"cpp", "python", "rust"}}
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
    assert made >= {(lang, fmt, op) for fmt, langs in FORMATS.items() for lang in langs for op in ("encode", "decode")}
    assert made >= {(lang, fmt, "read") for fmt in ZERO_COPY for lang in FORMATS[fmt]}
    skipped = {(c["language"], c["variant"]) for c in cells if _left_out(c)}
    assert skipped == {(lang, fmt) for fmt, langs in FORMATS.items() if fmt not in ZERO_COPY for lang in langs}


def test_read_checksum_is_the_reference(checked: interop.Checked) -> None:
    """op=read answers the visit checksum computed by suite.py on the canonical data (not the digest)."""
    sys.path.insert(0, str(SUITE))
    import suite

    assert checked.checksum == str(suite.visit_sum(json.loads(checked.canonical.read_bytes())))


def test_interop_matrix(checked: interop.Checked, tmp_path: Path) -> None:
    programs = {(p.language, p.format): p for p in checked.programs}
    assert set(programs) == {(lang, fmt) for fmt, langs in FORMATS.items() for lang in langs}
    pairs = []
    for fmt, langs in sorted(FORMATS.items()):
        for writer in sorted(langs):
            path = tmp_path / f"{writer}.{fmt}"
            interop.emit(programs[writer, fmt], checked.canonical, path)
            pairs += [(fmt, writer, reader, path) for reader in sorted(langs)]
    # a zero-copy format's bytes are also read in place by every language (--read): the visit checksum
    reads = [(fmt, writer, reader, path) for fmt, writer, reader, path in pairs if fmt in READ_FILE]
    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:  # untimed: one decoder per CPU at a time
        answers = list(pool.map(lambda pair: interop.decode(programs[pair[2], pair[0]], pair[3]), pairs))
        sums = list(pool.map(lambda pair: interop.decode(programs[pair[2], pair[0]], pair[3], read=True), reads))
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
    the padding after it.)"""
    programs = {(p.language, p.format): p for p in checked.programs}
    cases = []
    for fmt, langs in sorted(FORMATS.items()):
        whole = interop.emit(programs["python", fmt], checked.canonical, tmp_path / f"whole.{fmt}")
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
            cases += [(fmt, cut, reader, path) for reader in sorted(langs)]
    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        runs = list(pool.map(lambda case: interop.run_decode(programs[case[2], case[0]], case[3]), cases))
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

    want = str(suite.visit_checksum(json.loads(checked.canonical.read_bytes())))
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
    want, visit = suite.digest(EDGES), str(suite.visit_checksum(EDGES))
    programs = [p for p in checked.programs if p.format == "capnp"]
    bad = []
    for writer in programs:
        path = tmp_path / f"{writer.language}.capnp"
        interop.emit(writer, canonical, path)
        bad += [f"{writer.language} -> {r.language}: {interop.decode(r, path)}" for r in programs if interop.decode(r, path)[0] != want]
        if _visit_answer(writer, canonical)["answer"] != visit:
            bad.append(f"{writer.language} read: {_visit_answer(writer, canonical)['answer']} != {visit}")
    assert not bad, "\n".join(bad)
