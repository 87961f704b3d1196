"""Settings for the whole test suite.

Every line-up with a player beyond the lookahead plays the one player set that holds them all
(``SIMKIT_ONE_STRONG_SET``): the suite then compiles that set once instead of one set per
combination of players. A game does not depend on the set it was compiled in
(tests/test_player_sets.py). Set here, before any test runs, so that the pytest-xdist workers,
the Dask workers and the subprocesses the tests start inherit it.
"""

import os

os.environ.setdefault("SIMKIT_ONE_STRONG_SET", "1")

import pytest

# The day-to-day tier (`make test-quick`): the rules, perft counts, golden records, the kernel
# against the naive engine at every table, the options table and the report's exactness; it plays
# random and greedy only (a test here that plays more is marked `strong` and left out).
QUICK = {
    "test_rulebook.py",
    "test_perft.py",
    "test_golden.py",
    "test_kernel_vs_naive.py",
    "test_naive_selfcheck.py",
    "test_geometry.py",
    "test_variants.py",
    "test_greedy_scorer.py",
    "test_options.py",
    "test_report.py",
    "test_replay.py",
    "test_findings.py",
}


def pytest_collection_modifyitems(items) -> None:
    for item in items:
        if item.path.name in QUICK:
            item.add_marker(pytest.mark.quick)
