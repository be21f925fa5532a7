# Strategy: what a Python user writes first: open(path, "rb") (an io.BufferedReader, 8 KiB) and f.read(1) per byte until b"".
"""readbytes in plain Python: push every byte through a buffered reader's read(1).

Usage: python3 buffered_read1.py FILE count|sum PASSES
"""

import json
import sys
import time


def fail(message: str, status: int = 1) -> None:
    """One line on stderr, then exit (status 2 for a usage error). No traceback."""
    print(f"readbytes: {message}", file=sys.stderr)
    sys.exit(status)


def parse_args(argv: list[str]) -> tuple[str, bool, int]:
    if len(argv) != 4:
        fail(f"usage: {argv[0]} FILE count|sum PASSES", 2)
    path, mode, passes_text = argv[1:]
    if mode not in ("count", "sum"):
        fail(f"mode must be count or sum, not '{mode}'", 2)
    try:
        passes = int(passes_text)
    except ValueError:
        passes = 0
    if passes <= 0:
        fail(f"passes must be a positive integer, not '{passes_text}'", 2)
    return path, mode == "sum", passes


def main() -> None:
    path, want_sum, passes = parse_args(sys.argv)
    count = 0
    total = 0
    start = time.perf_counter_ns()
    try:
        for _ in range(passes):
            with open(path, "rb") as f:  # reopened every pass
                if want_sum:
                    while True:
                        b = f.read(1)
                        if not b:
                            break
                        total += b[0]
                        count += 1
                else:
                    while True:
                        b = f.read(1)
                        if not b:
                            break
                        count += 1
    except OSError as e:
        fail(f"{path}: {e.strerror or e}")
    inner_ns = time.perf_counter_ns() - start
    answer = total + count if want_sum else count
    print(f"{'sum' if want_sum else 'count'} {answer} ({passes} passes) in {inner_ns / 1e6:.1f} ms")
    sys.stdout.flush()
    print("iorace-result " + json.dumps({"answer": answer, "inner_ns": inner_ns}), file=sys.stderr)


if __name__ == "__main__":
    main()
