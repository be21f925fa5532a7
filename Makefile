# The two commands of the README. Both set up what they need first (scripts/setup, idempotent).
IORACE := .venv/bin/iorace
PYTEST := .venv/bin/pytest

.PHONY: setup bench test doctor

setup:
	scripts/setup

# The main job: every suite on the quick data, verified, measured, stored, reported.
bench: setup
	$(IORACE) doctor
	$(IORACE) run --size quick --export-markdown results.md

test: setup
	$(PYTEST) -q

doctor: setup
	$(IORACE) doctor
