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

from typing import NamedTuple

import numpy as np

from .record import record_of

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


class Tables(NamedTuple):
    """Read-only tables the kernel is given (never global state), as one record (``build_tables``).

    line_lo, line_hi: (192,) uint64, the words of each line's bitboard.
    line_cells:       (192, 5) int64, each line's cells, ascending.
    line_dir:         (192,) int64, index of the line's step in STEPS.
    line_key:         (192,) int64, which row/column/diagonal it lies on.
    line_pos:         (192,) int64, start position along that row/diagonal.
    line_corners:     (192,) int64, how many corner cells each line holds.
    cell_lines:       (100, 20) int64, the lines through each cell, -1 padded.
    cell_nlines:      (100,) int64, how many lines pass through each cell.
    corners:          (2,) uint64, bitboard of the four corner cells.
    playable_cells:   (2,) uint64, bitboard of the 96 non-corner cells.
    card_cells:       (52, 2) int64, the two cells showing each card, -1 for Jacks.
    card_kind:        (52,) int64, ORDINARY, TWO_EYED or ONE_EYED.
    card_of_cell:     (100,) int64, the card printed on each cell, -1 for a corner.
    kind_codes:       (3,) uint64, the set of card codes of each kind (bit = code).
    card_lo, card_hi: (52,) uint64, the cells a card may take when empty: its two
                      cells; every non-corner cell for a two-eyed Jack; none
                      for a one-eyed Jack.
    cell_dir_end:     (100, 4) int64, where each direction's lines end in the cell's
                      row of cell_lines (they come direction by direction).
    reach_lo, reach_hi: (100, 4) uint64, the other cells of the cell's lines in each
                      direction: a line through the cell is covered only if four of
                      these are.
    """

    line_lo: np.ndarray
    line_hi: np.ndarray
    line_cells: np.ndarray
    line_dir: np.ndarray
    line_key: np.ndarray
    line_pos: np.ndarray
    line_corners: np.ndarray
    cell_lines: np.ndarray
    cell_nlines: np.ndarray
    corners: np.ndarray
    playable_cells: np.ndarray
    card_cells: np.ndarray
    card_kind: np.ndarray
    card_of_cell: np.ndarray
    kind_codes: np.ndarray
    card_lo: np.ndarray
    card_hi: np.ndarray
    cell_dir_end: np.ndarray
    reach_lo: np.ndarray
    reach_hi: np.ndarray


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
    """The Tables for a board given as (100,) card codes, -1 for the corners: one record
    (``kernels.core.record``) with a field per field of ``Tables``."""
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
    tables = Tables(
        line_lo,
        line_hi,
        line_cells,
        line_dir,
        line_key,
        line_pos,
        np.array([sum(1 for c in cells if c in corner_cells) for *_, cells in lines], np.int64),
        cell_lines,
        cell_nlines,
        bitboard(corner_cells),
        playable_cells,
        card_cells,
        card_kind,
        board_codes.copy(),
        np.array([sum(1 << k for k in range(N_CODES) if card_kind[k] == kind) for kind in range(3)], np.uint64),
        card_lo,
        card_hi,
        cell_dir_end,
        reach_lo,
        reach_hi,
    )
    return record_of(tables._asdict())
