#!/usr/bin/env bash
# capnp's pipe configs (client and server processes over two pipes) measured free (--no-one-cpu: the kernel places
# the two processes, as before) and confined to one CPU (the suite's [one_cpu], the default), one session each,
# back to back into one store, at make bench's settings; bench_summary.py (of the layouts-in-turn study) over each.
# Run it from the checkout's root, alone on the machine:
#   bash docs/results/2026-11-28-one-cpu-pipes/run.sh OUT
set -uo pipefail
here=$(dirname "$(realpath "$0")")
out=$(realpath -m "${1:?usage: run.sh OUT}")
mkdir -p "$out"
export IORACE_DB=${IORACE_DB:-$(mktemp -d)/iorace.sqlite}
pipes=(--param config=pipe-reuse --param config=pipe --param config=pipe-packed-reuse --param config=pipe-packed)
i=0
for mode in --no-one-cpu --one-cpu; do
  i=$((i + 1))
  start=$(date +%s)
  .venv/bin/iorace run capnp --size quick "${pipes[@]}" "$mode" --runs 5 --precision 5% --budget 40 --budget-per-table 6 \
    --target-ms 20 --order rivals --export-json "$out/session-$i.json.gz" > "$out/run-$i.txt" 2>&1
  echo "session $i ($mode): exit $?, $(( $(date +%s) - start )) s" | tee -a "$out/timing.txt"
  .venv/bin/python "$here/../2026-11-28-layouts-in-turn/bench_summary.py" "$out/session-$i.json.gz" > "$out/summary-$i.txt" 2>&1
done
.venv/bin/python "$here/per_message.py" "$out/session-1.json.gz" "$out/session-2.json.gz" > "$out/per-message.tsv"
