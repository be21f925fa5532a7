# Strategy: iterate the file opened in binary mode ("rb": bytes lines, terminator kept) and write each line to sys.stdout.buffer (8 KiB BufferedWriter).
import sys


def main() -> int:
    if len(sys.argv) != 2:
        print(f"usage: {sys.argv[0]} FILE", file=sys.stderr)
        return 2
    out = sys.stdout.buffer
    try:
        with open(sys.argv[1], "rb") as f:
            for line in f:
                out.write(line)
        out.flush()
    except OSError as e:
        print(f"{sys.argv[1]}: {e.strerror or e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
