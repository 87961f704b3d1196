"""The documentation's code examples run as tests (Sybil): every ```python block of docs/*.md,
doctest-style blocks compared with the output they show."""

from doctest import ELLIPSIS, NORMALIZE_WHITESPACE
from pathlib import Path

from sybil import Sybil
from sybil.parsers.markdown import PythonCodeBlockParser, SkipParser

pytest_collect_file = Sybil(
    parsers=[SkipParser(), PythonCodeBlockParser(doctest_optionflags=ELLIPSIS | NORMALIZE_WHITESPACE)],
    patterns=["*.md"],
).pytest()


def pytest_collection_modifyitems(items) -> None:
    """A page's examples run in order on one worker (pytest-xdist's loadgroup): each may use names an earlier
    one defined. (A conftest's hook sees every collected item: only the pages' examples are grouped.)"""
    import pytest

    here = Path(__file__).parent
    for item in items:
        if item.path.is_relative_to(here):
            item.add_marker(pytest.mark.xdist_group(f"docs:{item.path.name}"))
