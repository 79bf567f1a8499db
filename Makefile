# benchkg — `make demo` sets up and runs the main job; `make test` runs the tests.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: demo test install clean bench bench-import

$(BIN)/.installed: pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "benchkg needs Python >= 3.11")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[test]"
	@touch $@

install: $(BIN)/.installed

demo: install
	$(BIN)/benchkg build
	$(BIN)/benchkg validate
	$(BIN)/benchkg query leaderboard --param model=llama2-70b --param scenario=server

test: install
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV) .benchkg

# Benchmarks (not part of `make test`): 1k and 10k claims; `make bench SIZES="1000 10000 100000"` for 100k.
SIZES ?= 1000 10000
bench: install
	$(BIN)/python tests/bench/bench.py --sizes $(SIZES)

bench-import: install
	$(BIN)/python tests/bench/import_bench.py
