#!/usr/bin/env bash
# Ten quiet sessions of the spin test suite (two CPU-bound cells) into one store, a 10% slowdown of one cell
# planted from the sixth on (IORACE_SPIN_SLOWER: more steps than the program counts, its answer still right);
# then compare (unchanged, and across the step), history from SQLite, the same history from a PostgreSQL
# store the sessions were pushed to, and the exact counts of two sessions under --instructions.
# Run it with nothing else on the machine: bash docs/results/2026-11-26-history-on-real-sessions/run.sh OUT
set -uo pipefail
cd "$(dirname "$0")/../../.."
out=${1:?usage: run.sh OUT_FOLDER}
mkdir -p "$out"
work=$(mktemp -d)
db=$work/iorace.sqlite
iorace=.venv/bin/iorace
spin=(spin --suite-dir tests/suites --size tiny --runs 10 --precision none --no-race --machine quiet-vm --db "$db")
for i in $(seq 10); do
  if ((i >= 6)); then export IORACE_SPIN_SLOWER=loop2:10; fi
  $iorace run "${spin[@]}" --export-json "$out/session-$i.json" >"$out/session-$i.txt" 2>&1
  echo "session $i: exit $?" | tee -a "$out/sessions.txt"
done
unset IORACE_SPIN_SLOWER
$iorace compare 1 2 --db "$db" >"$out/compare-1-2.txt" 2>&1; echo "compare 1 2: exit $?" >>"$out/compare-1-2.txt"
$iorace compare 5 6 --db "$db" >"$out/compare-5-6.txt" 2>&1; echo "compare 5 6: exit $?" >>"$out/compare-5-6.txt"
$iorace history spin --db "$db" --window 30 >"$out/history-sqlite.txt" 2>&1; echo "exit $?" >>"$out/history-sqlite.txt"

# The same store on a PostgreSQL server of our own (no system-wide one), on a Unix socket in $work.
# PostgreSQL refuses to run as root: as root, the server runs as Debian's postgres user (as tests/pgserver.py does).
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
pg=$(mktemp -d)
as=()
if ((EUID == 0)); then as=(runuser -u postgres --); chown postgres "$pg"; fi
"${as[@]}" "$pgbin/initdb" -D "$pg/data" -A trust -U iorace >/dev/null
"${as[@]}" "$pgbin/pg_ctl" -D "$pg/data" -o "-k $pg -c listen_addresses=''" -l "$pg/server.log" -w start >/dev/null
"${as[@]}" "$pgbin/createdb" -h "$pg" -U iorace iorace
url="postgresql://iorace@/iorace?host=$pg"
$iorace push --all --to "$url" --db "$db" >"$out/push.txt" 2>&1
$iorace history spin --db "$url" --window 30 >"$out/history-postgresql.txt" 2>&1; echo "exit $?" >>"$out/history-postgresql.txt"
"${as[@]}" "$pgbin/pg_ctl" -D "$pg/data" -m fast stop >/dev/null
rm -rf "$pg"

# Exact counts: two sessions under --instructions (one run each; nothing timed that matters here).
for i in 1 2; do
  $iorace run spin --suite-dir tests/suites --size tiny --param steps=2000000 --runs 3 --instructions --db "$work/instr.sqlite" \
    --export-json "$out/instructions-$i.json" >"$out/instructions-$i.txt" 2>&1
done
$iorace compare 1 2 --db "$work/instr.sqlite" >"$out/compare-instructions.txt" 2>&1; echo "exit $?" >>"$out/compare-instructions.txt"
rm -rf "$work"
