"""formats: bad bytes refused, never trusted. A seeded mutant corpus per format, fed to every
language's decoder of that format.

usage: mutants.py [--count N] [--seed S] [--jobs J] [--timeout SECONDS] [--format F]... [--language L]...
                  [--no-asan] [--json OUT]
       mutants.py replay FORMAT FILE...     every decoder of FORMAT on the given files (a saved finding, say)

For each format of the suite (each wire format of the variants in suite.toml, a variant name's first word: json,
msgpack, protobuf; json-fast is JSON, its programs among JSON's encoders and decoders; a native variant's format,
a language's own, is VARIANT@LANGUAGE, one program its encoder and decoder, generic edits only), the
encodings of the tiny dataset that the format's programs write (`PROG --emit`, the distinct ones) are the bases;
mutant i of format F is made by its own RNG, `random.Random(f"{seed}/{F}/{i}")`, so `--count 10` is the first ten
of the 300 and any one mutant is made again alone: a truncation at a random point, or one to four edits (bit
flips, special or random bytes, inserted, deleted or repeated runs, an interesting integer over 1-8 bytes) with
format-aware ones among them (MessagePack: a length or count changed, widened, or its type swapped; JSON: a
number, escape, bracket or scalar replaced, nesting thousands deep; protobuf: a length varint changed, a wire
type changed; Cap'n Proto: a segment table's count or size, a pointer's offset, count, sizes or kind changed;
CBOR: an item's argument changed or widened to 4 or 8 bytes, its major type swapped, a tag put before it or its
length made indefinite, nesting thousands deep; Avro: a string's length, a block's count, a union's branch or a long
made another value, a varint made too long, a block's count made negative with a byte size that may lie; FlatBuffers: an offset pointed elsewhere, or the length or vtable
offset it points at made huge). Each decoder reads each mutant through its `--decode FILE` mode (the interop
check's), with a timeout, and each outcome is one of:

  refused   non-zero exit, no signal, nothing on stdout and exactly one stderr line starting with "error"
  accepted  exit 0 and one digest on stdout (what it decoded: fine; counted, and whether it is the reference's)
  crash     a signal (segfault, abort), a sanitizer report (ASan, UBSan), a Rust panic, a Go panic or fatal
            error, a Python traceback, a Java uncaught exception or JVM crash report
  hang      no answer within the timeout (killed)
  unclean   anything else (several error lines, exit 0 without a digest, ...): not a clean refusal either

C++ decoders run as a separate build under AddressSanitizer and UBSan (-fsanitize=address,undefined -g,
UBSan not recovering), so an out-of-bounds read is a crash; Rust, Go, Java and Python are memory-safe, and a
panic or an uncaught exception is a crash. The exit code is 1 when any cell has a crash, hang or unclean
outcome; each such mutant is saved under WORK/findings/ with what every decoder did. WORK is
$IORACE_CACHE/formats-fuzz (default <repo>/.cache/formats-fuzz), which also holds the sanitizer builds.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import hashlib
import json
import os
import random
import re
import resource
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

SUITE = Path(__file__).resolve().parent.parent
REPO = SUITE.parent.parent
WORK = Path(os.environ.get("IORACE_CACHE", REPO / ".cache")) / "formats-fuzz"
sys.path.insert(0, str(SUITE))
import interop  # noqa: E402

sys.path.remove(str(SUITE))

DEFAULT_COUNT = 300
DEFAULT_TIMEOUT = 20.0
KINDS = ("refused", "accepted", "crash", "hang", "unclean")
MARKS = {"refused": "r", "accepted": "a", "crash": "c", "hang": "h", "unclean": "u"}  # "A": the reference digest
BAD = ("crash", "hang", "unclean")
SANITIZE = "-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined"
# No leak checks (the programs leave their memory to the process's end); an allocation past 4 GB fails as
# malloc would on this machine (std::bad_alloc: a refusal, not a sanitizer abort); a report ends the program.
ASAN_OPTIONS = "detect_leaks=0:allocator_may_return_null=1:max_allocation_size_mb=4096:halt_on_error=1"
UBSAN_OPTIONS = "halt_on_error=1:print_stacktrace=1"
# The JVM: a bounded heap (a mutant that asks for gigabytes fails as OutOfMemoryError, a crash) and C1 alone,
# which starts faster; the programs are otherwise the harness's.
JAVA_OPTIONS = ["-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"]
MEMORY_LIMIT = 4 << 30  # address space for the programs that do not reserve more (not ASan's, not the JVM's)

# What a crash leaves on stderr, by runtime (the exit code alone does not say: ASan and a Go panic exit 1 or 2).
CRASH_MARKERS = (
    ("ERROR: AddressSanitizer", "AddressSanitizer"),
    ("runtime error:", "UBSan"),
    ("UndefinedBehaviorSanitizer", "UBSan"),
    ("panicked at", "Rust panic"),
    ("Traceback (most recent call last)", "Python traceback"),
    ("Exception in thread", "Java uncaught exception"),
    ("A fatal error has been detected by the Java Runtime", "JVM crash"),
    ("terminate called after throwing", "C++ uncaught exception"),
)
# allocator_may_return_null=1 has ASan note an allocation it failed (as malloc returns NULL) before the program
# goes on to refuse the input (std::bad_alloc): not the program's output
ASAN_ALLOC_WARNING = re.compile(r"^==\d+==WARNING: AddressSanitizer failed to allocate .*\n?", re.MULTILINE)
GO_PANIC = re.compile(r"^(panic: |fatal error: )", re.MULTILINE)
DIGEST = re.compile(r"^[0-9a-f]{64}$")
OUTPUT_LIMIT = 16 * 2**20  # bytes of a decoder's output kept; past it the decoder is killed, an unclean outcome
CHECKSUM = re.compile(r"^[0-9]{1,20}$")  # a read's answer: the visit checksum, an unsigned 64-bit sum
# The formats whose programs also read a file in place (`--read FILE`, interop.read_file): each of their mutants
# goes through that walk too, a decoder of its own ("LANGUAGE --read"): a read touches every field in place,
# with the same bounds checks as the decode but another walk.
READ_MODE = {"flatbuffers"}


def log(*a: object) -> None:
    print("mutants:", *a, file=sys.stderr, flush=True)


# --- the verdict ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    kind: str  # one of KINDS
    detail: str  # the error line, the digest, or what the crash left


def classify(returncode: int | None, stdout: str, stderr: str, answer: re.Pattern[str] | None = None) -> Outcome:
    """One decoder's run on one mutant; returncode None: killed at the timeout. `answer`: what an accepted run
    prints (a digest; a read, the visit checksum)."""
    answer = answer or DIGEST
    if returncode is None:
        return Outcome("hang", "no answer within the timeout")
    stderr = ASAN_ALLOC_WARNING.sub("", stderr)
    for marker, what in CRASH_MARKERS:
        if marker in stderr:
            return Outcome("crash", f"{what}: {_tail(stderr)}")
    if GO_PANIC.search(stderr) and "goroutine " in stderr:
        return Outcome("crash", f"Go panic: {_tail(stderr)}")
    if returncode < 0:
        name = signal.Signals(-returncode).name if -returncode in signal.valid_signals() else str(-returncode)
        return Outcome("crash", f"killed by {name}: {_tail(stderr)}")
    out = stdout.strip()
    lines = [ln for ln in re.split(r"\r\n|\r|\n", stderr) if ln.strip()]  # a line as a reader of stderr splits it
    if returncode == 0:
        if answer.match(out) and not lines:
            return Outcome("accepted", out)
        return Outcome("unclean", f"exit 0, stdout {out[:80]!r}, stderr {_tail(stderr)}")
    if returncode >= 128:  # a signal's exit code through a wrapper (a shell, a JVM's abort)
        return Outcome("crash", f"exit {returncode}: {_tail(stderr)}")
    if not out and len(lines) == 1 and lines[0].startswith("error"):
        return Outcome("refused", lines[0])
    return Outcome("unclean", f"exit {returncode}, {len(lines)} stderr lines, stdout {out[:80]!r}: {_tail(stderr)}")


def _tail(text: str, n: int = 300) -> str:
    text = text.strip()
    return repr(text[-n:]) if text else "(no stderr)"


# --- the decoders --------------------------------------------------------------------------------------


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


@dataclass
class Decoder:
    language: str
    format: str
    argv: list[str]  # the program without its arguments (`--decode FILE` follows)
    label: str  # what ran: language/format and how it was built
    env: dict[str, str] = field(default_factory=dict)
    limit_memory: bool = True
    variant: str = ""  # the manifest's variant (json-fast decodes JSON beside json); "" is the format's own
    mode: str = "--decode"  # or "--read": a zero-copy format's visit in place (READ_MODE), its answer the checksum

    @property
    def key(self) -> str:
        """The decoder among its format's (interop.Program.key): its language, or language/variant; " --read" after
        it for the in-place read of the same program."""
        own = self.language if self.variant in ("", self.format) else f"{self.language}/{self.variant}"
        return own if self.mode == "--decode" else f"{own} {self.mode}"

    def run(self, path: Path, timeout: float) -> Outcome:
        proc = subprocess.Popen(
            [*self.argv, self.mode, str(path)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "RUST_BACKTRACE": "0", **self.env},
            start_new_session=True,  # a hang is killed with everything it started
            preexec_fn=_limit_memory if self.limit_memory else None,
        )
        out, err, flooded, timed_out = _bounded_output(proc, timeout)
        if timed_out:
            return classify(None, "", "")
        if flooded:
            return Outcome(
                "unclean",
                f"wrote more than {OUTPUT_LIMIT // 2**20} MiB to stdout and stderr (killed): {_tail(err.decode('utf-8', 'replace'))}",
            )
        answer = CHECKSUM if self.mode == "--read" else DIGEST
        return classify(proc.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), answer)


def _bounded_output(proc: subprocess.Popen, timeout: float) -> tuple[bytes, bytes, bool, bool]:
    """The decoder's stdout and stderr, OUTPUT_LIMIT bytes of them at most (more: its process group is killed);
    (stdout, stderr, flooded, timed out). communicate() kept everything: a decoder that printed without end took
    this driver to 24 GB, and the kernel's OOM killer ended the run."""
    kept: dict[int, bytearray] = {1: bytearray(), 2: bytearray()}
    total = [0]
    flooded = threading.Event()

    def drain(fd: int, pipe) -> None:  # type: ignore[no-untyped-def]
        for chunk in iter(lambda: pipe.read(65536), b""):
            total[0] += len(chunk)
            if len(kept[fd]) < OUTPUT_LIMIT:
                kept[fd] += chunk[: OUTPUT_LIMIT - len(kept[fd])]
            if total[0] > OUTPUT_LIMIT and not flooded.is_set():
                flooded.set()
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)

    readers = [threading.Thread(target=drain, args=(fd, pipe), daemon=True) for fd, pipe in ((1, proc.stdout), (2, proc.stderr))]
    for t in readers:
        t.start()
    timed_out = False
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    for t in readers:
        t.join()
    return bytes(kept[1]), bytes(kept[2]), flooded.is_set() and not timed_out, timed_out


