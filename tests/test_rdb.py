"""rdb suite: generated dumps, a real redis-server dump, corrupt dumps and a fuzz run of the Rust parser.

Everything goes through the real harness (`python -m iorace run ...`) except the
corrupt dumps: the harness refuses an input its reference cannot parse, so
those run each built cell's exported command line directly, with the corrupt
file in place of the input.
"""
from __future__ import annotations

import importlib.util
import os
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

# End-to-end: builds toolchains and runs the real CLI (`pytest -m "not slow"` is the quick loop).
pytestmark = pytest.mark.slow

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


# 6 Rust strategies x 2 profiles + C 2 x 2 compilers + Go 2 + Java 2 + Python 1
OUR_CELLS = 6 * 2 + 2 * 2 + 2 + 2 + 1


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


def test_reference_summary_shape(tmp_path):
    path = tmp_path / "tiny.rdb"
    _suite_module().generate("tiny", path)
    a = rdb_parse.parse_file(path)
    assert list(a) == ["keys", "expires", "dbs", "types", "digest"]
    assert list(a["types"]) == ["string", "list", "set", "zset", "hash", "stream"]
    assert all(a["types"].values()) and sum(a["types"].values()) == a["keys"]
    assert list(a["dbs"]) == ["0", "1", "9", "300"]
    assert len(a["digest"]) == 16
    assert rdb_parse.crc64(0, b"123456789") == 0xE9C6D914C4B8D9CA
    big = os.urandom(300_001)
    assert rdb_parse.crc64(0, big) == rdb_parse._crc64_bytewise(0, big)


# --- a real dump from redis-server ------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _resp(*args) -> bytes:
    out = b"*%d\r\n" % len(args)
    for a in args:
        a = a if isinstance(a, bytes) else str(a).encode()
        out += b"$%d\r\n%s\r\n" % (len(a), a)
    return out


def _commands() -> tuple[list[tuple], dict[str, dict[str, int]]]:
    """Commands loading every type and encoding, and the expected key counts per db and type."""
    cmds: list[tuple] = [("FUNCTION", "LOAD", "#!lua name=iorace\nredis.register_function('one', function() return 1 end)")]
    types: dict[str, int] = dict.fromkeys(("string", "list", "set", "zset", "hash", "stream"), 0)
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
        key(db, "string", "SET", p + "lzf", "abcdefgh" * 500)            # compressible: LZF
        key(db, "string", "SET", p + "big", os.urandom(20000).hex())      # 32-bit length
        key(db, "string", "SET", p + "exp", "soon", "PX", 987654321)      # expiry (ms)
        key(db, "list", "RPUSH", p + "list:small", "a", "1", "-300", "70000", "x" * 100)
        key(db, "list", "RPUSH", p + "list:big", *[f"item{i}" for i in range(3000)])
        key(db, "set", "SADD", p + "set:ints", *range(-5, 40))           # intset
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
    proc = subprocess.Popen([server, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(d),
                             "--dbfilename", "dump.rdb", "--save", "", "--appendonly", "no",
                             "--rdbcompression", "yes", "--rdbchecksum", "yes", "--logfile", str(d / "redis.log")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
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
        "module-type": (_finish(_body() + b"\x07\x01k"), "module"),
        "module-aux": (_finish(_body() + b"\xf7\x01"), "MODULE_AUX"),
        "bad-ziplist": (_finish(_body() + b"\x0a\x01k\x05\x0b\x00\x00\x00\x01"), "ziplist"),
        "bad-listpack": (_finish(_body() + b"\x10\x01k\x08\x08\x00\x00\x00\x00\x00\xf9\xff"), "listpack"),
        "bad-intset": (_finish(_body() + b"\x0b\x01k\x08\x03\x00\x00\x00\x01\x00\x00\x00"), "intset"),
        "bad-length-byte": (_finish(_body() + b"\x00\x01k\x82"), "length"),
        "no-eof": (bytes(_body() + b"\x00\x01k\x01v"), "offset"),
    }


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
    cmds = {}
    for r in tiny_run.cells(suite="rdb", status="ok"):
        if r["kind"] != "peer":
            argv = shlex.split(r["command"])
            cmds[r["label"]] = argv[:-1]  # the input path is the last argument
    return cmds


def test_corrupt_dumps_rejected_by_every_parser(tiny_run, corrupt_files):
    cmds = _our_commands(tiny_run)
    assert len(cmds) >= OUR_CELLS
    problems = []
    for label, argv in sorted(cmds.items()):
        java = argv[0] == "java" or argv[0].endswith("/java")
        for name, (path, word) in corrupt_files.items():
            try:
                p = subprocess.run([*argv, str(path)], capture_output=True, text=True, timeout=60,
                                   preexec_fn=None if java else _limit_memory)
            except subprocess.TimeoutExpired:
                problems.append(f"{label} {name}: hung")
                continue
            lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
            if p.returncode <= 0:
                problems.append(f"{label} {name}: exit {p.returncode}: {p.stderr[-300:]}")
            elif len(lines) != 1 or "offset" not in lines[0] or word.lower() not in lines[0].lower():
                problems.append(f"{label} {name}: wanted one line with 'offset' and {word!r}, got {lines[-3:]}")
    assert not problems, "\n".join(problems)


# --- fuzz ------------------------------------------------------------------------------
# cargo fuzz needs a nightly toolchain, which this machine cannot install, so the same idea runs as
# a plain binary (rust/src/bin/fuzz.rs): a deterministic mutation loop over real and generated
# dumps, parsing each mutant in memory, failing on any panic (the debug build also panics on
# integer overflow) or on a parse slower than a second.


@pytest.mark.parametrize("source", ["tiny", "real"])
def test_fuzz_rust_parser(source, corrupt_files, real_dump, tmp_path):
    cargo = shutil.which("cargo")
    if cargo is None:
        pytest.skip("cargo not installed")
    target = Path(os.environ.get("IORACE_CACHE", REPO / ".cache")) / "rdb-fuzz-target"
    subprocess.run([cargo, "build", "--quiet", "--bin", "fuzz", "--manifest-path", str(SUITE / "rust" / "Cargo.toml"),
                    "--target-dir", str(target)], check=True, timeout=900)
    seed_file = corrupt_files["flipped-byte"][0].with_name("tiny.rdb") if source == "tiny" else real_dump[0]
    p = subprocess.run([str(target / "debug" / "fuzz"), str(seed_file), "4", "12345"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "no panic" in p.stdout


def test_report_compares_strategies_with_the_in_memory_cursor_and_the_peers(tmp_path):
    res = run_iorace(["run", "rdb", "--size", "legacy", "--runs", "2", "--warmup", "0", "--profile", "release",
                      "--variant", "rust/*", "--variant", "python/peer-rdbtools"], tmp_path)
    assert "x in-memory" in res.stdout and "x best peer" in res.stdout
    (vec,) = res.cells(variant="vec")
    (bytewise,) = res.cells(variant="bytewise")
    assert vec["ratio_to_language_reference"] == 1.0
    # Each column is the cell's median over its reference's: recompute both from the exported runs.
    (peer,) = res.cells(variant="peer-rdbtools")
    med = lambda c: statistics.median(c["inner_times"] or c["times"])  # noqa: E731
    assert bytewise["ratio_to_language_reference"] == pytest.approx(med(bytewise) / med(vec))
    assert bytewise["ratio_to_best_peer"] == pytest.approx(med(bytewise) / med(peer))
