"""Disassemble one nmethod of a JDK -XX:+PrintAssembly log printed without hsdis (the code as hex words).

usage: python3 hex2asm.py LOG INDEX   (INDEX counts the log's "Compiled method" headers from 0)

The words from the entry point to the exception handler are written to a temporary binary, placed at their
addresses, and disassembled by `objdump -D -b binary -mi386:x86-64`.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

WORDS = re.compile(r"\s*(0x[0-9a-f]+): ((?:[0-9a-f]{2,8} ?\|? ?)+)\s*$")


def code_of(lines: list[str], index: int) -> tuple[int, bytes]:
    starts = [i for i, line in enumerate(lines) if line.startswith("Compiled method")]
    block = lines[starts[index] : starts[index + 1] if index + 1 < len(starts) else len(lines)]
    base = -1
    data = bytearray()
    inside = False
    for line in block:
        if "[Verified Entry Point]" in line or "[Entry Point]" in line:
            inside = True
        if line.startswith("[Exception Handler]") or line.startswith("[Stub Code]"):
            inside = False
        m = WORDS.match(line)
        if not (m and inside):
            continue
        addr = int(m.group(1), 16)
        if base < 0:
            base = addr
        at = addr - base
        if at > len(data):
            data += b"\x90" * (at - len(data))  # a gap: nops
        del data[at:]
        data += bytes.fromhex("".join(m.group(2).replace("|", "").split()))
    if base < 0:
        sys.exit(f"hex2asm: no code in method {index}")
    return base, bytes(data)


def main() -> int:
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    base, data = code_of(Path(sys.argv[1]).read_text().split("\n"), int(sys.argv[2]))
    with tempfile.NamedTemporaryFile(delete=False) as f:
        f.write(data)
    try:
        cmd = ["objdump", "-D", "-b", "binary", "-mi386:x86-64", f"--adjust-vma={hex(base)}", f.name]
        print(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
    finally:
        os.unlink(f.name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