def _asan_build(variant, toolchain, label: str) -> tuple[list[str] | None, str]:  # type: ignore[no-untyped-def]
    """The C++ (or C) variant built again under ASan+UBSan with its toolchain's build template, cached in WORK
    by the hash of its sources, deps and command; (argv, "") or (None, why not)."""
    files = [*variant.sources, *variant.deps]
    template = toolchain.build
    h = hashlib.sha256(f"{template}\n{SANITIZE}\n{variant.flags}\n{variant.link}".encode())
    for rel in files:
        p = SUITE / rel
        h.update(rel.encode() + (p.read_bytes() if p.is_file() else b""))
    out = WORK / "asan" / f"{variant.language}-{variant.name}-{h.hexdigest()[:16]}"
    prog = out / "prog"
    if prog.exists():
        return [str(prog)], ""
    tmp = out.with_name(out.name + ".tmp")
    tmp.mkdir(parents=True, exist_ok=True)
    words = {  # the harness's build variables (run/build.py): absolute paths, run in the build folder
        "cflags": SANITIZE,
        "flags": variant.flags,
        "out": str(tmp),
        "src": str(SUITE),
        "sources": " ".join(shlex.quote(str(SUITE / s)) for s in variant.sources),
        "link": variant.link,
        "dir": str(SUITE / (variant.dir or variant.language)),
        "python": shlex.quote(sys.executable),  # the harness's interpreter: the venv's flatc sits beside it
    }
    try:
        command = template.format(**words)
    except (KeyError, IndexError) as e:
        return None, f"its build template has a word this driver does not fill ({e})"
    proc = subprocess.run(command, shell=True, cwd=tmp, capture_output=True, text=True, check=False, timeout=1800)
    if proc.returncode != 0 or not (tmp / "prog").exists():
        return None, f"the sanitizer build failed: {proc.stderr.strip()[-500:]}"
    tmp.rename(out)
    log(f"built {label} under ASan+UBSan")
    return [str(prog)], ""


