"""Board layouts as data: the rule option ``layout`` names one, the official board by default.

A layout is 100 card names, row-major, the corners ``XX`` (simkit/data/board.csv's format). A board is
named as the option takes it:

- ``official``: the published board (simkit/data/board.csv);
- ``mirror``: the official board mirrored left to right (every line is still a line: the same game, other
  cells; a check of any study of boards);
- ``random:SEED``: a seeded random layout: the corners where they are, each of the 48 cards but the Jacks
  on two of the other 96 cells, shuffled by simkit's own generator (splitmix64, as the kernel's), so a seed
  names the same layout on every machine and with every numpy;
- a path to a CSV file in board.csv's format.

Every layout is checked (``check``): 4 corners, each card but the Jacks printed twice, no Jack.
"""

from __future__ import annotations

import csv
import hashlib
from functools import cache
from importlib.resources import files
from pathlib import Path

OFFICIAL = "official"
MIRROR = "mirror"
RANDOM = "random:"
CORNER = "XX"
RANKS = "A23456789TJQK"
SUITS = "SHDC"
CARDS = tuple(rank + suit for suit in SUITS for rank in RANKS if rank != "J")  # the 48 cards a board prints
MASK = (1 << 64) - 1


class BoardError(ValueError):
    """A board that cannot be played; the message says what is wrong and what a board must be."""


def _official() -> tuple[str, ...]:
    text = files("simkit.data").joinpath("board.csv").read_text(encoding="utf-8")
    return _cells(text, "simkit/data/board.csv")


def _cells(text: str, where: str) -> tuple[str, ...]:
    rows = [row for row in csv.reader(text.splitlines()) if row]
    if len(rows) != 10 or any(len(row) != 10 for row in rows):
        raise BoardError(f"{where} must be 10 rows of 10 cells, comma-separated, as simkit/data/board.csv")
    return tuple(name.strip().upper() for row in rows for name in row)


def validate(names: tuple[str, ...], where: str) -> None:
    """Refuse a layout that is not a Sequence board: 4 corners XX, each card but the Jacks twice."""
    unknown = sorted({n for n in names if n != CORNER and n not in CARDS})
    if unknown:
        jack = " (a Jack is never printed)" if any(n[:1] == "J" for n in unknown) else ""
        raise BoardError(f"{where}: {', '.join(unknown[:3])} is not a card{jack}; {RULE}")
    corners = names.count(CORNER)
    if corners != 4:
        raise BoardError(f"{where} has {corners} corners (XX); {RULE}")
    wrong = [c for c in CARDS if names.count(c) != 2]
    if wrong:
        raise BoardError(f"{where} prints {wrong[0]} {names.count(wrong[0])} times; {RULE}")


RULE = "a board prints the 48 cards but the Jacks twice each and XX on 4 cells"


def _splitmix(state: int) -> tuple[int, int]:
    """(next state, output) of splitmix64 (docs/ENGINE.md, "Random numbers")."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def random_layout(seed: int) -> tuple[str, ...]:
    """The official board's corners, and each card but the Jacks on two of the other cells, shuffled
    (Fisher-Yates from the end, each draw the top bits of splitmix64 modulo the cells left)."""
    official = _official()
    cells = [i for i, name in enumerate(official) if name != CORNER]
    cards = [card for card in CARDS for _ in range(2)]
    state = seed & MASK
    for i in range(len(cards) - 1, 0, -1):
        state, z = _splitmix(state)
        j = z % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    names = list(official)
    for cell, card in zip(cells, cards):
        names[cell] = card
    return tuple(names)


def mirrored(names: tuple[str, ...]) -> tuple[str, ...]:
    """The layout mirrored left to right: row r's cells in reverse order."""
    return tuple(names[r * 10 + 9 - c] for r in range(10) for c in range(10))


def check(board: str) -> str:
    """The board's canonical name, its layout checked: 'official', 'mirror', 'random:7', or a file's path
    as given (BoardError otherwise)."""
    text = str(board).strip()
    low = text.lower()
    if low in (OFFICIAL, MIRROR):
        return low
    if low.startswith(RANDOM):
        seed = low[len(RANDOM) :]
        if not seed.isdigit() or int(seed) >= 2**63:
            raise BoardError(f"{text!r}: random:SEED takes a whole number from 0 to 2**63 - 1, as random:7")
        return f"{RANDOM}{int(seed)}"
    layout(text)
    return text


@cache
def layout(board: str) -> tuple[str, ...]:
    """The 100 card names of a board (see the module docstring), checked."""
    if board == OFFICIAL:
        return _official()
    if board == MIRROR:
        return mirrored(_official())
    if board.startswith(RANDOM):
        return random_layout(int(board[len(RANDOM) :]))
    path = Path(board)
    if not path.is_file():
        raise BoardError(
            f"{board!r} is not a board: give official, mirror, random:SEED or the path of a CSV file in "
            "board.csv's format"
        )
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise BoardError(f"{board}: cannot be read ({e.__class__.__name__})") from None
    names = _cells(text, board)
    validate(names, board)
    return names


def layout_hash(board: str) -> str:
    """16 hex digits naming the board's layout (its cards, row-major)."""
    return hashlib.sha256(",".join(layout(board)).encode()).hexdigest()[:16]


def tag(board: str) -> str:
    """The board's part of a run folder's name: 'mirror', 'random7', or a file's layout hash."""
    if board == MIRROR:
        return "mirror"
    if board.startswith(RANDOM):
        return "random" + board[len(RANDOM) :]
    return "board" + layout_hash(board)[:8]
