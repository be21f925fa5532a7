# The two commands of the README. Both set up what they need first (scripts/setup, idempotent).
IORACE := .venv/bin/iorace
PYTEST := .venv/bin/pytest

# make bench's suites, in the order they are verified, measured and printed, each as soon as it is measured:
# a small suite first (lines: its tables within about two minutes of a warm start), readbytes, the first
# seed, last; quick data everywhere but rdb, which runs on its seed-like RDB 6 dump, the one the peers can read
# (its quick dump is as large, and a fixed job a run: a second rdb dataset would cost as much again). formats:
# the cross-language serialization grid's first tier (two tables: encode and decode), within the suite's floor budget.
SUITES ?= lines readexact rdb serialize formats capnp readbytes
SIZES ?= --size quick --size rdb=seed
# Each cell's work per run is sized to about TARGET_MS (readbytes' passes, serialize's ops, capnp's iterations;
# rdb, lines and readexact have one fixed job a run). Rounds: racing stops a cell many times behind its
# table's fastest from the second round, and from the third a cell whose place is settled or that cannot be
# among the table's three fastest; those get RUNS at least, then more until every cell still timed in a table
# is within PRECISION percent (the table then stops whole), within a budget per suite of BUDGET_PER_TABLE
# seconds a table, BUDGET at least (MAX_RUNS, when set, caps the rounds too). Short runs: this machine's runs
# are no noisier short (docs/results/2026-11-26-options-first-look), so a budget buys more rounds; from 20 rounds a ratio is a trimmed mean,
# which the heavy tails of this machine's rounds no longer widen. For +-2%: PRECISION=2 (`iorace dimension`
# says how long it takes). ORDER=rivals: each table's cells side by side in a round, so a cell and its rivals
# run in the same stretch of this VM's two speeds (docs/results/2026-11-26-pairing-in-time). BUDGET_PER_TABLE=6:
# at 3, capnp's 30 tables got about 10 rounds and the top half-width was 5.9-7.2%; at 6, 3.3-4.9% in 8.0-9.3
# minutes (docs/results/2026-11-27-paired-fastest). A table whose rounds are cheap is timed whole for a
# quarter of BUDGET_PER_TABLE (20 rounds at most; over K layouts 20 turns in K quarters): at 5 rounds a planted 10% in spin's loop was flagged in 2
# of 5 pairs of sessions (docs/results/2026-11-27-cheap-tables).
RUNS ?= 5
MAX_RUNS ?=
PRECISION ?= 5
BUDGET ?= 40
BUDGET_PER_TABLE ?= 6
TARGET_MS ?= 20
ORDER ?= rivals
# anything else for `iorace run` (BENCH_ARGS="--export-json results.json --suite-dir tests/suites")
BENCH_ARGS ?=

# make fuzz: each fuzzer of the rdb parsers (cargo fuzz, libFuzzer, go test -fuzz) for FUZZ_SECONDS, then the
# differential driver (every parser on each mutant) as long; installs cargo-fuzz and nightly Rust if missing.
# Then make fuzz-formats: FORMAT_MUTANTS seeded mutants of each format's encoding fed to every language's decoder
# (C++ under ASan+UBSan), a table of refusals, digests, crashes and hangs (suites/formats/README.md, "Mutants").
FUZZ_SECONDS ?= 60
FORMAT_MUTANTS ?= 300

# make seeds: each seed's question at its own configuration (its data size, parameters, compilers and build
# profiles: each suite's [seed] block), its published table beside today's first; SEEDS=readexact for one.
# STUDY=docs/results/FOLDER: also export the session there as its next session-N.json.gz (gzipped, so the
# repository stays light) and session-N.md, which `make docs` picks up (a new host's sessions of a seed: docs/USAGE.md, "Hosts").
SEEDS ?=
STUDY ?=
STUDY_NEXT = $(STUDY)/session-$(shell expr 1 + 0$$(ls $(STUDY) 2>/dev/null | sed -n 's/^session-\([0-9]*\)\.json\(\.gz\)\{0,1\}$$/\1/p' | sort -n | tail -1))

.PHONY: setup bench seeds site test test-quick lint docs doctor fuzz fuzz-formats lock

setup:
	scripts/setup

# The main job: verified, measured, stored in the session database, reported, and written to results.md.
bench: setup
	$(IORACE) doctor
	$(IORACE) run $(SUITES) $(SIZES) --runs $(RUNS) $(if $(MAX_RUNS),--max-runs $(MAX_RUNS)) --precision $(PRECISION)% \
		--budget $(BUDGET) --budget-per-table $(BUDGET_PER_TABLE) --target-ms $(TARGET_MS) --order $(ORDER) \
		--export-markdown results.md --export-html results.html $(BENCH_ARGS)

seeds: setup
	$(IORACE) doctor
	$(if $(STUDY),test -d $(STUDY) || { echo "make seeds: STUDY=$(STUDY) is not a folder" >&2; exit 2; })
	$(IORACE) seeds $(SEEDS) --runs $(RUNS) --budget $(BUDGET) --export-html seeds.html \
		$(if $(STUDY),--export-json $(STUDY_NEXT).json.gz --export-markdown $(STUDY_NEXT).md,--export-markdown seeds.md)

# The local store's results as a static site in site/ (git-ignored): open site/index.html; DB=URL for another store.
DB ?=
site: setup
	$(IORACE) site $(if $(DB),--db $(DB)) --out site

# Everything; the shared store's tests start and stop their own PostgreSQL server (tests/pgserver.py). In
# TEST_JOBS workers (pytest-xdist): a slow test file whole in one worker, the unit tests one by one wherever
# a worker is free (conftest.py's pytest_xdist_make_scheduler); TEST_JOBS=0 runs them all in this process. Then the
# tests marked serial, alone: they need quiet sessions (or load every core), which a second worker would not leave.
TEST_JOBS ?= 2
test: setup
	$(PYTEST) -q -n $(TEST_JOBS) --dist loadfile -m "not serial"
	$(PYTEST) -q -m serial

# The quick loop: the harness's unit tests, no toolchain builds (seconds).
test-quick: setup
	$(PYTEST) -q -m "not slow"

# ruff (check and format) + mypy (pyproject.toml), rustfmt, clippy, gofmt and go vet over every suite: zero findings.
lint: setup
	scripts/lint

# README.md's results block and docs/results/README.md, the index of the studies, regenerated from the stored
# exports and each study's study.toml, and docs/MANIFEST.md from the manifest's models (tests/unit/test_docs_current.py
# and tests/unit/test_manifest_reference.py fail when they are out of date).
docs: setup
	.venv/bin/python scripts/docs.py

doctor: setup
	$(IORACE) doctor

fuzz: setup
	rc=0; .venv/bin/python suites/rdb/fuzz/rdbfuzz.py all $(FUZZ_SECONDS) || rc=1; \
		.venv/bin/python suites/formats/fuzz/mutants.py --count $(FORMAT_MUTANTS) || rc=1; exit $$rc

fuzz-formats: setup
	.venv/bin/python suites/formats/fuzz/mutants.py --count $(FORMAT_MUTANTS)

# Resolve pyproject.toml's dependencies and extras again into requirements.lock (every platform and Python
# that pyproject allows, with hashes), with uv, which setup does not need; commit the result on purpose.
lock: setup
	.venv/bin/pip install -q uv
	.venv/bin/uv pip compile pyproject.toml --extra test --extra suites --extra pg --universal --python-version 3.11 \
		--generate-hashes --no-header -q -o requirements.lock
	@sed -i '1i # Every Python package scripts/setup installs, pinned with hashes: `make lock` writes it (uv pip compile).' requirements.lock
