# `make play` and `make test` do all the set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play serve serve-cluster test lint bench clean compile

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,rl,cluster]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/cinch play

# The compiled build (cinch.native): mypyc, from the test dependencies, and a C compiler.  Without
# either it says so and the pure-Python modules stay in use; a build of the current sources is
# reused.  `play` does not need it, and uses it when it is there.
compile: $(STAMP)
	$(BIN)/python -m cinch.native_build

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy

serve: $(STAMP)
	$(BIN)/cinch serve

# Two server processes over PostgreSQL and Redis (Debian's packages, on loopback) behind a small proxy on
# port 8000: docs/cluster.md.  Ctrl-C stops everything; the games stay in build/cluster/.
serve-cluster: $(STAMP)
	$(BIN)/python scripts/serve-cluster.py

test: $(STAMP) lint compile
	$(BIN)/python -m pytest -q -n auto --dist loadfile src tests

bench: $(STAMP) compile
	$(BIN)/python benchmarks/engine.py

clean:
	rm -rf $(VENV) build src/*.egg-info src/cinch/_native .pytest_cache .hypothesis .mypy_cache
