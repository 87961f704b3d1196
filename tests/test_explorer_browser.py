"""The explorer in a real browser: Debian's Chromium, driven by Playwright, opens the built site's explorer.html
from file:// and no request leaves it; a study, a table and a line-up chosen show the numbers of the study's
CSV; a permalink opens the same view; a study's summary opens at a table and its link opens the explorer there.

The browser tier (`make test-browser`: it builds the site first, then runs these): skipped, saying why, without
Playwright (the `browser` extra), without /usr/bin/chromium (`apt-get install chromium`) or without a built
site. With SIMKIT_SCREENSHOTS=1 the views are written to docs/images/ (the explorer's page shows them).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

import simkit

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "site"
RESULTS = ROOT / "results"
CHROMIUM = Path("/usr/bin/chromium")
# Chromium as a test runs it here: no sandbox (root), and none of its own traffic (updates, sync, metrics)
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip
SCREENSHOTS = ROOT / "docs" / "images"

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser() -> Iterator:
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (the browser extra)")
    if not CHROMIUM.exists():
        pytest.skip(f"no {CHROMIUM}: Debian's Chromium is not installed (apt-get install chromium)")
    if not (SITE / "explorer.html").exists():
        pytest.skip("the site is not built: `make test-browser` builds it (make docs)")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


class Visit:
    """A page of the site in its own browser context, with every request it makes."""

    def __init__(self, browser) -> None:
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.page = self.context.new_page()
        self.requests: list[str] = []
        self.page.on("request", lambda request: self.requests.append(request.url))

    def open(self, address: str) -> float:
        """Open `address` (a page of the site, with its hash or query) and wait for the explorer, if it is one;
        the seconds it took."""
        start = time.perf_counter()
        self.page.goto(_uri(address))
        if "explorer.html" in address:
            self.page.wait_for_selector('#explorer-app[data-ready="true"]', timeout=20_000)
        return time.perf_counter() - start

    def choose(self, **picks: str) -> None:
        """Choose in the controls, in order (study first), each change redrawing the view."""
        for name, value in picks.items():
            self.page.select_option(f"#explorer-{name}", value)
            self.page.wait_for_selector('#explorer-app[data-ready="true"]')

    def chosen(self) -> dict[str, str]:
        names = ("study", "table", "lineup", "source", "change")
        return {name: self.page.locator(f"#explorer-{name}").input_value() for name in names}

    def outside(self) -> list[str]:
        """The requests that left the files: any but file:// and data:."""
        return [url for url in self.requests if not url.startswith(("file:", "data:"))]

    def screenshot(self, name: str) -> None:
        """The explorer's part of the page into docs/images/NAME, when SIMKIT_SCREENSHOTS=1."""
        if os.environ.get("SIMKIT_SCREENSHOTS") == "1":
            self.page.set_viewport_size({"width": 1280, "height": 2000})  # all of it below the menu bar, unscrolled
            self.page.evaluate("window.scrollTo(0, 0)")
            self.page.locator("#explorer-app").screenshot(path=str(SCREENSHOTS / name))


def _uri(address: str) -> str:
    """The file:// address of a page of the site (its path from the site's root), with its query or hash."""
    cut = min([i for i in (address.find("#"), address.find("?")) if i >= 0] or [len(address)])
    return (SITE / address[:cut]).as_uri() + address[cut:]


@pytest.fixture
def visit(browser) -> Iterator[Visit]:
    v = Visit(browser)
    yield v
    v.context.close()


def _published(table: str, players: int, teams: int, policies: str, **where: str):
    """The one row of a published CSV (a study's folder/file) at a table and line-up, where each column is as given."""
    frame = pd.read_csv(RESULTS / table)
    chosen = (frame.players == players) & (frame.teams == teams) & (frame.policies == policies)
    for column, value in where.items():
        chosen &= frame[column] == value
    (row,) = frame[chosen].itertuples()
    return row


def _interval(value: float, low: float, high: float) -> str:
    """An estimate as the explorer shows it (proportions shown as percentage points)."""
    return f"{100 * value:+.2f} pp [{100 * low:+.2f}, {100 * high:+.2f}]"


def test_the_explorer_opens_from_a_file_and_fetches_nothing(visit):
    seconds = visit.open("explorer.html")
    assert visit.outside() == []
    assert all(url.startswith("file:") for url in visit.requests)  # the page and the site's own theme files
    assert visit.page.locator("#explorer-study option").count() >= 7
    assert seconds < 10, seconds


def test_a_study_table_and_line_up_show_the_numbers_of_its_csv(visit):
    visit.open("explorer.html")
    visit.choose(study="hand-size", table="8p2t", lineup="greedy", change="9 cards each")
    row = _published("hand-size/summary.csv", 8, 2, "greedy", label="9 cards each")
    shown = visit.page.locator("#explorer-numbers .explorer-estimate").first.inner_text()
    assert shown == _interval(row.advantage, row.advantage_low, row.advantage_high)
    assert f"{row.games:,} games" in visit.page.locator("#explorer-facts").inner_text()
    assert "survives Holm" in visit.page.locator("#explorer-numbers .explorer-holm").first.inner_text()
    study = json.loads((RESULTS / "hand-size" / "study.json").read_text(encoding="utf-8"))["identity"]
    if study["simkit"] == simkit.__version__:  # a configuration's own command only where this simkit plays it
        assert "--hand-size 9" in visit.page.locator(".explorer-run").inner_text()
    else:
        assert visit.page.locator(".explorer-run").count() == 0
        assert "simkit study hand-size" in visit.page.locator("#explorer-commands").inner_text()
    assert visit.page.locator("#explorer-chart-view svg").count() == 1
    assert visit.outside() == []
    visit.screenshot("explorer-study.png")


def test_a_permalink_opens_the_same_view(visit, browser):
    visit.open("explorer.html")
    visit.choose(study="variants", table="12p2t", lineup="swift", source="1", change="late card, K = 5")
    view, address = visit.chosen(), visit.page.locator("#explorer-permalink").get_attribute("href")
    assert address is not None and address.startswith("#study=variants&table=12p2t&lineup=swift")
    again = Visit(browser)
    try:
        again.open("explorer.html" + address)
        assert again.chosen() == view
        row = _published("variants/shifts.csv", 12, 2, "swift", variant="late card, K = 5")
        shown = again.page.locator("#explorer-numbers .explorer-estimate").first.inner_text()
        assert shown == _interval(row.advantage_shift, row.advantage_shift_low, row.advantage_shift_high)
        assert again.outside() == []
        again.screenshot("explorer-permalink.png")
    finally:
        again.context.close()


def test_a_summary_opens_at_a_table_and_links_to_the_explorer_there(visit):
    visit.open("results/hand-size/summary.html#8p2t")
    top = visit.page.evaluate("document.getElementById('8p2t').getBoundingClientRect().top")
    assert 0 <= top < 900 and visit.page.evaluate("window.scrollY") > 0  # scrolled to the table, in view
    assert visit.page.locator('[id="8p2t"]').locator("xpath=..").inner_text().strip() == "8p / 2t"
    visit.page.locator('a[href$="explorer.html?study=hand-size&table=8p2t"]').click()
    visit.page.wait_for_selector('#explorer-app[data-ready="true"]')
    assert visit.chosen()["study"] == "hand-size" and visit.chosen()["table"] == "8p2t"
    assert visit.outside() == []
