"""readbytes measures what it claims: every byte of a count loop is really loaded, and no
count loop is folded away by the optimiser.

- Go and Java have no optimisation barrier: their count loops OR every byte into a value printed on
  stdout. The test runs each count cell's own command on a file whose only odd byte is the last one
  and checks the printed value: a loop that dropped the load (or a byte) prints something else.
- C, C++, D, Rust (and Go) are counted under cachegrind (`--instructions`): a count loop that still
  reads byte by byte costs at least 2 instructions per byte (a load and the loop's own work); a loop
  folded into `end - begin` costs a fraction of one.
"""

from __future__ import annotations

import re
import shlex
import subprocess

import pytest

SIZE = 1_000_003  # no buffer size divides it
LAST = 0x4A  # the last byte; every other byte is FILL
FILL = 0x10


@pytest.fixture
def crafted(tmp_path):
    path = tmp_path / "crafted.bin"
    path.write_bytes(bytes([FILL]) * (SIZE - 1) + bytes([LAST]))
    return path


def test_go_and_java_count_loops_fold_every_byte(iorace, crafted):
    result = iorace(
        ["run", "readbytes", "--check-only", "--param", "mode=count", "--variant", "go/*", "--variant", "java/*", "--input", str(crafted)]
    )
    assert result.returncode == 0, result.stderr[-2000:]
    cells = result.cells(status="ok")
    assert {c["language"] for c in cells} == {"go", "java"}
    # the seed's Java programs as written count without looking at the bytes, as the seed's did:
    # they print the count and no OR, and are the rows that show it
    as_written = [c for c in cells if c["variant"].endswith("-as-written")]
    assert sorted(c["variant"] for c in as_written) == ["mapped-byte-buffer-as-written", "own-buffer-as-written"]
    for c in as_written:
        argv = shlex.split(c["command"])
        argv[-3:] = [str(crafted), "count", "2"]
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0 and f"count {2 * SIZE} " in proc.stdout and "ORed" not in proc.stdout, proc.stdout
    cells = [c for c in cells if c not in as_written]
    assert len(cells) == 12, [c["variant"] for c in cells]  # 5 Go + 7 Java strategies
    for c in cells:
        argv = shlex.split(c["command"])
        argv[-3:] = [str(crafted), "count", "2"]
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=120)
        where = f"{c['language']}/{c['variant']}: {proc.stdout!r} {proc.stderr[-500:]!r}"
        assert proc.returncode == 0, where
        seen = re.search(r"every byte ORed: (0x[0-9a-f]+)", proc.stdout)
        assert seen, where
        assert int(seen.group(1), 16) == FILL | LAST, where
        assert f"count {2 * SIZE} " in proc.stdout, where


# The mmap/read loops whose count mode an optimiser could fold into a length (C, C++, D, Rust: the
# observe() barrier of docs/ARCHITECTURE.md "Honest variants"), plus Go's inlined mmap reader and its
# range loops over a chunk and over the mapping.
NATIVE = [
    "cpp/mmap",
    "cpp/fread-buffer",
    "c/read-64k",
    "d/mmfile",
    "d/fread-count-ptr",
    "rust/memmap2",
    "rust/own-buffer",
    "go/mmap",
    "go/chunk-range",
    "go/mmap-range",
]


def test_native_count_loops_are_not_folded(iorace, crafted):
    args = ["run", "readbytes", "--check-only", "--instructions", "--param", "mode=count", "--profile", "release", "--input", str(crafted)]
    for v in NATIVE:
        args += ["--variant", v]
    result = iorace(args)
    assert result.returncode == 0, result.stderr[-2000:]
    cells = result.cells(status="ok")
    assert {f"{c['language']}/{c['variant']}" for c in cells} == set(NATIVE)
    for c in cells:
        bytes_read = SIZE * int(c["parameters"]["passes"])
        assert c["instructions"], c
        per_byte = c["instructions"] / bytes_read
        # >= 2: the loop loads and counts every byte (a folded loop is startup only: well under 1)
        assert per_byte >= 2.0, f"{c['language']}/{c['variant']}@{c['toolchain']}: {per_byte:.2f} instructions/byte"
