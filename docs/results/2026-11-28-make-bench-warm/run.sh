#!/usr/bin/env bash
# Two `make bench` sessions back to back over code layouts (--layouts K: each compiled cell's as-linked build and
# K - 1 relinks, each a shuffle of its own, used in turn; intervals over pairs of layouts), with the spin test
# suite beside the real suites and a 10% slowdown planted in one spin cell in the second (IORACE_SPIN_SLOWER=loop2:10):
# how long each takes, its own honesty (bench_summary.py: A/A cells, placement, half-widths at the top), whether the
# two agree (tools/bench_repro.py: z per cell and per disjoint pair) and what `iorace compare 1 2` flags.
# Run it from the checkout's root, alone on the machine:
#   bash docs/results/2026-11-28-make-bench-warm/run.sh OUT [K]
set -uo pipefail
here=$(dirname "$(realpath "$0")")
out=$(realpath -m "${1:?usage: run.sh OUT [K]}")
layouts=${2:-4}
mkdir -p "$out"
export IORACE_DB=${IORACE_DB:-$(mktemp -d)/iorace.sqlite}
for i in 1 2; do
  slower=""
  [ "$i" = 2 ] && slower="loop2:10"
  start=$(date +%s)
  IORACE_SPIN_SLOWER=$slower make bench SUITES="lines readexact rdb serialize formats capnp readbytes spin" \
    BENCH_ARGS="--suite-dir tests/suites --size spin=tiny --layouts $layouts --export-json $out/session-$i.json.gz" > "$out/make-bench-$i.txt" 2>&1
  rc=$?
  echo "make bench $i (--layouts $layouts, IORACE_SPIN_SLOWER=${slower:-none}): exit $rc, $(( $(date +%s) - start )) s" | tee -a "$out/timing.txt"
  .venv/bin/python "$here/../2026-11-28-layouts-in-turn/bench_summary.py" "$out/session-$i.json.gz" > "$out/summary-$i.txt" 2>&1
done
.venv/bin/python tools/bench_repro.py --db "$IORACE_DB" --from 1,2 > "$out/repro.txt" 2>&1
.venv/bin/iorace compare 1 2 --db "$IORACE_DB" > "$out/compare.txt" 2>&1
echo "iorace compare 1 2: exit $?" | tee -a "$out/timing.txt"
echo "store: $IORACE_DB" | tee -a "$out/timing.txt"
