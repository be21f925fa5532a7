"""rdb fuzzing: seed corpora, the real fuzzers of each compiled parser, and a differential driver.

usage: rdbfuzz.py seeds DIR                     write the seed corpus (one small dump per encoding, ...)
       rdbfuzz.py c|rust|go SECONDS             one coverage-guided fuzzer (libFuzzer, cargo fuzz, go test -fuzz)
       rdbfuzz.py diff SECONDS [--seed N] [--count N]
                                                differential: each language's fastest parser (FASTEST)
                                                and the reference read each mutant
       rdbfuzz.py replay FILE|DIR...            differential over given files (e.g. the fuzzers' corpora)
       rdbfuzz.py minimize FILE                 shrink a differential finding, keeping what it shows
       rdbfuzz.py all SECONDS                   seeds, each fuzzer SECONDS, then diff SECONDS over their corpora

Work files (builds, corpora, findings) live in $IORACE_CACHE/rdb-fuzz (default <repo>/.cache/rdb-fuzz).
A finding is a crash, hang or broken error line of one parser (anything but one `rdb: FILE: offset N:
problem` line and exit 1, or a result line and exit 0), parsers disagreeing on accept/reject, or
accepting with different summaries. Findings go to WORK/findings/ as NAME.rdb + NAME.json.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import resource
import shutil
import signal
import socket
import struct
import subprocess
import sys
import time
from pathlib import Path

SUITE = Path(__file__).resolve().parent.parent
REPO = SUITE.parent.parent
WORK = Path(os.environ.get("IORACE_CACHE", REPO / ".cache")) / "rdb-fuzz"
sys.path.insert(0, str(SUITE / "python"))
import rdb_parse  # noqa: E402  (the reference parser)
import rdb_write  # noqa: E402  (the datasets' writer: the seeds are cut from its every-encoding round)

sys.path.remove(str(SUITE / "python"))

LIBFUZZER_FLAGS = ["-max_len=65536", "-timeout=60", "-rss_limit_mb=2048", "-seed=1", "-print_final_stats=1"]


def log(*a) -> None:
    print("rdbfuzz:", *a, file=sys.stderr, flush=True)


# --- seeds --------------------------------------------------------------------------------


def _with_crc(buf: bytes) -> bytes:
    return buf + struct.pack("<Q", rdb_parse.crc64(0, buf))


def seeds(out: Path, real_dump: bool = True) -> list[Path]:
    """One small dump per key of the generator's every-encoding round (RDB 11) and of the legacy
    encodings (RDB 9, 6), the whole legacy dataset, and a small real redis-server dump when the
    server is installed. Small files: the fuzzers mutate a few KB far faster than the 0.3 MB tiny."""
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    def put(name: str, data: bytes) -> None:
        p = out / name
        p.write_bytes(data)
        written.append(p)

    class KeyFiles(rdb_write.Writer):
        def __init__(self, version: int):
            super().__init__(version)
            self.keys: list[bytes] = []

        def key(self, *a, **kw) -> None:
            start = len(self.buf)
            super().key(*a, **kw)
            self.keys.append(bytes(self.buf[start:]))
            del self.buf[start:]

    for version, big in ((11, False), (11, True), (6, False)):
        w = KeyFiles(version)
        rdb_write.all_encodings(w, random.Random(7), 1, big)
        head = b"REDIS%04d" % version
        if version >= 7:
            head += b"\xfa" + rdb_write.enc_str(b"redis-ver") + rdb_write.enc_str(b"7.2.4")
        for i, k in enumerate(w.keys):
            if version < 7 and k[:1] and k[0] in (15, 16, 17, 18, 19, 20, 21):
                continue  # those types came after RDB 6
            put(f"v{version}{'big' if big else ''}-{i:02d}.rdb", _with_crc(head + b"\xfe\x01" + k + b"\xff"))
    # opcodes and a second db in one file, and a checksum of zeros (not checked)
    extra = b"REDIS0011\xfa\x09redis-ver\x057.2.4\xf5" + rdb_write.enc_str(b"#!lua name=l\nreturn 1")
    extra += b"\xfe\x00\xfb\x02\x01\xfc" + struct.pack("<q", 1_800_000_000_000) + b"\xf8\x05\xf9\x03\x00\x01a\x01b"
    extra += b"\xfe\x81" + (300).to_bytes(8, "big")
    extra += b"\xfd" + struct.pack("<I", 1_800_000_000) + b"\x00\x01c\xc0\x05\xff"
    put("opcodes.rdb", _with_crc(extra))
    put("no-checksum.rdb", extra + b"\x00" * 8)
    legacy = out / "legacy.rdb"
    rdb_write.write("legacy", legacy)
    written.append(legacy)
    if real_dump and shutil.which("redis-server"):
        try:
            put("redis-server.rdb", _real_dump())
        except Exception as e:  # a seed less, not a failure
            log(f"no real dump: {e}")
    return written


def _real_dump() -> bytes:
    """A small dump written by Debian's redis-server: every type, small (listpack/intset) and a few
    larger (hashtable/quicklist) encodings, LZF strings, expiries, a stream with a group, a function."""
    tmp = WORK / "redis"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--dir",
            str(tmp),
            "--dbfilename",
            "dump.rdb",
            "--save",
            "",
            "--appendonly",
            "no",
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
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("redis-server did not start") from None
                time.sleep(0.1)
        f = sock.makefile("rb")

        def call(*args) -> None:
            msg = b"*%d\r\n" % len(args)
            for a in args:
                a = a if isinstance(a, bytes) else str(a).encode()
                msg += b"$%d\r\n%s\r\n" % (len(a), a)
            sock.sendall(msg)
            _skip_reply(f)

        call("FUNCTION", "LOAD", "#!lua name=fz\nredis.register_function('one', function() return 1 end)")
        for db in (0, 5):
            call("SELECT", db)
            call("SET", "s", "hello")
            call("SET", "i", "-12345")
            call("SET", "z", "abcdefgh" * 40, "PX", 99999999)
            call("RPUSH", "l", "a", "1", "-300", "70000", "x" * 70)
            call("RPUSH", "lbig", *[f"item{i}" for i in range(200)])
            call("SADD", "si", *range(-3, 9))
            call("SADD", "ss", "a", "b", "c")
            call("SADD", "sbig", *[f"m{i}" for i in range(200)])
            call("ZADD", "zs", 1, "a", 2.5, "b", "-inf", "c", 1e300, "d")
            call("ZADD", "zbig", *[x for i in range(200) for x in (i / 7, f"z{i}")])
            call("HSET", "h", "f1", "v1", "f2", "22")
            call("HSET", "hbig", *[x for i in range(200) for x in (f"f{i}", f"v{i}")])
            call("EXPIRE", "h", 100000)
            for i in range(3):
                call("XADD", "st", "*", "n", str(i))
            call("XGROUP", "CREATE", "st", "g", "0")
            call("XREADGROUP", "GROUP", "g", "c1", "COUNT", "1", "STREAMS", "st", ">")
        call("SAVE")
        sock.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    return (tmp / "dump.rdb").read_bytes()


def _skip_reply(f) -> None:
    line = f.readline()
    kind = line[:1]
    if kind == b"-":
        raise RuntimeError(line.decode(errors="replace").strip())
    if kind == b"$" and int(line[1:]) >= 0:
        f.read(int(line[1:]) + 2)
    elif kind == b"*":
        for _ in range(max(int(line[1:]), 0)):
            _skip_reply(f)


# --- the parsers, built once each -------------------------------------------------------------


def _run(cmd, **kw) -> None:
    p = subprocess.run(cmd, check=False, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd))}: {p.stderr[-2000:]}")


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


class Program:
    """A variant program run once per file: verdict from its exit code and stderr."""

    def __init__(self, name: str, argv: list[str], label: str):
        self.name, self.argv, self.label = name, argv, label  # name: the language; label: the variant

    def run(self, path: Path) -> tuple[str, object]:
        try:
            p = subprocess.run([*self.argv, str(path)], check=False, capture_output=True, timeout=20, preexec_fn=_limit_memory)
        except subprocess.TimeoutExpired:
            return "hang", "no answer in 20 s"
        err = p.stderr.decode("utf-8", "replace")
        lines = [ln for ln in err.splitlines() if ln.strip()]
        if p.returncode == 0 and lines and lines[-1].startswith("iorace-result "):
            return "ok", json.loads(lines[-1][len("iorace-result ") :])["answer"]
        if p.returncode == 1 and len(lines) == 1 and lines[0].startswith(f"rdb: {path}: offset "):
            return "err", lines[0][len(f"rdb: {path}: ") :]
        if p.returncode == 1 and lines and lines[0].startswith(f"rdb: {path}: offset "):
            return "badline", f"{len(lines)} stderr lines: {err[-300:]!r}"
        return "crash", f"exit {p.returncode}: {err[-300:]!r}"


class JavaBatch:
    """The Java parser in one long-lived JVM (RdbFuzzBatch): a path in, one verdict line out."""

    name = "java"

    def __init__(self, classes: Path, strategy: str, label: str):
        self.cmd = ["java", "-Xmx512m", "-cp", str(classes), "RdbFuzzBatch", strategy]
        self.label = label
        self.proc = None

    def _start(self) -> None:
        self.proc = subprocess.Popen(self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def run(self, path: Path) -> tuple[str, object]:
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        self.proc.stdin.write(f"{path}\n")
        self.proc.stdin.flush()
        timer = _Alarm(20)
        try:
            line = self.proc.stdout.readline().rstrip("\n")
        except TimeoutError:
            self.close()
            return "hang", "no answer in 20 s"
        finally:
            timer.cancel()
        if not line:
            self.close()
            return "crash", "the JVM exited"
        kind, _, rest = line.partition(" ")
        return (kind, json.loads(rest)) if kind == "ok" else (kind, rest)

    def close(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None


class _Alarm:
    def __init__(self, seconds: int):
        def boom(*_):
            raise TimeoutError

        self.old = signal.signal(signal.SIGALRM, boom)
        signal.alarm(seconds)

    def cancel(self) -> None:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, self.old)


class Reference:
    """The Python reference, in this process."""

    name = "python"
    label = "python/reference (in process)"

    def run(self, path: Path) -> tuple[str, object]:
        timer = _Alarm(60)
        try:
            return "ok", rdb_parse.parse_file(path)
        except rdb_parse.RdbError as e:
            msg = str(e)
            return ("badline" if "\n" in msg or "\r" in msg else "err"), msg
        except TimeoutError:
            return "hang", "no answer in 60 s"
        except Exception as e:  # any other exception is the finding
            return "crash", f"{type(e).__name__}: {e}"
        finally:
            timer.cancel()


# The program the differential driver runs for each language: the language's fastest parser in the suite's
# stored results (docs/results/2026-11-24-rdb-languages/session-1.md, a session of every compiled language's release cells on
# the seed dump, its "Best strategy per language and toolchain" table; session-2.md beside it, a second
# session, agrees; the Rust one is built in the debug profile, where integer overflow panics too). The fastest
# has the most specialised read path (parsing in place: borrowing from the mapping or the array), where a bug
# only it has would hide from the other variants; the fuzz targets of C and Go (and Rust's) parse every input
# both in place and copied, and fail when the two disagree. C is built with gcc -O2 (c/inplace by gcc is the
# table's fastest cell, clang's within its interval; the libFuzzer target is clang's). Python's one parser is
# the reference (its fastest row is the rdbtools peer, not ours).
FASTEST = {"rust": "inplace", "c": "inplace", "go": "inplace", "java": "inplace"}
# The class whose own source fuzz/RdbFuzzBatch.java parses each file through (java/inplace: the whole file in
# one byte[], parsed in place); the batch also knows RdbReadFully, Java's fastest before the in-place parser.
JAVA_BATCH = {"inplace": "RdbInPlace"}


def build_parsers(java: bool = True) -> list:
    """Each language's fastest parser (FASTEST), plus the reference: the parser logic is the same in all of a
    language's variants, and every variant is checked on real and crafted files by the tests."""
    WORK.mkdir(parents=True, exist_ok=True)
    out: list = []
    target = WORK / "target"
    rust = FASTEST["rust"]
    _run(
        ["cargo", "build", "--quiet", "--bin", rust, "--manifest-path", str(SUITE / "rust" / "Cargo.toml"), "--target-dir", str(target)],
        timeout=1200,
    )  # debug profile: integer overflow panics too
    out.append(Program("rust", [str(target / "debug" / rust)], f"rust/{rust} (debug)"))
    cc = shutil.which("gcc") or shutil.which("cc")
    c = FASTEST["c"]
    _run([cc, "-O2", "-o", str(WORK / f"c_{c}"), str(SUITE / "c" / f"{c}.c"), "-lm"], timeout=300)
    out.append(Program("c", [str(WORK / f"c_{c}")], f"c/{c} ({Path(cc).name} -O2)"))
    go = FASTEST["go"]
    _run(["go", "build", "-o", str(WORK / f"go_{go}"), "parser.go", f"{go.replace('-', '_')}.go"], cwd=SUITE / "go", timeout=600)
    out.append(Program("go", [str(WORK / f"go_{go}")], f"go/{go}"))
    if java and shutil.which("javac"):
        strategy = JAVA_BATCH[FASTEST["java"]]
        classes = WORK / "java"
        classes.mkdir(exist_ok=True)
        # every strategy's file: the batch names those it can parse through, and RdbInPlace uses RdbByteBuffer
        sources = [*sorted((SUITE / "java").glob("*.java")), SUITE / "fuzz" / "RdbFuzzBatch.java"]
        _run(["javac", "-d", str(classes), *map(str, sources)], timeout=300)
        out.append(JavaBatch(classes, strategy, f"java/{FASTEST['java']} (one JVM)"))
    out.append(Reference())
    return out


