"""Moves: the state changes a turn is made of (RULES.md, "A turn").

Pure kernel functions on a State (``kernels.core.state``), shared by the game
loop (``kernels.engine``) and the lookahead policy's rollouts.
"""

import numpy as np

from .jit import inline_kernel, kernel
from .rng import shuffle
from .state import MAX_TEAMS, bit, bit_of, can_draw, code_bit, has, may_declare, popcount, unsigned
from .tables import ONE_EYED

# --- cards -------------------------------------------------------------------


@inline_kernel
def add_to_hand(st, seat, code):
    """Put one copy of `code` into the seat's hand."""
    s = unsigned(seat)
    st.count[s, unsigned(code)] += 1
    st.held[s] |= code_bit(code)
    st.hand_n[s] += 1


@inline_kernel
def take_from_hand(st, seat, code):
    """Take one copy of `code` from the seat's hand and put it on the discards."""
    s, c = unsigned(seat), unsigned(code)
    left = st.count[s, c] - 1
    st.count[s, c] = left
    st.held[s] &= ~(np.uint64(left == 0) << c)  # the code leaves the set with its last copy (no branch)
    st.hand_n[s] -= 1
    st.discard[unsigned(st.ctr.discard_n)] = code
    st.ctr.discard_n += 1


@inline_kernel
def draw(cfg, st, seat):
    """Draw the front card of the pile into the seat's hand.

    An empty pile is first replaced by the shuffled discards (reshuffle on).
    Returns (card, 1 if the discards were reshuffled else 0); card -1 when no
    card can be drawn (the pile is empty and reshuffle is off, or nothing has
    been discarded to reshuffle).
    """
    reshuffled = 0
    if st.ctr.pile_pos == st.ctr.pile_n:
        if not can_draw(cfg, st):
            return -1, 0
        n = st.ctr.discard_n
        for i in range(n):
            st.pile[i] = st.discard[i]
        st.ctr.discard_n = 0
        st.ctr.pile_pos = 0
        st.ctr.pile_n = n
        shuffle(st.rng, st.pile, n)
        reshuffled = 1
    card = st.pile[unsigned(st.ctr.pile_pos)]
    st.ctr.pile_pos += 1
    add_to_hand(st, seat, card)
    return card, reshuffled


# --- chips and sequences -----------------------------------------------------


@inline_kernel
def declare_sequences(tb, st, team, cell):
    """Declare the team's new sequences through `cell`; return how many.

    Tests only the lines through `cell`, in line-number order, and keeps each
    covered line that shares at most one cell with every sequence the team
    holds (those just declared included). Declared chips become locked.
    A direction whose other cells (tb.reach_*) are not four covered has no
    covered line through `cell`: its lines are skipped.
    """
    t = unsigned(team)
    w0 = st.chips[t, 0] | tb.corners[0]
    w1 = st.chips[t, 1] | tb.corners[1]
    c = unsigned(cell)
    new = 0
    start = 0
    for d in range(4):
        end = tb.cell_dir_end[c, d]
        if popcount(w0 & tb.reach_lo[c, d]) + popcount(w1 & tb.reach_hi[c, d]) >= 4:
            for i in range(start, end):
                k = unsigned(tb.cell_lines[c, i])
                lo, hi = tb.line_lo[k], tb.line_hi[k]
                if (w0 & lo) != lo:
                    continue
                if (w1 & hi) != hi:
                    continue
                new += add_sequence(tb, st, team, k)
        start = end
    return new


@inline_kernel
def add_sequence(tb, st, team, k):
    """Declare the covered line k a sequence of `team` if it shares at most one cell with
    every sequence the team holds; lock its chips. Returns 1 if declared, else 0."""
    if not may_declare(tb, st, team, k):
        return 0
    t = unsigned(team)
    n = st.nseq[t]
    st.seqs[t, unsigned(n)] = k
    st.nseq[t] = n + 1
    st.locked[0] |= tb.line_lo[k]
    st.locked[1] |= tb.line_hi[k]
    return 1


