#!/usr/bin/env bash
# Which of the levers narrows the ratios at the top of a table on this VM? Two sessions of each
# configuration, the configurations in the order A..D then D..A, all into one store; then levers.py.
#   A  shuffle, no spinners, 50 ms (make bench's)     B  shuffle, spinners, 50 ms
#   C  rivals,  spinners,    50 ms                    D  shuffle, spinners, 20 ms
# Cells: capnp's carsales case (g++ and cargo: 90 cells in 7 tables; capnp has 28 of make bench's 74 tables and
# its noisiest ratios at the top), 10 rounds each, no racing (every cell gets every round, so every pair's noise is estimated alike), A/A on.
# Run it from the checkout's root, alone on the machine: bash docs/results/2026-11-26-noise-levers/run.sh OUT
set -euo pipefail
out=${1:?usage: run.sh OUT}
mkdir -p "$out"
db="$out/levers.sqlite"
common=(--runs 10 --max-runs 10 --no-race --db "$db")
suites=("capnp --param case=carsales --toolchain g++ --toolchain cargo")
declare -A args=(
  [A]="--order shuffle --no-idle-spinners --target-ms 50" [B]="--order shuffle --idle-spinners --target-ms 50"
  [C]="--order rivals --idle-spinners --target-ms 50"     [D]="--order shuffle --idle-spinners --target-ms 20"
)
n=0
for cfg in A B C D D C B A; do
  for suite in "${suites[@]}"; do
    n=$((n + 1))
    status=0
    # shellcheck disable=SC2086
    .venv/bin/iorace run $suite "${common[@]}" ${args[$cfg]} --export-json "$out/session-$n-$cfg.json" > "$out/session-$n-$cfg.txt" 2>&1 || status=$?
    echo "session $n: config $cfg (${args[$cfg]}), $suite, exit $status" >> "$out/sessions.txt"
  done
done
.venv/bin/python docs/results/2026-11-26-noise-levers/levers.py "$out"/session-*.json > "$out/levers.txt"
cat "$out/levers.txt"
