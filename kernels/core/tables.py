"""Lookup tables for the kernel, built once from the board layout.

Cells are ``row * 10 + column`` (0..99). A set of cells is a *bitboard*: two
``uint64`` words, cell ``c`` is bit ``c & 63`` of word ``c >> 6``.

Lines of five run along four steps: 1 (row), 10 (column), 11 (diagonal
down-right) and 9 (diagonal down-left): 60 + 60 + 36 + 36 = 192 lines.
Lines are numbered by step (in that order), then by start cell, so the lines
through one cell, taken in line-number order, come step by step and by
ascending start (docs/ENGINE.md, "New sequences").
"""

from __future__ import annotations

import numpy as np

from .record import new_record, record_dtype

N_CELLS = 100
SIDE = 10
STEPS = (1, 10, 11, 9)
N_LINES = 192
MAX_LINES_PER_CELL = 20
N_CODES = 52
JACK_RANK = 10
# Card codes are suit * 13 + rank with suits S, H, D, C (docs/ENGINE.md).
ONE_EYED_JACKS = (0 * 13 + JACK_RANK, 1 * 13 + JACK_RANK)  # JS, JH
TWO_EYED_JACKS = (2 * 13 + JACK_RANK, 3 * 13 + JACK_RANK)  # JD, JC

# Card kinds, indexed by card code.
ORDINARY, TWO_EYED, ONE_EYED = 0, 1, 2


# The Tables: read-only, built once from the board (``build_tables``), given to every kernel as one
# record (kernels.core.record; never global state).
TABLES_FIELDS = (
    ("line_lo", np.uint64, (N_LINES,)),  # the words of each line's bitboard
    ("line_hi", np.uint64, (N_LINES,)),
    ("line_cells", np.int64, (N_LINES, 5)),  # each line's cells, ascending
    ("line_dir", np.int64, (N_LINES,)),  # index of the line's step in STEPS
    ("line_key", np.int64, (N_LINES,)),  # which row/column/diagonal it lies on
    ("line_pos", np.int64, (N_LINES,)),  # start position along that row/diagonal
    ("line_corners", np.int64, (N_LINES,)),  # how many corner cells each line holds
    ("cell_lines", np.int64, (N_CELLS, MAX_LINES_PER_CELL)),  # the lines through each cell, -1 padded
    ("cell_nlines", np.int64, (N_CELLS,)),  # how many lines pass through each cell
    ("corners", np.uint64, (2,)),  # bitboard of the four corner cells
    ("playable_cells", np.uint64, (2,)),  # bitboard of the 96 non-corner cells
    ("card_cells", np.int64, (N_CODES, 2)),  # the two cells showing each card, -1 for Jacks
    ("card_kind", np.int64, (N_CODES,)),  # ORDINARY, TWO_EYED or ONE_EYED
    ("card_of_cell", np.int64, (N_CELLS,)),  # the card printed on each cell, -1 for a corner
    ("kind_codes", np.uint64, (3,)),  # the set of card codes of each kind (bit = code)
    # the cells a card may take when empty: its two cells; every non-corner cell for a two-eyed Jack;
    # none for a one-eyed Jack
    ("card_lo", np.uint64, (N_CODES,)),
    ("card_hi", np.uint64, (N_CODES,)),
    # where each direction's lines end in the cell's row of cell_lines (they come direction by direction)
    ("cell_dir_end", np.int64, (N_CELLS, len(STEPS))),
    # the other cells of the cell's lines in each direction: a line through the cell is covered only
    # if four of these are
    ("reach_lo", np.uint64, (N_CELLS, len(STEPS))),
    ("reach_hi", np.uint64, (N_CELLS, len(STEPS))),
)
TABLES = record_dtype(TABLES_FIELDS)


def bitboard(cells) -> np.ndarray:
    """The (2,) uint64 bitboard of an iterable of cells."""
    words = [0, 0]
    for c in cells:
        words[c >> 6] |= 1 << (c & 63)
    return np.array(words, dtype=np.uint64)


def _lines() -> list[tuple[int, int, int, list[int]]]:
    """All 192 lines as (direction, key, position, cells), in line-number order."""
    lines = []
    for direction, step in enumerate(STEPS):
        dr, dc = divmod(step, SIDE) if step != 9 else (1, -1)
        for start in range(N_CELLS):
            r0, c0 = divmod(start, SIDE)
            r4, c4 = r0 + 4 * dr, c0 + 4 * dc
            if not (0 <= r4 < SIDE and 0 <= c4 < SIDE):
                continue
            cells = [start + i * step for i in range(5)]
            # key: the row/column/diagonal; pos: how far along it the line starts.
            key, pos = [(r0, c0), (c0, r0), (c0 - r0, r0), (c0 + r0, r0)][direction]
            lines.append((direction, key, pos, cells))
    return lines


