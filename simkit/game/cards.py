"""Card codes, and the kernel's tables of a board (its layout: simkit.game.boards; the official one is
simkit/data/board.csv).

A card code is ``suit * 13 + rank`` with suits ``S H D C`` and ranks
``A 2 3 4 5 6 7 8 9 T J Q K``; its text form is rank then suit (``"QS"``).
The board is 100 cells, ``row * 10 + column``, corners written ``XX``; a
cell's name (``cell_name``) is its column letter A-J (left to right) and its
row number 1-10 (top to bottom, board.csv's first line is row 1): cell 0 is
A1, cell 23 is D3, cell 99 is J10.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from simkit.game.boards import OFFICIAL, layout
from simkit.kernels.core.tables import build_tables

RANKS = "A23456789TJQK"
SUITS = "SHDC"
CORNER = "XX"
N_CODES = 52


COLUMN_LETTERS = "ABCDEFGHIJ"


def cell_name(cell: int) -> str:
    """'D3' for cell 23: the column letter A-J, then the row number 1-10 (row 1 at the top)."""
    cell = int(cell)
    if not 0 <= cell < 100:
        raise ValueError(f"not a cell: {cell} (cells are 0..99)")
    row, column = divmod(cell, 10)
    return f"{COLUMN_LETTERS[column]}{row + 1}"


def cell_index(name: str) -> int:
    """23 for 'D3' (cell_name's inverse; the letter in either case)."""
    text = str(name).strip().upper()
    if len(text) < 2 or text[0] not in COLUMN_LETTERS or not text[1:].isdigit() or not 1 <= int(text[1:]) <= 10:
        raise ValueError(f"not a cell name: {name!r} (a column letter A-J, then a row number 1-10, as D3)")
    return (int(text[1:]) - 1) * 10 + COLUMN_LETTERS.index(text[0])


def card_name(code: int) -> str:
    """'QS' for the code of the queen of spades."""
    suit, rank = divmod(int(code), 13)
    return RANKS[rank] + SUITS[suit]


def card_code(name: str) -> int:
    """The code of a card written rank then suit, e.g. 'QS'."""
    if len(name) != 2 or name[0] not in RANKS or name[1] not in SUITS:
        raise ValueError(f"not a card: {name!r} (rank in {RANKS}, then suit in {SUITS})")
    return SUITS.index(name[1]) * 13 + RANKS.index(name[0])


def board_names(board: str = OFFICIAL) -> tuple[str, ...]:
    """A board's layout (simkit.game.boards): 100 card names row-major, corners 'XX'."""
    return layout(board)


def board_codes(board: str = OFFICIAL) -> np.ndarray:
    """(100,) int64 card code per cell of the board, -1 for a corner."""
    return np.array([-1 if n == CORNER else card_code(n) for n in board_names(board)], np.int64)


@cache
def tables(board: str = OFFICIAL) -> np.record:
    """The kernel's tables for the board (the official one by default), built once: another layout is
    another record of the same type, so it compiles nothing new."""
    return build_tables(board_codes(board))
