# `make play` and `make test` do all the set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play serve test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,rl]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/cinch play

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy

serve: $(STAMP)
	$(BIN)/cinch serve

test: $(STAMP) lint
	$(BIN)/python -m pytest -q -n auto --dist loadfile src tests

bench: $(STAMP)
	$(BIN)/python benchmarks/engine.py

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .hypothesis .mypy_cache
