"""The random policy (RULES.md, "Simulation conventions"; docs/ENGINE.md).

Dead card: one of the distinct dead codes in the hand, uniformly. Action: a
card uniformly among the distinct playable codes, then a cell uniformly
among that card's legal cells. Codes and cells are taken in ascending order,
so "the k-th" is the k-th set bit of a set.
"""

import numpy as np

from .jit import inline_kernel
from .rng import below
from .state import may_place, nth_bit, nth_cell, popcount, removable, targets, unsigned
from .tables import ONE_EYED, ORDINARY, TWO_EYED


@inline_kernel
def dead_codes(st, seat):
    """The set of distinct dead card codes in the seat's hand."""
    return st.held[unsigned(seat)] & st.dead[0]


@inline_kernel
def playable_codes(tb, cfg, st, seat, team):
    """The set of distinct card codes in the seat's hand with a legal action.

    An ordinary card that is not dead has an empty cell; a two-eyed Jack needs
    an empty non-corner cell; a one-eyed Jack an opponent chip not locked.
    Placing needs a chip in supply (chip limit).
    """
    held = st.held[unsigned(seat)]
    codes = np.uint64(0)
    if may_place(cfg, st, team):
        codes = held & tb.kind_codes[ORDINARY] & ~st.dead[0]
        free = (tb.playable_cells[0] & ~st.occupied[0]) | (tb.playable_cells[1] & ~st.occupied[1])
        if free != np.uint64(0):
            codes |= held & tb.kind_codes[TWO_EYED]
    lo, hi = removable(st, team)
    if (lo | hi) != np.uint64(0):
        codes |= held & tb.kind_codes[ONE_EYED]
    return codes


@inline_kernel
def random_dead(tb, st, seat):
    """Discard a dead card uniformly among the distinct dead codes, if any."""
    codes = dead_codes(st, seat)
    if codes == np.uint64(0):
        return -1
    return nth_bit(codes, below(st.rng, popcount(codes)))


@inline_kernel
def random_action(tb, cfg, st, seat, team):
    """A card uniformly among the distinct playable codes, then a cell uniformly."""
    codes = playable_codes(tb, cfg, st, seat, team)
    if codes == np.uint64(0):
        return -1, -1
    code = nth_bit(codes, below(st.rng, popcount(codes)))
    lo, hi = targets(tb, cfg, st, team, code)
    return code, nth_cell(lo, hi, below(st.rng, popcount(lo) + popcount(hi)))
