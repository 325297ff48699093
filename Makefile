# `make play`, `make serve` and `make test` do all the set-up on a fresh machine, the compiled engine included.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play serve serve-cluster test explore lint bench clean compile

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,rl,cluster]'
	touch $(STAMP)

play: compile
	$(BIN)/cinch play

# The compiled build (cinch.native): mypyc, from the test dependencies, and a C compiler.  It is part of
# the set-up of every target that plays, so that the bots search as fast as the benchmarks say: about a
# minute the first time, nothing while the sources are those compiled.  Without mypyc or a C compiler it
# says so in one line and the pure-Python modules stay in use (slower, never wrong).
compile: $(STAMP)
	$(BIN)/python -m cinch.native_build

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy

serve: compile
	$(BIN)/cinch serve

# Two server processes over PostgreSQL and Redis (Debian's packages, on loopback) behind a small proxy on
# port 8000: docs/cluster.md.  Ctrl-C (or SIGTERM) stops everything; the games stay in build/cluster/.
# The script's options go through CLUSTER_ARGS: make serve-cluster CLUSTER_ARGS="--port 9000 --processes 3".
CLUSTER_ARGS ?=
serve-cluster: compile
	$(BIN)/python scripts/serve-cluster.py $(CLUSTER_ARGS)

test: $(STAMP) lint compile
	$(BIN)/python -m pytest -q -n auto --dist loadfile src tests

# The property tests on fresh examples (make test runs a fixed draw); a failure prints how to replay it.
explore: $(STAMP) compile
	HYPOTHESIS_PROFILE=explore $(BIN)/python -m pytest -q -n auto --dist loadfile tests/test_properties.py \
		tests/test_irregularities.py tests/server/test_protocol.py tests/test_cli.py

bench: $(STAMP) compile
	$(BIN)/python benchmarks/engine.py

clean:
	rm -rf $(VENV) build src/*.egg-info src/cinch/_native .pytest_cache .hypothesis .mypy_cache
