# Design: what a Python user writes: a precompiled struct.Struct(">IBhqBfd4HH").pack, then the name's bytes appended.
"""serialize in Python with the struct module. Usage: python3 ser_struct.py FILE OPS"""

import sys

from common import HEAD, Job


def main() -> None:
    job = Job(sys.argv)
    pack = HEAD.pack

    def serialize(r):
        d0, d1, d2, d3 = r.dims
        return pack(r.id, r.kind, r.delta, r.stamp, r.active, r.ratio, r.value, d0, d1, d2, d3, len(r.name)) + r.name

    job.time_ser(serialize)


if __name__ == "__main__":
    main()
