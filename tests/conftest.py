"""Settings for the whole test suite: the day-to-day tier's files."""

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
    "test_players_declared.py",
    "test_restrictions.py",
    "test_boards.py",
}


def pytest_collection_modifyitems(items) -> None:
    for item in items:
        if item.path.name in QUICK:
            item.add_marker(pytest.mark.quick)
