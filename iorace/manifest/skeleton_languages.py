"""The per-language part of `iorace new`'s skeleton: each language's newline-counting variant on the variant kit
and its suite.toml block (with the kit's wiring), and an existing program as a peer (a sh wrapper and a
toolchain of its own). iorace/manifest/skeleton.py puts them together into a suite."""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class LanguageFiles:
    """One language's part of a skeleton: its files (path -> text) and its suite.toml block."""

    files: dict[str, str]
    manifest: str


def _c() -> LanguageFiles:
    return LanguageFiles(
        {
            "c/read.c": """\
/* Strategy: read(2) into a 64 KiB buffer, count the '\\n' bytes of each block. */
#include <fcntl.h>
#include <unistd.h>

#include "iorace_kit.h"

static long long count_newlines(const struct iorace_job *job) {
  int fd = open(job->input, O_RDONLY);
  if (fd < 0) iorace_fail("cannot open %s: %s", job->input, strerror(errno));
  static unsigned char buf[1 << 16];
  long long count = 0;
  ssize_t n;
  while ((n = read(fd, buf, sizeof buf)) > 0)
    for (ssize_t i = 0; i < n; i++) count += buf[i] == '\\n';
  if (n < 0) iorace_fail("cannot read %s: %s", job->input, strerror(errno));
  close(fd);
  return count;
}

int main(int argc, char **argv) { return iorace_run(argc, argv, count_newlines); }
"""
        },
        """\
[defaults.c]
flags = "-I{kit}/c"     # the kit's header, iorace_kit.h
deps = ["{kit}/c"]      # hashed into the build key: a change to the kit rebuilds

[[variants]]
name = "read"
language = "c"
description = "read(2) into a 64 KiB buffer, count the newline bytes of each block"
sources = ["c/read.c"]
""",
    )


def _cpp() -> LanguageFiles:
    return LanguageFiles(
        {
            "cpp/ifstream.cpp": """\
// Strategy: std::ifstream::read into a 64 KiB buffer, std::count of '\\n' over each block.
#include <algorithm>
#include <fstream>
#include <vector>

#include "iorace_kit.h"

static long long count_newlines(const iorace_job *job) {
  std::ifstream in(job->input, std::ios::binary);
  if (!in) iorace_fail("cannot open %s", job->input);
  std::vector<char> buf(1 << 16);
  long long count = 0;
  while (in.read(buf.data(), buf.size()) || in.gcount() > 0)
    count += std::count(buf.data(), buf.data() + in.gcount(), '\\n');
  return count;
}

int main(int argc, char **argv) { return iorace_run(argc, argv, count_newlines); }
"""
        },
        """\
[defaults.cpp]
flags = "-I{kit}/c"     # the kit's header, iorace_kit.h (C and C++)
deps = ["{kit}/c"]

[[variants]]
name = "ifstream"
language = "cpp"
description = "std::ifstream::read into a 64 KiB buffer, std::count of newlines over each block"
sources = ["cpp/ifstream.cpp"]
""",
    )


def _d() -> LanguageFiles:
    return LanguageFiles(
        {
            "d/bychunk.d": """\
// Strategy: File.byChunk(64 KiB), std.algorithm's count of '\\n' over each chunk.
import iorace_kit;
import std.algorithm : count;
import std.stdio : File;

int main(string[] args) {
    return runJob(args, (ref const Job job) {
        long newlines = 0;
        foreach (chunk; File(job.input, "rb").byChunk(1 << 16))
            newlines += chunk.count('\\n');
        return newlines;
    });
}
"""
        },
        """\
[defaults.d]
flags = "-I{kit}/d"     # the kit's module, iorace_kit.d, which each variant also compiles (sources)

[[variants]]
name = "bychunk"
language = "d"
description = "File.byChunk(64 KiB), count of newlines over each chunk"
sources = ["d/bychunk.d", "{kit}/d/iorace_kit.d"]
""",
    )


def _rust(name: str, kit: str) -> LanguageFiles:
    return LanguageFiles(
        {
            "rust/Cargo.toml": f"""\
[package]
name = "{name}-variants"
version = "0.1.0"
edition = "2021"
publish = false

# the variant kit (the arguments, the passes, the timer, the result line); a program is src/bin/NAME.rs
[dependencies]
iorace-kit = {{ path = "{kit}/rust" }}
""",
            "rust/.gitignore": "target/\n",
            "rust/src/bin/read.rs": """\
// Strategy: File::read into a 64 KiB buffer, count the b'\\n' bytes of each block.
use std::fs::File;
use std::io::Read;

fn main() {
    iorace_kit::run(|job| {
        let mut file = File::open(&job.input)?;
        let mut buf = vec![0u8; 1 << 16];
        let mut count = 0u64;
        loop {
            let n = file.read(&mut buf)?;
            if n == 0 {
                return Ok(count);
            }
            count += buf[..n].iter().filter(|&&b| b == b'\\n').count() as u64;
        }
    })
}
""",
        },
        """\
[defaults.rust]
deps = ["rust/Cargo.toml", "{kit}/rust"]   # Cargo.toml uses the kit by path

[[variants]]
name = "read"
language = "rust"
description = "File::read into a 64 KiB buffer, count the newline bytes of each block"
sources = ["rust/src/bin/read.rs"]
""",
    )