def build_tables(board_codes: np.ndarray) -> np.record:
    """The Tables (``TABLES_FIELDS``) for a board given as (100,) card codes, -1 for the corners."""
    board_codes = np.asarray(board_codes, dtype=np.int64)
    if board_codes.shape != (N_CELLS,):
        raise ValueError(f"board must have {N_CELLS} cells, got shape {board_codes.shape}")
    lines = _lines()
    assert len(lines) == N_LINES
    line_lo = np.empty(N_LINES, np.uint64)
    line_hi = np.empty(N_LINES, np.uint64)
    line_cells = np.empty((N_LINES, 5), np.int64)
    line_dir = np.empty(N_LINES, np.int64)
    line_key = np.empty(N_LINES, np.int64)
    line_pos = np.empty(N_LINES, np.int64)
    cell_lines = np.full((N_CELLS, MAX_LINES_PER_CELL), -1, np.int64)
    cell_nlines = np.zeros(N_CELLS, np.int64)
    for k, (direction, key, pos, cells) in enumerate(lines):
        line_lo[k], line_hi[k] = bitboard(cells)
        line_cells[k] = cells
        line_dir[k], line_key[k], line_pos[k] = direction, key, pos
        for c in cells:
            cell_lines[c, cell_nlines[c]] = k
            cell_nlines[c] += 1

    corner_cells = [c for c in range(N_CELLS) if board_codes[c] < 0]
    card_cells = np.full((N_CODES, 2), -1, np.int64)
    card_kind = np.full(N_CODES, ORDINARY, np.int64)
    card_lo = np.zeros(N_CODES, np.uint64)
    card_hi = np.zeros(N_CODES, np.uint64)
    card_kind[list(TWO_EYED_JACKS)] = TWO_EYED
    card_kind[list(ONE_EYED_JACKS)] = ONE_EYED
    for code in range(N_CODES):
        cells = np.flatnonzero(board_codes == code)
        if code % 13 == JACK_RANK:
            if len(cells):
                raise ValueError("a Jack cannot be printed on the board")
            continue
        if len(cells) != 2:
            raise ValueError(f"card code {code} is printed on {len(cells)} cells, must be 2")
        card_cells[code] = cells
        card_lo[code], card_hi[code] = bitboard(cells)
    cell_dir_end = np.zeros((N_CELLS, len(STEPS)), np.int64)
    reach_lo = np.zeros((N_CELLS, len(STEPS)), np.uint64)
    reach_hi = np.zeros((N_CELLS, len(STEPS)), np.uint64)
    for c in range(N_CELLS):
        for i in range(cell_nlines[c]):
            direction, _, _, cells = lines[cell_lines[c, i]]
            cell_dir_end[c, direction:] = i + 1
            others = bitboard(x for x in cells if x != c)
            reach_lo[c, direction] |= others[0]
            reach_hi[c, direction] |= others[1]
    playable_cells = bitboard(c for c in range(N_CELLS) if c not in corner_cells)
    for code in TWO_EYED_JACKS:
        card_lo[code], card_hi[code] = playable_cells
    values = {
        "line_lo": line_lo,
        "line_hi": line_hi,
        "line_cells": line_cells,
        "line_dir": line_dir,
        "line_key": line_key,
        "line_pos": line_pos,
        "line_corners": [sum(1 for c in cells if c in corner_cells) for *_, cells in lines],
        "cell_lines": cell_lines,
        "cell_nlines": cell_nlines,
        "corners": bitboard(corner_cells),
        "playable_cells": playable_cells,
        "card_cells": card_cells,
        "card_kind": card_kind,
        "card_of_cell": board_codes,
        "kind_codes": [sum(1 << k for k in range(N_CODES) if card_kind[k] == kind) for kind in range(3)],
        "card_lo": card_lo,
        "card_hi": card_hi,
        "cell_dir_end": cell_dir_end,
        "reach_lo": reach_lo,
        "reach_hi": reach_hi,
    }
    assert list(values) == list(TABLES.names), "every field of TABLES_FIELDS, in its order"
    tb = new_record(TABLES)
    for name, value in values.items():
        field = tb[name]
        value = np.asarray(value, field.dtype)
        assert value.shape == field.shape, (name, value.shape, field.shape)
        field[...] = value
    return tb
