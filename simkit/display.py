"""The board as text: card names with the chips on them.

Each cell is written ``2S``, with ``:b`` / ``:g`` / ``:r`` after it when a
blue / green / red chip is on it, upper case (``:B``) when that chip is part
of a completed sequence. Corners are ``XX``. With colour, chips are shown in
their team's colour instead, bold when locked.
"""

from __future__ import annotations

from rich.text import Text

from simkit.cards import board_names
from simkit.rules import TEAM_COLOURS

CHIP_LETTERS = "bgr"
STYLES = ("bold white on blue", "bold white on green", "bold white on red")


def board_from_record(record: dict) -> tuple[list[int | None], set[int]]:
    """Replay a simkit.game/1 record: (team on each cell or None, locked cells)."""
    owner: list[int | None] = [None] * 100
    locked: set[int] = set()
    teams = record["rules"]["teams"]
    for turn in record["turns"]:
        if turn["action"] == "place":
            owner[turn["cell"]] = turn["seat"] % teams
        elif turn["action"] == "remove":
            owner[turn["cell"]] = None
        for seq in turn["sequences"]:
            locked.update(seq)
    return owner, locked


def render_board(owner: list[int | None], locked: set[int]) -> Text:
    """The board as rich Text: plain markers, styled by team where colour is on."""
    names = board_names()
    text = Text()
    for row in range(10):
        for col in range(10):
            c = row * 10 + col
            team = owner[c]
            cell = names[c]
            if team is None:
                text.append(f"{cell}   ")
            else:
                letter = CHIP_LETTERS[team].upper() if c in locked else CHIP_LETTERS[team]
                style = STYLES[team] + ("" if c in locked else " dim")
                text.append(f"{cell}:{letter}", style=style)
                text.append(" ")
        text.rstrip()
        text.append("\n")
    return text


def result_line(record: dict) -> str:
    """One line: game index, how it ended, after how many turns, sequences per team."""
    res = record["result"]
    seqs = "/".join(str(s) for s in res["sequences"])
    if res["end"] == "win":
        team = res["winner_team"]
        outcome = f"team {team} ({TEAM_COLOURS[team]}) wins"
    else:
        outcome = "draw by " + res["end"].replace("_", " ")
    return f"game {record['game']}: {outcome} after {res['turns']} turns; sequences {seqs}"