def _go(name: str, kit: str) -> LanguageFiles:
    return LanguageFiles(
        {
            "go/go.mod": f"""\
module {name}

go 1.19

require iorace.local/kit v0.0.0

// the variant kit (the arguments, the passes, the timer, the result line)
replace iorace.local/kit => {kit}/go
""",
            "go/read.go": """\
// Strategy: (*os.File).Read into a 64 KiB buffer, bytes.Count of '\\n' over each block.
package main

import (
	"bytes"
	"io"
	"os"

	"iorace.local/kit"
)

func main() {
	kit.Run(func(job *kit.Job) (any, error) {
		f, err := os.Open(job.Input)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		buf := make([]byte, 1<<16)
		count := 0
		for {
			n, err := f.Read(buf)
			count += bytes.Count(buf[:n], []byte{'\\n'})
			if err == io.EOF {
				return count, nil
			} else if err != nil {
				return nil, err
			}
		}
	})
}
""",
        },
        """\
[defaults.go]
deps = ["go/go.mod", "{kit}/go"]   # go.mod replaces iorace.local/kit with the kit's folder

[[variants]]
name = "read"
language = "go"
description = "(*os.File).Read into a 64 KiB buffer, bytes.Count of newlines over each block"
sources = ["go/read.go"]
""",
    )


def _java() -> LanguageFiles:
    return LanguageFiles(
        {
            "java/Read.java": """\
// Strategy: FileInputStream.read into a 64 KiB buffer, count the '\\n' bytes of each block.
import java.io.FileInputStream;
import java.io.InputStream;

public final class Read {
  public static void main(String[] args) {
    IoraceKit.run(args, job -> {
      try (InputStream in = new FileInputStream(job.input)) {
        byte[] buf = new byte[1 << 16];
        long count = 0;
        for (int n; (n = in.read(buf)) > 0; ) {
          for (int i = 0; i < n; i++) {
            if (buf[i] == '\\n') {
              count++;
            }
          }
        }
        return count;
      }
    });
  }
}
"""
        },
        """\
[[variants]]
name = "read"
language = "java"
description = "FileInputStream.read into a 64 KiB buffer, count the newline bytes of each block"
sources = ["java/Read.java", "{kit}/java/IoraceKit.java"]   # the class to run first, then the kit's
""",
    )


def _python() -> LanguageFiles:
    return LanguageFiles(
        {
            "python/read.py": """\
# Strategy: read 64 KiB blocks in binary mode, bytes.count(b"\\n") over each.

from iorace.variant_kit.python import iorace_kit  # the harness's own interpreter runs it, iorace installed


def count_newlines(job: iorace_kit.Job) -> int:
    count = 0
    with open(job.input, "rb") as f:
        while block := f.read(1 << 16):
            count += block.count(b"\\n")
    return count


iorace_kit.run(count_newlines)
"""
        },
        """\
[defaults.python]
deps = ["{kit}/python"]   # the kit's module, iorace_kit.py: hashed into the build key

[[variants]]
name = "read"
language = "python"
description = "read 64 KiB blocks in binary mode, bytes.count of newlines over each"
sources = ["python/read.py"]
""",
    )


LANGUAGES = ("c", "cpp", "d", "rust", "go", "java", "python")


def peer_files(command: str) -> LanguageFiles:
    """An existing program as a peer: a sh wrapper that runs it once per pass on the file (on stdin, so that
    it prints the number alone) and says its answer and its own time in the result line, and a toolchain
    named after the program, so a machine without it skips the row and says why."""
    words = shlex.split(command)
    program = Path(words[0]).name
    return LanguageFiles(
        {
            f"sh/{program}.sh": f"""\
# Strategy: PEER, {command} (someone else's program doing the job), run once per pass on the file.
# FILE PASSES: each pass runs it with the file as its stdin; the first word it prints is the answer.
[ $# -ge 2 ] || {{ echo "usage: $0 FILE PASSES" >&2; exit 2; }}
file=$1 passes=$2 first="" i=0
start=$(date +%s%N)
while [ "$i" -lt "$passes" ]; do
  out=$({command} < "$file") || exit 1
  set -- $out
  [ -z "$first" ] || [ "$1" = "$first" ] || {{ echo "error: pass $((i + 1)) answered $1, the first pass $first" >&2; exit 1; }}
  first=$1 i=$((i + 1))
done
echo "iorace-result {{\\"answer\\": $first, \\"inner_ns\\": $(($(date +%s%N) - start))}}" >&2
"""
        },
        f"""\
# {program} as a peer: nothing to build, sh runs the wrapper; the toolchain is the program itself, so a
# machine without it skips the row and says why (`iorace doctor`, `iorace list`).
[toolchains.{program}]
language = "sh"
command = "{program}"
version = "{program} --version"
install = "the package that provides {program}"
build = ""
run = ["sh", "{{main}}"]
profiles.release = {{}}

[[variants]]
name = "{program}"
language = "sh"
kind = "peer"
description = "PEER: {command}, run once per pass on the file"
sources = ["sh/{program}.sh"]
""",
    )


def language_files(language: str, name: str, kit: str) -> LanguageFiles:
    """One language's part of the skeleton of suite `name`; `kit` is how its Cargo.toml and go.mod name the kit."""
    makers: dict[str, Callable[[], LanguageFiles]] = {
        "c": _c,
        "cpp": _cpp,
        "d": _d,
        "rust": lambda: _rust(name, kit),
        "go": lambda: _go(name, kit),
        "java": _java,
        "python": _python,
    }
    return makers[language]()
