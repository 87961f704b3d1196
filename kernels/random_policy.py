"""The random policy (RULES.md, "Simulation conventions"; docs/ENGINE.md).

Dead card: one of the distinct dead codes in the hand, uniformly. Action: a
card uniformly among the distinct playable codes, then a cell uniformly
among that card's legal cells.
"""

import numpy as np

from .jit import inline_kernel
from .rng import below
from .state import is_dead, nth_cell, popcount, targets


@inline_kernel
def _distinct_dead(tb, st, seat):
    """Write the hand's distinct dead codes, ascending, to scratch; return how many."""
    n, prev = 0, -1
    for i in range(st.hand_n[seat]):
        code = st.hands[seat, i]
        if code != prev:
            if is_dead(tb, st, code):
                st.scratch[n] = code
                n += 1
        prev = code
    return n


@inline_kernel
def _distinct_playable(tb, cfg, st, seat, team):
    """Write the hand's distinct codes with a legal action, ascending, to scratch."""
    n, prev = 0, -1
    for i in range(st.hand_n[seat]):
        code = st.hands[seat, i]
        if code != prev:
            lo, hi = targets(tb, cfg, st, team, code)
            if (lo | hi) != np.uint64(0):
                st.scratch[n] = code
                n += 1
        prev = code
    return n


@inline_kernel
def random_dead(tb, st, seat):
    """Discard a dead card uniformly among the distinct dead codes, if any."""
    n = _distinct_dead(tb, st, seat)
    if n == 0:
        return -1
    return st.scratch[below(st.rng, n)]


@inline_kernel
def random_action(tb, cfg, st, seat, team):
    """A card uniformly among the distinct playable codes, then a cell uniformly."""
    n = _distinct_playable(tb, cfg, st, seat, team)
    if n == 0:
        return -1, -1
    code = st.scratch[below(st.rng, n)]
    lo, hi = targets(tb, cfg, st, team, code)
    return code, nth_cell(lo, hi, below(st.rng, popcount(lo) + popcount(hi)))