# --- differential --------------------------------------------------------------------------

SPECIAL = [
    0x00,
    0xFF,
    0x80,
    0x81,
    0xC0,
    0xC1,
    0xC2,
    0xC3,
    0x3F,
    0x40,
    0xFE,
    0xFD,
    0xFC,
    0xFB,
    0xFA,
    0xF9,
    0xF8,
    0xF5,
    0x7F,
    0x01,
    0xF0,
    0xF1,
    0xF4,
    0x0A,
    0x0D,
]
INTERESTING = [0, 1, 0x7F, 0x80, 0xFF, 0x100, 0xFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 1 << 40, (1 << 63) - 1, 1 << 63, (1 << 64) - 1]
TEXT = [
    b"nan",
    b"-nan",
    b"inf",
    b"-inf",
    b"infinity",
    b"0x10",
    b"1e400",
    b"-0",
    b"1_0",
    b" 1",
    b"1 ",
    b"+1",
    b".5",
    b"5.",
    b"1e",
    b"0X1p4",
    b"nan(1)",
    b"-9223372036854775808",
    b"18446744073709551616",
    b"\n",
]


def mutate(rng: random.Random, data: bytes, corpus: list[bytes]) -> bytes:
    m = bytearray(data)
    for _ in range(1 + rng.randrange(4)):
        if not m:
            break
        i = rng.randrange(len(m))
        op = rng.randrange(10)
        if op == 0:
            m[i] ^= 1 << rng.randrange(8)
        elif op == 1:
            m[i] = rng.choice(SPECIAL)
        elif op == 2:
            m[i] = rng.randrange(256)
        elif op == 3:
            del m[i : i + 1 + rng.randrange(8)]
        elif op == 4:
            m[i:i] = bytes([rng.choice(SPECIAL)])
        elif op == 5:  # an interesting integer, little- or big-endian, over 1/2/4/8 bytes
            w = rng.choice((1, 2, 4, 8))
            v = rng.choice(INTERESTING) & ((1 << (8 * w)) - 1)
            m[i : i + w] = v.to_bytes(w, rng.choice(("little", "big")))
        elif op == 6:  # duplicate a chunk
            j = min(len(m), i + 1 + rng.randrange(64))
            m[j:j] = m[i:j]
        elif op == 7 and corpus:  # splice in a piece of another seed
            other = rng.choice(corpus)
            a = rng.randrange(len(other))
            m[i : i + rng.randrange(32)] = other[a : a + 1 + rng.randrange(64)]
        elif op == 8:  # replace a short run by text a number parser may read differently
            t = rng.choice(TEXT)
            m[i : i + len(t)] = t
        else:
            del m[i:]
    return bytes(m)


