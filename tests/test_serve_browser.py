"""simkit serve in a real browser: Debian's Chromium, driven by Playwright, opens the live page of a `simkit serve`
on a free port, fills the form and presses play; the compile notice shows while the kernels compile (a numba
cache of the server's own, empty), the edge and its interval shown are those of `simkit report` on the same run,
bad input gets the command line's error line, and a run stopped mid-way resumes to its total, its dataset whole.
No request leaves the server.

The browser tier (`make test-browser`), skipped, saying why, without Playwright (the `browser` extra) or without
/usr/bin/chromium (`apt-get install chromium`). With SIMKIT_SCREENSHOTS=1 the page mid-run is written to
docs/images/ (the live page's guide shows it).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from simkit.analysis import confseq
from simkit.presentation.render import pp
from simkit.running import dataset as ds
from tests.test_explorer_browser import ARGS, CHROMIUM, SCREENSHOTS

pytestmark = pytest.mark.browser
WAIT = 240_000  # ms: a cold compile of random's kernels on a loaded 2-core machine, then the games


@pytest.fixture(scope="module")
def browser() -> Iterator:
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (the browser extra)")
    if not CHROMIUM.exists():
        pytest.skip(f"no {CHROMIUM}: Debian's Chromium is not installed (apt-get install chromium)")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


class Serving:
    """`simkit serve --port 0` in a folder of its own (its runs in FOLDER/runs), with a numba cache of its own."""

    def __init__(self, folder: Path):
        self.folder = folder
        env = {**os.environ, "NUMBA_CACHE_DIR": str(folder / "numba-cache")}  # empty: its first run compiles
        self.process = subprocess.Popen(
            [sys.executable, "-m", "simkit", "serve", "--port", "0"],
            cwd=folder,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert found, line
        self.url = found.group(0)

    def report(self, run: str, *flags: str) -> tuple[int, dict | None]:
        """(exit code, the JSON report) of `simkit report runs/RUN --format json`, as a user would run it."""
        done = subprocess.run(
            [sys.executable, "-m", "simkit", "report", f"runs/{run}", "--format", "json", *flags],
            cwd=self.folder,
            capture_output=True,
            text=True,
            timeout=120,
        )
        return done.returncode, (json.loads(done.stdout)[0] if done.returncode == 0 else None)

    def close(self) -> str:
        self.process.send_signal(signal.SIGTERM)
        _, err = self.process.communicate(timeout=60)
        return err


@pytest.fixture(scope="module")
def serving(tmp_path_factory) -> Iterator[Serving]:
    s = Serving(tmp_path_factory.mktemp("serve"))
    yield s
    s.close()


@pytest.fixture
def page(browser, serving) -> Iterator:
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    context.set_default_timeout(WAIT)  # a loaded machine: no step of Playwright's own gives up at its 30 s
    p = context.new_page()
    requests: list[str] = []
    p.on("request", lambda request: requests.append(request.url))
    p.goto(serving.url)
    p.wait_for_selector("#serve-players option", state="attached")
    yield p
    assert [url for url in requests if not url.startswith(serving.url)] == []  # nothing leaves the server
    context.close()


def fill(page, players: int, teams: int, policy: str, games: int, seed: int) -> None:
    page.select_option("#serve-players", str(players))
    page.select_option("#serve-teams", str(teams))
    page.fill("#serve-policy", policy)
    page.fill("#serve-games", f"{games:,}")
    page.fill("#serve-seed", str(seed))


def wait_state(page, state: str) -> None:
    page.wait_for_selector(f'#serve-app[data-state="{state}"]', timeout=WAIT)


def until(page, done, timeout: float = WAIT) -> None:
    """Wait for done() to hold, asking every 50 ms (the page's policy runs no script but its own: Playwright's
    wait_for_function would evaluate one)."""
    for _ in range(int(timeout / 50)):
        if done():
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"not so after {timeout / 1000:.0f} s")


def shown(page, selector: str) -> str:
    return page.locator(selector).inner_text().strip()


def screenshot(page, name: str) -> None:
    """The page into docs/images/NAME, when SIMKIT_SCREENSHOTS=1."""
    if os.environ.get("SIMKIT_SCREENSHOTS") == "1":
        page.screenshot(path=str(SCREENSHOTS / name), full_page=True)


def test_bad_input_on_the_page_is_the_command_lines_error_line(page):
    fill(page, 4, 3, "random", 2_000, 2026)
    page.click("#serve-play")
    page.wait_for_selector("#serve-error:not([hidden])")
    assert shown(page, "#serve-error").startswith("4 players cannot form 3 equal teams; legal: 2 players (2 teams)")
    fill(page, 2, 2, "gredy", 2_000, 2026)
    page.click("#serve-play")
    page.wait_for_selector("#serve-error:has-text('unknown player')")
    assert shown(page, "#serve-error").startswith("unknown player 'gredy' (did you mean greedy?)")
    assert page.locator('#serve-app[data-state="idle"]').count() == 1


def test_two_thousand_games_show_the_compile_notice_then_simkit_reports_edge(page, serving):
    fill(page, 2, 2, "random", 2_000, 2026)
    page.click("#serve-play")
    page.wait_for_selector("#serve-compile:not([hidden])", timeout=WAIT)  # the server's numba cache is empty
    assert shown(page, "#serve-compile").startswith("compiling the kernels for random (first run only, about")
    wait_state(page, "finished")
    assert shown(page, "#serve-count") == "2,000 of 2,000 games"
    assert re.fullmatch(r"compiled in \d+ s; they are cached for later runs", shown(page, "#serve-compile"))
    code, report = serving.report("default-2p-random")  # simkit run's folder for this configuration
    assert code == 0 and report is not None and report["games"] == 2_000
    m = report["first_mover"]
    assert shown(page, "#serve-report") == pp(m["advantage"], m["advantage_ci_low"], m["advantage_ci_high"], digits=2)
    share, low, high = confseq.share_sequence(m["wins"], m["decided"])  # the interval shown while playing
    assert shown(page, "#serve-edge") == pp(share - 0.5, low - 0.5, high - 0.5, digits=2)
    assert "95% confidence sequence" in shown(page, "#serve-edge-note")
    assert shown(page, "#serve-report-command") == "simkit report runs/default-2p-random"


def test_stop_mid_run_then_play_again_resumes_to_the_total_and_the_dataset_is_whole(page, serving):
    total = 1_000_000  # ten parts of random's 100,000 games
    fill(page, 2, 2, "random", total, 7)
    page.click("#serve-play")
    until(page, lambda: int(page.locator("#serve-count").get_attribute("data-on-disk") or 0) >= 100_000)
    screenshot(page, "serve-playing.png")
    page.click("#serve-stop")
    wait_state(page, "stopped")
    on_disk = int(page.locator("#serve-count").get_attribute("data-on-disk") or 0)
    assert 100_000 <= on_disk < total and on_disk % 100_000 == 0, on_disk
    assert shown(page, "#serve-count") == f"{on_disk:,} of {total:,} games"
    folder = serving.folder / "runs" / "p2t2-random-s7"
    assert sorted(p.name for p in folder.glob("part-*")) == [ds.part_name(g) for g in range(0, on_disk, 100_000)]
    assert not [p.name for p in folder.iterdir() if ".tmp" in p.name or "unreadable" in p.name]
    assert serving.report("p2t2-random-s7")[0] == 3  # a report of a run that lacks games: exit code 3
    code, partial = serving.report("p2t2-random-s7", "--allow-incomplete")
    assert code == 0 and partial is not None and partial["games"] == on_disk
    m = partial["first_mover"]
    assert shown(page, "#serve-report") == pp(m["advantage"], m["advantage_ci_low"], m["advantage_ci_high"], digits=2)
    page.click("#serve-play")  # the same form: the same run, resumed
    wait_state(page, "finished")
    assert shown(page, "#serve-count") == f"{total:,} of {total:,} games"
    code, whole = serving.report("p2t2-random-s7")
    assert code == 0 and whole is not None and whole["games"] == total
    m = whole["first_mover"]
    assert shown(page, "#serve-report") == pp(m["advantage"], m["advantage_ci_low"], m["advantage_ci_high"], digits=2)
    share, low, high = confseq.share_sequence(m["wins"], m["decided"])
    assert shown(page, "#serve-edge") == pp(share - 0.5, low - 0.5, high - 0.5, digits=2)
    assert shown(page, "#serve-looks").startswith("look 1 of 8: 14,000 games")
    assert shown(page, "#serve-verdict").startswith("Not fair: team 0's edge")
    screenshot(page, "serve-finished.png")
