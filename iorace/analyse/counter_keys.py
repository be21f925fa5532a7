"""The names of the counters a cell's extra runs record ("SOURCE:EVENT", the keys of Cell.counters and of the
counters table), and what is derived from them: shared by the pipeline that counts and the tables that show."""

from __future__ import annotations

from collections.abc import Mapping

CG_BRANCHES, CG_BRANCH_MISSES = "cachegrind:branches", "cachegrind:branch-misses"
# cachegrind's cache simulation (run --instructions): where each access was served
CG_L1_HITS, CG_LL_HITS, CG_RAM_HITS = "cachegrind:l1-hits", "cachegrind:ll-hits", "cachegrind:ram-hits"
LL_CYCLES, RAM_CYCLES = 5, 35  # iai-callgrind's (Gungraun's) weights of an LL hit and a RAM hit, an L1 hit being 1


def cache_hits(summary: Mapping[str, int]) -> tuple[int, int, int] | None:
    """(L1 hits, LL hits, RAM hits) from cachegrind's summary with --cache-sim=yes, as iai-callgrind counts
    them: RAM hits = ILmr + DLmr + DLmw; LL hits = I1mr + D1mr + D1mw - RAM hits; L1 hits = Ir + Dr + Dw - LL
    hits - RAM hits. None without the cache simulation's events."""
    need = ("Ir", "I1mr", "ILmr", "Dr", "D1mr", "DLmr", "Dw", "D1mw", "DLmw")
    if any(k not in summary for k in need):
        return None
    ram = summary["ILmr"] + summary["DLmr"] + summary["DLmw"]
    ll = summary["I1mr"] + summary["D1mr"] + summary["D1mw"] - ram
    l1 = summary["Ir"] + summary["Dr"] + summary["Dw"] - ll - ram
    return l1, ll, ram


def estimated_cycles(l1: int, ll: int, ram: int) -> int:
    """iai-callgrind's estimated cycles: L1 hits + 5 x LL hits + 35 x RAM hits."""
    return l1 + LL_CYCLES * ll + RAM_CYCLES * ram


def perf_key(event: str) -> str:
    return f"perf:{event}"


def ipc(counters: Mapping[str, float | None]) -> float | None:
    """Instructions per cycle from perf's counts, when both were counted."""
    ins, cyc = counters.get(perf_key("instructions")), counters.get(perf_key("cycles"))
    return ins / cyc if ins and cyc else None
