# Quick start: `make run` (the default first-player study) and `make test`. Each target
# creates .venv and installs simkit into it on first use.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed

# The bounds-checked pass: these tests again, random and greedy only, on kernels compiled with numba's bounds
# checks (cached apart, NUMBA_CACHE_DIR, besides the flag in every cache entry's key); the stronger players'
# indexing is checked as Python by make test-nojit, every array access of theirs it runs.
BOUNDSCHECKED := tests/test_boundscheck.py tests/test_kernel_vs_naive.py tests/test_golden.py tests/test_variants.py
BOUNDSCHECK_CACHE := $(CURDIR)/.numba-boundscheck
# The tests run on every core (pytest-xdist); tests/warm.py first compiles the kernels of each player they
# play once, spread over the cores, so that no two workers compile the same kernel. The workers take the
# tests longest first, as tests/durations.json measured them (tests/conftest.py; `make durations`).
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
PYTEST := $(PY) -m pytest -q -n $(JOBS) --dist loadgroup --no-loadscope-reorder

.PHONY: run lint format test durations test-quick test-boundscheck test-browser bench results clean-cache docs regenerate

$(INSTALLED): pyproject.toml
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "simkit needs Python >= 3.11"'
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(INSTALLED)

run: $(INSTALLED)  ## the default study: the first player's advantage at every table, random and greedy play (into runs/)
	$(VENV)/bin/simkit study first-player
	@echo "simkit is $(VENV)/bin/simkit: 'source $(VENV)/bin/activate' puts it on your PATH, then 'simkit --help'."

# The code make lint checks: ruff check with the rules of pyproject.toml's [tool.ruff], and ruff format
# --check (`make format` lays it out).
CODE := simkit cli.py kernels tests benchmarks fitting build_backend

lint: $(INSTALLED)  ## ruff check and ruff format --check over the code, then mypy (CI runs it before the tests)
	$(VENV)/bin/ruff check $(CODE)
	$(VENV)/bin/ruff format --check $(CODE)
	$(VENV)/bin/mypy

format: $(INSTALLED)  ## ruff format: lay the code out as make lint expects
	$(VENV)/bin/ruff format $(CODE)

test: $(INSTALLED)  ## the whole suite, then its kernel checks again with bounds checks (test-boundscheck)
	$(PY) -m tests.warm --tier all --boundscheck-cache "$(BOUNDSCHECK_CACHE)" --jobs $(JOBS)
	$(PYTEST) -m "not browser" --durations=15
	$(PY) -m pytest -q -p no:xdist docs  # the docs' examples: each page's in order, in one process
	$(MAKE) --no-print-directory test-boundscheck

durations: $(INSTALLED)  ## measure every test's duration into tests/durations.json (the order the workers take them in)
	$(PY) -m tests.warm --tier all --jobs $(JOBS)
	$(PYTEST) -m "not browser" --store-durations

test-quick: $(INSTALLED)  ## day to day: rules, perft, golden records, the kernel against the naive engine, options, reports
	$(PY) -m tests.warm --tier quick --jobs $(JOBS)
	$(PYTEST) -m "quick and not strong"

test-boundscheck: $(INSTALLED)  ## naive-engine, golden-record and referee tests on bounds-checked kernels
	$(PY) -m tests.warm --tier boundscheck --boundscheck-cache "$(BOUNDSCHECK_CACHE)" --jobs $(JOBS)
	NUMBA_BOUNDSCHECK=1 NUMBA_CACHE_DIR="$(BOUNDSCHECK_CACHE)" $(PYTEST) -m "not strong" $(BOUNDSCHECKED)

# The kernels run as Python (NUMBA_DISABLE_JIT=1) under coverage.py: tests/test_nojit.py's games, each compared with
# the compiled kernels' (loaded from numba's cache: after make test, nothing compiles), then the lines of kernels/
# they ran (pyproject.toml's [tool.coverage]; below 90% fails).
.PHONY: test-nojit
test-nojit: $(INSTALLED)  ## every player's games with the kernels as Python, equal to the compiled ones; coverage of kernels/
	$(PY) -m coverage erase
	NUMBA_DISABLE_JIT=1 $(PY) -m coverage run -m pytest -q -n $(JOBS) tests/test_nojit.py
	$(PY) -m coverage combine --quiet
	$(PY) -m coverage report

