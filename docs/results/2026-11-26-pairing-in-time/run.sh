#!/usr/bin/env bash
# Pairing in time: this VM runs in two states about 2x apart (a run takes 27 ms or 50 ms, whole
# stretches of rounds at a time, at a CPU share of 1.00: a busy neighbour on the host, which /proc/stat does not
# see). In a shuffled round a cell and its table's fastest often run in different states; side by side
# (--order rivals) they mostly share one. Two configurations, each session 20 rounds, no racing (every cell
# gets every round), A/A on, 20 ms runs, no spinners:
#   S  --order shuffle (iorace's default)      R  --order rivals (each table's cells side by side)
# Cells: capnp's carsales case (g++ and cargo: 90 cells in 7 tables) and serialize's quick size (104 cells
# in 3 tables), in the order S R R S, into one store; then pairing.py reads it.
# Run it from the checkout's root, alone on the machine: bash docs/results/2026-11-26-pairing-in-time/run.sh OUT
set -euo pipefail
out=$(realpath -m "${1:?usage: run.sh OUT}")
mkdir -p "$out"
db="$out/pairing.sqlite"
common=(--runs 20 --max-runs 20 --no-race --no-idle-spinners --target-ms 20 --db "$db")
suites=("capnp --param case=carsales --toolchain g++ --toolchain cargo" "serialize")
declare -A args=([S]="--order shuffle" [R]="--order rivals")
n=0
for cfg in S R R S; do
  for suite in "${suites[@]}"; do
    n=$((n + 1))
    status=0
    # shellcheck disable=SC2086
    .venv/bin/iorace run $suite "${common[@]}" ${args[$cfg]} --export-json "$out/session-$n-$cfg.json" > "$out/session-$n-$cfg.txt" 2>&1 || status=$?
    echo "session $n: config $cfg (${args[$cfg]}), $suite, exit $status" | tee -a "$out/sessions.txt"
  done
done
.venv/bin/python docs/results/2026-11-26-pairing-in-time/pairing.py "$db" "$out/sessions.txt" | tee "$out/pairing.txt"