def decoders(
    checked: interop.Checked,
    asan: bool = True,
    jobs: int = 2,
    formats: list[str] | None = None,
    languages: list[str] | None = None,
) -> list[Decoder]:
    """Every program the harness built (one per language x format), the C and C++ ones rebuilt under
    ASan+UBSan (when asan; a build that fails keeps the harness's program, said in its label)."""
    from iorace.manifest.suites import load_suite

    suite = load_suite(SUITE)
    variants = {(v.language, v.name): v for v in suite.manifest.variants}
    chosen = [p for p in checked.programs if (not formats or p.format in formats) and (not languages or p.language in languages)]

    def one(p: interop.Program) -> Decoder:
        variant = p.variant or p.format
        label = f"{p.language}/{variant}"
        v = variants.get((p.language, variant))
        if asan and v is not None and p.language in ("cpp", "c"):
            names = v.toolchains or [n for n, t in suite.toolchains.items() if t.language == p.language]
            toolchain = suite.toolchains.get(names[0]) if names else None
            if toolchain is None:
                return Decoder(p.language, p.format, p.argv, f"{label} (no ASan: no toolchain)", variant=variant)
            argv, why = _asan_build(v, toolchain, label)
            if argv is None:
                log(f"{label}: {why}; the harness's build instead")
                return Decoder(p.language, p.format, p.argv, f"{label} ({names[0]}, no ASan: build failed)", variant=variant)
            env = {"ASAN_OPTIONS": ASAN_OPTIONS, "UBSAN_OPTIONS": UBSAN_OPTIONS}
            return Decoder(p.language, p.format, argv, f"{label} ({names[0]} ASan+UBSan)", env, limit_memory=False, variant=variant)
        if Path(p.argv[0]).name == "java":
            argv = [p.argv[0], *JAVA_OPTIONS, *p.argv[1:]]
            return Decoder(p.language, p.format, argv, f"{label} (JVM)", limit_memory=False, variant=variant)
        return Decoder(p.language, p.format, p.argv, label, variant=variant)

    with ThreadPoolExecutor(max(1, jobs)) as pool:
        made = list(pool.map(one, chosen))
    reads = [dataclasses.replace(d, mode="--read", label=f"{d.label} --read") for d in made if d.format in READ_MODE]
    return made + reads


# --- the mutants ---------------------------------------------------------------------------------------

SPECIAL = [0x00, 0xFF, 0x7F, 0x80, 0x01, 0xC0, 0xC1, 0xD9, 0xDB, 0xDD, 0xDF, 0x22, 0x5C, 0x5B, 0x7B, 0x0A, 0xFE]
INTERESTING = [
    0,
    1,
    0x7F,
    0x80,
    0xFF,
    0x100,
    0x7FFF,
    0xFFFF,
    0x7FFFFFFF,
    0x80000000,
    0xFFFFFFFF,
    1 << 40,
    (1 << 63) - 1,
    1 << 63,
    (1 << 64) - 1,
]


def _generic(rng: random.Random, m: bytearray) -> str:
    """One format-blind edit of m in place; its description."""
    i = rng.randrange(len(m))
    op = rng.randrange(7)
    if op == 0:
        bit = rng.randrange(8)
        m[i] ^= 1 << bit
        return f"flip@{i}.{bit}"
    if op == 1:
        m[i] = rng.choice(SPECIAL)
        return f"special@{i}={m[i]:#x}"
    if op == 2:
        m[i] = rng.randrange(256)
        return f"byte@{i}={m[i]:#x}"
    if op == 3:
        n = 1 + rng.randrange(16)
        del m[i : i + n]
        return f"delete@{i}+{n}"
    if op == 4:
        ins = bytes(rng.randrange(256) for _ in range(1 + rng.randrange(8)))
        m[i:i] = ins
        return f"insert@{i}={ins.hex()}"
    if op == 5:
        j = min(len(m), i + 1 + rng.randrange(64))
        m[j:j] = m[i:j]
        return f"repeat@{i}..{j}"
    w = rng.choice((1, 2, 4, 8))
    order = rng.choice(("big", "little"))
    v = rng.choice(INTERESTING) & ((1 << (8 * w)) - 1)
    m[i : i + w] = v.to_bytes(w, order)
    return f"int@{i}={v:#x}/{w}{order[0]}"


# MessagePack: the headers with a length or count (str, bin, ext, array, map), found by walking the encoding.
_MP_FIX = {0x80: ("map", 0x8F, 15), 0x90: ("array", 0x9F, 15), 0xA0: ("str", 0xBF, 31)}
_MP_WIDE = {  # type byte: (kind, bytes of the length)
    0xC4: ("bin", 1), 0xC5: ("bin", 2), 0xC6: ("bin", 4), 0xC7: ("ext", 1), 0xC8: ("ext", 2), 0xC9: ("ext", 4),
    0xD9: ("str", 1), 0xDA: ("str", 2), 0xDB: ("str", 4),
    0xDC: ("array", 2), 0xDD: ("array", 4), 0xDE: ("map", 2), 0xDF: ("map", 4),
}  # fmt: skip
_MP_FIXED = {0xC0: 1, 0xC2: 1, 0xC3: 1, 0xCA: 5, 0xCB: 9, 0xCC: 2, 0xCD: 3, 0xCE: 5, 0xCF: 9, 0xD0: 2, 0xD1: 3, 0xD2: 5, 0xD3: 9}
_MP_FIXED.update({0xD4: 3, 0xD5: 4, 0xD6: 6, 0xD7: 10, 0xD8: 18})
_MP_SWAP = {
    "map": (0x80, 0xDE, 0xDF, 0x90, 0xDC, 0xDD),
    "array": (0x90, 0xDC, 0xDD, 0x80, 0xDE, 0xDF),
    "str": (0xD9, 0xC4, 0xA0),
    "bin": (0xD9, 0xC4),
    "ext": (0xD9, 0xC4),
}


