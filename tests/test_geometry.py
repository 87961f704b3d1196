"""The kernel's line tables against plain (row, column) geometry.

Every expectation here is rebuilt from coordinates, not read from
``kernels/core/tables.py``.
"""

from __future__ import annotations

from collections import Counter

import pytest

from simkit.game.cards import tables
from tests.positions import bb_cells, cells_of

# (step, (d_row, d_col)) in ENGINE.md's order: row, column, down-right, down-left.
DIRECTIONS = [(1, (0, 1)), (10, (1, 0)), (11, (1, 1)), (9, (1, -1))]


def straight_lines() -> list[tuple[int, list[int]]]:
    """Every run of five cells on a straight line inside the board, as (step, cells)."""
    found = []
    for step, (dr, dc) in DIRECTIONS:
        for r in range(10):
            for c in range(10):
                pts = [(r + i * dr, c + i * dc) for i in range(5)]
                if all(0 <= rr < 10 and 0 <= cc < 10 for rr, cc in pts):
                    found.append((step, [rr * 10 + cc for rr, cc in pts]))
    return found


@pytest.fixture(scope="module")
def tb():
    return tables()


def test_192_lines(tb):
    """RULES.md, Sequences / ENGINE.md, New sequences: 192 lines of five."""
    assert tb.line_cells.shape == (192, 5)
    assert len(tb.line_lo) == len(tb.line_hi) == len(tb.line_dir) == 192
    assert len(straight_lines()) == 192


def test_lines_by_direction_60_60_36_36(tb):
    """ENGINE.md, New sequences: 60 rows, 60 columns, 36 + 36 diagonals."""
    counts = Counter(int(d) for d in tb.line_dir)
    assert counts == {0: 60, 1: 60, 2: 36, 3: 36}
    # Numbered by step (row, column, down-right, down-left), then ascending start.
    assert list(tb.line_dir) == sorted(tb.line_dir)
    for d in range(4):
        starts = [int(tb.line_cells[k, 0]) for k in range(192) if tb.line_dir[k] == d]
        assert starts == sorted(starts)


def test_every_line_is_five_cells_in_a_straight_line(tb):
    """RULES.md, Sequences: five cells in a straight line (row, column or diagonal) inside the board."""
    expected = {tuple(sorted(cells)) for _, cells in straight_lines()}
    got = set()
    for k in range(192):
        cells = [int(c) for c in tb.line_cells[k]]
        assert cells == sorted(cells) and len(set(cells)) == 5
        rc = [divmod(c, 10) for c in cells]
        dr, dc = rc[1][0] - rc[0][0], rc[1][1] - rc[0][1]
        step, _ = DIRECTIONS[int(tb.line_dir[k])]
        assert (dr, dc) == dict(DIRECTIONS)[step], k
        for i in range(5):  # equal strides in row and column: no wrapping round an edge
            assert rc[i] == (rc[0][0] + i * dr, rc[0][1] + i * dc), k
            assert 0 <= rc[i][0] < 10 and 0 <= rc[i][1] < 10
        got.add(tuple(cells))
    assert got == expected  # all distinct, and every straight run of five is there


def test_line_order_matches_engine_md(tb):
    """ENGINE.md, New sequences: lines in the order step 1, 10, 11, 9, then ascending start."""
    assert [(s, c) for s, c in straight_lines()] == [
        ((1, 10, 11, 9)[int(tb.line_dir[k])], sorted(int(x) for x in tb.line_cells[k])) for k in range(192)
    ]


def test_line_bitboards_match_cells(tb):
    """ENGINE.md, Cards and cells: a line's bitboard holds exactly its five cells."""
    for k in range(192):
        assert cells_of(tb.line_lo[k], tb.line_hi[k]) == sorted(int(c) for c in tb.line_cells[k])


def test_at_most_20_lines_through_a_cell_exactly_20_in_the_centre(tb):
    """RULES.md, Sequences: at most 20 lines (5 per direction) meet in a cell; only 44, 45, 54, 55 have 20."""
    through = Counter(c for _, cells in straight_lines() for c in cells)
    assert max(through.values()) == 20
    assert sorted(c for c, n in through.items() if n == 20) == [44, 45, 54, 55]
    assert [int(n) for n in tb.cell_nlines] == [through[c] for c in range(100)]
    assert tb.cell_lines.shape[1] == 20
    # Corners: one row, one column, one diagonal.
    assert all(through[c] == 3 for c in (0, 9, 90, 99))


def test_cell_lines_are_exactly_the_lines_containing_the_cell(tb):
    """ENGINE.md, New sequences: the lines through a cell, in line-number order, -1 padded."""
    for cell in range(100):
        n = int(tb.cell_nlines[cell])
        listed = [int(k) for k in tb.cell_lines[cell, :n]]
        assert all(k == -1 for k in tb.cell_lines[cell, n:]), cell
        assert listed == sorted(listed), cell
        containing = [k for k in range(192) if cell in tb.line_cells[k]]
        assert listed == containing, cell


def test_corners_bitboard(tb):
    """RULES.md, Equipment: the four corner cells are 0, 9, 90, 99."""
    assert bb_cells(tb.corners) == [0, 9, 90, 99]
    assert bb_cells(tb.playable_cells) == [c for c in range(100) if c not in (0, 9, 90, 99)]


def test_line_key_and_pos_identify_overlap(tb):
    """RULES.md, Sequences (share at most one cell): same direction and key = same straight line."""
    for a in range(0, 192, 7):
        for b in range(192):
            shared = len(set(tb.line_cells[a].tolist()) & set(tb.line_cells[b].tolist()))
            same_line = tb.line_dir[a] == tb.line_dir[b] and tb.line_key[a] == tb.line_key[b]
            if same_line:
                assert shared == max(0, 5 - abs(int(tb.line_pos[a]) - int(tb.line_pos[b]))), (a, b)
            else:
                assert shared <= 1, (a, b)
