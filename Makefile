PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP_RUN := $(VENV)/.installed-run
STAMP_TEST := $(VENV)/.installed-test

.PHONY: run test bench lint soak clean

$(BIN)/python:
	$(PY) -m venv $(VENV) || python3 -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP_RUN): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(STAMP_TEST): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(STAMP_RUN)

run: $(STAMP_RUN)
	$(BIN)/fracas demo $(or $(RULES),d20)

test: $(STAMP_TEST)
	$(BIN)/python -m pytest

soak: $(STAMP_TEST)
	FRACAS_SOAK=1 $(BIN)/python -m pytest -m soak -p no:cacheprovider tests

bench: $(STAMP_TEST)
	$(BIN)/python -m benchmarks

lint: $(STAMP_TEST)
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV)
