"""`simkit replay`: a recorded game on the board, turn by turn, every move checked against the rules.

The package's checking (simkit.game.replay, written from docs/RULES.md) is held to the independent referee
(tests/referee.py): both accept every record `simkit play --record` writes, and both refuse the same
broken records (a wrong card, an illegal cell, a locked chip removed, a false pass, a wrong result).
"""

from __future__ import annotations

import copy
import json
import re

import pytest
from typer.testing import CliRunner

from simkit.cli import app
from simkit.game.cards import cell_index, cell_name
from simkit.game.records import read_records
from simkit.game.replay import ReplayError, replay
from tests import referee

runner = CliRunner()
HEADER = "    A     B     C     D     E     F     G     H     I     J"  # six columns a cell: "7H:b* "

TABLES = [
    ("2", "2", []),
    ("3", "3", []),
    ("4", "2", []),
    ("12", "3", []),
    ("3", "3", ["--chip-limit"]),
    ("2", "2", ["--no-reshuffle"]),
    ("2", "2", ["--late-card", "5"]),
    ("4", "2", ["--handicap", "9"]),
]


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    """Records written by `simkit play --record`, at several tables and rule options."""
    out = []
    for i, (players, teams, options) in enumerate(TABLES):
        path = tmp_path_factory.mktemp("records") / f"t{i}.jsonl"
        result = runner.invoke(
            app,
            [
                "play",
                "--players",
                players,
                "--teams",
                teams,
                *options,
                "--seed",
                "11",
                "--games",
                "3",
                "--record",
                str(path),
                "--quiet",
            ],
            catch_exceptions=False,
        )
        assert result.exit_code == 0, result.output
        out += read_records(path)
    return out


def test_cell_names_are_column_letter_and_row_number():
    assert [cell_name(c) for c in (0, 9, 23, 90, 99)] == ["A1", "J1", "D3", "A10", "J10"]
    assert all(cell_index(cell_name(c)) == c for c in range(100))
    with pytest.raises(ValueError, match="column letter A-J"):
        cell_index("K3")


def test_every_record_simkit_writes_replays_and_the_referee_agrees(records):
    for rec in records:
        assert referee.check_record(rec, strict_rules=False) == []
        steps = replay(rec)
        assert len(steps) == rec["result"]["turns"]
        for turn in rec["turns"]:
            assert turn["cell_name"] == (None if turn["cell"] is None else cell_name(turn["cell"]))


def _won(records):
    return next(r for r in records if r["result"]["end"] == "win" and r["rules"]["players"] == 2)


def _mutations(rec):
    """(what, broken record) pairs, each a record that must not replay."""
    turns = rec["turns"]
    board = rec["board"]
    out = []
    i = next(k for k, t in enumerate(turns) if k > 4 and t["action"] == "place" and t["card"][0] != "J")
    bad = copy.deepcopy(rec)
    hand_cards = {c for h in rec["hands"] for c in h}
    bad["turns"][i]["card"] = next(c for c in ("KD", "QD", "2S", "3S") if c != turns[i]["card"])
    out.append(("a card the seat does not hold", bad))
    bad = copy.deepcopy(rec)
    wrong = next(c for c in range(100) if board[c] not in ("XX", turns[i]["card"]))
    bad["turns"][i]["cell"], bad["turns"][i]["cell_name"] = wrong, cell_name(wrong)
    out.append(("a cell the card does not show", bad))
    bad = copy.deepcopy(rec)
    bad["turns"][i]["cell_name"] = "Z9"
    out.append(("a cell name that does not name the cell", bad))
    bad = copy.deepcopy(rec)
    t = bad["turns"][i]
    t["card"], t["action"], t["cell"], t["cell_name"], t["drawn"] = None, "pass", None, None, []
    out.append(("a pass with a playable card", bad))
    bad = copy.deepcopy(rec)
    bad["result"]["winner_team"] = 1 - rec["result"]["winner_team"]
    out.append(("a result the turns do not give", bad))
    bad = copy.deepcopy(rec)
    bad["turns"] = bad["turns"][:-1]
    bad["result"]["turns"] -= 1
    out.append(("a game cut short", bad))
    bad = copy.deepcopy(rec)
    k = next(k for k, t in enumerate(turns) if t["sequences"])
    bad["turns"][k]["sequences"] = []
    out.append(("a sequence left undeclared", bad))
    bad = copy.deepcopy(rec)
    bad["format"] = "simkit.game/0"
    out.append(("a bad format", bad))
    assert hand_cards
    return out


