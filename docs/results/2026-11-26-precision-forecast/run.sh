#!/usr/bin/env bash
# Issue 30: does `iorace run --precision 2` bring each table's three fastest cells within +-2% in the time that
# `iorace dimension` forecasts? Two pilot sessions of serialize (plain rounds: no racing, no A/A), dimension's
# forecast from them, then the raced run with --precision 2 and room enough (--max-runs 3000, --budget 1800),
# and tools/bench_repro.py's precision-at-the-top over it. Run it from the checkout's root, alone:
#   bash docs/results/2026-11-26-precision-forecast/run.sh OUT [TARGET_MS]
set -uo pipefail
out=${1:?usage: run.sh OUT [TARGET_MS]}
target=${2:-20}
mkdir -p "$out"
db="$out/forecast.sqlite"
common=(serialize --target-ms "$target" --db "$db")
for i in 1 2; do
  .venv/bin/iorace run "${common[@]}" --runs 10 --max-runs 10 --no-race --no-aa > "$out/pilot-$i.txt" 2>&1
done
.venv/bin/iorace dimension --from 1,2 --precision 2 --db "$db" > "$out/dimension.txt" 2>&1
start=$(date +%s.%N)
.venv/bin/iorace run "${common[@]}" --precision 2 --runs 5 --max-runs 3000 --budget 1800 --export-json "$out/raced.json" > "$out/raced.txt" 2>&1
end=$(date +%s.%N)
echo "raced run (session 3): $(echo "$end - $start" | bc) s from the command to its end" > "$out/timing.txt"
.venv/bin/python - "$out/raced.json" >> "$out/timing.txt" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
info = d["iorace"]
print(f"session {info['session']}: {info['started']} .. {info['finished']}")
rows = [r for r in d["results"] if r["status"] == "ok" and r["ratio"] is not None]
tables = {}
for r in rows:
    key = (r["suite"], r["dataset"], json.dumps({k: v for k, v in r["parameters"].items() if k not in r["scale_parameters"]}, sort_keys=True))
    tables.setdefault(key, []).append(r)
for key, cells in tables.items():
    ranked = sorted((c for c in cells if c["kind"] not in ("limit", "control")), key=lambda c: c["ratio"])
    for c in ranked[:3]:
        lo, hi = c["ratio_ci95"] or (None, None)
        width = f"+-{(hi - lo) / 2 / c['ratio']:.1%}" if lo is not None else "-"
        print(f"{key[2]:20} {c['label'][:60]:60} ratio {c['ratio']:.3f} {width:>8} rounds {len(c['times'])}")
PY
cat "$out/dimension.txt" "$out/timing.txt"