def fix_crc(rng: random.Random, data: bytes) -> bytes:
    """Most mutants get a valid trailer again (or zeros: not checked), so they reach the summary."""
    if len(data) < 17:
        return data
    r = rng.random()
    if r < 0.6:
        return data[:-8] + struct.pack("<Q", rdb_parse.crc64(0, data[:-8]))
    if r < 0.8:
        return data[:-8] + b"\x00" * 8
    return data


def _canon(answer: object) -> str:
    """The summary with zero counters left out, so that parsers that report a counter (say, a new type's
    key count) and parsers that do not yet are compared on what they both say; then as sorted JSON."""

    def drop_zeros(v):
        if isinstance(v, dict):
            return {k: drop_zeros(x) for k, x in v.items() if x != 0}
        return v

    return json.dumps(drop_zeros(answer), sort_keys=True)


def judge(outcomes: dict[str, tuple[str, object]]) -> str | None:
    """None when all parsers behave and agree; else the finding's kind."""
    bad = sorted(n for n, (k, _) in outcomes.items() if k not in ("ok", "err", "badline"))
    if bad:
        return "crash-" + "-".join(bad)
    bad = sorted(n for n, (k, _) in outcomes.items() if k == "badline")
    if bad:  # rejected, but the one error line is split (a raw line break from the file in the message)
        return "errorline-" + "-".join(bad)
    verdicts = {n: k for n, (k, _) in outcomes.items()}
    if len(set(verdicts.values())) > 1:
        return "verdict-accepted-by-" + "-".join(sorted(n for n, k in verdicts.items() if k == "ok"))
    answers = [_canon(a) for k, a in outcomes.values() if k == "ok"]
    if len(set(answers)) > 1:
        ref = _canon(outcomes["python"][1]) if "python" in outcomes else answers[0]
        return "summary-differs-" + "-".join(sorted(n for n, (k, a) in outcomes.items() if _canon(a) != ref))
    return None


