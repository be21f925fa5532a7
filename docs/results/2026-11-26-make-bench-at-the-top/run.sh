#!/usr/bin/env bash
# `make bench` twice back to back with a warm build cache, with the spin test suite beside the real
# suites, the second with a 10% slowdown planted in one spin cell (IORACE_SPIN_SLOWER=loop2:10): how long each
# takes, where the time goes (every log line carries the seconds since the command started), the precision at the
# top of each table, whether the two sessions agree (tools/bench_repro.py) and what `iorace compare 1 2` flags.
# Run it from the checkout's root, alone on the machine, after a build of the same cells (so the cache is warm):
#   bash docs/results/2026-11-26-make-bench-at-the-top/run.sh OUT [MAKE VARIABLES...]
set -uo pipefail
out=$(realpath -m "${1:?usage: run.sh OUT [MAKE VARIABLES...]}")
shift
mkdir -p "$out"
export IORACE_DB=${IORACE_DB:-$(mktemp -d)/iorace.sqlite}
stamp() { python3 -u -c 'import sys, time
t0 = time.monotonic()
for line in sys.stdin:
    sys.stdout.write(f"{time.monotonic() - t0:7.1f} {line}")'; }
for i in 1 2; do
  slower=""
  [ "$i" = 2 ] && slower="loop2:10"
  start=$(date +%s)
  IORACE_SPIN_SLOWER=$slower make bench SUITES="lines readexact rdb serialize capnp readbytes spin" "$@" \
    BENCH_ARGS="--suite-dir tests/suites --size spin=tiny --export-json $out/session-$i.json" 2>&1 | stamp > "$out/make-bench-$i.txt"
  rc=${PIPESTATUS[0]}
  echo "make bench $i (IORACE_SPIN_SLOWER=${slower:-none} $*): exit $rc, $(( $(date +%s) - start )) s from the command to its end" | tee -a "$out/timing.txt"
done
.venv/bin/python tools/bench_repro.py --db "$IORACE_DB" --from 1,2 > "$out/repro.txt" 2>&1
.venv/bin/iorace compare 1 2 --db "$IORACE_DB" > "$out/compare.txt" 2>&1
echo "iorace compare 1 2: exit $?" | tee -a "$out/timing.txt"
grep -h -E '^ *[0-9.]+ (build|data|verify|size|measure) [a-z]+.*: (started|done)|^ *[0-9.]+ (quiet|contended)' "$out"/make-bench-*.txt > "$out/stages.txt"
echo "store: $IORACE_DB" | tee -a "$out/timing.txt"
