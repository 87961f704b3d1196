"""Every figure the README, results/FINDINGS.md and the docs quote from a study is its summary's value.

A quoted figure is followed by a marker naming where it comes from:

    +2.36 pp [+2.26, +2.45]<!-- first-player/summary.csv players=2 teams=2 policies=random advantage -->

The marker names a CSV file of results/, the values that pick exactly one row (``key=value``,
quoted with shell rules when a value holds spaces) and the column; or a report of results/
(``simkit report --format markdown``) and the metric, a row of its tables:

    +3.94 pp [+3.25, +4.63]<!-- p2t2-ismcts-rich.md advantage -->
 The figure is the text just
before the marker: a number, optionally `` pp`` or ``%`` (the column's proportion times 100), and
optionally its interval in brackets (the columns ``<column>_low`` and ``<column>_high``). Each
number must be the column's value rounded to the decimals the text shows, so a figure cannot
drift from the published study it quotes.
"""

from __future__ import annotations

import functools
import re
import shlex
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "results"
PAGES = [ROOT / "README.md", RESULTS / "FINDINGS.md", *sorted((ROOT / "docs").rglob("*.md"))]

NUMBER = r"[+\-−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
FIGURE = re.compile(
    rf"(?P<num>{NUMBER})(?P<unit> pp|%)?(?: \[(?P<low>{NUMBER})(?: pp|%)?, (?P<high>{NUMBER})(?: pp|%)?\])?$"
)
MARKER = re.compile(r"<!-- (?P<file>[\w.,/-]+\.(?:csv|md)) (?P<spec>[^>]*?) -->")


def _markers() -> list[tuple[str, str, str, str]]:
    """(page, the text before the marker, the CSV file, the marker's spec) for every marker."""
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for m in MARKER.finditer(text):
            before = text[max(0, m.start() - 80) : m.start()]
            found.append((str(page.relative_to(ROOT)), before, m.group("file"), m.group("spec")))
    return found


MARKERS = _markers()


@functools.cache
def _table(name: str) -> pd.DataFrame:
    return pd.read_csv(RESULTS / name, dtype=str, keep_default_na=False)


def _report_row(name: str, metric: str) -> dict[str, str]:
    """A report's row for `metric` as the values the table prints: the value, its interval's ends."""
    for line in (RESULTS / name).read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and cells[0] == metric:
            numbers = re.findall(NUMBER, cells[1] + " " + cells[2])
            row = {metric: numbers[0]}
            if len(numbers) == 3:
                row[f"{metric}_low"], row[f"{metric}_high"] = numbers[1], numbers[2]
            return row
    raise AssertionError(f"{name} has no row {metric}")


def _number(text: str) -> float:
    return float(text.replace(",", "").replace("−", "-"))


def _decimals(text: str) -> int:
    return len(text.split(".", 1)[1]) if "." in text else 0


def _check(text: str, value: str, scale: float, where: str) -> None:
    shown = _number(text)
    decimals = _decimals(text)
    exact = float(value) * scale
    assert abs(shown - exact) <= 0.5 * 10**-decimals + 1e-9, (
        f"{where}: the text says {text}, the study's value is {exact!r}"
    )


def _check_figure(page: str, before: str, name: str, spec: str) -> None:
    """The figure before one marker is its study's value (AssertionError saying where and what if not)."""
    where = f"{page}, <!-- {name} {spec} -->"
    words = shlex.split(spec)
    column, filters = words[-1], dict(word.split("=", 1) for word in words[:-1])
    figure = FIGURE.search(before)
    assert figure, f"{where}: no figure just before the marker ({before[-30:]!r})"
    if name.endswith(".md"):  # a report prints its figures as the text shows them: no scaling
        row, scale = _report_row(name, column), 1.0
    else:
        table = _table(name)
        rows = table
        for key, value in filters.items():
            assert key in table.columns, f"{where}: {name} has no column {key}"
            rows = rows[rows[key] == value]
        assert len(rows) == 1, f"{where}: {len(rows)} rows of {name} match, not one"
        row = rows.iloc[0]
        scale = 100.0 if figure.group("unit") else 1.0
    _check(figure.group("num"), row[column], scale, where)
    if figure.group("low") is not None:
        _check(figure.group("low"), row[f"{column}_low"], scale, where + " (low)")
        _check(figure.group("high"), row[f"{column}_high"], scale, where + " (high)")


@pytest.mark.parametrize("page", sorted({page for page, *_ in MARKERS}))
def test_every_figure_of_a_page_is_the_study_value(page):
    """Every marked figure of the page, each checked and every mismatch listed (one test a page: a test per
    figure cost the quick tier 17 s of xdist's bookkeeping for 578 checks of 3 ms each)."""
    failed = []
    for where, before, name, spec in MARKERS:
        if where == page:
            try:
                _check_figure(where, before, name, spec)
            except AssertionError as error:
                failed.append(str(error).split("\n")[0])
    assert not failed, f"{len(failed)} figures differ from their study:\n" + "\n".join(failed)


def test_the_readme_and_the_findings_quote_checked_figures():
    pages = {page for page, *_ in MARKERS}
    assert {"README.md", "results/FINDINGS.md"} <= pages
