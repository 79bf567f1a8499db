# benchkg — `make demo` sets up and runs the main job; `make test` runs the tests.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: demo test test-tools install clean bench bench-import bench-data bench-serve bench-reference site

$(BIN)/.installed: pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "benchkg needs Python >= 3.11")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[test]"
	@touch $@

install: $(BIN)/.installed

demo: install
	$(BIN)/benchkg build
	$(BIN)/benchkg validate --quiet
	$(BIN)/benchkg query leaderboard --param model=llama2-70b --param scenario=server

# Chromium, rapper, N3.js and jsonld.js for the linked-data tests (apt and npm; only what is missing).
test-tools:
	scripts/test-tools

test: install test-tools
	$(BIN)/python -m pytest

# The static site of data/ in ./site (open site/index.html).
site: install
	$(BIN)/benchkg site -o site

clean:
	rm -rf $(VENV) .benchkg site tests/js/node_modules

# Benchmarks (not part of `make test`): 1k and 10k claims; `make bench SIZES="1000 10000 100000"` for 100k.
SIZES ?= 1000 10000
bench: install
	$(BIN)/python tests/bench/bench.py --sizes $(SIZES)

bench-import: install
	$(BIN)/python tests/bench/import_bench.py

bench-data: install
	$(BIN)/python tests/bench/data_bench.py

bench-serve: install
	$(BIN)/python tests/bench/serve_bench.py

bench-reference: install
	$(BIN)/python tests/bench/reference_bench.py
