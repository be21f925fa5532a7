#!/usr/bin/env bash
# Does `make bench` fit in ten minutes with a warm build cache, with the median 95% half-width of the
# ratios of each table's three fastest cells at 5% or less, and do two back-to-back sessions agree?
# Two `make bench` runs back to back, each with the spin test suite beside the real ones (three cells, ~1 s a
# round), the second with a 10% slowdown planted in one of them (IORACE_SPIN_SLOWER=loop2:10): `compare 1 2`
# must flag that cell and nothing else. Then tools/bench_repro.py over the two stored sessions: each cell's z,
# sd(z) over disjoint pairs, the A/A checks, the precision at the top and each session's length.
# Run it with nothing else on the machine, after a build of the same cells (so the cache is warm):
#   bash docs/results/2026-11-26-make-bench-in-minutes/run.sh OUT
set -uo pipefail
cd "$(dirname "$0")/../../.."
out=${1:?usage: run.sh OUT_FOLDER}
mkdir -p "$out"
export IORACE_DB=${IORACE_DB:-$(mktemp -d)/iorace.sqlite}
suites="lines readexact rdb serialize capnp readbytes spin"
for i in 1 2; do
  slower=""
  [ "$i" = 2 ] && slower="loop2:10"
  start=$(date +%s)
  IORACE_SPIN_SLOWER=$slower make bench SUITES="$suites" \
    BENCH_ARGS="--suite-dir tests/suites --size spin=tiny --export-json $out/session-$i.json" >"$out/make-bench-$i.txt" 2>&1
  rc=$?
  echo "make bench $i (IORACE_SPIN_SLOWER=${slower:-none}): exit $rc, $(( $(date +%s) - start )) s from the command to its end" | tee -a "$out/timing.txt"
  cp results.md "$out/results-$i.md"
done
.venv/bin/python tools/bench_repro.py --db "$IORACE_DB" --from 1,2 >"$out/repro.txt" 2>&1
.venv/bin/iorace compare 1 2 --db "$IORACE_DB" >"$out/compare.txt" 2>&1
echo "iorace compare 1 2: exit $?" | tee -a "$out/timing.txt"
echo "store: $IORACE_DB" | tee -a "$out/timing.txt"
