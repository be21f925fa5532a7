"""Each capnp pipe cell of two sessions side by side: its median time per message free (session A) and on one
CPU (session B), the sd of log(time) over its rounds in each, its CPU share (user + system over wall: two
processes that wait on each other use under one CPU either way) and the cpus note it ran with.
usage: per_message.py SESSION_A.json SESSION_B.json"""

from __future__ import annotations

import json
import math
import statistics
import sys

from iorace.core.gzfile import read_text


def _cells(path: str) -> dict[str, dict]:
    return {r["label"]: r for r in json.loads(read_text(path))["results"] if r["suite"] == "capnp" and r["inner_times"]}


def _per_message(r: dict) -> list[float]:
    messages = r["units_per_run"].get("messages") or next(iter(r["units_per_run"].values()))
    return [t / messages * 1e6 for t in r["inner_times"]]  # microseconds


def _sd_log(xs: list[float]) -> float:
    return statistics.stdev(math.log(x) for x in xs) if len(xs) > 1 else float("nan")


def _share(r: dict) -> float:
    shares = [s for s in r.get("cpu_shares") or [] if s is not None]
    return statistics.median(shares) if shares else float("nan")


def main(a_path: str, b_path: str) -> None:
    a, b = _cells(a_path), _cells(b_path)
    print("cell\tA us/message\tB us/message\tA/B\tA sd(log)\tB sd(log)\tA cpu share\tB cpu share\tB cpus")
    ratios, sds_a, sds_b = [], [], []
    for label in sorted(set(a) & set(b)):
        pa, pb = _per_message(a[label]), _per_message(b[label])
        ma, mb = statistics.median(pa), statistics.median(pb)
        ratios.append(ma / mb)
        sds_a.append(_sd_log(pa))
        sds_b.append(_sd_log(pb))
        print(
            f"{label}\t{ma:.2f}\t{mb:.2f}\t{ma / mb:.2f}\t{sds_a[-1]:.3f}\t{sds_b[-1]:.3f}\t"
            f"{_share(a[label]):.2f}\t{_share(b[label]):.2f}\t{b[label].get('cpus_note', '')}"
        )
    if ratios:
        print(
            f"# {len(ratios)} cells: free over one CPU, median {statistics.median(ratios):.2f}x "
            f"(range {min(ratios):.2f}-{max(ratios):.2f}); median sd(log) free {statistics.median(sds_a):.3f}, "
            f"one CPU {statistics.median(sds_b):.3f}"
        )


if __name__ == "__main__":
    main(*sys.argv[1:3])
