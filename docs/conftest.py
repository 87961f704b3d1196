"""The documentation's code examples run as tests (Sybil): every ```python block of docs/*.md,
doctest-style blocks compared with the output they show."""

from doctest import ELLIPSIS, NORMALIZE_WHITESPACE

from sybil import Sybil
from sybil.parsers.markdown import PythonCodeBlockParser, SkipParser

pytest_collect_file = Sybil(
    parsers=[SkipParser(), PythonCodeBlockParser(doctest_optionflags=ELLIPSIS | NORMALIZE_WHITESPACE)],
    patterns=["*.md"],
).pytest()
