"""The terminal's tables keep a row to a line at 100 columns (simkit.studies.summary.TERMINAL_WIDTH): each study's
terminal table (Tables.terminal) as `simkit study` prints it, from the published studies' own files, and the
report of `simkit run` and `simkit report`. Narrower, a row folds onto more lines but no cell is cut short."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pandas as pd
import pytest
from rich.console import Console

from simkit.analysis.report import summarise
from simkit.commands.study_output import rich_table
from simkit.presentation.report import render_rich
from simkit.studies import compensation_text, first_player, hand_size, skill, teams, variants
from simkit.studies.summary import TERMINAL_WIDTH
from tests.test_report import make_games

RESULTS = Path(__file__).resolve().parents[1] / "results"
WIDTHS = (80, TERMINAL_WIDTH, 120)

TERMINAL = {
    "first-player": lambda: first_player.terminal_table(pd.read_csv(RESULTS / "first-player" / "summary.csv")),
    "hand-size": lambda: hand_size.terminal_table(pd.read_csv(RESULTS / "hand-size" / "summary.csv")),
    "teams": lambda: teams.terminal_table(pd.read_csv(RESULTS / "teams" / "summary.csv")),
    "variants": lambda: variants.terminal_table(pd.read_csv(RESULTS / "variants" / "shifts.csv")),
    "compensation": lambda: compensation_text.terminal_table(pd.read_csv(RESULTS / "compensation" / "verdicts.csv")),
    "skill": lambda: skill.key_table(pd.read_csv(RESULTS / "skill" / "pairs.csv")),
}


def printed(renderable, width: int) -> list[str]:
    out = io.StringIO()
    Console(file=out, width=width, color_system=None).print(renderable)
    return out.getvalue().splitlines()


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("kind", list(TERMINAL))
def test_a_studys_terminal_table_keeps_a_row_to_a_line(kind, width):
    frame = TERMINAL[kind]()
    lines = printed(rich_table(frame, "title"), width)
    assert max(len(line.rstrip()) for line in lines) <= width
    assert not any("…" in line for line in lines), "\n".join(lines)  # folded, never cut short
    if width >= TERMINAL_WIDTH:
        assert len(lines) == 3 + len(frame), "\n".join(lines)  # the title, the header, its rule, a line a row


@pytest.mark.parametrize("width", WIDTHS)
def test_the_report_keeps_a_row_to_a_line(width):
    """A 12-player, 3-team table of a line-up with a parameter: the report's widest tables (the seats)."""
    policies = ",".join(["lookahead:rollouts=32", "greedy", "random"] * 4)
    games = make_games(600, teams=3, players=12, seed=3, p_draw=0.05, policies=policies)
    out = io.StringIO()
    render_rich(summarise(games), Console(file=out, width=width, color_system=None))
    lines = out.getvalue().splitlines()
    rows = [line for line in lines if "│" in line]
    assert len(rows) > 40
    assert not [line for line in rows if re.match(r"^\s*│", line)]  # no row's cells run onto a second line
    headers = [i for i, line in enumerate(lines) if "┃" in line]
    assert headers and all("╇" in lines[i + 1] for i in headers)  # every header on one line
    assert not any("…" in line for line in lines)


def test_each_seats_cards_are_written_compactly_and_can_be_read_back():
    """Written out, 12 seats' cards need 23 columns: a pattern repeated, or runs, whichever is shortest."""
    assert hand_size.compact_hands("7") == "7" and hand_size.compact_hands("6,7") == "6,7"
    assert hand_size.compact_hands("3,3,2,3,3,2,3,3,2,3,3,2") == "(3,3,2)x4"
    assert hand_size.compact_hands("2,3,3,3,3,3,3,3,3,3,3,3") == "2,3x11"
    assert hand_size.compact_hands("2,3,2,3") == "2,3,2,3"  # no shorter form
