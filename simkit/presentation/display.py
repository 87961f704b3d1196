"""The board as text: card names with the chips on them, columns A-J above, rows 1-10 beside.

Each cell is written ``2S``, with ``:b`` / ``:g`` / ``:r`` after it when a
blue / green / red chip is on it, upper case (``:B``) when that chip is part
of a completed sequence. Corners are ``XX``. With colour, chips are shown in
their team's colour instead, bold when locked. A cell is named by its column
letter and row number (D3: simkit.game.cards.cell_name); the cell of the last move
(in a replay) is marked with ``*`` after it, still a space apart from the next
cell (``7H:b* 2H``): every cell takes six columns.
"""

from __future__ import annotations

from rich.text import Text

from simkit.game.cards import COLUMN_LETTERS, board_names
from simkit.game.rules import TEAM_COLOURS

CHIP_LETTERS = "bgr"
CELL_WIDTH = 6  # "7H:b* ": the card, the chip, the last move's mark, a space
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


def render_board(
    owner: list[int | None], locked: set[int], last: int | None = None, names: tuple[str, ...] | None = None
) -> Text:
    """The board as rich Text, with column letters above and row numbers beside: plain markers, styled by
    team where colour is on; `last` (a cell) marked with ``*``; names: the layout (the official one by
    default)."""
    names = names or board_names()
    text = Text("    " + "".join(f"{letter:<{CELL_WIDTH}}" for letter in COLUMN_LETTERS).rstrip() + "\n", style="bold")
    for row in range(10):
        text.append(f"{row + 1:>2}  ", style="bold")
        for col in range(10):
            c = row * 10 + col
            team = owner[c]
            cell = names[c]
            if team is None:
                text.append(f"{cell}  ")
            else:
                letter = CHIP_LETTERS[team].upper() if c in locked else CHIP_LETTERS[team]
                style = STYLES[team] + ("" if c in locked else " dim")
                text.append(f"{cell}:{letter}", style=style)
            text.append("*" if c == last else " ", style="bold")
            text.append(" ")
        text.rstrip()
        text.append("\n")
    return text


def result_line(record: dict) -> str:
    """One line: game index, how it ended, after how many turns, sequences per team (each team named)."""
    res = record["result"]
    seqs = ", ".join(f"team {t} ({TEAM_COLOURS[t]}) {s}" for t, s in enumerate(res["sequences"]))
    if res["end"] == "win":
        team = res["winner_team"]
        outcome = f"team {team} ({TEAM_COLOURS[team]}) wins"
    else:
        outcome = "draw by " + res["end"].replace("_", " ")
    rounds = res["turns"] / record["rules"]["players"]
    return (
        f"game {record['game']}: {outcome} after {res['turns']} turns (all seats; {rounds:.1f} rounds); "
        f"sequences: {seqs}"
    )
