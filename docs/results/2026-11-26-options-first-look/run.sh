#!/usr/bin/env bash
# A first look at the new noise options on a quiet machine: the same readbytes cells (quick data, both modes, the
# C and C++ cells of gcc, g++ and clang++, 10 rounds, no precision target) by default, with --target-ms 100, with
# --metric cpu and with --order rivals, the four in turn and then again; then each session's precision (the median
# 95% half-width of the ratios of each table's three fastest cells, and of every compared cell) and its length.
# Two sessions of each: a lead, not a result.
# Run it with nothing else on the machine: bash docs/results/2026-11-26-options-first-look/run.sh OUT
set -uo pipefail
cd "$(dirname "$0")/../../.."
out=${1:?usage: run.sh OUT_FOLDER}
mkdir -p "$out"
db=$(mktemp -d)/iorace.sqlite
base=(readbytes --size quick --variant 'c/*' --variant 'cpp/*' --toolchain gcc --toolchain g++ --toolchain clang++
      --runs 10 --precision none --no-race --db "$db")
i=0
for extra in "" "--target-ms 100" "--metric cpu" "--order rivals" "" "--target-ms 100" "--metric cpu" "--order rivals"; do
  i=$((i + 1))
  # shellcheck disable=SC2086
  .venv/bin/iorace run "${base[@]}" $extra --export-json "$out/session-$i.json" >"$out/session-$i.txt" 2>&1
  echo "session $i (${extra:-default}): exit $?" | tee -a "$out/sessions.txt"
done
.venv/bin/python docs/results/2026-11-26-options-first-look/summarize.py "$db" >"$out/summary.txt"