def msgpack_headers(data: bytes) -> list[tuple[str, int, int, int]]:
    """(kind, offset, bytes of the length field (0: in the type byte), the length or count) of every str, bin,
    ext, array and map the walk reaches; it stops at the first byte it cannot read."""
    out: list[tuple[str, int, int, int]] = []

    def walk(i: int) -> int:
        b = data[i]
        if b <= 0x7F or b >= 0xE0:
            return i + 1
        for base, (kind, top, _) in _MP_FIX.items():
            if base <= b <= top:
                n = b - base
                out.append((kind, i, 0, n))
                if kind == "str":
                    return i + 1 + n
                i += 1
                for _ in range(n * (2 if kind == "map" else 1)):
                    i = walk(i)
                return i
        if b in _MP_FIXED:
            return i + _MP_FIXED[b]
        if b in _MP_WIDE:
            kind, w = _MP_WIDE[b]
            n = int.from_bytes(data[i + 1 : i + 1 + w], "big")
            out.append((kind, i, w, n))
            i += 1 + w
            if kind in ("str", "bin"):
                return i + n
            if kind == "ext":
                return i + 1 + n
            for _ in range(n * (2 if kind == "map" else 1)):
                i = walk(i)
            return i
        raise ValueError(f"no MessagePack type {b:#x}")

    with contextlib.suppress(IndexError, ValueError):
        walk(0)
    return out


def _msgpack_aware(rng: random.Random, m: bytearray) -> str | None:
    headers = msgpack_headers(bytes(m))
    if not headers:
        return None
    kind, i, w, n = rng.choice(headers)
    op = rng.randrange(3)
    if op == 0 and w:  # the length field, another value
        v = rng.choice([0, n - 1 if n else 0, n + 1, 2 * n + 1, *INTERESTING]) & ((1 << (8 * w)) - 1)
        m[i + 1 : i + 1 + w] = v.to_bytes(w, "big")
        return f"msgpack-{kind}-length@{i}:{n}->{v}"
    if op <= 1:  # widened: the same kind with a 32-bit length of any value (a fix header's count too)
        wide = {"map": 0xDF, "array": 0xDD, "str": 0xDB, "bin": 0xC6, "ext": 0xC9}[kind]
        v = rng.choice([n, n + 1, n - 1 if n else 0, 0x7FFFFFFF, 0xFFFFFFFF, 1 << 20])
        m[i : i + 1 + w] = bytes([wide]) + v.to_bytes(4, "big")
        return f"msgpack-{kind}-wide@{i}:{n}->{v}"
    t = rng.choice(_MP_SWAP[kind])  # another type over the same bytes
    if t in (0x80, 0x90, 0xA0):
        t |= min(n, 15)
    m[i] = t
    return f"msgpack-{kind}-as@{i}={t:#x}"


