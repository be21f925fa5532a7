# Design: what a Python user writes: a precompiled struct.Struct(">IBhqBfd4HH").unpack_from, a Record object per op.
"""deserialize in Python with the struct module. Usage: python3 deser_struct.py FILE OPS"""

import sys

from common import Corrupt, Job, decode, fail


def main() -> None:
    job = Job(sys.argv)

    def deserialize(data, pos):
        try:
            return decode(data, pos)
        except Corrupt as e:
            fail(f"byte {pos}: {e}")

    job.time_deser(deserialize)


if __name__ == "__main__":
    main()
