# Quick start: `make run` (the default first-player study) and `make test`. Each target
# creates .venv and installs simkit into it on first use.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed

.PHONY: run test bench clean-cache

$(INSTALLED): pyproject.toml
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "simkit needs Python >= 3.11"'
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(INSTALLED)

run: $(INSTALLED)  ## the default study: the first player's advantage at every table, random and greedy play
	$(VENV)/bin/simkit study first-player

test: $(INSTALLED)  ## the test suite
	$(PY) -m pytest -q

bench: $(INSTALLED)  ## throughput and memory benchmarks (results in benchmarks/results.md)
	$(PY) benchmarks/bench.py

clean-cache:  ## drop numba's compiled-code cache
	find kernels -name '*.nbi' -delete -o -name '*.nbc' -delete
