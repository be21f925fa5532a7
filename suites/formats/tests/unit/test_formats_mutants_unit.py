"""The formats mutant driver's own parts, without the suite's programs: the classifier goes red on planted
crashes (a segfault, a traceback, a sanitizer report, a panic, a hang) and green on clean refusals and digests,
a run over a planted crashing decoder fails, and the mutants are seeded (the same bytes every time)."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

SUITE = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(SUITE / "fuzz"))
import mutants  # noqa: E402

DIGEST = "d47d3e1bbbf071280ead9f0a6b87246f5cf6ef341c7ad4400501bd5db1b11f6d"

PLANTED = {
    "segfault": ("import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)", "crash"),
    "abort": ("import os\nos.abort()", "crash"),
    "traceback": ("raise RuntimeError('boom')", "crash"),
    "hang": ("import time\ntime.sleep(60)", "hang"),
    "refuses": ("import sys\nprint('error: FILE: not MessagePack', file=sys.stderr)\nsys.exit(1)", "refused"),
    "accepts": (f"print('{DIGEST}')", "accepted"),
    "two_error_lines": ("import sys\nprint('error: one\\nerror: two', file=sys.stderr)\nsys.exit(1)", "unclean"),
    "exit0_no_digest": ("print('hello')", "unclean"),
    # output without end: killed past mutants.OUTPUT_LIMIT, not kept whole (the driver once grew to 24 GB)
    "floods": ("import sys\nwhile True:\n    sys.stdout.write('x' * 65536)", "unclean"),
    "digest_and_refusal": (f"import sys\nprint('{DIGEST}')\nprint('error: x', file=sys.stderr)\nsys.exit(1)", "unclean"),
}


def planted(tmp_path: Path, name: str) -> mutants.Decoder:
    script = tmp_path / f"{name}.py"
    script.write_text(PLANTED[name][0] + "\n")
    return mutants.Decoder("planted", "fmt", [sys.executable, str(script)], f"planted/{name}")


@pytest.mark.parametrize("name", sorted(PLANTED))
def test_planted_programs_are_classified(tmp_path: Path, name: str) -> None:
    data = tmp_path / "in.bin"
    data.write_bytes(b"\x00")
    got = planted(tmp_path, name).run(data, timeout=2.0)
    assert got.kind == PLANTED[name][1], got


@pytest.mark.parametrize(
    "stderr",
    [
        "=================================================================\n==1==ERROR: AddressSanitizer: heap-buffer-overflow on address",
        "common.hpp:12:3: runtime error: signed integer overflow: 9223372036854775807 + 1",
        "thread 'main' panicked at src/lib.rs:10:5:\nindex out of bounds\nnote: run with `RUST_BACKTRACE=1`",
        "panic: runtime error: index out of range [5] with length 3\n\ngoroutine 1 [running]:\nmain.main()",
        "fatal error: runtime: out of memory\n\nruntime stack:\nruntime.throw()\n\ngoroutine 1 [running]:",
        'Exception in thread "main" java.lang.StackOverflowError\n\tat Foo.bar(Foo.java:1)',
        "Traceback (most recent call last):\n  File \"x.py\", line 1\nAttributeError: 'int' object has no attribute 'encode'",
    ],
)
def test_crash_reports_are_crashes_whatever_the_exit_code(stderr: str) -> None:
    for code in (1, 2, 101):
        assert mutants.classify(code, "", stderr).kind == "crash", (code, stderr)


def test_clean_outcomes() -> None:
    assert mutants.classify(1, "", "error: x.bin: EOF while parsing a value\n") == mutants.Outcome(
        "refused", "error: x.bin: EOF while parsing a value"
    )
    assert mutants.classify(0, DIGEST + "\n", "").kind == "accepted"
    assert mutants.classify(-11, "", "").kind == "crash"
    assert mutants.classify(134, "", "error: x").kind == "crash"
    assert mutants.classify(None, "", "").kind == "hang"
    # ASan's note of an allocation it let fail (allocator_may_return_null), then the program's own refusal
    asan = "==42==WARNING: AddressSanitizer failed to allocate 0x2000000008 bytes\nerror: std::bad_alloc\n"
    assert mutants.classify(1, "", asan) == mutants.Outcome("refused", "error: std::bad_alloc")


def test_a_run_over_a_crashing_decoder_fails(tmp_path: Path) -> None:
    decs = [planted(tmp_path, "refuses"), planted(tmp_path, "traceback")]
    decs[1].language = "other"
    cells = mutants.run(decs, {"fmt": [b"\x81\xa1a\x01" * 8]}, DIGEST, count=4, jobs=2, timeout=10, save=False)
    assert cells["fmt"]["planted"].counts == {"refused": 4}
    assert cells["fmt"]["other"].counts == {"crash": 4}
    assert len(cells["fmt"]["other"].bad) == 4 and not cells["fmt"]["planted"].bad
    assert "crash" in mutants.table(cells)


def test_mutants_are_seeded_and_each_its_own() -> None:
    bases = [bytes(range(256)) * 4, b'{"a":[1,2,{"b":"c"}],"d":null}' * 10]
    for fmt in ("json", "msgpack", "protobuf", "cbor"):
        first = [mutants.mutant(bases, fmt, 1, i) for i in range(50)]
        assert first == [mutants.mutant(bases, fmt, 1, i) for i in range(50)]  # the same bytes every time
        assert mutants.mutant(bases, fmt, 1, 7) == first[7]  # mutant 7 alone, as in a run of 50
        assert len({m for m, _ in first}) > 40  # and different from one another
        assert sum(m not in bases for m, _ in first) >= 45  # nearly all changed
    assert mutants.mutant(bases, "json", 2, 0) != mutants.mutant(bases, "json", 1, 0)


def test_format_aware_edits_find_their_fields() -> None:
    # {"ab": [1, 2, 3], "s": "xyz"} in MessagePack: a fixmap, a fixstr key, a fixarray, a fixstr
    mp = b"\x82\xa2ab\x93\x01\x02\x03\xa1s\xa3xyz"
    assert mutants.msgpack_headers(mp) == [("map", 0, 0, 2), ("str", 1, 0, 2), ("array", 4, 0, 3), ("str", 8, 0, 1), ("str", 10, 0, 3)]
    assert mutants.msgpack_headers(b"\xdd\x00\x00\x00\x02\x01\x02") == [("array", 0, 4, 2)]
    # protobuf: field 1 varint 150; field 2 a message holding field 1 = two bytes
    pb = b"\x08\x96\x01" + b"\x12\x04" + b"\x0a\x02\xff\xff"  # (two bytes that are no message)
    assert mutants.protobuf_fields(pb) == [(0, -1, 3, 0), (3, 4, 5, 4), (5, 6, 7, 2)]
    assert mutants.aware_for("json-simd") is mutants.AWARE["json"] and mutants.aware_for("xml") is None
    # the same map in CBOR (a map, a text key, an array of three uints, two texts), and an indefinite map
    cb = b"\xa2\x62ab\x83\x01\x02\x03\x61s\x63xyz"
    assert mutants.cbor_heads(cb) == [
        ("map", 0, 0, 2), ("text", 1, 0, 2), ("array", 4, 0, 3), ("uint", 5, 0, 1), ("uint", 6, 0, 2), ("uint", 7, 0, 3),
        ("text", 8, 0, 1), ("text", 10, 0, 3),
    ]  # fmt: skip
    assert mutants.cbor_heads(b"\xbf\x61a\x19\x01\x00\xff") == [("map", 0, -1, 0), ("text", 1, 0, 1), ("uint", 3, 2, 256)]
    made = {mutants.mutant([cb * 20], "cbor", 3, i)[1] for i in range(300)}
    assert {"cbor-map-wide", "cbor-text-as", "cbor-tag", "cbor-deep"} <= {
        h.split("@")[0].split(": ")[-1] for how in made for h in how.split(", ")
    }
    made = {mutants.mutant([mp * 20], "msgpack", 3, i)[1] for i in range(200)}
    assert any("msgpack-" in how for how in made)
    made = {mutants.mutant([pb * 20], "protobuf", 3, i)[1] for i in range(200)}
    assert any("protobuf-length" in how for how in made) and any("protobuf-wire" in how for how in made)
    # Avro, a datum of avro/catalogue.avsc: areaNames {"a": "b"}, no events or performances, topicSubTopics
    # {"t": [1]}, no venueNames (each map and array a count, its items, a 0)
    av = bytes.fromhex("02026102620000000202740202000000")
    assert mutants.avro_varints(av) == [
        ("count", 0, 1, 1), ("length", 1, 2, 1), ("length", 3, 4, 1), ("count", 5, 6, 0), ("count", 6, 7, 0),
        ("count", 7, 8, 0), ("count", 8, 9, 1), ("length", 9, 10, 1), ("count", 11, 12, 1), ("long", 12, 13, 1),
        ("count", 13, 14, 0), ("count", 14, 15, 0), ("count", 15, 16, 0),
    ]  # fmt: skip
    made = {mutants.mutant([av], "avro", 3, i)[1] for i in range(300)}
    assert {"avro-count", "avro-length", "avro-long"} <= {h.split("@")[0].split(": ")[-1] for how in made for h in how.split(", ")}
    # FlatBuffers: a root offset (12) to a vector of 2 (at 12), and a word that is no forward offset
    fb = (12).to_bytes(4, "little") + b"\xff" * 8 + (2).to_bytes(4, "little") + b"\x01\x00\x00\x00" * 2
    assert mutants.flatbuffers_offsets(fb) == [(0, 12)]
    made = {mutants.mutant([fb * 20], "flatbuffers", 3, i)[1] for i in range(200)}
    assert any("flatbuffers-offset" in how for how in made) and any("flatbuffers-target" in how for how in made)
    made = {mutants.mutant([b'{"a":[1,"x",null]}' * 20], "json", 3, i)[1] for i in range(200)}
    assert {"json-number", "json-escape", "json-mark", "json-value", "json-deep"} <= {
        h.split("@")[0].split(": ")[-1] for how in made for h in how.split(", ")
    }


def test_capnp_aware_edits_find_the_table_and_pointers() -> None:
    # one segment of 3 words: the root struct pointer (offset 0, 1 data word, 1 pointer), its data word, then a
    # list pointer (offset 0, 8-byte elements, count 0) that is the struct's pointer field
    table = (0).to_bytes(4, "little") + (3).to_bytes(4, "little")
    root = (0 << 2 | 0) | (1 << 32) | (1 << 48)
    data = (5 << 2 | 0) | 0xFFFF << 48  # a data word that looks like a struct pointer: found too (a heuristic)
    lst = 1 | (5 << 32)
    words = b"".join(w.to_bytes(8, "little") for w in (root, data, lst))
    assert mutants.capnp_pointers(table + words) == [8, 16, 24]
    assert mutants.capnp_pointers(table + b"\x00" * 8 + (2).to_bytes(8, "little")) == []  # zero; kind 2 (far)
    assert mutants.aware_for("capnp") is mutants.AWARE["capnp"]
    made = {mutants.mutant([table + words * 20], "capnp", 3, i)[1] for i in range(200)}
    kinds = {h.split("@")[0].split(": ")[-1] for how in made for h in how.split(", ")}
    assert {"capnp-table", "capnp-pointer"} <= kinds, kinds


def test_the_driver_reads_the_module_docstring() -> None:
    """The README points at the docstring for the verdicts: it names each one."""
    for kind in mutants.KINDS:
        assert textwrap.dedent(mutants.__doc__ or "").count(f"\n  {kind} ") == 1, kind


def test_a_zero_copy_formats_read_goes_through_the_mutants_too(tmp_path: Path) -> None:
    """A format of READ_MODE is fed through `--read FILE` too, a decoder of its own ("planted --read"), whose
    accepted answer is the visit checksum (a digest there is unclean), counted the same when it is the reference's."""
    script = tmp_path / "reader.py"
    script.write_text(f"import sys\nprint('12345' if sys.argv[1] == '--read' else '{DIGEST}')\n")
    decode = mutants.Decoder("planted", "flatbuffers", [sys.executable, str(script)], "planted/reader")
    read = mutants.dataclasses.replace(decode, mode="--read", label="planted/reader --read")
    assert read.key == "planted --read" and decode.key == "planted"
    cells = mutants.run(
        [decode, read], {"flatbuffers": [bytes(range(64))]}, DIGEST, count=3, jobs=2, timeout=10, save=False, checksum="12345"
    )
    assert cells["flatbuffers"]["planted"].counts == {"accepted": 3} and cells["flatbuffers"]["planted"].same == 3
    assert cells["flatbuffers"]["planted --read"].counts == {"accepted": 3} and cells["flatbuffers"]["planted --read"].same == 3
    assert mutants.classify(0, DIGEST, "", mutants.CHECKSUM).kind == "unclean"
    assert "flatbuffers" in mutants.READ_MODE


def test_the_avro_walk_stops_at_a_length_the_data_cannot_hold() -> None:
    """areaNames (the schema's first field, a map of strings) with a count of 2^40 and a key of length -2: the walk
    went back over the same bytes 2^40 times, its list grew to 24 GB; now a count past the bytes left, or a length
    the data cannot hold, stops it at once."""
    import threading

    found: list = []
    walk = threading.Thread(
        target=lambda: found.append(mutants.avro_varints(mutants._zigzag(1 << 40) + mutants._zigzag(-2) * 4)), daemon=True
    )
    walk.start()
    walk.join(timeout=5)
    assert not walk.is_alive() and found and len(found[0]) <= 2