# results/ is written here only, each command naming it with --out; without --out, simkit writes to runs/.
results: $(INSTALLED)  ## every published study and run of results/ (results/README.md; about 10 hours on 2 cores)
	$(VENV)/bin/simkit study first-player --out results/first-player --quiet
	$(VENV)/bin/simkit study first-player --policy lookahead --out results/first-player --quiet
	$(VENV)/bin/simkit study hand-size --out results/hand-size --quiet
	$(VENV)/bin/simkit study teams --out results/teams --quiet
	$(VENV)/bin/simkit study variants --out results/variants --quiet
	$(VENV)/bin/simkit study restricted --out results/restricted --quiet
	$(VENV)/bin/simkit study layouts --out results/layouts --quiet
	$(VENV)/bin/simkit study skill --out results/skill --quiet
	$(VENV)/bin/simkit study compensation --out results/compensation --quiet
	$(VENV)/bin/simkit study compensation --policy swift --out results/compensation --quiet --players 2 --teams 2 --family late_card --check lookahead
	$(VENV)/bin/simkit study compensation --policy swift --out results/compensation --quiet --players 4 --teams 2 --family late_card --check lookahead
	$(VENV)/bin/simkit study compensation --policy swift --out results/compensation --quiet --players 6 --teams 2 --family late_card --check lookahead
	$(VENV)/bin/simkit study compensation --policy swift --out results/compensation --quiet --players 6 --teams 3 --family handicap --check lookahead
	$(VENV)/bin/simkit study compensation --policy swift --out results/compensation --quiet --players 4 --teams 2 --family handicap --check lookahead
	$(VENV)/bin/simkit study compensation --policy swift --out results/compensation --quiet --players 6 --teams 2 --family handicap --check lookahead
	$(VENV)/bin/simkit study compensation --policy swift --out results/compensation --quiet --players 8 --teams 2 --family handicap --check lookahead
	$(VENV)/bin/simkit study compensation --policy swift --out results/compensation --quiet --players 10 --teams 2 --family handicap --check lookahead
	$(VENV)/bin/simkit study compensation --policy swift --out results/compensation --quiet --players 12 --teams 2 --family handicap --check lookahead
	$(VENV)/bin/simkit study compensation --policy swift --out results/compensation --quiet --players 3 --teams 3 --family handicap
	$(VENV)/bin/simkit study compensation --policy swift --out results/compensation --quiet --players 9 --teams 3 --family handicap
	$(VENV)/bin/simkit study compensation --policy swift --out results/compensation --quiet --players 12 --teams 3 --family handicap
	# The first confirmation (results/confirmation) stays as it was published; the newest decides the card.
	$(VENV)/bin/simkit confirm results/confirmation-2 --quiet
	$(VENV)/bin/simkit card --out results
	$(VENV)/bin/simkit run --out results/default-2p-random --quiet
	$(VENV)/bin/simkit report results/default-2p-random --format markdown > results/default-2p-random.md
	$(VENV)/bin/simkit run --policy ismcts --games 20000 --out results/p2t2-ismcts --quiet
	$(VENV)/bin/simkit report results/p2t2-ismcts --format markdown > results/p2t2-ismcts.md
	$(VENV)/bin/simkit run --policy ismcts-rich --games 20000 --out results/p2t2-ismcts-rich --quiet
	$(VENV)/bin/simkit report results/p2t2-ismcts-rich --format markdown > results/p2t2-ismcts-rich.md

DOCS_INSTALLED := $(VENV)/.docs-installed

$(DOCS_INSTALLED): $(INSTALLED) pyproject.toml
	$(PY) -m pip install --quiet -e '.[docs]'
	touch $(DOCS_INSTALLED)

docs: $(DOCS_INSTALLED)  ## the documentation site into site/ (git-ignored); warnings are errors, then its links are checked
	NO_MKDOCS_2_WARNING=1 DISABLE_MKDOCS_2_WARNING=true $(PY) -m mkdocs build --strict --site-dir site
	$(PY) docs/check_links.py site

BROWSER_INSTALLED := $(VENV)/.browser-installed

$(BROWSER_INSTALLED): $(INSTALLED) pyproject.toml
	$(PY) -m pip install --quiet -e '.[browser]'
	touch $(BROWSER_INSTALLED)

# Playwright drives Debian's Chromium (apt-get install chromium): its own browser download cannot run here.
# SIMKIT_SCREENSHOTS=1 writes the explorer's and the live page's screenshots into docs/images/.
test-browser: docs $(BROWSER_INSTALLED)  ## the explorer from file:// and simkit serve's live page, in a real browser
	$(PY) -m pytest -q -m browser tests/test_explorer_browser.py tests/test_serve_browser.py

bench: $(INSTALLED)  ## throughput and memory benchmarks, printed (docs/guide/performance.md holds the latest)
	$(PY) benchmarks/bench.py

regenerate: $(INSTALLED)  ## the docs' tables from the declarations, and the games of a group added to tests/fingerprint.py
	$(PY) docs/regenerate.py

clean-cache:  ## drop numba's compiled-code caches (the fast one and the bounds-checked one)
	find kernels -name '*.nbi' -delete -o -name '*.nbc' -delete
	rm -rf "$(BOUNDSCHECK_CACHE)"