def run_all(parsers: list, path: Path) -> dict[str, tuple[str, object]]:
    return {p.name: p.run(path) for p in parsers}


def save_finding(kind: str, data: bytes, outcomes: dict) -> Path:
    d = WORK / "findings"
    d.mkdir(parents=True, exist_ok=True)
    name = f"{kind}-{hashlib.sha1(data).hexdigest()[:10]}"
    (d / f"{name}.rdb").write_bytes(data)
    (d / f"{name}.json").write_text(json.dumps({k: [v, o] for k, (v, o) in outcomes.items()}, indent=1) + "\n")
    return d / f"{name}.rdb"


def diff(
    seconds: float,
    seed: int = 1,
    count: int | None = None,
    corpus_dirs: list[Path] = (),
    parsers: list | None = None,
    max_per_kind: int = 3,
) -> dict:
    """Mutate seeds (and any corpus files) with a seeded RNG; every parser reads each mutant."""
    seed_dir = WORK / "seeds"
    files = seeds(seed_dir) if not any(seed_dir.glob("*.rdb")) else sorted(seed_dir.glob("*.rdb"))
    for d in corpus_dirs:
        files += sorted(p for p in Path(d).iterdir() if p.is_file() and p.stat().st_size <= 65536)
    corpus = [p.read_bytes() for p in files]
    parsers = parsers or build_parsers()
    rng = random.Random(seed)
    tmp = WORK / "mutant.rdb"
    stats = {"executions": 0, "accepted": 0, "findings": {}, "parsers": [p.name for p in parsers], "programs": [p.label for p in parsers]}
    log("differential over " + ", ".join(stats["programs"]))
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline and (count is None or stats["executions"] < count):
            data = fix_crc(rng, mutate(rng, rng.choice(corpus), corpus))
            tmp.write_bytes(data)
            outcomes = run_all(parsers, tmp)
            stats["executions"] += 1
            stats["accepted"] += all(k == "ok" for k, _ in outcomes.values())
            kind = judge(outcomes)
            if kind:
                seen = stats["findings"].setdefault(kind, [])
                if len(seen) < max_per_kind:
                    seen.append(str(save_finding(kind, data, outcomes)))
    finally:
        for p in parsers:
            getattr(p, "close", lambda: None)()
    return stats


