PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP_RUN := $(VENV)/.installed-run
STAMP_TEST := $(VENV)/.installed-test

.PHONY: run test bench lint soak clean bytecode

$(BIN)/python:
	$(PY) -m venv $(VENV) || python3 -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP_RUN): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

# the tests also install Plain list (tests/plainlist_pkg), a ruleset in a package of its own that
# Fracas finds through its entry point, as it would one from elsewhere (tests/fifth)
$(STAMP_TEST): pyproject.toml tests/plainlist_pkg/pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	$(BIN)/python -m pip install --quiet --no-deps -e tests/plainlist_pkg
	touch $@ $(STAMP_RUN)

# compiled once here, so start-up does not compile the app's modules each time, even where the
# environment says PYTHONDONTWRITEBYTECODE (compileall skips files that are up to date)
bytecode: | $(BIN)/python
	@$(BIN)/python -m compileall -q -j 0 engine saves tui themes benchmarks

run: $(STAMP_RUN) bytecode
	$(BIN)/fracas demo $(or $(RULES),d20)

# on every core (pytest-xdist): two thirds of a serial run's wall time was waiting on one core.
# Tests vary from milliseconds to seconds: an idle worker takes tests queued for a busy one
# (worksteal), so no worker is left with a run of slow ones at the end. With the app's bytecode
# (each worker, and every app process a test starts, would compile it) and pytest's rewritten test
# modules kept from one run to the next, even where the environment says PYTHONDONTWRITEBYTECODE:
# each worker's collection then takes 3 s, not 9.
test: $(STAMP_TEST) bytecode
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n auto --dist worksteal

soak: $(STAMP_TEST)
	FRACAS_SOAK=1 $(BIN)/python -m pytest -m soak -s -p no:cacheprovider tests

bench: $(STAMP_TEST) bytecode
	$(BIN)/python -m benchmarks

lint: $(STAMP_TEST)
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV)