def test_broken_records_are_refused_by_the_replay_and_the_referee(records):
    rec = _won(records)
    for what, bad in _mutations(rec):
        assert referee.check_record(bad, strict_rules=False), what
        with pytest.raises(ReplayError):
            replay(bad)


def test_a_locked_chip_removed_is_refused(records):
    """A one-eyed Jack on a chip of a completed sequence: both refuse it."""
    rec = _won(records)
    k = next(k for k, t in enumerate(rec["turns"]) if t["sequences"])
    seq = rec["turns"][k]["sequences"][0]
    team = rec["turns"][k]["seat"] % 2
    cell = next(c for c in seq if rec["board"][c] != "XX")
    bad = copy.deepcopy(rec)
    nxt = bad["turns"][k + 1]
    assert nxt["seat"] % 2 != team
    hand = list(bad["hands"][nxt["seat"]])
    bad["hands"][nxt["seat"]] = hand  # the seat is given a one-eyed Jack from the start
    hand[0] = "JS"
    nxt.update(card="JS", action="remove", cell=cell, cell_name=cell_name(cell), sequences=[])
    assert referee.check_record(bad, strict_rules=False)
    with pytest.raises(ReplayError):
        replay(bad)


def _write(path, recs):
    path.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    return str(path)


def test_replay_prints_every_turn_on_the_board_when_not_a_terminal(records, tmp_path):
    rec = _won(records)
    path = _write(tmp_path / "one.jsonl", [rec])
    result = runner.invoke(app, ["replay", path], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    out = result.stdout
    n = rec["result"]["turns"]
    assert f"{n} turns in all" in out and out.count("\n" + HEADER + "\n") == n + 1
    first = rec["turns"][0]
    assert f"turn 1 (round 1), seat 0 (team 0, blue): plays {first['card']} on {first['cell_name']}" in out
    assert f"team {rec['result']['winner_team']}" in out.splitlines()[-1] and "(all seats;" in out.splitlines()[-1]
    assert "completes a sequence: " in out and "Enter" not in out


def test_replay_to_a_given_turn(records, tmp_path):
    rec = _won(records)
    path = _write(tmp_path / "one.jsonl", [rec])
    result = runner.invoke(app, ["replay", path, "--turn", "3"], catch_exceptions=False)
    assert result.exit_code == 0
    assert "turn 3 (round 2)" in result.stdout and "turn 4" not in result.stdout
    cells = [t["cell_name"] for t in rec["turns"][:3] if t["action"] == "place"]
    lines = result.stdout.splitlines()
    row = int(rec["turns"][2]["cell_name"][1:])  # the last move's row is marked with *
    marked = next(line for line in lines if line.startswith(f"{row:>2}  "))
    assert "*" in marked
    assert cells
    column = "ABCDEFGHIJ".index(rec["turns"][2]["cell_name"][0])
    cell = marked[4 + 6 * column : 4 + 6 * column + 6]  # the last move's cell, read apart from the next one
    assert re.fullmatch(r"[2-9TJQKA][SHDC]:[bgrBGR]\* ?", cell), cell
    deal = runner.invoke(app, ["replay", path, "--turn", "0"], catch_exceptions=False)
    assert "the deal:" in deal.stdout and "turn 1" not in deal.stdout


@pytest.mark.parametrize(
    "what",
    [
        "a card the seat does not hold",
        "a cell the card does not show",
        "a bad format",
        "a result the turns do not give",
    ],
)
def test_the_command_refuses_a_record_that_does_not_replay_in_one_line(records, tmp_path, what):
    bad = dict(_mutations(_won(records)))[what]
    path = _write(tmp_path / "bad.jsonl", [bad])
    result = runner.invoke(app, ["replay", path])
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: game {bad['game']} (line 1) of {path} does not replay: ")
    assert "Traceback" not in result.output


def test_a_record_without_a_game_index_is_named_by_its_line(records, tmp_path):
    """It was "game None of FILE does not replay"."""
    good = _won(records)
    bad = dict(_mutations(good))["a card the seat does not hold"]
    del bad["game"]
    path = _write(tmp_path / "two.jsonl", [good, bad])
    chosen = runner.invoke(app, ["replay", path, "--game", str(good["game"]), "--turn", "1"])
    assert chosen.exit_code == 0 and chosen.stdout.startswith(f"game {good['game']} of seed ")
    (tmp_path / "blank-first.jsonl").write_text("\n" + json.dumps(bad) + "\n")
    result = runner.invoke(app, ["replay", str(tmp_path / "blank-first.jsonl")])
    (line,) = result.stderr.strip().splitlines()
    assert result.exit_code == 1 and "None" not in line
    assert line.startswith(
        f"error: the record on line 2 of {tmp_path / 'blank-first.jsonl'} (it has no game index) does not replay: "
    )


def test_the_result_line_names_the_team_of_each_sequence_count(records, tmp_path):
    """It said "sequences 2/0": whose two?"""
    rec = _won(records)
    path = _write(tmp_path / "one.jsonl", [rec])
    last = runner.invoke(app, ["replay", path], catch_exceptions=False).stdout.splitlines()[-1]
    a, b = rec["result"]["sequences"]
    assert last.endswith(f"; sequences: team 0 (blue) {a}, team 1 (green) {b}")
    three = next(r for r in records if r["rules"]["teams"] == 3)
    from simkit.presentation.display import result_line

    assert "team 2 (red)" in result_line(three)


def test_replay_has_no_short_flag_that_means_another_option_elsewhere():
    result = runner.invoke(app, ["replay", "x.jsonl", "-t", "3"])
    assert result.exit_code == 2 and "no such option -t" in result.stderr
    assert "-t" not in runner.invoke(app, ["replay", "--help"], terminal_width=200).stdout.split("--turn")[1][:3]


@pytest.mark.parametrize(
    "content, message", [("not json\n", "line 1 of {path} is not JSON"), ("", "{path} holds no game record")]
)
def test_the_command_refuses_a_file_that_is_not_records(tmp_path, content, message):
    path = tmp_path / "x.jsonl"
    path.write_text(content)
    result = runner.invoke(app, ["replay", str(path)])
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 1 and len(lines) == 1 and lines[0].startswith("error: " + message.format(path=path))


def test_the_command_chooses_a_game_of_a_file(records, tmp_path):
    path = _write(tmp_path / "two.jsonl", records[:2])
    first = runner.invoke(app, ["replay", path, "--turn", "1"], catch_exceptions=False)
    assert "(the first of 2 games" in first.stdout
    second = runner.invoke(app, ["replay", path, "--game", str(records[1]["game"]), "--turn", "1"])
    assert second.exit_code == 0 and f"game {records[1]['game']} of seed" in second.stdout
    missing = runner.invoke(app, ["replay", path, "--game", "99"])
    assert missing.exit_code == 1 and "holds no game 99" in missing.stderr
    beyond = runner.invoke(app, ["replay", path, "--turn", "9999"])
    assert beyond.exit_code == 1 and "beyond the game's last turn" in beyond.stderr


def test_the_printed_board_has_row_and_column_labels():
    result = runner.invoke(app, ["play", "--seed", "3"], catch_exceptions=False)
    lines = result.stdout.splitlines()
    assert lines[0] == HEADER
    assert [line[:4] for line in lines[1:11]] == [f"{r:>2}  " for r in range(1, 11)]
    assert lines[1][4:].startswith("XX    2S")


def test_record_md_stands_alone_with_the_board_it_names():
    """docs/RECORD.md shows the shipped board (simkit/data/board.csv) with the cell names' letters and
    numbers, and leans on no file outside the repository."""
    from pathlib import Path

    from simkit.game.cards import board_names

    text = (Path(__file__).resolve().parents[1] / "docs" / "RECORD.md").read_text(encoding="utf-8")
    rows = [
        line.strip("|").split("|")
        for line in text.splitlines()
        if line.startswith("| ") and line.split("|")[1].strip().isdigit()
    ]
    assert [int(r[0]) for r in rows] == list(range(1, 11))
    assert [c.strip() for r in rows for c in r[1:]] == list(board_names())
    assert "simkit/data/board.csv" in text and "../" not in text and "cell_name" in text
