# benchkg — `make demo` sets up and runs the main job; `make test` runs the tests (all of them, as CI does);
# `make check` is the fast loop: lint, format check and the tests that need no tool outside Python.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
# two workers (pytest-xdist) on two cores; PYTEST_WORKERS= runs the tests in one process
PYTEST_WORKERS ?= -n 2

.PHONY: demo test check lint test-tools install clean bench bench-import bench-data bench-serve bench-reference bench-algebra bench-draft bench-rows site

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

test: install test-tools lint
	$(BIN)/python -m pytest $(PYTEST_WORKERS)

# Lint, format and type check (ruff, mypy), then the unit, doctest and in-process CLI tests: no Chromium, Virtuoso,
# Apache, rapper or node, nothing marked slow.
check: install lint
	$(BIN)/python -m pytest -m "not external and not slow" $(PYTEST_WORKERS)

lint: install
	$(BIN)/ruff check src tests conftest.py
	$(BIN)/ruff format --check src tests conftest.py
	$(BIN)/mypy

# The static site of data/ in ./site (open site/index.html).
site: install
	$(BIN)/benchkg site -o site

clean:
	rm -rf $(VENV) .benchkg site tests/js/node_modules

# Benchmarks: 1k and 10k claims; `make bench SIZES="10000 100000"` for issue 32's sizes (20 to 35 minutes;
# the targets, met or not, are printed under the table). BENCH_ARGS=--smoke runs any of them at its
# smallest size in seconds (`make test` does, for every one: tests/test_benchmarks.py).
SIZES ?= 1000 10000
BENCH_ARGS ?=
bench: install
	$(BIN)/python tests/bench/bench.py --sizes $(SIZES) $(BENCH_ARGS)

bench-import: install
	$(BIN)/python tests/bench/import_bench.py $(BENCH_ARGS)

bench-data: install
	$(BIN)/python tests/bench/data_bench.py $(BENCH_ARGS)

bench-serve: install
	$(BIN)/python tests/bench/serve_bench.py $(BENCH_ARGS)

bench-reference: install
	$(BIN)/python tests/bench/reference_bench.py $(BENCH_ARGS)

bench-algebra: install
	$(BIN)/python tests/bench/algebra_bench.py $(BENCH_ARGS)

bench-draft: install
	$(BIN)/python tests/bench/draft_bench.py $(BENCH_ARGS)

# every saved query's rows on data/ and 10,000 claims, kept by the first run and compared by the next
bench-rows: install
	$(BIN)/python tests/bench/rows.py $(BENCH_ARGS)
