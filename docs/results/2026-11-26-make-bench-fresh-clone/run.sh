#!/usr/bin/env bash
# `make bench` on a fresh clone, builds included: a clone of the checkout's HEAD in a new folder, a
# python3 with none of the project's packages first on PATH (scripts/setup makes the clone's own .venv), and an
# empty iorace cache (IORACE_CACHE: every cell built again, every dataset generated again). What stays warm:
# Debian's packages, and cargo's and Go's download caches (~/.cargo, ~/go: a first machine downloads them too).
# Run it from the checkout's root, alone on the machine: bash docs/results/2026-11-26-make-bench-fresh-clone/run.sh OUT
set -uo pipefail
out=$(realpath -m "${1:?usage: run.sh OUT}")
mkdir -p "$out"
work=$(mktemp -d)
git clone -q "$(pwd)" "$work/iorace"
mkdir -p "$work/bin" && ln -s /usr/bin/python3 "$work/bin/python3"
cd "$work/iorace" || exit 1
start=$(date +%s)
PATH="$work/bin:$PATH" IORACE_CACHE="$work/cache" IORACE_DB="$work/iorace.sqlite" \
  make bench BENCH_ARGS="--export-json $out/session.json" 2>&1 | python3 -u -c 'import sys, time
t0 = time.monotonic()
for line in sys.stdin:
    sys.stdout.write(f"{time.monotonic() - t0:7.1f} {line}")' > "$out/make-bench.txt"
rc=${PIPESTATUS[0]}
echo "make bench on a fresh clone of $(git rev-parse --short HEAD) (empty IORACE_CACHE, new .venv): exit $rc, $(( $(date +%s) - start )) s" | tee "$out/timing.txt"
grep -h -E '^ *[0-9.]+ (build|data|verify|size|measure) [a-z]+.*: (started|done)|^ *[0-9.]+ (quiet|contended)' "$out/make-bench.txt" > "$out/stages.txt"
echo "clone, cache and store left in $work" | tee -a "$out/timing.txt"
