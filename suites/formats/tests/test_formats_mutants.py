"""formats, the mutant corpus in small: the driver (suites/formats/fuzz/mutants.py, `make fuzz-formats`
runs 300 a format) on 10 mutants of each format, every language's decoder (C++ under ASan+UBSan), with no
crash, hang or unclean refusal; and the inputs the first full run found crashes with, made again by hand, fed
to every decoder of their format: each refused cleanly or decoded. Each native format (a language's own, one
decoder: native@LANG) is in the mutant run as a format of its own, with the generic edits, and has crafted inputs."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

SUITE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(SUITE / "fuzz"))
import mutants  # noqa: E402

sys.path.insert(0, str(SUITE))
import interop  # noqa: E402

TIMEOUT = 120.0  # a loaded machine's JVM start; a hang is a minute and more


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[interop.Checked, list[mutants.Decoder], dict[str, list[bytes]]]:
    work = tmp_path_factory.mktemp("formats-mutants")
    checked = interop.check_only("tiny", work, ["--build-jobs", "2"])
    decs = mutants.decoders(checked, asan=True, jobs=2)
    formats = sorted({d.format for d in decs})
    return checked, decs, mutants.bases_of(checked, formats, work)


def test_ten_mutants_a_format_no_crash_or_hang(built) -> None:  # type: ignore[no-untyped-def]
    checked, decs, bases = built
    languages = {p.language for p in checked.programs}
    assert {"cpp", "go", "java", "python", "rust"} <= languages
    assert all("ASan+UBSan" in d.label for d in decs if d.language == "cpp"), [d.label for d in decs]
    cells = mutants.run(decs, bases, checked.expected, count=10, seed=46, jobs=2, timeout=TIMEOUT, save=False, checksum=checked.checksum)
    assert set(cells) == {p.format for p in checked.programs}
    assert {"cpp/json-fast", "rust/json-fast"} <= set(cells["json"]), set(cells["json"])  # the fast JSON decoders too
    for fmt, by_lang in cells.items():
        keys = {p.key for p in checked.programs if p.format == fmt}
        reads = {f"{k} --read" for k in keys} if fmt in mutants.READ_MODE else set()  # each program's --read too
        assert set(by_lang) == keys | reads, fmt
        for lang, cell in by_lang.items():
            assert sum(cell.counts.values()) == 10, (fmt, lang, cell.counts)
    bad = [f"{fmt} {lang}: {b}" for fmt, by in cells.items() for lang, c in by.items() for b in c.bad]
    assert not bad, mutants.table(cells) + "\n" + "\n".join(bad)


def _msgpack_huge_array(whole: bytes) -> bytes:
    """The performances list's header (array 16, 0xdc 0x00 0x10) claiming 2^32-1 items (0xdd ff ff ff ff): Go's
    library allocated them all before reading one (a fatal out-of-memory)."""
    at = whole.index(b"\xacperformances") + 13
    assert whole[at : at + 3] == b"\xdc\x00\x10", whole[at : at + 3]
    return whole[:at] + b"\xdd\xff\xff\xff\xff" + whole[at + 3 :]


def _msgpack_key_with_line_break(whole: bytes) -> bytes:
    """A field name with a carriage return (fixstr "venue\\rCode"): Jackson quotes it in its error, which was
    two lines."""
    return whole.replace(b"\xa9venueCode", b"\xaavenue\rCode", 1)


def _msgpack_int_for_string(whole: bytes) -> bytes:
    """The first venueCode's string (a fixstr) replaced by the integer 5: Python's canon raised AttributeError."""
    at = whole.index(b"\xa9venueCode") + 10
    n = whole[at] - 0xA0
    assert 0 <= n < 32
    return whole[:at] + b"\x05" + whole[at + 1 + n :]


def _capnp_first_key_last(whole: bytes) -> bytes:
    """The first areaNames key's digits all made 9s (its Text is digits then a NUL): the keys out of order, which
    every Cap'n Proto reader here refuses (a map decoded is then the map written, alike in every language)."""
    at = whole.index(b"2057059")  # the area ids: 205705990..205706099, the first key is the smallest
    end = whole.index(b"\x00", at)
    return whole[:at] + b"9" * (end - at) + whole[end:]


