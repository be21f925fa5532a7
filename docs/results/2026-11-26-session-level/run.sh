#!/usr/bin/env bash
# Two more `make bench` sessions back to back on a store that already holds this machine's earlier
# make bench sessions, so each new session fits its suites' session level on them (analyse/session_spread.py)
# and carries it in its intervals; the second with a 10% slowdown planted in one spin cell
# (IORACE_SPIN_SLOWER=loop2:10). Then tools/bench_repro.py on the two new sessions (z with and without the
# session level) and `iorace compare`. Run it from the checkout's root, alone on the machine, with a warm cache:
#   bash docs/results/2026-11-26-session-level/run.sh OUT STORE [MAKE VARIABLES...]
# STORE is copied to OUT/bench.sqlite first (the study used docs/results/2026-11-26-make-bench-rivals/bench.sqlite).
set -uo pipefail
out=$(realpath -m "${1:?usage: run.sh OUT STORE [MAKE VARIABLES...]}")
store=${2:?usage: run.sh OUT STORE [MAKE VARIABLES...]}
shift 2
mkdir -p "$out"
cp "$store" "$out/bench.sqlite"
export IORACE_DB=$out/bench.sqlite
last() { .venv/bin/python -c 'import sys; from iorace.store.db import Store; print(Store(sys.argv[1]).session_ids()[-1])' "$IORACE_DB"; }
first=$(( $(last) + 1 ))
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
a=$first; b=$(( first + 1 ))
.venv/bin/python tools/bench_repro.py --db "$IORACE_DB" --from "$a,$b" > "$out/repro.txt" 2>&1
.venv/bin/iorace compare "$a" "$b" --db "$IORACE_DB" > "$out/compare.txt" 2>&1
echo "iorace compare $a $b: exit $?" | tee -a "$out/timing.txt"
grep -h -E '^ *[0-9.]+ (build|data|verify|size|measure) [a-z]+.*: (started|done)|^ *[0-9.]+ (quiet|contended)' "$out"/make-bench-*.txt > "$out/stages.txt"
echo "store: sessions $a and $b of $IORACE_DB" | tee -a "$out/timing.txt"