_JSON_NUMBER = re.compile(rb"-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_JSON_SCALAR = re.compile(rb':(?:"(?:[^"\\]|\\.)*"|-?[0-9][0-9.eE+-]*|null|true|false)')
NUMBERS = [b"1e400", b"-0", b"1.5", b"1e2", b"9223372036854775808", b"-9223372036854775809", b"18446744073709551616", b"0x10"]
NUMBERS += [b"NaN", b"Infinity", b"-", b"01", b"1" * 400, b"true", b"null", b'"1"', b"[]"]
ESCAPES = [
    b"\\",
    b"\\u",
    b"\\u12",
    b"\\ud83c",
    b"\\udfbb",
    b"\\u0000",
    b"\xff",
    b"\xc0\x80",
    b"\xed\xa0\x80",
    b"\xf4\x90\x80\x80",
    b"\n",
    b'"',
    b"\\x41",
]
SCALARS = [b"null", b"{}", b"[]", b'""', b"0", b"true", b"-1", b'"x"', b"[null]", b'{"":0}']


def _json_aware(rng: random.Random, m: bytearray) -> str | None:
    data = bytes(m)
    op = rng.randrange(5)
    if op == 0:  # a number, another token
        spans = [x.span() for x in _JSON_NUMBER.finditer(data)]
        if spans:
            a, b = rng.choice(spans)
            t = rng.choice(NUMBERS)
            m[a:b] = t
            return f"json-number@{a}={t[:20]!r}"
    if op == 1:  # an escape or a bad UTF-8 sequence inside a string
        quotes = [i for i, c in enumerate(data) if c == 0x22]
        if quotes:
            i = rng.choice(quotes) + 1
            t = rng.choice(ESCAPES)
            m[i:i] = t
            return f"json-escape@{i}={t!r}"
    if op == 2:  # a bracket, brace, comma or colon: dropped, doubled or turned into another
        marks = [i for i, c in enumerate(data) if c in b"{}[],:"]
        if marks:
            i = rng.choice(marks)
            how = rng.randrange(3)
            if how == 0:
                del m[i]
            elif how == 1:
                m[i:i] = m[i : i + 1]
            else:
                m[i] = rng.choice(b"{}[],:")
            return f"json-mark@{i}.{how}"
    if op == 3:  # a field's scalar value, another type
        spans = [x.span() for x in _JSON_SCALAR.finditer(data)]
        if spans:
            a, b = rng.choice(spans)
            t = rng.choice(SCALARS)
            m[a + 1 : b] = t
            return f"json-value@{a}={t!r}"
    # nesting thousands deep where a value starts (closed, or not)
    colons = [i for i, c in enumerate(data) if c == 0x3A] or [0]
    i = rng.choice(colons) + 1
    depth = rng.choice((1000, 10_000, 100_000))
    t = rng.choice((b"[", b'{"a":'))
    m[i:i] = t * depth + (b"]" * depth if t == b"[" and rng.random() < 0.5 else b"")
    return f"json-deep@{i}={t!r}x{depth}"


def _varint(v: int) -> bytes:
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _read_varint(data: bytes, i: int) -> tuple[int, int]:
    v = shift = 0
    while True:
        b = data[i]
        v |= (b & 0x7F) << shift
        i += 1
        if not b & 0x80:
            return v, i
        shift += 7
        if shift > 63:
            raise ValueError("varint too long")


def protobuf_fields(data: bytes) -> list[tuple[int, int, int, int]]:
    """(offset of the tag, offset of the length varint or -1, its end, the length) of every field the walk
    reaches, nested messages too (a length-delimited field whose bytes parse whole as fields)."""
    out: list[tuple[int, int, int, int]] = []

    def walk(i: int, end: int, depth: int) -> bool:
        start = len(out)
        while i < end:
            tag_at = i
            try:
                tag, i = _read_varint(data, i)
                wire = tag & 7
                if tag >> 3 == 0 or wire in (3, 4, 6, 7):
                    raise ValueError
                if wire == 0:
                    _, i = _read_varint(data, i)
                    out.append((tag_at, -1, i, 0))
                elif wire == 1 or wire == 5:
                    i += 8 if wire == 1 else 4
                    out.append((tag_at, -1, i, 0))
                else:
                    n, j = _read_varint(data, i)
                    out.append((tag_at, i, j, n))
                    if depth < 32 and n:
                        walk(j, j + n, depth + 1)
                    i = j + n
            except (IndexError, ValueError):
                del out[start:]
                return False
        if i != end:
            del out[start:]
            return False
        return True

    walk(0, len(data), 0)
    return out


def _protobuf_aware(rng: random.Random, m: bytearray) -> str | None:
    fields = protobuf_fields(bytes(m))
    lengths = [f for f in fields if f[1] >= 0]
    if lengths and rng.random() < 0.7:
        _, a, b, n = rng.choice(lengths)
        v = rng.choice([0, max(n - 1, 0), n + 1, 2 * n + 1, 0x7FFFFFFF, 0xFFFFFFFF, 1 << 63, (1 << 64) - 1])
        t = _varint(v) if rng.random() < 0.8 else b"\xff" * 10 + b"\x01"  # or a varint too long
        m[a:b] = t
        return f"protobuf-length@{a}:{n}->{t.hex()}"
    if fields:
        tag_at, _, _, _ = rng.choice(fields)
        wire = rng.randrange(8)
        m[tag_at] = (m[tag_at] & ~7) | wire
        return f"protobuf-wire@{tag_at}={wire}"
    return None


def capnp_pointers(data: bytes) -> list[int]:
    """The word offsets (in bytes) of the first segment's nonzero words that look like struct or list pointers
    (kind 0 or 1, the low two bits), after the segment table; the segment table's own size fields too are edits'
    targets (capnp_table). A heuristic: a data word may look like a pointer, which is only a blind edit then."""
    if len(data) < 16:
        return []
    count = int.from_bytes(data[:4], "little") + 1
    start = 8 * ((count + 2) // 2)
    if count > 64 or start >= len(data):
        return []
    out = []
    for at in range(start, len(data) - 7, 8):
        word = int.from_bytes(data[at : at + 8], "little")
        if word and word & 3 in (0, 1):
            out.append(at)
    return out


def _capnp_aware(rng: random.Random, m: bytearray) -> str | None:
    """A segment table's count or size changed, or a pointer's offset, list element count, element size or data
    and pointer section sizes (struct) set to a boundary value: what a reader must bounds-check."""
    if len(m) < 8:
        return None
    if rng.random() < 0.25:  # the segment table: its count (word 0, low half) or the first segment's size
        at = rng.choice((0, 4))
        v = rng.choice([0, 1, 2, 0x1FF, 0x200, 0xFFFF, 0x7FFFFFFF, 0xFFFFFFFF, int.from_bytes(m[at : at + 4], "little") + 1])
        m[at : at + 4] = v.to_bytes(4, "little")
        return f"capnp-table@{at}={v:#x}"
    pointers = capnp_pointers(bytes(m))
    if not pointers:
        return None
    at = rng.choice(pointers)
    word = int.from_bytes(m[at : at + 8], "little")
    kind = word & 3
    what = rng.choice(("offset", "upper", "kind"))
    if what == "offset":  # bits 2-31: a signed word offset
        off = rng.choice([-1, -(1 << 29), (1 << 29) - 1, 1 << 20, rng.randrange(-64, 64)]) & 0x3FFFFFFF
        word = (word & ~(0x3FFFFFFF << 2)) | (off << 2)
    elif what == "upper":  # struct: data words and pointer count; list: element size (3 bits) and count (29 bits)
        v = rng.choice([0, 1, 7, 0xFFFF, 0x1FFFFFFF, 0xFFFFFFFF, rng.randrange(1 << 32)])
        word = (word & 0xFFFFFFFF) | (v << 32)
    else:  # another pointer kind: far (2) or other (3, a capability), or struct for list and back
        word = (word & ~3) | rng.choice([k for k in range(4) if k != kind])
    m[at : at + 8] = word.to_bytes(8, "little")
    return f"capnp-pointer@{at}:{what}"


# CBOR (RFC 8949): every item is a head, a major type (3 bits) and an argument (5 bits: the value itself below 24,
# else 1, 2, 4 or 8 bytes of it after the head; 31 an indefinite length, ended by a 0xff break).
_CBOR_KINDS = ("uint", "nint", "bytes", "text", "array", "map", "tag", "simple")
_CBOR_TAGS = (0, 1, 2, 3, 4, 24, 55799, 258)  # a date, a bignum, a decimal, embedded CBOR, self-describe, a set


def cbor_heads(data: bytes) -> list[tuple[str, int, int, int]]:
    """(kind, offset, bytes of the argument after the head (0: in the head, -1: indefinite), the argument) of
    every item the walk reaches; it stops at the first byte it cannot read."""
    out: list[tuple[str, int, int, int]] = []

    def head(i: int) -> tuple[int, int, int, int]:  # major, argument, its width, the offset after the head
        b = data[i]
        major, info = b >> 5, b & 0x1F
        if info < 24:
            return major, info, 0, i + 1
        if info <= 27:
            w = 1 << (info - 24)
            if i + 1 + w > len(data):
                raise IndexError
            return major, int.from_bytes(data[i + 1 : i + 1 + w], "big"), w, i + 1 + w
        if info == 31 and 2 <= major <= 5:
            return major, 0, -1, i + 1
        raise ValueError(f"no CBOR head {b:#x}")

    def walk(i: int, depth: int) -> int:
        if depth > 200:  # a mutant nested thousands deep (an earlier edit): the heads above it are enough
            raise ValueError("nested too deep to walk")
        major, n, w, j = head(i)
        out.append((_CBOR_KINDS[major], i, w, n))
        if w == -1:  # indefinite: items (chunks of a string) until the break
            while data[j] != 0xFF:
                j = walk(j, depth + 1)
            return j + 1
        if major in (2, 3):
            return j + n
        if major in (4, 5):
            for _ in range(n * (2 if major == 5 else 1)):
                j = walk(j, depth + 1)
            return j
        if major == 6:
            return walk(j, depth + 1)
        return j

    with contextlib.suppress(IndexError, ValueError):
        walk(0, 0)
    return out


def _cbor_aware(rng: random.Random, m: bytearray) -> str | None:
    heads = cbor_heads(bytes(m))
    if not heads:
        return None
    kind, i, w, n = rng.choice(heads)
    major = _CBOR_KINDS.index(kind)
    op = rng.randrange(5)
    if op == 0 and w > 0:  # the argument, another value of its width
        v = rng.choice([0, n - 1 if n else 0, n + 1, 2 * n + 1, *INTERESTING]) & ((1 << (8 * w)) - 1)
        m[i + 1 : i + 1 + w] = v.to_bytes(w, "big")
        return f"cbor-{kind}-argument@{i}:{n}->{v}"
    if op <= 1 and w >= 0:  # widened: the same major type with a 4- or 8-byte argument of any value
        width = rng.choice((4, 8))
        v = rng.choice([n, n + 1, n - 1 if n else 0, 0x7FFFFFFF, 0xFFFFFFFF, 1 << 20, (1 << 63) - 1, (1 << 64) - 1])
        v &= (1 << (8 * width)) - 1
        m[i : i + 1 + w] = bytes([major << 5 | (26 if width == 4 else 27)]) + v.to_bytes(width, "big")
        return f"cbor-{kind}-wide@{i}:{n}->{v}"
    if op == 2:  # another major type over the same argument
        t = rng.choice([k for k in range(8) if k != major])
        m[i] = t << 5 | (m[i] & 0x1F)
        return f"cbor-{kind}-as@{i}={_CBOR_KINDS[t]}"
    if op == 3:  # a tag before the item, or a definite length made indefinite (its break missing)
        if kind in ("bytes", "text", "array", "map") and w >= 0 and rng.random() < 0.5:
            m[i : i + 1 + w] = bytes([major << 5 | 31])
            return f"cbor-{kind}-indefinite@{i}"
        t = rng.choice(_CBOR_TAGS)
        tag = bytes([0xC0 | t]) if t < 24 else bytes([0xD9]) + t.to_bytes(2, "big")
        m[i:i] = tag
        return f"cbor-tag@{i}={t}"
    # nesting thousands deep where an item starts: one-item arrays (0x81) or indefinite ones (0x9f), unclosed
    depth = rng.choice((1000, 10_000, 100_000))
    t = rng.choice((b"\x81", b"\x9f", b"\xa1\x60"))
    m[i:i] = t * depth
    return f"cbor-deep@{i}={t!r}x{depth}"


# Avro (binary encoding, one datum of avro/catalogue.avsc): no tags and no lengths but those of strings and blocks,
# every value a zigzag varint (a long, a string's length, a block's count, a union's branch) or a string's bytes.
_AVRO_SCHEMA = json.loads((SUITE / "avro" / "catalogue.avsc").read_text())


def _zigzag(v: int) -> bytes:
    return _varint((v << 1) ^ (v >> 63) if -(1 << 63) <= v < 1 << 63 else v & ((1 << 64) - 1))


def avro_varints(data: bytes) -> list[tuple[str, int, int, int]]:
    """(kind: long | length | count | branch, offset, the offset after it, the value) of every varint the walk of
    the datum against the schema reaches; it stops at the first it cannot read."""
    out: list[tuple[str, int, int, int]] = []
    at = 0

    def varint(kind: str) -> int:
        nonlocal at
        start, v, shift = at, 0, 0
        while True:
            b = data[at]  # IndexError past the end: the walk stops
            at += 1
            v |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80 or shift >= 70:
                break
        v = (v >> 1) ^ -(v & 1)
        out.append((kind, start, at, v))
        return v

    def skip_bytes() -> None:
        """A string's (or a map key's) length and bytes; a length the data cannot hold stops the walk: a negative
        one would walk back over the same bytes without end (an earlier walk grew its list to 24 GB)."""
        nonlocal at
        n = varint("length")  # not `at += varint(...)`: that adds to the offset before the call
        if n < 0 or at + n > len(data):
            raise IndexError(n)
        at += n

    def walk(s: object) -> None:
        nonlocal at
        if isinstance(s, list):  # a union: its branch, then the branch's value
            i = varint("branch")
            walk(s[i])
        elif isinstance(s, dict) and s["type"] == "record":
            for f in s["fields"]:
                walk(f["type"])
        elif isinstance(s, dict) and s["type"] in ("array", "map"):
            while (n := varint("count")) != 0:
                if n < 0:
                    varint("length")  # a negative count: its block's size in bytes follows
                if abs(n) > len(data) - at:  # every item of this schema takes a byte at least
                    raise IndexError(n)
                for _ in range(abs(n)):
                    if s["type"] == "map":
                        skip_bytes()
                    walk(s["items" if s["type"] == "array" else "values"])
        elif s == "string":
            skip_bytes()
        elif s == "long":
            varint("long")

    with contextlib.suppress(IndexError, KeyError, ValueError, TypeError):
        walk(_AVRO_SCHEMA)
    return out


def _avro_aware(rng: random.Random, m: bytearray) -> str | None:
    """A length, count, branch or long made another value (near it, huge, negative), a varint made too long, or a
    block's count made negative with a block size that may lie: what a decoder must bound before it allocates."""
    varints = avro_varints(bytes(m))
    if not varints:
        return None
    kind, a, b, n = rng.choice(varints)
    op = rng.randrange(4)
    if op == 0:  # too long: 11 bytes, or a 10th byte past 64 bits
        t = b"\xff" * 10 + b"\x01" if rng.random() < 0.5 else b"\xff" * 9 + b"\x7f"
    elif op == 1 and kind == "count" and n > 0:  # the negative form: -count, then a block size (true or not)
        size = rng.choice([0, 1, len(m) - b, len(m), (1 << 62), -1])
        t = _zigzag(-n) + _zigzag(size)
    else:
        big = [0x7FFFFFFF, 0xFFFFFFFF, 1 << 30, 1 << 40, (1 << 63) - 1, -(1 << 63), -(1 << 31)]
        v = rng.choice([0, n - 1, n + 1, 2 * n + 1, -n - 1, -1, 2, len(m), len(m) - b + 1, *big])
        t = _zigzag(v)
    m[a:b] = t
    return f"avro-{kind}@{a}:{n}->{t.hex()}"


def flatbuffers_offsets(data: bytes) -> list[tuple[int, int]]:
    """(position, target) of each aligned 32-bit word that reads as a forward offset inside the buffer: FlatBuffers'
    uoffsets (to a table, a vector or a string) are such words, and so, by chance, are some values; at a target
    sits a vector's or a string's length, or a table's offset to its vtable."""
    out = []
    for i in range(0, len(data) - 3, 4):
        v = int.from_bytes(data[i : i + 4], "little")
        if 0 < v < len(data) - i - 3 and v % 4 == 0:
            out.append((i, i + v))
    return out


def _flatbuffers_aware(rng: random.Random, m: bytearray) -> str | None:
    """An offset pointed elsewhere (out of the buffer, one byte off, to its own start, to the end) or the word it
    points at (a length, a vtable offset) made huge or one more: what a reader without a verifier must bound."""
    offsets = flatbuffers_offsets(bytes(m))
    if not offsets:
        return None
    i, t = offsets[0] if rng.random() < 0.1 else rng.choice(offsets)  # the first: the root offset, mostly
    if rng.random() < 0.5 or t + 4 > len(m):
        v = t - i
        new = (
            rng.choice([0, 1, 2, 4, len(m) - i, len(m) - i + 4, 0x7FFFFFFF, 0xFFFFFFFF, v + rng.choice((-8, -4, -1, 1, 4, 8))]) & 0xFFFFFFFF
        )
        m[i : i + 4] = new.to_bytes(4, "little")
        return f"flatbuffers-offset@{i}:{v}->{new}"
    old = int.from_bytes(m[t : t + 4], "little")
    new = rng.choice([0x7FFFFFFF, 0xFFFFFFFF, 0x40000000, 0x80000000, 2 * old + 1, old + 1, len(m)]) & 0xFFFFFFFF
    m[t : t + 4] = new.to_bytes(4, "little")
    return f"flatbuffers-target@{t}:{old}->{new}"


AWARE: dict[str, Callable[[random.Random, bytearray], str | None]] = {
    "avro": _avro_aware,
    "capnp": _capnp_aware,
    "cbor": _cbor_aware,
    "json": _json_aware,
    "msgpack": _msgpack_aware,
    "protobuf": _protobuf_aware,
    "proto": _protobuf_aware,
    "flatbuffers": _flatbuffers_aware,
}


def aware_for(fmt: str) -> Callable[[random.Random, bytearray], str | None] | None:
    """The format-aware edits of a format (by its variant name, or the name's first word: json-simd is json)."""
    return AWARE.get(fmt) or AWARE.get(re.split(r"[-_]", fmt)[0])


def mutant(bases: list[bytes], fmt: str, seed: int, i: int) -> tuple[bytes, str]:
    """Mutant i of the format: its bytes and how it was made (its own RNG: the same bytes every time)."""
    rng = random.Random(f"{seed}/{fmt}/{i}")
    b = rng.randrange(len(bases))
    m = bytearray(bases[b])
    if rng.random() < 0.2 or not m:
        cut = rng.randrange(len(m)) if m else 0
        return bytes(m[:cut]), f"base {b}: truncated at {cut} of {len(m)}"
    aware = aware_for(fmt)
    steps = []
    for _ in range(1 + rng.randrange(4)):
        if not m:
            break
        made = aware(rng, m) if aware is not None and rng.random() < 0.4 else None
        steps.append(made or _generic(rng, m))
    if m and rng.random() < 0.1:
        cut = rng.randrange(len(m))
        del m[cut:]
        steps.append(f"truncated at {cut}")
    return bytes(m), f"base {b}: " + ", ".join(steps)


# --- the run -------------------------------------------------------------------------------------------


@dataclass
class Cell:
    """One decoder's outcomes over a format's mutants."""

    label: str
    counts: Counter = field(default_factory=Counter)
    same: int = 0  # accepted with the reference digest (the mutant decodes as the original did)
    reasons: Counter = field(default_factory=Counter)  # refusals' messages, numbers and paths blanked
    bad: list[dict] = field(default_factory=list)
    marks: dict[int, str] = field(default_factory=dict)  # mutant -> one letter (MARKS): runs compare mutant by mutant


def _reason(line: str, path: str) -> str:
    line = line.replace(path, "FILE")
    return re.sub(r"\d+", "N", line)[:100]


def run(
    decs: list[Decoder],
    bases: dict[str, list[bytes]],
    expected: str,
    count: int = DEFAULT_COUNT,
    seed: int = 1,
    jobs: int = 2,
    timeout: float = DEFAULT_TIMEOUT,
    save: bool = True,
    progress: bool = False,
    checksum: str = "",
) -> dict[str, dict[str, Cell]]:
    """Every decoder on each of its format's `count` mutants; {format: {decoder key (language, or language/variant
    for a format's second library): Cell}}."""
    cells: dict[str, dict[str, Cell]] = {}
    with tempfile.TemporaryDirectory(prefix="formats-mutants-") as tmp:
        jobs_list = []
        files: dict[tuple[str, int], tuple[Path, bytes, str]] = {}
        for fmt in sorted(bases):
            fmt_decs = [d for d in decs if d.format == fmt]
            cells[fmt] = {d.key: Cell(d.label) for d in fmt_decs}
            for i in range(count):
                data, how = mutant(bases[fmt], fmt, seed, i)
                path = Path(tmp) / f"{fmt}-{i:05d}.bin"
                path.write_bytes(data)
                files[fmt, i] = (path, data, how)
                jobs_list += [(fmt, i, d) for d in fmt_decs]
        done = [0]
        step = max(1, len(jobs_list) // 10)

        def one(j: tuple[str, int, Decoder]) -> Outcome:
            o = j[2].run(files[j[0], j[1]][0], timeout)
            done[0] += 1  # under the GIL; only a progress line
            if progress and done[0] % step == 0:
                log(f"{done[0]} of {len(jobs_list)} decodes")
            return o

        with ThreadPoolExecutor(max(1, jobs)) as pool:
            outcomes = list(pool.map(one, jobs_list))
        by_mutant: dict[tuple[str, int], dict[str, Outcome]] = {}
        for (fmt, i, d), o in zip(jobs_list, outcomes, strict=True):
            by_mutant.setdefault((fmt, i), {})[d.key] = o
            cell = cells[fmt][d.key]
            cell.counts[o.kind] += 1
            cell.marks[i] = MARKS[o.kind]
            if o.kind == "accepted" and o.detail == (checksum if d.mode == "--read" else expected):
                cell.same += 1
                cell.marks[i] = "A"
            if o.kind == "refused":
                cell.reasons[_reason(o.detail, str(files[fmt, i][0]))] += 1
        for (fmt, i), outs in sorted(by_mutant.items()):
            if not any(o.kind in BAD for o in outs.values()):
                continue
            path, data, how = files[fmt, i]
            saved = _save(fmt, i, seed, data, how, outs) if save else ""
            for lang, o in outs.items():
                if o.kind in BAD:
                    cells[fmt][lang].bad.append({"mutant": i, "how": how, "kind": o.kind, "detail": o.detail, "saved": saved})
    return cells


def _save(fmt: str, i: int, seed: int, data: bytes, how: str, outs: dict[str, Outcome]) -> str:
    d = WORK / "findings"
    d.mkdir(parents=True, exist_ok=True)
    name = f"{fmt}-{hashlib.sha1(data).hexdigest()[:10]}"
    (d / f"{name}.bin").write_bytes(data)
    record = {"format": fmt, "seed": seed, "mutant": i, "how": how, "outcomes": {k: [o.kind, o.detail] for k, o in outs.items()}}
    (d / f"{name}.json").write_text(json.dumps(record, indent=1) + "\n")
    return str(d / f"{name}.bin")


def bases_of(checked: interop.Checked, formats: list[str], workdir: Path) -> dict[str, list[bytes]]:
    """Each format's distinct encodings of the dataset, as its programs write them (in language order). A program
    that writes other bytes each time (Go's MessagePack: vmihailenco's SetSortMapKeys sorts map[string]string
    only, and a map of records comes out in Go's random map order) is no base: mutant i would not be the same
    bytes from one run to the next."""
    out: dict[str, list[bytes]] = {}
    unstable: dict[str, bytes] = {}
    for p in sorted(checked.programs, key=lambda p: (p.format, p.key)):  # every encoder of the wire format
        if p.format not in formats:
            continue
        name = p.key.replace("/", "-")
        data = interop.emit(p, checked.canonical, workdir / f"{name}.{p.format}")
        if interop.emit(p, checked.canonical, workdir / f"{name}.again.{p.format}") != data:
            log(f"{p.language}/{p.variant or p.format} writes other bytes each time: not a base")
            unstable.setdefault(p.format, data)
            continue
        if data not in out.setdefault(p.format, []):
            out[p.format].append(data)
    for fmt, data in unstable.items():
        if not out.get(fmt):  # better mutants that differ from run to run than none (gob: one program, Go's map order)
            log(f"{fmt}: no program writes the same bytes twice: the mutants are not the same from run to run")
            out.setdefault(fmt, []).append(data)
    return out


def table(cells: dict[str, dict[str, Cell]]) -> str:
    head = f"{'format':<10} {'decoder':<40} {'mutants':>7} {'refused':>7} {'accepted':>8} {'(same)':>6} {'crash':>5} {'hang':>4} {'unclean':>7}"
    lines = [head, "-" * len(head)]
    for fmt, by_lang in sorted(cells.items()):
        for _, c in sorted(by_lang.items()):
            n = sum(c.counts.values())
            k = c.counts
            lines.append(
                f"{fmt:<10} {c.label:<40} {n:>7} {k['refused']:>7} {k['accepted']:>8} {c.same:>6} {k['crash']:>5} {k['hang']:>4} {k['unclean']:>7}"
            )
    return "\n".join(lines)


def as_json(cells: dict[str, dict[str, Cell]], seed: int, count: int, bases: dict[str, list[str]]) -> dict:
    return {
        "seed": seed,
        "count": count,
        "bases": bases,
        "cells": {
            fmt: {
                lang: {
                    "label": c.label,
                    **{k: c.counts[k] for k in KINDS},
                    "accepted_same": c.same,
                    "refusals": dict(c.reasons.most_common(8)),
                    "by_mutant": "".join(c.marks[i] for i in sorted(c.marks)),
                    "findings": c.bad,
                }
                for lang, c in sorted(by_lang.items())
            }
            for fmt, by_lang in sorted(cells.items())
        },
    }


def main(argv: list[str]) -> int:
    if argv[:1] == ["replay"]:
        return replay(argv[1:])
    ap = argparse.ArgumentParser(prog="mutants.py", description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=DEFAULT_COUNT, help="mutants per format (default 300)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2, help="decoders run at once (default 2)")
    ap.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds before a decoder is a hang")
    ap.add_argument("--format", action="append", default=[], help="only this format (repeatable)")
    ap.add_argument("--language", action="append", default=[], help="only this language (repeatable)")
    ap.add_argument("--no-asan", action="store_true", help="the harness's C++ builds, not ASan+UBSan ones")
    ap.add_argument("--json", type=Path, help="write the outcomes (counts, refusal reasons, findings) here")
    a = ap.parse_args(argv)
    WORK.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="formats-fuzz-") as tmp:
        log("building the programs (iorace run formats --check-only)")
        checked = interop.check_only("tiny", Path(tmp), ["--build-jobs", str(max(1, a.jobs))])
        decs = decoders(checked, asan=not a.no_asan, jobs=a.jobs, formats=a.format, languages=a.language)
        formats = sorted({d.format for d in decs})
        bases = bases_of(checked, formats, Path(tmp))
        log(f"{a.count} mutants per format, seed {a.seed}: " + ", ".join(d.label for d in decs))
        for fmt, bs in sorted(bases.items()):
            log(f"{fmt}: {len(bs)} bases (" + ", ".join(f"{len(b)} B" for b in bs) + ")")
        cells = run(decs, bases, checked.expected, a.count, a.seed, a.jobs, a.timeout, progress=True, checksum=checked.checksum)
    print(table(cells))
    bad = [(fmt, lang, b) for fmt, by in cells.items() for lang, c in by.items() for b in c.bad]
    for fmt, lang, b in bad[:20]:
        print(f"{b['kind']}: {fmt} mutant {b['mutant']} ({b['how']}) read by {lang}: {b['detail'][:300]}\n  saved: {b['saved']}")
    if len(bad) > 20:
        print(f"... and {len(bad) - 20} more (--json OUT for all)")
    if a.json:
        named = {f: [f"{len(b)} B, sha1 {hashlib.sha1(b).hexdigest()[:12]}" for b in bs] for f, bs in bases.items()}
        a.json.write_text(json.dumps(as_json(cells, a.seed, a.count, named), indent=1) + "\n")
    print(f"mutants: {'FAILED: ' + str(len(bad)) + ' crash, hang or unclean outcomes' if bad else 'no crash, hang or unclean outcome'}")
    return 1 if bad else 0


def replay(args: list[str]) -> int:
    """Every decoder of a format on the given files, each outcome printed; 1 when any is bad."""
    if len(args) < 2:
        print("usage: mutants.py replay FORMAT FILE...", file=sys.stderr)
        return 2
    fmt, paths = args[0], [Path(p) for p in args[1:]]
    with tempfile.TemporaryDirectory(prefix="formats-fuzz-") as tmp:
        checked = interop.check_only("tiny", Path(tmp), ["--build-jobs", "2"])
        decs = decoders(checked, formats=[fmt])
        worst = 0
        for path in paths:
            for d in decs:
                o = d.run(path, DEFAULT_TIMEOUT)
                worst |= o.kind in BAD
                print(f"{path}: {d.label}: {o.kind}: {o.detail[:300]}")
    return 1 if worst else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