def _avro_varint(v: int) -> bytes:
    """Avro's zigzag varint of v (a 64-bit long)."""
    z, out = ((v << 1) ^ (v >> 63)) & ((1 << 64) - 1), bytearray()
    while z >= 0x80:
        out.append(z & 0x7F | 0x80)
        z >>= 7
    return bytes([*out, z])


def _avro_first_count(whole: bytes, count: bytes) -> bytes:
    """The datum's first varint (areaNames' first block count, 36 on tiny) replaced by count."""
    assert whole[0] == 2 * 36, whole[:1]
    return count + whole[1:]


def _avro_first_key_length(whole: bytes, length: bytes) -> bytes:
    """The first areaNames key's length (9: a key of 9 digits) replaced by length."""
    assert whole[1] == 2 * 9, whole[:2]
    return whole[:1] + length + whole[2:]


CRAFTED = {
    # CBOR nested 100,000 deep (one-item arrays, indefinite arrays, one-entry maps): nlohmann's from_cbor recursed
    # once a level into a stack overflow (ASan); the others have limits of their own (Go 32, ciborium 256, cbor2 400)
    "cbor-deep-arrays": ("cbor", lambda whole: b"\x81" * 100_000 + whole),
    "cbor-deep-indefinite": ("cbor", lambda whole: b"\x9f" * 100_000 + whole),
    "cbor-deep-maps": ("cbor", lambda whole: b"\xa1\x60" * 100_000 + whole),
    # Avro, made by hand: a block's count or a string's length claiming far more than the bytes hold (2^30 items,
    # 2^63-1, a negative count with a lying block size, -2^63, a string of 2^30 bytes). Apache Avro Java sizes an
    # array and a string by the claim (its limit is 2^31-9), apache-avro (Rust) reserves the claimed Values, hamba
    # (Go) grows its slice to the claim, Avro C mallocs a string's claimed length: each cell checks first
    "avro-count-2^30": ("avro", lambda whole: _avro_first_count(whole, _avro_varint(1 << 30))),
    "avro-count-2^63-1": ("avro", lambda whole: _avro_first_count(whole, _avro_varint((1 << 63) - 1))),
    "avro-count-negative-lying-size": ("avro", lambda whole: _avro_first_count(whole, _avro_varint(-(1 << 30)) + _avro_varint(3))),
    "avro-count--2^63": ("avro", lambda whole: _avro_first_count(whole, _avro_varint(-(1 << 63)))),
    "avro-string-2^30": ("avro", lambda whole: _avro_first_key_length(whole, _avro_varint(1 << 30))),
    "avro-string-negative": ("avro", lambda whole: _avro_first_key_length(whole, _avro_varint(-5))),
    "avro-varint-too-long": ("avro", lambda whole: b"\xff" * 10 + b"\x01" + whole[1:]),
    "avro-trailing-byte": ("avro", lambda whole: whole + b"\x00"),
    # JSON nested 100,000 deep: Python's json raised RecursionError (a traceback)
    "json-deep-arrays": ("json", lambda whole: b"[" * 100_000 + b"]" * 100_000),
    "json-deep-objects": ("json", lambda whole: whole.replace(b'"areaNames":', b'"areaNames":' + b'{"a":' * 50_000, 1)),
    # nesting 100,000 deep, closed, under a key no record has: sonic-rs 0.5.10 and fastjson2 2.0.64 skip an unknown
    # field's value by recursing without a limit (a stack overflow, sonic-rs's upstream #232; sonic-rs took the same
    # path on the root array above, to name the type it found)
    "json-deep-unknown-field": (
        "json",
        lambda whole: whole.replace(b'"areaNames":', b'"zz":' + b"[" * 100_000 + b"]" * 100_000 + b',"areaNames":', 1),
    ),
    "json-deep-objects-unknown-field": (
        "json",
        lambda whole: whole.replace(b'"areaNames":', b'"zz":' + b'{"a":' * 100_000 + b"1" + b"}" * 100_000 + b',"areaNames":', 1),
    ),
    # an id past the 64-bit range, a map where a string is, a number where a string is: Python's canon raised
    # struct.error and AttributeError
    "json-id-past-i64": ("json", lambda whole: whole.replace(b'"id":', b'"id":18446744073709551616,"x":', 1)),
    "json-map-for-string": ("json", lambda whole: whole.replace(b'"venueCode":"', b'"venueCode":{},"y":"', 1)),
    "json-number-for-string": ("json", lambda whole: whole.replace(b'"venueCode":"', b'"venueCode":5,"y":"', 1)),
    "msgpack-huge-array": ("msgpack", _msgpack_huge_array),
    "msgpack-key-with-line-break": ("msgpack", _msgpack_key_with_line_break),
    "msgpack-int-for-string": ("msgpack", _msgpack_int_for_string),
    # Cap'n Proto, made by hand (no full run had found anything): a word past the message's end, a segment count
    # of 2^32, map keys out of order
    "capnp-word-past-end": ("capnp", lambda whole: whole + bytes(8)),
    "capnp-segment-count-2^32": ("capnp", lambda whole: b"\xff\xff\xff\xff" + whole[4:]),
    "capnp-keys-out-of-order": ("capnp", _capnp_first_key_last),
}
# Native formats (each language's own, read by its program alone: fmt native@LANG), made by hand: a pickle naming
# os.system (a restricted Unpickler refuses every global), counts and sizes past the bytes (Kryo's ArrayList(n)
# and new char[n], cereal's resize(n), gob's, postcard's and bitcode's own limits), nesting where none is allowed
CRAFTED |= {
    "pickle-global-os-system": ("native@python", lambda whole: b"cos\nsystem\n(S'true'\ntR."),
    "pickle-stack-global-eval": ("native@python", lambda whole: b"\x80\x05\x8c\x08builtins\x8c\x04eval\x93\x8c\x011\x85R."),
    "pickle-ext-code": ("native@python", lambda whole: b"\x80\x05\x82\x01."),
    "pickle-deep-lists": ("native@python", lambda whole: b"\x80\x05" + b"]" * 200_000 + b"a" * 199_999 + b"."),
    "cereal-first-size-2^63": ("native@cpp", lambda whole: whole[:1] + (1 << 63).to_bytes(8, "little") + whole[9:]),
    "cereal-big-endian-flag": ("native@cpp", lambda whole: b"\x00" + whole[1:]),
    # areaNames' TreeMap (class id, size, null comparator), then its first key: made a UTF-8 string of 2^31-ish chars
    "kryo-huge-string": ("native@java", lambda whole: whole[:3] + b"\xff\xff\xff\xff\x07" + whole[3:]),
    "postcard-huge-first-count": ("native@rust", lambda whole: b"\xff\xff\xff\xff\x0f" + whole[1:]),
    "bitcode-all-ff": ("native-bitcode@rust", lambda whole: b"\xff" * len(whole)),
    "gob-huge-length": ("native@go", lambda whole: b"\xf8\x7f\xff\xff\xff\xff\xff\xff\xff" + whole[1:]),
}
LANGUAGES = {"capnp": 3}  # decoders a format has at least: five, but Cap'n Proto has no Go or Java row; native: one


@pytest.mark.parametrize("name", sorted(CRAFTED))
def test_what_the_full_run_found_is_refused_cleanly(built, tmp_path: Path, name: str) -> None:  # type: ignore[no-untyped-def]
    checked, decs, _ = built
    fmt, make = CRAFTED[name]
    # the shared formats: Python's bytes; a native one: its own program's (fmt native@LANG)
    writer = next(p for p in checked.programs if p.format == fmt and (p.key == "python" or interop.language_local(fmt)))
    whole = interop.emit(writer, checked.canonical, tmp_path / f"whole.{fmt}")
    data = make(whole)
    assert data != whole
    path = tmp_path / f"{name}.{fmt}"
    path.write_bytes(data)
    outcomes = {d.label: d.run(path, TIMEOUT) for d in decs if d.format == fmt}
    assert len(outcomes) >= (1 if interop.language_local(fmt) else LANGUAGES.get(fmt, 5))
    bad = {label: o for label, o in outcomes.items() if o.kind not in ("refused", "accepted")}
    assert not bad, bad
