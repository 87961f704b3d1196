"""The documentation's code examples run as tests (Sybil): every ```python block of docs/*.md,
doctest-style blocks compared with the output they show. A page's examples share their names, so they run in
one process, in order (`make test`: `pytest -p no:xdist docs`; under pytest-xdist, even grouped, a page's examples
were spread over the workers)."""

from doctest import ELLIPSIS, NORMALIZE_WHITESPACE

from sybil import Sybil
from sybil.parsers.markdown import PythonCodeBlockParser, SkipParser

pytest_collect_file = Sybil(
    parsers=[SkipParser(), PythonCodeBlockParser(doctest_optionflags=ELLIPSIS | NORMALIZE_WHITESPACE)],
    patterns=["*.md"],
).pytest()
