"""Boards as data: the rule option `layout` (simkit.game.boards) names a layout the kernel plays on."""

from __future__ import annotations

from collections import Counter

import pytest
from numba.core import event
from typer.testing import CliRunner

import simkit.running.dataset as ds
from simkit.cli import app
from simkit.game import boards
from simkit.game.cards import board_names
from simkit.game.play import simulate
from simkit.game.players import Lineup
from simkit.game.records import game_record
from simkit.game.rules import Rules, RulesError
from simkit.running.runner import run_folder_name
from tests import naive, referee
from tests.referee import OFFICIAL_BOARD

runner = CliRunner()


def test_a_random_layout_keeps_the_corners_and_prints_every_card_twice():
    first, again, other = boards.random_layout(7), boards.random_layout(7), boards.random_layout(8)
    assert first == again and first != other and first != tuple(OFFICIAL_BOARD)
    assert [c for c, n in enumerate(first) if n == "XX"] == [0, 9, 90, 99]
    assert Counter(n for n in first if n != "XX") == Counter({card: 2 for card in boards.CARDS})
    assert boards.random_layout(7)[:5] == ("XX", "3D", "9D", "TH", "AS")  # a seed names one layout everywhere


def test_the_mirror_is_the_official_board_reversed_row_by_row():
    mirror = board_names("mirror")
    assert [mirror[r * 10 : r * 10 + 10] for r in range(10)] == [
        tuple(OFFICIAL_BOARD[r * 10 : r * 10 + 10][::-1]) for r in range(10)
    ]


@pytest.mark.parametrize("board", ["mirror", "random:7"])
def test_the_kernel_plays_the_naive_engines_games_on_another_board(board):
    """The kernel on another layout plays the games of the naive engine given that layout, and the referee,
    reading the board from the record, finds nothing wrong."""
    rules = Rules.make(2, layout=board)
    lineup = Lineup.parse("random", rules)
    for game in range(12):
        record = game_record(rules, lineup, 3, game)
        assert record["board"] == list(board_names(board)) and record["rules"]["layout"] == board
        assert naive.play_game(rules.record_rules(), ["random"] * 2, 3, game, board=record["board"]) == record
        assert referee.check_record(record) == []
    official = game_record(Rules.make(2), lineup, 3, 0)
    assert official["turns"] != game_record(rules, lineup, 3, 0)["turns"]


def test_a_board_is_part_of_a_runs_identity_and_folder():
    lineup = Lineup.parse("greedy", Rules.make(2))
    ids = {b: ds.run_id(ds.identity_of(Rules.make(2, layout=b), lineup, 1)) for b in ("official", "mirror", "random:7")}
    assert len(set(ids.values())) == 3
    assert run_folder_name(Rules.make(2, layout="random:7"), lineup, 1, 1).endswith("-random7")
    assert run_folder_name(Rules.make(2), lineup, 1, 1) == "p2t2-greedy"


def test_another_layout_compiles_nothing_new():
    """The layout is the kernel's tables, a record of one type: a new one plays on the code compiled."""
    rules = Rules.make(2)
    simulate(rules, Lineup.parse("greedy", rules), 1, 0, 3)
    compiled: list[str] = []

    class Compiles(event.Listener):
        def on_start(self, ev):
            compiled.append(ev.data["dispatcher"].py_func.__qualname__)

        def on_end(self, ev):
            pass

    with event.install_listener("numba:compile", Compiles()):
        other = Rules.make(2, layout="random:11")
        simulate(other, Lineup.parse("greedy", other), 1, 0, 3)
    assert compiled == []


BAD = [
    ("XX,2S\n", "must be 10 rows of 10 cells"),
    (
        "\n".join(",".join(OFFICIAL_BOARD[r * 10 : r * 10 + 10]) for r in range(10)).replace("QS", "JS", 1),
        "JS is not a card",
    ),
    (
        "\n".join(",".join(OFFICIAL_BOARD[r * 10 : r * 10 + 10]) for r in range(10)).replace("2S", "3S", 1),
        "prints 2S 1 times",
    ),
]


@pytest.mark.parametrize("text, says", BAD)
def test_a_bad_board_file_is_one_error_line(tmp_path, text, says):
    path = tmp_path / "board.csv"
    path.write_text(text)
    with pytest.raises(RulesError, match=says):
        Rules.make(2, layout=str(path))
    result = runner.invoke(app, ["run", "--layout", str(path), "--games", "10", "--out", str(tmp_path / "run")])
    assert result.exit_code != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --layout") and says in lines[0], result.stderr
    assert not (tmp_path / "run").exists()


def test_a_board_file_plays_and_names_its_layout(tmp_path):
    path = tmp_path / "mine.csv"
    layout = board_names("random:5")
    path.write_text("\n".join(",".join(layout[r * 10 : r * 10 + 10]) for r in range(10)) + "\n")
    rules = Rules.make(2, layout=str(path))
    assert board_names(rules.layout) == layout
    assert ds.identity_of(rules, Lineup.parse("random", rules), 1)["board"] == boards.layout_hash("random:5")
    rows = simulate(rules, Lineup.parse("random", rules), 4, 0, 20)
    same = simulate(Rules.make(2, layout="random:5"), Lineup.parse("random", rules), 4, 0, 20)
    assert (rows == same).all()
