# Strategy: iterate the file opened in text mode (UTF-8 decoded to str, universal newlines turn "\r\n" and "\r" into "\n") and sys.stdout.write each line; CRLF and bytes that are not UTF-8 are not kept.
import sys


def main() -> int:
    if len(sys.argv) != 2:
        print(f"usage: {sys.argv[0]} FILE", file=sys.stderr)
        return 2
    # Fixed UTF-8 on both sides: the defaults follow the locale.
    sys.stdout.reconfigure(encoding="utf-8")
    try:
        with open(sys.argv[1], encoding="utf-8") as f:
            for line in f:
                sys.stdout.write(line)
        sys.stdout.flush()
    except (OSError, UnicodeDecodeError) as e:
        print(f"{sys.argv[1]}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