def replay(paths: list[Path], parsers: list | None = None) -> dict[str, list[str]]:
    """Every parser on each file; returns {finding kind: [files]}."""
    files: list[Path] = []
    for p in paths:
        files += sorted(x for x in p.iterdir() if x.is_file()) if p.is_dir() else [p]
    parsers = parsers or build_parsers()
    found: dict[str, list[str]] = {}
    try:
        for f in files:
            kind = judge(run_all(parsers, f))
            if kind:
                found.setdefault(kind, []).append(str(f))
    finally:
        for p in parsers:
            getattr(p, "close", lambda: None)()
    return found


def minimize(path: Path, parsers: list | None = None, seconds: float = 120) -> bytes:
    """Delete chunks (halving their size) while the file still shows the same finding; the CRC
    trailer is recomputed after each cut when the original's was valid."""
    data = path.read_bytes()
    crc_ok = len(data) > 8 and struct.unpack("<Q", data[-8:])[0] == rdb_parse.crc64(0, data[:-8])
    parsers = parsers or build_parsers()
    tmp = WORK / "minimize.rdb"

    def kind_of(d: bytes) -> str | None:
        if crc_ok and len(d) > 8:
            d = d[:-8] + struct.pack("<Q", rdb_parse.crc64(0, d[:-8]))
        tmp.write_bytes(d)
        return judge(run_all(parsers, tmp))

    want = kind_of(data)
    deadline = time.monotonic() + seconds
    chunk = max(1, len(data) // 2)
    try:
        while chunk >= 1 and time.monotonic() < deadline:
            i, changed = 9, False  # keep the magic and version
            while i < len(data) - (8 if crc_ok else 0) and time.monotonic() < deadline:
                cand = data[:i] + data[i + chunk :]
                if len(cand) > 9 + (8 if crc_ok else 0) and kind_of(cand) == want:
                    data, changed = cand, True
                else:
                    i += chunk
            if not changed:
                chunk //= 2
    finally:
        for p in parsers:
            getattr(p, "close", lambda: None)()
    if crc_ok:
        data = data[:-8] + struct.pack("<Q", rdb_parse.crc64(0, data[:-8]))
    return data


# --- the coverage-guided fuzzers ------------------------------------------------------------


def _fuzz_dirs(name: str, corpus: Path | None = None) -> tuple[Path, Path, Path]:
    """The fuzzer's growing corpus (WORK/corpus/NAME unless given), its crash folder and the seeds."""
    corpus, crashes = corpus or WORK / "corpus" / name, WORK / "crashes" / name
    corpus.mkdir(parents=True, exist_ok=True)
    crashes.mkdir(parents=True, exist_ok=True)
    seed_dir = WORK / "seeds"
    if not any(seed_dir.glob("*.rdb")):
        seeds(seed_dir)
    return corpus, crashes, seed_dir


def _libfuzzer_stats(text: str) -> dict:
    runs = re.findall(r"Done (\d+) runs in (\d+) second", text)
    execs = int(runs[-1][0]) if runs else max([int(x) for x in re.findall(r"^#(\d+)", text, re.MULTILINE)] or [0])
    return {"executions": execs}


def fuzz_c(seconds: float, runs: int | None = None, corpus: Path | None = None) -> dict:
    clang = shutil.which("clang-14") or shutil.which("clang")
    if clang is None:
        raise RuntimeError("clang not installed (apt-get install clang libclang-rt-14-dev)")
    corpus, crashes, seed_dir = _fuzz_dirs("c", corpus)
    binary = WORK / "c_fuzz"
    _run(
        [
            clang,
            "-g",
            "-O1",
            "-fsanitize=fuzzer,address,undefined",
            "-fno-sanitize-recover=undefined",
            str(SUITE / "c" / "fuzz" / "fuzz_parse.c"),  # each input copied and in place (fuzz_inplace.c): must agree
            str(SUITE / "c" / "fuzz" / "fuzz_inplace.c"),
            "-o",
            str(binary),
            "-lm",
        ],
        timeout=300,
    )
    limit = [f"-runs={runs}"] if runs is not None else [f"-max_total_time={int(seconds)}"]
    before = set(crashes.iterdir())
    # no leak checks, per input or at exit: the parser leaves its buffers to the end of the process
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")
    p = subprocess.run(
        [str(binary), *LIBFUZZER_FLAGS, *limit, "-detect_leaks=0", f"-artifact_prefix={crashes}/", str(corpus), str(seed_dir)],
        check=False,
        capture_output=True,
        text=True,
        timeout=seconds + 600,
        env=env,
    )
    return {
        "fuzzer": "libFuzzer (clang, ASan+UBSan)",
        **_libfuzzer_stats(p.stderr),
        "crashed": p.returncode != 0,
        "tail": p.stderr[-1500:],
        "crashes": sorted(str(f) for f in set(crashes.iterdir()) - before),
    }


def cargo_fuzz_available() -> str | None:
    """None when `cargo +nightly fuzz` can run; else why not."""
    if shutil.which("cargo") is None:
        return "cargo is not installed"
    if subprocess.run(["cargo", "+nightly", "--version"], check=False, capture_output=True).returncode != 0:
        return "no nightly toolchain (rustup toolchain install nightly)"
    if subprocess.run(["cargo", "fuzz", "--version"], check=False, capture_output=True).returncode != 0:
        return "cargo-fuzz is not installed (cargo install cargo-fuzz)"
    return None


def install_cargo_fuzz() -> None:
    nightly = subprocess.run(["cargo", "+nightly", "--version"], check=False, capture_output=True)
    if shutil.which("rustup") and nightly.returncode:
        _run(["rustup", "toolchain", "install", "nightly", "--profile", "minimal"], timeout=1800)
    if subprocess.run(["cargo", "fuzz", "--version"], check=False, capture_output=True).returncode:
        _run(["cargo", "install", "--locked", "cargo-fuzz"], timeout=1800)


def fuzz_rust(seconds: float, runs: int | None = None, corpus: Path | None = None) -> dict:
    corpus, crashes, seed_dir = _fuzz_dirs("rust", corpus)
    env = dict(os.environ, CARGO_TARGET_DIR=str(WORK / "rust-target"))
    limit = [f"-runs={runs}"] if runs is not None else [f"-max_total_time={int(seconds)}"]
    before = set(crashes.iterdir())
    p = subprocess.run(
        [
            "cargo",
            "+nightly",
            "fuzz",
            "run",
            "parse",
            str(corpus),
            str(seed_dir),
            "--",
            *LIBFUZZER_FLAGS,
            *limit,
            f"-artifact_prefix={crashes}/",
        ],
        cwd=SUITE / "rust",
        env=env,
        check=False,
        capture_output=True,
        text=True,
        timeout=seconds + 1800,
    )
    return {
        "fuzzer": "cargo fuzz (libFuzzer, ASan, debug assertions)",
        **_libfuzzer_stats(p.stderr),
        "crashed": p.returncode != 0,
        "tail": p.stderr[-1500:],
        "crashes": sorted(str(f) for f in set(crashes.iterdir()) - before),
    }


def fuzz_go(seconds: float) -> dict:
    _, crashes, seed_dir = _fuzz_dirs("go")
    env = dict(os.environ, RDB_FUZZ_SEEDS=str(seed_dir))
    before = set(crashes.iterdir())
    p = subprocess.run(
        [
            "go",
            "test",
            "-run",
            "^$",
            "-fuzz",
            "^FuzzParse$",
            "-fuzztime",
            f"{int(seconds)}s",
            "-fuzzminimizetime",
            "2s",
            "-parallel",
            "1",
            "parser.go",
            "fuzz_test.go",
        ],
        cwd=SUITE / "go",
        env=env,
        check=False,
        capture_output=True,
        text=True,
        timeout=seconds + 600,
    )
    text = p.stdout + p.stderr
    execs = [int(x) for x in re.findall(r"execs: (\d+)", text)]
    # go test -fuzz writes a failing input to testdata/fuzz/FuzzParse/ next to the test: move it to WORK
    found = SUITE / "go" / "testdata" / "fuzz" / "FuzzParse"
    if found.is_dir():
        for f in found.iterdir():
            shutil.move(str(f), crashes / f.name)
        shutil.rmtree(SUITE / "go" / "testdata", ignore_errors=True)
    return {
        "fuzzer": "go test -fuzz",
        "executions": max(execs or [0]),
        "crashed": p.returncode != 0,
        "tail": text[-1500:],
        "crashes": sorted(str(f) for f in set(crashes.iterdir()) - before),
    }


# --- command line -----------------------------------------------------------------------------


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="rdbfuzz.py", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("seeds").add_argument("dir", type=Path)
    for name in ("c", "rust", "go", "all"):
        sub.add_parser(name).add_argument("seconds", type=float)
    d = sub.add_parser("diff")
    d.add_argument("seconds", type=float)
    d.add_argument("--seed", type=int, default=1)
    d.add_argument("--count", type=int)
    d.add_argument("--corpus", type=Path, action="append", default=[])
    sub.add_parser("replay").add_argument("paths", type=Path, nargs="+")
    m = sub.add_parser("minimize")
    m.add_argument("file", type=Path)
    m.add_argument("--out", type=Path)
    a = ap.parse_args(argv)

    def show(name: str, r: dict) -> None:
        log(f"{name}: {r.get('executions')} executions, crashes: {r.get('crashes') or r.get('findings') or 'none'}")
        if r.get("crashed"):
            log(r.get("tail", ""))

    if a.cmd == "seeds":
        print("\n".join(map(str, seeds(a.dir))))
        return 0
    if a.cmd == "c":
        r = fuzz_c(a.seconds)
        show("c", r)
        return 1 if r["crashed"] else 0
    if a.cmd == "rust":
        why = cargo_fuzz_available()
        if why:
            log(f"installing cargo fuzz ({why})")
            install_cargo_fuzz()
        r = fuzz_rust(a.seconds)
        show("rust", r)
        return 1 if r["crashed"] else 0
    if a.cmd == "go":
        r = fuzz_go(a.seconds)
        show("go", r)
        return 1 if r["crashed"] else 0
    if a.cmd == "diff":
        r = diff(a.seconds, a.seed, a.count, a.corpus)
        show("diff", r)
        print(json.dumps(r, indent=1))
        return 1 if r["findings"] else 0
    if a.cmd == "replay":
        found = replay(a.paths)
        print(json.dumps(found, indent=1))
        return 1 if found else 0
    if a.cmd == "minimize":
        data = minimize(a.file)
        out = a.out or a.file.with_suffix(".min.rdb")
        out.write_bytes(data)
        print(out, len(data), "bytes")
        return 0
    # all
    results = {}
    results["c"] = fuzz_c(a.seconds)
    why = cargo_fuzz_available()
    if why:
        log(f"installing cargo fuzz ({why})")
        install_cargo_fuzz()
    results["rust"] = fuzz_rust(a.seconds)
    results["go"] = fuzz_go(a.seconds)
    results["diff"] = diff(a.seconds, corpus_dirs=[WORK / "corpus" / n for n in ("c", "rust")])
    for name, r in results.items():
        show(name, r)
    summary = {n: {"executions": r["executions"], "findings": r.get("crashes") or r.get("findings") or []} for n, r in results.items()}
    print(json.dumps(summary, indent=1))
    return 1 if any(v["findings"] for v in summary.values()) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
