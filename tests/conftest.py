"""Settings for the whole test suite: the day-to-day tier's files, and the order the workers take the tests in.

The tests' durations are kept in tests/durations.json (`make durations` measures them; it keeps those of
KEPT_SECONDS or more, and a test missing from it counts as DEFAULT_SECONDS). On pytest-xdist's workers the
tests are ordered longest first, a group (its xdist_group) as one unit of its tests' total, so that no
worker is left with a long test while the other waits; the Makefile turns xdist's own reordering off
(`--no-loadscope-reorder`) so that this order holds.
"""

import json
from pathlib import Path

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

DURATIONS = Path(__file__).with_name("durations.json")  # test id -> seconds (setup, call and teardown)
DEFAULT_SECONDS = 0.1
KEPT_SECONDS = 0.25


def pytest_addoption(parser) -> None:
    parser.addoption(
        "--store-durations",
        action="store_true",
        help="write each test's duration into tests/durations.json (the order xdist's workers take the tests in)",
    )


def unit_of(item) -> str:
    """What one worker runs as one piece: the item's xdist_group, else the item itself."""
    group = item.get_closest_marker("xdist_group")
    return f"group:{group.args[0]}" if group else item.nodeid


def longest_first(items, seconds: dict[str, float]) -> list:
    """`items` ordered by the total duration of their unit (unit_of), longest first; a unit's items stay
    together and in their order."""
    totals: dict[str, float] = {}
    for item in items:
        totals[unit_of(item)] = totals.get(unit_of(item), 0.0) + seconds.get(item.nodeid, DEFAULT_SECONDS)
    first: dict[str, int] = {}
    for k, item in enumerate(items):
        first.setdefault(unit_of(item), k)
    return sorted(items, key=lambda it: (-totals[unit_of(it)], first[unit_of(it)]))


def pytest_itemcollected(item) -> None:
    """The quick tier's mark, on each test of its files (before -m selects)."""
    if item.path.name in QUICK:
        item.add_marker(pytest.mark.quick)


@pytest.hookimpl(trylast=True)  # after pytest-xdist has named each test's group in its id
def pytest_collection_modifyitems(config, items) -> None:
    if hasattr(config, "workerinput") and DURATIONS.exists():
        items[:] = longest_first(items, json.loads(DURATIONS.read_text(encoding="utf-8")))


class Durations:
    """Sums each test's phases as the reports reach the controller; writes them into DURATIONS at the end,
    over the tests of an earlier measure that did not run this time."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    def pytest_runtest_logreport(self, report) -> None:
        self.seconds[report.nodeid] = self.seconds.get(report.nodeid, 0.0) + report.duration

    def pytest_sessionfinish(self) -> None:
        old = json.loads(DURATIONS.read_text(encoding="utf-8")) if DURATIONS.exists() else {}
        merged = {**old, **{k: round(v, 2) for k, v in self.seconds.items()}}
        merged = {k: v for k, v in merged.items() if v >= KEPT_SECONDS}
        tmp = DURATIONS.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(dict(sorted(merged.items())), indent=0) + "\n", encoding="utf-8")
        tmp.replace(DURATIONS)


def pytest_configure(config) -> None:
    if config.getoption("--store-durations", False) and not hasattr(config, "workerinput"):
        config.pluginmanager.register(Durations(), "simkit-durations")