@inline_kernel
def put_chip(tb, st, team, cell):
    """The bitboards of a placement: team's chip on the empty `cell`; its card is dead if both
    cells are now taken."""
    w, m = bit(cell)
    t = unsigned(team)
    st.chips[t, w] |= m
    st.occupied[w] |= m
    st.on_board[t] += 1
    code = unsigned(tb.card_of_cell[unsigned(cell)])
    # Without branches: whether the other cell is taken is a coin flip the CPU cannot predict.
    both = bit_of(st.occupied, tb.card_cells[code, 0]) & bit_of(st.occupied, tb.card_cells[code, 1])
    st.dead[0] |= both << code


@inline_kernel
def place_chip(tb, st, team, cell):
    """Put a chip of `team` on the empty `cell` (bitboards and line counts); declares nothing."""
    put_chip(tb, st, team, cell)
    for i in range(tb.cell_nlines[cell]):
        k = tb.cell_lines[cell, i]
        st.in_line[team, k] += 1


@inline_kernel
def place_and_declare(tb, st, team, cell, counted):
    """place_chip, then declare_sequences; return how many sequences it declared.

    counted (whether the line counts st.in_line are kept): one pass over the lines through
    `cell`, the team's count on each raised as the chip goes down, a line covered when that
    count and the line's corners make five: the same lines, in the same order, as
    declare_sequences finds with the bitboards. Not counted: the chip on the bitboards and
    declare_sequences.
    """
    put_chip(tb, st, team, cell)
    if not counted:
        return declare_sequences(tb, st, team, cell)
    t = unsigned(team)
    new = 0
    for i in range(tb.cell_nlines[cell]):
        k = unsigned(tb.cell_lines[cell, i])
        n = st.in_line[t, k] + 1
        st.in_line[t, k] = n
        if n + tb.line_corners[k] == 5:
            new += add_sequence(tb, st, team, k)
    return new


@inline_kernel
def remove_chip(tb, st, cell):
    """Take the (unlocked) chip off `cell`, whoever owns it; its card lives again."""
    lift_chip(tb, st, cell, True)


@inline_kernel
def lift_chip(tb, st, cell, counted):
    """remove_chip; the owner's line counts (st.in_line) lowered only when `counted`."""
    w, m = bit(cell)
    for t in range(MAX_TEAMS):
        if has(st.chips[t], cell):
            st.chips[t, w] &= ~m
            st.on_board[t] -= 1
            if counted:
                for i in range(tb.cell_nlines[cell]):
                    k = unsigned(tb.cell_lines[cell, i])
                    st.in_line[t, k] -= 1
    st.occupied[w] &= ~m
    st.dead[0] &= ~code_bit(tb.card_of_cell[unsigned(cell)])


@kernel
def count_lines(tb, st):
    """Every team's chips on every line (st.in_line), counted afresh from the bitboards."""
    for t in range(MAX_TEAMS):
        lo, hi = st.chips[t, 0], st.chips[t, 1]
        for k in range(tb.line_lo.shape[0]):
            st.in_line[t, k] = popcount(lo & tb.line_lo[k]) + popcount(hi & tb.line_hi[k])


# --- whole moves -------------------------------------------------------------


@kernel
def swap_dead(cfg, st, seat, dead):
    """Discard the dead card `dead`, draw its replacement; return (card, reshuffled).

    Only when ``may_swap_dead``: a replacement can be drawn.
    """
    take_from_hand(st, seat, dead)
    return draw(cfg, st, seat)


@inline_kernel
def play_card(tb, st, seat, team, code, cell, counted):
    """Play `code` from the seat's hand on `cell`: remove (one-eyed Jack) or place.

    A placement declares the sequences it completes; returns how many. counted: a constant
    of the compiled code, whether the line counts st.in_line are kept (policies that read
    them, ``kernels.players.dispatch.counts_lines``); without them a placement finds its sequences
    on the bitboards (declare_sequences).
    """
    take_from_hand(st, seat, code)
    if tb.card_kind[unsigned(code)] == ONE_EYED:
        lift_chip(tb, st, cell, counted)
        return 0
    return place_and_declare(tb, st, team, cell, counted)
